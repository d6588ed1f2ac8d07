// gemm: the op in the common frame (ops/op_frame.hpp), the public API, and its entries for the tuner and tests.
// The pieces: problem.* (the call, the row-major problem, validation), variants.* (kernel variants), shapes.*
// (shape classes and the device-derived ranking), plan.* (what a call enqueues), enqueue.* (enqueueing it),
// subject.* (tuning).
#include "ops/gemm.hpp"

#include <algorithm>

#include "ops/gemm/enqueue.hpp"
#include "ops/gemm/mma.hpp"
#include "ops/gemm/plan.hpp"
#include "ops/gemm/shapes.hpp"
#include "ops/gemm/subject.hpp"
#include "ops/gemm/variants.hpp"
#include "ops/op_frame.hpp"
#include "ops/tunable_ops.hpp"
#include "tilecl/gemm.hpp"

namespace tilecl {
namespace detail {
namespace gemm {
namespace {

template <typename T>
struct GemmOp {
  struct Call {
    gemm::Call call;
    T alpha, beta;
    std::vector<cl::Event>* events;  // every launch's event, for timing (nullable)
  };
  const char* name() const { return kOp; }
  bool is_empty(const Call& c) const {
    check_enums(c.call);  // an out-of-range enumerator is never a valid call, even an empty one
    return c.call.m == 0 || c.call.n == 0;
  }
  void validate(const QueueTarget& target, const Call& c) const { gemm::validate(target, dtype_of<T>(), c.call); }
  const SearchSpace& space(const DeviceInfo& /*device*/, const Call& c) const {
    return space_for(dtype_of<T>(), row_major(c.call));
  }
  ShapeKey shape_key(const Call& c) const {
    const KernelProblem p = row_major(c.call);
    return {kOp, dtype_of<T>().name, class_code(p), program_code(p)};
  }
  std::unique_ptr<TuningSubject> subject(const Call& c) const { return make_subject(dtype_of<T>(), row_major(c.call)); }
  cl::Event enqueue(const QueueTarget& target, cl::CommandQueue& queue, Resolved& resolved, const Call& c,
                    const std::vector<cl::Event>* wait) const {
    return enqueue_gemm<T>(target, queue, resolved, c.call, c.alpha, c.beta, wait, c.events);
  }
};

Call make_call(Layout layout, Transpose trans_a, Transpose trans_b, std::size_t m, std::size_t n, std::size_t k,
               const cl::Buffer& a, std::size_t a_offset, std::size_t lda, const cl::Buffer& b, std::size_t b_offset,
               std::size_t ldb, cl::Buffer& c, std::size_t c_offset, std::size_t ldc) {
  return {layout, trans_a, trans_b, m, n, k, {&a, a_offset, lda}, {&b, b_offset, ldb}, {&c, c_offset, ldc}};
}

std::vector<std::string> category_shapes() {
  std::vector<std::string> shapes;
  for (const auto& category : categories())
    shapes.push_back(std::to_string(category.m) + "x" + std::to_string(category.n) + "x" + std::to_string(category.k));
  // The first shape validates overrides: the large category (every class's space holds every variant).
  std::rotate(shapes.begin(), shapes.end() - 1, shapes.end());
  return shapes;
}

std::string category_list() {
  std::string names;
  for (const auto& category : categories()) names += (names.empty() ? "" : ", ") + std::string(category.name);
  return names;
}

}  // namespace
}  // namespace gemm

std::string gemm_bucket(Layout layout, Transpose trans_a, Transpose trans_b, std::uint64_t m, std::uint64_t n,
                        std::uint64_t k) {
  return gemm::category_of(gemm::row_major(gemm::Call{layout, trans_a, trans_b, m, n, k, {}, {}, {}})).name;
}

std::vector<std::string> gemm_buckets() {
  std::vector<std::string> names;
  for (const auto& category : gemm::categories()) names.emplace_back(category.name);
  return names;
}

Config gemm_default_config(const DTypeInfo& dtype, const std::string& bucket, const DeviceInfo& device) {
  const auto& category = gemm::category_named(bucket);
  const gemm::KernelProblem p{category.m, category.n, category.k, false, false, false, {}, {}, {}};
  return gemm::default_config(dtype, p, device);
}

SearchSpace gemm_search_space(const DTypeInfo& dtype, const std::string& bucket, const DeviceInfo& /*device*/) {
  return gemm::tuning_space(dtype, gemm::category_named(bucket).name);
}

FamilyMacros gemm_macros() { return gemm::gemm_family_macros(); }

template <typename T>
cl::Event gemm_with(const Config& config, cl::CommandQueue& queue, Layout layout, Transpose trans_a, Transpose trans_b,
                    std::size_t m, std::size_t n, std::size_t k, T alpha, const cl::Buffer& a, std::size_t a_offset,
                    std::size_t lda, const cl::Buffer& b, std::size_t b_offset, std::size_t ldb, T beta, cl::Buffer& c,
                    std::size_t c_offset, std::size_t ldc, const std::vector<cl::Event>* wait) {
  const auto call =
      gemm::make_call(layout, trans_a, trans_b, m, n, k, a, a_offset, lda, b, b_offset, ldb, c, c_offset, ldc);
  return run_op(gemm::GemmOp<T>{}, &config, queue, {call, alpha, beta, nullptr}, wait);
}

template <typename T>
std::vector<cl::Event> gemm_with_events(const Config& config, cl::CommandQueue& queue, Layout layout, Transpose trans_a,
                                        Transpose trans_b, std::size_t m, std::size_t n, std::size_t k, T alpha,
                                        const cl::Buffer& a, std::size_t a_offset, std::size_t lda, const cl::Buffer& b,
                                        std::size_t b_offset, std::size_t ldb, T beta, cl::Buffer& c,
                                        std::size_t c_offset, std::size_t ldc) {
  std::vector<cl::Event> events;
  const auto call =
      gemm::make_call(layout, trans_a, trans_b, m, n, k, a, a_offset, lda, b, b_offset, ldb, c, c_offset, ldc);
  run_op(gemm::GemmOp<T>{}, &config, queue, {call, alpha, beta, &events}, nullptr);
  return events;
}

namespace gemm {
template <typename T>
cl::Event enqueue_tuned_gemm(cl::CommandQueue& queue, const Call& call, T alpha, T beta,
                             const std::vector<cl::Event>* wait, std::vector<cl::Event>* events) {
  return run_op(GemmOp<T>{}, nullptr, queue, {call, alpha, beta, events}, wait);
}
template cl::Event enqueue_tuned_gemm<float>(cl::CommandQueue&, const Call&, float, float,
                                             const std::vector<cl::Event>*, std::vector<cl::Event>*);
}  // namespace gemm

std::vector<TunableOp> gemm_tunable_ops() {
  TunableOp op;
  op.description = {gemm::kOp,
                    gemm::kFamily,
                    {"float", "double"},
                    "MxNxK[:NN|NT|TN|TT][:row|col][:lda=N][:ldb=N][:ldc=N] (m, n, k as in BLAS; transposes of A "
                    "and B; layout; leading dimensions, which float and double classes ignore), e.g. "
                    "4096x4096x4096 or 1x4096x4096:NT; tuned per shape class (category, sizes in powers of four, "
                    "transposes); categories: " +
                        gemm::category_list(),
                    gemm::category_shapes()};
  op.make_subject = [](const std::string& dtype, const std::string& shape) {
    const DTypeInfo* type = dtype_named(dtype);
    if (type == nullptr || (type->size != 4 && type->size != 8) || std::string(type->name) == "int32")
      throw Error(gemm::kOp, "dtype", CL_INVALID_VALUE, "'" + dtype + "' is not float or double");
    return gemm::make_subject(*type, gemm::row_major(gemm::parse_shape(shape)));
  };
  std::vector<TunableOp> ops{op};
  for (auto& mma : gemm_mma_tunable_ops()) ops.push_back(std::move(mma));  // half, bfloat16, tf32 (mma_gemm.cpp)
  return ops;
}

#define TILECL_GEMM_INSTANTIATE(T)                                                                                    \
  template cl::Event gemm_with<T>(const Config&, cl::CommandQueue&, Layout, Transpose, Transpose, std::size_t,        \
                                  std::size_t, std::size_t, T, const cl::Buffer&, std::size_t, std::size_t,           \
                                  const cl::Buffer&, std::size_t, std::size_t, T, cl::Buffer&, std::size_t,           \
                                  std::size_t, const std::vector<cl::Event>*);                                        \
  template std::vector<cl::Event> gemm_with_events<T>(const Config&, cl::CommandQueue&, Layout, Transpose, Transpose, \
                                                      std::size_t, std::size_t, std::size_t, T, const cl::Buffer&,    \
                                                      std::size_t, std::size_t, const cl::Buffer&, std::size_t,       \
                                                      std::size_t, T, cl::Buffer&, std::size_t, std::size_t);
TILECL_GEMM_INSTANTIATE(float)
TILECL_GEMM_INSTANTIATE(double)
#undef TILECL_GEMM_INSTANTIATE

}  // namespace detail

template <typename T>
detail::GemmEvent<T> gemm(cl::CommandQueue& queue, Layout layout, Transpose trans_a, Transpose trans_b, std::size_t m,
                          std::size_t n, std::size_t k, T alpha, const cl::Buffer& a, std::size_t a_offset,
                          std::size_t lda, const cl::Buffer& b, std::size_t b_offset, std::size_t ldb, T beta,
                          cl::Buffer& c, std::size_t c_offset, std::size_t ldc, const std::vector<cl::Event>* wait) {
  const auto call =
      detail::gemm::make_call(layout, trans_a, trans_b, m, n, k, a, a_offset, lda, b, b_offset, ldb, c, c_offset, ldc);
  return detail::run_op(detail::gemm::GemmOp<T>{}, nullptr, queue, {call, alpha, beta, nullptr}, wait);
}

template cl::Event gemm<float>(cl::CommandQueue&, Layout, Transpose, Transpose, std::size_t, std::size_t, std::size_t,
                               float, const cl::Buffer&, std::size_t, std::size_t, const cl::Buffer&, std::size_t,
                               std::size_t, float, cl::Buffer&, std::size_t, std::size_t,
                               const std::vector<cl::Event>*);
template cl::Event gemm<double>(cl::CommandQueue&, Layout, Transpose, Transpose, std::size_t, std::size_t, std::size_t,
                                double, const cl::Buffer&, std::size_t, std::size_t, const cl::Buffer&, std::size_t,
                                std::size_t, double, cl::Buffer&, std::size_t, std::size_t,
                                const std::vector<cl::Event>*);

}  // namespace tilecl
