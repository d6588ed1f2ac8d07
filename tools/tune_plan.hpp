// What `tilecl tune` will tune: the keys (op, dtype, shape bucket) its options select, in order, each with its
// subject, whether the database has it already, and how its shape is timed. Wrong words are UsageErrors.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "tilecl/device.hpp"
#include "tuning/op_registry.hpp"

namespace tilecl::tool {

struct TuneSelection {
  std::vector<std::string> families;  // empty: every family
  std::vector<std::string> ops;       // empty: every op of the families
  std::vector<std::string> dtypes;    // empty: every dtype of each op
  std::vector<std::string> shapes;    // empty: each op's representative shapes
  bool force = false;                 // tune keys the database has too
};

struct PlannedKey {
  const detail::TunableOp* op = nullptr;
  std::string dtype;
  std::string shape;  // as given (or the op's default shape)
  std::unique_ptr<detail::TuningSubject> subject;
  detail::TuningKey key;
  std::string timed_shape;         // the bucket's representative, which the tuner times
  bool at_representative = false;  // the given shape is not the representative it is tuned at
  bool already_tuned = false;      // the database has a `tune` entry for the key and the current kernel source
  std::size_t candidates = 0;      // configurations in the key's search space on this device
};

struct TunePlan {
  std::vector<PlannedKey> keys;      // every selected key, already tuned ones included
  std::vector<std::string> skipped;  // what was left out and why ("gemm double: the device has no fp64")
  std::size_t to_tune() const;
};

// The valid values of --family, --op and --dtype, for the option checks and --help.
std::vector<std::string> tune_families();
std::vector<std::string> tune_ops();
std::vector<std::string> tune_dtypes();
// The text --help ends with: every op with its family, dtypes and shape syntax.
std::string tune_help_footer();

// The plan for `selection` on `device`. Throws UsageError for an op without a selected dtype, a shape the op
// cannot read, or a selection that leaves nothing to tune.
TunePlan plan_tuning(const TuneSelection& selection, const DeviceInfo& device);

}  // namespace tilecl::tool
