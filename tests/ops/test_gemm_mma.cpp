// half / bfloat16 gemm and float gemm in TF32 mode (src/ops/gemm/mma_*, kernels/gemm_mma.cl).
//
// On PoCL the tensor-core kernel runs with its warp-level instructions emulated (USE_PTX = 0: the same fragments,
// swizzle, pipeline and edges), so its indexing is checked here; on an NVIDIA GPU of compute capability 8.0 and newer
// the same cases run its PTX. Every result is compared with a double-precision reference over the stored inputs,
// within the format's documented bound (ops/gemm/mma_accuracy.hpp); elements outside C must keep their bits.
#include <doctest/doctest.h>

#include <array>
#include <cfenv>
#include <cmath>
#include <cstring>
#include <limits>
#include <thread>
#include <vector>

#include "log.hpp"
#include "ops/gemm/mma.hpp"
#include "ops/gemm/mma_accuracy.hpp"
#include "ops/gemm/mma_plan.hpp"
#include "ops/gemm/mma_shapes.hpp"
#include "ops/gemm/problem.hpp"
#include "reference/gemm_reference.hpp"
#include "support/fixture.hpp"
#include "support/gemm_support.hpp"
#include "support/guarded_buffer.hpp"
#include "sweeps/shapes.hpp"
#include "tilecl/error.hpp"
#include "tilecl/gemm.hpp"
#include "tilecl/tuning.hpp"
#include "tuning/op_registry.hpp"

using namespace tilecl;
using tilecl::detail::Config;
using tilecl::detail::gemm::mma::Format;
using tilecl::test::device;

namespace {

namespace mma = tilecl::detail::gemm::mma;

// ---- host references for the conversions ------------------------------------------------------------------------

// x rounded to a binary format with `mantissa` stored bits and smallest normal exponent `min_exponent`, to nearest
// (ties to even), by scaling in double; `largest` and beyond round to infinity.
double round_to_format(double x, int mantissa, int min_exponent, double overflow) {
  if (std::isnan(x) || std::isinf(x) || x == 0) return x;
  const int exponent = std::max(std::ilogb(x), min_exponent);
  const double quantum = std::ldexp(1.0, exponent - mantissa);
  const double rounded = std::nearbyint(x / quantum) * quantum;  // FE_TONEAREST: ties to even
  return std::abs(rounded) >= overflow ? std::copysign(INFINITY, x) : rounded;
}
double to_half_reference(double x) { return round_to_format(x, 10, -14, 65536.0); }
double to_bfloat16_reference(double x) { return round_to_format(x, 7, -126, std::ldexp(1.0, 128)); }
float to_tf32_reference(float x) {  // to nearest, ties away from zero
  if (std::isnan(x) || std::isinf(x) || x == 0) return x;
  const double quantum = std::ldexp(1.0, std::max(std::ilogb(x), -126) - 10);
  return static_cast<float>(std::round(static_cast<double>(x) / quantum) * quantum);
}

template <typename T>
std::uint32_t bits_of(T value) {
  if constexpr (std::is_same_v<T, float>)
    return detail::float_bits(value);
  else
    return value.bits;
}

// The bits a product's element must have, except that zero's sign is not one: a gemm adds b's element to the
// +0 products of A's off-diagonal zeros, so b = -0 comes back as +0 (IEEE: -0 + +0 = +0).
template <typename T>
bool same_value_bits(T got, T expected) {
  const std::uint32_t magnitude = std::is_same_v<T, float> ? 0x7fffffffu : 0x7fffu;
  if ((bits_of(expected) & magnitude) == 0) return (bits_of(got) & magnitude) == 0;
  return bits_of(got) == bits_of(expected);
}

template <typename T>
Format format_of() {
  return detail::mma_format_of<T>();
}

// ---- one call, checked --------------------------------------------------------------------------------------------

using Problem = test::GemmProblem;
using test::ref_layout;
using test::ref_trans;

// A stored matrix with its offset and a guard: random in [-1, 1) inside (or NaN with inside_nan), `outside`
// elsewhere, so a kernel that reads outside the matrix and lets it reach C shows NaN.
template <typename T>
std::vector<T> make_matrix(reference::Layout layout, reference::Extent extent, std::size_t offset, std::size_t ld,
                           T outside, std::mt19937_64& random, bool inside_nan = false) {
  std::uniform_real_distribution<float> distribution(-1.0f, 1.0f);
  return test::stored_matrix<T>(layout, extent, offset, ld, 11, outside, [&](std::size_t, std::size_t) {
    return T(inside_nan ? std::numeric_limits<float>::quiet_NaN() : distribution(random));
  });
}

template <typename T>
cl::Event run(const Config* config, const Problem& p, const cl::Buffer& a, std::size_t lda, const cl::Buffer& b,
              std::size_t ldb, cl::Buffer& c, std::size_t c_at, std::size_t ldc) {
  const auto alpha = static_cast<float>(p.alpha), beta = static_cast<float>(p.beta);
  if (config != nullptr)
    return detail::gemm_mma_with<T>(*config, device().queue, p.layout, p.trans_a, p.trans_b, p.m, p.n, p.k, alpha, a,
                                    p.a_offset, lda, b, p.b_offset, ldb, beta, c, c_at, ldc);
  if constexpr (std::is_same_v<T, float>)
    return gemm(device().queue, MathMode::TF32, p.layout, p.trans_a, p.trans_b, p.m, p.n, p.k, alpha, a, p.a_offset,
                lda, b, p.b_offset, ldb, beta, c, c_at, ldc);
  else
    return gemm<T>(device().queue, p.layout, p.trans_a, p.trans_b, p.m, p.n, p.k, alpha, a, p.a_offset, lda, b,
                   p.b_offset, ldb, beta, c, c_at, ldc);
}

// Runs the problem (through `config`, or the public API when null: T = float means TF32 mode) and checks every element
// of C within the format's bound, and every element outside C for its bits.
template <typename T>
void check_mma(const Config* config, const Problem& p) {
  CAPTURE(p.describe());
  auto random = test::random_engine("gemm_mma" + p.describe());
  const auto layout = ref_layout(p.layout);
  const auto ta = ref_trans(p.trans_a), tb = ref_trans(p.trans_b);
  const auto a_extent = reference::stored_extent(ta, p.m, p.k), b_extent = reference::stored_extent(tb, p.k, p.n);
  const reference::Extent c_extent{p.m, p.n};
  const std::size_t lda = reference::min_ld(layout, a_extent) + p.lda_extra;
  const std::size_t ldb = reference::min_ld(layout, b_extent) + p.ldb_extra;
  const std::size_t ldc = reference::min_ld(layout, c_extent) + p.ldc_extra;
  const T nan = T(std::numeric_limits<float>::quiet_NaN());
  const bool alpha_zero = p.alpha == 0.0;  // A and B NaN throughout: must not be read
  const auto a = make_matrix<T>(layout, a_extent, p.a_offset, lda, nan, random, alpha_zero);
  const auto b = make_matrix<T>(layout, b_extent, p.b_offset, ldb, nan, random, alpha_zero);
  const auto c = make_matrix<T>(layout, c_extent, p.c_offset, ldc, T(12345.0f), random);
  std::vector<T> c_start = c;
  std::vector<bool> inside(c.size(), false);
  for (std::size_t r = 0; r < p.m; ++r)
    for (std::size_t j = 0; j < p.n; ++j) {
      const std::size_t at = p.c_offset + reference::matrix_index(layout, r, j, ldc);
      inside[at] = true;
      if (p.beta == 0.0) c_start[at] = nan;  // beta == 0: C is not read
    }

  std::vector<double> want(c.begin(), c.end()), magnitude(c.size() - p.c_offset, 0.0);
  if (!alpha_zero) {
    const std::vector<double> wa(a.begin(), a.end()), wb(b.begin(), b.end());
    reference::gemm(layout, ta, tb, p.m, p.n, p.k, p.alpha, wa.data() + p.a_offset, lda, wb.data() + p.b_offset, ldb,
                    p.beta, want.data() + p.c_offset, ldc, &magnitude);
  } else {
    for (std::size_t i = 0; i < c.size(); ++i)
      if (inside[i]) {
        want[i] = p.beta == 0.0 ? 0.0 : p.beta * want[i];
        magnitude[i - p.c_offset] = std::abs(want[i]);
      }
  }

  const cl::Buffer a_buffer = test::to_device(a), b_buffer = test::to_device(b);
  test::GuardedBuffer<T> c_buffer(c_start);
  cl::Event done =
      run<T>(config, p, a_buffer, lda, b_buffer, ldb, c_buffer.buffer(), c_buffer.offset() + p.c_offset, ldc);
  REQUIRE(done() != nullptr);
  done.wait();
  const auto got = c_buffer.read();
  c_buffer.check_guards("C");
  std::size_t bad = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    const double value = static_cast<float>(got[i]);
    const bool ok = inside[i] ? std::abs(value - want[i]) <=
                                    mma::error_bound(format_of<T>(), p.k, magnitude[i - p.c_offset], want[i])
                              : bits_of(got[i]) == bits_of(c[i]);
    if (!ok && bad++ < 5)
      FAIL_CHECK("C element " << i << " is " << value << ", expected " << want[i]
                              << std::string(inside[i] ? "" : " (outside C)"));
  }
  CHECK_MESSAGE(bad == 0, bad << " of " << got.size() << " elements of C differ");
}

std::vector<Problem> every_orientation(Problem base) {
  std::vector<Problem> all;
  for (Layout layout : {Layout::RowMajor, Layout::ColMajor})
    for (Transpose ta : {Transpose::No, Transpose::Yes})
      for (Transpose tb : {Transpose::No, Transpose::Yes}) {
        Problem p = base;
        p.layout = layout, p.trans_a = ta, p.trans_b = tb;
        all.push_back(p);
      }
  return all;
}

// ---- configurations -----------------------------------------------------------------------------------------------

Config sync(std::int64_t tile_m, std::int64_t tile_n, std::int64_t tile_k, std::int64_t warps_m, std::int64_t warps_n,
            std::int64_t stages, std::int64_t registers = 0, std::int64_t split_k = 1, std::int64_t in_place = 0) {
  return {"mma",
          {{"TILE_M", tile_m},
           {"TILE_N", tile_n},
           {"TILE_K", tile_k},
           {"WARPS_M", warps_m},
           {"WARPS_N", warps_n},
           {"STAGES", stages},
           {"SPLIT_K", split_k},
           {"REGISTERS", registers},
           {"IN_PLACE", in_place}}};
}
Config portable(std::int64_t wpt_m, std::int64_t wpt_n, std::int64_t wg_x, std::int64_t wg_y, std::int64_t k_step = 4) {
  return {"portable", {{"WPT_M", wpt_m}, {"WPT_N", wpt_n}, {"K_STEP", k_step}, {"WG_X", wg_x}, {"WG_Y", wg_y}}};
}
const Config kViaFloat{"via_float", {}};
// Small tensor-core tilings, one per format and operand order. Emulated (no PTX), each program takes PoCL tens of
// seconds to compile (minutes on a loaded machine), so the cases share four, which together take every path of
// gemm_mma_sync: half NN (A by rows: ldmatrix; B K-major: ldmatrix.trans) with 3 stages, warps along N and two
// 16-byte chunks per stored row; half TT (A K-major, B by rows: the other two) with 2 stages, warps along M and K
// tiles of 64 (eight chunks per stored row: the other swizzle); tf32 NN (B read by words) and TT (A read by words).
// Column-major NN and TT are the same programs, A and B swapped. bfloat16's fragments move as half's (only the
// conversions differ, and the portable kernel checks those): its tensor-core cases run where the PTX runs.
Config sync_for(Format format, Transpose trans) {
  if (format == Format::TF32) return sync(32, 64, 16, 1, 2, 3);
  return trans == Transpose::No ? sync(32, 64, 32, 1, 2, 3) : sync(64, 32, 64, 2, 1, 2);
}
bool runs_sync(Format format) { return format != Format::BF16 || mma::uses_ptx(*device().info); }

template <typename T>
void every_setting_at_ragged_shapes() {
  Problem base;
  base.m = 37, base.n = 45, base.k = 75, base.alpha = -1.25, base.beta = 0.5;
  base.a_offset = 3, base.b_offset = 1, base.c_offset = 5, base.lda_extra = 2, base.ldb_extra = 5, base.ldc_extra = 3;
  const Format format = format_of<T>();
  if (runs_sync(format)) {
    for (const Problem& p : every_orientation(base))  // odd offsets: packed, then read in place
      if (p.trans_a == p.trans_b) {
        Config config = sync_for(format, p.trans_a);
        CAPTURE(config.to_string());
        check_mma<T>(&config, p);
        config.values["IN_PLACE"] = 1;
        check_mma<T>(&config, p);
      }
    // In place beside 16-byte copies: A's rows off 16-byte boundaries, B's on them (row-major NN: ldb a multiple of
    // 16 elements), with C's rows aligned (whole-chunk stores) and beta = 0 over NaN; then B off and A on.
    Problem mixed = base;
    mixed.b_offset = 8, mixed.ldb_extra = 16 - 45 % 16, mixed.c_offset = 16, mixed.ldc_extra = 16 - 45 % 16;
    mixed.beta = 0.0;
    Config in_place = sync_for(format, Transpose::No);
    in_place.values["IN_PLACE"] = 1;
    check_mma<T>(&in_place, mixed);
    mixed.a_offset = 0, mixed.lda_extra = 16 - 75 % 16, mixed.b_offset = 1, mixed.ldb_extra = 2, mixed.beta = 0.5;
    check_mma<T>(&in_place, mixed);
    // Rows on 16-byte boundaries: A and B read in place; C's rows too (c_offset and ldc multiples of 16 elements),
    // so the epilogue stores whole 16-byte chunks except at the ragged right edge; beta = 0 over NaN, then beta != 0.
    Problem aligned = base;
    aligned.m = 70, aligned.n = 33, aligned.k = 41, aligned.a_offset = 0, aligned.b_offset = 8, aligned.beta = 0.0;
    aligned.c_offset = 16, aligned.ldc_extra = 16 - 33 % 16;
    aligned.lda_extra = 16 - 41 % 16, aligned.ldb_extra = 16 - 33 % 16;  // row-major NN: lda, ldb multiples of 16
    const Config config = sync_for(format, Transpose::No);
    check_mma<T>(&config, aligned);
    aligned.beta = -0.75;
    check_mma<T>(&config, aligned);
    // The smallest tiling the GPU ranking holds: 32 x 32 with 2 x 2 warps of 16 x 16.
    const Config smallest = sync(32, 32, format == Format::TF32 ? 16 : 32, 2, 2, 4);
    check_mma<T>(&smallest, base);
    // K in shares: K = 75 is 3 tiles of 32 (tf32: 5 of 16): NN in 2 shares (2 + 1) and 4 (16-bit: the last share
    // empty, its sums zeros), TT in 3; beta = 0 over NaN and not.
    for (const Problem& p : every_orientation(base))
      if (p.trans_a == p.trans_b)
        for (const std::int64_t split :
             p.trans_a == Transpose::No ? std::vector<std::int64_t>{2, 4} : std::vector<std::int64_t>{3}) {
          Config shared = sync_for(format, p.trans_a);
          shared.values["SPLIT_K"] = split;
          CAPTURE(shared.to_string());
          check_mma<T>(&shared, p);
          Problem overwrite = p;
          overwrite.beta = 0.0;
          check_mma<T>(&shared, overwrite);
        }
  }
  // The portable kernel's and via_float's indexing does not depend on the format: every orientation and setting for
  // half only. via_float's float gemm is the one a float call of the widened shape gets (its tuned choice).
  const Config portable_first = portable(4, 4, 8, 8);
  if (format != Format::F16) {
    check_mma<T>(&portable_first, base);
    for (const Problem& p : every_orientation(base)) check_mma<T>(&kViaFloat, p);  // TF32: float gemm in place
    return;
  }
  Problem few_rows = base, few_columns = base;  // via_float on half runs these as gemv
  few_rows.m = 3, few_columns.n = 8;
  for (const Problem& p : every_orientation(base)) {
    check_mma<T>(&portable_first, p);
    check_mma<T>(&kViaFloat, p);
  }
  for (const Problem& p : every_orientation(few_rows)) check_mma<T>(&kViaFloat, p);
  for (const Problem& p : every_orientation(few_columns)) check_mma<T>(&kViaFloat, p);
  // K_STEP: one at a time, a step that leaves a remainder of K, and the GPU's candidates.
  for (const Config& config :
       {portable(3, 5, 0, 0, 3), portable(8, 1, 16, 1, 1), portable(4, 4, 16, 8, 8), portable(2, 2, 16, 16, 16)})
    check_mma<T>(&config, base);
}

template <typename T>
void edge_sizes_and_scalars() {
  const std::vector<std::array<std::size_t, 3>> shapes{{1, 1, 1}, {7, 5, 3}, {1, 70, 33}, {70, 1, 17}, {3, 130, 70}};
  const Format format = format_of<T>();
  std::vector<Config> configs{portable(4, 4, 8, 8)};
  if (runs_sync(format)) configs.push_back(sync_for(format, Transpose::No));
  configs.push_back(kViaFloat);
  for (const Config& config : configs) {
    CAPTURE(config.to_string());
    for (const auto& shape : shapes) {
      Problem p;
      p.m = shape[0], p.n = shape[1], p.k = shape[2], p.alpha = 1.5, p.beta = -0.25, p.c_offset = 1;
      if (shape[0] % 2 == 0) p.trans_a = p.trans_b = Transpose::Yes;
      const Config tensor_core = sync_for(format, p.trans_a);  // TT: the other tensor-core program
      check_mma<T>(config.variant == "mma" ? &tensor_core : &config, p);
    }
    for (const auto& [alpha, beta] : std::vector<std::pair<double, double>>{{1.0, 1.0}, {0.0, 0.0}, {0.0, -3.0}}) {
      Problem p;
      p.m = 23, p.n = 31, p.k = 40, p.alpha = alpha, p.beta = beta, p.c_offset = 3, p.ldc_extra = 4;
      check_mma<T>(&config, p);
    }
    Problem empty_k;
    empty_k.m = 9, empty_k.n = 14, empty_k.k = 0, empty_k.alpha = 2.0, empty_k.beta = 0.5;
    empty_k.layout = Layout::ColMajor;
    check_mma<T>(&config, empty_k);
  }
}

// C = alpha * I * B: one product per output, so every result is alpha * b rounded once to T -- what the host's
// conversion gives, bit for bit. B holds subnormals, values next to ties, the largest finite values; in TF32 mode the
// tensor-core kernel rounds B to TF32 first.
template <typename T>
void identity_products_round_like_the_host(const Config& config, float alpha, bool tf32_operands) {
  CAPTURE(config.to_string());
  CAPTURE(alpha);
  const std::size_t m = 19, n = 37;
  std::vector<T> a(m * m, T(0.0f)), b(m * n);
  for (std::size_t i = 0; i < m; ++i) a[i * m + i] = T(1.0f);
  auto random = test::random_engine("identity");
  std::uniform_int_distribution<std::uint32_t> bits(0, 0xffff);
  for (std::size_t i = 0; i < b.size(); ++i) {
    if constexpr (std::is_same_v<T, float>) {
      b[i] = std::ldexp(static_cast<float>(bits(random)) + 0.5f, static_cast<int>(bits(random) % 60) - 40);
    } else {
      std::uint16_t value = static_cast<std::uint16_t>(bits(random)) & 0xfbffu;  // finite
      if (i % 7 == 0) value &= 0x83ffu;                                          // subnormal
      b[i] = T::from_bits(value);
    }
  }
  std::vector<T> c(m * n, T(0.0f));
  const cl::Buffer a_buffer = test::to_device(a), b_buffer = test::to_device(b);
  cl::Buffer c_buffer = test::to_device(c);
  detail::gemm_mma_with<T>(config, device().queue, Layout::RowMajor, Transpose::No, Transpose::No, m, n, m, alpha,
                           a_buffer, 0, m, b_buffer, 0, n, 0.0f, c_buffer, 0, n)
      .wait();
  const auto got = test::from_device<T>(c_buffer, c.size());
  std::size_t bad = 0;
  for (std::size_t i = 0; i < b.size(); ++i) {
    float operand = static_cast<float>(b[i]);
    if (tf32_operands) operand = to_tf32_reference(operand);
    const T expected = T(alpha * operand);
    if (!same_value_bits(got[i], expected) && bad++ < 5)
      FAIL_CHECK("element " << i << ": b = " << static_cast<float>(b[i]) << ", got bits " << bits_of(got[i])
                            << ", expected " << bits_of(expected));
  }
  CHECK(bad == 0);
}

DeviceInfo nvidia_like(unsigned compute_capability) {
  DeviceInfo gpu = *device().info;
  gpu.type = CL_DEVICE_TYPE_GPU, gpu.local_memory_is_dedicated = true, gpu.compute_units = 132;
  gpu.local_memory_bytes = 49152, gpu.max_work_group_size = 1024, gpu.max_work_item_sizes = {1024, 1024, 64};
  gpu.nv_compute_capability = compute_capability;
  gpu.device_name = "fake GPU " + std::to_string(compute_capability);  // its own fingerprint
  return gpu;
}

detail::gemm::KernelProblem problem_of(std::uint64_t m, std::uint64_t n, std::uint64_t k) {
  return {m, n, k, false, false, false, {}, {}, {}};
}

}  // namespace

TEST_SUITE("ops.gemm_mma") {
  TEST_CASE("gemm_mma: host conversions round to nearest even, keep infinities and NaN, and every half round-trips") {
    for (std::uint32_t bits = 0; bits <= 0xffff; ++bits) {
      const auto value = static_cast<std::uint16_t>(bits);
      const float h = half::from_bits(value), b = bfloat16::from_bits(value);
      if (std::isnan(h))
        CHECK(std::isnan(static_cast<float>(half(h))));
      else if (half(h).bits != value)
        FAIL_CHECK("half bits " << bits << " do not round-trip");
      if (!std::isnan(b) && bfloat16(b).bits != value) FAIL_CHECK("bfloat16 bits " << bits << " do not round-trip");
    }
    auto random = test::random_engine("conversions");
    std::uniform_int_distribution<std::uint32_t> any(0, 0xffffffffu);
    REQUIRE(std::fegetround() == FE_TONEAREST);
    for (int i = 0; i < 200000; ++i) {
      const float x = detail::bits_float(any(random));
      const float h = half(x), b = bfloat16(x);
      if (std::isnan(x)) {
        CHECK((std::isnan(h) && std::isnan(b)));
        continue;
      }
      if (h != static_cast<float>(to_half_reference(x))) FAIL_CHECK("half(" << x << ") = " << h);
      if (b != static_cast<float>(to_bfloat16_reference(x))) FAIL_CHECK("bfloat16(" << x << ") = " << b);
    }
    // Ties: 1 + 2^-11 is half-way between two halves (to even: 1), 1 + 3 * 2^-11 rounds up; 65519 stays, 65520 is inf.
    CHECK(static_cast<float>(half(1.0f + std::ldexp(1.0f, -11))) == 1.0f);
    CHECK(static_cast<float>(half(1.0f + 3 * std::ldexp(1.0f, -11))) == 1.0f + std::ldexp(1.0f, -9));
    CHECK(static_cast<float>(half(65519.0f)) == 65504.0f);
    CHECK(std::isinf(static_cast<float>(half(65520.0f))));
    CHECK(static_cast<float>(half(std::ldexp(1.0f, -25))) == 0.0f);  // a tie below the smallest subnormal: to 0
    CHECK(static_cast<float>(half(std::ldexp(3.0f, -26))) == std::ldexp(1.0f, -24));
    CHECK(half(-0.0f).bits == 0x8000u);
    CHECK(static_cast<float>(bfloat16(1.0f + std::ldexp(1.0f, -8))) == 1.0f);
  }

  TEST_CASE("gemm_mma: the kernels round alpha * b to 16 bits and operands to TF32 exactly as the host does") {
    for (float alpha : {1.0f, 0.3f, 1024.0f}) {
      identity_products_round_like_the_host<half>(sync_for(Format::F16, Transpose::No), alpha, false);
      identity_products_round_like_the_host<half>(portable(4, 4, 8, 8), alpha, false);
      if (runs_sync(Format::BF16))
        identity_products_round_like_the_host<bfloat16>(sync_for(Format::BF16, Transpose::No), alpha, false);
      identity_products_round_like_the_host<bfloat16>(portable(4, 4, 8, 8), alpha, false);
      identity_products_round_like_the_host<float>(sync_for(Format::TF32, Transpose::No), alpha, true);
      identity_products_round_like_the_host<float>(portable(4, 4, 8, 8), alpha, false);
    }
  }

  TEST_CASE("gemm_mma: half: every variant within the bound in both layouts, all transposes, packed or in place") {
    every_setting_at_ragged_shapes<half>();
  }
  TEST_CASE("gemm_mma: bfloat16: every variant within the bound in both layouts, all transposes, packed or in place") {
    every_setting_at_ragged_shapes<bfloat16>();
  }
  TEST_CASE("gemm_mma: tf32: every variant within the bound in both layouts, all transposes, packed or in place") {
    every_setting_at_ragged_shapes<float>();
  }

  TEST_CASE(
      "gemm_mma: K tiles of 64 (eight 16-byte chunks per stored row) over several K tiles and a ragged last one") {
    Problem p;
    p.m = 70, p.n = 67, p.k = 200, p.alpha = 0.75, p.beta = -0.5, p.a_offset = 3, p.b_offset = 3, p.c_offset = 3;
    p.lda_extra = 3, p.ldb_extra = 5, p.ldc_extra = 2;
    p.trans_a = p.trans_b = Transpose::Yes;
    const Config config = sync_for(Format::F16, Transpose::Yes);  // K tiles of 64, 2 stages
    check_mma<half>(&config, p);
    // Emulated (USE_PTX = 0), PoCL 3.1's default work-group compilation (loopvec) computes this tiling, and the
    // other 3-stage ones with 36 KiB of tiles or more that were tried, wrong at every K; the same program is right
    // under POCL_WORK_GROUP_METHOD=cbs and under oclgrind (--local-mem-size 262144 --data-races --uninitialized,
    // nothing reported), and with its PTX on the H200. A PoCL defect: run it where the PTX runs.
    if (mma::uses_ptx(*device().info)) {
      const Config three_stages = sync(64, 32, 64, 1, 2, 3);
      CAPTURE(three_stages.to_string());
      check_mma<half>(&three_stages, p);
    }
  }

  TEST_CASE("gemm_mma: edge sizes, beta = 0 over NaN, beta = 1, alpha = 0 never reads A or B, k = 0 scales C") {
    edge_sizes_and_scalars<half>();
    edge_sizes_and_scalars<bfloat16>();
    edge_sizes_and_scalars<float>();
  }

  TEST_CASE("gemm_mma: the sweep's shapes (scaled down) through the public calls, every mode within its bound") {
    // `tilecl bench --sweep` draws gemm_mma's shapes from the GEMM distribution (random transposes, layouts, padded
    // leading dimensions) with these streams; here the largest side is 70 and the calls are the public ones, so
    // each shape goes through first-use tuning and the path a user's call takes (packing included).
    for (std::uint64_t seed = 1; seed <= 2; ++seed) {
      auto half_random = bench::sweeps::sweep_random(seed, "gemm_mma", "half");
      auto bf16_random = bench::sweeps::sweep_random(seed, "gemm_mma", "bfloat16");
      auto tf32_random = bench::sweeps::sweep_random(seed, "gemm_mma", "tf32");
      for (int shape = 0; shape < 4; ++shape) {
        auto problem_of_shape = [&](const bench::sweeps::GemmShape& s) {
          Problem p = test::sweep_problem(s);
          p.alpha = 1.0, p.beta = shape % 2 == 0 ? 0.5 : 0.0, p.c_offset = static_cast<std::size_t>(shape % 3);
          return p;
        };
        auto draw = [](std::mt19937_64& random) {
          const auto s = bench::sweeps::draw_gemm_shape(random, 70);
          random();  // the sweep's seed for the shape's values (bench/sweeps/gemm_mma.cpp)
          return s;
        };
        CAPTURE(seed);
        check_mma<half>(nullptr, problem_of_shape(draw(half_random)));
        check_mma<bfloat16>(nullptr, problem_of_shape(draw(bf16_random)));
        check_mma<float>(nullptr, problem_of_shape(draw(tf32_random)));
      }
    }
  }

  TEST_CASE("gemm_mma: TF32 rounding is visible: the tensor-core kernel's error exceeds float's bound, within TF32's") {
    // Random operands in [1, 2): TF32 rounds almost every one, float's bound ((k + 2) 2^-24 of the magnitude) is far
    // below what that costs, TF32's holds.
    const std::size_t m = 40, n = 48, k = 64;
    auto random = test::random_engine("tf32-visible");
    std::uniform_real_distribution<float> distribution(1.0f, 2.0f);
    std::vector<float> a(m * k), b(k * n), c(m * n, 0.0f);
    for (auto& x : a) x = distribution(random);
    for (auto& x : b) x = distribution(random);
    const cl::Buffer a_buffer = test::to_device(a), b_buffer = test::to_device(b);
    cl::Buffer c_buffer = test::to_device(c);
    detail::gemm_mma_with<float>(sync_for(Format::TF32, Transpose::No), device().queue, Layout::RowMajor, Transpose::No,
                                 Transpose::No, m, n, k, 1.0f, a_buffer, 0, k, b_buffer, 0, n, 0.0f, c_buffer, 0, n)
        .wait();
    const auto got = test::from_device<float>(c_buffer, c.size());
    double worst = 0;
    for (std::size_t i = 0; i < m; ++i)
      for (std::size_t j = 0; j < n; ++j) {
        double exact = 0, magnitude = 0;
        for (std::size_t p = 0; p < k; ++p) exact += double(a[i * k + p]) * b[p * n + j];
        magnitude = exact;  // all terms positive
        const double error = std::abs(got[i * n + j] - exact);
        CHECK(error <= mma::error_bound(Format::TF32, k, magnitude, exact));
        worst = std::max(worst, error / magnitude);
      }
    CHECK(worst > (k + 2) * std::ldexp(1.0, -24));
    CHECK(worst < std::ldexp(1.0, -10));
  }

  TEST_CASE("gemm_mma: the public calls compute half, bfloat16 and TF32 products on this device") {
    Problem p;
    p.m = 67, p.n = 45, p.k = 130, p.alpha = 0.75, p.beta = 0.5, p.a_offset = 1, p.c_offset = 2, p.ldb_extra = 3;
    for (const Problem& q : {p, every_orientation(p)[5]}) {
      check_mma<half>(nullptr, q);
      check_mma<float>(nullptr, q);
    }
    check_mma<bfloat16>(nullptr, p);
    Problem skinny = p;  // TF32 sends GEMV-like shapes to float gemm
    skinny.m = 2, skinny.k = 300;
    check_mma<float>(nullptr, skinny);
  }

  TEST_CASE("gemm_mma: bad arguments are refused by name, empty products are no-ops, a bad math mode is an error") {
    cl::Buffer a = test::to_device(std::vector<half>(64, half(1.0f))), c = test::to_device(std::vector<half>(64));
    try {
      gemm<half>(device().queue, Layout::RowMajor, Transpose::No, Transpose::No, 4, 4, 8, 1.0f, a, 0, 4, a, 0, 4, 0.0f,
                 c, 0, 4);
      FAIL("lda below k was accepted");
    } catch (const Error& error) {
      CHECK(error.argument() == "lda");
      CHECK(std::string(error.what()).find("tilecl::gemm") == 0);
    }
    CHECK_THROWS_AS(gemm<bfloat16>(device().queue, Layout::RowMajor, Transpose::No, Transpose::No, 8, 8, 8, 1.0f, a, 0,
                                   8, a, 0, 8, 0.0f, a, 0, 8),
                    Error);  // C overlaps A
    CHECK(gemm<half>(device().queue, Layout::RowMajor, Transpose::No, Transpose::No, 0, 4, 4, 1.0f, a, 0, 4, a, 0, 4,
                     0.0f, c, 0, 4)() == nullptr);
    cl::Buffer f = test::to_device(std::vector<float>(64, 1.0f)), g = test::to_device(std::vector<float>(64));
    try {
      gemm(device().queue, static_cast<MathMode>(7), Layout::RowMajor, Transpose::No, Transpose::No, 4, 4, 4, 1.0f, f,
           0, 4, f, 0, 4, 0.0f, g, 0, 4);
      FAIL("a bad math mode was accepted");
    } catch (const Error& error) {
      CHECK(error.argument() == "mode");
    }
    // An explicit configuration outside the space is refused, naming the reason.
    CHECK_THROWS_AS(
        detail::gemm_mma_with<half>(sync(48, 64, 32, 1, 2, 3), device().queue, Layout::RowMajor, Transpose::No,
                                    Transpose::No, 4, 4, 4, 1.0f, a, 0, 4, a, 0, 4, 0.0f, c, 0, 4),
        Error);
  }

  TEST_CASE("gemm_mma: operands off 16-byte boundaries are read in place in small products, packed in large ones") {
    const DeviceInfo hopper = nvidia_like(90);
    for (Format format : {Format::F16, Format::BF16, Format::TF32}) {
      CAPTURE(static_cast<int>(format));
      const auto& info = mma::format_info(format);
      auto in_place_ranks = [&](const detail::gemm::KernelProblem& p) {
        std::vector<std::size_t> ranks;
        const auto ranked = mma::ranked_configs(info, p, hopper);
        for (std::size_t rank = 0; rank < ranked.size(); ++rank)
          if (ranked[rank].variant == "mma" && ranked[rank].value("IN_PLACE") == 1) ranks.push_back(rank);
        return ranks;
      };
      // 45 x 224 x 2341: lda = 2341 is off every 16-byte boundary. Small: in place first, the best tiling packed
      // third (fourth in TF32 mode, after via_float: float gemm in place).
      auto small = problem_of(45, 224, 2341);
      const auto ranked_small = mma::ranked_configs(info, small, hopper);
      CHECK(ranked_small.front().value("IN_PLACE") == 1);
      const std::size_t packed_rank = format == Format::TF32 ? 3 : 2;
      REQUIRE(ranked_small.size() > packed_rank);
      CHECK(ranked_small[packed_rank].variant == "mma");
      CHECK(ranked_small[packed_rank].value("IN_PLACE") == 0);
      CHECK(ranked_small[packed_rank].value("TILE_M") == ranked_small.front().value("TILE_M"));
      // Mid-size: the best tiling packed first, in place second.
      const auto mid = problem_of(2048, 2048, 1023);
      CHECK(in_place_ranks(mid) == std::vector<std::size_t>{1});
      // Few tiles and a long K: the in-place form takes K shares for about three work-groups per compute unit (its
      // element loads need more in flight than the 16-byte copies), more than the packed form's one per unit. Mid-size
      // (13 x 4996 x 4826: 79 tiles of 32 x 64, 151 K tiles): 8 shares, third (fourth in TF32 mode, after via_float).
      const auto skinny = problem_of(13, 4996, 4826);
      const auto ranked_skinny = mma::ranked_configs(info, skinny, hopper);
      const std::size_t skinny_rank = format == Format::TF32 ? 3 : 2;
      CHECK(in_place_ranks(skinny) == std::vector<std::size_t>{skinny_rank});
      CHECK(ranked_skinny[skinny_rank].value("SPLIT_K") == 8);
      CHECK(ranked_skinny[skinny_rank].value("TILE_N") == ranked_skinny.front().value("TILE_N"));
      CHECK(ranked_skinny[skinny_rank - 1].value("SPLIT_K") == 2);  // packed: 158 work-groups fill the units
      // Small (12 x 3001 x 3001, 94 tiles of 32 x 32): the best tiling in place, then in place in 8 shares (after
      // via_float in TF32 mode), then packed.
      const auto ranked_long_k = mma::ranked_configs(info, problem_of(12, 3001, 3001), hopper);
      const std::size_t shares_rank = format == Format::TF32 ? 2 : 1;
      REQUIRE(ranked_long_k.size() > shares_rank + 1);
      CHECK((ranked_long_k[0].value("IN_PLACE") == 1 && ranked_long_k[0].value("SPLIT_K") == 1));
      CHECK((ranked_long_k[shares_rank].value("IN_PLACE") == 1 && ranked_long_k[shares_rank].value("SPLIT_K") == 8));
      CHECK(ranked_long_k[shares_rank].value("TILE_M") == ranked_long_k[0].value("TILE_M"));
      CHECK(ranked_long_k[shares_rank + 1].value("IN_PLACE") == 0);
      // Large, or aligned at any size: never in place (the plan would read nothing in place anyway).
      CHECK(in_place_ranks(problem_of(4096, 4096, 4095)).empty());
      CHECK(in_place_ranks(problem_of(64, 64, 64)).empty());
      // The plan: only the operands that miss the 16-byte rule are read in place, and nothing is packed.
      small.b.ld = 224;
      const detail::gemm::mma::Plan plan = mma::make_plan(info, ranked_small.front(), small, true);
      CHECK((plan.a.in_place && !plan.a.packed && !plan.b.in_place && !plan.b.packed && plan.workspace == 0));
      const auto options = mma::main_options(info, ranked_small.front(), plan);
      CHECK(options.macros().at("A_IN_PLACE") == "1");
      CHECK(options.macros().at("B_IN_PLACE") == "0");
    }
  }

  TEST_CASE("gemm_mma: the tensor-core kernel is ranked only on NVIDIA GPUs of compute capability 8.0 and newer") {
    for (Format format : {Format::F16, Format::BF16, Format::TF32}) {
      const auto& info = mma::format_info(format);
      const auto big = problem_of(4096, 4096, 4096), small = problem_of(100, 100, 100);
      // Without tensor cores: via_float first for large products (TF32: float gemm on the caller's operands), the
      // portable kernel first for small half and bfloat16 ones.
      const std::string widened = "via_float";
      const auto here = mma::ranked_configs(info, big, *device().info);
      CHECK(here.front().variant == (mma::uses_ptx(*device().info) ? "mma" : widened));
      // TF32 without tensor cores: float gemm and nothing else, at every size.
      if (format == Format::TF32 && !mma::uses_ptx(*device().info))
        for (const auto& p : {big, small, problem_of(1, 5, 64), problem_of(237, 15, 1)})
          CHECK(mma::ranked_configs(info, p, *device().info) == std::vector<Config>{Config{widened, {}}});
      const DeviceInfo hopper = nvidia_like(90), turing = nvidia_like(75);
      const auto ranked = mma::ranked_configs(info, big, hopper);
      CHECK(ranked.front().variant == "mma");
      CHECK(ranked.back().variant == "portable");                                   // the fallback, always there
      const Config small_first = mma::ranked_configs(info, small, hopper).front();  // more work-groups than one
      CHECK((small_first.value("TILE_M") == 32 && small_first.value("TILE_N") == 32));
      const Config mid_first = mma::ranked_configs(info, problem_of(1024, 1024, 1024), hopper).front();
      CHECK(mid_first.value("TILE_M") * mid_first.value("TILE_N") >= 64 * 64);  // small tiles only where units idle
      // A short K: the large tiles' advantage shrinks (their work-groups are more filling and storing than
      // products), so many tiles of 64 x 64 or less come first; a longer K keeps 128 x 128 first.
      const Config short_k = mma::ranked_configs(info, problem_of(3511, 4247, 245), hopper).front();
      CHECK(short_k.value("TILE_M") * short_k.value("TILE_N") <= 64 * 64);
      const Config long_k = mma::ranked_configs(info, problem_of(4096, 4096, 512), hopper).front();
      CHECK((long_k.value("TILE_M") == 128 && long_k.value("TILE_N") == 128));
      // With tensor cores: via_float is timed second in TF32 mode for products up to 2^31 multiply-adds (float gemm
      // in place against the tensor-core kernel's few work-groups) and for half products of at most 8 rows or
      // columns (gemv<half>).
      const auto gemv_shaped = mma::ranked_configs(info, problem_of(8192, 1, 8192), hopper);
      CHECK(gemv_shaped.front().variant == "mma");
      CHECK((gemv_shaped[1].variant == "via_float") == (format != Format::BF16));
      const auto mid_size = mma::ranked_configs(info, problem_of(2750, 26, 4733), hopper);
      CHECK(mid_size.front().variant == "mma");
      CHECK((mid_size[1].variant == "via_float") == (format == Format::TF32));
      // Few tiles and a long K: the best tiling again in K shares, among the first three (first-use times them).
      const auto& shared = mid_size[format == Format::TF32 ? 2 : 1];
      CHECK((shared.variant == "mma" && shared.value("SPLIT_K") > 1));
      CHECK(shared.value("TILE_M") == mid_size.front().value("TILE_M"));
      for (const auto& config : ranked)  // 4096^3 fills the device without shares
        if (config.variant == "mma") CHECK(config.value("SPLIT_K") == 1);
      for (const auto& config : mma::ranked_configs(info, problem_of(2750, 26, 64), hopper))  // 2 K tiles: no shares
        if (config.variant == "mma") CHECK(config.value("SPLIT_K") == 1);
      for (const auto& config : ranked) CHECK(config.variant != "via_float");  // 4096^3: the tensor cores alone
      const auto tall = mma::ranked_configs(info, problem_of(1 << 20, 4, 4096), hopper);  // 2^34 multiply-adds
      CHECK((tall[1].variant == "via_float") == (format == Format::F16));                 // gemv-shaped half only
      const auto on_turing = mma::ranked_configs(info, big, turing);
      CHECK(on_turing.front().variant == widened);
      for (const auto& config : on_turing) CHECK(config.variant != "mma");
      const auto tiny = mma::ranked_configs(info, problem_of(20, 30, 40), turing);  // below 2^15 multiply-adds
      if (format == Format::TF32) {                                                 // float gemm alone, at every size
        CHECK(on_turing.size() == 1);
        CHECK(tiny == std::vector<Config>{kViaFloat});
      } else {
        CHECK(on_turing.back().variant == "portable");
        CHECK(tiny.front().variant == "portable");
        CHECK(tiny.size() == 3);  // via_float second: first-use tuning times it too
        CHECK(tiny.back().variant == "portable");
      }
      CHECK(mma::ranked_configs(info, problem_of(32, 32, 32), turing).front().variant == widened);
      CHECK(mma::variants_for(format).space.validate(kViaFloat, *device().info).empty());
      // The space refuses the tensor-core kernel on a GPU whose compiler refused its PTX, and never on others.
      for (Transpose trans : {Transpose::No, Transpose::Yes}) {
        CHECK(mma::variants_for(format).space.validate(sync_for(format, trans), hopper) == "");
        CHECK(mma::variants_for(format).space.validate(sync_for(format, trans), *device().info) == "");
      }
    }
  }

  TEST_CASE("gemm_mma: plans pack exactly the operands whose rows miss 16-byte boundaries, and render the PTX switch") {
    const auto& f16 = mma::format_info(Format::F16);
    const cl::Buffer* none = nullptr;
    detail::gemm::KernelProblem p{100, 60, 50, false, true, false, {none, 0, 56}, {none, 4, 50}, {none, 0, 60}};
    const mma::Plan plan = mma::make_plan(f16, sync(64, 64, 32, 2, 2, 3, 128), p, true);
    CHECK(!plan.a.packed);
    CHECK(plan.b.packed);  // offset 4 is not a multiple of 8 halves
    CHECK(plan.b.packed_ld == 56);
    CHECK(plan.workspace == 60 * 56 + 32);  // rounded up to 64 elements
    CHECK(plan.global[0] == 2 * 1 * 128);
    const auto options = mma::main_options(f16, sync(64, 64, 32, 2, 2, 3, 128), plan).render();
    CHECK(options.find("-DUSE_PTX=1") != std::string::npos);
    CHECK(options.find("-cl-nv-maxrregcount=128") != std::string::npos);
    const auto emulated = mma::main_options(f16, sync(64, 64, 32, 2, 2, 3, 128),
                                            mma::make_plan(f16, sync(64, 64, 32, 2, 2, 3, 128), p, false));
    CHECK(emulated.render().find("maxrregcount") == std::string::npos);
    const auto& tf32 = mma::format_info(Format::TF32);
    p.b.offset = 8, p.b.ld = 52;  // both multiples of 4 floats: read in place
    CHECK(!mma::make_plan(tf32, sync(64, 64, 16, 2, 2, 3), p, true).b.packed);
    p.a.ld = 58;  // 58 floats: not a multiple of 4
    CHECK(mma::make_plan(tf32, sync(64, 64, 16, 2, 2, 3), p, true).a.packed);
    p.k = 0;  // nothing is read: nothing packed
    CHECK(mma::make_plan(tf32, sync(64, 64, 16, 2, 2, 3), p, true).workspace == 0);
  }

  TEST_CASE("gemm_mma: the packing splits a shape class: tuning keys and timing follow the call's leading dimensions") {
    const auto& f16 = mma::format_info(Format::F16);
    const cl::Buffer* none = nullptr;
    detail::gemm::KernelProblem p{100, 60, 50, false, true, false, {none, 0, 56}, {none, 4, 50}, {none, 0, 60}};
    CHECK(mma::packed_operands(f16, p) == 2u);  // B's offset 4 is not a multiple of 8 halves
    p.a.ld = 57;
    CHECK(mma::packed_operands(f16, p) == 3u);
    p.a.ld = 0, p.b.offset = 0, p.b.ld = 0;  // no leading dimensions: the minimal ones, k = 50 and k = 50
    CHECK(mma::packed_operands(f16, p) == 3u);
    p.k = 64;
    CHECK(mma::packed_operands(f16, p) == 0u);
    p.k = 0;
    CHECK(mma::packed_operands(f16, p) == 0u);  // nothing is read
    // Shapes name their leading dimensions; the key's class gets the packing.
    const auto& op = detail::find_tunable_op("gemm_mma");
    const auto bucket = [&](const char* shape) { return op.make_subject("half", shape)->key().bucket; };
    const std::string aligned = bucket("128x120x88:TN");  // A is 88 x 128, B 88 x 120: rows on 16 bytes
    CHECK(aligned.find(":pack") == std::string::npos);
    CHECK(bucket("128x120x88:TN:lda=133") == aligned + ":pack-a");
    CHECK(bucket("128x120x88:TN:ldb=121:row") == aligned + ":pack-b");
    CHECK(bucket("128x120x85:NN") == bucket("128x120x85:NN:lda=85"));
    CHECK(bucket("128x120x85:NN").find(":pack-a") != std::string::npos);
    CHECK(detail::gemm::parse_shape("7x8x9:NT:col:lda=20:ldb=30:ldc=40").c.ld == 40);
    for (const char* bad : {"7x8x9:lda=", "7x8x9:ldd=4", "7x8x9:lda=x", "7x8x9:lda=0"})
      CHECK_THROWS_AS(detail::gemm::parse_shape(bad), Error);
    // The subject times its packing: a packed class verifies and runs through the pack on this device.
    auto subject = op.make_subject("half", "40x24x33:NN:ldb=29");
    subject->prepare(device().queue, 5);
    const Config portable = mma::ranked_configs(f16, problem_of(40, 24, 33), *device().info).back();
    CHECK(subject->verify(device().queue, portable) == "");
    CHECK(!subject->run(device().queue, portable).empty());
  }

  TEST_CASE("gemm_mma: via_float plans place the widened operands and the product on 64-float boundaries") {
    const auto& f16 = mma::format_info(Format::F16);
    const cl::Buffer* none = nullptr;
    // Row-major, B transposed: A stored 100 x 50, B stored 60 x 50, C 100 x 60.
    detail::gemm::KernelProblem p{100, 60, 50, false, true, false, {none, 3, 57}, {none, 5, 51}, {none, 0, 60}};
    const mma::Plan plan = mma::make_plan(f16, kViaFloat, p, false);
    CHECK(plan.kernel == "gemm_mma_narrow");
    CHECK(!plan.a.packed);
    CHECK(!plan.b.packed);
    CHECK(plan.wide_a.at == 0);
    CHECK(plan.wide_a.ld == 64);  // 50 columns, rows padded to 16 floats
    CHECK(plan.wide_b.at == 100 * 64);
    CHECK(plan.wide_b.ld == 64);
    CHECK(plan.sums.at == 100 * 64 + 60 * 64);
    CHECK(plan.sums.ld == 64);
    CHECK(plan.float_workspace == 100 * 64 + 60 * 64 + 100 * 64);
    CHECK(mma::workspace_fits(plan, *device().info));
    DeviceInfo small = *device().info;
    small.max_allocation_bytes = plan.float_workspace * 4 - 1;
    CHECK(!mma::workspace_fits(plan, small));
    const auto options = mma::main_options(f16, kViaFloat, plan).render();
    CHECK(options.find("-DGEMM_MMA_VARIANT=GEMM_MMA_VIA_FLOAT") != std::string::npos);
    CHECK(options.find("-DTRANS_B=0") != std::string::npos);  // one program for every orientation
    p.k = 0;                                                  // nothing is read: only the product's place
    const mma::Plan empty = mma::make_plan(f16, kViaFloat, p, false);
    CHECK(empty.float_workspace == 100 * 64);
    CHECK(empty.sums.at == 0);
  }

  TEST_CASE(
      "gemm_mma: via_float on a device whose allocations are too small for its workspace runs the portable "
      "kernel") {
    struct Restore {
      DeviceInfo& info;
      DeviceInfo saved;
      ~Restore() { info = saved; }
    } restore{const_cast<DeviceInfo&>(*device().info), *device().info};  // this process only
    restore.info.max_allocation_bytes = 4096;  // the workspace below needs about 60 KiB; the matrices fit
    Problem p;
    p.m = 57, p.n = 61, p.k = 43, p.alpha = 0.5, p.beta = -1.5, p.b_offset = 2, p.ldc_extra = 3;
    check_mma<half>(&kViaFloat, p);
  }

  TEST_CASE("gemm_mma: where the PTX does not build, it is reported once and the portable kernel computes the call") {
    // PoCL dressed as a compute-capability-9.0 GPU: the tensor-core kernel is ranked first, its PTX cannot build here.
    struct Restore {
      DeviceInfo& info;
      DeviceInfo saved;
      ~Restore() {
        info = saved;
        tuning::clear();
      }
    } restore{const_cast<DeviceInfo&>(*device().info), *device().info};  // this process only
    if (mma::uses_ptx(restore.saved)) return;  // the PTX builds here: the GPU cases above run it
    DeviceInfo& info = restore.info;
    info.nv_compute_capability = 90;
    info.device_name += " (pretending compute capability 9.0)";  // another fingerprint: its own tuning database keys
    test::ScopedEnv cache("TILECL_CACHE_DIR", test::temp_directory("mma-fallback"));
    tuning::clear();
    const std::size_t before = detail::reports_so_far().size();
    REQUIRE(mma::uses_ptx(info));
    Problem p;
    p.m = 33, p.n = 70, p.k = 41, p.alpha = 1.5, p.beta = -1.0;
    check_mma<half>(nullptr, p);
    CHECK(!mma::uses_ptx(info));
    check_mma<bfloat16>(nullptr, p);
    std::size_t ptx_reports = 0;
    for (const auto& report : detail::reports_so_far())
      if (report.subject.find("gemm-mma-ptx") == 0) ++ptx_reports;
    CHECK(ptx_reports == 1);
    CHECK(detail::reports_so_far().size() >= before + 1);
  }

  TEST_CASE("gemm_mma: random configurations, extremes included, are refused or run correctly") {
    auto random = test::random_engine("mma-space");
    for (Format format : {Format::F16}) {  // few draws: each accepted tensor-core tiling is a new emulated program
      auto subject = mma::make_subject(mma::format_info(format), problem_of(300, 200, 100));
      subject->prepare(device().queue, 1);
      const auto space = subject->search_space(*device().info);
      int accepted = 0;
      // Emulated (no PTX), each tensor-core tiling is a new program that PoCL compiles for minutes and runs slowly:
      // there the draws take the portable kernel only; the fixed cases above cover the emulated kernel's paths.
      const bool draw_sync = mma::uses_ptx(*device().info);
      for (int draw = 0; draw < 60 && accepted < 2; ++draw) {
        const auto& variant = space.variants()[draw_sync ? draw % space.variants().size() : 1];
        Config config{variant.variant, {}};
        for (const auto& parameter : variant.parameters) {
          const auto& candidates = parameter.candidates;
          switch (std::uniform_int_distribution<int>(0, 3)(random)) {
            case 0:
              config.values[parameter.name] = parameter.low - (draw % 2);
              break;
            case 1:
              config.values[parameter.name] = parameter.high + (draw % 2);
              break;
            default:
              config.values[parameter.name] =
                  candidates[std::uniform_int_distribution<std::size_t>(0, candidates.size() - 1)(random)];
          }
        }
        CAPTURE(config.to_string());
        if (!space.validate(config, *device().info).empty()) continue;
        cl::CommandQueue queue = device().queue;
        // The driver may refuse the launch itself: a large work-group under a high register cap can need more
        // registers than a compute unit has (on the H200, 512 work-items with REGISTERS=255: the compiled kernel
        // allows 256). That is a refusal by name, which the tuner records as a launch failure, not a wrong result.
        try {
          CHECK(subject->verify(queue, config) == "");
          ++accepted;
        } catch (const Error& error) {
          CHECK_MESSAGE(std::string(error.what()).find("CL_INVALID_WORK_GROUP_SIZE") != std::string::npos,
                        error.what());
        }
      }
    }
  }

  TEST_CASE("gemm_mma: the tensor-core kernel and the pack, small and ragged (also run under oclgrind)") {
    // The programs of the cases above (no new compilation in ops.gemm_mma), every operand path once.
    // The workspace, grown once to the largest size used here: the split case's larger one would otherwise read as
    // uninitialized under oclgrind where the pack wrote it (see prepare_workspace_for_oclgrind).
    test::prepare_workspace_for_oclgrind("gemm_mma", 64 * 1024);
    Problem p;
    p.m = 21, p.n = 19, p.k = 37, p.alpha = 0.5, p.beta = 0.25, p.a_offset = 1, p.ldb_extra = 1;
    for (Transpose trans : {Transpose::No, Transpose::Yes}) {
      p.trans_a = p.trans_b = trans, p.beta = trans == Transpose::No ? 0.25 : 0.0;
      const Config f16 = sync_for(Format::F16, trans), tf32 = sync_for(Format::TF32, trans);
      check_mma<half>(&f16, p);    // NN: A by rows, B K-major; TT: A K-major, B by rows (2 stages, warps along M)
      check_mma<float>(&tf32, p);  // single-word reads: NN of B, TT of A
      Config f16_in_place = f16, tf32_in_place = tf32;  // A and B read in place, C's rows off 16 bytes
      f16_in_place.values["IN_PLACE"] = tf32_in_place.values["IN_PLACE"] = 1;
      check_mma<half>(&f16_in_place, p);
      check_mma<float>(&tf32_in_place, p);
    }
    // K in 2 shares (37 = 2 tiles of 32): the partial sums and gemm_mma_split_sum.
    Config shared = sync_for(Format::F16, Transpose::No);
    shared.values["SPLIT_K"] = 2;
    p.trans_a = p.trans_b = Transpose::No, p.beta = 0.25;
    check_mma<half>(&shared, p);
  }

  TEST_CASE(
      "gemm_mma: threads calling half and bfloat16 gemm at once, through first-use tuning of every nested op, "
      "get right answers") {
    // via_float's enqueue resolves float gemm (or gemv) inside its own call: each thread's memo entries nest, and
    // the keys are tuned while other threads wait for the same keys.
    const test::ScopedEnv cache("TILECL_CACHE_DIR", test::temp_directory("mma-threads"));
    const test::ScopedEnv tune("TILECL_TUNE", "first-use");
    const test::ScopedEnv budget("TILECL_TUNE_BUDGET_MS", "50");
    tuning::clear();
    const std::vector<std::array<std::size_t, 3>> shapes{{40, 50, 60}, {3, 70, 90}, {65, 33, 47}, {70, 2, 80}};
    std::vector<std::thread> threads;
    for (std::size_t t = 0; t < 4; ++t)
      threads.emplace_back([&shapes, t] {
        for (std::size_t round = 0; round < 2; ++round) {
          const auto& shape = shapes[(t + round) % shapes.size()];
          Problem p;
          p.m = shape[0], p.n = shape[1], p.k = shape[2], p.alpha = 0.5, p.beta = t % 2 == 0 ? 0.0 : 1.5;
          p.c_offset = t, p.trans_b = round == 0 ? Transpose::No : Transpose::Yes;
          if (t < 2)
            check_mma<half>(nullptr, p);
          else
            check_mma<bfloat16>(nullptr, p);
        }
      });
    for (auto& thread : threads) thread.join();
    tuning::clear();
  }

  TEST_CASE("gemm_mma: via_float's widen and narrow kernels, small and ragged (also run under oclgrind)") {
    const test::ScopedEnv no_tuning("TILECL_TUNE", "off");  // the float gemm's default: no tuning on the simulator
    Problem p;
    p.m = 11, p.n = 13, p.k = 7, p.alpha = 1.5, p.beta = 0.5, p.a_offset = 1, p.c_offset = 2, p.ldb_extra = 3;
    p.trans_a = Transpose::Yes;
    check_mma<half>(&kViaFloat, p);
    p.beta = 0.0, p.layout = Layout::ColMajor;  // C not read: NaN there must not reach the result
    check_mma<bfloat16>(&kViaFloat, p);
  }

  TEST_CASE("gemm_mma: the portable kernel, small and ragged (also run under oclgrind)") {
    Problem p;
    p.m = 13, p.n = 11, p.k = 9, p.alpha = -1.0, p.beta = 0.5, p.c_offset = 2, p.layout = Layout::ColMajor;
    const Config config = portable(2, 4, 4, 2);
    check_mma<bfloat16>(&config, p);
  }
}
