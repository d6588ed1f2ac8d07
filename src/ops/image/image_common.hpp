// What the image ops (color, convolve) share: image operand validation, the launch-only work-group
// parameters of their non-tiled kernels, shape buckets by image area, shape text, and result comparison for
// their tuning subjects.
#pragma once

#include <CL/opencl.hpp>
#include <cstdint>
#include <string>
#include <vector>

#include "tuning/search_space.hpp"

namespace tilecl::detail {

// The configuration's value of `name`, or `fallback` when it has none (a variant without that parameter).
std::int64_t config_value(const Config& config, const char* name, std::int64_t fallback);

// Elements an image of `height` rows of `row_elements` spans at `pitch`: pitch * (height - 1) + row_elements.
std::uint64_t image_extent(std::uint64_t pitch, std::uint64_t row_elements, std::uint64_t height);

// One image operand (called `name`, its pitch `name` + "_pitch"): the pitch holds a row and fits the kernels'
// 32-bit indexing, and the buffer is valid, of the queue's context and holds the image from `offset`.
void check_image(const std::string& op, const std::string& name, const cl::Buffer& buffer, const cl::Context& context,
                 std::uint64_t offset, std::uint64_t pitch, std::uint64_t row_elements, std::uint64_t height,
                 std::size_t element_size);

// The launch-only work-group size (WG_X, WG_Y) of the non-tiled image kernels: WG_X = 0 lets the driver
// choose (then WG_Y is 1).
std::vector<Parameter> work_group_parameters();
Constraint work_group_fits();

// The launch of a non-tiled image kernel over items_x x items_y work-items with a (WG_X, WG_Y) work-group (WG_X = 0:
// the driver chooses the group). The group is fitted to the call: while half its width still covers a row's
// work-items it is halved, and its height doubled (up to 64 rows) while the call keeps 64 groups along y for the
// device's cores. PoCL runs a work-group as a loop over its items, idle ones included: a
// 59x1518x3 1x9 filter on bytes took 1.0 ms in the CPU default's 128 x 1 groups (12 items with work) and 0.6 ms in
// 16 x 8 ones (AMD EPYC, 2 cores; OpenCV 0.19 ms). The group's size never grows, so a configuration that fits the
// device fits after the fit.
struct LaunchGeometry {
  cl::NDRange global, local;
  std::size_t group_items = 0;  // 0: the driver chooses
};
LaunchGeometry fitted_flat_launch(std::int64_t wg_x, std::int64_t wg_y, std::uint64_t items_x, std::uint64_t items_y);
// (WG_X, WG_Y) of at most `items` work-items (and the device's limit), WG_X = min(preferred_x, that).
Values work_group_default(std::int64_t preferred_x, std::int64_t items, std::size_t device_limit);

// Shape buckets by image area (pixels): at most 2^16, 2^20, 2^23, and larger; each with the image timed
// when tuning it.
struct AreaClass {
  const char* name;  // "px<=2^16"
  std::uint64_t width, height;
};
AreaClass area_class(std::uint64_t pixels);

// "7680x4320" or "7680x4320x3" -> width, height, channels (1 when not given). Throws tilecl::Error.
struct ImageSize {
  std::uint64_t width = 0, height = 0, channels = 1;
};
ImageSize parse_image_size(const std::string& op, const std::string& text, bool allow_channels);

// One verification problem of an image op's tuning subject: an image placed at offsets and pitches in scratch
// buffers, the initial (poisoned) output and the expected output.
template <typename T>
struct ImageCheck {
  ImageCheck(std::uint64_t width_, std::uint64_t height_, std::uint64_t src_pitch_, std::uint64_t dst_pitch_,
             std::uint64_t src_offset_, std::uint64_t dst_offset_)
      : width(width_),
        height(height_),
        src_pitch(src_pitch_),
        dst_pitch(dst_pitch_),
        src_offset(src_offset_),
        dst_offset(dst_offset_) {}
  std::uint64_t width, height, src_pitch, dst_pitch, src_offset, dst_offset;
  cl::Buffer src, dst;
  std::vector<T> initial;
  std::vector<double> expected;
};

// Compares a whole output buffer with the exact expected values (elements outside the image keep their
// initial values, which `expected` holds too). Floats: within tolerance * (1 + |expected|); bytes: within
// 0.5 + tolerance of the expected value saturated to 0..255 (correct rounding). Empty when all match, else the
// first difference.
template <typename T>
std::string compare_image(const std::vector<T>& got, const std::vector<double>& expected, double tolerance);

}  // namespace tilecl::detail
