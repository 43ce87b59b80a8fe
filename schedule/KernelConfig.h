//===- KernelConfig.h - tile sizes, warps, pipeline depth -----------------===//
//
// The shape of the generated kernel. `chooseKernelConfig` applies the
// default rule and the region's clauses, and rejects combinations the
// schedule cannot realise (with a located diagnostic at the pragma).
//
// Default rule (docs/ARCHITECTURE.md): 128x128x64 block tiles, 64x64 warp
// tiles (4 warps), 3 cp.async stages (96 KiB: two blocks per SM); outputs
// with fewer tiles than the GPU has SMs split the reduction instead
// (tc/split_k.cuh, decided at run time from the shape). The alternatives
// it was measured against, and the numbers behind the other choices of
// this file: docs/design/kernel-config.md.
//
// On sm_90a the default main loop is wgmma (MmaPath::Wgmma): 128x128x64
// block tiles, two warpgroups of m64n128k16, 3 stages; it needs f16/bf16
// operands (a prologue on an operand is applied to its landed stages by
// the consumers; on a row-major A, the cp.async kernels apply it to A's
// fragments, which wgmma then takes from registers), no M/N-major int8
// operand, no warp or warp_split_k clause (wgmmaObstacle). Otherwise, and
// on sm_80..sm_89, mma.sync; --explain says which and why.
//
// Intra-block split-K (the paper's p-way split, `warp_split_k(P)`): P
// groups of warps compute the same warp tiles, each over its own share of
// every k tile's mma steps, and add their accumulators through shared
// memory after the main loop. It only pays when a block has too few warps
// to hide the latency of its fragment loads, which the tile shape fixes at
// compile time; the default stays P = 1 (four warps already overlap their
// loads with the mma of the double-buffered fragments), and the clause
// selects it.
//
//===----------------------------------------------------------------------===//
#ifndef TC_TRANSFORMS_KERNELCONFIG_H
#define TC_TRANSFORMS_KERNELCONFIG_H

#include "MatmulIdiom.h"
#include <algorithm>
#include <optional>
#include <string>

namespace tc {

enum class GpuArch { SM80, SM86, SM89, SM90a };

/// The tensor-core instruction family of the main loop.
enum class MmaPath {
  /// mma.sync.m16n8k16 (m16n8k8 for tf32): warps, register fragments
  /// loaded by ldmatrix. sm_80 and later.
  Sync,
  /// wgmma.mma_async.m64nNk16: warpgroups, both operands read by the
  /// tensor cores from the swizzled shared stages. sm_90a.
  Wgmma
};

/// What the user asked for (--mma-path, the mma clause overrides it).
enum class MmaPreference { Auto, Sync, Wgmma };
std::optional<MmaPreference> parseMmaPreference(llvm::StringRef Name);
std::optional<GpuArch> parseArch(llvm::StringRef Name);
const char *archName(GpuArch A);
/// Bytes of shared memory a block may opt in to.
int sharedMemoryLimit(GpuArch A);

struct KernelConfig {
  int BlockM = 128, BlockN = 128, BlockK = 64;
  int WarpM = 64, WarpN = 64;
  int Stages = 3;
  /// Warp groups that split each k tile's mma steps (intra-block split-K).
  int WarpSplitK = 1;
  // The instruction: mma.sync.aligned.m16n8k16 (fp16/bf16) or m16n8k8
  // (tf32, for fp32 operands under allow_tf32), fp32 accumulation.
  static constexpr int MmaM = 16, MmaN = 8;
  int MmaK = 16;
  int ElementBytes = 2; // of the operands in shared memory
  bool Tf32 = false;
  /// Load the next k step's fragments while this step's mma run. Off for
  /// operand prologues: converting fragments needs the registers that the
  /// second buffer would take.
  bool DoubleBufferFragments = true;
  /// Elements of one 16-byte copy chunk.
  int vector() const { return 16 / ElementBytes; }
  GpuArch Arch = GpuArch::SM90a;
  MmaPath Path = MmaPath::Sync;
  /// Why the path and the copies were chosen, e.g. why not wgmma or TMA.
  std::string PathReason;
  /// What --explain says of the main loop: PathReason, then for TMA
  /// kernels where each operand's prologue or conversion is applied, as
  /// the configuration has it (alternative kernels change it).
  std::string pathReason() const;
  bool wgmma() const { return Path == MmaPath::Wgmma; }
  /// wgmma groups left in flight at the end of a main-loop iteration: 1
  /// overlaps tile t's instructions with tile t + 1's wait and barrier,
  /// at the price of one stage (the copies run S - 2 tiles ahead).
  int WgmmaPending = 0;
  /// Split-K only for outputs with fewer tiles than SMs / this
  /// (tc::choose_splits).
  int SplitFillDivisor = 1;
  /// wgmma takes A from registers (ldmatrix fragments, tc/fragment.cuh):
  /// for a prologue on A, applied to the fragments as on mma.sync. With
  /// cp.async stages its fragments are reloaded every tile, so no group is
  /// left in flight. With TMA stages (one warpgroup, or the two of a
  /// 128x256 tile beside a producer warpgroup: where two buffers of
  /// fragments fit beside the accumulators; placeAPrologue in
  /// KernelConfig.cpp) they are double-buffered by the tile's parity, as a
  /// raw B's (RawFragmentsB,
  /// fragmentsByParity): tile t's are loaded and transformed while tile
  /// t - 1's group runs, and nothing is written back to the stage, so no
  /// proxy fence or warpgroup barrier stands before the wgmma.
  bool WgmmaRegisterA = false;
  /// The operand stages are filled by TMA (tc/tma.cuh): one producer warp
  /// issues the copies of each k tile onto the stage's mbarrier, the
  /// consumer warpgroups wait on it, run their wgmma with one group in
  /// flight and release the stage of the previous tile (warp
  /// specialisation, tc/mbarrier.cuh). The launcher falls back to the
  /// cp.async kernel of the same tiles (cpAsyncTwin) when an operand is not
  /// 16-byte aligned.
  bool Tma = false;
  /// (TMA) Each consumer warpgroup applies the prologue of A to its own 64
  /// rows of a landed stage in place before its wgmma read them
  /// (tc/prologue.cuh, apply_prologue_to_tile; a barrier of the warpgroup
  /// publishes them), while its previous tile's wgmma still run: wgmma
  /// then reads A from the stage, and the kernel keeps the plain GEMM's
  /// copies, threads, registers and tile alternatives. For the kernels
  /// whose accumulators leave no room for two buffers of A's fragments (two
  /// blocks per SM, three warpgroups); the others take WgmmaRegisterA.
  bool ConvertStages = false;
  /// The prologue of an M-major A is always applied to its stages (wgmma
  /// takes only a K-major A from registers), by all threads of a cp.async
  /// kernel after each tile lands.
  bool ConvertedAIsMMajor = false;
  /// A prologue on B: applied in place to each landed stage of B (which
  /// every warpgroup reads) by all consumer threads, who then meet at
  /// barrier 1 before their wgmma (TMA), or by all threads after the
  /// cp.async wait and before a second __syncthreads.
  bool ConvertStagesB = false;
  /// (TMA) B is an 8-bit K-major operand converted while copying (a
  /// quantized weight): TMA copies its raw k tile into the second half of
  /// B's stage, and all consumers convert it in place, with the prologue's
  /// per-row values loaded once, into the stage that wgmma reads, then meet
  /// at barrier 1 (tc/tile_convert.cuh, convert_raw_stage), while their
  /// previous tile's wgmma still run. (A converter warpgroup in their
  /// stead measured slower.) Square tiles
  /// convert into registers instead (RawFragmentsB). Its cp.async twin
  /// converts while copying.
  bool RawStagesB = false;
  /// (TMA) A 16-bit A converted while copying in the cp.async kernels (a
  /// prologue of the element's row, one that reads other values or is not
  /// finite at 0) lands raw (convertedALandsRaw), and the consumers convert
  /// its register fragments by each element's row, an exact 0 outside the
  /// operand (tc::sm90::RegisterA<tc::sm90::Converted<F>>): only in the
  /// sm_90 components' kernels (a TMA kernel of the region that is not
  /// composed gives way to its cp.async twin, which converts while copying).
  bool ConvertsLandedOperands = false;
  /// (TMA, ConvertsLandedOperands) The converted 16-bit operand is a dense
  /// K-major B (convertedBLandsRaw): the kernel computes the tile
  /// transposed, C^T = B^T A^T, B's tile wgmma's A converted in its
  /// register fragments by each element's row (the region's column), A's
  /// tile wgmma's B, and the epilogue stages the tile transposed
  /// (tc::sm90::TransposedOutput). Only in the sm_90 components' kernels.
  bool ConvertsLandedB = false;
  /// (TMA, ConvertsLandedOperands) A is an 8-bit K-major operand
  /// converted while copying (rawALandsRaw): TMA lands its raw k tile
  /// (64-byte swizzle) and each consumer thread converts its wgmma A
  /// fragments from it in registers (tc::sm90::RawRegisterA; offset rows
  /// in fp16 pairs where A's prologue is the element minus an offset and B
  /// is fp16). Only in the sm_90 components' kernels.
  bool RawFragmentsA = false;
  /// (RawFragmentsA) A's rows convert in fp16 pairs where exact
  /// (tc::OffsetRow), as OffsetRowsB's.
  bool OffsetRowsA = false;
  /// Whether the kernel computes the output's tile transposed (C^T = B^T
  /// A^T): B's tile is wgmma's A (RawFragmentsB, ConvertsLandedB).
  bool transposedTile() const { return RawFragmentsB || ConvertsLandedB; }
  /// Whether the consumers convert an operand's register fragments by
  /// each element's row, with the functor's row() (tc::sm90::RegisterA of
  /// a Converted<F>, RawRegisterA): the kernel's A, which is the region's B
  /// where transposedTile().
  bool convertsFragmentsByRow() const { return ConvertsLandedOperands || RawFragmentsB; }
  /// (RawStagesB) B's prologue is the element minus an offset, a zero point
  /// or none (OperandView::Offset), and the stage holds fp16: each row
  /// converts in fp16 pairs (tc::OffsetRow: one PRMT and two HSUB2 a pair,
  /// about 12 instructions per 8 weights instead of about 30 through fp32),
  /// by the warps whose rows' offsets allow it exactly; others through fp32.
  /// A warp's choice is made once, before the main loop: converting into
  /// the stage, the consumers' code is emitted in two versions
  /// (KernelEmitter's twoConsumerVersions); converting into fragments
  /// (RawFragmentsB), whose registers leave no room for two, the conversion
  /// branches once a tile (tc::load_raw_fragments).
  bool OffsetRowsB = false;
  /// (RawStagesB) The consumers compute the tile transposed, C^T = B^T A^T:
  /// B's raw k tile (landed with the 64-byte swizzle) is wgmma's A, each
  /// thread converting its own fragments of it in registers
  /// (tc/raw_fragment.cuh, with offset rows where OffsetRowsB), and A's
  /// K-major stage is wgmma's B; the accumulators are staged transposed
  /// for the epilogue. Nothing is written to the stages, so no barrier or
  /// proxy fence stands between the conversion and the wgmma. The
  /// fragments are double-buffered by the tile's parity (the consumer loop
  /// runs over pairs of tiles), so that tile t's conversion runs while
  /// tile t - 1's group does, which keeps one group in flight. For a
  /// K-major A; the issuers' tiles and the accumulators are laid out along
  /// the transposed tile (accumulatorRows(), accumulatorCols()): square
  /// tiles, and the 256x128 ones of ProducerWarpgroup (also 224, 192 or
  /// 176 rows tall, and 192x192 with three consumer warpgroups). (Faster
  /// than the stage conversion; one group per k step, each with its
  /// wgmma.fence, was slower.)
  bool RawFragmentsB = false;
  /// (RawFragmentsB, RawFragmentsA) The stages are laid out as the sm_90
  /// components lay them, the raw tile a byte an element
  /// (tc::sm90::RawOperandTile),
  /// rather than as a generated kernel's, which lands it in the second
  /// half of a 16-bit stage; bytesPerStage() counts them so. Such a kernel
  /// exists only composed of the components (regionKernels drops it
  /// elsewhere, and its cp.async twin counts 16-bit stages): the 192x192
  /// transposed tiles, whose output tile, staged transposed, fits in five
  /// such stages but not in the generated kernel's.
  bool ComponentStages = false;
  /// (TMA) The producer is a whole warpgroup that gives back most of its
  /// registers (setmaxnreg, tc/registers.cuh: ProducerRegisters a thread)
  /// to the consumer warpgroups (consumerRegisters()), so that a block of
  /// one per SM holds accumulators of up to 256 columns beside the
  /// fragments of a transposed tile (RawFragmentsB, 256x128 tiles: wgmma
  /// m64n256k16; the shorter and 192x192 ones too).
  /// With a producer warp, 9 warps cap a thread at 168 registers (three
  /// warps on one SM sub-partition), which the 256x128 tile's consumers
  /// spilled.
  bool ProducerWarpgroup = false;
  static constexpr int ProducerRegisters = 40;
  /// A persistent block's producer warpgroup keeps more: the components'
  /// producer also copies tiles with ordinary loads where TMA cannot map
  /// an operand (tc/sm90/mainloop.cuh), which spilled 32 bytes at 40.
  static constexpr int PersistentProducerRegisters = 56;
  /// tf32: its producer keeps 48 and its epilogue warpgroup 64
  /// (storerRegisters()): at 64 and 48 the kernel spilled 60 bytes, which
  /// more epilogue registers remove (ptxas -v, tf32_cc_ccol).
  static constexpr int PersistentTf32ProducerRegisters = 48;
  /// Beside three consumer warpgroups (192x192 transposed tiles) the
  /// producer keeps 32, so that a consumer thread gets 160 registers: at
  /// 152 ptxas serialised their wgmma (C7512); its TMA loop fits in 32.
  static constexpr int ThreeConsumersProducerRegisters = 32;
  /// Beside a 16-bit A converted in its fragments (ConvertsLandedOperands,
  /// placeAPrologue) the producer keeps 64, in which the components'
  /// producer also copies what TMA cannot map (tc::sm90::
  /// kCopyingProducerRegisters; at 56 it spilled), so that the region needs
  /// no cp.async kernel; the consumers keep 216.
  static constexpr int CopyingProducerRegisters = 64;
  int producerRegisters() const {
    if (!PersistentTiles && warpgroups() >= 3)
      return ThreeConsumersProducerRegisters;
    if (!PersistentTiles)
      return ConvertsLandedOperands && !RawFragmentsA ? CopyingProducerRegisters
                                                      : ProducerRegisters;
    return Tf32 ? PersistentTf32ProducerRegisters : PersistentProducerRegisters;
  }
  /// (TMA) Whether the consumers' loop keeps wgmma's A fragments in two
  /// buffers by the tile's parity: a raw B's of a transposed tile
  /// (RawFragmentsB), or A's with its prologue (WgmmaRegisterA).
  bool fragmentsByParity() const { return Tma && (RawFragmentsB || WgmmaRegisterA); }
  /// (RawFragmentsB with offset rows) Whether the consumers' conversion
  /// has a version for warps whose offsets are all integers, one HSUB2 a
  /// pair instead of two (tc::OffsetPairs::kIntegral): in the 128x128
  /// transposed tiles, whose conversion is on the main loop's critical
  /// path. Not in the 256x128 tiles (ProducerWarpgroup), whose conversion
  /// serves twice the columns: there it gained nothing, and a third
  /// version slowed their fp32 path (fractional zero points).
  bool integerOffsetPairs() const { return RawFragmentsB && OffsetRowsB && !ProducerWarpgroup; }
  /// Whether the kernel applies an operand's prologue (to landed stages or
  /// to A's fragments).
  bool appliesOperandPrologue() const { return convertsStagePrologue() || WgmmaRegisterA; }
  /// Whether the consumers apply an operand's prologue to landed stages.
  bool convertsStagePrologue() const { return ConvertStages || ConvertStagesB; }
  /// Whether the consumers write a landed stage before their wgmma read it
  /// (a prologue, or a raw B's conversion into its stage).
  bool convertsLandedStages() const {
    return convertsStagePrologue() || (RawStagesB && !RawFragmentsB);
  }
  /// (TMA) The kernel may run as pairs of blocks (clusters of two) whose
  /// tiles (m, n) and (m + 1, n) share B's tile, each block copying half of
  /// it into both blocks' stages by TMA multicast (tc/cluster.cuh): the
  /// launcher picks pairs from the shape (tc::schedule_tile_pairs). Needs
  /// a B tile that splits into two halves of whole boxes.
  bool PairedTiles = false;
  /// TMA kernels of one block per SM and two consumer warpgroups (the
  /// 128x256 kernel) loop over their block's units of work, so that the
  /// launcher can share a nearly empty last round of tiles among all SMs
  /// (tc::schedule_stream_tiles). Not with three warpgroups, whose 128
  /// registers per thread the loop's state spilled (the 192x192 kernel,
  /// taken only where its tiles fill whole rounds), nor one (the 8-stage
  /// 64x128 kernel, taken only for at most one round of tiles), nor with
  /// the split_k clause (every tile split).
  bool StreamUnits = false;
  /// (TMA) Persistent blocks, one per SM: each computes whole tiles b, b +
  /// P, b + 2P, ... in turn (tc::schedule_persistent_tiles), the stages'
  /// barrier phases counted on across its tiles (tc_k_origin), so that the
  /// producer copies the next tile's first k tiles while this one is
  /// stored. The consumers stage each tile in an output buffer of its own
  /// after the stages and go on with the next tile; the epilogue
  /// warpgroups (storerThreads()) store it. For the 128x128 tiles
  /// (tc::prefer_persistent_tiles), whose blocks of two per SM otherwise
  /// spend about as long filling their pipeline and storing their tile as
  /// computing it on short reductions. Not with a prologue applied to the
  /// stages (ConvertStages, ConvertStagesB; measured slower with ReLU on
  /// A); a K-major A's prologue is applied to wgmma's A fragments instead,
  /// beside a producer warpgroup (ProducerWarpgroup) and one epilogue
  /// warpgroup (storerThreads()).
  bool PersistentTiles = false;
  /// Whether the kernel loops over units of work (stream units or
  /// persistent tiles) instead of computing one per block.
  bool unitLoop() const { return StreamUnits || PersistentTiles; }
  /// Stages fixed by the stages clause: kept by the cp.async twin, not
  /// re-derived per path.
  bool FixedStages = false;
  /// The producer: one warp, of which one thread issues the copies, or
  /// with ProducerWarpgroup a whole warpgroup (setmaxnreg resizes
  /// warpgroups). One warp by default: a warpgroup's registers are those
  /// that two blocks per SM need, and one block of 128x256 tiles has 227
  /// registers per thread without setmaxnreg.
  static constexpr int ProducerWarpThreads = 32;
  int producerThreads() const { return ProducerWarpgroup ? 128 : ProducerWarpThreads; }
  static constexpr int RegistersPerSm = 65536;
  /// (ProducerWarpgroup) Registers a thread of the block has at launch: a
  /// kernel that resizes its warpgroups is built for one block an SM
  /// (__launch_bounds__(blockThreads(), 1)), and ptxas gives each thread
  /// the most that one such block can hold, a multiple of 8 below 256 (168
  /// at 384 threads, 128 at 512): tc::launch_registers (tc/registers.cuh),
  /// which the kernels' static_asserts check the roles against.
  int launchRegisters() const;
  /// (ProducerWarpgroup) Registers of a consumer thread once the producer
  /// (and with PersistentTiles the epilogue warpgroup) has given back its
  /// own: the block's registers at launch less theirs, shared by the
  /// consumers, a multiple of 8 (setmaxnreg's unit), at most 256
  /// (setmaxnreg's and a thread's limit; one consumer warpgroup would
  /// otherwise get 400). setmaxnreg.inc waits for registers the block's
  /// own warpgroups released: where the roles ask for more than the block
  /// has, the consumers wait forever (on an H100, 64 and 224 registers at
  /// 384 threads hung; 56 and 224 ran).
  static constexpr int MaxThreadRegisters = 256;
  int consumerRegisters() const {
    return std::min(MaxThreadRegisters,
                    (blockThreads() * launchRegisters() - producerThreads() * producerRegisters() -
                     storerThreads() * storerRegisters()) /
                        threads() / 8 * 8);
  }
  /// (PersistentTiles) The epilogue warpgroups: they store each output
  /// tile that the consumers staged in the output buffer while the
  /// consumers compute the next one. Two, as many threads as the consumers:
  /// with one the stores of short reductions' tiles took longer than their
  /// main loop. One beside a
  /// producer warpgroup (wgmma's A fragments): with 20 warps, 96 registers
  /// a thread at launch, ptxas serialised the consumers' wgmma (C7512)
  /// although setmaxnreg would have given them 168; 16 warps start at 128.
  int storerThreads() const { return PersistentTiles ? (ProducerWarpgroup ? 128 : 256) : 0; }
  /// (PersistentTiles with ProducerWarpgroup) Registers of an epilogue
  /// thread once it has resized its own (setmaxnreg); the consumers' share
  /// is then 200. (With 96 and 184, the consumers of a bf16 clamp on A
  /// spilled; 48 leaves the producer 56, and a GELU epilogue did not spill.)
  static constexpr int StorerRegisters = 48;
  static constexpr int Tf32StorerRegisters = 64;
  int storerRegisters() const { return Tf32 ? Tf32StorerRegisters : StorerRegisters; }
  /// Threads of a block: the consumers (threads()) and, with TMA, the
  /// producer warp after them (then the epilogue warpgroups, where there
  /// are).
  int blockThreads() const {
    return threads() + (Tma ? producerThreads() : 0) + storerThreads();
  }
  /// The same tiles fed by cp.async: the TMA kernel's fallback.
  KernelConfig cpAsyncTwin() const;
  /// Tiles the copies run ahead of the tile being computed.
  int copyDistance() const { return Stages - 1 - (wgmma() ? WgmmaPending : 0); }
  /// An operand converted while copying (tc/tile_convert.cuh) is loaded
  /// into registers copyDistance() tiles ahead and converted into its stage
  /// one iteration later (after that iteration's wgmma are issued), so that
  /// the loads' latency hides behind an iteration: on the wgmma cp.async
  /// loop, when the tile still lands before the iteration that computes it.
  bool splitConvertingCopies() const { return wgmma() && !Tma && copyDistance() >= 2; }
  /// Rows of one warpgroup's wgmma instruction.
  static constexpr int WgmmaM = 64;
  int warpgroups() const { return accumulatorRows() / WgmmaM; }
  /// The block tile as the accumulators hold it: BM x BN, or BN x BM for a
  /// transposed tile (transposedTile()), whose warps' rows (WarpM) run
  /// along the output's columns and whose WarpN columns are the output's
  /// rows.
  int accumulatorRows() const { return transposedTile() ? BlockN : BlockM; }
  int accumulatorCols() const { return transposedTile() ? BlockM : BlockN; }

  /// The tile one instruction issuer computes (a warp's warp tile, or a
  /// warpgroup's 64 x BN share of the block tile; BM x 64 transposed) and
  /// the instruction's output tile (16x8, or 64xBN; BM x 64 transposed):
  /// the compute decomposition tiles and contracts by these (output
  /// coordinates).
  int issuerTileM() const { return transposedTile() ? BlockM : wgmma() ? WgmmaM : WarpM; }
  int issuerTileN() const { return transposedTile() ? WgmmaM : WarpN; }
  int instrM() const { return transposedTile() ? BlockM : wgmma() ? WgmmaM : MmaM; }
  int instrN() const { return transposedTile() ? WgmmaM : wgmma() ? BlockN : MmaN; }

  int warpsM() const { return accumulatorRows() / WarpM; }
  int warpsN() const { return accumulatorCols() / WarpN; }
  /// Warps of one warp group: one per warp tile of the block tile.
  int groupWarps() const { return warpsM() * warpsN(); }
  int threads() const { return 32 * groupWarps() * WarpSplitK; }
  int fragmentsM() const { return WarpM / MmaM; }
  /// mma k steps per k tile.
  int kSteps() const { return BlockK / MmaK; }
  /// mma k steps per k tile of one warp group (its contiguous share).
  int groupKSteps() const { return kSteps() / WarpSplitK; }
  /// Fragments are double-buffered (loaded one k step ahead of their mma)
  /// when a warp group has an even number of k steps per tile, so that the
  /// buffer index kk mod 2 is a constant of the unrolled k-step loop.
  bool doubleBufferedFragments() const {
    return DoubleBufferFragments && groupKSteps() >= 2 && groupKSteps() % 2 == 0;
  }
  int fragmentBuffers() const { return doubleBufferedFragments() ? 2 : 1; }
  int fragmentsN() const { return WarpN / MmaN; }
  /// Bytes of shared memory for the operand stages.
  int stageBytes() const { return Stages * bytesPerStage(); }
  /// Bytes of one stage: a k tile of A and of B (a raw one a byte an
  /// element, where ComponentStages).
  int bytesPerStage() const {
    const int ABytes = ComponentStages && RawFragmentsA ? 1 : ElementBytes;
    const int BBytes = ComponentStages && RawFragmentsB ? 1 : ElementBytes;
    return (BlockM * ABytes + BlockN * BBytes) * BlockK;
  }
  /// Bytes of the partial sums that warp groups 1 .. P-1 hand to group 0
  /// after the main loop (fp32 accumulators), in the stages' memory.
  int partialSumBytes() const { return (WarpSplitK - 1) * BlockM * BlockN * 4; }
  /// Bytes of the stages, or of the partial sums reusing them.
  int operandBytes() const { return std::max(stageBytes(), partialSumBytes()); }
  /// Bytes of the output tile's own buffer (PersistentTiles: fp32, rows of
  /// stagePitch()), after the operand stages; 0 where the output tile
  /// reuses the stages.
  int epilogueBufferBytes() const { return PersistentTiles ? BlockM * stagePitch() * 4 : 0; }
  /// Offset of the TMA barriers: after the stages and the output buffer.
  int barrierOffset() const { return operandBytes() + epilogueBufferBytes(); }
  /// Bytes of dynamic shared memory of a block: with TMA, the full and
  /// empty mbarrier of each stage follow the operands (and the output
  /// buffer), then 16 bytes: a flag of the tile combination
  /// (tc/tile_schedule.cuh), or with persistent tiles the two mbarriers
  /// that say the output buffer is full and empty.
  int sharedBytes() const {
    return barrierOffset() + (Tma ? 16 * Stages + 16 : 0);
  }
  /// Whether the launcher may split every tile of a few-tile output into
  /// parts launched as one cluster, which add their partial tiles through
  /// distributed shared memory instead of L2 slots (tc/cluster_parts.cuh;
  /// the launch-time rule is tc::schedule_cluster_parts). The TMA kernels
  /// of one consumer warpgroup (64-row tiles) and the int8 layer's 128x128
  /// kernel of raw B fragments (and its shorter tiles): of a region's
  /// default kernels, the launcher takes the skinny, the 8-stage 64-row and
  /// those int8 kernels for few-tile
  /// outputs (tc/tile_choice.cuh), the 4-stage 64x128 one only for more
  /// tiles than SMs (a tile clause reaches its cluster parts); the kernels
  /// of two or three warpgroups are taken for outputs of at least a round
  /// of tiles, and are left as they are. Not beside a producer warpgroup
  /// (whose own loop over units has no cluster barriers) nor with
  /// persistent blocks (whole tiles only). A kernel built for pairs runs
  /// such clusters as parts, not pairs: its stages are then each block's
  /// own (tc::unit_blocks).
  bool clusterParts() const {
    return Tma && !ProducerWarpgroup && !PersistentTiles && stagedEpilogue() &&
           (warpgroups() == 1 || RawFragmentsB);
  }
  /// The fewest k tiles of a reduction whose tiles the launcher splits into
  /// cluster parts (tc::cluster_parts_may_pay): 10 where each k tile also
  /// converts B's raw fragments (the int8 layer), whose longer k tiles pay
  /// for the parts' barriers sooner; 12 for the plain fp16/bf16 kernels
  /// (measured: lost at 10 k tiles, gained at 12).
  int clusterPartsMinKTiles() const { return RawFragmentsB ? 10 : 12; }
  /// Whether two blocks share an SM: their shared memory fits, and for
  /// wgmma each consumer thread keeps registers for its accumulators
  /// (accumulatorCols() / 2) and 32 more (tc::sm90::TmaWgmmaMainloop's
  /// kBlocksPerSm: 256x64 tiles of two stages would have 56, which ptxas
  /// could not fit).
  bool twoBlocksFit() const {
    // (A converted in its fragments, or a raw 8-bit B in the transposed
    // tile's: 40 more, kFragmentRegisters.)
    const int FragmentRegisters = Tma && (ConvertsLandedOperands || RawFragmentsB) ? 40 : 0;
    return 2 * sharedBytes() <= sharedMemoryLimit(Arch) &&
           (!wgmma() || threadRegisters(blockThreads(), 2) >=
                            accumulatorCols() / 2 + 32 + FragmentRegisters);
  }
  /// The registers of a thread of `Blocks` blocks of `Threads` threads on
  /// an SM: each of its four quarters holds a quarter of the registers and
  /// of the warps, rounded up (tc/sm90/mainloop.cuh's kBlocksPerSm), in
  /// multiples of 8, at most 255.
  static int threadRegisters(int Threads, int Blocks) {
    const int WarpsPerQuarter = (Blocks * ((Threads + 31) / 32) + 3) / 4;
    return std::min(255, RegistersPerSm / 4 / (32 * WarpsPerQuarter) / 8 * 8);
  }
  /// Whether a consumer thread, one block an SM, has registers for its
  /// accumulators (accumulatorCols() / 2), 32 more and 56 for A's
  /// fragments converted in registers (tc::sm90::RegisterA with a
  /// Converted<F> A: two buffers and the conversion): each of the SM's
  /// four quarters holds 16384 registers and a quarter of the warps,
  /// rounded up. (128x224 tiles, or 256x128 ones of 544 threads, spilled;
  /// at 128x192 ptxas serialised the wgmma, C7512.)
  bool convertedFragmentsFit() const {
    // (The TMA kernel's threads: the producer's too, before Tma is set.)
    return threadRegisters(threads() + producerThreads() + storerThreads(), 1) >=
           accumulatorCols() / 2 + 32 + 56;
  }
  /// Row pitch (floats) of the output tile staged in shared memory: padded
  /// so that the fragment layout's stores spread over the banks.
  int stagePitch() const { return BlockN + 8; }
  /// Whether the fp32 output tile fits in the operand stages' memory.
  bool stagedEpilogue() const {
    return PersistentTiles || BlockM * stagePitch() * 4 <= operandBytes();
  }
  std::string describe() const;
};

/// A further kernel of a region, chosen at launch time: the launcher lists
/// them as tc::KernelCandidate (tc/kernel_choice.cuh) and runs the first
/// that tc::choose_kernel takes.
struct AlternativeKernel {
  KernelConfig Config;
  std::string Suffix;    // of the kernel's name: "_wide"
  std::string Predicate; // tc/tile_choice.cuh: "prefer_wide_tiles"
  /// The predicate's size arguments: the kernel's tile width (height) and
  /// the region's widths (heights) of such tiles, {224, {256, 224, 192,
  /// 176}}; for the skinny tiles their columns and none.
  int Size = 0;
  std::vector<int> Sizes = {};
  /// Its last argument: the floor of k tiles for cluster parts, or 1 where
  /// the tall kernel runs stream units.
  long long Arg = 0;
};

/// The tc::KernelRule enumerator (tc/kernel_choice.cuh) of a predicate of
/// tc/tile_choice.cuh: "prefer_wide_tma_width" -> "WideTmaWidth".
std::string kernelRule(const std::string &Predicate);

/// The further kernels a region gets for the default wgmma configuration
/// (no tile or stages clause; tc/tile_choice.cuh). With an operand converted
/// while copying, only 64x128 tiles for small outputs, and with B's raw
/// tiles converted into fragments (RawFragmentsB), 256x128 transposed
/// tiles beside a producer warpgroup (ProducerWarpgroup) for large ones,
/// preceded by 192x192 transposed tiles (three consumer warpgroups) for
/// outputs those cover in whole rounds of SMs and by the same tiles 224,
/// 192 and 176 rows tall for outputs those fit better to rounds of SMs,
/// then the 128x128 transposed tiles 112, 96, 80 and 64 rows tall for
/// smaller outputs (tc::raw_fragment_tile_height).
/// Otherwise, in order
/// of precedence: with TMA stages,
/// 64x32 tiles (64x64 for an N-major B) for outputs of at most 64 columns,
/// and the 64x32 ones for outputs that one round of them covers with
/// k <= 1024;
/// 192x192 tiles (three warpgroups, 4 stages, one block per SM) for
/// outputs they cover in whole rounds of SMs where 128x256 tiles do not;
/// 128x256 tiles (4 stages, one block per SM; not with a prologue on B)
/// for large outputs, preceded by the same tiles 224, 192 and 176 columns
/// wide for outputs that those fit better to rounds of SMs (only 192 with
/// an N-major B; none with an operand prologue); 64x128 tiles (one
/// warpgroup) with 8 stages (one block per SM) for outputs of at most one
/// round of them, preceded by the same tiles 112 and 96 columns wide where
/// more of those still fit one round (a K-major B); 128x128 tiles as
/// persistent blocks (4 stages, an output buffer and two epilogue
/// warpgroups; not with an operand prologue) for reductions long enough;
/// and 64x128 tiles with 4 stages for outputs with fewer 128x128 tiles than
/// SMs. None otherwise.
std::vector<AlternativeKernel> alternativeKernels(const KernelConfig &C,
                                                  const RegionModel &M,
                                                  const MatmulIdiom &Idiom);

/// Whether the launcher of C splits few-tile outputs into cluster parts
/// (KernelConfig::clusterParts): not under a split_k clause, which splits
/// every tile its own way. The launcher and the narrower widths' rule
/// (tc::narrow_tile_width) both ask this.
inline bool launchesClusterParts(const KernelConfig &C, const RegionClauses &Cl) {
  return C.clusterParts() && !Cl.SplitK;
}

/// Whether the region's A, converted while copying, lands raw in TMA stages
/// for the sm_90 components' consumers to convert by each element's row
/// (KernelConfig::ConvertsLandedOperands): a 16-bit, dense, unmasked,
/// K-major A (TMA reads its whole rectangle; a mask's elements outside the
/// loops' domain need not exist), converted in its register fragments
/// (tc::sm90::RegisterA), of a single product of one GEMM whose output has
/// no guard, beside a B without a prologue and no 8-bit or 4-bit operand.
/// (A K-major A converted in its landed stages in place ran at 0.8x the
/// cp.async kernels that convert while copying, and a B or an M-major A
/// would convert there too: docs/results/sm90-converted-register-a-h100-2026-12-07.md.)
/// The kernel's consumers must also have the registers
/// (KernelConfig::convertedFragmentsFit).
bool convertedALandsRaw(const MatmulIdiom &Idiom);

/// Whether the region's B, converted while copying, lands raw in TMA stages
/// for the sm_90 components' consumers to convert as wgmma's A of the
/// transposed tile (KernelConfig::ConvertsLandedB): what convertedALandsRaw
/// asks of A, asked of B, beside a K-major A without a prologue. The
/// kernel's consumers must also have the registers
/// (KernelConfig::convertedFragmentsFit of the transposed tile).
bool convertedBLandsRaw(const MatmulIdiom &Idiom);

/// Whether the region's A is an 8-bit operand converted while copying that
/// lands raw in TMA stages for the sm_90 components' consumers to convert
/// in its register fragments (KernelConfig::RawFragmentsA): dense,
/// unmasked and K-major, of a single product of one GEMM whose output has
/// no guard, beside a 16-bit B without a prologue. The kernel's consumers
/// must also have the registers (KernelConfig::convertedFragmentsFit).
bool rawALandsRaw(const MatmulIdiom &Idiom);

llvm::Expected<KernelConfig> chooseKernelConfig(const RegionModel &M,
                                                const MatmulIdiom &Idiom,
                                                clang::SourceLocation PragmaLoc,
                                                GpuArch Arch,
                                                MmaPreference Pref = MmaPreference::Sync);

} // namespace tc

#endif
