#!/usr/bin/env bash
# The explorer's stress test at full length (issue 42): 10,000 seeded random GUI actions —
# next / previous sentence, Replay CKY and its controls, flips, undo, redo, mask buttons — fired
# 0-30 ms apart on the shared dev split, offscreen, by tests/gui/test_explorer_stress.cpp (CI runs
# 1,000 of them). With --asan it builds the GUI suites with AddressSanitizer + UBSan
# (PRUNESCOPE_SANITIZE, every report fatal) in build-gui-asan/ first; otherwise it uses build/.
# Usage: bash scripts/gui-stress.sh [--asan] [ACTIONS] [SEED]
#   PRUNESCOPE_STRESS_TREEBANK=FILE-OR-DIR   another treebank (default: dev's wsj_0130.mrg)
set -euo pipefail
cd "$(dirname "$0")/.."
asan=0
if [[ "${1:-}" == "--asan" ]]; then
    asan=1
    shift
fi
export PRUNESCOPE_STRESS_ACTIONS=${1:-10000}
export PRUNESCOPE_STRESS_SEED=${2:-1}
export QT_QPA_PLATFORM=offscreen
# QtTest stops a test function after 300 s by default; 10,000 actions take longer on a loaded
# 2-core machine (and far longer under ASan), which QtTest reports as a fatal timeout, not a crash.
export QTEST_FUNCTION_TIMEOUT=${QTEST_FUNCTION_TIMEOUT:-7200000}
if [[ $asan == 1 ]]; then
    BUILD_DIR=${GUI_ASAN_BUILD_DIR:-build-gui-asan}
    cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
          -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1" -DPRUNESCOPE_SANITIZE=ON
    export ASAN_OPTIONS="abort_on_error=1:detect_leaks=0"
    export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
else
    BUILD_DIR=${GUI_BUILD_DIR:-build}
fi
cmake --build "$BUILD_DIR" -j "$(nproc)" --target suites_gui
echo "== $PRUNESCOPE_STRESS_ACTIONS actions, seed $PRUNESCOPE_STRESS_SEED, $BUILD_DIR"
time "$BUILD_DIR/tests/suites_gui" test_explorer_stress -maxwarnings 0
