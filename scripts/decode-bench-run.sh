#!/usr/bin/env bash
# Runs ON THE GPU MACHINE, from the repository root (needs nvcc and cuBLAS,
# not tc-rewrite), in one call: builds test/gpu/weight_stream_test.cu (the
# decode components of tc/decode/ against an fp64 reference: partial
# column blocks, odd K, unaligned operands, each split, graph capture,
# 8-bit and 4-bit weights) and bench/weight_stream_bench.cu (the same
# layers against cuBLAS fp16 on dequantised weights), runs the test, then
# the benchmark, and prints a short summary last. Arguments pass through
# to the benchmark (--m 1,16,64, --hbm-tbs 4.8). Writes weight-stream-test.log,
# decode-bench.csv and decode-bench.log to $OUT when set. Exits nonzero when
# a build or a check fails.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
nvcc="${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}"
cuda_root="$(cd "$(dirname "$nvcc")/.." && pwd)"
out="${OUT:-$(mktemp -d /tmp/tc-decode.XXXXXX)}"
build="$(mktemp -d /tmp/tc-decode-build.XXXXXX)"
# No --expt-relaxed-constexpr: rewritten code includes these headers
# without it, so they must compile without it.
flags=(-std=c++17 -O3 -Iruntime_headers
       -gencode arch=compute_90a,code=sm_90a -L"$cuda_root/lib64/stubs" -lcuda)
"$nvcc" "${flags[@]}" test/gpu/weight_stream_test.cu -o "$build/weight_stream_test" &
"$nvcc" "${flags[@]}" bench/weight_stream_bench.cu -lcublas -o "$build/weight_stream_bench"
wait $!
# The test's parts, newest kernels first, so that a call cut short by its
# time limit has checked them (TC_DECODE_TEST_PARTS to choose).
test_rc=0
: > "$out/weight-stream-test.log"
for part in ${TC_DECODE_TEST_PARTS:-int4_wgmma int4 int8}; do
  "$build/weight_stream_test" "$part" >> "$out/weight-stream-test.log" 2>&1 || test_rc=$?
done
"$build/weight_stream_bench" --csv "$out/decode-bench.csv" "$@" | tee "$out/decode-bench.log"
echo
echo "== summary =="
grep -E "^GPU:" "$out/decode-bench.log" || true
grep -E "^FAIL" "$out/weight-stream-test.log" | head -20 || true
grep -E "^weight_stream_test:" "$out/weight-stream-test.log" || true
grep -E "^geomean" "$out/decode-bench.log" || true
exit "$test_rc"
