// Image ops at random images (bench/sweeps/shapes.hpp, draw_image_shape; tiny images are the overhead sweep's):
// gaussian_blur, box_blur, convolve2d and rgb_to_gray on uint8 and float, 1, 3 or 4 channels, random borders, filter
// sizes and row padding. Images up to 8192 per side and 2^25 pixels on GPUs (2048 and 2^21 on CPUs). Beside a copy of
// the bytes the call reads and writes (its limit) and, where the bench is built with OpenCV, OpenCV 4 on the host (its
// default threads; on a GPU that is a CPU figure, not a peer of the same device, so it is reported only on CPUs).
#include <CL/opencl.hpp>
#include <random>

#ifdef TILECL_HAVE_OPENCV
#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>
#endif

#include "opencv_border.hpp"
#include "sweeps/common.hpp"
#include "tilecl/color.hpp"
#include "tilecl/convolve.hpp"
#include "tilecl/tuning.hpp"

namespace tilecl::bench::sweeps {
namespace {

const char* op_name(ImageSweepOp op) {
  switch (op) {
    case ImageSweepOp::Gaussian:
      return "gaussian_blur";
    case ImageSweepOp::Box:
      return "box_blur";
    case ImageSweepOp::Convolve2d:
      return "convolve2d";
    case ImageSweepOp::Gray:
      return "rgb_to_gray";
  }
  return "";
}

ChannelOrder channel_order(int order) {
  const ChannelOrder orders[] = {ChannelOrder::RGB, ChannelOrder::BGR, ChannelOrder::RGBA, ChannelOrder::BGRA};
  return orders[order & 3];
}

std::string shape_text(ImageSweepOp op, const ImageShape& s) {
  const std::string text = op == ImageSweepOp::Gray ? s.gray_key() : s.filter_key();
  return s.padded_rows ? text + ",ld+" : text;
}

// filter2D's taps: random, positive on the whole, summing to about 1 (values do not change the timing).
std::vector<float> random_taps(std::mt19937_64& random, std::size_t count) {
  std::uniform_real_distribution<float> tap(-0.05f, 0.25f);
  std::vector<float> taps(count);
  for (auto& t : taps) t = tap(random) * 4.0f / static_cast<float>(count);
  return taps;
}

#ifdef TILECL_HAVE_OPENCV
// OpenCV's call for the same image on host copies with the same pitches.
template <typename T>
double opencv_ms(ImageSweepOp op, const ImageShape& s, const std::vector<float>& taps) {
  const int depth = std::is_same_v<T, float> ? CV_32F : CV_8U;
  const int out_channels = op == ImageSweepOp::Gray ? 1 : static_cast<int>(s.channels);
  std::vector<T> in(s.src_pitch * s.height, T(1)), out(s.dst_pitch * s.height);
  cv::Mat src(static_cast<int>(s.height), static_cast<int>(s.width), CV_MAKETYPE(depth, static_cast<int>(s.channels)),
              in.data(), s.src_pitch * sizeof(T));
  cv::Mat dst(static_cast<int>(s.height), static_cast<int>(s.width), CV_MAKETYPE(depth, out_channels), out.data(),
              s.dst_pitch * sizeof(T));
  const cv::Size size(static_cast<int>(s.filter_width), static_cast<int>(s.filter_height));
  const int border = opencv_border(s.border);
  const cv::Mat kernel(static_cast<int>(s.filter_height), static_cast<int>(s.filter_width), CV_32F,
                       const_cast<float*>(taps.data()));
  const int codes[] = {cv::COLOR_RGB2GRAY, cv::COLOR_BGR2GRAY, cv::COLOR_RGBA2GRAY, cv::COLOR_BGRA2GRAY};
  return median_host_ms(nullptr, [&] {
    switch (op) {
      case ImageSweepOp::Gaussian:
        cv::GaussianBlur(src, dst, size, 0, 0, border);
        break;
      case ImageSweepOp::Box:
        cv::blur(src, dst, size, cv::Point(-1, -1), border);
        break;
      case ImageSweepOp::Convolve2d:
        cv::filter2D(src, dst, -1, kernel, cv::Point(-1, -1), 0, border);
        break;
      case ImageSweepOp::Gray:
        cv::cvtColor(src, dst, codes[s.order & 3]);
        break;
    }
  });
}
#endif

template <typename T>
SweepPoint measure(BenchContext& context, ImageSweepOp op, const ImageShape& s, std::mt19937_64& random) {
  SweepPoint point;
  point.family = op == ImageSweepOp::Gray ? "color" : "convolve";
  point.op = op_name(op);
  point.dtype = type_name<T>();
  point.shape = shape_text(op, s);
  const std::uint64_t out_channels = op == ImageSweepOp::Gray ? 1 : s.channels;
  point.bytes = static_cast<double>(s.width * s.height * (s.channels + out_channels) * sizeof(T));
  const std::vector<float> taps = random_taps(random, s.filter_width * s.filter_height);
  return measured(point, [&](SweepPoint& p) {
    auto& queue = context.queue;
    cl::Buffer src = filled_buffer<T>(context, s.src_pitch * s.height);
    cl::Buffer dst = filled_buffer<T>(context, s.dst_pitch * s.height);
    cl::Buffer filter(context.context, CL_MEM_READ_ONLY, taps.size() * sizeof(float));
    queue.enqueueWriteBuffer(filter, CL_TRUE, 0, taps.size() * sizeof(float), taps.data());
    const FilterOptions options(s.border);
    std::function<void()> call;
    switch (op) {
      case ImageSweepOp::Gaussian:
        call = [&] {
          gaussian_blur<T>(queue, s.width, s.height, s.channels, src, 0, s.src_pitch, dst, 0, s.dst_pitch,
                           GaussianKernel{s.filter_width, s.filter_height, 0.0, 0.0}, options);
        };
        break;
      case ImageSweepOp::Box:
        call = [&] {
          box_blur<T>(queue, s.width, s.height, s.channels, src, 0, s.src_pitch, dst, 0, s.dst_pitch,
                      s.filter_width / 2, s.filter_height / 2, options);
        };
        break;
      case ImageSweepOp::Convolve2d:
        call = [&] {
          convolve2d<T>(queue, s.width, s.height, s.channels, src, 0, s.src_pitch, dst, 0, s.dst_pitch, filter, 0,
                        s.filter_width, s.filter_height, options);
        };
        break;
      case ImageSweepOp::Gray:
        call = [&] {
          rgb_to_gray<T>(queue, s.width, s.height, src, 0, s.src_pitch, dst, 0, s.dst_pitch,
                         GrayOptions(GrayWeights::bt601(), channel_order(s.order)));
        };
        break;
    }
    p.ours_ms = median_host_ms(&queue, call);
    const std::string key = op == ImageSweepOp::Gray ? s.gray_key() : s.filter_key();
    const auto choice = tuning::parameters_for(queue, p.op, p.dtype, key);
    p.ours_parameters = choice.parameters.to_string() + " (" + tuning::origin_name(choice.origin) + ")";
    p.copy_ms = copy_ms(context, static_cast<std::uint64_t>(p.bytes));
#ifdef TILECL_HAVE_OPENCV
    if (context.info->is_cpu()) {
      p.peer = "OpenCV";
      p.peer_ms = opencv_ms<T>(op, s, taps);
    }
#endif
  });
}

template <typename T>
SweepOp image_op(const DeviceInfo& device, ImageSweepOp op, int count) {
  const std::uint64_t side = device.is_cpu() ? 2048 : 8192;
  const std::uint64_t area = device.is_cpu() ? (1u << 21) : (1u << 25);
  return {op == ImageSweepOp::Gray ? "color" : "convolve", op_name(op), type_name<T>(), count,
          [=](BenchContext& context, std::mt19937_64& random) {
            const ImageShape shape = draw_image_shape(random, op, side, area);
            return measure<T>(context, op, shape, random);
          }};
}

}  // namespace

std::vector<SweepOp> image_sweep_ops(const DeviceInfo& device) {
  std::vector<SweepOp> ops;
  for (ImageSweepOp op : {ImageSweepOp::Gaussian, ImageSweepOp::Box, ImageSweepOp::Convolve2d, ImageSweepOp::Gray}) {
    ops.push_back(image_op<std::uint8_t>(device, op, 10));
    ops.push_back(image_op<float>(device, op, 10));
  }
  return ops;
}

}  // namespace tilecl::bench::sweeps
