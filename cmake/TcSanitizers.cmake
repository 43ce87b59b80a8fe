# Opt-in sanitizer and fuzzing builds (off by default). Use a build
# directory of their own: the flags apply to every target of the tree.
#
#   -DTC_SANITIZE=ON   everything (libraries, tool, unit tests) with
#                      AddressSanitizer + UndefinedBehaviorSanitizer; any
#                      report ends the process. scripts/test.sh --sanitize.
#   -DTC_FUZZ=ON       TC_SANITIZE, plus libFuzzer coverage instrumentation
#                      (-fsanitize=fuzzer-no-link) of our code and the fuzz
#                      targets of test/libfuzzer. Needs Clang (clang++-22):
#                      scripts/fuzz.sh configures build-fuzz/ with it.
#
# Clang, LLVM and isl themselves are Debian's uninstrumented shared
# libraries: the sanitizers and the coverage feedback see our code only.
option(TC_SANITIZE "Build with AddressSanitizer and UndefinedBehaviorSanitizer" OFF)
option(TC_FUZZ "Build the libFuzzer targets (implies TC_SANITIZE; needs Clang)" OFF)

set(TC_SANITIZE_ENABLED OFF)
if(TC_SANITIZE OR TC_FUZZ)
  set(TC_SANITIZE_ENABLED ON)
endif()

if(TC_FUZZ AND NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
  message(FATAL_ERROR "TC_FUZZ=ON needs Clang as the C++ compiler (libFuzzer); "
                      "configure a fresh build directory with "
                      "-DCMAKE_CXX_COMPILER=clang++-22 -DCMAKE_C_COMPILER=clang-22")
endif()

if(TC_SANITIZE_ENABLED)
  # -fno-sanitize-recover: a UBSan report ends the process like an ASan one,
  # so that a test or a fuzz run cannot pass over it. The vptr check needs RTTI, which
  # LLVM-facing code does not have; -fsanitize=undefined leaves it out then.
  set(_tc_san -fsanitize=address,undefined -fno-sanitize-recover=all)
  add_compile_options(${_tc_san} -fno-omit-frame-pointer)
  add_link_options(${_tc_san})
  # Line tables for the reports' stacks; assertions on in our code (LLVM's
  # headers keep one layout with and without NDEBUG), so that a bad cast<>
  # is caught where it happens.
  if(CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    add_compile_options(-gline-tables-only)
  else()
    add_compile_options(-g1)
  endif()
  add_compile_options(-UNDEBUG)
  if(TC_FUZZ)
    add_compile_options(-fsanitize=fuzzer-no-link)
  endif()
  # clang-tidy (uninstrumented) cannot load an ASan-instrumented module.
  if(TC_BUILD_TIDY_MODULE)
    message(STATUS "tc-rewrite: sanitizer build: no clang-tidy module (test/tidy unsupported)")
    set(TC_BUILD_TIDY_MODULE OFF)
  endif()
endif()
