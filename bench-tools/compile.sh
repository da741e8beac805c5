#!/usr/bin/env bash
# Compile cost of #[derive(RowKey)] against serde's derives, on the same 200
# generated structs (bench-tools/gen_structs.py); with -u, of the keys in
# use: each struct also encoded and decoded once, by rowkey against serde +
# memcomparable.
#
# Makes, in a temp directory (removed on exit), two throwaway crates that
# depend by path on a snapshot of this workspace (copied when the script
# starts, so edits made meanwhile do not rebuild rowkey inside a timing):
#   rowkey_bench: 200 structs with rowkey attributes, #[derive(rowkey::RowKey)]
#   serde_bench:  the same structs, no attributes, #[derive(Serialize, Deserialize)]
# builds both once (untimed: dependencies, then a warm-up), then times
# debug-build touch-rebuilds (touch src/lib.rs; cargo build) with
# incremental compilation on (the dev default) and with CARGO_INCREMENTAL=0,
# RUNS times each, the two crates alternating, and reports medians of
# wall time and of CPU time (user + sys of cargo and rustc).
#
# In use (-u): each crate also has, per struct, `pub fn use_keyNNN() -> bool`
# that builds a value, encodes it, decodes the bytes back and compares the
# first field (gen_structs.py --use): rowkey_bench by `to_key()` and the
# derive's `KeyNNN::decode(&key)`, serde_bench by `memcomparable::to_vec`
# and `memcomparable::from_slice` (memcomparable 0.2 becomes a dependency
# of serde_bench, its version pinned by rowkey's Cargo.lock, where it is a
# dev-dependency). So the timings include the code generated for the calls:
# the generic encode/decode paths of rowkey-core, serde and memcomparable
# instantiated for each struct. The expansion baseline is then the bare
# structs with the same functions (they contain no macro calls). The values
# are valid keys and rowkey round-trips every one; memcomparable compiles
# `&'a str` fields but refuses them when decoding (it has no borrowed
# strings), so those serde functions would fail at run time: the code
# compiled is the same, and nothing here runs them.
#
# The expanded size (lines of `-Zunpretty=expanded` output, minus the same
# structs without derives) needs a nightly flag: the stable compiler accepts
# it with RUSTC_BOOTSTRAP=1 (what cargo-expand does); it runs last, after
# the timings. SKIP_EXPAND=1 leaves it out.
#
# usage: bench-tools/compile.sh [-r RUNS] [-n STRUCTS] [-s SALTED] [-c REV] [-u] [-k]
#   -r RUNS     timed builds per crate and mode (default 5)
#   -n STRUCTS  structs per crate (default 200), -s SALTED of them salted (40)
#   -u          in use: every struct also encoded and decoded once (above);
#               without it, the structs and derives alone
#   -c REV      use rowkey as committed at REV (git archive) instead of a
#               snapshot of the working tree
#   -k          keep the temp directory (prints its path)
#   env: ROWKEY_PATH (default: this repository), SEED (default 7)
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
rowkey_path="${ROWKEY_PATH:-$(cd "$here/.." && pwd)}"
runs=5
count=200
salted=40
keep=0
in_use=0
rev=""
seed="${SEED:-7}"
while getopts "r:n:s:c:ukh" opt; do
    case "$opt" in
        r) runs="$OPTARG" ;;
        n) count="$OPTARG" ;;
        s) salted="$OPTARG" ;;
        c) rev="$OPTARG" ;;
        u) in_use=1 ;;
        k) keep=1 ;;
        *) sed -n '2,46p' "$0"; exit 2 ;;
    esac
done

work="$(mktemp -d "${TMPDIR:-/tmp}/rowkey-compile.XXXXXX")"
if [ "$keep" = 1 ]; then
    trap 'echo "kept $work" >&2' EXIT
else
    trap 'rm -rf "$work"' EXIT
fi
# A snapshot of the rowkey sources (tracked and untracked, not ignored
# files): others may edit the live tree while this runs, and a changed
# dependency would be rebuilt inside a timed build.
snapshot="$work/rowkey-src"
mkdir -p "$snapshot"
if [ -n "$rev" ]; then
    commit="$(git -C "$rowkey_path" rev-parse --verify "$rev^{commit}")"
    git -C "$rowkey_path" archive "$commit" | tar -xf - -C "$snapshot"
    rowkey_rev="$(git -C "$rowkey_path" rev-parse --short "$commit") (committed tree)"
else
    (cd "$rowkey_path" && git ls-files -co --exclude-standard -z \
        | tar --null --ignore-failed-read -T - -cf - 2>/dev/null) | tar -xf - -C "$snapshot"
    rowkey_rev="$(git -C "$rowkey_path" rev-parse --short HEAD 2>/dev/null || echo '?')"
    if ! git -C "$rowkey_path" diff --quiet HEAD -- rowkey-core rowkey-derive src 2>/dev/null; then
        rowkey_rev="$rowkey_rev + uncommitted changes (working tree)"
    fi
fi
[ -f "$snapshot/Cargo.toml" ] || { echo "could not snapshot $rowkey_path" >&2; exit 1; }

# One target directory for both crates: shared dependencies build once.
export CARGO_TARGET_DIR="$work/target"
unset CARGO_INCREMENTAL RUSTC_BOOTSTRAP RUSTFLAGS CARGO_BUILD_RUSTFLAGS

make_crate() { # name kind dependency-line
    local dir="$work/$1"
    mkdir -p "$dir/src"
    cat >"$dir/Cargo.toml" <<EOF
[package]
name = "$1"
version = "0.0.0"
edition = "2021"
publish = false

[workspace]

[dependencies]
$3
EOF
    # Pin dependency versions to the workspace's.
    cp "$snapshot/Cargo.lock" "$dir/Cargo.lock"
    local uses=()
    if [ "$in_use" = 1 ]; then uses=(--use "$2"); fi
    python3 "$here/gen_structs.py" "$2" --count "$count" --salted "$salted" --seed "$seed" \
        "${uses[@]}" >"$dir/src/lib.rs"
}

make_crate rowkey_bench rowkey "rowkey = { path = \"$snapshot\" }"
if [ "$in_use" = 1 ]; then
    make_crate serde_bench serde 'serde = { version = "1", features = ["derive"] }
memcomparable = "0.2"'
else
    make_crate serde_bench serde 'serde = { version = "1", features = ["derive"] }'
fi
crates=(rowkey_bench serde_bench)

build() { # crate [env...]: a debug build, quiet unless it fails
    local crate="$1"
    shift
    if ! (cd "$work/$crate" && env "$@" cargo build --quiet --message-format=json \
        >"$work/$crate.json" 2>"$work/$crate.log"); then
        echo "cargo build failed in $crate:" >&2
        cat "$work/$crate.log" >&2
        exit 1
    fi
}

timed_build() { # crate [env...]: build as above; prints "wall-seconds<TAB>cpu-seconds"
    local crate="$1"
    shift
    if ! python3 - "$work/$crate" "$work/$crate.json" "$work/$crate.log" "$@" <<'PY'; then
import os, resource, subprocess, sys, time
cwd, out, err, *envs = sys.argv[1:]
env = dict(os.environ)
env.update(e.split("=", 1) for e in envs)
with open(out, "w") as o, open(err, "w") as e:
    r0, t0 = resource.getrusage(resource.RUSAGE_CHILDREN), time.perf_counter()
    rc = subprocess.call(["cargo", "build", "--quiet", "--message-format=json"],
                         cwd=cwd, env=env, stdout=o, stderr=e)
    t1, r1 = time.perf_counter(), resource.getrusage(resource.RUSAGE_CHILDREN)
cpu = (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)
print(f"{t1 - t0:.4f}\t{cpu:.4f}")
sys.exit(rc)
PY
        echo "cargo build failed in $crate:" >&2
        cat "$work/$crate.log" >&2
        exit 1
    fi
}

times="$work/times.tsv"
: >"$times"
for mode in incremental non-incremental; do
    if [ "$mode" = incremental ]; then envs=(CARGO_INCREMENTAL=1); else envs=(CARGO_INCREMENTAL=0); fi
    echo "warming up ($mode): dependencies and a first build of each crate, untimed ..." >&2
    for crate in "${crates[@]}"; do
        build "$crate" "${envs[@]}"
        touch "$work/$crate/src/lib.rs"
        build "$crate" "${envs[@]}"
    done
    for ((i = 1; i <= runs; i++)); do
        for crate in "${crates[@]}"; do
            touch "$work/$crate/src/lib.rs"
            took="$(timed_build "$crate" "${envs[@]}")"
            # Only the crate itself may have compiled inside the timing.
            if grep '"reason":"compiler-artifact"' "$work/$crate.json" | grep '"fresh":false' \
                | grep -v "$crate" >&2; then
                echo "error: a dependency was rebuilt inside a timed build of $crate" >&2
                exit 1
            fi
            printf '%s\t%s\t%s\n' "$mode" "$crate" "$took" >>"$times"
            echo "  $mode $crate run $i: wall, cpu (s): $took" >&2
        done
    done
done

# Expanded size: lines (and bytes) of the expanded crate, minus the same
# structs without any derive (in use: with the crate's own use functions).
expanded="$work/expanded.tsv"
: >"$expanded"
if [ "${SKIP_EXPAND:-0}" != 1 ]; then
    echo "expanding (RUSTC_BOOTSTRAP=1 -Zunpretty=expanded) ..." >&2
    for kind in rowkey serde; do
        uses=()
        if [ "$in_use" = 1 ]; then uses=(--use "$kind"); fi
        python3 "$here/gen_structs.py" plain --count "$count" --salted "$salted" --seed "$seed" \
            "${uses[@]}" >"$work/plain_$kind.rs"
    done
    for crate in "${crates[@]}"; do
        if (cd "$work/$crate" && RUSTC_BOOTSTRAP=1 cargo rustc --quiet --profile=check --lib \
            -- -Zunpretty=expanded >"$work/$crate.expanded.rs" 2>"$work/$crate.expand.log"); then
            printf '%s\t%s\t%s\n' "$crate" \
                "$(wc -l <"$work/$crate.expanded.rs")" "$(wc -c <"$work/$crate.expanded.rs")" >>"$expanded"
        else
            echo "expansion failed for $crate (skipped):" >&2
            tail -5 "$work/$crate.expand.log" >&2
        fi
    done
    # The baselines: the plain structs (and use functions), expanded alone
    # (prelude and all). Expansion stops before type checking, so the use
    # functions need no derive. The crates' sources are put back after.
    for kind in rowkey serde; do
        cp "$work/${kind}_bench/src/lib.rs" "$work/${kind}_bench.lib.rs"
        cp "$work/plain_$kind.rs" "$work/${kind}_bench/src/lib.rs"
        if (cd "$work/${kind}_bench" && RUSTC_BOOTSTRAP=1 cargo rustc --quiet --profile=check --lib \
            -- -Zunpretty=expanded >"$work/plain_$kind.expanded.rs" 2>"$work/plain_$kind.expand.log"); then
            printf '%s\t%s\t%s\n' "plain_$kind" "$(wc -l <"$work/plain_$kind.expanded.rs")" \
                "$(wc -c <"$work/plain_$kind.expanded.rs")" >>"$expanded"
        else
            echo "expansion failed for the plain $kind structs (skipped):" >&2
            tail -5 "$work/plain_$kind.expand.log" >&2
        fi
        cp "$work/${kind}_bench.lib.rs" "$work/${kind}_bench/src/lib.rs"
    done
fi

if [ "$in_use" = 1 ]; then
    mc="$(awk '/^name = "memcomparable"/ { getline; print $3 }' "$work/serde_bench/Cargo.lock" | tr -d '"')"
    what="in use (-u: each encoded and decoded once; serde with memcomparable $mc)"
else
    what="derives only"
fi
echo "$count structs ($salted salted), $what, seed $seed; $runs timed runs per cell; rustc $(rustc --version | cut -d' ' -f2-)"
echo "rowkey: $rowkey_path at $rowkey_rev, copied when the script started"
echo
python3 - "$times" "$expanded" <<'EOF'
import statistics
import sys

times, cpu, expanded = {}, {}, {}
for line in open(sys.argv[1]):
    mode, crate, wall, used = line.split("\t")
    times.setdefault((mode, crate), []).append(float(wall))
    cpu.setdefault((mode, crate), []).append(float(used))
for line in open(sys.argv[2]):
    crate, lines, size = line.split("\t")
    expanded[crate] = (int(lines), int(size))

print("| build | rowkey | serde | ratio |")
print("| --- | ---: | ---: | ---: |")
for table, what in [(times, "wall time"), (cpu, "CPU time (user + sys)")]:
    for mode, label in [("incremental", "incremental (dev default)"),
                        ("non-incremental", "CARGO_INCREMENTAL=0")]:
        r = table.get((mode, "rowkey_bench"))
        s = table.get((mode, "serde_bench"))
        if r and s:
            mr, ms = statistics.median(r), statistics.median(s)
            print(f"| touch-rebuild, {label}: {what}, median | {mr:.2f} s | {ms:.2f} s "
                  f"| {mr / ms:.2f}x |")
if all(k in expanded for k in ["plain_rowkey", "plain_serde", "rowkey_bench", "serde_bench"]):
    rl, rb = (v - p for v, p in zip(expanded["rowkey_bench"], expanded["plain_rowkey"]))
    sl, sb = (v - p for v, p in zip(expanded["serde_bench"], expanded["plain_serde"]))
    print(f"| expanded lines generated by the derives (`-Zunpretty=expanded`, minus the bare structs) "
          f"| {rl:,} | {sl:,} | {rl / sl:.2f}x |")
    print(f"| expanded bytes generated | {rb / 1024:,.0f} KiB | {sb / 1024:,.0f} KiB | {rb / sb:.2f}x |")
else:
    print("| expanded lines | (not measured) | | |")
print()
print("Every timed run, wall / CPU seconds:")
print()
for mode in ["incremental", "non-incremental"]:
    for crate in ["rowkey_bench", "serde_bench"]:
        if (mode, crate) in times:
            runs = ", ".join(f"{t:.2f}/{c:.2f}"
                             for t, c in zip(times[(mode, crate)], cpu[(mode, crate)]))
            print(f"- {mode}, {crate.split('_')[0]}: {runs}")
EOF
