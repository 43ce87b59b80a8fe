"""Random `#pragma tc` regions for the differential fuzzer (test/fuzz/fuzz.py).

A case is a *spec*: a JSON-serialisable dict of choices (names, types, loop
order, layouts, init form, epilogue tree, clauses, ...). `render(spec)` turns
it into one .cu file holding one function with one region, plus the metadata
the GPU stage needs to call it (parameters, array extents as expressions of
the sizes, which arrays are outputs). Because cases are specs, the shrinker
simplifies a spec (drop the epilogue, default one name, ...) and renders it
again, instead of editing C++ text.

Everything is drawn from one `random.Random(seed)` per case, derived from the
run's seed and the case's index, so `--seed S` reproduces a run and a single
case can be regenerated from (S, index) alone.
"""

import copy
import json
import random
import re

# --- Identifier pools ---------------------------------------------------------

# Roles every spec may name. The default spelling of each, as the samples
# write it.
DEFAULT_NAMES = {
    # sizes
    "M": "M", "N": "N", "K": "K", "K2": "K2", "BATCH": "BATCH",
    # leading dimensions
    "lda": "lda", "ldb": "ldb", "ldc": "ldc",
    # iterators (k2: the second product's reduction; j2: polybench's init loop)
    "i": "i", "j": "j", "k": "k", "k2": "k", "b": "b", "j2": "j", "i2": "i",
    # arrays
    "A": "A", "B": "B", "C": "C", "A2": "A2", "B2": "B2", "bias": "bias",
    "R": "R", "D": "D", "X": "X", "T": "T", "zero": "zero", "scale": "scale",
    "T1": "T1", "T2": "T2",
    # scalars
    "alpha": "alpha", "beta": "beta", "lo": "lo", "hi": "hi", "slope": "slope",
    "zp": "zero_point", "step": "step", "s": "s",
    # locals
    "acc": "acc", "v": "v", "r": "r", "a": "a",
    # static shapes: namespace and constexpr row lengths
    "ns": "fzc", "cM": "kM", "cN": "kN", "cK": "kK",
}

# Names the tool itself emits into the kernel, the launcher or the region's
# replacement (codegen/, rewrite/,
# runtime_headers/tc/), and CUDA names a kernel relies on.
EMITTED_NAMES = [
    "tc_smem", "tc_acc", "tc_stage", "tc_thread", "tc_k_begin", "tc_k_end",
    "tc_grid", "tc_stream", "tc_k_origin", "tc_splits", "tc_workspace",
    "tc_counters", "tc_schedule", "tc_block_m", "tc_block_n", "tc_warp_m",
    "tc_warp_n", "tc_warp_k", "tc_m", "tc_n", "tc_n0", "tc_i", "tc_v", "tc_x",
    "tc_row", "tc_sum", "tc_sums", "tc_full", "tc_empty", "tc_frag_a",
    "tc_frag_b", "tc_copy_a", "tc_copy_b", "tc_desc_a", "tc_desc_b",
    "tc_map_a", "tc_map_b", "tc_mode", "tc_tiles", "tc_part", "tc_unit",
    "tc_warpgroup", "tc_smem_bytes", "tc_lanes_0", "tc_batch", "tc_value",
    "tc_split_tiles", "tc_reduce_grid", "tc_k_tiles", "tc_flag", "tc_s",
    "tc_smem_a", "tc_smem_b", "tc_temp_0", "tc_result_0",
    "c0", "c1", "c2", "c3", "tc", "kCopyMode", "threadIdx", "blockIdx",
    "blockDim", "gridDim", "make_float2", "CUtensorMap",
    "TileSchedule", "OperandCopier", "kWholeChunks", "kPartialChunks",
    "kElementwise", "uint32_t", "uint64_t", "float2", "dim3",
    # the kernels of the sm_90 components (codegen/ComponentKernel.cpp):
    # the epilogue functor's methods and parameters, the launcher's alias,
    # and the components' names that the launcher qualifies
    "row", "tc_mainloop", "tc_j0", "tc_h", "tc_epilogue", "sm90", "Major",
    "MN", "OperandTile", "TmaWgmmaMainloop", "launch_gemm", "gemm_kernel",
]

# isl's keywords (isl_stream.c check_keywords: matched case-insensitively),
# in spellings that are C++ identifiers (`and`, `or`, `not`, `true`, `false`
# are C++ keywords in lower case).
ISL_KEYWORDS = [
    "min", "max", "exists", "implies", "infty", "infinity", "rat", "ceild",
    "floord", "mod", "ceil", "floor", "NaN", "Min", "MAX", "Exists", "And",
    "AND", "Or", "OR", "Not", "NOT", "True", "TRUE", "False", "FALSE", "Rat",
    "Infty", "Mod", "Floord", "Ceild", "Floor", "Implies", "Infinity", "nan",
]

# Names the tool uses inside the isl strings it builds (set dimensions, tuple
# names, statement names S0, S1, ...) and the GEMM's own names in any case.
ISL_INTERNAL = [
    "m", "n", "k", "M", "N", "K", "t", "kk", "mt", "nt", "r", "c", "bm", "bn",
    "z", "buf", "grow", "gcol", "np", "ml", "nl", "P", "S0", "S1", "S2", "S3",
    "Mma", "LoadA", "LoadB", "Store", "StagedStore", "CopyA", "CopyB",
    "SetupA", "SetupB", "Wgmma", "Commit", "Wait", "Release", "FullWait",
    "EmptyWait", "Arrive", "ConvertStage", "PartialAdd", "Drain", "Split",
    "MmaWait", "LoadRawB", "i", "j", "b", "stage", "tile", "select", "x0", "x1", "x2", "x3", "i0", "i1",
    "o0", "s", "row", "column", "warp", "lane", "batch",
]

ORDINARY = [
    "rows", "cols", "depth", "m_dim", "Mdim", "n_", "K_", "num", "len", "cnt",
    "ii", "jj", "row", "col", "p", "q", "u", "w", "x", "y", "h", "e", "l",
    "idx", "red", "lane", "out", "in_", "lhs", "rhs", "wt", "act", "res",
    "sum", "total", "acc2", "val", "tmp", "A1", "x2", "Y", "W", "Z", "G",
    "bias0", "gamma", "delta", "eps", "alpha2",
    "a_very_long_identifier_name_that_goes_on_and_on_for_quite_a_while_x",
]

COLLISIONS = EMITTED_NAMES + ISL_KEYWORDS + ISL_INTERNAL

# Per kind of role, the collisions most likely to matter (half of the
# collisions come from these; known bugs of issue 46 among them).
SIZE_ROLES = {"M", "N", "K", "K2", "BATCH", "lda", "ldb", "ldc", "cM", "cN", "cK"}
ITER_ROLES = {"i", "j", "k", "k2", "b", "j2", "i2"}
ARRAY_ROLES = {"A", "B", "C", "A2", "B2", "bias", "R", "D", "X", "T", "zero", "scale"}
HOT = {
    "size": ["MN", "sm90", "m", "n", "k", "t", "kk", "mt", "nt", "c0", "c1", "tc_k_begin", "tc_k_end", "tc_k_origin",
             "tc_splits", "tc_batch", "tc_m", "tc_n", "min", "max", "floord", "mod", "tc", "bm", "bn", "r", "c",
             "x0", "x1", "x2", "i0", "i1", "z", "np"],
    "iter": ["min", "max", "floord", "mod", "exists", "ceild", "infty", "NaN", "Min", "MAX", "c0", "c1",
             "tc_m", "tc_n", "tc_i", "m", "n", "t", "kk", "S0", "tc_thread", "tc_k_begin"],
    "array": ["row", "Major", "tc_mainloop", "tc_smem", "tc_acc", "tc_stage", "tc_thread", "tc_frag_a", "tc_frag_b", "tc_copy_a",
              "tc_map_a", "tc_workspace", "tc_sums", "tc_full", "tc_empty", "Mma", "LoadA", "Store", "S0",
              "S1", "c0", "min", "max", "threadIdx", "tc_desc_a", "tc_lanes_0", "tc_temp_0", "tc_result_0"],
    "other": ["tc_v", "tc_x", "tc_value", "tc_acc", "tc_sum", "tc_thread", "c0", "min", "max",
              "tc_lanes_0", "tc_stream", "tc_grid", "tc", "kCopyMode", "blockIdx"],
}


def _role_kind(role):
    if role in SIZE_ROLES:
        return "size"
    if role in ITER_ROLES:
        return "iter"
    if role in ARRAY_ROLES:
        return "array"
    return "other"

# Identifiers a case may never use for a role: C++ keywords and alternative
# tokens, macros of the headers, and names the generated code calls or
# spells as types (checked again after rendering, see _conflicts()).
NEVER = set("""
and or not xor bitand bitor compl and_eq or_eq xor_eq not_eq true false
int long short unsigned signed char float double void bool auto const
static for while do if else return break continue goto switch case default
new delete this operator template typename class struct union enum namespace
using sizeof alignof decltype nullptr constexpr volatile register extern
inline friend virtual public private protected try catch throw typedef
NAN INFINITY HUGE_VAL EOF NULL assert errno std
""".split())

# Functions and built-in variables CUDA declares at global scope: a
# file-scope namespace of the same name does not compile, whatever the tool
# does.
CUDA_GLOBAL_NAMES = set("""
min max umin umax llmin llmax ullmin ullmax abs labs llabs fabs floor ceil
exp log pow sqrt sin cos tan round trunc fmin fmax fma rint signbit
acos asin atan atan2 cosh sinh tanh acosh asinh atanh exp2 exp10 expm1 log10
log1p log2 logb ilogb cbrt hypot erf erfc erfinv lgamma tgamma gamma j0 j1 jn
y0 y1 yn nearbyint lrint llrint lround llround fmod remainder remquo copysign
nan nextafter fdim scalbn scalbln ldexp frexp modf isnan isinf isfinite
blockIdx threadIdx blockDim gridDim warpSize
""".split())

# --- Small helpers -------------------------------------------------------------

ITER_TYPES = ["int", "long", "size_t", "unsigned", "int64_t", "long long"]
SIZE_TYPES = ["int", "long", "size_t", "unsigned", "int64_t"]
ORDERS_K_INNER = ["ijk", "jik"]
ORDERS_K_OUTER = ["ikj", "jki", "kij", "kji"]

IN_PLACE_INITS = ("stmt0", "inplace", "beta", "inplace_assign_sum", "polybench", "kouter_block")
ELEM_CT = {"half": "__half", "bf16": "__nv_bfloat16", "tf32": "float"}
OUT_CT = {"float": "float", "half": "__half", "bf16": "__nv_bfloat16"}


def _weighted(rng, pairs):
    total = sum(w for _, w in pairs)
    x = rng.random() * total
    for v, w in pairs:
        x -= w
        if x < 0:
            return v
    return pairs[-1][0]


# --- Epilogue expression trees ------------------------------------------------
# A tree is a nested list: ["x"] (the value so far), ["lit", "0.5f"],
# ["scal", role], ["bias", "i"|"j"], ["res"], ["call", fn, [args]],
# ["bin", op, l, r], ["neg", e], ["cond", cmp, l, r, then, else].

ACTIVATIONS = {
    # name: (tree over ["x"], needs roles, approx)
    "relu": (["call", "fmaxf", [["x"], ["lit", "0.0f"]]], [], False),
    "relu_ternary": (["cond", ">", ["x"], ["lit", "0.0f"], ["x"], ["lit", "0.0f"]], [], False),
    "relu6": (["call", "fminf", [["call", "fmaxf", [["x"], ["lit", "0.0f"]]], ["lit", "6.0f"]]], [], False),
    "clamp": (["call", "fminf", [["call", "fmaxf", [["x"], ["scal", "lo"]]], ["scal", "hi"]]], ["lo", "hi"], False),
    "leaky": (["cond", ">", ["x"], ["lit", "0.0f"], ["x"], ["bin", "*", ["lit", "0.125f"], ["x"]]], [], False),
    "leaky_slope": (["cond", ">", ["x"], ["lit", "0.0f"], ["x"], ["bin", "*", ["scal", "slope"], ["x"]]], ["slope"], False),
    "sigmoid": (["bin", "/", ["lit", "1.0f"], ["bin", "+", ["lit", "1.0f"], ["call", "expf", [["neg", ["x"]]]]]], [], True),
    "tanh": (["call", "tanhf", [["x"]]], [], True),
    "gelu_erf": (["bin", "*", ["bin", "*", ["lit", "0.5f"], ["x"]],
                  ["bin", "+", ["lit", "1.0f"], ["call", "erff", [["bin", "*", ["x"], ["lit", "0.70710678f"]]]]]], [], True),
    "gelu_tanh": (["bin", "*", ["bin", "*", ["lit", "0.5f"], ["x"]],
                   ["bin", "+", ["lit", "1.0f"],
                    ["call", "tanhf", [["bin", "*", ["lit", "0.7978845608f"],
                                       ["bin", "+", ["x"],
                                        ["bin", "*", ["lit", "0.044715f"],
                                         ["bin", "*", ["x"], ["bin", "*", ["x"], ["x"]]]]]]]]]], [], True),
    "silu": (["bin", "/", ["x"], ["bin", "+", ["lit", "1.0f"], ["call", "expf", [["neg", ["x"]]]]]], [], True),
    "abs": (["call", "fabsf", [["x"]]], [], False),
    "std_max": (["call", "std::max", [["x"], ["lit", "0.0f"]]], [], False),
    "std_min": (["call", "std::min", [["x"], ["lit", "4.0f"]]], [], False),
}

UNARY_FNS = [("fabsf", False), ("tanhf", True), ("erff", True), ("sinf", True),
             ("cosf", True), ("atanf", True), ("floorf", False), ("ceilf", False),
             ("truncf", False), ("rintf", False)]
BINARY_FNS = [("fmaxf", False), ("fminf", False), ("copysignf", False), ("fdimf", False)]
LITS = ["0.0f", "0.5f", "1.0f", "2.0f", "0.25f", "-1.5f", "6.0f", "3.0f"]


def random_tree(rng, depth, leaves):
    """A random pointwise expression over ["x"] and the given extra leaves."""
    if depth <= 0 or rng.random() < 0.3:
        r = rng.random()
        if r < 0.6 or not leaves:
            return ["x"]
        if r < 0.8:
            return ["lit", rng.choice(LITS)]
        return copy.deepcopy(rng.choice(leaves))
    r = rng.random()
    if r < 0.3:
        fn, _ = rng.choice(UNARY_FNS)
        return ["call", fn, [random_tree(rng, depth - 1, leaves)]]
    if r < 0.5:
        fn, _ = rng.choice(BINARY_FNS)
        return ["call", fn, [random_tree(rng, depth - 1, leaves), random_tree(rng, depth - 1, leaves)]]
    if r < 0.6:
        return ["call", "fmaf", [random_tree(rng, depth - 1, leaves), ["lit", rng.choice(LITS)],
                                 random_tree(rng, depth - 1, leaves)]]
    if r < 0.7:
        return ["cond", rng.choice([">", "<"]), random_tree(rng, depth - 1, leaves), ["lit", "0.0f"],
                random_tree(rng, depth - 1, leaves), random_tree(rng, depth - 1, leaves)]
    if r < 0.75:
        return ["neg", random_tree(rng, depth - 1, leaves)]
    return ["bin", rng.choice(["+", "-", "*"]), random_tree(rng, depth - 1, leaves),
            random_tree(rng, depth - 1, leaves)]


def tree_is_approx(t):
    if t[0] == "call":
        approx = {f for f, a in UNARY_FNS + BINARY_FNS if a} | {"expf", "tanhf", "erff"}
        return t[1] in approx or any(tree_is_approx(a) for a in t[2])
    if t[0] == "bin":
        return t[1] == "/" or tree_is_approx(t[2]) or tree_is_approx(t[3])
    if t[0] == "neg":
        return tree_is_approx(t[1])
    if t[0] == "cond":
        return any(tree_is_approx(a) for a in t[2:])
    return False


def tree_roles(t, out=None):
    out = set() if out is None else out
    if t[0] == "scal":
        out.add(t[1])
    elif t[0] == "bias":
        out.add("bias")
    elif t[0] == "res":
        out.add("R")
    elif t[0] == "call":
        for a in t[2]:
            tree_roles(a, out)
    elif t[0] == "bin":
        tree_roles(t[2], out)
        tree_roles(t[3], out)
    elif t[0] == "neg":
        tree_roles(t[1], out)
    elif t[0] == "cond":
        for a in t[2:]:
            tree_roles(a, out)
    return out


def tree_uses_std(t):
    return '"std::' in json.dumps(t)


# --- Unsupported regions ------------------------------------------------------
# name: (expected diagnostic substring, spec overrides applied to a plain GEMM)
UNSUPPORTED = {
    "printf": "expression statement without an assignment",
    "user_call": "may have side effects",
    "div_subscript": "non-affine operator '/' in a subscript or loop bound",
    "mod_subscript": "non-affine operator '%' in a subscript or loop bound",
    "shift_bound": "non-affine operator '>>' in a subscript or loop bound",
    "square_subscript": "cannot delinearise the subscript",
    "indirect": "indirect access: a subscript or bound reads memory",
    "break": "early exit from a '#pragma tc' region",
    "return": "early exit from a '#pragma tc' region",
    "while": "control flow other than counted 'for' loops",
    "mixed_types": "have different element types",
    "int_operands": "has element type 'int'",
    "double_operands": "has element type 'double'",
    "fp32_no_tf32": "is fp32",
    "int_acc": "has type 'int'",
    "temp_readonly": "the region only reads",
    "temp_unknown": "is not an array the region accesses",
    "temp_all": "every array the region writes is named in temp(...)",
    "unknown_clause": "unknown clause",
    "stages_1": "stages must be between 2 and",
    "tile_not_pow2": "block tile sizes must be powers of two",
    "tile_bk": "the block tile's K size must be 16, 32, 64 or 128",
    "writes_operand": "the region writes operand",
    "side_effect": "side effect inside an expression",
    "inc_subscript": "",   # k++ in a subscript: any located diagnostic
    "no_matmul": "no matrix multiplication found in the region",
    "cross_element": "a dependence crosses output elements",
    "acc_in_product": "the accumulator is read inside its own product",
    "not_a_loop": "must precede a 'for' loop nest",
    "nonzero_lb": "",      # k from 1: any located diagnostic (or a rewrite: either)
}
UNSUPPORTED_EITHER = {"nonzero_lb"}


# --- Spec generation -----------------------------------------------------------

def _roles_of(spec):
    """The roles a spec's rendering names (so only those get spellings)."""
    r = {"i", "j", "k", "A", "B", "C"}
    kind = spec["kind"]
    static = spec.get("static") or {}
    for d in "MNK":
        if d not in static:
            r.add(d)
        else:
            r.update({"ns", "c" + d})
    if spec.get("batch"):
        r.update({"b", "BATCH"})
    if spec.get("ld"):
        r.update({"lda", "ldb", "ldc"})
    init = spec["init"]
    if init in ("acc0", "accC", "acc_assign_sum", "alphabeta_store"):
        r.add("acc")
    if spec.get("alpha"):
        r.add("alpha")
    if init in ("beta", "alphabeta_store", "polybench"):
        r.add("beta")
        if init != "alphabeta_store":
            r.add("alpha")
    if init == "polybench":
        r.add("j2")
    if kind == "sum":
        r.update({"K2", "k2", "A2", "B2"})
    epi = spec.get("epi")
    if epi:
        if epi.get("bias"):
            r.add("bias")
        if epi.get("res"):
            r.add("R")
        if epi.get("style") in ("local", "reassign", "if", "if_else"):
            r.add("v")
        if epi.get("style") == "if_else":
            r.add("r")
        if epi.get("tree"):
            r |= tree_roles(epi["tree"])
    if spec.get("out2"):
        r.add("D")
        if spec["out2"].get("tree"):
            r |= tree_roles(spec["out2"]["tree"])
    if spec.get("axpby"):
        r.update({"X", "alpha", "beta"})
    if spec.get("temp"):
        r.add("T")
    if spec.get("sum_nests"):
        r.update({"T1", "T2"})
    if spec.get("separate_epi"):
        r.update({"D", "i2"})
    pro = spec.get("prologue")
    if pro and pro.get("style") in ("local_if", "local_cond"):
        r.add("a")
    if pro and pro["fn"] == "clamp_scalar":
        r.update({"lo", "hi"})
    q = spec.get("quant")
    if q:
        if q.get("zero") in ("col", "row", "group"):
            r.add("zero")
        if q.get("zero") == "scalar":
            r.add("zp")
        if q.get("scale") in ("col", "sum_col", "group"):
            r.add("scale")
        if q.get("scale") == "scalar":
            r.add("step")
    if spec.get("stream"):
        r.add("s")
    u = spec.get("unsupported")
    if u in ("temp_readonly", "temp_unknown", "temp_all"):
        r.add("T") if u != "temp_readonly" else None
    return r


def pick_names(rng, roles, collision_rate=0.5):
    """Spellings for the roles: mostly the defaults, some ordinary
    alternatives, and deliberate collisions with the tool's and isl's names."""
    names = {}
    n_coll = 0
    if rng.random() < collision_rate:
        n_coll = 1 if rng.random() < 0.75 else rng.randint(2, 4)
    roles = sorted(roles)
    coll_roles = set(rng.sample(roles, min(n_coll, len(roles))))
    twist = rng.random()
    for role in roles:
        d = DEFAULT_NAMES[role]
        if role in coll_roles:
            pool = HOT[_role_kind(role)] if rng.random() < 0.5 else COLLISIONS
            names[role] = rng.choice(pool)
        elif rng.random() < 0.12:
            names[role] = rng.choice(ORDINARY)
        else:
            names[role] = d
    if names.get("ns") in CUDA_GLOBAL_NAMES:
        # A namespace beside CUDA's global min(), math.h's gamma() or
        # blockIdx is not valid CUDA at all (s4603_0218, s5402_0012,
        # s5401_1644): the case would test the compiler, not the tool.
        names["ns"] = DEFAULT_NAMES["ns"]
    if names.get("ns") == "tc":
        # A file's own namespace tc is an error at the namespace by design
        # (README, "Names"; s6602_0005): not a name the region may take.
        names["ns"] = DEFAULT_NAMES["ns"]
    if twist < 0.06:
        # sizes in lower case, iterators in upper case (m/n/k vs I/J/K)
        for role, sp in (("M", "m"), ("N", "n"), ("K", "k"), ("i", "I"), ("j", "J"), ("k", "K")):
            if role in names:
                names[role] = sp
    elif twist < 0.10:
        # sizes named like each other's iterators
        for role, sp in (("M", "j"), ("N", "i"), ("K", "kk"), ("i", "M"), ("j", "N"), ("k", "K")):
            if role in names:
                names[role] = sp
    return names


def _fix_names(spec, rng):
    """Make spellings distinct (k2 may equal k, j2 j, i2 i) and keep them off
    the identifiers the rendering uses otherwise."""
    names = spec["names"]
    shared_ok = {("k2", "k"), ("j2", "j"), ("i2", "i")}
    for _ in range(50):
        used_other = _conflicts(spec)
        seen = {}
        bad = None
        for role in sorted(names):
            sp = names[role]
            if sp in NEVER or sp in used_other or sp == spec["func"]:
                bad = role
                break
            if sp in seen and (role, seen[sp]) not in shared_ok and (seen[sp], role) not in shared_ok:
                bad = role
                break
            seen.setdefault(sp, role)
        if bad is None:
            return
        # fall back to an unused ordinary-looking spelling
        cand = DEFAULT_NAMES[bad]
        taken = set(names.values()) | used_other | NEVER
        if cand in taken:
            cand = rng.choice(ORDINARY)
        while cand in taken:
            cand = cand + "_"
        names[bad] = cand
    raise RuntimeError("cannot make names distinct: %r" % names)


def _conflicts(spec):
    """Identifiers the rendered function uses that are not its roles' names
    (functions, types): a role spelled like one of them would change the
    program (or make it invalid)."""
    text = render(spec, check=False)["source"]
    idents = set(re.findall(r"\b[A-Za-z_][A-Za-z0-9_]*\b", text))
    role_names = set(spec["names"].values())
    # identifiers that only appear as role names are fine
    return {x for x in idents if x not in role_names} | _TYPES_AND_FUNCS


_TYPES_AND_FUNCS = set("""
__half __nv_bfloat16 __half2float __bfloat162float __float2half __float2half_rn
__float2bfloat16 __float2bfloat16_rn float static_cast int8_t uint8_t int64_t
size_t cudaStream_t fmaxf fminf expf tanhf erff fabsf fmaf copysignf fdimf
sinf cosf atanf floorf ceilf truncf rintf std printf fz_weight fz_idx fz_count
""".split())


def gen_spec(rng, case_id, func, unsupported_rate=0.15, collision_rate=0.5):
    """One random spec."""
    spec = {"id": case_id, "func": func, "kind": "gemm"}
    r = rng.random()
    if r < unsupported_rate:
        spec["unsupported"] = rng.choice(sorted(UNSUPPORTED))
    kind_r = rng.random()
    if "unsupported" in spec:
        spec["kind"] = "gemm"
    elif kind_r < 0.08:
        spec["kind"] = "sum"
    elif kind_r < 0.13:
        spec["kind"] = "quant"
    elif kind_r < 0.17:
        spec["kind"] = "polybench"
    elif kind_r < 0.21:
        spec["kind"] = "kouter_block"
    kind = spec["kind"]

    # element and output types
    if kind == "quant":
        spec["elem"] = rng.choice(["half", "bf16"])
    else:
        spec["elem"] = _weighted(rng, [("half", 6), ("bf16", 3), ("tf32", 1.5)])
    spec["out"] = _weighted(rng, [("float", 4), ("half", 3), ("bf16", 2)])
    spec["conv_a"] = _weighted(rng, [("fn", 5), ("cast", 2), ("static_cast", 1), ("functional", 1)])
    spec["conv_b"] = _weighted(rng, [("fn", 5), ("cast", 2), ("static_cast", 1), ("functional", 1)])
    if spec["elem"] == "tf32":
        spec["conv_a"] = rng.choice(["none", "none", "cast"])
        spec["conv_b"] = rng.choice(["none", "none", "cast"])
    spec["store_conv"] = _weighted(rng, [("fn", 5), ("fn_rn", 1), ("cast", 1), ("static_cast", 1), ("implicit", 1.5)])

    # iterators, sizes, bounds, increments
    spec["it_type"] = {}
    spec["size_type"] = {}
    spec["bound"] = {}
    spec["inc"] = {}
    base_it = _weighted(rng, [("int", 6)] + [(t, 1) for t in ITER_TYPES[1:]])
    base_sz = _weighted(rng, [("int", 6)] + [(t, 1) for t in SIZE_TYPES[1:]])
    mixed = rng.random() < 0.15
    for role in ("i", "j", "k", "k2", "b", "j2", "i2"):
        spec["it_type"][role] = rng.choice(ITER_TYPES) if mixed else base_it
        spec["bound"][role] = _weighted(rng, [("lt", 5), ("le", 1.5)])
        spec["inc"][role] = _weighted(rng, [("pre", 4), ("post", 2), ("pluseq", 1)])
    for role in ("M", "N", "K", "K2", "BATCH", "lda", "ldb", "ldc"):
        spec["size_type"][role] = rng.choice(SIZE_TYPES) if mixed else base_sz
    # unsigned iterators against signed sizes: `i <= M - 1` is fine for
    # sizes >= 1, which the GPU stage keeps to.

    # layouts, leading dimensions, static shapes
    spec["a_major"] = rng.choice(["row", "col"])
    spec["b_major"] = rng.choice(["row", "col"])
    spec["c_major"] = _weighted(rng, [("row", 4), ("col", 1)])
    spec["ld"] = rng.random() < 0.2
    spec["static"] = None
    spec["batch"] = None
    if kind == "gemm" and not spec["ld"] and rng.random() < 0.12:
        # constexpr row lengths: the dimensions that are some array's row
        dims = set()
        dims.add("K" if spec["a_major"] == "row" else "M")
        dims.add("N" if spec["b_major"] == "row" else "K")
        dims.add("N" if spec["c_major"] == "row" else "M")
        if rng.random() < 0.3:
            dims = {"M", "N", "K"}
        spec["static"] = {d: rng.choice([16, 24, 37, 45, 64, 80, 128, 96, 8, 1, 200])
                          for d in sorted(dims)}
    elif kind in ("gemm", "quant") and rng.random() < 0.12:
        spec["batch"] = rng.choice(["outer", "outer", "inner"])
        # One operand shared by every batch (a layer's weights): batch
        # stride 0 (model/MatmulIdiom.cpp).
        if kind == "gemm" and rng.random() < 0.3:
            spec["batch_shared"] = rng.choice(["A", "B"])

    # loop order and init form
    spec["order"] = "ijk"
    if kind in ("gemm",):
        if rng.random() < 0.3:
            spec["order"] = rng.choice(ORDERS_K_OUTER)
        elif rng.random() < 0.3:
            spec["order"] = "jik"
    if kind == "polybench":
        spec["order"] = "ikj"
    if kind == "kouter_block":
        spec["order"] = rng.choice(["kij", "kji"])
    if spec["order"] in ORDERS_K_OUTER and kind == "gemm":
        spec["init"] = rng.choice(["inplace", "inplace", "inplace_assign_sum"])
    elif kind == "polybench":
        spec["init"] = "polybench"
    elif kind == "kouter_block":
        spec["init"] = "kouter_block"
    elif kind in ("sum", "quant"):
        spec["init"] = "acc0"
    else:
        spec["init"] = _weighted(rng, [("acc0", 6), ("stmt0", 1.5), ("inplace", 1), ("beta", 1),
                                       ("alphabeta_store", 1), ("accC", 1), ("acc_assign_sum", 1),
                                       ("inplace_assign_sum", 0.5)])
    if spec["init"] in IN_PLACE_INITS:
        # accumulating into a 16-bit output rounds every step (the tool
        # rejects it: the product is converted before the sum)
        spec["out"] = "float"
    if spec["batch"] == "inner" and spec["order"] in ORDERS_K_OUTER:
        spec["batch"] = "outer"
    spec["alpha"] = None
    if spec["init"] in ("acc0", "accC", "acc_assign_sum", "inplace", "stmt0", "kouter_block") and rng.random() < 0.2:
        spec["alpha"] = rng.choice(["product", "store"]) if spec["init"] in ("acc0", "accC") else "product"
    if kind == "polybench":
        spec["polybench_same_j"] = rng.random() < 0.7

    # epilogue
    spec["epi"] = None
    spec["out2"] = None
    spec["temp"] = False
    spec["axpby"] = False
    spec["separate_epi"] = False
    acc_forms = ("acc0", "accC", "acc_assign_sum", "alphabeta_store")
    if spec["init"] in acc_forms and kind != "polybench" and rng.random() < 0.55:
        epi = {"bias": None, "res": None, "tree": None, "style": "inline"}
        if rng.random() < 0.5:
            epi["bias"] = rng.choice(["i", "j", "j"])
            epi["bias_type"] = rng.choice(["float", "float", "half"]) if spec["elem"] != "bf16" else "float"
        if rng.random() < 0.15:
            epi["res"] = rng.choice(["before", "after"])
        if rng.random() < 0.75:
            if rng.random() < 0.6:
                act = rng.choice(sorted(ACTIVATIONS))
                epi["tree"] = copy.deepcopy(ACTIVATIONS[act][0])
                epi["act"] = act
            else:
                # One bias array, indexed by the row or the column like
                # epi["bias"], so that its extent is known.
                which = epi["bias"] or rng.choice(["i", "j"])
                epi["bias_leaf"] = which
                leaves = [["scal", "slope"], ["bias", which], ["lit", "1.0f"]]
                epi["tree"] = random_tree(rng, rng.randint(1, 3), leaves)
                if '["x"]' not in json.dumps(epi["tree"]):
                    # a value that ignores the matmul leaves it dead
                    epi["tree"] = ["bin", "+", epi["tree"], ["x"]]
        epi["style"] = _weighted(rng, [("inline", 4), ("local", 2), ("reassign", 1.5),
                                       ("if", 1), ("if_else", 0.7), ("acc_update", 0.7)])
        if epi["style"] in ("if", "if_else"):
            epi["tree"] = None
            epi["act"] = {"if": rng.choice(["relu_if", "relu6_if"]), "if_else": "leaky_if"}[epi["style"]]
        if spec["init"] == "alphabeta_store" and epi["style"] == "acc_update":
            epi["style"] = "local"
        spec["epi"] = epi
        if kind == "gemm" and rng.random() < 0.15 and spec["init"] != "alphabeta_store":
            # (not after alpha * acc + beta * C: a local reading C used after
            # C's store is rejected, README "What a region may contain")
            spec["out2"] = {"out": rng.choice(["float", "half", "bf16"]),
                            "tree": copy.deepcopy(ACTIVATIONS[rng.choice(["relu", "relu6", "abs", "silu", "tanh"])][0])}
        if kind == "gemm" and rng.random() < 0.08 and spec["init"] == "acc0" and not spec["static"]:
            spec["temp"] = True
    if spec["init"] == "acc0" and kind == "gemm" and rng.random() < 0.05:
        spec["axpby"] = True
    if spec["init"] in ("inplace", "stmt0", "beta") and kind == "gemm" and spec["order"] in ORDERS_K_INNER \
            and rng.random() < 0.15:
        spec["out2"] = {"out": rng.choice(["float", "half"]),
                        "tree": copy.deepcopy(ACTIVATIONS[rng.choice(["relu", "relu6", "abs"])][0])}
    if kind == "gemm" and spec["init"] == "acc0" and not spec["epi"] and not spec["batch"] \
            and not spec["static"] and rng.random() < 0.08:
        spec["separate_epi"] = True
        spec["sep_tree"] = copy.deepcopy(ACTIVATIONS[rng.choice(["relu", "relu6", "abs", "gelu_erf"])][0])
        spec["sep_out"] = rng.choice(["float", "half"])

    # prologue (operand function)
    spec["prologue"] = None
    if kind == "gemm" and spec["elem"] != "tf32" and spec["init"] in acc_forms + ("inplace", "stmt0") \
            and rng.random() < 0.12:
        spec["prologue"] = {
            "op": rng.choice(["A", "A", "B"]),
            "fn": _weighted(rng, [("relu", 4), ("relu6", 1), ("clamp05", 1), ("neg", 1), ("abs", 1),
                                  ("scale2", 1), ("recip", 0.5), ("clamp_scalar", 0.5)]),
            "style": _weighted(rng, [("inline", 4), ("local_if", 1), ("local_cond", 1)]),
        }
        if spec["order"] in ORDERS_K_OUTER:
            spec["prologue"]["style"] = "inline"  # a local of the k loop needs k innermost
        if spec["prologue"]["style"] != "inline":
            spec["prologue"]["fn"] = "relu"

    # quantized operand
    spec["quant"] = None
    if kind == "quant":
        spec["quant"] = rng.choice([
            {"form": "w_col", "wtype": "int8_t", "zero": "col", "scale": "col"},
            {"form": "w_col", "wtype": "int8_t", "zero": None, "scale": "sum_col"},
            {"form": "w_row", "wtype": "uint8_t", "zero": "col", "scale": "col"},
            {"form": "w_col", "wtype": "uint8_t", "zero": "scalar", "scale": "scalar"},
            {"form": "w_col", "wtype": "int8_t", "zero": None, "scale": None},
            {"form": "a_rows", "wtype": "int8_t", "zero": "row", "scale": None},
            # 8-bit zero points in int arithmetic (w - zero[j] promoted to
            # int): the kernels compute it in fp32 (SmallIntegerArithmetic)
            {"form": "w_col", "wtype": "uint8_t", "zero": "col", "zero_type": "int8_t",
             "scale": "col"},
            {"form": "a_rows", "wtype": "int8_t", "zero": "row", "zero_type": "int8_t",
             "scale": None},
            # packed 4-bit weights (issue 51): unpacked in the product, with
            # zero points and scales per group of k or per column
            {"form": "w_packed", "wtype": "uint8_t", "zero": "group", "scale": "group",
             "unpack": "shift", "group": 128},
            {"form": "w_packed", "wtype": "int8_t", "zero": None, "scale": "col",
             "unpack": "signed_pair", "group": 64},
            {"form": "w_packed", "wtype": "uint8_t", "zero": "col", "scale": "group",
             "unpack": "choice", "group": 32},
            {"form": "w_packed", "wtype": "uint8_t", "zero": None, "scale": "group",
             "unpack": "xor", "group": 64},
            # the symmetric spelling, (w - 8) in int (the 4-bit decode kernel's)
            {"form": "w_packed", "wtype": "uint8_t", "zero": "literal8", "scale": "group",
             "unpack": "shift", "group": 32},
        ])
        spec["a_major"] = "row"
        spec["b_major"] = "col" if spec["quant"]["form"] != "w_row" else "row"
        if spec["quant"]["form"] == "w_packed":
            spec["ld"] = False

    # sums of matmuls: both products share the layouts
    if kind == "sum":
        spec["k2_same_name"] = rng.random() < 0.6
        spec["same_k"] = rng.random() < 0.2

    # clauses
    spec["clauses"] = []
    spec["stream"] = False
    if rng.random() < 0.25:
        spec["clauses"] = rng.choice(VALID_CLAUSE_SETS)[:]
    elif rng.random() < 0.05:
        spec["clauses"] = [_random_clause(rng)]
        spec["clauses_random"] = True
    if rng.random() < 0.06:
        spec["stream"] = True
        spec["sync"] = rng.random() < 0.5
    if spec["elem"] == "tf32":
        spec["clauses"] = [c for c in spec["clauses"] if c.startswith(("split_k", "stages"))]
        spec["clauses"].insert(rng.randint(0, len(spec["clauses"])), "allow_tf32")
    spec["clause_sep"] = rng.choice([" ", " ", ", "])

    _apply_unsupported(spec, rng)
    # Pointers without __restrict__: the launcher tests them for overlap
    # (the harness passes distinct arrays, so the kernels run).
    spec["restrict"] = rng.random() >= 0.3
    # A sum of matmuls written as three nests (model/NestFusion.h): each
    # product into a scratch array of its own (temp(T1, T2)), then the
    # epilogue of T1 + T2; fused into the one-nest sum.
    if spec["kind"] == "sum" and spec["init"] == "acc0" and spec["order"] in ORDERS_K_INNER \
            and not spec.get("unsupported") and not spec.get("batch") and not spec.get("static") \
            and not spec.get("prologue") and not spec.get("quant") and not spec.get("out2") \
            and not spec.get("axpby") and rng.random() < 0.5:
        spec["sum_nests"] = True
        if spec.get("epi") and spec["epi"].get("style") == "acc_update":
            spec["epi"]["style"] = "local"
    # Loop forms (frontend/LoopOrigins.h): 1-based loops whose subscripts
    # read `(i - 1)`, downward loops (signed iterators only: `i >= 0` never
    # fails for an unsigned one; an int one from an int size only, since
    # `int k = K - 1` of a 64-bit or unsigned K converts an expression of
    # sizes, an error: test/diagnostics/converted-sizes.cu), `i != n` and
    # `n > i`.
    spec["loop_form"] = {}
    if not spec.get("unsupported"):
        bound_dims = {"i": ["M"], "i2": ["M"], "j": ["N"], "j2": ["N"], "k": ["K"],
                      "k2": ["K", "K2"], "b": ["BATCH"]}
        for role in ("i", "j", "k", "k2", "b", "j2", "i2"):
            forms = [("plain", 10), ("one_based", 1.2), ("ne", 0.8), ("bound_left", 0.8)]
            it_type = spec["it_type"].get(role, "int")
            narrow_from = it_type == "int" and any(
                spec["size_type"].get(d, "int") != "int" and d not in (spec.get("static") or {})
                for d in bound_dims[role])
            if it_type not in ("size_t", "unsigned") and not narrow_from:
                forms.append(("down", 1.2))
            spec["loop_form"][role] = _weighted(rng, forms)
    # Triangular and guarded domains and strided loops (model/
    # DomainBox.h, OperandMasks.h, frontend/LoopOrigins.h): k from i (TRMM), k <= i
    # && k < K, j <= i && j < N (SYRK's triangle), the output loops' body
    # under `if (i <= j)`, every other row (`i += 2`, C row-major: a step
    # along the output's contiguous dimension is refused) and every other k
    # (`k += 2`: an operand whose k is contiguous is gathered).
    spec["domain"] = None
    if kind == "gemm" and not spec.get("unsupported") and spec["order"] in ("ijk", "jik") \
            and not spec.get("batch") and not spec.get("separate_epi") and not spec.get("temp") \
            and not spec.get("static") and rng.random() < 0.25:
        forms = ["k_from_i", "k_le_i", "guard_i_le_j", "stride_k"]
        if spec["order"] == "ijk":
            forms.append("j_le_i")
        if spec["c_major"] == "row":
            forms.append("stride_i")
        spec["domain"] = rng.choice(forms)
        # The forms read the plain iterators: no loop forms on them.
        for role in ("i", "j", "k"):
            spec["loop_form"][role] = "plain"
            spec["bound"][role] = "lt"
            if spec["domain"] not in ("stride_i", "stride_k"):
                spec["inc"][role] = "pre"
    # Counters declared before the region (`int i; ... for (i = 0; ...)`,
    # README): accepted while nothing outside the region reads them; a read
    # after it is an error at the read. Drawn from a stream of their own,
    # so that every other draw of a (seed, index) stays as it was.
    side = random.Random("outer-counters:%s" % case_id)
    if kind in ("gemm", "polybench") and not spec.get("unsupported") and not spec.get("batch") \
            and side.random() < 0.12:
        spec["outer_counters"] = True
        spec["counter_read_after"] = side.random() < 0.3
    # Spellings of the accumulation and of A's reads (model/Model.h,
    # accumulationOf; frontend/Extraction.cpp, pointerView): `acc =
    # fmaf(a, b, acc)`, `acc -= a * b` (every product of a sum alike), and
    # `*(A + i * K + k)`. From a stream of their own, like the counters.
    forms = random.Random("spellings:%s" % case_id)
    if not spec.get("unsupported") and not spec.get("quant") \
            and not (spec.get("prologue") and spec["prologue"]["style"] != "inline"):
        spec["acc_form"] = _weighted(forms, [("plus", 8), ("fmaf", 1), ("minus", 1)])
        spec["a_read"] = _weighted(forms, [("subscript", 8), ("deref", 1)])
        # The arrays read through a struct's pointer members (`fz_args.A[...]`,
        # frontend/Extraction.cpp, memberArrayAccess); temp(...) clauses
        # name variables, so not with scratch arrays.
        if not spec.get("temp") and not spec.get("sum_nests") and not spec.get("temp_bad"):
            spec["member_arrays"] = forms.random() < 0.15
    spec["names"] = pick_names(rng, _roles_of(spec), collision_rate)
    _fix_names(spec, rng)
    spec["expect"] = expectation(spec)
    return spec


VALID_CLAUSE_SETS = [
    ["tile(64, 64, 32)", "warp(32, 32)", "stages(2)"],
    ["tile(128, 256, 32)", "warp(64, 64)"],
    ["tile(256, 128, 32)", "warp(64, 64)", "stages(3)"],
    ["tile(32, 64, 64)", "warp(32, 32)", "stages(3)"],
    ["tile(16, 16, 16)", "warp(16, 16)"],
    ["tile(128, 128, 64)", "stages(3)"],
    ["split_k(4)"],
    ["split_k(1)"],
    ["warp_split_k(2)"],
    ["tile(64, 64, 64)", "warp(32, 32)", "warp_split_k(4)"],
    ["tile(64, 64, 32)", "warp(32, 32)", "stages(2)", "warp_split_k(2)", "split_k(3)"],
    ["mma(m16n8k16)"],
    ["stages(4)"],
]


def _random_clause(rng):
    c = rng.choice(["tile", "warp", "stages", "split_k", "warp_split_k", "mma"])
    p2 = [16, 32, 64, 128, 256]
    if c == "tile":
        return "tile(%d, %d, %d)" % (rng.choice(p2), rng.choice(p2 + [192]), rng.choice([16, 32, 64, 128]))
    if c == "warp":
        return "warp(%d, %d)" % (rng.choice([16, 32, 64]), rng.choice([16, 32, 64]))
    if c == "stages":
        return "stages(%d)" % rng.randint(2, 8)
    if c == "split_k":
        return "split_k(%d)" % rng.randint(1, 16)
    if c == "warp_split_k":
        return "warp_split_k(%d)" % rng.choice([1, 2, 4])
    return "mma(%s)" % rng.choice(["m16n8k16", "wgmma"])


def _apply_unsupported(spec, rng):
    u = spec.get("unsupported")
    if not u:
        return
    # a plain GEMM around the defect keeps the diagnostic unambiguous
    spec.update({"kind": "gemm", "epi": None, "out2": None, "temp": False, "axpby": False,
                 "separate_epi": False, "prologue": None, "quant": None, "batch": None,
                 "static": None, "stream": False, "order": "ijk", "init": "acc0", "alpha": None,
                 "clauses": [], "ld": False})
    if spec["elem"] == "tf32":
        spec["elem"] = "half"
        spec["conv_a"] = spec["conv_b"] = "fn"
    if u == "fp32_no_tf32":
        spec["elem"] = "tf32"
        spec["conv_a"] = spec["conv_b"] = "none"
    if u in ("unknown_clause",):
        spec["clauses"] = [rng.choice(["foo", "tiles(64, 64, 32)", "stage(2)", "unroll(4)"])]
    if u == "stages_1":
        spec["clauses"] = ["stages(1)"]
    if u == "tile_not_pow2":
        spec["clauses"] = ["tile(48, 64, 32)"]
    if u == "tile_bk":
        spec["clauses"] = ["tile(64, 64, 8)"]
    if u in ("temp_readonly", "temp_unknown", "temp_all"):
        spec["temp_bad"] = u
    if u in ("no_matmul",):
        spec["init"] = "acc0"
    if u in ("acc_in_product",):
        spec["init"] = "inplace"
    if u == "writes_operand":
        spec["a_major"] = "row"
    if u in ("acc_in_product", "cross_element"):
        spec["out"] = "float"
        spec["c_major"] = "row"


def expectation(spec):
    """What the tool should do: {"result": "accept"|"reject"|"either",
    "diag": substring or "", "why": ...}. Per-arch overrides in "arch"."""
    u = spec.get("unsupported")
    if u:
        if u in UNSUPPORTED_EITHER:
            return {"result": "either", "diag": UNSUPPORTED[u], "why": "unsupported:" + u}
        return {"result": "reject", "diag": UNSUPPORTED[u], "why": "unsupported:" + u}
    if spec.get("counter_read_after"):
        return {"result": "reject", "diag": "is used here, outside the region",
                "why": "a counter declared before the region is read after it"}
    e = {"result": "accept", "diag": "", "why": "supported"}
    if spec.get("clauses_random"):
        e = {"result": "either", "diag": "", "why": "random clause"}
    if spec["kind"] == "polybench" and not spec.get("polybench_same_j", True):
        e = {"result": "either", "diag": "", "why": "polybench with distinct j names"}
    if spec.get("prologue") and spec["kind"] != "gemm":
        e = {"result": "either", "diag": "", "why": "prologue outside plain gemm"}
    if spec.get("prologue") and spec.get("batch"):
        e = {"result": "either", "diag": "", "why": "prologue with batch"}
    q = spec.get("quant")
    if q and q["form"] == "w_packed" and (spec.get("order") in ORDERS_K_OUTER or
                                          spec.get("separate_epi") or spec.get("batch") or
                                          "unsigned" in spec.get("it_type", {}).values() or
                                          "unsigned" in spec.get("size_type", {}).values()):
        # k outside the loop that reads it, several nests, a batch, a
        # divided subscript computed in 32-bit unsigned: refused
        # (test/diagnostics/packed-4bit.cu)
        e = {"result": "either", "diag": "", "why": "packed 4-bit weights, refused forms"}
    if (not spec.get("restrict", True) or spec.get("member_arrays")) and spec.get("out2") \
            and spec.get("epi") \
            and spec["epi"].get("style") in ("local", "reassign", "if", "if_else"):
        # The epilogue's local is read for the second output after the
        # store of the first: no run-time overlap test orders that, so
        # pointers that may alias are refused (model/Aliasing.cpp;
        # s6602_0065, s6603_0031). A member's __restrict__ is not trusted.
        e = {"result": "either", "diag": "may alias", "why": "local read past a store, no restrict"}
    if spec.get("temp") and spec.get("epi") and spec["epi"].get("style") == "acc_update":
        # A temp accumulator is an array: updating it after the reduction
        # is refused (the README's rule for arrays; only locals chain), as
        # s5401_0440 and s5401_1719 showed.
        return {"result": "reject", "diag": "the accumulator is updated after the reduction",
                "why": "update of a temp accumulator array"}
    if spec.get("epi") and spec["epi"].get("act") is None and spec["epi"].get("tree") is not None:
        # random expression trees: the README promises any pointwise
        # expression, but a tree may grow past the size limit
        e["why"] = "random epilogue tree"
    return e


# --- Rendering -----------------------------------------------------------------

class _Lines:
    def __init__(self):
        self.lines = []

    def add(self, indent, text):
        self.lines.append("  " * indent + text)

    def __len__(self):
        return len(self.lines)


def _conv(kind, ctype, x):
    """An operand element read as float."""
    if kind == "none":
        return x
    if kind == "fn":
        return {"__half": "__half2float(%s)", "__nv_bfloat16": "__bfloat162float(%s)",
                "float": "%s"}[ctype] % x
    if kind == "cast":
        return "(float)%s" % x
    if kind == "static_cast":
        return "static_cast<float>(%s)" % x
    if kind == "functional":
        return "float(%s)" % x
    raise ValueError(kind)


def _store(kind, ctype, x):
    """A float value stored into an element of type ctype."""
    if ctype == "float":
        return x
    if kind == "fn":
        return {"__half": "__float2half(%s)", "__nv_bfloat16": "__float2bfloat16(%s)"}[ctype] % x
    if kind == "fn_rn":
        return {"__half": "__float2half_rn(%s)", "__nv_bfloat16": "__float2bfloat16_rn(%s)"}[ctype] % x
    if kind == "cast":
        return "(%s)(%s)" % (ctype, x)
    if kind == "static_cast":
        return "static_cast<%s>(%s)" % (ctype, x)
    if kind == "implicit":
        return x
    raise ValueError(kind)


def _read_out(ctype, x):
    """An output element read back as float."""
    return {"float": "%s", "__half": "__half2float(%s)", "__nv_bfloat16": "__bfloat162float(%s)"}[ctype] % x


def render(spec, ref=False, check=True, func=None):
    """The case as C++: {"source", "meta"}. ref=True renders the host
    reference (function <func>_ref, a double scalar accumulator where the
    types allow)."""
    return _Renderer(spec, ref, func).run()


class _Renderer:
    def __init__(self, spec, ref, func):
        self.s = spec
        self.ref = ref
        self.factors = None  # the two factors of the last plain product
        self.func = (func or spec["func"]) + ("_ref" if ref else "")
        self.n = dict(DEFAULT_NAMES)
        self.n.update(spec.get("names", {}))
        self.params = []      # (ctype string with name placeholder, name, meta dict)
        self.arrays = {}      # role -> meta
        self.includes = ["<cuda_fp16.h>", "<cuda_bf16.h>", "<cstddef>", "<cstdint>", "<cmath>"]
        self.pre = []         # lines before the function (namespaces, declarations)
        self.body = _Lines()
        self.approx = 0
        self.outer = {}       # counters declared before the region: name -> type

    # -- names and expressions ------------------------------------------------
    def nm(self, role):
        if role == "fz_i1":
            return "(%s + 1)" % self.n["i"]
        # A 1-based loop's iterator is read as `(i - 1)`.
        if (self.s.get("loop_form") or {}).get(role) == "one_based":
            return "(%s - 1)" % self.n[role]
        if self.s.get("member_arrays") and role in self.arrays:
            return "fz_args." + self.n[role]
        return self.n[role]

    def size(self, d):
        """The spelling of size d (M, N, K, K2, BATCH) in the region."""
        st = self.s.get("static") or {}
        if d in st:
            return "%s::%s" % (self.nm("ns"), self.nm("c" + d))
        return self.nm(d)

    def ld(self, which, default_dim):
        if self.s.get("ld"):
            return self.nm(which)
        return self.size(default_dim)

    def loop(self, role, dim, indent, open_brace=False):
        s = self.s
        it = self.n[role]
        t = s["it_type"].get(role, "int")
        bnd = self.size(dim)
        cond = "%s < %s" % (it, bnd) if s["bound"].get(role, "lt") == "lt" else "%s <= %s - 1" % (it, bnd)
        inc = {"pre": "++%s", "post": "%s++", "pluseq": "%s += 1"}[s["inc"].get(role, "pre")] % it
        u = s.get("unsupported")
        if u == "nonzero_lb" and role == "k":
            init = "1"
        else:
            init = "0"
        # (A size shifted, `k < (K >> 1)`, is a region-invariant size the
        # tool takes; an iterator shifted is not affine: of i and k, the
        # inner loop's bound shifts the outer one's iterator.)
        order = s.get("order", "ijk")
        if u == "shift_bound" and "i" in order and "k" in order:
            outer, inner = ("i", "k") if order.index("i") < order.index("k") else ("k", "i")
            if role == inner:
                cond = "%s < (%s >> 1)" % (it, self.n[outer])
        form = (s.get("loop_form") or {}).get(role, "plain")
        domain = s.get("domain")
        if domain == "k_from_i" and role == "k":
            init = self.nm("i")
        elif domain == "k_le_i" and role == "k":
            cond = "%s <= %s && %s" % (it, self.nm("i"), cond)
        elif domain == "j_le_i" and role == "j":
            cond = "%s <= %s && %s" % (it, self.nm("i"), cond)
        elif domain == "stride_i" and role == "i":
            inc = "%s += 2" % it
        elif domain == "stride_k" and role == "k":
            inc = "%s += 2" % it
        if form == "one_based":
            init, cond = "1", "%s <= %s" % (it, bnd)
        elif form == "ne":
            cond = "%s != %s" % (it, bnd)
        elif form == "bound_left":
            cond = "%s > %s" % (bnd, it)
        elif form == "down":
            init = "%s - 1" % bnd
            cond = "%s >= 0" % it if s["bound"].get(role, "lt") == "lt" else "%s > -1" % it
            inc = {"pre": "--%s", "post": "%s--", "pluseq": "%s -= 1"}[s["inc"].get(role, "pre")] % it
        if s.get("outer_counters") and role in ("i", "j", "k"):
            self.outer.setdefault(it, t)  # declared before the pragma (run)
            self.body.add(indent, "for (%s = %s; %s; %s)%s" % (it, init, cond, inc, " {" if open_brace else ""))
            return
        self.body.add(indent, "for (%s %s = %s; %s; %s)%s" % (t, it, init, cond, inc, " {" if open_brace else ""))

    # array element access: role -> subscript string; also records extents
    def idx2(self, role, r_role, r_dim, c_role, c_dim, ld_role, batch_dim=None, static_dims=None):
        """A[(b * R + r) * ld + c] or A[r][c]."""
        arr = self.nm(role)
        r, c = self.nm(r_role), self.nm(c_role)
        st = self.s.get("static") or {}
        if st and c_dim in st and not self.s.get("batch"):
            return "%s[%s][%s]" % (arr, r, c)
        ld = self.ld(ld_role, c_dim)
        if self.s.get("batch") and batch_dim:
            return "%s[(%s * %s + %s) * %s + %s]" % (arr, self.nm("b"), self.size(batch_dim), r, ld, c)
        return "%s[%s * %s + %s]" % (arr, r, ld, c)

    def a_at(self, role="A", k_role="k", k_dim="K"):
        shared = self.s.get("batch_shared") == "A"
        if self.s["a_major"] == "row":
            e = self.idx2(role, "i", "M", k_role, k_dim, "lda", None if shared else "M")
        else:
            e = self.idx2(role, k_role, k_dim, "i", "M", "lda", None if shared else k_dim)
        m = re.fullmatch(r"(\w+)\[([^\[\]]*)\]", e)
        if self.s.get("a_read") == "deref" and m:
            return "*(%s + (%s))" % (m.group(1), m.group(2))
        return e

    def b_at(self, role="B", k_role="k", k_dim="K"):
        shared = self.s.get("batch_shared") == "B"
        if self.s["b_major"] == "row":
            return self.idx2(role, k_role, k_dim, "j", "N", "ldb", None if shared else k_dim)
        return self.idx2(role, "j", "N", k_role, k_dim, "ldb", None if shared else "N")

    def c_at(self, role="C", i_role="i", j_role="j"):
        if self.s["c_major"] == "row":
            return self.idx2(role, i_role, "M", j_role, "N", "ldc", "M")
        return self.idx2(role, j_role, "N", i_role, "M", "ldc", "N")

    def vec_at(self, role, which):
        """bias[j] / bias[i] (per batch entry when batched)."""
        it = self.nm("j" if which == "j" else "i")
        dim = "N" if which == "j" else "M"
        if self.s.get("batch"):
            return "%s[%s * %s + %s]" % (self.nm(role), self.nm("b"), self.size(dim), it)
        return "%s[%s]" % (self.nm(role), it)

    def tree(self, t, x):
        k = t[0]
        if k == "x":
            return x
        if k == "lit":
            return t[1]
        if k == "scal":
            return self.nm(t[1])
        if k == "bias":
            e = self.vec_at("bias", t[1])
            bt = (self.s.get("epi") or {}).get("bias_type", "float")
            return _read_out(OUT_CT.get(bt, "float"), e)
        if k == "res":
            return self.c_at("R")
        if k == "call":
            return "%s(%s)" % (t[1], ", ".join(self.tree(a, x) for a in t[2]))
        if k == "bin":
            return "(%s %s %s)" % (self.tree(t[2], x), t[1], self.tree(t[3], x))
        if k == "neg":
            return "-(%s)" % self.tree(t[1], x)
        if k == "cond":
            return "(%s %s %s ? %s : %s)" % (self.tree(t[2], x), t[1], self.tree(t[3], x),
                                            self.tree(t[4], x), self.tree(t[5], x))
        raise ValueError(t)

    # -- parameters -------------------------------------------------------------
    def p_size(self, role):
        if role in (self.s.get("static") or {}):
            return
        self.params.append(("%s %s" % (self.s["size_type"].get(role, "int"), self.nm(role)),
                            {"kind": "size", "role": role, "ctype": self.s["size_type"].get(role, "int")}))

    def p_ld(self, role, row_dim):
        self.params.append(("%s %s" % (self.s["size_type"].get(role, "int"), self.nm(role)),
                            {"kind": "ld", "role": role, "ctype": self.s["size_type"].get(role, "int"),
                             "min": row_dim}))

    def p_scalar(self, role, ctype="float"):
        self.params.append(("%s %s" % (ctype, self.nm(role)), {"kind": "scalar", "role": role, "ctype": ctype}))

    def p_array(self, role, ctype, out, rows, row_len, batch_dim=None, temp=False, restrict=True,
                const=None, nbatch=None):
        """rows/row_len: dimension names; extent = [BATCH *] rows * ld.
        A 1-D array (bias) has rows=None."""
        st = self.s.get("static") or {}
        is_const = (not out) if const is None else const
        rq = "__restrict__ " if restrict else ""
        cq = "const " if is_const else ""
        name = self.n[role]
        if rows is not None and st and row_len in st and not self.s.get("batch"):
            decl = "%s%s (*%s%s)[%s]" % (cq, ctype, rq, name, self.size(row_len))
            proto = "%s%s (*%s)[%d]" % (cq, ctype, rq, st[row_len])
        else:
            decl = "%s%s *%s%s" % (cq, ctype, rq, name)
            proto = "%s%s *%s" % (cq, ctype, rq)
        meta = {"kind": "array", "role": role, "ctype": ctype, "out": out, "temp": temp,
                "rows": rows, "row_len": row_len, "batch": bool(self.s.get("batch")) and batch_dim is not None,
                "proto": proto.strip()}
        self.params.append((decl, meta))
        self.arrays[role] = meta

    # -- the region -------------------------------------------------------------
    def run(self):
        s = self.s
        kind = s["kind"]
        elem_ct = ELEM_CT[s["elem"]]
        out_ct = OUT_CT[s["out"]]
        u = s.get("unsupported")
        if u == "mixed_types":
            b_ct = "__nv_bfloat16" if elem_ct == "__half" else "__half"
        else:
            b_ct = elem_ct
        a_ct = elem_ct
        if u == "int_operands":
            a_ct = b_ct = "int"
        if u == "double_operands":
            a_ct = b_ct = "double"
        q = s.get("quant")
        if q:
            if q["form"] == "a_rows":
                a_ct = q["wtype"]
            else:
                b_ct = q["wtype"]
        self.a_ct, self.b_ct, self.out_ct = a_ct, b_ct, out_ct

        # parameters, in a randomised but deterministic order
        for d in ("BATCH",) if s.get("batch") else ():
            self.p_size(d)
        for d in ("M", "N", "K"):
            self.p_size(d)
        if kind == "sum":
            if not s.get("same_k"):
                self.p_size("K2")
        if s.get("ld"):
            self.p_ld("lda", "K" if s["a_major"] == "row" else "M")
            self.p_ld("ldb", "N" if s["b_major"] == "row" else "K")
            self.p_ld("ldc", "N" if s["c_major"] == "row" else "M")
        roles = _roles_of(s)
        for sc in ("alpha", "beta", "lo", "hi", "slope", "zp", "step"):
            if sc in roles:
                self.p_scalar(sc)
        a_rows, a_len = ("M", "K") if s["a_major"] == "row" else ("K", "M")
        b_rows, b_len = ("K", "N") if s["b_major"] == "row" else ("N", "K")
        c_rows, c_len = ("M", "N") if s["c_major"] == "row" else ("N", "M")
        a_batch = "M" if s["a_major"] == "row" else "K"
        b_batch = "K" if s["b_major"] == "row" else "N"
        c_batch = "M" if s["c_major"] == "row" else "N"
        writes_a = u == "writes_operand"
        if s.get("batch_shared") == "A":
            a_batch = None
        if s.get("batch_shared") == "B":
            b_batch = None
        self.p_array("A", a_ct, writes_a, a_rows, a_len, a_batch, const=not writes_a)
        self.p_array("B", b_ct, False, b_rows, b_len, b_batch)
        if kind == "sum":
            k2 = "K" if s.get("same_k") else "K2"
            a2 = ("M", k2) if s["a_major"] == "row" else (k2, "M")
            b2 = (k2, "N") if s["b_major"] == "row" else ("N", k2)
            self.p_array("A2", a_ct, False, a2[0], a2[1], None)
            self.p_array("B2", b_ct, False, b2[0], b2[1], None)
        if q and q.get("zero") in ("col", "row"):
            self.p_array("zero", q.get("zero_type") or ("int" if q["zero"] == "row" else "float"),
                         False, None, "N" if q["zero"] == "col" else "M")
        if q and q.get("scale") in ("col", "sum_col"):
            self.p_array("scale", "float", False, None, "N")
        # (a group's: N rows of K floats, more than the groups need)
        if q and q.get("zero") == "group":
            self.p_array("zero", "float", False, "N", "K")
        if q and q.get("scale") == "group":
            self.p_array("scale", "float", False, "N", "K")
        epi = s.get("epi") or {}
        if "bias" in roles:
            bt = OUT_CT.get(epi.get("bias_type", "float"), "float")
            which = epi.get("bias") or epi.get("bias_leaf") or "j"
            self.p_array("bias", bt, False, None, "N" if which == "j" else "M", "x")
        if "R" in roles:
            self.p_array("R", out_ct, False, c_rows, c_len, c_batch)
        if s.get("axpby"):
            self.p_array("X", "float", False, c_rows, c_len, c_batch)
        temp = s.get("temp")
        if temp:
            self.p_array("T", "float", True, c_rows, c_len, c_batch, temp=True)
        if s.get("sum_nests"):
            self.p_array("T1", "float", True, c_rows, c_len, c_batch, temp=True)
            self.p_array("T2", "float", True, c_rows, c_len, c_batch, temp=True)
        self.p_array("C", out_ct, True, c_rows, c_len, c_batch)
        if s.get("out2"):
            self.p_array("D", OUT_CT[s["out2"]["out"]], True, c_rows, c_len, c_batch)
        if s.get("separate_epi"):
            self.p_array("D", OUT_CT[s["sep_out"]], True, c_rows, c_len, c_batch)
        if u == "side_effect":
            self.params.insert(0, ("int *fz_count", {"kind": "array", "role": "count", "ctype": "int", "out": True}))
        if u == "indirect":
            self.params.insert(0, ("const int *__restrict__ fz_idx",
                                   {"kind": "array", "role": "idx", "ctype": "int", "out": False}))
        if u == "temp_unknown":
            pass
        if s.get("stream"):
            self.params.append(("cudaStream_t %s" % self.nm("s"), {"kind": "stream", "role": "s"}))
            self.includes.append("<cuda_runtime.h>")

        # clauses
        clauses = list(s.get("clauses") or [])
        if temp:
            clauses.append("temp(%s)" % self.nm("T"))
        if s.get("sum_nests"):
            clauses.append("temp(%s, %s)" % (self.nm("T1"), self.nm("T2")))
        tb = s.get("temp_bad")
        if tb == "temp_readonly":
            clauses.append("temp(%s)" % self.nm("A"))
        elif tb == "temp_unknown":
            clauses.append("temp(fz_nowhere)")
        elif tb == "temp_all":
            clauses.append("temp(%s)" % self.nm("C"))
        if s.get("stream"):
            clauses.append("stream(%s)" % self.nm("s"))
            if s.get("sync"):
                clauses.append("sync")
        pragma = "#pragma tc"
        if clauses:
            sep = s.get("clause_sep", " ")
            pragma = "#pragma tc " + sep.join(clauses)

        # the body
        if kind == "polybench":
            self.body_polybench()
        elif kind == "kouter_block":
            self.body_kouter_block()
        elif s.get("separate_epi"):
            self.body_separate_epi()
        elif s.get("sum_nests"):
            self.body_sum_nests()
        else:
            self.body_nest()

        # assemble
        if "std::" in "\n".join(self.body.lines):
            self.includes.append("<algorithm>")
        if u == "printf":
            self.includes.append("<cstdio>")
        out = []
        out.append("// tc-fuzz case %s: generated by test/fuzz/fuzz.py (spec in the .json beside it)"
                   % s["id"])
        for inc in self.includes:
            out.append("#include %s" % inc)
        st = s.get("static") or {}
        if st:
            out.append("namespace %s {" % self.nm("ns"))
            for d in sorted(st):
                out.append("constexpr int %s = %d;" % (self.nm("c" + d), st[d]))
            out.append("}  // namespace %s" % self.nm("ns"))
        if u == "user_call":
            out.append("float fz_weight(int);")
        out.extend(self.pre)
        func_line = len(out) + 1
        decls = [p[0] for p in self.params]
        if not s.get("restrict", True):
            decls = [d.replace("__restrict__ ", "") for d in decls]
        out.append("void %s(%s) {" % (self.func, ", ".join(decls)))
        for name, t in self.outer.items():
            out.append("  %s %s;" % (t, name))
        if s.get("member_arrays"):
            members = [(d, m) for d, m in zip(decls, (p[1] for p in self.params))
                       if m["kind"] == "array" and m["role"] in self.arrays]
            out.append("  struct { %s } fz_args = {%s};" % (
                " ".join(d + ";" for d, _ in members),
                ", ".join(self.n[m["role"]] for _, m in members)))
        pragma_line = len(out) + 1
        out.append(pragma)
        if u == "not_a_loop":
            # the pragma before a declaration; the nest follows unannotated
            out.append("  int fz_unused = 0;")
            out.append("  (void)fz_unused;")
        region_first = len(out) + 1
        for line in self.body.lines:
            out.append("  " + line)
        region_last = len(out)
        if s.get("counter_read_after") and self.outer:
            out.append("  (void)%s;" % next(iter(self.outer)))
        out.append("}")
        func_last = len(out)
        src = "\n".join(out) + "\n"
        meta = {
            "func": self.func,
            "params": [p[1] for p in self.params],
            "prototype": "void %s(%s)" % (self.func, ", ".join(self._proto(p) for p in self.params)),
            "static": st,
            "lines": {"func": [func_line, func_last], "pragma": pragma_line,
                      "region": [region_first, region_last]},
            "approx": self.approx,
            "k_dims": ["K"] + (["K2"] if kind == "sum" and not s.get("same_k") else []),
        }
        return {"source": src, "meta": meta}

    def _proto(self, p):
        m = p[1]
        if m["kind"] == "array":
            return m.get("proto") or p[0].rsplit(" ", 1)[0]
        if m["kind"] == "stream":
            return "cudaStream_t"
        return m["ctype"]

    # -- pieces of the body ------------------------------------------------------
    def acc_type(self):
        if self.ref and not self._uses_std():
            return "double"
        return "float"

    def _uses_std(self):
        s = self.s
        t = json.dumps([s.get("epi"), s.get("out2"), s.get("sep_tree")])
        return "std::" in t

    def product(self, k_role="k", k_dim="K", a_role="A", b_role="B"):
        """The product a * b of one k iteration, as float, with the prologue."""
        s = self.s
        u = s.get("unsupported")
        a_e = self.a_at(a_role, k_role, k_dim)
        b_e = self.b_at(b_role, k_role, k_dim)
        if u == "div_subscript":
            a_e = "%s[%s / 2 * %s + %s]" % (self.nm(a_role), self.nm("i"), self.size("K"), self.nm("k"))
        if u == "square_subscript":
            a_e = "%s[%s * %s]" % (self.nm(a_role), self.nm("i"), self.nm("i"))
        if u == "mod_subscript":
            b_e = "%s[%s %% 8 * %s + %s]" % (self.nm(b_role), self.nm("k"), self.size("N"), self.nm("j"))
        if u == "indirect":
            a_e = "%s[fz_idx[%s] * %s + %s]" % (self.nm(a_role), self.nm("i"), self.size("K"), self.nm("k"))
        if u == "inc_subscript":
            a_e = "%s[%s * %s + %s++]" % (self.nm(a_role), self.nm("i"), self.size("K"), self.nm("k"))
        q = s.get("quant")
        if q:
            return self.quant_product(a_e, b_e)
        if u in ("int_operands", "double_operands"):
            return "%s * %s" % (a_e, b_e)
        a = _conv(s["conv_a"], self.a_ct, a_e)
        b = _conv(s["conv_b"], self.b_ct, b_e)
        if u == "mixed_types":
            b = _conv("fn", self.b_ct, b_e)
        pro = s.get("prologue")
        if pro and pro["style"] == "inline":
            f = {"relu": "fmaxf(%s, 0.0f)", "relu6": "fminf(fmaxf(%s, 0.0f), 6.0f)",
                 "clamp05": "fminf(fmaxf(%s, 0.0f), 0.5f)", "neg": "(-%s)", "abs": "fabsf(%s)",
                 "scale2": "(%s * 2.0f)", "recip": "(1.0f / %s)",
                 "clamp_scalar": "fminf(fmaxf(%s, " + self.nm("lo") + "), " + self.nm("hi") + ")"}[pro["fn"]]
            if pro["fn"] == "recip":
                self.approx = max(self.approx, 2)
            if pro["op"] == "A":
                a = f % a
            else:
                b = f % b
        if pro and pro["style"] != "inline":
            return None  # rendered by reduction() as statements
        if u == "user_call":
            return "%s * %s * fz_weight(%s)" % (a, b, self.nm("k"))
        if u == "acc_in_product":
            return "%s * %s * %s" % (self.c_at(i_role="fz_i1"), a, b)
        if u == "side_effect":
            return "%s * %s * fz_count[0]++" % (a, b)
        self.factors = (a, b)
        return "%s * %s" % (a, b)

    def quant_product(self, a_e, b_e):
        s = self.s
        q = s["quant"]
        if q["form"] == "a_rows":
            a = "(float)(%s - %s)" % (a_e, self.vec_at("zero", "i"))
            b = _conv(s["conv_b"], ELEM_CT[s["elem"]], b_e)
            return "%s * %s" % (a, b)
        x = _conv(s["conv_a"], ELEM_CT[s["elem"]], a_e)
        if q["form"] == "w_packed":
            return "%s * %s" % (x, self.packed_weight(q))
        w = "(float)%s" % b_e
        if q.get("zero_type"):  # in int, converted by the product
            w = "(%s - %s)" % (b_e, self.vec_at("zero", "j"))
        elif q.get("zero") == "col":
            w = "(%s - %s)" % (w, self.vec_at("zero", "j"))
        elif q.get("zero") == "scalar":
            w = "(%s - %s)" % (w, self.nm("zp"))
        if q.get("scale") == "col":
            w = "(%s * %s)" % (w, self.vec_at("scale", "j"))
        elif q.get("scale") == "scalar":
            w = "(%s * %s)" % (w, self.nm("step"))
        return "%s * %s" % (x, w)

    def packed_weight(self, q):
        """Two 4-bit weights a byte of B (N rows of (K + 1) / 2 bytes),
        unpacked as q["unpack"] writes it, less its zero point, times its
        scale (per group of q["group"] k or per column)."""
        j, k, K = self.nm("j"), self.nm("k"), self.size("K")
        byte = "%s[%s * ((%s + 1) / 2) + %s / 2]" % (self.nm("B"), j, K, k)
        u = q["unpack"]
        if u == "shift":
            w = "((%s >> (4 * (%s %% 2))) & 15)" % (byte, k)
        elif u == "choice":
            w = "((%s %% 2) ? (%s >> 4) : (%s & 15))" % (k, byte, byte)
        elif u == "signed_pair":
            w = "((int8_t)(%s << (4 * (1 - %s %% 2))) >> 4)" % (byte, k)
        else:  # xor
            w = "((((%s >> (4 * (%s & 1))) & 15) ^ 8) - 8)" % (byte, k)
        w = "(float)(%s - 8)" % w if q.get("zero") == "literal8" else "(float)%s" % w
        g = q["group"]
        group = "[%s * ((%s + %d) / %d) + %s / %d]" % (j, K, g - 1, g, k, g)
        if q.get("zero") == "group":
            w = "(%s - %s%s)" % (w, self.nm("zero"), group)
        elif q.get("zero") == "col":
            w = "(%s - %s)" % (w, self.vec_at("zero", "j"))
        if q.get("scale") == "group":
            w = "(%s * %s%s)" % (w, self.nm("scale"), group)
        elif q.get("scale") == "col":
            w = "(%s * %s)" % (w, self.vec_at("scale", "j"))
        return w

    def alpha_wrap(self, prod):
        if self.s.get("alpha") == "product" or self.s["init"] in ("beta", "polybench"):
            return "%s * %s" % (self.nm("alpha"), prod)
        return prod

    def reduction(self, indent, target, assign_sum=False, k_role="k", k_dim="K", a_role="A", b_role="B"):
        """for k: target += a * b."""
        s = self.s
        u = s.get("unsupported")
        pro = s.get("prologue")
        self.loop(k_role, k_dim, indent, open_brace=bool(pro and pro["style"] != "inline")
                  or u in ("printf", "break"))
        ind = indent + 1
        if pro and pro["style"] != "inline":
            op = pro["op"]
            loc = self.nm("a")
            if op == "A":
                e = _conv(s["conv_a"], self.a_ct, self.a_at(a_role, k_role, k_dim))
                other = _conv(s["conv_b"], self.b_ct, self.b_at(b_role, k_role, k_dim))
            else:
                e = _conv(s["conv_b"], self.b_ct, self.b_at(b_role, k_role, k_dim))
                other = _conv(s["conv_a"], self.a_ct, self.a_at(a_role, k_role, k_dim))
            self.body.add(ind, "float %s = %s;" % (loc, e))
            if pro["style"] == "local_if":
                self.body.add(ind, "if (%s < 0.0f)" % loc)
                self.body.add(ind + 1, "%s = 0.0f;" % loc)
                val = loc
            else:
                val = "(%s > 0.0f ? %s : 0.0f)" % (loc, loc)
            prod = "%s * %s" % (val, other) if op == "A" else "%s * %s" % (other, val)
            prod = self.alpha_wrap(prod)
            if assign_sum:
                self.body.add(ind, "%s = %s + %s;" % (target, target, prod))
            else:
                self.body.add(ind, "%s += %s;" % (target, prod))
            self.body.add(indent, "}")
            return
        self.factors = None
        prod = self.alpha_wrap(self.product(k_role, k_dim, a_role, b_role))
        if u == "printf":
            self.body.add(ind, 'printf("%%d\\n", (int)%s);' % self.nm("k"))
        form = s.get("acc_form", "plus")
        if assign_sum:
            self.body.add(ind, "%s = %s + %s;" % (target, target, prod))
        elif form == "fmaf" and self.factors and not self.ref:  # (the reference adds in double)
            a, b = self.factors
            a = self.alpha_wrap(a)
            self.body.add(ind, "%s = fmaf(%s, %s, %s);" % (target, a, b, target))
        elif form == "minus":
            self.body.add(ind, "%s -= %s;" % (target, prod))
        else:
            self.body.add(ind, "%s += %s;" % (target, prod))
        if u == "break":
            self.body.add(ind, "break;")
            self.body.add(indent, "}")
        if u in ("printf",):
            self.body.add(indent, "}")

    def body_nest(self):
        s = self.s
        order = s["order"]
        batch = s.get("batch")
        u = s.get("unsupported")
        dims = {"i": "M", "j": "N", "k": "K"}
        ind = 0
        if batch == "outer":
            self.loop("b", "BATCH", ind)
            ind += 1
        if order in ORDERS_K_INNER:
            o1, o2 = order[0], order[1]
            self.loop(o1, dims[o1], ind)
            self.loop(o2, dims[o2], ind + 1, open_brace=True)
            ind += 2
            if batch == "inner":
                self.loop("b", "BATCH", ind, open_brace=True)
                ind += 1
            if s.get("domain") == "guard_i_le_j":
                self.body.add(ind, "if (%s <= %s) {" % (self.nm("i"), self.nm("j")))
                self.inner_body(ind + 1)
                self.body.add(ind, "}")
            else:
                self.inner_body(ind)
            if batch == "inner":
                self.body.add(ind - 1, "}")
            self.body.add(ind - 1 - (1 if batch == "inner" else 0), "}")
        else:
            # k outside or between the output loops: in place only
            for n_, role in enumerate(order):
                self.loop(role, dims[role], ind + n_)
            ind += 3
            c = self.c_at()
            prod = self.alpha_wrap(self.product())
            if s["init"] == "inplace_assign_sum":
                self.body.add(ind, "%s = %s + %s;" % (c, c, prod))
            else:
                self.body.add(ind, "%s += %s;" % (c, prod))

    def inner_body(self, ind):
        """Statements inside the output loops of an i-j(-b) nest."""
        s = self.s
        init = s["init"]
        u = s.get("unsupported")
        c = self.c_at()
        acc = self.nm("acc")
        at = self.acc_type()
        if u == "int_acc":
            at = "int"
        if u == "double_operands":
            at = "double"
        if u == "int_operands":
            at = "int"
        temp = s.get("temp")
        if temp:
            tgt = self.c_at("T")
            self.body.add(ind, "%s = 0.0f;" % tgt)
            self.reduction(ind, tgt)
            self.epilogue(ind, _read_out("float", tgt))
            return
        if u == "no_matmul":
            # pointwise only: C = A (no reduction)
            a = _conv(s["conv_a"], self.a_ct, "%s[%s * %s + %s]" % (self.nm("A"), self.nm("i"), self.size("N"),
                                                                   self.nm("j")))
            self.body.add(ind, "%s = %s;" % (c, _store(s["store_conv"], self.out_ct, a)))
            return
        if init in ("acc0", "accC", "acc_assign_sum", "alphabeta_store"):
            if init == "accC":
                self.body.add(ind, "%s %s = %s;" % (at, acc, _read_out(self.out_ct, c)))
            else:
                self.body.add(ind, "%s %s = %s;" % (at, acc, "0" if at == "int" else ("0.0" if at == "double" else "0.0f")))
            if s["kind"] == "sum":
                self.reduction(ind, acc, init == "acc_assign_sum")
                k2d = "K" if s.get("same_k") else "K2"
                self.reduction(ind, acc, init == "acc_assign_sum", k_role="k2", k_dim=k2d, a_role="A2", b_role="B2")
            else:
                self.reduction(ind, acc, init == "acc_assign_sum")
            if u == "return":
                self.body.add(ind, "return;")
            self.epilogue(ind, acc)
            return
        # in place on C
        if self.out_ct != "float" and init != "inplace":
            pass
        if init == "stmt0":
            self.body.add(ind, "%s = %s;" % (c, _store(s["store_conv"], self.out_ct, "0.0f")))
        elif init == "beta":
            self.body.add(ind, "%s *= %s;" % (c, self.nm("beta")))
        self.reduction(ind, c, init == "inplace_assign_sum")
        if s.get("out2"):
            o2 = s["out2"]
            d_ct = OUT_CT[o2["out"]]
            v = self.tree(o2["tree"], _read_out(self.out_ct, c))
            if tree_is_approx(o2["tree"]):
                self.approx = max(self.approx, 1)
            self.body.add(ind, "%s = %s;" % (self.c_at("D"), _store(s["store_conv"], d_ct, v)))

    def pre_value(self, accx):
        """alpha * acc + beta * C_old (+ beta * X) + bias, before the activation."""
        s = self.s
        epi = s.get("epi") or {}
        v = accx
        if s.get("alpha") == "store":
            v = "%s * %s" % (self.nm("alpha"), v)
        if s["init"] == "alphabeta_store":
            if s.get("alpha") != "store":
                v = "%s * %s" % (self.nm("alpha"), v) if "alpha" in s["names"] else v
            v = "%s + %s * %s" % (v, self.nm("beta"), _read_out(self.out_ct, self.c_at()))
        if s.get("axpby"):
            v = "%s * %s + %s * %s" % (self.nm("alpha"), v, self.nm("beta"), self.c_at("X"))
        if epi.get("bias"):
            bt = OUT_CT.get(epi.get("bias_type", "float"), "float")
            v = "%s + %s" % (v, _read_out(bt, self.vec_at("bias", epi["bias"])))
        if epi.get("res") == "before":
            v = "%s + %s" % (v, _read_out(self.out_ct, self.c_at("R")))
        return v

    def epilogue(self, ind, accx):
        """The stores after the reduction (value accx, an expression)."""
        s = self.s
        epi = s.get("epi") or {}
        c = self.c_at()
        tree = epi.get("tree")
        if tree is not None and tree_is_approx(tree):
            self.approx = max(self.approx, 1)
        style = epi.get("style", "inline")
        sc = s["store_conv"]

        def post(x):
            if epi.get("res") == "after":
                return "%s + %s" % (x, _read_out(self.out_ct, self.c_at("R")))
            return x

        def out2(x):
            if s.get("out2"):
                o2 = s["out2"]
                if tree_is_approx(o2["tree"]):
                    self.approx = max(self.approx, 1)
                self.body.add(ind, "%s = %s;" % (self.c_at("D"), _store(sc, OUT_CT[o2["out"]],
                                                                         self.tree(o2["tree"], x))))

        pre = self.pre_value(accx)
        u = s.get("unsupported")
        if u == "while":
            self.body.add(ind, "while (%s > 8.0f)" % accx)
            self.body.add(ind + 1, "%s -= 1.0f;" % accx)
        if u == "cross_element":
            pre = "%s + %s" % (pre, self.c_at(i_role="fz_i1"))
        if u == "writes_operand":
            self.body.add(ind, "%s[%s * %s + %s] = %s;" % (self.nm("A"), self.nm("i"), self.size("K"), self.nm("j"),
                                                           _store("fn", self.a_ct, accx)))
        if style == "inline" or not epi:
            needs_paren = " " in pre
            x = "(%s)" % pre if needs_paren and tree is not None else pre
            val = self.tree(tree, x) if tree is not None else pre
            self.body.add(ind, "%s = %s;" % (c, _store(sc, self.out_ct, post(val))))
            out2(x if tree is None or not needs_paren else "(%s)" % pre)
            return
        v = self.nm("v")
        if style == "acc_update":
            acc = accx
            # acc += bias; acc = act(acc); C = acc
            if pre != accx:
                extra = pre[len(accx):] if pre.startswith(accx) else None
                if extra and extra.startswith(" + "):
                    self.body.add(ind, "%s += %s;" % (acc, extra[3:]))
                else:
                    self.body.add(ind, "%s = %s;" % (acc, pre))
            if tree is not None:
                self.body.add(ind, "%s = %s;" % (acc, self.tree(tree, acc)))
            self.body.add(ind, "%s = %s;" % (c, _store(sc, self.out_ct, post(acc))))
            out2(acc)
            return
        self.body.add(ind, "float %s = %s;" % (v, pre))
        if style == "local":
            val = self.tree(tree, v) if tree is not None else v
            self.body.add(ind, "%s = %s;" % (c, _store(sc, self.out_ct, post(val))))
            out2(v)
            return
        if style == "reassign":
            if tree is not None:
                self.body.add(ind, "%s = %s;" % (v, self.tree(tree, v)))
            self.body.add(ind, "%s = %s;" % (c, _store(sc, self.out_ct, post(v))))
            out2(v)
            return
        if style == "if":
            if epi.get("act") == "relu6_if":
                self.body.add(ind, "if (%s > 6.0f)" % v)
                self.body.add(ind + 1, "%s = 6.0f;" % v)
                self.body.add(ind, "else if (%s < 0.0f)" % v)
                self.body.add(ind + 1, "%s = 0.0f;" % v)
            else:
                self.body.add(ind, "if (%s < 0.0f)" % v)
                self.body.add(ind + 1, "%s = 0.0f;" % v)
            self.body.add(ind, "%s = %s;" % (c, _store(sc, self.out_ct, post(v))))
            out2(v)
            return
        if style == "if_else":
            r = self.nm("r")
            self.body.add(ind, "float %s;" % r)
            self.body.add(ind, "if (%s > 0.0f) {" % v)
            self.body.add(ind + 1, "%s = %s;" % (r, v))
            self.body.add(ind, "} else {")
            self.body.add(ind + 1, "%s = 0.125f * %s;" % (r, v))
            self.body.add(ind, "}")
            self.body.add(ind, "%s = %s;" % (c, _store(sc, self.out_ct, post(r))))
            out2(r)
            return
        raise ValueError(style)

    def body_polybench(self):
        s = self.s
        c = self.c_at()
        self.loop("i", "M", 0, open_brace=True)
        j2 = "j2" if not s.get("polybench_same_j", True) else "j"
        self.loop(j2, "N", 1)
        c2 = self.c_at(j_role=j2)
        self.body.add(2, "%s *= %s;" % (c2, self.nm("beta")))
        self.loop("k", "K", 1)
        self.loop("j", "N", 2)
        self.body.add(3, "%s += %s;" % (c, self.alpha_wrap(self.product())))
        self.body.add(0, "}")

    def body_kouter_block(self):
        s = self.s
        self.body.add(0, "{")
        self.loop("i", "M", 1)
        self.loop("j", "N", 2)
        self.body.add(3, "%s = %s;" % (self.c_at(), _store(s["store_conv"], self.out_ct, "0.0f")))
        o = s["order"]
        dims = {"i": "M", "j": "N", "k": "K"}
        for n_, role in enumerate(o):
            self.loop(role, dims[role], 1 + n_)
        self.body.add(4, "%s += %s;" % (self.c_at(), self.alpha_wrap(self.product())))
        self.body.add(0, "}")

    def body_separate_epi(self):
        s = self.s
        self.body.add(0, "{")
        self.loop("i", "M", 1)
        self.loop("j", "N", 2, open_brace=True)
        acc = self.nm("acc")
        self.body.add(3, "%s %s = %s;" % (self.acc_type(), acc, "0.0" if self.acc_type() == "double" else "0.0f"))
        self.reduction(3, acc)
        self.body.add(3, "%s = %s;" % (self.c_at(), _store(s["store_conv"], self.out_ct, acc)))
        self.body.add(2, "}")
        self.loop("i2", "M", 1)
        self.loop("j", "N", 2)
        ci = self.c_at(i_role="i2")
        di = self.c_at("D", i_role="i2")
        if tree_is_approx(s["sep_tree"]):
            self.approx = max(self.approx, 1)
        self.body.add(3, "%s = %s;" % (di, _store(s["store_conv"], OUT_CT[s["sep_out"]],
                                                  self.tree(s["sep_tree"], _read_out(self.out_ct, ci)))))
        self.body.add(0, "}")


    def body_sum_nests(self):
        """T1 = A * B and T2 = A2 * B2, each in a nest of its own with a local
        accumulator of the same name, then the epilogue of T1 + T2."""
        s = self.s
        o1, o2 = s["order"][0], s["order"][1]
        dims = {"i": "M", "j": "N"}
        acc, at = self.nm("acc"), self.acc_type()
        zero = "0.0" if at == "double" else "0.0f"
        k2d = "K" if s.get("same_k") else "K2"
        self.body.add(0, "{")
        for target, extra in (("T1", {}), ("T2", {"k_role": "k2", "k_dim": k2d, "a_role": "A2",
                                                   "b_role": "B2"})):
            self.loop(o1, dims[o1], 1)
            self.loop(o2, dims[o2], 2, open_brace=True)
            self.body.add(3, "%s %s = %s;" % (at, acc, zero))
            self.reduction(3, acc, **extra)
            self.body.add(3, "%s = %s;" % (self.c_at(target), acc))
            self.body.add(2, "}")
        self.loop(o1, dims[o1], 1)
        self.loop(o2, dims[o2], 2, open_brace=True)
        self.epilogue(3, "(%s + %s)" % (self.c_at("T1"), self.c_at("T2")))
        self.body.add(2, "}")
        self.body.add(0, "}")


def case_seed(seed, index):
    """The seed of case `index` of a run with seed `seed`."""
    return (seed * 1000003 + index * 7919 + 17) & 0xFFFFFFFF


def make_case(seed, index, **kw):
    rng = random.Random(case_seed(seed, index))
    cid = "s%d_%04d" % (seed, index)
    func = "fz_%d_%d" % (seed, index)
    return gen_spec(rng, cid, func, **kw)
