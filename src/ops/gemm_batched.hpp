// Batched gemm with an explicit configuration (tests, the tuner, the bench's baselines), and the pieces of its
// tuning: shape buckets, search space, device-derived defaults. The public API (tilecl/gemm_batched.hpp) picks a
// configuration itself.
#pragma once

#include <CL/opencl.hpp>
#include <cstdint>
#include <string>
#include <vector>

#include "dtype.hpp"
#include "tilecl/types.hpp"
#include "tuning/search_space.hpp"

namespace tilecl::detail {

// One batched call in BLAS terms. Strided when the per-matrix vectors are null; otherwise matrix i is at
// (*a_offsets)[i] etc. with scalars (*alphas)[i], (*betas)[i] (the strided fields are then unused). T is the
// stored element type; scalars are ComputeType<T> (float for tilecl::half).
template <typename T>
struct BatchedCall {
  using Scalar = ComputeType<T>;

  Layout layout = Layout::RowMajor;
  Transpose trans_a = Transpose::No, trans_b = Transpose::No;
  std::uint64_t m = 0, n = 0, k = 0, batch = 0;
  const cl::Buffer* a = nullptr;
  const cl::Buffer* b = nullptr;
  cl::Buffer* c = nullptr;
  std::uint64_t lda = 1, ldb = 1, ldc = 1;
  std::uint64_t a_offset = 0, b_offset = 0, c_offset = 0, stride_a = 0, stride_b = 0, stride_c = 0;
  Scalar alpha = Scalar(1), beta = Scalar(0);
  const std::vector<std::size_t>* a_offsets = nullptr;
  const std::vector<std::size_t>* b_offsets = nullptr;
  const std::vector<std::size_t>* c_offsets = nullptr;
  const std::vector<Scalar>* alphas = nullptr;
  const std::vector<Scalar>* betas = nullptr;
  // A gemm_batched call whose listed offsets were evenly spaced, carried as a strided one (errors still name
  // gemm_batched).
  bool listed = false;

  bool per_matrix() const { return a_offsets != nullptr; }
};

// Validates and runs the call (as the public functions do) with `config`, or with the tuning service's choice
// when config is null. `events` (optional) receives every command, first to last.
template <typename T>
cl::Event run_gemm_batched(const Config* config, cl::CommandQueue& queue, const BatchedCall<T>& call,
                           const std::vector<cl::Event>* wait, std::vector<cl::Event>* events = nullptr);

// The bucket of a call with m x n matrices (any layout: the larger side decides) and every bucket, in order.
std::string gemm_batched_bucket(std::uint64_t m, std::uint64_t n);
std::vector<std::string> gemm_batched_buckets();

// Variants: tiled (GPUs: local tiles, whole small matrices per work-group) and cpu (no local memory); every
// bucket's space holds both, the default's variant first with its values first.
SearchSpace gemm_batched_search_space(const DTypeInfo& dtype, const std::string& bucket, const DeviceInfo& device);
Config gemm_batched_default_config(const DTypeInfo& dtype, const std::string& bucket, const DeviceInfo& device);

}  // namespace tilecl::detail
