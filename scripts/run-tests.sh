#!/usr/bin/env bash
# Sets everything up (packages + build) and runs every test suite through CTest.
# GUI suites run with QT_QPA_PLATFORM=offscreen, so no display is needed.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cd "${BUILD_DIR:-build}"
QT_QPA_PLATFORM=offscreen ctest --output-on-failure -j "$(nproc)"
