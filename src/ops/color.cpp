// rgb_to_gray: the public entry, the explicit-configuration entry and the tuning registration. The call's path
// (options -> validate -> parameters -> program -> kernel lease -> enqueue) is src/ops/image/gray_run.cpp.
//
// Shape buckets (the tuning key's bucket): the image area, px <= 2^16, <= 2^20, <= 2^23 and larger, timed at
// 256x192, 1024x768, 2560x1440 and 7680x4320, with " c4" for four-channel sources and " opencv" for OpenCV's
// arithmetic. Shape syntax for `tilecl tune --op rgb_to_gray`: WIDTHxHEIGHT[,rgb|bgr|rgba|bgra][,opencv].
#include "ops/color.hpp"

#include "ops/image/gray_run.hpp"
#include "ops/tunable_ops.hpp"

namespace tilecl {
namespace detail {

template <typename T>
cl::Event rgb_to_gray_with(const Config& config, cl::CommandQueue& queue, std::size_t width, std::size_t height,
                           const cl::Buffer& src, std::size_t src_offset, std::size_t src_pitch, cl::Buffer& dst,
                           std::size_t dst_offset, std::size_t dst_pitch, const GrayOptions& options,
                           const std::vector<cl::Event>* wait) {
  return run_rgb_to_gray<T>(&config, queue, width, height,
                            GrayOperands{&src, src_offset, src_pitch, &dst, dst_offset, dst_pitch}, options, wait);
}

std::vector<TunableOp> color_tunable_ops() {
  TunableOp op;
  op.description = {kGrayOp,
                    kColorFamily,
                    {"uint8", "float"},
                    "WIDTHxHEIGHT[,rgb|bgr|rgba|bgra][,opencv] (pixels, source layout; opencv: OpenCV's byte "
                    "arithmetic), e.g. 7680x4320",
                    {"256x192", "1024x768", "2560x1440", "7680x4320"}};
  op.make_subject = [](const std::string& dtype, const std::string& shape) { return parse_gray_subject(dtype, shape); };
  return {op};
}

template cl::Event rgb_to_gray_with<std::uint8_t>(const Config&, cl::CommandQueue&, std::size_t, std::size_t,
                                                  const cl::Buffer&, std::size_t, std::size_t, cl::Buffer&, std::size_t,
                                                  std::size_t, const GrayOptions&, const std::vector<cl::Event>*);
template cl::Event rgb_to_gray_with<float>(const Config&, cl::CommandQueue&, std::size_t, std::size_t,
                                           const cl::Buffer&, std::size_t, std::size_t, cl::Buffer&, std::size_t,
                                           std::size_t, const GrayOptions&, const std::vector<cl::Event>*);

}  // namespace detail

template <typename T>
detail::ImageEvent<T> rgb_to_gray(cl::CommandQueue& queue, std::size_t width, std::size_t height, const cl::Buffer& src,
                                  std::size_t src_offset, std::size_t src_pitch, cl::Buffer& dst,
                                  std::size_t dst_offset, std::size_t dst_pitch, const GrayOptions& options,
                                  const std::vector<cl::Event>* wait) {
  return detail::run_rgb_to_gray<T>(nullptr, queue, width, height,
                                    detail::GrayOperands{&src, src_offset, src_pitch, &dst, dst_offset, dst_pitch},
                                    options, wait);
}

template <typename T>
detail::ImageEvent<T> rgb_to_gray(cl::CommandQueue& queue, std::size_t width, std::size_t height, const cl::Buffer& src,
                                  std::size_t src_offset, std::size_t src_pitch, cl::Buffer& dst,
                                  std::size_t dst_offset, std::size_t dst_pitch, const GrayWeights& weights,
                                  const std::vector<cl::Event>* wait) {
  return rgb_to_gray<T>(queue, width, height, src, src_offset, src_pitch, dst, dst_offset, dst_pitch,
                        GrayOptions(weights), wait);
}

#define TILECL_INSTANTIATE(T, Options)                                                                           \
  template cl::Event rgb_to_gray<T>(cl::CommandQueue&, std::size_t, std::size_t, const cl::Buffer&, std::size_t, \
                                    std::size_t, cl::Buffer&, std::size_t, std::size_t, const Options&,          \
                                    const std::vector<cl::Event>*);
TILECL_INSTANTIATE(std::uint8_t, GrayOptions)
TILECL_INSTANTIATE(float, GrayOptions)
TILECL_INSTANTIATE(std::uint8_t, GrayWeights)
TILECL_INSTANTIATE(float, GrayWeights)
#undef TILECL_INSTANTIATE

}  // namespace tilecl
