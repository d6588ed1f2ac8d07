#include "checks.hpp"

#include <limits>

#include "tilecl/error.hpp"

namespace tilecl::detail {

QueueTarget queue_target(const std::string& op, const cl::CommandQueue& queue) {
  if (queue() == nullptr) throw Error(op, "queue", CL_INVALID_COMMAND_QUEUE, "the command queue is null");
  try {
    QueueTarget target;
    target.context = queue.getInfo<CL_QUEUE_CONTEXT>();
    target.device = queue.getInfo<CL_QUEUE_DEVICE>();
    target.info = &device_info(target.device);
    return target;
  } catch (const cl::Error& error) {
    throw Error(op, "queue", error.err(), "cannot query the command queue");
  }
}

std::uint64_t checked_multiply(const std::string& op, const std::string& argument, std::uint64_t a, std::uint64_t b) {
  if (a != 0 && b > std::numeric_limits<std::uint64_t>::max() / a)
    throw Error(op, argument, CL_INVALID_VALUE,
                "size overflows 64 bits (" + std::to_string(a) + " x " + std::to_string(b) + ")");
  return a * b;
}

std::uint64_t checked_add(const std::string& op, const std::string& argument, std::uint64_t a, std::uint64_t b) {
  if (b > std::numeric_limits<std::uint64_t>::max() - a)
    throw Error(op, argument, CL_INVALID_VALUE, "size overflows 64 bits");
  return a + b;
}

void check_buffer(const std::string& op, const std::string& argument, const cl::Buffer& buffer,
                  const cl::Context& context, std::uint64_t offset, std::uint64_t extent, std::size_t element_size) {
  if (buffer() == nullptr) throw Error(op, argument, CL_INVALID_MEM_OBJECT, "the buffer is null");
  std::size_t size = 0;
  cl_context owner = nullptr;
  try {
    size = buffer.getInfo<CL_MEM_SIZE>();
    owner = buffer.getInfo<CL_MEM_CONTEXT>()();
  } catch (const cl::Error& error) {
    throw Error(op, argument, error.err(), "not a valid buffer");
  }
  if (owner != context())
    throw Error(op, argument, CL_INVALID_CONTEXT, "the buffer belongs to another context than the queue");
  const std::uint64_t end = checked_add(op, argument, offset, extent);
  const std::uint64_t needed = checked_multiply(op, argument, end, element_size);
  if (needed > size)
    throw Error(op, argument, CL_INVALID_BUFFER_SIZE,
                "buffer too small: elements [" + std::to_string(offset) + ", " + std::to_string(end) + ") of " +
                    std::to_string(element_size) + " bytes need " + std::to_string(needed) + " bytes, it holds " +
                    std::to_string(size));
}

void check_kernel_extent(const std::string& op, const std::string& argument, std::uint64_t value) {
  if (value > kMaxKernelExtent)
    throw Error(op, argument, CL_INVALID_VALUE,
                std::to_string(value) + " exceeds the kernels' 32-bit index range (at most 2^31 - 1)");
}

namespace {

// The enumerations are contiguous from 0; `last` is the final enumerator.
template <typename Enum>
void check_enum_range(const std::string& op, const std::string& argument, Enum value, Enum last,
                      const char* type_name) {
  const int number = static_cast<int>(value);
  if (number < 0 || number > static_cast<int>(last))
    throw Error(op, argument, CL_INVALID_VALUE, std::to_string(number) + " is not a " + type_name + " value");
}

}  // namespace

void check_enum(const std::string& op, const std::string& argument, Layout value) {
  check_enum_range(op, argument, value, Layout::ColMajor, "tilecl::Layout");
}
void check_enum(const std::string& op, const std::string& argument, Transpose value) {
  check_enum_range(op, argument, value, Transpose::Yes, "tilecl::Transpose");
}
void check_enum(const std::string& op, const std::string& argument, ReduceOp value) {
  check_enum_range(op, argument, value, ReduceOp::ArgMax, "tilecl::ReduceOp");
}
void check_enum(const std::string& op, const std::string& argument, Border value) {
  check_enum_range(op, argument, value, Border::Constant, "tilecl::Border");
}

void check_wait_list(const std::string& op, const std::vector<cl::Event>* wait, const cl::Context& context) {
  if (wait == nullptr) return;
  for (std::size_t i = 0; i < wait->size(); ++i) {
    const std::string entry = "event " + std::to_string(i) + " of the wait list";
    if ((*wait)[i]() == nullptr) throw Error(op, "wait", CL_INVALID_EVENT_WAIT_LIST, entry + " is null");
    cl_context owner = nullptr;
    // NOLINTNEXTLINE(bugprone-sizeof-expression): cl_context is an opaque handle; the query writes the handle.
    const cl_int status = clGetEventInfo((*wait)[i](), CL_EVENT_CONTEXT, sizeof(owner), &owner, nullptr);
    if (status != CL_SUCCESS) throw Error(op, "wait", status, entry + " is not a valid event");
    if (owner != context())
      throw Error(op, "wait", CL_INVALID_CONTEXT, entry + " belongs to another context than the queue");
    cl_int execution = CL_COMPLETE;
    clGetEventInfo((*wait)[i](), CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(execution), &execution, nullptr);
    if (execution < 0)
      throw Error(op, "wait", CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST,
                  entry + " failed (execution status " + std::to_string(execution) +
                      "): commands waiting for it would never run on some drivers");
  }
}

void check_dtype_supported(const std::string& op, const DTypeInfo& dtype, const DeviceInfo& device) {
  if (dtype.needs_fp64 && !device.fp64)
    throw Error(op, "dtype", CL_INVALID_DEVICE,
                std::string(dtype.name) + " needs cl_khr_fp64, which device '" + device.device_name + "' lacks");
}

namespace {

// The buffer's root allocation and its byte offset in it.
std::pair<cl_mem, std::uint64_t> resolve(const cl::Buffer& buffer) {
  cl_mem parent = nullptr;
  std::size_t origin = 0;
  // NOLINTNEXTLINE(bugprone-sizeof-expression): cl_mem is an opaque handle; the query writes the handle.
  clGetMemObjectInfo(buffer(), CL_MEM_ASSOCIATED_MEMOBJECT, sizeof(parent), &parent, nullptr);
  if (parent == nullptr) return {buffer(), 0};
  clGetMemObjectInfo(buffer(), CL_MEM_OFFSET, sizeof(origin), &origin, nullptr);
  return {parent, origin};
}

// Kernels write outputs: a buffer created CL_MEM_READ_ONLY (or a sub-buffer of one) may not be written by a
// kernel, and doing so is undefined behaviour that some drivers accept silently.
void check_writable(const std::string& op, const std::string& name, const cl::Buffer& buffer) {
  const auto [root, base] = resolve(buffer);
  for (cl_mem memory : {buffer(), root}) {
    cl_mem_flags flags = 0;
    clGetMemObjectInfo(memory, CL_MEM_FLAGS, sizeof(flags), &flags, nullptr);
    if ((flags & CL_MEM_READ_ONLY) != 0)
      throw Error(op, name, CL_INVALID_OPERATION,
                  std::string(memory == buffer() ? "the buffer" : "the buffer it is a sub-buffer of") +
                      " was created CL_MEM_READ_ONLY; kernels cannot write it");
  }
}

}  // namespace

std::pair<cl_mem, std::uint64_t> buffer_origin(const cl::Buffer& buffer) { return resolve(buffer); }

void check_no_overlap(const std::string& op, const std::string& a_name, const cl::Buffer& a, std::uint64_t a_offset,
                      std::uint64_t a_extent, const std::string& b_name, const cl::Buffer& b, std::uint64_t b_offset,
                      std::uint64_t b_extent, std::size_t element_size) {
  if (b_extent > 0) check_writable(op, b_name, b);
  if (a_extent == 0 || b_extent == 0) return;
  auto [a_root, a_base] = resolve(a);
  auto [b_root, b_base] = resolve(b);
  if (a_root != b_root) return;
  const std::uint64_t a_begin = a_base + a_offset * element_size, a_end = a_begin + a_extent * element_size;
  const std::uint64_t b_begin = b_base + b_offset * element_size, b_end = b_begin + b_extent * element_size;
  if (a_begin < b_end && b_begin < a_end)
    throw Error(op, b_name, CL_MEM_COPY_OVERLAP, "overlaps " + a_name + " in the same buffer");
}

void check_in_place_or_disjoint(const std::string& op, const std::string& input_name, const cl::Buffer& input,
                                std::uint64_t input_offset, const std::string& output_name, const cl::Buffer& output,
                                std::uint64_t output_offset, std::uint64_t extent, std::size_t element_size) {
  if (extent > 0) check_writable(op, output_name, output);
  const auto [input_root, input_base] = resolve(input);
  const auto [output_root, output_base] = resolve(output);
  if (input_root == output_root &&
      input_base + input_offset * element_size == output_base + output_offset * element_size)
    return;
  check_no_overlap(op, input_name, input, input_offset, extent, output_name, output, output_offset, extent,
                   element_size);
}

}  // namespace tilecl::detail
