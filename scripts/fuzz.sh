#!/usr/bin/env bash
# Runs every libFuzzer harness (tests/fuzz/fuzz_<reader>, built by scripts/sanitize.sh in
# build-sanitize/) for a bounded time or number of executions, starting from the seed corpus
# tests/fuzz/corpus/<reader>/ (copied: the repository's corpus is never modified). Inputs that
# crash are saved as build-sanitize/fuzz-findings/<reader>/crash-*; any finding fails the script.
# Usage: bash scripts/fuzz.sh [SECONDS_PER_READER] [READER...]   (default 20 s, every reader)
#        FUZZ_RUNS=1000000 bash scripts/fuzz.sh 0 grammar        (a number of executions instead)
# Readers are fuzzed in FUZZ_STREAMS parallel streams (default: the number of cores; each harness
# is single-threaded), so the wall time is about SECONDS_PER_READER x readers / streams.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${SANITIZE_BUILD_DIR:-build-sanitize}
SECONDS_PER=${1:-20}
shift || true
readers=("$@")
if [ ${#readers[@]} -eq 0 ]; then
  for f in tests/fuzz/fuzz_*.cpp; do r=$(basename "$f" .cpp); readers+=("${r#fuzz_}"); done
fi
streams=${FUZZ_STREAMS:-$(nproc)}
if [ -z "${FUZZ_QUIET_HEADER:-}" ]; then printf "%-10s %12s %8s %s\n" reader executions seconds result; fi
if [ "$streams" -gt 1 ] && [ ${#readers[@]} -gt 1 ]; then
  # Round-robin split; each stream is this script with one stream and its share of the readers.
  pids=()
  for ((s = 0; s < streams; ++s)); do
    share=()
    for ((i = s; i < ${#readers[@]}; i += streams)); do share+=("${readers[$i]}"); done
    [ ${#share[@]} -eq 0 ] && continue
    FUZZ_STREAMS=1 FUZZ_QUIET_HEADER=1 bash "$0" "$SECONDS_PER" "${share[@]}" &
    pids+=($!)
  done
  failed=0
  for p in "${pids[@]}"; do wait "$p" || failed=1; done
  exit $failed
fi
export ASAN_OPTIONS="abort_on_error=1:detect_leaks=1:strict_string_checks=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
work="${FUZZ_WORK_DIR:-$BUILD_DIR/fuzz-work}"        # separate dirs let two campaigns run at once
findings="${FUZZ_FINDINGS_DIR:-$BUILD_DIR/fuzz-findings}"
failed=0
for r in "${readers[@]}"; do
  bin="$BUILD_DIR/tests/fuzz/fuzz_$r"
  [ -x "$bin" ] || { echo "missing $bin (run scripts/sanitize.sh first)"; exit 1; }
  rm -rf "$work/$r"; mkdir -p "$work/$r" "$findings/$r"
  cp -r "tests/fuzz/corpus/$r/." "$work/$r/"
  limit=(-max_total_time="$SECONDS_PER")
  [ -n "${FUZZ_RUNS:-}" ] && limit=(-runs="$FUZZ_RUNS")
  log="$findings/$r/log.txt"
  start=$SECONDS
  set +e
  "$bin" "${limit[@]}" -timeout=10 -rss_limit_mb=2560 -print_final_stats=1 \
      -artifact_prefix="$findings/$r/" "$work/$r" > "$log" 2>&1
  status=$?
  set -e
  runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo "?")
  if [ $status -eq 0 ]; then result=ok; else result="FINDING (exit $status, see $log)"; failed=1; fi
  printf "%-10s %12s %8s %s\n" "$r" "$runs" "$((SECONDS - start))" "$result"
done
exit $failed
