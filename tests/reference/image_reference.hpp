// Host reference implementations of the image families (kernels/color.cl, kernels/convolve.cl), in double
// precision. Header-only; used by the test suites. (The tuning subjects in src/ops/ verify with a reference
// of their own, and the Gaussian and box taps here are built independently of the library's, so the tests
// check those too.)
//
// Conventions match the kernels: images are row-major, pitches are in elements of the image's type, pixels
// have `channels` interleaved elements, filters are correlations (OpenCV's filter2D convention) with the
// anchor at the centre, and the border rules fold indices independently in x and y.
//
// The second half models OpenCV 4.6's arithmetic on 8-bit images (written from its sources: smooth.simd.hpp,
// box_filter.simd.hpp, filter.simd.hpp, color_rgb.simd.hpp); tests/opencv checks the model against OpenCV
// itself, and the op suites check the kernels' Arithmetic::OpenCV against the model.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <vector>

namespace tilecl::reference {

// Same numbering as tilecl::Border. Constant reads a value given with the image (Zero reads 0).
enum class Border : int { Zero = 0, Clamp = 1, Mirror = 2, Wrap = 3, Reflect = 4, Constant = 5 };

inline const char* border_name(Border border) {
  switch (border) {
    case Border::Zero:
      return "zero";
    case Border::Clamp:
      return "clamp";
    case Border::Mirror:
      return "mirror";
    case Border::Wrap:
      return "wrap";
    case Border::Reflect:
      return "reflect";
    case Border::Constant:
      return "constant";
  }
  return "?";
}

// Index i of a line of n pixels under the border rule: a value in [0, n), or -1 for "reads the constant".
// Mirror is reflect-101 (d c b | a b c d | c b a) folded periodically (period 2n - 2), so it stays defined
// when the filter is larger than the image; Reflect (c b a | a b c d | d c b) has period 2n, Wrap period n.
inline long fold_index(long i, long n, Border border) {
  if (i >= 0 && i < n) return i;
  switch (border) {
    case Border::Zero:
    case Border::Constant:
      return -1;
    case Border::Reflect: {
      const long m = ((i % (2 * n)) + 2 * n) % (2 * n);
      return m < n ? m : 2 * n - 1 - m;
    }
    case Border::Clamp:
      return i < 0 ? 0 : n - 1;
    case Border::Mirror: {
      if (n == 1) return 0;
      const long period = 2 * n - 2;
      long m = i % period;
      if (m < 0) m += period;
      return m < n ? m : period - m;
    }
    case Border::Wrap: {
      long m = i % n;
      return m < 0 ? m + n : m;
    }
  }
  return -1;
}

// Elements an image of `height` rows of `row_elements` spans at `pitch` (0 for an empty image).
inline std::size_t image_extent(std::size_t pitch, std::size_t row_elements, std::size_t height) {
  return height == 0 ? 0 : pitch * (height - 1) + row_elements;
}

// Rounds to nearest with ties to even and saturates to 0..255, as convert_uchar_sat_rte does.
inline std::uint8_t round_saturate_u8(double value) {
  if (!(value > 0.0)) return 0;  // also NaN
  if (value >= 255.0) return 255;
  return static_cast<std::uint8_t>(std::nearbyint(value));  // default rounding mode: to nearest even
}

// Result of an element computed in float by a kernel versus the exact value: float outputs may differ by
// `tolerance`; uchar outputs must equal the rounded exact value, except that within `tolerance` of a rounding
// boundary (x.5) either neighbour is accepted.
inline bool matches_float(double exact, float got, double tolerance) {
  return std::isfinite(got) && std::abs(static_cast<double>(got) - exact) <= tolerance;
}

inline bool matches_u8(double exact, std::uint8_t got, double tolerance) {
  if (got == round_saturate_u8(exact)) return true;
  return got == round_saturate_u8(exact - tolerance) || got == round_saturate_u8(exact + tolerance);
}

// Error bound for a float sum of n products with sum of |products| <= magnitude: n rounding errors of at
// most 2^-24 relative each, plus one for the final rounding, with a factor 2 of slack.
inline double float_sum_tolerance(std::size_t n, double magnitude) {
  return 2.0 * (static_cast<double>(n) + 1.0) * std::ldexp(magnitude, -24) + 1e-30;
}

// ---------------------------------------------------------------------------------------------------------
// rgb_to_gray: gray = wr * R + wg * G + wb * B; src has `channels` (3 or 4) interleaved elements per pixel,
// red first, or blue first when blue_first. Returns width * height exact values (dense, row-major), before
// rounding.
template <typename T>
std::vector<double> rgb_to_gray(const T* src, long width, long height, long src_pitch, double weight_r, double weight_g,
                                double weight_b, int channels = 3, bool blue_first = false) {
  std::vector<double> out(static_cast<std::size_t>(width * height));
  const double first = blue_first ? weight_b : weight_r, third = blue_first ? weight_r : weight_b;
  for (long y = 0; y < height; ++y) {
    const T* row = src + y * src_pitch;
    for (long x = 0; x < width; ++x) {
      const T* p = row + channels * x;
      out[static_cast<std::size_t>(y * width + x)] =
          first * static_cast<double>(p[0]) + weight_g * static_cast<double>(p[1]) + third * static_cast<double>(p[2]);
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------
// convolve2d: out(x, y, c) = sum f(dy, dx) * in(x + dx - rx, y + dy - ry, c), filter (2ry+1) x (2rx+1)
// row-major. Returns width * channels * height exact values (dense, row-major).
template <typename T>
std::vector<double> convolve2d(const T* src, long width, long height, int channels, long src_pitch,
                               const std::vector<float>& filter, int radius_x, int radius_y, Border border,
                               double border_value = 0.0) {
  const long kw = 2L * radius_x + 1, kh = 2L * radius_y + 1;
  if (static_cast<long>(filter.size()) != kw * kh) throw std::invalid_argument("convolve2d: filter size");
  const long row_e = width * channels;
  std::vector<double> out(static_cast<std::size_t>(row_e * height), 0.0);
  std::vector<long> xs(static_cast<std::size_t>(kw));
  for (long y = 0; y < height; ++y) {
    for (long x = 0; x < width; ++x) {
      for (long dx = 0; dx < kw; ++dx) xs[dx] = fold_index(x + dx - radius_x, width, border);
      for (int c = 0; c < channels; ++c) {
        double sum = 0.0;
        for (long dy = 0; dy < kh; ++dy) {
          const long yy = fold_index(y + dy - radius_y, height, border);
          const T* row = src + yy * src_pitch;
          for (long dx = 0; dx < kw; ++dx) {
            const double value = yy < 0 || xs[dx] < 0 ? border_value : static_cast<double>(row[xs[dx] * channels + c]);
            sum += static_cast<double>(filter[dy * kw + dx]) * value;
          }
        }
        out[static_cast<std::size_t>(y * row_e + x * channels + c)] = sum;
      }
    }
  }
  return out;
}

// separable_filter: the direct filter col(dy) * row(dx), evaluated as two exact passes.
template <typename T>
std::vector<double> separable_filter(const T* src, long width, long height, int channels, long src_pitch,
                                     const std::vector<float>& row_taps, const std::vector<float>& col_taps,
                                     Border border, double border_value = 0.0) {
  const int rx = static_cast<int>(row_taps.size() / 2), ry = static_cast<int>(col_taps.size() / 2);
  if (row_taps.size() % 2 == 0 || col_taps.size() % 2 == 0) {
    throw std::invalid_argument("separable_filter: filter lengths must be odd");
  }
  const long row_e = width * channels;
  std::vector<double> mid(static_cast<std::size_t>(row_e * height), 0.0);
  for (long y = 0; y < height; ++y) {
    const T* row = src + y * src_pitch;
    for (long x = 0; x < width; ++x) {
      for (int c = 0; c < channels; ++c) {
        double sum = 0.0;
        for (int dx = 0; dx <= 2 * rx; ++dx) {
          const long xx = fold_index(x + dx - rx, width, border);
          sum += static_cast<double>(row_taps[dx]) *
                 (xx >= 0 ? static_cast<double>(row[xx * channels + c]) : border_value);
        }
        mid[static_cast<std::size_t>(y * row_e + x * channels + c)] = sum;
      }
    }
  }
  double constant_row = 0.0;  // the row pass over a row of the constant
  for (float tap : row_taps) constant_row += static_cast<double>(tap) * border_value;
  std::vector<double> out(static_cast<std::size_t>(row_e * height), 0.0);
  for (long y = 0; y < height; ++y) {
    for (int dy = 0; dy <= 2 * ry; ++dy) {
      const long yy = fold_index(y + dy - ry, height, border);
      const double c = col_taps[dy];
      for (long e = 0; e < row_e; ++e)
        out[static_cast<std::size_t>(y * row_e + e)] +=
            c * (yy < 0 ? constant_row : mid[static_cast<std::size_t>(yy * row_e + e)]);
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------
// Taps the host builds for the blurs (the runtime uses the same functions).

// Box filter of 2r + 1 taps, each 1 / (2r + 1).
inline std::vector<float> box_taps(int radius) {
  return std::vector<float>(static_cast<std::size_t>(2 * radius + 1), static_cast<float>(1.0 / (2 * radius + 1)));
}

// Default Gaussian radius for a sigma: ceil(3 sigma), at least 1 (covers 99.7% of the weight).
inline int gaussian_radius(double sigma) { return std::max(1, static_cast<int>(std::ceil(3.0 * sigma))); }

// Gaussian of 2r + 1 taps, exp(-d^2 / (2 sigma^2)) normalised to sum 1 (in double, then rounded to float).
// Any positive sigma: the weights are formed from d / sigma, so a sigma too small to reach the next tap gives the
// limit (a single 1), never 0 / 0.
inline std::vector<float> gaussian_taps(double sigma, int radius) {
  if (!(sigma > 0.0) || radius < 0) throw std::invalid_argument("gaussian_taps: sigma > 0, radius >= 0");
  std::vector<double> w(static_cast<std::size_t>(2 * radius + 1));
  double sum = 0.0;
  for (int d = -radius; d <= radius; ++d) {
    const double z = d / sigma;
    sum += (w[d + radius] = std::exp(-0.5 * z * z));
  }
  std::vector<float> taps(w.size());
  for (std::size_t i = 0; i < w.size(); ++i) taps[i] = static_cast<float>(w[i] / sum);
  return taps;
}

// ---------------------------------------------------------------------------------------------------------
// OpenCV 4.6 on 8-bit images, bit for bit.

// getGaussianKernel in double (its softdouble code): sigma <= 0 takes the fixed taps of n = 1, 3, 5, 7, else
// sigma = 0.3 ((n - 1) / 2 - 1) + 0.8 (a fused multiply-add); t_i = exp(x^2 * (-0.125 / sigma^2)) for
// x = 1 - n, 3 - n, ..., the centre 1, normalised by 1 / sum.
inline std::vector<double> opencv_gaussian_kernel(int n, double sigma) {
  if (sigma <= 0 && n <= 7) {
    if (n == 1) return {1.0};
    if (n == 3) return {0.25, 0.5, 0.25};
    if (n == 5) return {0.0625, 0.25, 0.375, 0.25, 0.0625};
    if (n == 7) return {0.03125, 0.109375, 0.21875, 0.28125, 0.21875, 0.109375, 0.03125};
  }
  const double s = sigma > 0 ? sigma : std::fma(static_cast<double>(n), 0.15, 0.35);
  const double scale = -0.125 / (s * s);
  std::vector<double> k(static_cast<std::size_t>(n));
  double sum = 0;
  for (int i = 0, x = 1 - n; i < n / 2; ++i, x += 2) sum += (k[i] = std::exp(static_cast<double>(x * x) * scale));
  const double normaliser = 1.0 / (sum * 2 + 1);
  for (int i = 0; i < n / 2; ++i) k[n - 1 - i] = (k[i] *= normaliser);
  k[n / 2] = normaliser;
  return k;
}

// GaussianBlur's 8-bit fixed-point taps: error diffusion from the outer taps in, the centre takes the rest of
// 256.
inline std::vector<std::uint32_t> opencv_gaussian_fixed(int n, double sigma) {
  const auto k = opencv_gaussian_kernel(n, sigma);
  std::vector<std::uint32_t> fixed(k.size());
  double error = 0;
  long sum = 0;
  for (int i = 0; i < n / 2; ++i) {
    const double adjusted = k[i] * 256 + error;
    const long v = std::lrint(adjusted);
    error = adjusted - static_cast<double>(v);
    fixed[i] = fixed[n - 1 - i] = static_cast<std::uint32_t>(v);
    sum += v;
  }
  fixed[n / 2] = static_cast<std::uint32_t>(256 - 2 * sum);
  return fixed;
}

// Element (y, e) of an 8-bit image under a border rule (the constant for rows or columns outside).
struct ByteImage {
  const std::uint8_t* src;
  long width, height, channels, pitch;
  Border border;
  std::uint8_t border_value = 0;

  std::uint32_t at(long y, long x, long c) const {
    const long yy = fold_index(y, height, border), xx = fold_index(x, width, border);
    return yy < 0 || xx < 0 ? border_value : src[yy * pitch + xx * channels + c];
  }
  template <typename F>
  std::vector<std::uint8_t> map(F f) const {  // f(y, x, c, element index in the row) for every element
    std::vector<std::uint8_t> out(static_cast<std::size_t>(width * channels * height));
    for (long y = 0; y < height; ++y)
      for (long x = 0; x < width; ++x)
        for (long c = 0; c < channels; ++c)
          out[static_cast<std::size_t>((y * width + x) * channels + c)] = f(y, x, c, x * channels + c);
    return out;
  }
};

// cv::GaussianBlur: (sum ky_j * (sum kx_i * p) + 2^15) >> 16, saturated (its fixed-point path).
inline std::vector<std::uint8_t> opencv_gaussian_blur(const ByteImage& image, const std::vector<std::uint32_t>& kx,
                                                      const std::vector<std::uint32_t>& ky) {
  const long rx = static_cast<long>(kx.size() / 2), ry = static_cast<long>(ky.size() / 2);
  return image.map([&](long y, long x, long c, long) {
    std::uint64_t sum = 0;
    for (long j = -ry; j <= ry; ++j) {
      std::uint64_t row = 0;
      for (long i = -rx; i <= rx; ++i) row += kx[static_cast<std::size_t>(i + rx)] * image.at(y + j, x + i, c);
      sum += ky[static_cast<std::size_t>(j + ry)] * row;
    }
    return static_cast<std::uint8_t>(std::min<std::uint64_t>((sum + 32768) >> 16, 255));
  });
}

// cv::blur: the sum s of d = kw * kh bytes; d <= 256: ((s + divDelta) * divScale) >> 23; above: float(s) *
// float(1 / d) rounded, except the last (width * channels) % 8 elements of a row, s / d rounded (in double).
inline std::vector<std::uint8_t> opencv_box_blur(const ByteImage& image, int radius_x, int radius_y) {
  const long d = (2L * radius_x + 1) * (2L * radius_y + 1);
  std::uint32_t div_scale = 1, div_delta = 0;
  if (d > 1 && d <= 256) {
    const double scale = static_cast<double>(1 << 23) / static_cast<double>(d);
    div_scale = static_cast<std::uint32_t>(std::floor(scale));
    div_delta = static_cast<std::uint32_t>(d / 2) + (scale - std::floor(scale) < 0.5 ? 1 : 0);
    div_scale += scale - std::floor(scale) < 0.5 ? 0 : 1;
  }
  const long row = image.width * image.channels, float_end = d <= (1L << 23) ? row / 8 * 8 : 0;
  return image.map([&](long y, long x, long c, long e) {
    std::uint32_t s = 0;
    for (long j = -radius_y; j <= radius_y; ++j)
      for (long i = -radius_x; i <= radius_x; ++i) s += image.at(y + j, x + i, c);
    if (d == 1) return static_cast<std::uint8_t>(s);
    if (d <= 256) return static_cast<std::uint8_t>(((s + div_delta) * div_scale) >> 23);
    const double value = e < float_end ? static_cast<double>(static_cast<float>(s) * static_cast<float>(1.0 / d))
                                       : static_cast<double>(s) * (1.0 / static_cast<double>(d));
    return round_saturate_u8(value);
  });
}

// cv::filter2D (fewer than 130 taps): s = fma(p, f, s) over the taps in row-major order from 0; cvRound
// saturated, and 0 when |s| >= 2^31.
inline std::vector<std::uint8_t> opencv_filter2d(const ByteImage& image, const std::vector<float>& filter, int radius_x,
                                                 int radius_y) {
  const long kw = 2L * radius_x + 1;
  return image.map([&](long y, long x, long c, long) {
    float s = 0.0f;
    for (long j = -radius_y; j <= radius_y; ++j)
      for (long i = -radius_x; i <= radius_x; ++i)
        s = std::fma(static_cast<float>(image.at(y + j, x + i, c)),
                     filter[static_cast<std::size_t>((j + radius_y) * kw + i + radius_x)], s);
    return std::fabs(s) < 2147483648.0f ? round_saturate_u8(s) : std::uint8_t{0};
  });
}

// cv::cvtColor to gray: (9798 R + 19235 G + 3735 B + 2^14) >> 15.
inline std::vector<std::uint8_t> opencv_gray(const std::uint8_t* src, long width, long height, long src_pitch,
                                             int channels, bool blue_first) {
  std::vector<std::uint8_t> out(static_cast<std::size_t>(width * height));
  for (long y = 0; y < height; ++y)
    for (long x = 0; x < width; ++x) {
      const std::uint8_t* p = src + y * src_pitch + channels * x;
      const std::uint32_t r = blue_first ? p[2] : p[0], b = blue_first ? p[0] : p[2];
      out[static_cast<std::size_t>(y * width + x)] =
          static_cast<std::uint8_t>((9798 * r + 19235 * p[1] + 3735 * b + 16384) >> 15);
    }
  return out;
}

}  // namespace tilecl::reference
