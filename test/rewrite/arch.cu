// --arch: the target goes into the kernel's description comment and the
// result compiles for that architecture. sm_90a is the default; sm_90 is
// accepted as sm_90a.
//
// RUN: %tc-rewrite --arch=sm_80 %s -o %t.sm80.cu
// RUN: FileCheck %s --check-prefixes=CHECK,SM80 --input-file=%t.sm80.cu --implicit-check-not='{{^ *}}#pragma tc'
// RUN: %if nvcc && full-tier %{ %nvcc -std=c++17 --expt-relaxed-constexpr -I%tc-include \
// RUN:   -gencode arch=compute_80,code=sm_80 -c %t.sm80.cu -o %t.sm80.o %}
//
// RUN: %tc-rewrite --arch=sm_86 %s -o %t.sm86.cu
// RUN: FileCheck %s --check-prefixes=CHECK,SM86 --input-file=%t.sm86.cu
// RUN: %if nvcc && full-tier %{ %nvcc -std=c++17 --expt-relaxed-constexpr -I%tc-include \
// RUN:   -gencode arch=compute_86,code=sm_86 -c %t.sm86.cu -o %t.sm86.o %}
//
// RUN: %tc-rewrite --arch=sm_89 %s -o %t.sm89.cu
// RUN: FileCheck %s --check-prefixes=CHECK,SM89 --input-file=%t.sm89.cu
// RUN: %if nvcc && full-tier %{ %nvcc -std=c++17 --expt-relaxed-constexpr -I%tc-include \
// RUN:   -gencode arch=compute_89,code=sm_89 -c %t.sm89.cu -o %t.sm89.o %}
//
// RUN: %tc-rewrite --arch=sm_90a %s -o %t.sm90a.cu
// RUN: FileCheck %s --check-prefixes=CHECK,SM90A --input-file=%t.sm90a.cu
// RUN: %tc-rewrite %s -o %t.default.cu
// RUN: diff %t.sm90a.cu %t.default.cu
// RUN: %tc-rewrite --arch=sm_90 %s -o %t.sm90.cu
// RUN: diff %t.sm90a.cu %t.sm90.cu
// RUN: %if nvcc && full-tier %{ %nvcc -std=c++17 --expt-relaxed-constexpr -I%tc-include \
// RUN:   -gencode arch=compute_90a,code=sm_90a -c %t.sm90a.cu -o %t.sm90a.o %}
// mma.sync on sm_90a when asked for:
// RUN: %tc-rewrite --mma-path=sync %s -o %t.sync.cu
// RUN: FileCheck %s --check-prefixes=CHECK,SYNC --input-file=%t.sync.cu

// CHECK:      {{^}}#include <tc/tc.cuh>
// The mma.sync kernel is the components' (tc/sm80/gemm_kernel.cuh).
// SM80:       {{^}}struct tc_gemm_0_epilogue {
// SM86:       {{^}}struct tc_gemm_0_epilogue {
// SM89:       {{^}}struct tc_gemm_0_epilogue {
// SYNC:       {{^}}struct tc_gemm_0_epilogue {
// SM80:       {{^}}//   block tile {{.*}} mma.sync.m16n8k16 {{.*}}, sm_80{{$}}
// SM86:       {{^}}//   block tile {{.*}} mma.sync.m16n8k16 {{.*}}, sm_86{{$}}
// SM89:       {{^}}//   block tile {{.*}} mma.sync.m16n8k16 {{.*}}, sm_89{{$}}
// SYNC:       {{^}}//   block tile {{.*}} mma.sync.m16n8k16 {{.*}}, sm_90a{{$}}
// SM80:   {{^}}  tc::report_status(tc::sm80::launch_gemm<tc::sm80::CpAsyncMmaMainloop<
// SM86:   {{^}}  tc::report_status(tc::sm80::launch_gemm<tc::sm80::CpAsyncMmaMainloop<
// SM89:   {{^}}  tc::report_status(tc::sm80::launch_gemm<tc::sm80::CpAsyncMmaMainloop<
// SYNC:   {{^}}  tc::report_status(tc::sm80::launch_gemm<tc::sm80::CpAsyncMmaMainloop<
// wgmma: A K-major, B (row-major, n contiguous) N-major. Every kernel is
// the sm_90 components' (tc/sm90/gemm_kernel.cuh), instantiated for the
// region's tiles and epilogue functor: no kernel of the region's own. The
// persistent kernel comes last, for the shapes the others do not take or
// cannot launch (its producer warp then copies the tiles).
// SM90A-NOT:  __global__
// SM90A:      {{^}}//   block tile 128x128x64, 2 warpgroups (8 warps and a producer warp), 4 TMA stages (mbarriers), persistent blocks {{.*}}, sm_90a{{$}}
// SM90A-NEXT: {{^}}static void tc_gemm_0_launch(
// SM90A:      {{^}}    break;
// SM90A:      {{^}}  default:
// SM90A:      {{^}}  if (!tc::sm90::launch_gemm<tc::sm90::TmaWgmmaMainloop<
// SM90A-NEXT: {{^}}          tc::sm90::OperandTile<__half, 128, tc::sm90::Major::K>,  // A
// SM90A-NEXT: {{^}}          tc::sm90::OperandTile<__half, 128, tc::sm90::Major::MN>,  // B
// SM90A-NEXT: {{^}}          4>,
// SM90A-NEXT: {{^}}      tc::sm90::PersistentScheduler>({M, N, K}, A, K, B, N, tc_gemm_0_epilogue{M, N, K, A, B, C}, tc_stream))
// SM90A-NEXT: {{^}}    tc::report_error(tc::Status::LaunchFailed, "arch.cu:{{[0-9]+}}", "'#pragma tc' region: its kernel could not be launched (cudaGetLastError says why)");
// SM90A-NOT:  __global__
// CHECK:      {{^  }}tc_gemm_0_launch(M, N, K, A, B, C, 0);

#include <cuda_fp16.h>

void gemm(int M, int N, int K, const __half *__restrict__ A,
          const __half *__restrict__ B, __half *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = __float2half(acc);
    }
}
