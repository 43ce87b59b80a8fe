#!/usr/bin/env bash
# Runs HERE. Prepares the A/B of a tuning database (docs/tuning.md): the
# GEMM and fused benchmarks' kernels rewritten without it
# (.gpu/bench-base/) and with it (.gpu/bench/), by the same tool. Then
# carry .gpu to the GPU machine and run scripts/bench-ab-run.sh (or
# fused-ab-run.sh) there on shapes the database was not made from:
# base time / current time > 1 where the measured choices beat the rules.
#
# The database comes from a tuning run of the benchmark itself, on the
# GPU machine, after scripts/bench-prepare.sh here:
#   TC_BENCH_NVCC_FLAGS=-DTC_TUNING TC_TUNING_DB=$OUT/tuning.json \
#     scripts/bench-run.sh --funcs bench_gemm_f16_rc --sets paper
# and then, here, with the file it wrote:
#   scripts/tune-ab-prepare.sh tuning.json
# and on the GPU machine:
#   TC_AB_FILES=gemm_rowcol scripts/bench-ab-run.sh --funcs bench_gemm_f16_rc --sets heldout
#
# Usage: scripts/tune-ab-prepare.sh DB.json...
#   TC_REWRITE  the tool (default build/bin/tc-rewrite)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
if [[ $# -lt 1 ]]; then
  echo "usage: scripts/tune-ab-prepare.sh DB.json... (tuning databases)" >&2
  exit 2
fi
tool="$(realpath "${TC_REWRITE:-build/bin/tc-rewrite}")"
work="$(mktemp -d /tmp/tc-tune-ab.XXXXXX)"
trap 'rm -rf "$work"' EXIT
# The base: the tool as it is (a copy: a build may replace it meanwhile).
cp "$tool" "$work/tc-rewrite-base"
# The current: the same tool given the databases.
dbs=()
for db in "$@"; do
  [[ -f "$db" ]] || { echo "tune-ab-prepare: no file $db" >&2; exit 2; }
  dbs+=("--tuning-db=$(realpath "$db")")
done
{
  echo '#!/usr/bin/env bash'
  printf 'exec %q' "$work/tc-rewrite-base"
  printf ' %q' "${dbs[@]}"
  echo ' "$@"'
} >"$work/tc-rewrite-tuned"
chmod +x "$work/tc-rewrite-tuned"
TC_REWRITE="$work/tc-rewrite-tuned" scripts/bench-ab-prepare.sh "$work/tc-rewrite-base"
tables=$( (grep -l 'tc::TunedKernel tc_tuned' .gpu/bench/*.tc.cu .gpu/bench/fused/*.tc.cu 2>/dev/null || true) | wc -l)
echo "tune-ab-prepare: .gpu/bench-base without the databases, .gpu/bench with them" \
     "($tables rewritten files list measured kernels)"
