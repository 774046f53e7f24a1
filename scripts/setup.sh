#!/usr/bin/env bash
# Installs PruneScope's Debian packages (if missing) and builds it into build/.
# Usage: bash scripts/setup.sh            (root, or a user with sudo)
set -euo pipefail
cd "$(dirname "$0")/.."

PACKAGES=(build-essential cmake ninja-build pkg-config
          qt6-base-dev qt6-svg-dev libqcustomplot-dev libeigen3-dev nlohmann-json3-dev
          liblbfgspp-dev libmurmurhash-dev libcli11-dev liblinear-dev
          libopenmpi-dev openmpi-bin  # optional: mpirun -n N prunescope-cli lols (-DPRUNESCOPE_MPI=ON)
          xvfb xauth libgl1-mesa-dri fonts-dejavu-core
          clang libclang-rt-14-dev  # sanitizer and fuzzing builds (scripts/sanitize.sh, scripts/fuzz.sh)
          clang-format-14)  # the pinned formatter (scripts/check-format.sh)

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "== installing: ${missing[*]}"
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# MPI is optional (CMake's default is OFF, the GUI never needs it); when Open MPI is installed this
# one build also gets the MPI CLI, so its suite (tests/lols_mpi, label mpi) runs with the others.
# PRUNESCOPE_CMAKE_ARGS=-DPRUNESCOPE_MPI=OFF comes later on the command line and wins.
MPI_ARG=""
if dpkg-query -W -f='${Status}' libopenmpi-dev 2>/dev/null | grep -q "install ok installed" && command -v mpirun >/dev/null; then
  MPI_ARG="-DPRUNESCOPE_MPI=ON"
fi

BUILD_DIR=${BUILD_DIR:-build}
echo "== configuring and building in $BUILD_DIR ${MPI_ARG}"
cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release $MPI_ARG ${PRUNESCOPE_CMAKE_ARGS:-}
cmake --build "$BUILD_DIR" -j "$(nproc)"
