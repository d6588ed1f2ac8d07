// Reading, damaging and forging the files of tilecl's disk cache, for the damaged-caches and cache-trust suites.
#pragma once

#include <doctest/doctest.h>

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <string>
#include <vector>

#include "binary_cache.hpp"
#include "kernel_sources.hpp"
#include "support/fixture.hpp"

namespace tilecl::test {

inline std::string text_of(const std::filesystem::path& path) {
  std::ifstream file(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
}

inline void replace_with(const std::filesystem::path& path, const std::string& text) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
}

inline void replace_with_bytes(const std::filesystem::path& path, const std::vector<unsigned char>& bytes) {
  replace_with(path, std::string(bytes.begin(), bytes.end()));
}

inline std::vector<std::filesystem::path> files_with_extension(const std::filesystem::path& root,
                                                               const std::string& extension) {
  std::vector<std::filesystem::path> files;
  std::error_code error;
  for (std::filesystem::recursive_directory_iterator it(root, error), end; !error && it != end; it.increment(error))
    if (it->path().extension() == extension) files.push_back(it->path());
  return files;
}

// The key text in the header of a cached program file (magic, u32 format, u32 key length, key text).
inline std::string binary_key_text(const std::string& file) {
  std::uint32_t length = 0;
  REQUIRE(file.size() >= 16);
  std::memcpy(&length, file.data() + 12, sizeof(length));
  REQUIRE(file.size() >= 16 + std::size_t{length});
  return file.substr(16, length);
}

// The value of a "name=value" line of a key text.
inline std::string key_value(const std::string& key_text, const std::string& name) {
  const auto at = key_text.find("\n" + name + "=");
  REQUIRE_MESSAGE(at != std::string::npos, "no " << name << " in the key");
  const auto start = at + name.size() + 2;
  return key_text.substr(start, key_text.find('\n', start) - start);
}

// What an attacker who may write the cache plants: a valid file for the same key as the cached elementwise program
// `file` (same key text and kernel names, a correct checksum) whose axpy computes (alpha + 1) * x + y. Compiled
// once per key and process (the cases of a suite share the key).
inline std::vector<unsigned char> sabotaged_binary(const std::filesystem::path& file) {
  static std::map<std::string, std::vector<unsigned char>> made;
  const std::string bytes = text_of(file);
  const std::string key = binary_key_text(bytes);
  if (made.count(key) != 0) return made[key];
  REQUIRE(key_value(key, "family") == "elementwise");
  std::string why;
  const auto original = detail::decode_binary_file(std::vector<unsigned char>(bytes.begin(), bytes.end()), key, why);
  REQUIRE_MESSAGE(original.has_value(), why);
  std::string source = detail::kernel_source("elementwise").text;
  for (auto at = source.find("alpha *"); at != std::string::npos; at = source.find("alpha *", at + 12))
    source.replace(at, 7, "(alpha + 1) *");
  cl::Program program(device().context, source);
  program.build({device().device}, key_value(key, "options").c_str());
  const auto binaries = program.getInfo<CL_PROGRAM_BINARIES>();
  REQUIRE(binaries.size() == 1);
  return made[key] = detail::encode_binary_file(key, {original->kernels, binaries[0]});
}

}  // namespace tilecl::test
