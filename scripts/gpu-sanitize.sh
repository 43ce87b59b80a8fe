#!/usr/bin/env bash
# compute-sanitizer (memcheck, racecheck, synccheck) on the generated kernels
# of each idiom, at odd shapes, for both rewrites: sm_90a (wgmma/TMA) and
# sm_80 (mma.sync, run on the Hopper GPU as well).
#
# Two steps, on two machines:
#
#   scripts/gpu-sanitize.sh --prepare   HERE (the built tool, no GPU): copies
#       the chosen functions (FUNCS below) of each samples/forms file into
#       .gpu/sanitize/src/ (the file without its other functions, so that
#       the builds stay short), rewrites them for sm_90a and sm_80 into
#       .gpu/sanitize/{sm90a,sm80}/, and copies the runtime headers and the
#       driver test/gpu/forms_correctness.cu in. Carry .gpu (or just
#       .gpu/sanitize) to the GPU machine. gpu-prepare.sh clears .gpu/: run
#       this after it.
#
#   scripts/gpu-sanitize.sh             ON THE GPU MACHINE, from the
#       repository root: builds forms_correctness against each rewrite (all
#       compilations in parallel, -lineinfo), then runs it under each tool,
#       the six runs at once, with TC_FORMS_FILTER (the chosen functions),
#       TC_FORMS_SHAPES (SHAPES below), TC_FORMS_GUARD=0 (every array an
#       allocation of its own size) and TC_FORMS_TIMING=0. Exits nonzero
#       when a build fails, a run fails or times out, the driver reports a
#       failed case, or a tool reports anything (racecheck warnings count).
#       Full logs in $OUT (else /tmp/tc-gpu-sanitize.*): build-*.log,
#       <tool>-<arch>.log (the tool's and the driver's output); the summary
#       table is printed last.
#
# What the tools can see (compute-sanitizer documentation, 2025.x; see
# CONTRIBUTING.md, "On a GPU"): racecheck tracks threads' shared-memory
# accesses, and cp.async / memcpy_async targets against their commit/wait
# (--racecheck-memcpy-async, the default); the documentation says nothing
# of TMA (cp.async.bulk.tensor) or wgmma operands. Reports from others
# (flash-attention's notes on racecheck and TMA) say descriptor TMA writes
# are attributed to no thread, so they take part in no hazard; wgmma reads
# its operands through the async proxy, not as thread loads. So on the
# sm_90a kernels racecheck checks the epilogue staging, the cp.async
# kernels and the mbarrier hand-overs of thread accesses (it did report the
# persistent kernel's earlier hand-over, docs/results/
# bench-h100-persistent-tiles.md), not the TMA -> wgmma stages. synccheck
# checks __syncthreads/__syncwarp, cuda::barrier (the documentation names
# that, not raw mbarrier PTX) and, on sm_90a, each warpgroup's wgmma
# sequence (--check-warpgroup-mma, the default). memcheck checks every
# thread's global and shared access, and cp.async.bulk (--check-bulk-copy,
# the default).
#
# Usage: scripts/gpu-sanitize.sh [--prepare]
#   TC_REWRITE=path     the tool for --prepare (default build/bin/tc-rewrite)
#   NVCC=...            nvcc (default: on PATH, else /usr/local/cuda/bin/nvcc)
#   COMPUTE_SANITIZER=  compute-sanitizer (default: next to nvcc, else on PATH)
#   TC_SANITIZE_BUDGET=secs  the whole run (default 500): every tool run
#                       gets what is left of it after the builds
#   TC_SANITIZE_TOOLS="memcheck racecheck synccheck"  (a subset to rerun)
#   TC_SANITIZE_ARCHS="sm90a sm80"
set -uo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

# One function (or a few) per idiom, by samples/forms file.
declare -A FUNCS=(
  [layouts]="layout_rr layout_rc_ccol_bf16 layout_cc_ccol"   # plain GEMM, layouts
  [init_forms]="init_acc_alpha_beta_f16"                     # alpha, beta * C_old
  [leading_dims]="ld_rr ld_blas_colmajor"                    # ld padding, BLAS alpha/beta
  [epilogues]="epi_bias_col_relu epi_temp pro_relu_a"        # bias + ReLU, temp(T), prologue
  [activations]="act_gelu_residual"                          # GELU + residual
  [sums]="sum_two"                                           # sum of products
  [batched]="batched_ld"                                     # batch, with ld padding
  [quantized]="q_int8_zero_point"                            # int8 weights
  [static_arrays]="static_rows_aligned static_full"          # constexpr shapes
  [clauses]="cl_split_k4"                                    # split_k clause
)

# The odd shapes; each function runs those of its shape list (general,
# batched, constexpr rows or fixed) that match, with that list's ld
# padding (leading_dims: lda/ldb/ldc cycle over dense, +3, round8+8,
# round8, +65) and K2 (sums). On 132 SMs they take, by the rules of
# tc/tile_choice.cuh and the comments of kGeneral in forms_correctness.cu
# (read, not traced on the device), the sm_90a kernels named:
SHAPES=(
  1x1x1 17x33x65         # a single partial tile; n <= 64: the skinny 64x64 tiles
  4096x8x64              # skinny tiles, tall
  136x264x72             # aligned rows, partial tiles, few: 64x128 tiles
  127x129x131m           # rows and bases misaligned: repacked / element-wise copies
  256x256x1024           # few tiles, long K: 64x128 tiles in parts (sm_80: split k)
  5x17x33x65 2x127x129x131 4x512x512x512 3x128x128x128m   # batched
  1x128x64 129x128x64 1000x128x64m 8193x128x64            # constexpr rows (N 128, K 64)
  96x80x48 96x80x48m                                      # all sizes constexpr
)
# Many tiles, for the sm_90a rewrite only: its kernel choice depends on
# them (the sm_80 rewrite has one kernel, split along k or not), and the
# sm_80 kernels' shared-memory traffic, which racecheck tracks access by
# access, would take most of the time.
SHAPES_SM90A=(
  2048x1536x256          # 128x256 (or a fitted width) wide tiles
  1920x1160x776          # wide tiles; with the prologue, persistent A-fragment tiles
  2300x2100x1040         # 192x192 fitted tiles
  2560x1790x528          # persistent 128x128 tiles; int8 weights: tall transposed tiles
)

prepare() {
  local tool="${TC_REWRITE:-build/bin/tc-rewrite}"
  if [[ ! -x "$tool" ]]; then
    echo "gpu-sanitize: $tool not found or not executable; build it first" >&2
    return 1
  fi
  rm -rf .gpu/sanitize
  mkdir -p .gpu/sanitize/src .gpu/sanitize/sm90a .gpu/sanitize/sm80
  local file arch failed=0
  for file in "${!FUNCS[@]}"; do
    # Every line outside a function definition (includes, constants), and
    # the chosen definitions: `void name(` at column 0 up to the `}` line.
    awk -v keep="${FUNCS[$file]}" '
      BEGIN { n = split(keep, k, " "); for (i = 1; i <= n; ++i) want[k[i]] = 1 }
      /^void [A-Za-z_0-9]+\(/ {
        name = $2; sub(/\(.*/, "", name); in_fn = 1; take = name in want
        if (take) found[name] = 1
      }
      !in_fn || take { print }
      in_fn && /^}$/ { in_fn = 0 }
      END {
        for (w in want)
          if (!(w in found)) { print "gpu-sanitize: no function " w > "/dev/stderr"; exit 1 }
      }' "samples/forms/$file.cu" >".gpu/sanitize/src/$file.cu" || return 1
  done
  # The rewrites: both architectures of a file at once.
  for file in "${!FUNCS[@]}"; do
    for arch in sm90a sm80; do
      local flag=--arch=sm_90a
      [[ $arch == sm80 ]] && flag=--arch=sm_80
      echo "gpu-sanitize: $tool $flag .gpu/sanitize/src/$file.cu"
      "$tool" "$flag" ".gpu/sanitize/src/$file.cu" \
        -o ".gpu/sanitize/$arch/$file.tc.cu" >".gpu/sanitize/$arch/$file.log" 2>&1 &
    done
    wait
    for arch in sm90a sm80; do
      if [[ ! -s .gpu/sanitize/$arch/$file.tc.cu ]]; then
        echo "gpu-sanitize: tc-rewrite failed on $arch/$file:" >&2
        cat ".gpu/sanitize/$arch/$file.log" >&2
        failed=1
      fi
    done
  done
  cp -r runtime_headers .gpu/sanitize/runtime_headers
  cp test/gpu/forms_correctness.cu .gpu/sanitize/
  {
    echo "commit: $(git rev-parse HEAD 2>/dev/null || echo unknown)"
    [[ -n "$(git status --porcelain 2>/dev/null)" ]] && echo "worktree: modified"
    echo "tool: $tool"
    echo "prepared: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  } >.gpu/sanitize/MANIFEST
  ((failed == 0)) || return 1
  echo "gpu-sanitize: .gpu/sanitize ready ($(ls .gpu/sanitize/sm90a/*.tc.cu | wc -l) files" \
       "per architecture, $(echo "${FUNCS[@]}" | wc -w) functions); carry .gpu to the GPU machine"
}

if [[ "${1:-}" == --prepare ]]; then
  prepare
  exit
fi

# --- On the GPU machine ----------------------------------------------------
work="$(mktemp -d /tmp/tc-gpu-sanitize.XXXXXX)"
results="${OUT:-$work}"
mkdir -p "$results"
deadline=$((SECONDS + ${TC_SANITIZE_BUDGET:-500}))
nvcc="${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}"
sanitizer="${COMPUTE_SANITIZER:-$(dirname "$nvcc")/compute-sanitizer}"
[[ -x "$sanitizer" ]] || sanitizer="$(command -v compute-sanitizer || echo compute-sanitizer)"
tools=(${TC_SANITIZE_TOOLS:-memcheck racecheck synccheck})
archs=(${TC_SANITIZE_ARCHS:-sm90a sm80})
src=.gpu/sanitize

# The sm_80 rewrite runs on the Hopper GPU compiled from compute_80 PTX to
# sm_90 code: __CUDA_ARCH__ is 800, the code the sm_80 rewrite targets.
declare -A gencode=([sm90a]="arch=compute_90a,code=sm_90a" [sm80]="arch=compute_80,code=sm_90")
cuda_root="$(cd "$(dirname "$nvcc")/.." && pwd)"
link_flags=()
for stubs in "$cuda_root/lib64/stubs" "$cuda_root/targets/x86_64-linux/lib/stubs"; do
  if [[ -e "$stubs/libcuda.so" ]]; then
    link_flags=(-L"$stubs" -lcuda)
    break
  fi
done

# build ARCH: $work/forms-ARCH from $src/ARCH/*.tc.cu and the driver, every
# file compiled in parallel (-split-compile=0 as in gpu-check.sh).
build() {
  local arch="$1" flags objs=() pids=() ok=0 f
  flags=(-std=c++17 -O3 --expt-relaxed-constexpr -lineinfo -I"$src/runtime_headers"
         -gencode "${gencode[$arch]}")
  mkdir -p "$work/$arch"
  for f in "$src/$arch"/*.tc.cu "$src/forms_correctness.cu"; do
    local obj="$work/$arch/$(basename "$f" .cu).o"
    objs+=("$obj")
    ( start=$SECONDS
      "$nvcc" "${flags[@]}" -split-compile=0 -c "$f" -o "$obj" &&
        echo "compiled $f in $((SECONDS - start))s" ) >"$obj.log" 2>&1 &
    pids+=($!)
  done
  for i in "${!pids[@]}"; do
    wait "${pids[$i]}" || { ok=1; echo "--- compile FAILED: ${objs[$i]}"; }
    cat "${objs[$i]}.log"
  done
  ((ok == 0)) && "$nvcc" "${flags[@]}" "${objs[@]}" "${link_flags[@]}" -o "$work/forms-$arch"
}

# The functions (exact names) and shape specs, comma-separated, for the
# driver.
filter="$(echo "${FUNCS[@]}" | tr -s ' ' '\n' | sed 's/^/=/' | paste -sd, -)"
declare -A shapes=([sm80]="$(IFS=,; echo "${SHAPES[*]}")"
                   [sm90a]="$(IFS=,; echo "${SHAPES[*]} ${SHAPES_SM90A[*]}" | tr ' ' ,)")

# run TOOL ARCH LIMIT PORT: the driver under the tool, output to
# $results/TOOL-ARCH.log. The driver's own kernels (fill, reference) are not
# checked: only the generated ones.
run() {
  local tool="$1" arch="$2" limit="$3" port="$4" extra=()
  case $tool in
    memcheck) extra=(--leak-check no --check-device-heap no) ;;
    racecheck) extra=(--racecheck-report all) ;;
  esac
  TC_FORMS_FILTER="$filter" TC_FORMS_SHAPES="${shapes[$arch]}" TC_FORMS_GUARD=0 TC_FORMS_TIMING=0 \
    timeout -k 10 "$limit" "$sanitizer" --tool "$tool" --error-exitcode 1 --print-limit 1000 \
      --port "$port" --kernel-name-exclude kns=reference_kernel \
      --kernel-name-exclude kns=fill_matrix "${extra[@]}" \
      "$work/forms-$arch" >"$results/$tool-$arch.log" 2>&1
}

main() {
  echo "=== GPU"
  nvidia-smi --query-gpu=name --format=csv,noheader || echo "(nvidia-smi failed)"
  echo "nvcc: $("$nvcc" --version | tail -n 1)"
  echo "compute-sanitizer: $("$sanitizer" --version 2>&1 | tail -n 1)"
  [[ -f $src/MANIFEST ]] && sed 's/^/  /' "$src/MANIFEST"
  echo "functions: $filter"
  echo "shapes: ${shapes[sm90a]}"
  echo "  (sm80: ${shapes[sm80]})"
  local failed=0 arch tool
  declare -A built=() rc=()
  if [[ ! -f $src/forms_correctness.cu ]]; then
    echo "gpu-sanitize: $src is missing; run scripts/gpu-sanitize.sh --prepare on the" \
         "tool machine and carry .gpu here" >&2
    return 1
  fi

  local t0=$SECONDS pids=()
  for arch in "${archs[@]}"; do
    build "$arch" >"$results/build-$arch.log" 2>&1 &
    pids+=($!)
  done
  for i in "${!archs[@]}"; do
    arch=${archs[$i]}
    echo
    if wait "${pids[$i]}"; then
      built[$arch]=1
      echo "=== build $arch: ok"
    else
      failed=1
      echo "=== build $arch: FAILED"
    fi
    cat "$results/build-$arch.log"
  done
  echo
  echo "=== builds took $((SECONDS - t0))s"

  # All runs at once: each sanitizer is mostly host-bound and single-GPU
  # runs of these shapes are small. Distinct ports for the connections.
  local limit=$((deadline - SECONDS - 15)) port=49152 runs=()
  declare -A pid=()
  for tool in "${tools[@]}"; do
    for arch in "${archs[@]}"; do
      [[ -n ${built[$arch]:-} ]] || continue
      if ((limit <= 0)); then
        rc[$tool-$arch]="no time left"
        continue
      fi
      run "$tool" "$arch" "$limit" "$port" &
      pid[$tool-$arch]=$!
      runs+=("$tool-$arch")
      port=$((port + 64))
    done
  done
  echo "=== ${#runs[@]} sanitizer runs started (limit ${limit}s each)"
  for r in "${runs[@]}"; do
    local status=0
    wait "${pid[$r]}" || status=$?
    rc[$r]=$status
  done

  # The summary: per tool and rewrite, the functions and calls checked (the
  # driver's rows), the driver's failures and the tool's reports. The tool
  # prints one summary per process (the driver runs each family in a child).
  echo
  # calls: the cases run (each a call of a rewritten function, which
  # launches one or more generated kernels), plus the launcher-error check.
  printf '%-10s %-6s %9s %6s %7s %9s %8s  %s\n' tool arch functions calls failed errors warnings result
  for tool in "${tools[@]}"; do
    for arch in "${archs[@]}"; do
      local r=$tool-$arch log="$results/$tool-$arch.log" result=PASS
      if [[ ! -f $log ]]; then
        printf '%-10s %-6s %9s %6s %7s %9s %8s  %s\n' "$tool" "$arch" - - - - - \
          "FAIL (${rc[$r]:-not built})"
        failed=1
        continue
      fi
      local fns calls bad errs warns
      # The driver's last line: "N functions, P passed, F failed" (cases).
      read -r fns calls bad < <(sed -n \
        's/^\([0-9]*\) functions, \([0-9]*\) passed, \([0-9]*\) failed$/\1 \2 \3/p' "$log" |
        awk '{print $1, $2 + $3, $3}' | tail -n 1)
      errs=$(sed -n 's/^========= ERROR SUMMARY: \([0-9]*\) error.*/\1/p; s/^========= RACECHECK SUMMARY: [0-9]* hazards displayed (\([0-9]*\) errors.*/\1/p' "$log" |
             awk '{s += $1} END {print s + 0}')
      warns=$(sed -n 's/^========= RACECHECK SUMMARY: .*, \([0-9]*\) warnings).*/\1/p' "$log" |
              awk '{s += $1} END {print s + 0}')
      if [[ ${rc[$r]} == 124 || ${rc[$r]} == 137 ]]; then
        result="FAIL (timed out)"
      elif [[ ${rc[$r]} != 0 ]]; then
        result="FAIL (exit ${rc[$r]})"
      elif [[ -z ${bad:-} || $bad != 0 || $errs != 0 || $warns != 0 || $calls == 0 ]]; then
        result=FAIL
      fi
      if ! grep -q '^========= \(ERROR\|RACECHECK\) SUMMARY' "$log"; then
        result="FAIL (no tool summary)"
      fi
      [[ $result == PASS ]] || failed=1
      printf '%-10s %-6s %9s %6s %7s %9s %8s  %s\n' "$tool" "$arch" "${fns:-?}" "${calls:-?}" \
        "${bad:-?}" "$errs" "$warns" "$result"
    done
  done
  echo "logs: $results"
  if ((failed)); then
    echo "gpu-sanitize: FAILED"
  else
    echo "gpu-sanitize: all clean"
  fi
  return $failed
}

main 2>&1 | tee "$results/gpu-sanitize.log"
exit "${PIPESTATUS[0]}"
