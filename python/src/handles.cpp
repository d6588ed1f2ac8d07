#include "handles.hpp"

#include <cstdint>

#include "tilecl/types.hpp"

namespace tilecl::python {

WaitList::WaitList(const HandleList& handles) {
  events_.reserve(handles.size());
  for (Handle handle : handles) events_.emplace_back(from_handle<cl_event>(handle), true);
}

Handle hand_over(const cl::Event& event) {
  if (event() == nullptr) return 0;
  clRetainEvent(event());
  return reinterpret_cast<Handle>(event());
}

template <>
const char* dtype_name<float>() {
  return "float32";
}
template <>
const char* dtype_name<double>() {
  return "float64";
}
template <>
const char* dtype_name<std::int32_t>() {
  return "int32";
}
template <>
const char* dtype_name<std::uint8_t>() {
  return "uint8";
}
template <>
const char* dtype_name<half>() {
  return "float16";
}
template <>
const char* dtype_name<bfloat16>() {
  return "bfloat16";
}

}  // namespace tilecl::python
