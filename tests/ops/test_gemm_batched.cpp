#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <numeric>
#include <set>

#include "ops/gemm_batched.hpp"
#include "ops/gemm_batched_parts.hpp"
#include "reference/gemm_reference.hpp"
#include "support/fixture.hpp"
#include "support/gemm_support.hpp"
#include "support/guarded_buffer.hpp"
#include "sweeps/shapes.hpp"
#include "tilecl/error.hpp"
#include "tilecl/gemm_batched.hpp"
#include "tilecl/runtime.hpp"
#include "tilecl/tuning.hpp"
#include "tuning/op_registry.hpp"

using namespace tilecl;
using tilecl::detail::Config;
using tilecl::test::device;

namespace {

constexpr double kSentinel = 2468.0;  // C between and around the matrices: must survive bit for bit

// One batched call without its buffers. Matrices are laid out one after the other with `gap` elements between
// them (a regular layout, given to gemm_strided_batched as strides), or, for gemm_batched, in a shuffled order.
struct Problem {
  Layout layout = Layout::RowMajor;
  Transpose trans_a = Transpose::No, trans_b = Transpose::No;
  std::size_t batch = 1, m = 1, n = 1, k = 1;
  double alpha = 1.0, beta = 0.0;
  std::size_t ld_extra = 0, gap = 0, first = 0;
  bool per_matrix = false;
  bool shared_a = false;      // stride_a = 0: every product uses the first A
  bool in_order = false;      // gemm_batched: offsets evenly spaced in matrix order (not shuffled)
  bool same_scalars = false;  // gemm_batched: every matrix with the problem's alpha and beta
  std::size_t align = 1;      // leading dimensions, offsets and C's guard rounded up to multiples (vector accesses)

  std::string describe() const {
    return std::string(per_matrix ? "offsets " : "strided ") + (layout == Layout::RowMajor ? "row " : "col ") +
           (trans_a == Transpose::Yes ? "T" : "N") + (trans_b == Transpose::Yes ? "T" : "N") + " " +
           std::to_string(batch) + "x" + std::to_string(m) + "x" + std::to_string(n) + "x" + std::to_string(k) +
           " alpha " + std::to_string(alpha) + " beta " + std::to_string(beta) + " ld+" + std::to_string(ld_extra) +
           " gap " + std::to_string(gap) + (shared_a ? " shared A" : "") + (in_order ? " in order" : "") +
           (same_scalars ? " same scalars" : "") + (align > 1 ? " align " + std::to_string(align) : "");
  }
};

using test::ref_layout;
using test::ref_trans;

// The spacing of T at 1 (binary16's for tilecl::half, whose numeric_limits are not specialized).
template <typename T>
double epsilon_of() {
  if constexpr (std::is_same_v<T, half>)
    return std::ldexp(1.0, -10);
  else
    return std::numeric_limits<T>::epsilon();
}

// One operand of every matrix: stored extent, leading dimension, span and where each matrix starts.
struct Operand {
  reference::Extent extent;
  std::size_t ld, span;
  std::vector<std::size_t> offsets;
  std::size_t size() const { return offsets.empty() ? 0 : *std::max_element(offsets.begin(), offsets.end()) + span; }
};

Operand operand(const Problem& p, reference::Extent extent, std::size_t count, std::size_t order_salt) {
  const auto layout = ref_layout(p.layout);
  const auto aligned = [&](std::size_t value) { return (value + p.align - 1) / p.align * p.align; };
  Operand o{extent, aligned(reference::min_ld(layout, extent) + p.ld_extra), 0, {}};
  o.span = reference::required_elements(layout, extent, o.ld);
  std::vector<std::size_t> slots(count);
  std::iota(slots.begin(), slots.end(), 0);
  if (p.per_matrix && !p.in_order)
    std::rotate(slots.begin(), slots.begin() + static_cast<std::ptrdiff_t>(order_salt % count),
                slots.end());  // matrix i sits in slot (i + salt) % count: offsets out of order
  for (std::size_t i = 0; i < count; ++i) o.offsets.push_back(aligned(p.first) + slots[i] * aligned(o.span + p.gap));
  return o;
}

// Per-matrix scalars for gemm_batched: around the problem's, one alpha of 0 and one beta of 0 when there are
// several matrices; the problem's own for the strided call.
std::vector<double> scalars(const Problem& p, double base, std::size_t zero_at) {
  std::vector<double> values(p.batch, base);
  if (!p.per_matrix || p.same_scalars) return values;
  for (std::size_t i = 0; i < p.batch; ++i) values[i] = base * (1.0 + 0.25 * static_cast<double>(i % 3));
  if (p.batch > 2) values[zero_at % p.batch] = 0.0;
  return values;
}

template <typename T>
cl::Event run(const Config* config, const Problem& p, const Operand& a, const Operand& b, const Operand& c,
              cl::Buffer& a_buffer, cl::Buffer& b_buffer, cl::Buffer& c_buffer, std::size_t c_base,
              const std::vector<double>& alphas, const std::vector<double>& betas) {
  detail::BatchedCall<T> call;
  call.layout = p.layout, call.trans_a = p.trans_a, call.trans_b = p.trans_b;
  call.m = p.m, call.n = p.n, call.k = p.k, call.batch = p.batch;
  call.a = &a_buffer, call.b = &b_buffer, call.c = &c_buffer;
  call.lda = a.ld, call.ldb = b.ld, call.ldc = c.ld;
  std::vector<std::size_t> c_offsets = c.offsets;
  for (auto& offset : c_offsets) offset += c_base;
  using Scalar = detail::ComputeType<T>;  // float for tilecl::half
  std::vector<Scalar> alpha_values(alphas.begin(), alphas.end()), beta_values(betas.begin(), betas.end());
  if (p.per_matrix) {
    call.a_offsets = &a.offsets, call.b_offsets = &b.offsets, call.c_offsets = &c_offsets;
    call.alphas = &alpha_values, call.betas = &beta_values;
  } else {
    call.a_offset = a.offsets[0], call.b_offset = b.offsets[0], call.c_offset = c_offsets[0];
    call.stride_a = a.offsets.size() > 1 ? a.offsets[1] - a.offsets[0] : 0;
    call.stride_b = b.offsets.size() > 1 ? b.offsets[1] - b.offsets[0] : 0;
    call.stride_c = c.offsets.size() > 1 ? c.offsets[1] - c.offsets[0] : 0;
    call.alpha = alpha_values[0], call.beta = beta_values[0];
  }
  if (config != nullptr || !p.per_matrix) {
    if (config != nullptr) return detail::run_gemm_batched<T>(config, device().queue, call, nullptr);
    return gemm_strided_batched<T>(device().queue, p.layout, p.trans_a, p.trans_b, p.m, p.n, p.k, call.alpha, a_buffer,
                                   call.a_offset, a.ld, call.stride_a, b_buffer, call.b_offset, b.ld, call.stride_b,
                                   call.beta, c_buffer, call.c_offset, c.ld, call.stride_c, p.batch);
  }
  return gemm_batched<T>(device().queue, p.layout, p.trans_a, p.trans_b, p.m, p.n, p.k, alpha_values, a_buffer,
                         a.offsets, a.ld, b_buffer, b.offsets, b.ld, beta_values, c_buffer, c_offsets, c.ld);
}

// Runs the batch (through `config`, or the public functions when null) and checks every element of C's region
// (bound of a k-term sum inside the matrices, bit for bit between and around them) and its guards. A matrix with
// alpha 0 has NaN in its A and B (they must not be read: only when A is not shared); beta 0 puts NaN in its C.
template <typename T>
void check_batched(const Config* config, const Problem& p) {
  CAPTURE(p.describe());
  auto random = test::random_engine("gemm_batched" + p.describe());
  const auto layout = ref_layout(p.layout);
  const auto ta = ref_trans(p.trans_a), tb = ref_trans(p.trans_b);
  const Operand a = operand(p, reference::stored_extent(ta, p.m, p.k), p.shared_a ? 1 : p.batch, 1);
  const Operand b = operand(p, reference::stored_extent(tb, p.k, p.n), p.batch, 2);
  const Operand c = operand(p, {p.m, p.n}, p.batch, 3);
  Operand a_used = a;  // every matrix's A: all the first one when shared
  if (p.shared_a) a_used.offsets.assign(p.batch, a.offsets[0]);
  const std::vector<double> alphas = scalars(p, p.alpha, 1), betas = scalars(p, p.beta, 2);
  const T nan = static_cast<T>(std::numeric_limits<float>::quiet_NaN());
  auto a_values = test::random_vector<T>(a.size() + 3, random), b_values = test::random_vector<T>(b.size() + 3, random);
  std::vector<T> c_values(c.size() + 4, T(kSentinel)), start;
  std::vector<bool> inside(c_values.size(), false);
  for (std::size_t i = 0; i < p.batch; ++i)
    for (std::size_t r = 0; r < p.m; ++r)
      for (std::size_t j = 0; j < p.n; ++j) {
        const std::size_t at = c.offsets[i] + reference::matrix_index(layout, r, j, c.ld);
        c_values[at] = test::random_vector<T>(1, random)[0], inside[at] = true;
      }
  start = c_values;
  std::vector<T> want = c_values;
  std::vector<double> bound(c_values.size(), 0.0), magnitude;
  for (std::size_t i = 0; i < p.batch; ++i) {
    if (alphas[i] == 0.0 && !p.shared_a) {
      for (std::size_t e = 0; e < a.span; ++e) a_values[a.offsets[i] + e] = nan;
      for (std::size_t e = 0; e < b.span; ++e) b_values[b.offsets[i] + e] = nan;
    }
    if (betas[i] == 0.0)
      for (std::size_t e = 0; e < c.span; ++e)
        if (inside[c.offsets[i] + e]) start[c.offsets[i] + e] = nan;
  }
  for (std::size_t i = 0; i < p.batch; ++i) {
    if (alphas[i] == 0.0 || p.k == 0) {
      for (std::size_t e = 0; e < c.span; ++e) {
        const std::size_t at = c.offsets[i] + e;
        if (!inside[at]) continue;
        want[at] = betas[i] == 0.0 ? T(0) : T(betas[i] * static_cast<double>(c_values[at]));
        bound[at] = std::abs(betas[i] * static_cast<double>(c_values[at])) * epsilon_of<T>();
      }
      continue;
    }
    reference::gemm(layout, ta, tb, p.m, p.n, p.k, alphas[i], a_values.data() + a_used.offsets[i], a.ld,
                    b_values.data() + b.offsets[i], b.ld, betas[i], want.data() + c.offsets[i], c.ld, &magnitude);
    for (std::size_t e = 0; e < magnitude.size(); ++e)
      bound[c.offsets[i] + e] = reference::storage_tolerance<T>(p.k, magnitude[e], want[c.offsets[i] + e]);
  }

  cl::Buffer a_buffer = test::to_device(a_values), b_buffer = test::to_device(b_values);
  test::GuardedBuffer<T> c_buffer(start, p.align > 1 ? 24 : test::GuardedBuffer<T>::kDefaultGuard);
  cl::Event done =
      run<T>(config, p, a_used, b, c, a_buffer, b_buffer, c_buffer.buffer(), c_buffer.offset(), alphas, betas);
  REQUIRE(done() != nullptr);
  done.wait();
  const auto got = c_buffer.read();
  c_buffer.check_guards("C");
  std::size_t bad = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    const double tolerance = bound[i] + 2 * epsilon_of<T>() * std::abs(static_cast<double>(want[i]));
    const double got_value = static_cast<double>(got[i]), want_value = static_cast<double>(want[i]);
    const bool ok = inside[i] ? std::abs(got_value - want_value) <= tolerance
                              : (got_value == want_value || (std::isnan(got_value) && std::isnan(want_value)));
    if (!ok && bad++ < 5)
      FAIL_CHECK("C element " << i << " is " << got_value << ", expected " << want_value
                              << (inside[i] ? "" : " (outside)"));
  }
  CHECK_MESSAGE(bad == 0, bad << " of " << got.size() << " elements of C differ");
}

// A tiled setting; LOAD_VEC 1, no early read of C and no double buffering unless given.
Config tiled(std::int64_t tile_m, std::int64_t tile_n, std::int64_t tile_k, std::int64_t wpt_m, std::int64_t wpt_n,
             std::int64_t mats, std::int64_t pad = 1, std::int64_t local_vectors = 0, std::int64_t load_vec = 1,
             std::int64_t prefetch_c = 0, std::int64_t double_buffer = 0) {
  return {"tiled",
          {{"TILE_M", tile_m},
           {"TILE_N", tile_n},
           {"TILE_K", tile_k},
           {"WPT_M", wpt_m},
           {"WPT_N", wpt_n},
           {"MATS", mats},
           {"PAD", pad},
           {"USE_LOCAL_VECTORS", local_vectors},
           {"LOAD_VEC", load_vec},
           {"PREFETCH_C", prefetch_c},
           {"DOUBLE_BUFFER", double_buffer}}};
}
Config cpu(std::int64_t wpt_m, std::int64_t wpt_n, std::int64_t vec, std::int64_t wg_x, std::int64_t wg_y) {
  return {"cpu", {{"WPT_M", wpt_m}, {"WPT_N", wpt_n}, {"VEC", vec}, {"WG_X", wg_x}, {"WG_Y", wg_y}}};
}

// One small setting per variant (the tiled one with vector local reads): these run in every orientation (a
// program per transpose pair and per kind).
std::vector<Config> one_per_variant() { return {tiled(16, 16, 8, 4, 4, 2, 4, 1), cpu(4, 8, 4, 2, 4)}; }

// Tiled settings with vector global accesses (they apply where the call is aligned), some reading C early or
// double buffered: vector local reads and C in runs of 4, 16 x 16 tiles; strided outputs, a 32 x 32 tile, the next
// K step's loads before the current step's products; 8 x 8 tiles of 8 matrices with 2-wide accesses.
std::vector<Config> vector_settings() {
  return {tiled(16, 16, 8, 4, 4, 2, 4, 1, 4, 1), tiled(32, 32, 16, 2, 4, 1, 1, 0, 4, 0, 1),
          tiled(8, 8, 8, 2, 2, 8, 1, 0, 2, 1, 1)};
}

// Further settings: tiny tiles with many matrices per group, whole 32 x 32 matrices, 64 x 64 tiles with 8 x 4
// outputs (both with vector local reads, padded by 4 and unpadded), odd matrices per group without padding (its
// K step longer than some K; a K step of 32 there costs PoCL a minute of compiling); CPU widths 1 and 8, 3 rows.
std::vector<Config> more_settings() {
  return {tiled(8, 8, 8, 2, 2, 8),
          tiled(32, 32, 16, 4, 4, 2, 4, 1),
          tiled(64, 64, 16, 8, 4, 1, 0, 1, 1, 0, 1),
          tiled(8, 4, 8, 2, 2, 3, 0),
          tiled(4, 8, 4, 1, 1, 1),
          cpu(4, 16, 8, 1, 8),
          cpu(1, 1, 1, 1, 1),
          cpu(3, 8, 8, 4, 2)};
}

// Both layouts and the four transpose pairs; strided when the transposes agree, with per-matrix offsets when
// they differ (PoCL compiles a program per transpose pair and kind, about a second each: four per setting).
std::vector<Problem> every_orientation(Problem base) {
  std::vector<Problem> all;
  for (Layout layout : {Layout::RowMajor, Layout::ColMajor})
    for (Transpose ta : {Transpose::No, Transpose::Yes})
      for (Transpose tb : {Transpose::No, Transpose::Yes}) {
        Problem p = base;
        p.layout = layout, p.trans_a = ta, p.trans_b = tb, p.per_matrix = ta != tb;
        all.push_back(p);
      }
  return all;
}

}  // namespace

TEST_SUITE("ops.gemm_batched") {
  TEST_CASE("gemm_batched: both variants, strided and with offsets, in both layouts and all four transpose pairs") {
    Problem base;
    base.batch = 5, base.m = 19, base.n = 13, base.k = 23, base.alpha = -1.25, base.beta = 0.5;
    base.ld_extra = 2, base.gap = 3, base.first = 1;
    for (const auto& config : one_per_variant()) {
      CAPTURE(config.to_string());
      for (const auto& p : every_orientation(base)) check_batched<float>(&config, p);
    }
  }

  TEST_CASE("gemm_batched: vector accesses where the call is aligned (LOAD_VEC, ALIGN_*), C read early (PREFETCH_C)") {
    // Ragged sizes: vectors that would cross an edge are read element by element.
    Problem base;
    base.batch = 5, base.m = 19, base.n = 13, base.k = 23, base.alpha = -1.25, base.beta = 0.5;
    base.ld_extra = 2, base.gap = 3, base.first = 1, base.align = 4;
    const auto settings = vector_settings();
    {
      CAPTURE(settings[0].to_string());
      for (const auto& p : every_orientation(base)) check_batched<float>(&settings[0], p);
    }
    for (const auto& config : {settings[1], settings[2]}) {
      CAPTURE(config.to_string());
      Problem p = base;
      check_batched<float>(&config, p);  // strided, row-major NN
      p.layout = Layout::ColMajor, p.trans_a = p.trans_b = Transpose::Yes, p.per_matrix = true, p.align = 2;
      check_batched<float>(&config, p);  // listed offsets, 2-aligned
      p.per_matrix = false, p.trans_a = p.trans_b = Transpose::No, p.beta = 0.0, p.align = 8, p.k = 41;
      check_batched<float>(&config, p);  // beta 0 over NaN with C read early
    }
    Problem larger = base;  // several tiles and K steps per matrix
    larger.batch = 3, larger.m = 70, larger.n = 45, larger.k = 67;
    check_batched<float>(&settings[1], larger);
    if (device().info->fp64) {
      Problem p = base;
      p.per_matrix = true, p.align = 2;
      const Config two_wide = tiled(16, 16, 8, 4, 4, 2, 4, 1, 2, 1);  // 16 bytes of double
      check_batched<double>(&two_wide, p);
    }
    Problem p = base;  // half: 8-wide (16-byte) and 4-wide aligned loads
    p.align = 8;
    const Config eight_wide = tiled(32, 32, 16, 2, 4, 1, 1, 0, 8, 0);
    check_batched<half>(&eight_wide, p);
    p.align = 4, p.per_matrix = true, p.trans_b = Transpose::Yes;
    check_batched<half>(&settings[0], p);
  }

  TEST_CASE("gemm_batched: the bench sweep's shapes, scaled down (seeds 1-2): this device's choice and a GPU's") {
    // The same random streams as `tilecl bench --sweep --family blas` (bench/sweeps/shapes.hpp) with sides of at
    // most 40 and at most 50 matrices: the sweep's transposes, layouts and gaps (one padding for all operands),
    // through the public function and through the default an H200-like GPU gives the shape's bucket.
    DeviceInfo gpu = *device().info;
    gpu.type = CL_DEVICE_TYPE_GPU, gpu.local_memory_is_dedicated = true, gpu.compute_units = 132;
    gpu.local_memory_bytes = std::min<std::uint64_t>(49152, device().info->local_memory_bytes);
    gpu.max_work_group_size = std::min<std::size_t>(1024, device().info->max_work_group_size);
    for (std::uint64_t seed = 1; seed <= 2; ++seed) {
      auto random = bench::sweeps::sweep_random(seed, "gemm_strided_batched", "float");
      for (int shape = 0; shape < 4; ++shape) {
        const auto s = bench::sweeps::draw_batched_shape(random, 40, 1u << 16);
        CAPTURE(seed);
        CAPTURE(s.text());
        const auto& g = s.gemm;
        Problem p;
        p.layout = g.layout, p.trans_a = g.trans_a, p.trans_b = g.trans_b;
        p.batch = std::min<std::uint64_t>(s.batch, 50), p.m = g.m, p.n = g.n, p.k = g.k;
        p.alpha = 1.0, p.beta = shape % 2 == 0 ? 0.5 : 0.0, p.gap = s.gap;
        p.ld_extra = g.lda - g.minimal_ld(g.a_rows(), g.a_cols());
        check_batched<float>(nullptr, p);
        const Config gpu_choice =
            detail::gemm_batched_default_config(detail::dtype_of<float>(), detail::gemm_batched_bucket(p.m, p.n), gpu);
        check_batched<float>(&gpu_choice, p);
        // The same choice fitted to the matrices, as a GPU call runs it (kernel view: row-major, m and n swapped
        // for column-major calls).
        const bool row = p.layout == Layout::RowMajor;
        const Config fitted = detail::gemm_batched_fit_config(detail::dtype_of<float>(), gpu_choice, row ? p.m : p.n,
                                                              row ? p.n : p.m, p.k, p.batch, gpu);
        CAPTURE(fitted.to_string());
        CHECK(detail::gemm_batched_search_space(detail::dtype_of<float>(), detail::gemm_batched_bucket(p.m, p.n), gpu)
                  .validate(fitted, gpu) == "");
        if (fitted != gpu_choice) check_batched<float>(&fitted, p);
      }
    }
  }

  TEST_CASE("gemm_batched: a chosen tiling is fitted to matrices smaller than its tile") {
    const auto& dtype = detail::dtype_of<float>();
    DeviceInfo gpu = *device().info;
    gpu.compute_units = 132;
    const Config wide = tiled(64, 64, 16, 8, 4, 1, 4, 1, 4, 0, 1);  // 128 work-items, vector local reads
    // 2111 matrices of two rows and 112 columns, K 25: 2 x 64 tiles, 2 matrices a group (their local tiles take what
    // the one 64 x 64 tile took), and 2 x 2 outputs a work-item so that the group keeps 64 work-items (no vector
    // local reads).
    Config fitted = detail::gemm_batched_fit_config(dtype, wide, 2, 112, 25, 2111, gpu);
    CHECK(fitted.value("TILE_M") == 2);
    CHECK(fitted.value("TILE_N") == 64);
    CHECK(fitted.value("TILE_K") == 16);
    CHECK(fitted.value("WPT_M") == 2);
    CHECK(fitted.value("WPT_N") == 2);
    CHECK(fitted.value("MATS") == 2);
    CHECK(fitted.value("USE_LOCAL_VECTORS") == 0);
    CHECK(fitted.value("PAD") == 1);
    CHECK(fitted.value("DOUBLE_BUFFER") == 1);
    // 10136 matrices of 5 x 30, K 3, from the 32 x 32 default with two a group: 8 x 32 tiles, K 4, 8 a group.
    const Config small = tiled(32, 32, 16, 4, 4, 2, 4, 1, 4);
    fitted = detail::gemm_batched_fit_config(dtype, small, 5, 30, 3, 10136, gpu);
    CHECK(fitted.value("TILE_M") == 8);
    CHECK(fitted.value("TILE_N") == 32);
    CHECK(fitted.value("TILE_K") == 4);
    CHECK(fitted.value("MATS") == 8);
    CHECK(fitted.value("USE_LOCAL_VECTORS") == 1);
    // 13 matrices cannot fill 132 compute units: one a group, and fewer outputs per work-item (57 x 7 in a 64 x 8
    // tile: the 128 work-items the group had).
    fitted = detail::gemm_batched_fit_config(dtype, wide, 57, 7, 49, 13, gpu);
    CHECK(fitted.value("MATS") == 1);
    CHECK(fitted.value("TILE_N") == 8);
    CHECK((fitted.value("TILE_M") / fitted.value("WPT_M")) * (fitted.value("TILE_N") / fitted.value("WPT_N")) == 128);
    // A batch of matrix-vector products (15708 matrices of 115 x 1, K 11): a 64 x 1 tile, two matrices a group (local
    // memory), and 2 outputs a work-item instead of 8, so that the group has 64 work-items, not 16.
    fitted = detail::gemm_batched_fit_config(dtype, wide, 115, 1, 11, 15708, gpu);
    CHECK(fitted.to_string() == tiled(64, 1, 16, 2, 1, 2, 1, 0, 4, 0, 1).to_string());
    // Matrices that fill the tile, the CPU kernel and odd tiles are left alone.
    CHECK(detail::gemm_batched_fit_config(dtype, wide, 64, 100, 300, 5000, gpu) == wide);
    CHECK(detail::gemm_batched_fit_config(dtype, cpu(4, 8, 4, 2, 4), 2, 2, 2, 10, gpu) == cpu(4, 8, 4, 2, 4));
    const Config odd = tiled(12, 8, 8, 4, 2, 1, 0);
    CHECK(detail::gemm_batched_fit_config(dtype, odd, 1, 1, 1, 1, gpu) == odd);
    // The fitted settings run.
    Problem p;
    p.batch = 9, p.m = 2, p.n = 112, p.k = 25, p.alpha = 0.5, p.beta = 0.5, p.align = 4;
    fitted = detail::gemm_batched_fit_config(dtype, wide, 2, 112, 25, 2111, gpu);
    check_batched<float>(&fitted, p);
    p.m = 5, p.n = 30, p.k = 3, p.align = 1, p.gap = 1;
    fitted = detail::gemm_batched_fit_config(dtype, small, 5, 30, 3, 10136, gpu);
    check_batched<float>(&fitted, p);
    p.m = 57, p.n = 7, p.k = 49, p.batch = 13;
    fitted = detail::gemm_batched_fit_config(dtype, wide, 57, 7, 49, 13, gpu);
    check_batched<float>(&fitted, p);
    p.m = 115, p.n = 1, p.k = 11, p.batch = 21, p.trans_a = Transpose::Yes;
    fitted = detail::gemm_batched_fit_config(dtype, wide, 115, 1, 11, 15708, gpu);
    check_batched<float>(&fitted, p);
  }

  TEST_CASE("gemm_batched: several settings at edge sizes: 1x1x1, primes, k = 1, one row, one column, batch 1") {
    const std::vector<std::array<std::size_t, 4>> shapes{
        {1, 1, 1, 1}, {7, 5, 3, 11}, {3, 13, 11, 1}, {2, 1, 40, 33}, {4, 40, 1, 33}, {1, 37, 29, 70}, {13, 2, 2, 131}};
    for (const auto& config : more_settings()) {
      CAPTURE(config.to_string());
      for (const auto& shape : shapes) {
        Problem p;
        p.batch = shape[0], p.m = shape[1], p.n = shape[2], p.k = shape[3], p.alpha = 1.5, p.beta = -0.25;
        p.gap = shape[0] % 3, p.first = 2, p.ld_extra = shape[1] % 2;
        check_batched<float>(&config, p);
      }
    }
  }

  TEST_CASE("gemm_batched: per-matrix scalars (alpha 0 reads no A or B, beta 0 no C), shared A, k = 0") {
    // The programs of the orientation test: strided without transposes, per-matrix with B transposed.
    for (const auto& config : one_per_variant()) {
      CAPTURE(config.to_string());
      Problem p;
      p.batch = 7, p.m = 11, p.n = 17, p.k = 9, p.alpha = 0.75, p.beta = 1.0, p.gap = 1;
      p.per_matrix = true, p.trans_b = Transpose::Yes;
      check_batched<float>(&config, p);
      p.k = 0, p.beta = 0.5;
      check_batched<float>(&config, p);
      p.per_matrix = false, p.trans_b = Transpose::No, p.shared_a = true, p.beta = 0.0, p.k = 9;
      check_batched<float>(&config, p);
      p.alpha = 0.0, p.beta = -2.0, p.shared_a = false;
      check_batched<float>(&config, p);
    }
  }

  TEST_CASE("gemm_batched: matrices larger than a tile: several work-groups per matrix and a K loop") {
    for (const auto& config : {more_settings()[1], more_settings()[2], more_settings()[5]}) {
      CAPTURE(config.to_string());
      Problem p;
      p.batch = 3, p.m = 130, p.n = 97, p.k = 67, p.alpha = 0.5, p.beta = 2.0, p.gap = 5;
      check_batched<float>(&config, p);
    }
    Problem p;  // column-major with per-matrix offsets: a program of the orientation test
    p.batch = 2, p.m = 70, p.n = 45, p.k = 33, p.alpha = -1.0, p.beta = 0.0, p.layout = Layout::ColMajor;
    p.trans_a = Transpose::Yes, p.per_matrix = true;
    check_batched<float>(&one_per_variant()[0], p);
  }

  TEST_CASE("gemm_batched: more matrices than the work-groups a launch may have along z") {
    // 32768 groups of one matrix each, then the groups loop: matrices 32768 and 32769 are the second round.
    Problem p;
    p.batch = 32770, p.m = 2, p.n = 3, p.k = 2, p.alpha = 1.0, p.beta = 0.5;
    check_batched<float>(&more_settings()[4], p);
  }

  TEST_CASE("gemm_batched: the public functions with their own parameters, float and double, in three buckets") {
    // mn<=8 with offsets, mn<=32 strided, mn>128 with offsets (this device's defaults differ between them).
    const std::vector<std::array<std::size_t, 4>> shapes{{300, 6, 7, 5}, {60, 20, 30, 40}, {3, 150, 140, 20}};
    for (const auto& shape : shapes) {
      Problem p;
      p.batch = shape[0], p.m = shape[1], p.n = shape[2], p.k = shape[3], p.alpha = 1.25, p.beta = 0.5, p.gap = 1;
      p.per_matrix = shape[0] % 3 == 0;
      CAPTURE(detail::gemm_batched_bucket(p.m, p.n));
      check_batched<float>(nullptr, p);
      if (device().info->fp64 && shape[0] == 60) {
        p.layout = Layout::ColMajor, p.trans_a = Transpose::Yes;
        check_batched<double>(nullptr, p);
      }
    }
  }

  TEST_CASE("gemm_batched: a warm call takes its fitted plan, program and kernel from the thread's memo entry") {
    Problem p;
    p.batch = 40, p.m = 6, p.n = 7, p.k = 5, p.alpha = 1.25, p.beta = 0.5;
    check_batched<float>(nullptr, p);  // resolves (first use or the database), fits and builds
    reset_statistics();
    check_batched<float>(nullptr, p);
    CHECK(statistics().memory_hits == 0);  // the program came with the memo entry, not from the program cache
    CHECK(statistics().compiles == 0);
    CHECK(statistics().tunings == 0);
    // The same bucket fitted to other tiles (smaller powers of two), depth 1, with offsets, and a batch that fills
    // groups differently: entries of their own, right results.
    for (const auto& shape : std::vector<std::array<std::size_t, 4>>{{40, 3, 3, 2}, {40, 6, 7, 1}, {2, 6, 7, 5}}) {
      p.batch = shape[0], p.m = shape[1], p.n = shape[2], p.k = shape[3];
      for (const bool per_matrix : {false, true}) {
        p.per_matrix = per_matrix;
        CAPTURE(per_matrix);
        check_batched<float>(nullptr, p);
      }
    }
  }

  TEST_CASE("gemm_batched: a chosen configuration that fails to build is reported once and tuned around") {
    test::ScopedEnv cache("TILECL_CACHE_DIR", test::temp_directory("batched-failing-choice"));
    test::ScopedEnv mode("TILECL_TUNE", "first-use");
    tuning::clear();
    Problem p;
    p.batch = 40, p.m = 6, p.n = 7, p.k = 5, p.alpha = 1.25, p.beta = 0.5;
    check_batched<float>(nullptr, p);  // tunes and stores its winner, which then "fails to build"
    const auto first = tuning::parameters_for(device().queue, "gemm_strided_batched", "float", "40x6x7x5");
    REQUIRE(first.origin == tuning::Origin::FirstUse);
    tuning::clear();
    {
      test::ScopedEnv failing("TILECL_TEST_FAIL_CONFIG", first.parameters.to_string());
      const std::size_t reports = test::reports_mentioning(first.parameters.to_string());
      check_batched<float>(nullptr, p);  // no error, right results
      CHECK(test::reports_mentioning(first.parameters.to_string()) == reports + 1);
      const auto second = tuning::parameters_for(device().queue, "gemm_strided_batched", "float", "40x6x7x5");
      CHECK(second.parameters != first.parameters);
    }
    tuning::clear();
  }

  TEST_CASE("gemm_batched: double through both variants") {
    if (!device().info->fp64) return;  // the refusal is in reliability.bad_input
    for (const auto& config : one_per_variant()) {
      CAPTURE(config.to_string());
      Problem p;
      p.batch = 4, p.m = 21, p.n = 18, p.k = 30, p.alpha = -0.5, p.beta = 1.5, p.gap = 2, p.per_matrix = true;
      check_batched<double>(&config, p);
    }
  }

  TEST_CASE("gemm_batched: half storage through both variants and the public functions (float scalars)") {
    // The orientation test's programs for half: strided row-major NN, per-matrix column-major TN.
    Problem p;
    p.batch = 5, p.m = 19, p.n = 13, p.k = 23, p.alpha = -1.25, p.beta = 0.5, p.ld_extra = 2, p.gap = 3, p.first = 1;
    for (const auto& config : one_per_variant()) {
      CAPTURE(config.to_string());
      check_batched<half>(&config, p);
      Problem q = p;
      q.layout = Layout::ColMajor, q.trans_a = Transpose::Yes, q.per_matrix = true, q.k = 37;
      check_batched<half>(&config, q);
    }
    // A larger matrix (several tiles, a K loop) and the public functions in two buckets.
    Problem large = p;
    large.batch = 2, large.m = 70, large.n = 45, large.k = 67;
    check_batched<half>(&more_settings()[1], large);
    for (const auto& shape : std::vector<std::array<std::size_t, 4>>{{30, 6, 7, 5}, {7, 40, 30, 20}}) {
      Problem call;
      call.batch = shape[0], call.m = shape[1], call.n = shape[2], call.k = shape[3], call.alpha = 0.75;
      call.beta = -0.5, call.gap = 1, call.per_matrix = shape[0] == 30;
      check_batched<half>(nullptr, call);
    }
  }

  TEST_CASE("gemm_batched: C matrices that interleave without sharing an element are accepted") {
    // Column blocks of one wide row-major matrix: C_i is columns [4 i, 4 i + 4) of a 6 x 20 matrix (ldc 20).
    Problem p;
    p.batch = 5, p.m = 6, p.n = 4, p.k = 3, p.alpha = 1.0, p.beta = 0.0;
    auto random = test::random_engine("interleaved C");
    const auto a = test::random_vector<float>(5 * 18, random), b = test::random_vector<float>(5 * 12, random);
    cl::Buffer a_buffer = test::to_device(a), b_buffer = test::to_device(b);
    test::GuardedBuffer<float> c(6 * 20);
    gemm_strided_batched<float>(device().queue, Layout::RowMajor, Transpose::No, Transpose::No, 6, 4, 3, 1.0f, a_buffer,
                                0, 3, 18, b_buffer, 0, 4, 12, 0.0f, c.buffer(), c.offset(), 20, 4, 5)
        .wait();
    std::vector<float> want(6 * 20);
    reference::gemm(reference::Layout::RowMajor, reference::Transpose::No, reference::Transpose::No, 6, 4, 3, 1.0,
                    a.data(), 3, b.data(), 4, 0.0, want.data(), 20);
    for (std::size_t i = 1; i < 5; ++i)
      reference::gemm(reference::Layout::RowMajor, reference::Transpose::No, reference::Transpose::No, 6, 4, 3, 1.0,
                      a.data() + 18 * i, 3, b.data() + 12 * i, 4, 0.0, want.data() + 4 * i, 20);
    test::check_all_close(c.read(), std::vector<double>(want.begin(), want.end()), 1e-5, "interleaved C");
    c.check_guards("interleaved C");
    // The same with per-matrix offsets listed backwards.
    test::GuardedBuffer<float> d(6 * 20);
    const std::vector<float> ones(5, 1.0f), zeros(5, 0.0f);
    gemm_batched<float>(device().queue, Layout::RowMajor, Transpose::No, Transpose::No, 6, 4, 3, ones, a_buffer,
                        {72, 54, 36, 18, 0}, 3, b_buffer, {48, 36, 24, 12, 0}, 4, zeros, d.buffer(),
                        {d.offset() + 16, d.offset() + 12, d.offset() + 8, d.offset() + 4, d.offset()}, 20)
        .wait();
    test::check_all_close(d.read(), std::vector<double>(want.begin(), want.end()), 1e-5, "interleaved C, offsets");
    d.check_guards("interleaved C, offsets");
  }

  TEST_CASE("gemm_batched: evenly spaced offsets run as a strided batch when the scalars are uniform") {
    Problem p;
    p.batch = 9, p.m = 7, p.n = 5, p.k = 6, p.alpha = 1.5, p.beta = 0.5, p.gap = 2;
    p.per_matrix = true, p.in_order = true, p.trans_a = Transpose::Yes;
    for (bool same : {true, false})
      for (bool shared_a : {false, true}) {
        p.same_scalars = same, p.shared_a = shared_a;
        check_batched<float>(nullptr, p);
      }
    // Commands enqueued: the kernel alone (strided form), or the table's upload and the kernel.
    const std::size_t m = 3, n = 4, k = 2, batch = 5;
    cl::Buffer a(device().context, CL_MEM_READ_WRITE, batch * m * k * sizeof(float));
    cl::Buffer b(device().context, CL_MEM_READ_WRITE, batch * k * n * sizeof(float));
    cl::Buffer c(device().context, CL_MEM_READ_WRITE, batch * m * n * sizeof(float));
    std::vector<std::size_t> a_offsets, b_offsets, c_offsets, shuffled_c;
    for (std::size_t i = 0; i < batch; ++i)
      a_offsets.push_back(i * m * k), b_offsets.push_back(i * k * n), c_offsets.push_back(i * m * n);
    shuffled_c = {c_offsets[2], c_offsets[0], c_offsets[4], c_offsets[1], c_offsets[3]};
    std::vector<float> ones(batch, 1.0f), zeros(batch, 0.0f), varied{1.0f, 2.0f, 1.0f, 1.0f, 1.0f};
    const auto commands = [&](const std::vector<float>& alphas, const std::vector<std::size_t>& c_at) {
      detail::BatchedCall<float> call;
      call.m = m, call.n = n, call.k = k, call.batch = batch;
      call.a = &a, call.b = &b, call.c = &c, call.lda = k, call.ldb = n, call.ldc = n;
      call.a_offsets = &a_offsets, call.b_offsets = &b_offsets, call.c_offsets = &c_at;
      call.alphas = &alphas, call.betas = &zeros;
      std::vector<cl::Event> events;
      detail::run_gemm_batched<float>(nullptr, device().queue, call, nullptr, &events).wait();
      return events.size();
    };
    CHECK(commands(ones, c_offsets) == 1);
    CHECK(commands(varied, c_offsets) == 2);
    CHECK(commands(ones, shuffled_c) == 2);
    // Evenly spaced C matrices that overlap (stride 0, then a stride shorter than a matrix) are refused by
    // gemm_batched's name.
    for (std::size_t stride : {std::size_t(0), std::size_t(5)}) {
      std::vector<std::size_t> overlapping;
      for (std::size_t i = 0; i < batch; ++i) overlapping.push_back(i * stride);
      CAPTURE(stride);
      try {
        gemm_batched<float>(device().queue, Layout::RowMajor, Transpose::No, Transpose::No, m, n, k, ones, a, a_offsets,
                            k, b, b_offsets, n, zeros, c, overlapping, n);
        FAIL("overlapping C matrices were accepted");
      } catch (const Error& error) {
        CHECK(error.op() == "gemm_batched");
        CHECK(error.argument() == "c");
        CHECK(error.status() == CL_MEM_COPY_OVERLAP);
      }
    }
  }

  TEST_CASE("gemm_batched: both kernels, strided and with offsets, at tiny sizes (also run under oclgrind)") {
    for (const auto& config : one_per_variant()) {
      CAPTURE(config.to_string());
      Problem p;
      p.batch = 3, p.m = 5, p.n = 6, p.k = 7, p.alpha = 0.5, p.beta = 1.5, p.gap = 1;
      check_batched<float>(&config, p);
      p.per_matrix = true, p.beta = 0.0, p.trans_a = Transpose::Yes;
      check_batched<float>(&config, p);
      p.per_matrix = false, p.beta = 1.5, p.trans_a = Transpose::No;
      check_batched<half>(&config, p);
    }
    // Aligned operands through vector accesses (oclgrind checks their bounds).
    Problem p;
    p.batch = 3, p.m = 5, p.n = 6, p.k = 7, p.alpha = 0.5, p.beta = 1.5, p.gap = 1, p.align = 4;
    check_batched<float>(&vector_settings()[0], p);
    p.trans_b = Transpose::Yes, p.beta = 0.0;
    check_batched<float>(&vector_settings()[1], p);
  }

  TEST_CASE("gemm_batched: buckets, defaults (this device's and an H200-like GPU's) and the tuning subjects") {
    CHECK(detail::gemm_batched_bucket(8, 3) == "mn<=8");
    CHECK(detail::gemm_batched_bucket(9, 3) == "mn<=16");
    CHECK(detail::gemm_batched_bucket(20, 30) == "mn<=32");
    CHECK(detail::gemm_batched_bucket(64, 1) == "mn<=64");
    CHECK(detail::gemm_batched_bucket(128, 100) == "mn<=128");
    CHECK(detail::gemm_batched_bucket(129, 1) == "mn>128");
    DeviceInfo gpu = *device().info;
    gpu.type = CL_DEVICE_TYPE_GPU, gpu.local_memory_is_dedicated = true, gpu.compute_units = 132;
    gpu.local_memory_bytes = std::min<std::uint64_t>(49152, device().info->local_memory_bytes);
    gpu.max_work_group_size = std::min<std::size_t>(1024, device().info->max_work_group_size);
    for (const auto& bucket : detail::gemm_batched_buckets()) {
      for (const DeviceInfo* info : {device().info, static_cast<const DeviceInfo*>(&gpu)}) {
        const Config config = detail::gemm_batched_default_config(detail::dtype_of<float>(), bucket, *info);
        INFO(bucket << ": " << config.to_string());
        CHECK(detail::gemm_batched_search_space(detail::dtype_of<float>(), bucket, *info).validate(config, *info) ==
              "");
      }
    }
    for (const char* name : {"gemm_strided_batched", "gemm_batched"}) {
      const auto& op = detail::find_tunable_op(name);
      CHECK(op.description.default_shapes.size() == detail::gemm_batched_buckets().size());
      for (const auto& shape : op.description.default_shapes)
        CHECK(op.make_subject("float", shape)->timing_shape() == shape);
      CHECK(op.make_subject("float", "3000x20x30x40:NT:col")->key().bucket == "mn<=32");
      for (const char* bad : {"3x4x5", "3x4x5x6:XX", "0x4x5x6"}) CHECK_THROWS_AS(op.make_subject("float", bad), Error);
      auto subject = op.make_subject("float", "64x16x16x16");
      subject->prepare(device().queue, 11);
      const Config config =
          std::string(name) == "gemm_batched" ? subject->default_config(*device().info) : more_settings()[0];
      INFO(name << ": " << config.to_string());
      CHECK(subject->verify(device().queue, config) == "");
      auto half_subject = op.make_subject("half", "64x16x16x16");  // half storage: float scalars, half's bound
      half_subject->prepare(device().queue, 12);
      CHECK(half_subject->key().dtype == "half");
      CHECK(half_subject->verify(device().queue, half_subject->default_config(*device().info)) == "");
    }
  }

  TEST_CASE("gemm_batched: m, n or batch_count = 0 enqueues nothing and returns a null event") {
    cl::Buffer tiny(device().context, CL_MEM_READ_WRITE, 4);
    CHECK(gemm_strided_batched<float>(device().queue, Layout::RowMajor, Transpose::No, Transpose::No, 5, 5, 5, 1.0f,
                                      tiny, 0, 5, 25, tiny, 0, 5, 25, 0.0f, tiny, 0, 5, 25, 0)() == nullptr);
    const std::vector<float> none;
    const std::vector<std::size_t> no_offsets;
    CHECK(gemm_batched<float>(device().queue, Layout::ColMajor, Transpose::Yes, Transpose::No, 5, 5, 5, none, tiny,
                              no_offsets, 5, tiny, no_offsets, 5, none, tiny, no_offsets, 5)() == nullptr);
  }
}
