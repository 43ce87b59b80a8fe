#!/usr/bin/env bash
# On the GPU machine: Nsight Compute on one launch of the rewritten
# bench_gemm_f16_rc (after scripts/bench-prepare.sh here). Prints the warp
# stall reasons, pipe utilisation and memory throughput; with `cublas`, of
# the kernel cuBLAS launches for the same GEMM instead. TC_PROFILE_FUNC /
# TC_PROFILE_SOURCE pick another f16 row-column function and its .gpu/bench
# file (e.g. bench_gemm_f16_rc_t128x192k64s5, gemm_rowcol_tiles).
#   scripts/bench-profile.sh [M N K [cublas]]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
out="${OUT:-/tmp}"
b=/tmp/tc-profile; mkdir -p "$b"
nvcc -std=c++17 -O3 --expt-relaxed-constexpr -I.gpu/runtime_headers \
  -gencode arch=compute_90a,code=sm_90a -lineinfo \
  -DTC_PROFILE_FUNC="${TC_PROFILE_FUNC:-bench_gemm_f16_rc}" \
  ".gpu/bench/${TC_PROFILE_SOURCE:-gemm_rowcol}.tc.cu" bench/profile_gemm.cu -lcublas -lcuda -o "$b/profile_gemm"
"$b/profile_gemm" "$@"
kernels='regex:^tc_'
[[ "${4:-}" == cublas ]] && kernels='regex:^(nvjet|sm90|cutlass)'
ncu --clock-control none -k "$kernels" -s 2 -c 1 \
  --section SpeedOfLight --section WarpStateStats --section ComputeWorkloadAnalysis \
  --section MemoryWorkloadAnalysis --section Occupancy --section SchedulerStats \
  "$b/profile_gemm" "$@" 2>&1 | tee "$out/ncu.txt" | grep -vE "^\s*$" | tail -120
