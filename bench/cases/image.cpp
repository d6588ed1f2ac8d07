// Image ops (families color and convolve): rgb_to_gray, gaussian_blur, box_blur and convolve2d beside OpenCV's
// cvtColor, GaussianBlur, blur and filter2D, and beside a copy of the same bytes (the size-bound limit).
//
// Rows: gray from RGB and RGBA; the filters (Gaussian 9x9, box 5x5, filter2D 5x5) on uint8 and float images
// of 1, 3 and 4 channels under every border OpenCV's filters take (mirror = REFLECT_101, zero = CONSTANT 0,
// clamp = REPLICATE, reflect = REFLECT) and wrap (no OpenCV row: its filters refuse BORDER_WRAP). uint8 rows
// run twice, with the default float arithmetic ("tilecl") and OpenCV's ("tilecl opencv-arithmetic", bit for
// bit OpenCV's results), in one group beside OpenCV.
// Sizes: 7680x4320 on GPUs; on CPUs 7680x4320 for rgb_to_gray and 1920x1080 for the filters; 640x480 with
// --quick. Bytes counted: rgb_to_gray reads 3 or 4 elements and writes 1 per pixel; the filters read and write
// each element once. OpenCV runs on the host (its CPU code, host-timed, with its default threads): on a GPU
// device its rows are CPU figures and are labelled so.
// TILECL_BENCH_IMAGE_ROWS=<text>[,<text>...] runs only the rows whose description ("gaussian_blur uint8 c3
// mirror", "rgb_to_gray float rgba") contains one of the texts.
#include <CL/opencl.hpp>

#ifdef TILECL_HAVE_OPENCV
#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>
#endif

#include <cmath>
#include <cstdlib>
#include <sstream>

#include "cases/cases.hpp"
#include "opencv_border.hpp"
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

// Whether TILECL_BENCH_IMAGE_ROWS selects a row with this description (no variable: every row).
bool selected(const std::string& description) {
  const char* filter = std::getenv("TILECL_BENCH_IMAGE_ROWS");
  if (filter == nullptr || *filter == '\0') return true;
  std::stringstream texts(filter);
  for (std::string text; std::getline(texts, text, ',');)
    if (!text.empty() && description.find(text) != std::string::npos) return true;
  return false;
}

// Input and output images rotated through more than the device's cache, with host copies of the inputs: OpenCV
// rotates through as many host images (and outputs) as tilecl does, so neither side runs from a warm cache.
template <typename T>
struct Images {
  std::vector<cl::Buffer> inputs, outputs;
  std::vector<std::vector<T>> hosts;
  std::size_t sets() const { return inputs.size(); }
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
  try {
    const auto choice = tuning::parameters_for(context.queue, op, dtype, shape);
    return choice.parameters.to_string() + " (" + tuning::origin_name(choice.origin) + ")";
  } catch (const std::exception& error) {
    return std::string("(") + error.what() + ")";
  }
}

// A tilecl row timed with profiling events.
void add_timed_row(BenchContext& context, Row row, const std::function<cl::Event(int)>& call) {
  try {
    row.timing = time_with_events([&](int i) { return std::vector<cl::Event>{call(i)}; }, context.measure);
  } catch (const std::exception& error) {
    row.failed = true;
    row.note = error.what();
  }
  context.add(row);
}

// The same traffic as one plain copy of `copy_bytes` (read + write as many bytes as the op): how far an image
// of this size can go at all, launch and tail included.
template <typename T>
void add_copy_row(BenchContext& context, Row row, Images<T>& images, std::size_t copy_bytes) {
  row.implementation = "copy of the same bytes";
  row.kind = Row::Kind::Limit;
  row.parameters = "clEnqueueCopyBuffer of " + std::to_string(copy_bytes) + " bytes";
  cl::Buffer target(context.context, CL_MEM_READ_WRITE, copy_bytes);
  add_timed_row(context, row, [&](int i) {
    cl::Event event;
    context.queue.enqueueCopyBuffer(images.inputs[i % images.sets()], target, 0, 0, copy_bytes, nullptr, &event);
    return event;
  });
}

#ifdef TILECL_HAVE_OPENCV
const char* opencv_name(BenchContext& context) { return context.info->is_cpu() ? "OpenCV" : "OpenCV (CPU)"; }

template <typename T>
int opencv_type(int channels) {
  return std::is_same_v<T, float> ? CV_32FC(channels) : CV_8UC(channels);
}

template <typename T>
std::vector<cv::Mat> opencv_images(Images<T>& images, std::size_t width, std::size_t height, int channels) {
  std::vector<cv::Mat> mats;
  for (auto& host : images.hosts)
    mats.emplace_back(static_cast<int>(height), static_cast<int>(width), opencv_type<T>(channels), host.data());
  return mats;
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
void bench_gray(BenchContext& context, std::size_t width, std::size_t height, ChannelOrder order) {
  const std::size_t pixels = width * height, channels = order == ChannelOrder::RGBA ? 4 : 3;
  const std::string layout = order == ChannelOrder::RGBA ? "rgba" : "rgb";
  if (!selected(std::string("rgb_to_gray ") + dtype_name<T>() + " " + layout)) return;
  Images<T> images = make_images<T>(context, channels * pixels, pixels);
  const double bytes = static_cast<double>((channels + 1) * pixels) * sizeof(T);
  const std::string shape = std::to_string(width) + "x" + std::to_string(height) + (channels == 4 ? ",rgba" : "");
  auto gray = [&](const GrayOptions& options, const detail::Config* config) {
    return [&, options, config](int i) {
      const std::size_t s = static_cast<std::size_t>(i) % images.sets();
      return config ? detail::rgb_to_gray_with<T>(*config, context.queue, width, height, images.inputs[s], 0,
                                                  channels * width, images.outputs[s], 0, width, options)
                    : rgb_to_gray<T>(context.queue, width, height, images.inputs[s], 0, channels * width,
                                     images.outputs[s], 0, width, options);
    };
  };
  Row ours = base_row("rgb_to_gray", shape, dtype_name<T>(), bytes);
  ours.implementation = "tilecl";
  ours.parameters = chosen_parameters(context, "rgb_to_gray", dtype_name<T>(), shape);
  add_timed_row(context, ours, gray(GrayOptions(GrayWeights::bt601(), order), nullptr));
  if (sizeof(T) == 1) {
    ours.implementation = "tilecl opencv-arithmetic";
    ours.parameters = chosen_parameters(context, "rgb_to_gray", dtype_name<T>(), shape + ",opencv");
    add_timed_row(context, ours, gray(GrayOptions(GrayWeights::bt601(), order, Arithmetic::OpenCV), nullptr));
  }
  if (order == ChannelOrder::RGB) {
    Row naive = base_row("rgb_to_gray", shape, dtype_name<T>(), bytes);
    naive.implementation = "tilecl naive";
    naive.kind = Row::Kind::OursBaseline;
    const detail::Config naive_config{"naive", {{"WG_X", 64}, {"WG_Y", context.info->is_gpu() ? 4 : 1}}};
    naive.parameters = naive_config.to_string();
    add_timed_row(context, naive, gray(GrayOptions(GrayWeights::bt601(), order), &naive_config));
  }
  add_copy_row(context, base_row("rgb_to_gray", shape, dtype_name<T>(), bytes), images,
               (channels + 1) * pixels * sizeof(T) / 2);
#ifdef TILECL_HAVE_OPENCV
  std::vector<cv::Mat> sources = opencv_images(images, width, height, static_cast<int>(channels)),
                       targets(images.hosts.size());
  const int code = channels == 4 ? cv::COLOR_RGBA2GRAY : cv::COLOR_RGB2GRAY;
  add_opencv_row(context, base_row("rgb_to_gray", shape, dtype_name<T>(), bytes),
                 [&](int i) { cv::cvtColor(sources[i % sources.size()], targets[i % targets.size()], code); });
#endif
}

// A filter of the convolve family (convolve2d with a random filter, box_blur, gaussian_blur).
enum class FilterKind { Convolve2d, Box, Gaussian };

struct FilterRow {
  FilterKind kind;
  std::size_t width, height, channels;
  int radius;
  Border border;
  bool naive_row;
};

const char* op_of(FilterKind kind) {
  return kind == FilterKind::Convolve2d ? "convolve2d" : kind == FilterKind::Box ? "box_blur" : "gaussian_blur";
}

// The 2-D taps for convolve2d (random) and the naive rows (the separable filter's outer product).
std::vector<float> filter_taps(BenchContext& context, FilterKind kind, int radius) {
  const std::size_t taps = 2 * static_cast<std::size_t>(radius) + 1;
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
  return filter;
}

template <typename T>
cl::Event run_filter(BenchContext& context, const FilterRow& f, const cl::Buffer& in, cl::Buffer& out,
                     const cl::Buffer& filter, Arithmetic arithmetic) {
  const std::size_t row = f.width * f.channels, taps = 2 * static_cast<std::size_t>(f.radius) + 1;
  const FilterOptions options(f.border, 0.0, arithmetic);
  if (f.kind == FilterKind::Convolve2d)
    return convolve2d<T>(context.queue, f.width, f.height, f.channels, in, 0, row, out, 0, row, filter, 0, taps, taps,
                         options);
  if (f.kind == FilterKind::Box)
    return box_blur<T>(context.queue, f.width, f.height, f.channels, in, 0, row, out, 0, row, f.radius, f.radius,
                       options);
  return gaussian_blur<T>(context.queue, f.width, f.height, f.channels, in, 0, row, out, 0, row,
                          GaussianKernel{taps, taps, kSigma, kSigma}, options);
}

template <typename T>
void bench_filter(BenchContext& context, const FilterRow& f) {
  const std::string border = to_string(f.border);
  if (!selected(std::string(op_of(f.kind)) + " " + dtype_name<T>() + " c" + std::to_string(f.channels) + " " + border))
    return;
  const std::size_t elements = f.width * f.height * f.channels, row = f.width * f.channels;
  Images<T> images = make_images<T>(context, elements, elements);
  const double bytes = 2.0 * static_cast<double>(elements) * sizeof(T);
  const std::size_t taps = 2 * static_cast<std::size_t>(f.radius) + 1;
  const std::string shape = std::to_string(f.width) + "x" + std::to_string(f.height) +
                            (f.channels != 1 ? "x" + std::to_string(f.channels) : "") + "," + std::to_string(taps) +
                            "x" + std::to_string(taps) + "," + border;
  std::vector<float> filter = filter_taps(context, f.kind, f.radius);
  cl::Buffer filter_buffer(context.context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, filter.size() * sizeof(float),
                           filter.data());
  const Row group = base_row(op_of(f.kind), shape, dtype_name<T>(), bytes);
  for (Arithmetic arithmetic : {Arithmetic::Float, Arithmetic::OpenCV}) {
    if (arithmetic == Arithmetic::OpenCV && (sizeof(T) != 1 || f.border == Border::Wrap)) continue;
    Row ours = group;
    ours.implementation = arithmetic == Arithmetic::OpenCV ? "tilecl opencv-arithmetic" : "tilecl";
    ours.parameters = chosen_parameters(context, op_of(f.kind), dtype_name<T>(),
                                        shape + (arithmetic == Arithmetic::OpenCV ? ",opencv" : ""));
    add_timed_row(context, ours, [&](int i) {
      const std::size_t s = static_cast<std::size_t>(i) % images.sets();
      return run_filter<T>(context, f, images.inputs[s], images.outputs[s], filter_buffer, arithmetic);
    });
  }
  if (f.naive_row) {
    Row naive = group;
    naive.implementation = "tilecl naive";
    naive.kind = Row::Kind::OursBaseline;
    const detail::Config naive_config{"naive", {{"WG_X", 32}, {"WG_Y", context.info->is_gpu() ? 8 : 1}}};
    naive.parameters = naive_config.to_string() + " (direct " + std::to_string(taps) + "x" + std::to_string(taps) + ")";
    add_timed_row(context, naive, [&](int i) {
      const std::size_t s = static_cast<std::size_t>(i) % images.sets();
      return detail::convolve2d_with<T>(naive_config, context.queue, f.width, f.height, f.channels, images.inputs[s], 0,
                                        row, images.outputs[s], 0, row, filter_buffer, 0, taps, taps, f.border);
    });
  }
  add_copy_row(context, group, images, elements * sizeof(T));
#ifdef TILECL_HAVE_OPENCV
  if (f.border == Border::Wrap) return;  // OpenCV's filters refuse BORDER_WRAP
  std::vector<cv::Mat> sources = opencv_images(images, f.width, f.height, static_cast<int>(f.channels)),
                       targets(images.hosts.size());
  const int cv_border = opencv_border(f.border);
  const cv::Size size(static_cast<int>(taps), static_cast<int>(taps));
  cv::Mat kernel(static_cast<int>(taps), static_cast<int>(taps), CV_32F, filter.data());
  add_opencv_row(context, group, [&](int i) {
    const cv::Mat& src = sources[i % sources.size()];
    cv::Mat& dst = targets[i % targets.size()];
    if (f.kind == FilterKind::Convolve2d)
      cv::filter2D(src, dst, -1, kernel, cv::Point(-1, -1), 0, cv_border);
    else if (f.kind == FilterKind::Box)
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
  for (ChannelOrder order : {ChannelOrder::RGB, ChannelOrder::RGBA}) {
    bench_gray<std::uint8_t>(context, gray_w, gray_h, order);
    bench_gray<float>(context, gray_w, gray_h, order);
  }
  const std::vector<std::pair<FilterKind, int>> filters{
      {FilterKind::Gaussian, 4}, {FilterKind::Box, 2}, {FilterKind::Convolve2d, 2}};
  for (auto [kind, radius] : filters) {
    for (std::size_t channels : {1, 3, 4}) {
      for (Border border : {Border::Mirror, Border::Zero, Border::Clamp, Border::Reflect, Border::Wrap}) {
        const FilterRow row{kind,
                            filter_w,
                            filter_h,
                            channels,
                            radius,
                            border,
                            channels == 1 && border == Border::Mirror && kind != FilterKind::Box};
        bench_filter<std::uint8_t>(context, row);
        bench_filter<float>(context, row);
      }
    }
  }
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
  gaussian_blur<float>(queue, width, height, 1, src, 0, width, dst, 0, width, GaussianKernel{9, 9, kSigma, kSigma},
                       Border::Mirror)
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
