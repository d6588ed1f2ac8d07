// Batched matrix multiply: many products of one shape in one launch. Units, events, errors and
// thread-safety: tilecl.hpp.
#pragma once

#include <CL/opencl.hpp>
#include <cstddef>
#include <vector>

#include "tilecl/element_types.hpp"
#include "tilecl/types.hpp"

namespace tilecl {

// C_i = alpha * op(A_i) * op(B_i) + beta * C_i for i < batch_count, every product in BLAS semantics as
// tilecl::gemm (tilecl/gemm.hpp: layout, transposes, leading dimensions, beta == 0 not reading C, alpha == 0
// not reading A and B), all of one shape and one layout: op(A_i) m x k, op(B_i) k x n, C_i m x n. Matrix i
// starts at a_offset + i * stride_a in a (likewise b and c). T: float or double (tilecl::half: below).
//
// - Strides are in elements and may be 0 for A and B (one matrix shared by every product); the C matrices
//   must not share any element (tilecl::Error CL_MEM_COPY_OVERLAP, argument "c"): C matrices that interleave
//   without sharing an element (e.g. column blocks of one wide matrix) are allowed.
// - No C matrix may share a byte of its span (first to last element) with any A or B matrix
//   (CL_MEM_COPY_OVERLAP); A and B matrices may overlap each other.
// - Every matrix must lie inside its buffer; each one's span must stay below 2^31 elements, and m, n, k and
//   the leading dimensions too (the kernels index within a matrix in 32 bits; offsets are 64-bit).
// - m, n or batch_count == 0: nothing to do; returns a null event, enqueues nothing, checks no buffer (only
//   the enumerators). k == 0: C_i = beta * C_i.
//
// One kernel launch for the whole batch: small matrices are computed whole by one work-group each (several
// per work-group when tiny), larger ones in tiles with the batch on the NDRange's third dimension. Parameters
// come from the tuning database, first-use tuning or device-derived defaults, per bucket of the matrices'
// size (src/ops/gemm_batched_tuning.cpp).
template <typename T>
detail::BatchedEvent<T> gemm_strided_batched(cl::CommandQueue& queue, Layout layout, Transpose trans_a,
                                             Transpose trans_b, std::size_t m, std::size_t n, std::size_t k, T alpha,
                                             const cl::Buffer& a, std::size_t a_offset, std::size_t lda,
                                             std::size_t stride_a, const cl::Buffer& b, std::size_t b_offset,
                                             std::size_t ldb, std::size_t stride_b, T beta, cl::Buffer& c,
                                             std::size_t c_offset, std::size_t ldc, std::size_t stride_c,
                                             std::size_t batch_count, const std::vector<cl::Event>* wait = nullptr);

// C_i = alphas[i] * op(A_i) * op(B_i) + betas[i] * C_i for i < batch_count, as gemm_strided_batched but with
// each matrix at its own offset (a_offsets[i] in a, b_offsets[i] in b, c_offsets[i] in c) and its own scalars
// (as CLBlast's GemmBatched). The five vectors must all hold batch_count = alphas.size() entries
// (CL_INVALID_VALUE otherwise, argument named after the first vector that differs). betas[i] == 0 does not read
// C_i, alphas[i] == 0 does not read A_i and B_i.
//
// The offsets and scalars are copied to the device in the same in-order chain as the kernel (from a copy the
// call keeps until the transfer is complete), so the vectors may be changed or freed once the call returns.
template <typename T>
detail::BatchedEvent<T> gemm_batched(cl::CommandQueue& queue, Layout layout, Transpose trans_a, Transpose trans_b,
                                     std::size_t m, std::size_t n, std::size_t k, const std::vector<T>& alphas,
                                     const cl::Buffer& a, const std::vector<std::size_t>& a_offsets, std::size_t lda,
                                     const cl::Buffer& b, const std::vector<std::size_t>& b_offsets, std::size_t ldb,
                                     const std::vector<T>& betas, cl::Buffer& c,
                                     const std::vector<std::size_t>& c_offsets, std::size_t ldc,
                                     const std::vector<cl::Event>* wait = nullptr);

// Both on tilecl::half storage (A, B and C hold IEEE binary16; no cl_khr_fp16 needed) with float alpha and beta
// (gemm_batched: std::vector<float> alphas and betas): elements are read as float, products and sums computed in
// float, each C element rounded once to half (to nearest even; overflow gives infinity). Each element is within
// the float bound (k + 2) * 2^-24 * (|alpha| sum |a b| + |beta c|) plus 2^-11 |c| of the exact result of the
// stored values. Otherwise as above.
template <typename T>
detail::HalfEvent<T> gemm_strided_batched(cl::CommandQueue& queue, Layout layout, Transpose trans_a, Transpose trans_b,
                                          std::size_t m, std::size_t n, std::size_t k, float alpha, const cl::Buffer& a,
                                          std::size_t a_offset, std::size_t lda, std::size_t stride_a,
                                          const cl::Buffer& b, std::size_t b_offset, std::size_t ldb,
                                          std::size_t stride_b, float beta, cl::Buffer& c, std::size_t c_offset,
                                          std::size_t ldc, std::size_t stride_c, std::size_t batch_count,
                                          const std::vector<cl::Event>* wait = nullptr);

template <typename T>
detail::HalfEvent<T> gemm_batched(cl::CommandQueue& queue, Layout layout, Transpose trans_a, Transpose trans_b,
                                  std::size_t m, std::size_t n, std::size_t k, const std::vector<float>& alphas,
                                  const cl::Buffer& a, const std::vector<std::size_t>& a_offsets, std::size_t lda,
                                  const cl::Buffer& b, const std::vector<std::size_t>& b_offsets, std::size_t ldb,
                                  const std::vector<float>& betas, cl::Buffer& c,
                                  const std::vector<std::size_t>& c_offsets, std::size_t ldc,
                                  const std::vector<cl::Event>* wait = nullptr);

}  // namespace tilecl
