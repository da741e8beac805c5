#!/usr/bin/env bash
# Instructions per operation of rowkey's encode/decode/merge against a
# hand-written encoder, format!, memcomparable and storekey, under
# valgrind's callgrind (deterministic: another build running on the machine
# does not change the counts).
#
# Each case of bench-tools/callgrind runs twice, with N1 and N2 iterations;
# callgrind collects only inside the measured loop (--toggle-collect), and
# (I(N2) - I(N1)) / (N2 - N1) is the cost of one operation, so startup and
# any per-run constant cancel.
#
# usage: bench-tools/callgrind.sh [-n N1] [-m N2] [-j JOBS] [-r REV] [CASE_SUBSTRING...]
#   -n/-m  the two iteration counts (default 100000 and 200000)
#   -j     cases measured in parallel (counts do not depend on it; default 1)
#   -r REV measure rowkey as committed at REV (`git archive`d into the temp
#          directory, built there) instead of the working tree
#   env: CARGO_TARGET_DIR (default: <repo>/target-bench; with -r, a temp dir)
#        KEEP_RAW=path  also write the raw counts (TSV) there
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/.." && pwd)"
n1=100000
n2=200000
jobs=1
rev=""
while getopts "n:m:j:r:h" opt; do
    case "$opt" in
        n) n1="$OPTARG" ;;
        m) n2="$OPTARG" ;;
        j) jobs="$OPTARG" ;;
        r) rev="$OPTARG" ;;
        *) sed -n '2,18p' "$0"; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
filters=("$@")
if [ "$n2" -le "$n1" ]; then
    echo "N2 ($n2) must be larger than N1 ($n1)" >&2
    exit 2
fi
command -v valgrind >/dev/null || { echo "valgrind is not installed" >&2; exit 1; }

work="$(mktemp -d "${TMPDIR:-/tmp}/rowkey-callgrind.XXXXXX")"
trap 'rm -rf "$work"' EXIT

harness="$here/callgrind"
if [ -n "$rev" ]; then
    # rowkey at REV, with this harness beside it (its `path = "../.."`).
    commit="$(git -C "$repo" rev-parse --verify "$rev^{commit}")"
    mkdir -p "$work/src"
    git -C "$repo" archive "$commit" | tar -xf - -C "$work/src"
    rm -rf "$work/src/bench-tools/callgrind"
    mkdir -p "$work/src/bench-tools/callgrind"
    cp -r "$harness/Cargo.toml" "$harness/Cargo.lock" "$harness/src" "$work/src/bench-tools/callgrind/"
    harness="$work/src/bench-tools/callgrind"
    export CARGO_TARGET_DIR="$work/target"
    version="rowkey at $(git -C "$repo" rev-parse --short "$commit") (committed tree)"
else
    export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$repo/target-bench}"
    version="rowkey at $(git -C "$repo" rev-parse --short HEAD 2>/dev/null || echo '?')"
    if ! git -C "$repo" diff --quiet HEAD -- rowkey-core rowkey-derive src 2>/dev/null; then
        version="$version + uncommitted changes (working tree)"
    fi
fi
echo "building (release) in $CARGO_TARGET_DIR ..." >&2
(cd "$harness" && cargo build --release --quiet)
bin="$CARGO_TARGET_DIR/release/rowkey-callgrind"
"$bin" check >&2

cases=()
while read -r c; do
    if [ ${#filters[@]} -eq 0 ]; then
        cases+=("$c")
    else
        for f in "${filters[@]}"; do
            case "$c" in *"$f"*) cases+=("$c"); break ;; esac
        done
    fi
done < <("$bin" list)
[ ${#cases[@]} -gt 0 ] || { echo "no case matches: ${filters[*]}" >&2; exit 2; }

# One callgrind run: prints the instructions collected in the loop.
measure() {
    local case="$1" iters="$2" out
    out="$work/$(echo "$case" | tr '/' '_').$iters.out"
    valgrind --tool=callgrind --toggle-collect='*bench_*' \
        --callgrind-out-file="$out" "$bin" "$case" "$iters" >/dev/null 2>"$out.log" \
        || { echo "valgrind failed on $case $iters:" >&2; cat "$out.log" >&2; return 1; }
    awk '/^totals:/ { print $2; found = 1 } END { if (!found) exit 1 }' "$out"
}

run_case() {
    local case="$1" a b
    a="$(measure "$case" "$n1")"
    b="$(measure "$case" "$n2")"
    printf '%s\t%s\t%s\n' "$case" "$a" "$b"
}
export -f measure run_case
export bin work n1 n2

echo "running ${#cases[@]} cases at $n1 and $n2 iterations ..." >&2
raw="$work/raw.tsv"
printf '%s\n' "${cases[@]}" | xargs -P "$jobs" -I{} bash -c 'set -eo pipefail; run_case "$1"' _ {} >"$raw"
if [ -n "${KEEP_RAW:-}" ]; then cp "$raw" "$KEEP_RAW"; fi

echo "$version; $(rustc --version); $(valgrind --version)"
echo "instructions per op = (I($n2) - I($n1)) / $((n2 - n1)), collected inside the loop only"
echo
python3 - "$raw" "$n1" "$n2" "$("$bin" list | tr '\n' ' ')" <<'EOF'
import sys

raw, n1, n2, order = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4].split()
per_op = {}
for line in open(raw):
    case, a, b = line.split("\t")
    per_op[case] = (int(b) - int(a)) / (n2 - n1)

def fmt(v):
    return "" if v is None else (f"{v:,.0f}" if v >= 100 else f"{v:,.1f}")

def ratio(a, b):
    return "" if a is None or b is None or b == 0 else f"{a / b:.2f}x"

rows, merges = [], []
for case in order:
    layout, op, _ = case.split("/")
    if layout == "merge":
        if case in per_op:
            merges.append((op, per_op[case]))
    elif (layout, op) not in rows and any(c.startswith(f"{layout}/{op}/") for c in per_op):
        rows.append((layout, op))

names = {"spend": "Spend", "call": "CallRecord", "salted_call": "CallRecord, salted (6 buckets)",
         "event": "Event"}
if rows:
    print("| key | op | rowkey | hand-written | rowkey / hand | format! | format! / rowkey "
          "| memcomparable | memcomparable / rowkey | storekey | storekey / rowkey |")
    print("| --- | --- |" + " ---: |" * 9)
    for layout, op in rows:
        g = lambda way: per_op.get(f"{layout}/{op}/{way}")
        r, h, f, m, s = g("rowkey"), g("hand"), g("format"), g("memcomparable"), g("storekey")
        label = names.get(layout) or f"{layout[4:]} x u64"
        print(f"| {label} | {op} | {fmt(r)} | {fmt(h)} | {ratio(r, h)} | {fmt(f)} | {ratio(f, r)} "
              f"| {fmt(m)} | {ratio(m, r)} | {fmt(s)} | {ratio(s, r)} |")
if merges:
    print()
    print("| `merge_sorted` sources | instructions per row |")
    print("| ---: | ---: |")
    for n, v in merges:
        print(f"| {n} | {fmt(v)} |")
EOF
