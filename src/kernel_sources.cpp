#include "kernel_sources.hpp"

#include <fstream>
#include <map>
#include <mutex>
#include <optional>
#include <sstream>

#include "environment.hpp"
#include "hash.hpp"
#include "tilecl/error.hpp"

namespace tilecl::detail {
namespace {

const EmbeddedFamily* find_family(const std::string& family) {
  for (const auto& entry : embedded_families()) {
    if (family == entry.family) return &entry;
  }
  return nullptr;
}

std::string read_file(const std::string& path, const std::string& family) {
  std::ifstream file(path, std::ios::binary);
  if (!file) throw Error("kernel_source", family, CL_INVALID_VALUE, "cannot read " + path + " (TILECL_KERNEL_DIR)");
  std::ostringstream text;
  text << file.rdbuf();
  return text.str();
}

// The family text follows the common header; #line keeps compiler messages pointing at the family file.
std::string assemble(const std::string& common, const std::string& family_text, const std::string& family) {
  return common + "\n#line 1 \"" + family + ".cl\"\n" + family_text;
}

KernelSource load_source(const std::string& family, const std::optional<std::string>& directory) {
  KernelSource source;
  source.family = family;
  if (directory) {
    std::string path = *directory + "/" + family + ".cl";
    source.text = assemble(read_file(*directory + "/common.clh", family), read_file(path, family), family);
    source.origin = path;
  } else {
    const EmbeddedFamily* entry = find_family(family);
    if (entry == nullptr) throw Error("kernel_source", family, CL_INVALID_VALUE, "no kernel family of that name");
    source.text = assemble(kEmbeddedCommonHeader, entry->source, family);
    source.origin = "embedded";
  }
  source.hash = hash_hex(source.text);
  return source;
}

}  // namespace

// Read once per process, family and TILECL_KERNEL_DIR: a kernel developer restarts the process after
// editing a file.
KernelSource kernel_source(const std::string& family) {
  static std::mutex mutex;
  static std::map<std::pair<std::string, std::string>, KernelSource> loaded;
  const auto directory = env_value("TILECL_KERNEL_DIR");
  const auto key = std::make_pair(directory.value_or(""), family);
  std::lock_guard<std::mutex> lock(mutex);
  auto found = loaded.find(key);
  if (found == loaded.end()) found = loaded.emplace(key, load_source(family, directory)).first;
  return found->second;
}

std::vector<std::string> kernel_families() {
  std::vector<std::string> names;
  for (const auto& entry : embedded_families()) names.emplace_back(entry.family);
  return names;
}

std::vector<std::string> kernel_names(const std::string& family) {
  const EmbeddedFamily* entry = find_family(family);
  if (entry == nullptr) throw Error("kernel_source", family, CL_INVALID_VALUE, "no kernel family of that name");
  return {entry->kernels.begin(), entry->kernels.end()};
}

}  // namespace tilecl::detail
