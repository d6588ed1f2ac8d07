// A GEMM call of the multi-device layer as logical matrices over their storages (matrix_blocks.hpp):
// C (m x n) = alpha * A (m x k) * B (k x n) + beta * C, each operand already op()'d, so that transposing the
// whole problem (C^T = B^T A^T) is a matter of swapping and flipping, and the device calls are derived back.
#pragma once

#include <cstddef>
#include <string>

#include "multi_device/matrix_blocks.hpp"
#include "tilecl/multi_device.hpp"

namespace tilecl::detail {

template <typename T>
struct GemmProblem {
  std::size_t m = 0, n = 0, k = 0;
  T alpha{}, beta{};
  const T* a = nullptr;
  MatrixStorage a_storage;
  const T* b = nullptr;
  MatrixStorage b_storage;
  T* c = nullptr;
  MatrixStorage c_storage;

  bool reads_ab() const { return k > 0 && alpha != T(0); }
  bool reads_c() const { return beta != T(0); }
  // The same product computed as C^T = B^T A^T (rows of the result become columns).
  GemmProblem transposed() const;
};

// The BLAS arguments of a call (ld counts elements between memory rows, as in tilecl::gemm).
template <typename T>
GemmProblem<T> gemm_problem(Layout layout, Transpose trans_a, Transpose trans_b, std::size_t m, std::size_t n,
                            std::size_t k, T alpha, const T* a, std::size_t lda, const T* b, std::size_t ldb, T beta,
                            T* c, std::size_t ldc);

// Refuses what tilecl::gemm would refuse on every device (enumerators, the element type) and what only host
// operands can get wrong: a leading dimension below a memory row, a null operand that is read, C overlapping A
// or B (not when `empty`: a call with nothing to do reads no pointer). `op` names the caller. Does not check the
// extents behind the pointers (the caller's promise).
template <typename T>
void validate_gemm(const char* op, DeviceSet& devices, Layout layout, Transpose trans_a, Transpose trans_b,
                   const GemmProblem<T>& problem, bool empty);

// The arguments of the single-device tilecl::gemm that computes blocks of a problem held on a device in the
// given storages (orientations as on the host).
struct DeviceGemmForm {
  Layout layout;
  Transpose trans_a, trans_b;
};
DeviceGemmForm device_gemm_form(const MatrixStorage& a, const MatrixStorage& b, const MatrixStorage& c);

}  // namespace tilecl::detail
