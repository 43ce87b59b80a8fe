#!/usr/bin/env python3
"""Prints a greedy function template for each function the runtime headers
declare and call: `template <class... Args> int NAME(Args &&...)` whose
static_assert fails when it is instantiated.

Appended to a rewritten file (at file scope, where a user's function of that
name would be), a probe is a better match than the runtime's own function
for any call that argument-dependent lookup lets it join. The runtime's
templates are instantiated with the user's types (the epilogue functor is
declared in the user's namespace, __half and cudaStream_t in the global
one), so an unqualified call there would call the user's function; the
probe's "captured: NAME" error says which.

Usage: runtime-call-probes.py RUNTIME_HEADERS_DIR
"""
import pathlib
import re
import sys

KEYWORDS = set("""alignas alignof asm auto bool break case catch char const constexpr
const_cast continue decltype default delete do double dynamic_cast else enum explicit
extern false float for friend goto if inline int long mutable namespace new noexcept
nullptr operator private protected public register reinterpret_cast return short signed
sizeof static static_assert static_cast struct switch template this throw true try
typedef typename union unsigned using virtual void volatile while defined""".split())

# Words before a name that make it a call, not a declaration.
STATEMENT_WORDS = {"return", "else", "case", "throw", "new", "delete", "sizeof", "typename",
                   "do", "not", "and", "or", "co_return", "co_await"}

called, declared = set(), set()
for path in sorted(pathlib.Path(sys.argv[1]).rglob("*.cuh")):
    text = path.read_text()
    text = re.sub(r'//[^\n]*|/\*.*?\*/|"(?:[^"\\\n]|\\.)*"', " ", text, flags=re.S)
    text = re.sub(r"^\s*#[^\n]*", " ", text, flags=re.M)
    for m in re.finditer(r"(?<![\w:.>])([A-Za-z_]\w*)\s*(?=\()", text):
        called.add(m.group(1))
    # A declaration: a return type (a name, a template's `>`, `*` or `&`)
    # before the name.
    for m in re.finditer(r"(\b\w+|>)\s*[*&]*\s+([A-Za-z_]\w*)\s*\(", text):
        if m.group(1) not in STATEMENT_WORDS:
            declared.add(m.group(2))
# The runtime's functions are named in lower case (types, and template
# parameters used as casts, are not).
# The CUDA runtime's functions and types are the global namespace's (a
# user's overload of those is the user's): not probed.
CUDA_NAMES = re.compile(r"cuda[A-Z]\w*|\w+_t|u?(char|short|int|long|longlong|float|double)[1-4]")
names = {n for n in called & declared
         if n not in KEYWORDS and re.match(r"[a-z]", n) and not CUDA_NAMES.fullmatch(n)}
for n in sorted(names):
    print(f"template <class... Args> __host__ __device__ int {n}(Args &&...) "
          f'{{ static_assert(sizeof...(Args) == 12345, "captured: {n}"); return 0; }}')
