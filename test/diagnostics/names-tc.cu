// Any entity named tc where the generated tc::... names are looked up is
// diagnosed: at file scope, in a namespace that encloses a region's
// function, or in one that a using-directive nominates (each would be found
// instead of the runtime's namespace, or beside it). The regions stay as
// written.
//
// RUN: rm -f %t1.cu %t2.cu %t3.cu %t4.cu
// RUN: not %tc-rewrite %s -o %t1.cu 2>&1 | FileCheck %s --check-prefix=FILE
// RUN: diff %s %t1.cu
// RUN: not %tc-rewrite %s -o %t2.cu -extra-arg=-DENCLOSING 2>&1 | FileCheck %s --check-prefix=ENCLOSING
// RUN: diff %s %t2.cu
// RUN: not %tc-rewrite %s -o %t3.cu -extra-arg=-DUSING 2>&1 | FileCheck %s --check-prefix=USING
// RUN: diff %s %t3.cu
// An inline namespace's names are its enclosing namespace's, and an
// unscoped enumeration's enumerators its context's:
// RUN: not %tc-rewrite %s -o %t5.cu -extra-arg=-DINLINE 2>&1 | FileCheck %s --check-prefix=INLINE
// RUN: not %tc-rewrite %s -o %t6.cu -extra-arg=-DENUMERATOR 2>&1 | FileCheck %s --check-prefix=ENUMERATOR
// A namespace tc of the file's own would redefine the runtime's entities:
// RUN: not %tc-rewrite %s -o %t7.cu -extra-arg=-DNAMESPACE 2>&1 | FileCheck %s --check-prefix=NAMESPACE
// RUN: diff %s %t7.cu
// A class first declared by an elaborated type in a class's member is the
// enclosing namespace's:
// RUN: not %tc-rewrite %s -o %t8.cu -extra-arg=-DELABORATED 2>&1 | FileCheck %s --check-prefix=ELABORATED
// RUN: diff %s %t8.cu
// Elsewhere the name is the program's own: a member, a local, a namespace
// that neither encloses a region nor is nominated.
// RUN: %tc-rewrite %s -o %t4.cu -extra-arg=-DHARMLESS
// RUN: FileCheck %s --check-prefix=HARMLESS --input-file=%t4.cu

#include <cuda_fp16.h>

#ifdef INLINE
// INLINE: {{.*}}names-tc.cu:[[@LINE+1]]:47: error: the name 'tc'
namespace x { inline namespace v1 { namespace tc { int z; } } }
using namespace x;
#endif

#ifdef NAMESPACE
// NAMESPACE: {{.*}}names-tc.cu:[[@LINE+2]]:11: error: namespace 'tc' is the namespace of tc-rewrite's runtime headers
// NAMESPACE: {{.*}}names-tc.cu:[[@LINE+1]]:11: note: the rewritten regions call tc::...; rename this namespace (the file's regions stay as written)
namespace tc {
inline int min(int a, int b) { return a < b ? a : b; }
}  // namespace tc
#endif

#ifdef ENUMERATOR
// ENUMERATOR: {{.*}}names-tc.cu:[[@LINE+1]]:18: error: the name 'tc'
enum Mode { off, tc };
#endif

#if !defined(ENCLOSING) && !defined(USING) && !defined(HARMLESS) && !defined(INLINE) && \
    !defined(ENUMERATOR) && !defined(NAMESPACE) && !defined(ELABORATED)
// FILE: {{.*}}names-tc.cu:[[@LINE+2]]:5: error: the name 'tc' is the namespace of tc-rewrite's runtime headers
// FILE: {{.*}}names-tc.cu:[[@LINE+1]]:5: note: the rewritten regions call tc::...; rename this declaration (the file's regions stay as written)
int tc = 3;
#endif

#ifdef USING
// USING: {{.*}}names-tc.cu:[[@LINE+1]]:29: error: the name 'tc'
namespace other { namespace tc { int z; } }
using namespace other;
#endif

#ifdef HARMLESS
namespace lib { struct tc { int tc; }; }
struct Options { int tc; };
inline int count(int n) { int tc = n; return tc; }
#endif

namespace ns {
#ifdef ENCLOSING
// ENCLOSING: {{.*}}names-tc.cu:[[@LINE+1]]:8: error: the name 'tc'
struct tc { int x; };
#endif
#ifdef ELABORATED
// ELABORATED: {{.*}}names-tc.cu:[[@LINE+1]]:35: error: the name 'tc'
struct Handle { void reset(struct tc *p); };
#endif

// HARMLESS: tc_gemm_0_launch(M, N, K, A, B, C
void gemm(int M, int N, int K, const __half *__restrict__ A, const __half *__restrict__ B,
          float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}
}  // namespace ns
