#!/usr/bin/env bash
# Runs HERE (the machine with clang/isl and the built tool, no GPU needed).
#
# Rewrites every samples/*.cu with tc-rewrite into .gpu/ (git-ignored), and
# every samples/forms/*.cu (the loop-nest forms of issue 3) into .gpu/forms/,
# and copies in what the GPU machine needs to build them, so .gpu/ is
# self-contained: the GPU machine has nvcc but no clang/isl and cannot run
# the tool. Then carry .gpu to the GPU machine and run scripts/gpu-check.sh
# there.
#
# Usage: scripts/gpu-prepare.sh
#   TC_REWRITE=path/to/tc-rewrite overrides the tool (default build/bin/tc-rewrite).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

tool="${TC_REWRITE:-build/bin/tc-rewrite}"
if [[ ! -x "$tool" ]]; then
  echo "gpu-prepare: $tool not found or not executable." >&2
  echo "  Build it first:  cmake -S . -B build && cmake --build build -j" >&2
  exit 1
fi

# Start from scratch so a sample that no longer rewrites cannot leave a stale
# .tc.cu behind to be tested in its place.
rm -rf .gpu
mkdir -p .gpu/forms

failed=()
# rewrite SRC OUT_DIR: OUT_DIR/<name>.tc.cu, or the source is listed as failed.
rewrite() {
  local src="$1" out="$2/$(basename "$1" .cu).tc.cu"
  echo "gpu-prepare: $tool $src -o $out"
  if ! "$tool" "$src" -o "$out"; then
    failed+=("$src")
    rm -f "$out"
  fi
}
for src in samples/*.cu; do
  rewrite "$src" .gpu
done
# The forms driver (test/gpu/forms_correctness.cu) declares every function
# of samples/forms; a missing one fails to link on the GPU machine, so a form
# the tool rejects shows up here first.
for src in samples/forms/*.cu; do
  rewrite "$src" .gpu/forms
done
# Regions of the GPU tests: rewritten, and kept as written for the tests
# that run the source on the host (regions_test.cu).
mkdir -p .gpu/regions
for src in test/gpu/regions/*.cu; do
  rewrite "$src" .gpu/regions
  cp "$src" .gpu/regions/
done

cp -r runtime_headers .gpu/runtime_headers
cp test/gpu/*.cu test/gpu/*.h .gpu/

# Record what was rewritten, so a GPU result can be traced to a source state.
{
  echo "commit: $(git rev-parse HEAD 2>/dev/null || echo unknown)"
  if [[ -n "$(git status --porcelain 2>/dev/null)" ]]; then
    echo "worktree: modified"
  fi
  echo "tool: $tool"
  echo "prepared: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
} > .gpu/MANIFEST

if ((${#failed[@]})); then
  echo "gpu-prepare: tc-rewrite failed on: ${failed[*]}" >&2
  exit 1
fi
echo "gpu-prepare: .gpu/ ready ($(ls .gpu/*.tc.cu | wc -l) rewritten samples," \
     "$(ls .gpu/forms/*.tc.cu | wc -l) rewritten form files)"
