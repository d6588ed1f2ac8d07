// tilecl against OpenCV 4.6 itself (libopencv-dev, a test dependency): Arithmetic::OpenCV on 8-bit images must give
// OpenCV's bytes exactly (0 differing pixels), for every border OpenCV's filters take, 1, 3 and 4 channels and a
// range of kernel sizes and sigmas, over random images of awkward sizes (one pixel, smaller than the kernel,
// odd); the float arithmetic must follow OpenCV's semantics (borders, kernel sizes and sigmas) within float
// rounding. Each case also checks the test suite's model of OpenCV (tests/reference/image_reference.hpp), which
// the op suites hold the kernels to. Kernel sizes, borders and channel counts rotate so that each program (a
// filter size, border and channel count) is compiled once: the suite stays within seconds on PoCL.
#include <doctest/doctest.h>

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

#include "reference/image_reference.hpp"
#include "support/fixture.hpp"
#include "support/guarded_buffer.hpp"
#include "tilecl/color.hpp"
#include "tilecl/convolve.hpp"

using namespace tilecl;
using tilecl::test::device;

namespace {

struct BorderPair {
  Border ours;
  int opencv;
  reference::Border model;
};
const BorderPair kBorders[] = {{Border::Zero, cv::BORDER_CONSTANT, reference::Border::Zero},
                               {Border::Clamp, cv::BORDER_REPLICATE, reference::Border::Clamp},
                               {Border::Reflect, cv::BORDER_REFLECT, reference::Border::Reflect},
                               {Border::Mirror, cv::BORDER_REFLECT_101, reference::Border::Mirror}};
const int kChannels[] = {1, 3, 4};
const std::vector<std::pair<int, int>> kSizes{{1, 1}, {3, 2}, {2, 5}, {37, 23}, {131, 19}};

// A random image as an OpenCV matrix (continuous: OpenCV's fixed-point paths take whole matrices).
template <typename T>
cv::Mat random_mat(int width, int height, int channels, std::mt19937_64& random) {
  const std::size_t count = static_cast<std::size_t>(width) * height * channels;
  cv::Mat mat(height, width, std::is_same_v<T, float> ? CV_32FC(channels) : CV_8UC(channels));
  const auto values = std::is_same_v<T, float> ? test::random_vector<T>(count, random, -1.0, 2.0)
                                               : test::random_vector<T>(count, random, 0, 255);
  std::memcpy(mat.data, values.data(), count * sizeof(T));
  return mat;
}

// Runs a tilecl op on `src` (dense rows) and returns its output as a matrix like src.
template <typename T>
cv::Mat run_tilecl(const cv::Mat& src,
                   const std::function<cl::Event(cl::CommandQueue&, std::size_t, std::size_t, std::size_t,
                                                 const cl::Buffer&, cl::Buffer&, std::size_t)>& op,
                   int out_channels) {
  const std::size_t width = src.cols, height = src.rows, channels = src.channels();
  const std::size_t count = width * height * channels;
  cl::Buffer in = test::to_device(std::vector<T>(src.ptr<T>(), src.ptr<T>() + count));
  test::GuardedBuffer<T> out(width * height * out_channels);
  op(device().queue, width, height, channels, in, out.buffer(), out.offset()).wait();
  out.check_guards("tilecl output");
  const auto values = out.read();
  cv::Mat result(src.rows, src.cols, CV_MAKETYPE(src.depth(), out_channels));
  std::memcpy(result.data, values.data(), values.size() * sizeof(T));
  return result;
}

std::size_t differing(const cv::Mat& a, const cv::Mat& b) {
  cv::Mat diff;
  cv::absdiff(a.reshape(1), b.reshape(1), diff);
  return static_cast<std::size_t>(cv::countNonZero(diff));
}

std::vector<std::uint8_t> bytes_of(const cv::Mat& mat) {
  return std::vector<std::uint8_t>(mat.data, mat.data + mat.total() * mat.elemSize());
}

reference::ByteImage model_image(const cv::Mat& src, reference::Border border) {
  return {src.data, src.cols, src.rows, src.channels(), static_cast<long>(src.cols) * src.channels(), border};
}

// The exact comparisons of one filter case: tilecl and the model against OpenCV, at every test size.
void check_exact(const std::string& what, int channels, const BorderPair& border,
                 const std::function<void(const cv::Mat&, cv::Mat&)>& opencv,
                 const std::function<std::vector<std::uint8_t>(const reference::ByteImage&)>& model,
                 const std::function<cl::Event(cl::CommandQueue&, std::size_t, std::size_t, std::size_t,
                                               const cl::Buffer&, cl::Buffer&, std::size_t)>& ours) {
  CAPTURE(what);
  CAPTURE(channels);
  CAPTURE(border.opencv);
  auto random = test::random_engine(what + std::to_string(channels) + std::to_string(border.opencv));
  for (auto [width, height] : kSizes) {
    CAPTURE(width);
    CAPTURE(height);
    const cv::Mat src = random_mat<std::uint8_t>(width, height, channels, random);
    cv::Mat want;
    opencv(src, want);
    CHECK(model(model_image(src, border.model)) == bytes_of(want));
    CHECK(differing(run_tilecl<std::uint8_t>(src, ours, channels), want) == 0);
  }
}

}  // namespace

TEST_SUITE("opencv.exact") {
  TEST_CASE("opencv: gaussian_blur with OpenCV's arithmetic is cv::GaussianBlur, bit for bit") {
    // (ksize, sigmas): OpenCV's fixed small kernels (sigma 0, sizes 1..7), sizes derived from sigma (3 sigma for
    // bytes), sigma derived from the size, different x and y.
    const std::vector<GaussianKernel> kernels{
        {1, 1, 0.0, 0.0}, {3, 3, 0.0, 0.0},  {5, 5, 0.0, 0.0},   {7, 7, 0.0, 0.0}, {9, 9, 1.7, 1.7},  {0, 0, 1.2, 0.0},
        {3, 7, 0.8, 1.5}, {11, 5, 2.5, 0.0}, {15, 15, 0.0, 0.0}, {0, 0, 0.4, 2.2}, {13, 1, 3.0, 0.0}, {1, 9, 0.0, 1.1}};
    int turn = 0;
    for (const GaussianKernel& k : kernels) {
      const BorderPair& border = kBorders[turn % 4];
      const int channels = kChannels[turn++ % 3];
      const cv::Size ksize(static_cast<int>(k.width), static_cast<int>(k.height));
      const double sy = k.sigma_y > 0 ? k.sigma_y : k.sigma_x;
      const int kw = k.width ? static_cast<int>(k.width) : cvRound(k.sigma_x * 6 + 1) | 1;
      const int kh = k.height ? static_cast<int>(k.height) : cvRound(sy * 6 + 1) | 1;
      check_exact(
          "gaussian " + std::to_string(kw) + "x" + std::to_string(kh), channels, border,
          [&](const cv::Mat& src, cv::Mat& dst) {
            cv::GaussianBlur(src, dst, ksize, k.sigma_x, k.sigma_y, border.opencv);
          },
          [&](const reference::ByteImage& image) {
            return reference::opencv_gaussian_blur(image, reference::opencv_gaussian_fixed(kw, k.sigma_x),
                                                   reference::opencv_gaussian_fixed(kh, sy));
          },
          [&](cl::CommandQueue& q, std::size_t w, std::size_t h, std::size_t c, const cl::Buffer& in, cl::Buffer& out,
              std::size_t at) {
            return gaussian_blur<std::uint8_t>(q, w, h, c, in, 0, w * c, out, at, w * c, k,
                                               FilterOptions(border.ours, 0.0, Arithmetic::OpenCV));
          });
    }
  }

  TEST_CASE("opencv: box_blur with OpenCV's arithmetic is cv::blur, bit for bit, up to and beyond 256 taps") {
    const std::vector<std::pair<int, int>> radii{{0, 0}, {1, 1}, {2, 2},  {1, 3}, {4, 4},
                                                 {7, 7}, {8, 8}, {10, 9}, {2, 0}, {0, 6}};
    int turn = 0;
    for (auto [rx, ry] : radii) {
      const BorderPair& border = kBorders[turn % 4];
      const int channels = kChannels[(turn + 1) % 3];
      ++turn;
      check_exact(
          "box " + std::to_string(2 * rx + 1) + "x" + std::to_string(2 * ry + 1), channels, border,
          [&](const cv::Mat& src, cv::Mat& dst) {
            cv::blur(src, dst, cv::Size(2 * rx + 1, 2 * ry + 1), cv::Point(-1, -1), border.opencv);
          },
          [&](const reference::ByteImage& image) { return reference::opencv_box_blur(image, rx, ry); },
          [&](cl::CommandQueue& q, std::size_t w, std::size_t h, std::size_t c, const cl::Buffer& in, cl::Buffer& out,
              std::size_t at) {
            return box_blur<std::uint8_t>(q, w, h, c, in, 0, w * c, out, at, w * c, rx, ry,
                                          FilterOptions(border.ours, 0.0, Arithmetic::OpenCV));
          });
    }
  }

  TEST_CASE("opencv: convolve2d with OpenCV's arithmetic is cv::filter2D, bit for bit, below 130 taps") {
    const std::vector<std::pair<int, int>> sizes{{1, 1}, {3, 3}, {5, 5}, {7, 3}, {9, 9}, {11, 11}, {9, 13}, {1, 5}};
    int turn = 0;
    for (auto [kw, kh] : sizes) {
      const BorderPair& border = kBorders[(turn + 2) % 4];
      const int channels = kChannels[turn % 3];
      ++turn;
      auto random = test::random_engine("filter2d" + std::to_string(kw) + "x" + std::to_string(kh));
      // Negative taps, zeros (OpenCV skips them), a sum above 1: results saturate at both ends.
      auto taps = test::random_vector<float>(static_cast<std::size_t>(kw * kh), random, -0.4, 0.6);
      for (std::size_t i = 0; i < taps.size(); i += 5) taps[i] = 0.0f;
      taps[taps.size() / 2] = 0.9f;
      const cv::Mat kernel(kh, kw, CV_32F, taps.data());
      cl::Buffer filter = test::to_device(taps);
      check_exact(
          "filter2D " + std::to_string(kw) + "x" + std::to_string(kh), channels, border,
          [&](const cv::Mat& src, cv::Mat& dst) {
            cv::filter2D(src, dst, -1, kernel, cv::Point(-1, -1), 0, border.opencv);
          },
          [&](const reference::ByteImage& image) { return reference::opencv_filter2d(image, taps, kw / 2, kh / 2); },
          [&](cl::CommandQueue& q, std::size_t w, std::size_t h, std::size_t c, const cl::Buffer& in, cl::Buffer& out,
              std::size_t at) {
            return convolve2d<std::uint8_t>(q, w, h, c, in, 0, w * c, out, at, w * c, filter, 0, kw, kh,
                                            FilterOptions(border.ours, 0.0, Arithmetic::OpenCV));
          });
    }
  }

  TEST_CASE("opencv: rgb_to_gray with OpenCV's arithmetic is cv::cvtColor, bit for bit, from every layout") {
    const std::vector<std::pair<ChannelOrder, int>> orders{{ChannelOrder::RGB, cv::COLOR_RGB2GRAY},
                                                           {ChannelOrder::BGR, cv::COLOR_BGR2GRAY},
                                                           {ChannelOrder::RGBA, cv::COLOR_RGBA2GRAY},
                                                           {ChannelOrder::BGRA, cv::COLOR_BGRA2GRAY}};
    for (auto [order, code] : orders) {
      CAPTURE(code);
      const int channels = order == ChannelOrder::RGBA || order == ChannelOrder::BGRA ? 4 : 3;
      auto random = test::random_engine("gray" + std::to_string(code));
      for (auto [width, height] : {std::pair<int, int>{1, 1}, {17, 3}, {67, 33}, {1920, 2}}) {
        const cv::Mat src = random_mat<std::uint8_t>(width, height, channels, random);
        cv::Mat want;
        cv::cvtColor(src, want, code);
        const bool blue_first = order == ChannelOrder::BGR || order == ChannelOrder::BGRA;
        CHECK(reference::opencv_gray(src.data, width, height, static_cast<long>(width) * channels, channels,
                                     blue_first) == bytes_of(want));
        const cv::Mat got = run_tilecl<std::uint8_t>(
            src,
            [&](cl::CommandQueue& q, std::size_t w, std::size_t h, std::size_t c, const cl::Buffer& in, cl::Buffer& out,
                std::size_t at) {
              return rgb_to_gray<std::uint8_t>(q, w, h, in, 0, w * c, out, at, w,
                                               GrayOptions(GrayWeights::bt601(), order, Arithmetic::OpenCV));
            },
            1);
        CHECK(differing(got, want) == 0);
      }
    }
  }

  TEST_CASE("opencv: float images follow OpenCV's semantics: borders, kernel sizes and sigmas") {
    // Float sums in a different order than OpenCV's: equal within float rounding.
    auto random = test::random_engine("opencv-float");
    int turn = 0;
    for (const BorderPair& border : kBorders) {
      const int channels = kChannels[turn++ % 3];
      CAPTURE(border.opencv);
      const cv::Mat src = random_mat<float>(53, 29, channels, random);
      auto run = [&](auto op) { return run_tilecl<float>(src, op, channels); };
      auto close = [](const cv::Mat& a, const cv::Mat& b) { return cv::norm(a, b, cv::NORM_INF) <= 2e-5; };
      // Sizes derived from sigma with 4 sigma for float images: 2 round(4 * 1.1) + 1 = 9.
      const GaussianKernel kernel{0, 0, 1.1, 0.6};
      cv::Mat want;
      cv::GaussianBlur(src, want, cv::Size(), 1.1, 0.6, border.opencv);
      CHECK(close(run([&](cl::CommandQueue& q, std::size_t w, std::size_t h, std::size_t c, const cl::Buffer& in,
                          cl::Buffer& out, std::size_t at) {
                    return gaussian_blur<float>(q, w, h, c, in, 0, w * c, out, at, w * c, kernel, border.ours);
                  }),
                  want));
      cv::blur(src, want, cv::Size(5, 3), cv::Point(-1, -1), border.opencv);
      CHECK(close(run([&](cl::CommandQueue& q, std::size_t w, std::size_t h, std::size_t c, const cl::Buffer& in,
                          cl::Buffer& out, std::size_t at) {
                    return box_blur<float>(q, w, h, c, in, 0, w * c, out, at, w * c, 2, 1, border.ours);
                  }),
                  want));
    }
  }
}
