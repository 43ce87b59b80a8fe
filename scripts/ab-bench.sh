#!/usr/bin/env bash
# A benchmark of one file of regions in one process: their rewrite against
# the library, and against a second rewrite by another tool version (an
# A/B), with the driver bench/NAME_bench.cu.
#
#   scripts/ab-bench.sh NAME prepare [OLD_TOOL]   # here: .gpu/NAME/{new,old}.tc.cu
#   scripts/ab-bench.sh NAME build                # GPU machine (carry .gpu)
#   scripts/ab-bench.sh NAME run [SECONDS]        # GPU machine; prints the table last
#
# NAME    regions                          functions (bench_NAME_*)
# batched bench/batched/gemm_batched.cu    f16_rc, f16_rr
# tf32    bench/tf32/gemm_tf32.cu          xwt, nn
#
# TC_AB_ARCH=sm_80 makes prepare rewrite for that architecture (default
# sm_90a): the mma.sync kernels of an sm_80 rewrite, measured on the GPU
# machine's Hopper (built for sm_90a, which runs them).
#
# prepare copies runtime_headers/ afresh into .gpu/NAME/ (not the shared
# .gpu/runtime_headers, which may be older than the tool's output); the old
# rewrite is compiled against them too, so OLD_TOOL should emit code that
# these headers still compile. build may run in the background while
# scripts/gpu-check.sh builds. run's SECONDS bound the driver (the tf32
# driver starts no new shape after them and still prints its summary); the
# table also goes to $OUT/NAME-bench.txt when OUT is set.
set -u
cd "$(dirname "${BASH_SOURCE[0]}")/.."
name="${1:-}"
case "$name" in
  batched) regions=bench/batched/gemm_batched.cu functions=(f16_rc f16_rr) budget_flag= default_s=300 ;;
  tf32) regions=bench/tf32/gemm_tf32.cu functions=(xwt nn) budget_flag=--seconds default_s=90 ;;
  *)
    echo "usage: scripts/ab-bench.sh batched|tf32 prepare [OLD_TOOL] | build | run [SECONDS]" >&2
    exit 2 ;;
esac
nvcc="${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}"
dir=.gpu/$name
flags=(-std=c++17 -O3 --expt-relaxed-constexpr "-I$dir/runtime_headers" -Ibench
       -gencode arch=compute_90a,code=sm_90a)
work=/tmp/$name-bench
case "${2:-}" in
  prepare)
    mkdir -p "$dir"
    arch="${TC_AB_ARCH:-sm_90a}"
    build/bin/tc-rewrite --arch="$arch" "$regions" -o "$dir/new.tc.cu" || exit
    rm -f "$dir/old.tc.cu"
    if [[ -n "${3:-}" ]]; then
      "$3" --arch="$arch" "$regions" -o "$dir/old.tc.cu" || exit
    fi
    rm -rf "$dir/runtime_headers"
    cp -r runtime_headers "$dir/runtime_headers" ;;
  build)
    mkdir -p "$work"
    objs=("$work/bench.o" "$work/new.o")
    "$nvcc" "${flags[@]}" -c "$dir/new.tc.cu" -o "$work/new.o" > "$work/build.log" 2>&1 &
    if [[ -f "$dir/old.tc.cu" ]]; then
      # The old rewrite's functions under other names (the driver's weak
      # old_bench_NAME_*).
      renames=()
      for f in "${functions[@]}"; do
        renames+=("-Dbench_${name}_$f=old_bench_${name}_$f")
      done
      "$nvcc" "${flags[@]}" -c "$dir/old.tc.cu" "${renames[@]}" -o "$work/old.o" \
        >> "$work/build.log" 2>&1 &
      objs+=("$work/old.o")
    fi
    "$nvcc" "${flags[@]}" -c "bench/${name}_bench.cu" -o "$work/bench.o" >> "$work/build.log" 2>&1 &
    wait
    "$nvcc" "${flags[@]}" "${objs[@]}" -lcublas -lcuda -o "$work/${name}_bench" \
      >> "$work/build.log" 2>&1
    echo "$name build: $?" >> "$work/build.log" ;;
  run)
    tail -3 "$work/build.log"
    s="${3:-$default_s}"
    if [[ -n "$budget_flag" ]]; then
      timeout "$((${s%.*} + 60))" "$work/${name}_bench" "$budget_flag" "$s"
    else
      timeout "$s" "$work/${name}_bench"
    fi 2>&1 | tee "${OUT:-$work}/$name-bench.txt" ;;
  *)
    echo "usage: scripts/ab-bench.sh $name prepare [OLD_TOOL] | build | run [SECONDS]" >&2
    exit 2 ;;
esac
