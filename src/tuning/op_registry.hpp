// The tunable ops, for `tilecl tune`, tuning::parameters_for() and override validation. Each op module
// contributes its entries through a function declared in ops/tunable_ops.hpp.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "tilecl/tuning.hpp"
#include "tuning/tuning_subject.hpp"

namespace tilecl::detail {

struct TunableOp {
  tuning::OpDescription description;
  // A subject for (dtype, shape); throws tilecl::Error for an unknown dtype or a malformed shape.
  std::function<std::unique_ptr<TuningSubject>(const std::string& dtype, const std::string& shape)> make_subject;
};

const std::vector<TunableOp>& tunable_op_registry();
// Throws tilecl::Error naming the known ops when `name` is not one of them.
const TunableOp& find_tunable_op(const std::string& name);

// Shape text helpers: "4096x4096x4096" or "n=1048576" or "2^20" -> numbers. Throws tilecl::Error.
// The sizes of "AxBx..." in order (each as parse_size reads it), however many there are.
std::vector<std::uint64_t> parse_sizes(const std::string& op, const std::string& text);
std::vector<std::uint64_t> parse_dimensions(const std::string& op, const std::string& text, std::size_t count);
std::uint64_t parse_size(const std::string& op, const std::string& text);

}  // namespace tilecl::detail
