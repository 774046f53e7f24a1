#!/usr/bin/env bash
# Builds core, the CLI, the core and CLI test suites and the fuzz harnesses with clang, ASan and
# UBSan (every report fatal: -fno-sanitize-recover) in build-sanitize/ and runs the suites under
# them (CTest labels core, cli, fuzz). LeakSanitizer runs too (part of ASan on Linux).
# Usage: bash scripts/sanitize.sh        (after scripts/setup.sh has installed the packages)
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${SANITIZE_BUILD_DIR:-build-sanitize}
echo "== configuring and building (clang, ASan + UBSan + fuzzer instrumentation) in $BUILD_DIR"
cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
      -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -g1" -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O2 -g1" \
      -DPRUNESCOPE_FUZZ=ON -DPRUNESCOPE_BUILD_GUI=OFF ${PRUNESCOPE_CMAKE_ARGS:-}
cmake --build "$BUILD_DIR" -j "$(nproc)"
export ASAN_OPTIONS="abort_on_error=1:detect_leaks=1:strict_string_checks=1:detect_stack_use_after_return=1:check_initialization_order=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
export LSAN_OPTIONS="suppressions=$PWD/scripts/lsan.supp:print_suppressions=0"
echo "== running the core, CLI and fuzz-replay suites under the sanitizers"
cd "$BUILD_DIR"
ctest --output-on-failure -j "$(nproc)" -L "core|cli|fuzz"
