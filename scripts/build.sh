#!/usr/bin/env bash
# Installs the dependencies (scripts/install-deps.sh), configures and builds.
#
#   scripts/build.sh [EXTRA CMAKE CONFIGURE ARGS...]
#
# Environment:
#   BUILD_DIR        build directory (default: build)
#   TC_SKIP_DEPS=1   do not run scripts/install-deps.sh
#   JOBS             parallel build jobs (default: nproc)
# The generator is Ninja when `ninja` is on PATH, else Unix Makefiles; an
# existing build directory keeps the generator it was configured with.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

BUILD_DIR="${BUILD_DIR:-build}"

if [[ "${TC_SKIP_DEPS:-0}" != 1 ]]; then
  scripts/install-deps.sh
fi

generator=()
if [[ ! -f "${BUILD_DIR}/CMakeCache.txt" ]]; then
  if command -v ninja >/dev/null 2>&1; then
    generator=(-G Ninja)
  else
    generator=(-G "Unix Makefiles")
  fi
fi

cmake -S . -B "${BUILD_DIR}" "${generator[@]}" "$@"
cmake --build "${BUILD_DIR}" -j"${JOBS:-$(nproc)}"
