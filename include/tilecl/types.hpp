// Enumerations shared by the public API.
#pragma once

#include <cstdint>

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

}  // namespace tilecl
