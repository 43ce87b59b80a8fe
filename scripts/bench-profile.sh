#!/usr/bin/env bash
# On the GPU machine: Nsight Compute on one launch of the rewritten
# bench_gemm_f16_rc (after scripts/bench-prepare.sh here). Prints the warp
# stall reasons, pipe utilisation and memory throughput.
#   scripts/bench-profile.sh [M N K]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
out="${OUT:-/tmp}"
b=/tmp/tc-profile; mkdir -p "$b"
nvcc -std=c++17 -O3 --expt-relaxed-constexpr -I.gpu/runtime_headers \
  -gencode arch=compute_90a,code=sm_90a -lineinfo \
  .gpu/bench/gemm_rowcol.tc.cu bench/profile_gemm.cu -o "$b/profile_gemm"
"$b/profile_gemm" "$@"
ncu --clock-control none -k regex:tc_ -s 2 -c 1 \
  --section SpeedOfLight --section WarpStateStats --section ComputeWorkloadAnalysis \
  --section MemoryWorkloadAnalysis --section Occupancy --section SchedulerStats \
  "$b/profile_gemm" "$@" 2>&1 | tee "$out/ncu.txt" | grep -vE "^\s*$" | tail -120
