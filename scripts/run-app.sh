#!/usr/bin/env bash
# Sets everything up (packages + build) and starts the PruneScope GUI on the bundled sample.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
exec "${BUILD_DIR:-build}/app/prunescope" "$@"
