# Sourced by scripts/bench-ab-run.sh and scripts/fused-ab-run.sh (on the GPU
# machine, from the repository root): runs one benchmark on the base
# kernels of .gpu/bench-base, then on the current ones of .gpu/bench.

# The base's own runtime headers, where bench-ab-prepare.sh was given them.
ab_swap_headers() {
  [[ -d .gpu/bench/runtime_headers ]] || return 0
  mv .gpu/runtime_headers .gpu/runtime_headers.swap
  mv .gpu/bench/runtime_headers .gpu/runtime_headers
  mv .gpu/runtime_headers.swap .gpu/bench/runtime_headers
}

# ab_run_both RUN ARGS...: `RUN base ARGS...` with the base kernels in
# .gpu/bench (and their headers), then `RUN current ARGS...`; .gpu as before.
ab_run_both() {
  local run="$1"
  shift
  mv .gpu/bench .gpu/bench-current
  mv .gpu/bench-base .gpu/bench
  ab_swap_headers
  "$run" base "$@"
  ab_swap_headers
  mv .gpu/bench .gpu/bench-base
  mv .gpu/bench-current .gpu/bench
  "$run" current "$@"
}
