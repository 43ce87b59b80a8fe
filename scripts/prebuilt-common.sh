# Sourced by scripts/gpu-check.sh and scripts/fused-bench-run.sh: GPU
# binaries built on the tool machine (nvcc needs no GPU) into a directory
# that a device call carries and runs. A marker file in the directory holds
# what the binaries were built from; a run refuses binaries of other inputs.

# prebuilt_new DIR MARKER INPUTS: empties DIR for a build (only a directory
# the script made before, with MARKER, or an empty one) and records INPUTS;
# prints DIR's absolute path.
prebuilt_new() {
  local dir="$1" marker="$2" inputs="$3"
  if [[ -d "$dir" && -n "$(ls -A "$dir")" && ! -f "$dir/$marker" ]]; then
    echo "$dir is not empty and holds no earlier build of this script" >&2
    return 2
  fi
  rm -rf "$dir" && mkdir -p "$dir" || return 2
  printf '%s\n' "$inputs" >"$dir/$marker"
  (cd "$dir" && pwd)
}

# prebuilt_open DIR MARKER INPUTS: DIR's absolute path where its binaries
# were built from INPUTS.
prebuilt_open() {
  local dir="$1" marker="$2" inputs="$3"
  if [[ ! -f "$dir/$marker" ]]; then
    echo "$dir holds no prebuilt binaries of this script" >&2
    return 2
  fi
  if ! cmp -s <(printf '%s\n' "$inputs") "$dir/$marker"; then
    echo "$dir was built from other inputs:" >&2
    diff <(printf '%s\n' "$inputs") "$dir/$marker" >&2
    return 2
  fi
  (cd "$dir" && pwd)
}
