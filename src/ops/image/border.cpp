#include "ops/image/border.hpp"

#include <algorithm>
#include <cmath>

#include "tilecl/error.hpp"

namespace tilecl::detail {

void check_border(const std::string& op, const FilterOptions& options) {
  const int value = static_cast<int>(options.border);
  if (value < static_cast<int>(Border::Zero) || value > static_cast<int>(Border::Constant))
    throw Error(op, "border", CL_INVALID_VALUE,
                std::to_string(value) + " is not a tilecl::Border (zero, clamp, mirror, wrap, reflect, constant)");
  if (!std::isfinite(options.border_value))
    throw Error(op, "border_value", CL_INVALID_VALUE, "the constant read outside the image must be finite");
}

int border_macro(Border border) {
  switch (border) {
    case Border::Zero:
    case Border::Constant:
      return 0;
    case Border::Clamp:
      return 1;
    case Border::Mirror:
      return 2;
    case Border::Wrap:
      return 3;
    case Border::Reflect:
      return 4;
  }
  return 0;
}

float border_constant(const FilterOptions& options, bool bytes) {
  if (options.border != Border::Constant) return 0.0f;
  if (bytes) return static_cast<float>(std::clamp(std::nearbyint(options.border_value), 0.0, 255.0));
  return static_cast<float>(options.border_value);
}

long fold_index(long i, long n, Border border) {
  if (i >= 0 && i < n) return i;
  switch (border) {
    case Border::Zero:
    case Border::Constant:
      return -1;
    case Border::Clamp:
      return i < 0 ? 0 : n - 1;
    case Border::Mirror: {
      if (n == 1) return 0;
      const long period = 2 * n - 2;
      const long m = ((i % period) + period) % period;
      return m < n ? m : period - m;
    }
    case Border::Reflect: {
      const long period = 2 * n;
      const long m = ((i % period) + period) % period;
      return m < n ? m : period - 1 - m;
    }
    case Border::Wrap:
      return ((i % n) + n) % n;
  }
  return -1;
}

std::optional<Border> border_from_name(const std::string& name) {
  for (Border border : {Border::Zero, Border::Clamp, Border::Mirror, Border::Wrap, Border::Reflect, Border::Constant}) {
    if (name == to_string(border)) return border;
  }
  return std::nullopt;
}

}  // namespace tilecl::detail
