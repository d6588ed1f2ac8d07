// Argument validation shared by every op. Each check throws tilecl::Error naming the op, the argument and
// an OpenCL error, before anything is enqueued.
#pragma once

#include <CL/opencl.hpp>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "dtype.hpp"
#include "tilecl/device.hpp"
#include "tilecl/types.hpp"

namespace tilecl::detail {

// Kernels index with 32-bit signed integers; every extent a kernel sees must stay below this.
constexpr std::uint64_t kMaxKernelExtent = (std::uint64_t{1} << 31) - 1;

// What an op learns from its queue: context, device and the device's properties.
struct QueueTarget {
  cl::Context context;
  cl::Device device;
  const DeviceInfo* info;
};
QueueTarget queue_target(const std::string& op, const cl::CommandQueue& queue);

std::uint64_t checked_multiply(const std::string& op, const std::string& argument, std::uint64_t a, std::uint64_t b);
std::uint64_t checked_add(const std::string& op, const std::string& argument, std::uint64_t a, std::uint64_t b);

// The buffer is valid, belongs to the queue's context and holds elements [offset, offset + extent).
void check_buffer(const std::string& op, const std::string& argument, const cl::Buffer& buffer,
                  const cl::Context& context, std::uint64_t offset, std::uint64_t extent, std::size_t element_size);

// The value fits the kernels' 32-bit indexing.
void check_kernel_extent(const std::string& op, const std::string& argument, std::uint64_t value);

// The value is one of its enumeration's enumerators: a cast from an out-of-range integer is refused.
void check_enum(const std::string& op, const std::string& argument, Layout value);
void check_enum(const std::string& op, const std::string& argument, Transpose value);
void check_enum(const std::string& op, const std::string& argument, ReduceOp value);
void check_enum(const std::string& op, const std::string& argument, Border value);

// Every event of the wait list is a valid event of the queue's context (a null event or one of another
// context fails late, at an enqueue deep in the op under a kernel's name, or is silently accepted, as by PoCL)
// that has not failed (CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST: PoCL leaves a command enqueued after its
// dependency failed queued for good, so a host-side wait would block forever).
void check_wait_list(const std::string& op, const std::vector<cl::Event>* wait, const cl::Context& context);

// double needs cl_khr_fp64.
void check_dtype_supported(const std::string& op, const DTypeInfo& dtype, const DeviceInfo& device);

// Every op validates each of its outputs through one of the two checks below (the output is `b`, or `output`):
// besides overlap, they refuse (CL_INVALID_OPERATION) an output created CL_MEM_READ_ONLY, or a sub-buffer of such
// a buffer, since a kernel writing it is undefined behaviour.

// Element ranges [a_offset, a_offset + a_extent) of the input `a` and [b_offset, ...) of the output `b` share no
// byte (sub-buffers of one buffer are resolved to their parent).
void check_no_overlap(const std::string& op, const std::string& a_name, const cl::Buffer& a, std::uint64_t a_offset,
                      std::uint64_t a_extent, const std::string& b_name, const cl::Buffer& b, std::uint64_t b_offset,
                      std::uint64_t b_extent, std::size_t element_size);

// The allocation a buffer's bytes belong to (a sub-buffer's parent) and the buffer's byte offset in it.
std::pair<cl_mem, std::uint64_t> buffer_origin(const cl::Buffer& buffer);

// For ops that may work in place: the input is the output exactly (the same bytes of the same allocation,
// through the same buffer or sub-buffers), or the two share no byte.
void check_in_place_or_disjoint(const std::string& op, const std::string& input_name, const cl::Buffer& input,
                                std::uint64_t input_offset, const std::string& output_name, const cl::Buffer& output,
                                std::uint64_t output_offset, std::uint64_t extent, std::size_t element_size);

inline std::uint64_t round_up(std::uint64_t value, std::uint64_t multiple) {
  return (value + multiple - 1) / multiple * multiple;
}
inline std::uint64_t ceil_div(std::uint64_t value, std::uint64_t divisor) { return (value + divisor - 1) / divisor; }

}  // namespace tilecl::detail
