# tc_rewrite_sources(<target> <source.cu>...
#                    [ARCH <sm_80|sm_86|sm_89|sm_90a>]
#                    [OUTPUT_DIR <dir>]
#                    [ALLOW_UNREWRITTEN]
#                    [EXTRA_ARGS <tc-rewrite argument>...])
#
# Rewrites each source with tc-rewrite at build time, into OUTPUT_DIR
# (default: <current binary dir>/tc-rewrite/<target>, keeping the source's
# path relative to the current source dir), and compiles the rewritten files
# in place of the originals in <target>:
#  - the originals are removed from the target's SOURCES (add them to the
#    target before calling this, in the directory that defines the target;
#    the target must use the keyword form of target_link_libraries);
#  - a source is rewritten again when it or the tool changes;
#  - the rewritten file's #line directives (--line-directives) keep the
#    source's file and lines for its own code, so that the compiler's
#    diagnostics and debug lines point at the source;
#  - the tool parses each source with the target's include directories and
#    compile definitions (transitively), and CUDA from the project's nvcc;
#  - the rewritten files see the original's directory on their include path
#    (for #include "local.h"), and the target links TcRewrite::runtime and
#    compiles CUDA as C++17 at least.
# ARCH defaults to the first entry of the target's CUDA_ARCHITECTURES
# (90a -> sm_90a, 80-real -> sm_80, ...; sm_90a when unset), read when this
# is called. A region that cannot be rewritten fails the build (tc-rewrite
# exits 1) unless ALLOW_UNREWRITTEN is given (--warn-only: a warning, and the
# region stays serial host code). EXTRA_ARGS go to tc-rewrite as they are
# (e.g. `--extra-arg=-DFOO` or `-- -DFOO`).
include_guard(GLOBAL)

function(_tc_rewrite_default_arch out_var target)
  get_target_property(_archs ${target} CUDA_ARCHITECTURES)
  set(_arch sm_90a)
  if(_archs AND NOT _archs MATCHES "NOTFOUND")
    list(GET _archs 0 _first)
    string(REGEX REPLACE "-(real|virtual)$" "" _first "${_first}")
    if(_first MATCHES "^([0-9]+)([a-z]?)$")
      set(_arch "sm_${_first}")
      if(_arch STREQUAL "sm_90")
        set(_arch sm_90a) # tc-rewrite's sm_90 code is its sm_90a code
      endif()
    elseif(NOT _first MATCHES "^(native|all|all-major)$")
      message(FATAL_ERROR "tc_rewrite_sources(${target}): cannot read a GPU "
                          "architecture from CUDA_ARCHITECTURES '${_archs}'; pass ARCH")
    endif()
  endif()
  if(NOT _arch MATCHES "^sm_(80|86|89|90a)$")
    message(FATAL_ERROR "tc_rewrite_sources(${target}): tc-rewrite generates code for "
                        "sm_80, sm_86, sm_89 and sm_90a, not ${_arch} (from "
                        "CUDA_ARCHITECTURES '${_archs}'); pass ARCH")
  endif()
  set(${out_var} ${_arch} PARENT_SCOPE)
endfunction()

function(tc_rewrite_sources target)
  cmake_parse_arguments(PARSE_ARGV 1 _tc "ALLOW_UNREWRITTEN" "ARCH;OUTPUT_DIR" "EXTRA_ARGS")
  if(NOT TARGET "${target}")
    message(FATAL_ERROR "tc_rewrite_sources: '${target}' is not a target")
  endif()
  get_target_property(_aliased ${target} ALIASED_TARGET)
  if(_aliased)
    set(target ${_aliased})
  endif()
  if(NOT _tc_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "tc_rewrite_sources(${target}): no sources given")
  endif()
  get_target_property(_target_dir ${target} SOURCE_DIR)
  if(NOT _target_dir STREQUAL CMAKE_CURRENT_SOURCE_DIR)
    message(FATAL_ERROR "tc_rewrite_sources(${target}): call it in the directory "
                        "that defines the target (${_target_dir})")
  endif()
  get_property(_languages GLOBAL PROPERTY ENABLED_LANGUAGES)
  if(NOT "CUDA" IN_LIST _languages)
    message(FATAL_ERROR "tc_rewrite_sources(${target}): the rewritten sources are "
                        "CUDA; enable it (project(... LANGUAGES CXX CUDA))")
  endif()

  if(_tc_ARCH)
    set(_arch ${_tc_ARCH})
  else()
    _tc_rewrite_default_arch(_arch ${target})
  endif()
  if(_tc_OUTPUT_DIR)
    get_filename_component(_outdir "${_tc_OUTPUT_DIR}" ABSOLUTE
                           BASE_DIR "${CMAKE_CURRENT_BINARY_DIR}")
  else()
    set(_outdir "${CMAKE_CURRENT_BINARY_DIR}/tc-rewrite/${target}")
  endif()

  set(_args "--arch=${_arch}")
  if(_tc_ALLOW_UNREWRITTEN)
    list(APPEND _args --warn-only)
  endif()
  if(CMAKE_CUDA_COMPILER_TOOLKIT_ROOT)
    list(APPEND _args "--cuda-path=${CMAKE_CUDA_COMPILER_TOOLKIT_ROOT}")
  endif()
  # The target's flags, for the parse.
  set(_inc "$<TARGET_PROPERTY:${target},INCLUDE_DIRECTORIES>")
  set(_def "$<TARGET_PROPERTY:${target},COMPILE_DEFINITIONS>")
  # (Given to COMMAND as they are: the ';' in the separators becomes an
  # argument break under COMMAND_EXPAND_LISTS.)
  set(_inc_args "$<$<BOOL:${_inc}>:--extra-arg=-I$<JOIN:${_inc},$<SEMICOLON>--extra-arg=-I>>")
  set(_def_args "$<$<BOOL:${_def}>:--extra-arg=-D$<JOIN:${_def},$<SEMICOLON>--extra-arg=-D>>")

  set(_originals)
  set(_outputs)
  foreach(_src IN LISTS _tc_UNPARSED_ARGUMENTS)
    get_filename_component(_abs "${_src}" ABSOLUTE)
    file(RELATIVE_PATH _rel "${CMAKE_CURRENT_SOURCE_DIR}" "${_abs}")
    if(_rel MATCHES "^\\.\\./" OR IS_ABSOLUTE "${_rel}")
      get_filename_component(_rel "${_abs}" NAME)
    endif()
    set(_out "${_outdir}/${_rel}")
    get_filename_component(_out_dir "${_out}" DIRECTORY)
    get_filename_component(_src_dir "${_abs}" DIRECTORY)
    # Redone when the source, a header it includes (the depfile; a header's
    # constants are in the rewrite) or the tool changes.
    add_custom_command(
      OUTPUT "${_out}"
      COMMAND "${CMAKE_COMMAND}" -E make_directory "${_out_dir}"
      COMMAND TcRewrite::tc-rewrite "${_abs}" -o "${_out}" "--dependency-file=${_out}.d"
              --line-directives
              ${_args} "${_inc_args}" "${_def_args}" ${_tc_EXTRA_ARGS}
      DEPFILE "${_out}.d"
      DEPENDS "${_abs}" "$<TARGET_FILE:TcRewrite::tc-rewrite>"
      COMMENT "tc-rewrite ${_rel} (${_arch})"
      COMMAND_EXPAND_LISTS
      VERBATIM)
    set_source_files_properties("${_out}" PROPERTIES
      GENERATED TRUE
      LANGUAGE CUDA
      INCLUDE_DIRECTORIES "${_src_dir}")
    list(APPEND _originals "${_abs}")
    list(APPEND _outputs "${_out}")
  endforeach()

  # Compile the rewritten files instead of the originals.
  get_target_property(_sources ${target} SOURCES)
  set(_kept)
  foreach(_s IN LISTS _sources)
    get_filename_component(_s_abs "${_s}" ABSOLUTE BASE_DIR "${_target_dir}")
    if(NOT _s_abs IN_LIST _originals)
      list(APPEND _kept "${_s}")
    endif()
  endforeach()
  set_property(TARGET ${target} PROPERTY SOURCES "${_kept}")
  target_sources(${target} PRIVATE ${_outputs})
  target_link_libraries(${target} PRIVATE TcRewrite::runtime)
  target_compile_features(${target} PRIVATE cuda_std_17)
endfunction()
