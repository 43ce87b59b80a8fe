#!/usr/bin/env bash
# Runs HERE (the machine with clang/isl and the built tool, no GPU needed).
#
# Rewrites every samples/*.cu with tc-rewrite into .gpu/ (git-ignored) and
# copies in what the GPU machine needs to build them, so .gpu/ is
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
mkdir -p .gpu

failed=()
for src in samples/*.cu; do
  name="$(basename "$src" .cu)"
  out=".gpu/$name.tc.cu"
  echo "gpu-prepare: $tool $src -o $out"
  if ! "$tool" "$src" -o "$out"; then
    failed+=("$src")
    rm -f "$out"
  fi
done

cp -r runtime_headers .gpu/runtime_headers
cp test/gpu/*.cu .gpu/

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
echo "gpu-prepare: .gpu/ ready ($(ls .gpu/*.tc.cu | wc -l) rewritten samples)"
