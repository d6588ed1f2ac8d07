// The accuracy of half, bfloat16 and TF32 gemm: the bound every result meets (documented in tilecl/gemm.hpp and the
// README, checked by the tuner's verification and the tests). `exact` is alpha * sum_p a_ip b_pj + beta * c_ij in
// exact arithmetic over the stored inputs, `magnitude` is |alpha| * sum_p |a_ip b_pj| + |beta * c_ij|, k the length of
// the sums.
//
//   half, bfloat16  |result - exact| <= u |exact| + (1 + u) 2 (k + 4) 2^-24 magnitude + floor: the products are exact
//                   in float, the float accumulation (tensor cores may truncate: twice float's rounding) and the
//                   scaling by alpha and beta err by 2 (k + 4) 2^-24 of the magnitude, and the result is rounded to 16
//                   bits (u = 2^-11 for half, 2^-8 for bfloat16; floor: half the smallest subnormal, 2^-25 for half).
//   TF32            |result - exact| <= (2^-10 + 2 (k + 5) 2^-24) magnitude + floor: each operand rounded to TF32 is
//                   within 2^-11 of itself, so each product within 2^-10 (plus 2^-22, covered); then float
//                   accumulation, scaling and the float result's rounding; floor 4 FLT_MIN.
// Results beyond the format's range are infinite; NaN in A or B (or in C with beta != 0) gives NaN.
#pragma once

#include <cmath>
#include <cstdint>

#include "ops/gemm/mma_variants.hpp"

namespace tilecl::detail::gemm::mma {

inline double error_bound(Format format, std::uint64_t k, double magnitude, double exact) {
  const double float_unit = std::ldexp(1.0, -24), accumulation = 2.0 * static_cast<double>(k + 4) * float_unit;
  switch (format) {
    case Format::F16:
      return std::ldexp(1.0, -11) * std::abs(exact) + (1 + std::ldexp(1.0, -11)) * accumulation * magnitude +
             std::ldexp(1.0, -25);
    case Format::BF16:
      return std::ldexp(1.0, -8) * std::abs(exact) + (1 + std::ldexp(1.0, -8)) * accumulation * magnitude +
             std::ldexp(1.0, -133);
    case Format::TF32:
      break;
  }
  return (std::ldexp(1.0, -10) + accumulation + 2 * float_unit) * magnitude + std::ldexp(1.0, -124);
}

}  // namespace tilecl::detail::gemm::mma
