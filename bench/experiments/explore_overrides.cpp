// Experiment (not part of the build): times sampled configurations of the ops whose GPU figures are furthest
// from their goals (uint8 and multichannel image filters, half memory-bound ops, gemm with m = 4..8, small
// batched gemm), each forced through tilecl::tuning::override_parameters and timed through the public call, to
// learn which parameters those shapes want before changing a default or a kernel.
// Build against a Release build of tilecl:
//   g++ -O2 -std=c++17 -Iinclude -Ibuild-gpu/include bench/experiments/explore_overrides.cpp \
//       build-gpu/libtilecl.a -lOpenCL -lpthread -o explore_overrides
// Run: TILECL_TUNE=off explore_overrides SECTION[,SECTION...] [SAMPLES] > explore.jsonl
//   SECTION: image, half, gemv, batched (random samples of each op's grid); gemv_multi, image_channels, gemv_cpu,
//   image_bytes, image_ring, image_words, transpose, transpose_byte_tiles, mma_small (hand-picked lists), gemv_half (a
//   sample). One JSON object per line: op, dtype, shape, config, ms, copy_ms (a copy of the bytes the call reads and
//   writes), or error. The first line of each case is the device default.
#define CL_HPP_TARGET_OPENCL_VERSION 120
#define CL_HPP_MINIMUM_OPENCL_VERSION 120
#define CL_HPP_ENABLE_EXCEPTIONS
#include <CL/opencl.hpp>
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <functional>
#include <iostream>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "batch_timing.hpp"
#include "tilecl/convolve.hpp"
#include "tilecl/elementwise.hpp"
#include "tilecl/error.hpp"
#include "tilecl/gemm.hpp"
#include "tilecl/gemm_batched.hpp"
#include "tilecl/gemv.hpp"
#include "tilecl/transpose.hpp"
#include "tilecl/tuning.hpp"

namespace {

cl::Context context;
cl::CommandQueue queue;
cl::Device device;

// Host time of `repeats` back-to-back calls ended by one finish, per call, best of three batches.
double batch_ms(const std::function<void()>& call, int repeats = 20) {
  return tilecl::experiments::best_batch_ms(queue, call, 3, repeats);
}

cl::Buffer filled(std::uint64_t bytes, std::uint32_t pattern = 0x3f3a5c29u) {
  const std::uint64_t size = std::max<std::uint64_t>((bytes + 3) / 4 * 4, 16);
  cl::Buffer buffer(context, CL_MEM_READ_WRITE, size);
  queue.enqueueFillBuffer(buffer, pattern, 0, size);
  return buffer;
}

double copy_ms(std::uint64_t bytes_each_way) {
  cl::Buffer from = filled(bytes_each_way), to = filled(bytes_each_way);
  return batch_ms([&] { queue.enqueueCopyBuffer(from, to, 0, 0, bytes_each_way); });
}

using Grid = std::map<std::string, std::vector<std::int64_t>>;

// Every combination of the grid, shuffled (seeded), as parameter strings of `variant`.
std::vector<std::string> sample(const std::string& variant, const Grid& grid, std::size_t count, unsigned seed) {
  std::vector<std::string> all{variant};
  for (const auto& [name, values] : grid) {
    std::vector<std::string> next;
    for (const auto& prefix : all)
      for (auto value : values) next.push_back(prefix + " " + name + "=" + std::to_string(value));
    all = std::move(next);
  }
  std::shuffle(all.begin(), all.end(), std::mt19937(seed));
  if (all.size() > count) all.resize(count);
  return all;
}

std::string quoted(const std::string& text) {
  std::string out = "\"";
  for (char c : text) out += c == '"' ? std::string("\\\"") : std::string(1, c);
  return out + "\"";
}

struct Case {
  std::string op, dtype, shape;
  double copy_ms;
  std::function<void()> call;
};

void line(const Case& c, const std::string& config, const std::string& field) {
  std::cout << "{\"op\": " << quoted(c.op) << ", \"dtype\": " << quoted(c.dtype) << ", \"shape\": " << quoted(c.shape)
            << ", \"config\": " << quoted(config) << ", \"copy_ms\": " << c.copy_ms << ", " << field << "}"
            << std::endl;
}

void explore(const Case& c, const std::vector<std::string>& configs) {
  tilecl::tuning::clear();
  const auto chosen = tilecl::tuning::parameters_for(queue, c.op, c.dtype, c.shape);
  line(c, "default " + chosen.parameters.to_string(), "\"ms\": " + std::to_string(batch_ms(c.call)));
  for (const auto& text : configs) {
    tilecl::tuning::clear();
    try {
      tilecl::tuning::override_parameters(device, c.op, c.dtype, tilecl::tuning::Parameters::parse(text));
    } catch (const std::exception& e) {
      std::cerr << c.op << " " << c.shape << ": skipped " << text << ": " << std::string(e.what()).substr(0, 160)
                << "\n";
      continue;  // outside the space or the device's limits
    }
    try {
      line(c, text, "\"ms\": " + std::to_string(batch_ms(c.call)));
    } catch (const std::exception& e) {
      line(c, text, "\"error\": " + quoted(std::string(e.what()).substr(0, 200)));
    }
  }
  tilecl::tuning::clear();
}

struct Filter {
  const char* op;
  bool bytes;
  std::size_t channels, size;
  bool opencv = false;  // Arithmetic::OpenCV (bytes)
};

// A filter's case at 7680x4320 (Mirror border, OpenCV's default sigma for the size), its buffers kept alive.
Case filter_case(const Filter& f, std::vector<cl::Buffer>& keep) {
  const std::size_t width = 7680, height = 4320;
  const std::size_t pitch = width * f.channels;
  const std::uint64_t bytes = width * height * f.channels * (f.bytes ? 1 : 4);
  keep = {filled(bytes), filled(bytes)};
  const cl::Buffer src = keep[0];
  cl::Buffer dst = keep[1];
  const std::string shape = std::to_string(width) + "x" + std::to_string(height) + "x" + std::to_string(f.channels) +
                            "," + std::to_string(f.size) + "x" + std::to_string(f.size) + ",mirror" +
                            (f.opencv ? ",opencv" : "");
  const std::size_t radius = f.size / 2;
  const tilecl::FilterOptions options(tilecl::Border::Mirror, 0.0,
                                      f.opencv ? tilecl::Arithmetic::OpenCV : tilecl::Arithmetic::Float);
  const tilecl::GaussianKernel kernel{f.size, f.size, 0.0, 0.0};
  std::function<void()> call;
  if (!f.bytes)
    call = [=]() mutable {
      tilecl::gaussian_blur<float>(queue, width, height, f.channels, src, 0, pitch, dst, 0, pitch, kernel, options);
    };
  else if (std::string(f.op) == "box_blur")
    call = [=]() mutable {
      tilecl::box_blur<std::uint8_t>(queue, width, height, f.channels, src, 0, pitch, dst, 0, pitch, radius, radius,
                                     options);
    };
  else
    call = [=]() mutable {
      tilecl::gaussian_blur<std::uint8_t>(queue, width, height, f.channels, src, 0, pitch, dst, 0, pitch, kernel,
                                          options);
    };
  return Case{f.op, f.bytes ? "uint8" : "float", shape, copy_ms(bytes), call};
}

void image_section(std::size_t samples) {
  const std::vector<Filter> filters{{"gaussian_blur", true, 1, 9},  {"gaussian_blur", true, 3, 9},
                                    {"gaussian_blur", true, 4, 9},  {"box_blur", true, 3, 5},
                                    {"gaussian_blur", false, 3, 9}, {"gaussian_blur", false, 4, 9}};
  for (const auto& f : filters) {
    std::vector<cl::Buffer> keep;
    const Grid grid{{"TILE_X", {32, 64, 128, 256}},
                    {"TILE_Y", {16, 32, 64}},
                    {"WPT_Y", {4, 8, 16}},
                    {"VEC", {4, 8, 16}},
                    {"PAD", {0}},
                    {"USE_LOCAL_INPUT", {0, 1}},
                    {"USE_PREFETCH", {0, 1}}};
    explore(filter_case(f, keep), sample("tiled", grid, samples, 7 + static_cast<unsigned>(f.channels)));
  }
}

// Hand-picked tiles around the defaults for several channels, with and without prefetch.
void image_channels_section() {
  const std::vector<Filter> filters{{"gaussian_blur", true, 3, 9},  {"gaussian_blur", true, 4, 9},
                                    {"box_blur", true, 3, 5},       {"gaussian_blur", false, 3, 9},
                                    {"gaussian_blur", false, 4, 9}, {"gaussian_blur", true, 1, 9}};
  const std::vector<std::string> tiles{"TILE_X=32 TILE_Y=32 WPT_Y=4 VEC=4",   "TILE_X=32 TILE_Y=32 WPT_Y=4 VEC=8",
                                       "TILE_X=64 TILE_Y=32 WPT_Y=8 VEC=8",   "TILE_X=32 TILE_Y=16 WPT_Y=4 VEC=4",
                                       "TILE_X=32 TILE_Y=32 WPT_Y=8 VEC=4",   "TILE_X=16 TILE_Y=32 WPT_Y=4 VEC=16",
                                       "TILE_X=128 TILE_Y=32 WPT_Y=4 VEC=16", "TILE_X=256 TILE_Y=32 WPT_Y=8 VEC=8"};
  for (const auto& f : filters) {
    std::vector<cl::Buffer> keep;
    std::vector<std::string> configs;
    for (const auto& tile : tiles)
      for (const char* prefetch : {"USE_PREFETCH=0", "USE_PREFETCH=1"})
        configs.push_back("tiled " + tile + " PAD=0 USE_LOCAL_INPUT=0 " + prefetch);
    explore(filter_case(f, keep), configs);
  }
}

// Byte filters: rounding by adding 2^23 against rint in the tiled kernels, tiles around the byte defaults, and
// the register-only vector kernel with aligned windows. (Run 7a also tried USE_BYTE_BITS, bytes to floats through
// their bit patterns: no faster on the H200, so the macro was removed.)
void image_bytes_section() {
  const std::vector<Filter> filters{{"gaussian_blur", true, 1, 9}, {"gaussian_blur", true, 3, 9},
                                    {"gaussian_blur", true, 4, 9}, {"box_blur", true, 1, 5},
                                    {"box_blur", true, 3, 5},      {"box_blur", true, 4, 5}};
  for (const auto& f : filters) {
    const std::string x = f.channels == 1 ? "256" : "32", half_x = f.channels == 1 ? "128" : "16";
    const std::string fixed = " PAD=0 USE_LOCAL_INPUT=0 USE_PREFETCH=0";
    std::vector<std::string> configs{"tiled TILE_X=" + x + " TILE_Y=32 WPT_Y=4 VEC=8" + fixed + " USE_ROUND_BY_ADD=0"};
    for (const std::string tile :
         {"TILE_X=" + x + " TILE_Y=32 WPT_Y=4 VEC=8", "TILE_X=" + x + " TILE_Y=32 WPT_Y=8 VEC=8",
          "TILE_X=" + x + " TILE_Y=32 WPT_Y=4 VEC=16", "TILE_X=" + x + " TILE_Y=32 WPT_Y=4 VEC=4",
          "TILE_X=" + half_x + " TILE_Y=32 WPT_Y=4 VEC=8", "TILE_X=" + x + " TILE_Y=16 WPT_Y=4 VEC=8"})
      configs.push_back("tiled " + tile + fixed + " USE_ROUND_BY_ADD=1");
    for (const std::string vector :
         {"VEC=16 WPT_Y=32 WG_X=64 WG_Y=1", "VEC=8 WPT_Y=32 WG_X=128 WG_Y=1", "VEC=8 WPT_Y=16 WG_X=64 WG_Y=2"})
      configs.push_back("vector " + vector + " USE_WINDOW=1 USE_ROUND_BY_ADD=1");
    std::vector<cl::Buffer> keep;
    explore(filter_case(f, keep), configs);
  }
}

// The register ring (convolve_separable_ring) beside each byte filter's default (the tiled kernel): every setting
// of its space at 7680x4320 (session 8 built it; its last form was not measured on a GPU).
void image_ring_section() {
  const std::vector<Filter> filters{{"gaussian_blur", true, 1, 9}, {"gaussian_blur", true, 3, 9},
                                    {"gaussian_blur", true, 4, 9}, {"box_blur", true, 1, 5},
                                    {"box_blur", true, 3, 5},      {"box_blur", true, 4, 5}};
  for (const auto& f : filters) {
    std::vector<std::string> configs;
    for (const char* vec : {"VEC=8", "VEC=4", "VEC=16"})
      for (const char* rows : {"WPT_Y=16", "WPT_Y=32"})
        for (const char* group : {"WG_X=128", "WG_X=256"})
          configs.push_back(std::string("ring ") + vec + " " + rows + " " + group + " WG_Y=1 USE_ROUND_BY_ADD=1");
    std::vector<cl::Buffer> keep;
    explore(filter_case(f, keep), configs);
  }
}

// The words kernel (convolve_separable_words, session 24: bytes with integer taps in 16-bit lanes) beside each
// filter's default: box 5x5 in both arithmetics and OpenCV's 9x9 GaussianBlur, 1 / 3 / 4 channels, at 7680x4320.
void image_words_section() {
  const std::vector<Filter> filters{{"box_blur", true, 1, 5},
                                    {"box_blur", true, 3, 5},
                                    {"box_blur", true, 4, 5},
                                    {"box_blur", true, 1, 5, true},
                                    {"gaussian_blur", true, 1, 9, true},
                                    {"gaussian_blur", true, 3, 9, true},
                                    {"gaussian_blur", true, 4, 9, true}};
  for (const auto& f : filters) {
    std::vector<std::string> configs;
    for (const char* group : {"WORDS_WG=128", "WORDS_WG=256", "WORDS_WG=64"})
      for (const char* rows : {"WPT_Y=16", "WPT_Y=32", "WPT_Y=8"})
        for (const char* words : {"WPW=1", "WPW=2"}) {
          const std::string base = std::string("words ") + group + " " + rows + " " + words;
          if (std::string(f.op) == "box_blur") {
            configs.push_back(base + " USE_PACKED_SUMS=0");
            configs.push_back(base + " USE_PACKED_SUMS=1");
          } else {
            configs.push_back(base);
          }
        }
    std::vector<cl::Buffer> keep;
    explore(filter_case(f, keep), configs);
  }
}

void half_section(std::size_t samples) {
  const std::size_t n = std::size_t(1) << 26;
  cl::Buffer x = filled(n * 2, 0x3c003c00u), y = filled(n * 2, 0x3c003c00u), z = filled(n * 2);
  const Grid grid{{"VEC", {4, 8, 16}}, {"WPT", {1, 2, 4, 8}}, {"USE_STRIDED", {0, 1}}, {"WG_X", {64, 128, 256, 512}}};
  const Case axpy{"axpy", "half", std::to_string(n), copy_ms(n * 2 * 2),
                  [&] { tilecl::axpy<tilecl::half>(queue, n, 0.5f, x, 0, y, 0); }};
  explore(axpy, sample("vector", grid, samples, 3));
  const Case add{"vector_add", "half", std::to_string(n), copy_ms(n * 2 * 3 / 2),
                 [&] { tilecl::vector_add<tilecl::half>(queue, n, x, 0, y, 0, z, 0); }};
  explore(add, sample("vector", grid, samples, 4));
}

void gemv_section(std::size_t samples) {
  const std::size_t n = 8192, k = 8192;
  for (std::size_t m : {4, 8}) {
    cl::Buffer a = filled(m * k * 4), b = filled(k * n * 4), c = filled(m * n * 4);
    const Case gemm{"gemm", "float", std::to_string(m) + "x" + std::to_string(n) + "x" + std::to_string(k),
                    copy_ms(k * n * 4 / 2), [&, m] {
                      tilecl::gemm<float>(queue, tilecl::Layout::RowMajor, tilecl::Transpose::No, tilecl::Transpose::No,
                                          m, n, k, 1.0f, a, 0, k, b, 0, n, 0.0f, c, 0, n);
                    }};
    const Grid grid{{"VEC", {1, 2, 4, 8}}, {"WPT", {1, 2, 4}},  {"UNROLL", {1, 2, 4, 8}},
                    {"WG_X", {8, 32, 64}}, {"WG_Y", {1, 4, 8}}, {"SPLIT", {1, 4, 16, 64}}};
    explore(gemm, sample("gemv", grid, samples, 11 + static_cast<unsigned>(m)));
  }
}

// gemm with m = 2, 4, 8: the multi-vector default and the winners of a random sample.
void gemv_multi_section() {
  const std::size_t n = 8192, k = 8192;
  for (std::size_t m : {2, 4, 8}) {
    cl::Buffer a = filled(m * k * 4), b = filled(k * n * 4), c = filled(m * n * 4);
    const Case gemm{"gemm", "float", std::to_string(m) + "x" + std::to_string(n) + "x" + std::to_string(k),
                    copy_ms(k * n * 4 / 2), [&, m] {
                      tilecl::gemm<float>(queue, tilecl::Layout::RowMajor, tilecl::Transpose::No, tilecl::Transpose::No,
                                          m, n, k, 1.0f, a, 0, k, b, 0, n, 0.0f, c, 0, n);
                    }};
    explore(gemm,
            {"gemv SPLIT=64 UNROLL=4 VEC=1 WG_X=32 WG_Y=8 WPT=2", "gemv SPLIT=64 UNROLL=8 VEC=4 WG_X=64 WG_Y=1 WPT=1",
             "gemv SPLIT=64 UNROLL=4 VEC=2 WG_X=32 WG_Y=8 WPT=1", "gemv SPLIT=64 UNROLL=4 VEC=1 WG_X=32 WG_Y=8 WPT=4",
             "gemv SPLIT=64 UNROLL=8 VEC=2 WG_X=64 WG_Y=4 WPT=1", "gemv SPLIT=32 UNROLL=4 VEC=1 WG_X=32 WG_Y=8 WPT=2",
             "gemv SPLIT=64 UNROLL=2 VEC=4 WG_X=32 WG_Y=8 WPT=1"});
  }
}

// gemm with one side of 1..8 on a CPU (k = 4096): the CPU default against the gemv kernels' CPU forms.
void gemv_cpu_section() {
  const std::size_t k = 4096;
  const std::vector<std::pair<std::size_t, std::size_t>> shapes{{1, 4096}, {2, 4096}, {4, 4096}, {8, 4096},
                                                                {4096, 1}, {4096, 4}, {4096, 8}};
  for (const auto& [m, n] : shapes) {
    cl::Buffer a = filled(m * k * 4), b = filled(k * n * 4), c = filled(m * n * 4);
    const Case gemm{"gemm", "float", std::to_string(m) + "x" + std::to_string(n) + "x" + std::to_string(k),
                    copy_ms(std::max(m, n) * k * 4 / 2), [&, m = m, n = n] {
                      tilecl::gemm<float>(queue, tilecl::Layout::RowMajor, tilecl::Transpose::No, tilecl::Transpose::No,
                                          m, n, k, 1.0f, a, 0, k, b, 0, n, 0.0f, c, 0, n);
                    }};
    explore(gemm,
            {"gemv SPLIT=8 UNROLL=2 VEC=16 WG_X=8 WG_Y=1 WPT=4", "gemv SPLIT=4 UNROLL=2 VEC=16 WG_X=1 WG_Y=8 WPT=4",
             "gemv SPLIT=64 UNROLL=4 VEC=8 WG_X=8 WG_Y=8 WPT=4", "gemv SPLIT=16 UNROLL=2 VEC=16 WG_X=8 WG_Y=1 WPT=2"});
  }
}

// Half gemv on a 512 MiB matrix, both orientations: the default and a sample of the grid.
void gemv_half_section(std::size_t samples) {
  const std::size_t n = 16384;
  cl::Buffer a = filled(n * n * 2, 0x3c003c00u), x = filled(n * 2, 0x3c003c00u), y = filled(n * 2);
  for (const bool transposed : {false, true}) {
    const auto trans = transposed ? tilecl::Transpose::Yes : tilecl::Transpose::No;
    const Case gemv{"gemv", "half", "16384x16384:" + std::string(transposed ? "T" : "N"), copy_ms(n * n * 2 / 2),
                    [&, trans] {
                      tilecl::gemv<tilecl::half>(queue, tilecl::Layout::RowMajor, trans, n, n, 1.0f, a, 0, n, x, 0, 1,
                                                 0.0f, y, 0, 1);
                    }};
    const Grid grid{{"VEC", {2, 4, 8}}, {"WPT", {1, 2}},     {"UNROLL", {2, 4, 8}},
                    {"WG_X", {32, 64}}, {"WG_Y", {1, 4, 8}}, {"SPLIT", {4, 16, 64}}};
    // Around run 7b's best of each orientation, then a sample of the grid.
    std::vector<std::string> configs =
        transposed ? std::vector<std::string>{"gemv VEC=4 WPT=1 WG_X=64 WG_Y=1 UNROLL=4 SPLIT=64",
                                              "gemv VEC=8 WPT=1 WG_X=128 WG_Y=1 UNROLL=4 SPLIT=64",
                                              "gemv VEC=8 WPT=1 WG_X=32 WG_Y=2 UNROLL=4 SPLIT=64",
                                              "gemv VEC=4 WPT=2 WG_X=64 WG_Y=1 UNROLL=4 SPLIT=64",
                                              "gemv VEC=8 WPT=1 WG_X=64 WG_Y=1 UNROLL=8 SPLIT=32",
                                              "gemv VEC=2 WPT=2 WG_X=64 WG_Y=2 UNROLL=4 SPLIT=64"}
                   : std::vector<std::string>{"gemv VEC=4 WPT=2 WG_X=128 WG_Y=1 UNROLL=2 SPLIT=64",
                                              "gemv VEC=4 WPT=4 WG_X=64 WG_Y=1 UNROLL=2 SPLIT=64",
                                              "gemv VEC=2 WPT=2 WG_X=64 WG_Y=1 UNROLL=4 SPLIT=64",
                                              "gemv VEC=4 WPT=2 WG_X=32 WG_Y=2 UNROLL=2 SPLIT=64"};
    for (const auto& config : sample("gemv", grid, samples, transposed ? 31 : 37)) configs.push_back(config);
    explore(gemv, configs);
  }
}

// Transposes of large ragged matrices (output rows off the 32-byte sectors) and half: padded against shifted.
void transpose_section() {
  struct Shape {
    const char* dtype;
    std::size_t size, rows, cols;
  };
  for (const Shape s : {Shape{"float", 4, 5305, 8878}, Shape{"double", 8, 3488, 8425}, Shape{"half", 2, 16384, 16384},
                        Shape{"half", 2, 5305, 8878}, Shape{"float", 4, 9001, 3001}}) {
    const std::uint64_t bytes = std::uint64_t{s.rows} * s.cols * s.size;
    cl::Buffer in = filled(bytes), out = filled(bytes);
    const std::string shape = std::to_string(s.rows) + "x" + std::to_string(s.cols);
    std::function<void()> call;
    const std::size_t rows = s.rows, cols = s.cols;
    if (s.size == 4)
      call = [=]() mutable { tilecl::transpose<float>(queue, rows, cols, in, 0, cols, out, 0, rows); };
    else if (s.size == 8)
      call = [=]() mutable { tilecl::transpose<double>(queue, rows, cols, in, 0, cols, out, 0, rows); };
    else
      call = [=]() mutable { tilecl::transpose<tilecl::half>(queue, rows, cols, in, 0, cols, out, 0, rows); };
    const std::string tile = s.size == 8 ? "32" : "64", vec = std::to_string(16 / s.size);
    const std::string sector = std::to_string(32 / s.size);
    std::vector<std::string> configs;
    for (const std::string rows_of : {"16", "8", "4"}) {
      configs.push_back("padded TILE=" + tile + " VEC=" + vec + " WG_Y=" + rows_of + " PAD=1");
      configs.push_back("shifted TILE=" + tile + " VEC=" + vec + " WG_Y=" + rows_of + " PAD=1 SECTOR=" + sector);
    }
    configs.push_back("shifted TILE=32 VEC=" + vec + " WG_Y=8 PAD=1 SECTOR=" + sector);
    configs.push_back("padded TILE=32 VEC=" + vec + " WG_Y=8 PAD=1");
    explore(Case{"transpose", s.dtype, shape, copy_ms(bytes), call}, configs);
  }
}

// Packed uint8 transposes of each shape under each configuration (the device default first).
void explore_byte_transposes(const std::vector<std::pair<std::size_t, std::size_t>>& shapes,
                             const std::vector<std::string>& configs) {
  for (const auto& [rows, cols] : shapes) {
    const std::uint64_t bytes = std::uint64_t{rows} * cols;
    cl::Buffer in = filled(bytes), out = filled(bytes);
    const std::string shape = std::to_string(rows) + "x" + std::to_string(cols);
    const std::size_t r = rows, c = cols;
    std::function<void()> call = [=]() mutable { tilecl::transpose<std::uint8_t>(queue, r, c, in, 0, c, out, 0, r); };
    explore(Case{"transpose", "uint8", shape, copy_ms(bytes), call}, configs);
  }
}

// Byte transposes (issue 14: uint8 at 57-64% of a copy at worst in sweeps): the bytes kernel (4 x 4 blocks in
// registers, words through local memory; since session 12 unchecked funnel-shift windows on interior tiles) at its
// tiles, rows and sectors (SECTOR 4: output pieces on word boundaries, 4 extra input rows), beside the padded tile.
// H100, session 12 run 3: bytes 44-50% of a copy at best, padded 56-71%.
void transpose_bytes_section() {
  // NVIDIA allows transpose_bytes 256 work-items: TILE 128 runs with WG_Y 8 at most.
  std::vector<std::string> configs{"padded TILE=64 VEC=4 WG_Y=8 PAD=4", "padded TILE=128 VEC=4 WG_Y=8 PAD=4"};
  for (const std::string& setting : {"64 WG_Y=8", "64 WG_Y=16", "64 WG_Y=4", "128 WG_Y=8", "128 WG_Y=4", "32 WG_Y=8"})
    for (const std::string sector : {"4", "32"})
      if (sector == "4" || setting.rfind("32", 0) != 0)
        configs.push_back("bytes TILE=" + setting + " PAD=1 SECTOR=" + sector);
  configs.push_back("bytes TILE=64 WG_Y=8 PAD=2 SECTOR=4");
  explore_byte_transposes({{15500, 3187}, {14904, 3576}, {3576, 14904}, {5305, 8878}, {16384, 16384}, {8191, 8193}},
                          configs);
}

// Byte transposes with larger tiles and sector-aligned output pieces (session 11: the seed-13 sweep's 15500 x 3187
// matrix ran the padded 64 x 64 tile at 57% of a copy).
void transpose_byte_tiles_section() {
  std::vector<std::string> configs;
  for (const char* rows_of : {"4", "8", "16"})
    configs.push_back(std::string("padded TILE=64 VEC=4 WG_Y=") + rows_of + " PAD=4");
  for (const char* rows_of : {"4", "8"})
    configs.push_back(std::string("padded TILE=128 VEC=4 WG_Y=") + rows_of + " PAD=4");
  for (const char* rows_of : {"8", "16"})
    configs.push_back(std::string("padded TILE=128 VEC=8 WG_Y=") + rows_of + " PAD=8");
  configs.push_back("padded TILE=64 VEC=8 WG_Y=8 PAD=8");
  for (const char* rows_of : {"8", "16"})
    configs.push_back(std::string("shifted TILE=64 VEC=4 WG_Y=") + rows_of + " PAD=4 SECTOR=32");
  configs.push_back("shifted TILE=128 VEC=4 WG_Y=8 PAD=4 SECTOR=32");
  configs.push_back("shifted TILE=128 VEC=4 WG_Y=8 PAD=4 SECTOR=64");
  configs.push_back("shifted TILE=128 VEC=8 WG_Y=16 PAD=8 SECTOR=32");
  explore_byte_transposes({{15500, 3187}, {14904, 3576}, {5305, 8878}, {16384, 16384}}, configs);
}

// Square SGEMM on a CPU (issue 14: >= 0.9x OpenBLAS at 512..2048): the CPU kernel's grid.
void gemm_cpu_square_section() {
  for (const std::size_t n : {512, 1024}) {
    cl::Buffer a = filled(n * n * 4), b = filled(n * n * 4), c = filled(n * n * 4);
    const Case gemm{"gemm", "float", std::to_string(n) + "x" + std::to_string(n) + "x" + std::to_string(n),
                    copy_ms(n * n * 4), [&, n] {
                      tilecl::gemm<float>(queue, tilecl::Layout::RowMajor, tilecl::Transpose::No, tilecl::Transpose::No,
                                          n, n, n, 1.0f, a, 0, n, b, 0, n, 0.0f, c, 0, n);
                    }};
    const Grid grid{{"USE_PACKED_B", {0, 1}}, {"K_BLOCK", {0, 128}}, {"WPT_N", {32, 64}},
                    {"WPT_M", {4, 6, 8}},     {"VEC", {16}},         {"WG_X", {1}},
                    {"WG_Y", {1, 8}}};
    explore(gemm, sample("cpu", grid, 24, 5));
  }
}

void batched_section(std::size_t samples) {
  struct Shape {
    std::size_t batch, m, n, k;
  };
  for (const Shape s : {Shape{4096, 32, 32, 32}, Shape{1024, 64, 64, 64}, Shape{256, 128, 128, 128}}) {
    cl::Buffer a = filled(s.batch * s.m * s.k * 4), b = filled(s.batch * s.k * s.n * 4),
               c = filled(s.batch * s.m * s.n * 4);
    const std::string shape =
        std::to_string(s.batch) + "x" + std::to_string(s.m) + "x" + std::to_string(s.n) + "x" + std::to_string(s.k);
    const Case batched{"gemm_strided_batched", "float", shape,
                       copy_ms(s.batch * (s.m * s.k + s.k * s.n + 2 * s.m * s.n) * 4 / 2), [&, s] {
                         tilecl::gemm_strided_batched<float>(queue, tilecl::Layout::RowMajor, tilecl::Transpose::No,
                                                             tilecl::Transpose::No, s.m, s.n, s.k, 1.0f, a, 0, s.k,
                                                             s.m * s.k, b, 0, s.n, s.k * s.n, 0.5f, c, 0, s.n,
                                                             s.m * s.n, s.batch);
                       }};
    const Grid grid{{"TILE_M", {16, 32, 64}}, {"TILE_N", {16, 32, 64}},      {"TILE_K", {8, 16, 32}},
                    {"WPT_M", {2, 4, 8}},     {"WPT_N", {2, 4, 8}},          {"MATS", {1, 2, 4}},
                    {"PAD", {0, 1, 4}},       {"USE_LOCAL_VECTORS", {0, 1}}, {"LOAD_VEC", {4, 1}},
                    {"PREFETCH_C", {0, 1}}};
    explore(batched, sample("tiled", grid, samples, 21 + static_cast<unsigned>(s.m)));
  }
}

// Half gemm at the shapes where session 12's sweep (seed 13, H100) left it furthest behind float gemm: long K with few
// output tiles, and small products. Every tensor-core tiling worth trying there, the portable kernel's K_STEP
// settings and via_float (op "gemm_mma" half), and float gemm at the same shape (its default) for reference.
void mma_small_section() {
  struct Shape {
    std::size_t m, n, k;
    bool ta, tb, col;
  };
  const std::vector<Shape> shapes{{2750, 26, 4733, false, false, false}, {2039, 13, 4916, false, false, true},
                                  {45, 224, 2342, false, false, false},  {126, 88, 511, false, true, true},
                                  {128, 120, 85, true, false, false},    {725, 442, 102, false, false, true},
                                  {3420, 416, 19, false, true, false},   {2, 39, 86, false, false, true}};
  std::vector<std::string> configs;
  for (const char* tiling : {"TILE_M=64 TILE_N=64 WARPS_M=2 WARPS_N=2", "TILE_M=32 TILE_N=32 WARPS_M=1 WARPS_N=1",
                             "TILE_M=32 TILE_N=32 WARPS_M=2 WARPS_N=2", "TILE_M=64 TILE_N=32 WARPS_M=2 WARPS_N=1",
                             "TILE_M=32 TILE_N=64 WARPS_M=1 WARPS_N=2", "TILE_M=64 TILE_N=64 WARPS_M=1 WARPS_N=1"})
    for (const char* stages : {"STAGES=4 TILE_K=32", "STAGES=3 TILE_K=64"})
      configs.push_back(std::string("mma IN_PLACE=0 REGISTERS=0 ") + stages + " " + tiling);
  for (const char* portable : {"WPT_M=4 WPT_N=4 K_STEP=1 WG_X=16 WG_Y=8", "WPT_M=4 WPT_N=4 K_STEP=4 WG_X=16 WG_Y=8",
                               "WPT_M=4 WPT_N=4 K_STEP=8 WG_X=16 WG_Y=8", "WPT_M=2 WPT_N=2 K_STEP=1 WG_X=16 WG_Y=16",
                               "WPT_M=2 WPT_N=2 K_STEP=8 WG_X=16 WG_Y=16", "WPT_M=2 WPT_N=2 K_STEP=16 WG_X=16 WG_Y=16",
                               "WPT_M=1 WPT_N=2 K_STEP=16 WG_X=32 WG_Y=8", "WPT_M=2 WPT_N=4 K_STEP=8 WG_X=16 WG_Y=8"})
    configs.push_back(std::string("portable ") + portable);
  configs.push_back("via_float");
  for (const Shape& s : shapes) {
    const auto layout = s.col ? tilecl::Layout::ColMajor : tilecl::Layout::RowMajor;
    const auto ta = s.ta ? tilecl::Transpose::Yes : tilecl::Transpose::No;
    const auto tb = s.tb ? tilecl::Transpose::Yes : tilecl::Transpose::No;
    // Dense leading dimensions: the stored rows of op(A) (m x k) and op(B) (k x n) in the layout's order.
    const auto ld = [&](bool trans, std::size_t rows, std::size_t cols) { return (s.col != trans) ? rows : cols; };
    const std::size_t lda = ld(s.ta, s.m, s.k), ldb = ld(s.tb, s.k, s.n), ldc = s.col ? s.m : s.n;
    cl::Buffer a = filled(s.m * s.k * 4, 0x3c003c00u), b = filled(s.k * s.n * 4, 0x3c003c00u),
               c = filled(s.m * s.n * 4, 0x3c003c00u);
    const std::string shape = std::to_string(s.m) + "x" + std::to_string(s.n) + "x" + std::to_string(s.k) + ":" +
                              (s.ta ? "T" : "N") + (s.tb ? "T" : "N") + (s.col ? ":col" : ":row");
    const Case f{"gemm", "float", shape, 0.0, [&] {
                   tilecl::gemm<float>(queue, layout, ta, tb, s.m, s.n, s.k, 1.0f, a, 0, lda, b, 0, ldb, 0.0f, c, 0,
                                       ldc);
                 }};
    explore(f, {});
    const Case h{"gemm_mma", "half", shape, 0.0, [&] {
                   tilecl::gemm<tilecl::half>(queue, layout, ta, tb, s.m, s.n, s.k, 1.0f, a, 0, lda, b, 0, ldb, 0.0f, c,
                                              0, ldc);
                 }};
    explore(h, configs);
  }
}

}  // namespace

int main(int argc, char** argv) {
  const std::string sections = argc > 1 ? argv[1] : "image,half,gemv,batched";
  const std::size_t samples = argc > 2 ? std::stoul(argv[2]) : 24;
  std::vector<cl::Platform> platforms;
  cl::Platform::get(&platforms);
  std::vector<cl::Device> devices;
  platforms.at(0).getDevices(CL_DEVICE_TYPE_ALL, &devices);
  device = devices.at(0);
  context = cl::Context(device);
  queue = cl::CommandQueue(context, device);
  std::cerr << "device: " << device.getInfo<CL_DEVICE_NAME>() << "\n";
  try {
    const std::vector<std::pair<std::string, std::function<void()>>> all{
        {"half", [&] { half_section(samples); }},
        {"gemv", [&] { gemv_section(samples); }},
        {"batched", [&] { batched_section(samples); }},
        {"gemv_multi", gemv_multi_section},
        {"gemv_cpu", gemv_cpu_section},
        {"gemm_cpu_square", gemm_cpu_square_section},
        {"mma_small", mma_small_section},
        {"image_channels", image_channels_section},
        {"image_bytes", image_bytes_section},
        {"image_ring", image_ring_section},
        {"image_words", image_words_section},
        {"transpose", transpose_section},
        {"transpose_bytes", transpose_bytes_section},
        {"transpose_byte_tiles", transpose_byte_tiles_section},
        {"gemv_half", [&] { gemv_half_section(samples); }},
        {"image", [&] { image_section(samples); }}};
    for (const auto& [name, run] : all)
      if (("," + sections + ",").find("," + name + ",") != std::string::npos) run();
  } catch (const std::exception& e) {
    std::cerr << "stopped: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
