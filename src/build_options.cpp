#include "build_options.hpp"

#include <cctype>

#include "tilecl/error.hpp"

namespace tilecl::detail {
namespace {

void check_macro_name(const std::string& name) {
  bool valid = !name.empty() && (std::isalpha(static_cast<unsigned char>(name[0])) || name[0] == '_');
  for (char c : name) valid = valid && (std::isalnum(static_cast<unsigned char>(c)) || c == '_');
  if (!valid) throw Error("build_options", name, CL_INVALID_BUILD_OPTIONS, "not a valid macro name");
}

}  // namespace

BuildOptions& BuildOptions::define(const std::string& name, std::int64_t value) {
  return define(name, std::to_string(value));
}

BuildOptions& BuildOptions::define(const std::string& name, const std::string& value) {
  check_macro_name(name);
  for (char c : value) {
    if (std::isspace(static_cast<unsigned char>(c)) || c == '"' || c == '\'')
      throw Error("build_options", name, CL_INVALID_BUILD_OPTIONS, "macro value '" + value + "' needs quoting");
  }
  macros_[name] = value;
  return *this;
}

BuildOptions& BuildOptions::flag(const std::string& flag) {
  if (flag.empty() || flag[0] != '-')
    throw Error("build_options", flag, CL_INVALID_BUILD_OPTIONS, "a compiler flag starts with '-'");
  flags_.insert(flag);
  return *this;
}

std::string BuildOptions::render() const {
  std::string text;
  for (const auto& [name, value] : macros_) {
    if (!text.empty()) text += ' ';
    text += "-D" + name + "=" + value;
  }
  for (const auto& flag : flags_) {
    if (!text.empty()) text += ' ';
    text += flag;
  }
  return text;
}

}  // namespace tilecl::detail
