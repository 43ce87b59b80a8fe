#!/usr/bin/env bash
# Builds the libFuzzer targets (test/libfuzzer) with Clang 22 in build-fuzz/
# (-DTC_FUZZ=ON: ASan + UBSan + coverage) and runs each for a while from its
# seed corpus, one process at a time.
#
#   scripts/fuzz.sh [--time SECONDS] [--no-build] [TARGET...]
#
#   --time S     seconds per target (default 60)
#   --no-build   run what build-fuzz/ holds
#   TARGET       clauses and/or region (default: both)
#
# What a run learns goes into build-fuzz/fuzz/corpus/TARGET/ (kept between
# runs; the seeds in test/libfuzzer/corpus/TARGET/ are only read). Inputs
# that crash, leak or time out land in build-fuzz/fuzz/findings/TARGET/;
# the exit status is nonzero when there is one. Reproduce one with
#   TC_FUZZ_VERBOSE=1 build-fuzz/bin/tc-fuzz-TARGET FILE
# and keep it, minimised (-minimize_crash=1), in test/libfuzzer/findings/.
#
# Environment: BUILD_DIR (default build-fuzz), JOBS (build jobs, default 1),
# TC_SKIP_DEPS=1 (no scripts/install-deps.sh --fuzz), FUZZ_OPTS (extra
# libFuzzer flags, e.g. "-max_len=8192").
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

BUILD_DIR="${BUILD_DIR:-build-fuzz}"
time_s=60 build=1 targets=()
while (($#)); do
  case "$1" in
    --time) time_s="$2"; shift 2 ;;
    --time=*) time_s="${1#--time=}"; shift ;;
    --no-build) build=0; shift ;;
    clauses|region) targets+=("$1"); shift ;;
    -h|--help) sed -n '2,23p' "$0"; exit 0 ;;
    *) echo "fuzz.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
done
((${#targets[@]})) || targets=(clauses region)

CXX_FUZZ="${CXX_FUZZ:-clang++-22}"
CC_FUZZ="${CC_FUZZ:-clang-22}"

if ((build)); then
  if [[ "${TC_SKIP_DEPS:-0}" != 1 ]]; then
    scripts/install-deps.sh --fuzz
  fi
  # libFuzzer's runtime comes with Clang's (libclang-rt-22-dev).
  probe="$(mktemp -d)"
  trap 'rm -rf "${probe}"' EXIT
  printf 'extern "C" int LLVMFuzzerTestOneInput(const char *, unsigned long) { return 0; }\n' \
    > "${probe}/p.cpp"
  if ! "${CXX_FUZZ}" -fsanitize=fuzzer,address,undefined "${probe}/p.cpp" -o "${probe}/p" 2>"${probe}/err"; then
    cat "${probe}/err" >&2
    echo "fuzz.sh: ${CXX_FUZZ} -fsanitize=fuzzer does not link (install libclang-rt-22-dev)" >&2
    exit 1
  fi
  # The generator and the compiler are chosen once per build directory.
  first=()
  if [[ ! -f "${BUILD_DIR}/CMakeCache.txt" ]]; then
    first=(-DCMAKE_CXX_COMPILER="${CXX_FUZZ}" -DCMAKE_C_COMPILER="${CC_FUZZ}")
    if command -v ninja >/dev/null 2>&1; then first+=(-G Ninja); fi
  fi
  cmake -S . -B "${BUILD_DIR}" "${first[@]}" -DTC_FUZZ=ON
  cmake --build "${BUILD_DIR}" -j"${JOBS:-1}" --target "${targets[@]/#/tc-fuzz-}"
fi

# A sanitizer report aborts; a leak is a finding too.
export ASAN_OPTIONS="${ASAN_OPTIONS:-abort_on_error=1:detect_leaks=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:abort_on_error=1}"

declare -A max_len=([clauses]=256 [region]=4096)
found=0
for t in "${targets[@]}"; do
  bin="${BUILD_DIR}/bin/tc-fuzz-${t}"
  work="${BUILD_DIR}/fuzz/corpus/${t}"
  findings="${BUILD_DIR}/fuzz/findings/${t}"
  log="${BUILD_DIR}/fuzz/${t}.log"
  mkdir -p "${work}" "${findings}"
  echo "==== tc-fuzz-${t}: ${time_s} s (log: ${log})"
  rc=0
  # shellcheck disable=SC2086  # FUZZ_OPTS is a list of words on purpose
  "${bin}" "${work}" "test/libfuzzer/corpus/${t}" \
    -dict="test/libfuzzer/${t}.dict" -max_total_time="${time_s}" \
    -max_len="${max_len[${t}]}" -timeout=60 -rss_limit_mb=4096 \
    -artifact_prefix="${findings}/" -print_final_stats=1 ${FUZZ_OPTS:-} \
    >"${log}" 2>&1 || rc=$?
  grep -E '^#[0-9]+ +(DONE|INITED)|stat::(number_of_executed_units|average_exec_per_sec|peak_rss)|cov: ' \
    "${log}" | tail -4 || true
  if ((rc != 0)); then
    found=1
    echo >&2
    echo "tc-fuzz-${t}: exit ${rc}; the report is at the end of ${log}:" >&2
    grep -E 'ERROR|FINDING|SUMMARY|Test unit written' "${log}" | head -5 >&2 || true
  fi
done
# (slow-unit-* files there are inputs slower than 10 s, not findings.)
n="$(find "${BUILD_DIR}/fuzz/findings" -type f \( -name 'crash-*' -o -name 'leak-*' \
       -o -name 'timeout-*' -o -name 'oom-*' \) | wc -l)"
echo "fuzz.sh: ${n} finding(s) in ${BUILD_DIR}/fuzz/findings"
exit "${found}"
