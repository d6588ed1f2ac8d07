// convolve2d, separable_filter, box_blur, gaussian_blur: the public entries, the explicit-configuration entries
// and the tuning registration. What a call does is in src/ops/image/: filter_calls (each op's checks and taps),
// filter_run (validate -> parameters -> program -> kernel lease -> enqueue), filter_launch, filter_space,
// filter_program, filter_subject, filter_reference, border, taps, tap_buffers.
//
// Tuning keys: (op, dtype, bucket), bucket = "c<channels> <filter width>x<filter height> <area class>[ tall| wide]
// [ opencv]", area classes as rgb_to_gray (px <= 2^16, <= 2^20, <= 2^23, larger; timed at 256x192, 1024x768,
// 2560x1440, 7680x4320); above 2^16 pixels, images at most 64 pixels wide are "tall" and at most 64 rows high
// "wide", timed at the class's area 48 pixels across (filter_image_class). The border rule is not part of the key: it
// only changes the edge tiles. Shape syntax for `tilecl tune`: WIDTHxHEIGHT[xCHANNELS],FWxFH[,border][,opencv], e.g.
// 7680x4320,9x9 (the filter size in taps; box_blur 5x5 is radius 2).
#include "ops/convolve.hpp"

#include "ops/image/filter_calls.hpp"
#include "ops/image/filter_program.hpp"
#include "ops/tunable_ops.hpp"

namespace tilecl {
namespace detail {
namespace {

template <typename T>
FilterImages images_of(std::size_t width, std::size_t height, std::size_t channels, const cl::Buffer& src,
                       std::size_t src_offset, std::size_t src_pitch, cl::Buffer& dst, std::size_t dst_offset,
                       std::size_t dst_pitch) {
  return FilterImages{width, height, channels, ImageOperands{&src, src_offset, src_pitch, &dst, dst_offset, dst_pitch}};
}

template <typename T>
constexpr bool kBytes = sizeof(T) == 1;

}  // namespace

template <typename T>
cl::Event convolve2d_run(const Config* config, cl::CommandQueue& queue, std::size_t width, std::size_t height,
                         std::size_t channels, const cl::Buffer& src, std::size_t src_offset, std::size_t src_pitch,
                         cl::Buffer& dst, std::size_t dst_offset, std::size_t dst_pitch, const cl::Buffer& filter,
                         std::size_t filter_offset, std::size_t filter_width, std::size_t filter_height,
                         const FilterOptions& options, const std::vector<cl::Event>* wait) {
  const FilterCall call = convolve2d_call(
      images_of<T>(width, height, channels, src, src_offset, src_pitch, dst, dst_offset, dst_pitch),
      TapsArgument{"filter", &filter, filter_offset, 0}, filter_width, filter_height, options, kBytes<T>);
  return run_filter<T>(config, queue, call, wait);
}

template <typename T>
cl::Event separable_filter_run(const Config* config, cl::CommandQueue& queue, std::size_t width, std::size_t height,
                               std::size_t channels, const cl::Buffer& src, std::size_t src_offset,
                               std::size_t src_pitch, cl::Buffer& dst, std::size_t dst_offset, std::size_t dst_pitch,
                               const cl::Buffer& row_filter, std::size_t row_filter_offset,
                               std::size_t row_filter_length, const cl::Buffer& column_filter,
                               std::size_t column_filter_offset, std::size_t column_filter_length,
                               const FilterOptions& options, const std::vector<cl::Event>* wait) {
  const FilterCall call = separable_call(
      images_of<T>(width, height, channels, src, src_offset, src_pitch, dst, dst_offset, dst_pitch),
      TapsArgument{"row_filter", &row_filter, row_filter_offset, row_filter_length},
      TapsArgument{"column_filter", &column_filter, column_filter_offset, column_filter_length}, options, kBytes<T>);
  return run_filter<T>(config, queue, call, wait);
}

template <typename T>
cl::Event box_blur_run(const Config* config, cl::CommandQueue& queue, std::size_t width, std::size_t height,
                       std::size_t channels, const cl::Buffer& src, std::size_t src_offset, std::size_t src_pitch,
                       cl::Buffer& dst, std::size_t dst_offset, std::size_t dst_pitch, std::size_t radius_x,
                       std::size_t radius_y, const FilterOptions& options, const std::vector<cl::Event>* wait) {
  const FilterCall call =
      box_call(images_of<T>(width, height, channels, src, src_offset, src_pitch, dst, dst_offset, dst_pitch), radius_x,
               radius_y, options, kBytes<T>);
  return run_filter<T>(config, queue, call, wait);
}

template <typename T>
cl::Event gaussian_blur_run(const Config* config, cl::CommandQueue& queue, std::size_t width, std::size_t height,
                            std::size_t channels, const cl::Buffer& src, std::size_t src_offset, std::size_t src_pitch,
                            cl::Buffer& dst, std::size_t dst_offset, std::size_t dst_pitch, double sigma,
                            const FilterOptions& options, std::optional<std::size_t> radius,
                            const std::vector<cl::Event>* wait) {
  const FilterCall call =
      gaussian_sigma_call(images_of<T>(width, height, channels, src, src_offset, src_pitch, dst, dst_offset, dst_pitch),
                          sigma, radius, options, kBytes<T>);
  return run_filter<T>(config, queue, call, wait);
}

template <typename T>
cl::Event gaussian_blur_run(const Config* config, cl::CommandQueue& queue, std::size_t width, std::size_t height,
                            std::size_t channels, const cl::Buffer& src, std::size_t src_offset, std::size_t src_pitch,
                            cl::Buffer& dst, std::size_t dst_offset, std::size_t dst_pitch,
                            const GaussianKernel& kernel, const FilterOptions& options,
                            const std::vector<cl::Event>* wait) {
  const FilterCall call = gaussian_kernel_call(
      images_of<T>(width, height, channels, src, src_offset, src_pitch, dst, dst_offset, dst_pitch), kernel, options,
      kBytes<T>);
  return run_filter<T>(config, queue, call, wait);
}

// The explicit-configuration entries (ops/convolve.hpp).
template <typename T>
cl::Event convolve2d_with(const Config& config, cl::CommandQueue& queue, std::size_t width, std::size_t height,
                          std::size_t channels, const cl::Buffer& src, std::size_t src_offset, std::size_t src_pitch,
                          cl::Buffer& dst, std::size_t dst_offset, std::size_t dst_pitch, const cl::Buffer& filter,
                          std::size_t filter_offset, std::size_t filter_width, std::size_t filter_height,
                          const FilterOptions& options, const std::vector<cl::Event>* wait) {
  return convolve2d_run<T>(&config, queue, width, height, channels, src, src_offset, src_pitch, dst, dst_offset,
                           dst_pitch, filter, filter_offset, filter_width, filter_height, options, wait);
}

template <typename T>
cl::Event separable_filter_with(const Config& config, cl::CommandQueue& queue, std::size_t width, std::size_t height,
                                std::size_t channels, const cl::Buffer& src, std::size_t src_offset,
                                std::size_t src_pitch, cl::Buffer& dst, std::size_t dst_offset, std::size_t dst_pitch,
                                const cl::Buffer& row_filter, std::size_t row_filter_offset,
                                std::size_t row_filter_length, const cl::Buffer& column_filter,
                                std::size_t column_filter_offset, std::size_t column_filter_length,
                                const FilterOptions& options, const std::vector<cl::Event>* wait) {
  return separable_filter_run<T>(&config, queue, width, height, channels, src, src_offset, src_pitch, dst, dst_offset,
                                 dst_pitch, row_filter, row_filter_offset, row_filter_length, column_filter,
                                 column_filter_offset, column_filter_length, options, wait);
}

template <typename T>
cl::Event box_blur_with(const Config& config, cl::CommandQueue& queue, std::size_t width, std::size_t height,
                        std::size_t channels, const cl::Buffer& src, std::size_t src_offset, std::size_t src_pitch,
                        cl::Buffer& dst, std::size_t dst_offset, std::size_t dst_pitch, std::size_t radius_x,
                        std::size_t radius_y, const FilterOptions& options, const std::vector<cl::Event>* wait) {
  return box_blur_run<T>(&config, queue, width, height, channels, src, src_offset, src_pitch, dst, dst_offset,
                         dst_pitch, radius_x, radius_y, options, wait);
}

template <typename T>
cl::Event gaussian_blur_with(const Config& config, cl::CommandQueue& queue, std::size_t width, std::size_t height,
                             std::size_t channels, const cl::Buffer& src, std::size_t src_offset, std::size_t src_pitch,
                             cl::Buffer& dst, std::size_t dst_offset, std::size_t dst_pitch, double sigma,
                             const FilterOptions& options, std::optional<std::size_t> radius,
                             const std::vector<cl::Event>* wait) {
  return gaussian_blur_run<T>(&config, queue, width, height, channels, src, src_offset, src_pitch, dst, dst_offset,
                              dst_pitch, sigma, options, radius, wait);
}

template <typename T>
cl::Event gaussian_blur_with(const Config& config, cl::CommandQueue& queue, std::size_t width, std::size_t height,
                             std::size_t channels, const cl::Buffer& src, std::size_t src_offset, std::size_t src_pitch,
                             cl::Buffer& dst, std::size_t dst_offset, std::size_t dst_pitch,
                             const GaussianKernel& kernel, const FilterOptions& options,
                             const std::vector<cl::Event>* wait) {
  return gaussian_blur_run<T>(&config, queue, width, height, channels, src, src_offset, src_pitch, dst, dst_offset,
                              dst_pitch, kernel, options, wait);
}

std::vector<TunableOp> convolve_tunable_ops() {
  auto entry = [](FilterOp op, std::vector<std::string> shapes) {
    TunableOp tunable;
    tunable.description = {filter_op_name(op),
                           kConvolveFamily,
                           {"float", "uint8"},
                           "WIDTHxHEIGHT[xCHANNELS],FWxFH[,border][,opencv] (image, filter taps; border zero, clamp, "
                           "mirror, wrap, reflect or constant; opencv: OpenCV's byte arithmetic), e.g. 7680x4320,9x9",
                           std::move(shapes)};
    tunable.make_subject = [op](const std::string& dtype, const std::string& shape) {
      return parse_filter_subject(op, dtype, shape);
    };
    return tunable;
  };
  return {entry(FilterOp::Convolve2d, {"1920x1080,5x5", "7680x4320,5x5"}),
          entry(FilterOp::Separable, {"1920x1080,9x9", "7680x4320,9x9"}),
          entry(FilterOp::Box, {"1920x1080,5x5", "7680x4320,5x5"}),
          entry(FilterOp::Gaussian, {"1920x1080,9x9", "7680x4320,9x9"})};
}

// Explicit instantiations: the entries' signatures, for both element types.
#define TILECL_FILTER_IMAGE_ARGS                                                                                      \
  cl::CommandQueue&, std::size_t, std::size_t, std::size_t, const cl::Buffer&, std::size_t, std::size_t, cl::Buffer&, \
      std::size_t, std::size_t
#define TILECL_INSTANTIATE(T)                                                                                          \
  template cl::Event convolve2d_with<T>(const Config&, TILECL_FILTER_IMAGE_ARGS, const cl::Buffer&, std::size_t,       \
                                        std::size_t, std::size_t, const FilterOptions&,                                \
                                        const std::vector<cl::Event>*);                                                \
  template cl::Event separable_filter_with<T>(const Config&, TILECL_FILTER_IMAGE_ARGS, const cl::Buffer&, std::size_t, \
                                              std::size_t, const cl::Buffer&, std::size_t, std::size_t,                \
                                              const FilterOptions&, const std::vector<cl::Event>*);                    \
  template cl::Event box_blur_with<T>(const Config&, TILECL_FILTER_IMAGE_ARGS, std::size_t, std::size_t,               \
                                      const FilterOptions&, const std::vector<cl::Event>*);                            \
  template cl::Event gaussian_blur_with<T>(const Config&, TILECL_FILTER_IMAGE_ARGS, double, const FilterOptions&,      \
                                           std::optional<std::size_t>, const std::vector<cl::Event>*);                 \
  template cl::Event gaussian_blur_with<T>(const Config&, TILECL_FILTER_IMAGE_ARGS, const GaussianKernel&,             \
                                           const FilterOptions&, const std::vector<cl::Event>*);
TILECL_INSTANTIATE(std::uint8_t)
TILECL_INSTANTIATE(float)
#undef TILECL_INSTANTIATE

}  // namespace detail

// The public entries: the same calls, with the configuration the tuning service chooses.

template <typename T>
detail::ImageEvent<T> convolve2d(cl::CommandQueue& queue, std::size_t width, std::size_t height, std::size_t channels,
                                 const cl::Buffer& src, std::size_t src_offset, std::size_t src_pitch, cl::Buffer& dst,
                                 std::size_t dst_offset, std::size_t dst_pitch, const cl::Buffer& filter,
                                 std::size_t filter_offset, std::size_t filter_width, std::size_t filter_height,
                                 const FilterOptions& options, const std::vector<cl::Event>* wait) {
  return detail::convolve2d_run<T>(nullptr, queue, width, height, channels, src, src_offset, src_pitch, dst, dst_offset,
                                   dst_pitch, filter, filter_offset, filter_width, filter_height, options, wait);
}

template <typename T>
detail::ImageEvent<T> separable_filter(cl::CommandQueue& queue, std::size_t width, std::size_t height,
                                       std::size_t channels, const cl::Buffer& src, std::size_t src_offset,
                                       std::size_t src_pitch, cl::Buffer& dst, std::size_t dst_offset,
                                       std::size_t dst_pitch, const cl::Buffer& row_filter,
                                       std::size_t row_filter_offset, std::size_t row_filter_length,
                                       const cl::Buffer& column_filter, std::size_t column_filter_offset,
                                       std::size_t column_filter_length, const FilterOptions& options,
                                       const std::vector<cl::Event>* wait) {
  return detail::separable_filter_run<T>(nullptr, queue, width, height, channels, src, src_offset, src_pitch, dst,
                                         dst_offset, dst_pitch, row_filter, row_filter_offset, row_filter_length,
                                         column_filter, column_filter_offset, column_filter_length, options, wait);
}

template <typename T>
detail::ImageEvent<T> box_blur(cl::CommandQueue& queue, std::size_t width, std::size_t height, std::size_t channels,
                               const cl::Buffer& src, std::size_t src_offset, std::size_t src_pitch, cl::Buffer& dst,
                               std::size_t dst_offset, std::size_t dst_pitch, std::size_t radius_x,
                               std::size_t radius_y, const FilterOptions& options, const std::vector<cl::Event>* wait) {
  return detail::box_blur_run<T>(nullptr, queue, width, height, channels, src, src_offset, src_pitch, dst, dst_offset,
                                 dst_pitch, radius_x, radius_y, options, wait);
}

template <typename T>
detail::ImageEvent<T> gaussian_blur(cl::CommandQueue& queue, std::size_t width, std::size_t height,
                                    std::size_t channels, const cl::Buffer& src, std::size_t src_offset,
                                    std::size_t src_pitch, cl::Buffer& dst, std::size_t dst_offset,
                                    std::size_t dst_pitch, const GaussianKernel& kernel, const FilterOptions& options,
                                    const std::vector<cl::Event>* wait) {
  return detail::gaussian_blur_run<T>(nullptr, queue, width, height, channels, src, src_offset, src_pitch, dst,
                                      dst_offset, dst_pitch, kernel, options, wait);
}

template <typename T>
detail::ImageEvent<T> gaussian_blur(cl::CommandQueue& queue, std::size_t width, std::size_t height,
                                    std::size_t channels, const cl::Buffer& src, std::size_t src_offset,
                                    std::size_t src_pitch, cl::Buffer& dst, std::size_t dst_offset,
                                    std::size_t dst_pitch, double sigma, const FilterOptions& options,
                                    std::optional<std::size_t> radius, const std::vector<cl::Event>* wait) {
  return detail::gaussian_blur_run<T>(nullptr, queue, width, height, channels, src, src_offset, src_pitch, dst,
                                      dst_offset, dst_pitch, sigma, options, radius, wait);
}

#define TILECL_INSTANTIATE(T)                                                                                          \
  template cl::Event convolve2d<T>(TILECL_FILTER_IMAGE_ARGS, const cl::Buffer&, std::size_t, std::size_t, std::size_t, \
                                   const FilterOptions&, const std::vector<cl::Event>*);                               \
  template cl::Event separable_filter<T>(TILECL_FILTER_IMAGE_ARGS, const cl::Buffer&, std::size_t, std::size_t,        \
                                         const cl::Buffer&, std::size_t, std::size_t, const FilterOptions&,            \
                                         const std::vector<cl::Event>*);                                               \
  template cl::Event box_blur<T>(TILECL_FILTER_IMAGE_ARGS, std::size_t, std::size_t, const FilterOptions&,             \
                                 const std::vector<cl::Event>*);                                                       \
  template cl::Event gaussian_blur<T>(TILECL_FILTER_IMAGE_ARGS, const GaussianKernel&, const FilterOptions&,           \
                                      const std::vector<cl::Event>*);                                                  \
  template cl::Event gaussian_blur<T>(TILECL_FILTER_IMAGE_ARGS, double, const FilterOptions&,                          \
                                      std::optional<std::size_t>, const std::vector<cl::Event>*);
TILECL_INSTANTIATE(std::uint8_t)
TILECL_INSTANTIATE(float)
#undef TILECL_INSTANTIATE
#undef TILECL_FILTER_IMAGE_ARGS

}  // namespace tilecl
