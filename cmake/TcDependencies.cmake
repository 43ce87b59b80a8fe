# Locates the chosen dependencies: Debian's Clang/LLVM 22 and isl.
set(TC_LLVM_ROOT /usr/lib/llvm-22 CACHE PATH "Root of the LLVM 22 installation")
find_package(Clang REQUIRED CONFIG HINTS ${TC_LLVM_ROOT}/lib/cmake/clang)
find_package(LLVM REQUIRED CONFIG HINTS ${TC_LLVM_ROOT}/lib/cmake/llvm)
find_package(PkgConfig REQUIRED)
pkg_check_modules(ISL REQUIRED IMPORTED_TARGET isl)

# Clang's builtin headers live in its resource directory; a tool built outside
# the LLVM tree must be told where it is.
execute_process(COMMAND ${TC_LLVM_ROOT}/bin/clang -print-resource-dir
                OUTPUT_VARIABLE TC_CLANG_RESOURCE_DIR OUTPUT_STRIP_TRAILING_WHITESPACE)

set(TC_CUDA_PATH_DEFAULT /usr/local/cuda CACHE PATH "CUDA toolkit used when neither --cuda-path nor CUDA_PATH is given")
find_program(TC_NVCC nvcc HINTS ${TC_CUDA_PATH_DEFAULT}/bin)
find_program(TC_LIT lit HINTS ${TC_LLVM_ROOT}/bin REQUIRED)
find_program(TC_FILECHECK FileCheck HINTS ${TC_LLVM_ROOT}/bin REQUIRED)

# LLVM is built without exceptions and RTTI; so are our Clang-facing sources.
# isl-facing sources add -fexceptions (see tc_isl_sources) so isl errors throw
# instead of aborting the process.
function(tc_add_llvm_flags target)
  target_include_directories(${target} SYSTEM PUBLIC ${LLVM_INCLUDE_DIRS} ${CLANG_INCLUDE_DIRS})
  target_compile_definitions(${target} PUBLIC ${LLVM_DEFINITIONS})
  target_compile_options(${target} PRIVATE -fno-rtti -Wall -Wno-unused-parameter)
endfunction()
function(tc_isl_sources)
  set_source_files_properties(${ARGN} PROPERTIES COMPILE_OPTIONS "-fexceptions")
endfunction()
