#include <doctest/doctest.h>

#include <array>
#include <cmath>
#include <limits>
#include <set>

#include "ops/gemv.hpp"
#include "ops/gemv_tuning.hpp"
#include "reference/gemv_reference.hpp"
#include "support/fixture.hpp"
#include "support/gemm_support.hpp"
#include "support/guarded_buffer.hpp"
#include "tilecl/error.hpp"
#include "tilecl/gemv.hpp"
#include "tilecl/runtime.hpp"
#include "tilecl/tuning.hpp"
#include "tuning/op_registry.hpp"

using namespace tilecl;
using tilecl::detail::Config;
using tilecl::test::device;

namespace {

constexpr double kSentinel = 4321.0;  // y between its elements and around it: must survive bit for bit

// One public call, without its buffers.
struct Problem {
  Layout layout = Layout::RowMajor;
  Transpose trans = Transpose::No;
  std::size_t m = 1, n = 1;
  double alpha = 1.0, beta = 0.0;
  std::size_t a_offset = 0, lda_extra = 0, x_offset = 0, y_offset = 0;
  std::ptrdiff_t incx = 1, incy = 1;

  std::string describe() const {
    return std::string(layout == Layout::RowMajor ? "row" : "col") + (trans == Transpose::Yes ? " T " : " N ") +
           std::to_string(m) + "x" + std::to_string(n) + " alpha " + std::to_string(alpha) + " beta " +
           std::to_string(beta) + " a+" + std::to_string(a_offset) + " lda+" + std::to_string(lda_extra) + " x+" +
           std::to_string(x_offset) + " incx " + std::to_string(incx) + " y+" + std::to_string(y_offset) + " incy " +
           std::to_string(incy);
  }
};

using test::ref_layout;
using test::ref_trans;

// The accepted error of an output (magnitude: |alpha| sum |a x| + |beta y|): the float or double rounding bound of
// a `depth`-term sum; for half (computed in float) float's bound plus one spacing of half at the result (2^-10
// relative, 2^-24 absolute), as the reference and the device each round to half once.
template <typename T>
double tolerance(std::size_t depth, double magnitude, double result) {
  if constexpr (test::is_float16_v<T>)
    return reference::gemm_tolerance<float>(depth, magnitude) + std::ldexp(std::abs(result), -10) +
           std::ldexp(1.0, -24);
  else
    return reference::gemm_tolerance<T>(depth, magnitude);
}

// Checks every element of a result region: within the rounding bound of a `depth`-term sum where `inside`,
// bit for bit (or NaN for NaN) elsewhere.
template <typename T>
void check_region(const std::vector<T>& got, const std::vector<T>& want, const std::vector<double>& bound,
                  const std::vector<bool>& inside) {
  std::size_t bad = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    const bool ok = inside[i]
                        ? std::abs(static_cast<double>(got[i]) - static_cast<double>(want[i])) <=
                              bound[i] + 2 * std::numeric_limits<T>::epsilon() * std::abs(static_cast<double>(want[i]))
                        : (got[i] == want[i] || (std::isnan(got[i]) && std::isnan(want[i])));
    if (!ok && bad++ < 5)
      FAIL_CHECK("element " << i << " is " << got[i] << ", expected " << want[i] << (inside[i] ? "" : " (outside)"));
  }
  CHECK_MESSAGE(bad == 0, bad << " of " << got.size() << " elements differ");
}

// Runs the problem (through `config`, or the public API when null) and checks all of y's region, guards
// included. alpha == 0: A and x hold NaN (they must not be read); beta == 0: y holds NaN (it must not be read).
template <typename T>
void check_gemv(const Config* config, const Problem& p) {
  CAPTURE(p.describe());
  auto random = test::random_engine("gemv" + p.describe());
  const bool row_major = p.layout == Layout::RowMajor, transposed = p.trans == Transpose::Yes;
  const std::size_t lda = (row_major ? p.n : p.m) + p.lda_extra;
  const std::size_t x_length = transposed ? p.m : p.n, y_length = transposed ? p.n : p.m;
  const std::size_t a_size = p.a_offset + reference::required_elements(ref_layout(p.layout), {p.m, p.n}, lda);
  const T nan = static_cast<T>(std::numeric_limits<float>::quiet_NaN());
  std::vector<T> a = test::random_vector<T>(a_size + 3, random);
  std::vector<T> x = test::random_vector<T>(p.x_offset + reference::vector_span(x_length, p.incx) + 2, random);
  if (p.alpha == 0.0) a.assign(a.size(), nan), x.assign(x.size(), nan);
  std::vector<T> y(p.y_offset + reference::vector_span(y_length, p.incy) + 4, T(kSentinel));
  std::vector<bool> inside(y.size(), false);
  for (std::size_t i = 0; i < y_length; ++i) {
    const std::size_t at = p.y_offset + reference::vector_index(i, y_length, p.incy);
    y[at] = test::random_vector<T>(1, random)[0];
    inside[at] = true;
  }
  std::vector<T> start = y;
  if (p.beta == 0.0)
    for (std::size_t i = 0; i < y.size(); ++i)
      if (inside[i]) start[i] = nan;

  std::vector<T> want = y;
  std::vector<double> magnitude, bound(y.size(), 0.0);
  if (p.alpha == 0.0) {
    for (std::size_t i = 0; i < y.size(); ++i)
      if (inside[i]) want[i] = p.beta == 0.0 ? T(0) : T(p.beta * static_cast<double>(y[i]));
  } else {
    reference::gemv(ref_layout(p.layout), ref_trans(p.trans), p.m, p.n, p.alpha, a.data() + p.a_offset, lda,
                    x.data() + p.x_offset, p.incx, p.beta, want.data() + p.y_offset, p.incy, &magnitude);
    for (std::size_t i = 0; i < y_length; ++i) {
      const std::size_t at = p.y_offset + reference::vector_index(i, y_length, p.incy);
      bound[at] = tolerance<T>(x_length, magnitude[i], static_cast<double>(want[at]));
    }
  }

  cl::Buffer a_buffer = test::to_device(a), x_buffer = test::to_device(x);
  test::GuardedBuffer<T> y_buffer(start);
  const std::size_t y_at = y_buffer.offset() + p.y_offset;
  const detail::ComputeType<T> alpha = static_cast<detail::ComputeType<T>>(p.alpha),
                               beta = static_cast<detail::ComputeType<T>>(p.beta);
  cl::Event done =
      config != nullptr
          ? detail::gemv_with<T>(*config, device().queue, p.layout, p.trans, p.m, p.n, alpha, a_buffer, p.a_offset, lda,
                                 x_buffer, p.x_offset, p.incx, beta, y_buffer.buffer(), y_at, p.incy)
          : gemv<T>(device().queue, p.layout, p.trans, p.m, p.n, alpha, a_buffer, p.a_offset, lda, x_buffer, p.x_offset,
                    p.incx, beta, y_buffer.buffer(), y_at, p.incy);
  REQUIRE(done() != nullptr);
  done.wait();
  check_region(y_buffer.read(), want, bound, inside);
  y_buffer.check_guards("y");
}

Config gemv_config(std::int64_t vec, std::int64_t wpt, std::int64_t wg_x, std::int64_t wg_y, std::int64_t unroll,
                   std::int64_t split) {
  return {"gemv", {{"VEC", vec}, {"WPT", wpt}, {"WG_X", wg_x}, {"WG_Y", wg_y}, {"UNROLL", unroll}, {"SPLIT", split}}};
}

// GPU-shaped (local reductions) and CPU-shaped (none) settings, the split on and off, unusual widths and unrolls;
// at most 256 work-items and 32 KiB of partial sums, which the H200 takes.
std::vector<Config> settings() {
  return {gemv_config(4, 1, 32, 4, 4, 16), gemv_config(8, 4, 1, 8, 2, 4),    gemv_config(1, 1, 32, 8, 8, 16),
          gemv_config(2, 2, 8, 4, 1, 1),   gemv_config(16, 3, 16, 2, 3, 64), gemv_config(8, 4, 8, 1, 2, 8)};
}

// Every layout x transpose, both signs of both increments (BLAS walks a negative one from the far end).
std::vector<Problem> orientations(Problem base) {
  std::vector<Problem> all;
  const std::array<std::pair<std::ptrdiff_t, std::ptrdiff_t>, 4> increments{{{1, 1}, {-2, 3}, {3, -1}, {-1, -2}}};
  int i = 0;
  for (Layout layout : {Layout::RowMajor, Layout::ColMajor})
    for (Transpose trans : {Transpose::No, Transpose::Yes}) {
      Problem p = base;
      p.layout = layout, p.trans = trans;
      p.incx = increments[i % 4].first, p.incy = increments[i % 4].second;
      all.push_back(p);
      p.incx = increments[(i + 1) % 4].first, p.incy = increments[(i + 1) % 4].second, p.beta = 0.0;
      all.push_back(p);
      ++i;
    }
  return all;
}

// A gemm call through gemv_problem_of_gemm, checked against the gemm reference (C's region and guards).
template <typename T>
void check_gemm_as_gemv(const Config* config, Layout layout, Transpose ta, Transpose tb, std::size_t m, std::size_t n,
                        std::size_t k, double beta) {
  INFO(m << "x" << n << "x" << k << (layout == Layout::RowMajor ? " row " : " col ")
         << (ta == Transpose::Yes ? "T" : "N") << (tb == Transpose::Yes ? "T" : "N") << " beta " << beta);
  auto random = test::random_engine("gemm as gemv" + std::to_string(m * 1000000 + n * 1000 + k));
  const auto rl = ref_layout(layout);
  const auto a_extent = reference::stored_extent(ref_trans(ta), m, k);
  const auto b_extent = reference::stored_extent(ref_trans(tb), k, n);
  const std::size_t lda = reference::min_ld(rl, a_extent) + 1, ldb = reference::min_ld(rl, b_extent) + 2;
  const std::size_t ldc = reference::min_ld(rl, {m, n}) + 3, offset = 5;
  auto a = test::random_vector<T>(offset + reference::required_elements(rl, a_extent, lda), random);
  auto b = test::random_vector<T>(offset + reference::required_elements(rl, b_extent, ldb), random);
  std::vector<T> c(offset + reference::required_elements(rl, {m, n}, ldc) + 2, T(kSentinel));
  std::vector<bool> inside(c.size(), false);
  for (std::size_t r = 0; r < m; ++r)
    for (std::size_t j = 0; j < n; ++j) {
      const std::size_t at = offset + reference::matrix_index(rl, r, j, ldc);
      c[at] = test::random_vector<T>(1, random)[0], inside[at] = true;
    }
  std::vector<T> want = c;
  std::vector<double> magnitude, bound(c.size(), 0.0);
  reference::gemm(rl, ref_trans(ta), ref_trans(tb), m, n, k, -0.75, a.data() + offset, lda, b.data() + offset, ldb,
                  beta, want.data() + offset, ldc, &magnitude);
  for (std::size_t i = 0; i < magnitude.size(); ++i) bound[offset + i] = tolerance<T>(k, magnitude[i], 0.0);

  cl::Buffer a_buffer = test::to_device(a), b_buffer = test::to_device(b);
  test::GuardedBuffer<T> c_buffer(c);
  const auto problem = detail::gemv_problem_of_gemm(layout, ta, tb, m, n, k, a_buffer, offset, lda, b_buffer, offset,
                                                    ldb, c_buffer.buffer(), c_buffer.offset() + offset, ldc);
  REQUIRE(problem.has_value());
  const auto target = detail::queue_target("gemv", device().queue);
  detail::enqueue_gemv<T>(target, device().queue, *problem, T(-0.75), T(beta), nullptr, config).wait();
  check_region(c_buffer.read(), want, bound, inside);
  c_buffer.check_guards("C");
}

}  // namespace

TEST_SUITE("ops.gemv") {
  TEST_CASE("gemv: both forms at every layout, transpose and increment sign, offsets and padded lda (float)") {
    Problem base;
    base.m = 67, base.n = 45, base.alpha = -1.25, base.beta = 0.5, base.a_offset = 3, base.lda_extra = 2;
    base.x_offset = 1, base.y_offset = 2;
    for (const auto& config : {settings()[0], settings()[1]}) {
      CAPTURE(config.to_string());
      for (const auto& p : orientations(base)) check_gemv<float>(&config, p);
    }
  }

  TEST_CASE("gemv: several parameter settings at edge and ragged sizes, with and without depth slices") {
    // (m, n): one element, one row, one column, primes, a long depth that splits (the device holds many more
    // work-items than these outputs give), vector-aligned and misaligned A.
    const std::vector<std::array<std::size_t, 2>> shapes{{1, 1}, {1, 37}, {37, 1}, {13, 131}, {5, 3001}, {3001, 7}};
    for (const auto& config : settings()) {
      CAPTURE(config.to_string());
      for (const auto& shape : shapes) {
        for (Transpose trans : {Transpose::No, Transpose::Yes}) {
          Problem p;
          p.m = shape[0], p.n = shape[1], p.trans = trans, p.alpha = 0.5, p.beta = -2.0;
          p.a_offset = shape[0] % 2 ? 16 : 1, p.lda_extra = shape[1] % 2 ? 16 - shape[1] % 16 : 1;
          check_gemv<float>(&config, p);
        }
      }
    }
  }

  TEST_CASE("gemv: alpha = 0 reads neither A nor x; beta = 0 does not read y; beta = 1 accumulates") {
    const std::vector<std::pair<double, double>> scalars{{0.0, 0.0}, {0.0, -3.0}, {1.0, 1.0}, {2.0, 0.0}};
    for (const auto& [alpha, beta] : scalars) {
      for (Transpose trans : {Transpose::No, Transpose::Yes}) {
        Problem p;
        p.m = 29, p.n = 600, p.trans = trans, p.alpha = alpha, p.beta = beta, p.incy = -1;
        check_gemv<float>(&settings()[0], p);
        check_gemv<float>(nullptr, p);
      }
    }
  }

  TEST_CASE("gemv: the public API with its own parameters, float and double, in every bucket's size class") {
    const std::vector<std::array<std::size_t, 2>> shapes{{300, 200}, {1500, 1200}, {4100, 4099}};
    for (const auto& shape : shapes) {
      for (Transpose trans : {Transpose::No, Transpose::Yes}) {
        Problem p;
        p.m = shape[0], p.n = shape[1], p.trans = trans, p.alpha = 1.5, p.beta = 0.25, p.x_offset = 1;
        check_gemv<float>(nullptr, p);
        if (device().info->fp64) {
          p.layout = Layout::ColMajor, p.incx = -1;
          check_gemv<double>(nullptr, p);
        }
      }
    }
  }

  TEST_CASE("gemv: half storage through both forms, every orientation and several settings, within the bound") {
    Problem base;
    base.m = 67, base.n = 45, base.alpha = -1.25, base.beta = 0.5, base.a_offset = 3, base.lda_extra = 2;
    base.x_offset = 1, base.y_offset = 2;
    // GPU-shaped with 16-byte (VEC 8) loads (32 x 4 work-items: the partial sums of 8 vectors then fit 48 KiB of
    // local memory, as on the H200), CPU-shaped, and VEC 16 with depth slices.
    const std::vector<Config> half_settings{gemv_config(8, 1, 32, 4, 4, 16), settings()[1], settings()[4]};
    for (const auto& config : half_settings) {
      CAPTURE(config.to_string());
      for (const auto& p : orientations(base)) check_gemv<half>(&config, p);
      for (const auto& shape : std::vector<std::array<std::size_t, 2>>{{1, 1}, {1, 37}, {37, 1}, {5, 3001}, {3001, 7}})
        for (Transpose trans : {Transpose::No, Transpose::Yes}) {
          Problem p;
          p.m = shape[0], p.n = shape[1], p.trans = trans, p.alpha = 0.5, p.beta = -2.0;
          p.a_offset = shape[0] % 2 ? 16 : 1, p.lda_extra = shape[1] % 2 ? 16 - shape[1] % 16 : 1;
          check_gemv<half>(&config, p);
        }
    }
    // alpha = 0 (A and x hold NaN, not read), beta = 0 (y holds NaN, not read), and the public API.
    for (const auto& [alpha, beta] : std::vector<std::pair<double, double>>{{0.0, -3.0}, {2.0, 0.0}, {1.5, 0.25}})
      for (Transpose trans : {Transpose::No, Transpose::Yes}) {
        Problem p;
        p.m = 300, p.n = 1200, p.trans = trans, p.alpha = alpha, p.beta = beta, p.x_offset = 1, p.incy = -1;
        check_gemv<half>(nullptr, p);
      }
  }

  TEST_CASE("gemv: the tuning entry verifies half settings in both forms (tilecl tune --dtype half)") {
    for (const char* shape : {"500x700:N", "700x500:T"}) {
      CAPTURE(shape);
      auto subject = detail::find_tunable_op("gemv").make_subject("half", shape);
      CHECK(subject->key().dtype == "half");
      subject->prepare(device().queue, 9);
      cl::CommandQueue queue = device().queue;
      for (const auto& config : {subject->default_config(*device().info), settings()[1], settings()[4]})
        CHECK(subject->verify(queue, config).empty());
    }
  }

  TEST_CASE("gemv: half: sizes count 2-byte elements; results beyond half's range overflow to infinity") {
    const std::vector<half> ones(64, half(200.0f));
    cl::Buffer a = test::to_device(ones), x = test::to_device(ones);
    test::GuardedBuffer<half> y(2);
    // 8 products of 40000 each: 320000 is beyond 65504.
    gemv<half>(device().queue, Layout::RowMajor, Transpose::No, 2, 8, 1.0f, a, 0, 8, x, 0, 1, 0.0f, y.buffer(),
               y.offset(), 1)
        .wait();
    CHECK(std::isinf(static_cast<float>(y.read()[0])));
    y.check_guards("half y");
    // a holds 64 halves: 8 x 8 fits, at offset 1 it does not.
    try {
      gemv<half>(device().queue, Layout::RowMajor, Transpose::No, 8, 8, 1.0f, a, 1, 8, x, 0, 1, 0.0f, y.buffer(), 0, 1);
      FAIL("expected tilecl::Error");
    } catch (const Error& error) {
      CHECK(error.argument() == "a");
      CHECK(error.status_name() == "CL_INVALID_BUFFER_SIZE");
    }
  }

  TEST_CASE("gemv: double through both forms and several settings") {
    if (!device().info->fp64) return;  // the refusal is in reliability.bad_input
    for (const auto& config : {settings()[0], settings()[1]}) {
      CAPTURE(config.to_string());
      for (Transpose trans : {Transpose::No, Transpose::Yes}) {
        Problem p;
        p.m = 41, p.n = 1100, p.trans = trans, p.alpha = -0.5, p.beta = 1.5, p.a_offset = 1, p.incx = 2;
        check_gemv<double>(&config, p);
      }
    }
  }

  TEST_CASE("gemv: gemm calls with m or n of 1 to 8 run as several vectors at once, in every layout and transpose") {
    for (const auto& config : {settings()[0], settings()[1]}) {
      CAPTURE(config.to_string());
      for (Layout layout : {Layout::RowMajor, Layout::ColMajor})
        for (Transpose ta : {Transpose::No, Transpose::Yes})
          for (Transpose tb : {Transpose::No, Transpose::Yes}) {
            check_gemm_as_gemv<float>(&config, layout, ta, tb, 3, 97, 530, 0.0);
            check_gemm_as_gemv<float>(&config, layout, ta, tb, 89, 8, 61, 0.5);
          }
    }
    // One vector, both small (the smaller decides), k = 0 (C = beta C), the most vectors (the programs above).
    check_gemm_as_gemv<float>(&settings()[0], Layout::RowMajor, Transpose::No, Transpose::No, 1, 300, 45, 1.0);
    check_gemm_as_gemv<float>(&settings()[0], Layout::RowMajor, Transpose::No, Transpose::Yes, 3, 4, 700, 0.0);
    check_gemm_as_gemv<float>(&settings()[1], Layout::ColMajor, Transpose::Yes, Transpose::No, 50, 3, 0, -2.0);
    check_gemm_as_gemv<float>(&settings()[1], Layout::RowMajor, Transpose::Yes, Transpose::Yes, 120, 8, 77, 0.5);
    cl::Buffer tiny(device().context, CL_MEM_READ_WRITE, 4);
    CHECK_FALSE(detail::gemv_problem_of_gemm(Layout::RowMajor, Transpose::No, Transpose::No, 9, 9, 9, tiny, 0, 9, tiny,
                                             0, 9, tiny, 0, 9)
                    .has_value());
  }

  TEST_CASE("gemv: a warm call takes its choice and program from the thread's memo entry, per load width") {
    std::mt19937_64 random(12);
    const std::vector<float> values = test::random_vector<float>(4096, random);
    cl::Buffer a = test::to_device(values), x = test::to_device(values);
    test::GuardedBuffer<float> y(200);
    auto call = [&](std::size_t a_offset) {
      gemv<float>(device().queue, Layout::RowMajor, Transpose::No, 200, 15, 1.0f, a, a_offset, 16, x, 0, 1, 0.0f,
                  y.buffer(), y.offset(), 1)
          .wait();
    };
    call(0);  // resolves (first use or the database) and builds
    reset_statistics();
    call(0);
    CHECK(statistics().memory_hits == 0);  // the program came with the memo entry, not from the program cache
    CHECK(statistics().compiles == 0);
    CHECK(statistics().tunings == 0);
    // R's offset one element off its vectors: another program (VEC 1), another memo entry, the right result.
    call(1);
    const std::vector<float> got = y.read();
    y.check_guards("y");
    for (std::size_t r = 0; r < 200; r += 37) {
      double want = 0;
      for (std::size_t c = 0; c < 15; ++c) want += static_cast<double>(values[1 + r * 16 + c]) * values[c];
      CHECK(got[r] == doctest::Approx(want).epsilon(1e-4));
    }
  }

  TEST_CASE("gemv: both forms with depth slices, gathered x and strided y at tiny sizes (also run under oclgrind)") {
    const Config config = gemv_config(4, 2, 8, 4, 2, 4);
    for (Transpose trans : {Transpose::No, Transpose::Yes}) {
      Problem p;
      p.m = trans == Transpose::No ? 5 : 600, p.n = trans == Transpose::No ? 600 : 5, p.trans = trans;
      p.alpha = 0.5, p.beta = 1.5, p.incx = 2, p.incy = -2, p.a_offset = 4;
      check_gemv<float>(&config, p);
      check_gemv<half>(&config, p);
      p.m = 3, p.n = 7, p.incx = 1, p.beta = 0.0, p.alpha = 0.0;  // y = beta * y alone
      check_gemv<float>(&config, p);
    }
  }

  TEST_CASE("gemv: the tuning subject verifies good configurations; buckets and shapes of tilecl tune") {
    const auto& op = detail::find_tunable_op("gemv");
    CHECK(op.description.default_shapes.size() == detail::gemv_buckets().size());
    std::set<std::string> buckets;
    for (const auto& shape : op.description.default_shapes) {
      auto subject = op.make_subject("float", shape);
      CHECK(subject->timing_shape() == shape);
      buckets.insert(subject->key().bucket);
    }
    CHECK(buckets.size() == detail::gemv_buckets().size());
    CHECK(op.make_subject("float", "100x2000:T")->key().bucket == "columns,<2^20");
    CHECK(op.make_subject("float", "100x2000:T:col")->key().bucket == "dots,<2^20");
    CHECK(op.make_subject("double", "8192x4096:N")->key().bucket == "dots,>=2^24");
    CHECK(op.make_subject("float", "4096x64:N:v3")->key().bucket == "dots,multi");
    for (const char* bad : {"1x2x3", "10x10:X", "10x10:v9", "0x5"}) {
      CAPTURE(bad);
      CHECK_THROWS_AS(op.make_subject("float", bad), Error);
    }
    CHECK_THROWS_AS(op.make_subject("int32", "10x10"), Error);
    for (const char* bucket : {"dots,<2^20", "columns,multi"}) {
      auto subject = detail::make_gemv_subject("float", bucket);
      subject->prepare(device().queue, 7);
      const Config config = subject->default_config(*device().info);
      INFO(bucket << ": " << config.to_string());
      CHECK(subject->verify(device().queue, config) == "");
      CHECK(subject->run(device().queue, config).size() >= 1);
    }
  }

  TEST_CASE("gemv: each bucket's default (this device's and an H200-like GPU's) is valid and correct here") {
    DeviceInfo gpu = *device().info;
    gpu.type = CL_DEVICE_TYPE_GPU, gpu.local_memory_is_dedicated = true, gpu.compute_units = 132;
    gpu.local_memory_bytes = std::min<std::uint64_t>(49152, device().info->local_memory_bytes);
    gpu.max_work_group_size = std::min<std::size_t>(1024, device().info->max_work_group_size);
    // Float's and half's (half storage has its own GPU defaults for one vector).
    std::set<std::string> done;
    for (const auto& bucket : detail::gemv_buckets()) {
      for (const DeviceInfo* info : {device().info, static_cast<const DeviceInfo*>(&gpu)}) {
        for (const bool half_storage : {false, true}) {
          const auto& dtype = half_storage ? detail::dtype_of<half>() : detail::dtype_of<float>();
          const Config config = detail::gemv_default_config(dtype, bucket, *info);
          INFO(bucket << " " << dtype.name << ": " << config.to_string());
          CHECK(detail::gemv_search_space(dtype, bucket, *info).validate(config, *info) == "");
          if (!done.insert(std::string(dtype.name) + " " + config.to_string()).second) continue;
          Problem p;
          p.m = 77, p.n = 530, p.alpha = 1.0, p.beta = 0.25, p.a_offset = 8;
          p.trans = bucket.rfind("dots", 0) == 0 ? Transpose::No : Transpose::Yes;
          if (half_storage)
            check_gemv<half>(&config, p);
          else
            check_gemv<float>(&config, p);
        }
      }
    }
  }

  TEST_CASE("gemv: m = 0 or n = 0 enqueues nothing and returns a null event, as BLAS (y is not scaled)") {
    cl::Buffer tiny(device().context, CL_MEM_READ_WRITE, 4);
    CHECK(gemv<float>(device().queue, Layout::RowMajor, Transpose::No, 0, 5, 1.0f, tiny, 1000, 1, tiny, 1000, 1, 2.0f,
                      tiny, 1000, -1)() == nullptr);
    CHECK(gemv<double>(device().queue, Layout::ColMajor, Transpose::Yes, 5, 0, 1.0, tiny, 0, 5, tiny, 0, 1, 0.0, tiny,
                       0, 1)() == nullptr);
  }
}
