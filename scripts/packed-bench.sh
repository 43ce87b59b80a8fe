#!/usr/bin/env bash
# scripts/packed-bench.sh prepare | run
#
# The rewritten int4 layer (bench/packed/int4_layer.cu) against cuBLAS fp16
# on weights dequantised ahead of time (bench/packed/int4_layer_bench.cu).
#   prepare  (tool machine) rewrites the layer into .gpu/packed/ beside the
#            driver and the runtime headers;
#   run      (GPU machine, .gpu carried) builds and runs it, then runs it
#            again with TC_DECODE=0 (no decode kernel); the tables last.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
case "${1:-}" in
prepare)
  mkdir -p .gpu/packed
  "${TC_REWRITE:-build/bin/tc-rewrite}" bench/packed/int4_layer.cu -o .gpu/packed/int4_layer.tc.cu
  cp bench/packed/int4_layer_bench.cu .gpu/packed/
  [[ -d .gpu/runtime_headers ]] || cp -r runtime_headers .gpu/runtime_headers
  ;;
run)
  nvcc="${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}"
  "$nvcc" -std=c++17 -O3 -DTC_DEBUG_SWITCHES -I.gpu/runtime_headers \
    -gencode arch=compute_90a,code=sm_90a .gpu/packed/int4_layer_bench.cu -lcublas -lcuda \
    -o /tmp/int4_layer_bench
  /tmp/int4_layer_bench
  # The same layer without the decode kernel (the dequantised copy and the
  # GEMM kernels at every M), for comparison.
  echo
  TC_DECODE=0 /tmp/int4_layer_bench
  ;;
*)
  echo "usage: scripts/packed-bench.sh prepare | run" >&2
  exit 2
  ;;
esac
