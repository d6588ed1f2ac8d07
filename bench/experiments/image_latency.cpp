// Experiment (not part of the build): where the time of an image filter call goes, per kernel variant.
// For each case (op, type, image, filter, border) and each configuration (the device default first, then forced
// ones through tilecl::tuning::override_parameters), it reports on one line of JSON:
//   call_us   the host time of the call alone (the queue idle before it): validation, choice, arguments, enqueue;
//   kernel_us the device time of the call's last command (OpenCL profiling: END - START);
//   total_us  enqueue + finish, median (what the bench's sweep reports);
//   batch_us  20 calls back to back, one finish, per call (throughput).
// Build against a Release build of tilecl:
//   g++ -O2 -std=c++17 -Iinclude -Ibuild-gpu/include bench/experiments/image_latency.cpp \
//       build-gpu/libtilecl.a -lOpenCL -lpthread -o image_latency
// Run: TILECL_TUNE=off image_latency small|large|SECTION,... > latency.jsonl
#define CL_HPP_TARGET_OPENCL_VERSION 120
#define CL_HPP_MINIMUM_OPENCL_VERSION 120
#define CL_HPP_ENABLE_EXCEPTIONS
#include <CL/opencl.hpp>
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <functional>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "tilecl/color.hpp"
#include "tilecl/convolve.hpp"
#include "tilecl/error.hpp"
#include "tilecl/tuning.hpp"

namespace {

cl::Context context;
cl::CommandQueue queue;
cl::Device device;

using Clock = std::chrono::steady_clock;
double us_since(Clock::time_point start) {
  return std::chrono::duration<double, std::micro>(Clock::now() - start).count();
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

struct Case {
  std::string op, dtype;
  std::size_t width, height, channels, fw, fh;
  tilecl::Border border;
  std::string border_name;
  bool padded;
};

std::string shape_of(const Case& c) {
  std::ostringstream s;
  s << c.width << "x" << c.height;
  if (c.op == "rgb_to_gray") return s.str() + (c.channels == 4 ? ",rgba" : ",rgb");
  s << "x" << c.channels << "," << c.fw << "x" << c.fh << "," << c.border_name;
  return s.str();
}

struct Bound {
  std::vector<cl::Buffer> keep;
  std::function<cl::Event()> call;
  double copy_us = 0;
};

cl::Buffer filled(std::uint64_t bytes) {
  const std::uint64_t size = std::max<std::uint64_t>((bytes + 3) / 4 * 4, 16);
  cl::Buffer buffer(context, CL_MEM_READ_WRITE, size);
  queue.enqueueFillBuffer(buffer, 0x3f3a5c29u, 0, size);
  return buffer;
}

template <typename T>
Bound bind(const Case& c) {
  Bound b;
  const std::size_t src_pitch = c.width * c.channels + (c.padded ? 13 : 0);
  const std::size_t out_channels = c.op == "rgb_to_gray" ? 1 : c.channels;
  const std::size_t dst_pitch = c.width * out_channels + (c.padded ? 7 : 0);
  cl::Buffer src = filled(src_pitch * c.height * sizeof(T)), dst = filled(dst_pitch * c.height * sizeof(T));
  std::vector<float> taps(c.fw * c.fh, 1.0f / static_cast<float>(c.fw * c.fh));
  cl::Buffer filter(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, taps.size() * sizeof(float), taps.data());
  b.keep = {src, dst, filter};
  const tilecl::FilterOptions options(c.border);
  const std::size_t w = c.width, h = c.height, ch = c.channels, fw = c.fw, fh = c.fh;
  if (c.op == "gaussian_blur")
    b.call = [=]() mutable {
      return tilecl::gaussian_blur<T>(queue, w, h, ch, src, 0, src_pitch, dst, 0, dst_pitch,
                                      tilecl::GaussianKernel{fw, fh, 0.0, 0.0}, options);
    };
  else if (c.op == "box_blur")
    b.call = [=]() mutable {
      return tilecl::box_blur<T>(queue, w, h, ch, src, 0, src_pitch, dst, 0, dst_pitch, fw / 2, fh / 2, options);
    };
  else if (c.op == "convolve2d")
    b.call = [=]() mutable {
      return tilecl::convolve2d<T>(queue, w, h, ch, src, 0, src_pitch, dst, 0, dst_pitch, filter, 0, fw, fh, options);
    };
  else
    b.call = [=]() mutable {
      return tilecl::rgb_to_gray<T>(
          queue, w, h, src, 0, src_pitch, dst, 0, dst_pitch,
          tilecl::GrayOptions(tilecl::GrayWeights::bt601(),
                              ch == 4 ? tilecl::ChannelOrder::RGBA : tilecl::ChannelOrder::RGB));
    };
  const std::uint64_t bytes = (src_pitch + dst_pitch) * c.height * sizeof(T) / 2;
  cl::Buffer from = filled(bytes), to = filled(bytes);
  std::vector<double> copies;
  for (int i = 0; i < 15; ++i) {
    const auto start = Clock::now();
    queue.enqueueCopyBuffer(from, to, 0, 0, bytes);
    queue.finish();
    copies.push_back(us_since(start));
  }
  b.copy_us = median(copies);
  return b;
}

void measure(const Case& c, Bound& b, const std::string& config) {
  b.call();
  queue.finish();
  std::vector<double> call, kernel, total;
  for (int i = 0; i < 15; ++i) {
    queue.finish();
    const auto start = Clock::now();
    cl::Event event = b.call();
    call.push_back(us_since(start));
    queue.finish();
    total.push_back(us_since(start));
    kernel.push_back(static_cast<double>(event.getProfilingInfo<CL_PROFILING_COMMAND_END>() -
                                         event.getProfilingInfo<CL_PROFILING_COMMAND_START>()) /
                     1000.0);
  }
  const auto start = Clock::now();
  for (int i = 0; i < 20; ++i) b.call();
  queue.finish();
  const double batch = us_since(start) / 20;
  std::cout << "{\"op\": \"" << c.op << "\", \"dtype\": \"" << c.dtype << "\", \"shape\": \"" << shape_of(c)
            << (c.padded ? ",ld+" : "") << "\", \"config\": \"" << config << "\", \"copy_us\": " << b.copy_us
            << ", \"call_us\": " << median(call) << ", \"kernel_us\": " << median(kernel)
            << ", \"total_us\": " << median(total) << ", \"batch_us\": " << batch << "}" << std::endl;
}

void explore(const Case& c, const std::vector<std::string>& configs) {
  Bound b = c.dtype == "uint8" ? bind<std::uint8_t>(c) : bind<float>(c);
  const std::string key = c.op == "rgb_to_gray" ? shape_of(c) : shape_of(c);
  tilecl::tuning::clear();
  std::string chosen = "?";
  try {
    chosen = tilecl::tuning::parameters_for(queue, c.op, c.dtype, key).parameters.to_string();
  } catch (const std::exception&) {
  }
  try {
    measure(c, b, "default " + chosen);
  } catch (const std::exception& e) {
    std::cerr << "default failed: " << e.what() << "\n";
  }
  for (const auto& text : configs) {
    tilecl::tuning::clear();
    try {
      tilecl::tuning::override_parameters(device, c.op, c.dtype, tilecl::tuning::Parameters::parse(text));
      measure(c, b, text);
    } catch (const std::exception& e) {
      std::cerr << shape_of(c) << " " << text << ": " << std::string(e.what()).substr(0, 200) << "\n";
    }
  }
  tilecl::tuning::clear();
}

// The alternatives tried for a filter: every variant in a setting or two that serves any radius up to 7.
std::vector<std::string> alternatives(const Case& c) {
  const bool bytes = c.dtype == "uint8";
  const std::string round = bytes ? " USE_ROUND_BY_ADD=1" : "";
  const std::string cpu = " USE_WINDOW=0" + round;
  if (c.op == "convolve2d")
    return {"tiled TILE_X=32 TILE_Y=8 WPT_Y=2 VEC=4 PAD=0" + round,
            "tiled TILE_X=32 TILE_Y=16 WPT_Y=4 VEC=4 PAD=0" + round,
            "vector VEC=4 WPT_Y=1" + cpu + " WG_X=64 WG_Y=4",
            "vector VEC=4 WPT_Y=8" + cpu + " WG_X=32 WG_Y=8",
            "naive WG_X=32 WG_Y=8",
            "naive WG_X=16 WG_Y=16"};
  if (c.op == "rgb_to_gray") return {"words VEC=16" + round + " WG_X=128 WG_Y=1", "naive WG_X=32 WG_Y=8"};
  return {"tiled TILE_X=32 TILE_Y=8 WPT_Y=2 VEC=4 PAD=0 USE_LOCAL_INPUT=0 USE_PREFETCH=0" + round,
          "tiled TILE_X=32 TILE_Y=16 WPT_Y=4 VEC=4 PAD=0 USE_LOCAL_INPUT=0 USE_PREFETCH=0" + round,
          "vector WPT_Y=4 VEC=4" + cpu + " WG_X=64 WG_Y=4",
          "vector WPT_Y=8 VEC=4" + cpu + " WG_X=32 WG_Y=4",
          "two_pass VEC=4" + cpu + " WG_X=64 WG_Y=4",
          "ring VEC=4 WPT_Y=16 WG_X=128 WG_Y=1" + round,
          "ring VEC=8 WPT_Y=16 WG_X=128 WG_Y=1" + round};
}

using B = tilecl::Border;

// Small and mid-size images of the seed-1 image sweep on the H200 (bench/results/nvidia-h200/session8) whose calls
// took 2-5x a copy of their bytes, and gray as the one-launch reference.
void small_section() {
  const std::vector<Case> cases{{"gaussian_blur", "uint8", 50, 40, 3, 3, 3, B::Mirror, "mirror", true},
                                {"gaussian_blur", "uint8", 72, 124, 3, 11, 11, B::Mirror, "mirror", false},
                                {"gaussian_blur", "uint8", 27, 187, 4, 3, 3, B::Zero, "zero", true},
                                {"gaussian_blur", "uint8", 291, 319, 4, 15, 15, B::Zero, "zero", false},
                                {"gaussian_blur", "float", 16, 60, 4, 15, 3, B::Mirror, "mirror", false},
                                {"gaussian_blur", "float", 95, 28, 1, 5, 5, B::Reflect, "reflect", true},
                                {"gaussian_blur", "float", 205, 355, 1, 11, 11, B::Mirror, "mirror", false},
                                {"box_blur", "uint8", 22, 168, 4, 15, 15, B::Reflect, "reflect", false},
                                {"box_blur", "uint8", 226, 42, 3, 11, 11, B::Reflect, "reflect", false},
                                {"box_blur", "uint8", 2809, 1048, 1, 7, 5, B::Zero, "zero", false},
                                {"box_blur", "float", 21, 22, 3, 7, 5, B::Zero, "zero", true},
                                {"convolve2d", "uint8", 230, 109, 1, 5, 3, B::Zero, "zero", true},
                                {"convolve2d", "uint8", 1833, 556, 3, 9, 7, B::Mirror, "mirror", true},
                                {"convolve2d", "float", 24, 16, 1, 9, 3, B::Zero, "zero", false},
                                {"rgb_to_gray", "uint8", 82, 386, 4, 1, 1, B::Zero, "zero", false}};
  for (const auto& c : cases) explore(c, alternatives(c));
}

// Large byte filters: the register ring beside the default at 7680x4320 and at a large 3-channel filter.
void large_section() {
  const std::vector<Case> cases{{"gaussian_blur", "uint8", 7680, 4320, 1, 9, 9, B::Mirror, "mirror", false},
                                {"gaussian_blur", "uint8", 7680, 4320, 3, 9, 9, B::Mirror, "mirror", false},
                                {"gaussian_blur", "uint8", 7680, 4320, 4, 9, 9, B::Mirror, "mirror", false},
                                {"gaussian_blur", "uint8", 2318, 6828, 3, 13, 13, B::Clamp, "clamp", false},
                                {"box_blur", "uint8", 7680, 4320, 1, 5, 5, B::Mirror, "mirror", false},
                                {"box_blur", "uint8", 7680, 4320, 3, 5, 5, B::Mirror, "mirror", false},
                                {"box_blur", "uint8", 7680, 4320, 4, 5, 5, B::Mirror, "mirror", false},
                                {"gaussian_blur", "float", 7680, 4320, 1, 9, 9, B::Mirror, "mirror", false},
                                {"gaussian_blur", "float", 7223, 896, 3, 15, 15, B::Clamp, "clamp", false}};
  for (const auto& c : cases) {
    std::vector<std::string> configs;
    if (c.dtype == "uint8")
      for (const char* vec : {"VEC=4", "VEC=8"})
        for (const char* rows : {"WPT_Y=16", "WPT_Y=32"})
          configs.push_back(std::string("ring ") + vec + " " + rows + " WG_X=128 WG_Y=1 USE_ROUND_BY_ADD=1");
    explore(c, configs);
  }
}

// Narrow or short images with large filters on several channels, the GPU sweep's worst rows (H100, seed 24,
// bench/results/nvidia-h100/session18): few default tiles for the GPU's compute units.
void narrow_section(bool short_list) {
  const std::vector<Case> cases{{"gaussian_blur", "float", 55, 4781, 4, 13, 13, B::Reflect, "reflect", false},
                                {"gaussian_blur", "float", 4407, 25, 4, 15, 15, B::Mirror, "mirror", false},
                                {"box_blur", "uint8", 22, 5771, 4, 15, 15, B::Mirror, "mirror", false},
                                {"gaussian_blur", "uint8", 43, 4468, 3, 3, 13, B::Reflect, "reflect", false},
                                {"gaussian_blur", "float", 782, 2946, 4, 9, 9, B::Clamp, "clamp", false},
                                {"gaussian_blur", "float", 1327, 723, 3, 7, 7, B::Reflect, "reflect", false},
                                {"convolve2d", "float", 166, 4537, 4, 9, 9, B::Mirror, "mirror", false},
                                {"convolve2d", "uint8", 708, 2215, 3, 9, 7, B::Mirror, "mirror", false}};
  // Every listed configuration compiles a program (10-15 s each for the unrolled 13x13 and 15x15 filters on the
  // H100): `narrow` takes the whole list, `narrow_short` three configurations per image.
  for (const auto& c : cases) {
    if (short_list && &c == &cases.front()) continue;  // measured with the whole list (session 18, run 3)
    const std::string round = c.dtype == "uint8" ? " USE_ROUND_BY_ADD=1" : "";
    const std::string separable = c.op == "convolve2d" ? "" : " USE_LOCAL_INPUT=0 USE_PREFETCH=0";
    std::vector<std::string> configs;
    if (!short_list) configs = alternatives(c);
    if (!short_list) configs.push_back("tiled TILE_X=16 TILE_Y=16 WPT_Y=4 VEC=4 PAD=0" + separable + round);
    configs.push_back("tiled TILE_X=32 TILE_Y=32 WPT_Y=4 VEC=4 PAD=0" + separable + round);
    if (!short_list) configs.push_back("tiled TILE_X=32 TILE_Y=32 WPT_Y=8 VEC=4 PAD=0" + separable + round);
    if (c.op == "convolve2d")
      configs.push_back("vector VEC=4 WPT_Y=8 USE_WINDOW=0 WG_X=64 WG_Y=4" + round);
    else if (short_list)
      configs.push_back("ring VEC=4 WPT_Y=16 WG_X=128 WG_Y=1" + round);
    explore(c, configs);
  }
}

// Float separable filters on several channels at 7680x4320 (the bench's rows): the default's USE_PREFETCH against the
// other setting, the rest of the default kept (GPUs: a CPU default has no USE_PREFETCH, and the section prints
// nothing).
void prefetch_section() {
  const std::vector<Case> cases{{"gaussian_blur", "float", 7680, 4320, 3, 9, 9, B::Mirror, "mirror", false},
                                {"gaussian_blur", "float", 7680, 4320, 4, 9, 9, B::Mirror, "mirror", false},
                                {"box_blur", "float", 7680, 4320, 3, 5, 5, B::Mirror, "mirror", false},
                                {"gaussian_blur", "float", 7680, 4320, 1, 9, 9, B::Mirror, "mirror", false}};
  for (const auto& c : cases) {
    tilecl::tuning::clear();
    std::string other = tilecl::tuning::parameters_for(queue, c.op, c.dtype, shape_of(c)).parameters.to_string();
    const std::string name = "USE_PREFETCH=";
    const std::size_t at = other.find(name);
    if (at == std::string::npos) continue;
    char& value = other[at + name.size()];
    value = value == '1' ? '0' : '1';
    explore(c, {other});
  }
}

// The cases of bench/experiments/npp_filters.cu (NVIDIA's NPP on the same images, timed by that CUDA program in the
// same session): 7680x4320, the edge pixel repeated, Gaussian 9x9, box 5x5 and a 5x5 filter2D on bytes and floats
// with 1, 3 and 4 channels, and RGB to gray; the default configuration only (first-use tuning unless TILECL_TUNE=off).
void npp_section() {
  for (const char* op : {"gaussian_blur", "box_blur", "convolve2d"})
    for (std::size_t channels : {1, 3, 4})
      for (const char* dtype : {"uint8", "float"}) {
        const std::size_t size = std::string(op) == "gaussian_blur" ? 9 : 5;
        explore({op, dtype, 7680, 4320, channels, size, size, B::Clamp, "clamp", false}, {});
      }
  for (const char* dtype : {"uint8", "float"})
    explore({"rgb_to_gray", dtype, 7680, 4320, 3, 1, 1, B::Zero, "zero", false}, {});
}

// Mid-size images where PoCL lost to OpenCV in the seed-21 sweep (bench/results/pocl-cpu/session16), with the CPU
// kernels in other settings.
void cpu_section() {
  const std::vector<Case> cases{{"convolve2d", "uint8", 1293, 1621, 4, 1, 9, B::Zero, "zero", true},
                                {"convolve2d", "uint8", 59, 1518, 3, 1, 9, B::Clamp, "clamp", true},
                                {"convolve2d", "float", 1123, 153, 1, 3, 3, B::Mirror, "mirror", false},
                                {"convolve2d", "float", 1004, 86, 3, 3, 3, B::Zero, "zero", false},
                                {"convolve2d", "uint8", 1920, 1080, 1, 5, 5, B::Reflect, "reflect", false},
                                {"gaussian_blur", "uint8", 1920, 1080, 1, 9, 9, B::Mirror, "mirror", false},
                                {"gaussian_blur", "uint8", 1920, 1080, 3, 9, 9, B::Zero, "zero", false},
                                {"box_blur", "uint8", 1645, 135, 3, 7, 9, B::Clamp, "clamp", true}};
  for (const auto& c : cases) {
    const std::string round = c.dtype == "uint8" ? " USE_ROUND_BY_ADD=1" : "";
    std::vector<std::string> configs;
    if (c.op == "convolve2d")
      for (const char* vec : {"VEC=8", "VEC=16"})
        for (const char* rows : {"WPT_Y=1", "WPT_Y=4", "WPT_Y=8", "WPT_Y=16", "WPT_Y=32"})
          configs.push_back(std::string("vector ") + vec + " " + rows + " USE_WINDOW=0 WG_X=128 WG_Y=1" + round);
    else
      for (const char* vec : {"VEC=8", "VEC=16"})
        for (const char* rows : {"WPT_Y=8", "WPT_Y=32"})
          configs.push_back(std::string("vector ") + vec + " " + rows + " USE_WINDOW=0 WG_X=32 WG_Y=4" + round);
    explore(c, configs);
  }
}

}  // namespace

int main(int argc, char** argv) {
  device = cl::Device::getDefault();
  context = cl::Context(device);
  queue = cl::CommandQueue(context, device, CL_QUEUE_PROFILING_ENABLE);
  std::cerr << "device: " << device.getInfo<CL_DEVICE_NAME>() << "\n";
  const std::string sections = "," + std::string(argc > 1 ? argv[1] : "small,large") + ",";
  auto wants = [&sections](const char* name) {
    return sections.find("," + std::string(name) + ",") != std::string::npos;
  };
  if (wants("small")) small_section();
  if (wants("large")) large_section();
  if (wants("cpu")) cpu_section();
  if (wants("narrow")) narrow_section(false);
  if (wants("narrow_short")) narrow_section(true);
  if (wants("prefetch")) prefetch_section();
  if (wants("npp")) npp_section();
  return 0;
}
