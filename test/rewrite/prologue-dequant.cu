// An int8/uint8 operand (a quantized weight) is converted to the other
// operand's type on its way to the shared tile wgmma or mma.sync read, with
// its prologue (a zero point per output channel or a scalar) applied there;
// a scale per channel factors out of the sum into the epilogue. A K-major
// 8-bit B on wgmma lands raw by TMA: the 128x128 kernel computes its tile
// transposed, each consumer thread converting its wgmma A fragments of the
// raw tile in registers (tc::load_raw_fragments), and so does the 256x128
// kernel for large outputs (setmaxnreg: a producer warpgroup), 224, 192 or
// 176 rows tall where those fit rounds of SMs better; smaller outputs take
// the 128x128 kernel 112, 96, 80 or 64 rows tall where those spread them
// over more SMs or cover few rows of X (the 64-row one also for short
// reductions). Every kernel is composed; where TMA cannot map W (its rows
// not 16-byte aligned) the default's producer warp copies it. On sm_80 the
// cp.async kernels convert while copying.
//
// Compiled without --expt-relaxed-constexpr: the rewritten code needs no
// nvcc switch beyond the include path and the architecture.
//
// RUN: %tc-rewrite --explain %s | FileCheck %s --check-prefix=EXPLAIN
// RUN: %tc-rewrite --arch=sm_80 --explain %s | FileCheck %s --check-prefix=EXPLAIN80
// RUN: %tc-rewrite %s -o %t.cu
// RUN: FileCheck %s --input-file=%t.cu
// RUN: %tc-rewrite --arch=sm_80 %s -o %t.sm80.cu
// RUN: FileCheck %s --input-file=%t.sm80.cu --check-prefix=SM80OUT
// RUN: %if nvcc && full-tier %{ %nvcc -std=c++17 -I%tc-include -gencode arch=compute_90a,code=sm_90a -Xptxas -v -c %t.cu -o %t.o 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// PTXAS-NOT: {{ [1-9][0-9]* bytes spill stores}}
// PTXAS-NOT: C7515
// PTXAS-NOT: C7512

#include <cstdint>
#include <cuda_bf16.h>
#include <cuda_fp16.h>

void int8_linear(int M, int N, int K, const __half *__restrict__ X,
                 const int8_t *__restrict__ W, const float *__restrict__ zero,
                 const float *__restrict__ scale, __half *__restrict__ Y) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(X[i * K + k]) * (((float)W[j * K + k] - zero[j]) * scale[j]);
      Y[i * N + j] = __float2half(acc);
    }
}
// EXPLAIN: B = W (column-major, leading dimension K, prologue (static_cast<float>(static_cast<float>(W[j][k])) - zero[j]), signed char converted while copying), inputs __half
// Four stages, one block per SM (two blocks of three spilled the conversion).
// A few-tile output splits every tile into parts launched as one cluster.
// EXPLAIN: kernel: block tile 128x128x64, 2 warpgroups (8 warps and a producer warp), 4 TMA stages
// EXPLAIN-SAME: few tiles split into parts launched as one cluster each (distributed shared memory adds them)
// W's raw stages at a byte an element, as the components lay them out
// (4 x (128 x 64 + 128 x 64 x 2) bytes and the barriers).
// EXPLAIN-SAME: 98384 bytes of shared memory
// EXPLAIN: main loop: {{.*}}; the tile computed transposed (C^T = B^T A^T): B's 8-bit tile lands raw (64-byte swizzle) and each consumer thread converts its wgmma A fragments from it in registers, minus each row's offset in fp16 pairs where exact (a cp.async twin, where there is one, converts while copying){{$}}
// EXPLAIN-NEXT: decoding shapes (M <= tc::decode::kWgmmaDecodeRows): tc::decode::launch_weight_stream with tc_int8_linear_0_weight_rows and tc_int8_linear_0_epilogue (mma.sync up to 16 rows, wgmma up to 32; W and X through TMA stages, through registers where TMA cannot map them)
// EXPLAIN80: decoding shapes (M <= tc::decode::kDecodeRows): tc::decode::launch_weight_stream with tc_int8_linear_0_weight_rows and tc_int8_linear_0_epilogue (mma.sync, W through registers)
// The 64x128 kernel is the 128x128 one's shortest transposed tile (64 rows
// of X, six stages); the 256x128 one computes its tile transposed beside a
// producer warpgroup.
// EXPLAIN: kernel: block tile 64x128x64, 2 warpgroups (8 warps and a producer warp), 6 TMA stages
// EXPLAIN-SAME: the tile transposed, wgmma.mma_async.m64n64k16
// The 192x192 kernel: five stages at the components' sizes (W's a byte an
// element), a producer warpgroup of 32 registers a thread.
// EXPLAIN: kernel: block tile 192x192x64, 3 warpgroups (12 warps and a producer warpgroup; setmaxnreg: 32 registers a producer thread, 160 a consumer's), 5 TMA stages (mbarriers), the tile transposed, wgmma.mma_async.m64n192k16 (fp32 accumulation, 1 group in flight), 184416 bytes of shared memory, sm_90a
// EXPLAIN: kernel: block tile 256x128x64, 2 warpgroups (8 warps and a producer warpgroup; setmaxnreg: 40 registers a producer thread, 232 a consumer's), 4 TMA stages (mbarriers), stream units {{.*}}, the tile transposed, wgmma.mma_async.m64n256k16
// EXPLAIN-NEXT: main loop: {{.*}}; the tile computed transposed {{.*}}; the producer a warpgroup that gives its registers to the consumers (setmaxnreg), for the accumulators of 256 columns
// The 128x128 kernel shorter: the same warps, 6 stages.
// EXPLAIN: kernel: block tile 96x128x64, 2 warpgroups (8 warps and a producer warp), 6 TMA stages (mbarriers), stream units {{.*}}, few tiles split into parts launched as one cluster each {{.*}}, the tile transposed, wgmma.mma_async.m64n96k16
// The 64x128 kernel is composed: no generated body.
// CHECK-NOT: tc_int8_linear_0_narrow_kernel(
// The transposed kernels (the 128x128 one, 224, 192, 176 and 256 rows of
// X tall beside a producer warpgroup, and 112 to 64 rows short, the 64-row
// one also the narrow kernel) are the
// sm_90 components': the weight is their A, landed raw and converted into
// wgmma's register fragments (tc::sm90::RawRegisterA), X their B, the
// output staged transposed (tc::sm90::TransposedOutput), by the operand's
// functor, whose row() binds each of a thread's rows' offsets once.
// CHECK-NOT: {{^}}__global__ {{.*}}tc_int8_linear_0_tall224_kernel(
// CHECK-NOT: {{^}}__global__ {{.*}}tc_int8_linear_0_short96_kernel(
// W's functor: the element minus its row's zero point, and row(), its
// OffsetRow (fp16 pairs where exact), nothing read past W's rows.
// CHECK-LABEL: {{^}}struct tc_int8_linear_0_operand_b {
// CHECK: {{^}}  __device__ auto row(long long tc_row, bool tc_inside) const {
// CHECK-NEXT: {{^}}    const ::std::decay_t<decltype(zero[((tc_row))])> tc_v0 = tc_inside ? zero[((tc_row))] : ::std::decay_t<decltype(zero[((tc_row))])>();
// CHECK-NEXT: {{^}}    return tc::offset_row<signed char>(
// CHECK-NEXT: {{^}}        [=, *this](float tc_x) -> float { return static_cast<float>((tc_x - tc_v0)); },
// CHECK-NEXT: {{^}}        tc_v0);
// The region's epilogue functor (the components' and the decode kernel's).
// CHECK-LABEL: {{^}}struct tc_int8_linear_0_epilogue {
// CHECK: tc_value += static_cast<float>(tc::read_only(scale[((tc_n))])) * tc_sum;
// No generated kernel is left: no cp.async twin either.
// CHECK-NOT: tc_int8_linear_0_cp_async
// On sm_80 the cp.async kernel is the region's own, its copy mode chosen
// at run time: the converted operand's chunks aligned.
// SM80OUT-LABEL: static void tc_int8_linear_0_launch(
// SM80OUT: int tc_mode = tc::copy_mode(X, K, K);
// SM80OUT-NEXT: tc_mode = tc::min(tc_mode, tc::convert_copy_mode<__half>(W, K, K));
// The decode kernel's functor of W's row offsets.
// CHECK-LABEL: {{^}}struct tc_int8_linear_0_weight_rows {
// CHECK: __device__ auto operator()(long long tc_row) const {
// CHECK-NEXT: {{^}}    const ::std::decay_t<decltype(zero[((tc_row))])> tc_v0 = zero[((tc_row))];
// CHECK-NEXT: {{^}}    return tc::offset_row<signed char>(
// At M <= 16 the decode kernel (tc/decode/launch.cuh); else, or where
// it cannot launch: small outputs of enough rows and columns with short
// reductions: 64x128 tiles, unsplit, rather than 128x128 tiles split along
// k (tc/tile_choice.cuh). Otherwise the TMA kernel, whose maps need W's
// rows 16-byte aligned (no aligned copy of an 8-bit operand), else the
// cp.async kernel.
// CHECK-LABEL: {{^}}static void tc_int8_linear_0_launch(
// CHECK-NEXT: {{^}}  const tc::LaunchFacts tc_facts = tc::launch_facts();  // (tc/launch_facts.cuh)
// CHECK-NEXT: {{^}}  if (!(((M >= 1) && (N >= 1))))
// CHECK-NEXT: {{^}}    return;  // no output element
// CHECK-NEXT: {{^}}#ifdef TC_TUNING
// CHECK-NEXT: {{^}}  // A tuning run (tc/tuning.cuh): the first launch of a shape's bucket
// CHECK-NEXT: {{^}}  // times each kernel on the region's arrays, then runs as usual.
// CHECK-NEXT: {{^}}  if ((M) > tc::decode::kWgmmaDecodeRows && tc::tuning::measures("sm_90a f16.row s8.col -> f16 prologue #{{[0-9a-f]+}}", M, N, K, tc_stream))
// CHECK:      {{^}}#endif
// CHECK-NEXT: {{^}}  // Decoding shapes: at few rows the layer is bound by the bytes of W,
// CHECK-NEXT: {{^}}  // which the decode kernel reads once (tc/decode/launch.cuh).
// CHECK-NEXT: {{^}}  if (tc_facts.options.decode_kernels && (M) <= tc::decode::kWgmmaDecodeRows &&
// CHECK-NEXT: {{^}}      tc::decode::launch_weight_stream<true>(M, N, K, X, K, W, K,
// CHECK-NEXT: {{^}}        tc_int8_linear_0_weight_rows{M, N, K, X, W, zero, scale, Y}, tc_int8_linear_0_epilogue{M, N, K, X, W, zero, scale, Y}, tc_facts.device, tc_stream)) {
// CHECK-NEXT: {{^}}    return;
// CHECK-NEXT: {{^}}  }
// CHECK-NEXT: {{^}}  // The kernel for this shape: the first candidate whose rule holds, else
// CHECK-NEXT: {{^}}  // this one (tc/kernel_choice.cuh).
// CHECK-NEXT: {{^}}  static constexpr tc::KernelCandidate tc_candidates[] = {
// CHECK-NEXT: {{^}}      {tc::KernelRule::NarrowRawFragmentTiles},  // tc_int8_linear_0_narrow
// CHECK-NEXT: {{^}}      {tc::KernelRule::FittedRawFragmentTiles},  // tc_int8_linear_0_fitted
// CHECK-NEXT: {{^}}      {tc::KernelRule::TallRawFragmentHeight, 224, {256, 224, 192, 176}, 1},  // tc_int8_linear_0_tall224
// CHECK-NEXT: {{^}}      {tc::KernelRule::TallRawFragmentHeight, 192, {256, 224, 192, 176}, 1},  // tc_int8_linear_0_tall192
// CHECK-NEXT: {{^}}      {tc::KernelRule::TallRawFragmentHeight, 176, {256, 224, 192, 176}, 1},  // tc_int8_linear_0_tall176
// CHECK-NEXT: {{^}}      {tc::KernelRule::TallRawFragmentTiles},  // tc_int8_linear_0_tall
// CHECK-NEXT: {{^}}      {tc::KernelRule::ShortRawFragmentHeight, 112, {128, 112, 96, 80, 64}, 10},  // tc_int8_linear_0_short112
// CHECK-NEXT: {{^}}      {tc::KernelRule::ShortRawFragmentHeight, 96, {128, 112, 96, 80, 64}, 10},  // tc_int8_linear_0_short96
// CHECK-NEXT: {{^}}      {tc::KernelRule::ShortRawFragmentHeight, 80, {128, 112, 96, 80, 64}, 10},  // tc_int8_linear_0_short80
// CHECK-NEXT: {{^}}      {tc::KernelRule::ShortRawFragmentHeight, 64, {128, 112, 96, 80, 64}, 10},  // tc_int8_linear_0_short64
// CHECK-NEXT: {{^}}  };
// CHECK-NEXT: {{^}}  switch (tc::choose_kernel(M, N, K, 1, tc_candidates, tc_facts.device, tc_facts.options)) {
// CHECK-NEXT: {{^}}  case 0:  // 64x128 tiles
// CHECK-NEXT: {{^}}    if (tc::sm90::launch_gemm<tc::sm90::TmaWgmmaMainloop<
// CHECK-NEXT: {{^}}            tc::sm90::RawOperandTile<signed char, 128>,  // B, transposed: C^T = B^T A^T
// CHECK-NEXT: {{^}}            tc::sm90::OperandTile<__half, 64, tc::sm90::Major::K>,  // A
// CHECK-NEXT: {{^}}            6,
// CHECK-NEXT: {{^}}            tc::sm90::RawRegisterA<tc_int8_linear_0_operand_b>>,
// CHECK: {{^}}      return;
// CHECK-NEXT: {{^}}    break;
// The 192x192 tiles: three consumer warpgroups beside a producer
// warpgroup of 32 registers a thread (160 for each consumer thread), five
// stages of W's raw tile (a byte an element) and X's, in which the output
// tile, staged transposed, fits; whole tiles.
// CHECK-NEXT: {{^}}  case 1:  // 192x192 tiles
// CHECK-NEXT: {{^}}    if (tc::sm90::launch_gemm<tc::sm90::TmaWgmmaMainloop<
// CHECK-NEXT: {{^}}            tc::sm90::RawOperandTile<signed char, 192>,  // B, transposed: C^T = B^T A^T
// CHECK-NEXT: {{^}}            tc::sm90::OperandTile<__half, 192, tc::sm90::Major::K>,  // A
// CHECK-NEXT: {{^}}            5,
// CHECK-NEXT: {{^}}            tc::sm90::RawRegisterA<tc_int8_linear_0_operand_b>, tc::sm90::ProducerWarpgroup<32, 160>>>({N, M, K}, W, K, X, K,
// CHECK:      {{^}}      return;
// CHECK-NEXT: {{^}}    break;
// CHECK-NEXT: {{^}}  case 2:  // 224x128 tiles
// CHECK-NEXT: {{^}}    if (tc::sm90::launch_gemm<tc::sm90::TmaWgmmaMainloop<
// CHECK-NEXT: {{^}}            tc::sm90::RawOperandTile<signed char, 128>,  // B, transposed: C^T = B^T A^T
// CHECK-NEXT: {{^}}            tc::sm90::OperandTile<__half, 224, tc::sm90::Major::K>,  // A
// CHECK-NEXT: {{^}}            4,
// CHECK-NEXT: {{^}}            tc::sm90::RawRegisterA<tc_int8_linear_0_operand_b>, tc::sm90::ProducerWarpgroup<40, 232>>,
// CHECK-NEXT: {{^}}        tc::sm90::StreamUnitsScheduler>({N, M, K}, W, K, X, K, tc::sm90::TransposedOutput<tc_int8_linear_0_epilogue>{tc_int8_linear_0_epilogue{M, N, K, X, W, zero, scale, Y}}, tc_stream,
// CHECK-NEXT: {{^}}        tc::sm90::Producer::kTma, {tc_int8_linear_0_operand_b{M, N, K, X, W, zero, scale, Y}, {}}))
// CHECK-NEXT: {{^}}      return;
// CHECK:      {{^}}  case 6:  // 112x128 tiles
// CHECK-NEXT: {{^}}    if (tc::sm90::launch_gemm<tc::sm90::TmaWgmmaMainloop<
// CHECK-NEXT: {{^}}            tc::sm90::RawOperandTile<signed char, 128>,  // B, transposed: C^T = B^T A^T
// CHECK-NEXT: {{^}}            tc::sm90::OperandTile<__half, 112, tc::sm90::Major::K>,  // A
// CHECK-NEXT: {{^}}            6,
// CHECK-NEXT: {{^}}            tc::sm90::RawRegisterA<tc_int8_linear_0_operand_b>>,
// CHECK-NEXT: {{^}}        tc::sm90::ClusterPartsScheduler<10, tc::sm90::StreamUnitsScheduler>>({N, M, K}, W, K, X, K,
// The default: the 128x128 transposed kernel, four stages, clusters of
// parts from 10 k tiles, else stream units; its producer warp copies
// where TMA cannot map an operand (W's rows not 16-byte aligned).
// CHECK:      {{^}}  default:
// CHECK-NEXT: {{^}}    break;
// CHECK-NEXT: {{^}}  }
// CHECK:      {{^}}  if (!tc::sm90::launch_gemm<tc::sm90::TmaWgmmaMainloop<
// CHECK-NEXT: {{^}}          tc::sm90::RawOperandTile<signed char, 128>,  // B, transposed: C^T = B^T A^T
// CHECK-NEXT: {{^}}          tc::sm90::OperandTile<__half, 128, tc::sm90::Major::K>,  // A
// CHECK-NEXT: {{^}}          4,
// CHECK-NEXT: {{^}}          tc::sm90::RawRegisterA<tc_int8_linear_0_operand_b>>,
// CHECK-NEXT: {{^}}      tc::sm90::ClusterPartsScheduler<10, tc::sm90::StreamUnitsScheduler>>({N, M, K}, W, K, X, K, tc::sm90::TransposedOutput<tc_int8_linear_0_epilogue>{tc_int8_linear_0_epilogue{M, N, K, X, W, zero, scale, Y}}, tc_stream,
// CHECK-NEXT: {{^}}      tc::sm90::Producer::kTma, {tc_int8_linear_0_operand_b{M, N, K, X, W, zero, scale, Y}, {}}))
// CHECK-NEXT: {{^}}    tc::report_error(tc::Status::LaunchFailed, "prologue-dequant.cu:37", "'#pragma tc' region: its kernel could not be launched (cudaGetLastError says why)");

// uint8 weights K x N (n contiguous) with a scalar zero point: the prologue
// is a function of the element and the kernel's scalar argument.
void uint8_kn(int M, int N, int K, float zp, const __half *__restrict__ X,
              const uint8_t *__restrict__ W, float *__restrict__ Y) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(X[i * K + k]) * ((float)W[k * N + j] - zp);
      Y[i * N + j] = acc;
    }
}
// mma.sync (an N-major converted operand): the mma.sync components'
// converted tile, whose copier loads and converts at once, with the
// region's functor of the element and its column.
// CHECK-LABEL: struct tc_uint8_kn_0_operand_b {
// CHECK: {{^ *}}float zp;
// CHECK: {{^ *}}__device__ float operator()(float tc_x, long long tc_row) const {
// CHECK-NEXT: {{^ *}}return static_cast<float>((tc_x - zp));
// CHECK-LABEL: static void tc_uint8_kn_0_launch(
// CHECK: tc::sm80::ConvertedOperandTile<unsigned char, __half, 128, tc::sm80::Major::MN, tc_uint8_kn_0_operand_b>,  // B
// CHECK: {W, N, tc_uint8_kn_0_operand_b{M, N, K, zp, X, W, Y}},

// Offset rows (tc::OffsetRow) on the TMA kernel's raw stages: the element
// minus (or plus) an offset in floating point, or no prologue at all.
// Symmetric int8: no prologue, the scale applied to the sum; offset 0.
void int8_symmetric(int M, int N, int K, const __half *__restrict__ X,
                    const int8_t *__restrict__ W, const float *__restrict__ scale,
                    __half *__restrict__ Y) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(X[i * K + k]) * ((float)W[j * K + k] * scale[j]);
      Y[i * N + j] = __float2half(acc);
    }
}
// CHECK-LABEL: {{^}}struct tc_int8_symmetric_0_operand_b {
// CHECK: {{^}}  __device__ auto row(long long tc_row, bool tc_inside) const {
// CHECK-NEXT: return tc::offset_row<signed char>(
// CHECK-NEXT: [=, *this](float tc_x) -> float { return static_cast<float>(tc_x); },
// CHECK-NEXT: 0);
// CHECK: tc::sm90::RawRegisterA<tc_int8_symmetric_0_operand_b>

// An offset added, from an 8-bit array (integer arithmetic after int
// promotion, nothing wraps): the row's offset is minus the value, in double.
void uint8_plus(int M, int N, int K, const __half *__restrict__ X,
                const uint8_t *__restrict__ W, const int8_t *__restrict__ shift,
                float *__restrict__ Y) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(X[i * K + k]) * (W[j * K + k] + shift[j]);
      Y[i * N + j] = acc;
    }
}
// The sum of two bytes is computed in fp32 (exact below 2^24), not through
// int (whose conversions spilled the raw-fragment kernel).
// CHECK-LABEL: {{^}}struct tc_uint8_plus_0_operand_b {
// CHECK: return tc::offset_row<unsigned char>(
// CHECK-NEXT: [=, *this](float tc_x) -> float { return static_cast<float>(static_cast<float>((static_cast<float>(tc_x) + static_cast<float>(tc_v0)))); },
// CHECK-NEXT: -static_cast<double>(static_cast<int>(tc_v0)));
// CHECK: tc::sm90::RawRegisterA<tc_uint8_plus_0_operand_b>

// Not offset rows: a division (the scale does not factor out of a quotient),
// unsigned arithmetic (W - zu[j] wraps modulo 2^32 before the conversion),
// and bf16 stages. Their rows convert through fp32 only.
void int8_divided(int M, int N, int K, const __half *__restrict__ X,
                  const int8_t *__restrict__ W, const float *__restrict__ step,
                  float *__restrict__ Y) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(X[i * K + k]) * ((float)W[j * K + k] / step[j]);
      Y[i * N + j] = acc;
    }
}
// CHECK-LABEL: {{^}}struct tc_int8_divided_0_operand_b {
// CHECK: {{^}}  __device__ auto row(long long tc_row, bool tc_inside) const {
// CHECK: return [=, *this](float tc_x) -> float { return static_cast<float>((tc_x / tc_v0)); };
// CHECK-LABEL: {{^}}static void tc_int8_divided_0_launch(
// CHECK: tc::sm90::RawRegisterA<tc_int8_divided_0_operand_b>

void uint8_unsigned_zero(int M, int N, int K, const __half *__restrict__ X,
                         const uint8_t *__restrict__ W, const unsigned *__restrict__ zu,
                         float *__restrict__ Y) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(X[i * K + k]) * (float)(W[j * K + k] - zu[j]);
      Y[i * N + j] = acc;
    }
}
// CHECK-LABEL: {{^}}struct tc_uint8_unsigned_zero_0_operand_b {
// CHECK: {{^}}  __device__ auto row(long long tc_row, bool tc_inside) const {
// CHECK: return [=, *this](float tc_x) -> float { return static_cast<float>(
// CHECK-LABEL: {{^}}static void tc_uint8_unsigned_zero_0_launch(

void int8_bf16(int M, int N, int K, const __nv_bfloat16 *__restrict__ X,
               const int8_t *__restrict__ W, const float *__restrict__ zero,
               float *__restrict__ Y) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __bfloat162float(X[i * K + k]) * ((float)W[j * K + k] - zero[j]);
      Y[i * N + j] = acc;
    }
}
// CHECK-LABEL: {{^}}struct tc_int8_bf16_0_operand_b {
// CHECK: {{^}}  __device__ auto row(long long tc_row, bool tc_inside) const {
// CHECK: return [=, *this](float tc_x) -> float { return static_cast<float>((tc_x - tc_v0)); };
// CHECK-LABEL: {{^}}static void tc_int8_bf16_0_launch(
// CHECK: tc::sm90::OperandTile<__nv_bfloat16, 128, tc::sm90::Major::K>,  // A
// CHECK-NEXT: 4,
// CHECK-NEXT: tc::sm90::RawRegisterA<tc_int8_bf16_0_operand_b>>,
