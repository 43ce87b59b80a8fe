#!/usr/bin/env bash
# scripts/rewrite-speed.sh BASE_TOOL NEW_TOOL [FILE...]
#
# tc-rewrite's own speed against Clang's parse of the same file: CPU
# seconds (user + sys), median of three runs, of BASE_TOOL and NEW_TOOL
# rewriting each FILE for sm_90a, and of `clang++ -fsyntax-only` with the
# tool's own parse flags. Prints a Markdown table (docs/results/tool-speed.md).
set -euo pipefail
cd "$(dirname "$0")/.."
BASE=$1 NEW=$2
shift 2
FILES=("$@")
[ ${#FILES[@]} -gt 0 ] || FILES=(samples/gemm.cu bench/fused/gemm_bias_relu.cu
  samples/forms/activations.cu samples/forms/conversions.cu samples/forms/init_forms.cu
  samples/forms/types.cu samples/forms/sums.cu samples/forms/epilogues.cu)
CLANG=${CLANG:-/usr/lib/llvm-22/bin/clang++}
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
cpu() { /usr/bin/time -f "%U %S" "$@" 2>&1 >/dev/null | tail -1 | awk '{printf "%.2f\n", $1 + $2}'; }
median() { sort -n | sed -n 2p; }
echo "| file | regions | before (s) | after (s) | clang++ -fsyntax-only (s) | after / syntax-only |"
echo "|---|---|---|---|---|---|"
for f in "${FILES[@]}"; do
  n=$(grep -c '^ *#pragma tc' "$f" || true)
  b=$(for _ in 1 2 3; do cpu "$BASE" --arch=sm_90a "$f" -o "$OUT/base.cu"; done | median)
  a=$(for _ in 1 2 3; do cpu "$NEW" --arch=sm_90a "$f" -o "$OUT/new.cu"; done | median)
  c=$(for _ in 1 2 3; do
        cpu "$CLANG" -fsyntax-only -xcuda --cuda-host-only --cuda-path=/usr/local/cuda \
          --cuda-gpu-arch=sm_90a -Iruntime_headers -Wno-unknown-cuda-version "$f"
      done | median)
  echo "| $f | $n | $b | $a | $c | $(awk -v a="$a" -v c="$c" 'BEGIN { printf "%.1f", a / c }') |"
done
