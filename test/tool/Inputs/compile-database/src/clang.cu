// Compiled by clang++ in compile_commands.json.in: TILE_M and TILE_STAGES are
// -D defines of that command, tile_config.h is on its -I path.
#include "tile_config.h"
#if !defined(TILE_M) || !defined(TILE_STAGES)
#error "TILE_M and TILE_STAGES come from the compile command"
#endif

void from_clang(int M, int N, int K, const elem_t *__restrict__ A,
               const elem_t *__restrict__ B, elem_t *__restrict__ C) {
#pragma tc tile(TILE_M, 128, 32) stages(TILE_STAGES)
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = __float2half(acc);
    }
}
