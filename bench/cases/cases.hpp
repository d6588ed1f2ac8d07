// Each family's benchmark and first-call ops; bench_driver.cpp lists them.
#pragma once

#include <vector>

#include "bench_context.hpp"

namespace tilecl::bench {

FamilyBenchmark elementwise_benchmark();
std::vector<FirstCallOp> elementwise_first_calls();
FamilyBenchmark transpose_benchmark();
std::vector<FirstCallOp> transpose_first_calls();
FamilyBenchmark reduce_benchmark();
std::vector<FirstCallOp> reduce_first_calls();
FamilyBenchmark gemm_benchmark();
std::vector<FirstCallOp> gemm_first_calls();
FamilyBenchmark gemm_mma_benchmark();  // half, bfloat16, TF32
FamilyBenchmark image_benchmark();
std::vector<FirstCallOp> image_first_calls();
FamilyBenchmark blas_benchmark();
std::vector<FirstCallOp> blas_first_calls();

// Device limits, measured in the same run: a large copy and an FMA-bound kernel.
Limits measure_limits(BenchContext& context);

}  // namespace tilecl::bench
