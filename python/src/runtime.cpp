// Devices, the runtime's caches and statistics, and the cache directory's contents (what `tilecl devices` and
// `tilecl cache` show), returned as dicts and lists.
#include "tilecl/runtime.hpp"

#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>

#include <cstdint>

#include "bindings.hpp"
#include "cache_admin.hpp"
#include "handles.hpp"
#include "tilecl/device.hpp"

namespace nb = nanobind;

namespace tilecl::python {
namespace {

// The keys of `tilecl devices --json` ("type" as CL_DEVICE_TYPE_* bits), plus the extensions.
nb::dict device_info_dict(Handle device) {
  const DeviceInfo* info = nullptr;
  {
    nb::gil_scoped_release release;  // the first query of a device may build a probe kernel
    info = &device_info(device_from(device));
  }
  nb::dict entry;
  entry["fingerprint"] = info->fingerprint();
  entry["platform"] = info->platform_name;
  entry["platform_version"] = info->platform_version;
  entry["device"] = info->device_name;
  entry["vendor"] = info->device_vendor;
  entry["device_version"] = info->device_version;
  entry["driver_version"] = info->driver_version;
  entry["opencl_c_version"] = info->opencl_c_version;
  entry["type"] = static_cast<std::uint64_t>(info->type);  // CL_DEVICE_TYPE_* bits
  entry["compute_units"] = info->compute_units;
  entry["max_clock_mhz"] = info->max_clock_mhz;
  entry["max_work_group_size"] = info->max_work_group_size;
  entry["local_memory_bytes"] = info->local_memory_bytes;
  entry["local_memory_dedicated"] = info->local_memory_is_dedicated;
  entry["global_memory_bytes"] = info->global_memory_bytes;
  entry["max_allocation_bytes"] = info->max_allocation_bytes;
  entry["preferred_work_group_multiple"] = info->preferred_work_group_multiple;
  entry["native_vector_width_float"] = info->native_vector_width_float;
  entry["fp64"] = info->fp64;
  entry["subgroups"] = info->subgroups;
  entry["extensions"] = info->extensions;
  return entry;
}

Handle select_device_call(const std::string& platform, const std::string& device) {
  cl::Device selected = select_device(platform, device);
  return reinterpret_cast<Handle>(selected());  // a root device: no reference to hand over
}

nb::dict statistics_dict() {
  const Statistics counters = statistics();
  nb::dict result;
  result["memory_hits"] = counters.memory_hits;
  result["disk_hits"] = counters.disk_hits;
  result["disk_writes"] = counters.disk_writes;
  result["disk_rejects"] = counters.disk_rejects;
  result["compiles"] = counters.compiles;
  result["compile_seconds"] = counters.compile_seconds;
  result["tunings"] = counters.tunings;
  result["tuning_seconds"] = counters.tuning_seconds;
  result["tuning_db_hits"] = counters.tuning_db_hits;
  return result;
}

nb::dict cache_sizes_dict() {
  const CacheSizes sizes = cache_sizes();
  nb::dict result;
  result["contexts"] = sizes.contexts;
  result["context_limit"] = sizes.context_limit;
  result["programs"] = sizes.programs;
  result["workspaces"] = sizes.workspaces;
  result["tuning_queues"] = sizes.tuning_queues;
  return result;
}

nb::list program_cache_list() {
  nb::list result;
  for (const auto& entry : detail::list_program_cache()) {
    nb::dict row;
    row["fingerprint"] = entry.fingerprint;
    row["files"] = entry.files;
    row["bytes"] = entry.bytes;
    result.append(row);
  }
  return result;
}

nb::list tuning_database_list() {
  nb::list result;
  for (const auto& entry : detail::list_tuning_databases()) {
    nb::dict row;
    row["path"] = entry.path.string();
    row["fingerprint"] = entry.fingerprint;
    row["device"] = entry.device_name;
    row["driver_version"] = entry.driver_version;
    row["entries"] = entry.entries;
    row["failures"] = entry.failures;
    row["problem"] = entry.problem;
    result.append(row);
  }
  return result;
}

}  // namespace

void bind_runtime(nb::module_& module) {
  const auto release = nb::call_guard<nb::gil_scoped_release>();
  module.def("device_info", &device_info_dict);
  module.def("select_device", &select_device_call, release);
  module.def("statistics", &statistics_dict);
  module.def("reset_statistics", &reset_statistics);
  module.def("cache_directory", &cache_directory);
  module.def("clear_program_cache", &clear_program_cache, release);
  module.def(
      "forget_context", [](Handle context) { forget_context(context_from(context)); }, release);
  module.def("cache_sizes", &cache_sizes_dict);
  module.def("version", &version);
  module.def("list_program_cache", &program_cache_list);
  module.def("list_tuning_databases", &tuning_database_list);
  module.def("clear_program_cache_files", &detail::clear_program_cache_files, release);
  module.def("clear_tuning_databases", &detail::clear_tuning_databases, release);
  module.def(
      "export_tuning", [](const std::string& path) { return detail::export_tuning(path); }, release);
  module.def(
      "import_tuning", [](const std::string& path) { return detail::import_tuning(path); }, release);
}

}  // namespace tilecl::python
