#!/usr/bin/env bash
# Checks that every C++ file of core/, widgets/, app/ and tests/ follows the repository's
# .clang-format, with the pinned formatter: Debian 12's clang-format 14 (scripts/setup.sh installs
# it). Another major version formats some constructs differently, so it is refused rather than
# trusted. Usage: bash scripts/check-format.sh [--fix]
set -euo pipefail
cd "$(dirname "$0")/.."
CF=$(command -v clang-format-14 || command -v clang-format || true)
if [ -z "$CF" ]; then
  echo "check-format: clang-format 14 is not installed (bash scripts/setup.sh installs it)" >&2
  exit 2
fi
if ! "$CF" --version | grep -q "version 14\."; then
  echo "check-format: $CF is '$("$CF" --version)', the pinned formatter is clang-format 14" >&2
  exit 2
fi
mapfile -t files < <(git ls-files -- 'core/*.cpp' 'core/*.h' 'widgets/*.cpp' 'widgets/*.h' \
                       'app/*.cpp' 'app/*.h' 'tests/*.cpp' 'tests/*.h')
if [ "${1:-}" = "--fix" ]; then
  "$CF" -i "${files[@]}"
  exit 0
fi
if ! "$CF" --dry-run -Werror "${files[@]}" 2> /tmp/prunescope-format.$$; then
  grep -E "^[^ ].*: (error|warning):" /tmp/prunescope-format.$$ | cut -d: -f1 | sort -u | sed 's/^/not formatted: /' >&2
  rm -f /tmp/prunescope-format.$$
  echo "check-format: run 'bash scripts/check-format.sh --fix'" >&2
  exit 1
fi
rm -f /tmp/prunescope-format.$$
echo "check-format: ${#files[@]} files follow .clang-format ($("$CF" --version | grep -o 'version [0-9.]*'))"
