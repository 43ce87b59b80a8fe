#!/usr/bin/env python3
"""A compile cache for the nvcc runs of the lit tests (the %nvcc substitution).

    nvcc-cache.py NVCC [NVCC ARGUMENTS...]

runs `NVCC ARGUMENTS...` and, when it succeeds, stores what it produced: the
output file (-o), everything it wrote to stdout and stderr (in the order it
wrote it: the tests FileCheck `ptxas -v` output) and its exit status. A later
run with the same key replays them instead of compiling: the output file is
copied back to its -o path, the two streams are written in the same order and
the same exit status is returned.

The key covers everything the result depends on:
  - the arguments exactly as given and the working directory,
  - `NVCC --version`, and the host compiler's `--version` (-ccbin, else the
    gcc and g++ on PATH),
  - PATH, LD_LIBRARY_PATH and every NVCC_* variable of the environment,
  - the content of the input file,
  - the content of every file under each include directory given on the
    command line (-I DIR, -isystem DIR, --include-path DIR: the runtime
    headers, all of them, whether included or not),
  - and, checked on each hit, the content of every file the compile read:
    the miss compiles with `-MD -MF` and stores the dependency list with a
    hash of each file; a hit whose dependencies changed is a miss.

Only single-input compiles to one output file (-c, -ptx, -cubin with -o) are
cached, only when they succeed (a failure always runs nvcc again); anything
else (links, -E, -M, --keep, response files, ...) runs nvcc unchanged. A
problem with the cache itself never changes the result: it just runs nvcc.

The cache lives in $TC_NVCC_CACHE_DIR, else ${XDG_CACHE_HOME:-~/.cache}/
tc-rewrite/nvcc, outside the source and build trees; delete it at any time.
TC_NVCC_CACHE=0 turns it off (nvcc runs directly). TC_NVCC_CACHE_LOG=FILE
appends "hit|miss|store|bypass KEY ARGS" lines to FILE.
"""
import hashlib
import json
import os
import selectors
import shutil
import subprocess
import sys
import tempfile

FORMAT = "tc-nvcc-cache 1"

# Options that make nvcc write files besides -o, read arguments from
# elsewhere, or do something other than one compile: never cached.
BYPASS_PREFIXES = (
    "-M", "--generate-dependencies", "--generate-nonsystem-dependencies",
    "--dependency-output", "--dependency-target-name", "-keep", "--keep",
    "-save-temps", "--save-temps", "-odir", "--output-directory", "-dryrun",
    "--dryrun", "-run", "--run", "-E", "--preprocess", "-V", "--version",
    "-h", "--help", "--list-gpu", "-optf", "--options-file", "-lib", "--lib",
    "-link", "--link", "-dlink", "--device-link", "-fatbin", "--fatbin",
    "--generate-code-file", "-time", "--time", "-v", "--verbose",
)
MODES = {"-c": "c", "--compile": "c", "-ptx": "ptx", "--ptx": "ptx",
         "-cubin": "cubin", "--cubin": "cubin"}
SOURCE_SUFFIXES = (".cu", ".c", ".cc", ".cpp", ".cxx", ".C")
# Options whose value is the next argument (those that matter here).
WITH_VALUE = {"-o", "--output-file", "-I", "--include-path", "-isystem",
              "--system-include", "-ccbin", "--compiler-bindir", "-x",
              "--x", "-Xptxas", "--ptxas-options", "-Xcompiler",
              "--compiler-options", "-Xcicc", "-Xlinker", "--linker-options",
              "-gencode", "--generate-code", "-arch", "--gpu-architecture",
              "-code", "--gpu-code", "-include", "--pre-include", "-D",
              "--define-macro", "-U", "--undefine-macro", "-std", "--std",
              "-L", "--library-path", "-l", "--library"}
MAX_TREE_FILES = 5000


def log(event, key, args):
    path = os.environ.get("TC_NVCC_CACHE_LOG")
    if path:
        try:
            with open(path, "a") as f:
                f.write("%s %s %s\n" % (event, key or "-", " ".join(args)))
        except OSError:
            pass


def parse(args):
    """Returns (mode, output, input, include_dirs, host_compiler) for a
    cacheable command line, else None."""
    mode = output = host = None
    inputs, include_dirs = [], []
    i = 0
    while i < len(args):
        a = args[i]
        if a.startswith("@"):
            return None
        if a in MODES:
            if mode is not None:
                return None
            mode = MODES[a]
        elif any(a == p or a.startswith(p) for p in BYPASS_PREFIXES):
            # -Xptxas -v is a ptxas option, handled below with its value.
            return None
        elif a in WITH_VALUE:
            if i + 1 >= len(args):
                return None
            value = args[i + 1]
            if a in ("-o", "--output-file"):
                if output is not None:
                    return None
                output = value
            elif a in ("-I", "--include-path", "-isystem", "--system-include"):
                include_dirs.append(value)
            elif a in ("-ccbin", "--compiler-bindir"):
                host = value
            i += 1
        elif a.startswith("--output-file="):
            if output is not None:
                return None
            output = a.split("=", 1)[1]
        elif a.startswith("-o") and len(a) > 2 and not a.startswith("-odir"):
            if output is not None:
                return None
            output = a[2:]
        elif a.startswith("-I"):
            include_dirs.append(a[2:])
        elif a.startswith("--include-path=") or a.startswith("--system-include="):
            include_dirs.append(a.split("=", 1)[1])
        elif a.startswith("-ccbin=") or a.startswith("--compiler-bindir="):
            host = a.split("=", 1)[1]
        elif not a.startswith("-"):
            if a.endswith(SOURCE_SUFFIXES) and os.path.isfile(a):
                inputs.append(a)
            elif os.path.exists(a):
                return None  # some other file argument: do not guess
        i += 1
    if mode is None or output is None or len(inputs) != 1:
        return None
    return mode, output, inputs[0], include_dirs, host


def file_hash(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def tool_version(argv):
    try:
        return subprocess.run(argv + ["--version"], stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, timeout=60).stdout
    except (OSError, subprocess.SubprocessError):
        return b"(none)"


def compute_key(nvcc, args, parsed):
    mode, output, source, include_dirs, host = parsed
    h = hashlib.sha256()

    def add(tag, data):
        if isinstance(data, str):
            data = data.encode("utf-8", "surrogateescape")
        h.update(tag.encode() + b"\0" + str(len(data)).encode() + b"\0" + data)

    add("format", FORMAT)
    add("nvcc", os.path.realpath(nvcc))
    add("nvcc-version", tool_version([nvcc]))
    hosts = [host] if host else ["gcc", "g++"]
    for hc in hosts:
        path = hc if os.path.sep in hc else shutil.which(hc)
        if path and os.path.isdir(path):
            path = os.path.join(path, "g++")
        add("host", (os.path.realpath(path) if path else hc))
        add("host-version", tool_version([path]) if path else b"(none)")
    for var in sorted(os.environ):
        if var.startswith("NVCC_") or var in ("PATH", "LD_LIBRARY_PATH"):
            add("env", var + "=" + os.environ[var])
    add("cwd", os.getcwd())
    for a in args:
        add("arg", a)
    add("source", file_hash(source))
    for d in include_dirs:
        add("include-dir", d)
        if not os.path.isdir(d):
            continue
        count = 0
        for root, dirs, files in os.walk(d):
            dirs.sort()
            for name in sorted(files):
                path = os.path.join(root, name)
                count += 1
                if count > MAX_TREE_FILES:
                    break  # the dependency check still covers what is read
                if os.path.isfile(path):
                    add("include-file", os.path.relpath(path, d))
                    add("include-hash", file_hash(path))
    return h.hexdigest()


def cache_root():
    root = os.environ.get("TC_NVCC_CACHE_DIR")
    if not root:
        base = os.environ.get("XDG_CACHE_HOME") or os.path.join(
            os.path.expanduser("~"), ".cache")
        root = os.path.join(base, "tc-rewrite", "nvcc")
    return root


def deps_unchanged(deps):
    for path, digest in deps:
        try:
            if file_hash(path) != digest:
                return False
        except OSError:
            return False
    return True


def read_records(path):
    with open(path, "rb") as f:
        data = f.read()
    records, i = [], 0
    while i < len(data):
        stream = data[i]
        length = int.from_bytes(data[i + 1:i + 9], "little")
        records.append((stream, data[i + 9:i + 9 + length]))
        i += 9 + length
    return records


def replay(entry, meta, output):
    records = read_records(os.path.join(entry, "streams"))
    # Write the output to a temporary name first: a failed copy must not
    # leave a half-written object behind a replayed success.
    tmp = output + ".nvcc-cache-tmp"
    shutil.copyfile(os.path.join(entry, "output"), tmp)
    os.replace(tmp, output)
    for stream, data in records:
        fd = 1 if stream == 1 else 2
        while data:
            n = os.write(fd, data)
            data = data[n:]
    return meta["rc"]


def parse_depfile(path):
    with open(path, "rb") as f:
        text = f.read().decode("utf-8", "surrogateescape")
    text = text.replace("\\\n", " ").replace("\\\r\n", " ")
    _, _, rest = text.partition(": ")
    deps, token, i = [], "", 0
    while i < len(rest):
        c = rest[i]
        if c == "\\" and i + 1 < len(rest) and rest[i + 1] == " ":
            token += " "
            i += 2
            continue
        if c.isspace():
            if token:
                deps.append(token)
            token = ""
        else:
            token += c
        i += 1
    if token:
        deps.append(token)
    return deps


def run_and_record(argv):
    """Runs argv, passing its stdout and stderr through as they come and
    recording them in order. Returns (exit status, records)."""
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    sel = selectors.DefaultSelector()
    sel.register(proc.stdout, selectors.EVENT_READ, 1)
    sel.register(proc.stderr, selectors.EVENT_READ, 2)
    records, open_streams = [], 2
    while open_streams:
        for key, _ in sel.select():
            data = os.read(key.fileobj.fileno(), 65536)
            if not data:
                sel.unregister(key.fileobj)
                open_streams -= 1
                continue
            records.append((key.data, data))
            out = data
            while out:
                n = os.write(key.data, out)
                out = out[n:]
    rc = proc.wait()
    return rc, records


def store(root, key, entry, output, rc, records, deps):
    os.makedirs(root, exist_ok=True)
    tmp = tempfile.mkdtemp(prefix="tmp-", dir=root)
    try:
        shutil.copyfile(output, os.path.join(tmp, "output"))
        with open(os.path.join(tmp, "streams"), "wb") as f:
            for stream, data in records:
                f.write(bytes([stream]) + len(data).to_bytes(8, "little") + data)
        with open(os.path.join(tmp, "meta.json"), "w") as f:
            json.dump({"format": FORMAT, "rc": rc, "deps": deps}, f)
        os.makedirs(os.path.dirname(entry), exist_ok=True)
        if os.path.isdir(entry):
            shutil.rmtree(entry, ignore_errors=True)
        try:
            os.rename(tmp, entry)
            tmp = None
        except OSError:
            pass  # another run stored it first
    finally:
        if tmp:
            shutil.rmtree(tmp, ignore_errors=True)


def main():
    if len(sys.argv) < 2:
        sys.stderr.write("usage: nvcc-cache.py NVCC [ARGS...]\n")
        return 2
    nvcc, args = sys.argv[1], sys.argv[2:]
    sys.stdout.flush()
    if os.environ.get("TC_NVCC_CACHE", "1") == "0":
        os.execv(nvcc, [nvcc] + args)
    parsed = parse(args)
    if parsed is None:
        log("bypass", None, args)
        os.execv(nvcc, [nvcc] + args)
    output = parsed[1]

    root = key = entry = None
    try:
        root = cache_root()
        key = compute_key(nvcc, args, parsed)
        entry = os.path.join(root, key[:2], key)
        meta_path = os.path.join(entry, "meta.json")
        if os.path.isfile(meta_path):
            with open(meta_path) as f:
                meta = json.load(f)
            if meta.get("format") == FORMAT and deps_unchanged(meta["deps"]):
                rc = replay(entry, meta, output)
                log("hit", key, args)
                return rc
    except Exception:  # a broken cache never breaks the compile
        if key is None:
            log("bypass", None, args)
            os.execv(nvcc, [nvcc] + args)

    log("miss", key, args)
    depdir = tempfile.mkdtemp(prefix="tc-nvcc-cache-")
    try:
        depfile = os.path.join(depdir, "deps.d")
        rc, records = run_and_record([nvcc] + args + ["-MD", "-MF", depfile])
        if rc == 0 and os.path.isfile(output) and os.path.isfile(depfile):
            try:
                deps = []
                for path in parse_depfile(depfile):
                    path = os.path.abspath(path)
                    deps.append([path, file_hash(path)])
                store(root, key, entry, output, rc, records, deps)
                log("store", key, args)
            except Exception:
                pass
    finally:
        shutil.rmtree(depdir, ignore_errors=True)
    return rc if rc >= 0 else 128 - rc


if __name__ == "__main__":
    sys.exit(main())
