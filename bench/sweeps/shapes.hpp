// The shape distributions of `tilecl bench --sweep`, shared with the test suite: tests/ops draws each sweep's
// shapes with the same seeds and random streams, scaled down (a smaller largest side), and checks them against
// the host reference. Header-only; nothing here touches OpenCL.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <random>
#include <string>

#include "tilecl/types.hpp"

namespace tilecl::bench::sweeps {

// The random stream of one op and element type in the sweep of `seed`.
inline std::mt19937_64 sweep_random(std::uint64_t seed, const std::string& op, const std::string& dtype) {
  return std::mt19937_64(seed * 1000003 + std::hash<std::string>{}(op + dtype));
}

// An integer in [low, high], uniform in log space (so each factor of two gets the same share of shapes).
inline std::uint64_t log_uniform(std::mt19937_64& random, std::uint64_t low, std::uint64_t high) {
  std::uniform_real_distribution<double> exponent(std::log(static_cast<double>(low)),
                                                  std::log(static_cast<double>(high) + 1.0));
  return std::clamp<std::uint64_t>(static_cast<std::uint64_t>(std::exp(exponent(random))), low, high);
}

inline bool coin(std::mt19937_64& random, double probability = 0.5) {
  return std::uniform_real_distribution<double>(0, 1)(random) < probability;
}

// A leading-dimension padding: 1..16 elements when `padded`, else 0.
inline std::uint64_t padding(std::mt19937_64& random, bool padded) {
  return padded ? std::uniform_int_distribution<std::uint64_t>(1, 16)(random) : 0;
}

// GEMM: m, n, k log-uniform in [1, largest], random transposes and layout, leading dimensions padded by 1..16 in
// half the shapes.
struct GemmShape {
  Layout layout = Layout::RowMajor;
  Transpose trans_a = Transpose::No, trans_b = Transpose::No;
  std::uint64_t m = 1, n = 1, k = 1, lda = 1, ldb = 1, ldc = 1;

  // Elements a buffer holds for a stored rows x cols matrix in `layout`.
  static std::uint64_t extent(Layout layout, std::uint64_t rows, std::uint64_t cols, std::uint64_t ld) {
    return layout == Layout::RowMajor ? (rows - 1) * ld + cols : (cols - 1) * ld + rows;
  }
  std::uint64_t a_rows() const { return trans_a == Transpose::Yes ? k : m; }
  std::uint64_t a_cols() const { return trans_a == Transpose::Yes ? m : k; }
  std::uint64_t b_rows() const { return trans_b == Transpose::Yes ? n : k; }
  std::uint64_t b_cols() const { return trans_b == Transpose::Yes ? k : n; }
  std::uint64_t minimal_ld(std::uint64_t rows, std::uint64_t cols) const {
    return layout == Layout::RowMajor ? cols : rows;
  }

  // "MxNxK:NN:row", the shape as tuning::parameters_for takes it.
  std::string key() const {
    return std::to_string(m) + "x" + std::to_string(n) + "x" + std::to_string(k) + ":" +
           (trans_a == Transpose::Yes ? "T" : "N") + (trans_b == Transpose::Yes ? "T" : "N") +
           (layout == Layout::RowMajor ? ":row" : ":col");
  }
  bool padded() const {
    return lda != minimal_ld(a_rows(), a_cols()) || ldb != minimal_ld(b_rows(), b_cols()) || ldc != minimal_ld(m, n);
  }
  // key(), with ":ld+" when a leading dimension is padded.
  std::string text() const { return padded() ? key() + ":ld+" : key(); }
  // key() with the leading dimensions when one is padded: the shape whose choice a call of this shape gets
  // (half / bfloat16 / TF32 classes depend on them).
  std::string tuning_shape() const {
    if (!padded()) return key();
    return key() + ":lda=" + std::to_string(lda) + ":ldb=" + std::to_string(ldb) + ":ldc=" + std::to_string(ldc);
  }
};

inline GemmShape draw_gemm_shape(std::mt19937_64& random, std::uint64_t largest) {
  GemmShape s;
  s.m = log_uniform(random, 1, largest);
  s.n = log_uniform(random, 1, largest);
  s.k = log_uniform(random, 1, largest);
  s.trans_a = coin(random) ? Transpose::Yes : Transpose::No;
  s.trans_b = coin(random) ? Transpose::Yes : Transpose::No;
  s.layout = coin(random) ? Layout::RowMajor : Layout::ColMajor;
  const bool padded = coin(random);
  s.lda = s.minimal_ld(s.a_rows(), s.a_cols()) + padding(random, padded);
  s.ldb = s.minimal_ld(s.b_rows(), s.b_cols()) + padding(random, padded);
  s.ldc = s.minimal_ld(s.m, s.n) + padding(random, padded);
  return s;
}

// Strided-batched GEMM: a GEMM shape with sides log-uniform in [1, largest_side] (transposes, layout and padded
// leading dimensions as above), `batch` log-uniform in [1, 16384] within `largest_elements` elements of operands,
// the matrices of each operand one after the other with 1..8 elements between them in a third of the shapes.
struct BatchedShape {
  GemmShape gemm;
  std::uint64_t batch = 1, gap = 0;
  std::uint64_t span_a() const { return GemmShape::extent(gemm.layout, gemm.a_rows(), gemm.a_cols(), gemm.lda); }
  std::uint64_t span_b() const { return GemmShape::extent(gemm.layout, gemm.b_rows(), gemm.b_cols(), gemm.ldb); }
  std::uint64_t span_c() const { return GemmShape::extent(gemm.layout, gemm.m, gemm.n, gemm.ldc); }
  std::uint64_t stride_a() const { return span_a() + gap; }
  std::uint64_t stride_b() const { return span_b() + gap; }
  std::uint64_t stride_c() const { return span_c() + gap; }
  std::string text() const {
    return std::to_string(batch) + "x" + gemm.key() + (gemm.padded() ? ":ld+" : "") +
           (gap > 0 ? ":gap" + std::to_string(gap) : "");
  }
};

inline BatchedShape draw_batched_shape(std::mt19937_64& random, std::uint64_t largest_side,
                                       std::uint64_t largest_elements) {
  BatchedShape s;
  s.gemm = draw_gemm_shape(random, largest_side);
  s.gap = coin(random, 1.0 / 3) ? std::uniform_int_distribution<std::uint64_t>(1, 8)(random) : 0;
  const std::uint64_t each = s.stride_a() + s.stride_b() + s.stride_c();
  s.batch = log_uniform(random, 1, std::clamp<std::uint64_t>(largest_elements / each, 1, 16384));
  return s;
}

// Transpose of a rows x cols row-major matrix: both sides log-uniform in [1, largest], leading dimensions padded
// by 1..16 in a third of the shapes.
struct TransposeShape {
  std::uint64_t rows = 1, cols = 1, ld_in = 1, ld_out = 1;
  std::string text() const {
    return std::to_string(rows) + "x" + std::to_string(cols) + (ld_in != cols || ld_out != rows ? ":ld+" : "");
  }
};

inline TransposeShape draw_transpose_shape(std::mt19937_64& random, std::uint64_t largest) {
  TransposeShape s;
  s.rows = log_uniform(random, 1, largest);
  s.cols = log_uniform(random, 1, largest);
  const bool padded = coin(random, 1.0 / 3);
  s.ld_in = s.cols + padding(random, padded);
  s.ld_out = s.rows + padding(random, padded);
  return s;
}

// Vector ops (axpy, sum): the length, log-uniform in [1, largest].
inline std::uint64_t draw_vector_length(std::mt19937_64& random, std::uint64_t largest) {
  return log_uniform(random, 1, largest);
}

// Images (filters and gray): width and height log-uniform in [16, largest_side] with at most `largest_area` pixels
// (the height shrinks to fit), 1, 3 or 4 channels, rows padded by 1..16 elements in a third of the shapes, one of
// the borders OpenCV's filters take, and the op's own sizes: Gaussian kernel sizes odd in 3..15 (the y size the
// x one in two shapes of three, sigma derived from the size as OpenCV does), box radii 1..7 (likewise), filter2D
// sizes odd in 1..9 each (not both 1). rgb_to_gray reads 3 or 4 channels in RGB, BGR, RGBA or BGRA order.
struct ImageShape {
  std::uint64_t width = 1, height = 1, channels = 1, src_pitch = 1, dst_pitch = 1;
  Border border = Border::Mirror;
  std::uint64_t filter_width = 1, filter_height = 1;  // taps; rgb_to_gray: unused
  int order = 0;                                      // rgb_to_gray: 0 RGB, 1 BGR, 2 RGBA, 3 BGRA
  bool padded_rows = false;                           // pitches beyond the rows' elements

  static const char* border_name(Border b) {
    return b == Border::Zero ? "zero" : b == Border::Clamp ? "clamp" : b == Border::Reflect ? "reflect" : "mirror";
  }
  static const char* order_name(int order) {
    static const char* const names[] = {"rgb", "bgr", "rgba", "bgra"};
    return names[order & 3];
  }
  // The filter ops' tuning shape: "WxHxC,FWxFH,border".
  std::string filter_key() const {
    return std::to_string(width) + "x" + std::to_string(height) + "x" + std::to_string(channels) + "," +
           std::to_string(filter_width) + "x" + std::to_string(filter_height) + "," + border_name(border);
  }
  // rgb_to_gray's tuning shape: "WxH,order".
  std::string gray_key() const {
    return std::to_string(width) + "x" + std::to_string(height) + "," + order_name(order);
  }
};

enum class ImageSweepOp { Gaussian, Box, Convolve2d, Gray };

inline ImageShape draw_image_shape(std::mt19937_64& random, ImageSweepOp op, std::uint64_t largest_side,
                                   std::uint64_t largest_area) {
  ImageShape s;
  s.width = log_uniform(random, 16, largest_side);
  s.height = std::min<std::uint64_t>(log_uniform(random, 16, largest_side),
                                     std::max<std::uint64_t>(1, largest_area / s.width));
  const std::uint64_t channels[] = {1, 3, 4};
  s.channels = channels[std::uniform_int_distribution<int>(0, 2)(random)];
  const Border borders[] = {Border::Zero, Border::Clamp, Border::Mirror, Border::Reflect};
  s.border = borders[std::uniform_int_distribution<int>(0, 3)(random)];
  const bool padded = coin(random, 1.0 / 3);
  auto odd = [&](int low, int high) {
    return static_cast<std::uint64_t>(2 * std::uniform_int_distribution<int>(low, high)(random) + 1);
  };
  const bool same = coin(random, 2.0 / 3);
  switch (op) {
    case ImageSweepOp::Gaussian:
      s.filter_width = odd(1, 7);
      s.filter_height = same ? s.filter_width : odd(1, 7);
      break;
    case ImageSweepOp::Box:
      s.filter_width = odd(1, 7);
      s.filter_height = same ? s.filter_width : odd(1, 7);
      break;
    case ImageSweepOp::Convolve2d:
      s.filter_width = odd(0, 4);
      s.filter_height = odd(0, 4);
      if (s.filter_width == 1 && s.filter_height == 1) s.filter_width = 3;
      break;
    case ImageSweepOp::Gray:
      s.order = std::uniform_int_distribution<int>(0, 3)(random);
      s.channels = s.order >= 2 ? 4 : 3;
      break;
  }
  const std::uint64_t dst_channels = op == ImageSweepOp::Gray ? 1 : s.channels;
  s.padded_rows = padded;
  s.src_pitch = s.width * s.channels + padding(random, padded);
  s.dst_pitch = s.width * dst_channels + padding(random, padded);
  return s;
}

}  // namespace tilecl::bench::sweeps
