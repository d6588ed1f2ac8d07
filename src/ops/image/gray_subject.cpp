#include "ops/image/gray_subject.hpp"

#include <random>

#include "ops/image/gray_launch.hpp"
#include "ops/image/image_common.hpp"
#include "tuning/scratch.hpp"

namespace tilecl::detail {
namespace {

// A problem the tuner can run with any configuration: timing at the bucket's image, verification at a ragged
// layout (odd sizes, pitches and offsets: the unaligned paths) and an aligned padded one (the vector-pointer
// paths, which the timing image takes).
template <typename T>
class GraySubject : public TuningSubject {
 public:
  GraySubject(std::uint64_t width, std::uint64_t height, const GrayShape& shape)
      : area_(area_class(width * height)), shape_(shape) {
    options_ = GrayOptions(shape.opencv ? GrayWeights::bt601() : GrayWeights{0.3f, 0.59f, 0.11f},
                           shape.src_channels == 4 ? ChannelOrder::RGBA : ChannelOrder::RGB,
                           shape.opencv ? Arithmetic::OpenCV : Arithmetic::Float);
  }

  TuningKey key() const override {
    return {kGrayOp, dtype_of<T>().name,
            std::string(area_.name) + (shape_.src_channels == 4 ? " c4" : "") + (shape_.opencv ? " opencv" : "")};
  }
  std::string family() const override { return kColorFamily; }
  std::string timing_shape() const override {
    return std::to_string(area_.width) + "x" + std::to_string(area_.height) +
           (shape_.src_channels == 4 ? ",rgba" : "") + (shape_.opencv ? ",opencv" : "");
  }
  SearchSpace search_space(const DeviceInfo& /*device*/) const override {
    return rgb_to_gray_search_space(dtype_of<T>(), shape_);
  }
  Config default_config(const DeviceInfo& device) const override {
    return rgb_to_gray_default_config(dtype_of<T>(), device, shape_);
  }
  BuildOptions build_options(const Config& config) const override {
    return gray_build_options(dtype_of<T>(), shape_, gray_plan_of(config));
  }

  void prepare(const cl::CommandQueue& queue, std::uint64_t seed) override {
    std::mt19937_64 random(seed);
    queue_ = queue;
    const cl::Context context = queue.getInfo<CL_QUEUE_CONTEXT>();
    const std::uint64_t c = shape_.src_channels;
    timing_src_ = upload(context, queue_, random_values<T>(c * area_.width * area_.height, random));
    timing_dst_ = cl::Buffer(context, CL_MEM_READ_WRITE, area_.width * area_.height * sizeof(T));
    layouts_ = {Layout(133, 9, c * 133 + 5, 133 + 3, 7, 5), Layout(100, 7, 320, 112, 0, 0)};
    for (auto& layout : layouts_) prepare_layout(layout, context, random);
  }

  std::vector<cl::Event> run(cl::CommandQueue& queue, const Config& config) override {
    const auto target = queue_target(kGrayOp, queue);
    const GrayOperands operands{&timing_src_, 0, shape_.src_channels * area_.width, &timing_dst_, 0, area_.width};
    return {launch_gray(target, queue, dtype_of<T>(), shape_, gray_plan_of(config), area_.width, area_.height, operands,
                        kernel_weights(options_, shape_.opencv), nullptr)};
  }

  std::string verify(cl::CommandQueue& queue, const Config& config) override {
    const auto target = queue_target(kGrayOp, queue);
    for (auto& layout : layouts_) {
      queue.enqueueWriteBuffer(layout.dst, CL_TRUE, 0, layout.initial.size() * sizeof(T), layout.initial.data());
      const GrayOperands operands{&layout.src, layout.src_offset, layout.src_pitch,
                                  &layout.dst, layout.dst_offset, layout.dst_pitch};
      launch_gray(target, queue, dtype_of<T>(), shape_, gray_plan_of(config), layout.width, layout.height, operands,
                  kernel_weights(options_, shape_.opencv), nullptr)
          .wait();
      std::string difference = compare_image(download<T>(queue, layout.dst, layout.initial.size()), layout.expected,
                                             shape_.opencv              ? 0.0
                                             : std::is_same_v<T, float> ? 1e-5
                                                                        : 1e-3);
      if (!difference.empty())
        return std::to_string(layout.width) + "x" + std::to_string(layout.height) + " image: " + difference;
    }
    return {};
  }

  // Bytes moved: the source's elements read and one written per pixel.
  double work() const override {
    return static_cast<double>((shape_.src_channels + 1) * area_.width * area_.height) * sizeof(T);
  }
  const char* work_unit() const override { return "byte"; }

 private:
  using Layout = ImageCheck<T>;

  void prepare_layout(Layout& layout, const cl::Context& context, std::mt19937_64& random) {
    const std::uint64_t c = shape_.src_channels;
    const std::size_t src_size = layout.src_offset + image_extent(layout.src_pitch, c * layout.width, layout.height);
    const std::size_t dst_size = layout.dst_offset + image_extent(layout.dst_pitch, layout.width, layout.height) + 16;
    const auto src = random_values<T>(src_size, random);
    layout.initial = random_values<T>(dst_size, random);
    layout.src = upload(context, queue_, src);
    layout.dst = upload(context, queue_, layout.initial);
    layout.expected.assign(layout.initial.begin(), layout.initial.end());
    const auto w = kernel_weights(options_, shape_.opencv);
    for (std::uint64_t y = 0; y < layout.height; ++y) {
      for (std::uint64_t x = 0; x < layout.width; ++x) {
        const T* pixel = &src[layout.src_offset + y * layout.src_pitch + c * x];
        const double sum = static_cast<double>(w[0]) * pixel[0] + static_cast<double>(w[1]) * pixel[1] +
                           static_cast<double>(w[2]) * pixel[2];
        layout.expected[layout.dst_offset + y * layout.dst_pitch + x] =
            shape_.opencv ? static_cast<double>((static_cast<std::uint64_t>(sum) + 16384) >> 15) : sum;
      }
    }
  }

  AreaClass area_;
  GrayShape shape_;
  GrayOptions options_;
  cl::CommandQueue queue_;
  cl::Buffer timing_src_, timing_dst_;
  std::vector<Layout> layouts_;
};

}  // namespace

template <typename T>
std::unique_ptr<TuningSubject> make_gray_subject(std::uint64_t width, std::uint64_t height, const GrayShape& shape) {
  return std::make_unique<GraySubject<T>>(width, height, shape);
}

template std::unique_ptr<TuningSubject> make_gray_subject<float>(std::uint64_t, std::uint64_t, const GrayShape&);
template std::unique_ptr<TuningSubject> make_gray_subject<std::uint8_t>(std::uint64_t, std::uint64_t, const GrayShape&);

}  // namespace tilecl::detail
