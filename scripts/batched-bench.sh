#!/usr/bin/env bash
# The batched GEMM benchmark (bench/batched_bench.cu): the rewrite of
# bench/batched/gemm_batched.cu against cuBLAS, and against a second
# rewrite by another tool version (an A/B).
#
#   scripts/batched-bench.sh prepare [OLD_TOOL]   # here: .gpu/batched/{new,old}.tc.cu
#   scripts/batched-bench.sh build                # GPU machine (carry .gpu)
#   scripts/batched-bench.sh run [SECONDS]        # GPU machine; prints the table last
#
# build may run in the background while scripts/gpu-check.sh builds; the
# table also goes to $OUT/batched-bench.txt when OUT is set.
set -u
cd "$(dirname "${BASH_SOURCE[0]}")/.."
nvcc="${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}"
flags=(-std=c++17 -O3 --expt-relaxed-constexpr -I.gpu/runtime_headers -Ibench
       -gencode arch=compute_90a,code=sm_90a)
work=/tmp/batched-bench
case "${1:-}" in
  prepare)
    mkdir -p .gpu/batched
    build/bin/tc-rewrite --arch=sm_90a bench/batched/gemm_batched.cu -o .gpu/batched/new.tc.cu
    rm -f .gpu/batched/old.tc.cu
    if [[ -n "${2:-}" ]]; then
      "$2" --arch=sm_90a bench/batched/gemm_batched.cu -o .gpu/batched/old.tc.cu
    fi
    [[ -d .gpu/runtime_headers ]] || { mkdir -p .gpu; cp -r runtime_headers .gpu/; } ;;
  build)
    mkdir -p "$work"
    objs=("$work/bench.o" "$work/new.o")
    "$nvcc" "${flags[@]}" -c .gpu/batched/new.tc.cu -o "$work/new.o" > "$work/build.log" 2>&1 &
    if [[ -f .gpu/batched/old.tc.cu ]]; then
      # The old rewrite's functions under other names (the driver's weak
      # old_bench_batched_*).
      "$nvcc" "${flags[@]}" -c .gpu/batched/old.tc.cu \
        -Dbench_batched_f16_rc=old_bench_batched_f16_rc \
        -Dbench_batched_f16_rr=old_bench_batched_f16_rr -o "$work/old.o" >> "$work/build.log" 2>&1 &
      objs+=("$work/old.o")
    fi
    "$nvcc" "${flags[@]}" -c bench/batched_bench.cu -o "$work/bench.o" >> "$work/build.log" 2>&1 &
    wait
    "$nvcc" "${flags[@]}" "${objs[@]}" -lcublas -lcuda -o "$work/batched_bench" \
      >> "$work/build.log" 2>&1
    echo "batched build: $?" >> "$work/build.log" ;;
  run)
    tail -3 "$work/build.log"
    timeout "${2:-300}" "$work/batched_bench" 2>&1 | tee "${OUT:-$work}/batched-bench.txt" ;;
  *)
    echo "usage: scripts/batched-bench.sh prepare [OLD_TOOL] | build | run [SECONDS]" >&2
    exit 2 ;;
esac
