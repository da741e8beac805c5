#!/usr/bin/env bash
# Google's Cloud Bigtable client conformance suite
# (github.com/googleapis/cloud-bigtable-clients-test, pinned in
# testing/bigtable-proxy/suite/go.mod) against rowkey-bigtable, through
# the test proxy of testing/bigtable-proxy.
#
# Builds the proxy (its build script generates the proxy's types from the
# suite's own descriptor set, with Go) and the suite's test binaries, then
# runs every test in a process of its own (a failing test may panic and end
# its process), several at once, against one proxy: each test starts mock
# Bigtable servers of its own on free ports. ExecuteQuery is out of the
# store's scope and skipped by name. The emulator-tagged test runs against
# the emulator it starts itself (see below).
#
# Fails on a failing test that testing/bigtable-proxy/known-failures.txt
# does not list, and on a listed test that passes. Ends with one line:
# "N passed, M failed, K skipped" (M counts the listed failures too).
set -euo pipefail
cd "$(dirname "$0")/.."

GO=${GO:-$(command -v go || echo /usr/local/go/bin/go)}
export GO
SUITE_DIR=testing/bigtable-proxy/suite
KNOWN=testing/bigtable-proxy/known-failures.txt
OUT=target/bigtable-conformance
JOBS=${BIGTABLE_CONFORMANCE_JOBS:-6}
SUITE_PKG=github.com/googleapis/cloud-bigtable-clients-test/tests
started=$SECONDS
step=$SECONDS
timing() {
    echo "   $1: $((SECONDS - step)) s"
    step=$SECONDS
}

rm -rf "$OUT/logs"
mkdir -p "$OUT/logs"
PROXY_PIDS=()
cleanup() {
    for pid in "${PROXY_PIDS[@]}"; do
        kill "$pid" 2>/dev/null || true
        wait "$pid" 2>/dev/null || true
    done
}
trap cleanup EXIT

echo "== the suite ($("$GO" version | cut -d' ' -f3))"
(cd "$SUITE_DIR" && "$GO" mod download -x 2>&1 | grep -c '^# get' | sed 's/^/   modules fetched: /' || true)
(cd "$SUITE_DIR" && "$GO" test -mod=readonly -c -o "$OLDPWD/$OUT/suite.test" "$SUITE_PKG")
(cd "$SUITE_DIR" && "$GO" test -mod=readonly -c -tags emulator -o "$OLDPWD/$OUT/suite-emulator.test" "$SUITE_PKG")
timing "test binaries built"

echo "== the test proxy (its types from the suite's descriptor set)"
# Built with the workspace's features, as .ci/run's earlier builds were:
# nothing they compiled is compiled again.
cargo build -q --workspace --all-features --bin rowkey-bigtable-test-proxy
PROXY=${CARGO_TARGET_DIR:-target}/debug/rowkey-bigtable-test-proxy
timing "proxy built"

# Starts a proxy on a free port (with the environment given) and sets
# PROXY_ADDR to its address.
start_proxy() {
    local log=$1
    shift
    env "$@" "$PROXY" --addr 127.0.0.1:0 >"$log" 2>&1 &
    PROXY_PIDS+=($!)
    local pid=$!
    for _ in $(seq 1 100); do
        if PROXY_ADDR=$(sed -n 's/^listening on //p' "$log") && [ -n "$PROXY_ADDR" ]; then
            return 0
        fi
        if ! kill -0 "$pid" 2>/dev/null; then
            echo "the test proxy did not start:" >&2
            cat "$log" >&2
            exit 1
        fi
        sleep 0.1
    done
    echo "the test proxy printed no address in 10 s" >&2
    exit 1
}

free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# Tests skipped by name, with the reason.
skip_reason() {
    case "$1" in
        TestExecuteQuery_*) echo "ExecuteQuery (Bigtable's SQL) is out of the store's scope: the proxy answers UNIMPLEMENTED, and several of these tests then hang until their 120 s timeout or panic" ;;
        *) return 1 ;;
    esac
}

start_proxy "$OUT/logs/proxy.log"
MOCK_PROXY=$PROXY_ADDR
"$OUT/suite.test" -proxy_addr="$MOCK_PROXY" -test.list '.*' 2>/dev/null | grep '^Test' >"$OUT/tests.txt"
: >"$OUT/run.txt"
: >"$OUT/skipped.txt"
while read -r name; do
    if reason=$(skip_reason "$name"); then
        printf '%s\t%s\n' "$name" "$reason" >>"$OUT/skipped.txt"
    else
        echo "$name" >>"$OUT/run.txt"
    fi
done <"$OUT/tests.txt"
echo "== $(wc -l <"$OUT/run.txt") tests, $JOBS at a time, each in its own process (proxy at $MOCK_PROXY)"

# One test, in its own process; its log and exit code under logs/.
run_one() {
    local binary=$1 addr=$2 name=$3
    local rc=0
    timeout 150 "$binary" -proxy_addr="$addr" -test.run "^${name}\$" -test.v -test.timeout 140s \
        >"$OUT/logs/$name.log" 2>&1 || rc=$?
    echo "$rc" >"$OUT/logs/$name.rc"
}
export -f run_one
export OUT
xargs -P "$JOBS" -I{} bash -c 'run_one "$@"' _ "$OUT/suite.test" "$MOCK_PROXY" {} <"$OUT/run.txt"
timing "mock-server tests run"

# The emulator-tagged test starts Go's own in-memory Bigtable emulator
# (bttest) at BIGTABLE_EMULATOR_HOST, which must be localhost:PORT, and has
# the proxy reach it through that variable (data target "emulator"). A port
# that something else (cbtemulator, say) already holds makes the test log
# "skip the test" and return as passed having checked nothing: it gets a
# free port, and a log that says it skipped counts as a failure.
EMU_HOST="localhost:$(free_port)"
start_proxy "$OUT/logs/proxy-emulator.log" BIGTABLE_EMULATOR_HOST="$EMU_HOST"
EMU_PROXY=$PROXY_ADDR
"$OUT/suite-emulator.test" -proxy_addr="$EMU_PROXY" -test.list '.*' 2>/dev/null | grep '^TestEmulator' >"$OUT/emulator-tests.txt"
while read -r name; do
    BIGTABLE_EMULATOR_HOST="$EMU_HOST" run_one "$OUT/suite-emulator.test" "$EMU_PROXY" "$name"
    if grep -q 'skip the test' "$OUT/logs/$name.log"; then
        echo 1 >"$OUT/logs/$name.rc"
    fi
    echo "$name" >>"$OUT/run.txt"
done <"$OUT/emulator-tests.txt"
timing "emulator tests run"

# The verdict.
declare -A known
while IFS=$'\t' read -r name reason; do
    case "$name" in '' | '#'*) continue ;; esac
    [ -n "$reason" ] || { echo "$KNOWN: $name has no reason" >&2; exit 1; }
    known[$name]=$reason
done <"$KNOWN"
passed=0 failed=0 unexpected=() fixed=()
while read -r name; do
    rc=$(cat "$OUT/logs/$name.rc" 2>/dev/null || echo 255)
    if [ "$rc" = 0 ]; then
        passed=$((passed + 1))
        [ -z "${known[$name]+x}" ] || fixed+=("$name")
    else
        failed=$((failed + 1))
        [ -n "${known[$name]+x}" ] || unexpected+=("$name")
    fi
done <"$OUT/run.txt"
skipped=$(wc -l <"$OUT/skipped.txt")

for group in ReadRows ReadRow MutateRow MutateRows SampleRowKeys CheckAndMutateRow ReadModifyWriteRow; do
    total=$(grep -c "^Test${group}_" "$OUT/run.txt" || true)
    ok=0
    while read -r name; do
        [ "$(cat "$OUT/logs/$name.rc")" = 0 ] && ok=$((ok + 1))
    done < <(grep "^Test${group}_" "$OUT/run.txt" || true)
    printf '   %-20s %3d / %d\n' "$group" "$ok" "$total"
done
for name in "${unexpected[@]}"; do
    echo "FAILED, not a known failure: $name (log: $OUT/logs/$name.log)" >&2
    grep -E 'Error Trace|Error:|panic|FAIL' "$OUT/logs/$name.log" | head -8 | sed 's/^/      /' >&2
done
for name in "${fixed[@]}"; do
    echo "PASSED, but listed in $KNOWN: $name (remove it from the list)" >&2
done
echo "   known failures, as listed: $((failed - ${#unexpected[@]}))"
echo "   total: $((SECONDS - started)) s"
echo "$passed passed, $failed failed, $skipped skipped"
[ ${#unexpected[@]} -eq 0 ] && [ ${#fixed[@]} -eq 0 ]
