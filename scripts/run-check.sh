#!/usr/bin/env bash
# Runs the test suites behind the `check` targets (test/CMakeLists.txt) and
# prints one closing line "check: N passed, N failed, N skipped" over both.
# Both suites always run; the exit status is nonzero when either failed.
#
#   run-check.sh [--unit GTEST_BINARY] [--lit LIT --lit-dir BUILD/test]
#                [--results-dir DIR]
#
# Extra lit arguments come from $LIT_OPTS (read by lit itself), extra
# GoogleTest arguments from $GTEST_OPTS (e.g. "--gtest_filter=Affine*").
# The closing line is also written to DIR/summary.txt (scripts/test.sh
# repeats it as the last line of its output).
set -uo pipefail

unit="" lit="" lit_dir="" results_dir="${PWD}/test-results"
while (($#)); do
  case "$1" in
    --unit) unit="$2"; shift 2 ;;
    --lit) lit="$2"; shift 2 ;;
    --lit-dir) lit_dir="$2"; shift 2 ;;
    --results-dir) results_dir="$2"; shift 2 ;;
    *) echo "run-check.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
if [[ -z "${unit}" && -z "${lit}" ]]; then
  echo "run-check.sh: nothing to run (no --unit, no --lit)" >&2
  exit 2
fi

mkdir -p "${results_dir}"
unit_json="${results_dir}/unit.json"
lit_json="${results_dir}/lit.json"
rm -f "${unit_json}" "${lit_json}" "${results_dir}/summary.txt"

unit_rc=0 lit_rc=0
if [[ -n "${unit}" ]]; then
  echo "==== unit tests: ${unit}"
  # shellcheck disable=SC2086  # GTEST_OPTS is a list of words on purpose
  "${unit}" --gtest_output="json:${unit_json}" ${GTEST_OPTS:-}
  unit_rc=$?
fi
if [[ -n "${lit}" ]]; then
  echo "==== lit tests: ${lit_dir}"
  "${lit}" -sv -o "${lit_json}" "${lit_dir}"
  lit_rc=$?
fi

summary="$(python3 - "${unit:+${unit_json}}" "${unit_rc}" "${lit:+${lit_json}}" "${lit_rc}" <<'PY'
import json, os, sys

unit_json, unit_rc, lit_json, lit_rc = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
passed = failed = skipped = 0
notes = []

if unit_json:
    if os.path.exists(unit_json):
        data = json.load(open(unit_json))
        for suite in data.get("testsuites", []):
            for t in suite.get("testsuite", []):
                if t.get("failures"):
                    failed += 1
                elif t.get("status") == "NOTRUN" or t.get("result") in ("SKIPPED", "SUPPRESSED"):
                    skipped += 1
                else:
                    passed += 1
        if unit_rc != 0 and not any(
            t.get("failures") for s in data.get("testsuites", []) for t in s.get("testsuite", [])
        ):
            failed += 1
            notes.append("unit test binary exited %d" % unit_rc)
    else:
        failed += 1
        notes.append("unit test binary wrote no results (exit %d)" % unit_rc)

if lit_json:
    lit_failed = 0
    if os.path.exists(lit_json):
        for t in json.load(open(lit_json)).get("tests", []):
            code = t.get("code")
            if code in ("PASS", "FLAKYPASS", "XFAIL"):
                passed += 1
            elif code in ("UNSUPPORTED", "SKIPPED", "EXCLUDED"):
                skipped += 1
            else:
                lit_failed += 1
    if lit_rc != 0 and lit_failed == 0:
        lit_failed = 1
        notes.append("lit exited %d" % lit_rc)
    failed += lit_failed

for n in notes:
    print("run-check: " + n, file=sys.stderr)
print("check: %d passed, %d failed, %d skipped" % (passed, failed, skipped))
PY
)"
py_rc=$?
if ((py_rc != 0)) || [[ -z "${summary}" ]]; then
  summary="check: 0 passed, 1 failed, 0 skipped"
  echo "run-check.sh: could not read the test results" >&2
  py_rc=1
fi
echo "${summary}" > "${results_dir}/summary.txt"
echo
echo "${summary}"

if ((unit_rc != 0 || lit_rc != 0 || py_rc != 0)); then
  exit 1
fi
exit 0
