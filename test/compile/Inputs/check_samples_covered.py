"""Fails unless every bundled sample has a compile test: samples/<path>.cu
(any depth, e.g. samples/forms/types.cu) needs test/compile/<path>.test
(test/compile/forms/types.test). A directory with its own CMakeLists.txt
(e.g. samples/cmake-project) is a self-contained project with its own test,
not a group of samples, and is skipped.

Usage: check_samples_covered.py SAMPLES_DIR COMPILE_TEST_DIR
"""
import os
import sys

samples_dir, test_dir = sys.argv[1], sys.argv[2]
samples = []
for root, dirs, files in os.walk(samples_dir):
    if root != samples_dir and "CMakeLists.txt" in files:
        dirs[:] = []
        continue
    samples += [os.path.join(root, f) for f in files if f.endswith(".cu")]
samples.sort()
if not samples:
    sys.exit("no samples found in %s" % samples_dir)
missing = []
for s in samples:
    rel = os.path.splitext(os.path.relpath(s, samples_dir))[0]
    if not os.path.exists(os.path.join(test_dir, rel + ".test")):
        missing.append(rel)
for rel in missing:
    print("missing compile test for samples/%s.cu: add test/compile/%s.test "
          "(copy gemm.test)" % (rel, rel))
print("%d samples, %d without a compile test" % (len(samples), len(missing)))
sys.exit(1 if missing else 0)
