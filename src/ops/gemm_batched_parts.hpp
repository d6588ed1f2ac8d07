// What the files of batched gemm share: the kernels' view of a call, its validation, build options and tuning
// subject (gemm_batched.cpp enqueues, gemm_batched_checks.cpp validates, gemm_batched_tuning.cpp tunes).
#pragma once

#include <CL/opencl.hpp>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "build_options.hpp"
#include "checks.hpp"
#include "ops/gemm_batched.hpp"
#include "tuning/tuning_subject.hpp"

namespace tilecl::detail {

// The op a call reports in its errors: "gemm_batched" (per-matrix offsets) or "gemm_strided_batched".
template <typename T>
const char* batched_op_name(const BatchedCall<T>& call) {
  return call.per_matrix() ? "gemm_batched" : "gemm_strided_batched";
}

// Elements a stored matrix spans from its offset: (lines - 1) * ld + line, where a RowMajor rows x cols matrix
// has `rows` lines of `cols` (ColMajor: `cols` lines of `rows`); 0 for an empty matrix.
std::uint64_t batched_span(const std::string& op, const char* name, Layout layout, std::uint64_t rows,
                           std::uint64_t cols, std::uint64_t ld);

// Everything gemm_strided_batched / gemm_batched check before enqueueing, after the enumerators and the sizes of
// the per-matrix vectors (checked even for empty calls) and the early return of empty calls.
template <typename T>
void validate_batched(const QueueTarget& target, const BatchedCall<T>& call);

// A bucket and the batch timed when it is tuned; max_side 0 means unbounded.
struct BatchedBucketShape {
  const char* name;
  std::uint64_t max_side;
  std::uint64_t batch, m, n, k;
};
// Throws tilecl::Error for an unknown bucket.
const BatchedBucketShape& gemm_batched_bucket_shape(const std::string& bucket);

// DTYPE, STORAGE, TRANS_A, TRANS_B, USE_OFFSETS and the configuration's build parameters.
BuildOptions gemm_batched_build_options(const DTypeInfo& dtype, const Config& config, bool trans_a, bool trans_b,
                                        bool per_matrix);

// The subject of one bucket, strided (op "gemm_strided_batched") or with per-matrix offsets ("gemm_batched").
std::unique_ptr<TuningSubject> make_gemm_batched_subject(const std::string& dtype, const std::string& bucket,
                                                         bool per_matrix);

}  // namespace tilecl::detail
