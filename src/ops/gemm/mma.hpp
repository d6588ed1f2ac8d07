// half / bfloat16 / TF32 gemm with an explicit configuration (tests, the tuner, benchmarks), and the pieces of its
// tuning. The public API (tilecl/gemm.hpp) picks a configuration itself.
#pragma once

#include <CL/opencl.hpp>
#include <memory>
#include <type_traits>
#include <vector>

#include "ops/gemm/mma_variants.hpp"
#include "ops/gemm/problem.hpp"
#include "tilecl/types.hpp"
#include "tuning/op_registry.hpp"
#include "tuning/tuning_subject.hpp"

namespace tilecl::detail {

// T: half, bfloat16, or float (TF32 mode). `events` (optional) receives every launch's event, for timing.
template <typename T>
cl::Event gemm_mma_with(const Config& config, cl::CommandQueue& queue, Layout layout, Transpose trans_a,
                        Transpose trans_b, std::size_t m, std::size_t n, std::size_t k, float alpha,
                        const cl::Buffer& a, std::size_t a_offset, std::size_t lda, const cl::Buffer& b,
                        std::size_t b_offset, std::size_t ldb, float beta, cl::Buffer& c, std::size_t c_offset,
                        std::size_t ldc, const std::vector<cl::Event>* wait = nullptr,
                        std::vector<cl::Event>* events = nullptr);

// The element format a storage type computes in: half -> F16, bfloat16 -> BF16, float -> TF32.
template <typename T>
constexpr gemm::mma::Format mma_format_of() {
  if constexpr (std::is_same_v<T, half>) return gemm::mma::Format::F16;
  if constexpr (std::is_same_v<T, bfloat16>) return gemm::mma::Format::BF16;
  return gemm::mma::Format::TF32;
}

// Whether gemm(MathMode::TF32, ...) runs on the tensor cores (gemm_mma, dtype "tf32") rather than as float gemm: where
// the device runs the PTX and the product is large enough to be bound by arithmetic (not small, GEMV-like or
// skinny: there float gemm is as fast, and exact).
bool tf32_on_tensor_cores(const DeviceInfo& device, Layout layout, Transpose trans_a, Transpose trans_b,
                          std::uint64_t m, std::uint64_t n, std::uint64_t k);

namespace gemm::mma {

// The tuning subject of one shape class (op "gemm_mma", dtype "half", "bfloat16" or "tf32").
std::unique_ptr<TuningSubject> make_subject(const FormatInfo& format, const KernelProblem& problem);

}  // namespace gemm::mma

// The registry entry: `tilecl tune --op gemm_mma --dtype half,bfloat16,tf32`.
std::vector<TunableOp> gemm_mma_tunable_ops();

}  // namespace tilecl::detail
