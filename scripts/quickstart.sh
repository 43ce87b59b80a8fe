#!/usr/bin/env bash
# Installs the dependencies, builds tc-rewrite, rewrites the bundled sample
# samples/gemm.cu and prints the result.
#
#   scripts/quickstart.sh
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

BUILD_DIR="${BUILD_DIR:-build}"

scripts/build.sh

out="${BUILD_DIR}/samples/gemm.tc.cu"
mkdir -p "$(dirname "${out}")"
"${BUILD_DIR}/bin/tc-rewrite" samples/gemm.cu -o "${out}"

echo "==================== ${out} ===================="
cat "${out}"
echo "================================================================"
echo "Rewritten samples/gemm.cu -> ${out}"
