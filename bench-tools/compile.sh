#!/usr/bin/env bash
# Compile cost of #[derive(RowKey)] against serde's derives, on the same 200
# generated structs (bench-tools/gen_structs.py).
#
# Makes, in a temp directory (removed on exit), two throwaway crates that
# depend by path on a snapshot of this workspace (copied when the script
# starts, so edits made meanwhile do not rebuild rowkey inside a timing):
#   rowkey_bench: 200 structs with rowkey attributes, #[derive(rowkey::RowKey)]
#   serde_bench:  the same structs, no attributes, #[derive(Serialize, Deserialize)]
# builds both once (untimed: dependencies, then a warm-up), then times
# debug-build touch-rebuilds (touch src/lib.rs; cargo build) with
# incremental compilation on (the dev default) and with CARGO_INCREMENTAL=0,
# RUNS times each, the two crates alternating, and reports medians.
#
# The expanded size (lines of `-Zunpretty=expanded` output, minus the same
# structs without derives) needs a nightly flag: the stable compiler accepts
# it with RUSTC_BOOTSTRAP=1 (what cargo-expand does); it runs last, after
# the timings. SKIP_EXPAND=1 leaves it out.
#
# usage: bench-tools/compile.sh [-r RUNS] [-n STRUCTS] [-s SALTED] [-k]
#   -r RUNS     timed builds per crate and mode (default 5)
#   -n STRUCTS  structs per crate (default 200), -s SALTED of them salted (40)
#   -k          keep the temp directory (prints its path)
#   env: ROWKEY_PATH (default: this repository), SEED (default 7)
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
rowkey_path="${ROWKEY_PATH:-$(cd "$here/.." && pwd)}"
runs=5
count=200
salted=40
keep=0
seed="${SEED:-7}"
while getopts "r:n:s:kh" opt; do
    case "$opt" in
        r) runs="$OPTARG" ;;
        n) count="$OPTARG" ;;
        s) salted="$OPTARG" ;;
        k) keep=1 ;;
        *) sed -n '2,26p' "$0"; exit 2 ;;
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
(cd "$rowkey_path" && git ls-files -co --exclude-standard -z \
    | tar --null --ignore-failed-read -T - -cf - 2>/dev/null) | tar -xf - -C "$snapshot"
[ -f "$snapshot/Cargo.toml" ] || { echo "could not snapshot $rowkey_path" >&2; exit 1; }
rowkey_rev="$(git -C "$rowkey_path" rev-parse --short HEAD 2>/dev/null || echo '?')"
if ! git -C "$rowkey_path" diff --quiet HEAD -- rowkey-core rowkey-derive src 2>/dev/null; then
    rowkey_rev="$rowkey_rev + uncommitted changes"
fi

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
    python3 "$here/gen_structs.py" "$2" --count "$count" --salted "$salted" --seed "$seed" \
        >"$dir/src/lib.rs"
}

make_crate rowkey_bench rowkey "rowkey = { path = \"$snapshot\" }"
make_crate serde_bench serde 'serde = { version = "1", features = ["derive"] }'
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

now_ns() { date +%s%N; }

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
            t0="$(now_ns)"
            build "$crate" "${envs[@]}"
            t1="$(now_ns)"
            # Only the crate itself may have compiled inside the timing.
            if grep '"reason":"compiler-artifact"' "$work/$crate.json" | grep '"fresh":false' \
                | grep -v "$crate" >&2; then
                echo "error: a dependency was rebuilt inside a timed build of $crate" >&2
                exit 1
            fi
            printf '%s\t%s\t%s\n' "$mode" "$crate" "$((t1 - t0))" >>"$times"
            echo "  $mode $crate run $i: $(((t1 - t0) / 1000000)) ms" >&2
        done
    done
done

# Expanded size: lines (and bytes) of the expanded crate, minus the same
# structs without any derive.
expanded="$work/expanded.tsv"
: >"$expanded"
if [ "${SKIP_EXPAND:-0}" != 1 ]; then
    echo "expanding (RUSTC_BOOTSTRAP=1 -Zunpretty=expanded) ..." >&2
    python3 "$here/gen_structs.py" plain --count "$count" --salted "$salted" --seed "$seed" \
        >"$work/plain.rs"
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
    # The baseline: the plain structs, expanded alone (prelude and all).
    cp "$work/plain.rs" "$work/serde_bench/src/lib.rs"
    if (cd "$work/serde_bench" && RUSTC_BOOTSTRAP=1 cargo rustc --quiet --profile=check --lib \
        -- -Zunpretty=expanded >"$work/plain.expanded.rs" 2>"$work/plain.expand.log"); then
        printf '%s\t%s\t%s\n' plain \
            "$(wc -l <"$work/plain.expanded.rs")" "$(wc -c <"$work/plain.expanded.rs")" >>"$expanded"
    fi
fi

echo "$count structs ($salted salted), seed $seed; $runs timed runs per cell; rustc $(rustc --version | cut -d' ' -f2-)"
echo "rowkey: a snapshot of $rowkey_path at $rowkey_rev, taken when the script started"
echo
python3 - "$times" "$expanded" <<'EOF'
import statistics
import sys

times, expanded = {}, {}
for line in open(sys.argv[1]):
    mode, crate, ns = line.split("\t")
    times.setdefault((mode, crate), []).append(int(ns) / 1e9)
for line in open(sys.argv[2]):
    crate, lines, size = line.split("\t")
    expanded[crate] = (int(lines), int(size))

print("| build | rowkey | serde | ratio |")
print("| --- | ---: | ---: | ---: |")
for mode, label in [("incremental", "touch-rebuild, incremental (dev default), median"),
                    ("non-incremental", "touch-rebuild, CARGO_INCREMENTAL=0, median")]:
    r = times.get((mode, "rowkey_bench"))
    s = times.get((mode, "serde_bench"))
    if r and s:
        mr, ms = statistics.median(r), statistics.median(s)
        print(f"| {label} | {mr:.2f} s | {ms:.2f} s | {mr / ms:.2f}x |")
if "plain" in expanded and "rowkey_bench" in expanded and "serde_bench" in expanded:
    pl, pb = expanded["plain"]
    rl, rb = (v - p for v, p in zip(expanded["rowkey_bench"], (pl, pb)))
    sl, sb = (v - p for v, p in zip(expanded["serde_bench"], (pl, pb)))
    print(f"| expanded lines generated by the derives (`-Zunpretty=expanded`, minus the bare structs) "
          f"| {rl:,} | {sl:,} | {rl / sl:.2f}x |")
    print(f"| expanded bytes generated | {rb / 1024:,.0f} KiB | {sb / 1024:,.0f} KiB | {rb / sb:.2f}x |")
else:
    print("| expanded lines | (not measured) | | |")
print()
print("Every timed run, in seconds:")
print()
for mode in ["incremental", "non-incremental"]:
    for crate in ["rowkey_bench", "serde_bench"]:
        if (mode, crate) in times:
            runs = ", ".join(f"{t:.2f}" for t in times[(mode, crate)])
            print(f"- {mode}, {crate.split('_')[0]}: {runs}")
EOF
