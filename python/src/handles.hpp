// OpenCL objects cross between PyOpenCL and tilecl as integers: PyOpenCL's `int_ptr` (the cl_* handle) going
// in, and new events coming back the same way, each with one reference that PyOpenCL's
// Event.from_int_ptr(handle, retain=False) takes over. PyOpenCL keeps its own references to what it passes,
// and the wrappers below retain what they hold, so no object can go away during a call.
#pragma once

#include <CL/opencl.hpp>
#include <cstdint>
#include <string>
#include <vector>

#include "tilecl/error.hpp"

namespace tilecl::python {

using Handle = std::uintptr_t;
using HandleList = std::vector<Handle>;

// The OpenCL handle an integer from PyOpenCL stands for.
template <typename ClHandle>
ClHandle from_handle(Handle handle) {
  return reinterpret_cast<ClHandle>(handle);  // NOLINT(performance-no-int-to-ptr): PyOpenCL's int_ptr is an integer
}

inline cl::CommandQueue queue_from(Handle handle) {
  return cl::CommandQueue(from_handle<cl_command_queue>(handle), true);
}
inline cl::Buffer buffer_from(Handle handle) { return cl::Buffer(from_handle<cl_mem>(handle), true); }
inline cl::Device device_from(Handle handle) { return cl::Device(from_handle<cl_device_id>(handle), true); }
inline cl::Context context_from(Handle handle) { return cl::Context(from_handle<cl_context>(handle), true); }

// The events to wait for; tilecl's ops take a pointer, null for none.
class WaitList {
 public:
  explicit WaitList(const HandleList& handles);
  const std::vector<cl::Event>* get() const { return events_.empty() ? nullptr : &events_; }

 private:
  std::vector<cl::Event> events_;
};

// The event's handle with one reference for the caller, or 0 for a null event (a zero-sized problem).
Handle hand_over(const cl::Event& event);

// The element types as NumPy names them ("float32", "float64", "int32", "uint8", "float16", and "bfloat16" as
// ml_dtypes names tilecl::bfloat16).
template <typename T>
const char* dtype_name();

// Calls function(T{}) for the T of Types... whose NumPy name is `dtype`; any other dtype raises tilecl::Error
// (the Python layer checks dtypes first, so this only guards against a mismatch between the two layers).
template <typename... Types, typename Function>
Handle with_dtype(const char* op, const std::string& dtype, Function&& function) {
  Handle result = 0;
  bool found = false;
  ((!found && dtype == dtype_name<Types>() ? (found = true, result = function(Types{})) : 0), ...);
  if (!found) throw Error(op, "dtype", CL_INVALID_VALUE, "element type " + dtype + " is not supported");
  return result;
}

}  // namespace tilecl::python
