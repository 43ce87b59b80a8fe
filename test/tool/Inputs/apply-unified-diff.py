"""Apply a unified diff (one file) to a file, checking every context and
removed line; fails on any mismatch. (`patch` is not always installed.)

Usage: apply-unified-diff.py FILE DIFF
"""
import re
import sys

path, diff_path = sys.argv[1], sys.argv[2]
with open(path, newline="") as f:
    old = f.read().splitlines(keepends=True)
with open(diff_path, newline="") as f:
    diff = f.read().splitlines(keepends=True)

out = []
pos = 0  # next line of `old` to copy
i = 0
while i < len(diff) and not diff[i].startswith("@@"):
    i += 1
while i < len(diff):
    m = re.match(r"@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@", diff[i])
    if not m:
        sys.exit("bad hunk header: %r" % diff[i])
    start, count = int(m.group(1)), int(m.group(2) or 1)
    first = start - 1 if count else start
    out.extend(old[pos:first])
    pos = first
    i += 1
    while i < len(diff) and not diff[i].startswith("@@"):
        line = diff[i]
        text = line[1:]
        if i + 1 < len(diff) and diff[i + 1].startswith("\\ No newline"):
            text = text.rstrip("\n")
        if line[0] in " -":
            if pos >= len(old) or old[pos] != text:
                sys.exit("mismatch at line %d: %r != %r"
                         % (pos + 1, old[pos] if pos < len(old) else None, text))
            pos += 1
        if line[0] in " +":
            out.append(text)
        if line[0] not in " -+\\":
            sys.exit("bad diff line: %r" % line)
        i += 1
        if i < len(diff) and diff[i].startswith("\\"):
            i += 1
out.extend(old[pos:])
with open(path, "w", newline="") as f:
    f.write("".join(out))
