// The four image filters on a DeviceSet: each describes its single-device call to the band driver
// (image_bands.hpp): its vertical radius, its argument check (an empty call of the op) and its band filter.
#include <algorithm>
#include <cmath>
#include <cstdint>

#include "multi_device/image_bands.hpp"
#include "tilecl/convolve.hpp"
#include "tilecl/error.hpp"
#include "tilecl/multi_device.hpp"

namespace tilecl {

namespace {

using detail::BandFilter;
using detail::Events;
using detail::FilterOp;

template <typename T>
detail::HostImages host_images(std::size_t width, std::size_t height, std::size_t channels, const T* src,
                               std::size_t src_pitch, T* dst, std::size_t dst_pitch, const FrameBatch& frames) {
  return {width, height, channels, sizeof(T), src, src_pitch, dst, dst_pitch, frames};
}

const std::vector<cl::Event>* wait_list(const Events& wait) { return wait.empty() ? nullptr : &wait; }

// Filter taps in a device buffer of the entry's context (the ops read taps from device buffers).
cl::Buffer device_taps(const DeviceSet::Entry& entry, const std::vector<float>& taps) {
  return cl::Buffer(entry.context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                    std::max<std::size_t>(taps.size(), 1) * sizeof(float), const_cast<float*>(taps.data()));
}

}  // namespace

template <typename T>
void convolve2d(DeviceSet& devices, std::size_t width, std::size_t height, std::size_t channels, const T* src,
                std::size_t src_pitch, T* dst, std::size_t dst_pitch, const std::vector<float>& filter,
                std::size_t filter_width, std::size_t filter_height, Border border, const FrameBatch& frames) {
  const FilterOp op{"convolve2d", filter_height / 2, border,
                    [&](cl::CommandQueue& queue) {
                      cl::Buffer none;
                      tilecl::convolve2d<T>(queue, 0, 0, channels, none, 0, 0, none, 0, 0, none, 0, filter_width,
                                            filter_height, border);
                      // The sizes are odd and bounded now: their product cannot overflow.
                      if (filter.size() != filter_width * filter_height)
                        throw Error("convolve2d", "filter", CL_INVALID_BUFFER_SIZE,
                                    std::to_string(filter.size()) + " taps for a " + std::to_string(filter_width) +
                                        " x " + std::to_string(filter_height) + " filter");
                    },
                    [&](DeviceSet::Entry& entry) -> BandFilter {
                      cl::Buffer taps = device_taps(entry, filter);
                      return [=](cl::CommandQueue& queue, std::size_t rows, const cl::Buffer& in, cl::Buffer& out,
                                 std::size_t pitch, const Events& wait) {
                        return tilecl::convolve2d<T>(queue, width, rows, channels, in, 0, pitch, out, 0, pitch, taps, 0,
                                                     filter_width, filter_height, border, wait_list(wait));
                      };
                    }};
  detail::filter_in_bands(devices, host_images(width, height, channels, src, src_pitch, dst, dst_pitch, frames), op);
}

template <typename T>
void separable_filter(DeviceSet& devices, std::size_t width, std::size_t height, std::size_t channels, const T* src,
                      std::size_t src_pitch, T* dst, std::size_t dst_pitch, const std::vector<float>& row_filter,
                      const std::vector<float>& column_filter, Border border, const FrameBatch& frames) {
  const std::size_t row_length = row_filter.size(), column_length = column_filter.size();
  const FilterOp op{"separable_filter", column_length / 2, border,
                    [&](cl::CommandQueue& queue) {
                      cl::Buffer none;
                      tilecl::separable_filter<T>(queue, 0, 0, channels, none, 0, 0, none, 0, 0, none, 0, row_length,
                                                  none, 0, column_length, border);
                    },
                    [&](DeviceSet::Entry& entry) -> BandFilter {
                      cl::Buffer row_taps = device_taps(entry, row_filter);
                      cl::Buffer column_taps = device_taps(entry, column_filter);
                      return [=](cl::CommandQueue& queue, std::size_t rows, const cl::Buffer& in, cl::Buffer& out,
                                 std::size_t pitch, const Events& wait) {
                        return tilecl::separable_filter<T>(queue, width, rows, channels, in, 0, pitch, out, 0, pitch,
                                                           row_taps, 0, row_length, column_taps, 0, column_length,
                                                           border, wait_list(wait));
                      };
                    }};
  detail::filter_in_bands(devices, host_images(width, height, channels, src, src_pitch, dst, dst_pitch, frames), op);
}

template <typename T>
void box_blur(DeviceSet& devices, std::size_t width, std::size_t height, std::size_t channels, const T* src,
              std::size_t src_pitch, T* dst, std::size_t dst_pitch, std::size_t radius_x, std::size_t radius_y,
              Border border, const FrameBatch& frames) {
  const FilterOp op{"box_blur", radius_y, border,
                    [&](cl::CommandQueue& queue) {
                      cl::Buffer none;
                      tilecl::box_blur<T>(queue, 0, 0, channels, none, 0, 0, none, 0, 0, radius_x, radius_y, border);
                    },
                    [&](DeviceSet::Entry&) -> BandFilter {
                      return [=](cl::CommandQueue& queue, std::size_t rows, const cl::Buffer& in, cl::Buffer& out,
                                 std::size_t pitch, const Events& wait) {
                        return tilecl::box_blur<T>(queue, width, rows, channels, in, 0, pitch, out, 0, pitch, radius_x,
                                                   radius_y, border, wait_list(wait));
                      };
                    }};
  detail::filter_in_bands(devices, host_images(width, height, channels, src, src_pitch, dst, dst_pitch, frames), op);
}

template <typename T>
void gaussian_blur(DeviceSet& devices, std::size_t width, std::size_t height, std::size_t channels, const T* src,
                   std::size_t src_pitch, T* dst, std::size_t dst_pitch, double sigma, Border border,
                   std::optional<std::size_t> radius, const FrameBatch& frames) {
  const auto check = [&](cl::CommandQueue& queue) {
    cl::Buffer none;
    tilecl::gaussian_blur<T>(queue, 0, 0, channels, none, 0, 0, none, 0, 0, sigma, border, radius);
  };
  // The op refuses a sigma (NaN, too large) before the halo is derived from it.
  for (std::size_t i = 0; i < devices.size(); ++i) check(devices.queue(i));
  const std::size_t r = radius.value_or(static_cast<std::size_t>(std::max(1.0, std::ceil(3.0 * sigma))));
  const FilterOp op{"gaussian_blur", r, border, check, [&](DeviceSet::Entry&) -> BandFilter {
                      return [=](cl::CommandQueue& queue, std::size_t rows, const cl::Buffer& in, cl::Buffer& out,
                                 std::size_t pitch, const Events& wait) {
                        return tilecl::gaussian_blur<T>(queue, width, rows, channels, in, 0, pitch, out, 0, pitch,
                                                        sigma, border, r, wait_list(wait));
                      };
                    }};
  detail::filter_in_bands(devices, host_images(width, height, channels, src, src_pitch, dst, dst_pitch, frames), op);
}

// Pointer types as templates, so that the macro's T stays inside angle brackets.
template <typename U>
using PointerTo = U*;

#define TILECL_INSTANTIATE(T)                                                                                         \
  template void convolve2d<T>(DeviceSet&, std::size_t, std::size_t, std::size_t, PointerTo<const T>, std::size_t,     \
                              PointerTo<T>, std::size_t, const std::vector<float>&, std::size_t, std::size_t, Border, \
                              const FrameBatch&);                                                                     \
  template void separable_filter<T>(DeviceSet&, std::size_t, std::size_t, std::size_t, PointerTo<const T>,            \
                                    std::size_t, PointerTo<T>, std::size_t, const std::vector<float>&,                \
                                    const std::vector<float>&, Border, const FrameBatch&);                            \
  template void box_blur<T>(DeviceSet&, std::size_t, std::size_t, std::size_t, PointerTo<const T>, std::size_t,       \
                            PointerTo<T>, std::size_t, std::size_t, std::size_t, Border, const FrameBatch&);          \
  template void gaussian_blur<T>(DeviceSet&, std::size_t, std::size_t, std::size_t, PointerTo<const T>, std::size_t,  \
                                 PointerTo<T>, std::size_t, double, Border, std::optional<std::size_t>,               \
                                 const FrameBatch&);
TILECL_INSTANTIATE(std::uint8_t)
TILECL_INSTANTIATE(float)
#undef TILECL_INSTANTIATE

}  // namespace tilecl
