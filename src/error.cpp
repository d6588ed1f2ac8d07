#include "tilecl/error.hpp"

#include <utility>

namespace tilecl {
namespace {

// Codes of later OpenCL versions and of extensions, which the 1.2 headers tilecl compiles with do not define;
// nullptr for any other.
const char* later_error_name(cl_int status) {
  switch (status) {
    case -69:
      return "CL_INVALID_PIPE_SIZE";
    case -70:
      return "CL_INVALID_DEVICE_QUEUE";
    case -71:
      return "CL_INVALID_SPEC_ID";
    case -72:
      return "CL_MAX_SIZE_RESTRICTION_EXCEEDED";
    case -1000:
      return "CL_INVALID_GL_SHAREGROUP_REFERENCE_KHR";
    case -1001:  // cl_khr_icd: the ICD loader found no platform (no vendor file in /etc/OpenCL/vendors)
      return "CL_PLATFORM_NOT_FOUND_KHR";
    default:
      return nullptr;
  }
}

}  // namespace

std::string cl_error_name(cl_int status) {
  switch (status) {
#define TILECL_NAME(code) \
  case code:              \
    return #code;
    TILECL_NAME(CL_SUCCESS)
    TILECL_NAME(CL_DEVICE_NOT_FOUND)
    TILECL_NAME(CL_DEVICE_NOT_AVAILABLE)
    TILECL_NAME(CL_COMPILER_NOT_AVAILABLE)
    TILECL_NAME(CL_MEM_OBJECT_ALLOCATION_FAILURE)
    TILECL_NAME(CL_OUT_OF_RESOURCES)
    TILECL_NAME(CL_OUT_OF_HOST_MEMORY)
    TILECL_NAME(CL_PROFILING_INFO_NOT_AVAILABLE)
    TILECL_NAME(CL_MEM_COPY_OVERLAP)
    TILECL_NAME(CL_IMAGE_FORMAT_MISMATCH)
    TILECL_NAME(CL_IMAGE_FORMAT_NOT_SUPPORTED)
    TILECL_NAME(CL_BUILD_PROGRAM_FAILURE)
    TILECL_NAME(CL_MAP_FAILURE)
    TILECL_NAME(CL_MISALIGNED_SUB_BUFFER_OFFSET)
    TILECL_NAME(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST)
    TILECL_NAME(CL_COMPILE_PROGRAM_FAILURE)
    TILECL_NAME(CL_LINKER_NOT_AVAILABLE)
    TILECL_NAME(CL_LINK_PROGRAM_FAILURE)
    TILECL_NAME(CL_DEVICE_PARTITION_FAILED)
    TILECL_NAME(CL_KERNEL_ARG_INFO_NOT_AVAILABLE)
    TILECL_NAME(CL_INVALID_VALUE)
    TILECL_NAME(CL_INVALID_DEVICE_TYPE)
    TILECL_NAME(CL_INVALID_PLATFORM)
    TILECL_NAME(CL_INVALID_DEVICE)
    TILECL_NAME(CL_INVALID_CONTEXT)
    TILECL_NAME(CL_INVALID_QUEUE_PROPERTIES)
    TILECL_NAME(CL_INVALID_COMMAND_QUEUE)
    TILECL_NAME(CL_INVALID_HOST_PTR)
    TILECL_NAME(CL_INVALID_MEM_OBJECT)
    TILECL_NAME(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR)
    TILECL_NAME(CL_INVALID_IMAGE_SIZE)
    TILECL_NAME(CL_INVALID_SAMPLER)
    TILECL_NAME(CL_INVALID_BINARY)
    TILECL_NAME(CL_INVALID_BUILD_OPTIONS)
    TILECL_NAME(CL_INVALID_PROGRAM)
    TILECL_NAME(CL_INVALID_PROGRAM_EXECUTABLE)
    TILECL_NAME(CL_INVALID_KERNEL_NAME)
    TILECL_NAME(CL_INVALID_KERNEL_DEFINITION)
    TILECL_NAME(CL_INVALID_KERNEL)
    TILECL_NAME(CL_INVALID_ARG_INDEX)
    TILECL_NAME(CL_INVALID_ARG_VALUE)
    TILECL_NAME(CL_INVALID_ARG_SIZE)
    TILECL_NAME(CL_INVALID_KERNEL_ARGS)
    TILECL_NAME(CL_INVALID_WORK_DIMENSION)
    TILECL_NAME(CL_INVALID_WORK_GROUP_SIZE)
    TILECL_NAME(CL_INVALID_WORK_ITEM_SIZE)
    TILECL_NAME(CL_INVALID_GLOBAL_OFFSET)
    TILECL_NAME(CL_INVALID_EVENT_WAIT_LIST)
    TILECL_NAME(CL_INVALID_EVENT)
    TILECL_NAME(CL_INVALID_OPERATION)
    TILECL_NAME(CL_INVALID_GL_OBJECT)
    TILECL_NAME(CL_INVALID_BUFFER_SIZE)
    TILECL_NAME(CL_INVALID_MIP_LEVEL)
    TILECL_NAME(CL_INVALID_GLOBAL_WORK_SIZE)
    TILECL_NAME(CL_INVALID_PROPERTY)
    TILECL_NAME(CL_INVALID_IMAGE_DESCRIPTOR)
    TILECL_NAME(CL_INVALID_COMPILER_OPTIONS)
    TILECL_NAME(CL_INVALID_LINKER_OPTIONS)
    TILECL_NAME(CL_INVALID_DEVICE_PARTITION_COUNT)
#undef TILECL_NAME
    default:
      break;
  }
  if (const char* name = later_error_name(status)) return name;
  return "CL_UNKNOWN_ERROR(" + std::to_string(status) + ")";
}

namespace {

std::string format_message(const std::string& op, const std::string& argument, cl_int status,
                           const std::string& detail) {
  std::string message = "tilecl::" + op + ": ";
  if (!argument.empty()) message += argument + ": ";
  message += detail + " [" + cl_error_name(status) + "]";
  return message;
}

}  // namespace

Error::Error(std::string op, std::string argument, cl_int status, const std::string& detail)
    : std::runtime_error(format_message(op, argument, status, detail)),
      op_(std::move(op)),
      argument_(std::move(argument)),
      status_(status) {}

BuildError::BuildError(std::string op, std::string family, cl_int status, std::string options, std::string log)
    : Error(std::move(op), "program '" + family + "'", status,
            "kernel build failed with options \"" + options + "\"; build log:\n" + log),
      family_(std::move(family)),
      options_(std::move(options)),
      log_(std::move(log)) {}

}  // namespace tilecl
