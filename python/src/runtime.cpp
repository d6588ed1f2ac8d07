// Devices, the runtime's caches and statistics, and the cache directory's contents (what `tilecl devices` and
// `tilecl cache` show), returned as dicts and lists.
#include "tilecl/runtime.hpp"

#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>

#include <cstdint>

#include "bindings.hpp"
#include "cache_admin.hpp"
#include "dicts.hpp"
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
  nb::dict entry = dict_of(
      *info, "platform", &DeviceInfo::platform_name, "platform_version", &DeviceInfo::platform_version, "device",
      &DeviceInfo::device_name, "vendor", &DeviceInfo::device_vendor, "device_version", &DeviceInfo::device_version,
      "driver_version", &DeviceInfo::driver_version, "opencl_c_version", &DeviceInfo::opencl_c_version, "compute_units",
      &DeviceInfo::compute_units, "max_clock_mhz", &DeviceInfo::max_clock_mhz, "max_work_group_size",
      &DeviceInfo::max_work_group_size, "local_memory_bytes", &DeviceInfo::local_memory_bytes, "local_memory_dedicated",
      &DeviceInfo::local_memory_is_dedicated, "global_memory_bytes", &DeviceInfo::global_memory_bytes,
      "max_allocation_bytes", &DeviceInfo::max_allocation_bytes, "preferred_work_group_multiple",
      &DeviceInfo::preferred_work_group_multiple, "native_vector_width_float", &DeviceInfo::native_vector_width_float,
      "fp64", &DeviceInfo::fp64, "subgroups", &DeviceInfo::subgroups, "extensions", &DeviceInfo::extensions);
  entry["fingerprint"] = info->fingerprint();
  entry["type"] = static_cast<std::uint64_t>(info->type);  // CL_DEVICE_TYPE_* bits
  return entry;
}

Handle select_device_call(const std::string& platform, const std::string& device) {
  cl::Device selected = select_device(platform, device);
  return reinterpret_cast<Handle>(selected());  // a root device: no reference to hand over
}

nb::dict statistics_dict() {
  return dict_of(statistics(), "memory_hits", &Statistics::memory_hits, "disk_hits", &Statistics::disk_hits,
                 "disk_writes", &Statistics::disk_writes, "disk_rejects", &Statistics::disk_rejects, "compiles",
                 &Statistics::compiles, "compile_seconds", &Statistics::compile_seconds, "tunings",
                 &Statistics::tunings, "tuning_seconds", &Statistics::tuning_seconds, "tuning_db_hits",
                 &Statistics::tuning_db_hits);
}

nb::dict cache_sizes_dict() {
  return dict_of(cache_sizes(), "contexts", &CacheSizes::contexts, "context_limit", &CacheSizes::context_limit,
                 "programs", &CacheSizes::programs, "workspaces", &CacheSizes::workspaces, "tuning_queues",
                 &CacheSizes::tuning_queues);
}

nb::list program_cache_list() {
  nb::list result;
  for (const auto& entry : detail::list_program_cache())
    result.append(dict_of(entry, "fingerprint", &detail::ProgramCacheSummary::fingerprint, "files",
                          &detail::ProgramCacheSummary::files, "bytes", &detail::ProgramCacheSummary::bytes));
  return result;
}

nb::list tuning_database_list() {
  using Summary = detail::TuningDatabaseSummary;
  nb::list result;
  for (const auto& entry : detail::list_tuning_databases()) {
    nb::dict row = dict_of(entry, "fingerprint", &Summary::fingerprint, "device", &Summary::device_name,
                           "driver_version", &Summary::driver_version, "entries", &Summary::entries, "failures",
                           &Summary::failures, "problem", &Summary::problem);
    row["path"] = entry.path.string();
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
