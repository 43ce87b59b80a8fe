#!/usr/bin/env bash
# Runs ON THE GPU MACHINE, from the repository root, with .gpu/ prepared by
# scripts/bench-ab-prepare.sh. Runs the GEMM benchmark (scripts/bench-run.sh,
# arguments passed through, e.g. --funcs bench_gemm_f16_rc --sets paper)
# with the base kernels, then the current ones, and prints per function and
# set the geometric mean of base time / current time (> 1: the current
# kernels are faster) and each one's ratio to cuBLAS. Writes
# ab-base.csv, ab-current.csv and ab.md to $OUT when set.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
[[ -d .gpu/bench-base && -d .gpu/bench ]] || {
  echo "bench-ab-run: run scripts/bench-ab-prepare.sh first" >&2
  exit 1
}
out="${OUT:-$(mktemp -d /tmp/tc-ab.XXXXXX)}"
# TC_AB_FILES="gemm_rowcol gemm_rowrow": only these kernel files are built
# (the registry keeps their functions), which shortens both builds.
keep_files() {  # keep_files DIR
  [[ -n "${TC_AB_FILES:-}" ]] || return 0
  local f base keep funcs=""
  for f in "$1"/*.tc.cu; do
    base="$(basename "$f" .tc.cu)"
    keep=0
    for k in ${TC_AB_FILES}; do [[ "$k" == "$base" ]] && keep=1; done
    if ((keep)); then
      funcs+=" $(grep -o '^void bench_gemm_[A-Za-z0-9_]*' "$f" | sed 's/^void //' | tr '\n' ' ')"
    else
      rm -f "$f"
    fi
  done
  # The registry without the functions of the files left out: its HAVE_
  # macros and its BENCH_FUNCS entries.
  grep -v -E '^#define HAVE_|^  X\(' "$1/registry.h" >"$1/registry.h.new"
  for fn in $funcs; do
    echo "#define HAVE_$fn 1" >>"$1/registry.h.new"
    grep "^  X($fn," "$1/registry.h" >"$1/x.$fn"
  done
  python3 - "$1" $funcs <<'PY'
import sys
d, funcs = sys.argv[1], sys.argv[2:]
entries = "".join(open(f"{d}/x.{f}").read() for f in funcs)
text = open(f"{d}/registry.h.new").read()
text = text.replace("#define BENCH_FUNCS(X) \\\n", "#define BENCH_FUNCS(X) \\\n" + entries, 1)
open(f"{d}/registry.h.new", "w").write(text)
PY
  rm -f "$1"/x.*
  mv "$1/registry.h.new" "$1/registry.h"
}
keep_files .gpu/bench-base
keep_files .gpu/bench
run() {  # run NAME: the benchmark of .gpu/bench as NAME
  local tmp
  tmp="$(mktemp -d /tmp/tc-ab-run.XXXXXX)"
  OUT="$tmp" bash scripts/bench-run.sh "${@:2}" >"$out/ab-$1.log" 2>&1
  cp "$tmp/gemm_bench.csv" "$out/ab-$1.csv" 2>/dev/null
  sed -n '/^=== build/,/^built in/p' "$out/ab-$1.log"
}
# shellcheck source=ab-common.sh
source scripts/ab-common.sh
ab_run_both run "$@"
python3 - "$out" <<'PY' | tee "$out/ab.md"
import csv, math, sys, collections
out = sys.argv[1]
def load(name):
    try:
        rows = list(csv.DictReader(open(f"{out}/ab-{name}.csv")))
    except OSError:
        return {}
    return {(r["func"], r["set"], r["M"], r["N"], r["K"]): r for r in rows}
base, cur = load("base"), load("current")
groups = collections.defaultdict(list)
for key, c in cur.items():
    b = base.get(key)
    if not b or c["check"] != "PASS" or b["check"] != "PASS":
        continue
    bt, ct = float(b["tc_ms"]), float(c["tc_ms"])
    groups[key[:2]].append((bt / ct, float(b["ratio"]), float(c["ratio"])))
fails = [k for k, c in cur.items() if c["check"] != "PASS"]
gm = lambda xs: math.exp(sum(math.log(x) for x in xs) / len(xs))
print("| function | set | shapes | base time / current time | base vs cuBLAS | current vs cuBLAS |")
print("|---|---|---|---|---|---|")
for (f, s), v in sorted(groups.items()):
    print(f"| {f} | {s} | {len(v)} | {gm([x[0] for x in v]):.3f} | "
          f"{gm([x[1] for x in v]):.3f} | {gm([x[2] for x in v]):.3f} |")
print(f"\ncurrent rows not PASS: {len(fails)}")
PY
