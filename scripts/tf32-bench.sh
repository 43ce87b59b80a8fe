#!/usr/bin/env bash
# The TF32 GEMM benchmark (bench/tf32_bench.cu): the rewrite of
# bench/tf32/gemm_tf32.cu (allow_tf32 regions) against cuBLAS TF32, and
# against a second rewrite by another tool version (an A/B).
#
#   scripts/tf32-bench.sh prepare [OLD_TOOL]   # here: .gpu/tf32/{new,old}.tc.cu
#   scripts/tf32-bench.sh build                # GPU machine (carry .gpu)
#   scripts/tf32-bench.sh run [SECONDS]        # GPU machine; prints the table last
#
# SECONDS (default 90) is the driver's --seconds budget: it starts no new
# shape after it and still prints the summary; a hard timeout 60 s later
# catches a hang. The output also goes to $OUT/tf32-bench.txt when OUT is set.
# prepare copies runtime_headers/ afresh into .gpu/tf32/ (not the shared
# .gpu/runtime_headers, which may be older than the tool's output); the old
# rewrite is compiled against them too, so OLD_TOOL should emit code that
# these headers still compile.
set -u
cd "$(dirname "${BASH_SOURCE[0]}")/.."
nvcc="${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}"
flags=(-std=c++17 -O3 --expt-relaxed-constexpr -I.gpu/tf32/runtime_headers -Ibench
       -gencode arch=compute_90a,code=sm_90a)
work=/tmp/tf32-bench
case "${1:-}" in
  prepare)
    mkdir -p .gpu/tf32
    build/bin/tc-rewrite --arch=sm_90a bench/tf32/gemm_tf32.cu -o .gpu/tf32/new.tc.cu || exit
    rm -f .gpu/tf32/old.tc.cu
    if [[ -n "${2:-}" ]]; then
      "$2" --arch=sm_90a bench/tf32/gemm_tf32.cu -o .gpu/tf32/old.tc.cu || exit
    fi
    rm -rf .gpu/tf32/runtime_headers
    cp -r runtime_headers .gpu/tf32/runtime_headers ;;
  build)
    mkdir -p "$work"
    objs=("$work/bench.o" "$work/new.o")
    "$nvcc" "${flags[@]}" -c .gpu/tf32/new.tc.cu -o "$work/new.o" > "$work/build.log" 2>&1 &
    if [[ -f .gpu/tf32/old.tc.cu ]]; then
      # The old rewrite's functions under other names (the driver's weak
      # old_bench_tf32_*).
      "$nvcc" "${flags[@]}" -c .gpu/tf32/old.tc.cu \
        -Dbench_tf32_xwt=old_bench_tf32_xwt \
        -Dbench_tf32_nn=old_bench_tf32_nn -o "$work/old.o" >> "$work/build.log" 2>&1 &
      objs+=("$work/old.o")
    fi
    "$nvcc" "${flags[@]}" -c bench/tf32_bench.cu -o "$work/bench.o" >> "$work/build.log" 2>&1 &
    wait
    "$nvcc" "${flags[@]}" "${objs[@]}" -lcublas -lcuda -o "$work/tf32_bench" \
      >> "$work/build.log" 2>&1
    echo "tf32 build: $?" >> "$work/build.log" ;;
  run)
    tail -3 "$work/build.log"
    s="${2:-90}"
    timeout "$((${s%.*} + 60))" "$work/tf32_bench" --seconds "$s" 2>&1 |
      tee "${OUT:-$work}/tf32-bench.txt" ;;
  *)
    echo "usage: scripts/tf32-bench.sh prepare [OLD_TOOL] | build | run [SECONDS]" >&2
    exit 2 ;;
esac
