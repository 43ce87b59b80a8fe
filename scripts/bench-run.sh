#!/usr/bin/env bash
# Runs ON THE GPU MACHINE, from the repository root, with .gpu/bench/ and
# .gpu/runtime_headers prepared by scripts/bench-prepare.sh (that machine has
# nvcc and cuBLAS but cannot run tc-rewrite).
#
# Builds the GEMM benchmark (.gpu/bench/gemm_bench.cu with the rewritten
# .gpu/bench/*.tc.cu) under /tmp and runs it; arguments are passed through to
# gemm_bench (e.g. --quick, --sets square, --funcs bench_gemm_f16_rc). Writes
# gemm_bench.csv, gemm_bench.md, gemm_bench.log and gemm_bench_paper.png to
# $OUT when set (else to the build directory) and prints the benchmark's
# summary last. The PNG step is optional (it needs python3; matplotlib is
# used when present). Exits with gemm_bench's status (nonzero when a row
# failed its check or the build failed).
#
# Usage: scripts/bench-run.sh [gemm_bench args...]
#   NVCC=...                 nvcc to use (default: nvcc on PATH, else /usr/local/cuda/bin/nvcc)
#   TC_BENCH_NVCC_FLAGS=...  more nvcc flags (-DTC_TUNING for a tuning run, docs/tuning.md)
#   TC_BENCH_TIMEOUT=secs    limit for the benchmark run (default 500), so that
#                            a hang still ends with a summary inside a 10-minute slot
set -uo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

build="$(mktemp -d /tmp/tc-bench.XXXXXX)"
results="${OUT:-$build}"
mkdir -p "$results"
log="$results/gemm_bench.log"
csv="$results/gemm_bench.csv"
md="$results/gemm_bench.md"
png="$results/gemm_bench_paper.png"
timeout_s="${TC_BENCH_TIMEOUT:-500}"

nvcc="${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}"
# TC_DEBUG_SWITCHES: TC_PERSISTENT=0 and the like turn a feature off for a
# comparison (tc/launch_facts.cuh).
flags=(-O3 -std=c++17 --expt-relaxed-constexpr -DTC_DEBUG_SWITCHES -I.gpu/runtime_headers
       -I.gpu/bench -gencode arch=compute_90a,code=sm_90a)
# TC_BENCH_NVCC_FLAGS: more flags, e.g. -DTC_TUNING for a tuning run
# (with TC_TUNING_DB=FILE in the environment; docs/tuning.md).
# shellcheck disable=SC2206
flags+=(${TC_BENCH_NVCC_FLAGS:-})
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

build_bench() {
  local srcs=(.gpu/bench/*.tc.cu .gpu/bench/gemm_bench.cu) pids=() objs=() ok=0
  for src in "${srcs[@]}"; do
    local obj="$build/$(basename "$src" .cu).o"
    objs+=("$obj")
    "$nvcc" "${flags[@]}" -c "$src" -o "$obj" >"$obj.log" 2>&1 &
    pids+=($!)
  done
  for i in "${!pids[@]}"; do
    if ! wait "${pids[$i]}"; then
      echo "--- compile FAILED: ${srcs[$i]}"
      ok=1
    fi
    cat "${objs[$i]}.log"
  done
  ((ok == 0)) || return 1
  "$nvcc" "${flags[@]}" "${objs[@]}" "${link_flags[@]}" -o "$build/gemm_bench"
}

main() {
  echo "=== GPU"
  nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv,noheader \
    || echo "(nvidia-smi failed)"
  echo "nvcc: $("$nvcc" --version | tail -n 1)"
  if [[ ! -f .gpu/bench/gemm_bench.cu || ! -f .gpu/bench/registry.h ]]; then
    echo "bench-run: .gpu/bench/ is missing or incomplete; run" \
         "scripts/bench-prepare.sh on the tool machine and carry .gpu here" >&2
    return 1
  fi
  [[ -f .gpu/bench/MANIFEST ]] && sed 's/^/  /' .gpu/bench/MANIFEST

  echo
  echo "=== build: gemm_bench ($(ls .gpu/bench/*.tc.cu 2>/dev/null | xargs -n1 basename | tr '\n' ' '))"
  local t0=$SECONDS
  if ! build_bench; then
    echo "bench-run: build FAILED"
    return 1
  fi
  echo "built in $((SECONDS - t0))s"

  echo
  echo "=== run: gemm_bench --csv $csv --md $md $*"
  timeout "$timeout_s" "$build/gemm_bench" --csv "$csv" --md "$md" "$@" \
    | tee "$build/gemm_bench.out"
  local rc=${PIPESTATUS[0]}
  ((rc == 124)) && echo "bench-run: gemm_bench timed out after ${timeout_s}s (the CSV holds the rows done)"

  echo
  echo "=== plot"
  local gpu
  gpu="$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -n 1)"
  if [[ -f "$csv" ]] && command -v python3 >/dev/null; then
    python3 .gpu/bench/plot.py "$csv" "$png" --set paper \
      --title "tc-rewrite vs cuBLAS, paper set${gpu:+, $gpu}" \
      || echo "bench-run: no plot (see above); not an error"
  else
    echo "bench-run: no CSV or no python3; no plot"
  fi

  echo
  echo "=== outputs"
  for f in "$csv" "$md" "$png" "$log"; do
    [[ -e "$f" || "$f" == "$log" ]] && echo "  $f"
  done
  # The benchmark's summary, repeated so that it ends the output.
  if [[ -f "$build/gemm_bench.out" ]] && grep -q '^== summary ==' "$build/gemm_bench.out"; then
    echo
    sed -n '/^== summary ==/,$p' "$build/gemm_bench.out"
  else
    echo
    echo "bench-run: gemm_bench printed no summary (exit $rc)"
  fi
  return "$rc"
}

main "$@" 2>&1 | tee "$log"
exit "${PIPESTATUS[0]}"
