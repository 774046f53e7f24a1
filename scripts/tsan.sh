#!/usr/bin/env bash
# ThreadSanitizer over the threaded code: the LOLS suites (rollouts on several threads, thread-count
# invariance, cancel from another thread), the parallel evaluator, the background-task helper and
# the training GUI test (a LOLS run on a worker thread posting to the GUI thread, cancel-and-wait).
# Not part of .ci/run (a third full build); run it after changing threaded code.
# Usage: bash scripts/tsan.sh        (after scripts/setup.sh has installed the packages)
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${TSAN_BUILD_DIR:-build-tsan}
SUITES=(test_lols test_lols_run test_rollouts test_parser test_background_task test_training_gui)
echo "== configuring and building (ThreadSanitizer) in $BUILD_DIR: ${SUITES[*]}"
cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1" -DPRUNESCOPE_TSAN=ON ${PRUNESCOPE_CMAKE_ARGS:-}
cmake --build "$BUILD_DIR" -j "$(nproc)" --target "${SUITES[@]}"
export TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1:suppressions=$PWD/scripts/tsan.supp"
export QT_QPA_PLATFORM=offscreen
# TSan makes the rollout equivalence functions ~20x slower: QtTest's default 300 s per test function is too short.
export QTEST_FUNCTION_TIMEOUT=3600000
cd "$BUILD_DIR"
regex=$(IFS='|'; echo "^(${SUITES[*]})\$")
ctest --output-on-failure -R "$regex"
