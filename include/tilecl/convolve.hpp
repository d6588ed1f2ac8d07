// 2-D filters over row-major images: any filter (convolve2d), separable filters, box and Gaussian blurs.
// Units, events, errors and thread-safety as for every op: tilecl.hpp.
//
// Conventions shared by every op here:
// - T is std::uint8_t or float. Sums are formed in float; std::uint8_t results are rounded to nearest (ties to
//   even) and saturated to 0..255 -- unless the options ask for OpenCV's arithmetic (Arithmetic::OpenCV, below).
// - Images have `channels` interleaved channels (1, 3 or 4), each filtered alike. An image is `height` rows of
//   width * channels elements; row r starts at buffer[offset + r * pitch], pitch >= width * channels, in
//   elements of T. src and dst must not overlap, nor dst and the filter taps (CL_MEM_COPY_OVERLAP; filtering
//   in place needs a copy).
// - Filters are correlations with the anchor at the centre, as OpenCV's filter2D computes them:
//   dst(x, y) = sum f(j, i) * src(x + i - rx, y + j - ry) for a filter of (2 rx + 1) x (2 ry + 1) taps (flip the
//   filter for a mathematical convolution). Filter sizes are odd: 1, 3, 5, ...; radius 0 is allowed.
// - Filters are float taps in device buffers at an element offset, like every other operand: a call neither
//   transfers from the host nor waits for it, and a filter computed on the device needs no round trip. (From
//   host data: cl::Buffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, taps.data()).) The taps
//   are read through the device's constant memory, so their total size must fit
//   CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE (64 KiB on most GPUs: a 127 x 127 filter).
// - FilterOptions say what is read outside the image and how bytes are computed. A Border converts to it, so
//   `Border::Mirror` can be passed where FilterOptions are expected. Every border rule stays exact when the
//   filter is larger than the image.
// - width or height 0 enqueues nothing and returns a null event; channels, options and filter sizes are still
//   checked, buffers are not (they may be null). Bad arguments raise tilecl::Error naming the argument.
//
// Arithmetic::OpenCV on std::uint8_t images gives OpenCV 4.6's results bit for bit (tested against OpenCV
// itself): gaussian_blur as cv::GaussianBlur (8-bit fixed-point taps), box_blur as cv::blur, convolve2d as
// cv::filter2D (filters of fewer than 130 taps: OpenCV filters larger ones through a DFT). separable_filter has
// no OpenCV counterpart and refuses it. Float images compute as with Arithmetic::Float.
#pragma once

#include <CL/opencl.hpp>
#include <cstddef>
#include <optional>
#include <vector>

#include "tilecl/element_types.hpp"
#include "tilecl/types.hpp"

namespace tilecl {

// The border rule and its constant, and the arithmetic on bytes.
struct FilterOptions {
  // Implicit: a Border alone is a complete set of options.
  FilterOptions(Border border_rule, double value = 0.0, Arithmetic arithmetic_kind = Arithmetic::Float)
      : border(border_rule), border_value(value), arithmetic(arithmetic_kind) {}

  Border border;
  // The value read outside the image under Border::Constant, in the element's units (finite; std::uint8_t
  // images round it to nearest and saturate it to 0..255, as OpenCV's saturate_cast does). Other rules ignore it.
  double border_value;
  Arithmetic arithmetic;
};

// dst = src correlated with the filter_width x filter_height filter (row-major floats at
// filter[filter_offset...]). Both sizes odd. OpenCV: cv::filter2D with the anchor at the centre and delta 0.
template <typename T>
detail::ImageEvent<T> convolve2d(cl::CommandQueue& queue, std::size_t width, std::size_t height, std::size_t channels,
                                 const cl::Buffer& src, std::size_t src_offset, std::size_t src_pitch, cl::Buffer& dst,
                                 std::size_t dst_offset, std::size_t dst_pitch, const cl::Buffer& filter,
                                 std::size_t filter_offset, std::size_t filter_width, std::size_t filter_height,
                                 const FilterOptions& options, const std::vector<cl::Event>* wait = nullptr);

// dst = src correlated with the filter col(j) * row(i): row_filter has row_filter_length (odd) taps along x,
// column_filter column_filter_length (odd) taps along y. Computed in one fused pass or two passes through a
// workspace of width * channels * height floats kept between calls, as tuning decides. OpenCV:
// cv::sepFilter2D (in float: Arithmetic::OpenCV is refused).
template <typename T>
detail::ImageEvent<T> separable_filter(cl::CommandQueue& queue, std::size_t width, std::size_t height,
                                       std::size_t channels, const cl::Buffer& src, std::size_t src_offset,
                                       std::size_t src_pitch, cl::Buffer& dst, std::size_t dst_offset,
                                       std::size_t dst_pitch, const cl::Buffer& row_filter,
                                       std::size_t row_filter_offset, std::size_t row_filter_length,
                                       const cl::Buffer& column_filter, std::size_t column_filter_offset,
                                       std::size_t column_filter_length, const FilterOptions& options,
                                       const std::vector<cl::Event>* wait = nullptr);

// Mean over the (2 radius_x + 1) x (2 radius_y + 1) neighbourhood: OpenCV's blur with ksize
// (2 radius_x + 1, 2 radius_y + 1).
template <typename T>
detail::ImageEvent<T> box_blur(cl::CommandQueue& queue, std::size_t width, std::size_t height, std::size_t channels,
                               const cl::Buffer& src, std::size_t src_offset, std::size_t src_pitch, cl::Buffer& dst,
                               std::size_t dst_offset, std::size_t dst_pitch, std::size_t radius_x,
                               std::size_t radius_y, const FilterOptions& options,
                               const std::vector<cl::Event>* wait = nullptr);

// cv::GaussianBlur's parameters: the kernel size (odd; 0 derives it from sigma) and the sigmas.
//   width, height: 0 derives each from its sigma as OpenCV does: 2 * round(3 sigma) + 1 for std::uint8_t,
//                  2 * round(4 sigma) + 1 for float (made odd);
//   sigma_x:       > 0, or 0 to derive it from width: 0.3 * ((width - 1) / 2 - 1) + 0.8 (OpenCV's rule; sizes 1,
//                  3, 5, 7 then take OpenCV's fixed binomial-like taps);
//   sigma_y:       0 takes sigma_x (and the sizes' rule when both are 0).
// Taps: exp(-x^2 / (2 sigma^2)) for x in [-(size - 1) / 2, (size - 1) / 2], normalised to sum 1 (in double;
// Arithmetic::OpenCV on bytes: OpenCV's 8-bit fixed-point taps). A positive sigma too small to matter (say
// 1e-200) gives its limit, a single tap of 1: a copy.
struct GaussianKernel {
  std::size_t width = 0;
  std::size_t height = 0;
  double sigma_x = 0.0;
  double sigma_y = 0.0;
};

// Gaussian blur in OpenCV's terms (cv::GaussianBlur(src, dst, ksize, sigmaX, sigmaY, border)).
template <typename T>
detail::ImageEvent<T> gaussian_blur(cl::CommandQueue& queue, std::size_t width, std::size_t height,
                                    std::size_t channels, const cl::Buffer& src, std::size_t src_offset,
                                    std::size_t src_pitch, cl::Buffer& dst, std::size_t dst_offset,
                                    std::size_t dst_pitch, const GaussianKernel& kernel, const FilterOptions& options,
                                    const std::vector<cl::Event>* wait = nullptr);

// Gaussian blur with one sigma and a radius (the form before GaussianKernel; kept): taps exp(-d^2 / (2 sigma^2))
// for d in [-radius, radius], normalised to sum 1, in both directions. sigma > 0; radius defaults to
// ceil(3 sigma) (at least 1), which keeps 99.7% of the weight. Taps are built on the host once per (context,
// taps) and kept on the device.
template <typename T>
detail::ImageEvent<T> gaussian_blur(cl::CommandQueue& queue, std::size_t width, std::size_t height,
                                    std::size_t channels, const cl::Buffer& src, std::size_t src_offset,
                                    std::size_t src_pitch, cl::Buffer& dst, std::size_t dst_offset,
                                    std::size_t dst_pitch, double sigma, const FilterOptions& options,
                                    std::optional<std::size_t> radius = std::nullopt,
                                    const std::vector<cl::Event>* wait = nullptr);

}  // namespace tilecl
