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

// How a neighbourhood filter reads outside the image:
//   Zero   - zeros;                       Clamp - replicate the edge (a a | a b c d | d d);
//   Mirror - reflect without repeating the edge (d c b | a b c d | c b a);  Wrap - periodic.
enum class Border { Zero, Clamp, Mirror, Wrap };

// "zero", "clamp", "mirror", "wrap" (as in tilecl tune --shape).
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
  }
  return "?";
}

}  // namespace tilecl
