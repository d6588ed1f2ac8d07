// 2-D filters over row-major images: any filter (convolve2d), separable filters, box and Gaussian blurs.
// Units, events, errors and thread-safety as for every op: tilecl.hpp.
//
// Conventions shared by every op here:
// - T is std::uint8_t or float. Sums are formed in float; std::uint8_t results are rounded to nearest (ties to
//   even) and saturated to 0..255.
// - Images have `channels` interleaved channels (1, or 3 for RGB), each filtered alike. An image is `height`
//   rows of width * channels elements; row r starts at buffer[offset + r * pitch], pitch >= width * channels,
//   in elements of T. src and dst must not overlap, nor dst and the filter taps (CL_MEM_COPY_OVERLAP; filtering
//   in place needs a copy).
// - Filters are correlations with the anchor at the centre, as OpenCV's filter2D computes them:
//   dst(x, y) = sum f(j, i) * src(x + i - rx, y + j - ry) for a filter of (2 rx + 1) x (2 ry + 1) taps (flip the
//   filter for a mathematical convolution). Filter sizes are odd: 1, 3, 5, ...; radius 0 is allowed.
// - Filters are float taps in device buffers at an element offset, like every other operand: a call neither
//   transfers from the host nor waits for it, and a filter computed on the device needs no round trip. (From
//   host data: cl::Buffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, taps.data()).) The taps
//   are read through the device's constant memory, so their total size must fit
//   CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE (64 KiB on most GPUs: a 127 x 127 filter).
// - `border` says what is read outside the image (types.hpp): Zero, Clamp, Mirror (reflect-101), Wrap. All
//   four stay exact when the filter is larger than the image.
// - width or height 0 enqueues nothing and returns a null event; channels, border and filter sizes are still
//   checked, buffers are not (they may be null).
//   Bad arguments raise tilecl::Error naming the argument.
#pragma once

#include <CL/opencl.hpp>
#include <cstddef>
#include <optional>
#include <vector>

#include "tilecl/element_types.hpp"
#include "tilecl/types.hpp"

namespace tilecl {

// dst = src correlated with the filter_width x filter_height filter (row-major floats at
// filter[filter_offset...]). Both sizes odd.
template <typename T>
detail::ImageEvent<T> convolve2d(cl::CommandQueue& queue, std::size_t width, std::size_t height, std::size_t channels,
                                 const cl::Buffer& src, std::size_t src_offset, std::size_t src_pitch, cl::Buffer& dst,
                                 std::size_t dst_offset, std::size_t dst_pitch, const cl::Buffer& filter,
                                 std::size_t filter_offset, std::size_t filter_width, std::size_t filter_height,
                                 Border border, const std::vector<cl::Event>* wait = nullptr);

// dst = src correlated with the filter col(j) * row(i): row_filter has row_filter_length (odd) taps along x,
// column_filter column_filter_length (odd) taps along y. Computed in one fused pass or two passes through a
// workspace of width * channels * height floats kept between calls, as tuning decides.
template <typename T>
detail::ImageEvent<T> separable_filter(cl::CommandQueue& queue, std::size_t width, std::size_t height,
                                       std::size_t channels, const cl::Buffer& src, std::size_t src_offset,
                                       std::size_t src_pitch, cl::Buffer& dst, std::size_t dst_offset,
                                       std::size_t dst_pitch, const cl::Buffer& row_filter,
                                       std::size_t row_filter_offset, std::size_t row_filter_length,
                                       const cl::Buffer& column_filter, std::size_t column_filter_offset,
                                       std::size_t column_filter_length, Border border,
                                       const std::vector<cl::Event>* wait = nullptr);

// Mean over the (2 radius_x + 1) x (2 radius_y + 1) neighbourhood (OpenCV's blur with ksize 2r + 1).
template <typename T>
detail::ImageEvent<T> box_blur(cl::CommandQueue& queue, std::size_t width, std::size_t height, std::size_t channels,
                               const cl::Buffer& src, std::size_t src_offset, std::size_t src_pitch, cl::Buffer& dst,
                               std::size_t dst_offset, std::size_t dst_pitch, std::size_t radius_x,
                               std::size_t radius_y, Border border, const std::vector<cl::Event>* wait = nullptr);

// Gaussian blur: taps exp(-d^2 / (2 sigma^2)) for d in [-radius, radius], normalised to sum 1, in both
// directions. sigma > 0; radius defaults to ceil(3 sigma) (at least 1), which keeps 99.7% of the weight.
// The taps are built on the host once per (context, sigma, radius) and kept on the device.
template <typename T>
detail::ImageEvent<T> gaussian_blur(cl::CommandQueue& queue, std::size_t width, std::size_t height,
                                    std::size_t channels, const cl::Buffer& src, std::size_t src_offset,
                                    std::size_t src_pitch, cl::Buffer& dst, std::size_t dst_offset,
                                    std::size_t dst_pitch, double sigma, Border border,
                                    std::optional<std::size_t> radius = std::nullopt,
                                    const std::vector<cl::Event>* wait = nullptr);

}  // namespace tilecl
