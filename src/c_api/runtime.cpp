// C API: version, status names, the last error message, prepare (include/tilecl/tilecl.h).
#include "tilecl/runtime.hpp"

#include <algorithm>
#include <cstring>

#include "c_api/call.hpp"
#include "tilecl/device.hpp"
#include "tilecl/prepare.hpp"

extern "C" {

const char* tilecl_version(void) { return tilecl::version(); }

const char* tilecl_status_name(tilecl_status status) {
  thread_local std::string name;
  name = status == TILECL_ERROR_UNKNOWN ? std::string("TILECL_ERROR_UNKNOWN") : tilecl::cl_error_name(status);
  return name.c_str();
}

const char* tilecl_last_error_message(void) { return tilecl::c_api::last_error_text(); }

tilecl_status tilecl_select_device(const char* platform, const char* device, cl_device_id* chosen) {
  return tilecl::c_api::guarded([&] {
    tilecl::c_api::require_not_null("select_device", "chosen", chosen);
    cl::Device selected = tilecl::select_device(platform != nullptr ? platform : "", device != nullptr ? device : "");
    *chosen = selected();  // a root device: nothing to release
  });
}

tilecl_status tilecl_prepare(cl_command_queue queue, const char* op, const char* dtype, const char* shape, char* chosen,
                             size_t chosen_size) {
  if (chosen != nullptr && chosen_size > 0) chosen[0] = '\0';
  return tilecl::c_api::guarded([&] {
    for (const auto& [name, text] : {std::pair{"op", op}, std::pair{"dtype", dtype}, std::pair{"shape", shape}})
      tilecl::c_api::require_not_null("prepare", name, text);
    const tilecl::Prepared prepared = tilecl::prepare(tilecl::c_api::queue("prepare", queue), op, dtype, shape);
    const std::string text =
        prepared.choice.parameters.to_string() + " (" + tilecl::tuning::origin_name(prepared.choice.origin) + ")";
    if (chosen != nullptr && chosen_size > 0) {
      const std::size_t length = std::min(text.size(), chosen_size - 1);
      std::memcpy(chosen, text.data(), length);
      chosen[length] = '\0';
    }
  });
}
}
