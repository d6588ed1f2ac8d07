// Image ops (families color and convolve): rgb_to_gray, gaussian_blur, box_blur and convolve2d beside OpenCV's
// cvtColor, GaussianBlur, blur and filter2D, against the copy limit.
//
// Sizes: 7680x4320 on GPUs; on CPUs 7680x4320 for rgb_to_gray and 1920x1080 for the filters; 640x480 with
// --quick. Bytes counted: rgb_to_gray reads 3 and writes 1 element per pixel; the filters read and write each
// element once. OpenCV runs on the host (its CPU code, host-timed, with its default threads): on a GPU device
// its rows are CPU figures and are labelled so.
#include <CL/opencl.hpp>

#ifdef TILECL_HAVE_OPENCV
#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>
#endif

#include <cmath>

#include "cases/cases.hpp"
#include "ops/color.hpp"
#include "ops/convolve.hpp"
#include "tilecl/color.hpp"
#include "tilecl/convolve.hpp"
#include "tilecl/tuning.hpp"

namespace tilecl::bench {
namespace {

constexpr double kSigma = 1.7;  // of the 9x9 Gaussian (radius 4)

template <typename T>
const char* dtype_name() {
  return std::is_same_v<T, float> ? "float" : "uint8";
}

// Input and output images rotated through more than the device's cache, with host copies of the inputs: OpenCV
// rotates through as many host images (and outputs) as tilecl does, so neither side runs from a warm cache.
template <typename T>
struct Images {
  std::vector<cl::Buffer> inputs, outputs;
  std::vector<std::vector<T>> hosts;
};

template <typename T>
Images<T> make_images(BenchContext& context, std::size_t input_elements, std::size_t output_elements) {
  Images<T> images;
  const std::size_t sets = context.rotation_sets((input_elements + output_elements) * sizeof(T));
  for (std::size_t s = 0; s < sets; ++s) {
    std::vector<T>& host = images.hosts.emplace_back(input_elements);
    if constexpr (std::is_same_v<T, float>) {
      std::uniform_real_distribution<float> distribution(0.0f, 1.0f);
      for (auto& value : host) value = distribution(context.random);
    } else {
      std::uniform_int_distribution<int> distribution(0, 255);
      for (auto& value : host) value = static_cast<T>(distribution(context.random));
    }
    images.inputs.emplace_back(context.context, CL_MEM_READ_WRITE, input_elements * sizeof(T));
    context.queue.enqueueWriteBuffer(images.inputs.back(), CL_TRUE, 0, input_elements * sizeof(T), host.data());
    images.outputs.emplace_back(context.context, CL_MEM_READ_WRITE, output_elements * sizeof(T));
  }
  return images;
}

Row base_row(const std::string& op, const std::string& shape, const std::string& dtype, double bytes) {
  Row row;
  row.family = "image";
  row.op = op;
  row.shape = shape;
  row.dtype = dtype;
  row.work = bytes;
  row.unit = Unit::BytesPerSecond;
  return row;
}

std::string chosen_parameters(BenchContext& context, const std::string& op, const std::string& dtype,
                              const std::string& shape) {
  const auto choice = tuning::parameters_for(context.queue, op, dtype, shape);
  return choice.parameters.to_string() + " (" + tuning::origin_name(choice.origin) + ")";
}

#ifdef TILECL_HAVE_OPENCV
const char* opencv_name(BenchContext& context) { return context.info->is_cpu() ? "OpenCV" : "OpenCV (CPU)"; }

template <typename T>
int opencv_type(int channels) {
  return std::is_same_v<T, float> ? CV_32FC(channels) : CV_8UC(channels);
}

int opencv_border(Border border) {
  switch (border) {
    case Border::Zero:
      return cv::BORDER_CONSTANT;
    case Border::Clamp:
      return cv::BORDER_REPLICATE;
    case Border::Mirror:
      return cv::BORDER_REFLECT_101;
    case Border::Wrap:
      return cv::BORDER_WRAP;
  }
  return cv::BORDER_DEFAULT;
}

void add_opencv_row(BenchContext& context, Row row, const std::function<void(int)>& call) {
  row.implementation = opencv_name(context);
  row.kind = Row::Kind::Peer;
  row.note = context.info->is_cpu() ? "host-timed" : "host-timed, CPU";
  try {
    row.timing = time_with_host_clock(
        nullptr, [&](int i) { call(i); }, context.measure);
  } catch (const std::exception& error) {
    row.failed = true;
    row.note = error.what();
  }
  context.add(row);
}
#endif

// ---------------------------------------------------------------------------------------------------------

template <typename T>
void bench_gray(BenchContext& context, std::size_t width, std::size_t height) {
  const std::size_t pixels = width * height;
  Images<T> images = make_images<T>(context, 3 * pixels, pixels);
  const std::size_t sets = images.inputs.size();
  const double bytes = 4.0 * static_cast<double>(pixels) * sizeof(T);
  const std::string shape = std::to_string(width) + "x" + std::to_string(height);

  Row ours = base_row("rgb_to_gray", shape, dtype_name<T>(), bytes);
  ours.implementation = "tilecl";
  ours.parameters = chosen_parameters(context, "rgb_to_gray", dtype_name<T>(), shape);
  ours.timing = time_with_events(
      [&](int i) {
        return std::vector<cl::Event>{rgb_to_gray<T>(context.queue, width, height, images.inputs[i % sets], 0,
                                                     3 * width, images.outputs[i % sets], 0, width)};
      },
      context.measure);
  context.add(ours);

  Row naive = base_row("rgb_to_gray", shape, dtype_name<T>(), bytes);
  naive.implementation = "tilecl naive";
  naive.kind = Row::Kind::OursBaseline;
  const detail::Config naive_config{"naive", {{"WG_X", 64}, {"WG_Y", context.info->is_gpu() ? 4 : 1}}};
  naive.parameters = naive_config.to_string();
  naive.timing = time_with_events(
      [&](int i) {
        return std::vector<cl::Event>{detail::rgb_to_gray_with<T>(naive_config, context.queue, width, height,
                                                                  images.inputs[i % sets], 0, 3 * width,
                                                                  images.outputs[i % sets], 0, width)};
      },
      context.measure);
  context.add(naive);

  // The same traffic as one plain copy (3 + 1 elements per pixel: a copy of 2 elements per pixel reads and
  // writes as many bytes): how far a frame of this size can go at all, launch and tail included.
  Row copy = base_row("rgb_to_gray", shape, dtype_name<T>(), bytes);
  copy.implementation = "copy of the same bytes";
  copy.kind = Row::Kind::Limit;
  const std::size_t copy_bytes = 2 * pixels * sizeof(T);
  copy.parameters = "clEnqueueCopyBuffer of " + std::to_string(copy_bytes) + " bytes";
  cl::Buffer copy_target(context.context, CL_MEM_READ_WRITE, copy_bytes);
  copy.timing = time_with_events(
      [&](int i) {
        cl::Event event;
        context.queue.enqueueCopyBuffer(images.inputs[i % sets], copy_target, 0, 0, copy_bytes, nullptr, &event);
        return std::vector<cl::Event>{event};
      },
      context.measure);
  context.add(copy);

#ifdef TILECL_HAVE_OPENCV
  std::vector<cv::Mat> sources, targets(images.hosts.size());
  for (auto& host : images.hosts)
    sources.emplace_back(static_cast<int>(height), static_cast<int>(width), opencv_type<T>(3), host.data());
  add_opencv_row(context, base_row("rgb_to_gray", shape, dtype_name<T>(), bytes), [&](int i) {
    cv::cvtColor(sources[i % sources.size()], targets[i % targets.size()], cv::COLOR_RGB2GRAY);
  });
#endif
}

// A filter of the convolve family (convolve2d with a random filter, box_blur, gaussian_blur), with the naive
// direct kernel on the same 2-D taps and OpenCV beside it.
enum class FilterKind { Convolve2d, Box, Gaussian };

template <typename T>
void bench_filter(BenchContext& context, FilterKind kind, std::size_t width, std::size_t height, std::size_t channels,
                  int radius, Border border, bool naive_row) {
  const std::size_t elements = width * height * channels, row = width * channels;
  Images<T> images = make_images<T>(context, elements, elements);
  const std::size_t sets = images.inputs.size();
  const double bytes = 2.0 * static_cast<double>(elements) * sizeof(T);
  const std::size_t taps = 2 * static_cast<std::size_t>(radius) + 1;
  const std::string op = kind == FilterKind::Convolve2d ? "convolve2d"
                         : kind == FilterKind::Box      ? "box_blur"
                                                        : "gaussian_blur";
  const std::string shape = std::to_string(width) + "x" + std::to_string(height) +
                            (channels != 1 ? "x" + std::to_string(channels) : "") + "," + std::to_string(taps) + "x" +
                            std::to_string(taps) + "," + to_string(border);

  // The 2-D taps (for convolve2d and the naive rows): random for convolve2d, else the separable filter's outer
  // product.
  std::vector<float> line(taps), filter(taps * taps);
  if (kind == FilterKind::Box) {
    for (auto& tap : line) tap = 1.0f / static_cast<float>(taps);
  } else {
    double sum = 0;
    for (int d = -radius; d <= radius; ++d) sum += std::exp(-0.5 * d * d / (kSigma * kSigma));
    for (int d = -radius; d <= radius; ++d)
      line[static_cast<std::size_t>(d + radius)] = static_cast<float>(std::exp(-0.5 * d * d / (kSigma * kSigma)) / sum);
  }
  std::uniform_real_distribution<float> distribution(-0.1f, 0.2f);
  for (std::size_t i = 0; i < filter.size(); ++i)
    filter[i] = kind == FilterKind::Convolve2d ? distribution(context.random) : line[i / taps] * line[i % taps];
  cl::Buffer filter_buffer(context.context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, filter.size() * sizeof(float),
                           filter.data());

  Row ours = base_row(op, shape, dtype_name<T>(), bytes);
  ours.implementation = "tilecl";
  ours.parameters = chosen_parameters(context, op, dtype_name<T>(), shape);
  ours.timing = time_with_events(
      [&](int i) {
        const cl::Buffer& in = images.inputs[i % sets];
        cl::Buffer& out = images.outputs[i % sets];
        cl::Event done;
        if (kind == FilterKind::Convolve2d)
          done = convolve2d<T>(context.queue, width, height, channels, in, 0, row, out, 0, row, filter_buffer, 0, taps,
                               taps, border);
        else if (kind == FilterKind::Box)
          done = box_blur<T>(context.queue, width, height, channels, in, 0, row, out, 0, row, radius, radius, border);
        else
          done = gaussian_blur<T>(context.queue, width, height, channels, in, 0, row, out, 0, row, kSigma, border,
                                  static_cast<std::size_t>(radius));
        return std::vector<cl::Event>{done};
      },
      context.measure);
  context.add(ours);

  if (naive_row) {
    Row naive = base_row(op, shape, dtype_name<T>(), bytes);
    naive.implementation = "tilecl naive";
    naive.kind = Row::Kind::OursBaseline;
    const detail::Config naive_config{"naive", {{"WG_X", 32}, {"WG_Y", context.info->is_gpu() ? 8 : 1}}};
    naive.parameters = naive_config.to_string() + " (direct " + std::to_string(taps) + "x" + std::to_string(taps) + ")";
    naive.timing = time_with_events(
        [&](int i) {
          return std::vector<cl::Event>{detail::convolve2d_with<T>(
              naive_config, context.queue, width, height, channels, images.inputs[i % sets], 0, row,
              images.outputs[i % sets], 0, row, filter_buffer, 0, taps, taps, border)};
        },
        context.measure);
    context.add(naive);
  }

#ifdef TILECL_HAVE_OPENCV
  // OpenCV's filters refuse BORDER_WRAP: no peer row for it.
  if (border == Border::Wrap) return;
  std::vector<cv::Mat> sources, targets(images.hosts.size());
  for (auto& host : images.hosts)
    sources.emplace_back(static_cast<int>(height), static_cast<int>(width), opencv_type<T>(static_cast<int>(channels)),
                         host.data());
  const int cv_border = opencv_border(border);
  const cv::Size size(static_cast<int>(taps), static_cast<int>(taps));
  cv::Mat kernel(static_cast<int>(taps), static_cast<int>(taps), CV_32F, filter.data());
  add_opencv_row(context, base_row(op, shape, dtype_name<T>(), bytes), [&](int i) {
    const cv::Mat& src = sources[i % sources.size()];
    cv::Mat& dst = targets[i % targets.size()];
    if (kind == FilterKind::Convolve2d)
      cv::filter2D(src, dst, -1, kernel, cv::Point(-1, -1), 0, cv_border);
    else if (kind == FilterKind::Box)
      cv::blur(src, dst, size, cv::Point(-1, -1), cv_border);
    else
      cv::GaussianBlur(src, dst, size, kSigma, kSigma, cv_border);
  });
#endif
}

void run_image_benchmark(BenchContext& context) {
  const bool gpu = context.info->is_gpu();
  const std::size_t gray_w = context.quick ? 640 : 7680, gray_h = context.quick ? 480 : 4320;
  const std::size_t filter_w = context.quick ? 640 : gpu ? 7680 : 1920;
  const std::size_t filter_h = context.quick ? 480 : gpu ? 4320 : 1080;
  bench_gray<std::uint8_t>(context, gray_w, gray_h);
  bench_gray<float>(context, gray_w, gray_h);
  for (Border border : {Border::Mirror, Border::Zero, Border::Clamp, Border::Wrap})
    bench_filter<float>(context, FilterKind::Gaussian, filter_w, filter_h, 1, 4, border, border == Border::Mirror);
  bench_filter<float>(context, FilterKind::Box, filter_w, filter_h, 1, 2, Border::Mirror, true);
  bench_filter<float>(context, FilterKind::Convolve2d, filter_w, filter_h, 1, 2, Border::Mirror, true);
  // Bytes and RGB, where OpenCV's fixed-point filters are strongest.
  bench_filter<std::uint8_t>(context, FilterKind::Gaussian, filter_w, filter_h, 1, 4, Border::Mirror, false);
  bench_filter<std::uint8_t>(context, FilterKind::Gaussian, filter_w, filter_h, 3, 4, Border::Mirror, false);
  bench_filter<float>(context, FilterKind::Gaussian, filter_w, filter_h, 3, 4, Border::Mirror, false);
}

// First calls: one 640x480 frame.
void first_gray(cl::CommandQueue& queue) {
  const std::size_t width = 640, height = 480;
  cl::Context context = queue.getInfo<CL_QUEUE_CONTEXT>();
  std::vector<std::uint8_t> pixels(3 * width * height, 100);
  cl::Buffer src(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, pixels.size(), pixels.data());
  cl::Buffer dst(context, CL_MEM_READ_WRITE, width * height);
  rgb_to_gray<std::uint8_t>(queue, width, height, src, 0, 3 * width, dst, 0, width).wait();
}

void first_gaussian(cl::CommandQueue& queue) {
  const std::size_t width = 640, height = 480;
  cl::Context context = queue.getInfo<CL_QUEUE_CONTEXT>();
  std::vector<float> pixels(width * height, 0.5f);
  cl::Buffer src(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, pixels.size() * sizeof(float), pixels.data());
  cl::Buffer dst(context, CL_MEM_READ_WRITE, pixels.size() * sizeof(float));
  gaussian_blur<float>(queue, width, height, 1, src, 0, width, dst, 0, width, kSigma, Border::Mirror, std::size_t{4})
      .wait();
}

}  // namespace

FamilyBenchmark image_benchmark() { return {"image", run_image_benchmark}; }

std::vector<FirstCallOp> image_first_calls() {
  std::vector<FirstCallOp> ops{{"rgb_to_gray", true, first_gray}, {"gaussian_blur", true, first_gaussian}};
#ifdef TILECL_HAVE_OPENCV
  ops.push_back({"opencv-gaussian_blur", false, [](cl::CommandQueue&) {
                   cv::Mat src(480, 640, CV_32F, cv::Scalar(0.5)), dst;
                   cv::GaussianBlur(src, dst, cv::Size(9, 9), kSigma, kSigma, cv::BORDER_REFLECT_101);
                 }});
#endif
  return ops;
}

}  // namespace tilecl::bench
