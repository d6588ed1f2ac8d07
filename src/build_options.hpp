// The -D macros (and compiler flags) a program is built with, rendered in a stable order so that equal
// settings always produce equal option strings, and therefore equal cache keys.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>

namespace tilecl::detail {

class BuildOptions {
 public:
  BuildOptions& define(const std::string& name, std::int64_t value);
  BuildOptions& define(const std::string& name, const std::string& value);
  BuildOptions& define(const std::string& name, const char* value) { return define(name, std::string(value)); }
  // A compiler flag such as "-cl-mad-enable".
  BuildOptions& flag(const std::string& flag);

  bool has(const std::string& name) const { return macros_.count(name) != 0; }
  const std::map<std::string, std::string>& macros() const { return macros_; }

  // "-DA=1 -DB=float -cl-mad-enable": macros sorted by name, then flags sorted.
  std::string render() const;

  bool operator==(const BuildOptions& other) const { return render() == other.render(); }

 private:
  std::map<std::string, std::string> macros_;
  std::set<std::string> flags_;
};

}  // namespace tilecl::detail
