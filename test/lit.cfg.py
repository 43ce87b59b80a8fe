# -*- Python -*-
# lit configuration of tc-rewrite's tests (all of test/ except the GoogleTest
# unit tests in unit/ and the GPU-only drivers in gpu/).
#
# Normally loaded by <build>/test/lit.site.cfg.py (lit -sv build/test, or the
# `check` target). Pointed at the source tree (lit -sv test/compile) it loads
# that site config itself, from --param build_dir=DIR, $TC_BUILD_DIR, or build/.
#
# Substitutions:
#   %tc-rewrite                the tool under test (<build>/bin/tc-rewrite)
#   %tc-include                runtime header root (runtime_headers/, holds tc/)
#   %samples                   the bundled samples (samples/)
#   %python                    the Python running lit
#   %nvcc                      CUDA compiler, through the compile cache
#                              test/utils/nvcc-cache.py   (feature: nvcc)
#   %nvcc-uncached             the CUDA compiler itself (for CMake)  (feature: nvcc)
#   %nvcc-cache                the cache alone: %nvcc-cache NVCC ARGS...
#   %cuobjdump                 SASS dump of an object file   (feature: cuobjdump)
#   %clang-tidy                LLVM 22's clang-tidy          (feature: clang-tidy)
#   %clang-apply-replacements  LLVM 22's one                 (feature: clang-apply-replacements)
#   %tc-tidy-module            the clang-tidy module libTcTidyModule.so (feature: tc-tidy-module)
#   %tc-build-dir              the build tree under test (for cmake --install)
#   %cmake, %cmake-generator   the CMake that configured it, and its generator
#   %cuda-path                 the CUDA installation the tool defaults to
#   %clang-resource-dir        Clang 22's resource directory
# FileCheck, not, count, split-file come from LLVM 22's bin/, first on PATH.
#
# Tiers (CONTRIBUTING.md, "Test tiers"): the default tier is what CI runs;
# --param tier=full (or TC_TEST_TIER=full; scripts/test.sh --full) adds the
# feature full-tier, which the slow tests REQUIRE and the slow RUN lines of
# the other tests test with %if full-tier %{ ... %}.
import os
import sys

import lit.formats
import lit.util

src_test_dir = os.path.dirname(os.path.abspath(__file__))

if not hasattr(config, "tc_obj_root"):
    build_dir = (lit_config.params.get("build_dir")
                 or os.environ.get("TC_BUILD_DIR")
                 or os.path.join(os.path.dirname(src_test_dir), "build"))
    site_cfg = os.path.join(os.path.abspath(build_dir), "test", "lit.site.cfg.py")
    if not os.path.exists(site_cfg):
        lit_config.fatal(
            "no %s: configure the build first (cmake -S . -B build) or pass "
            "--param build_dir=DIR" % site_cfg)
    config.tc_site_config_only = True
    lit_config.load_config(config, site_cfg)

config.name = "tc-rewrite"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".cu", ".cpp", ".test"]
config.test_source_root = src_test_dir
config.test_exec_root = os.path.join(config.tc_obj_root, "test")
config.excludes = [
    "unit",             # GoogleTest, run by tc-unit-tests
    "gpu",              # needs a GPU: scripts/gpu-prepare.sh + gpu-check.sh
    "Inputs",           # inputs of other tests
    "utils",            # helper scripts of the RUN lines
    "libfuzzer",        # libFuzzer targets and corpora (scripts/fuzz.sh)
    "CMakeLists.txt",
    "lit.cfg.py",
    "lit.site.cfg.py",
    "lit.site.cfg.py.in",
]

# --- Environment ---------------------------------------------------------------
# Tests see a clean environment plus these; LLVM 22's bin/ comes first so that
# FileCheck, not, count are LLVM 22's.
path = [config.tc_tools_dir, config.tc_llvm_tools_dir]
for tool in (config.tc_nvcc, config.tc_cuobjdump):
    if tool:
        path.append(os.path.dirname(tool))
path.append(config.environment.get("PATH", os.environ.get("PATH", "")))
config.environment["PATH"] = os.pathsep.join(p for p in path if p)

# The compile cache's and the sanitizers' (scripts/test.sh --sanitize)
# settings reach the tests.
for var in ("CUDA_PATH", "CUDA_HOME", "TMPDIR", "HOME", "XDG_CACHE_HOME",
            "TC_NVCC_CACHE", "TC_NVCC_CACHE_DIR", "TC_NVCC_CACHE_LOG",
            "ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS"):
    if var in os.environ:
        config.environment[var] = os.environ[var]

# --- Substitutions (longest names first: lit applies them in order) -----------
def tool_or_missing(path, name):
    # A test that uses an absent tool without REQUIRES fails loudly.
    return path if path else "tc-lit-missing-tool-" + name

config.substitutions.append(("%clang-apply-replacements",
                             tool_or_missing(config.tc_clang_apply_replacements,
                                             "clang-apply-replacements")))
config.substitutions.append(("%clang-tidy", tool_or_missing(config.tc_clang_tidy, "clang-tidy")))
config.substitutions.append(("%clangxx", os.path.join(config.tc_llvm_tools_dir, "clang++")))
config.substitutions.append(("%clang-resource-dir", config.tc_clang_resource_dir))
config.substitutions.append(("%tc-tidy-module", tool_or_missing(config.tc_tidy_module, "tc-tidy-module")))
config.substitutions.append(("%tc-build-dir", config.tc_obj_root))
config.substitutions.append(("%cmake-generator", config.tc_cmake_generator))
config.substitutions.append(("%cmake", config.tc_cmake))
config.substitutions.append(("%cuda-path", config.tc_cuda_path_default))
config.substitutions.append(("%tc-rewrite", os.path.join(config.tc_tools_dir, "tc-rewrite")))
config.substitutions.append(("%tc-include", config.tc_runtime_include_dir))
# ptxas -v output without the spill lines of the element-wise fallback
# kernels (test/utils/drop-elementwise-spills.py says why).
config.substitutions.append(("%drop-elementwise-spills",
                             sys.executable + " " + os.path.join(config.test_source_root, "utils",
                                                                 "drop-elementwise-spills.py")))
config.substitutions.append(("%samples", os.path.join(config.tc_src_root, "samples")))
config.substitutions.append(("%python", sys.executable))
config.substitutions.append(("%cuobjdump", tool_or_missing(config.tc_cuobjdump, "cuobjdump")))
config.substitutions.append(("%nvcc-uncached", tool_or_missing(config.tc_nvcc, "nvcc")))
# The compile cache (test/utils/nvcc-cache.py): a repeated nvcc run with the
# same inputs replays its output file, stdout, stderr and exit status.
nvcc_cache = sys.executable + " " + os.path.join(config.test_source_root, "utils", "nvcc-cache.py")
config.substitutions.append(("%nvcc-cache", nvcc_cache))
config.substitutions.append(("%nvcc", nvcc_cache + " " + tool_or_missing(config.tc_nvcc, "nvcc")))

# --- Features -------------------------------------------------------------------
tier = lit_config.params.get("tier") or os.environ.get("TC_TEST_TIER") or "default"
if tier not in ("default", "full"):
    lit_config.fatal("unknown test tier %r (default, full)" % tier)
if tier == "full":
    config.available_features.add("full-tier")
lit_config.note("test tier: %s" % tier)

def executable(path):
    return bool(path) and os.path.isfile(path) and os.access(path, os.X_OK)

if executable(config.tc_nvcc):
    config.available_features.add("nvcc")
# cuobjdump -sass runs nvdisasm, found beside cuobjdump or on PATH.
if executable(config.tc_cuobjdump) and (
        executable(os.path.join(os.path.dirname(config.tc_cuobjdump), "nvdisasm"))
        or lit.util.which("nvdisasm", config.environment["PATH"])):
    config.available_features.add("cuobjdump")
if executable(config.tc_clang_tidy):
    config.available_features.add("clang-tidy")
if executable(config.tc_clang_apply_replacements):
    config.available_features.add("clang-apply-replacements")
if config.tc_tidy_module and os.path.isfile(config.tc_tidy_module):
    config.available_features.add("tc-tidy-module")
