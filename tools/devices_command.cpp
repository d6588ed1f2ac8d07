// tilecl devices: every platform and device, with fingerprint and limits.
#include <iostream>
#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "tilecl/device.hpp"
#include "tilecl/error.hpp"

namespace tilecl::tool {
namespace {

std::string kib(std::uint64_t bytes) { return std::to_string(bytes / 1024) + " KiB"; }
std::string mib(std::uint64_t bytes) { return std::to_string(bytes / 1024 / 1024) + " MiB"; }

const char* type_name(cl_device_type type) {
  if (type & CL_DEVICE_TYPE_GPU) return "GPU";
  if (type & CL_DEVICE_TYPE_CPU) return "CPU";
  if (type & CL_DEVICE_TYPE_ACCELERATOR) return "accelerator";
  return "other";
}

nlohmann::json to_json(const DeviceInfo& info) {
  return {{"fingerprint", info.fingerprint()},
          {"platform", info.platform_name},
          {"platform_version", info.platform_version},
          {"device", info.device_name},
          {"vendor", info.device_vendor},
          {"device_version", info.device_version},
          {"driver_version", info.driver_version},
          {"opencl_c_version", info.opencl_c_version},
          {"type", type_name(info.type)},
          {"compute_units", info.compute_units},
          {"max_clock_mhz", info.max_clock_mhz},
          {"max_work_group_size", info.max_work_group_size},
          {"local_memory_bytes", info.local_memory_bytes},
          {"local_memory_dedicated", info.local_memory_is_dedicated},
          {"global_memory_bytes", info.global_memory_bytes},
          {"max_allocation_bytes", info.max_allocation_bytes},
          {"preferred_work_group_multiple", info.preferred_work_group_multiple},
          {"native_vector_width_float", info.native_vector_width_float},
          {"fp64", info.fp64},
          {"subgroups", info.subgroups}};
}

void print_device(const DeviceInfo& info, std::size_t p, std::size_t d) {
  std::cout << "[" << p << ":" << d << "] " << info.device_name << " (" << type_name(info.type) << ")\n"
            << "    platform     " << info.platform_name << " | " << info.platform_version << "\n"
            << "    driver       " << info.driver_version << " | " << info.device_version << " | "
            << info.opencl_c_version << "\n"
            << "    fingerprint  " << info.fingerprint() << "\n"
            << "    compute      " << info.compute_units << " units at " << info.max_clock_mhz
            << " MHz, work-groups up to " << info.max_work_group_size << " (multiple of "
            << info.preferred_work_group_multiple << "), native float vector " << info.native_vector_width_float << "\n"
            << "    memory       " << mib(info.global_memory_bytes) << " global (" << mib(info.max_allocation_bytes)
            << " per buffer), " << kib(info.local_memory_bytes) << " local ("
            << (info.local_memory_is_dedicated ? "on chip" : "emulated in global memory") << ")\n"
            << "    features     fp64 " << (info.fp64 ? "yes" : "no") << ", sub-groups "
            << (info.subgroups ? "yes" : "no") << "\n";
}

std::vector<cl::Platform> all_platforms() {
  std::vector<cl::Platform> platforms;
  try {
    cl::Platform::get(&platforms);
  } catch (const cl::Error& error) {
    throw Error("devices", "platform", error.err(), "no OpenCL platform found (is an ICD installed?)");
  }
  return platforms;
}

// The platform's devices; none when it cannot list them.
std::vector<cl::Device> devices_of(const cl::Platform& platform) {
  std::vector<cl::Device> devices;
  try {
    platform.getDevices(CL_DEVICE_TYPE_ALL, &devices);
  } catch (const cl::Error&) {
    devices.clear();
  }
  return devices;
}

// Every device as JSON (with its P:D selector), each printed as text on the way unless `json_output`.
nlohmann::json list_devices(bool json_output) {
  const std::vector<cl::Platform> platforms = all_platforms();
  nlohmann::json all = nlohmann::json::array();
  for (std::size_t p = 0; p < platforms.size(); ++p) {
    const std::vector<cl::Device> devices = devices_of(platforms[p]);
    for (std::size_t d = 0; d < devices.size(); ++d) {
      const DeviceInfo& info = device_info(devices[d]);
      nlohmann::json entry = to_json(info);
      entry["selector"] = std::to_string(p) + ":" + std::to_string(d);
      all.push_back(entry);
      if (!json_output) print_device(info, p, d);
    }
  }
  return all;
}

}  // namespace

Action add_devices_command(CLI::App& app) {
  auto* command = app.add_subcommand("devices", "List every OpenCL platform and device, with fingerprints and limits");
  auto json_output = std::make_shared<bool>(false);
  command->add_flag("--json", *json_output, "Print JSON instead of text");
  return [json_output] {
    const nlohmann::json all = list_devices(*json_output);
    if (*json_output) std::cout << all.dump(2) << std::endl;
    if (all.empty()) {
      std::cerr << "tilecl: no OpenCL device found" << std::endl;
      return 1;
    }
    return 0;
  };
}

void DeviceOption::add_to(CLI::App& command) {
  command.add_option("--device", selector,
                     "Device as P:D, each an index or a name substring (default: TILECL_PLATFORM / TILECL_DEVICE, "
                     "else the first device)");
}

}  // namespace tilecl::tool
