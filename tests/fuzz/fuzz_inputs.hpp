// What the fuzz targets and their seed writer share: the device a tuning database is checked against and
// the key a cached program file is decoded for (the seeds are written for these, so mutations of a valid
// seed get past the identity checks to the parts behind them).
#pragma once

#include <string>

#include "tilecl/device.hpp"

namespace tilecl::fuzz {

inline DeviceInfo seed_device() {
  DeviceInfo device;
  device.platform_name = "Portable Computing Language";
  device.platform_version = "OpenCL 3.0 PoCL 3.1";
  device.device_name = "cpu-haswell-AMD EPYC";
  device.device_vendor = "AuthenticAMD";
  device.device_version = "OpenCL 3.0 PoCL HSTR: cpu-x86_64-pc-linux-gnu-haswell";
  device.driver_version = "3.1";
  device.opencl_c_version = "OpenCL C 1.2 PoCL";
  device.compute_units = 2;
  return device;
}

inline const std::string& seed_key_text() {
  static const std::string text =
      "library=tilecl 0.1.0\nformat=2\nfamily=elementwise\nsource=0123456789abcdef\n"
      "options=-DDTYPE=float -DVEC=4 -DWPT=2\n" +
      seed_device().identity_text();
  return text;
}

}  // namespace tilecl::fuzz
