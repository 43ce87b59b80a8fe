#!/usr/bin/env bash
# Runs ON THE GPU MACHINE, from the repository root, with .gpu/bench/ (the
# driver fused_bench.cu and bench_common.h), .gpu/bench/fused/ and
# .gpu/runtime_headers prepared by scripts/bench-prepare.sh (that machine has
# nvcc and cuBLAS but cannot run tc-rewrite). Mirrors scripts/bench-run.sh.
#
# Builds the fused-idiom benchmark (.gpu/bench/fused_bench.cu with the
# rewritten .gpu/bench/fused/*.tc.cu) under /tmp (or TC_BENCH_BUILD_DIR) and
# runs it; arguments are
# passed through to fused_bench (e.g. --quick, --sets square, --idioms
# gemm_bias_relu). A rewritten file that fails to compile is reported and its
# functions are left out of the driver (through a filtered copy of
# fused_registry.h); the run then still happens, and the script exits
# nonzero. Writes fused_bench.csv, fused_bench.md, fused_bench.log and one
# fused_bench_<idiom>_paper.png per idiom (speedup over the unfused library
# path, sorted, plus the paper's per-operation baseline and the fused-library
# or concatenated-K baseline where there is one) to $OUT
# when set (else to the build directory), and prints the benchmark's summary
# last. The PNG step is optional (it needs python3; matplotlib is used when
# present). Exits with fused_bench's status (nonzero when a row failed its
# check, a baseline mismatched, or the build failed).
#
# Usage: scripts/fused-bench-run.sh [--build-only] [fused_bench args...]
#   --build-only             build (and run fused_bench --list, which needs no
#                            GPU), then stop: a compile check off the GPU machine
#   NVCC=...                 nvcc to use (default: nvcc on PATH, else /usr/local/cuda/bin/nvcc)
#   TC_BENCH_TIMEOUT=secs    limit for the benchmark run (default 500), so that
#                            a hang still ends with a summary inside a 10-minute slot
#   TC_BENCH_BUILD_DIR=dir   build into dir (emptied first, objects removed
#                            after): with --build-only on the tool machine, a
#                            binary that a device call carries
#   TC_BENCH_PREBUILT=dir    on the GPU machine: run dir/fused_bench, built
#                            so, instead of building
set -uo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

build_only=0
args=()
for a in "$@"; do
  if [[ "$a" == "--build-only" ]]; then build_only=1; else args+=("$a"); fi
done

# What a prebuilt binary was built from: the rewritten files' manifest and
# the flags that depend on the arguments.
# shellcheck source=prebuilt-common.sh
source scripts/prebuilt-common.sh
prebuilt_inputs="$(cat .gpu/bench/fused/MANIFEST 2>/dev/null)"
for a in "$@"; do [[ "$a" == --graphs ]] && prebuilt_inputs+=$'\n--graphs'; done
if [[ -n "${TC_BENCH_PREBUILT:-}" ]]; then
  build="$(prebuilt_open "$TC_BENCH_PREBUILT" .tc-bench-prebuilt "$prebuilt_inputs")" || exit 2
elif [[ -n "${TC_BENCH_BUILD_DIR:-}" ]]; then
  build="$(prebuilt_new "$TC_BENCH_BUILD_DIR" .tc-bench-prebuilt "$prebuilt_inputs")" || exit 2
else
  build="$(mktemp -d /tmp/tc-fused-bench.XXXXXX)"
fi
results="${OUT:-$build}"
mkdir -p "$results"
log="$results/fused_bench.log"
csv="$results/fused_bench.csv"
md="$results/fused_bench.md"
timeout_s="${TC_BENCH_TIMEOUT:-500}"
src_dir=.gpu/bench
fused_dir=.gpu/bench/fused

nvcc="${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}"
# TC_DEBUG_SWITCHES: TC_PERSISTENT=0 and the like turn a feature off for a
# comparison (tc/launch_facts.cuh).
flags=(-O3 -std=c++17 --expt-relaxed-constexpr -DTC_DEBUG_SWITCHES -I.gpu/runtime_headers
       -gencode arch=compute_90a,code=sm_90a)
# --graphs (timing CUDA graphs, bench/bench_common.h): the generated
# launchers' stream 0 must be the per-thread default stream, which a
# capture can hold.
for arg in "$@"; do
  [[ "$arg" == --graphs ]] && flags+=(--default-stream per-thread)
done
# The runtime may use the driver API (TMA descriptors); link it through the
# toolkit's stub, as scripts/gpu-check.sh does.
cuda_root="$(cd "$(dirname "$nvcc")/.." && pwd)"
link_flags=(-lcublas -lcublasLt)
for stubs in "$cuda_root/lib64/stubs" "$cuda_root/targets/x86_64-linux/lib/stubs"; do
  if [[ -e "$stubs/libcuda.so" ]]; then
    link_flags+=(-L"$stubs" -lcuda)
    break
  fi
done

# cuDNN for the paper's per-operation baseline (fused_bench's ops column):
# the toolkit's, else the Python wheel's (nvidia-cudnn-cu13); without it the
# driver times that baseline with its own kernels and says so.
cudnn_note="not found (ops baseline: own kernels)"
driver_flags=()  # for the driver only (the rewritten kernels need no cuDNN)
find_cudnn() {
  # Header and library of one installation: the toolkit's, or the system's.
  local pair inc lib
  for pair in "$cuda_root/include:$cuda_root/lib64" \
              "$cuda_root/targets/x86_64-linux/include:$cuda_root/targets/x86_64-linux/lib" \
              "/usr/include:/usr/lib/x86_64-linux-gnu"; do
    inc="${pair%%:*}" lib="${pair#*:}"
    if [[ -f "$inc/cudnn.h" && -e "$lib/libcudnn.so" ]]; then
      driver_flags+=(-DBENCH_HAVE_CUDNN)
      [[ "$inc" != /usr/include ]] && driver_flags+=(-I"$inc")
      link_flags+=(-L"$lib" -lcudnn)
      cudnn_note="$lib"
      return
    fi
  done
  local wheel
  wheel="$(python3 -c 'import nvidia.cudnn, os; print(list(nvidia.cudnn.__path__)[0])' 2>/dev/null)"
  if [[ -n "$wheel" && -f "$wheel/include/cudnn.h" && -e "$wheel/lib/libcudnn.so.9" ]]; then
    driver_flags+=(-DBENCH_HAVE_CUDNN -I"$wheel/include")
    link_flags+=(-L"$wheel/lib" -l:libcudnn.so.9 -Xlinker -rpath -Xlinker "$wheel/lib")
    # cuDNN loads its sub-libraries (libcudnn_ops, ...) at run time.
    export LD_LIBRARY_PATH="$wheel/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
    cudnn_note="$wheel/lib"
  fi
}
find_cudnn

dropped=()   # rewritten files that did not compile

# Compiles the driver against the registry in directory $1 into $2.
compile_driver() {
  "$nvcc" "${flags[@]}" "${driver_flags[@]}" -I"$1" -I"$src_dir" -c "$src_dir/fused_bench.cu" -o "$2" \
    >"$2.log" 2>&1
}

build_bench() {
  local tcs=("$fused_dir"/*.tc.cu) pids=() objs=() ok=0 drv="$build/fused_bench.o"
  [[ -e "${tcs[0]}" ]] || tcs=()
  # The driver, with the full registry, in parallel with the kernels.
  compile_driver "$fused_dir" "$drv" &
  local drv_pid=$!
  for src in "${tcs[@]}"; do
    local obj="$build/$(basename "$src" .cu).o"
    objs+=("$obj")
    "$nvcc" "${flags[@]}" -c "$src" -o "$obj" >"$obj.log" 2>&1 &
    pids+=($!)
  done
  local good=()
  for i in "${!pids[@]}"; do
    if wait "${pids[$i]}"; then
      good+=("${objs[$i]}")
    else
      echo "--- compile FAILED: ${tcs[$i]} (its functions are left out of the run)"
      dropped+=("$(basename "${tcs[$i]}")")
    fi
    cat "${objs[$i]}.log"
  done
  local drv_ok=0
  wait "$drv_pid" || drv_ok=1
  if ((${#dropped[@]})); then
    # Again, against a registry without the lines of the files that failed.
    mkdir -p "$build/registry"
    local pattern
    pattern="$(printf '/\\* %s \\*/|' "${dropped[@]}")"
    grep -Ev "${pattern%|}" "$fused_dir/fused_registry.h" >"$build/registry/fused_registry.h"
    echo "--- driver rebuilt without: ${dropped[*]}"
    drv_ok=0
    compile_driver "$build/registry" "$drv" || drv_ok=1
  fi
  cat "$drv.log"
  if ((drv_ok != 0)); then
    echo "--- compile FAILED: $src_dir/fused_bench.cu"
    return 1
  fi
  "$nvcc" "${flags[@]}" "${good[@]}" "$drv" "${link_flags[@]}" -o "$build/fused_bench"
}

main() {
  echo "=== GPU"
  nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv,noheader \
    || echo "(nvidia-smi failed)"
  echo "nvcc: $("$nvcc" --version | tail -n 1)"
  echo "cuDNN: $cudnn_note"
  if [[ ! -f "$src_dir/fused_bench.cu" || ! -f "$src_dir/bench_common.h" ||
        ! -f "$fused_dir/fused_registry.h" ]]; then
    echo "fused-bench-run: .gpu/bench/ is missing or incomplete; run" \
         "scripts/bench-prepare.sh on the tool machine and carry .gpu here" >&2
    return 1
  fi
  [[ -f "$fused_dir/MANIFEST" ]] && sed 's/^/  /' "$fused_dir/MANIFEST"

  echo
  echo "=== build: fused_bench ($(ls "$fused_dir"/*.tc.cu 2>/dev/null | xargs -n1 basename | tr '\n' ' '))"
  local t0=$SECONDS
  if [[ -n "${TC_BENCH_PREBUILT:-}" ]]; then
    [[ -x "$build/fused_bench" ]] || {
      echo "fused-bench-run: no $build/fused_bench (TC_BENCH_PREBUILT)"
      return 1
    }
    echo "prebuilt: $build/fused_bench"
    [[ -f "$build/dropped" ]] && read -r -a dropped <"$build/dropped"
  elif ! build_bench; then
    echo "fused-bench-run: build FAILED"
    return 1
  else
    echo "built in $((SECONDS - t0))s: $build/fused_bench"
    if [[ -n "${TC_BENCH_BUILD_DIR:-}" ]]; then
      find "$build" -name '*.o' -delete
      echo "${dropped[*]}" >"$build/dropped"
    fi
  fi
  local build_rc=0
  if ((${#dropped[@]})); then
    echo "fused-bench-run: left out (did not compile): ${dropped[*]}"
    build_rc=1
  fi

  if ((build_only)); then
    echo
    echo "=== fused_bench --list ${args[*]}"
    "$build/fused_bench" --list "${args[@]}"
    local rc=$?
    ((rc != 0)) && return "$rc"
    return "$build_rc"
  fi

  echo
  echo "=== run: fused_bench --csv $csv --md $md ${args[*]}"
  timeout "$timeout_s" "$build/fused_bench" --csv "$csv" --md "$md" "${args[@]}" \
    | tee "$build/fused_bench.out"
  local rc=${PIPESTATUS[0]}
  ((rc == 124)) && echo "fused-bench-run: fused_bench timed out after ${timeout_s}s (the CSV holds the rows done)"

  echo
  echo "=== plot"
  local gpu pngs=()
  gpu="$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -n 1)"
  if [[ -f "$csv" ]] && command -v python3 >/dev/null; then
    local idioms
    idioms="$(awk -F, 'NR > 1 && $3 == "paper" { print $1 }' "$csv" | awk '!seen[$0]++')"
    [[ -z "$idioms" ]] && echo "fused-bench-run: no paper-set rows; no plot"
    for idiom in $idioms; do
      local png="$results/fused_bench_${idiom}_paper.png"
      python3 "$src_dir/plot.py" "$csv" "$png" --set paper --where "idiom=$idiom" \
        --ratio lib_ratio,ops_ratio,lt_ratio,cat_ratio \
        --ylabel "speedup (baseline time / tc time)" \
        --title "$idiom, paper set: fused tc kernel vs baselines${gpu:+, $gpu}" \
        && pngs+=("$png") \
        || echo "fused-bench-run: no plot for $idiom (see above); not an error"
    done
  else
    echo "fused-bench-run: no CSV or no python3; no plot"
  fi

  echo
  echo "=== outputs"
  for f in "$csv" "$md" "${pngs[@]}" "$log"; do
    [[ -e "$f" || "$f" == "$log" ]] && echo "  $f"
  done
  ((build_rc != 0)) && echo "fused-bench-run: left out (did not compile): ${dropped[*]}"
  # The benchmark's summary, repeated so that it ends the output.
  if [[ -f "$build/fused_bench.out" ]] && grep -q '^== summary ==' "$build/fused_bench.out"; then
    echo
    sed -n '/^== summary ==/,$p' "$build/fused_bench.out"
  else
    echo
    echo "fused-bench-run: fused_bench printed no summary (exit $rc)"
  fi
  ((rc != 0)) && return "$rc"
  return "$build_rc"
}

main "$@" 2>&1 | tee "$log"
exit "${PIPESTATUS[0]}"
