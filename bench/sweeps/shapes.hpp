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
  // key(), with ":ld+" when a leading dimension is padded.
  std::string text() const {
    const bool padded =
        lda != minimal_ld(a_rows(), a_cols()) || ldb != minimal_ld(b_rows(), b_cols()) || ldc != minimal_ld(m, n);
    return padded ? key() + ":ld+" : key();
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

}  // namespace tilecl::bench::sweeps
