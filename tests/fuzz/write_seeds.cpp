// Writes the seed corpus of the fuzz targets with the library's own writers: valid files and near misses
// (truncated, damaged, stale, foreign). Run once when a format changes, and commit the output:
//   build-fuzz/tests/fuzz/fuzz_write_seeds tests/fuzz/corpus
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "binary_cache.hpp"
#include "fuzz/fuzz_inputs.hpp"
#include "tuning/tuning_db.hpp"

namespace {

namespace fs = std::filesystem;
using tilecl::detail::TuningDatabase;
using tilecl::detail::TuningRecords;

void write(const fs::path& path, const std::string& bytes) {
  fs::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary) << bytes;
  std::cout << path.string() << " (" << bytes.size() << " bytes)\n";
}

std::string text_of(const std::vector<unsigned char>& bytes) { return std::string(bytes.begin(), bytes.end()); }

// Replaces the first occurrence of `from` (which must occur).
std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  if (at == std::string::npos) throw std::runtime_error("seed writer: '" + from + "' not found");
  return text.replace(at, from.size(), to);
}

void write_tuning_seeds(const fs::path& folder) {
  const tilecl::DeviceInfo device = tilecl::fuzz::seed_device();
  TuningRecords records;
  records.entries.push_back({"axpy",
                             "float",
                             "n<2^14",
                             "0123456789abcdef",
                             {"vector", {{"VEC", 4}, {"WPT", 2}}},
                             0.0125,
                             0.02,
                             "first-use",
                             "2026-11-30T12:00:00Z",
                             "1000"});
  records.entries.push_back({"gemm",
                             "double",
                             "large",
                             "fedcba9876543210",
                             {"regblock", {{"TILE_M", 64}, {"TILE_N", 32}, {"TILE_K", 8}, {"VEC", 2}}},
                             3.5,
                             7.25,
                             "tune",
                             "2026-11-30T12:00:01Z",
                             "1024x1024x1024"});
  records.failures.push_back({"transpose", "uint8", "0123456789abcdef", "tiled TILE=32 PAD=1", "CL_OUT_OF_RESOURCES"});
  const std::string valid = TuningDatabase::to_json_text(device, records);
  write(folder / "valid.json", valid);
  write(folder / "empty.json", TuningDatabase::to_json_text(device, {}));
  write(folder / "older-version.json", replaced(valid, "\"version\": 1", "\"version\": 0"));
  write(folder / "newer-version.json", replaced(valid, "\"version\": 1", "\"version\": 2"));
  write(folder / "other-device.json", replaced(valid, device.fingerprint(), "00000000deadbeef"));
  write(folder / "no-entries.json", replaced(valid, "\"entries\"", "\"entrees\""));
  write(folder / "text-parameter.json", replaced(valid, "\"VEC\": 4", "\"VEC\": \"4\""));
  write(folder / "fraction-parameter.json", replaced(valid, "\"VEC\": 4", "\"VEC\": 4.5"));
  write(folder / "huge-parameter.json", replaced(valid, "\"VEC\": 4", "\"VEC\": 1e30"));
  write(folder / "huge-version.json", replaced(valid, "\"version\": 1", "\"version\": 1e30"));
  write(folder / "truncated.json", valid.substr(0, valid.size() / 2));
  write(folder / "deep-nesting.json",
        replaced(valid, "\"VEC\": 4", "\"VEC\": " + std::string(20, '[') + "4" + std::string(20, ']')));
  write(folder / "escaped-brackets.json", replaced(valid, "\"first-use\"", "\"[[[\\\"{{{\""));
}

void write_binary_seeds(const fs::path& folder) {
  const std::string& key = tilecl::fuzz::seed_key_text();
  std::vector<unsigned char> binary;
  for (int i = 0; i < 96; ++i) binary.push_back(static_cast<unsigned char>(i * 37 + 11));
  const std::vector<std::string> kernels{"elementwise_axpy_naive", "elementwise_axpy_vector"};
  const std::string valid = text_of(tilecl::detail::encode_binary_file(key, {kernels, binary}));
  write(folder / "valid.bin", valid);
  write(folder / "empty-binary.bin", text_of(tilecl::detail::encode_binary_file(key, {kernels, {}})));
  write(folder / "no-kernels.bin", text_of(tilecl::detail::encode_binary_file(key, {{}, binary})));
  write(folder / "other-key.bin", text_of(tilecl::detail::encode_binary_file(key + "x", {kernels, binary})));
  write(folder / "truncated.bin", valid.substr(0, valid.size() - 10));
  write(folder / "header-only.bin", valid.substr(0, 16));
  std::string damaged = valid;
  damaged[damaged.size() - 1] ^= 0x40;
  write(folder / "bad-checksum.bin", damaged);
  std::string other_format = valid;
  other_format[8] = 1;  // the u32 format right after the magic
  write(folder / "older-format.bin", other_format);
  other_format[8] = 3;
  write(folder / "newer-format.bin", other_format);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: fuzz_write_seeds CORPUS_DIR\n";
    return 2;
  }
  try {
    write_tuning_seeds(fs::path(argv[1]) / "fuzz_tuning_db");
    write_binary_seeds(fs::path(argv[1]) / "fuzz_binary_cache");
  } catch (const std::exception& error) {
    std::cerr << error.what() << "\n";
    return 1;
  }
  return 0;
}
