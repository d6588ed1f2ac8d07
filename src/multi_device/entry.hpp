// What a DeviceSet holds per queue.
#pragma once

#include <CL/opencl.hpp>
#include <cstddef>

#include "tilecl/multi_device.hpp"

namespace tilecl {

struct DeviceSet::Entry {
  std::size_t index = 0;
  cl::CommandQueue compute;   // the caller's queue: the ops run there
  cl::CommandQueue upload;    // host to device copies, in order
  cl::CommandQueue download;  // device to host copies, in order
  cl::Context context;
  cl::Device device;
};

}  // namespace tilecl
