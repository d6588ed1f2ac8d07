// What the files of batched gemm share: the kernels' view of a call, its validation, build options and tuning
// subject (gemm_batched.cpp enqueues, gemm_batched_checks.cpp validates, gemm_batched_tuning.cpp tunes).
#pragma once

#include <CL/opencl.hpp>
#include <cstdint>
#include <initializer_list>
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
  return call.per_matrix() || call.listed ? "gemm_batched" : "gemm_strided_batched";
}

// A gemm_batched call whose offsets are evenly spaced (matrix i of each operand at first + i * stride, stride >= 0)
// as the strided call with the same matrices, its alpha and beta the first matrix's (listed = true); false when
// any operand's offsets are not. Validating that form costs O(1) per operand instead of sorting the offsets.
template <typename T>
bool evenly_spaced(const BatchedCall<T>& call, BatchedCall<T>& strided) {
  const auto spacing = [&](const std::vector<std::size_t>& offsets, std::uint64_t& first, std::uint64_t& stride) {
    first = offsets[0];
    stride = offsets.size() > 1 && offsets[1] >= offsets[0] ? offsets[1] - offsets[0] : 0;
    bool regular = true;
    for (std::size_t i = 1; i < offsets.size(); ++i) regular &= offsets[i] == offsets[i - 1] + stride;
    return regular;  // a sum that wraps past 2^64 makes the strided form's last extent overflow: refused there
  };
  if (!call.per_matrix() || call.batch == 0) return false;
  strided = call;
  if (!spacing(*call.a_offsets, strided.a_offset, strided.stride_a) ||
      !spacing(*call.b_offsets, strided.b_offset, strided.stride_b) ||
      !spacing(*call.c_offsets, strided.c_offset, strided.stride_c))
    return false;
  strided.a_offsets = strided.b_offsets = strided.c_offsets = nullptr;
  strided.alphas = strided.betas = nullptr;
  strided.alpha = (*call.alphas)[0], strided.beta = (*call.betas)[0];
  strided.listed = true;
  return true;
}

// Whether every matrix has the same alpha and the same beta (a NaN makes them differ: the table keeps it exact).
template <typename T>
bool uniform_scalars(const BatchedCall<T>& call) {
  const auto uniform = [](const auto& values) {
    bool same = true;
    for (const auto& value : values) same &= value == values[0];
    return same;
  };
  return !call.per_matrix() || (uniform(*call.alphas) && uniform(*call.betas));
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

// What a call promises the tiled kernel's vector accesses (kernels/gemm_batched.cl, ALIGN_A/B/C): every stored row
// of every A (B, C) matrix starts at a multiple of this many elements (1, 2, 4 or 8).
struct OperandAlignment {
  std::uint64_t a = 1, b = 1, c = 1;
};
// The largest of 8, 4, 2, 1 that divides every value.
std::uint64_t common_alignment(std::initializer_list<std::uint64_t> values);
// The same over a leading dimension and a list of offsets.
std::uint64_t common_alignment(std::uint64_t ld, const std::vector<std::size_t>& offsets);

// A tiled configuration fitted to a call whose matrices are smaller than its tile (kernel view: row-major m x n,
// depth k, `batch` matrices): TILE_M, TILE_N and TILE_K shrink to the powers of two that hold m, n and k (outputs
// per work-item with them); MATS grows to keep the work-group's work-items, within its local memory, while the
// batch gives each compute unit two groups; when one matrix a group is all the batch allows, outputs per
// work-item shrink instead. Vector local reads are dropped where the outputs per work-item no longer allow them.
// Anything else comes back unchanged.
// The most matrices per work-group a fitted tiling takes for a batch: the largest power of two that still gives every
// compute unit two groups (1 for small batches).
std::uint64_t gemm_batched_matrices_cap(std::uint64_t batch, const DeviceInfo& device);

Config gemm_batched_fit_config(const DTypeInfo& dtype, const Config& config, std::uint64_t m, std::uint64_t n,
                               std::uint64_t k, std::uint64_t batch, const DeviceInfo& device);

// DTYPE, STORAGE, TRANS_A, TRANS_B, USE_OFFSETS, ALIGN_A/B/C and the configuration's build parameters.
BuildOptions gemm_batched_build_options(const DTypeInfo& dtype, const Config& config, bool trans_a, bool trans_b,
                                        bool per_matrix, const OperandAlignment& alignment);

// The subject of one bucket, strided (op "gemm_strided_batched") or with per-matrix offsets ("gemm_batched").
std::unique_ptr<TuningSubject> make_gemm_batched_subject(const std::string& dtype, const std::string& bucket,
                                                         bool per_matrix);

}  // namespace tilecl::detail
