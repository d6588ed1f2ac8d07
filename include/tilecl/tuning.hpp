// Tuning: which kernel variant and parameters an op uses on a device, where they came from, and how to
// change them. See docs/TUNING.md for the whole mechanism. Every function here is thread-safe; a key being
// tuned by one thread makes others that need it wait for the result.
//
// Names: `op` is an op's name as in tunable_ops() ("axpy", "gemm", "gaussian_blur", ...), `dtype` an element
// type name ("float", "double", "int32", "uint8"), `shape` the syntax of `tilecl tune --shape` for that op
// ("4096x4096x4096" for gemm, "2^20" for axpy, ...). An unknown op, dtype or malformed shape raises
// tilecl::Error (CL_INVALID_VALUE).
#pragma once

#include <CL/opencl.hpp>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace tilecl::tuning {

// A kernel variant and the values of its tunables (build macros and launch sizes).
struct Parameters {
  std::string variant;
  std::map<std::string, std::int64_t> values;

  // The value of a tunable; throws tilecl::Error when the variant has no such parameter.
  std::int64_t value(const std::string& name) const;
  // "regblock TILE_M=64 TILE_N=64 VEC=4", parsed back by parse().
  std::string to_string() const;
  static Parameters parse(const std::string& text);

  bool operator==(const Parameters& other) const { return variant == other.variant && values == other.values; }
  bool operator!=(const Parameters& other) const { return !(*this == other); }
  bool operator<(const Parameters& other) const {
    return variant != other.variant ? variant < other.variant : values < other.values;
  }
};

// The mode set by TILECL_TUNE (read on every call): off (never tune: overrides, database entries, else device-derived
// defaults), first-use (default: tune a key the first time a call meets it, within TILECL_TUNE_BUDGET_MS), full (like
// first-use, but search the whole space within the budget).
enum class Mode { Off, FirstUse, Full };
Mode mode();

// Where a call's parameters came from; origin_name() gives "override", "database", "first-use", "tune" or
// "default".
enum class Origin { Override, Database, FirstUse, Tune, Default };
const char* origin_name(Origin origin);

struct Choice {
  Parameters parameters;
  Origin origin = Origin::Default;
  std::string bucket;  // the shape bucket the choice is stored under
};

// The parameters a call of `op` on `dtype` at `shape` would use on the queue's device, resolved exactly as
// the call resolves them (so with TILECL_TUNE=first-use this may tune). Shapes use the syntax of
// `tilecl tune --shape` (see tunable_ops()).
Choice parameters_for(const cl::CommandQueue& queue, const std::string& op, const std::string& dtype,
                      const std::string& shape);

// Forces `parameters` for every call of `op` on `dtype` on devices with this device's fingerprint, in this
// process (like CLBlast's OverrideParameters). Validated against the op's search space constraints and the
// device's limits (valid for at least one of the op's shape classes, e.g. gemm's "gemv" variant, which only its
// calls with m or n of 1..8 can run); throws tilecl::Error when invalid. Overrides win over the database and tuning.
void override_parameters(const cl::Device& device, const std::string& op, const std::string& dtype,
                         const Parameters& parameters);

// Forgets overrides and every choice held in memory (the database on disk is kept), so the next call of each
// key resolves again. Calls running meanwhile keep the parameters they already resolved.
void clear();

// The ops the tuner knows, with their family, dtypes, shape syntax and representative shapes (what
// `tilecl tune` tunes when no --shape is given).
struct OpDescription {
  std::string name;
  std::string family;
  std::vector<std::string> dtypes;
  std::string shape_syntax;
  std::vector<std::string> default_shapes;
};
std::vector<OpDescription> tunable_ops();

}  // namespace tilecl::tuning
