#include "launch.hpp"

#include <algorithm>
#include <chrono>
#include <thread>

namespace tilecl::detail {
namespace {

std::string describe(const cl::NDRange& range) {
  if (range.dimensions() == 0) return "null";
  std::string text;
  for (cl_uint i = 0; i < range.dimensions(); ++i) text += (i ? "x" : "") + std::to_string(range.get()[i]);
  return text;
}

cl_int execution_status(const cl::Event& event) {
  cl_int status = CL_COMPLETE;
  const cl_int query = clGetEventInfo(event(), CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(status), &status, nullptr);
  return query == CL_SUCCESS ? status : query;
}

// Whether every event of the caller's wait list has completed; throws when one failed.
bool caller_events_complete(const std::string& op, const std::vector<cl::Event>* caller_wait) {
  if (caller_wait == nullptr) return true;
  bool complete = true;
  for (std::size_t i = 0; i < caller_wait->size(); ++i) {
    const cl_int status = execution_status((*caller_wait)[i]);
    if (status < 0)
      throw Error(op, "wait", CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST,
                  "event " + std::to_string(i) + " of the wait list failed (execution status " +
                      std::to_string(status) + ") while the call waited for it");
    complete = complete && status == CL_COMPLETE;
  }
  return complete;
}

}  // namespace

void wait_on_host(const std::string& op, const cl::Event& last, const std::vector<cl::Event>* caller_wait) {
  // While the caller's events are pending, poll (no OpenCL wait has a timeout or wakes on a dependency's
  // failure); once they are complete, only the call's own commands remain and a blocking wait is safe.
  auto pause = std::chrono::microseconds(20);
  while (!caller_events_complete(op, caller_wait)) {
    const cl_int status = execution_status(last);
    if (status == CL_COMPLETE) return;
    if (status < 0) break;
    std::this_thread::sleep_for(pause);
    pause = std::min<std::chrono::microseconds>(pause * 2, std::chrono::milliseconds(2));
  }
  cl_event event = last();
  const cl_int status = clWaitForEvents(1, &event);
  if (status != CL_SUCCESS) throw Error(op, "commands", status, "the call's commands failed on the device");
}

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
