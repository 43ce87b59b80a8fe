#!/usr/bin/env python3
"""Differential fuzzer of tc-rewrite (issue 46). See test/fuzz/README.md.

  fuzz.py cpu --seed S --count N [--nvcc-mode none|ptx|obj] [-j 2] [--out DIR]
      Generate N regions, run tc-rewrite on each for sm_90a and sm_80, check:
      rewritten (and, with nvcc, the output compiles) or rejected with a
      located diagnostic and the output byte-identical to the input; never a
      crash, a hang or isl's own error text; acceptance as the case expects.
  fuzz.py gpu-prepare --seed S --count N --out DIR
      Rewrite N regions and write a self-contained directory (sources, build
      script, runner) that checks each rewritten function against the
      original loop nest run serially on the host, on an H200 machine.
  fuzz.py gpu-run DIR
      On the GPU machine: build and run DIR (what DIR/run.sh does).
  fuzz.py shrink CASE.json|SEED:INDEX [--arch A]
      Reduce a failing case (CPU stage failures) to a minimal region and
      print it as a lit-test candidate.
  fuzz.py triage DIR/results.json
      Shrink one case per distinct finding of a cpu run; print the minimal
      regions.
  fuzz.py show SEED:INDEX
      Print one generated case.

The tool is --tool, else $TC_REWRITE, else build/bin/tc-rewrite.
"""

import argparse
import concurrent.futures
import copy
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)

import fuzzgen  # noqa: E402

ARCHS = ["sm_90a", "sm_80"]
TOOL_TIMEOUT = 120
NVCC_TIMEOUT = 600

# Text that must never reach the user: isl's own errors, LLVM's crash output.
LEAK_PATTERNS = [
    (re.compile(r"\bisl\b|isl_|NULL input|syntax error"), "isl-error"),
    (re.compile(r"please report this as a bug"), "isl-error"),
    (re.compile(r"Stack dump|PLEASE submit a bug report|LLVM ERROR|Assertion .* failed|"
                r"terminate called|Segmentation fault|UNREACHABLE"), "crash"),
]

DIAG_RE = re.compile(r"^(?P<file>[^\n]*?):(?P<line>\d+):(?P<col>\d+): (?P<sev>error|warning|note): (?P<msg>.*)$",
                     re.M)


def tool_path(args):
    t = getattr(args, "tool", None) or os.environ.get("TC_REWRITE") or os.path.join(REPO, "build", "bin",
                                                                                     "tc-rewrite")
    if not (os.path.isfile(t) and os.access(t, os.X_OK)):
        sys.exit("fuzz.py: tool %s not found (set TC_REWRITE or --tool)" % t)
    return os.path.abspath(t)


def include_dir(args):
    return os.path.abspath(getattr(args, "include_dir", None) or os.path.join(REPO, "runtime_headers"))


def nvcc_path():
    for c in (os.environ.get("NVCC"), shutil.which("nvcc"), "/usr/local/cuda/bin/nvcc"):
        if c and os.path.isfile(c):
            return c
    return None


def parse_case_ref(ref):
    """'S:I' or a path to a case .json -> spec."""
    if os.path.isfile(ref):
        with open(ref) as f:
            d = json.load(f)
        return d["spec"] if "spec" in d else d
    m = re.match(r"^s?(\d+)[:_](\d+)$", ref)
    if not m:
        sys.exit("fuzz.py: cannot read case %r (SEED:INDEX or a .json)" % ref)
    return fuzzgen.make_case(int(m.group(1)), int(m.group(2)))


# --- Running the tool ----------------------------------------------------------------

def run(cmd, timeout, cwd=None):
    t0 = time.time()
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout, cwd=cwd)
        return {"rc": p.returncode, "out": p.stdout.decode("utf-8", "replace"),
                "err": p.stderr.decode("utf-8", "replace"), "time": time.time() - t0, "timeout": False}
    except subprocess.TimeoutExpired as e:
        return {"rc": None, "out": (e.stdout or b"").decode("utf-8", "replace"),
                "err": (e.stderr or b"").decode("utf-8", "replace"), "time": time.time() - t0, "timeout": True}


def normalize_msg(msg):
    """A diagnostic without its names and numbers, for grouping and shrinking."""
    msg = re.sub(r"'[^']*'", "'X'", msg)
    msg = re.sub(r'"[^"]*"', '"X"', msg)
    msg = re.sub(r"\b\d+\b", "N", msg)
    msg = re.sub(r"\S*\.(cpp|c|h|cuh|cu):N(:N)?", "FILE", msg)
    return msg.strip()


def check_tool_run(spec, meta, arch, src_path, out_path, res, src_bytes):
    """Findings of one tool run: [(kind, message)], and what happened."""
    findings = []
    exp = spec["expect"]
    err = res["err"]
    if res["timeout"]:
        return [("timeout", "tc-rewrite ran past %d s" % TOOL_TIMEOUT)], "timeout", None
    rc = res["rc"]
    # The case's own paths are the user's text, not the tool's: a checkout
    # under a directory named `isl` must not read as isl's error.
    scanned = err
    for path in sorted({src_path, out_path, os.path.dirname(src_path), os.path.dirname(out_path)},
                       key=len, reverse=True):
        if path:
            scanned = scanned.replace(path, "<path>")
    for pat, kind in LEAK_PATTERNS:
        m = pat.search(scanned)
        if m and not any(k == kind for k, _ in findings):
            line = next((ln for ln in scanned.splitlines() if pat.search(ln)), m.group(0))
            findings.append((kind, line.strip()))
    if rc is not None and (rc < 0 or rc not in (0, 1)):
        sig = ""
        if rc < 0:
            try:
                sig = " (%s)" % signal.Signals(-rc).name
            except ValueError:
                pass
        findings.append(("crash", "exit status %s%s" % (rc, sig)))
    diags = [m for m in DIAG_RE.finditer(err) if m.group("sev") == "error"]
    first = diags[0].group("msg") if diags else ""
    outcome = "accept" if rc == 0 else "reject"
    if rc == 0:
        if not os.path.exists(out_path):
            findings.append(("no-output", "exit 0 but no output file"))
        else:
            with open(out_path, "rb") as f:
                ob = f.read()
            if ob == src_bytes:
                findings.append(("unchanged-on-accept", "exit 0 but the output is the input"))
            elif re.search(rb"^\s*#\s*pragma\s+tc\b", ob, re.M):
                findings.append(("pragma-left", "the rewritten file still holds '#pragma tc'"))
        if diags:
            findings.append(("error-on-accept", "exit 0 with an error: " + first))
    elif rc == 1:
        if not diags:
            findings.append(("unlocated-diagnostic", "exit 1 without 'file:line:col: error:' (%s)"
                             % (err.strip().splitlines() or [""])[0][:200]))
        else:
            lo, hi = meta["lines"]["func"]
            for d in diags:
                if os.path.basename(d.group("file")) != os.path.basename(src_path):
                    findings.append(("diagnostic-elsewhere", "%s:%s: %s" % (d.group("file"), d.group("line"),
                                                                           d.group("msg"))))
                    break
                ln = int(d.group("line"))
                if not (lo <= ln <= hi):
                    findings.append(("diagnostic-outside-function", "line %d not in %d..%d: %s"
                                     % (ln, lo, hi, d.group("msg"))))
                    break
        if not os.path.exists(out_path):
            findings.append(("no-output", "rejected and no output file written"))
        else:
            with open(out_path, "rb") as f:
                if f.read() != src_bytes:
                    findings.append(("modified-on-reject", "rejected but the output differs from the input"))
        if "because it does not parse" in err:
            # clang's own errors: the generator wrote invalid C++ (or the
            # tool's parse differs from the compilers')
            findings = [f for f in findings if f[0] != "no-output"]
            findings.append(("invalid-source", first))
    # expectation
    want = exp["result"]
    if not any(k in ("crash", "timeout", "invalid-source", "isl-error") for k, _ in findings):
        if want == "accept" and outcome == "reject":
            findings.append(("unexpected-reject", first or err.strip()[:200]))
        elif want == "reject" and outcome == "accept":
            findings.append(("unexpected-accept", "expected an error containing %r" % exp["diag"]))
        elif want in ("reject", "either") and outcome == "reject" and exp["diag"] and diags:
            if not any(exp["diag"] in d.group("msg") for d in diags):
                findings.append(("wrong-diagnostic", "expected %r, got %r" % (exp["diag"], first)))
    return findings, outcome, first


def nvcc_check(mode, arch, path, incdir, nvcc):
    """Compile a rewritten file; None when it compiles, else the first error."""
    if mode == "none":
        return None
    cmd = [nvcc, "-std=c++17", "--expt-relaxed-constexpr", "-I" + incdir, "-arch=" + arch,
           "-Xcompiler", "-Wno-unknown-pragmas"]
    if mode == "ptx":
        cmd += ["-ptx", "-Xcicc", "-O0", path, "-o", os.devnull]
    else:
        cmd += ["-c", path, "-o", os.devnull]
    res = run(cmd, NVCC_TIMEOUT)
    if res["timeout"]:
        return "nvcc ran past %d s" % NVCC_TIMEOUT
    if res["rc"] != 0:
        text = res["err"] + res["out"]
        m = re.search(r"error[^\n]*", text)
        return (m.group(0) if m else text.strip()[:300])
    return None


IDENT = re.compile(r"\b[A-Za-z_][A-Za-z0-9_]*\b")


def _strip_comments(text):
    return re.sub(r"//[^\n]*", "", text)


def neutral_names(spec):
    """For each unusual name of a case, a neutral one that sorts the same
    among the case's names (the tool orders isl parameters by name, so the
    printed expressions' term order follows the names): name + a suffix
    that no isl or tool name has."""
    names = sorted(set(spec["names"].values()))
    odd = [n for r, n in spec["names"].items() if n != fuzzgen.DEFAULT_NAMES[r]]
    if not odd:
        return {}
    taken = set(names) | set(fuzzgen.COLLISIONS) | fuzzgen.NEVER
    for suffix in ("_q", "_fzq", "Q", "q"):
        m = {n: n + suffix for n in set(odd)}
        if any(v in taken for v in m.values()):
            continue
        if sorted(m.get(n, n) for n in names) == [m.get(n, n) for n in names]:
            return m
    return {}


def rename_check(spec, arch, out_path, workdir, tool):
    """Alpha-renaming invariance: the case with its unusual names replaced
    by neutral ones must rewrite to the same code, up to the renaming. A name the tool
    captures (an isl set dimension, a parameter of its own) changes the
    kernel: the silent wrong results of issue 46 (a size named `k`), hangs
    (a size named `t`). Returns a finding message or None; skipped where an
    unusual name also occurs in the neutral output (the tool's own `c0`,
    `tc_*`: the nvcc check covers those) or the neutral case is rejected."""
    odd = neutral_names(spec)
    if not odd:
        return None
    dspec = copy.deepcopy(spec)
    dspec["names"] = {r: odd.get(n, n) for r, n in spec["names"].items()}
    dspec["id"] = spec["id"] + ".neutral"
    dst = os.path.join(workdir, dspec["id"] + "." + arch + ".cu")
    # the same file name, so that the tool's comments and names match
    ddir = tempfile.mkdtemp(prefix="ren", dir=workdir)
    src = os.path.join(ddir, os.path.basename(out_path).split(".")[0] + ".cu")
    with open(src, "w") as f:
        f.write(fuzzgen.render(dspec)["source"].replace(dspec["id"], spec["id"]))
    res = run([tool, "--arch=" + arch, src, "-o", dst], TOOL_TIMEOUT)
    try:
        if res["rc"] != 0:
            return None
        with open(dst) as f:
            dtext = _strip_comments(f.read())
        with open(out_path) as f:
            ctext = _strip_comments(f.read())
    finally:
        shutil.rmtree(ddir, ignore_errors=True)
        if os.path.exists(dst):
            os.unlink(dst)
    dtoks = set(IDENT.findall(dtext))
    if any(n in dtoks for n in odd):
        return None
    # A sibling nest's local or loop reusing a name is `name_1` in the
    # model (frontend/Extraction.cpp), so in code the tool prints.
    def mapped(tok):
        if tok in odd:
            return odd[tok]
        # A member array's definition name is its path (`fz_args_A`).
        if tok.startswith("fz_args_"):
            return "fz_args_" + mapped(tok[len("fz_args_"):])
        base, _, n = tok.rpartition("_")
        if base and n.isdigit():
            return mapped(base) + "_" + n
        # A computed size's definition name spells its expression, the
        # names in it among the words (`k_1_div_2` for `(k + 1) / 2`,
        # frontend/Hygiene.cpp definitionBase); the tool's own `tc_*`
        # names are not.
        if not tok.startswith("tc_") and re.search(r"_(div|shr|as)(_|$)", tok):
            for name in sorted(odd, key=len, reverse=True):
                tok = re.sub(r"(?<![A-Za-z0-9])%s(?![A-Za-z0-9])" % re.escape(name), odd[name], tok)
        return tok

    def mapped_name(m):
        return mapped(m.group(0))
    mapped = IDENT.sub(mapped_name, ctext)
    if mapped == dtext:
        return None
    dl, cl = dtext.splitlines(), mapped.splitlines()
    n = next((i for i, (a, b) in enumerate(zip(dl, cl)) if a != b), min(len(dl), len(cl)))
    got = (cl[n].strip() if n < len(cl) else "<end>")[:140]
    want = (dl[n].strip() if n < len(dl) else "<end>")[:140]
    return ("the names %s change the rewrite: line %d is `%s`, with neutral names (%s) `%s`"
            % (", ".join(sorted(odd)), n + 1, got, ", ".join(sorted(odd.values())), want))


def check_case(spec, workdir, tool, incdir, nvcc_mode, nvcc, archs=ARCHS, keep=False, idempotence=False,
               rename=True):
    """Run the CPU stage on one case; returns a result record."""
    r = fuzzgen.render(spec)
    src, meta = r["source"], r["meta"]
    base = os.path.join(workdir, spec["id"])
    src_path = base + ".cu"
    with open(src_path, "w") as f:
        f.write(src)
    src_bytes = src.encode()
    rec = {"id": spec["id"], "expect": spec["expect"], "archs": {}, "findings": []}
    for arch in archs:
        out_path = "%s.%s.cu" % (base, arch)
        if os.path.exists(out_path):
            os.unlink(out_path)
        res = run([tool, "--arch=" + arch, src_path, "-o", out_path], TOOL_TIMEOUT)
        findings, outcome, first = check_tool_run(spec, meta, arch, src_path, out_path, res, src_bytes)
        a = {"outcome": outcome, "rc": res["rc"], "time": round(res["time"], 2), "diag": first}
        if outcome == "accept" and not findings:
            e = nvcc_check(nvcc_mode, arch, out_path, incdir, nvcc) if nvcc else None
            if e:
                findings.append(("nvcc-error", e))
            if rename:
                e = rename_check(spec, arch, out_path, workdir, tool)
                if e:
                    findings.append(("rename-variance", e))
            if idempotence:
                again = out_path + ".again.cu"
                res2 = run([tool, "--arch=" + arch, out_path, "-o", again], TOOL_TIMEOUT)
                if res2["rc"] != 0 or open(again, "rb").read() != open(out_path, "rb").read():
                    findings.append(("not-idempotent", "tc-rewrite on its own output changed it"))
                if os.path.exists(again):
                    os.unlink(again)
        for kind, msg in findings:
            rec["findings"].append({"arch": arch, "kind": kind, "msg": msg})
        if findings:
            a["stderr"] = res["err"][-4000:]
        rec["archs"][arch] = a
        if not keep and not findings and os.path.exists(out_path):
            os.unlink(out_path)
    with open(base + ".json", "w") as f:
        json.dump({"spec": spec, "meta": meta, "result": rec}, f, indent=1)
    if not keep and not rec["findings"]:
        os.unlink(src_path)
        os.unlink(base + ".json")
    return rec


def signature(finding):
    """What must stay the same while shrinking a failure."""
    kind, msg = finding["kind"], finding["msg"]
    if kind in ("isl-error",):
        m = re.search(r"(NULL input|syntax error|[^:]*$)", msg)
        return (kind, finding["arch"], m.group(1).strip() if m else "")
    if kind in ("unexpected-reject", "wrong-diagnostic", "nvcc-error", "invalid-source"):
        return (kind, finding["arch"], normalize_msg(msg))
    return (kind, finding["arch"])


# --- The CPU stage ----------------------------------------------------------------------

def cmd_cpu(args):
    tool = tool_path(args)
    incdir = include_dir(args)
    nvcc = nvcc_path() if args.nvcc_mode != "none" else None
    if args.nvcc_mode != "none" and not nvcc:
        sys.exit("fuzz.py: --nvcc-mode=%s but no nvcc (set NVCC)" % args.nvcc_mode)
    workdir = args.out or tempfile.mkdtemp(prefix="tc-fuzz-cpu-")
    os.makedirs(workdir, exist_ok=True)
    specs = [fuzzgen.make_case(args.seed, args.start + n, unsupported_rate=args.unsupported_rate,
                               collision_rate=args.collision_rate) for n in range(args.count)]
    # nvcc on only the first --nvcc-count accepted-looking cases
    t0 = time.time()
    records = []
    nvcc_budget = args.nvcc_count if args.nvcc_count is not None else len(specs)

    def job(n_spec):
        n, spec = n_spec
        mode = args.nvcc_mode if n < nvcc_budget else "none"
        return check_case(spec, workdir, tool, incdir, mode, nvcc, keep=args.keep,
                          idempotence=args.idempotence, rename=not args.no_rename_check)

    deadline = t0 + args.time_limit if args.time_limit else None
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as ex:
        futs = []
        for n, spec in enumerate(specs):
            futs.append(ex.submit(job, (n, spec)))
        for fut in futs:
            rec = fut.result()
            records.append(rec)
            if not args.quiet:
                status = "FAIL" if rec["findings"] else "ok"
                outc = "/".join(rec["archs"][a]["outcome"] for a in ARCHS if a in rec["archs"])
                line = "%-12s %-4s %-13s expect=%-6s" % (rec["id"], status, outc, rec["expect"]["result"])
                if rec["findings"]:
                    f0 = rec["findings"][0]
                    line += "  %s[%s]: %s" % (f0["kind"], f0["arch"], f0["msg"][:150])
                print(line, flush=True)
            if deadline and time.time() > deadline:
                for f in futs:
                    f.cancel()
                print("fuzz.py: --time-limit reached after %d cases" % len(records), flush=True)
                break
    summary = summarize(records, time.time() - t0)
    print_summary(summary, args)
    with open(os.path.join(workdir, "results.json"), "w") as f:
        json.dump({"seed": args.seed, "start": args.start, "count": len(records),
                   "nvcc_mode": args.nvcc_mode, "tool": tool, "summary": summary, "records": records}, f,
                  indent=1)
    print("fuzz.py: results in %s/results.json%s" % (workdir, "" if args.keep else
                                                       " (failing cases' .cu/.json kept there)"))
    return 1 if summary["failures"] else 0


def summarize(records, elapsed):
    s = {"cases": len(records), "elapsed_s": round(elapsed, 1), "rewritten": 0, "rejected": 0,
         "mixed": 0, "failures": 0, "by_kind": {}, "expect": {}, "distinct": {}}
    for rec in records:
        outs = {rec["archs"][a]["outcome"] for a in rec["archs"]}
        if outs == {"accept"}:
            s["rewritten"] += 1
        elif outs == {"reject"}:
            s["rejected"] += 1
        else:
            s["mixed"] += 1
        s["expect"][rec["expect"]["result"]] = s["expect"].get(rec["expect"]["result"], 0) + 1
        if rec["findings"]:
            s["failures"] += 1
        seen = set()
        for f in rec["findings"]:
            key = (f["kind"], f["arch"])
            if key not in seen:
                s["by_kind"]["%s[%s]" % key] = s["by_kind"].get("%s[%s]" % key, 0) + 1
                seen.add(key)
            sig = "%s[%s] %s" % (f["kind"], f["arch"], normalize_msg(f["msg"])[:160])
            d = s["distinct"].setdefault(sig, [])
            if len(d) < 5 and rec["id"] not in d:
                d.append(rec["id"])
    return s


def print_summary(s, args):
    print()
    print("== tc-rewrite fuzz, CPU stage: seed %s, %d cases in %.0f s" % (args.seed, s["cases"], s["elapsed_s"]))
    print("   rewritten (both archs) %d, rejected (both) %d, mixed %d; expectations %s"
          % (s["rewritten"], s["rejected"], s["mixed"], s["expect"]))
    print("   cases with findings: %d" % s["failures"])
    if s["by_kind"]:
        print("   %-44s %s" % ("finding[arch]", "cases"))
        for k in sorted(s["by_kind"], key=lambda k: (-s["by_kind"][k], k)):
            print("   %-44s %d" % (k, s["by_kind"][k]))
        print("   distinct findings (normalised message: example cases):")
        for sig in sorted(s["distinct"]):
            print("     %s: %s" % (sig, " ".join(s["distinct"][sig])))


# --- Shrinking ------------------------------------------------------------------------

def normalize_spec(spec):
    """After a simplification: names for exactly the roles the spec uses,
    distinct; the expectation recomputed. Returns None if inconsistent."""
    spec = copy.deepcopy(spec)
    roles = fuzzgen._roles_of(spec)
    names = {r: spec["names"].get(r, fuzzgen.DEFAULT_NAMES[r]) for r in roles}
    spec["names"] = names
    try:
        fuzzgen._fix_names(spec, random.Random(0))
        spec["expect"] = fuzzgen.expectation(spec)
        fuzzgen.render(spec)
    except Exception:
        return None
    return spec


def simplifications(spec):
    """(description, simpler spec) candidates, bigger steps first."""
    out = []

    def cand(desc, **changes):
        s = copy.deepcopy(spec)
        for k, v in changes.items():
            s[k] = v
        n = normalize_spec(s)
        if n is not None and n != spec:
            out.append((desc, n))

    s = spec
    if s.get("unsupported"):
        # the finding may not be about the unsupported construct at all
        cand("supported region", unsupported=None, temp_bad=None, clauses=[])
    if s["kind"] != "gemm":
        cand("plain gemm instead of %s" % s["kind"], kind="gemm", order="ijk", init="acc0", quant=None,
             a_major="row" if s["kind"] == "quant" else s["a_major"])
    if s.get("separate_epi"):
        cand("no separate epilogue nest", separate_epi=False)
    if s.get("epi"):
        cand("no epilogue", epi=None, out2=None, temp=False)
        e = s["epi"]
        for key, val in (("tree", None), ("bias", None), ("res", None), ("style", "inline")):
            if e.get(key) != val:
                e2 = dict(e)
                e2[key] = val
                if key == "style" and e.get("style") in ("if", "if_else"):
                    e2["tree"] = None
                    e2.pop("act", None)
                cand("epilogue: %s=%s" % (key, val), epi=e2)
    if s.get("out2"):
        cand("no second output", out2=None)
    if s.get("temp"):
        cand("no temp", temp=False)
    if s.get("axpby"):
        cand("no axpby input", axpby=False)
    if s.get("prologue"):
        cand("no prologue", prologue=None)
    if s.get("batch"):
        cand("no batch loop", batch=None)
    if s.get("static"):
        cand("no static shapes", static=None)
    if s.get("ld"):
        cand("no leading dimensions", ld=False)
    if s.get("stream"):
        cand("no stream", stream=False, sync=False)
    cl = s.get("clauses") or []
    if cl and s["elem"] != "tf32":
        cand("no clauses", clauses=[], clauses_random=False)
    for c in cl:
        if c != "allow_tf32" or s["elem"] != "tf32":
            cand("drop clause %s" % c, clauses=[x for x in cl if x != c])
    if s.get("alpha"):
        cand("no alpha", alpha=None)
    if s["order"] not in ("ijk",):
        if s["order"] in fuzzgen.ORDERS_K_OUTER and s["kind"] == "gemm":
            cand("order ijk, scalar accumulator", order="ijk", init="acc0")
            cand("order ijk", order="ijk")
        elif s["kind"] == "gemm":
            cand("order ijk", order="ijk")
    if s["init"] not in ("acc0",) and s["order"] in fuzzgen.ORDERS_K_INNER and s["kind"] in ("gemm", "sum"):
        cand("init acc = 0", init="acc0")
    if s["kind"] == "sum":
        if not s.get("same_k"):
            cand("sum over the same K", same_k=True)
        if not s.get("k2_same_name"):
            cand("sum: k2 named like k", k2_same_name=True)
    if s["elem"] != "half" and s["kind"] != "quant":
        cl2 = [c for c in cl if c != "allow_tf32"]
        cand("elem half", elem="half", conv_a="fn", conv_b="fn", clauses=cl2)
    if s["out"] != "float":
        cand("out float", out="float")
    for k in ("conv_a", "conv_b"):
        want = "none" if s["elem"] == "tf32" else "fn"
        if s[k] != want:
            cand("%s=%s" % (k, want), **{k: want})
    if s["store_conv"] != "fn":
        cand("store_conv fn", store_conv="fn")
    for k in ("a_major", "b_major", "c_major"):
        if s[k] != "row" and s["kind"] != "quant":
            cand("%s row" % k, **{k: "row"})
    if any(v != "int" for v in s["it_type"].values()):
        cand("int iterators", it_type={k: "int" for k in s["it_type"]})
    if any(v != "int" for v in s["size_type"].values()):
        cand("int sizes", size_type={k: "int" for k in s["size_type"]})
    if any(v != "lt" for v in s["bound"].values()):
        cand("< bounds", bound={k: "lt" for k in s["bound"]})
    if any(v != "pre" for v in s["inc"].values()):
        cand("++i increments", inc={k: "pre" for k in s["inc"]})
    if s.get("clause_sep", " ") != " ":
        cand("clauses separated by spaces", clause_sep=" ")
    for role in sorted(s["names"]):
        d = fuzzgen.DEFAULT_NAMES[role]
        if s["names"][role] != d:
            names = dict(s["names"])
            names[role] = d
            cand("name %s: %s -> %s" % (role, s["names"][role], d), names=names)
    return out


def spec_size(spec):
    """A rough measure to order shrink results (smaller is simpler)."""
    r = fuzzgen.render(spec)
    return len(r["source"])


def shrink(spec, still_fails, log=print, max_steps=200):
    """Greedy: take the first simplification that keeps the failure, repeat."""
    steps = 0
    changed = True
    while changed and steps < max_steps:
        changed = False
        for desc, cand in simplifications(spec):
            steps += 1
            if still_fails(cand):
                log("  shrink: %s (keeps the failure)" % desc)
                spec = cand
                changed = True
                break
    return spec


def lit_candidate(spec, finding, arch):
    r = fuzzgen.render(spec)
    src = r["source"]
    kind = finding["kind"]
    exp = spec["expect"]
    head = ["// tc-fuzz: minimal case of a %s finding on %s (from case %s):" % (kind, arch, spec["id"]),
            "//   %s" % finding["msg"][:300]]
    if kind == "nvcc-error":
        head += ["// REQUIRES: nvcc",
                 "// RUN: %%tc-rewrite --arch=%s %%s -o %%t.cu" % arch,
                 "// RUN: %%nvcc -std=c++17 --expt-relaxed-constexpr -I%%tc-include -arch=%s -ptx %%t.cu -o %%t.ptx"
                 % arch]
    elif exp["result"] == "reject":
        head += ["// RUN: not %%tc-rewrite --arch=%s %%s -o %%t.cu 2>&1 | FileCheck %%s" % arch,
                 "// RUN: diff %s %t.cu",
                 "// CHECK: error: %s" % exp["diag"]]
    else:
        head += ["// RUN: %%tc-rewrite --arch=%s %%s -o %%t.cu 2>&1 | FileCheck %%s --allow-empty "
                 "--implicit-check-not=error" % arch]
    return "\n".join(head) + "\n" + src


def cmd_shrink(args):
    tool = tool_path(args)
    incdir = include_dir(args)
    spec = parse_case_ref(args.case)
    nvcc = nvcc_path()
    workdir = tempfile.mkdtemp(prefix="tc-fuzz-shrink-")
    archs = [args.arch] if args.arch else ARCHS
    rec = check_case(spec, workdir, tool, incdir, args.nvcc_mode, nvcc, archs=archs, keep=True)
    if not rec["findings"]:
        print("fuzz.py shrink: case %s has no finding (nvcc-mode %s); nothing to shrink"
              % (spec["id"], args.nvcc_mode))
        return 0
    target = rec["findings"][0]
    if args.kind:
        target = next((f for f in rec["findings"] if f["kind"] == args.kind), target)
    sig = signature(target)
    arch = target["arch"]
    print("fuzz.py shrink: %s: keeping %s" % (spec["id"], " / ".join(map(str, sig))))

    def still_fails(cand):
        d = tempfile.mkdtemp(prefix="c", dir=workdir)
        r = check_case(cand, d, tool, incdir, args.nvcc_mode if target["kind"] == "nvcc-error" else "none",
                       nvcc, archs=[arch], keep=True)
        return any(signature(f) == sig for f in r["findings"])

    small = shrink(spec, still_fails)
    print()
    print(lit_candidate(small, target, arch))
    if args.write:
        with open(args.write, "w") as f:
            f.write(lit_candidate(small, target, arch))
        with open(args.write + ".json", "w") as f:
            json.dump({"spec": small}, f, indent=1)
    shutil.rmtree(workdir, ignore_errors=True)
    return 0


def cmd_triage(args):
    """Shrink one case per distinct finding of a CPU-stage run, and print
    the minimal regions (one per finding and set of essential names)."""
    tool = tool_path(args)
    incdir = include_dir(args)
    nvcc = nvcc_path()
    with open(args.results) as f:
        res = json.load(f)
    rundir = os.path.dirname(os.path.abspath(args.results))
    groups = {}
    for rec in res["records"]:
        for fd in rec["findings"]:
            key = signature(fd)
            groups.setdefault(key, []).append((rec["id"], fd))
    outdir = args.out or os.path.join(rundir, "triage")
    os.makedirs(outdir, exist_ok=True)
    minimal = {}
    todo = []
    for key in sorted(groups, key=lambda k: -len(groups[k])):
        # up to --per-signature cases of a signature, with different sets of
        # unusual names (one isl "syntax error" may have several causes)
        seen = set()
        for cid, fd in groups[key]:
            path = os.path.join(rundir, cid + ".json")
            if not os.path.exists(path):
                continue
            spec = parse_case_ref(path)
            odd = frozenset(n for r, n in spec["names"].items() if n != fuzzgen.DEFAULT_NAMES[r])
            if odd in seen or any(odd & o for o in seen):
                continue
            seen.add(odd)
            todo.append((key, cid, fd, spec))
            if len(seen) >= args.per_signature:
                break
    done = {}
    for key, cid, fd, spec in todo[:args.max]:
        if (cid, fd["kind"]) in done:
            # the same case's finding on the other architecture
            minimal[done[(cid, fd["kind"])]]["archs"].add(fd["arch"])
            continue
        print("triage: %s (%d findings): shrinking %s" % (" / ".join(map(str, key)), len(groups[key]), cid),
              flush=True)
        workdir = tempfile.mkdtemp(prefix="tc-fuzz-triage-")
        mode = "ptx" if fd["kind"] == "nvcc-error" else "none"

        def still_fails(cand, fd=fd, key=key, workdir=workdir, mode=mode):
            d = tempfile.mkdtemp(prefix="c", dir=workdir)
            r = check_case(cand, d, tool, incdir, mode, nvcc, archs=[fd["arch"]], keep=True)
            return any(signature(f) == key for f in r["findings"])

        small = shrink(spec, still_fails, log=lambda m: None)
        shutil.rmtree(workdir, ignore_errors=True)
        odd = tuple(sorted("%s=%s" % (r, n) for r, n in small["names"].items()
                           if n != fuzzgen.DEFAULT_NAMES[r]))
        mkey = (fd["kind"], odd, normalize_msg(fd["msg"])[:60] if fd["kind"] != "rename-variance" else "")
        done[(cid, fd["kind"])] = mkey
        entry = minimal.setdefault(mkey, {"archs": set(), "cases": [], "spec": small, "finding": fd})
        entry["archs"].add(fd["arch"])
        entry["cases"].extend(c for c, _ in groups[key])
    print()
    print("== %d distinct minimal cases (of %d finding signatures)" % (len(minimal), len(groups)))
    for n, (mkey, e) in enumerate(sorted(minimal.items(), key=lambda kv: kv[0])):
        name = "min_%02d_%s" % (n, e["finding"]["kind"])
        text = lit_candidate(e["spec"], e["finding"], e["finding"]["arch"])
        with open(os.path.join(outdir, name + ".cu"), "w") as f:
            f.write(text)
        with open(os.path.join(outdir, name + ".json"), "w") as f:
            json.dump({"spec": e["spec"], "finding": e["finding"], "archs": sorted(e["archs"]),
                       "cases": sorted(set(e["cases"]))}, f, indent=1)
        print()
        print("-- %s: %s on %s; names: %s; seen in %d case(s), e.g. %s" % (
            name, e["finding"]["kind"], "/".join(sorted(e["archs"])), ", ".join(mkey[1]) or "defaults",
            len(set(e["cases"])), " ".join(sorted(set(e["cases"]))[:4])))
        print("   %s" % e["finding"]["msg"][:300])
        src = fuzzgen.render(e["spec"])["source"]
        body = src[src.index("void "):]
        print("   " + body.replace("\n", "\n   ").rstrip())
    print("triage: minimal cases written to %s" % outdir)
    return 0


def cmd_show(args):
    spec = parse_case_ref(args.case)
    r = fuzzgen.render(spec, ref=args.ref)
    sys.stdout.write(r["source"])
    if args.json:
        print(json.dumps({"spec": spec, "meta": r["meta"]}, indent=1))
    else:
        print("// expect: %s" % json.dumps(spec["expect"]))
    return 0


def cmd_gpu_prepare(args):
    import gpu_prepare
    return gpu_prepare.prepare(args, tool_path(args), include_dir(args))


def cmd_gpu_run(args):
    runner = os.path.join(args.dir, "gpu_run.py")
    if not os.path.exists(runner):
        runner = os.path.join(HERE, "gpu_run.py")
    cmd = [sys.executable, runner, args.dir] + (["--emulate"] if args.emulate else []) + \
        (["--jobs", str(args.jobs)] if args.jobs else [])
    return subprocess.call(cmd)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)

    def common(sp):
        sp.add_argument("--tool", help="tc-rewrite to test (default: $TC_REWRITE, else build/bin/tc-rewrite)")
        sp.add_argument("--include-dir", help="runtime headers for nvcc (default: runtime_headers/)")

    c = sub.add_parser("cpu", help="the CPU stage")
    common(c)
    c.add_argument("--seed", type=int, default=1)
    c.add_argument("--count", type=int, default=50)
    c.add_argument("--start", type=int, default=0, help="first case index")
    c.add_argument("--nvcc-mode", choices=["none", "ptx", "obj"], default="ptx",
                   help="compile each output: ptx (front end and -O0 PTX, ~3 s a file; the default), "
                        "obj (full), none")
    c.add_argument("--nvcc-count", type=int, help="compile only the first N cases' outputs")
    c.add_argument("-j", "--jobs", type=int, default=2)
    c.add_argument("--out", help="work directory (default: a new one under $TMPDIR)")
    c.add_argument("--keep", action="store_true", help="keep every case's files, not only failing ones")
    c.add_argument("--idempotence", action="store_true", help="also rewrite each output again")
    c.add_argument("--no-rename-check", action="store_true",
                   help="skip the renaming check (a case with unusual names must rewrite like the same "
                        "case with neutral names, up to the renaming)")
    c.add_argument("--time-limit", type=float, help="stop after this many seconds")
    c.add_argument("--unsupported-rate", type=float, default=0.15)
    c.add_argument("--collision-rate", type=float, default=0.5)
    c.add_argument("-q", "--quiet", action="store_true")
    c.set_defaults(fn=cmd_cpu)

    g = sub.add_parser("gpu-prepare", help="write a GPU check directory")
    common(g)
    g.add_argument("--seed", type=int, default=1)
    g.add_argument("--count", type=int, default=40)
    g.add_argument("--start", type=int, default=0)
    g.add_argument("--out", required=True)
    g.add_argument("--cases", help="a file of case references (SEED:INDEX or .json), one a line")
    g.add_argument("--batch-size", type=int, default=6, help="rewritten files per nvcc compile")
    g.add_argument("--shapes", type=int, default=6, help="shapes per region")
    g.add_argument("-j", "--jobs", type=int, default=2)
    g.add_argument("--archs", default="sm_90a,sm_80", help="rewrites to test (each runs on the H200)")
    g.add_argument("--unsupported-rate", type=float, default=0.0)
    g.add_argument("--collision-rate", type=float, default=0.5)
    g.set_defaults(fn=cmd_gpu_prepare)

    r = sub.add_parser("gpu-run", help="build and run a prepared directory (on the GPU machine)")
    r.add_argument("dir")
    r.add_argument("--emulate", action="store_true", help="no GPU: the original loops stand in for the kernels")
    r.add_argument("--jobs", type=int)
    r.set_defaults(fn=cmd_gpu_run)

    s = sub.add_parser("shrink", help="reduce a failing case")
    common(s)
    s.add_argument("case", help="SEED:INDEX or a case .json")
    s.add_argument("--arch", choices=ARCHS)
    s.add_argument("--kind", help="the finding to keep (default: the first)")
    s.add_argument("--nvcc-mode", choices=["none", "ptx", "obj"], default="ptx")
    s.add_argument("--write", help="also write the lit-test candidate to this file")
    s.set_defaults(fn=cmd_shrink)

    t = sub.add_parser("triage", help="shrink one case per distinct finding of a CPU-stage run")
    common(t)
    t.add_argument("results", help="results.json of a cpu run (its --out directory keeps the cases)")
    t.add_argument("--max", type=int, default=30, help="at most this many shrinks")
    t.add_argument("--per-signature", type=int, default=3,
                   help="cases shrunk per finding signature, with different unusual names (default 3)")
    t.add_argument("--out", help="where to write the minimal cases (default: RESULTS_DIR/triage)")
    t.set_defaults(fn=cmd_triage)

    w = sub.add_parser("show", help="print a generated case")
    w.add_argument("case")
    w.add_argument("--ref", action="store_true", help="the host reference rendering")
    w.add_argument("--json", action="store_true")
    w.set_defaults(fn=cmd_show)

    args = p.parse_args(argv)
    return args.fn(args)


if __name__ == "__main__":
    sys.exit(main())
