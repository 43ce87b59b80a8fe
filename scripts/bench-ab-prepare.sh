#!/usr/bin/env bash
# Runs HERE. Prepares an A/B run of the GEMM benchmark: the kernels that a
# base tool generates (.gpu/bench-base/) against those of the current one
# (.gpu/bench/), both built with the current runtime headers. Then carry
# .gpu to the GPU machine and run scripts/bench-ab-run.sh there: both
# binaries in one call, so that a generator change is measured against the
# code it replaces under the same clocks.
#
# Usage: scripts/bench-ab-prepare.sh BASE_TOOL [BASE_REV]
#   BASE_TOOL   a tc-rewrite binary built at the base commit (copy it out of
#               a worktree's build first: a build in progress replaces it)
#   BASE_REV    a git revision whose runtime_headers/ the base kernels are
#               built with (.gpu/bench-base/runtime_headers), so that a
#               change of the headers is measured too; without it both
#               builds use the current headers
#   TC_REWRITE  the current tool (default build/bin/tc-rewrite)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
if [[ $# -lt 1 || $# -gt 2 || ! -x "$1" ]]; then
  echo "usage: scripts/bench-ab-prepare.sh BASE_TOOL [BASE_REV] (BASE_TOOL an executable tc-rewrite)" >&2
  exit 2
fi
base_tool="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
TC_REWRITE="$base_tool" scripts/bench-prepare.sh
rm -rf .gpu/bench-base
mv .gpu/bench .gpu/bench-base
if [[ $# -eq 2 ]]; then
  git archive "$2" runtime_headers | tar -x -C .gpu/bench-base
fi
scripts/bench-prepare.sh
echo "bench-ab-prepare: .gpu/bench-base (base: $base_tool${2:+, headers of $2}) and .gpu/bench (current)"
