// A file with CR LF line endings keeps them on every line, the inserted
// ones (the runtime's #include, the definitions, the call) included.
//
// RUN: sed 's/$/\r/' %S/Inputs/crlf-gemm.cu > %t.in.cu
// RUN: %tc-rewrite --arch=sm_90a %t.in.cu -o %t.cu
// RUN: FileCheck %s --input-file=%t.cu
// RUN: not grep -nP '(^|[^\r])$' %t.cu

// CHECK: {{^}}#include <cuda_fp16.h>
// CHECK-NEXT: {{^}}#include <tc/tc.cuh>
// CHECK: '#pragma tc' region computed by tc_gemm_0_launch
