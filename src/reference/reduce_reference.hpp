// Host references for the reduce family, with the semantics the kernels promise:
//   sum      floating point: computed in double with compensation (a near-exact reference to compare the
//            device's float/double sum against with a tolerance); int32: wraps modulo 2^32.
//   min/max  NaN propagates: if any element is NaN the result is NaN. Otherwise the extreme value
//            (-0.0 and +0.0 compare equal; which zero comes back is not promised).
//   argmin/argmax  the index of the FIRST NaN if there is one, else the index of the FIRST extreme element.
// min, max, argmin and argmax need n >= 1 (the host reports an empty range as an error).
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace tilecl::reference {

enum class ReduceOp { sum, min, max, argmin, argmax };

inline const char* to_string(ReduceOp op) {
  switch (op) {
    case ReduceOp::sum:
      return "sum";
    case ReduceOp::min:
      return "min";
    case ReduceOp::max:
      return "max";
    case ReduceOp::argmin:
      return "argmin";
    case ReduceOp::argmax:
      return "argmax";
  }
  return "?";
}

template <typename T>
bool is_nan(T v) {
  if constexpr (std::is_floating_point_v<T>) {
    return std::isnan(v);
  } else {
    return false;
  }
}

// Sum of x[0..n). Floating point: compensated (Neumaier) double sum. Integers: modulo 2^32.
template <typename T>
auto sum(const T* x, std::size_t n) {
  if constexpr (std::is_floating_point_v<T>) {
    double s = 0.0, c = 0.0;
    for (std::size_t i = 0; i < n; ++i) {
      const double v = static_cast<double>(x[i]);
      const double t = s + v;
      c += std::fabs(s) >= std::fabs(v) ? (s - t) + v : (v - t) + s;
      s = t;
    }
    // With an infinity or NaN in the input the plain sum is the answer (the compensation would be NaN).
    return std::isfinite(s) ? s + c : s;
  } else {
    static_assert(sizeof(T) == 4, "integer sums are defined for 32-bit integers");
    std::uint32_t s = 0;
    for (std::size_t i = 0; i < n; ++i) s += static_cast<std::uint32_t>(x[i]);
    return static_cast<T>(s);
  }
}

// Sum of |x[i]| in double: the scale for the tolerance of a floating-point sum.
template <typename T>
double sum_abs(const T* x, std::size_t n) {
  double s = 0.0;
  for (std::size_t i = 0; i < n; ++i) s += std::fabs(static_cast<double>(x[i]));
  return s;
}

// Index of the first NaN, else of the first minimum (want_max = false) or maximum (want_max = true).
template <typename T>
std::size_t arg_extreme(const T* x, std::size_t n, bool want_max) {
  std::size_t best = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (is_nan(x[i])) return i;
    if (want_max ? x[i] > x[best] : x[i] < x[best]) best = i;
  }
  return best;
}

template <typename T>
std::size_t argmin(const T* x, std::size_t n) {
  return arg_extreme(x, n, false);
}

template <typename T>
std::size_t argmax(const T* x, std::size_t n) {
  return arg_extreme(x, n, true);
}

template <typename T>
T min_value(const T* x, std::size_t n) {
  return x[argmin(x, n)];
}

template <typename T>
T max_value(const T* x, std::size_t n) {
  return x[argmax(x, n)];
}

}  // namespace tilecl::reference
