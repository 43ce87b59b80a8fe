"""`fuzz.py gpu-prepare`: rewrite generated regions here (the machine with the
tool) and write a self-contained directory that checks them on a GPU machine
(which has nvcc but not the tool).

DIR/
  run.sh                 build and run everything (calls gpu_run.py)
  gpu_run.py             builder and runner (python3, standard library only)
  fuzz_runtime.h         the harness' host side
  runtime_headers/tc/    the tool's device helpers
  manifest.json          cases, batches, variants, shapes
  cases/ID.cu            the original region (for reading and shrinking)
  cases/ID.json          its spec and call metadata
  cases/ID.ARCH.tc.cu    tc-rewrite --arch=ARCH output (function ID's name,
                         `_s80` appended for the sm_80 rewrite)
  cases/ID.ref.cu        the original function as <func>_ref (host reference)
  cases/ID.emu.cu        the original function as <func>_emu (--emulate)
  batch_NN_dev.cu        #includes the batch's rewritten files: one nvcc compile
  batch_NN_ref.cu        #includes the batch's references (host code)
  batch_NN_main.cu       the test driver of the batch
"""

import concurrent.futures
import json
import os
import random
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import fuzzgen  # noqa: E402

TYPE_ENUM = {"float": "fz::kF32", "__half": "fz::kF16", "__nv_bfloat16": "fz::kBF16", "int8_t": "fz::kI8",
             "uint8_t": "fz::kU8", "int": "fz::kI32"}
VARIANT_SUFFIX = {"sm_90a": "", "sm_80": "_s80", "sm_90a_sync": "_sync"}
VARIANT_ARGS = {"sm_90a": ["--arch=sm_90a"], "sm_80": ["--arch=sm_80"],
                "sm_90a_sync": ["--arch=sm_90a", "--mma-path=sync"]}

SCALARS = {
    "alpha": [0.5, 0.75, 1.5, -1.25, 2.0],
    "beta": [0.5, -1.0, 0.25, 1.0],
    "lo": [-0.5, -1.0, -0.25],
    "hi": [0.5, 1.0, 2.0],
    "slope": [0.125, 0.25, 0.5],
    "zp": [-2.0, 0.5, 1.25, 3.0],
    "step": [0.0625, 0.125, 0.03125],
}


def tolerance(spec, meta, out_ctype):
    """Relative to the output's largest |value|: exact data leave only the
    output's rounding (and the host's vs the device's math functions)."""
    approx = meta["approx"]
    base = {"float": [1e-5, 2e-4, 1e-2], "__half": [1e-3, 3e-3, 1.5e-2],
            "__nv_bfloat16": [8e-3, 1.6e-2, 4e-2]}[out_ctype]
    return base[min(approx, 2)]


def gen_shapes(spec, rng, count):
    """Random shapes: 1x1x1, partial tiles, odd K, a split-K-like one."""
    st = spec.get("static") or {}
    shapes = []
    host_budget = 6e7  # multiply-adds per shape for the host reference
    for n in range(count):
        if n == 0:
            m, nn, k = 1, 1, 1
        elif n == 1:
            m, nn, k = rng.randint(1, 3) * 64 + rng.choice([1, 3, 17, 63]), rng.randint(1, 3) * 64 + \
                rng.choice([1, 5, 31]), rng.randint(1, 4) * 16 + rng.choice([1, 3, 7, 15])
        elif n == 2:
            m, nn, k = rng.randint(1, 40), rng.randint(1, 40), rng.choice([1, 2, 3, 5, 7, 9, 33])
        elif n == 3:
            m, nn, k = rng.choice([16, 48, 64, 96]), rng.choice([8, 24, 64]), rng.choice([1024, 2048, 1537])
        elif n == 4:
            m, nn, k = rng.randint(120, 400), rng.randint(100, 300), rng.randint(30, 300)
        else:
            m, nn, k = rng.randint(1, 300), rng.randint(1, 300), rng.randint(1, 700)
        sh = {"M": m, "N": nn, "K": k, "K2": rng.choice([1, 7, 16, 64, 130]) if n else 1,
              "BATCH": rng.choice([1, 2, 3, 5]) if n else 1}
        for d, v in st.items():
            sh[d] = v
        if spec.get("quant"):
            sh["K"] = min(sh["K"], 1100)  # keeps the sums exact (see fuzz_runtime.h)
        ops = sh["M"] * sh["N"] * (sh["K"] + sh["K2"]) * sh["BATCH"]
        while ops > host_budget:
            big = max(("M", "N", "K"), key=lambda d: sh[d] if d not in st else 0)
            if big in st:
                break
            sh[big] = max(1, sh[big] // 2)
            ops = sh["M"] * sh["N"] * (sh["K"] + sh["K2"]) * sh["BATCH"]
        for ld in ("lda", "ldb", "ldc"):
            sh["pad_" + ld] = rng.choice([0, 0, 1, 3, 8, 13]) if n else 0
        sh["mis"] = n >= 2 and rng.random() < 0.25
        sh["seed"] = rng.randint(1, 1 << 30)
        shapes.append(sh)
    return shapes


def ld_row(spec, role):
    """The size dimension of the row an array's leading dimension covers."""
    return {"lda": "K" if spec["a_major"] == "row" else "M",
            "ldb": "N" if spec["b_major"] == "row" else "K",
            "ldc": "N" if spec["c_major"] == "row" else "M"}[role]


def array_ld_role(role):
    return {"A": "lda", "B": "ldb", "A2": "lda", "B2": "ldb", "C": "ldc", "R": "ldc", "D": "ldc", "X": "ldc",
            "T": "ldc", "T1": "ldc", "T2": "ldc"}.get(role)


def extent_expr(spec, m):
    """C++ expression of an array's element count (v_* variables)."""
    batch = bool(spec.get("batch"))
    if m["rows"] is None:
        e = "v_%s" % m["row_len"]
        return "(v_BATCH * %s)" % e if batch else e
    ldr = array_ld_role(m["role"])
    ld = "v_%s" % ldr if (spec.get("ld") and ldr) else "v_%s" % m["row_len"]
    rows = "v_%s" % m["rows"]
    if batch:
        return "((v_BATCH * %s - 1) * %s + v_%s)" % (rows, ld, m["row_len"])
    return "((%s - 1) * %s + v_%s)" % (rows, ld, m["row_len"])


def domain(spec, m):
    q = spec.get("quant") or {}
    role = m["role"]
    if role in ("A", "B") and m["ctype"] == "int8_t":
        return "fz::kInt8"
    if role in ("A", "B") and m["ctype"] == "uint8_t":
        return "fz::kUint8"
    if role == "zero":
        # bf16 holds 8 significant bits: an int8 weight minus a zero point in
        # eighths (up to 36 * 8) would round on its way to the tensor cores,
        # as the README says a prologue value that needs more precision does.
        # A uint8 weight (100..150) minus eighths needs 9 bits as well.
        if m["ctype"] in ("int", "int8_t") or spec["elem"] == "bf16":
            return "fz::kZeroInt"
        return "fz::kZeroU8" if q.get("wtype") == "uint8_t" else "fz::kZeroI8"
    if role == "scale":
        return "fz::kScale"
    return "fz::kUnit"


def cast_type(proto):
    return proto.replace("__restrict__", "").replace("  ", " ").strip()


def case_code(spec, meta, variants, shapes):
    """The test function of one case (C++)."""
    cid = spec["id"]
    func = spec["func"]
    lines = []
    proto_args = meta["prototype"][meta["prototype"].index("("):]
    lines.append("// case %s" % cid)
    for v in variants:
        # weak: a rewrite that does not compile is dropped from its batch by
        # gpu_run.py, and reported "not-built" here instead of failing the link
        lines.append("void %s%s%s __attribute__((weak));" % (func, VARIANT_SUFFIX[v], proto_args))
    lines.append("#ifdef FUZZ_EMULATE")
    lines.append("void %s_emu%s;" % (func, proto_args))
    lines.append("#endif")
    lines.append("void %s_ref%s;" % (func, proto_args))
    lines.append("static bool case_%s() {" % cid)
    lines.append("  struct Shape { long long M, N, K, K2, BATCH, pad_lda, pad_ldb, pad_ldc; bool mis; unsigned seed; };")
    lines.append("  static const Shape shapes[] = {")
    for sh in shapes:
        lines.append("    {%d, %d, %d, %d, %d, %d, %d, %d, %s, %du}," % (
            sh["M"], sh["N"], sh["K"], sh["K2"], sh["BATCH"], sh["pad_lda"], sh["pad_ldb"], sh["pad_ldc"],
            "true" if sh["mis"] else "false", sh["seed"]))
    lines.append("  };")
    lines.append("  for (int si = 0; si < %d; ++si) {" % len(shapes))
    lines.append("    const Shape &sh = shapes[si];")
    lines.append("    const long long v_M = sh.M, v_N = sh.N, v_K = sh.K, v_BATCH = sh.BATCH;")
    k2 = "v_K" if spec.get("same_k") else "sh.K2"
    lines.append("    const long long v_K2 = %s;" % k2)
    for ld in ("lda", "ldb", "ldc"):
        lines.append("    const long long v_%s = v_%s + sh.pad_%s;" % (ld, ld_row(spec, ld), ld))
    lines.append("    (void)v_K2; (void)v_lda; (void)v_ldb; (void)v_ldc; (void)v_BATCH;")
    lines.append("    char shape_text[160];")
    lines.append('    snprintf(shape_text, sizeof shape_text, "M=%lld,N=%lld,K=%lld%s", v_M, v_N, v_K, "");')
    if spec["kind"] == "sum" and not spec.get("same_k"):
        lines.append('    snprintf(shape_text + strlen(shape_text), 40, ",K2=%lld", v_K2);')
    if spec.get("batch"):
        lines.append('    snprintf(shape_text + strlen(shape_text), 40, ",BATCH=%lld", v_BATCH);')
    if spec.get("ld"):
        lines.append('    snprintf(shape_text + strlen(shape_text), 60, ",ld=+%lld/+%lld/+%lld", sh.pad_lda, '
                     'sh.pad_ldb, sh.pad_ldc);')
    lines.append('    fz::Case c("%s", si, sh.seed, sh.mis);' % cid)
    args = []
    out_ctype = None
    for p in meta["params"]:
        k = p["kind"]
        role = p["role"]
        if k in ("size", "ld"):
            args.append("(%s)v_%s" % (p["ctype"], role))
        elif k == "scalar":
            ch = SCALARS[role]
            if role == "zp" and spec["elem"] == "bf16":
                # The scalar zero point too: integral, so that q - zp fits
                # bf16's 8 bits (see domain()).
                ch = [x for x in ch if x == int(x)]
            lines.append("    static const double ch_%s[] = {%s};" % (role, ", ".join(repr(x) for x in ch)))
            lines.append("    const float s_%s = c.scalar(ch_%s, %d);" % (role, role, len(ch)))
            args.append("s_%s" % role)
        elif k == "stream":
            args.append("c.stream()")
        elif k == "array":
            kind = "fz::kTemp" if p.get("temp") else ("fz::kOut" if p["out"] else "fz::kIn")
            lines.append('    fz::Buf &b_%s = c.array("%s", %s, %s, %s, %s);' % (
                role, spec["names"].get(role, role), TYPE_ENUM[p["ctype"]], kind, extent_expr(spec, p),
                domain(spec, p)))
            args.append("(%s)b_%s.%%s()" % (cast_type(p["proto"]), role))
            if p["out"] and not p.get("temp") and role == "C":
                out_ctype = p["ctype"]
    k_total = " + ".join("v_%s" % d for d in meta["k_dims"])
    tol = tolerance(spec, meta, out_ctype or "float")
    # D's tolerance may be the looser one
    for p in meta["params"]:
        if p["kind"] == "array" and p["out"] and not p.get("temp"):
            tol = max(tol, tolerance(spec, meta, p["ctype"]))
    ref_args = ", ".join(a.replace("%s()", "ref_ptr()") for a in args)
    dev_args = ", ".join(a.replace("%s()", "dev_ptr()") for a in args)
    lines.append("    %s_ref(%s);" % (func, ref_args))
    for v in variants:
        lines.append("#ifdef FUZZ_EMULATE")
        lines.append("    auto call_%s = [&] { %s_emu(%s); };" % (v, func, dev_args))
        lines.append("#else")
        lines.append("    auto call_%s = [&] { %s%s(%s); };" % (v, func, VARIANT_SUFFIX[v], dev_args))
        lines.append("#endif")
        lines.append("#ifndef FUZZ_EMULATE")
        lines.append("    const bool built_%s = %s%s != nullptr;" % (v, func, VARIANT_SUFFIX[v]))
        lines.append("#else")
        lines.append("    const bool built_%s = true;" % v)
        lines.append("#endif")
        lines.append('    if (fz::selected_variant("%s") && !built_%s && si == 0) {' % (v, v))
        lines.append('      c.set_variant("%s");' % v)
        lines.append('      c.report_error("not-built", "the rewritten file did not compile", shape_text);')
        lines.append("    }")
        lines.append('    if (fz::selected_variant("%s") && built_%s) {' % (v, v))
        lines.append('      c.set_variant("%s");' % v)
        lines.append('      if (!c.to_device("%s") || !c.run_device(call_%s, shape_text)) {' % (v, v))
        lines.append('        c.report_error("cuda-error", c.error(), shape_text);')
        lines.append("        return false;")
        lines.append("      }")
        lines.append("      c.report(c.check(%r, %s), shape_text);" % (tol, k_total))
        lines.append("    }")
    lines.append("  }")
    lines.append("  return true;")
    lines.append("}")
    return "\n".join(lines) + "\n"


MAIN_TAIL = r'''
namespace fz {
static const char *g_variant = nullptr;
bool selected_variant(const char *v) { return !g_variant || !strcmp(g_variant, v); }
}  // namespace fz

struct Entry { const char *id; bool (*fn)(); };
static const Entry kCases[] = {
%s
};

// Usage: BIN [--variant V] [--list] [ID ...]  (all cases when no ID)
int main(int argc, char **argv) {
  std::vector<std::string> want;
  for (int i = 1; i < argc; ++i) {
    if (!strcmp(argv[i], "--list")) {
      for (const Entry &e : kCases) printf("%%s\n", e.id);
      return 0;
    }
    if (!strcmp(argv[i], "--variant") && i + 1 < argc) { fz::g_variant = argv[++i]; continue; }
    want.push_back(argv[i]);
  }
  for (const Entry &e : kCases) {
    if (!want.empty() && std::find(want.begin(), want.end(), std::string(e.id)) == want.end()) continue;
    printf("BEGIN %%s\n", e.id);
    fflush(stdout);
    if (!e.fn()) return 3;  // a CUDA error is sticky: the runner restarts after this case
    printf("END %%s\n", e.id);
    fflush(stdout);
  }
  return 0;
}
'''


def rewrite(tool, src_path, out_path, extra):
    p = subprocess.run([tool] + extra + [src_path, "-o", out_path], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=300)
    return p.returncode, p.stderr.decode("utf-8", "replace")


def prepare(args, tool, incdir):
    out = os.path.abspath(args.out)
    if os.path.exists(out):
        shutil.rmtree(out)
    os.makedirs(os.path.join(out, "cases"))
    variants = [v.strip() for v in args.archs.split(",") if v.strip()]
    if args.cases:
        from fuzz import parse_case_ref
        with open(args.cases) as f:
            specs = [parse_case_ref(ln.strip()) for ln in f if ln.strip() and not ln.startswith("#")]
    else:
        specs = [fuzzgen.make_case(args.seed, args.start + n, unsupported_rate=args.unsupported_rate,
                                   collision_rate=args.collision_rate) for n in range(args.count)]
    specs = [s for s in specs if not s.get("unsupported")]

    def do(spec):
        cid = spec["id"]
        base = os.path.join(out, "cases", cid)
        r = fuzzgen.render(spec)
        with open(base + ".cu", "w") as f:
            f.write(r["source"])
        done = {}
        for v in variants:
            name = spec["func"] + VARIANT_SUFFIX[v]
            rv = fuzzgen.render(spec, func=name)
            src = "%s.%s.src.cu" % (base, v)
            with open(src, "w") as f:
                f.write(rv["source"])
            dst = "%s.%s.tc.cu" % (base, v)
            rc, err = rewrite(tool, src, dst, VARIANT_ARGS[v])
            os.unlink(src)
            if rc == 0:
                done[v] = os.path.basename(dst)
            else:
                if os.path.exists(dst):
                    os.unlink(dst)
                done[v] = None
                first = next((ln for ln in err.splitlines() if "error:" in ln), err.strip()[:200])
                spec.setdefault("rejected", {})[v] = first.split("error:", 1)[-1].strip()
        with open(base + ".ref.cu", "w") as f:
            f.write(fuzzgen.render(spec, ref=True)["source"])
        with open(base + ".emu.cu", "w") as f:
            f.write(fuzzgen.render(spec, func=spec["func"] + "_emu")["source"])
        rng = random.Random(cid)  # str seeds are hashed with SHA-512: reproducible
        shapes = gen_shapes(spec, rng, args.shapes)
        with open(base + ".json", "w") as f:
            json.dump({"spec": spec, "meta": r["meta"], "shapes": shapes, "rewritten": done}, f, indent=1)
        return spec, r["meta"], shapes, done

    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as ex:
        results = list(ex.map(do, specs))

    cases = []
    for spec, meta, shapes, done in results:
        vs = [v for v in variants if done.get(v)]
        status = "rewritten" if vs else "rejected"
        print("gpu-prepare: %-12s %s%s" % (spec["id"], status, (" (%s)" % ",".join(vs)) if vs else
                                            ": " + "; ".join("%s: %s" % kv for kv in spec.get("rejected", {}).items())
                                            [:200]), flush=True)
        if vs:
            cases.append((spec, meta, shapes, vs))

    # batches: cases whose file-scope names (a static shape's namespace and
    # its constants) could clash go to different batches
    # batches of units (a case's rewrite for one variant): units whose
    # file-scope names (a static shape's namespace and its constants) could
    # clash go to different batches, so a case's two rewrites may too
    batches = []
    for c in cases:
        spec = c[0]
        scope = set()
        if spec.get("static"):
            scope.add(spec["names"].get("ns", "fzc"))
        for v in c[3]:
            for b in batches:
                if len(b["units"]) < args.batch_size and not (b["scope"] & scope):
                    b["units"].append((c, v))
                    b["scope"] |= scope
                    break
            else:
                batches.append({"units": [(c, v)], "scope": set(scope)})

    manifest = {"tool": tool, "variants": variants, "batches": []}
    for n, b in enumerate(batches):
        name = "batch_%02d" % n
        by_case = {}
        for c, v in b["units"]:
            by_case.setdefault(c[0]["id"], (c, []))[1].append(v)
        with open(os.path.join(out, name + "_dev.cu"), "w") as f:
            f.write("// rewritten regions of %s (one nvcc compile)\n" % name)
            for c, v in b["units"]:
                f.write('#include "cases/%s.%s.tc.cu"\n' % (c[0]["id"], v))
        with open(os.path.join(out, name + "_ref.cu"), "w") as f:
            f.write("// host references of %s: the original functions, renamed\n" % name)
            for cid in by_case:
                f.write('#include "cases/%s.ref.cu"\n' % cid)
        with open(os.path.join(out, name + "_emu.cu"), "w") as f:
            f.write("// --emulate: the original functions stand in for the rewritten ones\n")
            for cid in by_case:
                f.write('#include "cases/%s.emu.cu"\n' % cid)
        with open(os.path.join(out, name + "_main.cu"), "w") as f:
            f.write("// test driver of %s (generated by test/fuzz/gpu_prepare.py)\n" % name)
            f.write('#include "fuzz_runtime.h"\n#include <algorithm>\n#include <string>\n#include <vector>\n')
            f.write("namespace fz { bool selected_variant(const char *v); }\n")
            for cid, (c, vs) in by_case.items():
                spec, meta, shapes, _ = c
                f.write(case_code(spec, meta, vs, shapes))
            entries = ",\n".join('  {"%s", case_%s}' % (i, i) for i in by_case)
            f.write(MAIN_TAIL % entries)
        manifest["batches"].append({"name": name, "cases": [
            {"id": cid, "variants": vs, "shapes": len(c[2]), "expect": c[0]["expect"]["result"],
             "summary": describe(c[0])} for cid, (c, vs) in by_case.items()]})
    with open(os.path.join(out, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1)
    shutil.copytree(incdir, os.path.join(out, "runtime_headers"))
    shutil.copy(os.path.join(HERE, "fuzz_runtime.h"), out)
    shutil.copy(os.path.join(HERE, "gpu_run.py"), out)
    with open(os.path.join(out, "run.sh"), "w") as f:
        f.write('#!/bin/sh\n# Build and run the fuzzer\'s GPU check (see gpu_run.py --help).\n'
                'exec python3 "$(dirname "$0")/gpu_run.py" "$(dirname "$0")" "$@"\n')
    os.chmod(os.path.join(out, "run.sh"), 0o755)
    n_cases = len(cases)
    print("gpu-prepare: %s: %d regions rewritten (of %d) in %d batches; run %s/run.sh on the GPU machine"
          % (out, n_cases, len(specs), len(batches), out))
    return 0


def describe(spec):
    """A one-line summary of what a case exercises."""
    bits = [spec["kind"], spec["order"], spec["init"], spec["elem"] + "->" + spec["out"],
            "A" + spec["a_major"][0] + "B" + spec["b_major"][0] + "C" + spec["c_major"][0]]
    if spec.get("ld"):
        bits.append("ld")
    if spec.get("static"):
        bits.append("static")
    if spec.get("batch"):
        bits.append("batch-" + spec["batch"])
    if spec.get("epi"):
        bits.append("epi:" + (spec["epi"].get("act") or ("tree" if spec["epi"].get("tree") else "linear")))
    if spec.get("prologue"):
        bits.append("pro:" + spec["prologue"]["fn"])
    if spec.get("temp"):
        bits.append("temp")
    if spec.get("clauses"):
        bits.append("[" + " ".join(spec["clauses"]) + "]")
    odd = sorted("%s=%s" % (r, n) for r, n in spec["names"].items() if n != fuzzgen.DEFAULT_NAMES.get(r))
    if odd:
        bits.append("names{" + ",".join(odd) + "}")
    return " ".join(bits)
