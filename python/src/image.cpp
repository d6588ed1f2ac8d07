// rgb_to_gray and the 2-D filters on images given as handles. An image travels as (width, height, channels)
// plus, per image, (buffer, offset, pitch) in elements, as in tilecl's headers; borders are tilecl::Border's
// enumerator values. The GIL is released while tilecl validates and enqueues.
#include <nanobind/nanobind.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <cstdint>
#include <optional>
#include <tuple>

#include "bindings.hpp"
#include "handles.hpp"
#include "tilecl/color.hpp"
#include "tilecl/convolve.hpp"

namespace nb = nanobind;

namespace tilecl::python {
namespace {

// (buffer, element offset, pitch in elements)
using ImagePlace = std::tuple<Handle, std::size_t, std::size_t>;
// (width, height, channels)
using ImageSize = std::tuple<std::size_t, std::size_t, std::size_t>;
// (buffer, element offset, width, height): filter taps
using Taps = std::tuple<Handle, std::size_t, std::size_t, std::size_t>;

Handle rgb_to_gray_call(const std::string& dtype, Handle queue, std::size_t width, std::size_t height,
                        const ImagePlace& src, const ImagePlace& dst, const std::tuple<float, float, float>& weights,
                        const HandleList& wait) {
  return with_dtype<std::uint8_t, float>("rgb_to_gray", dtype, [&](auto type) {
    cl::CommandQueue command_queue = queue_from(queue);
    cl::Buffer out = buffer_from(std::get<0>(dst));
    const GrayWeights gray{std::get<0>(weights), std::get<1>(weights), std::get<2>(weights)};
    return hand_over(rgb_to_gray<decltype(type)>(command_queue, width, height, buffer_from(std::get<0>(src)),
                                                 std::get<1>(src), std::get<2>(src), out, std::get<1>(dst),
                                                 std::get<2>(dst), gray, WaitList(wait).get()));
  });
}

// Calls filter(T{}, wait, queue, width, height, channels, src, src_offset, src_pitch, dst, dst_offset, dst_pitch)
// for the dtype: what every filter shares, so each binding below adds only its own arguments (and `wait` last).
template <typename Filter>
Handle call_filter(const char* op, const std::string& dtype, Handle queue, const ImageSize& size, const ImagePlace& src,
                   const ImagePlace& dst, const HandleList& wait, Filter&& filter) {
  return with_dtype<std::uint8_t, float>(op, dtype, [&](auto type) {
    cl::CommandQueue command_queue = queue_from(queue);
    cl::Buffer out = buffer_from(std::get<0>(dst));
    const auto [width, height, channels] = size;
    const WaitList waits(wait);
    return hand_over(filter(type, waits.get(), command_queue, width, height, channels, buffer_from(std::get<0>(src)),
                            std::get<1>(src), std::get<2>(src), out, std::get<1>(dst), std::get<2>(dst)));
  });
}

Handle convolve2d_call(const std::string& dtype, Handle queue, const ImageSize& size, const ImagePlace& src,
                       const ImagePlace& dst, const Taps& taps, int border, const HandleList& wait) {
  return call_filter("convolve2d", dtype, queue, size, src, dst, wait, [&](auto type, auto waits, auto&&... image) {
    const auto [filter, filter_offset, filter_width, filter_height] = taps;
    return convolve2d<decltype(type)>(image..., buffer_from(filter), filter_offset, filter_width, filter_height,
                                      static_cast<Border>(border), waits);
  });
}

Handle separable_filter_call(const std::string& dtype, Handle queue, const ImageSize& size, const ImagePlace& src,
                             const ImagePlace& dst, const Taps& row, const Taps& column, int border,
                             const HandleList& wait) {
  return call_filter(
      "separable_filter", dtype, queue, size, src, dst, wait, [&](auto type, auto waits, auto&&... image) {
        return separable_filter<decltype(type)>(image..., buffer_from(std::get<0>(row)), std::get<1>(row),
                                                std::get<2>(row), buffer_from(std::get<0>(column)), std::get<1>(column),
                                                std::get<2>(column), static_cast<Border>(border), waits);
      });
}

Handle box_blur_call(const std::string& dtype, Handle queue, const ImageSize& size, const ImagePlace& src,
                     const ImagePlace& dst, std::size_t radius_x, std::size_t radius_y, int border,
                     const HandleList& wait) {
  return call_filter("box_blur", dtype, queue, size, src, dst, wait, [&](auto type, auto waits, auto&&... image) {
    return box_blur<decltype(type)>(image..., radius_x, radius_y, static_cast<Border>(border), waits);
  });
}

Handle gaussian_blur_call(const std::string& dtype, Handle queue, const ImageSize& size, const ImagePlace& src,
                          const ImagePlace& dst, double sigma, int border, std::optional<std::size_t> radius,
                          const HandleList& wait) {
  return call_filter("gaussian_blur", dtype, queue, size, src, dst, wait, [&](auto type, auto waits, auto&&... image) {
    return gaussian_blur<decltype(type)>(image..., sigma, static_cast<Border>(border), radius, waits);
  });
}

}  // namespace

void bind_image(nb::module_& module) {
  const auto release = nb::call_guard<nb::gil_scoped_release>();
  module.def("rgb_to_gray", &rgb_to_gray_call, release);
  module.def("convolve2d", &convolve2d_call, release);
  module.def("separable_filter", &separable_filter_call, release);
  module.def("box_blur", &box_blur_call, release);
  module.def("gaussian_blur", &gaussian_blur_call, release);
}

}  // namespace tilecl::python
