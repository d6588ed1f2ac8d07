// What tilecl knows about a device: identity (for cache keys) and limits (for defaults and pruning).
// Every function here is thread-safe.
#pragma once

#include <CL/opencl.hpp>
#include <array>
#include <cstdint>
#include <string>
#include <utility>

namespace tilecl {

struct DeviceInfo {
  // Identity: these fields, hashed, are the device fingerprint. A driver update changes it.
  std::string platform_name;
  std::string platform_version;
  std::string device_name;
  std::string device_vendor;
  std::string device_version;
  std::string driver_version;
  std::string opencl_c_version;

  // Limits and properties.
  cl_device_type type = 0;
  unsigned compute_units = 0;
  unsigned max_clock_mhz = 0;
  size_t max_work_group_size = 0;
  std::array<size_t, 3> max_work_item_sizes{};
  std::uint64_t local_memory_bytes = 0;
  bool local_memory_is_dedicated = false;  // CL_LOCAL (on-chip) rather than CL_GLOBAL (emulated)
  std::uint64_t global_memory_bytes = 0;
  std::uint64_t global_cache_bytes = 0;  // CL_DEVICE_GLOBAL_MEM_CACHE_SIZE (last-level cache as the driver reports it)
  std::uint64_t max_allocation_bytes = 0;
  // Work-group sizes should be multiples of this (warp / wavefront / SIMD width). Queried from the device
  // where the platform reports it, else from a probe kernel.
  size_t preferred_work_group_multiple = 1;
  // CL_DEVICE_NATIVE_VECTOR_WIDTH_*: the SIMD width in elements (CPUs report their vector unit's width).
  unsigned native_vector_width_float = 1;
  unsigned native_vector_width_double = 1;
  bool fp64 = false;
  bool subgroups = false;     // cl_khr_subgroups
  bool little_endian = true;  // CL_DEVICE_ENDIAN_LITTLE: kernels that view bytes as words need it
  // NVIDIA's compute capability as major * 10 + minor (90 on an H100 or H200), from cl_nv_device_attribute_query;
  // 0 on devices without that extension. Kernels with inline PTX (tensor cores: 80 and above) check it.
  unsigned nv_compute_capability = 0;
  std::string extensions;

  bool is_cpu() const { return (type & CL_DEVICE_TYPE_CPU) != 0; }
  bool is_gpu() const { return (type & CL_DEVICE_TYPE_GPU) != 0; }
  bool has_extension(const std::string& name) const;

  // The identifying fields, one "key=value" per line: what the fingerprint hashes.
  std::string identity_text() const;
  // A stable 16-hex-digit hash of identity_text().
  std::string fingerprint() const;
};

// Queries (once per cl_device_id, then cached; thread-safe).
const DeviceInfo& device_info(const cl::Device& device);

// The device a queue runs on (CL_QUEUE_DEVICE); throws tilecl::Error for a null or invalid queue.
cl::Device queue_device(const cl::CommandQueue& queue);

// Picks a device. `platform` and `device` are each an index or a case-insensitive substring of the name;
// an empty one falls back to TILECL_PLATFORM / TILECL_DEVICE, then to the first. A device selector "gpu",
// "cpu" or "accelerator" (any case) picks the first device of that type, searching every platform in order
// (or the platforms the platform selector matches), as select_device(type) does. Throws tilecl::Error
// (CL_DEVICE_NOT_FOUND) naming what is available when nothing matches, and CL_PLATFORM_NOT_FOUND_KHR (-1001)
// when the OpenCL loader finds no platform at all.
cl::Device select_device(const std::string& platform = "", const std::string& device = "");

// The first device of `type` (CL_DEVICE_TYPE_GPU, _CPU or _ACCELERATOR; another value raises
// CL_INVALID_DEVICE_TYPE) on any platform, in platform order, or on the platforms `platform` matches (index or
// name substring; empty: TILECL_PLATFORM, else all). Errors as for select_device() above.
cl::Device select_device(cl_device_type type, const std::string& platform = "");

// "P:D" (as given to --device) split into the two selectors of select_device(); either may be empty
// ("NVIDIA" alone is a platform selector, ":1" a device selector).
std::pair<std::string, std::string> split_device_selector(const std::string& selector);

}  // namespace tilecl
