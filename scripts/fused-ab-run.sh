#!/usr/bin/env bash
# Runs ON THE GPU MACHINE, from the repository root, with .gpu/ prepared by
# scripts/bench-ab-prepare.sh. The fused-idiom benchmark's A/B: runs
# scripts/fused-bench-run.sh (arguments passed through, e.g. --idioms
# gemm_add_gemm --sets paper,llm) with the base kernels (and the base's
# runtime headers, where bench-ab-prepare.sh was given BASE_REV), then the
# current ones, and prints per idiom and set the geometric mean of base
# time / current time (> 1: the current kernels are faster) and each one's
# ratio to the library baselines. Writes fused-ab-base.csv,
# fused-ab-current.csv and fused-ab.md to $OUT when set.
#
#   TC_AB_IDIOM_FILES="gemm_add_gemm relu_gemm"  only these bench/fused
#                     files are built (both sides), which shortens the builds
#   TC_AB_PREBUILD=dir   on the tool machine: only build both sides' binaries
#                     (--build-only), into dir/base and dir/current, e.g.
#                     .gpu/prebuilt-ab, which the device call carries
#   TC_AB_PREBUILT=dir   on the GPU machine: run those, building nothing
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
[[ -d .gpu/bench-base/fused && -d .gpu/bench/fused ]] || {
  echo "fused-ab-run: run scripts/bench-ab-prepare.sh first" >&2
  exit 1
}
out="${OUT:-$(mktemp -d /tmp/tc-fused-ab.XXXXXX)}"
mkdir -p "$out"

# keep_files DIR: only TC_AB_IDIOM_FILES's files and their registry lines.
keep_files() {
  [[ -n "${TC_AB_IDIOM_FILES:-}" ]] || return 0
  local f base keep
  for f in "$1"/*.tc.cu; do
    base="$(basename "$f" .tc.cu)"
    keep=0
    for k in ${TC_AB_IDIOM_FILES}; do [[ "$k" == "$base" ]] && keep=1; done
    ((keep)) || rm -f "$f"
  done
  python3 - "$1" ${TC_AB_IDIOM_FILES} <<'PY'
import re, sys
d, files = sys.argv[1], sys.argv[2:]
reg = f"{d}/fused_registry.h"
lines = open(reg).read().split("\n")
kept_funcs = set()
for l in lines:
    m = re.match(r"\s*X\((\w+), \w+\) /\* (\w+)\.tc\.cu \*/", l)
    if m and m.group(2) in files:
        kept_funcs.add(m.group(1))
out = []
for l in lines:
    m = re.match(r"#define HAVE_(\w+) 1", l)
    if m and m.group(1) not in kept_funcs:
        continue
    m = re.match(r"\s*X\((\w+),", l)
    if m and m.group(1) not in kept_funcs:
        continue
    out.append(l)
open(reg, "w").write("\n".join(out))
PY
}
# On the tool machine the prepared files stay whole: the kept ones are
# filtered in place only for the build, then restored.
if [[ -n "${TC_AB_PREBUILD:-}" && -n "${TC_AB_IDIOM_FILES:-}" ]]; then
  saved="$(mktemp -d /tmp/tc-fused-ab-saved.XXXXXX)"
  cp -a .gpu/bench-base/fused "$saved/base" && cp -a .gpu/bench/fused "$saved/current" || exit 1
  restore_files() {
    rm -rf .gpu/bench-base/fused .gpu/bench/fused
    cp -a "$saved/base" .gpu/bench-base/fused
    cp -a "$saved/current" .gpu/bench/fused
  }
  trap restore_files EXIT
fi
keep_files .gpu/bench-base/fused
keep_files .gpu/bench/fused

prebuild_failed=()
run() {  # run NAME ARGS...: the fused benchmark of .gpu/bench as NAME
  local tmp
  tmp="$(mktemp -d /tmp/tc-fused-ab-run.XXXXXX)"
  if [[ -n "${TC_AB_PREBUILD:-}" ]]; then
    OUT="$tmp" TC_BENCH_BUILD_DIR="$TC_AB_PREBUILD/$1" bash scripts/fused-bench-run.sh \
      --build-only "${@:2}" >"$out/fused-ab-$1.log" 2>&1 || prebuild_failed+=("$1")
  elif [[ -n "${TC_AB_PREBUILT:-}" ]]; then
    OUT="$tmp" TC_BENCH_PREBUILT="$TC_AB_PREBUILT/$1" bash scripts/fused-bench-run.sh \
      "${@:2}" >"$out/fused-ab-$1.log" 2>&1
  else
    OUT="$tmp" bash scripts/fused-bench-run.sh "${@:2}" >"$out/fused-ab-$1.log" 2>&1
  fi
  cp "$tmp/fused_bench.csv" "$out/fused-ab-$1.csv" 2>/dev/null
  grep -E "^compiled|failed to compile" "$out/fused-ab-$1.log"
}
# shellcheck source=ab-common.sh
source scripts/ab-common.sh
ab_run_both run "$@"
if [[ -n "${TC_AB_PREBUILD:-}" ]]; then
  for side in base current; do
    echo "--- $side:"
    grep -E "^(built in|--- compile FAILED|fused-bench-run:|selected:)" "$out/fused-ab-$side.log"
  done
  echo "fused-ab-run: prebuilt into $TC_AB_PREBUILD ($(du -sh "$TC_AB_PREBUILD" | cut -f1))"
  if ((${#prebuild_failed[@]})); then
    echo "fused-ab-run: the build failed or left files out: ${prebuild_failed[*]} (logs: $out)"
    exit 1
  fi
  exit 0
fi
python3 - "$out" <<'PY' | tee "$out/fused-ab.md"
import csv, math, sys, collections
out = sys.argv[1]
def load(name):
    try:
        rows = list(csv.DictReader(open(f"{out}/fused-ab-{name}.csv")))
    except OSError:
        return {}
    return {(r["idiom"], r["func"], r["set"], r["M"], r["N"], r["K"], r["K1"], r["K2"]): r
            for r in rows}
base, cur = load("base"), load("current")
gm = lambda xs: math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")
groups = collections.defaultdict(list)
for key, c in cur.items():
    b = base.get(key)
    if not b or c["check"] != "PASS" or b["check"] != "PASS":
        continue
    groups[(key[0], key[2])].append((b, c))
print("| idiom | set | shapes | base time / current time | current vs lib | current vs Lt | current vs cat |")
print("|---|---|---|---|---|---|---|")
for (idiom, s), v in sorted(groups.items()):
    ratio = gm([float(b["tc_ms"]) / float(c["tc_ms"]) for b, c in v])
    col = lambda k: gm([float(c[k]) for _, c in v if c.get(k)])
    fmt = lambda x: "" if math.isnan(x) else f"{x:.3f}"
    print(f"| {idiom} | {s} | {len(v)} | {ratio:.3f} | {fmt(col('lib_ratio'))} | "
          f"{fmt(col('lt_ratio'))} | {fmt(col('cat_ratio'))} |")
fails = [k for k, c in cur.items() if c["check"] != "PASS"]
print(f"\ncurrent rows not PASS: {len(fails)}")
PY
