// half / bfloat16 gemm and float gemm in TF32 mode: the op in the common frame (ops/op_frame.hpp), the public API and
// the registry entry. The pieces: mma_variants.* (formats, kernel variants, whether the device runs the PTX),
// mma_shapes.* (ranking), mma_plan.* (what a call enqueues), mma_enqueue.* (enqueueing it), mma_subject.cpp (tuning),
// mma_accuracy.hpp (the error bounds). Validation, the row-major problem and the shape classes are gemm's
// (problem.*, shapes.*).
#include <algorithm>

#include "ops/gemm/mma.hpp"
#include "ops/gemm/mma_enqueue.hpp"
#include "ops/gemm/mma_plan.hpp"
#include "ops/gemm/plan.hpp"
#include "ops/gemm/shapes.hpp"
#include "ops/op_frame.hpp"
#include "tilecl/gemm.hpp"

namespace tilecl {
namespace detail {
namespace gemm::mma {
namespace {

template <typename T>
struct MmaGemmOp {
  struct Call {
    gemm::Call call;
    float alpha, beta;
    std::vector<cl::Event>* events;  // every launch's event, for timing (nullable)
  };
  static const FormatInfo& format() { return format_info(mma_format_of<T>()); }
  const char* name() const { return kOp; }
  bool is_empty(const Call& c) const {
    check_enums(c.call);
    return c.call.m == 0 || c.call.n == 0;
  }
  void validate(const QueueTarget& target, const Call& c) const { gemm::validate(target, *format().dtype, c.call); }
  const SearchSpace& space(const DeviceInfo& /*device*/, const Call& /*c*/) const {
    return variants_for(format().format).space;
  }
  ShapeKey shape_key(const Call& c) const {
    const KernelProblem p = row_major(c.call);
    // The packing splits a class (mma_subject.cpp: a class's choice is timed with its calls' packing).
    return {"gemm_mma", format().dtype->name, class_code(p) | std::uint64_t{packed_operands(format(), p)} << 24,
            program_code(p)};
  }
  std::unique_ptr<TuningSubject> subject(const Call& c) const { return make_subject(format(), row_major(c.call)); }
  cl::Event enqueue(const QueueTarget& target, cl::CommandQueue& queue, Resolved& resolved, const Call& c,
                    const std::vector<cl::Event>* wait) const {
    return enqueue_mma(target, queue, resolved, format(), c.call, c.alpha, c.beta, wait, c.events);
  }
};

Call make_call(Layout layout, Transpose trans_a, Transpose trans_b, std::size_t m, std::size_t n, std::size_t k,
               const cl::Buffer& a, std::size_t a_offset, std::size_t lda, const cl::Buffer& b, std::size_t b_offset,
               std::size_t ldb, cl::Buffer& c, std::size_t c_offset, std::size_t ldc) {
  return {layout, trans_a, trans_b, m, n, k, {&a, a_offset, lda}, {&b, b_offset, ldb}, {&c, c_offset, ldc}};
}

}  // namespace
}  // namespace gemm::mma

bool tf32_on_tensor_cores(const DeviceInfo& device, Layout layout, Transpose trans_a, Transpose trans_b,
                          std::uint64_t m, std::uint64_t n, std::uint64_t k) {
  if (!gemm::mma::uses_ptx(device)) return false;
  const std::string category = gemm::category_of(gemm::row_major({layout, trans_a, trans_b, m, n, k, {}, {}, {}})).name;
  return category != "small" && category.find("gemv") == std::string::npos &&
         category.find("skinny") == std::string::npos;
}

template <typename T>
cl::Event gemm_mma_with(const Config& config, cl::CommandQueue& queue, Layout layout, Transpose trans_a,
                        Transpose trans_b, std::size_t m, std::size_t n, std::size_t k, float alpha,
                        const cl::Buffer& a, std::size_t a_offset, std::size_t lda, const cl::Buffer& b,
                        std::size_t b_offset, std::size_t ldb, float beta, cl::Buffer& c, std::size_t c_offset,
                        std::size_t ldc, const std::vector<cl::Event>* wait, std::vector<cl::Event>* events) {
  const auto call =
      gemm::mma::make_call(layout, trans_a, trans_b, m, n, k, a, a_offset, lda, b, b_offset, ldb, c, c_offset, ldc);
  return run_op(gemm::mma::MmaGemmOp<T>{}, &config, queue, {call, alpha, beta, events}, wait);
}

template <typename T>
cl::Event gemm_mma(cl::CommandQueue& queue, Layout layout, Transpose trans_a, Transpose trans_b, std::size_t m,
                   std::size_t n, std::size_t k, float alpha, const cl::Buffer& a, std::size_t a_offset,
                   std::size_t lda, const cl::Buffer& b, std::size_t b_offset, std::size_t ldb, float beta,
                   cl::Buffer& c, std::size_t c_offset, std::size_t ldc, const std::vector<cl::Event>* wait) {
  const auto call =
      gemm::mma::make_call(layout, trans_a, trans_b, m, n, k, a, a_offset, lda, b, b_offset, ldb, c, c_offset, ldc);
  return run_op(gemm::mma::MmaGemmOp<T>{}, nullptr, queue, {call, alpha, beta, nullptr}, wait);
}

std::vector<TunableOp> gemm_mma_tunable_ops() {
  TunableOp op;
  op.description = {"gemm_mma",
                    "gemm_mma",
                    {"half", "bfloat16", "tf32"},
                    "MxNxK[:NN|NT|TN|TT][:row|col][:lda=N][:ldb=N][:ldc=N], as gemm: half and bfloat16 gemm, and "
                    "float gemm in TF32 mode (tensor cores on NVIDIA GPUs of compute capability 8.0 and newer, a "
                    "portable kernel elsewhere); tuned per gemm shape class and per operand the tensor-core kernel "
                    "packs (leading dimension or offset off 16 bytes; leading dimensions default to the minimal)",
                    {"4096x4096x4096", "1024x1024x1024"}};
  op.make_subject = [](const std::string& dtype, const std::string& shape) {
    const gemm::mma::FormatInfo* format = gemm::mma::format_named(dtype);
    if (format == nullptr)
      throw Error(gemm::kOp, "dtype", CL_INVALID_VALUE, "'" + dtype + "' is not half, bfloat16 or tf32");
    return gemm::mma::make_subject(*format, gemm::row_major(gemm::parse_shape(shape)));
  };
  return {op};
}

#define TILECL_GEMM_MMA_INSTANTIATE(T)                                                                               \
  template cl::Event gemm_mma_with<T>(const Config&, cl::CommandQueue&, Layout, Transpose, Transpose, std::size_t,   \
                                      std::size_t, std::size_t, float, const cl::Buffer&, std::size_t, std::size_t,  \
                                      const cl::Buffer&, std::size_t, std::size_t, float, cl::Buffer&, std::size_t,  \
                                      std::size_t, const std::vector<cl::Event>*, std::vector<cl::Event>*);          \
  template cl::Event gemm_mma<T>(cl::CommandQueue&, Layout, Transpose, Transpose, std::size_t, std::size_t,          \
                                 std::size_t, float, const cl::Buffer&, std::size_t, std::size_t, const cl::Buffer&, \
                                 std::size_t, std::size_t, float, cl::Buffer&, std::size_t, std::size_t,             \
                                 const std::vector<cl::Event>*);
TILECL_GEMM_MMA_INSTANTIATE(half)
TILECL_GEMM_MMA_INSTANTIATE(bfloat16)
TILECL_GEMM_MMA_INSTANTIATE(float)
#undef TILECL_GEMM_MMA_INSTANTIATE

}  // namespace detail

template <typename T>
detail::Gemm16Event<T> gemm(cl::CommandQueue& queue, Layout layout, Transpose trans_a, Transpose trans_b, std::size_t m,
                            std::size_t n, std::size_t k, float alpha, const cl::Buffer& a, std::size_t a_offset,
                            std::size_t lda, const cl::Buffer& b, std::size_t b_offset, std::size_t ldb, float beta,
                            cl::Buffer& c, std::size_t c_offset, std::size_t ldc, const std::vector<cl::Event>* wait) {
  return detail::gemm_mma<T>(queue, layout, trans_a, trans_b, m, n, k, alpha, a, a_offset, lda, b, b_offset, ldb, beta,
                             c, c_offset, ldc, wait);
}

#define TILECL_GEMM_16_INSTANTIATE(T)                                                                                \
  template cl::Event gemm<T>(cl::CommandQueue&, Layout, Transpose, Transpose, std::size_t, std::size_t, std::size_t, \
                             float, const cl::Buffer&, std::size_t, std::size_t, const cl::Buffer&, std::size_t,     \
                             std::size_t, float, cl::Buffer&, std::size_t, std::size_t,                              \
                             const std::vector<cl::Event>*);
TILECL_GEMM_16_INSTANTIATE(half)
TILECL_GEMM_16_INSTANTIATE(bfloat16)
#undef TILECL_GEMM_16_INSTANTIATE

cl::Event gemm(cl::CommandQueue& queue, MathMode mode, Layout layout, Transpose trans_a, Transpose trans_b,
               std::size_t m, std::size_t n, std::size_t k, float alpha, const cl::Buffer& a, std::size_t a_offset,
               std::size_t lda, const cl::Buffer& b, std::size_t b_offset, std::size_t ldb, float beta, cl::Buffer& c,
               std::size_t c_offset, std::size_t ldc, const std::vector<cl::Event>* wait) {
  if (mode != MathMode::Standard && mode != MathMode::TF32)
    throw Error(detail::gemm::kOp, "mode", CL_INVALID_VALUE,
                std::to_string(static_cast<int>(mode)) + " is not a MathMode enumerator");
  const auto call = detail::gemm::mma::make_call(layout, trans_a, trans_b, m, n, k, a, a_offset, lda, b, b_offset, ldb,
                                                 c, c_offset, ldc);
  if (mode == MathMode::TF32 && m != 0 && n != 0) {
    detail::gemm::check_enums(call);
    if (detail::tf32_on_tensor_cores(device_info(queue_device(queue)), layout, trans_a, trans_b, m, n, k))
      return detail::gemm_mma<float>(queue, layout, trans_a, trans_b, m, n, k, alpha, a, a_offset, lda, b, b_offset,
                                     ldb, beta, c, c_offset, ldc, wait);
  }
  return gemm<float>(queue, layout, trans_a, trans_b, m, n, k, alpha, a, a_offset, lda, b, b_offset, ldb, beta, c,
                     c_offset, ldc, wait);
}

}  // namespace tilecl
