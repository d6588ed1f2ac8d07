#include "tune_plan.hpp"

#include <algorithm>

#include "kernel_sources.hpp"
#include "tilecl/error.hpp"
#include "tuning/tuning_db.hpp"
#include "usage.hpp"

namespace tilecl::tool {
namespace {

bool contains(const std::vector<std::string>& list, const std::string& value) {
  return std::find(list.begin(), list.end(), value) != list.end();
}

bool tuned_in(const detail::TuningRecords& records, const detail::TuningKey& key, const std::string& source) {
  return std::any_of(records.entries.begin(), records.entries.end(), [&](const auto& entry) {
    return entry.op == key.op && entry.dtype == key.dtype && entry.bucket == key.bucket &&
           entry.source_hash == source && entry.origin == "tune";
  });
}

// Shapes name the same problem when they parse to the same sizes ("2^13" and "n=8192"); shapes that are not
// plain sizes (images) compare as text.
bool same_shape(const std::string& op, const std::string& a, const std::string& b) {
  try {
    return detail::parse_sizes(op, a) == detail::parse_sizes(op, b);
  } catch (const Error&) {
    return a == b;
  }
}

// The ops the selection names, in registry order.
std::vector<const detail::TunableOp*> selected_ops(const TuneSelection& selection) {
  std::vector<const detail::TunableOp*> ops;
  for (const auto& op : detail::tunable_op_registry()) {
    if (!selection.families.empty() && !contains(selection.families, op.description.family)) continue;
    if (!selection.ops.empty() && !contains(selection.ops, op.description.name)) continue;
    ops.push_back(&op);
  }
  for (const auto& name : selection.ops) {
    const auto& op = detail::find_tunable_op(name);
    if (!selection.families.empty() && !contains(selection.families, op.description.family))
      throw UsageError("--op " + name + " is in the family " + op.description.family + ", not in --family");
  }
  return ops;
}

PlannedKey plan_key(const detail::TunableOp& op, const std::string& dtype, const std::string& shape,
                    const DeviceInfo& device, const detail::TuningRecords& existing) {
  PlannedKey planned;
  planned.op = &op;
  planned.dtype = dtype;
  planned.shape = shape;
  try {
    planned.subject = op.make_subject(dtype, shape);
  } catch (const Error& error) {
    throw UsageError("--shape '" + shape + "' is not a shape of " + op.description.name + " (" +
                     op.description.shape_syntax + "): " + error.what());
  }
  planned.key = planned.subject->key();
  planned.timed_shape = planned.subject->timing_shape();
  planned.at_representative = !same_shape(op.description.name, shape, planned.timed_shape);
  planned.already_tuned = tuned_in(existing, planned.key, detail::kernel_source(planned.subject->family()).hash);
  planned.candidates = planned.subject->search_space(device).enumerate(device).size();
  return planned;
}

// The selection's dtypes that the op has kernels for; a dtype it lacks is an error when ops were named.
std::vector<std::string> selected_dtypes(const TuneSelection& selection, const tuning::OpDescription& description) {
  std::vector<std::string> dtypes;
  for (const auto& dtype : selection.dtypes.empty() ? description.dtypes : selection.dtypes) {
    if (contains(description.dtypes, dtype)) {
      dtypes.push_back(dtype);
    } else if (!selection.ops.empty()) {
      throw UsageError("--dtype " + dtype + ": " + description.name + " has no " + dtype + " kernels");
    }
  }
  return dtypes;
}

// Adds the key of (op, dtype, shape) to the plan, or to the skipped list when an earlier shape has its bucket.
void add_key(TunePlan& plan, const detail::TunableOp& op, const std::string& dtype, const std::string& shape,
             const DeviceInfo& device, const detail::TuningRecords& existing) {
  PlannedKey planned = plan_key(op, dtype, shape, device, existing);
  const auto same_key = [&](const PlannedKey& other) {
    return other.key.op == planned.key.op && other.key.dtype == planned.key.dtype &&
           other.key.bucket == planned.key.bucket;
  };
  const auto earlier = std::find_if(plan.keys.begin(), plan.keys.end(), same_key);
  if (earlier != plan.keys.end()) {
    plan.skipped.push_back(op.description.name + " " + dtype + " " + shape + ": same bucket (" + planned.key.bucket +
                           ") as " + earlier->shape);
    return;
  }
  plan.keys.push_back(std::move(planned));
}

}  // namespace

std::size_t TunePlan::to_tune() const {
  return static_cast<std::size_t>(
      std::count_if(keys.begin(), keys.end(), [](const auto& k) { return !k.already_tuned; }));
}

std::vector<std::string> tune_families() {
  std::vector<std::string> families;
  for (const auto& op : detail::tunable_op_registry())
    if (!contains(families, op.description.family)) families.push_back(op.description.family);
  return families;
}

std::vector<std::string> tune_ops() {
  std::vector<std::string> names;
  for (const auto& op : detail::tunable_op_registry()) names.push_back(op.description.name);
  return names;
}

std::vector<std::string> tune_dtypes() {
  std::vector<std::string> dtypes;
  for (const auto& op : detail::tunable_op_registry())
    for (const auto& dtype : op.description.dtypes)
      if (!contains(dtypes, dtype)) dtypes.push_back(dtype);
  return dtypes;
}

std::string tune_help_footer() {
  std::string text = "Ops (family; dtypes; --shape syntax):\n";
  for (const auto& op : detail::tunable_op_registry()) {
    std::string dtypes;
    for (const auto& dtype : op.description.dtypes) dtypes += (dtypes.empty() ? "" : ", ") + dtype;
    text += "  " + op.description.name + " (" + op.description.family + "; " + dtypes + ")\n      " +
            op.description.shape_syntax + "\n";
  }
  return text +
         "A shape is tuned at the representative of its bucket (every shape of the bucket shares the result); the "
         "table says so when it is not the shape given.\nSizes: 4096, n=4096 or 2^12. Ctrl-C stops after the "
         "current candidate and keeps the keys already tuned (exit status 130).";
}

TunePlan plan_tuning(const TuneSelection& selection, const DeviceInfo& device) {
  TunePlan plan;
  const detail::TuningRecords existing = detail::TuningDatabase(device).load();
  for (const auto* op : selected_ops(selection)) {
    const auto& description = op->description;
    for (const auto& dtype : selected_dtypes(selection, description)) {
      if (dtype == "double" && !device.fp64) {
        plan.skipped.push_back(description.name + " double: the device has no fp64");
        continue;
      }
      for (const auto& shape : selection.shapes.empty() ? description.default_shapes : selection.shapes)
        add_key(plan, *op, dtype, shape, device, existing);
    }
  }
  if (plan.keys.empty() && plan.skipped.empty()) throw UsageError("the options select no op with the dtype asked for");
  for (auto& key : plan.keys) key.already_tuned = key.already_tuned && !selection.force;
  return plan;
}

}  // namespace tilecl::tool
