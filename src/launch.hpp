// Setting kernel arguments and enqueueing, with OpenCL failures turned into tilecl::Error.
#pragma once

#include <CL/opencl.hpp>
#include <string>
#include <vector>

#include "program_cache.hpp"
#include "tilecl/error.hpp"

namespace tilecl::detail {

template <typename... Args>
void set_kernel_args(const std::string& op, cl::Kernel& kernel, const Args&... args) {
  cl_uint index = 0;
  auto set_one = [&](const auto& value) {
    try {
      kernel.setArg(index, value);
    } catch (const cl::Error& error) {
      throw Error(op, "kernel argument " + std::to_string(index), error.err(), "cannot set the kernel argument");
    }
    ++index;
  };
  (set_one(args), ...);
}

// Refuses (CL_INVALID_WORK_GROUP_SIZE) a work-group larger than the compiled kernel allows on its device:
// a kernel's own limit (registers, local memory) can be below the device's.
void check_work_group_fits(const std::string& op, CompiledProgram& program, const std::string& kernel_name,
                           std::size_t work_group_items);

// Enqueues an NDRange kernel; a null `local` lets the driver choose.
cl::Event enqueue_kernel(const std::string& op, cl::CommandQueue& queue, cl::Kernel& kernel, const cl::NDRange& global,
                         const cl::NDRange& local, const std::vector<cl::Event>* wait);

// Blocks until `last` (the last command of a call) completes, for the ops that return a value to the host.
// Throws tilecl::Error instead of blocking forever or letting a cl::Error escape: when an event of the caller's
// wait list fails meanwhile (argument "wait", CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST; PoCL leaves a command
// enqueued after its dependency failed queued for good), or when the call's commands fail (argument "commands").
void wait_on_host(const std::string& op, const cl::Event& last, const std::vector<cl::Event>* caller_wait);

}  // namespace tilecl::detail
