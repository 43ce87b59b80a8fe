// tc/tc.cuh - umbrella header for kernels emitted by tc-rewrite.
//
// Generated kernels include only this file.  Each sub-header holds one
// instruction family and documents its thread -> element layout:
//   swizzle.cuh   shared-tile XOR swizzle (host+device constexpr)
//   cp_async.cuh  cp.async global->shared copies (+ synchronous fallback)
//   ldmatrix.cuh  ldmatrix x2/x4 (+ .trans)
//   mma.cuh       mma.sync m16n8k16 f16/bf16 -> f32
//   fragment.cuh  mma operand fragments from swizzled tiles
//   wgmma.cuh     warpgroup mma (sm_90a): descriptors of swizzled tiles
//   mbarrier.cuh  stage barriers and named barriers (sm_90)
//   registers.cuh setmaxnreg: registers moved between warpgroups (sm_90a)
//   tma.cuh       TMA tile copies and their tensor maps (sm_90)
//   cluster.cuh   pairs of blocks sharing an operand tile (sm_90)
//   tile_schedule.cuh  whole and k-split tiles of the TMA kernels
//   stream_buffer.cuh  scratch buffers kept per stream by the launchers
//   operand_repack.cuh an aligned copy of an operand TMA cannot describe
//   tile_choice.cuh  launch-time choice between a region's tile shapes
//   kernel_choice.cuh  the first of a region's kernels whose rule holds
//   tuned_choice.cuh   the kernel a tuning table measured fastest for a shape
//   tuning.cuh         (-DTC_TUNING) timing each kernel of a launch: the tuning database
//   schedule_choice.cuh, cluster_parts_choice.cuh, split_choice.cuh
//                 the launch's tile schedule, cluster parts and split-K
//   device_facts.cuh   the choices' inputs besides the shape
//   launch_facts.cuh   the one place reading the device and environment
//   isl_ast.cuh   floord/ceild/min/max for isl's printed AST
//   convert.cuh   to_float / from_float
//   lane_store.cuh  vector stores of an epilogue's consecutive elements
//   read_only.cuh   loads of the arrays a region never writes (ld.global.nc)
//   tile_copy.cuh    operand tiles, global -> shared (cp.async)
//   tile_convert.cuh operand tiles converted on the way (int8 weights, prologues)
//   status.cuh    launchers' errors: tc::get_last_error, tc::set_error_handler
//   alias_check.cuh the launchers' overlap test for arrays without __restrict__
//   subscript_range.cuh the launchers' test that no 32-bit unsigned subscript wraps
//   staged_tile.cuh the epilogue functor writing a tile of sums from shared memory
//   sm80/         the mma.sync kernel components (operand tiles, the cp.async +
//                 mma.sync main loop) and the GEMM kernel that composes them
//                 with the staged epilogue (sm80/gemm_kernel.cuh)
//   sm90/         the sm_90 kernel components (operand tiles, the TMA + wgmma
//                 main loop, the staged epilogue) and the GEMM kernel that
//                 composes them (sm90/gemm_kernel.cuh)
// Targets sm_80 .. sm_90a.  Bump TC_RUNTIME_VERSION on any change that the
// code generator must know about (names, signatures, swizzle function).
#pragma once

#define TC_RUNTIME_VERSION 10

#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "status.cuh"

#include "convert.cuh"
#include "cp_async.cuh"
#include "fragment.cuh"
#include "isl_ast.cuh"
#include "ldmatrix.cuh"
#include "mma.cuh"
#include "swizzle.cuh"
#include "tile_copy.cuh"
#include "alias_check.cuh"
#include "subscript_range.cuh"
#include "tile_convert.cuh"
#include "raw_fragment.cuh"
#include "wgmma.cuh"
#include "mbarrier.cuh"
#include "registers.cuh"
#include "tma.cuh"
#include "cluster.cuh"
#include "tile_schedule.cuh"
#include "cluster_parts.cuh"
#include "operand_repack.cuh"
#include "raster.cuh"
#include "split_k.cuh"
#include "lane_store.cuh"
#include "read_only.cuh"
#include "tile_choice.cuh"
#include "kernel_choice.cuh"
#include "launch_facts.cuh"
#include "tuning.cuh"
#include "shared_memory_opt_in.cuh"
#include "prologue.cuh"
#include "packed.cuh"
#include "sm80/gemm_kernel.cuh"
#include "sm90/gemm_kernel.cuh"
#include "decode/launch.cuh"
