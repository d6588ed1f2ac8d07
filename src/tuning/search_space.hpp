// Search spaces as data: for each kernel variant, its parameters with candidate values and the
// constraints a combination must meet (divisibility, local memory, work-group limits of the device).
#pragma once

#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include "build_options.hpp"
#include "tilecl/device.hpp"
#include "tilecl/tuning.hpp"

namespace tilecl::detail {

using Config = tuning::Parameters;
using Values = std::map<std::string, std::int64_t>;

// Build parameters become -D macros (a new program); launch parameters only shape the NDRange (no compile).
enum class ParameterKind { Build, Launch };

// Every value an override or a tuning database may set lies in [low, high] (checked before any constraint,
// so constraints never see absurd values): the bound on work per item, registers and local memory that keeps
// every accepted configuration compilable and quick. The default bound is wide; spaces tighten it.
constexpr std::int64_t kWidestParameterValue = std::int64_t{1} << 20;

struct Parameter {
  std::string name;
  std::vector<std::int64_t> candidates;
  ParameterKind kind = ParameterKind::Build;
  std::int64_t low = 0, high = kWidestParameterValue;
};

struct Constraint {
  std::string description;  // shown when an override is refused: "TILE_M % (WG_X * VEC) == 0"
  std::function<bool(const Values&, const DeviceInfo&)> holds;
};

struct VariantSpace {
  std::string variant;
  std::vector<Parameter> parameters;
  std::vector<Constraint> constraints;
  std::string family = {};  // the kernel family its programs build from, when not the op's (gemm's "gemv")
};

class SearchSpace {
 public:
  SearchSpace() = default;
  explicit SearchSpace(std::vector<VariantSpace> variants) : variants_(std::move(variants)) {}

  const std::vector<VariantSpace>& variants() const { return variants_; }
  const VariantSpace* find(const std::string& variant) const;

  // Every combination of candidates that meets its variant's constraints on this device, variant by
  // variant, in declaration order; at most `per_variant` of each variant (the first ones in that order).
  std::vector<Config> enumerate(const DeviceInfo& device,
                                std::size_t per_variant = std::numeric_limits<std::size_t>::max()) const;

  // The configurations that build `config`'s program: its variant with its build parameters, every combination
  // of the launch parameters' candidates that meets the constraints, in enumerate's order. Walks the launch
  // parameters' combinations only, however large the space.
  std::vector<Config> same_program_configs(const Config& config, const DeviceInfo& device) const;

  // How many combinations of candidates the space has before its constraints (saturating at 2^64 - 1): what
  // enumerate walks.
  std::uint64_t combinations() const;

  // Empty when `config` names a variant of this space, sets exactly its parameters (values need not be
  // among the candidates) and meets its constraints on this device; else the reason it does not.
  std::string validate(const Config& config, const DeviceInfo& device) const;

  // Adds the config's build parameters as -D macros.
  void add_build_macros(const Config& config, BuildOptions& options) const;

  // Whether two configs build the same program (they differ in launch parameters only).
  bool same_program(const Config& a, const Config& b) const;

 private:
  std::vector<VariantSpace> variants_;
};

// Helpers for writing constraints.
inline std::int64_t at(const Values& values, const char* name) { return values.at(name); }
bool is_power_of_two(std::int64_t value);

}  // namespace tilecl::detail
