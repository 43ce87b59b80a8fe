"""Fails when the clang-tidy module needs a clang-tidy symbol that the
clang-tidy executable does not export (dlopen binds lazily: such a symbol
would crash clang-tidy only when first called). See clang-tidy/CMakeLists.txt.

Usage: check-module-symbols.py LLVM_NM MODULE CLANG_TIDY
"""
import subprocess
import sys

nm, module, tidy = sys.argv[1:4]


def symbols(path, *flags):
    out = subprocess.run([nm, "-D", "--format=just-symbols", *flags, path],
                         check=True, capture_output=True, text=True).stdout
    return {line.split("@")[0] for line in out.split()}


needed = {s for s in symbols(module, "--undefined-only")
          if "5clang4tidy" in s or "ClangTidy" in s}
exported = symbols(tidy, "--defined-only")
missing = sorted(needed - exported)
for s in missing:
    print("not exported by clang-tidy: " + s)
print("%d clang-tidy symbols needed, %d missing" % (len(needed), len(missing)))
sys.exit(1 if missing or not needed else 0)
