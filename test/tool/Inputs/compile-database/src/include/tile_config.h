// Found through the compile command's -Iinclude only.
#pragma once
#include <cuda_fp16.h>
typedef __half elem_t;
