#!/usr/bin/env bash
# Installs the dependencies, builds, and runs the whole test suite: the
# GoogleTest unit tests (tc-unit-tests) and the lit tests under test/, through
# the `check` target (test/CMakeLists.txt, scripts/run-check.sh). Exits
# nonzero on any failure; the last line is "check: N passed, N failed, N skipped".
#
#   scripts/test.sh [EXTRA CMAKE CONFIGURE ARGS...]
#
# Environment: as for scripts/build.sh (BUILD_DIR, TC_SKIP_DEPS, JOBS), plus
#   LIT_OPTS     extra lit arguments, read by lit itself (e.g. "--filter=compile")
#   GTEST_OPTS   extra GoogleTest arguments (e.g. "--gtest_filter=Affine*")
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

BUILD_DIR="${BUILD_DIR:-build}"

scripts/build.sh "$@"

summary_file="${BUILD_DIR}/test/results/summary.txt"
rm -f "${summary_file}"
rc=0
cmake --build "${BUILD_DIR}" --target check || rc=$?

# Repeat the closing line after the build tool's own trailing messages.
if [[ -f "${summary_file}" ]]; then
  echo
  cat "${summary_file}"
elif ((rc == 0)); then
  echo "test.sh: the check target left no ${summary_file}" >&2
  rc=1
fi
exit "${rc}"
