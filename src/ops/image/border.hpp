// Border rules of the filter ops: validation, the BORDER macro of kernels/convolve.cl, the constant the
// kernels read outside the image, the host-side folding, and the names `tilecl tune --shape` takes.
#pragma once

#include <optional>
#include <string>

#include "tilecl/convolve.hpp"

namespace tilecl::detail {

// Refuses a Border outside the enum (argument "border") and a non-finite constant ("border_value").
void check_border(const std::string& op, const FilterOptions& options);

// BORDER of kernels/convolve.cl: 0 Constant (Zero and Constant), 1 Clamp, 2 Mirror, 3 Wrap, 4 Reflect.
int border_macro(Border border);

// What the kernels read outside the image: 0 for Zero, the constant for Constant (bytes: rounded to nearest,
// ties to even, and saturated to 0..255), 0 for the other rules (never read).
float border_constant(const FilterOptions& options, bool bytes);

// Index i of a line of n pixels under the rule: a value in [0, n), or -1 where the constant is read.
long fold_index(long i, long n, Border border);

// "zero", "clamp", "mirror", "wrap", "reflect", "constant" -> the rule; nullopt for anything else.
std::optional<Border> border_from_name(const std::string& name);

}  // namespace tilecl::detail
