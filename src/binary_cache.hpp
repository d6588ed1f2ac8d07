// Compiled program binaries on disk, so the next process skips the compiler.
//
// File: <cache>/programs/<device fingerprint>/<hash of key text>.bin, laid out as
//   magic "TCLPROG1" | u32 format | u32 key length | key text | u64 binary length | u64 checksum | binary
// where the checksum (FNV-1a 64) covers the key text and the binary. The key text names the library
// version, the format, the family, the source hash, the options and the device identity (driver included).
// A file that fails any check is deleted and reported once; the caller compiles from source instead.
// Every failure to read or write is tolerated: the disk cache can only make a call faster, never fail it.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "tilecl/device.hpp"

namespace tilecl::detail {

constexpr unsigned kBinaryCacheFormat = 1;

struct BinaryKey {
  std::string text;         // everything the binary depends on, one "name=value" per line
  std::string fingerprint;  // the device's, for the folder name
};

BinaryKey make_binary_key(const DeviceInfo& device, const std::string& family, const std::string& source_hash,
                          const std::string& options);

// The file a key maps to, or nullopt when the disk cache is off.
std::optional<std::filesystem::path> binary_path(const BinaryKey& key);

// The stored binary, or nullopt (missing, disabled, or rejected -- a rejected file is deleted).
std::optional<std::vector<unsigned char>> load_binary(const BinaryKey& key);

// Stores atomically; failures are reported once and otherwise ignored.
void store_binary(const BinaryKey& key, const std::vector<unsigned char>& binary);

// Deletes the entry (after the driver refused the binary); failures are ignored.
void reject_binary(const BinaryKey& key, const std::string& reason);

// Serialisation, exposed for tests.
std::vector<unsigned char> encode_binary_file(const std::string& key_text, const std::vector<unsigned char>& binary);
// The binary if `bytes` is a valid file for `key_text`, else nullopt with the reason in `why`.
std::optional<std::vector<unsigned char>> decode_binary_file(const std::vector<unsigned char>& bytes,
                                                             const std::string& key_text, std::string& why);

}  // namespace tilecl::detail
