// Colour conversions of row-major images. Units, events, errors and thread-safety: tilecl.hpp.
#pragma once

#include <CL/opencl.hpp>
#include <cstddef>
#include <vector>

#include "tilecl/element_types.hpp"
#include "tilecl/types.hpp"

namespace tilecl {

// Weights of rgb_to_gray: gray = red * R + green * G + blue * B. Any finite values (they need not sum to 1).
// The default (0.21, 0.72, 0.07) is tilecl's first one, kept for compatibility; the presets are the standards.
struct GrayWeights {
  float red = 0.21f;
  float green = 0.72f;
  float blue = 0.07f;

  // ITU-R BT.601 luma: OpenCV's cvtColor (COLOR_RGB2GRAY, COLOR_BGR2GRAY, ...).
  static constexpr GrayWeights bt601() { return {0.299f, 0.587f, 0.114f}; }
  // ITU-R BT.709 luma (HDTV, sRGB primaries).
  static constexpr GrayWeights bt709() { return {0.2126f, 0.7152f, 0.0722f}; }
};

// How the source pixels are laid out: 3 or 4 interleaved elements, red or blue first (the fourth, alpha, is
// ignored). OpenCV's images are BGR.
enum class ChannelOrder { RGB, BGR, RGBA, BGRA };

// The weights, the source layout and the arithmetic on bytes. Implicit from GrayWeights (the form before the
// options: RGB, float arithmetic).
struct GrayOptions {
  GrayOptions(GrayWeights gray_weights = GrayWeights(), ChannelOrder source_order = ChannelOrder::RGB,
              Arithmetic arithmetic_kind = Arithmetic::Float)
      : weights(gray_weights), order(source_order), arithmetic(arithmetic_kind) {}

  GrayWeights weights;
  ChannelOrder order;
  // Arithmetic::OpenCV on std::uint8_t: cvtColor's integers, (9798 R + 19235 G + 3735 B + 2^14) >> 15, bit for
  // bit; it needs the BT.601 weights (cvtColor has no others). Float images ignore it.
  Arithmetic arithmetic;
};

// Gray image from an interleaved colour image (options.order: 3 or 4 elements per pixel). T: std::uint8_t or float.
//   src: `height` rows of channels * width elements, row r starting at src[src_offset + r * src_pitch]
//        (src_pitch >= channels * width, in elements of T);
//   dst: `height` rows of `width` elements, row r starting at dst[dst_offset + r * dst_pitch] (dst_pitch >= width).
// The sum is formed in float. For std::uint8_t it is rounded to nearest (ties to even) and saturated to 0..255
// (Arithmetic::OpenCV: see GrayOptions). src and dst must not overlap (CL_MEM_COPY_OVERLAP: no conversion in
// place); pitches below the row length or buffers smaller than the image raise tilecl::Error (CL_INVALID_VALUE,
// CL_INVALID_BUFFER_SIZE); non-finite weights raise CL_INVALID_VALUE. width or height 0 enqueues nothing, checks no
// buffer (the options still must be valid) and returns a null event.
template <typename T>
detail::ImageEvent<T> rgb_to_gray(cl::CommandQueue& queue, std::size_t width, std::size_t height, const cl::Buffer& src,
                                  std::size_t src_offset, std::size_t src_pitch, cl::Buffer& dst,
                                  std::size_t dst_offset, std::size_t dst_pitch, const GrayOptions& options,
                                  const std::vector<cl::Event>* wait = nullptr);

// The form before GrayOptions (kept): an RGB source, float arithmetic.
template <typename T>
detail::ImageEvent<T> rgb_to_gray(cl::CommandQueue& queue, std::size_t width, std::size_t height, const cl::Buffer& src,
                                  std::size_t src_offset, std::size_t src_pitch, cl::Buffer& dst,
                                  std::size_t dst_offset, std::size_t dst_pitch,
                                  const GrayWeights& weights = GrayWeights(),
                                  const std::vector<cl::Event>* wait = nullptr);

}  // namespace tilecl
