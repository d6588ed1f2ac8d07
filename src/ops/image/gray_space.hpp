// rgb_to_gray's search space, defaults, typed plans and programs (kernels/color.cl).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "build_options.hpp"
#include "dtype.hpp"
#include "tuning/search_space.hpp"

namespace tilecl::detail {

constexpr const char* kColorFamily = "color";

// What the program and the tuning key depend on besides the device and the element type.
struct GrayShape {
  std::uint64_t src_channels = 3;  // 3 (RGB, BGR) or 4 (RGBA, BGRA)
  bool opencv = false;             // cvtColor's fixed-point arithmetic (bytes only)
};

enum class GrayVariant { Naive, Vector, Words };

// A configuration in typed form (kernels/color.cl documents each macro).
struct GrayPlan {
  GrayVariant variant = GrayVariant::Vector;
  std::int64_t vec = 4, wpt_x = 1, wpt_y = 1;
  bool round_by_add = false;
  std::int64_t wg_x = 0, wg_y = 1;  // launch-only (0: the driver's)
};

SearchSpace rgb_to_gray_search_space(const DTypeInfo& dtype, const GrayShape& shape = GrayShape());
Config rgb_to_gray_default_config(const DTypeInfo& dtype, const DeviceInfo& device,
                                  const GrayShape& shape = GrayShape());

GrayPlan gray_plan_of(const Config& config);
BuildOptions gray_build_options(const DTypeInfo& dtype, const GrayShape& shape, const GrayPlan& plan);
// "color_rgb_to_gray_naive", "color_rgb_to_gray_vector", "color_rgb_to_gray_words".
std::string gray_kernel_name(GrayVariant variant);

// For each variant ("naive", "vector", "words") the macros its kernel reads.
const std::map<std::string, std::vector<std::string>>& color_macro_table();

}  // namespace tilecl::detail
