#!/usr/bin/env python3
"""Build and run a directory written by `fuzz.py gpu-prepare` (on the GPU
machine: nvcc, an sm_90a GPU; python3 with its standard library only).

  gpu_run.py DIR [--jobs N] [--budget S] [--emulate] [--build-only] [--no-build]

Builds one binary per batch (the batch's rewritten regions in one nvcc
compile, in parallel over the batches; -split-compile shares the remaining
cores), runs each over its cases (a kernel fault or a hang costs the case it
happened in: the runner starts the binary again after it), and writes
DIR/results.json and DIR/results.csv plus a summary table on stdout.
Exit status 1 when any check failed or anything did not build.

--emulate builds without the GPU: the original loops (compiled for the host)
stand in for the rewritten functions, so every check must pass; it tests the
harness (extents, guards, comparisons), not the tool.
"""

import argparse
import concurrent.futures
import csv
import json
import os
import re
import shutil
import subprocess
import sys
import threading
import time

RESULT_RE = re.compile(r"^RESULT (\S+) (\S+) (\d+) (PASS|FAIL) (\S+) err=(\S+) tol=(\S+) shape=(\S+) ?(.*)$")


def nvcc_path():
    for c in (os.environ.get("NVCC"), shutil.which("nvcc"), "/usr/local/cuda/bin/nvcc"):
        if c and os.path.isfile(c):
            return c
    sys.exit("gpu_run: no nvcc (set NVCC)")


def link_flags(nvcc):
    root = os.path.dirname(os.path.dirname(os.path.realpath(nvcc)))
    for stubs in (os.path.join(root, "lib64", "stubs"), os.path.join(root, "targets", "x86_64-linux", "lib", "stubs")):
        if os.path.exists(os.path.join(stubs, "libcuda.so")):
            return ["-L" + stubs, "-lcuda"]
    return ["-lcuda"]


def sh(cmd, cwd, timeout):
    t0 = time.time()
    try:
        p = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=timeout)
        return p.returncode, p.stdout.decode("utf-8", "replace"), time.time() - t0
    except subprocess.TimeoutExpired as e:
        return None, (e.stdout or b"").decode("utf-8", "replace") + "\n[timeout]", time.time() - t0


def build(d, manifest, args, deadline):
    nvcc = nvcc_path()
    bdir = os.path.join(d, "build")
    os.makedirs(bdir, exist_ok=True)
    ncpu = os.cpu_count() or 4
    batches = [b["name"] for b in manifest["batches"]]
    jobs = args.jobs or max(1, min(len(batches), ncpu))
    split = max(1, ncpu // jobs)
    common = ["-std=c++17", "--expt-relaxed-constexpr", "-I" + os.path.join(d, "runtime_headers"), "-I" + d,
              "-Xcompiler", "-Wno-unknown-pragmas", "-w"]
    arch = ["-gencode", "arch=compute_90a,code=sm_90a"]
    emu = args.emulate
    status = {}
    dropped = {}  # (case, variant) -> first compile error

    def compile_batch(name):
        objs = []
        log = []
        t0 = time.time()
        units = [(name + "_ref.cu", common + ["-O2"]),
                 (name + "_main.cu", common + ["-O2"] + (["-DFUZZ_EMULATE"] if emu else []))]
        if emu:
            units.append((name + "_emu.cu", common + ["-O2"]))
        else:
            units.insert(0, (name + "_dev.cu", common + arch + ["-split-compile=%d" % split]))
        for src, flags in units:
            obj = os.path.join(bdir, src.replace(".cu", ".o"))
            for attempt in range(8):
                left = max(30, deadline - time.time())
                rc, out, secs = sh([nvcc] + flags + (arch if not emu and src.endswith("_main.cu") else []) +
                                   ["-c", os.path.join(d, src), "-o", obj], d, left)
                log.append("$ nvcc ... -c %s  (%.0f s)\n%s" % (src, secs, out))
                if rc == 0 or not src.endswith("_dev.cu"):
                    break
                # a rewritten file that does not compile: drop it (its
                # function is weak: the driver reports it "not-built") and
                # compile the rest of the batch again
                path = os.path.join(d, src)
                with open(path) as f:
                    incs = f.read().splitlines()
                bad = set(re.findall(r"cases/([\w.-]+?)\.(sm_\w+?)\.tc\.cu", out))
                keep = [ln for ln in incs if not any('"cases/%s.%s.tc.cu"' % u in ln for u in bad)]
                if rc is None or not bad or keep == incs:
                    break
                for u in sorted(bad):
                    first = next((ln.strip() for ln in out.splitlines()
                                  if "%s.%s.tc.cu" % u in ln and "error" in ln), "")
                    dropped[u] = first[:400]
                with open(path, "w") as f:
                    f.write("\n".join(keep) + "\n")
            if rc != 0:
                return name, False, "\n".join(log), time.time() - t0
            objs.append(obj)
        exe = os.path.join(bdir, name + ("_emu" if emu else ""))
        rc, out, secs = sh([nvcc] + (arch if not emu else []) + objs + ["-o", exe] + link_flags(nvcc), d, 300)
        log.append("$ nvcc -o %s  (%.0f s)\n%s" % (exe, secs, out))
        return name, rc == 0, "\n".join(log), time.time() - t0

    print("gpu_run: building %d batches, %d at a time, -split-compile=%d%s" % (len(batches), jobs, split,
                                                                              " (emulation)" if emu else ""),
          flush=True)
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as ex:
        for name, ok, log, secs in ex.map(compile_batch, batches):
            status[name] = ok
            with open(os.path.join(bdir, name + ".build.log"), "w") as f:
                f.write(log)
            print("gpu_run: %s %s in %.0f s" % (name, "built" if ok else "FAILED to build", secs), flush=True)
            if not ok:
                tail = [ln for ln in log.splitlines() if "error" in ln][:8]
                for ln in tail:
                    print("    " + ln[:300])
    return status, dropped


def watch(cmd, hang, limit):
    """Runs cmd; kills it after `hang` seconds without output or `limit`
    seconds in all. Returns (output, exit status or None, killed)."""
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    lines = []
    last = [time.time()]

    def reader():
        for ln in iter(p.stdout.readline, b""):
            lines.append(ln.decode("utf-8", "replace"))
            last[0] = time.time()
    t = threading.Thread(target=reader, daemon=True)
    t.start()
    t0 = time.time()
    killed = False
    while p.poll() is None:
        time.sleep(0.2)
        now = time.time()
        if now - last[0] > hang or now - t0 > limit:
            p.kill()
            killed = True
            break
    p.wait()
    t.join(5)
    return "".join(lines), (None if killed else p.returncode), killed


def run_batch(d, batch, args, deadline):
    """Runs one batch binary, restarting after a crash; returns result rows."""
    exe = os.path.join(d, "build", batch["name"] + ("_emu" if args.emulate else ""))
    ids = [c["id"] for c in batch["cases"]]
    rows = []
    todo = list(ids)
    while todo:
        left = deadline - time.time()
        if left < 5:
            for cid in todo:
                rows.append({"id": cid, "variant": "*", "shape": -1, "status": "NOT-RUN", "kind": "budget",
                             "err": "", "tol": "", "shape_text": "", "detail": "out of time"})
            break
        # a hang is seen as silence: the driver prints a line before and
        # after every launch; --hang seconds without one end the process
        out, rc, timed_out = watch([exe] + todo, min(args.hang, left), left)
        finished = set()
        current = None
        for ln in out.splitlines():
            m = RESULT_RE.match(ln)
            if m:
                rows.append({"id": m.group(1), "variant": m.group(2), "shape": int(m.group(3)),
                             "status": m.group(4), "kind": m.group(5), "err": m.group(6), "tol": m.group(7),
                             "shape_text": m.group(8), "detail": m.group(9)})
            elif ln.startswith("BEGIN "):
                current = ln.split()[1]
            elif ln.startswith("END "):
                finished.add(ln.split()[1])
                current = None
        todo = [c for c in todo if c not in finished]
        if not todo:
            break
        if current is None:
            current = todo[0]
        if rc == 0 and not timed_out:
            break
        # the case that was running crashed or hung: record it (unless it
        # reported its CUDA error itself) and go on after it
        if not any(r["id"] == current and r["kind"] == "cuda-error" for r in rows):
            tail = " | ".join(out.strip().splitlines()[-3:])[-300:]
            last_run = next((ln for ln in reversed(out.splitlines()) if ln.startswith("RUN ")), "")
            variant = last_run.split()[2] if last_run else "*"
            shape = last_run.split()[4] if last_run else ""
            rows.append({"id": current, "variant": variant, "shape": -1, "status": "FAIL",
                         "kind": "timeout" if timed_out else "crash", "err": "", "tol": "", "shape_text": shape,
                         "detail": ("no progress for %.0f s (hang) during: %s" % (args.hang, last_run))
                         if timed_out else "exit status %s: %s" % (rc, tail)})
        todo = [c for c in todo if c != current]
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("dir")
    ap.add_argument("--jobs", type=int, help="batches compiled at once (default: one per core, up to #batches)")
    ap.add_argument("--budget", type=float, default=float(os.environ.get("FUZZ_GPU_BUDGET", "560")),
                    help="seconds for the whole build and run (default 560, $FUZZ_GPU_BUDGET)")
    ap.add_argument("--hang", type=float, default=45.0,
                    help="seconds without progress that count as a hang (default 45)")
    ap.add_argument("--emulate", action="store_true")
    ap.add_argument("--build-only", action="store_true")
    ap.add_argument("--no-build", action="store_true")
    args = ap.parse_args()
    d = os.path.abspath(args.dir)
    deadline = time.time() + args.budget
    with open(os.path.join(d, "manifest.json")) as f:
        manifest = json.load(f)
    dropped = {}
    if args.no_build:
        built = {b["name"]: True for b in manifest["batches"]}
        try:
            with open(os.path.join(d, "build", "dropped.json")) as f:
                dropped = {tuple(k.split(" ", 1)): v for k, v in json.load(f).items()}
        except (OSError, ValueError):
            pass
    else:
        built, dropped = build(d, manifest, args, deadline)
        with open(os.path.join(d, "build", "dropped.json"), "w") as f:
            json.dump({"%s %s" % u: e for u, e in dropped.items()}, f, indent=1)
    if args.build_only:
        return 0 if all(built.values()) else 1
    rows = []
    for b in manifest["batches"]:
        if not built.get(b["name"]):
            for c in b["cases"]:
                rows.append({"id": c["id"], "variant": "*", "shape": -1, "status": "FAIL", "kind": "build",
                             "err": "", "tol": "", "shape_text": "", "detail": "%s did not build" % b["name"]})
            continue
        print("gpu_run: running %s (%d cases)" % (b["name"], len(b["cases"])), flush=True)
        for r in run_batch(d, b, args, deadline):
            if r["kind"] == "not-built":
                r["kind"] = "nvcc-error"
                r["detail"] = dropped.get((r["id"], r["variant"]), r["detail"])
            rows.append(r)
    summaries = {c["id"]: c for b in manifest["batches"] for c in b["cases"]}
    suffix = "_emu" if args.emulate else ""
    with open(os.path.join(d, "results%s.json" % suffix), "w") as f:
        json.dump({"emulate": args.emulate, "rows": rows, "cases": summaries}, f, indent=1)
    with open(os.path.join(d, "results%s.csv" % suffix), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=["id", "variant", "shape", "status", "kind", "err", "tol", "shape_text",
                                          "detail"])
        w.writeheader()
        w.writerows(rows)
    # summary: one line per case and variant
    table = {}
    for r in rows:
        key = (r["id"], r["variant"])
        t = table.setdefault(key, {"pass": 0, "fail": 0, "kinds": set(), "worst": 0.0, "first": ""})
        if r["status"] == "PASS":
            t["pass"] += 1
        else:
            t["fail"] += 1
            t["kinds"].add(r["kind"])
            if not t["first"]:
                t["first"] = (r["shape_text"] + " " + r["detail"]).strip()
        try:
            t["worst"] = max(t["worst"], float(r["err"]))
        except ValueError:
            pass
    print()
    print("%-12s %-8s %5s %5s %-10s %-22s %s" % ("case", "variant", "pass", "fail", "worst err", "failure", "what"))
    n_fail = 0
    for (cid, v), t in sorted(table.items()):
        if t["fail"]:
            n_fail += 1
        print("%-12s %-8s %5d %5d %-10.3g %-22s %s" % (cid, v, t["pass"], t["fail"], t["worst"],
                                                     ",".join(sorted(t["kinds"])) or "-",
                                                     summaries.get(cid, {}).get("summary", "")[:90]))
    fails = [(k, t) for k, t in sorted(table.items()) if t["fail"]]
    if fails:
        print()
        print("failures (first failing shape of each):")
        for (cid, v), t in fails:
            print("  %s %s: %s" % (cid, v, t["first"][:400]))
    n_checks = sum(t["pass"] + t["fail"] for t in table.values())
    n_bad = sum(t["fail"] for t in table.values())
    print()
    print("gpu_run: %d case-variants, %d failing; %d checks, %d failed%s; results%s.json / .csv in %s"
          % (len(table), n_fail, n_checks, n_bad, " (emulation)" if args.emulate else "", suffix, d))
    return 1 if n_fail or not all(built.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
