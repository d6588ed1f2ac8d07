// Constraints that describe themselves: each helper builds a Constraint whose description is written from the
// parameter names it was given ("TILE_M % WPT_M == 0"), so the text an override error shows can never drift
// from the test it names. Every product saturates instead of wrapping: a constraint never overflows, whatever values a
// hand-edited tuning database or an override holds (the search space also bounds every parameter by its range
// before any constraint runs).
#pragma once

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <string>
#include <vector>

#include "tuning/search_space.hpp"

namespace tilecl::detail::constraints {

// The product of the named values, saturated at INT64_MAX (never wraps).
std::int64_t product(const Values& values, const std::vector<std::string>& names);

// NAME in {a, b, ...}.
Constraint one_of(const std::string& name, const std::vector<std::int64_t>& allowed);
// NAME is 0 or 1.
Constraint is_switch(const std::string& name);
// VALUE % (F1 * F2 * ...) == 0.
Constraint multiple_of(const std::string& value, const std::vector<std::string>& factors);
// F1 * F2 * ... <= limit, with a word on why (registers, work per item...).
Constraint product_at_most(const std::vector<std::string>& factors, std::int64_t limit, const std::string& why);
// Not both A and B are 1.
Constraint not_both(const std::string& a, const std::string& b);

// A work-group of x * y work-items fits the device: each side within its item size, the product within the
// maximum work-group size. x and y are products of named values (e.g. {"TILE_N"} / {"WPT_N"} is not a product:
// use work_group_fits_with for derived sides). `allow_driver_choice`: x = y = 0 means "the driver chooses".
Constraint work_group_fits(const std::string& x, const std::string& y, bool allow_driver_choice);

// A constraint over a value derived from the parameters (a work-group side, local memory in bytes...), with
// the description given. Use when no helper above fits; `holds` must not overflow (use product()).
Constraint derived(const std::string& description, std::function<bool(const Values&, const DeviceInfo&)> holds);

// Local memory: bytes(values) <= the device's local memory.
Constraint local_memory_fits(const std::string& what, std::function<std::uint64_t(const Values&)> bytes);

}  // namespace tilecl::detail::constraints
