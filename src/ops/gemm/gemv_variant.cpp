#include "ops/gemm/gemv_variant.hpp"

#include "ops/gemv_tuning.hpp"
#include "tilecl/error.hpp"

namespace tilecl::detail::gemm {
namespace {

Transpose trans(bool yes) { return yes ? Transpose::Yes : Transpose::No; }

// A shape-only problem has no buffers: gemv_problem_of_gemm only takes their addresses.
const cl::Buffer& buffer_of(const Operand& operand) {
  static const cl::Buffer none;
  return operand.buffer != nullptr ? *operand.buffer : none;
}

}  // namespace

std::optional<GemvProblem> gemv_problem(const KernelProblem& p) {
  // gemm's operands are const (C as well: the call took it writable, and only the kernels write it).
  auto& c = const_cast<cl::Buffer&>(buffer_of(p.c));  // NOLINT(cppcoreguidelines-pro-type-const-cast)
  return gemv_problem_of_gemm(Layout::RowMajor, trans(p.trans_a), trans(p.trans_b), p.m, p.n, p.k, buffer_of(p.a),
                              p.a.offset, p.a.ld, buffer_of(p.b), p.b.offset, p.b.ld, c, p.c.offset, p.c.ld);
}

Config gemv_default(const DTypeInfo& dtype, const KernelProblem& p, const DeviceInfo& device) {
  return gemv_default_config(dtype, gemv_bucket(*gemv_problem(p)), device);
}

BuildOptions gemv_options(const DTypeInfo& dtype, const Config& config, const KernelProblem& p) {
  const GemvProblem problem = *gemv_problem(p);
  return gemv_build_options(dtype, config, problem.form, problem.vectors);
}

template <typename T>
cl::Event enqueue_gemv_variant(const QueueTarget& target, cl::CommandQueue& queue, Resolved& resolved,
                               const KernelProblem& p, T alpha, T beta, const std::vector<cl::Event>* wait,
                               std::vector<cl::Event>* events) {
  const std::optional<GemvProblem> problem = gemv_problem(p);
  if (!problem)
    throw Error(kOp, "config", CL_INVALID_VALUE,
                resolved.config.to_string() + ": the gemv variant runs calls with m or n of 1 to " +
                    std::to_string(kMaxGemvVectors) + " only");
  if (!resolved.program) resolved.program = gemv_program(target, dtype_of<T>(), resolved.config, *problem);
  return enqueue_gemv_with_program<T>(target, queue, *problem, resolved.config, *resolved.program, alpha, beta, wait,
                                      events);
}

template cl::Event enqueue_gemv_variant<float>(const QueueTarget&, cl::CommandQueue&, Resolved&, const KernelProblem&,
                                               float, float, const std::vector<cl::Event>*, std::vector<cl::Event>*);
template cl::Event enqueue_gemv_variant<double>(const QueueTarget&, cl::CommandQueue&, Resolved&, const KernelProblem&,
                                                double, double, const std::vector<cl::Event>*, std::vector<cl::Event>*);

}  // namespace tilecl::detail::gemm
