"""Run a command and check its exit status.

Usage: exit-status.py STATUS COMMAND [ARG...]

The command's stdout and stderr pass through unchanged. Exits 0 when the
command exited with STATUS, 1 otherwise (lit's `not` only tells zero from
non-zero; tc-rewrite's statuses 1 and 2 mean different things).
"""
import subprocess
import sys

want = int(sys.argv[1])
got = subprocess.call(sys.argv[2:])
if got != want:
    sys.stderr.write("exit-status.py: %s exited with %d, expected %d\n"
                     % (sys.argv[2], got, want))
    sys.exit(1)
