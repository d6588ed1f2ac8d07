// C API: rgb_to_gray, convolve2d, separable_filter, box_blur, gaussian_blur (include/tilecl/tilecl.h).
#include <cstdint>
#include <optional>

#include "c_api/call.hpp"
#include "tilecl/color.hpp"
#include "tilecl/convolve.hpp"

static_assert(TILECL_BORDER_ZERO == static_cast<int>(tilecl::Border::Zero) &&
                  TILECL_BORDER_CLAMP == static_cast<int>(tilecl::Border::Clamp) &&
                  TILECL_BORDER_MIRROR == static_cast<int>(tilecl::Border::Mirror) &&
                  TILECL_BORDER_WRAP == static_cast<int>(tilecl::Border::Wrap) &&
                  TILECL_BORDER_REFLECT == static_cast<int>(tilecl::Border::Reflect),
              "tilecl_border and tilecl::Border must list the same borders in the same order");

namespace tilecl::c_api {
namespace {

// An image op's geometry and its source and destination.
struct Images {
  size_t width, height, channels;
  cl_mem src;
  size_t src_offset, src_pitch;
  cl_mem dst;
  size_t dst_offset, dst_pitch;
};

// enqueue() for an image op: filter(q, src, dst, wait) calls the C++ op with the two buffers.
template <typename Filter>
tilecl_status filter_image(const char* op, cl_command_queue queue, const Images& images, const Events& events,
                           Filter&& filter) {
  return enqueue(op, queue, events, [&](cl::CommandQueue& q, const std::vector<cl::Event>* wait) {
    cl::Buffer dst = buffer(op, "dst", images.dst);
    return filter(q, buffer(op, "src", images.src), dst, wait);
  });
}

template <typename T>
tilecl_status rgb_to_gray(cl_command_queue queue, const Images& x, GrayWeights weights, const Events& events) {
  return filter_image(
      "rgb_to_gray", queue, x, events,
      [&](cl::CommandQueue& q, const cl::Buffer& src, cl::Buffer& dst, const std::vector<cl::Event>* wait) {
        return tilecl::rgb_to_gray<T>(q, x.width, x.height, src, x.src_offset, x.src_pitch, dst, x.dst_offset,
                                      x.dst_pitch, weights, wait);
      });
}

template <typename T>
tilecl_status convolve2d(cl_command_queue queue, const Images& x, cl_mem filter, size_t filter_offset,
                         size_t filter_width, size_t filter_height, tilecl_border border, const Events& events) {
  return filter_image(
      "convolve2d", queue, x, events,
      [&](cl::CommandQueue& q, const cl::Buffer& src, cl::Buffer& dst, const std::vector<cl::Event>* wait) {
        return tilecl::convolve2d<T>(q, x.width, x.height, x.channels, src, x.src_offset, x.src_pitch, dst,
                                     x.dst_offset, x.dst_pitch, buffer("convolve2d", "filter", filter), filter_offset,
                                     filter_width, filter_height, static_cast<Border>(border), wait);
      });
}

// A separable filter's two tap vectors.
struct Taps {
  cl_mem row;
  size_t row_offset, row_length;
  cl_mem column;
  size_t column_offset, column_length;
};

template <typename T>
tilecl_status separable_filter(cl_command_queue queue, const Images& x, const Taps& taps, tilecl_border border,
                               const Events& events) {
  return filter_image(
      "separable_filter", queue, x, events,
      [&](cl::CommandQueue& q, const cl::Buffer& src, cl::Buffer& dst, const std::vector<cl::Event>* wait) {
        return tilecl::separable_filter<T>(q, x.width, x.height, x.channels, src, x.src_offset, x.src_pitch, dst,
                                           x.dst_offset, x.dst_pitch,
                                           buffer("separable_filter", "row_filter", taps.row), taps.row_offset,
                                           taps.row_length, buffer("separable_filter", "column_filter", taps.column),
                                           taps.column_offset, taps.column_length, static_cast<Border>(border), wait);
      });
}

template <typename T>
tilecl_status box_blur(cl_command_queue queue, const Images& x, size_t radius_x, size_t radius_y, tilecl_border border,
                       const Events& events) {
  return filter_image(
      "box_blur", queue, x, events,
      [&](cl::CommandQueue& q, const cl::Buffer& src, cl::Buffer& dst, const std::vector<cl::Event>* wait) {
        return tilecl::box_blur<T>(q, x.width, x.height, x.channels, src, x.src_offset, x.src_pitch, dst, x.dst_offset,
                                   x.dst_pitch, radius_x, radius_y, static_cast<Border>(border), wait);
      });
}

template <typename T>
tilecl_status gaussian_blur(cl_command_queue queue, const Images& x, double sigma, tilecl_border border, size_t radius,
                            const Events& events) {
  const std::optional<std::size_t> chosen_radius =
      radius == TILECL_GAUSSIAN_RADIUS_AUTO ? std::nullopt : std::optional<std::size_t>(radius);
  return filter_image(
      "gaussian_blur", queue, x, events,
      [&](cl::CommandQueue& q, const cl::Buffer& src, cl::Buffer& dst, const std::vector<cl::Event>* wait) {
        return tilecl::gaussian_blur<T>(q, x.width, x.height, x.channels, src, x.src_offset, x.src_pitch, dst,
                                        x.dst_offset, x.dst_pitch, sigma, static_cast<Border>(border), chosen_radius,
                                        wait);
      });
}

}  // namespace
}  // namespace tilecl::c_api

// The parameters every image function starts with, and the Images made of them.
#define TILECL_C_IMAGE_PARAMETERS                                                                      \
  cl_command_queue queue, size_t width, size_t height, size_t channels, cl_mem src, size_t src_offset, \
      size_t src_pitch, cl_mem dst, size_t dst_offset, size_t dst_pitch
#define TILECL_C_IMAGES \
  tilecl::c_api::Images { width, height, channels, src, src_offset, src_pitch, dst, dst_offset, dst_pitch }

#define TILECL_C_IMAGE_OPS(suffix, T)                                                                                  \
  tilecl_status tilecl_rgb_to_gray_##suffix(                                                                           \
      cl_command_queue queue, size_t width, size_t height, cl_mem src, size_t src_offset, size_t src_pitch,            \
      cl_mem dst, size_t dst_offset, size_t dst_pitch, float red, float green, float blue, TILECL_C_WAIT_PARAMETERS) { \
    const size_t channels = 3;                                                                                         \
    return tilecl::c_api::rgb_to_gray<T>(queue, TILECL_C_IMAGES, tilecl::GrayWeights{red, green, blue},                \
                                         TILECL_C_EVENTS);                                                             \
  }                                                                                                                    \
  tilecl_status tilecl_convolve2d_##suffix(TILECL_C_IMAGE_PARAMETERS, cl_mem filter, size_t filter_offset,             \
                                           size_t filter_width, size_t filter_height, tilecl_border border,            \
                                           TILECL_C_WAIT_PARAMETERS) {                                                 \
    return tilecl::c_api::convolve2d<T>(queue, TILECL_C_IMAGES, filter, filter_offset, filter_width, filter_height,    \
                                        border, TILECL_C_EVENTS);                                                      \
  }                                                                                                                    \
  tilecl_status tilecl_separable_filter_##suffix(                                                                      \
      TILECL_C_IMAGE_PARAMETERS, cl_mem row_filter, size_t row_filter_offset, size_t row_filter_length,                \
      cl_mem column_filter, size_t column_filter_offset, size_t column_filter_length, tilecl_border border,            \
      TILECL_C_WAIT_PARAMETERS) {                                                                                      \
    return tilecl::c_api::separable_filter<T>(                                                                         \
        queue, TILECL_C_IMAGES,                                                                                        \
        {row_filter, row_filter_offset, row_filter_length, column_filter, column_filter_offset, column_filter_length}, \
        border, TILECL_C_EVENTS);                                                                                      \
  }                                                                                                                    \
  tilecl_status tilecl_box_blur_##suffix(TILECL_C_IMAGE_PARAMETERS, size_t radius_x, size_t radius_y,                  \
                                         tilecl_border border, TILECL_C_WAIT_PARAMETERS) {                             \
    return tilecl::c_api::box_blur<T>(queue, TILECL_C_IMAGES, radius_x, radius_y, border, TILECL_C_EVENTS);            \
  }                                                                                                                    \
  tilecl_status tilecl_gaussian_blur_##suffix(TILECL_C_IMAGE_PARAMETERS, double sigma, tilecl_border border,           \
                                              size_t radius, TILECL_C_WAIT_PARAMETERS) {                               \
    return tilecl::c_api::gaussian_blur<T>(queue, TILECL_C_IMAGES, sigma, border, radius, TILECL_C_EVENTS);            \
  }

extern "C" {
TILECL_C_IMAGE_OPS(u8, std::uint8_t)
TILECL_C_IMAGE_OPS(f32, float)
}
