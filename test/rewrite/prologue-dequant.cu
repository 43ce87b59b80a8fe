// An int8/uint8 operand (a quantized weight) is converted to the other
// operand's type on its way to the shared tile wgmma or mma.sync read, with
// its prologue (a zero point per output channel or a scalar) applied there;
// a scale per channel factors out of the sum into the epilogue. A K-major
// 8-bit B on wgmma lands raw by TMA: the 128x128 kernel computes its tile
// transposed, each consumer thread converting its wgmma A fragments of the
// raw tile in registers (tc::load_raw_fragments), and so does the 256x128
// kernel for large outputs (setmaxnreg: a producer warpgroup), 224, 192 or
// 176 rows tall where those fit rounds of SMs better, and the 192x192
// kernel where its tiles fill whole rounds; smaller outputs take the
// 128x128 kernel 112, 96, 80 or 64 rows tall where those spread them over
// more SMs or cover few rows of X; the 64x128 kernel's
// consumers convert it into its stage (tc::convert_raw_stage); the cp.async
// kernels, the TMA kernels' fallback, convert while copying.
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
// EXPLAIN-SAME: 131152 bytes of shared memory
// EXPLAIN: main loop: {{.*}}; the tile computed transposed (C^T = B^T A^T): B's 8-bit tile lands raw (64-byte swizzle) and each consumer thread converts its wgmma A fragments from it in registers, minus each row's offset in fp16 pairs where exact (the cp.async kernel converts while copying){{$}}
// EXPLAIN-NEXT: decoding shapes (M <= tc::decode::kWgmmaDecodeRows): tc::decode::launch_weight_stream with tc_int8_linear_0_weight_rows and tc_int8_linear_0_epilogue (mma.sync up to 16 rows, wgmma up to 32; W and X through TMA stages, through registers where TMA cannot map them)
// EXPLAIN80: decoding shapes (M <= tc::decode::kDecodeRows): tc::decode::launch_weight_stream with tc_int8_linear_0_weight_rows and tc_int8_linear_0_epilogue (mma.sync, W through registers)
// The 64x128 kernel converts into its stages; the 256x128 one computes its
// tile transposed beside a producer warpgroup.
// EXPLAIN: kernel: block tile 64x128x64, 1 warpgroup (4 warps and a producer warp)
// EXPLAIN-NEXT: main loop: {{.*}}; B's 8-bit tile lands raw in the second half of its stage and the consumers convert it in place, minus each row's offset in fp16 pairs where exact
// EXPLAIN: kernel: block tile 256x128x64, 2 warpgroups (8 warps and a producer warpgroup; setmaxnreg: 40 registers a producer thread, 232 a consumer's), 4 TMA stages (mbarriers), stream units {{.*}}, the tile transposed, wgmma.mma_async.m64n256k16
// EXPLAIN-NEXT: main loop: {{.*}}; the tile computed transposed {{.*}}; the producer a warpgroup that gives its registers to the consumers (setmaxnreg), for the accumulators of 256 columns
// The 128x128 kernel shorter: the same warps, 6 stages.
// EXPLAIN: kernel: block tile 96x128x64, 2 warpgroups (8 warps and a producer warp), 6 TMA stages (mbarriers), stream units {{.*}}, few tiles split into parts launched as one cluster each {{.*}}, the tile transposed, wgmma.mma_async.m64n96k16
// The 64x128 kernel's consumers convert the raw tile into B's stage, in two
// versions of their code (tc_packed_b a compile-time constant in each).
// CHECK-LABEL: tc_int8_linear_0_narrow_kernel(
// CHECK: const decltype(tc_convert_b_row(0)) tc_convert_b[8] = {
// CHECK-NEXT: tc_convert_b_row(128LL * tc_block_n + tc::RawStageLayout<128, 128>::row(tc_thread, 0)),
// CHECK: const auto tc_consumers = [&](auto tc_packed) {
// CHECK-NEXT: constexpr bool tc_packed_b = decltype(tc_packed)::value;
// CHECK: tc::convert_raw_stage<signed char, __half, 128, 128>(tc_smem_b + {{.*}} * 8192, tc_thread, tc_convert_b, tc_packed_b, (K) - (64 * {{.*}}),
// CHECK: tc_consumers(::std::true_type());
// CHECK-LABEL: static void tc_int8_linear_0_narrow_launch(
// CHECK: !tc::tma_map_2d_bytes(&tc_map_b, W, K, N, K, 64, 128)) {
// 192x192 transposed tiles, where those fill whole rounds of SMs and the
// tall ones do not (tc::prefer_fitted_raw_fragment_tiles): three consumer
// warpgroups of m64n192k16, 64 rows of W each, beside the producer
// warpgroup.
// CHECK-LABEL: __launch_bounds__(512, 1) tc_int8_linear_0_fitted_kernel(
// CHECK: tc::mbarrier_init(tc_empty + tc_s, 3);  // one arrival per consumer warpgroup
// CHECK: if (::threadIdx.x >= 384) {  // the producer warpgroup: few registers
// CHECK: tc::mbarrier_arrive_expect_tx(tc_full + {{.*}}, 36864);
// CHECK-NEXT: tc::tma_load_2d(tc_smem_a + {{.*}} * 12288, tc_map_a, {{.*}}, (64 * {{c[0-9]}}), 192 * tc_block_m);
// CHECK-NEXT: tc::tma_load_2d(tc_smem_raw_b + {{.*}} * 24576, tc_map_b, {{.*}}, (64 * {{c[0-9]}}), 192 * tc_block_n);
// CHECK: tc::claim_registers<152>();  // the consumers' share
// CHECK: float tc_acc[1][24][4] = {};
// CHECK: tc::wgmma_m64k16_rs<__half, 0, 192>(tc_acc[0], tc_frag_b[0][0], tc::wgmma_desc_advance(tc_desc_a, {{.*}} * 24576 + 32 * 0));
// CHECK: tc::consumer_sync<384>();  // the stages become the output tile
// CHECK: tc::combine_parts<192, 192, 200, 384>(
// CHECK-LABEL: static void tc_int8_linear_0_fitted_launch(
// CHECK: if (!tc::tma_map_2d_aligned(&tc_map_a, X, K, M, K, 64, 192, tc_stream, 0, tc_facts.device) ||
// CHECK-NEXT: !tc::tma_map_2d_bytes(&tc_map_b, W, K, N, K, 64, 192, true)) {
// CHECK-NEXT: tc_int8_linear_0_cp_async_launch(M, N, K, X, W, zero, scale, Y, tc_stream);
// CHECK: tc::schedule_tiles({{.*}}(M + 191) / 192{{.*}}, {{.*}}(N + 191) / 192{{.*}}, tc_k_tiles, tc_facts.device);
// CHECK: tc_int8_linear_0_fitted_kernel<<<(unsigned)tc::schedule_blocks(tc_schedule), 512, tc_smem_bytes, tc_stream>>>(
// The tall kernel again 224, 192 and 176 rows of X tall (wgmma's N): the
// stages, instruction, output tile and schedule of that height, taken
// where those tiles fit rounds of SMs better (tc::tall_tile_height).
// CHECK-LABEL: __launch_bounds__(384, 1) tc_int8_linear_0_tall224_kernel(
// CHECK: {{^ *}}__half *tc_smem_b = tc_smem_a + 57344;
// CHECK: ::uint64_t *tc_full = reinterpret_cast<::uint64_t *>(tc_smem + 180224);
// CHECK: tc::mbarrier_arrive_expect_tx(tc_full + {{.*}}, 36864);
// CHECK-NEXT: tc::tma_load_2d(tc_smem_a + {{.*}} * 14336, tc_map_a, {{.*}}, (64 * {{c[0-9]}}), 224 * tc_block_m);
// CHECK: float tc_acc[1][28][4] = {};
// CHECK: tc::wgmma_m64k16_rs<__half, 0, 224>(tc_acc[0], tc_frag_b[0][0], tc::wgmma_desc_advance(tc_desc_a, {{.*}} * 28672 + 32 * 0));
// CHECK: for (int [[T224:c[0-9]]] = 0; [[T224]] <= 27; [[T224]] += 1) {
// CHECK: tc::combine_parts<224, 128, 136, 256>(
// The epilogue's rows: 14 groups of 16 and 112 pairs, up to the output's.
// CHECK: <= tc::min(13, ((-14 * tc_block_m) + tc::floord((((-tc_thread) + (16 * M)) - 1), 256)));
// CHECK: const long long tc_m = (((224 * tc_block_m) + (16 * {{c[0-9]}})) + (tc_thread / 16))
// CHECK: <= tc::min(111, ((-112 * tc_block_m) + tc::floord((((-tc_thread) + (128 * M)) - 1), 256)));
// CHECK: const long long tc_m = (((224 * tc_block_m) + (2 * {{c[0-9]}})) + (tc_thread / 128))
// CHECK-LABEL: static void tc_int8_linear_0_tall224_launch(
// CHECK: if (!tc::tma_map_2d_aligned(&tc_map_a, X, K, M, K, 64, 224, tc_stream, 0, tc_facts.device) ||
// CHECK-NEXT: !tc::tma_map_2d_bytes(&tc_map_b, W, K, N, K, 64, 128, true)) {
// CHECK-NEXT: tc_int8_linear_0_cp_async_launch(M, N, K, X, W, zero, scale, Y, tc_stream);
// CHECK: tc::schedule_stream_tiles({{.*}}(M + 223) / 224{{.*}}, {{.*}}(N + 127) / 128{{.*}}, tc_k_tiles, tc_facts.device, tc_facts.options);
// CHECK: tc::schedule_slot_bytes(tc_schedule, 28672)
// CHECK: constexpr int tc_smem_bytes = 180304;
// CHECK: tc_int8_linear_0_tall224_kernel<<<(unsigned)tc::schedule_blocks(tc_schedule), 384, tc_smem_bytes, tc_stream>>>(
// CHECK-LABEL: __launch_bounds__(384, 1) tc_int8_linear_0_tall192_kernel(
// CHECK: tc::tma_load_2d(tc_smem_a + {{.*}} * 12288, tc_map_a, {{.*}}, (64 * {{c[0-9]}}), 192 * tc_block_m);
// CHECK: tc::wgmma_m64k16_rs<__half, 0, 192>(
// CHECK-LABEL: __launch_bounds__(384, 1) tc_int8_linear_0_tall176_kernel(
// CHECK: tc::tma_load_2d(tc_smem_a + {{.*}} * 11264, tc_map_a, {{.*}}, (64 * {{c[0-9]}}), 176 * tc_block_m);
// CHECK: tc::wgmma_m64k16_rs<__half, 0, 176>(
// The 256x128 kernel computes its tile transposed too: two warpgroups of
// m64n256k16 (one per 64 columns of the output tile), beside a producer
// warpgroup that gives its registers to them (setmaxnreg) in a loop of its
// own; the accumulators' neighbours are neighbouring rows of the tile.
// CHECK-LABEL: __launch_bounds__(384, 1) tc_int8_linear_0_tall_kernel(
// CHECK: {{^ *}}__half *tc_smem_b = tc_smem_a + 65536;
// CHECK: tc::mbarrier_init(tc_empty + tc_s, 2);
// CHECK: if (::threadIdx.x >= 256) {  // the producer warpgroup: few registers
// CHECK-NEXT: tc::release_registers<40>();
// CHECK-NEXT: for (int tc_unit = 0; tc::unit_work<8>(
// CHECK: tc::mbarrier_arrive_expect_tx(tc_full + {{.*}}, 40960);
// CHECK-NEXT: tc::tma_load_2d(tc_smem_a + {{.*}} * 16384, tc_map_a, {{.*}}, (64 * {{c[0-9]}}), 256 * tc_block_m);
// CHECK: {{^}}    return;
// CHECK-NEXT: {{^}}  }
// CHECK-NEXT: {{^}}  tc::claim_registers<232>();  // the consumers' share
// CHECK-NEXT: for (int tc_unit = 0; tc::unit_work<8>(
// CHECK: tc_convert_b_row(128LL * tc_block_n + tc::RawFragmentLayout::row(tc_thread, 0)),
// Two versions of its conversion: fp16 pairs without the integer-offset one
// (KernelConfig::integerOffsetPairs), and fp32.
// CHECK: const tc::OffsetPairs tc_pairs_b = tc::offset_pairs(tc_convert_b);
// CHECK: float tc_acc[1][32][4] = {};
// CHECK: ::uint32_t tc_frag_b[2][4][4];  // by the tile's parity
// CHECK: tc::load_raw_fragments<signed char, __half, false>(tc_frag_b[0], tc_raw_b + {{.*}}, tc_thread, tc_convert_b, tc_pairs_b, (K) - {{.*}});
// CHECK: tc::wgmma_m64k16_rs<__half, 0, 256>(tc_acc[0], tc_frag_b[0][0], tc::wgmma_desc_advance(tc_desc_a, {{.*}} * 32768 + 32 * 0));
// CHECK: tc::consumer_sync<256>();  // the stages become the output tile
// CHECK: for (int [[T:c[0-9]]] = 0; [[T]] <= 31; [[T]] += 1) {
// CHECK: tc_stage[((2 * tc_lane_col) + (8 * [[T]])) * 136 + (((16 * tc_warp_m) + tc_lane_row) + (8 * {{c[0-9]}}))] = tc_acc[0][[[T]]][(2 * {{c[0-9]}})];
// CHECK-NEXT: tc_stage[(((2 * tc_lane_col) + (8 * [[T]])) + 1) * 136 + {{.*}}] = tc_acc[0][[[T]]][(2 * {{c[0-9]}}) + 1];
// CHECK: tc::combine_parts<256, 128, 136, 256>(
// Its TMA maps fail over to the default kernel's cp.async twin.
// CHECK-LABEL: static void tc_int8_linear_0_tall_launch(
// CHECK: if (!tc::tma_map_2d_aligned(&tc_map_a, X, K, M, K, 64, 256, tc_stream, 0, tc_facts.device) ||
// CHECK-NEXT: !tc::tma_map_2d_bytes(&tc_map_b, W, K, N, K, 64, 128, true)) {
// CHECK-NEXT: tc_int8_linear_0_cp_async_launch(M, N, K, X, W, zero, scale, Y, tc_stream);
// CHECK: tc::schedule_stream_tiles({{.*}}(M + 255) / 256{{.*}}, {{.*}}(N + 127) / 128{{.*}}, tc_k_tiles, tc_facts.device, tc_facts.options);
// CHECK: tc_int8_linear_0_tall_kernel<<<(unsigned)tc::schedule_blocks(tc_schedule), 384, tc_smem_bytes, tc_stream>>>(
// The 128x128 kernel 112, 96, 80 and 64 rows of X tall: its warps, one
// block per SM, 6 stages of the shorter X tile and W's raw one, wgmma's N
// the height; its cluster parts and split parts.
// CHECK-LABEL: __launch_bounds__(288, 1) tc_int8_linear_0_short112_kernel(
// CHECK: tc::wgmma_m64k16_rs<__half, 0, 112>(
// CHECK-LABEL: __launch_bounds__(288, 1) tc_int8_linear_0_short96_kernel(
// CHECK: {{^ *}}__half *tc_smem_b = tc_smem_a + 36864;
// CHECK: ::uint64_t *tc_full = reinterpret_cast<::uint64_t *>(tc_smem + 172032);
// CHECK-NEXT: ::uint64_t *tc_empty = tc_full + 6;
// CHECK: tc::mbarrier_arrive_expect_tx(tc_full + {{.*}} % 6), 20480);
// CHECK-NEXT: tc::tma_load_2d(tc_smem_a + {{.*}} % 6) * 6144, tc_map_a, {{.*}}, (64 * {{c[0-9]}}), 96 * tc_block_m);
// CHECK-NEXT: tc::tma_load_2d(tc_smem_raw_b + {{.*}} % 6) * 16384, tc_map_b, {{.*}}, (64 * {{c[0-9]}}), 128 * tc_block_n);
// CHECK: float tc_acc[1][12][4] = {};
// CHECK: tc::load_raw_fragments<signed char, __half>(tc_frag_b[0], tc_raw_b + {{.*}} * 16384, tc_thread, tc_convert_b, tc_pairs_b, (K) - {{.*}});
// CHECK: tc::wgmma_m64k16_rs<__half, 0, 96>(tc_acc[0], tc_frag_b[0][0], tc::wgmma_desc_advance(tc_desc_a, {{.*}} * 12288 + 32 * 0));
// CHECK: tc::add_parts_in_cluster<96, 128, 136, 256>(
// CHECK: tc::combine_parts<96, 128, 136, 256>(
// CHECK-LABEL: static void tc_int8_linear_0_short96_launch(
// CHECK: if (!tc::tma_map_2d_aligned(&tc_map_a, X, K, M, K, 64, 96, tc_stream, 0, tc_facts.device) ||
// CHECK-NEXT: !tc::tma_map_2d_bytes(&tc_map_b, W, K, N, K, 64, 128, true)) {
// CHECK-NEXT: tc_int8_linear_0_cp_async_launch(M, N, K, X, W, zero, scale, Y, tc_stream);
// CHECK: constexpr int tc_smem_bytes = 172144;
// CHECK: if (tc::cluster_parts_may_pay({{.*}}(M + 95) / 96{{.*}}, {{.*}}(N + 127) / 128{{.*}}, tc_k_tiles, 10, tc_facts.device,
// CHECK-NEXT: {{^ *}}tc_facts.options)) {
// CHECK: tc_schedule = tc::schedule_stream_tiles({{.*}}(M + 95) / 96{{.*}}, {{.*}}(N + 127) / 128{{.*}}, tc_k_tiles, tc_facts.device, tc_facts.options);  // else the stream units
// CHECK: tc::schedule_slot_bytes(tc_schedule, 12288)
// CHECK: tc::launch_schedule(tc_int8_linear_0_short96_kernel, tc_schedule, tc_workspace, tc_counters, 288, tc_smem_bytes, tc_stream,
// CHECK-LABEL: __launch_bounds__(288, 1) tc_int8_linear_0_short80_kernel(
// CHECK: tc::wgmma_m64k16_rs<__half, 0, 80>(
// CHECK-LABEL: __launch_bounds__(288, 1) tc_int8_linear_0_short64_kernel(
// CHECK: float tc_acc[1][8][4] = {};
// CHECK: tc::wgmma_m64k16_rs<__half, 0, 64>(
// The cp.async kernel: the shared tiles hold the mma type; W's copier converts.
// CHECK-LABEL: tc_int8_linear_0_cp_async_kernel(
// CHECK: {{^ *}}__half *tc_smem_a = reinterpret_cast<__half *>(tc_smem);
// CHECK: {{^ *}}__half *tc_smem_b = tc_smem_a + {{[0-9]+}};
// CHECK: {{^ *}}tc::OperandCopier<kCopyMode, __half, {{.*}}> tc_copy_a;
// CHECK: {{^ *}}tc::ConvertingCopier<kCopyMode, signed char, __half, {{.*}}> tc_copy_b;
// CHECK: {{^ *}}const auto tc_convert_b = [&](float tc_x, long long tc_row) -> float {
// CHECK-NEXT: {{^ *}}return static_cast<float>((tc_x - zero[((tc_row))]));
// wgmma's main loop loads W's chunks of tile t + 2 into registers and lands
// them (converted) in their stage one iteration later, after issuing that
// iteration's wgmma: the loads' latency hides behind an iteration.
// CHECK: tc::wgmma_commit();
// CHECK-NEXT: tc_copy_b.land(0, tc_smem_b + (({{c[0-9]}} + 1) % 3) * {{[0-9]+}}, ({{c[0-9]}} + 1), tc_convert_b);
// CHECK: tc_copy_b.load(0, ({{c[0-9]}} + 2));
// CHECK-NEXT: tc_copy_b.load(1, ({{c[0-9]}} + 2));
// No prologue on the fragments: shared memory already holds fp16 values.
// CHECK-NOT: apply_prologue
// The scale is applied once, to the sum.
// CHECK: tc_value += static_cast<float>(scale[((tc_n))]) * tc_sum;
// The cp.async kernel, where TMA cannot map an operand: element-wise
// copies (any alignment), k unsplit.
// CHECK-LABEL: static void tc_int8_linear_0_cp_async_launch(
// CHECK: tc_int8_linear_0_cp_async_kernel<tc::kElementwise><<<tc_grid, 256, tc_smem_bytes, tc_stream>>>(M, N, K, X, W, zero, scale, Y, 1, tc::max(tc_k_tiles, 1LL), nullptr);
// On sm_80 the cp.async kernel is the region's own, its copy mode chosen
// at run time: the converted operand's chunks aligned.
// SM80OUT-LABEL: static void tc_int8_linear_0_launch(
// SM80OUT: int tc_mode = tc::copy_mode(X, K, K);
// SM80OUT-NEXT: tc_mode = tc::min(tc_mode, tc::convert_copy_mode<__half>(W, K, K));
// The TMA kernel: W's raw k tiles land in the second half of B's stages
// (8 KiB of 16), the stages a 16 KiB apart, with the 64-byte swizzle.
// CHECK-LABEL: tc_int8_linear_0_kernel(
// CHECK: {{^ *}}signed char *tc_smem_raw_b = reinterpret_cast<signed char *>(tc_smem_b + 4096);
// CHECK: int *tc_flag = reinterpret_cast<int *>(tc_empty + 4);  // of combine_parts
// The producer copies A's tile and W's raw one: 16 KiB + 8 KiB.
// CHECK: tc::mbarrier_arrive_expect_tx(tc_full + {{.*}}, 24576);
// CHECK-NEXT: tc::tma_load_2d(tc_smem_a + {{.*}}, tc_map_a,
// CHECK-NEXT: tc::tma_load_2d(tc_smem_raw_b + {{.*}} * 16384, tc_map_b,
// With the parts of a tile in one cluster, the producer warp takes the
// consumers' two cluster barriers too.
// CHECK: if (tc_schedule.cluster_parts)  // (all threads of the cluster meet)
// CHECK-NEXT: tc::producer_parts_in_cluster();
// CHECK-NEXT: continue;
// The zero point of each of the thread's 2 rows (those of its fragments),
// read once. The prologue is the element minus an offset (the zero point):
// offset rows, converted in fp16 pairs by the warps whose rows' offsets all
// allow it exactly.
// CHECK: const auto tc_convert_b_row = [&](long long tc_row) {
// CHECK-NEXT: const bool tc_inside = tc_row < N && tc_k_end > tc_k_begin;
// CHECK-NEXT: const ::std::decay_t<decltype(zero[((tc_row))])> tc_v0 = tc_inside ? zero[((tc_row))] : ::std::decay_t<decltype(zero[((tc_row))])>();
// CHECK-NEXT: return tc::offset_row<signed char>(
// CHECK-NEXT: [=](float tc_x) -> float { return static_cast<float>((tc_x - tc_v0)); },
// CHECK-NEXT: tc_v0);
// CHECK: const decltype(tc_convert_b_row(0)) tc_convert_b[2] = {
// CHECK-NEXT: tc_convert_b_row(128LL * tc_block_n + tc::RawFragmentLayout::row(tc_thread, 0)),
// CHECK-NEXT: tc_convert_b_row(128LL * tc_block_n + tc::RawFragmentLayout::row(tc_thread, 1))};
// One version of the consumers' code: the conversion branches once a tile,
// three ways (fp32, fp16 pairs, fp16 pairs with integer offsets).
// CHECK: const tc::OffsetPairs tc_pairs_b = tc::offset_pairs(tc_convert_b);
// CHECK-NOT: tc_packed_b
// CHECK: tc::fence_operands(tc_acc[0]);
// CHECK: ::uint32_t tc_frag_b[2][4][4];  // by the tile's parity
// A's whole stage is wgmma's B.
// CHECK-NEXT: const ::uint64_t tc_desc_a = tc::wgmma_desc_k_major_sw128(tc_smem_a);
// CHECK-NOT: tc_consumers
// The loop runs over pairs of k tiles, the two unrolled: each converts its
// fragments into the buffer of its parity while the other's wgmma run, then
// issues its own and waits for the previous tile's, whose stage it frees.
// CHECK: tc::mbarrier_wait(tc_full + {{.*}});  // the tile has landed
// CHECK-NEXT: tc::load_raw_fragments<signed char, __half>(tc_frag_b[0], tc_raw_b + {{.*}} * 16384, tc_thread, tc_convert_b, tc_pairs_b, (K) - {{.*}});
// CHECK-NEXT: tc::warpgroup_arrive(tc_acc[0]);
// CHECK-NEXT: tc::wgmma_m64k16_rs<__half, 0, 128>(tc_acc[0], tc_frag_b[0][0], tc::wgmma_desc_advance(tc_desc_a, {{.*}} * 16384 + 32 * 0));
// CHECK: tc::wgmma_commit();
// CHECK-NEXT: tc::wgmma_wait<1>(tc_acc[0]);  // tile t - 1's group has retired
// CHECK-NEXT: tc::fence_fragments(tc_frag_b[1]);
// CHECK: tc::release_stage(
// CHECK: tc::load_raw_fragments<signed char, __half>(tc_frag_b[1],
// CHECK: tc::wgmma_m64k16_rs<__half, 0, 128>(tc_acc[0], tc_frag_b[1][3],
// CHECK: tc::fence_fragments(tc_frag_b[0]);
// The accumulators hold the tile transposed: staged into the output tile's
// columns.
// CHECK: tc_stage[((2 * tc_lane_col) + (8 * {{c[0-9]}})) * 136 + (((16 * tc_warp_m) + tc_lane_row) + (8 * {{c[0-9]}}))] = tc_acc[0][{{c[0-9]}}][(2 * {{c[0-9]}})];
// CHECK-NEXT: tc_stage[(((2 * tc_lane_col) + (8 * {{c[0-9]}})) + 1) * 136 + (((16 * tc_warp_m) + tc_lane_row) + (8 * {{c[0-9]}}))] = tc_acc[0][{{c[0-9]}}][(2 * {{c[0-9]}}) + 1];
// CHECK-NOT: tc_copy_b
// The parts of a tile in one cluster add their tiles and each finishes its
// rows; otherwise the last part of a split tile to arrive finishes it.
// CHECK: tc::consumer_sync<256>();
// CHECK-NEXT: int tc_row_begin = 0, tc_row_end = 128;  // the rows this block finishes
// CHECK-NEXT: if (tc_schedule.cluster_parts)
// CHECK-NEXT: tc::add_parts_in_cluster<128, 128, 136, 256>(tc_stage, tc_part, tc_schedule.parts, tc_thread,
// CHECK-NEXT: tc_row_begin, tc_row_end);
// CHECK-NEXT: else if (tc_split_tile >= 0 &&
// CHECK-NEXT: !tc::combine_parts<128, 128, 136, 256>(
// CHECK: continue;  // another part of this tile finishes it
// The epilogue of this block's rows only.
// CHECK: if (tc_row_begin <= ((16 * [[R:c[0-9]]]) + (tc_thread / 16)) && ((16 * [[R]]) + (tc_thread / 16)) < tc_row_end) {
// CHECK: tc_value += static_cast<float>(scale[((tc_n))]) * tc_sum;
// The decode kernel's functors: W's row offsets, the region's epilogue.
// CHECK-LABEL: struct tc_int8_linear_0_weight_rows {
// CHECK: __device__ auto operator()(long long tc_row) const {
// CHECK-NEXT: {{^}}    const ::std::decay_t<decltype(zero[((tc_row))])> tc_v0 = zero[((tc_row))];
// CHECK-NEXT: {{^}}    return tc::offset_row<signed char>(
// CHECK-LABEL: struct tc_int8_linear_0_epilogue {
// CHECK: tc_value += static_cast<float>(scale[((tc_n))]) * tc_sum;
// At M <= 16 the decode kernel (tc/decode/launch.cuh); else, or where
// it cannot launch: small outputs of enough rows and columns with short
// reductions: 64x128 tiles, unsplit, rather than 128x128 tiles split along
// k (tc/tile_choice.cuh). Otherwise the TMA kernel, whose maps need W's
// rows 16-byte aligned (no aligned copy of an 8-bit operand), else the
// cp.async kernel.
// CHECK-LABEL: static void tc_int8_linear_0_launch(
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
// CHECK-NEXT: {{^}}  if ((M) <= tc::decode::kWgmmaDecodeRows && tc::decode::launch_weight_stream<true>(M, N, K, X, K, W, K,
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
// CHECK-NEXT: {{^}}    return tc_int8_linear_0_narrow_launch(M, N, K, X, W, zero, scale, Y, tc_stream);
// CHECK-NEXT: {{^}}  case 1:  // 192x192 tiles
// CHECK-NEXT: {{^}}    return tc_int8_linear_0_fitted_launch(M, N, K, X, W, zero, scale, Y, tc_stream);
// CHECK-NEXT: {{^}}  case 2:  // 224x128 tiles
// CHECK-NEXT: {{^}}    return tc_int8_linear_0_tall224_launch(M, N, K, X, W, zero, scale, Y, tc_stream);
// CHECK:      {{^}}  case 4:  // 176x128 tiles
// CHECK-NEXT: {{^}}    return tc_int8_linear_0_tall176_launch(M, N, K, X, W, zero, scale, Y, tc_stream);
// CHECK-NEXT: {{^}}  case 5:  // 256x128 tiles
// CHECK-NEXT: {{^}}    return tc_int8_linear_0_tall_launch(M, N, K, X, W, zero, scale, Y, tc_stream);
// CHECK-NEXT: {{^}}  case 6:  // 112x128 tiles
// CHECK-NEXT: {{^}}    return tc_int8_linear_0_short112_launch(M, N, K, X, W, zero, scale, Y, tc_stream);
// CHECK:      {{^}}  case 9:  // 64x128 tiles
// CHECK-NEXT: {{^}}    return tc_int8_linear_0_short64_launch(M, N, K, X, W, zero, scale, Y, tc_stream);
// CHECK-NEXT: {{^}}  default:
// CHECK-NEXT: {{^}}    break;
// CHECK-NEXT: {{^}}  }
// CHECK: if (!tc::tma_map_2d_aligned(&tc_map_a, X, K, M, K, 64, 128, tc_stream, 0, tc_facts.device) ||
// CHECK-NEXT: !tc::tma_map_2d_bytes(&tc_map_b, W, K, N, K, 64, 128, true)) {
// CHECK-NEXT: tc_int8_linear_0_cp_async_launch(M, N, K, X, W, zero, scale, Y, tc_stream);
// Few tiles: clusters of parts where they fit in one wave (their capacity
// measured once per launcher and device, only once an output may take
// them), else the stream units; no workspace for the clusters.
// CHECK: tc::TileSchedule tc_schedule;
// CHECK-NEXT: bool tc_in_clusters = false;
// CHECK-NEXT: if (tc::cluster_parts_may_pay({{.*}}, tc_k_tiles, 10, tc_facts.device,
// CHECK-NEXT: {{^ *}}tc_facts.options)) {
// CHECK-NEXT: static tc::ClusterCapacities tc_capacities;  // measured once per device
// CHECK-NEXT: const tc::ClusterCapacity tc_capacity = tc::cluster_capacity_on(
// CHECK-NEXT: tc_capacities, tc_facts.device.ordinal, tc_int8_linear_0_kernel, 288, tc_smem_bytes);
// CHECK-NEXT: tc_in_clusters = tc::schedule_cluster_parts({{.*}}, tc_k_tiles, 10, tc_capacity,
// CHECK-NEXT: {{^ *}}tc_facts.device, tc_facts.options,
// CHECK-NEXT: {{^ *}}tc_schedule);
// CHECK-NEXT: }
// CHECK-NEXT: if (!tc_in_clusters)
// CHECK-NEXT: tc_schedule = tc::schedule_stream_tiles({{.*}}, tc_k_tiles, tc_facts.device, tc_facts.options);  // else the stream units
// CHECK: if (!tc_schedule.cluster_parts && tc::split_tiles(tc_schedule) > 0 &&
// CHECK: tc::launch_schedule(tc_int8_linear_0_kernel, tc_schedule, tc_workspace, tc_counters, 288, tc_smem_bytes, tc_stream,

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
// CHECK-LABEL: tc_int8_symmetric_0_kernel(
// CHECK: const auto tc_convert_b_row = [&](long long tc_row) {
// CHECK-NEXT: return tc::offset_row<signed char>(
// CHECK-NEXT: [=](float tc_x) -> float { return static_cast<float>(tc_x); },
// CHECK-NEXT: 0);
// CHECK: const tc::OffsetPairs tc_pairs_b = tc::offset_pairs(tc_convert_b);
// CHECK: tc::load_raw_fragments<signed char, __half>({{.*}}, tc_thread, tc_convert_b, tc_pairs_b,

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
// CHECK-LABEL: tc_uint8_plus_0_kernel(
// CHECK: return tc::offset_row<unsigned char>(
// CHECK-NEXT: [=](float tc_x) -> float { return static_cast<float>(static_cast<float>((static_cast<int>(tc_x) + static_cast<int>(tc_v0)))); },
// CHECK-NEXT: -static_cast<double>(static_cast<int>(tc_v0)));
// CHECK: tc::load_raw_fragments<unsigned char, __half>({{.*}}, tc_thread, tc_convert_b, tc_pairs_b,

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
// CHECK-LABEL: tc_int8_divided_0_kernel(
// CHECK: const auto tc_convert_b_row = [&](long long tc_row) {
// CHECK: return [=](float tc_x) -> float { return static_cast<float>((tc_x / tc_v0)); };
// CHECK-NOT: tc_packed_b
// CHECK: tc::load_raw_fragments<signed char, __half>({{.*}}, tc_thread, tc_convert_b, (K)
// CHECK-LABEL: static void tc_int8_divided_0_launch(

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
// CHECK-LABEL: tc_uint8_unsigned_zero_0_kernel(
// CHECK: return [=](float tc_x) -> float { return static_cast<float>(
// CHECK-NOT: tc_packed_b
// CHECK-LABEL: static void tc_uint8_unsigned_zero_0_launch(

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
// CHECK-LABEL: tc_int8_bf16_0_kernel(
// CHECK: return [=](float tc_x) -> float { return static_cast<float>((tc_x - tc_v0)); };
// CHECK-NOT: tc_packed_b
// CHECK: tc::load_raw_fragments<signed char, __nv_bfloat16>({{.*}}, tc_thread, tc_convert_b, (K)
// CHECK-LABEL: static void tc_int8_bf16_0_launch(
