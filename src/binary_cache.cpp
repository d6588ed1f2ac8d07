#include "binary_cache.hpp"

#include <cstring>
#include <system_error>

#include "cache_directory.hpp"
#include "file_store.hpp"
#include "hash.hpp"
#include "log.hpp"
#include "statistics.hpp"
#include "tilecl/runtime.hpp"

namespace tilecl::detail {

namespace fs = std::filesystem;

namespace {

constexpr char kMagic[8] = {'T', 'C', 'L', 'P', 'R', 'O', 'G', '1'};
constexpr std::size_t kMaxKeyLength = 1 << 20;

template <typename T>
void put(std::vector<unsigned char>& out, T value) {
  unsigned char bytes[sizeof(T)];
  std::memcpy(bytes, &value, sizeof(T));
  out.insert(out.end(), bytes, bytes + sizeof(T));
}

template <typename T>
bool get(const std::vector<unsigned char>& in, std::size_t& at, T& value) {
  if (in.size() < at + sizeof(T)) return false;
  std::memcpy(&value, in.data() + at, sizeof(T));
  at += sizeof(T);
  return true;
}

std::uint64_t checksum(const std::string& key_text, const unsigned char* binary, std::size_t size) {
  return fnv1a64(binary, size, fnv1a64(key_text));
}

}  // namespace

BinaryKey make_binary_key(const DeviceInfo& device, const std::string& family, const std::string& source_hash,
                          const std::string& options) {
  BinaryKey key;
  key.text = std::string("library=tilecl ") + version() + "\n" + "format=" + std::to_string(kBinaryCacheFormat) + "\n" +
             "family=" + family + "\n" + "source=" + source_hash + "\n" + "options=" + options + "\n" +
             device.identity_text();
  key.fingerprint = device.fingerprint();
  return key;
}

std::optional<fs::path> binary_path(const BinaryKey& key) {
  auto root = program_cache_root();
  if (!root) return std::nullopt;
  return *root / key.fingerprint / (hash_hex(key.text) + ".bin");
}

std::vector<unsigned char> encode_binary_file(const std::string& key_text, const std::vector<unsigned char>& binary) {
  std::vector<unsigned char> out(kMagic, kMagic + sizeof(kMagic));
  put<std::uint32_t>(out, kBinaryCacheFormat);
  put<std::uint32_t>(out, static_cast<std::uint32_t>(key_text.size()));
  out.insert(out.end(), key_text.begin(), key_text.end());
  put<std::uint64_t>(out, binary.size());
  put<std::uint64_t>(out, checksum(key_text, binary.data(), binary.size()));
  out.insert(out.end(), binary.begin(), binary.end());
  return out;
}

std::optional<std::vector<unsigned char>> decode_binary_file(const std::vector<unsigned char>& bytes,
                                                             const std::string& key_text, std::string& why) {
  std::size_t at = 0;
  if (bytes.size() < sizeof(kMagic) || std::memcmp(bytes.data(), kMagic, sizeof(kMagic)) != 0) {
    why = "not a tilecl program file (bad magic)";
    return std::nullopt;
  }
  at = sizeof(kMagic);
  std::uint32_t format = 0, key_length = 0;
  if (!get(bytes, at, format) || format != kBinaryCacheFormat) {
    why = "unsupported format " + std::to_string(format);
    return std::nullopt;
  }
  if (!get(bytes, at, key_length) || key_length > kMaxKeyLength || bytes.size() < at + key_length) {
    why = "truncated header";
    return std::nullopt;
  }
  std::string stored_key(reinterpret_cast<const char*>(bytes.data() + at), key_length);
  at += key_length;
  if (stored_key != key_text) {
    why = "written for another key (library, source, options or driver differ)";
    return std::nullopt;
  }
  std::uint64_t length = 0, stored_checksum = 0;
  if (!get(bytes, at, length) || !get(bytes, at, stored_checksum) || bytes.size() - at != length) {
    why = "truncated or over-long binary";
    return std::nullopt;
  }
  if (checksum(key_text, bytes.data() + at, length) != stored_checksum) {
    why = "checksum mismatch (damaged file)";
    return std::nullopt;
  }
  return std::vector<unsigned char>(bytes.begin() + static_cast<std::ptrdiff_t>(at), bytes.end());
}

std::optional<std::vector<unsigned char>> load_binary(const BinaryKey& key) {
  auto path = binary_path(key);
  if (!path) return std::nullopt;
  std::error_code error;
  if (!fs::exists(*path, error)) return std::nullopt;
  auto bytes = read_bytes(*path);
  if (!bytes) {
    reject_binary(key, fs::is_directory(*path, error) ? "a directory, not a file" : "unreadable");
    return std::nullopt;
  }
  std::string why;
  auto binary = decode_binary_file(*bytes, key.text, why);
  if (!binary) reject_binary(key, why);
  return binary;
}

void store_binary(const BinaryKey& key, const std::vector<unsigned char>& binary) {
  auto path = binary_path(key);
  if (!path || binary.empty()) return;
  std::error_code error;
  // Something other than a file in the way was reported by load_binary() and could not be removed.
  if (fs::exists(*path, error) && !fs::is_regular_file(*path, error)) return;
  try {
    write_atomically(*path, encode_binary_file(key.text, binary));
    counters().disk_writes++;
    log_verbose("disk cache: wrote " + path->string());
  } catch (const std::exception& error) {
    warn_once("binary-cache-write:" + path->parent_path().string(),
              std::string("cannot write the program cache (continuing without it): ") + error.what());
  }
}

void reject_binary(const BinaryKey& key, const std::string& reason) {
  auto path = binary_path(key);
  if (!path) return;
  counters().disk_rejects++;
  warn_once("binary-cache-reject:" + path->string(),
            "discarding cached program " + path->string() + ": " + reason + "; rebuilding from source");
  std::error_code ignored;
  fs::remove(*path, ignored);
}

}  // namespace tilecl::detail
