#!/usr/bin/env bash
# Runs ON THE GPU MACHINE, from the repository root, with .gpu/ prepared by
# scripts/gpu-prepare.sh (that machine has nvcc but cannot run tc-rewrite).
#
# Builds, all compilations in parallel:
#   - gemm_correctness: the rewritten samples (.gpu/*.tc.cu) with the driver
#     test/gpu/gemm_correctness.cu;
#   - forms_correctness: the rewritten loop-nest forms (.gpu/forms/*.tc.cu)
#     with the driver test/gpu/forms_correctness.cu;
#   - runtime_headers_test (.gpu/runtime_headers_test.cu) when present;
#   - sm90_components_test (.gpu/sm90_components_test.cu) when present;
#   - sm90_raw_weights_test (.gpu/sm90_raw_weights_test.cu) when present;
#   - sm80_components_test (.gpu/sm80_components_test.cu) when present;
#   - weight_stream_test (.gpu/weight_stream_test.cu) when present;
#   - regions_test: the regions of test/gpu/regions/*.cu, rewritten
#     and as written, with the driver test/gpu/regions_test.cu;
#   - packed_regions_test: those of regions/packed.cu (packed 4-bit
#     weights), with the driver test/gpu/packed_regions_test.cu;
# then runs them on the GPU, one after the other (TC_GPU_PARALLEL=1: all at
# once; each one's output printed whole,
# in this order). Build products go under /tmp (or TC_GPU_PREBUILD's
# directory). When $OUT is set, the full log
# goes to $OUT/gpu-correctness.log and the markdown tables to
# $OUT/gpu-correctness.md (samples) and $OUT/gpu-forms.md (forms). Exits
# nonzero if anything fails to build or any check fails; the summary is
# printed last.
#
# Usage: scripts/gpu-check.sh
#   NVCC=...              nvcc to use (default: nvcc on PATH, else /usr/local/cuda/bin/nvcc)
#   TC_GPU_TIMEOUT=secs   limit per test binary (default 480)
#   TC_GPU_BUDGET=secs    limit for the whole script (default 560): each test
#                         binary gets at most what is left of it after the
#                         builds, so that a hang still ends with a summary
#                         inside a 10-minute slot
#   TC_GPU_ONLY="name ..."  build and run only these binaries (e.g.
#                         "sm90_components_test forms_correctness"); the
#                         others are listed as skipped
#   TC_GPU_FORMS="file ..."  forms_correctness with only these
#                         .gpu/forms/<file>.tc.cu and their functions
#                         (TC_FORMS_FILTER=file:...): a short slot's check
#                         of the files a change touches
#   TC_GPU_PARALLEL=1     run the test binaries at once
#   TC_GPU_PREBUILD=dir   on the tool machine (no GPU): only build, into dir
#                         (objects removed), e.g. .gpu/prebuilt, which the
#                         device call then carries: device time goes to the
#                         runs, not to nvcc
#   TC_GPU_PREBUILT=dir   on the GPU machine: run the binaries built there
#                         (with the same TC_GPU_ONLY and TC_GPU_FORMS), build
#                         nothing
set -uo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

if [[ -n "${TC_GPU_PREBUILD:-}" && -n "${TC_GPU_PREBUILT:-}" ]]; then
  echo "gpu-check: TC_GPU_PREBUILD builds, TC_GPU_PREBUILT runs: set one" >&2
  exit 2
fi
# What a prebuilt directory was built from: the prepared .gpu and the
# selection.
# shellcheck source=prebuilt-common.sh
source scripts/prebuilt-common.sh
prebuilt_inputs="$(cat .gpu/MANIFEST 2>/dev/null)
TC_GPU_ONLY=${TC_GPU_ONLY:-}
TC_GPU_FORMS=${TC_GPU_FORMS:-}"
if [[ -n "${TC_GPU_PREBUILD:-}" ]]; then
  build="$(prebuilt_new "$TC_GPU_PREBUILD" .tc-gpu-prebuilt "$prebuilt_inputs")" || exit 2
elif [[ -n "${TC_GPU_PREBUILT:-}" ]]; then
  build="$(prebuilt_open "$TC_GPU_PREBUILT" .tc-gpu-prebuilt "$prebuilt_inputs")" || exit 2
else
  build="$(mktemp -d /tmp/tc-gpu-check.XXXXXX)"
fi
results="${OUT:-$build}"
mkdir -p "$results"
log="$results/gpu-correctness.log"
md="$results/gpu-correctness.md"
forms_md="$results/gpu-forms.md"
timeout_s="${TC_GPU_TIMEOUT:-480}"
deadline=$((SECONDS + ${TC_GPU_BUDGET:-560}))

nvcc="${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}"
flags=(-std=c++17 -O3 --expt-relaxed-constexpr -I.gpu/runtime_headers
       -gencode arch=compute_90a,code=sm_90a)
# The files compile in parallel, but the longest (forms/epilogues: about 300
# kernels) took most of the build alone: 548 s of a 560 s budget on the
# H200 machine, leaving no time to run the tests. Splitting its optimisation
# over threads (nvcc -split-compile; 0: one per CPU) shortens that pole:
# 158 s -> 103 s for forms/layouts on two cores.
compile_flags=(-split-compile=0)
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
# $build/$1. Objects go to $build/$1.obj/ (sources of different binaries may
# share a base name). Per-file logs are printed in order so the output stays
# readable.
build_binary() {
  local bin="$1"; shift
  local pids=() objs=() ok=0
  mkdir -p "$build/$bin.obj"
  for src in "$@"; do
    local obj="$build/$bin.obj/$(basename "$src" .cu).o"
    objs+=("$obj")
    (
      start=$SECONDS
      "$nvcc" "${flags[@]}" "${compile_flags[@]}" -c "$src" -o "$obj" || exit
      echo "compiled $(basename "$src") in $((SECONDS - start))s"
    ) >"$obj.log" 2>&1 &
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

# Builds several binaries at once ("name:src src ..." per argument), each
# build's output kept apart and printed in argument order; records
# "build <name>" for each.
build_all() {
  local names=() pids=()
  for spec in "$@"; do
    local name="${spec%%:*}"
    local srcs
    read -r -a srcs <<<"${spec#*:}"
    names+=("$name")
    build_binary "$name" "${srcs[@]}" >"$build/build-$name.log" 2>&1 &
    pids+=($!)
  done
  for i in "${!pids[@]}"; do
    local name="${names[$i]}" rc=0
    wait "${pids[$i]}" || rc=$?
    echo
    echo "=== build: $name (${specs_text[$name]:-})"
    cat "$build/build-$name.log"
    if ((rc == 0)); then
      record "build $name" PASS
    else
      record "build $name" FAIL
    fi
  done
}

# Runs a test binary under the time limit, its output in $build/<name>.out
# for the final summary; finish_tests reports them. One after the other by
# default (TC_GPU_PARALLEL=1: at once, which shortens a call whose builds
# took most of it). Their stdout line-buffered (stdbuf), so that the output
# of a binary the limit stops ends at the case that hung: fully buffered, it
# ended 4 KiB earlier, at a case that had passed, and two sessions looked
# for a hang in the wrong kernel (docs/results/
# issue48-read-only-h100-2026-12-07.md). With TC_GPU_PREBUILT the builds
# take no device time.
line_buffered=()
command -v stdbuf >/dev/null && line_buffered=(stdbuf -oL -eL)
started=()
declare -A test_pid=() test_limit=() test_rc=()
start_test() {
  local name="$1"; shift
  local left=$((deadline - SECONDS - 10))
  local limit=$((left < timeout_s ? left : timeout_s))
  started+=("$name")
  test_limit["$name"]=$limit
  if ((limit <= 0)); then
    return
  fi
  if [[ "${TC_GPU_PARALLEL:-0}" == 1 ]]; then
    timeout "$limit" "${line_buffered[@]}" "$@" >"$build/$name.out" 2>&1 &
    test_pid["$name"]=$!
  else
    local rc=0
    timeout "$limit" "${line_buffered[@]}" "$@" >"$build/$name.out" 2>&1 || rc=$?
    test_pid["$name"]=done
    test_rc["$name"]=$rc
  fi
}

# start_test for the binary $build/<name> where its build passed.
start_built() {
  local name="$1"; shift
  if [[ "${step_status[build $name]:-}" == PASS ]]; then
    start_test "$name" "$build/$name" "$@"
  fi
}

# Waits for the started tests in order, printing each one's output whole and
# recording its status.
finish_tests() {
  local name
  for name in "${started[@]}"; do
    local limit=${test_limit[$name]}
    echo
    echo "=== run: $name (time limit ${limit}s)"
    if [[ -z "${test_pid[$name]:-}" ]]; then
      record "$name" "FAIL (no time left in TC_GPU_BUDGET)"
      continue
    fi
    local rc=0
    if [[ "${test_pid[$name]}" == done ]]; then
      rc=${test_rc[$name]}
    else
      wait "${test_pid[$name]}" || rc=$?
    fi
    cat "$build/$name.out"
    case $rc in
      0) record "$name" PASS ;;
      124) record "$name" "FAIL (timed out after ${limit}s)" ;;
      *) record "$name" "FAIL (exit $rc)" ;;
    esac
  done
}

main() {
  echo "=== GPU"
  nvidia-smi --query-gpu=name --format=csv,noheader || echo "(nvidia-smi failed)"
  echo "nvcc: $("$nvcc" --version | tail -n 1)"
  [[ -f .gpu/MANIFEST ]] && sed 's/^/  /' .gpu/MANIFEST

  local samples=(.gpu/*.tc.cu) forms=(.gpu/forms/*.tc.cu) specs=()
  if [[ -n "${TC_GPU_FORMS:-}" ]]; then
    local f filter=""
    forms=()
    for f in ${TC_GPU_FORMS}; do
      forms+=(".gpu/forms/$f.tc.cu")
      filter+="${filter:+,}file:$f"
    done
    export TC_FORMS_FILTER="$filter"
  fi
  declare -gA specs_text=()
  if [[ ! -f .gpu/gemm_correctness.cu || ! -e "${samples[0]}" ]]; then
    echo "gpu-check: .gpu/ is missing or incomplete; run scripts/gpu-prepare.sh" \
         "on the tool machine and carry .gpu here" >&2
    record "prepare" "FAIL (.gpu/ incomplete)"
  else
    specs+=("gemm_correctness:${samples[*]} .gpu/gemm_correctness.cu")
    specs_text[gemm_correctness]="${samples[*]} .gpu/gemm_correctness.cu"
  fi
  if [[ ! -f .gpu/forms_correctness.cu || ! -e "${forms[0]}" ]]; then
    echo "gpu-check: .gpu/forms/ or .gpu/forms_correctness.cu is missing; run" \
         "scripts/gpu-prepare.sh on the tool machine and carry .gpu here" >&2
    record "prepare forms" "FAIL (.gpu/forms incomplete)"
  else
    specs+=("forms_correctness:${forms[*]} .gpu/forms_correctness.cu")
    specs_text[forms_correctness]="${#forms[@]} files of .gpu/forms/ + .gpu/forms_correctness.cu"
  fi
  if [[ -f .gpu/runtime_headers_test.cu ]]; then
    specs+=("runtime_headers_test:.gpu/runtime_headers_test.cu")
    specs_text[runtime_headers_test]=".gpu/runtime_headers_test.cu"
  else
    record "runtime_headers_test" "absent (not run)"
  fi
  if [[ -f .gpu/sm90_components_test.cu ]]; then
    specs+=("sm90_components_test:.gpu/sm90_components_test.cu")
    specs_text[sm90_components_test]=".gpu/sm90_components_test.cu"
  fi
  if [[ -f .gpu/sm90_raw_weights_test.cu ]]; then
    specs+=("sm90_raw_weights_test:.gpu/sm90_raw_weights_test.cu")
    specs_text[sm90_raw_weights_test]=".gpu/sm90_raw_weights_test.cu"
  fi
  if [[ -f .gpu/sm80_components_test.cu ]]; then
    specs+=("sm80_components_test:.gpu/sm80_components_test.cu")
    specs_text[sm80_components_test]=".gpu/sm80_components_test.cu"
  fi
  if [[ -f .gpu/weight_stream_test.cu ]]; then
    specs+=("weight_stream_test:.gpu/weight_stream_test.cu")
    specs_text[weight_stream_test]=".gpu/weight_stream_test.cu"
  fi
  if [[ -f .gpu/packed_regions_test.cu && -f .gpu/regions/packed.tc.cu ]]; then
    specs+=("packed_regions_test:.gpu/packed_regions_test.cu")
    specs_text[packed_regions_test]=".gpu/packed_regions_test.cu (+ .gpu/regions/packed.tc.cu)"
  fi
  if [[ -f .gpu/regions_test.cu && -f .gpu/regions/aliasing.tc.cu && -f .gpu/regions/loops.tc.cu && -f .gpu/regions/sizes.tc.cu && -f .gpu/regions/templates.tc.cu ]]; then
    specs+=("regions_test:.gpu/regions_test.cu")
    specs_text[regions_test]=".gpu/regions_test.cu (+ .gpu/regions/*.tc.cu)"
  else
    record "regions_test" "FAIL (.gpu/regions_test.cu or .gpu/regions/ incomplete)"
  fi
  if [[ -n "${TC_GPU_ONLY:-}" ]]; then
    local kept=() spec
    for spec in "${specs[@]}"; do
      if [[ " ${TC_GPU_ONLY} " == *" ${spec%%:*} "* ]]; then
        kept+=("$spec")
      else
        record "${spec%%:*}" "skipped (TC_GPU_ONLY)"
      fi
    done
    specs=("${kept[@]}")
  fi
  local t0=$SECONDS
  if [[ -n "${TC_GPU_PREBUILT:-}" ]]; then
    local spec name
    for spec in "${specs[@]}"; do
      name="${spec%%:*}"
      if [[ -x "$build/$name" ]]; then
        record "build $name" "PASS"
      else
        record "build $name" "FAIL (not in $TC_GPU_PREBUILT)"
      fi
    done
    echo "=== prebuilt binaries: $build"
  else
    ((${#specs[@]})) && build_all "${specs[@]}"
    echo
    echo "=== builds took $((SECONDS - t0))s"
  fi
  if [[ -n "${TC_GPU_PREBUILD:-}" ]]; then
    rm -rf "$build"/*.obj
    echo "=== prebuilt into $build ($(du -sh "$build" | cut -f1)); no tests run"
    for s in "${steps[@]}"; do printf '  %-30s %s\n' "$s" "${step_status[$s]}"; done
    [[ " ${step_status[*]} " != *FAIL* ]]
    return
  fi

  start_built runtime_headers_test
  start_built sm90_components_test
  start_built sm90_raw_weights_test
  start_built sm80_components_test
  start_built weight_stream_test
  start_built packed_regions_test
  start_built regions_test
  start_built gemm_correctness "$md"
  # Last, so its table ends the log.
  start_built forms_correctness "$forms_md"
  finish_tests

  echo
  echo "=== gpu-check summary (${SECONDS}s)"
  local failed=0
  for s in "${steps[@]}"; do
    printf '  %-30s %s\n' "$s" "${step_status[$s]}"
    [[ "${step_status[$s]}" == FAIL* ]] && failed=1
  done
  [[ -f "$md" ]] && echo "  table: $md"
  [[ -f "$forms_md" ]] && echo "  forms: $forms_md"
  echo "  log:   $log"
  # The drivers' per-function tables and pass/fail counts, repeated so they
  # end the output.
  for out in gemm_correctness forms_correctness; do
    if [[ -f "$build/$out.out" ]]; then
      echo
      echo "--- $out"
      sed -n '/^== summary ==/,$p' "$build/$out.out"
    fi
  done
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
