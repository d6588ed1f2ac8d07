#include "ops/gemm/mma_enqueue.hpp"

#include <memory>

#include "ops/gemm/enqueue.hpp"
#include "ops/gemm/gemv_variant.hpp"
#include "ops/gemm/launch_chain.hpp"
#include "ops/gemm/mma_plan.hpp"
#include "ops/gemm/mma_shapes.hpp"
#include "ops/gemv.hpp"
#include "tilecl/gemm.hpp"
#include "workspace.hpp"

namespace tilecl::detail::gemm::mma {
namespace {

constexpr const char* kMmaFamily = "gemm_mma";

// The program and main kernel of the plan (kept with the memo entry). A PTX build the device's compiler refuses is
// recorded, so that no later choice on this device builds the PTX again.
cl::Kernel& main_kernel(const QueueTarget& target, Resolved& resolved, const FormatInfo& format, const Plan& plan) {
  if (resolved.program) return resolved.kernel->kernel();
  try {
    return resolved.main_kernel(target, kMmaFamily, main_options(format, resolved.config, plan), plan.kernel, kOp);
  } catch (const BuildError& error) {
    if (plan.variant == "mma" && plan.use_ptx) record_ptx_failure(*target.info, error.what());
    throw;
  }
}

// Step 1: an operand gemm_mma_sync cannot copy in place goes to the workspace (rows padded to 16 bytes).
Operand pack(LaunchChain& chain, CompiledProgram& program, const DeviceInfo& device, const Operand& source,
             const StoredOperand& stored, cl::Buffer& scratch) {
  const cl::NDRange local = helper_local(device, 16, 16);
  chain.launch(program, "gemm_mma_pack", helper_global(local, stored.packed_ld, stored.rows), local,
               static_cast<cl_int>(stored.rows), static_cast<cl_int>(stored.cols), *source.buffer,
               static_cast<cl_ulong>(source.offset), static_cast<cl_int>(source.ld),
               static_cast<cl_int>(stored.packed_ld), scratch, static_cast<cl_ulong>(stored.at));
  return Operand{&scratch, stored.at, stored.packed_ld};
}

// Step 2: the main kernel, into C (or, with SPLIT_K > 1, into the partial sums `c` names).
void launch_main(LaunchChain& chain, cl::Kernel& kernel, const Plan& plan, const Operand& a, const Operand& b,
                 const Operand& c, float alpha, float beta) {
  const KernelProblem& p = plan.p;
  chain.launch(kernel, plan.global, plan.local, static_cast<cl_int>(p.m), static_cast<cl_int>(p.n),
               static_cast<cl_int>(p.k), alpha, *a.buffer, static_cast<cl_ulong>(a.offset), static_cast<cl_int>(a.ld),
               *b.buffer, static_cast<cl_ulong>(b.offset), static_cast<cl_int>(b.ld), beta, *c.buffer,
               static_cast<cl_ulong>(c.offset), static_cast<cl_int>(c.ld));
}

// Step 3 (SPLIT_K > 1): C = alpha * (the sum of the partial sums) + beta * C.
void launch_split_sum(LaunchChain& chain, CompiledProgram& program, const DeviceInfo& device, const FormatInfo& format,
                      const Plan& plan, cl::Buffer& scratch, float alpha, float beta) {
  const KernelProblem& p = plan.p;
  const cl::NDRange local = helper_local(device, 16, 16);
  const std::uint64_t partials_float_offset = plan.partials_at * format.element_size / sizeof(float);
  chain.launch(program, "gemm_mma_split_sum", helper_global(local, p.n, p.m), local, static_cast<cl_int>(p.m),
               static_cast<cl_int>(p.n), scratch, static_cast<cl_ulong>(partials_float_offset),
               static_cast<cl_int>(plan.split), alpha, beta, *p.c.buffer, static_cast<cl_ulong>(p.c.offset),
               static_cast<cl_int>(p.c.ld));
}

// via_float: widen op(A) and op(B), float gemm (its own tuned choice, through the public call), narrow into C.
cl::Event enqueue_via_float(const QueueTarget& target, cl::CommandQueue& queue, CompiledProgram& program,
                            cl::Kernel& narrow, const Plan& plan, float alpha, float beta,
                            const std::vector<cl::Event>* wait, std::vector<cl::Event>* events) {
  const KernelProblem& p = plan.p;
  WorkspaceLease lease = acquire_workspace(kOp, target.context, target.device, "gemm_mma_via_float",
                                           plan.float_workspace * sizeof(float), wait);
  cl::Buffer& scratch = lease.buffer();
  LaunchChain chain(queue, lease.wait_list(), events);
  const cl::NDRange local = helper_local(*target.info, 16, 16);
  auto widen = [&](const Operand& source, const StoredOperand& stored, const FloatPlace& to) {
    chain.launch(program, "gemm_mma_widen", helper_global(local, to.ld, stored.rows), local,
                 static_cast<cl_int>(stored.rows), static_cast<cl_int>(stored.cols), *source.buffer,
                 static_cast<cl_ulong>(source.offset), static_cast<cl_int>(source.ld), static_cast<cl_int>(to.ld),
                 scratch, static_cast<cl_ulong>(to.at));
  };
  if (p.k > 0) {
    widen(p.a, plan.a, plan.wide_a);
    widen(p.b, plan.b, plan.wide_b);
  }
  std::vector<cl::Event> before_product;
  const auto no = Transpose::No, yes = Transpose::Yes;
  chain.continue_after(tilecl::gemm<float>(queue, Layout::RowMajor, p.trans_a ? yes : no, p.trans_b ? yes : no, p.m,
                                           p.n, p.k, alpha, scratch, plan.wide_a.at, plan.wide_a.ld, scratch,
                                           plan.wide_b.at, plan.wide_b.ld, 0.0f, scratch, plan.sums.at, plan.sums.ld,
                                           chain.wait_for_next(before_product)));
  chain.launch(narrow, helper_global(local, p.n, p.m), local, static_cast<cl_int>(p.m), static_cast<cl_int>(p.n),
               scratch, static_cast<cl_ulong>(plan.sums.at), static_cast<cl_int>(plan.sums.ld), beta, *p.c.buffer,
               static_cast<cl_ulong>(p.c.offset), static_cast<cl_int>(p.c.ld));
  lease.release_after(chain.last());
  return chain.last();
}

// A via_float plan whose workspace does not fit the device: the portable kernel computes the call (its program
// looked up per call: this is the rare case of a product near the device's memory).
cl::Event enqueue_portable_instead(const QueueTarget& target, cl::CommandQueue& queue, const FormatInfo& format,
                                   const KernelProblem& problem, float alpha, float beta,
                                   const std::vector<cl::Event>* wait, std::vector<cl::Event>* events) {
  const Config config = portable_default(*target.info);
  const Plan plan = make_plan(format, config, problem, false);
  auto program =
      ProgramCache::instance().get(target.context, target.device, kMmaFamily, main_options(format, config, plan), kOp);
  auto kernel = program->lease(plan.kernel, kOp);
  LaunchChain chain(queue, wait, events);
  launch_main(chain, kernel.kernel(), plan, plan.p.a, plan.p.b, plan.p.c, alpha, beta);
  return chain.last();
}

}  // namespace

cl::Event enqueue_mma(const QueueTarget& target, cl::CommandQueue& queue, Resolved& resolved, const FormatInfo& format,
                      const Call& call, float alpha, float beta, const std::vector<cl::Event>* wait,
                      std::vector<cl::Event>* events) {
  KernelProblem problem = row_major(call);
  if (alpha == 0.0f) problem.k = 0;  // C = beta * C: A and B are not read
  // via_float in TF32 mode: the operands are floats already, so it is float gemm on the caller's buffers (exact
  // float products: within TF32's bound), its launches' events the call's (first-use tuning times it by them).
  if (resolved.config.variant == "via_float" && format.format == Format::TF32)
    return enqueue_tuned_gemm<float>(queue, call, alpha, beta, wait, events);
  const Plan plan = make_plan(format, resolved.config, problem, uses_ptx(*target.info));
  // via_float on half with m or n of at most kMaxGemvVectors: gemv's kernels read the half matrix in place (widening
  // it would move three times its bytes).
  if (plan.variant == "via_float" && format.format == Format::F16 && problem.k > 0)
    if (const std::optional<GemvProblem> gemv = gemv_problem(problem))
      return enqueue_gemv<half>(target, queue, *gemv, alpha, beta, wait, nullptr, events);
  if (!workspace_fits(plan, *target.info))
    return enqueue_portable_instead(target, queue, format, problem, alpha, beta, wait, events);
  cl::Kernel& kernel = main_kernel(target, resolved, format, plan);
  resolved.check_main_work_group(kOp, plan.kernel, plan.work_group);
  if (plan.variant == "via_float")
    return enqueue_via_float(target, queue, *resolved.program, kernel, plan, alpha, beta, wait, events);
  std::unique_ptr<WorkspaceLease> lease;
  if (plan.workspace > 0)
    lease = std::make_unique<WorkspaceLease>(
        acquire_workspace(kOp, target.context, target.device, kMmaFamily, plan.workspace * format.element_size, wait));
  cl::Buffer scratch = lease ? lease->buffer() : cl::Buffer();
  LaunchChain chain(queue, lease ? lease->wait_list() : wait, events);
  Operand a = problem.a, b = problem.b;
  if (plan.a.packed) a = pack(chain, *resolved.program, *target.info, a, plan.a, scratch);
  if (plan.b.packed) b = pack(chain, *resolved.program, *target.info, b, plan.b, scratch);
  if (plan.split > 1) {
    launch_main(chain, kernel, plan, a, b, Operand{&scratch, plan.partials_at, problem.n}, alpha, beta);
    launch_split_sum(chain, *resolved.program, *target.info, format, plan, scratch, alpha, beta);
  } else {
    launch_main(chain, kernel, plan, a, b, problem.c, alpha, beta);
  }
  if (lease) lease->release_after(chain.last());
  return chain.last();
}

}  // namespace tilecl::detail::gemm::mma
