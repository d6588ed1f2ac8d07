// The filter ops' search space, their device-derived defaults, and configurations read into typed plans.
#pragma once

#include <cstdint>
#include <string>

#include "dtype.hpp"
#include "ops/image/filter_types.hpp"
#include "ops/image/image_common.hpp"
#include "tuning/search_space.hpp"

namespace tilecl::detail {

// Radii beyond these use the run-time radius: unrolling more taps costs compile time and gains nothing.
constexpr int kMaxFixedRadius = 16;           // separable kernels, per direction
constexpr int kMaxFixedDirectTaps = 17 * 17;  // direct vector kernel
constexpr int kMaxDirectRingFloats = 384;     // direct vector kernel's ring: (2 ry + 1) VEC floats in registers
constexpr int kMaxTiledDirectRadius = 8;      // direct tiled kernel (it unrolls all taps for WPT_Y x VEC outputs)

// The space of a shape and element type, built once per process (the reference stays valid).
const SearchSpace& convolve_search_space(const FilterShape& shape, const DTypeInfo& dtype);

// Images of at most kSmallImagePixels take a shorter tile or the two passes on GPUs.
constexpr std::uint64_t kSmallImagePixels = std::uint64_t{1} << 16;
// Larger images at most kNarrowSide pixels wide ("tall") or high ("wide") have buckets of their own: few tiles of
// the square images' default fit across them.
constexpr std::uint64_t kNarrowSide = 64;
enum class Aspect { Square, Tall, Wide };
// The aspect of a call's image (cheap: a warm call's key takes it).
Aspect filter_aspect(std::uint64_t width, std::uint64_t height);

// A filter call's image class: its area class and aspect, the bucket's suffix, and the image it is timed at (the
// area class's representative, or an image of that area kNarrowSide * 3 / 4 pixels across).
struct FilterImageClass {
  AreaClass area;
  Aspect aspect = Aspect::Square;
  std::uint64_t width = 0, height = 0;
  std::string bucket;  // "px<=2^20", "px<=2^20 tall", "px<=2^20 wide"
};
FilterImageClass filter_image_class(std::uint64_t width, std::uint64_t height);

// The default for an image of `pixels` pixels and this aspect (a tuning bucket's representative, or the call's own).
Config convolve_default_config(const FilterShape& shape, const DTypeInfo& dtype, const DeviceInfo& device,
                               std::uint64_t pixels, Aspect aspect = Aspect::Square);

// The configuration's values in typed form: the only place the filter modules look parameters up by name.
FilterPlan plan_of(const Config& config);

// Bytes of local memory the tiled kernel of this plan needs for the shape.
std::uint64_t tiled_local_bytes(const FilterShape& shape, const FilterPlan& plan);

}  // namespace tilecl::detail
