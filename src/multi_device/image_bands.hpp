// The image filters on a DeviceSet: the rows of all frames in shares over the devices, each device's share cut
// into pieces at frame boundaries (and into pieces_per_device pieces), each piece filtered as an extended band
// (halo_rows.hpp) by the single-device op and its own rows downloaded.
#pragma once

#include <CL/opencl.hpp>
#include <cstddef>
#include <functional>

#include "multi_device/pipeline.hpp"
#include "tilecl/multi_device.hpp"

namespace tilecl::detail {

// Host frames of one call, element sizes in bytes, pitches and strides in elements.
struct HostImages {
  std::size_t width = 0, height = 0, channels = 0, element_size = 0;
  const void* src = nullptr;
  std::size_t src_pitch = 0;
  void* dst = nullptr;
  std::size_t dst_pitch = 0;
  FrameBatch frames;  // strides resolved (never 0 for more than one frame)
};

// Enqueues the single-device op over `height` rows of width * channels elements of `src` (row pitch `pitch`)
// into `dst` (same pitch) on `queue`, after `wait`, and returns its event.
using BandFilter = std::function<cl::Event(cl::CommandQueue& queue, std::size_t height, const cl::Buffer& src,
                                           cl::Buffer& dst, std::size_t pitch, const Events& wait)>;

// What the driver needs to know of an op.
struct FilterOp {
  const char* name;
  std::size_t halo;  // the filter's vertical radius
  Border border;
  // Checks the op's own arguments on a device the way the op does (an empty call), enqueuing nothing.
  std::function<void(cl::CommandQueue& queue)> check;
  // The band filter for one device (with the filter's taps uploaded to its context).
  std::function<BandFilter(DeviceSet::Entry& entry)> bind;
};

// Validates the host images (pointers, pitches, frame strides, overlap) and the op's arguments on every
// device, then filters every frame. Returns when dst is complete.
void filter_in_bands(DeviceSet& devices, HostImages images, const FilterOp& op);

}  // namespace tilecl::detail
