// The typed descriptions the filter modules pass around: what a call filters (shape, problem, operands), the
// fixed-point finish of OpenCV's byte arithmetic, and a configuration in typed form (FilterPlan).
#pragma once

#include <CL/opencl.hpp>
#include <cstdint>

#include "tilecl/types.hpp"

namespace tilecl::detail {

// Which kernels can serve a call: direct ones (any 2-D filter: convolve2d) or separable ones (a row and a
// column filter: separable_filter, box_blur, gaussian_blur).
enum class FilterForm { Direct, Separable };

// Integer taps of a byte filter (FilterShape::integer_taps): kernels/convolve.cl's USE_INTEGER_TAPS 0, 1, 2.
enum class IntegerTaps { None, Ones, Fixed };

// What the search space, the default and the program depend on besides the device and the element type.
struct FilterShape {
  FilterForm form = FilterForm::Direct;
  std::uint64_t channels = 1;
  int radius_x = 0;
  int radius_y = 0;
  // OpenCV's byte arithmetic (uint8 with Arithmetic::OpenCV): direct kernels sum with fused multiply-adds in
  // tap order (USE_FMA), separable ones in integers (USE_FIXED_POINT). Always false for float images.
  bool opencv = false;
  // The separable kernels' finish under OpenCV's arithmetic: a shift (GaussianBlur, blur up to 256 taps) or a
  // division (blur above 256 taps): USE_FIXED_POINT 1 or 2.
  bool dividing_finish = false;
  // Row and column taps each read the same backwards (the blurs' host-built taps; checked bit for bit): the
  // CPU-shaped separable kernels add mirrored elements before multiplying (USE_SYMMETRIC).
  bool symmetric = false;
  // Bytes with float sums, the blurs' host-built taps: non-negative, and the row sum times the column sum small
  // enough that every float sum stays below 255.5 (unit_gain_taps): the finish skips its clamp (USE_UNIT_GAIN).
  bool unit_gain = false;
  // Bytes whose taps are integers the words kernel sums exactly in 16-bit lanes (USE_INTEGER_TAPS): None, Ones
  // (box_blur in either arithmetic, except OpenCV's dividing finish) or Fixed (GaussianBlur's 8-bit fixed point
  // under Arithmetic::OpenCV: each direction sums to 256).
  IntegerTaps integer_taps = IntegerTaps::None;
};

// How integer sums become bytes under USE_FIXED_POINT (kernels/convolve.cl, "Arithmetic").
struct FixedFinish {
  std::uint32_t bias = 0;
  std::uint32_t multiplier = 1;  // the tap count when shift is 0
  std::uint32_t shift = 0;
  std::int32_t float_end = 0;  // elements of a row before which the float path applies (shift 0)
  float scale = 0.0f;          // the float path's factor (shift 0)
};

// One call's problem: the image size, the filter shape, the border rule and what the kernels read outside the
// image, and the fixed-point finish.
struct FilterProblem {
  std::uint64_t width = 0, height = 0;
  FilterShape shape;
  Border border = Border::Mirror;
  float border_value = 0.0f;
  FixedFinish finish;
};

// The image operands of a call: buffers, element offsets and pitches.
struct ImageOperands {
  const cl::Buffer* src;
  std::uint64_t src_offset, src_pitch;
  cl::Buffer* dst;
  std::uint64_t dst_offset, dst_pitch;
};

// The kernel variants of kernels/convolve.cl, by the name a configuration gives them ("naive", "vector",
// "tiled" for both forms; "two_pass", "ring" (bytes, build-time radii) and "words" (bytes with integer taps) for
// separable filters).
enum class FilterVariant { Naive, Vector, Tiled, TwoPass, Ring, Words };

// A configuration in typed form: the search space's parameters (kernels/convolve.cl documents each macro),
// read from the configuration in one place (plan_of in filter_space.cpp). Fields a variant does not use keep
// their defaults.
struct FilterPlan {
  FilterVariant variant = FilterVariant::Vector;
  std::int64_t vec = 4;
  std::int64_t tile_x = 0, tile_y = 0, wpt_y = 1, pad = 0;  // WPT_Y also for the fused vector kernel
  bool local_input = false, prefetch = false;
  bool round_by_add = false;             // USE_ROUND_BY_ADD (bytes with float sums)
  std::int64_t window = 0;               // USE_WINDOW (vector and two_pass): 0 or 1
  std::int64_t wg_x = 0, wg_y = 1;       // launch-only work-group of the non-tiled kernels (0: the driver's)
  std::int64_t words_wg = 128, wpw = 1;  // words: WORDS_WG (its work-group, a build macro) and WPW
  bool packed_sums = false;              // words: USE_PACKED_SUMS
};

}  // namespace tilecl::detail
