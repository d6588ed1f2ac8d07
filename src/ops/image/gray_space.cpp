#include "ops/image/gray_space.hpp"

#include <algorithm>

#include "ops/image/image_common.hpp"

namespace tilecl::detail {
namespace {

Constraint zero_or_one(const char* name) {
  return {std::string(name) + " in {0, 1}",
          [name](const Values& v, const DeviceInfo&) { return at(v, name) == 0 || at(v, name) == 1; }};
}

VariantSpace vector_space(const DTypeInfo& dtype, bool rounding) {
  // 16-byte accesses first: VEC 16 for bytes, 4 for floats. WPT_X first: in `tilecl tune`'s exhaustive order
  // it varies fastest after the work-group size.
  const std::vector<std::int64_t> vectors =
      dtype.size == 1 ? std::vector<std::int64_t>{16, 8, 4, 2} : std::vector<std::int64_t>{4, 8, 16, 2};
  std::vector<Parameter> parameters{{"WPT_X", {1, 2, 4}}, {"WPT_Y", {1, 2, 4}}, {"VEC", vectors}};
  // Bytes with float sums: how the sum is rounded (0 rint, 1 add and subtract 2^23: the same results, much
  // faster where rint is a software sequence, as under PoCL). Last, so the GPU default's region is walked first.
  if (rounding) parameters.push_back({"USE_ROUND_BY_ADD", {0, 1}});
  for (auto& parameter : work_group_parameters()) parameters.push_back(parameter);
  VariantSpace space{"vector",
                     parameters,
                     {work_group_fits(),
                      {"VEC in {2, 4, 8, 16}",
                       [](const Values& v, const DeviceInfo&) {
                         const auto vec = at(v, "VEC");
                         return vec == 2 || vec == 4 || vec == 8 || vec == 16;
                       }},
                      {"1 <= WPT_X, WPT_Y <= 16", [](const Values& v, const DeviceInfo&) {
                         return at(v, "WPT_X") >= 1 && at(v, "WPT_X") <= 16 && at(v, "WPT_Y") >= 1 &&
                                at(v, "WPT_Y") <= 16;
                       }}}};
  if (rounding) space.constraints.push_back(zero_or_one("USE_ROUND_BY_ADD"));
  return space;
}

// Bytes only: the GPU form, one chunk per work-item taken apart as 32-bit words, on little-endian devices.
VariantSpace words_space(bool rounding) {
  std::vector<Parameter> parameters{{"VEC", {16, 8, 4}}};
  if (rounding) parameters.push_back({"USE_ROUND_BY_ADD", {0, 1}});
  for (auto& parameter : work_group_parameters()) parameters.push_back(parameter);
  VariantSpace space{"words",
                     parameters,
                     {work_group_fits(),
                      {"VEC in {4, 8, 16} on a little-endian device", [](const Values& v, const DeviceInfo& device) {
                         const auto vec = at(v, "VEC");
                         return (vec == 4 || vec == 8 || vec == 16) && device.little_endian;
                       }}}};
  if (rounding) space.constraints.push_back(zero_or_one("USE_ROUND_BY_ADD"));
  return space;
}

}  // namespace

SearchSpace rgb_to_gray_search_space(const DTypeInfo& dtype, const GrayShape& shape) {
  const bool rounding = dtype.size == 1 && !shape.opencv;
  VariantSpace naive{"naive", work_group_parameters(), {work_group_fits()}};
  if (dtype.size != 1) return SearchSpace({vector_space(dtype, false), naive});
  return SearchSpace({vector_space(dtype, rounding), words_space(rounding), naive});
}

Config rgb_to_gray_default_config(const DTypeInfo& dtype, const DeviceInfo& device, const GrayShape& shape) {
  const bool rounding = dtype.size == 1 && !shape.opencv;
  Config config{"vector", {{"WPT_X", 1}, {"WPT_Y", 1}}};
  Values work_group;
  if (device.is_cpu()) {
    // Bytes: 16 pixels (three or four 16-byte loads); floats: one SIMD register per channel. PoCL vectorizes
    // across the work-items of a row of 64. Bytes round by adding 2^23: rint is a software sequence under PoCL.
    config.values["VEC"] =
        dtype.size == 1 ? 16
                        : std::clamp<std::int64_t>(static_cast<std::int64_t>(device.native_vector_width_float), 4, 16);
    if (rounding) config.values["USE_ROUND_BY_ADD"] = 1;
    work_group = work_group_default(64, 64, device.max_work_group_size);
  } else if (dtype.size == 1 && device.little_endian) {
    // Bytes: 16 pixels per work-item taken apart as words, rint (one instruction on GPUs), 128 x 1 work-items:
    // 36.4 us at 7680x4320 on an H200, the time of a copy of the same bytes, against 40.4 us for the best
    // vector setting (2026-11-30, bench/results/nvidia-h200).
    config = Config{"words", {{"VEC", 16}}};
    if (rounding) config.values["USE_ROUND_BY_ADD"] = 0;
    work_group = work_group_default(128, 128, device.max_work_group_size);
  } else {
    // 16-byte accesses, 256 work-items as 64 x 4 (first-use tuning tries the other work-group shapes).
    config.values["VEC"] = std::max<std::int64_t>(1, 16 / static_cast<std::int64_t>(dtype.size));
    if (rounding) config.values["USE_ROUND_BY_ADD"] = 0;  // rint: one instruction on GPUs
    work_group = work_group_default(64, 256, device.max_work_group_size);
  }
  config.values.insert(work_group.begin(), work_group.end());
  return config;
}

GrayPlan gray_plan_of(const Config& config) {
  auto value = [&config](const char* name, std::int64_t fallback) { return config_value(config, name, fallback); };
  GrayPlan plan;
  plan.variant = config.variant == "naive"   ? GrayVariant::Naive
                 : config.variant == "words" ? GrayVariant::Words
                                             : GrayVariant::Vector;
  plan.vec = value("VEC", 4);
  plan.wpt_x = value("WPT_X", 1);
  plan.wpt_y = value("WPT_Y", 1);
  plan.round_by_add = value("USE_ROUND_BY_ADD", 0) != 0;
  plan.wg_x = value("WG_X", 0);
  plan.wg_y = value("WG_Y", 1);
  return plan;
}

BuildOptions gray_build_options(const DTypeInfo& dtype, const GrayShape& shape, const GrayPlan& plan) {
  BuildOptions options;
  options.define("DTYPE", dtype.cl_type);
  options.define("SRC_CHANNELS", static_cast<std::int64_t>(shape.src_channels));
  options.define("USE_FIXED_POINT", shape.opencv ? 1 : 0);
  if (plan.variant == GrayVariant::Naive) return options;
  options.define("VEC", plan.vec);
  if (dtype.size == 1 && !shape.opencv) options.define("USE_ROUND_BY_ADD", plan.round_by_add ? 1 : 0);
  if (plan.variant == GrayVariant::Vector) {
    options.define("WPT_X", plan.wpt_x);
    options.define("WPT_Y", plan.wpt_y);
  }
  return options;
}

std::string gray_kernel_name(GrayVariant variant) {
  switch (variant) {
    case GrayVariant::Naive:
      return "color_rgb_to_gray_naive";
    case GrayVariant::Words:
      return "color_rgb_to_gray_words";
    case GrayVariant::Vector:
      break;
  }
  return "color_rgb_to_gray_vector";
}

const std::map<std::string, std::vector<std::string>>& color_macro_table() {
  static const auto* table = new std::map<std::string, std::vector<std::string>>{
      {"naive", {"DTYPE", "SRC_CHANNELS", "USE_FIXED_POINT"}},
      {"vector", {"DTYPE", "SRC_CHANNELS", "USE_FIXED_POINT", "VEC", "USE_ROUND_BY_ADD", "WPT_X", "WPT_Y"}},
      {"words", {"DTYPE", "SRC_CHANNELS", "USE_FIXED_POINT", "VEC", "USE_ROUND_BY_ADD"}}};
  return *table;
}

}  // namespace tilecl::detail
