#!/usr/bin/env bash
# On the GPU machine: which kernel, grid, block, cluster, registers and
# shared memory the rewritten bench_gemm_f16_rc and cuBLAS launch for each
# shape, and each launch's duration (Nsight Compute, one launch each, after
# two warm-up calls). After scripts/bench-prepare.sh here.
# TC_PROFILE_FUNC / TC_PROFILE_SOURCE pick another f16 row-column function
# and its .gpu/bench file (e.g. bench_gemm_f16_rc_t128x192k64s5, gemm_rowcol_tiles).
#   scripts/bench-kernels.sh MxNxK [MxNxK ...]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
out="${OUT:-/tmp}"
b=/tmp/tc-profile; mkdir -p "$b"
nvcc -std=c++17 -O3 --expt-relaxed-constexpr -I.gpu/runtime_headers \
  -gencode arch=compute_90a,code=sm_90a -lineinfo \
  -DTC_PROFILE_FUNC="${TC_PROFILE_FUNC:-bench_gemm_f16_rc}" \
  ".gpu/bench/${TC_PROFILE_SOURCE:-gemm_rowcol}.tc.cu" bench/profile_gemm.cu -lcublas -lcuda -o "$b/profile_gemm"
printf '| M x N x K | library | kernel | grid | block | cluster | regs | smem | duration |\n|---|---|---|---|---|---|---:|---:|---:|\n' \
  | tee "$out/kernels.md"
for shape in "$@"; do
  IFS=x read -r m n k <<<"$shape"
  for lib in tc cublas; do
    # The third launch (two warm-ups skipped); every kernel of that call.
    ncu --clock-control none --launch-skip 2 --launch-count 4 \
      --section LaunchStats --section SpeedOfLight --csv --page details \
      "$b/profile_gemm" "$m" "$n" "$k" "$lib" >"$b/ncu.csv" 2>/dev/null || true
    python3 - "$b/ncu.csv" "$shape" "$lib" <<'PY' | tee -a "$out/kernels.md"
import csv, sys
rows = [r for r in csv.reader(open(sys.argv[1])) if len(r) > 10]
if not rows:
    sys.exit(0)
head, body = rows[0], rows[1:]
col = {name: i for i, name in enumerate(head)}
kernels = {}
for r in body:
    key = (r[col["ID"]], r[col["Kernel Name"]])
    unit = r[col["Metric Unit"]] if "Metric Unit" in col else ""
    kernels.setdefault(key, {})[r[col["Metric Name"]]] = (r[col["Metric Value"]] + " " + unit).strip()
for (kid, name), m in kernels.items():
    short = name.split("(")[0][:90]
    get = lambda k: m.get(k, "-")
    print(f"| {sys.argv[2]} | {sys.argv[3]} | {short} | {get('Grid Size')} | {get('Block Size')} | "
          f"{get('Cluster Size')} | {get('Registers Per Thread')} | "
          f"{get('Dynamic Shared Memory Per Block')} | {get('Duration')} |")
PY
  done
done
