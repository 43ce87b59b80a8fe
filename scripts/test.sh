#!/usr/bin/env bash
# Installs the dependencies, builds, and runs the test suite: the GoogleTest
# unit tests (tc-unit-tests) and the lit tests under test/, through the
# `check` target (test/CMakeLists.txt, scripts/run-check.sh). Exits nonzero
# on any failure. The last lines are the elapsed time and
# "check: N passed, N failed, N skipped".
#
#   scripts/test.sh [--full | --sanitize] [EXTRA CMAKE CONFIGURE ARGS...]
#
# Without --full it runs the default tier (what CI runs, under 15 minutes
# on 2 cores); --full runs every test (the full tier, about half an hour
# on 2 cores). CONTRIBUTING.md, "Test tiers", lists which tier holds what.
# --sanitize: the default tier on a build with AddressSanitizer and
# UndefinedBehaviorSanitizer, in build-fuzz/ (Clang 22, -DTC_FUZZ=ON: the
# build scripts/fuzz.sh uses). A sanitizer report aborts the process, so
# the test fails. No clang-tidy module there: test/tidy is unsupported.
#
# Environment: as for scripts/build.sh (BUILD_DIR, TC_SKIP_DEPS, JOBS), plus
#   LIT_OPTS       extra lit arguments, read by lit itself (e.g. "--filter=compile")
#   GTEST_OPTS     extra GoogleTest arguments (e.g. "--gtest_filter=Affine*")
#   TC_TEST_TIER   default or full (--full sets it)
#   TC_NVCC_CACHE  0: no compile cache for the nvcc runs of the lit tests
#                  (test/utils/nvcc-cache.py; it lives in
#                  ${XDG_CACHE_HOME:-~/.cache}/tc-rewrite/nvcc)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

start=${SECONDS}
if [[ "${1:-}" == --sanitize ]]; then
  shift
  BUILD_DIR="${BUILD_DIR:-build-fuzz}"
  if [[ "${TC_SKIP_DEPS:-0}" != 1 ]]; then
    scripts/install-deps.sh --fuzz
  fi
  export TC_SKIP_DEPS=1 BUILD_DIR
  if [[ -f "${BUILD_DIR}/CMakeCache.txt" ]]; then
    set -- -DTC_FUZZ=ON "$@"   # the compiler is chosen once per build directory
  else
    set -- -DTC_FUZZ=ON -DCMAKE_CXX_COMPILER=clang++-22 -DCMAKE_C_COMPILER=clang-22 "$@"
  fi
  # abort_on_error: a report is a crash, which `not` in a RUN line does not
  # take for the expected failure (a plain exit 1 it would).
  export ASAN_OPTIONS="${ASAN_OPTIONS:-abort_on_error=1:detect_leaks=1}"
  export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:abort_on_error=1}"
  export LSAN_OPTIONS="${LSAN_OPTIONS:-abort_on_error=1}"
fi
BUILD_DIR="${BUILD_DIR:-build}"

cmake_args=()
for arg in "$@"; do
  case "${arg}" in
    --full) export TC_TEST_TIER=full ;;
    *) cmake_args+=("${arg}") ;;
  esac
done
tier="${TC_TEST_TIER:-default}"

scripts/build.sh ${cmake_args[@]+"${cmake_args[@]}"}

summary_file="${BUILD_DIR}/test/results/summary.txt"
rm -f "${summary_file}"
rc=0
cmake --build "${BUILD_DIR}" --target check || rc=$?

# Repeat the closing lines after the build tool's own trailing messages.
elapsed=$((SECONDS - start))
echo
printf 'test.sh: %s tier, %dm%02ds (dependencies, build and tests)\n' \
  "${tier}" $((elapsed / 60)) $((elapsed % 60))
if [[ -f "${summary_file}" ]]; then
  cat "${summary_file}"
else
  echo "test.sh: the check target left no ${summary_file}" >&2
  echo "check: 0 passed, 1 failed, 0 skipped"
  rc=1
fi
exit "${rc}"
