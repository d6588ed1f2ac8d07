// Experiment (not part of the build): A/B of two versions of kernels/convolve.cl's CPU separable kernel
// (convolve_separable_vector) in one process, beside OpenCV's GaussianBlur, on a 1920x1080 byte image with the
// 9x9 Gaussian (sigma from the size, as OpenCV's). Each round times A, B and OpenCV (enqueue + finish, or the
// call, median of N calls), alternating, so that the shared machine's noise falls on all three alike; it prints
// each round and the median of the rounds, and checks that B writes the same bytes as A.
// Build (needs OpenCV; no tilecl library):
//   g++ -O2 -std=c++17 bench/experiments/separable_ab.cpp $(pkg-config --cflags --libs opencv4) -lOpenCL \
//       -o /tmp/separable_ab
// Run: /tmp/separable_ab DIR_A DIR_B CHANNELS BORDER ROUNDS "A options" "B options" [float]
//   DIR_A, DIR_B hold common.clh and convolve.cl; BORDER 0..4 as the kernel's macro; options are appended to the
//   CPU default's (-DVEC=16 -DWPT_Y=32 -DUSE_SYMMETRIC=1 -DUSE_ROUND_BY_ADD=1 ...), later -D wins; -DAB_WG_X=,
//   -DAB_WG_Y= (not kernel macros) set the launch work-group (default 128 x 1, narrowed as the library does).
// Session 19 (docs/notes/image.md) measured the fused kernel's fast path and USE_UNIT_GAIN with it, the old kernel
// in DIR_A (a copy of the previous commit's kernels/), the new one in DIR_B.
#define CL_HPP_TARGET_OPENCL_VERSION 120
#define CL_HPP_MINIMUM_OPENCL_VERSION 120
#define CL_HPP_ENABLE_EXCEPTIONS
#include <CL/opencl.hpp>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <opencv2/imgproc.hpp>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace {
using Clock = std::chrono::steady_clock;

std::string slurp(const std::string& path) {
  std::ifstream f(path);
  if (!f) throw std::runtime_error("cannot read " + path);
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// The macro value of -DNAME=V in options (the last one), or fallback.
int option_value(const std::string& options, const std::string& name, int fallback) {
  const std::string key = "-D" + name + "=";
  int value = fallback;
  for (std::size_t at = options.find(key); at != std::string::npos; at = options.find(key, at + 1))
    value = std::atoi(options.c_str() + at + key.size());
  return value;
}

struct Variant {
  cl::Kernel kernel;
  cl::NDRange global, local;
};
}  // namespace

int main(int argc, char** argv) {
  if (argc < 8) {
    std::cerr << "usage: separable_ab DIR_A DIR_B CHANNELS BORDER ROUNDS A_OPTIONS B_OPTIONS [float]\n";
    return 2;
  }
  const std::string dirs[2] = {argv[1], argv[2]};
  const int channels = std::atoi(argv[3]), border = std::atoi(argv[4]), rounds = std::atoi(argv[5]);
  const std::string extra[2] = {argv[6], argv[7]};
  const bool is_float = argc > 8 && std::string(argv[8]) == "float";
  const int width = 1920, height = 1080, ksize = 9, radius = ksize / 2, calls = 15;
  const int row_e = width * channels;

  cl::Context context(CL_DEVICE_TYPE_DEFAULT);
  cl::Device device = context.getInfo<CL_CONTEXT_DEVICES>()[0];
  cl::CommandQueue queue(context, device);

  cv::Mat taps_cv = cv::getGaussianKernel(ksize, 0, CV_32F);
  std::vector<float> taps(taps_cv.begin<float>(), taps_cv.end<float>());
  cl::Buffer tap_buffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, taps.size() * 4, taps.data());

  const int type = is_float ? CV_32FC(channels) : CV_8UC(channels);
  const std::size_t esize = is_float ? 4 : 1;
  cv::Mat image(height, width, type), out_cv;
  cv::randu(image, 0, 256);
  const std::size_t bytes = std::size_t(row_e) * height * esize;
  cl::Buffer src(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, image.data);
  cl::Buffer dst[2] = {cl::Buffer(context, CL_MEM_READ_WRITE, bytes), cl::Buffer(context, CL_MEM_READ_WRITE, bytes)};

  Variant variants[2];
  for (int i = 0; i < 2; ++i) {
    std::ostringstream o;
    o << "-DDTYPE=" << (is_float ? "float" : "uchar") << " -DCHANNELS=" << channels << " -DBORDER=" << border
      << " -DCONVOLVE_VARIANT=5 -DRADIUS_X=" << radius << " -DRADIUS_Y=" << radius
      << " -DUSE_FMA=0 -DUSE_FIXED_POINT=0 -DVEC=16 -DWPT_Y=32 -DUSE_WINDOW=0 -DUSE_SYMMETRIC=1"
      << (is_float ? "" : " -DUSE_ROUND_BY_ADD=1") << " " << extra[i];
    const std::string options = o.str();
    const std::string text =
        slurp(dirs[i] + "/common.clh") + "\n#line 1 \"convolve.cl\"\n" + slurp(dirs[i] + "/convolve.cl");
    cl::Program program(context, text);
    const auto t0 = Clock::now();
    try {
      program.build({device}, options.c_str());
    } catch (const cl::BuildError&) {
      std::cerr << program.getBuildInfo<CL_PROGRAM_BUILD_LOG>(device) << "\n";
      return 1;
    }
    std::cerr << (i ? "B" : "A") << " built in " << std::chrono::duration<double>(Clock::now() - t0).count()
              << " s: " << options << "\n";
    const int vec = option_value(options, "VEC", 16), wpt = option_value(options, "WPT_Y", 32);
    const int wg_x = option_value(options, "AB_WG_X", 128), wg_y = option_value(options, "AB_WG_Y", 1);
    const std::size_t items_x = (row_e + vec - 1) / vec, items_y = (height + wpt - 1) / wpt;
    std::size_t x = wg_x, y = wg_y;
    while (x % 2 == 0 && x / 2 >= items_x) x /= 2;  // fitted_flat_launch without the row growth
    variants[i].global = cl::NDRange((items_x + x - 1) / x * x, (items_y + y - 1) / y * y);
    variants[i].local = cl::NDRange(x, y);
    cl::Kernel& k = variants[i].kernel;
    k = cl::Kernel(program, "convolve_separable_vector");
    cl_uint4 fixed{};
    k.setArg(0, width), k.setArg(1, height), k.setArg(2, src), k.setArg(3, cl_ulong(0)), k.setArg(4, row_e);
    k.setArg(5, dst[i]), k.setArg(6, cl_ulong(0)), k.setArg(7, row_e), k.setArg(8, tap_buffer);
    k.setArg(9, tap_buffer), k.setArg(10, radius), k.setArg(11, radius), k.setArg(12, 0.0f);
    k.setArg(13, fixed), k.setArg(14, 0.0f);
  }

  const int cv_border[] = {cv::BORDER_CONSTANT, cv::BORDER_REPLICATE, cv::BORDER_REFLECT_101, cv::BORDER_WRAP,
                           cv::BORDER_REFLECT};
  auto run = [&](int which) {
    std::vector<double> t;
    for (int c = 0; c < calls; ++c) {
      const auto t0 = Clock::now();
      if (which < 2) {
        queue.enqueueNDRangeKernel(variants[which].kernel, cl::NullRange, variants[which].global,
                                   variants[which].local);
        queue.finish();
      } else {
        cv::GaussianBlur(image, out_cv, cv::Size(ksize, ksize), 0, 0, cv_border[border]);
      }
      t.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
    }
    return median(t);
  };
  run(0), run(1), run(2);

  // B against A, and A against OpenCV (max difference).
  std::vector<unsigned char> out[2] = {std::vector<unsigned char>(bytes), std::vector<unsigned char>(bytes)};
  for (int i = 0; i < 2; ++i) queue.enqueueReadBuffer(dst[i], CL_TRUE, 0, bytes, out[i].data());
  std::size_t differ = 0;
  double max_ab = 0, max_cv = 0;
  for (std::size_t e = 0; e < bytes / esize; ++e) {
    double a, b, c;
    if (is_float) {
      a = reinterpret_cast<float*>(out[0].data())[e], b = reinterpret_cast<float*>(out[1].data())[e];
      c = reinterpret_cast<float*>(out_cv.data)[e];
    } else {
      a = out[0][e], b = out[1][e], c = out_cv.data[e];
    }
    if (a != b) ++differ;
    max_ab = std::max(max_ab, std::abs(a - b)), max_cv = std::max(max_cv, std::abs(a - c));
  }
  std::printf("check: B differs from A in %zu elements (max %g); A vs OpenCV max %g\n", differ, max_ab, max_cv);

  std::vector<double> ta, tb, tc;
  for (int r = 0; r < rounds; ++r) {
    ta.push_back(run(0)), tc.push_back(run(2)), tb.push_back(run(1));
    std::printf("round %d: A %.3f  B %.3f  OpenCV %.3f ms\n", r, ta.back(), tb.back(), tc.back());
  }
  const double a = median(ta), b = median(tb), c = median(tc);
  std::printf("median: A %.3f ms (%.2fx OpenCV)  B %.3f ms (%.2fx OpenCV)  OpenCV %.3f ms  B/A speedup %.2f\n", a,
              c / a, b, c / b, c, a / b);
}
