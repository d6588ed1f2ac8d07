#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <set>
#include <thread>

#include "checks.hpp"
#include "ops/gemm.hpp"
#include "ops/gemm/shapes.hpp"
#include "ops/gemm/variants.hpp"
#include "program_cache.hpp"
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
using tilecl::test::device;

namespace {

constexpr std::size_t kGuard = 11;     // elements after each matrix
constexpr double kSentinel = 12345.0;  // C outside the matrix: must survive bit for bit

using Problem = test::GemmProblem;
using test::ref_layout;
using test::ref_trans;

// A stored matrix with its offset and a guard: random inside, `outside` everywhere else (offset, row padding,
// guard), so a kernel that reads outside the matrix and lets it reach C shows NaN.
template <typename T>
std::vector<T> make_matrix(reference::Layout layout, reference::Extent extent, std::size_t offset, std::size_t ld,
                           T outside, std::mt19937_64& random, bool inside_nan = false) {
  const auto inside = test::random_vector<T>(extent.rows * extent.cols, random);
  return test::stored_matrix<T>(layout, extent, offset, ld, kGuard, outside, [&](std::size_t r, std::size_t c) {
    return inside_nan ? std::numeric_limits<T>::quiet_NaN() : inside[r * extent.cols + c];
  });
}

// Runs the problem (through `config`, or the public API when null) and checks every element of C: within the
// rounding bound of a k-term sum inside the matrix, the sentinel bit for bit outside.
template <typename T>
void check_gemm(const Config* config, const Problem& p) {
  CAPTURE(p.describe());
  auto random = test::random_engine("gemm" + p.describe());
  const auto layout = ref_layout(p.layout);
  const auto ta = ref_trans(p.trans_a), tb = ref_trans(p.trans_b);
  const auto a_extent = reference::stored_extent(ta, p.m, p.k), b_extent = reference::stored_extent(tb, p.k, p.n);
  const reference::Extent c_extent{p.m, p.n};
  const std::size_t lda = reference::min_ld(layout, a_extent) + p.lda_extra;
  const std::size_t ldb = reference::min_ld(layout, b_extent) + p.ldb_extra;
  const std::size_t ldc = reference::min_ld(layout, c_extent) + p.ldc_extra;
  const T nan = std::numeric_limits<T>::quiet_NaN();
  // alpha == 0: A and B are NaN throughout and must not be read.
  const bool alpha_zero = p.alpha == 0.0;
  auto a = make_matrix<T>(layout, a_extent, p.a_offset, lda, nan, random, alpha_zero);
  auto b = make_matrix<T>(layout, b_extent, p.b_offset, ldb, nan, random, alpha_zero);
  auto c = make_matrix<T>(layout, c_extent, p.c_offset, ldc, T(kSentinel), random);
  std::vector<T> c_start = c;
  // beta == 0: C is not read, so NaN inside it must not reach the result.
  if (p.beta == 0.0)
    for (std::size_t r = 0; r < p.m; ++r)
      for (std::size_t j = 0; j < p.n; ++j) c_start[p.c_offset + reference::matrix_index(layout, r, j, ldc)] = nan;

  std::vector<T> want = c;
  std::vector<double> magnitude;
  if (alpha_zero) {
    for (std::size_t r = 0; r < p.m; ++r)
      for (std::size_t j = 0; j < p.n; ++j) {
        auto& value = want[p.c_offset + reference::matrix_index(layout, r, j, ldc)];
        value = p.beta == 0.0 ? T(0) : T(p.beta * static_cast<double>(value));
      }
    magnitude.assign(reference::required_elements(layout, c_extent, ldc), 0.0);
    for (std::size_t r = 0; r < p.m; ++r)
      for (std::size_t j = 0; j < p.n; ++j) {
        const std::size_t at = reference::matrix_index(layout, r, j, ldc);
        magnitude[at] = std::abs(p.beta * static_cast<double>(c[p.c_offset + at]));
      }
  } else {
    reference::gemm(layout, ta, tb, p.m, p.n, p.k, p.alpha, a.data() + p.a_offset, lda, b.data() + p.b_offset, ldb,
                    p.beta, want.data() + p.c_offset, ldc, &magnitude);
  }

  cl::Buffer a_buffer = test::to_device(a), b_buffer = test::to_device(b);
  test::GuardedBuffer<T> c_buffer(c_start);
  const std::size_t c_at = c_buffer.offset() + p.c_offset;
  const T alpha = static_cast<T>(p.alpha), beta = static_cast<T>(p.beta);
  cl::Event done;
  if (config != nullptr)
    done = detail::gemm_with<T>(*config, device().queue, p.layout, p.trans_a, p.trans_b, p.m, p.n, p.k, alpha, a_buffer,
                                p.a_offset, lda, b_buffer, p.b_offset, ldb, beta, c_buffer.buffer(), c_at, ldc);
  else
    done = gemm<T>(device().queue, p.layout, p.trans_a, p.trans_b, p.m, p.n, p.k, alpha, a_buffer, p.a_offset, lda,
                   b_buffer, p.b_offset, ldb, beta, c_buffer.buffer(), c_at, ldc);
  REQUIRE(done() != nullptr);
  done.wait();
  const auto got = c_buffer.read();
  c_buffer.check_guards("C");

  std::vector<bool> in_c(c.size(), false);
  for (std::size_t r = 0; r < p.m; ++r)
    for (std::size_t j = 0; j < p.n; ++j) in_c[p.c_offset + reference::matrix_index(layout, r, j, ldc)] = true;
  std::size_t bad = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    const bool inside = in_c[i];
    bool ok;
    if (!inside) {
      ok = got[i] == want[i] || (std::isnan(got[i]) && std::isnan(want[i]));
    } else {
      const double bound = reference::gemm_tolerance<T>(p.k, magnitude[i - p.c_offset]);
      ok = std::abs(static_cast<double>(got[i]) - static_cast<double>(want[i])) <=
           bound + 2 * std::numeric_limits<T>::epsilon() * std::abs(static_cast<double>(want[i]));
    }
    if (!ok && bad++ < 5)
      FAIL_CHECK("C element " << i << " is " << got[i] << ", expected " << want[i] << (inside ? "" : " (outside C)"));
  }
  CHECK_MESSAGE(bad == 0, bad << " of " << got.size() << " elements of C differ");
}

// The eight (layout, transposes) combinations.
std::vector<Problem> every_orientation(Problem base) {
  std::vector<Problem> all;
  for (Layout layout : {Layout::RowMajor, Layout::ColMajor})
    for (Transpose ta : {Transpose::No, Transpose::Yes})
      for (Transpose tb : {Transpose::No, Transpose::Yes}) {
        Problem p = base;
        p.layout = layout;
        p.trans_a = ta;
        p.trans_b = tb;
        all.push_back(p);
      }
  return all;
}

Config regblock(std::int64_t tile_m, std::int64_t tile_n, std::int64_t tile_k, std::int64_t wpt_m, std::int64_t wpt_n,
                std::int64_t vec, std::int64_t pad, std::int64_t double_buffer, std::int64_t prefetch,
                std::int64_t warp_n = 0, std::int64_t split = 1, std::int64_t pack = 0) {
  return {"regblock",
          {{"TILE_M", tile_m},
           {"TILE_N", tile_n},
           {"TILE_K", tile_k},
           {"WPT_M", wpt_m},
           {"WPT_N", wpt_n},
           {"VEC", vec},
           {"PAD", pad},
           {"USE_DOUBLE_BUFFER", double_buffer},
           {"USE_PREFETCH", prefetch},
           {"WARP_N", warp_n},
           {"SPLIT", split},
           {"PACK", pack}}};
}
Config cpu(std::int64_t wpt_m, std::int64_t wpt_n, std::int64_t vec, std::int64_t packed, std::int64_t wg_x,
           std::int64_t wg_y, std::int64_t k_block = 0) {
  return {"cpu",
          {{"WPT_M", wpt_m},
           {"WPT_N", wpt_n},
           {"VEC", vec},
           {"USE_PACKED_B", packed},
           {"K_BLOCK", k_block},
           {"WG_X", wg_x},
           {"WG_Y", wg_y}}};
}
Config skinny_m(std::int64_t wpt_m, std::int64_t vec, std::int64_t wg_x, std::int64_t wg_y, std::int64_t split) {
  return {"skinny_m", {{"WPT_M", wpt_m}, {"VEC", vec}, {"WG_X", wg_x}, {"WG_Y", wg_y}, {"SPLIT", split}}};
}
Config skinny_n(std::int64_t wpt_m, std::int64_t wpt_n, std::int64_t vec, std::int64_t wg_x, std::int64_t wg_y,
                std::int64_t split) {
  return {"skinny_n",
          {{"WPT_M", wpt_m}, {"WPT_N", wpt_n}, {"VEC", vec}, {"WG_X", wg_x}, {"WG_Y", wg_y}, {"SPLIT", split}}};
}
Config tiled(std::int64_t tile, std::int64_t pad) { return {"tiled", {{"TILE", tile}, {"PAD", pad}}}; }
Config gemv_config(std::int64_t vec, std::int64_t wpt, std::int64_t wg_x, std::int64_t wg_y, std::int64_t unroll,
                   std::int64_t split) {
  return {"gemv", {{"VEC", vec}, {"WPT", wpt}, {"WG_X", wg_x}, {"WG_Y", wg_y}, {"UNROLL", unroll}, {"SPLIT", split}}};
}
Config naive(std::int64_t wg_x, std::int64_t wg_y) { return {"naive", {{"WG_X", wg_x}, {"WG_Y", wg_y}}}; }

// One GPU-shaped (small-tile) setting per variant: these run in every orientation. PoCL compiles each program
// (configuration x transposes) for about a second, so the other tests reuse these programs where they can
// (SPLIT is a launch parameter: the split-K tests share the programs).
Config regblock_small(std::int64_t split = 1) { return regblock(16, 16, 8, 4, 4, 4, 0, 1, 0, 0, split); }
Config cpu_small() { return cpu(4, 16, 8, 1, 1, 8); }
Config skinny_m_small(std::int64_t split = 2) { return skinny_m(2, 4, 16, 4, split); }
Config skinny_n_small(std::int64_t split = 2) { return skinny_n(2, 2, 4, 16, 4, split); }
std::vector<Config> one_per_variant() {
  return {naive(8, 4), tiled(8, 1), regblock_small(), cpu_small(), skinny_m_small(), skinny_n_small()};
}

// Further valid settings of each variant: vector widths 1, 2, 4, 8, 16, padding, prefetch / double buffer /
// neither, warp layout, odd work per item, packed and unpacked B, driver-chosen work-groups, K in blocks with
// barriers (K_BLOCK: blocks that do and do not divide K, work-items past M and past N taking part).
std::vector<Config> more_settings() {
  return {naive(0, 0),
          naive(16, 16),
          tiled(16, 0),
          tiled(4, 1),
          regblock(16, 16, 8, 4, 4, 4, 1, 0, 1, 0, 1, 1),
          regblock(32, 32, 16, 4, 4, 2, 1, 0, 0, 4),
          regblock(16, 16, 4, 2, 2, 1, 1, 1, 0),
          regblock(32, 32, 8, 8, 8, 8, 0, 1, 0, 0, 1, 1),
          cpu(3, 32, 16, 0, 0, 0, 7),
          cpu(2, 8, 4, 0, 8, 1, 37),
          cpu(2, 8, 4, 1, 8, 2, 5),
          cpu(1, 4, 1, 1, 1, 8, 16),
          skinny_m(1, 4, 32, 8, 1),
          skinny_m(3, 8, 16, 2, 1),
          skinny_n(1, 1, 4, 32, 8, 1),
          skinny_n(1, 4, 1, 16, 2, 1)};
}

template <typename Call>
void expect_error(Call&& call, const std::string& argument, const std::string& status) {
  try {
    call();
    FAIL("expected tilecl::Error for " << argument);
  } catch (const Error& error) {
    CHECK(error.argument() == argument);
    CHECK(error.status_name() == status);
    CHECK(std::string(error.what()).find("tilecl::gemm") == 0);
  }
}

}  // namespace

TEST_SUITE("ops.gemm") {
  TEST_CASE("gemm: every variant matches the host reference in both layouts and all four transpose pairs") {
    Problem base;
    base.m = 37, base.n = 29, base.k = 19, base.alpha = -1.25, base.beta = 0.5;
    base.a_offset = 3, base.b_offset = 1, base.c_offset = 5, base.lda_extra = 2, base.ldb_extra = 5, base.ldc_extra = 3;
    for (const auto& config : one_per_variant()) {
      CAPTURE(config.to_string());
      for (const auto& p : every_orientation(base)) check_gemm<float>(&config, p);
    }
  }

  TEST_CASE("gemm: several settings of each variant at sizes that are not multiples of any tile") {
    Problem square;
    square.m = 67, square.n = 45, square.k = 37, square.alpha = 0.75, square.beta = 0.0, square.c_offset = 2;
    square.lda_extra = 1;
    // Column-major with m and n swapped: the same row-major program as the first, with other offsets and lds.
    Problem column = square;
    column.layout = Layout::ColMajor, column.m = 45, column.n = 67, column.beta = -1.0, column.b_offset = 4;
    column.lda_extra = 0, column.ldc_extra = 3;
    for (const auto& config : more_settings()) {
      CAPTURE(config.to_string());
      check_gemm<float>(&config, square);
      check_gemm<float>(&config, column);
    }
  }

  TEST_CASE("gemm: edge sizes: 1x1x1, primes, k = 1, one row, one column, skinny and wide") {
    const std::vector<std::array<std::size_t, 3>> shapes{{1, 1, 1},   {7, 5, 3},    {13, 11, 1},  {1, 70, 33},
                                                         {70, 1, 33}, {3, 130, 70}, {130, 3, 70}, {2, 2, 131}};
    for (const auto& config : one_per_variant()) {
      CAPTURE(config.to_string());
      for (const auto& shape : shapes) {
        Problem p;
        p.m = shape[0], p.n = shape[1], p.k = shape[2], p.alpha = 1.5, p.beta = -0.25, p.c_offset = 1;
        p.trans_b = shape[0] % 2 ? Transpose::No : Transpose::Yes;
        check_gemm<float>(&config, p);
      }
    }
  }

  TEST_CASE("gemm: alpha and beta: beta = 0 over NaN, beta = 1, alpha = 0 never reads A or B, k = 0 scales C") {
    const std::vector<std::pair<double, double>> scalars{{1.0, 0.0}, {1.0, 1.0}, {-2.0, 0.5}, {0.0, 0.0}, {0.0, -3.0}};
    for (const auto& config : {regblock_small(4), cpu_small(), tiled(8, 1), skinny_m_small()}) {
      CAPTURE(config.to_string());
      for (const auto& [alpha, beta] : scalars) {
        Problem p;
        p.m = 23, p.n = 31, p.k = 300, p.alpha = alpha, p.beta = beta, p.c_offset = 3, p.ldc_extra = 4;
        check_gemm<float>(&config, p);
      }
      for (double beta : {0.0, 0.5}) {
        Problem empty_k;
        empty_k.m = 9, empty_k.n = 14, empty_k.k = 0, empty_k.alpha = 2.0, empty_k.beta = beta;
        empty_k.layout = Layout::ColMajor, empty_k.c_offset = 2, empty_k.ldc_extra = 1;
        check_gemm<float>(&config, empty_k);
      }
    }
    Problem public_k0;
    public_k0.m = 5, public_k0.n = 6, public_k0.k = 0, public_k0.beta = -1.5;
    check_gemm<float>(nullptr, public_k0);
  }

  TEST_CASE("gemm: the gemv variant (m or n of 1..8) in both layouts, all transposes, awkward sizes, alpha and beta") {
    // A GPU-shaped setting (work-groups reduce in local memory) and a CPU-shaped one (one work-item per row or
    // strip); both forms of the kernels (dots, columns) come up across the orientations.
    for (const auto& config : {gemv_config(4, 1, 8, 4, 2, 4), gemv_config(2, 2, 1, 4, 1, 16)}) {
      CAPTURE(config.to_string());
      for (const auto& [m, n] : std::vector<std::pair<std::size_t, std::size_t>>{{3, 41}, {41, 3}}) {
        Problem base;
        base.m = m, base.n = n, base.k = 29, base.alpha = -1.25, base.beta = 0.5;
        base.a_offset = 3, base.b_offset = 1, base.c_offset = 5, base.lda_extra = 2, base.ldc_extra = 3;
        for (const auto& p : every_orientation(base)) check_gemm<float>(&config, p);
      }
    }
    // Each count of vectors from 1 to 8 on one side, k prime; beta = 0 over NaN; a depth long enough to split.
    const Config one = gemv_config(4, 1, 8, 4, 2, 4);
    for (std::size_t vectors = 1; vectors <= 8; ++vectors) {
      Problem p;
      p.m = vectors, p.n = 53, p.k = 31, p.alpha = 0.75, p.beta = vectors % 2 ? 0.0 : -1.0, p.b_offset = 2;
      p.ldb_extra = vectors % 3;
      check_gemm<float>(&one, p);
      p.layout = Layout::ColMajor, p.m = 67, p.n = vectors, p.trans_a = Transpose::Yes, p.beta = 0.0;
      check_gemm<float>(&one, p);
    }
    for (const auto& [alpha, beta] : std::vector<std::pair<double, double>>{{1.0, 0.0}, {1.0, 1.0}, {0.0, -3.0}}) {
      Problem p;
      p.m = 2, p.n = 37, p.k = 1031, p.alpha = alpha, p.beta = beta, p.c_offset = 3, p.ldc_extra = 4;
      check_gemm<float>(&one, p);
      p.trans_b = Transpose::Yes, p.layout = Layout::ColMajor;
      check_gemm<float>(&one, p);
    }
  }

  TEST_CASE("gemm: split K over work-groups adds every slice once, in both orientations of the skinny kernels") {
    for (const auto& config :
         {regblock_small(4), regblock(16, 16, 4, 2, 2, 1, 1, 1, 0, 0, 16), skinny_m_small(8), skinny_n_small(4)}) {
      CAPTURE(config.to_string());
      for (const auto& shape : std::vector<std::array<std::size_t, 3>>{{20, 27, 700}, {3, 50, 1031}, {50, 3, 1031}}) {
        Problem p;
        p.m = shape[0], p.n = shape[1], p.k = shape[2], p.alpha = 0.5, p.beta = 2.0, p.a_offset = 1;
        check_gemm<float>(&config, p);
        p.layout = Layout::ColMajor, p.trans_a = Transpose::Yes, p.beta = 0.0;
        check_gemm<float>(&config, p);
      }
    }
  }

  TEST_CASE("gemm: each bucket's default configuration (this device's and an H200-like GPU's) is correct here") {
    DeviceInfo gpu = *device().info;
    gpu.type = CL_DEVICE_TYPE_GPU, gpu.local_memory_is_dedicated = true, gpu.compute_units = 132;
    gpu.local_memory_bytes = std::min<std::uint64_t>(49152, device().info->local_memory_bytes);
    std::set<std::string> done;
    for (const auto& bucket : detail::gemm_buckets()) {
      CAPTURE(bucket);
      for (const DeviceInfo* info : {device().info, static_cast<const DeviceInfo*>(&gpu)}) {
        const Config config = detail::gemm_default_config(detail::dtype_of<float>(), bucket, *info);
        CAPTURE(config.to_string());
        if (!done.insert(config.to_string() + bucket.substr(bucket.find('-') + 1)).second) continue;
        Problem p;
        p.m = 45, p.n = 38, p.k = 300, p.alpha = 1.0, p.beta = 0.25, p.a_offset = 2;
        if (bucket.find("rows") != std::string::npos) p.m = 3;
        if (bucket.find("dots") != std::string::npos) p.n = 3;
        check_gemm<float>(&config, p);
      }
    }
  }

  TEST_CASE("gemm: the bench sweep's shapes, scaled down (seeds 1-4): this device's choice and an H200-like GPU's") {
    // The same random streams as `tilecl bench --sweep` (bench/sweeps/shapes.hpp) with sides of at most 80: the
    // sweep's mix of transposes, layouts, padded leading dimensions and aspect ratios, each through the public
    // API and through the default configuration an H200-like GPU gives the shape's category.
    DeviceInfo gpu = *device().info;
    gpu.type = CL_DEVICE_TYPE_GPU, gpu.local_memory_is_dedicated = true, gpu.compute_units = 132;
    gpu.local_memory_bytes = std::min<std::uint64_t>(49152, device().info->local_memory_bytes);
    for (std::uint64_t seed = 1; seed <= 4; ++seed)
      for (const bool fp64 : {false, true}) {
        if (fp64 && !device().info->fp64) continue;
        auto random = bench::sweeps::sweep_random(seed, "gemm", fp64 ? "double" : "float");
        for (int shape = 0; shape < (fp64 ? 4 : 10); ++shape) {
          const auto s = bench::sweeps::draw_gemm_shape(random, 80);
          CAPTURE(seed);
          CAPTURE(s.text());
          Problem p = test::sweep_problem(s);
          p.alpha = 1.25, p.beta = shape % 2 == 0 ? 0.0 : 0.5, p.c_offset = static_cast<std::size_t>(shape % 3);
          const Config gpu_choice =
              detail::gemm_default_config(fp64 ? detail::dtype_of<double>() : detail::dtype_of<float>(),
                                          detail::gemm_bucket(p.layout, p.trans_a, p.trans_b, p.m, p.n, p.k), gpu);
          if (fp64) {
            check_gemm<double>(nullptr, p);
            check_gemm<double>(&gpu_choice, p);
          } else {
            check_gemm<float>(nullptr, p);
            check_gemm<float>(&gpu_choice, p);
          }
        }
      }
  }

  TEST_CASE("gemm: the public API with its own parameters, float and double, in several buckets") {
    // small, skinny-rows (1 x 2100 x 1100), gemv-dots (2100 x 3 x 400), medium (130^3), deep (40 x 40 x 2100)
    const std::vector<std::array<std::size_t, 3>> shapes{
        {17, 19, 23}, {1, 2100, 1100}, {2100, 3, 400}, {130, 130, 130}, {40, 40, 2100}};
    for (const auto& shape : shapes) {
      Problem p;
      p.m = shape[0], p.n = shape[1], p.k = shape[2], p.alpha = 1.25, p.beta = 0.5, p.b_offset = 3;
      CAPTURE(detail::gemm_bucket(p.layout, p.trans_a, p.trans_b, p.m, p.n, p.k));
      check_gemm<float>(nullptr, p);
      if (device().info->fp64 && (shape[2] == 23 || shape[2] == 130)) {
        p.layout = Layout::ColMajor, p.trans_b = Transpose::Yes;
        check_gemm<double>(nullptr, p);
      }
    }
  }

  TEST_CASE("gemm: double through every variant") {
    if (!device().info->fp64) return;  // the refusal is tested below
    Problem p;
    p.m = 21, p.n = 34, p.k = 300, p.alpha = -0.5, p.beta = 1.5, p.a_offset = 1, p.ldb_extra = 3;
    for (const auto& config :
         {tiled(8, 1), regblock(16, 16, 8, 4, 4, 2, 0, 1, 0, 0, 2), regblock(16, 16, 4, 2, 2, 1, 1, 1, 0), cpu_small(),
          skinny_m(2, 2, 16, 4, 2), skinny_n(2, 2, 2, 16, 4, 2)}) {
      CAPTURE(config.to_string());
      check_gemm<double>(&config, p);
      Problem column = p;  // the same program
      column.layout = Layout::ColMajor, column.m = 34, column.n = 21, column.c_offset = 2, column.beta = 0.0;
      check_gemm<double>(&config, column);
    }
  }

  TEST_CASE("gemm: m = 0 or n = 0 enqueues nothing and returns a null event") {
    cl::Buffer tiny(device().context, CL_MEM_READ_WRITE, 4);
    CHECK(gemm<float>(device().queue, Layout::RowMajor, Transpose::No, Transpose::No, 0, 5, 5, 1.0f, tiny, 1000, 1,
                      tiny, 1000, 5, 0.0f, tiny, 1000, 5)() == nullptr);
    CHECK(gemm<float>(device().queue, Layout::ColMajor, Transpose::No, Transpose::No, 5, 0, 5, 1.0f, tiny, 0, 5, tiny,
                      0, 5, 0.0f, tiny, 0, 5)() == nullptr);
    cl::CommandQueue no_queue;
    CHECK(detail::gemm_with<float>(naive(8, 4), no_queue, Layout::RowMajor, Transpose::No, Transpose::No, 0, 0, 0, 1.0f,
                                   tiny, 0, 0, tiny, 0, 0, 0.0f, tiny, 0, 0)() == nullptr);
  }

  TEST_CASE("gemm: shape buckets") {
    auto bucket = [](std::size_t m, std::size_t n, std::size_t k, Transpose ta = Transpose::No,
                     Transpose tb = Transpose::No,
                     Layout layout = Layout::RowMajor) { return detail::gemm_bucket(layout, ta, tb, m, n, k); };
    CHECK(bucket(127, 127, 127) == "small");
    CHECK(bucket(1, 1, 1) == "small");
    CHECK(bucket(5000, 5000, 0) == "small");
    CHECK(bucket(1, 4096, 4096) == "gemv-rows");
    CHECK(bucket(4096, 1, 4096) == "gemv-dots");
    CHECK(bucket(1, 4096, 4096, Transpose::No, Transpose::Yes) == "gemv-dots");
    CHECK(bucket(4096, 1, 4096, Transpose::Yes) == "gemv-rows");
    // Column-major y = A x (A m x k not transposed) reads A along its columns: rows.
    CHECK(bucket(4096, 1, 4096, Transpose::No, Transpose::No, Layout::ColMajor) == "gemv-rows");
    CHECK(bucket(8, 4096, 4096) == "gemv-rows");  // the gemv variant's categories: m or n of 1..8
    CHECK(bucket(4096, 8, 4096) == "gemv-dots");
    CHECK(bucket(9, 4096, 4096) == "skinny-rows");
    CHECK(bucket(16, 4096, 4096) == "skinny-rows");
    CHECK(bucket(4096, 16, 4096) == "skinny-dots");
    CHECK(bucket(8192, 8192, 64) == "shallow");
    CHECK(bucket(8192, 64, 8192) == "deep");
    CHECK(bucket(64, 8192, 8192) == "deep");
    CHECK(bucket(1000, 1000, 1000) == "medium");
    CHECK(bucket(1024, 1024, 1024) == "medium");
    CHECK(bucket(4096, 4096, 4096) == "large");
    CHECK(bucket(4097, 4097, 4097) == "large");
    CHECK(bucket(8192, 8192, 8192) == "large");
    // `tilecl tune` knows one shape per category; each tunes a class of its category, timed at the shape itself
    // unless it is larger than what tuning times (then at the shape halved along its longest side).
    const auto& op = detail::find_tunable_op("gemm");
    CHECK(op.description.default_shapes.size() == detail::gemm_buckets().size());
    for (const auto& shape : op.description.default_shapes) {
      auto subject = op.make_subject("float", shape);
      const auto sizes = detail::parse_dimensions("gemm", shape, 3);
      CHECK(subject->key().bucket.rfind(bucket(sizes[0], sizes[1], sizes[2]) + ":", 0) == 0);
      if (sizes[0] * sizes[1] * sizes[2] <= (std::uint64_t{1} << 33)) CHECK(subject->timing_shape() == shape);
    }
    CHECK(op.make_subject("float", "4000x3000x2000")->timing_shape() == "2000x1500x2000");
    CHECK(op.make_subject("float", "1x4096x4096:NT")->key().bucket == "gemv-dots:m0n12k12:NT");
    // Small products with m or n of 1..8 are a class of their own (their choice may be the gemv variant), apart
    // from those with both sides above 8 even where the size bins agree (8 and 9..15 share one).
    CHECK(op.make_subject("float", "167x5x848")->key().bucket == "small-narrow:m6n2k8:NN");
    CHECK(op.make_subject("float", "167x8x848")->key().bucket == "small-narrow:m6n2k8:NN");
    CHECK(op.make_subject("float", "167x9x848")->key().bucket == "small:m6n2k8:NN");
    CHECK(op.make_subject("float", "3x3x3")->key().bucket == "small-narrow:m0n0k0:NN");
    CHECK(op.make_subject("double", "4096x1x4096:NN:col")->key().bucket == "gemv-rows:m0n12k12:NN");
    // Sizes in steps of a power of four: 1000 and 1023 share a class, 1024 starts the next.
    CHECK(op.make_subject("float", "1000x1000x1000")->key().bucket ==
          op.make_subject("float", "1023x700x600")->key().bucket);
    CHECK(op.make_subject("float", "1000x1000x1000")->key().bucket !=
          op.make_subject("float", "1024x1000x1000")->key().bucket);
    expect_error([&] { op.make_subject("float", "1x2x3:XY"); }, "shape", "CL_INVALID_VALUE");
    expect_error([&] { op.make_subject("float", "1x2"); }, "shape", "CL_INVALID_VALUE");
    expect_error([&] { op.make_subject("int32", "1x2x3"); }, "dtype", "CL_INVALID_VALUE");
  }

  TEST_CASE("gemm: defaults follow the device: H200-like GPU, small GPU, CPU; each is valid and first in its space") {
    DeviceInfo h200 = *device().info;
    h200.type = CL_DEVICE_TYPE_GPU, h200.local_memory_bytes = 49152, h200.local_memory_is_dedicated = true;
    h200.max_work_group_size = 1024, h200.max_work_item_sizes = {1024, 1024, 64}, h200.compute_units = 132;
    const auto& f32 = detail::dtype_of<float>();
    const auto& f64 = detail::dtype_of<double>();
    auto value = [](const Config& config, const char* name) { return config.value(name); };
    Config large = detail::gemm_default_config(f32, "large", h200);
    CHECK(large.variant == "regblock");
    CHECK(value(large, "TILE_M") == 128);
    CHECK(value(large, "TILE_N") == 128);
    CHECK(value(large, "TILE_K") == 16);
    CHECK(value(large, "WPT_M") == 8);
    CHECK(value(large, "VEC") == 4);
    CHECK(value(large, "USE_PREFETCH") == 1);
    CHECK(value(detail::gemm_default_config(f64, "large", h200), "VEC") == 2);
    // Few output tiles against a long K: the model splits K so the 132 compute units have work.
    CHECK(value(detail::gemm_default_config(f32, "deep", h200), "SPLIT") >= 4);
    CHECK(detail::gemm_default_config(f32, "medium", h200).variant == "regblock");
    // m or n of 1..8 on a GPU: the gemv kernels (the large operand read once for every vector).
    Config gemv_rows = detail::gemm_default_config(f32, "gemv-rows", h200);
    CHECK(gemv_rows.variant == "gemv");
    CHECK(value(gemv_rows, "SPLIT") == 16);
    CHECK(detail::gemm_default_config(f32, "gemv-dots", h200).variant == "gemv");
    // 9..32 rows or columns: the tiled kernel in K slices first, the skinny kernels next (first use times both).
    for (const char* category : {"skinny-rows", "skinny-dots"}) {
      CAPTURE(category);
      const Config skinny_default = detail::gemm_default_config(f32, category, h200);
      CHECK(skinny_default.variant == "regblock");
      const auto p = detail::gemm::row_major(
          detail::gemm::parse_shape(std::string(category) == "skinny-rows" ? "16x4096x4096" : "2750x26x4733"));
      const auto ranked = detail::gemm::ranked_configs(f32, p, h200);
      REQUIRE(ranked.size() >= 4);
      CHECK(ranked[0].variant == "regblock");
      CHECK(ranked[0].value("SPLIT") >= 4);  // the K slices give the 132 compute units work
      CHECK(ranked[1].variant.rfind("skinny_", 0) == 0);
      CHECK(ranked[2].variant == "regblock");
      CHECK(ranked[3].variant.rfind("skinny_", 0) == 0);
    }
    // A GPU with 16 KiB of local memory and 256 work-items: the 128 x 128 tile does not fit.
    DeviceInfo small_gpu = h200;
    small_gpu.local_memory_bytes = 16384, small_gpu.max_work_group_size = 256;
    small_gpu.max_work_item_sizes = {256, 256, 64};
    Config fallback = detail::gemm_default_config(f32, "large", small_gpu);
    CHECK(fallback.variant == "regblock");
    CHECK(value(fallback, "TILE_M") * value(fallback, "TILE_N") /
              (value(fallback, "WPT_M") * value(fallback, "WPT_N")) <=
          256);
    // A CPU: the kernel without local memory, one SIMD register per vector.
    DeviceInfo cpu_device = *device().info;
    cpu_device.type = CL_DEVICE_TYPE_CPU, cpu_device.native_vector_width_float = 16,
    cpu_device.native_vector_width_double = 8;
    Config on_cpu = detail::gemm_default_config(f32, "large", cpu_device);
    CHECK(on_cpu.variant == "cpu");
    CHECK(value(on_cpu, "VEC") == 16);
    CHECK(value(on_cpu, "WPT_N") == 64);
    CHECK(value(on_cpu, "USE_PACKED_B") == 1);
    CHECK(value(on_cpu, "K_BLOCK") == 0);
    // A long K against a small C: B in place; the bucket's representative shape (8192 x 64 x 8192) reads one panel
    // of dense rows of B: no K blocks.
    const Config deep = detail::gemm_default_config(f32, "deep", cpu_device);
    CHECK(value(deep, "USE_PACKED_B") == 0);
    CHECK(value(deep, "K_BLOCK") == 0);
    // At a call's shape: blocks where the columns a group shares are sparse rows of a wide B too long for L2, none
    // where B's rows are dense; first-use tuning times the other form second and packed panels third.
    auto ranked_at = [&](std::uint64_t m, std::uint64_t n, std::uint64_t k) {
      return detail::gemm::ranked_configs(f32, {m, n, k, false, false, false, {}, {}, {}}, cpu_device);
    };
    for (const auto& [shape, blocks] : std::vector<std::pair<std::array<std::uint64_t, 3>, std::int64_t>>{
             {{192, 192, 8192}, 128}, {{64, 2048, 4096}, 128}, {{40, 40, 20000}, 0}, {{128, 128, 2048}, 0}}) {
      const auto ranked = ranked_at(shape[0], shape[1], shape[2]);
      REQUIRE(ranked.size() >= 3);
      CHECK(ranked[0].variant == "cpu");
      CHECK(value(ranked[0], "K_BLOCK") == blocks);
      CHECK(ranked[1].variant == "cpu");
      CHECK(value(ranked[1], "K_BLOCK") == (blocks == 0 ? 128 : 0));
      CHECK(value(ranked[2], "USE_PACKED_B") == 1);  // then packed panels
    }
    CHECK(value(ranked_at(1000, 1000, 1000).front(), "K_BLOCK") == 0);  // medium: packed panels, no blocks
    CHECK(value(detail::gemm_default_config(f64, "large", cpu_device), "VEC") == 8);
    // m or n of 1..8 on a CPU too: the gemv kernels (PoCL: 1.1-14x faster than the CPU and skinny kernels).
    CHECK(detail::gemm_default_config(f32, "gemv-rows", cpu_device).variant == "gemv");
    CHECK(detail::gemm_default_config(f32, "gemv-dots", cpu_device).variant == "gemv");
    // Small products with m or n of 1..8 (a long K, often): the gemv variant first on CPUs, second on GPUs (first
    // use times it beside the small kernels); never where both sides are above 8 or K is 0.
    for (const auto& [m, n, k] : std::vector<std::array<std::uint64_t, 3>>{{167, 5, 848}, {3, 295, 189}, {1, 1, 1}}) {
      CAPTURE(m);
      CAPTURE(n);
      const detail::gemm::KernelProblem p{m, n, k, false, true, false, {}, {}, {}};
      const Config on_cpu = detail::gemm::ranked_configs(f32, p, cpu_device).front();
      CHECK(on_cpu.variant == "gemv");
      CHECK(on_cpu.value("SPLIT") == 1);  // one launch
      const auto on_gpu = detail::gemm::ranked_configs(f32, p, h200);
      REQUIRE(on_gpu.size() >= 2);
      CHECK(on_gpu[0].variant != "gemv");
      CHECK(on_gpu[1].variant == "gemv");
      CHECK(detail::gemm::space_for(f32, p).validate(on_gpu[1], h200) == "");
    }
    // C of 9..16 columns against a default block of 32 or 64 on a CPU: 16 columns in two vectors of 8 first (small
    // and skinny alike), the default second; not at 8 columns or fewer (gemv) nor above 16.
    for (const auto& [m, n, k] : std::vector<std::array<std::uint64_t, 3>>{{30, 13, 211}, {354, 16, 664}, {75, 9, 5}}) {
      CAPTURE(m);
      CAPTURE(n);
      const auto ranked = detail::gemm::ranked_configs(f32, {m, n, k, true, true, false, {}, {}, {}}, cpu_device);
      REQUIRE(ranked.size() >= 2);
      CHECK(ranked[0].variant == "cpu");
      CHECK(ranked[0].value("WPT_N") == 16);
      CHECK(ranked[0].value("VEC") == 8);
      CHECK(ranked[1].value("WPT_N") > 16);
    }
    auto first_at = [&](std::uint64_t n) {
      return detail::gemm::ranked_configs(f32, {30, n, 211, false, false, false, {}, {}, {}}, cpu_device).front();
    };
    CHECK(first_at(8).variant == "gemv");
    CHECK(first_at(17).value("WPT_N") > 16);
    CHECK(first_at(40).value("WPT_N") > 16);
    // Not where x must be packed first (a second launch) and the product is tiny: 59x1x32:TN:row with
    // leading dimensions one above minimal (x's column of B strided by 2); first from 2^15 multiply-adds.
    const detail::gemm::KernelProblem packed{
        59, 1, 32, true, false, false, {nullptr, 0, 60}, {nullptr, 0, 2}, {nullptr, 0, 2}};
    for (const auto* info : {&cpu_device, &h200})
      for (const auto& config : detail::gemm::ranked_configs(f32, packed, *info)) CHECK(config.variant != "gemv");
    const detail::gemm::KernelProblem packed_longer{
        59, 1, 1024, true, false, false, {nullptr, 0, 60}, {nullptr, 0, 2}, {nullptr, 0, 2}};
    CHECK(detail::gemm::ranked_configs(f32, packed_longer, cpu_device).front().variant == "gemv");
    for (const auto& ranked :
         {detail::gemm::ranked_configs(f32, {9, 9, 9, false, false, false, {}, {}, {}}, cpu_device),
          detail::gemm::ranked_configs(f32, {5, 5, 0, false, false, false, {}, {}, {}}, cpu_device)})
      for (const auto& config : ranked) CHECK(config.variant != "gemv");

    for (const DeviceInfo* info : std::vector<const DeviceInfo*>{&h200, &small_gpu, &cpu_device, device().info}) {
      for (const auto& bucket : detail::gemm_buckets()) {
        CAPTURE(bucket);
        for (const auto* dtype : {&f32, &f64}) {
          const Config config = detail::gemm_default_config(*dtype, bucket, *info);
          const auto space = detail::gemm_search_space(*dtype, bucket, *info);
          CHECK(space.validate(config, *info) == "");
          const auto all = space.enumerate(*info);
          REQUIRE_FALSE(all.empty());
          CHECK(all.size() < 20000);  // the search stays walkable (the tuner tries the default first; gemv-like
                                      // classes add gemv's own space to the skinny and tiled ones)
        }
      }
    }
  }

  TEST_CASE("gemm: bad arguments raise tilecl::Error naming the argument") {
    cl::Buffer small(device().context, CL_MEM_READ_WRITE, 100 * sizeof(float));
    cl::Buffer large(device().context, CL_MEM_READ_WRITE, 4000 * sizeof(float));
    cl::Buffer other_large(device().context, CL_MEM_READ_WRITE, 4000 * sizeof(float));
    auto& q = device().queue;
    const auto N = Transpose::No, T = Transpose::Yes;
    const auto R = Layout::RowMajor, C = Layout::ColMajor;
    // Leading dimensions below the stored rows (ColMajor) or columns (RowMajor).
    expect_error(
        [&] { gemm<float>(q, R, N, N, 10, 20, 30, 1.f, large, 0, 29, large, 1000, 20, 0.f, other_large, 0, 20); },
        "lda", "CL_INVALID_VALUE");
    expect_error(
        [&] { gemm<float>(q, C, N, N, 10, 20, 30, 1.f, large, 0, 9, large, 1000, 30, 0.f, other_large, 0, 10); }, "lda",
        "CL_INVALID_VALUE");
    expect_error(
        [&] { gemm<float>(q, R, N, T, 10, 20, 30, 1.f, large, 0, 30, large, 1000, 29, 0.f, other_large, 0, 20); },
        "ldb", "CL_INVALID_VALUE");
    expect_error(
        [&] { gemm<float>(q, C, N, N, 10, 20, 30, 1.f, large, 0, 10, large, 1000, 30, 0.f, other_large, 0, 9); }, "ldc",
        "CL_INVALID_VALUE");
    expect_error([&] { gemm<float>(q, R, N, N, 1, 1, 1, 1.f, large, 0, 0, large, 10, 1, 0.f, other_large, 0, 1); },
                 "lda", "CL_INVALID_VALUE");
    // Buffers too small for offset + extent.
    expect_error([&] { gemm<float>(q, R, N, N, 10, 20, 30, 1.f, small, 0, 30, large, 0, 20, 0.f, other_large, 0, 20); },
                 "a", "CL_INVALID_BUFFER_SIZE");
    expect_error([&] { gemm<float>(q, R, N, N, 10, 2, 3, 1.f, large, 0, 3, small, 95, 2, 0.f, other_large, 0, 2); },
                 "b", "CL_INVALID_BUFFER_SIZE");
    expect_error([&] { gemm<float>(q, C, N, N, 10, 20, 3, 1.f, large, 0, 10, large, 100, 3, 0.f, small, 0, 10); }, "c",
                 "CL_INVALID_BUFFER_SIZE");
    // Sizes past the kernels' 32-bit indexing, and products that overflow 64 bits.
    expect_error(
        [&] {
          gemm<float>(q, R, N, N, std::size_t{1} << 31, 1, 1, 1.f, large, 0, 1, large, 0, 1, 0.f, other_large, 0, 1);
        },
        "m", "CL_INVALID_VALUE");
    expect_error(
        [&] {
          gemm<float>(q, R, N, N, 1 << 20, 1 << 12, 1, 1.f, large, 0, 1, large, 0, 1 << 12, 0.f, other_large, 0,
                      1 << 12);
        },
        "c", "CL_INVALID_VALUE");
    expect_error(
        [&] {
          gemm<float>(q, R, N, N, 2, 2, 2, 1.f, large, ~std::size_t{0} - 1, 2, large, 0, 2, 0.f, other_large, 0, 2);
        },
        "a", "CL_INVALID_VALUE");
    // C overlapping A or B (A and B may overlap each other).
    expect_error(
        [&] { gemm<float>(q, R, N, N, 10, 10, 10, 1.f, large, 0, 10, other_large, 0, 10, 0.f, large, 50, 10); }, "c",
        "CL_MEM_COPY_OVERLAP");
    expect_error(
        [&] { gemm<float>(q, R, N, N, 10, 10, 10, 1.f, other_large, 0, 10, large, 200, 10, 0.f, large, 250, 10); }, "c",
        "CL_MEM_COPY_OVERLAP");
    CHECK_NOTHROW(
        gemm<float>(q, R, N, N, 10, 10, 10, 1.f, large, 0, 10, large, 50, 10, 0.f, other_large, 0, 10).wait());
    // Null buffers, buffers of another context.
    cl::Buffer null_buffer;
    expect_error([&] { gemm<float>(q, R, N, N, 2, 2, 2, 1.f, large, 0, 2, null_buffer, 0, 2, 0.f, other_large, 0, 2); },
                 "b", "CL_INVALID_MEM_OBJECT");
    cl::Context other(device().device);
    cl::Buffer foreign(other, CL_MEM_READ_WRITE, 1000 * sizeof(float));
    expect_error([&] { gemm<float>(q, R, N, N, 2, 2, 2, 1.f, large, 0, 2, large, 10, 2, 0.f, foreign, 0, 2); }, "c",
                 "CL_INVALID_CONTEXT");
    // An explicit configuration that breaks the search space's rules.
    expect_error(
        [&] {
          detail::gemm_with<float>(regblock(32, 32, 8, 4, 3, 4, 0, 1, 0), q, R, N, N, 4, 4, 4, 1.f, large, 0, 4, large,
                                   100, 4, 0.f, other_large, 0, 4);
        },
        "config", "CL_INVALID_VALUE");
    expect_error(
        [&] {
          detail::gemm_with<float>(regblock(32, 32, 8, 4, 4, 4, 0, 1, 1), q, R, N, N, 4, 4, 4, 1.f, large, 0, 4, large,
                                   100, 4, 0.f, other_large, 0, 4);
        },
        "config", "CL_INVALID_VALUE");
    // The gemv variant takes calls with m or n of 1..8 only, and meets gemv's rules (WG_X a power of two).
    expect_error(
        [&] {
          detail::gemm_with<float>(gemv_config(4, 1, 8, 4, 2, 1), q, R, N, N, 9, 9, 9, 1.f, large, 0, 9, large, 100, 9,
                                   0.f, other_large, 0, 9);
        },
        "config", "CL_INVALID_VALUE");
    expect_error(
        [&] {
          detail::gemm_with<float>(gemv_config(4, 1, 6, 4, 2, 1), q, R, N, N, 4, 9, 9, 1.f, large, 0, 9, large, 100, 9,
                                   0.f, other_large, 0, 9);
        },
        "config", "CL_INVALID_VALUE");
  }

  TEST_CASE("gemm: configurations with absurd sizes are refused, not overflowed") {
    cl::Buffer buffer(device().context, CL_MEM_READ_WRITE, 4000 * sizeof(float));
    cl::Buffer other(device().context, CL_MEM_READ_WRITE, 4000 * sizeof(float));
    const std::int64_t huge = std::int64_t{1} << 40;
    for (const Config& config :
         {regblock(huge, huge, huge, 8, 8, 4, 0, 0, 1), regblock(64, 64, 16, 4, 4, 4, huge, 0, 1), tiled(huge, 1),
          tiled(8, huge), naive(huge, huge), cpu(huge, 16, 8, 0, 1, 8), skinny_m(1, 4, huge, huge, 1),
          skinny_n(huge, 1, 4, 32, 8, 1)}) {
      CAPTURE(config.to_string());
      expect_error(
          [&] {
            detail::gemm_with<float>(config, device().queue, Layout::RowMajor, Transpose::No, Transpose::No, 4, 4, 4,
                                     1.f, buffer, 0, 4, buffer, 100, 4, 0.f, other, 0, 4);
          },
          "config", "CL_INVALID_VALUE");
    }
  }

  TEST_CASE("gemm: double on a device without fp64 is refused with a clear error") {
    DeviceInfo no_fp64 = *device().info;
    no_fp64.fp64 = false;
    try {
      detail::check_dtype_supported("gemm", detail::dtype_of<double>(), no_fp64);
      FAIL("expected an error");
    } catch (const Error& error) {
      CHECK(error.argument() == "dtype");
      CHECK(error.status_name() == "CL_INVALID_DEVICE");
      CHECK(std::string(error.what()).find("cl_khr_fp64") != std::string::npos);
    }
    if (!device().info->fp64) {
      cl::Buffer buffer(device().context, CL_MEM_READ_WRITE, 1024);
      expect_error(
          [&] {
            gemm<double>(device().queue, Layout::RowMajor, Transpose::No, Transpose::No, 2, 2, 2, 1.0, buffer, 0, 2,
                         buffer, 4, 2, 0.0, buffer, 8, 2);
          },
          "dtype", "CL_INVALID_DEVICE");
    }
  }

  TEST_CASE("gemm: the launches of one call stay in order on an out-of-order queue, and calls share the workspace") {
    cl::CommandQueue out_of_order;
    try {
      out_of_order = cl::CommandQueue(device().context, device().device, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
    } catch (const cl::Error&) {
      MESSAGE("the device has no out-of-order queues; checking with threads on in-order queues only");
    }
    // Packing (misaligned offsets), split K and the reduction: four dependent launches per call.
    const Config config = regblock_small(4);
    const std::size_t m = 19, n = 23, k = 600;
    auto random = test::random_engine("gemm-order");
    auto a = test::random_vector<float>(1 + m * k, random), b = test::random_vector<float>(1 + k * n, random);
    std::vector<double> want(m * n);
    for (std::size_t i = 0; i < m; ++i)
      for (std::size_t j = 0; j < n; ++j) {
        double sum = 0;
        for (std::size_t p = 0; p < k; ++p) sum += static_cast<double>(a[1 + i * k + p]) * b[1 + p * n + j];
        want[i * n + j] = sum;
      }
    cl::Buffer a_buffer = test::to_device(a), b_buffer = test::to_device(b);
    auto run = [&](cl::CommandQueue& queue, int copies) {
      std::vector<test::GuardedBuffer<float>> outputs;
      std::vector<cl::Event> done;
      for (int i = 0; i < copies; ++i) {
        outputs.emplace_back(m * n);
        done.push_back(detail::gemm_with<float>(config, queue, Layout::RowMajor, Transpose::No, Transpose::No, m, n, k,
                                                1.0f, a_buffer, 1, k, b_buffer, 1, n, 0.0f, outputs.back().buffer(),
                                                outputs.back().offset(), n));
      }
      cl::Event::waitForEvents(done);
      for (auto& output : outputs) {
        test::check_all_close(output.read(), want, 1e-4, "C");
        output.check_guards("C");
      }
    };
    if (out_of_order() != nullptr) run(out_of_order, 4);
    std::vector<std::thread> threads;
    std::vector<cl::CommandQueue> queues;
    for (int t = 0; t < 3; ++t) queues.emplace_back(device().context, device().device);
    std::vector<std::string> errors(3);
    // Allocated here, checked (values and guards) here after the threads: doctest's checks stay on this thread.
    std::vector<std::vector<test::GuardedBuffer<float>>> outputs(3);
    for (auto& per_thread : outputs)
      for (int i = 0; i < 3; ++i) per_thread.emplace_back(m * n);
    for (int t = 0; t < 3; ++t)
      threads.emplace_back([&, t] {
        try {
          std::vector<cl::Event> done;
          for (auto& output : outputs[t])
            done.push_back(detail::gemm_with<float>(config, queues[t], Layout::RowMajor, Transpose::No, Transpose::No,
                                                    m, n, k, 1.0f, a_buffer, 1, k, b_buffer, 1, n, 0.0f,
                                                    output.buffer(), output.offset(), n));
          cl::Event::waitForEvents(done);
        } catch (const std::exception& error) {
          errors[t] = error.what();
        }
      });
    for (auto& thread : threads) thread.join();
    for (const auto& error : errors) CHECK(error == "");
    for (auto& per_thread : outputs)
      for (auto& output : per_thread) {
        test::check_all_close(output.read(), want, 1e-4, "C of a thread");
        output.check_guards("C of a thread");
      }
  }

  TEST_CASE("gemm: the wait list holds the first launch back (packing, split K and reduction; and k = 0's scaling)") {
    // A changes (through another queue) while a user event holds the call back: the result uses the new A.
    const std::size_t m = 6, n = 9, k = 300;
    auto random = test::random_engine("gemm-wait");
    const auto before = test::random_vector<float>(1 + m * k, random),
               after = test::random_vector<float>(1 + m * k, random);
    const auto b = test::random_vector<float>(k * n, random);
    cl::Buffer a_buffer = test::to_device(before), b_buffer = test::to_device(b);
    test::GuardedBuffer<float> c_buffer(m * n);
    test::GuardedBuffer<float> scaled(std::vector<float>(m * n, 1.0f));
    cl::UserEvent gate(device().context);
    const std::vector<cl::Event> wait{gate};
    // a_offset 1 breaks VEC alignment: pack A, pack B (K padded), split K into slices, reduce.
    cl::Event done = detail::gemm_with<float>(regblock_small(4), device().queue, Layout::RowMajor, Transpose::No,
                                              Transpose::No, m, n, k, 1.0f, a_buffer, 1, k, b_buffer, 0, n, 0.0f,
                                              c_buffer.buffer(), c_buffer.offset(), n, &wait);
    cl::Event scale_done =
        gemm<float>(device().queue, Layout::RowMajor, Transpose::No, Transpose::No, m, n, 0, 1.0f, a_buffer, 0, 1,
                    b_buffer, 0, n, 3.0f, scaled.buffer(), scaled.offset(), n, &wait);
    device().queue.flush();
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    CHECK(done.getInfo<CL_EVENT_COMMAND_EXECUTION_STATUS>() != CL_COMPLETE);
    CHECK(scale_done.getInfo<CL_EVENT_COMMAND_EXECUTION_STATUS>() != CL_COMPLETE);
    cl::CommandQueue other(device().context, device().device);
    other.enqueueWriteBuffer(a_buffer, CL_TRUE, 0, after.size() * sizeof(float), after.data());
    gate.setStatus(CL_COMPLETE);
    done.wait();
    scale_done.wait();
    std::vector<double> want(m * n);
    for (std::size_t i = 0; i < m; ++i)
      for (std::size_t j = 0; j < n; ++j) {
        double sum = 0;
        for (std::size_t p = 0; p < k; ++p) sum += static_cast<double>(after[1 + i * k + p]) * b[p * n + j];
        want[i * n + j] = sum;
      }
    test::check_all_close(c_buffer.read(), want, 1e-4, "C after the gate");
    test::check_all_close(scaled.read(), std::vector<double>(m * n, 3.0), 0, "3 C");
    c_buffer.check_guards("C after the gate");
    scaled.check_guards("3 C");
  }

  TEST_CASE("gemm: the tuning subject verifies candidates and rejects a kernel that computes a wrong result") {
    auto subject = detail::find_tunable_op("gemm").make_subject("float", "127x127x127");
    cl::CommandQueue queue(device().context, device().device, CL_QUEUE_PROFILING_ENABLE);
    subject->prepare(queue, 7);
    for (const auto& config : {subject->default_config(*device().info), naive(8, 4), regblock_small(4)}) {
      CAPTURE(config.to_string());
      CHECK(subject->verify(queue, config) == "");
      CHECK_FALSE(subject->run(queue, config).empty());
    }
    // A naive kernel that skips k = 0 must fail verification (kernel sources read from a mutated copy).
    const std::string directory = test::temp_directory("gemm-kernels");
    std::filesystem::copy(test::source_directory() + "/kernels", directory,
                          std::filesystem::copy_options::recursive | std::filesystem::copy_options::overwrite_existing);
    const std::string path = directory + "/gemm.cl";
    std::ifstream in(path);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const std::string loop = "for (int k = 0; k < K; ++k) acc = TILECL_MAD(A[GEMM_A_INDEX(m, k)]";
    REQUIRE(text.find(loop) != std::string::npos);
    text.replace(text.find(loop), loop.size(), "for (int k = 1; k < K; ++k) acc = TILECL_MAD(A[GEMM_A_INDEX(m, k)]");
    std::ofstream(path) << text;
    {
      test::ScopedEnv kernel_dir("TILECL_KERNEL_DIR", directory);
      detail::ProgramCache::instance().clear();
      CHECK(subject->verify(queue, naive(8, 4)) != "");
    }
    detail::ProgramCache::instance().clear();
    CHECK(subject->verify(queue, naive(8, 4)) == "");
  }
}

TEST_SUITE("ops.gemm") {
  TEST_CASE("gemm: tiny ragged problems under every variant, with packing and split K (also run under oclgrind)") {
    // oclgrind 21.10's --uninitialized plugin segfaults inside the simulator on skinny_n with VEC > 1 (that
    // kernel runs clean under --data-races and the memory checks, and exact on PoCL): VEC = 1 here.
    std::vector<Config> configs = one_per_variant();
    configs.back() = skinny_n(2, 2, 1, 16, 4, 2);
    configs.push_back(cpu(2, 8, 4, 1, 8, 2, 3));  // K in blocks: work-items past M and N reach every barrier
    for (const auto& config : configs) {
      CAPTURE(config.to_string());
      Problem p;
      p.m = 5, p.n = 3, p.k = 7, p.alpha = 1.5, p.beta = 0.0, p.a_offset = 1, p.c_offset = 2, p.ldb_extra = 1;
      check_gemm<float>(&config, p);
      p.layout = Layout::ColMajor, p.trans_a = Transpose::Yes, p.trans_b = Transpose::Yes, p.beta = -0.5;
      check_gemm<float>(&config, p);
    }
    for (const auto& config : {regblock_small(2), skinny_m_small(2)}) {
      CAPTURE(config.to_string());
      Problem p;
      p.m = 3, p.n = 6, p.k = 261, p.alpha = 1.0, p.beta = 0.5, p.b_offset = 1;
      check_gemm<float>(&config, p);
    }
  }
}
