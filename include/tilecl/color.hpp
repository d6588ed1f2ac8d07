// Colour conversions of row-major images. Units, events, errors and thread-safety: tilecl.hpp.
#pragma once

#include <CL/opencl.hpp>
#include <cstddef>
#include <vector>

#include "tilecl/element_types.hpp"

namespace tilecl {

// Weights of rgb_to_gray: gray = red * R + green * G + blue * B. Any finite values (they need not sum to 1).
struct GrayWeights {
  float red = 0.21f;
  float green = 0.72f;
  float blue = 0.07f;
};

// Gray image from an interleaved RGB image (3 elements per pixel, R first). T: std::uint8_t or float.
//   src: `height` rows of 3 * width elements, row r starting at src[src_offset + r * src_pitch]
//        (src_pitch >= 3 * width, in elements of T);
//   dst: `height` rows of `width` elements, row r starting at dst[dst_offset + r * dst_pitch] (dst_pitch >= width).
// The sum is formed in float. For std::uint8_t it is rounded to nearest (ties to even) and saturated to 0..255.
// src and dst must not overlap (CL_MEM_COPY_OVERLAP: no conversion in place); pitches below the row length or
// buffers smaller than the image raise tilecl::Error (CL_INVALID_VALUE, CL_INVALID_BUFFER_SIZE); non-finite
// weights raise CL_INVALID_VALUE. width or height 0 enqueues nothing, checks no buffer (the weights still must
// be finite) and returns a null event.
template <typename T>
detail::ImageEvent<T> rgb_to_gray(cl::CommandQueue& queue, std::size_t width, std::size_t height, const cl::Buffer& src,
                                  std::size_t src_offset, std::size_t src_pitch, cl::Buffer& dst,
                                  std::size_t dst_offset, std::size_t dst_pitch,
                                  const GrayWeights& weights = GrayWeights(),
                                  const std::vector<cl::Event>* wait = nullptr);

}  // namespace tilecl
