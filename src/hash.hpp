// Stable, non-cryptographic hashing for cache keys and file checksums (FNV-1a, 64 bit).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace tilecl::detail {

std::uint64_t fnv1a64(const void* data, std::size_t size, std::uint64_t seed = 0xcbf29ce484222325ULL);
inline std::uint64_t fnv1a64(std::string_view text) { return fnv1a64(text.data(), text.size()); }

// 16 lowercase hex digits.
std::string hex64(std::uint64_t value);
inline std::string hash_hex(std::string_view text) { return hex64(fnv1a64(text)); }

}  // namespace tilecl::detail
