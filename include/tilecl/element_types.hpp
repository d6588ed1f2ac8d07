// The element types each op takes, checked where a program names the op: calling an op with another T is a
// compile error that says which types it takes (not an undefined symbol at link time). The ops' declarations
// use these aliases as their return types; each is cl::Event (or the value or index returned) for an allowed
// T and a failed static_assert for any other:
//   BatchedEvent<T>     gemm_strided_batched, gemm_batched   float, double
//                       (T alpha, beta)
//   ElementwiseEvent<T> vector_add                           float, double, tilecl::half
//   AxpyEvent<T>        axpy (T alpha)                       float, double
//   GemvEvent<T>        gemv (T alpha, beta)                 float, double
//   HalfEvent<T>        axpy, gemv, gemm_strided_batched,    tilecl::half (no static_assert, as Gemm16Event: the
//                       gemm_batched (float alpha, beta)     other overload reports a wrong T)
//   GemmEvent<T>        gemm (T alpha, beta)                 float, double
//   Gemm16Event<T>      gemm (float alpha, beta)             tilecl::half, tilecl::bfloat16 (no static_assert: the
//                                                            other overload's GemmEvent reports a wrong T)
//   TransposeEvent<T>   transpose                            float, double, std::int32_t, std::uint8_t,
//                                                            tilecl::half, tilecl::bfloat16
//   ReduceEvent<T>      reduce (ReduceValue<T>: reduce_value, ReduceIndex<T>: reduce_index)
//                                                            float, double, std::int32_t, tilecl::half (values
//                                                            in float)
//   ImageEvent<T>       rgb_to_gray, convolve2d, separable_filter, box_blur, gaussian_blur
//                                                            std::uint8_t, float
#pragma once

#include <CL/opencl.hpp>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "tilecl/types.hpp"

namespace tilecl::detail {

template <typename T, typename... Allowed>
inline constexpr bool is_one_of = (std::is_same_v<T, Allowed> || ...);

template <typename T>
struct BatchedType {
  static_assert(is_one_of<T, float, double, half>,
                "tilecl: gemm_strided_batched and gemm_batched take T = float or double (T alpha, beta), or "
                "tilecl::half (float alpha, beta)");
  using Event = cl::Event;
};

template <typename T>
struct ElementwiseType {
  static_assert(is_one_of<T, float, double, half>,
                "tilecl: vector_add and axpy take T = float, double or tilecl::half");
  using Event = cl::Event;
};
template <typename T>
struct GemvType {
  static_assert(is_one_of<T, float, double, half>,
                "tilecl: gemv takes T = float or double (T alpha, beta), or tilecl::half (float alpha, beta)");
  using Event = cl::Event;
};
// axpy and gemv have two overloads, as gemm: T scalars for float and double (Checked: the op's type with its
// static_assert), float scalars for half. Each overload has an Event only for its own types: the other drops out.
template <typename T, typename Checked>
struct WideScalarType : Checked {};
template <typename Checked>
struct WideScalarType<half, Checked> {};
template <typename T>
struct HalfScalarType {};
template <>
struct HalfScalarType<half> {
  using Event = cl::Event;
};

template <typename T>
struct TransposeType {
  static_assert(is_one_of<T, float, double, std::int32_t, std::uint8_t, half, bfloat16>,
                "tilecl: transpose takes T = float, double, std::int32_t, std::uint8_t, tilecl::half or "
                "tilecl::bfloat16");
  using Event = cl::Event;
};

template <typename T>
struct ReduceType {
  static_assert(is_one_of<T, float, double, std::int32_t, half>,
                "tilecl: reduce, reduce_value and reduce_index take T = float, double, std::int32_t or tilecl::half");
  using Event = cl::Event;
  using Value = std::conditional_t<std::is_same_v<T, half>, float, T>;  // half is reduced in float
  using Index = std::size_t;
};

template <typename T>
struct ImageType {
  static_assert(
      is_one_of<T, std::uint8_t, float>,
      "tilecl: rgb_to_gray, convolve2d, separable_filter, box_blur and gaussian_blur take T = std::uint8_t or "
      "float");
  using Event = cl::Event;
};

// gemm has two overloads: T alpha for float and double, float alpha for the 16-bit storage types. A 16-bit T gets
// no Event here (that overload drops out; the other one is chosen); any other T the static_assert, with an Event so
// that it stays the one error reported.
template <typename T, bool = is_one_of<T, float, double>, bool = is_one_of<T, half, bfloat16>>
struct GemmType {
  static_assert(is_one_of<T, float, double, half, bfloat16>,
                "tilecl: gemm takes T = float or double (T alpha, beta), or tilecl::half or tilecl::bfloat16 (float "
                "alpha, beta)");
  using Event = cl::Event;
};
template <typename T>
struct GemmType<T, false, true> {};
template <typename T, bool = is_one_of<T, half, bfloat16>>
struct Gemm16Type {};  // float, double and others: no Event (this overload drops out)
template <typename T>
struct Gemm16Type<T, true> {
  using Event = cl::Event;
};

template <typename T>
using BatchedEvent = typename WideScalarType<T, BatchedType<T>>::Event;
template <typename T>
using ElementwiseEvent = typename ElementwiseType<T>::Event;
template <typename T>
using AxpyEvent = typename WideScalarType<T, ElementwiseType<T>>::Event;
template <typename T>
using GemvEvent = typename WideScalarType<T, GemvType<T>>::Event;
template <typename T>
using HalfEvent = typename HalfScalarType<T>::Event;
template <typename T>
using GemmEvent = typename GemmType<T>::Event;
template <typename T>
using Gemm16Event = typename Gemm16Type<T>::Event;
template <typename T>
using TransposeEvent = typename TransposeType<T>::Event;
template <typename T>
using ReduceEvent = typename ReduceType<T>::Event;
template <typename T>
using ReduceValue = typename ReduceType<T>::Value;
template <typename T>
using ReduceIndex = typename ReduceType<T>::Index;
template <typename T>
using ImageEvent = typename ImageType<T>::Event;

}  // namespace tilecl::detail
