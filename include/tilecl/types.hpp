// Enumerations and element types shared by the public API.
#pragma once

#include <cstdint>
#include <cstring>

namespace tilecl {

// Storage order of a matrix, as in BLAS.
enum class Layout { RowMajor, ColMajor };

// Whether an operand is used as stored or transposed, as in BLAS.
enum class Transpose { No, Yes };

// Reductions over a vector.
enum class ReduceOp { Sum, Min, Max, ArgMin, ArgMax };

// "sum", "min", "max", "argmin", "argmax".
constexpr const char* to_string(ReduceOp op) {
  switch (op) {
    case ReduceOp::Sum:
      return "sum";
    case ReduceOp::Min:
      return "min";
    case ReduceOp::Max:
      return "max";
    case ReduceOp::ArgMin:
      return "argmin";
    case ReduceOp::ArgMax:
      return "argmax";
  }
  return "?";
}

// How a neighbourhood filter reads outside the image (OpenCV's and OpenCL's names in README's border table):
//   Zero     - zeros (OpenCV BORDER_CONSTANT with 0);
//   Clamp    - replicate the edge: a a | a b c d | d d (BORDER_REPLICATE, CLK_ADDRESS_CLAMP_TO_EDGE);
//   Mirror   - reflect without repeating the edge: d c b | a b c d | c b a (BORDER_REFLECT_101, the default);
//   Wrap     - periodic: c d | a b c d | a b (BORDER_WRAP, CLK_ADDRESS_REPEAT);
//   Reflect  - reflect repeating the edge: b a | a b c d | d c (BORDER_REFLECT, CLK_ADDRESS_MIRRORED_REPEAT);
//   Constant - a constant value, given with the border (FilterOptions::border_value; BORDER_CONSTANT).
enum class Border { Zero, Clamp, Mirror, Wrap, Reflect, Constant };

// "zero", "clamp", "mirror", "wrap", "reflect", "constant" (as in tilecl tune --shape).
constexpr const char* to_string(Border border) {
  switch (border) {
    case Border::Zero:
      return "zero";
    case Border::Clamp:
      return "clamp";
    case Border::Mirror:
      return "mirror";
    case Border::Wrap:
      return "wrap";
    case Border::Reflect:
      return "reflect";
    case Border::Constant:
      return "constant";
  }
  return "?";
}

// How the image ops compute on 8-bit images (float images always compute in float, and ignore it):
//   Float  - sums in float, rounded once to nearest (ties to even) and saturated to 0..255 (the default);
//   OpenCV - OpenCV 4.6's own arithmetic, bit for bit: cvtColor's 15-bit fixed-point weights, GaussianBlur's
//            8-bit fixed-point taps, blur's integer sums and divisions, filter2D's fused float sums. For users
//            who migrate from OpenCV and compare pixel for pixel; each op's comment says what it covers.
enum class Arithmetic { Float, OpenCV };

// ---- 16-bit floating-point storage types ---------------------------------------------------------------
//
// tilecl::half and tilecl::bfloat16 hold the bits of a 16-bit float as it lies in device memory, for buffers of
// such elements (gemm<half>, gemm<bfloat16>). They are storage types, not arithmetic types: the host converts
// with the explicit constructor from float (round to nearest, ties to even, as IEEE 754 does; overflow gives
// infinity, NaN stays NaN) and the implicit conversion to float (exact). Both are 2 bytes, trivially copyable,
// with the value's bits in `bits`, so a std::vector<half> is what a device buffer of halves holds.
//
//   half      IEEE 754 binary16: 1 sign, 5 exponent, 10 mantissa bits; largest 65504, smallest normal 2^-14,
//             smallest subnormal 2^-24; about 3.3 decimal digits (unit roundoff 2^-11).
//   bfloat16  the top half of a float: 1 sign, 8 exponent, 7 mantissa bits; a float's range, about 2.4 decimal
//             digits (unit roundoff 2^-8).

namespace detail {

inline std::uint32_t float_bits(float value) {
  std::uint32_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  return bits;
}
inline float bits_float(std::uint32_t bits) {
  float value;
  std::memcpy(&value, &bits, sizeof value);
  return value;
}

// float -> binary16 bits, round to nearest even. Subnormal halves are exact multiples of 2^-24: the float is
// scaled (exactly) and rounded as an integer.
inline std::uint16_t float_to_half_bits(float value) {
  const std::uint32_t bits = float_bits(value), sign = (bits >> 16) & 0x8000u, magnitude = bits & 0x7fffffffu;
  if (magnitude > 0x7f800000u) return static_cast<std::uint16_t>(sign | 0x7e00u);   // NaN
  if (magnitude >= 0x477ff000u) return static_cast<std::uint16_t>(sign | 0x7c00u);  // 65520 and above: infinity
  if (magnitude < 0x38800000u) {                                                    // below 2^-14: subnormal or zero
    const float scaled = bits_float(magnitude) * 16777216.0f;                       // * 2^24, exact
    auto whole = static_cast<std::uint32_t>(scaled);
    const float rest = scaled - static_cast<float>(whole);
    if (rest > 0.5f || (rest == 0.5f && (whole & 1u) != 0)) ++whole;
    return static_cast<std::uint16_t>(sign | whole);
  }
  const std::uint32_t rebased = magnitude - 0x38000000u;  // exponent bias 127 -> 15
  return static_cast<std::uint16_t>(sign | ((rebased + 0x0fffu + ((rebased >> 13) & 1u)) >> 13));
}

inline float half_bits_to_float(std::uint16_t half_bits) {
  const std::uint32_t sign = static_cast<std::uint32_t>(half_bits & 0x8000u) << 16, magnitude = half_bits & 0x7fffu;
  if (magnitude < 0x0400u) {  // zero or subnormal: magnitude * 2^-24, exact
    const float value = static_cast<float>(magnitude) * 5.9604644775390625e-8f;
    return sign != 0 ? -value : value;
  }
  if (magnitude >= 0x7c00u) return bits_float(sign | 0x7f800000u | (magnitude & 0x03ffu) << 13);  // inf, NaN
  return bits_float(sign | ((magnitude << 13) + 0x38000000u));
}

// float -> bfloat16 bits, round to nearest even; NaN stays a (quiet) NaN.
inline std::uint16_t float_to_bfloat16_bits(float value) {
  const std::uint32_t bits = float_bits(value);
  if ((bits & 0x7fffffffu) > 0x7f800000u) return static_cast<std::uint16_t>((bits >> 16) | 0x0040u);
  return static_cast<std::uint16_t>((bits + 0x7fffu + ((bits >> 16) & 1u)) >> 16);
}

inline float bfloat16_bits_to_float(std::uint16_t bfloat16_bits) {
  return bits_float(static_cast<std::uint32_t>(bfloat16_bits) << 16);
}

}  // namespace detail

struct half {
  std::uint16_t bits = 0;

  half() = default;
  explicit half(float value) : bits(detail::float_to_half_bits(value)) {}
  operator float() const { return detail::half_bits_to_float(bits); }  // exact: implicit
  static half from_bits(std::uint16_t value) {
    half h;
    h.bits = value;
    return h;
  }
};

struct bfloat16 {
  std::uint16_t bits = 0;

  bfloat16() = default;
  explicit bfloat16(float value) : bits(detail::float_to_bfloat16_bits(value)) {}
  operator float() const { return detail::bfloat16_bits_to_float(bits); }  // exact: implicit
  static bfloat16 from_bits(std::uint16_t value) {
    bfloat16 b;
    b.bits = value;
    return b;
  }
};

static_assert(sizeof(half) == 2 && sizeof(bfloat16) == 2, "16-bit storage types must be 2 bytes");

}  // namespace tilecl
