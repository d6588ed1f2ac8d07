// Experiment (not part of the build): a GPU-shaped fused separable filter for uint8 images that keeps the column
// pass in registers (a ring of row-pass results per work-item, fully unrolled so that it is renamed, not moved),
// loads each row's window as aligned 32-bit words (unaligned byte vectors become byte loads on NVIDIA), converts
// each needed byte once per work-item, and has no local memory and no barrier. Timed beside tilecl's own call
// (first-use tuning) and a copy of the same bytes; interior pixels compared with tilecl's (|difference| <= 1).
// Build: g++ -O2 -std=c++17 -Iinclude -Ibuild-gpu/include bench/experiments/byte_ring.cpp build-gpu/libtilecl.a \
//        -lOpenCL -lpthread -o byte_ring
#define CL_HPP_TARGET_OPENCL_VERSION 120
#define CL_HPP_MINIMUM_OPENCL_VERSION 120
#define CL_HPP_ENABLE_EXCEPTIONS
#include <CL/opencl.hpp>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <iostream>
#include <random>
#include <string>
#include <vector>

#include "batch_timing.hpp"
#include "tilecl/convolve.hpp"

namespace {

const char* kSource = R"CLC(
/* WPW words (4 * WPW elements) per work-item, WPT_Y rows; C channels; radii RX, RY. Interior only. */
#define HW ((RX * C + 3) / 4)
#define NW (WPW + 2 * HW)
#define E0 (4 * HW) /* the first own element in the window */
__kernel __attribute__((reqd_work_group_size(WG_X, WG_Y, 1)))
void ring(const int row_words, const int height, __global const uint* restrict src, const int src_pitch,
          __global uint* restrict dst, const int dst_pitch, __constant float* restrict rowf,
          __constant float* restrict colf) {
  const int wx = get_global_id(0) * WPW;
  const int y0 = get_global_id(1) * WPT_Y;
  if (wx - HW < 0 || wx + WPW + HW > row_words || y0 - RY < 0 || y0 + WPT_Y + RY > height) return;
  float ring[2 * RY + 1][4 * WPW];
#pragma unroll
  for (int r = 0; r < WPT_Y + 2 * RY; ++r) {
    __global const uint* p = src + (long)(y0 - RY + r) * src_pitch + wx - HW;
    uint w[NW];
#pragma unroll
    for (int k = 0; k < NW; ++k) w[k] = p[k];
    float b[4 * NW];
#pragma unroll
    for (int k = 0; k < 4 * NW; ++k) {
#if BITS
      b[k] = as_float(0x4B000000u | ((w[k / 4] >> (8 * (k % 4))) & 0xFFu)) - 8388608.0f;
#else
      b[k] = convert_float((w[k / 4] >> (8 * (k % 4))) & 0xFFu);
#endif
    }
    float h[4 * WPW];
#pragma unroll
    for (int i = 0; i < 4 * WPW; ++i) {
      float a = 0.0f;
#pragma unroll
      for (int d = 0; d <= 2 * RX; ++d) a += rowf[d] * b[E0 + i + (d - RX) * C];
      h[i] = a;
    }
#pragma unroll
    for (int j = 0; j < 2 * RY; ++j)
#pragma unroll
      for (int i = 0; i < 4 * WPW; ++i) ring[j][i] = ring[j + 1][i];
#pragma unroll
    for (int i = 0; i < 4 * WPW; ++i) ring[2 * RY][i] = h[i];
    if (r >= 2 * RY) {
      __global uint* q = dst + (long)(y0 + r - 2 * RY) * dst_pitch + wx;
#pragma unroll
      for (int k = 0; k < WPW; ++k) {
        uint out = 0;
#pragma unroll
        for (int i = 0; i < 4; ++i) {
          float a = 0.0f;
#pragma unroll
          for (int j = 0; j <= 2 * RY; ++j) a += colf[j] * ring[j][4 * k + i];
          out |= (as_uint(clamp(a, 0.0f, 255.0f) + 8388608.0f) & 0xFFu) << (8 * i);
        }
        q[k] = out;
      }
    }
  }
}
)CLC";

cl::Context context;
cl::CommandQueue queue;
cl::Device device;

double batch_ms(const std::function<void()>& call, int repeats = 20) {
  return tilecl::experiments::best_batch_ms(queue, call, 3, repeats);
}

std::vector<float> gaussian(int size) {
  const double sigma = 0.3 * ((size - 1) / 2 - 1) + 0.8;
  std::vector<double> t(size);
  double sum = 0;
  for (int i = 0; i < size; ++i) sum += t[i] = std::exp(-std::pow(i - size / 2, 2) / (2 * sigma * sigma));
  std::vector<float> f(size);
  for (int i = 0; i < size; ++i) f[i] = static_cast<float>(t[i] / sum);
  return f;
}

void run_case(bool box, int size, int channels) {
  const int width = 7680, height = 4320, row = width * channels, row_words = row / 4;
  std::vector<std::uint8_t> host(static_cast<std::size_t>(row) * height);
  std::mt19937 random(5);
  for (auto& v : host) v = static_cast<std::uint8_t>(random());
  const std::size_t bytes = host.size();
  cl::Buffer src(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes, host.data());
  cl::Buffer ours(context, CL_MEM_READ_WRITE, bytes), lib(context, CL_MEM_READ_WRITE, bytes);
  const std::vector<float> taps = box ? std::vector<float>(size, 1.0f / size) : gaussian(size);
  cl::Buffer filter(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, taps.size() * 4, const_cast<float*>(taps.data()));
  const std::string name = std::string(box ? "box " : "gaussian ") + std::to_string(size) + "x" + std::to_string(size) +
                           " c" + std::to_string(channels);
  const tilecl::FilterOptions options(tilecl::Border::Mirror);
  auto library = [&] {
    if (box)
      tilecl::box_blur<std::uint8_t>(queue, width, height, channels, src, 0, row, lib, 0, row, size / 2, size / 2,
                                     options);
    else
      tilecl::gaussian_blur<std::uint8_t>(queue, width, height, channels, src, 0, row, lib, 0, row,
                                          tilecl::GaussianKernel{std::size_t(size), std::size_t(size), 0, 0}, options);
  };
  const double lib_ms = batch_ms(library);
  const double copy = batch_ms([&] { queue.enqueueCopyBuffer(src, ours, 0, 0, bytes); });
  std::vector<std::uint8_t> expected(bytes);
  queue.enqueueReadBuffer(lib, CL_TRUE, 0, bytes, expected.data());
  std::cout << name << ": tilecl " << lib_ms << " ms (" << 100 * copy / lib_ms << "% of copy " << copy << " ms)"
            << std::endl;
  struct Config {
    int wpw, wpt, wg, bits;
  };
  const std::vector<Config> configs{{1, 16, 128, 1}, {1, 32, 128, 1}, {2, 16, 128, 1}, {2, 32, 128, 1}, {4, 16, 128, 1},
                                    {4, 32, 128, 1}, {2, 16, 64, 1},  {2, 16, 256, 1}, {2, 16, 128, 0}, {2, 8, 128, 1}};
  for (const Config& config : configs) {
    {
      const int wpw = config.wpw, wpt = config.wpt, wg = config.wg, bits = config.bits;
      const int r = size / 2;
      const std::string options_text = "-DC=" + std::to_string(channels) + " -DRX=" + std::to_string(r) +
                                       " -DRY=" + std::to_string(r) + " -DWPW=" + std::to_string(wpw) +
                                       " -DWPT_Y=" + std::to_string(wpt) + " -DWG_X=" + std::to_string(wg) +
                                       " -DWG_Y=1 -DBITS=" + std::to_string(bits);
      try {
        cl::Program program(context, kSource);
        program.build({device}, options_text.c_str());
        cl::Kernel kernel(program, "ring");
        kernel.setArg(0, row_words);
        kernel.setArg(1, height);
        kernel.setArg(2, src);
        kernel.setArg(3, row_words);
        kernel.setArg(4, ours);
        kernel.setArg(5, row_words);
        kernel.setArg(6, filter);
        kernel.setArg(7, filter);
        const std::size_t gx = (row_words / wpw + wg - 1) / wg * wg, gy = (height + wpt - 1) / wpt;
        auto call = [&] { queue.enqueueNDRangeKernel(kernel, cl::NullRange, {gx, gy}, {std::size_t(wg), 1}); };
        queue.enqueueFillBuffer(ours, cl_uchar(7), 0, bytes);
        const double ms = batch_ms(call);
        std::vector<std::uint8_t> got(bytes);
        queue.enqueueReadBuffer(ours, CL_TRUE, 0, bytes, got.data());
        int worst = 0;
        long checked = 0;
        const int hw = (r * channels + 3) / 4;
        for (int y = 0; y < height; ++y) {
          if (y < wpt || y >= (height / wpt - 1) * wpt) continue;  // the top and bottom strips are skipped
          for (int e = 4 * hw + 4 * wpw; e < row - 4 * hw - 8 * wpw; e += 7) {
            const int i = y * row + e;
            worst = std::max(worst, std::abs(int(got[i]) - int(expected[i])));
            ++checked;
          }
        }
        std::cout << "  " << options_text << ": " << ms << " ms, " << 100 * copy / ms << "% of copy, " << lib_ms / ms
                  << "x tilecl, max diff " << worst << " over " << checked << std::endl;
      } catch (const std::exception& e) {
        std::cout << "  " << options_text << ": error " << e.what() << std::endl;
      }
    }
  }
}

}  // namespace

int main() {
  std::vector<cl::Platform> platforms;
  cl::Platform::get(&platforms);
  for (auto& p : platforms) {
    std::vector<cl::Device> devices;
    p.getDevices(CL_DEVICE_TYPE_ALL, &devices);
    if (!devices.empty()) {
      device = devices[0];
      break;
    }
  }
  context = cl::Context(device);
  queue = cl::CommandQueue(context, device);
  std::cout << device.getInfo<CL_DEVICE_NAME>() << std::endl;
  const bool quick = std::getenv("BYTE_RING_QUICK") != nullptr;
  for (int channels : {1, 3, 4}) {
    run_case(false, 9, channels);
    if (quick) break;
    run_case(true, 5, channels);
  }
}
