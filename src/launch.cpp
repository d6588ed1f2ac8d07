#include "launch.hpp"

namespace tilecl::detail {
namespace {

std::string describe(const cl::NDRange& range) {
  if (range.dimensions() == 0) return "null";
  std::string text;
  for (cl_uint i = 0; i < range.dimensions(); ++i) text += (i ? "x" : "") + std::to_string(range.get()[i]);
  return text;
}

}  // namespace

void check_work_group_fits(const std::string& op, CompiledProgram& program, const std::string& kernel_name,
                           std::size_t work_group_items) {
  if (work_group_items == 0) return;
  const std::size_t limit = program.kernel_work_group_limit(kernel_name, op);
  if (work_group_items > limit)
    throw Error(op, "work-group size", CL_INVALID_WORK_GROUP_SIZE,
                std::to_string(work_group_items) + " work-items exceed the " + std::to_string(limit) + " that kernel " +
                    kernel_name + " allows on this device");
}

cl::Event enqueue_kernel(const std::string& op, cl::CommandQueue& queue, cl::Kernel& kernel, const cl::NDRange& global,
                         const cl::NDRange& local, const std::vector<cl::Event>* wait) {
  cl::Event event;
  cl_int status = CL_SUCCESS;
  try {
    status = queue.enqueueNDRangeKernel(kernel, cl::NullRange, global, local, wait, &event);
  } catch (const cl::Error& error) {
    status = error.err();
  }
  if (status != CL_SUCCESS) {
    std::string name;
    try {
      name = kernel.getInfo<CL_KERNEL_FUNCTION_NAME>();
    } catch (const cl::Error&) {
      name = "?";
    }
    throw Error(op, "launch of " + name, status,
                "enqueue failed (global " + describe(global) + ", local " + describe(local) + ")");
  }
  return event;
}

}  // namespace tilecl::detail
