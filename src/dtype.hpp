// Element types the kernels are built for, and what the host needs to know about them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>

#include "tilecl/types.hpp"

namespace tilecl::detail {

struct DTypeInfo {
  const char* name;     // in keys, the tuning database and tables: "float", "double", "int32", "uint8"
  const char* cl_type;  // the OpenCL C type: DTYPE=<cl_type>
  std::size_t size;
  bool needs_fp64;
};

template <typename T>
struct DTypeOf;
template <>
struct DTypeOf<float> {
  static constexpr DTypeInfo info{"float", "float", 4, false};
};
template <>
struct DTypeOf<double> {
  static constexpr DTypeInfo info{"double", "double", 8, true};
};
template <>
struct DTypeOf<std::int32_t> {
  static constexpr DTypeInfo info{"int32", "int", 4, false};
};
template <>
struct DTypeOf<std::uint8_t> {
  static constexpr DTypeInfo info{"uint8", "uchar", 1, false};
};

// 16-bit float storage (tilecl/types.hpp): the kernels see the bits as ushort and convert them themselves.
template <>
struct DTypeOf<half> {
  static constexpr DTypeInfo info{"half", "ushort", 2, false};
};
template <>
struct DTypeOf<bfloat16> {
  static constexpr DTypeInfo info{"bfloat16", "ushort", 2, false};
};

template <typename T>
constexpr const DTypeInfo& dtype_of() {
  return DTypeOf<T>::info;
}

// The type elements of T are computed in, and scalars (alpha, beta, results) passed as: float for the 16-bit
// storage types, T otherwise.
template <typename T>
using ComputeType = std::conditional_t<std::is_same_v<T, half> || std::is_same_v<T, bfloat16>, float, T>;

// Whether kernels read and write dtype as IEEE binary16 storage (vload_half / vstore_half; macro HALF_STORAGE).
inline bool is_half_storage(const DTypeInfo& dtype) { return &dtype == &dtype_of<half>(); }

// Looks a dtype up by name; nullptr when unknown.
const DTypeInfo* dtype_named(const std::string& name);

}  // namespace tilecl::detail
