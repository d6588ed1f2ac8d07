// The filter ops' search space, their device-derived defaults, and configurations read into typed plans.
#pragma once

#include "dtype.hpp"
#include "ops/image/filter_types.hpp"
#include "tuning/search_space.hpp"

namespace tilecl::detail {

// Radii beyond these use the run-time radius: unrolling more taps costs compile time and gains nothing.
constexpr int kMaxFixedRadius = 16;           // separable kernels, per direction
constexpr int kMaxFixedDirectTaps = 17 * 17;  // direct vector kernel
constexpr int kMaxDirectRingFloats = 384;     // direct vector kernel's ring: (2 ry + 1) VEC floats in registers
constexpr int kMaxTiledDirectRadius = 8;      // direct tiled kernel (it unrolls all taps for WPT_Y x VEC outputs)

// The space of a shape and element type, built once per process (the reference stays valid).
const SearchSpace& convolve_search_space(const FilterShape& shape, const DTypeInfo& dtype);
// The default for images of `pixels` pixels (a tuning bucket's representative, or the call's own size): on GPUs,
// images of at most kSmallImagePixels take a shorter tile or the two passes.
constexpr std::uint64_t kSmallImagePixels = std::uint64_t{1} << 16;
Config convolve_default_config(const FilterShape& shape, const DTypeInfo& dtype, const DeviceInfo& device,
                               std::uint64_t pixels);

// The configuration's values in typed form: the only place the filter modules look parameters up by name.
FilterPlan plan_of(const Config& config);

// Bytes of local memory the tiled kernel of this plan needs for the shape.
std::uint64_t tiled_local_bytes(const FilterShape& shape, const FilterPlan& plan);

}  // namespace tilecl::detail
