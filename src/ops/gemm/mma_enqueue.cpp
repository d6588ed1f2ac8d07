#include "ops/gemm/mma_enqueue.hpp"

#include <memory>

#include "ops/gemm/launch_chain.hpp"
#include "ops/gemm/mma_plan.hpp"
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

// Step 2: the main kernel.
void launch_main(LaunchChain& chain, cl::Kernel& kernel, const Plan& plan, const Operand& a, const Operand& b,
                 float alpha, float beta) {
  const KernelProblem& p = plan.p;
  chain.launch(kernel, plan.global, plan.local, static_cast<cl_int>(p.m), static_cast<cl_int>(p.n),
               static_cast<cl_int>(p.k), alpha, *a.buffer, static_cast<cl_ulong>(a.offset), static_cast<cl_int>(a.ld),
               *b.buffer, static_cast<cl_ulong>(b.offset), static_cast<cl_int>(b.ld), beta, *p.c.buffer,
               static_cast<cl_ulong>(p.c.offset), static_cast<cl_int>(p.c.ld));
}

}  // namespace

cl::Event enqueue_mma(const QueueTarget& target, cl::CommandQueue& queue, Resolved& resolved, const FormatInfo& format,
                      const Call& call, float alpha, float beta, const std::vector<cl::Event>* wait,
                      std::vector<cl::Event>* events) {
  KernelProblem problem = row_major(call);
  if (alpha == 0.0f) problem.k = 0;  // C = beta * C: A and B are not read
  const Plan plan = make_plan(format, resolved.config, problem, uses_ptx(*target.info));
  cl::Kernel& kernel = main_kernel(target, resolved, format, plan);
  check_work_group_fits(kOp, *resolved.program, plan.kernel, plan.work_group);
  std::unique_ptr<WorkspaceLease> lease;
  if (plan.workspace > 0)
    lease = std::make_unique<WorkspaceLease>(
        acquire_workspace(kOp, target.context, target.device, kMmaFamily, plan.workspace * format.element_size, wait));
  cl::Buffer scratch = lease ? lease->buffer() : cl::Buffer();
  LaunchChain chain(queue, lease ? lease->wait_list() : wait, events);
  Operand a = problem.a, b = problem.b;
  if (plan.a.packed) a = pack(chain, *resolved.program, *target.info, a, plan.a, scratch);
  if (plan.b.packed) b = pack(chain, *resolved.program, *target.info, b, plan.b, scratch);
  launch_main(chain, kernel, plan, a, b, alpha, beta);
  if (lease) lease->release_after(chain.last());
  return chain.last();
}

}  // namespace tilecl::detail::gemm::mma
