#include "tuning/op_registry.hpp"

#include <cctype>

#include "ops/tunable_ops.hpp"
#include "tilecl/error.hpp"

namespace tilecl::detail {

const std::vector<TunableOp>& tunable_op_registry() {
  static const std::vector<TunableOp> registry = [] {
    std::vector<TunableOp> all;
    for (auto&& family : {elementwise_tunable_ops()}) all.insert(all.end(), family.begin(), family.end());
    for (auto&& op : transpose_tunable_ops()) all.push_back(op);
    for (auto&& op : reduce_tunable_ops()) all.push_back(op);
    for (auto&& op : gemm_tunable_ops()) all.push_back(op);
    for (auto&& op : color_tunable_ops()) all.push_back(op);
    for (auto&& op : convolve_tunable_ops()) all.push_back(op);
    for (auto&& op : gemv_tunable_ops()) all.push_back(op);
    for (auto&& op : gemm_batched_tunable_ops()) all.push_back(op);
    return all;
  }();
  return registry;
}

const TunableOp& find_tunable_op(const std::string& name) {
  std::string known;
  for (const auto& op : tunable_op_registry()) {
    if (op.description.name == name) return op;
    known += (known.empty() ? "" : ", ") + op.description.name;
  }
  throw Error("tuning", "op", CL_INVALID_VALUE, "no tunable op '" + name + "' (known: " + known + ")");
}

std::uint64_t parse_size(const std::string& op, const std::string& text) {
  std::string digits = text;
  auto equals = digits.find('=');
  if (equals != std::string::npos) digits = digits.substr(equals + 1);
  try {
    auto caret = digits.find('^');
    std::size_t used = 0;
    if (caret != std::string::npos) {
      if (digits.substr(0, caret) != "2") throw std::invalid_argument(text);
      const unsigned long long exponent = std::stoull(digits.substr(caret + 1), &used);
      if (used != digits.size() - caret - 1 || exponent > 62) throw std::invalid_argument(text);
      return std::uint64_t{1} << exponent;
    }
    if (digits.empty() || !std::isdigit(static_cast<unsigned char>(digits[0]))) throw std::invalid_argument(text);
    const unsigned long long value = std::stoull(digits, &used);
    if (used != digits.size()) throw std::invalid_argument(text);
    return value;
  } catch (const std::logic_error&) {
    throw Error(op, "shape", CL_INVALID_VALUE, "'" + text + "' is not a size (e.g. 4096, n=4096 or 2^12)");
  }
}

std::vector<std::uint64_t> parse_sizes(const std::string& op, const std::string& text) {
  std::vector<std::uint64_t> sizes;
  std::size_t start = 0;
  while (start <= text.size()) {
    auto cross = text.find('x', start);
    if (cross == std::string::npos) cross = text.size();
    sizes.push_back(parse_size(op, text.substr(start, cross - start)));
    start = cross + 1;
  }
  return sizes;
}

std::vector<std::uint64_t> parse_dimensions(const std::string& op, const std::string& text, std::size_t count) {
  std::vector<std::uint64_t> sizes = parse_sizes(op, text);
  if (sizes.size() != count)
    throw Error(op, "shape", CL_INVALID_VALUE,
                "'" + text + "' should have " + std::to_string(count) + " sizes separated by 'x'");
  return sizes;
}

}  // namespace tilecl::detail
