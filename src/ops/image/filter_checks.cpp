#include "ops/image/filter_checks.hpp"

#include "ops/image/image_common.hpp"
#include "ops/image/taps.hpp"
#include "tilecl/error.hpp"

namespace tilecl::detail {

void check_channels(const std::string& op, std::uint64_t channels) {
  if (channels != 1 && channels != 3 && channels != 4)
    throw Error(op, "channels", CL_INVALID_VALUE,
                std::to_string(channels) + " channels: 1 (gray), 3 (RGB, BGR) and 4 (RGBA, BGRA) are supported");
}

int radius_of_length(const std::string& op, const std::string& argument, std::uint64_t length) {
  if (length == 0) throw Error(op, argument, CL_INVALID_VALUE, "the filter is empty (0 taps)");
  if (length % 2 == 0)
    throw Error(op, argument, CL_INVALID_VALUE,
                std::to_string(length) + " taps: filter sizes must be odd (the anchor is the centre tap)");
  if (length > 2 * kMaxRadius + 1)
    throw Error(op, argument, CL_INVALID_VALUE,
                std::to_string(length) + " taps: at most " + std::to_string(2 * kMaxRadius + 1) + " are supported");
  return static_cast<int>(length / 2);
}

int checked_radius(const std::string& op, const std::string& argument, std::uint64_t radius) {
  if (radius > kMaxRadius)
    throw Error(op, argument, CL_INVALID_VALUE,
                "radius " + std::to_string(radius) + " is larger than the supported " + std::to_string(kMaxRadius));
  return static_cast<int>(radius);
}

void validate_images(const std::string& op, const QueueTarget& target, const DTypeInfo& dtype,
                     const FilterProblem& problem, const ImageOperands& image) {
  const std::uint64_t row_elements = checked_multiply(op, "width", problem.width, problem.shape.channels);
  check_kernel_extent(op, "width", row_elements);
  check_kernel_extent(op, "height", problem.height);
  check_image(op, "src", *image.src, target.context, image.src_offset, image.src_pitch, row_elements, problem.height,
              dtype.size);
  check_image(op, "dst", *image.dst, target.context, image.dst_offset, image.dst_pitch, row_elements, problem.height,
              dtype.size);
  check_no_overlap(op, "src", *image.src, image.src_offset, image_extent(image.src_pitch, row_elements, problem.height),
                   "dst", *image.dst, image.dst_offset, image_extent(image.dst_pitch, row_elements, problem.height),
                   dtype.size);
}

}  // namespace tilecl::detail
