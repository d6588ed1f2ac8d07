#include "tuning/constraints.hpp"

#include <algorithm>
#include <limits>

namespace tilecl::detail::constraints {
namespace {

std::string joined(const std::vector<std::string>& names, const char* separator) {
  std::string text;
  for (const auto& name : names) text += (text.empty() ? "" : separator) + name;
  return text;
}

std::string parenthesized_product(const std::vector<std::string>& names) {
  return names.size() == 1 ? names.front() : "(" + joined(names, " * ") + ")";
}

}  // namespace

std::int64_t product(const Values& values, const std::vector<std::string>& names) {
  constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
  std::int64_t result = 1;
  for (const auto& name : names) {
    const std::int64_t value = at(values, name.c_str());
    const bool negative = (result < 0) != (value < 0);
    if (__builtin_mul_overflow(result, value, &result)) return negative ? -kMax : kMax;
  }
  return result;
}

Constraint one_of(const std::string& name, const std::vector<std::int64_t>& allowed) {
  std::string set;
  for (auto value : allowed) set += (set.empty() ? "" : ", ") + std::to_string(value);
  return {name + " in {" + set + "}", [name, allowed](const Values& v, const DeviceInfo&) {
            return std::find(allowed.begin(), allowed.end(), at(v, name.c_str())) != allowed.end();
          }};
}

Constraint is_switch(const std::string& name) { return one_of(name, {0, 1}); }

Constraint multiple_of(const std::string& value, const std::vector<std::string>& factors) {
  return {value + " % " + parenthesized_product(factors) + " == 0",
          [value, factors](const Values& v, const DeviceInfo&) {
            const std::int64_t divisor = product(v, factors);
            return divisor > 0 && at(v, value.c_str()) % divisor == 0;
          }};
}

Constraint product_at_most(const std::vector<std::string>& factors, std::int64_t limit, const std::string& why) {
  return {joined(factors, " * ") + " <= " + std::to_string(limit) + " (" + why + ")",
          [factors, limit](const Values& v, const DeviceInfo&) { return product(v, factors) <= limit; }};
}

Constraint not_both(const std::string& a, const std::string& b) {
  return {"not both " + a + " and " + b,
          [a, b](const Values& v, const DeviceInfo&) { return !(at(v, a.c_str()) == 1 && at(v, b.c_str()) == 1); }};
}

Constraint work_group_fits(const std::string& x, const std::string& y, bool allow_driver_choice) {
  std::string description = x + " x " + y + " fits the device's work-group limits";
  if (allow_driver_choice) description += " (both 0: the driver chooses)";
  return {description, [x, y, allow_driver_choice](const Values& v, const DeviceInfo& d) {
            const std::int64_t wx = at(v, x.c_str()), wy = at(v, y.c_str());
            if (allow_driver_choice && wx == 0 && wy == 0) return true;
            if (wx < 1 || wy < 1) return false;
            if (static_cast<std::uint64_t>(wx) > d.max_work_item_sizes[0] ||
                static_cast<std::uint64_t>(wy) > d.max_work_item_sizes[1])
              return false;
            return static_cast<std::uint64_t>(product(v, {x, y})) <= d.max_work_group_size;
          }};
}

Constraint derived(const std::string& description, std::function<bool(const Values&, const DeviceInfo&)> holds) {
  return {description, std::move(holds)};
}

Constraint local_memory_fits(const std::string& what, std::function<std::uint64_t(const Values&)> bytes) {
  return {what + " fits the device's local memory", [bytes = std::move(bytes)](const Values& v, const DeviceInfo& d) {
            return bytes(v) <= d.local_memory_bytes;
          }};
}

}  // namespace tilecl::detail::constraints
