#include "tilecl/device.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>
#include <vector>

#include "hash.hpp"
#include "tilecl/error.hpp"

namespace tilecl {
namespace {

// OpenCL 3.0 query; older headers may lack the name.
constexpr cl_device_info kPreferredWorkGroupMultiple = 0x1067;
// cl_nv_device_attribute_query (CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV / _MINOR_NV); headers may lack the names.
constexpr cl_device_info kComputeCapabilityMajorNv = 0x4000;
constexpr cl_device_info kComputeCapabilityMinorNv = 0x4001;

std::string trimmed(std::string text) {
  while (!text.empty() && (text.back() == '\0' || text.back() == ' ')) text.pop_back();
  return text;
}

// Asks a trivial kernel for its preferred work-group multiple: the portable way before OpenCL 3.0.
size_t probe_work_group_multiple(const cl::Device& device) {
  try {
    cl::Context context(device);
    cl::Program program(context, "__kernel void tilecl_probe(__global int* x) { x[get_global_id(0)] = 0; }");
    program.build({device});
    cl::Kernel kernel(program, "tilecl_probe");
    return kernel.getWorkGroupInfo<CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE>(device);
  } catch (const cl::Error&) {
    return 1;
  }
}

DeviceInfo query(const cl::Device& device) {
  DeviceInfo info;
  try {
    cl::Platform platform(device.getInfo<CL_DEVICE_PLATFORM>());
    info.platform_name = trimmed(platform.getInfo<CL_PLATFORM_NAME>());
    info.platform_version = trimmed(platform.getInfo<CL_PLATFORM_VERSION>());
    info.device_name = trimmed(device.getInfo<CL_DEVICE_NAME>());
    info.device_vendor = trimmed(device.getInfo<CL_DEVICE_VENDOR>());
    info.device_version = trimmed(device.getInfo<CL_DEVICE_VERSION>());
    info.driver_version = trimmed(device.getInfo<CL_DRIVER_VERSION>());
    info.opencl_c_version = trimmed(device.getInfo<CL_DEVICE_OPENCL_C_VERSION>());
    info.type = device.getInfo<CL_DEVICE_TYPE>();
    info.compute_units = device.getInfo<CL_DEVICE_MAX_COMPUTE_UNITS>();
    info.max_clock_mhz = device.getInfo<CL_DEVICE_MAX_CLOCK_FREQUENCY>();
    info.max_work_group_size = device.getInfo<CL_DEVICE_MAX_WORK_GROUP_SIZE>();
    auto item_sizes = device.getInfo<CL_DEVICE_MAX_WORK_ITEM_SIZES>();
    for (size_t i = 0; i < 3 && i < item_sizes.size(); ++i) info.max_work_item_sizes[i] = item_sizes[i];
    info.local_memory_bytes = device.getInfo<CL_DEVICE_LOCAL_MEM_SIZE>();
    info.local_memory_is_dedicated = device.getInfo<CL_DEVICE_LOCAL_MEM_TYPE>() == CL_LOCAL;
    info.global_memory_bytes = device.getInfo<CL_DEVICE_GLOBAL_MEM_SIZE>();
    info.global_cache_bytes = device.getInfo<CL_DEVICE_GLOBAL_MEM_CACHE_SIZE>();
    info.max_allocation_bytes = device.getInfo<CL_DEVICE_MAX_MEM_ALLOC_SIZE>();
    info.extensions = device.getInfo<CL_DEVICE_EXTENSIONS>();
    info.native_vector_width_float = device.getInfo<CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT>();
    info.native_vector_width_double = device.getInfo<CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE>();
    info.little_endian = device.getInfo<CL_DEVICE_ENDIAN_LITTLE>() == CL_TRUE;
  } catch (const cl::Error& error) {
    throw Error("device_info", "device", error.err(), std::string("querying the device failed in ") + error.what());
  }
  info.fp64 = info.has_extension("cl_khr_fp64");
  info.subgroups = info.has_extension("cl_khr_subgroups");

  if (info.has_extension("cl_nv_device_attribute_query")) {
    cl_uint major = 0, minor = 0;
    if (clGetDeviceInfo(device(), kComputeCapabilityMajorNv, sizeof(major), &major, nullptr) == CL_SUCCESS &&
        clGetDeviceInfo(device(), kComputeCapabilityMinorNv, sizeof(minor), &minor, nullptr) == CL_SUCCESS)
      info.nv_compute_capability = major * 10 + minor;
  }

  size_t multiple = 0;
  if (clGetDeviceInfo(device(), kPreferredWorkGroupMultiple, sizeof(multiple), &multiple, nullptr) != CL_SUCCESS ||
      multiple == 0) {
    multiple = probe_work_group_multiple(device);
  }
  info.preferred_work_group_multiple = multiple == 0 ? 1 : multiple;
  return info;
}

}  // namespace

bool DeviceInfo::has_extension(const std::string& name) const {
  std::istringstream words(extensions);
  std::string word;
  while (words >> word) {
    if (word == name) return true;
  }
  return false;
}

std::string DeviceInfo::identity_text() const {
  std::ostringstream text;
  text << "platform_name=" << platform_name << "\n"
       << "platform_version=" << platform_version << "\n"
       << "device_name=" << device_name << "\n"
       << "device_vendor=" << device_vendor << "\n"
       << "device_version=" << device_version << "\n"
       << "driver_version=" << driver_version << "\n"
       << "opencl_c_version=" << opencl_c_version << "\n"
       << "compute_units=" << compute_units << "\n";
  return text.str();
}

std::string DeviceInfo::fingerprint() const {
  // The last fingerprint this thread computed, recognised by the identifying fields: every tuned call asks for
  // its device's fingerprint (the tuning key), and formatting and hashing the text took several microseconds of
  // a small image filter's call (perf on PoCL, 2026-12-02). Comparing the fields is exact and costs far less.
  struct Memo {
    std::string platform_name, platform_version, device_name, device_vendor, device_version, driver_version,
        opencl_c_version;
    decltype(compute_units) units{};
    std::string fingerprint;
  };
  thread_local Memo memo;
  if (memo.fingerprint.empty() || memo.units != compute_units || memo.device_name != device_name ||
      memo.driver_version != driver_version || memo.platform_name != platform_name ||
      memo.platform_version != platform_version || memo.device_vendor != device_vendor ||
      memo.device_version != device_version || memo.opencl_c_version != opencl_c_version)
    memo = Memo{platform_name,    platform_version, device_name,
                device_vendor,    device_version,   driver_version,
                opencl_c_version, compute_units,    detail::hash_hex(identity_text())};
  return memo.fingerprint;
}

namespace {

// Serialises platform and device discovery and the first query of each device: PoCL's start-up is not thread
// safe (select_device() from several threads at once crashed inside PoCL; plain clGetPlatformIDs and
// clGetDeviceIDs calls from 8 threads returned empty device lists in 3 of 5 runs).
std::mutex& discovery_mutex() {
  static std::mutex mutex;
  return mutex;
}

}  // namespace

const DeviceInfo& device_info(const cl::Device& device) {
  static std::map<cl_device_id, std::unique_ptr<DeviceInfo>> known;
  std::lock_guard<std::mutex> lock(discovery_mutex());  // held while querying: each device is queried once
  auto found = known.find(device());
  if (found == known.end()) found = known.emplace(device(), std::make_unique<DeviceInfo>(query(device))).first;
  return *found->second;
}

cl::Device queue_device(const cl::CommandQueue& queue) {
  try {
    return queue.getInfo<CL_QUEUE_DEVICE>();
  } catch (const cl::Error& error) {
    throw Error("queue", "queue", error.err(), "cannot read the queue's device (is the queue valid?)");
  }
}

namespace {

std::string lower(std::string text) {
  for (auto& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

bool is_index(const std::string& text) {
  return !text.empty() && std::all_of(text.begin(), text.end(), [](unsigned char c) { return std::isdigit(c); });
}

// The position of the entry `selector` names in `names`, or -1.
long pick(const std::string& selector, const std::vector<std::string>& names) {
  if (selector.empty()) return names.empty() ? -1 : 0;
  if (is_index(selector)) {
    const unsigned long index = std::stoul(selector);
    return index < names.size() ? static_cast<long>(index) : -1;
  }
  for (size_t i = 0; i < names.size(); ++i) {
    if (lower(names[i]).find(lower(selector)) != std::string::npos) return static_cast<long>(i);
  }
  return -1;
}

std::string env_or(const std::string& given, const char* variable) {
  if (!given.empty()) return given;
  const char* value = std::getenv(variable);
  return value != nullptr ? value : "";
}

}  // namespace

std::pair<std::string, std::string> split_device_selector(const std::string& selector) {
  auto colon = selector.find(':');
  if (colon == std::string::npos) return {selector, ""};
  return {selector.substr(0, colon), selector.substr(colon + 1)};
}

namespace {

constexpr cl_int kPlatformNotFound = -1001;  // CL_PLATFORM_NOT_FOUND_KHR (cl_khr_icd), not in the 1.2 headers

// The device type a selector names ("gpu", "cpu", "accelerator", any case), or 0 for an index or a name.
cl_device_type device_type_named(const std::string& selector) {
  const std::string word = lower(selector);
  if (word == "gpu") return CL_DEVICE_TYPE_GPU;
  if (word == "cpu") return CL_DEVICE_TYPE_CPU;
  if (word == "accelerator") return CL_DEVICE_TYPE_ACCELERATOR;
  return 0;
}

const char* device_type_word(cl_device_type type) {
  if ((type & CL_DEVICE_TYPE_GPU) != 0) return "GPU";
  if ((type & CL_DEVICE_TYPE_CPU) != 0) return "CPU";
  if ((type & CL_DEVICE_TYPE_ACCELERATOR) != 0) return "accelerator";
  return "other";
}

std::vector<cl::Platform> all_platforms() {
  std::vector<cl::Platform> platforms;
  try {
    cl::Platform::get(&platforms);
  } catch (const cl::Error& error) {
    throw Error("select_device", "platform", error.err(),
                "no OpenCL platform found (is an ICD installed and registered in /etc/OpenCL/vendors?)");
  }
  if (platforms.empty())
    throw Error("select_device", "platform", kPlatformNotFound,
                "no OpenCL platform found (is an ICD installed and registered in /etc/OpenCL/vendors?)");
  return platforms;
}

std::vector<std::string> platform_names_of(const std::vector<cl::Platform>& platforms) {
  std::vector<std::string> names;
  names.reserve(platforms.size());
  for (const auto& platform : platforms) names.push_back(platform.getInfo<CL_PLATFORM_NAME>());
  return names;
}

std::vector<cl::Device> devices_of(const cl::Platform& platform, cl_device_type type) {
  std::vector<cl::Device> devices;
  try {
    platform.getDevices(type, &devices);
  } catch (const cl::Error&) {
    devices.clear();  // CL_DEVICE_NOT_FOUND: none of this type
  }
  return devices;
}

// The first device of `type` on the platforms `platform_choice` selects (every platform when empty), in order.
cl::Device first_device_of_type(cl_device_type type, const std::string& platform_choice) {
  const std::vector<cl::Platform> platforms = all_platforms();
  const std::vector<std::string> platform_names = platform_names_of(platforms);
  std::string available;
  for (size_t p = 0; p < platforms.size(); ++p) {
    if (!platform_choice.empty() && pick(platform_choice, platform_names) != static_cast<long>(p)) continue;
    auto devices = devices_of(platforms[p], type);
    if (!devices.empty()) return devices.front();
    for (const auto& device : devices_of(platforms[p], CL_DEVICE_TYPE_ALL))
      available += " [" + std::to_string(p) + "] " + device.getInfo<CL_DEVICE_NAME>() + " (" +
                   device_type_word(device.getInfo<CL_DEVICE_TYPE>()) + ")";
  }
  throw Error("select_device", "device", CL_DEVICE_NOT_FOUND,
              std::string("no ") + device_type_word(type) + " device" +
                  (platform_choice.empty() ? "" : " on a platform matching '" + platform_choice + "'") +
                  "; available:" + (available.empty() ? " none" : available));
}

}  // namespace

cl::Device select_device(cl_device_type type, const std::string& platform_selector) {
  std::lock_guard<std::mutex> lock(discovery_mutex());
  if (type != CL_DEVICE_TYPE_GPU && type != CL_DEVICE_TYPE_CPU && type != CL_DEVICE_TYPE_ACCELERATOR)
    throw Error("select_device", "type", CL_INVALID_DEVICE_TYPE,
                "not CL_DEVICE_TYPE_GPU, CL_DEVICE_TYPE_CPU or CL_DEVICE_TYPE_ACCELERATOR");
  return first_device_of_type(type, env_or(platform_selector, "TILECL_PLATFORM"));
}

cl::Device select_device(const std::string& platform_selector, const std::string& device_selector) {
  const std::string platform_choice = env_or(platform_selector, "TILECL_PLATFORM");
  const std::string device_choice = env_or(device_selector, "TILECL_DEVICE");
  std::lock_guard<std::mutex> lock(discovery_mutex());
  if (const cl_device_type type = device_type_named(device_choice)) return first_device_of_type(type, platform_choice);
  const std::vector<cl::Platform> platforms = all_platforms();
  const std::vector<std::string> platform_names = platform_names_of(platforms);
  const long platform_index = pick(platform_choice, platform_names);
  std::string available;
  for (size_t i = 0; i < platform_names.size(); ++i) available += " [" + std::to_string(i) + "] " + platform_names[i];
  if (platform_index < 0)
    throw Error("select_device", "platform", CL_DEVICE_NOT_FOUND,
                "no platform matches '" + platform_choice + "'; available:" + available);
  std::vector<cl::Device> devices;
  try {
    platforms[static_cast<size_t>(platform_index)].getDevices(CL_DEVICE_TYPE_ALL, &devices);
  } catch (const cl::Error& error) {
    throw Error("select_device", "device", error.err(),
                "platform '" + platform_names[platform_index] + "' has no devices");
  }
  std::vector<std::string> device_names;
  device_names.reserve(devices.size());
  for (const auto& device : devices) device_names.push_back(device.getInfo<CL_DEVICE_NAME>());
  const long device_index = pick(device_choice, device_names);
  if (device_index < 0) {
    available.clear();
    for (size_t i = 0; i < device_names.size(); ++i) available += " [" + std::to_string(i) + "] " + device_names[i];
    throw Error("select_device", "device", CL_DEVICE_NOT_FOUND,
                "no device matches '" + device_choice + "' on platform '" + platform_names[platform_index] +
                    "'; available:" + available);
  }
  return devices[static_cast<size_t>(device_index)];
}

}  // namespace tilecl
