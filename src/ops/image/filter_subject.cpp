#include "ops/image/filter_subject.hpp"

#include <cmath>
#include <random>

#include "ops/image/border.hpp"
#include "ops/image/filter_checks.hpp"
#include "ops/image/filter_launch.hpp"
#include "ops/image/filter_program.hpp"
#include "ops/image/filter_reference.hpp"
#include "ops/image/filter_space.hpp"
#include "ops/image/image_common.hpp"
#include "ops/image/taps.hpp"
#include "tilecl/error.hpp"
#include "tuning/scratch.hpp"

namespace tilecl::detail {
namespace {

// The constant the subject's Constant border reads (any value: it only touches edge tiles).
constexpr double kSubjectConstant = 37.0;

std::string filter_size_text(const FilterShape& shape) {
  return std::to_string(2 * shape.radius_x + 1) + "x" + std::to_string(2 * shape.radius_y + 1);
}

// Random taps with negative ones, summing to 1.1, so that bytes saturate at both ends.
std::vector<float> random_taps(std::size_t count, std::mt19937_64& random) {
  std::uniform_real_distribution<double> distribution(-0.25, 1.0);
  std::vector<double> values(count);
  double sum = 0;
  for (auto& value : values) sum += (value = distribution(random));
  std::vector<float> taps(count);
  for (std::size_t i = 0; i < count; ++i) taps[i] = static_cast<float>(1.1 * values[i] / sum);
  return taps;
}

// The op's own taps for the blurs (a Gaussian of OpenCV's sigma for the size), random ones for the general
// filters; integers under the OpenCV arithmetic.
HostTaps subject_taps(FilterOp op, const FilterShape& shape, std::mt19937_64& random) {
  const std::size_t kw = 2 * static_cast<std::size_t>(shape.radius_x) + 1;
  const std::size_t kh = 2 * static_cast<std::size_t>(shape.radius_y) + 1;
  HostTaps taps;
  switch (op) {
    case FilterOp::Convolve2d:
      taps.direct = random_taps(kw * kh, random);
      break;
    case FilterOp::Separable:
      taps.row = random_taps(kw, random);
      taps.column = random_taps(kh, random);
      break;
    case FilterOp::Box:
      taps.row = box_taps(static_cast<std::uint64_t>(shape.radius_x));
      taps.column = box_taps(static_cast<std::uint64_t>(shape.radius_y));
      taps.row_fixed.assign(kw, 1);
      taps.column_fixed.assign(kh, 1);
      break;
    case FilterOp::Gaussian:
      for (auto [size, floats, fixed] :
           {std::make_tuple(kw, &taps.row, &taps.row_fixed), std::make_tuple(kh, &taps.column, &taps.column_fixed)}) {
        for (double tap : opencv_gaussian_kernel(size, 0.0)) floats->push_back(static_cast<float>(tap));
        *fixed = opencv_gaussian_fixed(size, 0.0);
      }
      break;
  }
  return taps;
}

template <typename T>
class FilterSubject : public TuningSubject {
 public:
  FilterSubject(FilterOp op, std::uint64_t width, std::uint64_t height, const FilterShape& shape, Border border)
      : op_(op), image_(filter_image_class(width, height)), shape_(shape), border_(border) {}

  TuningKey key() const override {
    return {filter_op_name(op_), dtype_of<T>().name,
            "c" + std::to_string(shape_.channels) + " " + filter_size_text(shape_) + " " + image_.bucket +
                (shape_.opencv ? " opencv" : "")};
  }
  std::string family() const override { return kConvolveFamily; }
  std::string timing_shape() const override {
    return std::to_string(image_.width) + "x" + std::to_string(image_.height) +
           (shape_.channels != 1 ? "x" + std::to_string(shape_.channels) : "") + "," + filter_size_text(shape_) + "," +
           to_string(border_) + (shape_.opencv ? ",opencv" : "");
  }
  SearchSpace search_space(const DeviceInfo& /*device*/) const override {
    return convolve_search_space(shape_, dtype_of<T>());
  }
  Config default_config(const DeviceInfo& device) const override {
    return convolve_default_config(shape_, dtype_of<T>(), device, image_.width * image_.height, image_.aspect);
  }
  BuildOptions build_options(const Config& config) const override {
    return filter_build_options(shape_, border_, dtype_of<T>(), plan_of(config));
  }

  void prepare(const cl::CommandQueue& queue, std::uint64_t seed) override {
    std::mt19937_64 random(seed);
    queue_ = queue;
    const cl::Context context = queue.getInfo<CL_QUEUE_CONTEXT>();
    taps_ = subject_taps(op_, shape_, random);
    bind_taps(context);
    const std::uint64_t c = shape_.channels;
    timing_src_ = upload(context, queue_, random_values<T>(image_.width * image_.height * c, random));
    timing_dst_ = cl::Buffer(context, CL_MEM_READ_WRITE, image_.width * image_.height * c * sizeof(T));
    // Ragged (odd sizes, pitches and offsets: unaligned paths) and aligned with padding (the vector-pointer
    // paths, which the timing image takes); both hold interior and edge tiles of every tile size in the space.
    layouts_ = {Layout(557, 151, 557 * c + 5, 557 * c + 3, 7, 5), Layout(560, 150, 560 * c + 16, 560 * c + 32, 16, 0)};
    for (auto& layout : layouts_) prepare_layout(layout, context, random);
    tolerance_ = shape_.opencv ? 0.0 : float_tolerance();
  }

  std::vector<cl::Event> run(cl::CommandQueue& queue, const Config& config) override {
    auto target = queue_target(filter_op_name(op_), queue);
    const std::uint64_t pitch = image_.width * shape_.channels;
    ImageOperands image{&timing_src_, 0, pitch, &timing_dst_, 0, pitch};
    return launch_filter(filter_op_name(op_), target, queue, dtype_of<T>(), plan_of(config),
                         problem_of(image_.width, image_.height), image, bound_, nullptr);
  }

  std::string verify(cl::CommandQueue& queue, const Config& config) override {
    auto target = queue_target(filter_op_name(op_), queue);
    for (auto& layout : layouts_) {
      queue.enqueueWriteBuffer(layout.dst, CL_TRUE, 0, layout.initial.size() * sizeof(T), layout.initial.data());
      ImageOperands image{&layout.src, layout.src_offset, layout.src_pitch,
                          &layout.dst, layout.dst_offset, layout.dst_pitch};
      auto events = launch_filter(filter_op_name(op_), target, queue, dtype_of<T>(), plan_of(config),
                                  problem_of(layout.width, layout.height), image, bound_, nullptr);
      events.back().wait();
      std::string difference =
          compare_image(download<T>(queue, layout.dst, layout.initial.size()), layout.expected, tolerance_);
      if (!difference.empty())
        return std::to_string(layout.width) + "x" + std::to_string(layout.height) + " image: " + difference;
    }
    return {};
  }

  // Bytes moved: one read and one write of every element.
  double work() const override {
    return 2.0 * static_cast<double>(image_.width * image_.height * shape_.channels) * sizeof(T);
  }
  const char* work_unit() const override { return "byte"; }

 private:
  using Layout = ImageCheck<T>;

  FilterProblem problem_of(std::uint64_t width, std::uint64_t height) const {
    FilterProblem problem{width, height, shape_, border_, 0.0f, finish_of(op_, shape_, width)};
    problem.border_value = border_constant(FilterOptions(border_, kSubjectConstant), sizeof(T) == 1);
    return problem;
  }

  void bind_taps(const cl::Context& context) {
    auto upload_words = [&](const TapWords& words) { return upload(context, queue_, words); };
    const bool fixed = shape_.opencv && shape_.form == FilterForm::Separable;
    if (shape_.form == FilterForm::Direct) {
      bound_.first = bound_.second = upload_words(tap_words(taps_.direct));
    } else {
      bound_.first =
          upload_words(fixed ? fixed_tap_words(taps_.row_fixed, shape_.dividing_finish) : tap_words(taps_.row));
      bound_.second =
          upload_words(fixed ? fixed_tap_words(taps_.column_fixed, shape_.dividing_finish) : tap_words(taps_.column));
    }
  }

  void prepare_layout(Layout& layout, const cl::Context& context, std::mt19937_64& random) {
    const std::uint64_t c = shape_.channels;
    const std::size_t src_size = layout.src_offset + image_extent(layout.src_pitch, layout.width * c, layout.height);
    const std::size_t dst_size =
        layout.dst_offset + image_extent(layout.dst_pitch, layout.width * c, layout.height) + 16;
    const auto src = random_values<T>(src_size, random);
    layout.initial = random_values<T>(dst_size, random);
    layout.src = upload(context, queue_, src);
    layout.dst = upload(context, queue_, layout.initial);
    layout.expected.assign(layout.initial.begin(), layout.initial.end());
    reference_filter(src, layout.src_offset, layout.src_pitch, layout.expected, layout.dst_offset, layout.dst_pitch,
                     problem_of(layout.width, layout.height), taps_);
  }

  // A float sum's error bound: (taps + 2) roundings of the largest partial sum.
  double float_tolerance() const {
    double magnitude = 0;  // sum of |taps| of the 2-D filter
    if (shape_.form == FilterForm::Direct) {
      for (float f : taps_.direct) magnitude += std::abs(f);
    } else {
      double row_sum = 0, column_sum = 0;
      for (float f : taps_.row) row_sum += std::abs(f);
      for (float f : taps_.column) column_sum += std::abs(f);
      magnitude = row_sum * column_sum;
    }
    const double taps = shape_.form == FilterForm::Direct ? static_cast<double>(taps_.direct.size())
                                                          : static_cast<double>(taps_.row.size() + taps_.column.size());
    const double largest = std::is_same_v<T, float> ? 1.0 : std::max(255.0, kSubjectConstant);
    return (taps + 2) * std::ldexp(magnitude * largest, -22);
  }

  FilterOp op_;
  FilterImageClass image_;  // the bucket's area class and aspect, and the image timed
  FilterShape shape_;
  Border border_;
  cl::CommandQueue queue_;
  HostTaps taps_;
  BoundTaps bound_;
  double tolerance_ = 0;
  cl::Buffer timing_src_, timing_dst_;
  std::vector<Layout> layouts_;
};

std::vector<std::string> split(const std::string& text, char separator) {
  std::vector<std::string> parts;
  for (std::size_t start = 0;;) {
    const std::size_t at = text.find(separator, start);
    parts.push_back(text.substr(start, at == std::string::npos ? std::string::npos : at - start));
    if (at == std::string::npos) return parts;
    start = at + 1;
  }
}

}  // namespace

const char* filter_op_name(FilterOp op) {
  switch (op) {
    case FilterOp::Convolve2d:
      return "convolve2d";
    case FilterOp::Separable:
      return "separable_filter";
    case FilterOp::Box:
      return "box_blur";
    case FilterOp::Gaussian:
      return "gaussian_blur";
  }
  return "?";
}

FilterForm form_of(FilterOp op) { return op == FilterOp::Convolve2d ? FilterForm::Direct : FilterForm::Separable; }

FixedFinish finish_of(FilterOp op, const FilterShape& shape, std::uint64_t width) {
  if (!shape.opencv || shape.form == FilterForm::Direct) return {};
  if (op == FilterOp::Gaussian) return gaussian_finish();
  const auto taps =
      static_cast<std::uint64_t>(2 * shape.radius_x + 1) * static_cast<std::uint64_t>(2 * shape.radius_y + 1);
  return box_finish(taps, width * shape.channels);
}

IntegerTaps integer_taps_of(FilterOp op, const FilterShape& shape, bool bytes) {
  if (!bytes) return IntegerTaps::None;
  if (op == FilterOp::Box && !shape.dividing_finish) return IntegerTaps::Ones;
  if (op == FilterOp::Gaussian && shape.opencv) return IntegerTaps::Fixed;
  return IntegerTaps::None;
}

template <typename T>
std::unique_ptr<TuningSubject> make_filter_subject(FilterOp op, std::uint64_t width, std::uint64_t height,
                                                   const FilterShape& shape, Border border) {
  return std::make_unique<FilterSubject<T>>(op, width, height, shape, border);
}

template std::unique_ptr<TuningSubject> make_filter_subject<float>(FilterOp, std::uint64_t, std::uint64_t,
                                                                   const FilterShape&, Border);
template std::unique_ptr<TuningSubject> make_filter_subject<std::uint8_t>(FilterOp, std::uint64_t, std::uint64_t,
                                                                          const FilterShape&, Border);

std::unique_ptr<TuningSubject> parse_filter_subject(FilterOp op, const std::string& dtype, const std::string& shape) {
  const std::string name = filter_op_name(op);
  const std::vector<std::string> parts = split(shape, ',');
  const std::string syntax = "WIDTHxHEIGHT[xCHANNELS],FWxFH[,border][,opencv], e.g. 7680x4320,9x9";
  if (parts.size() < 2 || parts.size() > 4)
    throw Error(name, "shape", CL_INVALID_VALUE, "'" + shape + "' is not " + syntax);
  const ImageSize image = parse_image_size(name, parts[0], true);
  const ImageSize filter = parse_image_size(name, parts[1], false);
  check_channels(name, image.channels);
  FilterShape filter_shape{form_of(op), image.channels, radius_of_length(name, "shape", filter.width),
                           radius_of_length(name, "shape", filter.height)};
  Border border = Border::Mirror;
  for (std::size_t i = 2; i < parts.size(); ++i) {
    if (parts[i] == "opencv" && op != FilterOp::Separable) {
      filter_shape.opencv = dtype == "uint8";
    } else if (auto rule = border_from_name(parts[i]); rule && i == 2) {
      border = *rule;
    } else {
      throw Error(name, "shape", CL_INVALID_VALUE, "'" + parts[i] + "' in '" + shape + "': " + syntax);
    }
  }
  filter_shape.dividing_finish = filter_shape.opencv && op == FilterOp::Box && filter.width * filter.height > 256;
  filter_shape.symmetric = op == FilterOp::Box || op == FilterOp::Gaussian;  // subject_taps: symmetric ones
  filter_shape.integer_taps = integer_taps_of(op, filter_shape, dtype == "uint8");
  if (dtype == "uint8") return make_filter_subject<std::uint8_t>(op, image.width, image.height, filter_shape, border);
  if (dtype == "float") return make_filter_subject<float>(op, image.width, image.height, filter_shape, border);
  throw Error(name, "dtype", CL_INVALID_VALUE, "'" + dtype + "' is not uint8 or float");
}

}  // namespace tilecl::detail
