// Experiment (not part of the build): gemm_batched_tiled (kernels/gemm_batched.cl) built with hand-written macro
// sets and launched directly, to learn what small strided-batched products need before changing the library's
// space or defaults. For each case (row-major NN, matrices packed, alpha 1, beta 0.5) and macro set it
//   - builds the kernel (-cl-nv-verbose on NVIDIA: ptxas's registers and spills go to stderr),
//   - checks every element of a few matrices against a host product,
//   - times the kernel alone (profiling events, median of 15 after 3 warm-ups) beside a copy of the same bytes.
// Build against a Release build of tilecl:
//   g++ -O2 -std=c++17 -Iinclude -Isrc -Ibuild-gpu/src/generated bench/experiments/batched_kernels.cpp \
//       build-gpu/libtilecl.a -lOpenCL -lpthread -o batched_kernels
// Run: batched_kernels [CASE...] > batched.jsonl   (CASE: BATCHxMxNxK; default the five of issue 19)
//      BATCHED_CONFIGS="MACROS;MACROS;..." replaces the list of macro sets (each "-DNAME=VALUE ..."); ALIGN_A,
//      ALIGN_B and ALIGN_C are appended from the case (packed matrices).
#define CL_HPP_TARGET_OPENCL_VERSION 120
#define CL_HPP_MINIMUM_OPENCL_VERSION 120
#define CL_HPP_ENABLE_EXCEPTIONS
#include <CL/opencl.hpp>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "kernel_sources.hpp"

namespace {

struct Case {
  std::size_t batch, m, n, k;
};

struct Shape {
  int tm, tn, tk, wm, wn, mats;
};

std::string tiling(const Shape& s, bool vectors) {
  std::ostringstream out;
  out << "-DTILE_M=" << s.tm << " -DTILE_N=" << s.tn << " -DTILE_K=" << s.tk << " -DWPT_M=" << s.wm
      << " -DWPT_N=" << s.wn << " -DMATS=" << s.mats << (vectors ? " -DPAD=4 -DUSE_LOCAL_VECTORS=1" : " -DPAD=1");
  return out.str();
}

// The library's default tiling for the bucket of max(m, n), and what is tried beside it.
std::vector<std::string> configs_for(const Case& c) {
  if (const char* env = std::getenv("BATCHED_CONFIGS")) {
    std::vector<std::string> out;
    std::stringstream in(env);
    std::string item;
    while (std::getline(in, item, ';'))
      if (!item.empty()) out.push_back(item);
    return out;
  }
  const std::size_t side = std::max(c.m, c.n);
  std::vector<Shape> shapes;
  if (side <= 8)
    shapes = {{8, 8, 8, 2, 2, 8}, {8, 8, 8, 2, 2, 4}};
  else if (side <= 32)
    shapes = {{32, 32, 16, 4, 4, 2}, {32, 32, 32, 2, 2, 1}, {32, 32, 16, 2, 2, 1}};
  else
    shapes = {{64, 64, 32, 8, 4, 1}, {64, 64, 16, 8, 4, 1}, {64, 64, 32, 4, 4, 1}, {64, 64, 16, 4, 4, 1}};
  // Every set with LOAD_VEC 4 (session 14, run 1: faster everywhere), alone, double buffered, and double buffered
  // with C read early. Run 2 also tried unrolling K in parts (a macro since removed: no fewer registers, 0-50%
  // slower) and NVIDIA's -cl-nv-maxrregcount=64 (no effect on the registers ptxas reported).
  std::vector<std::string> out;
  for (const Shape& s : shapes) {
    const bool vectors = s.wm % 4 == 0 && s.wn % 4 == 0;
    const std::string base = tiling(s, vectors) + " -DLOAD_VEC=4";
    for (const char* extra : {"", " -DDOUBLE_BUFFER=1", " -DDOUBLE_BUFFER=1 -DPREFETCH_C=1"})
      out.push_back(base + extra);
  }
  return out;
}

// Largest of 4, 2, 1 that divides every value.
int alignment(std::initializer_list<std::size_t> values) {
  for (int w : {4, 2})
    if (std::all_of(values.begin(), values.end(), [w](std::size_t v) { return v % static_cast<std::size_t>(w) == 0; }))
      return w;
  return 1;
}

// The call's alignment (ALIGN_A, ALIGN_B, ALIGN_C), as the library's host code derives it, appended.
std::string adjusted(const std::string& macros, const Case& c) {
  return macros + " -DALIGN_A=" + std::to_string(alignment({c.k, c.m * c.k})) +
         " -DALIGN_B=" + std::to_string(alignment({c.n, c.k * c.n})) +
         " -DALIGN_C=" + std::to_string(alignment({c.n, c.m * c.n}));
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

double event_ms(const cl::Event& e) {
  return (e.getProfilingInfo<CL_PROFILING_COMMAND_END>() - e.getProfilingInfo<CL_PROFILING_COMMAND_START>()) * 1e-6;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<Case> cases;
  for (int i = 1; i < argc; ++i) {
    Case c{};
    if (std::sscanf(argv[i], "%zux%zux%zux%zu", &c.batch, &c.m, &c.n, &c.k) == 4) cases.push_back(c);
  }
  if (cases.empty())
    cases = {{4096, 32, 32, 32}, {1024, 64, 64, 64}, {256, 128, 128, 128}, {3000, 20, 30, 40}, {16384, 8, 8, 8}};

  cl::Device device = cl::Device::getDefault();
  cl::Context context(device);
  cl::CommandQueue queue(context, device, CL_QUEUE_PROFILING_ENABLE);
  const bool nvidia = device.getInfo<CL_DEVICE_VENDOR>().find("NVIDIA") != std::string::npos;
  const std::string source = tilecl::detail::kernel_source("gemm_batched").text;
  std::cerr << "device: " << device.getInfo<CL_DEVICE_NAME>() << "\n";

  std::mt19937 random(7);
  std::uniform_real_distribution<float> values(-1.0f, 1.0f);
  for (const Case& c : cases) {
    const std::size_t sa = c.m * c.k, sb = c.k * c.n, sc = c.m * c.n;
    std::vector<float> ha(c.batch * sa), hb(c.batch * sb), hc(c.batch * sc);
    for (auto* v : {&ha, &hb, &hc})
      for (auto& x : *v) x = values(random);
    cl::Buffer a(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, ha.size() * 4, ha.data());
    cl::Buffer b(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, hb.size() * 4, hb.data());
    cl::Buffer c_buffer(context, CL_MEM_READ_WRITE, hc.size() * 4);
    const std::size_t bytes = c.batch * (sa + sb + 2 * sc) * 4 / 2;  // each way of the copy
    cl::Buffer from(context, CL_MEM_READ_WRITE, bytes), to(context, CL_MEM_READ_WRITE, bytes);
    queue.enqueueFillBuffer(from, 1.0f, 0, bytes);
    std::vector<double> copies;
    for (int r = 0; r < 18; ++r) {
      cl::Event e;
      queue.enqueueCopyBuffer(from, to, 0, 0, bytes, nullptr, &e);
      e.wait();
      if (r >= 3) copies.push_back(event_ms(e));
    }
    const double copy = median(copies);
    char shape[96];
    std::snprintf(shape, sizeof shape, "%zux%zux%zux%zu", c.batch, c.m, c.n, c.k);

    for (const std::string& requested : configs_for(c)) {
      const std::string macros = adjusted(requested, c);
      std::string error;
      double ms = 0, max_error = 0;
      try {
        cl::Program program(context, source);
        try {
          program.build({device}, (macros + " -DVARIANT=1" + (nvidia ? " -cl-nv-verbose" : "")).c_str());
        } catch (const cl::Error&) {
          throw std::runtime_error(program.getBuildInfo<CL_PROGRAM_BUILD_LOG>(device).substr(0, 600));
        }
        if (nvidia) {
          std::string log = program.getBuildInfo<CL_PROGRAM_BUILD_LOG>(device);
          const auto at = log.find("Used");
          std::cerr << shape << " " << macros << ": " << (at == std::string::npos ? log : log.substr(at, 120)) << "\n";
        }
        cl::Kernel kernel(program, "gemm_batched_tiled");
        const auto value = [&](const char* name, int fallback) {
          const auto at = macros.find(std::string("-D") + name + "=");
          return at == std::string::npos ? fallback : std::atoi(macros.c_str() + at + std::strlen(name) + 3);
        };
        const std::size_t tm = value("TILE_M", 32), tn = value("TILE_N", 32), wm = value("WPT_M", 4),
                          wn = value("WPT_N", 4), mats = value("MATS", 1);
        const std::size_t wx = tn / wn, wy = tm / wm, tiles = ((c.m + tm - 1) / tm) * ((c.n + tn - 1) / tn);
        const std::size_t groups_z = std::min<std::size_t>((c.batch + mats - 1) / mats, 32768);
        int arg = 0;
        kernel.setArg(arg++, static_cast<cl_int>(c.m));
        kernel.setArg(arg++, static_cast<cl_int>(c.n));
        kernel.setArg(arg++, static_cast<cl_int>(c.k));
        kernel.setArg(arg++, 1.0f);
        kernel.setArg(arg++, a);
        kernel.setArg(arg++, cl_ulong{0});
        kernel.setArg(arg++, static_cast<cl_int>(c.k));
        kernel.setArg(arg++, static_cast<cl_ulong>(sa));
        kernel.setArg(arg++, b);
        kernel.setArg(arg++, cl_ulong{0});
        kernel.setArg(arg++, static_cast<cl_int>(c.n));
        kernel.setArg(arg++, static_cast<cl_ulong>(sb));
        kernel.setArg(arg++, 0.5f);
        kernel.setArg(arg++, c_buffer);
        kernel.setArg(arg++, cl_ulong{0});
        kernel.setArg(arg++, static_cast<cl_int>(c.n));
        kernel.setArg(arg++, static_cast<cl_ulong>(sc));
        kernel.setArg(arg++, static_cast<cl_int>(c.batch));
        kernel.setArg(arg++, c_buffer);
        const cl::NDRange global(tiles * wx, wy, groups_z * mats), local(wx, wy, mats);
        // Correctness: one launch on the original C.
        queue.enqueueWriteBuffer(c_buffer, CL_TRUE, 0, hc.size() * 4, hc.data());
        queue.enqueueNDRangeKernel(kernel, cl::NullRange, global, local);
        std::vector<float> out(hc.size());
        queue.enqueueReadBuffer(c_buffer, CL_TRUE, 0, out.size() * 4, out.data());
        for (std::size_t matrix : {std::size_t{0}, c.batch / 2, c.batch - 1})
          for (std::size_t i = 0; i < c.m; ++i)
            for (std::size_t j = 0; j < c.n; ++j) {
              double sum = 0;
              for (std::size_t p = 0; p < c.k; ++p)
                sum += double(ha[matrix * sa + i * c.k + p]) * hb[matrix * sb + p * c.n + j];
              const double expect = sum + 0.5 * hc[matrix * sc + i * c.n + j];
              max_error = std::max(max_error, std::abs(expect - out[matrix * sc + i * c.n + j]));
            }
        std::vector<double> times;
        for (int r = 0; r < 18; ++r) {
          cl::Event e;
          queue.enqueueNDRangeKernel(kernel, cl::NullRange, global, local, nullptr, &e);
          e.wait();
          if (r >= 3) times.push_back(event_ms(e));
        }
        ms = median(times);
      } catch (const std::exception& e) {
        error = e.what();
      }
      std::cout << "{\"shape\": \"" << shape << "\", \"macros\": \"" << macros << "\", \"copy_ms\": " << copy;
      if (error.empty())
        std::cout << ", \"ms\": " << ms << ", \"of_copy\": " << copy / ms << ", \"max_error\": " << max_error;
      else {
        for (char& ch : error)
          if (ch == '"' || ch == '\n' || ch == '\\') ch = ' ';
        std::cout << ", \"error\": \"" << error << "\"";
      }
      std::cout << "}" << std::endl;
    }
  }
}
