// Compiled program binaries on disk, so the next process skips the compiler.
//
// File: <cache>/programs/<device fingerprint>/<hash of key text>.bin, laid out as
//   magic "TCLPROG1" | u32 format | u32 key length | key text | u32 kernels length | kernel names |
//   u64 binary length | u64 checksum | binary
// where the kernel names are those the program defines, sorted and joined by ';', and the checksum (FNV-1a 64)
// covers the key text, the kernel names and the binary. The key text names the library version, the format, the
// family, the source hash, the options and the device identity (driver included): a file is used only for its own
// key. The checksum detects damage, not forgery (anyone can recompute it): who may write the cache is settled by
// the trust checks (src/trusted_directory.hpp, SECURITY.md). A program built from a file must define exactly the
// kernels the file names, so a file holding another program's binary is rejected too.
// A file that fails any check is reported once, deleted (never in the read-only shared cache) and the program
// compiled from source instead. Every failure to read or write is tolerated: the disk cache can only make a call
// faster, never fail it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "cache_directory.hpp"
#include "tilecl/device.hpp"

namespace tilecl::detail {

constexpr unsigned kBinaryCacheFormat = 2;

// Larger files are refused before they are read (real binaries take kilobytes to a few megabytes).
constexpr std::uint64_t kMaxBinaryFileBytes = std::uint64_t{64} << 20;

struct BinaryKey {
  std::string text;         // everything the binary depends on, one "name=value" per line
  std::string fingerprint;  // the device's, for the folder name
};

BinaryKey make_binary_key(const DeviceInfo& device, const std::string& family, const std::string& source_hash,
                          const std::string& options);

// What a file holds besides its key.
struct CachedProgram {
  std::vector<std::string> kernels;  // sorted
  std::vector<unsigned char> binary;
};

// A file found for a key, and the cache it came from.
struct LoadedBinary {
  CachedProgram program;
  CacheRoot source;
};

// The stored program for the key, from the user's cache, else the read-only shared one; nullopt when there is none
// (missing, disabled, or rejected -- a rejected file is reported and, in the user's cache, deleted).
std::optional<LoadedBinary> load_binary(const BinaryKey& key);

// Stores into the user's cache, atomically; failures are reported once and otherwise ignored.
void store_binary(const BinaryKey& key, const CachedProgram& program);

// Reports (once) and deletes the file that `source` holds for the key (never in a read-only cache), after the
// driver refused the binary or the program it gave did not define the kernels the file names.
void reject_binary(const BinaryKey& key, const CacheRoot& source, const std::string& reason);

// Serialisation, exposed for tests and fuzzing.
std::vector<unsigned char> encode_binary_file(const std::string& key_text, const CachedProgram& program);
// The contents if `bytes` is a valid file for `key_text`, else nullopt with the reason in `why`.
std::optional<CachedProgram> decode_binary_file(const std::vector<unsigned char>& bytes, const std::string& key_text,
                                                std::string& why);

}  // namespace tilecl::detail
