#!/usr/bin/env bash
# Runs ON THE GPU MACHINE, from the repository root, with .gpu/ prepared by
# scripts/gpu-prepare.sh (that machine has nvcc but cannot run tc-rewrite).
#
# Builds the rewritten samples together with the correctness driver
# (test/gpu/gemm_correctness.cu) into one binary and runs it; also builds and
# runs .gpu/runtime_headers_test.cu when present. Build products go under
# /tmp. When $OUT is set, the full log goes to $OUT/gpu-correctness.log and
# the markdown table to $OUT/gpu-correctness.md. Exits nonzero if anything
# fails to build or any check fails; the summary is printed last.
#
# Usage: scripts/gpu-check.sh
#   NVCC=...              nvcc to use (default: nvcc on PATH, else /usr/local/cuda/bin/nvcc)
#   TC_GPU_TIMEOUT=secs   limit per test binary (default 480), so that a hang
#                         still ends with a summary inside a 10-minute slot
set -uo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

build="$(mktemp -d /tmp/tc-gpu-check.XXXXXX)"
results="${OUT:-$build}"
mkdir -p "$results"
log="$results/gpu-correctness.log"
md="$results/gpu-correctness.md"
timeout_s="${TC_GPU_TIMEOUT:-480}"

nvcc="${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}"
flags=(-std=c++17 -O3 --expt-relaxed-constexpr -I.gpu/runtime_headers
       -gencode arch=compute_90a,code=sm_90a)
# The runtime may use the driver API (e.g. cuTensorMapEncodeTiled for TMA
# descriptors). Link it through the toolkit's stub so the build does not
# depend on the driver installing an unversioned libcuda.so; at run time the
# real libcuda.so.1 is loaded. With --as-needed it is dropped when unused.
cuda_root="$(cd "$(dirname "$nvcc")/.." && pwd)"
link_flags=()
for stubs in "$cuda_root/lib64/stubs" "$cuda_root/targets/x86_64-linux/lib/stubs"; do
  if [[ -e "$stubs/libcuda.so" ]]; then
    link_flags=(-L"$stubs" -lcuda)
    break
  fi
done

declare -A step_status=()
steps=()
record() { steps+=("$1"); step_status["$1"]="$2"; }

# Compiles each source ($2...) to an object in parallel, then links them into
# $build/$1. Per-file logs are printed in order so the output stays readable.
build_binary() {
  local bin="$1"; shift
  local pids=() objs=() ok=0
  for src in "$@"; do
    local obj="$build/$(basename "$src" .cu).o"
    objs+=("$obj")
    "$nvcc" "${flags[@]}" -c "$src" -o "$obj" >"$obj.log" 2>&1 &
    pids+=($!)
  done
  for i in "${!pids[@]}"; do
    if ! wait "${pids[$i]}"; then
      echo "--- compile FAILED: $(basename "${objs[$i]}" .o).cu"
      ok=1
    fi
    cat "${objs[$i]}.log"
  done
  ((ok == 0)) || return 1
  "$nvcc" "${flags[@]}" "${objs[@]}" "${link_flags[@]}" -o "$build/$bin"
}

# Runs a test binary under the time limit, keeping a copy of its output in
# $build/<name>.out for the final summary.
run_test() {
  local name="$1"; shift
  echo
  echo "=== run: $name"
  timeout "$timeout_s" "$@" | tee "$build/$name.out"
  local rc=${PIPESTATUS[0]}
  case $rc in
    0) record "$name" PASS ;;
    124) record "$name" "FAIL (timed out after ${timeout_s}s)" ;;
    *) record "$name" "FAIL (exit $rc)" ;;
  esac
}

main() {
  echo "=== GPU"
  nvidia-smi --query-gpu=name --format=csv,noheader || echo "(nvidia-smi failed)"
  echo "nvcc: $("$nvcc" --version | tail -n 1)"
  [[ -f .gpu/MANIFEST ]] && sed 's/^/  /' .gpu/MANIFEST

  local samples=(.gpu/*.tc.cu)
  if [[ ! -f .gpu/gemm_correctness.cu || ! -e "${samples[0]}" ]]; then
    echo "gpu-check: .gpu/ is missing or incomplete; run scripts/gpu-prepare.sh" \
         "on the tool machine and carry .gpu here" >&2
    record "prepare" "FAIL (.gpu/ incomplete)"
  else
    echo
    echo "=== build: gemm_correctness (${samples[*]} .gpu/gemm_correctness.cu)"
    if build_binary gemm_correctness "${samples[@]}" .gpu/gemm_correctness.cu; then
      record "build gemm_correctness" PASS
    else
      record "build gemm_correctness" FAIL
    fi
  fi

  if [[ -f .gpu/runtime_headers_test.cu ]]; then
    echo
    echo "=== build: runtime_headers_test"
    if build_binary runtime_headers_test .gpu/runtime_headers_test.cu; then
      record "build runtime_headers_test" PASS
      run_test runtime_headers_test "$build/runtime_headers_test"
    else
      record "build runtime_headers_test" FAIL
    fi
  else
    record "runtime_headers_test" "absent (not run)"
  fi

  # Last, so its table ends the log.
  if [[ "${step_status[build gemm_correctness]:-}" == PASS ]]; then
    run_test gemm_correctness "$build/gemm_correctness" "$md"
  fi

  echo
  echo "=== gpu-check summary"
  local failed=0
  for s in "${steps[@]}"; do
    printf '  %-30s %s\n' "$s" "${step_status[$s]}"
    [[ "${step_status[$s]}" == FAIL* ]] && failed=1
  done
  [[ -f "$md" ]] && echo "  table: $md"
  echo "  log:   $log"
  # The driver's per-function table and pass/fail counts, repeated so they
  # end the output.
  if [[ -f "$build/gemm_correctness.out" ]]; then
    echo
    sed -n '/^== summary ==/,$p' "$build/gemm_correctness.out"
  fi
  echo
  if ((failed)); then
    echo "gpu-check: FAILED"
  else
    echo "gpu-check: all passed"
  fi
  return $failed
}

main 2>&1 | tee "$log"
exit "${PIPESTATUS[0]}"
