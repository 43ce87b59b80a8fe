"""Fails unless every samples/*.cu has a compile test test/compile/<name>.test.

Usage: check_samples_covered.py SAMPLES_DIR COMPILE_TEST_DIR
"""
import glob
import os
import sys

samples_dir, test_dir = sys.argv[1], sys.argv[2]
samples = sorted(glob.glob(os.path.join(samples_dir, "*.cu")))
if not samples:
    sys.exit("no samples found in %s" % samples_dir)
missing = [s for s in samples
           if not os.path.exists(os.path.join(
               test_dir, os.path.splitext(os.path.basename(s))[0] + ".test"))]
for s in missing:
    print("missing compile test for %s: add test/compile/%s.test (copy gemm.test)"
          % (s, os.path.splitext(os.path.basename(s))[0]))
print("%d samples, %d without a compile test" % (len(samples), len(missing)))
sys.exit(1 if missing else 0)
