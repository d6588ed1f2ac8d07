#include "binary_cache.hpp"

#include <fcntl.h>
#include <sys/stat.h>

#include <cstring>

#include "file_store.hpp"
#include "hash.hpp"
#include "log.hpp"
#include "statistics.hpp"
#include "tilecl/runtime.hpp"

namespace tilecl::detail {

namespace fs = std::filesystem;

namespace {

constexpr char kMagic[8] = {'T', 'C', 'L', 'P', 'R', 'O', 'G', '1'};
constexpr std::size_t kMaxTextLength = 1 << 20;

template <typename T>
void put(std::vector<unsigned char>& out, T value) {
  unsigned char bytes[sizeof(T)];
  std::memcpy(bytes, &value, sizeof(T));
  out.insert(out.end(), bytes, bytes + sizeof(T));
}

template <typename T>
bool get(const std::vector<unsigned char>& in, std::size_t& at, T& value) {
  if (in.size() < at || in.size() - at < sizeof(T)) return false;
  std::memcpy(&value, in.data() + at, sizeof(T));
  at += sizeof(T);
  return true;
}

// A u32 length and that many bytes of text.
bool get_text(const std::vector<unsigned char>& in, std::size_t& at, std::string& text) {
  std::uint32_t length = 0;
  if (!get(in, at, length) || length > kMaxTextLength || in.size() - at < length) return false;
  text.assign(reinterpret_cast<const char*>(in.data() + at), length);
  at += length;
  return true;
}

std::string joined(const std::vector<std::string>& names) {
  std::string text;
  for (std::size_t i = 0; i < names.size(); ++i) text += (i > 0 ? ";" : "") + names[i];
  return text;
}

std::vector<std::string> split(const std::string& text) {
  std::vector<std::string> names;
  if (text.empty()) return names;
  std::size_t start = 0;
  for (std::size_t end = text.find(';'); end != std::string::npos; end = text.find(';', start)) {
    names.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  names.push_back(text.substr(start));
  return names;
}

std::uint64_t checksum(const std::string& key_text, const std::string& kernels, const unsigned char* binary,
                       std::size_t size) {
  return fnv1a64(binary, size, fnv1a64(kernels.data(), kernels.size(), fnv1a64(key_text)));
}

std::string file_name(const BinaryKey& key) { return hash_hex(key.text) + ".bin"; }

std::optional<TrustedDirectory> program_folder(const CacheRoot& root, const BinaryKey& key, bool create) {
  return open_cache_folder(root, {"programs", key.fingerprint}, create);
}

// Reports a rejected file once, and deletes it unless it is in the read-only cache.
void discard(const CacheRoot& root, const TrustedDirectory& folder, const std::string& name,
             const std::string& reason) {
  const fs::path path = folder.path() / name;
  counters().disk_rejects++;
  if (root.read_only) {
    warn_once(
        "binary-cache-reject:" + path.string(),
        "ignoring cached program " + path.string() + " of the read-only cache: " + reason + "; compiling from source");
    return;
  }
  warn_once("binary-cache-reject:" + path.string(),
            "discarding cached program " + path.string() + ": " + reason + "; rebuilding from source");
  remove_entry(folder, name);
}

// The file's program when it is there and valid; a rejected file is discarded.
std::optional<CachedProgram> load_from(const CacheRoot& root, const BinaryKey& key) {
  auto folder = program_folder(root, key, false);
  if (!folder) return std::nullopt;
  const std::string name = file_name(key);
  FileRead file = read_file(*folder, name, kMaxBinaryFileBytes);
  if (file.outcome == FileRead::Outcome::Missing) return std::nullopt;
  if (file.outcome != FileRead::Outcome::Read) {
    discard(root, *folder, name, file.why);
    return std::nullopt;
  }
  std::string why;
  auto program = decode_binary_file(file.bytes, key.text, why);
  if (!program) discard(root, *folder, name, why);
  return program;
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

std::vector<unsigned char> encode_binary_file(const std::string& key_text, const CachedProgram& program) {
  const std::string kernels = joined(program.kernels);
  std::vector<unsigned char> out(kMagic, kMagic + sizeof(kMagic));
  put<std::uint32_t>(out, kBinaryCacheFormat);
  put<std::uint32_t>(out, static_cast<std::uint32_t>(key_text.size()));
  out.insert(out.end(), key_text.begin(), key_text.end());
  put<std::uint32_t>(out, static_cast<std::uint32_t>(kernels.size()));
  out.insert(out.end(), kernels.begin(), kernels.end());
  put<std::uint64_t>(out, program.binary.size());
  put<std::uint64_t>(out, checksum(key_text, kernels, program.binary.data(), program.binary.size()));
  out.insert(out.end(), program.binary.begin(), program.binary.end());
  return out;
}

std::optional<CachedProgram> decode_binary_file(const std::vector<unsigned char>& bytes, const std::string& key_text,
                                                std::string& why) {
  if (bytes.size() < sizeof(kMagic) || std::memcmp(bytes.data(), kMagic, sizeof(kMagic)) != 0) {
    why = "not a tilecl program file (bad magic)";
    return std::nullopt;
  }
  std::size_t at = sizeof(kMagic);
  std::uint32_t format = 0;
  if (!get(bytes, at, format) || format != kBinaryCacheFormat) {
    why = "unsupported format " + std::to_string(format);
    return std::nullopt;
  }
  std::string stored_key, kernels;
  if (!get_text(bytes, at, stored_key)) {
    why = "truncated header";
    return std::nullopt;
  }
  if (stored_key != key_text) {
    why = "written for another key (library, source, options or driver differ)";
    return std::nullopt;
  }
  std::uint64_t length = 0, stored_checksum = 0;
  if (!get_text(bytes, at, kernels) || !get(bytes, at, length) || !get(bytes, at, stored_checksum) ||
      bytes.size() - at != length) {
    why = "truncated or over-long file";
    return std::nullopt;
  }
  if (checksum(key_text, kernels, bytes.data() + at, length) != stored_checksum) {
    why = "checksum mismatch (damaged file)";
    return std::nullopt;
  }
  return CachedProgram{split(kernels),
                       std::vector<unsigned char>(bytes.begin() + static_cast<std::ptrdiff_t>(at), bytes.end())};
}

std::optional<LoadedBinary> load_binary(const BinaryKey& key) {
  for (const auto& root : readable_caches())
    if (auto program = load_from(root, key)) return LoadedBinary{std::move(*program), root};
  return std::nullopt;
}

void store_binary(const BinaryKey& key, const CachedProgram& program) {
  const auto root = writable_cache();
  if (!root || program.binary.empty()) return;
  const std::vector<unsigned char> file = encode_binary_file(key.text, program);
  if (file.size() > kMaxBinaryFileBytes) {
    log_verbose("disk cache: a binary of " + std::to_string(file.size()) +
                " bytes is above the size limit; not cached");
    return;
  }
  auto folder = program_folder(*root, key, true);
  if (!folder) return;
  const std::string name = file_name(key);
  // Something other than a file in the way was reported by load_binary() and could not be removed.
  struct stat status {};
  if (::fstatat(folder->descriptor(), name.c_str(), &status, AT_SYMLINK_NOFOLLOW) == 0 && !S_ISREG(status.st_mode))
    return;
  try {
    write_atomically(*folder, name, file);
    counters().disk_writes++;
    log_verbose("disk cache: wrote " + (folder->path() / name).string());
  } catch (const std::exception& error) {
    warn_once("binary-cache-write:" + folder->path().string(),
              std::string("cannot write the program cache (continuing without it): ") + error.what());
  }
}

void reject_binary(const BinaryKey& key, const CacheRoot& source, const std::string& reason) {
  if (auto folder = program_folder(source, key, false)) discard(source, *folder, file_name(key), reason);
}

}  // namespace tilecl::detail
