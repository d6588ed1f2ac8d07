// Experiment (not part of the build): convolve_separable_tiled (kernels/convolve.cl) launched directly, with any set
// of build macros -- including experimental ones the library does not pass -- at 7680x4320, timed with OpenCL events
// (median of 20 launches), with NVIDIA's register report (-cl-nv-verbose) and every output compared with the first
// configuration's (elements that differ; float sums in another order may move a byte at a rounding tie).
// TAPS_PRIVATE and TAPS_LITERAL (taps copied to private variables, or compile-time literals) are macros of
// bench/results/nvidia-h100/session19/run2/taps-macros.patch, measured and not kept: without the patch applied to
// KERNELS_DIR's convolve.cl those rows repeat the default.
// Build: g++ -O2 -std=c++17 bench/experiments/tiled_forms.cpp -lOpenCL -o tiled_forms
// Run:   tiled_forms KERNELS_DIR [WIDTH HEIGHT] > forms.jsonl   (KERNELS_DIR holds common.clh and convolve.cl)
#define CL_HPP_TARGET_OPENCL_VERSION 120
#define CL_HPP_MINIMUM_OPENCL_VERSION 120
#define CL_HPP_ENABLE_EXCEPTIONS
#include <CL/opencl.hpp>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace {

std::string read(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::map<std::string, long> parse(const std::string& options) {
  std::map<std::string, long> values;
  std::istringstream in(options);
  std::string word;
  while (in >> word) {
    if (word.rfind("-D", 0) != 0) continue;
    const auto eq = word.find('=');
    if (eq == std::string::npos) continue;
    try {
      values[word.substr(2, eq - 2)] = std::stol(word.substr(eq + 1));
    } catch (...) {
    }
  }
  return values;
}

std::vector<float> gaussian(int radius) {
  const double sigma = 0.3 * (radius - 1) + 0.8;
  std::vector<float> t;
  double sum = 0;
  for (int d = -radius; d <= radius; ++d) sum += std::exp(-0.5 * d * d / (sigma * sigma));
  for (int d = -radius; d <= radius; ++d)
    t.push_back(static_cast<float>(std::exp(-0.5 * d * d / (sigma * sigma)) / sum));
  return t;
}

std::string tap_list(const std::vector<float>& t) {
  std::ostringstream s;
  s.precision(9);
  for (std::size_t i = 0; i < t.size(); ++i) s << (i ? "," : "") << t[i] << "f";
  return s.str();
}

struct Case {
  const char* name;
  bool bytes;
  int channels, radius;
  bool box;
};

}  // namespace

int main(int argc, char** argv) {
  const std::string dir = argc > 1 ? argv[1] : "kernels";
  const std::string source = read(dir + "/common.clh") + "\n" + read(dir + "/convolve.cl");
  cl::Device device = cl::Device::getDefault();
  cl::Context context(device);
  cl::CommandQueue queue(context, device, CL_QUEUE_PROFILING_ENABLE);
  std::cerr << "device: " << device.getInfo<CL_DEVICE_NAME>() << "\n";
  const bool nvidia = device.getInfo<CL_DEVICE_VENDOR>().find("NVIDIA") != std::string::npos;
  const int width = argc > 2 ? std::atoi(argv[2]) : 7680, height = argc > 3 ? std::atoi(argv[3]) : 4320;

  const std::vector<Case> cases{{"gaussian 9x9 uint8 c1", true, 1, 4, false},
                                {"box 5x5 uint8 c1", true, 1, 2, true},
                                {"gaussian 9x9 uint8 c3", true, 3, 4, false},
                                {"gaussian 9x9 uint8 c4", true, 4, 4, false},
                                {"gaussian 9x9 float c1", false, 1, 4, false}};
  for (const auto& c : cases) {
    const int esize = c.bytes ? 1 : 4;
    const std::size_t pitch = std::size_t(width) * c.channels;
    const std::size_t bytes = pitch * height * esize;
    std::vector<unsigned char> host(bytes);
    std::mt19937 rng(7);
    if (c.bytes) {
      for (auto& b : host) b = static_cast<unsigned char>(rng());
    } else {
      auto* f = reinterpret_cast<float*>(host.data());
      for (std::size_t i = 0; i < bytes / 4; ++i) f[i] = static_cast<float>(rng() % 256);
    }
    cl::Buffer src(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, host.data());
    cl::Buffer dst(context, CL_MEM_READ_WRITE, bytes);
    std::vector<float> taps =
        c.box ? std::vector<float>(2 * c.radius + 1, 1.0f / (2 * c.radius + 1)) : gaussian(c.radius);
    cl::Buffer tap_buffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, taps.size() * 4, taps.data());
    const std::string base = std::string("-DCONVOLVE_VARIANT=6 -DBORDER=1 -DUSE_FIXED_POINT=0 -DUSE_FMA=0 -DPAD=0") +
                             " -DDTYPE=" + (c.bytes ? "uchar" : "float") + " -DCHANNELS=" + std::to_string(c.channels) +
                             " -DRADIUS_X=" + std::to_string(c.radius) + " -DRADIUS_Y=" + std::to_string(c.radius) +
                             (c.bytes ? " -DUSE_ROUND_BY_ADD=1" : "") + " -DROW_TAP_LIST=" + tap_list(taps) +
                             " -DCOL_TAP_LIST=" + tap_list(taps);
    // The library's defaults first (GPU, 9x9 bytes: 1 channel 256 x 32, else 32 x 32; VEC 8, 4 rows; floats VEC 4).
    const std::string tile = c.bytes ? (c.channels == 1 ? "-DTILE_X=256 -DTILE_Y=32" : "-DTILE_X=32 -DTILE_Y=32")
                                     : "-DTILE_X=64 -DTILE_Y=32";
    const std::string vec = c.bytes ? "-DVEC=8" : "-DVEC=4";
    const std::string def = tile + " " + vec + " -DWPT_Y=4 -DUSE_LOCAL_INPUT=0 -DUSE_PREFETCH=" + (c.bytes ? "0" : "1");
    std::vector<std::string> configs{
        def,
        def + " -DTAPS_PRIVATE=1",
        def + " -DTAPS_LITERAL=1",
        tile + " " + vec + " -DWPT_Y=4 -DUSE_LOCAL_INPUT=0 -DUSE_PREFETCH=1",
        tile + " " + vec + " -DWPT_Y=4 -DUSE_LOCAL_INPUT=0 -DUSE_PREFETCH=1 -DTAPS_LITERAL=1",
        tile + " " + vec + " -DWPT_Y=8 -DUSE_LOCAL_INPUT=0 -DUSE_PREFETCH=0 -DTAPS_LITERAL=1"};
    if (c.bytes) {
      const std::string wide = c.channels == 1 ? "-DTILE_X=256" : "-DTILE_X=64";
      configs.push_back(wide + " -DTILE_Y=32 -DVEC=16 -DWPT_Y=4 -DUSE_LOCAL_INPUT=0 -DUSE_PREFETCH=0");
      configs.push_back(wide + " -DTILE_Y=32 -DVEC=16 -DWPT_Y=4 -DUSE_LOCAL_INPUT=0 -DUSE_PREFETCH=0 -DTAPS_LITERAL=1");
      configs.push_back(std::string(c.channels == 1 ? "-DTILE_X=128" : "-DTILE_X=32") +
                        " -DTILE_Y=64 -DVEC=8 -DWPT_Y=8 -DUSE_LOCAL_INPUT=0 -DUSE_PREFETCH=0 -DTAPS_LITERAL=1");
      configs.push_back(tile + " -DVEC=8 -DWPT_Y=4 -DUSE_LOCAL_INPUT=1 -DUSE_PREFETCH=0 -DTAPS_LITERAL=1");
      configs.push_back(tile + " -DVEC=4 -DWPT_Y=4 -DUSE_LOCAL_INPUT=0 -DUSE_PREFETCH=0 -DTAPS_LITERAL=1");
    }
    std::vector<unsigned char> reference;
    for (const auto& config : configs) {
      const std::string options = base + " " + config + (nvidia ? " -cl-nv-verbose" : "");
      const auto v = parse(options);
      const long tile_x = v.at("TILE_X"), tile_y = v.at("TILE_Y"), vec_w = v.at("VEC"), wpt = v.at("WPT_Y");
      const long wg_x = tile_x * c.channels / vec_w, wg_y = tile_y / wpt;
      cl::Program program(context, source);
      std::string log;
      try {
        program.build({device}, options.c_str());
        log = program.getBuildInfo<CL_PROGRAM_BUILD_LOG>(device);
      } catch (const cl::Error&) {
        std::cerr << config << ": build failed\n" << program.getBuildInfo<CL_PROGRAM_BUILD_LOG>(device) << "\n";
        continue;
      }
      std::string registers;
      const auto at = log.find("Used ");
      if (at != std::string::npos) registers = log.substr(at, log.find('\n', at) - at);
      cl::Kernel kernel(program, "convolve_separable_tiled");
      int arg = 0;
      kernel.setArg(arg++, width);
      kernel.setArg(arg++, height);
      kernel.setArg(arg++, src);
      kernel.setArg(arg++, cl_ulong{0});
      kernel.setArg(arg++, static_cast<int>(pitch));
      kernel.setArg(arg++, dst);
      kernel.setArg(arg++, cl_ulong{0});
      kernel.setArg(arg++, static_cast<int>(pitch));
      kernel.setArg(arg++, tap_buffer);
      kernel.setArg(arg++, tap_buffer);
      kernel.setArg(arg++, c.radius);
      kernel.setArg(arg++, c.radius);
      kernel.setArg(arg++, 0.0f);
      kernel.setArg(arg++, cl_uint4{{0, 0, 0, 0}});
      kernel.setArg(arg++, 0.0f);
      const cl::NDRange global((width + tile_x - 1) / tile_x * wg_x, (height + tile_y - 1) / tile_y * wg_y);
      const cl::NDRange local(wg_x, wg_y);
      std::vector<double> times;
      try {
        for (int i = 0; i < (width > 2000 ? 23 : 4); ++i) {
          cl::Event event;
          queue.enqueueNDRangeKernel(kernel, cl::NullRange, global, local, nullptr, &event);
          event.wait();
          if (i >= 3)
            times.push_back((event.getProfilingInfo<CL_PROFILING_COMMAND_END>() -
                             event.getProfilingInfo<CL_PROFILING_COMMAND_START>()) /
                            1000.0);
        }
      } catch (const cl::Error& e) {
        std::cerr << config << ": launch failed " << e.err() << "\n";
        continue;
      }
      std::sort(times.begin(), times.end());
      std::vector<unsigned char> out(bytes);
      queue.enqueueReadBuffer(dst, CL_TRUE, 0, bytes, out.data());
      long differing = 0;
      if (reference.empty()) {
        reference = out;
      } else if (c.bytes) {
        for (std::size_t i = 0; i < bytes; ++i) differing += out[i] != reference[i];
      } else {
        const auto* a = reinterpret_cast<const float*>(out.data());
        const auto* b = reinterpret_cast<const float*>(reference.data());
        for (std::size_t i = 0; i < bytes / 4; ++i) differing += std::fabs(a[i] - b[i]) > 1e-3f * (1 + std::fabs(b[i]));
      }
      std::cout << "{\"case\": \"" << c.name << "\", \"config\": \"" << config
                << "\", \"us\": " << times[times.size() / 2] << ", \"best_us\": " << times.front()
                << ", \"differing\": " << differing << ", \"ptxas\": \"" << registers << "\"}" << std::endl;
    }
  }
  return 0;
}
