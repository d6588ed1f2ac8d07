// The programs of kernels/convolve.cl: the -D macros a plan builds with, the kernels it launches, and the
// table of the macros each variant reads (a test checks it against the search space and the kernel file).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "build_options.hpp"
#include "dtype.hpp"
#include "ops/image/filter_types.hpp"

namespace tilecl::detail {

constexpr const char* kConvolveFamily = "convolve";

// The macros a program of this plan is built with, from the typed plan: DTYPE, CHANNELS, BORDER,
// CONVOLVE_VARIANT, the radii (fixed when the kernel unrolls them, else -1), the arithmetic switches and the
// variant's own parameters.
BuildOptions filter_build_options(const FilterShape& shape, Border border, const DTypeInfo& dtype,
                                  const FilterPlan& plan);

// "convolve_direct_tiled", "convolve_separable_vector", ...; two_pass has two kernels (rows, then columns).
std::vector<std::string> filter_kernel_names(FilterForm form, FilterVariant variant);

// Whether the plan's kernel takes its radii from build macros (tap loops unrolled) or from its arguments.
bool fixed_radius(const FilterShape& shape, FilterVariant variant);

// For each (form, variant name) the macros its kernels read: "direct tiled" -> {"DTYPE", "TILE_X", ...}.
const std::map<std::string, std::vector<std::string>>& convolve_macro_table();

}  // namespace tilecl::detail
