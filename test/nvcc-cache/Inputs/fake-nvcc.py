#!/usr/bin/env python3
"""A stand-in for nvcc in nvcc-cache.test: no CUDA needed.

  fake-nvcc.py --version
  fake-nvcc.py [-c|-ptx] [-I DIR] [-MD -MF DEPFILE] [--fake-log=FILE] IN.cu -o OUT

"Compiles" IN.cu: OUT gets its text with each `#include "NAME"` line replaced
by NAME's text (looked up beside IN.cu, then in the -I directories). It writes
stdout and stderr alternately (out: 1, err: 1, out: 2, err: 2), appends the
command line to --fake-log, and exits 3 after an error on stderr when the
input holds the word FAIL.
"""
import os
import sys
import time

args = sys.argv[1:]
if args == ["--version"]:
    print("fake nvcc, release 1.0")
    sys.exit(0)

out = dep = log = src = None
incs = []
i = 0
while i < len(args):
    a = args[i]
    if a == "-o":
        out = args[i + 1]; i += 1
    elif a == "-MF":
        dep = args[i + 1]; i += 1
    elif a == "-I":
        incs.append(args[i + 1]); i += 1
    elif a.startswith("-I"):
        incs.append(a[2:])
    elif a.startswith("--fake-log="):
        log = a.split("=", 1)[1]
    elif a.endswith(".cu"):
        src = a
    i += 1

if log:
    with open(log, "a") as f:
        f.write(" ".join(args) + "\n")

read = [src]
def expand(path):
    text = []
    for line in open(path):
        if line.startswith('#include "'):
            name = line.split('"')[1]
            for d in [os.path.dirname(path)] + incs:
                cand = os.path.join(d, name)
                if os.path.exists(cand):
                    read.append(cand)
                    text.append(expand(cand))
                    break
        else:
            text.append(line)
    return "".join(text)

text = expand(src)
for n in (1, 2):
    sys.stdout.write("out: %d\n" % n); sys.stdout.flush(); time.sleep(0.05)
    sys.stderr.write("err: %d\n" % n); sys.stderr.flush(); time.sleep(0.05)
if "FAIL" in text:
    sys.stderr.write("%s: error: FAIL\n" % src)
    sys.exit(3)
if out:
    with open(out, "w") as f:
        f.write(text)
if dep:
    with open(dep, "w") as f:
        f.write(out + " : " + " \\\n    ".join(read) + "\n")
