// A gemm call as the caller made it (BLAS semantics), the row-major problem the kernels see, and the checks
// of a call's arguments.
#pragma once

#include <CL/opencl.hpp>
#include <cstdint>
#include <string>

#include "checks.hpp"
#include "dtype.hpp"
#include "tilecl/types.hpp"

namespace tilecl::detail::gemm {

constexpr const char* kOp = "gemm";
constexpr const char* kFamily = "gemm";

struct Operand {
  const cl::Buffer* buffer;
  std::uint64_t offset;
  std::uint64_t ld;
};

struct Call {
  Layout layout;
  Transpose trans_a, trans_b;
  std::uint64_t m, n, k;
  Operand a, b, c;
};

// The problem the kernels see: row-major, op(A) m x k, op(B) k x n; C (m, n) at c[m * ldc + n], or at
// c[n * ldc + m] with trans_c.
struct KernelProblem {
  std::uint64_t m, n, k;
  bool trans_a, trans_b, trans_c;
  Operand a, b, c;
};

// A ColMajor call is solved as C^T = op(B)^T op(A)^T (A and B swap, their transposes swap, m and n swap).
KernelProblem row_major(const Call& call);
// The same product solved as C^T = op(B)^T op(A)^T into the same C, stored transposed.
KernelProblem transposed(const KernelProblem& p);
// gemm_skinny_m wants M small and B along N (TRANS_B = 0); gemm_skinny_n wants N small and A along K
// (TRANS_A = 0). Every other kernel takes the problem as it is.
KernelProblem oriented(const KernelProblem& p, const std::string& variant);

// The shape a tuning subject times: `p` halved along its longest side until it has at most `gpu_multiply_adds`
// multiply-adds (a sixteenth of that on CPUs) -- the same class of shape, quick to time.
KernelProblem timed_problem(KernelProblem p, bool cpu, double gpu_multiply_adds = 0x1p33);

// Every argument of the call (sizes, leading dimensions, buffers, overlap of C with A or B).
void validate(const QueueTarget& target, const DTypeInfo& dtype, const Call& call);
// The enumerations, checked even when there is nothing to do (an out-of-range enumerator is never valid).
void check_enums(const Call& call);

// "MxNxK", optionally ":NN|NT|TN|TT" (transposes of A and B), ":row|col" (layout) and ":lda=N", ":ldb=N", ":ldc=N"
// (leading dimensions; 0, the default, means the minimal one), e.g. 1x4096x4096:NT or 100x100x85:TN:lda=133.
Call parse_shape(const std::string& text);

}  // namespace tilecl::detail::gemm
