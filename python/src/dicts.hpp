// Plain structs of the library as Python dicts: dict_of(object, "name", &Struct::member, ...) lists the keys
// once, next to the members they come from.
#pragma once

#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

namespace tilecl::python {

template <typename Struct>
void add_fields(nanobind::dict& /*dict*/, const Struct& /*object*/) {}

template <typename Struct, typename Member, typename... Rest>
void add_fields(nanobind::dict& dict, const Struct& object, const char* name, Member Struct::*member,
                const Rest&... rest) {
  dict[name] = object.*member;
  add_fields(dict, object, rest...);
}

template <typename Struct, typename... Fields>
nanobind::dict dict_of(const Struct& object, const Fields&... fields) {
  nanobind::dict dict;
  add_fields(dict, object, fields...);
  return dict;
}

}  // namespace tilecl::python
