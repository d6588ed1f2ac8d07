#include "ops/image/filter_program.hpp"

#include <algorithm>

#include "ops/image/border.hpp"
#include "ops/image/filter_space.hpp"

namespace tilecl::detail {
namespace {

// CONVOLVE_VARIANT of kernels/convolve.cl.
int variant_code(FilterForm form, FilterVariant variant) {
  if (form == FilterForm::Direct) return variant == FilterVariant::Naive ? 1 : variant == FilterVariant::Vector ? 2 : 3;
  switch (variant) {
    case FilterVariant::TwoPass:
      return 4;
    case FilterVariant::Vector:
      return 5;
    case FilterVariant::Ring:
      return 7;
    case FilterVariant::Words:
      return 8;
    default:
      return 6;
  }
}

// What every variant reads: the element type, the image and filter shape, the border and OpenCV's arithmetic.
void add_shape_macros(const FilterShape& shape, Border border, const DTypeInfo& dtype, FilterVariant variant,
                      BuildOptions& options) {
  options.define("DTYPE", dtype.cl_type);
  options.define("CHANNELS", static_cast<std::int64_t>(shape.channels));
  options.define("BORDER", border_macro(border));
  options.define("CONVOLVE_VARIANT", variant_code(shape.form, variant));
  const bool fixed = fixed_radius(shape, variant);
  options.define("RADIUS_X", fixed ? shape.radius_x : -1);
  options.define("RADIUS_Y", fixed ? shape.radius_y : -1);
  const bool opencv_direct = shape.opencv && shape.form == FilterForm::Direct;
  const bool opencv_separable = shape.opencv && shape.form == FilterForm::Separable;
  options.define("USE_FMA", opencv_direct ? 1 : 0);
  options.define("USE_FIXED_POINT", opencv_separable ? (shape.dividing_finish ? 2 : 1) : 0);
}

// The vector and two-pass variants' own macros.
void add_untiled_macros(const FilterShape& shape, const FilterPlan& plan, BuildOptions& options) {
  if (plan.variant == FilterVariant::Vector) options.define("WPT_Y", plan.wpt_y);
  options.define("USE_WINDOW", plan.window);
  if (shape.form == FilterForm::Separable) {
    options.define("USE_SYMMETRIC", shape.symmetric ? 1 : 0);
    options.define("USE_UNIT_GAIN", shape.unit_gain ? 1 : 0);
  }
}

// The words variant's own macros (it reads no VEC and rounds no floats).
void add_words_macros(const FilterShape& shape, const FilterPlan& plan, BuildOptions& options) {
  options.define("USE_INTEGER_TAPS", static_cast<std::int64_t>(shape.integer_taps));
  options.define("USE_SYMMETRIC", shape.symmetric ? 1 : 0);
  options.define("WORDS_WG", plan.words_wg);
  options.define("WPW", plan.wpw);
  options.define("WPT_Y", plan.wpt_y);
  options.define("USE_PACKED_SUMS", plan.packed_sums ? 1 : 0);
}

// The tiled variants' own macros.
void add_tiled_macros(const FilterShape& shape, const FilterPlan& plan, BuildOptions& options) {
  options.define("TILE_X", plan.tile_x);
  options.define("TILE_Y", plan.tile_y);
  options.define("WPT_Y", plan.wpt_y);
  options.define("PAD", plan.pad);
  if (shape.form == FilterForm::Separable) {
    options.define("USE_LOCAL_INPUT", plan.local_input ? 1 : 0);
    options.define("USE_PREFETCH", plan.prefetch ? 1 : 0);
  }
}

}  // namespace

bool fixed_radius(const FilterShape& shape, FilterVariant variant) {
  if (variant == FilterVariant::Tiled || variant == FilterVariant::Ring || variant == FilterVariant::Words) return true;
  if (variant == FilterVariant::Naive) return false;
  if (shape.form == FilterForm::Direct)
    return (2 * shape.radius_x + 1) * (2 * shape.radius_y + 1) <= kMaxFixedDirectTaps;
  return std::max(shape.radius_x, shape.radius_y) <= kMaxFixedRadius;
}

BuildOptions filter_build_options(const FilterShape& shape, Border border, const DTypeInfo& dtype,
                                  const FilterPlan& plan) {
  BuildOptions options;
  add_shape_macros(shape, border, dtype, plan.variant, options);
  if (plan.variant == FilterVariant::Naive) return options;
  if (plan.variant == FilterVariant::Words) {
    add_words_macros(shape, plan, options);
    return options;
  }
  options.define("VEC", plan.vec);
  if (dtype.size == 1 && !shape.opencv) options.define("USE_ROUND_BY_ADD", plan.round_by_add ? 1 : 0);
  if (plan.variant == FilterVariant::Tiled) {
    add_tiled_macros(shape, plan, options);
  } else if (plan.variant == FilterVariant::Ring) {
    options.define("WPT_Y", plan.wpt_y);
  } else {
    add_untiled_macros(shape, plan, options);
  }
  return options;
}

std::vector<std::string> filter_kernel_names(FilterForm form, FilterVariant variant) {
  if (variant == FilterVariant::TwoPass) return {"convolve_rows_vector", "convolve_cols_vector"};
  const std::string name = variant == FilterVariant::Naive   ? "naive"
                           : variant == FilterVariant::Tiled ? "tiled"
                           : variant == FilterVariant::Ring  ? "ring"
                           : variant == FilterVariant::Words ? "words"
                                                             : "vector";
  return {std::string(form == FilterForm::Direct ? "convolve_direct_" : "convolve_separable_") + name};
}

const std::map<std::string, std::vector<std::string>>& convolve_macro_table() {
  static const auto* table = [] {
    const std::vector<std::string> common{"DTYPE",    "CHANNELS", "BORDER",  "CONVOLVE_VARIANT",
                                          "RADIUS_X", "RADIUS_Y", "USE_FMA", "USE_FIXED_POINT"};
    auto with = [&common](std::vector<std::string> own) {
      own.insert(own.begin(), common.begin(), common.end());
      return own;
    };
    return new std::map<std::string, std::vector<std::string>>{
        {"direct naive", with({})},
        {"direct vector", with({"VEC", "USE_ROUND_BY_ADD", "WPT_Y", "USE_WINDOW"})},
        {"direct tiled", with({"VEC", "USE_ROUND_BY_ADD", "TILE_X", "TILE_Y", "WPT_Y", "PAD"})},
        {"separable two_pass", with({"VEC", "USE_ROUND_BY_ADD", "USE_WINDOW", "USE_SYMMETRIC", "USE_UNIT_GAIN"})},
        {"separable vector",
         with({"VEC", "USE_ROUND_BY_ADD", "WPT_Y", "USE_WINDOW", "USE_SYMMETRIC", "USE_UNIT_GAIN"})},
        {"separable ring", with({"VEC", "USE_ROUND_BY_ADD", "WPT_Y"})},
        {"separable words", with({"USE_INTEGER_TAPS", "USE_SYMMETRIC", "WORDS_WG", "WPW", "WPT_Y", "USE_PACKED_SUMS"})},
        {"separable tiled",
         with({"VEC", "USE_ROUND_BY_ADD", "TILE_X", "TILE_Y", "WPT_Y", "PAD", "USE_LOCAL_INPUT", "USE_PREFETCH"})}};
  }();
  return *table;
}

}  // namespace tilecl::detail
