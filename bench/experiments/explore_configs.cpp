// Experiment (not part of the build): times many explicit configurations of gemm and transpose at random
// shapes of the sweep's distribution, beside CLBlast, to learn how the best choice depends on the shape.
// Build against a Release build of tilecl:
//   g++ -O2 -std=c++17 -Iinclude -Isrc -Ibuild-gpu/src/generated bench/experiments/explore_configs.cpp \
//       build-gpu/src/libtilecl.a -lclblast -lOpenCL -lpthread -o explore
// Run: explore SEED GEMM_SHAPES TRANSPOSE_SHAPES > explore.jsonl (one JSON object per line).
#define CL_HPP_TARGET_OPENCL_VERSION 120
#define CL_HPP_MINIMUM_OPENCL_VERSION 120
#define CL_HPP_ENABLE_EXCEPTIONS
#include <clblast_c.h>

#include <CL/opencl.hpp>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <iostream>
#include <random>

#include "ops/gemm.hpp"
#include "ops/transpose.hpp"
#include "tilecl/device.hpp"
#include "tilecl/gemm.hpp"
#include "tilecl/transpose.hpp"

using namespace tilecl;
using detail::Config;

namespace {

cl::Context context;
cl::CommandQueue queue;

double median_ms(const std::function<void()>& run) {
  run();
  queue.finish();
  std::vector<double> times;
  double total = 0;
  while (times.size() < 3 || (times.size() < 9 && total < 40)) {
    auto start = std::chrono::steady_clock::now();
    run();
    queue.finish();
    double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    times.push_back(ms);
    total += ms;
  }
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

// EXPLORE_MAX (environment) caps every size, for a quick check on a CPU.
std::uint64_t log_uniform(std::mt19937_64& r, std::uint64_t lo, std::uint64_t hi) {
  if (const char* cap = std::getenv("EXPLORE_MAX")) hi = std::min<std::uint64_t>(hi, std::stoull(cap));
  std::uniform_real_distribution<double> e(std::log(double(lo)), std::log(double(hi) + 1));
  return std::clamp<std::uint64_t>(std::uint64_t(std::exp(e(r))), lo, hi);
}

cl::Buffer filled(std::uint64_t bytes) {
  cl::Buffer b(context, CL_MEM_READ_WRITE, std::max<std::uint64_t>(bytes, 16));
  float v = 0.5f;
  queue.enqueueFillBuffer(b, v, 0, std::max<std::uint64_t>(bytes, 16) / 4 * 4);
  return b;
}

Config regblock(int tm, int tn, int tk, int wm, int wn, int vec, int db, int split, int pack) {
  return {"regblock",
          {{"TILE_M", tm},
           {"TILE_N", tn},
           {"TILE_K", tk},
           {"WPT_M", wm},
           {"WPT_N", wn},
           {"VEC", vec},
           {"PAD", 0},
           {"USE_DOUBLE_BUFFER", db},
           {"USE_PREFETCH", 1 - db},
           {"WARP_N", 0},
           {"SPLIT", split},
           {"PACK", pack}}};
}

void line(const std::string& text) { std::cout << text << std::endl; }

void explore_gemm(std::mt19937_64& random, int count) {
  std::vector<std::array<std::uint64_t, 5>> shapes;  // m, n, k, ta, tb (row-major, packed)
  for (int i = 0; i < count; ++i)
    shapes.push_back({log_uniform(random, 1, 6000), log_uniform(random, 1, 6000), log_uniform(random, 1, 6000),
                      random() % 2, random() % 2});
  if (!std::getenv("EXPLORE_MAX"))
    for (auto s : std::vector<std::array<std::uint64_t, 5>>{{512, 512, 512, 0, 0},
                                                            {256, 256, 256, 0, 0},
                                                            {48, 4096, 4096, 0, 0},
                                                            {4096, 48, 4096, 0, 0},
                                                            {32, 3000, 3000, 0, 1},
                                                            {500, 500, 500, 0, 0},
                                                            {777, 333, 1999, 1, 0},
                                                            {1, 4096, 4096, 0, 0},
                                                            {4096, 1, 4096, 0, 0},
                                                            {8, 5000, 5000, 0, 0},
                                                            {150, 150, 150, 0, 0},
                                                            {3000, 3000, 64, 0, 0}})
      shapes.push_back(s);
  std::vector<std::pair<std::string, Config>> configs;
  for (int split : {1, 2, 4, 8, 16}) {
    for (int pack : {0, 1}) {
      const std::string tail = " s" + std::to_string(split) + " p" + std::to_string(pack);
      configs.push_back({"rb128x128" + tail, regblock(128, 128, 16, 8, 8, 4, 0, split, pack)});
      configs.push_back({"rb128x64" + tail, regblock(128, 64, 16, 8, 8, 4, 0, split, pack)});
      configs.push_back({"rb64x128" + tail, regblock(64, 128, 16, 8, 8, 4, 0, split, pack)});
      configs.push_back({"rb64x64w44" + tail, regblock(64, 64, 16, 4, 4, 4, 1, split, pack)});
      configs.push_back({"rb64x64w88" + tail, regblock(64, 64, 16, 8, 8, 4, 0, split, pack)});
      configs.push_back({"rb32x32" + tail, regblock(32, 32, 16, 4, 4, 2, 0, split, pack)});
      configs.push_back({"rb32x64" + tail, regblock(32, 64, 16, 4, 4, 4, 0, split, pack)});
      configs.push_back({"rb64x32" + tail, regblock(64, 32, 16, 4, 4, 4, 0, split, pack)});
    }
  }
  configs.push_back({"tiled16", {"tiled", {{"TILE", 16}, {"PAD", 1}}}});
  for (int split : {1, 4, 16}) {
    configs.push_back({"skinny_m r1 s" + std::to_string(split),
                       {"skinny_m", {{"WPT_M", 1}, {"VEC", 4}, {"WG_X", 64}, {"WG_Y", 4}, {"SPLIT", split}}}});
    configs.push_back({"skinny_m r4 s" + std::to_string(split),
                       {"skinny_m", {{"WPT_M", 4}, {"VEC", 4}, {"WG_X", 32}, {"WG_Y", 8}, {"SPLIT", split}}}});
    configs.push_back(
        {"skinny_n s" + std::to_string(split),
         {"skinny_n", {{"WPT_M", 2}, {"WPT_N", 1}, {"VEC", 4}, {"WG_X", 32}, {"WG_Y", 4}, {"SPLIT", split}}}});
  }
  for (const auto& s : shapes) {
    const std::uint64_t m = s[0], n = s[1], k = s[2];
    const Transpose ta = s[3] ? Transpose::Yes : Transpose::No, tb = s[4] ? Transpose::Yes : Transpose::No;
    const std::uint64_t lda = ta == Transpose::Yes ? m : k, ldb = tb == Transpose::Yes ? k : n, ldc = n;
    cl::Buffer a = filled(m * k * 4), b = filled(k * n * 4), c = filled(m * n * 4);
    const std::string shape = "\"m\":" + std::to_string(m) + ",\"n\":" + std::to_string(n) +
                              ",\"k\":" + std::to_string(k) + ",\"ta\":" + std::to_string(s[3]) +
                              ",\"tb\":" + std::to_string(s[4]);
    auto record = [&](const std::string& name, const std::function<void()>& run) {
      try {
        line("{\"op\":\"gemm\"," + shape + ",\"impl\":\"" + name + "\",\"ms\":" + std::to_string(median_ms(run)) + "}");
      } catch (const std::exception& e) {
        line("{\"op\":\"gemm\"," + shape + ",\"impl\":\"" + name + "\",\"error\":\"" +
             std::string(e.what()).substr(0, 80) + "\"}");
      }
    };
    record("tilecl",
           [&] { gemm<float>(queue, Layout::RowMajor, ta, tb, m, n, k, 1.f, a, 0, lda, b, 0, ldb, 0.5f, c, 0, ldc); });
    record("clblast", [&] {
      cl_command_queue raw = queue();
      cl_event e = nullptr;
      if (CLBlastSgemm(CLBlastLayoutRowMajor, ta == Transpose::Yes ? CLBlastTransposeYes : CLBlastTransposeNo,
                       tb == Transpose::Yes ? CLBlastTransposeYes : CLBlastTransposeNo, m, n, k, 1.f, a(), 0, lda, b(),
                       0, ldb, 0.5f, c(), 0, ldc, &raw, &e) != CLBlastSuccess)
        throw std::runtime_error("clblast");
      if (e) clReleaseEvent(e);
    });
    const double work = double(m) * n * k;
    for (const auto& [name, config] : configs) {
      const bool aligned = (k % 4 == 0) && (n % 4 == 0) && (m % 4 == 0);
      if (name.find(" p1") != std::string::npos && aligned) continue;  // same as p0
      if (name.find("skinny") != std::string::npos && std::min(m, n) > 64) continue;
      if (name.find(" s") != std::string::npos && name.find(" s1 ") == std::string::npos &&
          name.find("skinny") == std::string::npos && k < 256)
        continue;
      if (work > 2e10 && name.find("rb32") != std::string::npos) continue;
      record(name, [&] {
        detail::gemm_with<float>(config, queue, Layout::RowMajor, ta, tb, m, n, k, 1.f, a, 0, lda, b, 0, ldb, 0.5f, c,
                                 0, ldc);
      });
    }
  }
}

// Transposes of at least 1000 per side: tilecl's choice, CLBlast, a copy of the same bytes, the padded and shifted
// tiles at several settings, and (4-byte elements) the cost of misaligned rows on each side: leading dimensions
// padded to multiples of 16 for the input only, the output only, and both.
void explore_transpose(std::mt19937_64& random, int count) {
  for (int i = 0; i < count; ++i) {
    const std::uint64_t rows = log_uniform(random, 1000, 20000), cols = log_uniform(random, 1000, 20000);
    for (int bytes : {4, 1, 8}) {
      cl::Buffer in = filled(rows * (cols + 16) * bytes), out = filled((rows + 16) * cols * bytes);
      const std::string shape = "\"rows\":" + std::to_string(rows) + ",\"cols\":" + std::to_string(cols) +
                                ",\"bytes\":" + std::to_string(bytes);
      auto record = [&](const std::string& name, const std::function<void()>& run) {
        try {
          line("{\"op\":\"transpose\"," + shape + ",\"impl\":\"" + name +
               "\",\"ms\":" + std::to_string(median_ms(run)) + "}");
        } catch (const std::exception& e) {
          line("{\"op\":\"transpose\"," + shape + ",\"impl\":\"" + name + "\",\"error\":\"" +
               std::string(e.what()).substr(0, 80) + "\"}");
        }
      };
      auto run = [&](const Config* config, std::uint64_t ld_in, std::uint64_t ld_out) {
        if (bytes == 4) {
          if (config)
            detail::transpose_with<float>(*config, queue, rows, cols, in, 0, ld_in, out, 0, ld_out);
          else
            transpose<float>(queue, rows, cols, in, 0, ld_in, out, 0, ld_out);
        } else if (bytes == 8) {
          if (config)
            detail::transpose_with<double>(*config, queue, rows, cols, in, 0, ld_in, out, 0, ld_out);
          else
            transpose<double>(queue, rows, cols, in, 0, ld_in, out, 0, ld_out);
        } else {
          if (config)
            detail::transpose_with<std::uint8_t>(*config, queue, rows, cols, in, 0, ld_in, out, 0, ld_out);
          else
            transpose<std::uint8_t>(queue, rows, cols, in, 0, ld_in, out, 0, ld_out);
        }
      };
      const std::uint64_t in_aligned = (cols + 15) / 16 * 16, out_aligned = (rows + 15) / 16 * 16;
      record("copy", [&] { queue.enqueueCopyBuffer(in, out, 0, 0, rows * cols * bytes); });
      record("tilecl", [&] { run(nullptr, cols, rows); });
      if (bytes == 4) {
        record("tilecl in-aligned", [&] { run(nullptr, in_aligned, rows); });
        record("tilecl out-aligned", [&] { run(nullptr, cols, out_aligned); });
        record("tilecl both-aligned", [&] { run(nullptr, in_aligned, out_aligned); });
      }
      if (bytes != 1)
        record("clblast", [&] {
          cl_command_queue raw = queue();
          cl_event e = nullptr;
          CLBlastStatusCode st = bytes == 4 ? CLBlastSomatcopy(CLBlastLayoutRowMajor, CLBlastTransposeYes, rows, cols,
                                                               1.f, in(), 0, cols, out(), 0, rows, &raw, &e)
                                            : CLBlastDomatcopy(CLBlastLayoutRowMajor, CLBlastTransposeYes, rows, cols,
                                                               1.0, in(), 0, cols, out(), 0, rows, &raw, &e);
          if (st != CLBlastSuccess) throw std::runtime_error("clblast");
          if (e) clReleaseEvent(e);
        });
      const int sector = 32 / bytes;
      for (const char* variant : {"padded", "shifted"}) {
        for (int tile : {32, 64}) {
          for (int vec : {1, 2, 4, 8, 16}) {
            if (vec * bytes > 16 || vec * bytes < 4 || tile % vec || sector % vec) continue;
            for (int wg_y : {4, 8, 16}) {
              if (tile / vec * wg_y > 256) continue;
              for (int factor : {1, 2}) {
                if (std::string(variant) == "padded" && factor == 2) continue;
                if (tile % (sector * factor)) continue;
                Config config{variant, {{"TILE", tile}, {"VEC", vec}, {"WG_Y", wg_y}, {"PAD", bytes == 1 ? 4 : 1}}};
                if (std::string(variant) == "shifted") config.values["SECTOR"] = sector * factor;
                record(config.to_string(), [&] { run(&config, cols, rows); });
              }
            }
          }
        }
      }
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  const std::uint64_t seed = argc > 1 ? std::stoull(argv[1]) : 1;
  const int gemm_count = argc > 2 ? std::stoi(argv[2]) : 30, transpose_count = argc > 3 ? std::stoi(argv[3]) : 20;
  cl::Device device = select_device();
  context = cl::Context(device);
  queue = cl::CommandQueue(context, device);
  std::cerr << "device: " << device.getInfo<CL_DEVICE_NAME>() << std::endl;
  std::mt19937_64 random(seed);
  explore_transpose(random, transpose_count);
  explore_gemm(random, gemm_count);
}
