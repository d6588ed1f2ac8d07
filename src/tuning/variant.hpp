// One kernel variant, described once: its name, its kernel, its parameters as fields of a typed struct (the
// build macro or launch parameter each one is, candidates, the range any value must lie in) and its
// constraints. The search space, the -D macros of a configuration and the typed view launch code reads are all
// derived from this description, so a parameter's name is written in one place (the macro contract test,
// tests/runtime/test_macro_contract.cpp, checks that every build field is a macro the variant's kernel reads).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "build_options.hpp"
#include "tuning/search_space.hpp"

namespace tilecl::detail {

template <typename Params>
struct VariantDescriptor {
  struct Field {
    std::string name;  // the -D macro (build) or the launch parameter's name
    std::int64_t Params::*member;
    ParameterKind kind;
    std::vector<std::int64_t> candidates;  // what tuning tries, most promising first
    std::int64_t low, high;                // what an override or a database entry may set
  };

  std::string variant;  // as in configurations and the tuning database: "padded"
  std::string kernel;   // the OpenCL kernel it launches: "transpose_tiled"
  std::vector<Field> fields;
  std::vector<Constraint> constraints;

  VariantSpace space() const {
    VariantSpace space{variant, {}, constraints};
    for (const auto& field : fields)
      space.parameters.push_back({field.name, field.candidates, field.kind, field.low, field.high});
    return space;
  }

  // The typed view of a configuration of this variant (validated against space() before).
  Params decode(const Config& config) const {
    Params params{};
    for (const auto& field : fields) params.*(field.member) = config.values.at(field.name);
    return params;
  }

  Config encode(const Params& params) const {
    Config config{variant, {}};
    for (const auto& field : fields) config.values[field.name] = params.*(field.member);
    return config;
  }

  // Build fields as -D NAME=value.
  void render(const Params& params, BuildOptions& options) const {
    for (const auto& field : fields)
      if (field.kind == ParameterKind::Build) options.define(field.name, params.*(field.member));
  }

  std::vector<std::string> build_macros() const {
    std::vector<std::string> names;
    for (const auto& field : fields)
      if (field.kind == ParameterKind::Build) names.push_back(field.name);
    return names;
  }
};

// What the macro contract test needs of a family: for each variant, the kernel and the macros its configuration
// renders; and the macros the op sets from the problem (DTYPE, transposes...), which no configuration holds.
struct VariantMacros {
  std::string variant, kernel;
  std::vector<std::string> macros;
};
struct FamilyMacros {
  std::string family;
  std::vector<VariantMacros> variants;
  std::vector<std::string> problem_macros;
};

template <typename Params>
VariantMacros macros_of(const VariantDescriptor<Params>& descriptor) {
  return {descriptor.variant, descriptor.kernel, descriptor.build_macros()};
}

}  // namespace tilecl::detail
