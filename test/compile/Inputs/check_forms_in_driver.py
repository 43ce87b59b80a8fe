"""Fails unless the forms driver's summary (test/gpu/forms_correctness.cu
output) lists exactly the functions of samples/forms/*.cu, so a form added to
the samples without a descriptor in the driver (or the reverse) is noticed.

Usage: check_forms_in_driver.py FORMS_DIR DRIVER_OUTPUT
"""
import glob
import os
import re
import sys

forms_dir, output = sys.argv[1], sys.argv[2]
samples = set()
for path in glob.glob(os.path.join(forms_dir, "*.cu")):
    with open(path) as f:
        samples.update(re.findall(r"^void (\w+)\(", f.read(), re.M))
with open(output) as f:
    text = f.read()
summary = text[text.index("== summary =="):].splitlines()[2:]
driver = set()
for line in summary:
    if not line.strip():
        break
    driver.add(line.split()[0])
for name in sorted(samples - driver):
    print("samples/forms function %s has no descriptor in test/gpu/forms_correctness.cu" % name)
for name in sorted(driver - samples):
    print("driver function %s is not in samples/forms" % name)
print("%d sample functions, %d in the driver" % (len(samples), len(driver)))
sys.exit(0 if samples == driver else 1)
