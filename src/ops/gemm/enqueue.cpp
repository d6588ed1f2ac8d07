#include "ops/gemm/enqueue.hpp"

#include <memory>

#include "ops/gemm/gemv_variant.hpp"
#include "ops/gemm/launch_chain.hpp"
#include "workspace.hpp"

namespace tilecl::detail::gemm {
namespace {

// The program of the helper kernels (pack, pack_panels, splitk_reduce): they depend on the element type only, so
// one program per type serves every configuration. Kept with the memo entry after the first call.
CompiledProgram& helper_program(const QueueTarget& target, const DTypeInfo& dtype, Resolved& resolved) {
  if (!resolved.helper_program) {
    BuildOptions options;
    options.define("DTYPE", dtype.cl_type);
    options.define("GEMM_VARIANT", "GEMM_HELPERS");
    resolved.helper_program = ProgramCache::instance().get(target.context, target.device, kFamily, options, kOp);
  }
  return *resolved.helper_program;
}

// The scaling C = beta * C (alpha * op(A) op(B) contributes nothing): gemm_splitk_reduce over zero slices.
template <typename T>
cl::Event enqueue_scale(const QueueTarget& target, cl::CommandQueue& queue, Resolved& resolved, const KernelProblem& p,
                        T beta, const std::vector<cl::Event>* wait, std::vector<cl::Event>* events) {
  CompiledProgram& helpers = helper_program(target, dtype_of<T>(), resolved);
  const cl::NDRange local = helper_local(*target.info, 16, 16);
  LaunchChain chain(queue, wait, events);
  chain.launch(helpers, "gemm_splitk_reduce", helper_global(local, p.n, p.m), local, static_cast<cl_int>(p.m),
               static_cast<cl_int>(p.n), cl_int{0}, *p.c.buffer, cl_ulong{0}, cl_int{1}, cl_ulong{0}, T(0), beta,
               *p.c.buffer, static_cast<cl_ulong>(p.c.offset), static_cast<cl_int>(p.c.ld));
  return chain.last();
}

// Steps 1 and 2 of the plan: the packed operands and B panels in the workspace; returns A and B as the main
// kernel reads them.
std::pair<Operand, Operand> enqueue_packing(LaunchChain& chain, CompiledProgram* helpers, const cl::NDRange& helper,
                                            const DeviceInfo& device, const Plan& plan, cl::Buffer& scratch) {
  const KernelProblem& p = plan.p;
  Operand a = p.a, b = p.b;
  auto pack = [&](const Operand& source, Extent stored, Extent packed, std::uint64_t at) {
    chain.launch(*helpers, "gemm_pack", helper_global(helper, packed.cols, packed.rows), helper,
                 static_cast<cl_int>(stored.rows), static_cast<cl_int>(stored.cols), *source.buffer,
                 static_cast<cl_ulong>(source.offset), static_cast<cl_int>(source.ld), cl_int{0},
                 static_cast<cl_int>(packed.rows), static_cast<cl_int>(packed.cols), scratch, static_cast<cl_ulong>(at),
                 static_cast<cl_int>(packed.cols));
    return Operand{&scratch, at, packed.cols};
  };
  if (plan.pack_a) a = pack(p.a, plan.a_stored, plan.a_packed, plan.a_at);
  if (plan.pack_b) b = pack(p.b, plan.b_stored, plan.b_packed, plan.b_at);
  if (plan.panels) {
    const cl::NDRange local = helper_local(device, 16, 4);
    const cl::NDRange global(round_up(plan.panel, local.get()[0]), round_up(p.k, local.get()[1]),
                             ceil_div(p.n, plan.panel));
    chain.launch(*helpers, "gemm_pack_panels", global, cl::NDRange(local.get()[0], local.get()[1], 1),
                 static_cast<cl_int>(p.k), static_cast<cl_int>(p.n), *p.b.buffer, static_cast<cl_ulong>(p.b.offset),
                 static_cast<cl_int>(p.b.ld), static_cast<cl_int>(p.trans_b ? 1 : 0), static_cast<cl_int>(plan.panel),
                 static_cast<cl_int>(plan.panel_stride), scratch, static_cast<cl_ulong>(plan.panels_at));
    b = Operand{&scratch, plan.panels_at, plan.panel_stride};
  }
  return {a, b};
}

// Step 3: the main kernel, into C, or into the partials (alpha 1, beta 0) when K is split.
template <typename T>
void enqueue_main(LaunchChain& chain, cl::Kernel& kernel, const Plan& plan, const Operand& a, const Operand& b, T alpha,
                  T beta, cl::Buffer& scratch) {
  Operand out = plan.p.c;
  std::uint64_t out_stride = 0;
  if (plan.slices > 1) {
    out = Operand{&scratch, plan.w_at, plan.w_ld};
    out_stride = plan.w_stride;
    alpha = T(1);
    beta = T(0);
  }
  const auto m = static_cast<cl_int>(plan.p.m), n = static_cast<cl_int>(plan.p.n), k = static_cast<cl_int>(plan.k_run);
  if (plan.splittable)
    chain.launch(kernel, plan.global, plan.local, m, n, k, alpha, *a.buffer, static_cast<cl_ulong>(a.offset),
                 static_cast<cl_int>(a.ld), *b.buffer, static_cast<cl_ulong>(b.offset), static_cast<cl_int>(b.ld), beta,
                 *out.buffer, static_cast<cl_ulong>(out.offset), static_cast<cl_int>(out.ld),
                 static_cast<cl_int>(plan.k_slice), static_cast<cl_ulong>(out_stride));
  else
    chain.launch(kernel, plan.global, plan.local, m, n, k, alpha, *a.buffer, static_cast<cl_ulong>(a.offset),
                 static_cast<cl_int>(a.ld), *b.buffer, static_cast<cl_ulong>(b.offset), static_cast<cl_int>(b.ld), beta,
                 *out.buffer, static_cast<cl_ulong>(out.offset), static_cast<cl_int>(out.ld));
}

}  // namespace

template <typename T>
cl::Event enqueue_gemm(const QueueTarget& target, cl::CommandQueue& queue, Resolved& resolved, const Call& call,
                       T alpha, T beta, const std::vector<cl::Event>* wait, std::vector<cl::Event>* events) {
  const DTypeInfo& dtype = dtype_of<T>();
  if (alpha == T(0) || call.k == 0)
    return enqueue_scale<T>(target, queue, resolved, row_major(call), beta, wait, events);

  if (resolved.config.variant == "gemv")
    return enqueue_gemv_variant<T>(target, queue, resolved, row_major(call), alpha, beta, wait, events);
  const Plan plan = make_plan(resolved.config, row_major(call));
  cl::Kernel& kernel =
      resolved.program
          ? resolved.kernel->kernel()
          : resolved.main_kernel(target, kFamily, main_options(dtype, resolved.config, plan), plan.kernel, kOp);
  resolved.check_main_work_group(kOp, plan.kernel, plan.work_group);
  // Programs are built before the workspace is leased: a compile never holds the workspace's lock.
  CompiledProgram* helpers = plan.workspace > 0 ? &helper_program(target, dtype, resolved) : nullptr;
  std::unique_ptr<WorkspaceLease> lease;
  if (plan.workspace > 0)
    lease = std::make_unique<WorkspaceLease>(
        acquire_workspace(kOp, target.context, target.device, "gemm", plan.workspace * sizeof(T), wait));
  cl::Buffer scratch = lease ? lease->buffer() : cl::Buffer();
  LaunchChain chain(queue, lease ? lease->wait_list() : wait, events);
  const cl::NDRange helper = helper_local(*target.info, 16, 16);
  const auto [a, b] = enqueue_packing(chain, helpers, helper, *target.info, plan, scratch);
  enqueue_main<T>(chain, kernel, plan, a, b, alpha, beta, scratch);
  if (plan.slices > 1) {
    const KernelProblem& p = plan.p;
    chain.launch(*helpers, "gemm_splitk_reduce", helper_global(helper, plan.c_stored.cols, plan.c_stored.rows), helper,
                 static_cast<cl_int>(plan.c_stored.rows), static_cast<cl_int>(plan.c_stored.cols),
                 static_cast<cl_int>(plan.slices), scratch, static_cast<cl_ulong>(plan.w_at),
                 static_cast<cl_int>(plan.w_ld), static_cast<cl_ulong>(plan.w_stride), alpha, beta, *p.c.buffer,
                 static_cast<cl_ulong>(p.c.offset), static_cast<cl_int>(p.c.ld));
  }
  if (lease) lease->release_after(chain.last());
  return chain.last();
}

template cl::Event enqueue_gemm<float>(const QueueTarget&, cl::CommandQueue&, Resolved&, const Call&, float, float,
                                       const std::vector<cl::Event>*, std::vector<cl::Event>*);
template cl::Event enqueue_gemm<double>(const QueueTarget&, cl::CommandQueue&, Resolved&, const Call&, double, double,
                                        const std::vector<cl::Event>*, std::vector<cl::Event>*);

}  // namespace tilecl::detail::gemm
