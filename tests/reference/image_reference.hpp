// Host reference implementations of the image families (kernels/color.cl, kernels/convolve.cl), in double
// precision. Header-only; used by the test suites. (The tuning subjects in src/ops/ verify with a reference
// of their own, and the Gaussian and box taps here are built independently of the library's, so the tests
// check those too.)
//
// Conventions match the kernels: images are row-major, pitches are in elements of the image's type, pixels
// have `channels` interleaved elements, filters are correlations (OpenCV's filter2D convention) with the
// anchor at the centre, and the border rules fold indices independently in x and y.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <vector>

namespace tilecl::reference {

// Same numbering as the BORDER macro of kernels/convolve.cl.
enum class Border : int { Zero = 0, Clamp = 1, Mirror = 2, Wrap = 3 };

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
  }
  return "?";
}

// Index i of a line of n pixels under the border rule: a value in [0, n), or -1 for "reads as zero".
// Mirror is reflect-101 (d c b | a b c d | c b a) folded periodically (period 2n - 2), so it stays defined
// when the filter is larger than the image; Wrap is periodic with period n.
inline long fold_index(long i, long n, Border border) {
  if (i >= 0 && i < n) return i;
  switch (border) {
    case Border::Zero:
      return -1;
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
// rgb_to_gray: gray = wr * R + wg * G + wb * B; src is interleaved RGB (3 elements per pixel).
// Returns width * height exact values (dense, row-major), before rounding.
template <typename T>
std::vector<double> rgb_to_gray(const T* src, long width, long height, long src_pitch, double weight_r, double weight_g,
                                double weight_b) {
  std::vector<double> out(static_cast<std::size_t>(width * height));
  for (long y = 0; y < height; ++y) {
    const T* row = src + y * src_pitch;
    for (long x = 0; x < width; ++x) {
      out[static_cast<std::size_t>(y * width + x)] = weight_r * static_cast<double>(row[3 * x]) +
                                                     weight_g * static_cast<double>(row[3 * x + 1]) +
                                                     weight_b * static_cast<double>(row[3 * x + 2]);
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------
// convolve2d: out(x, y, c) = sum f(dy, dx) * in(x + dx - rx, y + dy - ry, c), filter (2ry+1) x (2rx+1)
// row-major. Returns width * channels * height exact values (dense, row-major).
template <typename T>
std::vector<double> convolve2d(const T* src, long width, long height, int channels, long src_pitch,
                               const std::vector<float>& filter, int radius_x, int radius_y, Border border) {
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
          if (yy < 0) continue;
          const T* row = src + yy * src_pitch;
          for (long dx = 0; dx < kw; ++dx) {
            if (xs[dx] < 0) continue;
            sum += static_cast<double>(filter[dy * kw + dx]) * static_cast<double>(row[xs[dx] * channels + c]);
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
                                     Border border) {
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
          if (xx >= 0) sum += static_cast<double>(row_taps[dx]) * static_cast<double>(row[xx * channels + c]);
        }
        mid[static_cast<std::size_t>(y * row_e + x * channels + c)] = sum;
      }
    }
  }
  std::vector<double> out(static_cast<std::size_t>(row_e * height), 0.0);
  for (long y = 0; y < height; ++y) {
    for (int dy = 0; dy <= 2 * ry; ++dy) {
      const long yy = fold_index(y + dy - ry, height, border);
      if (yy < 0) continue;
      const double c = col_taps[dy];
      for (long e = 0; e < row_e; ++e)
        out[static_cast<std::size_t>(y * row_e + e)] += c * mid[static_cast<std::size_t>(yy * row_e + e)];
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
inline std::vector<float> gaussian_taps(double sigma, int radius) {
  if (!(sigma > 0.0) || radius < 0) throw std::invalid_argument("gaussian_taps: sigma > 0, radius >= 0");
  std::vector<double> w(static_cast<std::size_t>(2 * radius + 1));
  double sum = 0.0;
  for (int d = -radius; d <= radius; ++d) sum += (w[d + radius] = std::exp(-0.5 * d * d / (sigma * sigma)));
  std::vector<float> taps(w.size());
  for (std::size_t i = 0; i < w.size(); ++i) taps[i] = static_cast<float>(w[i] / sum);
  return taps;
}

}  // namespace tilecl::reference
