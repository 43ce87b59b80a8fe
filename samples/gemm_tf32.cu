// fp32 operands on the tensor cores: the allow_tf32 clause accepts that
// the products are formed from operands rounded to tf32 (10-bit mantissa);
// sums stay fp32. Without the clause tc-rewrite refuses fp32 operands.
void sgemm_tf32(int M, int N, int K, const float *__restrict__ A,
                const float *__restrict__ B, float *__restrict__ C) {
#pragma tc allow_tf32
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += A[i * K + k] * B[k * N + j];
      C[i * N + j] = acc;
    }
}
