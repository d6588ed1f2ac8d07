#include "dtype.hpp"

namespace tilecl::detail {

const DTypeInfo* dtype_named(const std::string& name) {
  static const DTypeInfo* const all[] = {&dtype_of<float>(),        &dtype_of<double>(), &dtype_of<std::int32_t>(),
                                         &dtype_of<std::uint8_t>(), &dtype_of<half>(),   &dtype_of<bfloat16>()};
  for (const DTypeInfo* info : all) {
    if (name == info->name) return info;
  }
  return nullptr;
}

}  // namespace tilecl::detail
