// libFuzzer target: the cached program file decoder (decode_binary_file), which reads files another process,
// another library version or a damaged disk may have left in the cache directory. Every input must decode
// or be refused with a reason, never crash; what decodes must be exactly what the encoder writes for it.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "binary_cache.hpp"
#include "fuzz/fuzz_inputs.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::vector<unsigned char> bytes(data, data + size);
  const std::string& key_text = tilecl::fuzz::seed_key_text();
  std::string why;
  const auto binary = tilecl::detail::decode_binary_file(bytes, key_text, why);
  if (!binary) {
    if (why.empty()) {
      std::fprintf(stderr, "fuzz_binary_cache: a refused file has no reason\n");
      std::abort();
    }
    return 0;
  }
  if (tilecl::detail::encode_binary_file(key_text, *binary) != bytes) {
    std::fprintf(stderr, "fuzz_binary_cache: an accepted file is not what the encoder writes for its binary\n");
    std::abort();
  }
  return 0;
}
