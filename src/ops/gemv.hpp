// Matrix-vector products as the kernels see them (kernels/gemv.cl), for the public gemv and for other ops
// that reduce to it: a gemm call whose m or n is at most kMaxGemvVectors is a product of one large matrix with
// that many vectors (gemv_problem_of_gemm).
#pragma once

#include <CL/opencl.hpp>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "checks.hpp"
#include "dtype.hpp"
#include "program_cache.hpp"
#include "tilecl/types.hpp"
#include "tuning/search_space.hpp"

namespace tilecl::detail {

// The op name in errors and tuning keys.
constexpr const char* kGemvOp = "gemv";

// The most vectors one launch takes (accumulators are kept per vector).
constexpr std::uint64_t kMaxGemvVectors = 8;

// Dots: y_v[r] = alpha * sum_c R[r, c] x_v[c] + beta * y_v[r] (each output a dot product along a stored row).
// Columns: y_v[c] = alpha * sum_r R[r, c] x_v[r] + beta * y_v[c] (each output sums down a column).
enum class GemvForm { Dots, Columns };

// Y = alpha * op(R) * X + beta * Y for `vectors` vectors, R stored row-major rows x cols with leading dimension
// ldr. Vector v's element i is at x_offset + v * ldx + i * incx in x (and likewise in y); a negative increment
// walks down from x_offset, which then is the highest element (BLAS's "first" element of a negative-increment
// vector is at the other end: the public gemv converts).
struct GemvProblem {
  GemvForm form = GemvForm::Dots;
  std::uint64_t rows = 0, cols = 0;
  const cl::Buffer* r = nullptr;
  std::uint64_t r_offset = 0, ldr = 1;
  std::uint64_t vectors = 1;
  const cl::Buffer* x = nullptr;
  std::uint64_t x_offset = 0, ldx = 0;
  std::int64_t incx = 1;
  cl::Buffer* y = nullptr;
  std::uint64_t y_offset = 0, ldy = 0;
  std::int64_t incy = 1;

  std::uint64_t length() const { return form == GemvForm::Dots ? rows : cols; }  // outputs per vector
  std::uint64_t depth() const { return form == GemvForm::Dots ? cols : rows; }   // terms per output
};

// Enqueues the problem: gathers strided or misaligned vectors into a workspace, runs gemv_dots or gemv_columns
// (splitting the depth over work-groups when the outputs alone give too few), and adds the slices. alpha == 0 or
// depth == 0: y = beta * y, R and X not read. beta == 0: y not read.
// Preconditions (the caller has validated them; violations of the first two raise tilecl::Error):
//   length() >= 1, 1 <= vectors <= kMaxGemvVectors; every buffer holds its extent; rows, cols, ldr and every
//   vector's span stay below 2^31; y shares no byte with R or X; the element type is supported by the device.
// `config`: an explicit configuration (tests, the tuner), or nullptr to let the tuning service choose for the
// problem's bucket (gemv_bucket). `events` (optional) receives every launch, first to last. Returns the last.
template <typename T>
cl::Event enqueue_gemv(const QueueTarget& target, cl::CommandQueue& queue, const GemvProblem& problem,
                       ComputeType<T> alpha, ComputeType<T> beta, const std::vector<cl::Event>* wait,
                       const Config* config = nullptr, std::vector<cl::Event>* events = nullptr);

// enqueue_gemv with a configuration already resolved (valid for gemv_search_space) and its program, as
// gemv_program returns it for this problem or one of the same form, vectors and alignment of R's offset and
// leading dimension: no tuning lookup, no validation of the configuration, no program-cache lookup (gemm's "gemv"
// variant keeps the program with its per-thread dispatch memo).
template <typename T>
cl::Event enqueue_gemv_with_program(const QueueTarget& target, cl::CommandQueue& queue, const GemvProblem& problem,
                                    const Config& config, CompiledProgram& program, ComputeType<T> alpha,
                                    ComputeType<T> beta, const std::vector<cl::Event>* wait,
                                    std::vector<cl::Event>* events = nullptr);

// The program `config` runs `problem` with (VEC lowered to what R's offset and leading dimension allow).
std::shared_ptr<CompiledProgram> gemv_program(const QueueTarget& target, const DTypeInfo& dtype, const Config& config,
                                              const GemvProblem& problem);

// The kernels a call of `problem` with `config` enqueues when alpha != 0: the product, plus one to pack x (strided
// or misaligned) and one to add up K slices where the plan splits K.
std::size_t gemv_launches(const GemvProblem& problem, const Config& config, const DeviceInfo& device);

// The problem of a gemm call C = alpha op(A) op(B) + beta C (BLAS semantics) whose m or n is at most
// kMaxGemvVectors: the large operand becomes R, the rows or columns of the small one the vectors, those of C
// the outputs. nullopt when both m and n exceed kMaxGemvVectors. m and n must be >= 1; k may be 0.
std::optional<GemvProblem> gemv_problem_of_gemm(Layout layout, Transpose trans_a, Transpose trans_b, std::uint64_t m,
                                                std::uint64_t n, std::uint64_t k, const cl::Buffer& a,
                                                std::uint64_t a_offset, std::uint64_t lda, const cl::Buffer& b,
                                                std::uint64_t b_offset, std::uint64_t ldb, cl::Buffer& c,
                                                std::uint64_t c_offset, std::uint64_t ldc);

// The public gemv with an explicit configuration (tests, the bench's baselines); validated like gemv().
template <typename T>
cl::Event gemv_with(const Config& config, cl::CommandQueue& queue, Layout layout, Transpose trans, std::size_t m,
                    std::size_t n, ComputeType<T> alpha, const cl::Buffer& a, std::size_t a_offset, std::size_t lda,
                    const cl::Buffer& x, std::size_t x_offset, std::ptrdiff_t incx, ComputeType<T> beta, cl::Buffer& y,
                    std::size_t y_offset, std::ptrdiff_t incy, const std::vector<cl::Event>* wait = nullptr);

// The shape bucket of a problem ("dots,<2^20", ..., "columns,multi"; see gemv.cpp) and every bucket.
std::string gemv_bucket(const GemvProblem& problem);
// The same bucket as a number (its place in gemv_buckets()), without building the name: the per-call memo key.
std::size_t gemv_bucket_index(const GemvProblem& problem);
std::vector<std::string> gemv_buckets();

// One variant, "gemv", for both forms (the problem picks the kernel; each bucket is tuned on its own form),
// candidates starting from the bucket's default.
SearchSpace gemv_search_space(const DTypeInfo& dtype, const std::string& bucket, const DeviceInfo& device);
Config gemv_default_config(const DTypeInfo& dtype, const std::string& bucket, const DeviceInfo& device);

}  // namespace tilecl::detail
