// Experiment (not part of the build): convolve2d on a 640x480 float image with an FxF filter through the public call,
// the first call (compile and first-use tuning) and the median of 11 warm calls (enqueue + finish), on the default
// device. Session 18 compared the library before and after the direct kernel's strips of rows at F = 5..17 on PoCL.
// Build against a Release build of tilecl:
//   g++ -O2 -std=c++17 -Iinclude -Ibuild/include bench/experiments/filter_sizes.cpp build/libtilecl.a \
//       -lOpenCL -lpthread -o filter_sizes
// Run: TILECL_CACHE_DIR=$(mktemp -d) filter_sizes F
#define CL_HPP_TARGET_OPENCL_VERSION 120
#define CL_HPP_MINIMUM_OPENCL_VERSION 120
#define CL_HPP_ENABLE_EXCEPTIONS
#include <CL/opencl.hpp>
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <iostream>
#include <vector>

#include "tilecl/convolve.hpp"
int main(int argc, char** argv) {
  const int f = argc > 1 ? std::atoi(argv[1]) : 17;
  cl::Context ctx(CL_DEVICE_TYPE_DEFAULT);
  cl::CommandQueue q(ctx);
  const size_t w = 640, h = 480;
  cl::Buffer src(ctx, CL_MEM_READ_WRITE, w * h * 4), dst(ctx, CL_MEM_READ_WRITE, w * h * 4);
  std::vector<float> taps(f * f, 1.0f / (f * f));
  cl::Buffer filt(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, taps.size() * 4, taps.data());
  std::vector<double> t;
  for (int i = 0; i < 12; ++i) {
    auto t0 = std::chrono::steady_clock::now();
    tilecl::convolve2d<float>(q, w, h, 1, src, 0, w, dst, 0, w, filt, 0, f, f, tilecl::Border::Mirror);
    q.finish();
    t.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  std::sort(t.begin() + 1, t.end());
  std::cout << f << "x" << f << " first " << t[0] << " s, median " << t[6] * 1e3 << " ms\n";
}
