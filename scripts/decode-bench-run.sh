#!/usr/bin/env bash
# Runs ON THE GPU MACHINE, from the repository root (needs nvcc and cuBLAS,
# not tc-rewrite): builds bench/weight_stream_bench.cu, the decode
# component (tc/decode/weight_stream.cuh) against cuBLAS fp16 on
# dequantised weights, and runs it. Arguments pass through (--m 1,8,16,
# --hbm-tbs 4.8). Writes decode-bench.csv and decode-bench.log to $OUT when
# set; the table is printed last.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
nvcc="${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}"
cuda_root="$(cd "$(dirname "$nvcc")/.." && pwd)"
out="${OUT:-$(mktemp -d /tmp/tc-decode.XXXXXX)}"
build="$(mktemp -d /tmp/tc-decode-build.XXXXXX)"
"$nvcc" -std=c++17 -O3 --expt-relaxed-constexpr -Iruntime_headers \
  -gencode arch=compute_90a,code=sm_90a bench/weight_stream_bench.cu \
  -lcublas -L"$cuda_root/lib64/stubs" -lcuda -o "$build/weight_stream_bench"
"$build/weight_stream_bench" --csv "$out/decode-bench.csv" "$@" | tee "$out/decode-bench.log"
