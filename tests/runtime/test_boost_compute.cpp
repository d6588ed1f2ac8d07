#include <doctest/doctest.h>

#include <boost/compute/algorithm/copy.hpp>
#include <boost/compute/container/vector.hpp>
#include <boost/compute/user_event.hpp>

#include "reference/gemm_reference.hpp"
#include "reference/image_reference.hpp"
#include "support/fixture.hpp"
#include "tilecl/boost_compute.hpp"

using namespace tilecl;
using tilecl::test::device;

TEST_SUITE("runtime.boost_compute") {
  TEST_CASE("boost compute: tilecl ops take Boost.Compute queues and vectors") {
    boost::compute::context context(device().context());
    boost::compute::command_queue queue(context, boost::compute::device(device().device()));
    auto random = test::random_engine("boost");
    const std::size_t n = 3001;
    auto x_host = test::random_vector<float>(n, random), y_host = test::random_vector<float>(n, random);
    boost::compute::vector<float> x(x_host.begin(), x_host.end(), queue), y(y_host.begin(), y_host.end(), queue);
    compute::axpy(queue, 3.0f, x, y).wait();
    std::vector<float> got(n);
    boost::compute::copy(y.begin(), y.end(), got.begin(), queue);
    std::vector<double> want(n);
    for (std::size_t i = 0; i < n; ++i) want[i] = 3.0 * x_host[i] + y_host[i];
    test::check_all_close(got, want, 1e-6, "axpy on Boost.Compute vectors");

    boost::compute::vector<float> c(n, context);
    compute::vector_add(queue, x, y, c).wait();
    boost::compute::copy(c.begin(), c.end(), got.begin(), queue);
    for (std::size_t i = 0; i < n; ++i) want[i] = static_cast<double>(x_host[i]) + (3.0 * x_host[i] + y_host[i]);
    test::check_all_close(got, want, 1e-6, "vector_add on Boost.Compute vectors");
  }

  TEST_CASE("boost compute: reductions and transposes of whole vectors") {
    boost::compute::context context(device().context());
    boost::compute::command_queue queue(context, boost::compute::device(device().device()));
    auto random = test::random_engine("boost-reduce");
    auto host = test::random_vector<float>(1001, random);
    boost::compute::vector<float> x(host.begin(), host.end(), queue);
    double want = 0, magnitude = 0;
    for (float v : host) want += v, magnitude += std::abs(v);
    // A float sum's error bound, (n + 2) 2^-24 sum |x|: a relative one fails when the sum comes near 0.
    CHECK(std::abs(compute::reduce_value(queue, ReduceOp::Sum, x) - want) <= (host.size() + 2) * 0x1p-24 * magnitude);
    const auto largest = std::max_element(host.begin(), host.end()) - host.begin();
    CHECK(compute::reduce_index(queue, ReduceOp::ArgMax, x) == static_cast<std::size_t>(largest));
    boost::compute::vector<float> t(1001, context);
    compute::transpose(queue, 7, 143, x, t).wait();
    std::vector<float> got(1001);
    boost::compute::copy(t.begin(), t.end(), got.begin(), queue);
    for (std::size_t r = 0; r < 7; ++r)
      for (std::size_t c = 0; c < 143; ++c) CHECK(got[c * 7 + r] == host[r * 143 + c]);
    CHECK_THROWS_AS(compute::transpose(queue, 8, 143, x, t), Error);
  }

  TEST_CASE("boost compute: gemm on dense vectors matches the host reference in every layout and transpose") {
    boost::compute::context context(device().context());
    boost::compute::command_queue queue(context, boost::compute::device(device().device()));
    auto random = test::random_engine("boost-gemm");
    const std::size_t m = 37, n = 29, k = 41;
    for (Layout layout : {Layout::RowMajor, Layout::ColMajor}) {
      for (Transpose trans_a : {Transpose::No, Transpose::Yes}) {
        for (Transpose trans_b : {Transpose::No, Transpose::Yes}) {
          CAPTURE(static_cast<int>(layout));
          CAPTURE(static_cast<int>(trans_a));
          CAPTURE(static_cast<int>(trans_b));
          auto a_host = test::random_vector<float>(m * k, random), b_host = test::random_vector<float>(k * n, random);
          auto c_host = test::random_vector<float>(m * n, random);
          boost::compute::vector<float> a(a_host.begin(), a_host.end(), queue), b(b_host.begin(), b_host.end(), queue);
          boost::compute::vector<float> c(c_host.begin(), c_host.end(), queue);
          compute::gemm(queue, layout, trans_a, trans_b, m, n, k, 1.5f, a, b, -0.5f, c).wait();
          std::vector<float> got(m * n);
          boost::compute::copy(c.begin(), c.end(), got.begin(), queue);

          const bool row_major = layout == Layout::RowMajor;
          const auto ref_layout = row_major ? reference::Layout::RowMajor : reference::Layout::ColMajor;
          const auto ref_a = trans_a == Transpose::Yes ? reference::Transpose::Yes : reference::Transpose::No;
          const auto ref_b = trans_b == Transpose::Yes ? reference::Transpose::Yes : reference::Transpose::No;
          const std::size_t lda = reference::min_ld(ref_layout, reference::stored_extent(ref_a, m, k));
          const std::size_t ldb = reference::min_ld(ref_layout, reference::stored_extent(ref_b, k, n));
          std::vector<double> magnitude;
          std::vector<float> want = c_host;
          reference::gemm(ref_layout, ref_a, ref_b, m, n, k, 1.5, a_host.data(), lda, b_host.data(), ldb, -0.5,
                          want.data(), row_major ? n : m, &magnitude);
          std::size_t bad = 0;
          for (std::size_t i = 0; i < got.size(); ++i)
            if (std::abs(static_cast<double>(got[i]) - want[i]) > reference::gemm_tolerance<float>(k, magnitude[i]))
              ++bad;
          CHECK(bad == 0);
        }
      }
    }
    boost::compute::vector<float> small(10, context), c(m * n, context);
    CHECK_THROWS_AS(
        compute::gemm(queue, Layout::RowMajor, Transpose::No, Transpose::No, m, n, k, 1.0f, small, small, 0.0f, c),
        Error);
  }

  TEST_CASE("boost compute: gemm on half and bfloat16 vectors, and on float vectors in TF32 mode") {
    boost::compute::context context(device().context());
    boost::compute::command_queue queue(context, boost::compute::device(device().device()));
    auto random = test::random_engine("boost-gemm-16");
    const std::size_t m = 23, n = 19, k = 37;
    // The values as stored (rounded to T), and C = 0.75 A B^T - 0.5 C from them in double, with its magnitude.
    const auto product = [&](const auto& a, const auto& b, const auto& c, std::vector<double>& magnitude) {
      const std::vector<double> wa(a.begin(), a.end()), wb(b.begin(), b.end());
      std::vector<double> want(c.begin(), c.end());
      reference::gemm(reference::Layout::RowMajor, reference::Transpose::No, reference::Transpose::Yes, m, n, k, 0.75,
                      wa.data(), k, wb.data(), k, -0.5, want.data(), n, &magnitude);
      return want;
    };
    const auto check = [&](auto& c, const std::vector<double>& want, const std::vector<double>& magnitude, double unit,
                           double accumulation) {
      using T = typename std::decay_t<decltype(c)>::value_type;
      std::vector<T> got(m * n);
      boost::compute::copy(c.begin(), c.end(), got.begin(), queue);
      std::size_t bad = 0;
      for (std::size_t i = 0; i < got.size(); ++i)
        if (std::abs(static_cast<float>(got[i]) - want[i]) >
            unit * std::abs(want[i]) + (1 + unit) * accumulation * magnitude[i] + 0x1p-25)
          ++bad;
      CHECK(bad == 0);
    };
    const auto run_16 = [&](auto type, double unit) {
      using T = decltype(type);
      CAPTURE(unit);
      std::vector<T> a_host, b_host, c_host;
      for (float x : test::random_vector<float>(m * k, random)) a_host.emplace_back(x);
      for (float x : test::random_vector<float>(n * k, random)) b_host.emplace_back(x);
      for (float x : test::random_vector<float>(m * n, random)) c_host.emplace_back(x);
      boost::compute::vector<T> a(a_host.begin(), a_host.end(), queue), b(b_host.begin(), b_host.end(), queue);
      boost::compute::vector<T> c(c_host.begin(), c_host.end(), queue);
      std::vector<double> magnitude;
      const auto want =
          product(std::vector<float>(a_host.begin(), a_host.end()), std::vector<float>(b_host.begin(), b_host.end()),
                  std::vector<float>(c_host.begin(), c_host.end()), magnitude);
      compute::gemm(queue, Layout::RowMajor, Transpose::No, Transpose::Yes, m, n, k, 0.75f, a, b, -0.5f, c).wait();
      check(c, want, magnitude, unit, 2.0 * (k + 4) * 0x1p-24);
    };
    run_16(half(), 0x1p-11);
    run_16(bfloat16(), 0x1p-8);

    const auto a_host = test::random_vector<float>(m * k, random), b_host = test::random_vector<float>(n * k, random);
    const auto c_host = test::random_vector<float>(m * n, random);
    boost::compute::vector<float> a(a_host.begin(), a_host.end(), queue), b(b_host.begin(), b_host.end(), queue);
    boost::compute::vector<float> c(c_host.begin(), c_host.end(), queue);
    std::vector<double> magnitude;
    const auto want = product(a_host, b_host, c_host, magnitude);
    compute::gemm(queue, MathMode::TF32, Layout::RowMajor, Transpose::No, Transpose::Yes, m, n, k, 0.75f, a, b, -0.5f,
                  c)
        .wait();
    check(c, want, magnitude, 0.0, 0x1p-10 + 2.0 * (k + 5) * 0x1p-24);
    CHECK_THROWS_AS(compute::gemm(queue, MathMode::TF32, Layout::RowMajor, Transpose::No, Transpose::No, m, n, k, 1.0f,
                                  c, c, 0.0f, a),
                    Error);  // c holds m x n elements, not m x k
  }

  TEST_CASE("boost compute: axpy, vector_add, reductions and gemv on half vectors, transposes of half and bfloat16") {
    boost::compute::context context(device().context());
    boost::compute::command_queue queue(context, boost::compute::device(device().device()));
    auto random = test::random_engine("boost-half");
    const auto halves = [&](std::size_t count) {
      std::vector<half> values;
      for (float x : test::random_vector<float>(count, random)) values.emplace_back(x);
      return values;
    };
    const auto download = [&](const auto& vector) {
      std::vector<typename std::decay_t<decltype(vector)>::value_type> host(vector.size());
      boost::compute::copy(vector.begin(), vector.end(), host.begin(), queue);
      return host;
    };
    // Within one rounding to half of the exact value plus `accumulation` (the float arithmetic before it).
    const auto near = [](half got, double want, double accumulation) {
      return std::abs(static_cast<float>(got) - want) <= 0x1p-11 * std::abs(want) + accumulation + 0x1p-25;
    };
    const std::size_t n = 1031, at = 3;
    const auto x_host = halves(n + at), y_host = halves(n + at);
    boost::compute::vector<half> x(x_host.begin(), x_host.end(), queue), y(y_host.begin(), y_host.end(), queue);
    compute::axpy(queue, 0.75f, x.begin() + at, x.end(), y.begin()).wait();
    auto got = download(y);
    std::size_t bad = 0;
    for (std::size_t i = 0; i < n + at; ++i) {
      // Past n, y is unchanged (and x_host has no element at + i: reading it was the source of a flaky failure,
      // whatever memory lay beyond the vector becoming the tolerance).
      const double x_term = i < n ? 0.75 * x_host[at + i] : 0.0;
      const double exact = x_term + y_host[i];
      const bool ok = i < n ? near(got[i], exact, 0x1p-23 * (std::abs(x_term) + std::abs(y_host[i])))
                            : static_cast<float>(got[i]) == static_cast<float>(y_host[i]);
      if (!ok && bad++ < 4)
        FAIL_CHECK("axpy element " << i << ": " << static_cast<float>(got[i]) << ", want " << exact);
    }
    CHECK(bad == 0);
    boost::compute::vector<half> c(n + at, context);
    compute::vector_add(queue, x, y, c).wait();
    const auto sums = download(c);
    bad = 0;
    for (std::size_t i = 0; i < n + at; ++i) bad += !near(sums[i], static_cast<double>(x_host[i]) + got[i], 0.0);
    CHECK(bad == 0);

    double sum = 0, absolute = 0;
    for (half v : x_host) sum += v, absolute += std::abs(static_cast<float>(v));
    const float total = compute::reduce_value(queue, ReduceOp::Sum, x);  // half is reduced in float
    CHECK(std::abs(total - sum) <= (n + at + 2) * 0x1p-24 * absolute);
    const auto smallest = std::min_element(x_host.begin() + at, x_host.end(), [](half a, half b) { return a < b; });
    CHECK(compute::reduce_index(queue, ReduceOp::ArgMin, x.begin() + at, x.end()) ==
          static_cast<std::size_t>(smallest - (x_host.begin() + at)));
    boost::compute::vector<float> maximum(2, context);
    compute::reduce(queue, ReduceOp::Max, x.begin() + at, x.end(), maximum.begin() + 1).wait();
    CHECK(download(maximum)[1] == static_cast<float>(*std::max_element(x_host.begin() + at, x_host.end(),
                                                                       [](half a, half b) { return a < b; })));
    CHECK_THROWS_AS(compute::reduce(queue, ReduceOp::Sum, x, c), Error);  // the sum of halves is a float

    // gemv: dense row-major A 23 x 31 (from x's values), both orientations, within gemv.hpp's half bound.
    const std::size_t m = 23, cols = 31;
    for (Transpose trans : {Transpose::No, Transpose::Yes}) {
      CAPTURE(static_cast<int>(trans));
      const bool transposed = trans == Transpose::Yes;
      const std::size_t in_length = transposed ? m : cols, out_length = transposed ? cols : m;
      const auto v_host = halves(in_length), w_host = halves(out_length);
      boost::compute::vector<half> v(v_host.begin(), v_host.end(), queue), w(w_host.begin(), w_host.end(), queue);
      compute::gemv(queue, Layout::RowMajor, trans, m, cols, 1.5f, x, v, -0.5f, w).wait();
      const auto result = download(w);
      bad = 0;
      for (std::size_t i = 0; i < out_length; ++i) {
        double exact = 0, magnitude = 0;
        for (std::size_t j = 0; j < in_length; ++j) {
          const double product = static_cast<double>(x_host[transposed ? j * cols + i : i * cols + j]) * v_host[j];
          exact += product, magnitude += std::abs(product);
        }
        magnitude = 1.5 * magnitude + 0.5 * std::abs(w_host[i]);
        bad += !near(result[i], 1.5 * exact - 0.5 * w_host[i], (in_length + 2) * 0x1p-24 * magnitude * (1 + 0x1p-11));
      }
      CHECK(bad == 0);
    }

    // Transposes move the bits: half from x's 13 x 29 sub-matrix at element 5 (ld 31), bfloat16 whole.
    boost::compute::vector<half> t(29 * 14, context);
    compute::transpose(queue, 13, 29, x.begin() + 5, 31, t.begin(), 14).wait();
    const auto moved = download(t);
    bad = 0;
    for (std::size_t r = 0; r < 13; ++r)
      for (std::size_t col = 0; col < 29; ++col) bad += moved[col * 14 + r].bits != x_host[5 + r * 31 + col].bits;
    CHECK(bad == 0);
    std::vector<bfloat16> b_host;
    for (float v : test::random_vector<float>(7 * 11, random)) b_host.emplace_back(v);
    boost::compute::vector<bfloat16> b(b_host.begin(), b_host.end(), queue), bt(7 * 11, context);
    compute::transpose(queue, 7, 11, b, bt).wait();
    const auto b_moved = download(bt);
    bad = 0;
    for (std::size_t r = 0; r < 7; ++r)
      for (std::size_t col = 0; col < 11; ++col) bad += b_moved[col * 7 + r].bits != b_host[r * 11 + col].bits;
    CHECK(bad == 0);

    // Batched gemm on half: 3 dense row-major 5 x 7 products of x's 5 x 4 and y's 4 x 7 pieces, strided (float alpha,
    // beta), then with per-matrix float scalars and the matrices listed backwards; gemm_batched.hpp's half bound.
    const std::size_t rows = 5, inner = 4, columns = 7, batch = 3;
    const auto p_host = halves(batch * rows * columns);
    boost::compute::vector<half> p(p_host.begin(), p_host.end(), queue);
    const auto check_products = [&](const std::vector<float>& alphas, const std::vector<float>& betas,
                                    const std::vector<half>& before, bool backwards) {
      const auto result = download(p);
      std::size_t wrong = 0;
      for (std::size_t i = 0; i < batch; ++i) {
        const std::size_t ai = backwards ? batch - 1 - i : i;
        for (std::size_t r = 0; r < rows; ++r)
          for (std::size_t col = 0; col < columns; ++col) {
            double exact = 0, magnitude = 0;
            for (std::size_t q = 0; q < inner; ++q) {
              const double product = static_cast<double>(x_host[ai * rows * inner + r * inner + q]) *
                                     got[i * inner * columns + q * columns + col];  // y after the axpy
              exact += product, magnitude += std::abs(product);
            }
            const std::size_t e = i * rows * columns + r * columns + col;
            magnitude = std::abs(alphas[i]) * magnitude + std::abs(betas[i] * before[e]);
            wrong += !near(result[e], alphas[i] * exact + betas[i] * before[e], (inner + 2) * 0x1p-24 * magnitude);
          }
      }
      CHECK(wrong == 0);
      return result;
    };
    compute::gemm_strided_batched(queue, Layout::RowMajor, Transpose::No, Transpose::No, rows, columns, inner, -1.25f,
                                  x, y, 0.5f, p, batch)
        .wait();
    const auto strided = check_products({-1.25f, -1.25f, -1.25f}, {0.5f, 0.5f, 0.5f}, p_host, false);
    const std::vector<float> alphas{0.5f, 0.0f, 2.0f}, betas{1.0f, -0.5f, 0.0f};
    compute::gemm_batched(queue, Layout::RowMajor, Transpose::No, Transpose::No, rows, columns, inner, alphas, x,
                          {40, 20, 0}, inner, y, {0, 28, 56}, columns, betas, p, {0, 35, 70}, columns)
        .wait();
    check_products(alphas, betas, strided, true);
  }

  TEST_CASE("boost compute: gemv on vectors and on iterators with offsets and steps match the host reference") {
    boost::compute::context context(device().context());
    boost::compute::command_queue queue(context, boost::compute::device(device().device()));
    auto random = test::random_engine("boost-gemv");
    const std::size_t m = 23, n = 31;
    // Room for the column-major view below: from element 5, n columns of lda = m + 2.
    const auto a_host = test::random_vector<float>(5 + (m + 2) * n, random);
    const auto x_host = test::random_vector<float>(3 * (m + n) + 8, random);
    const auto y_host = test::random_vector<float>(3 * (m + n) + 8, random);
    boost::compute::vector<float> a(a_host.begin(), a_host.end(), queue), x(x_host.begin(), x_host.end(), queue);
    for (Transpose trans : {Transpose::No, Transpose::Yes}) {
      CAPTURE(static_cast<int>(trans));
      const bool transposed = trans == Transpose::Yes;
      const std::size_t x_length = transposed ? m : n, y_length = transposed ? n : m;
      // Whole vectors: dense row-major A (the first m * n elements), contiguous x and y.
      boost::compute::vector<float> dense_x(x_host.begin(), x_host.begin() + x_length, queue);
      boost::compute::vector<float> y(y_host.begin(), y_host.begin() + y_length, queue);
      compute::gemv(queue, Layout::RowMajor, trans, m, n, 1.5f, a, dense_x, -0.5f, y).wait();
      std::vector<float> got(y_length);
      boost::compute::copy(y.begin(), y.end(), got.begin(), queue);
      std::vector<double> want(y_length);
      for (std::size_t i = 0; i < y_length; ++i) {
        double sum = 0;
        for (std::size_t j = 0; j < x_length; ++j)
          sum += static_cast<double>(transposed ? a_host[j * n + i] : a_host[i * n + j]) * x_host[j];
        want[i] = 1.5 * sum - 0.5 * y_host[i];
      }
      test::check_all_close(got, want, 1e-5, "gemv on whole vectors");
      // Iterators: column-major A from element 5 with lda = m + 2, x from element 3 with step 2, y from element 4
      // with step 3; everything else in y unchanged.
      boost::compute::vector<float> strided(y_host.begin(), y_host.end(), queue);
      compute::gemv(queue, Layout::ColMajor, trans, m, n, 0.75f, a.begin() + 5, m + 2, x.begin() + 3, 2, 0.0f,
                    strided.begin() + 4, 3)
          .wait();
      std::vector<float> all(y_host.size());
      boost::compute::copy(strided.begin(), strided.end(), all.begin(), queue);
      std::vector<double> expected(y_host.begin(), y_host.end());
      for (std::size_t i = 0; i < y_length; ++i) {
        double sum = 0;
        for (std::size_t j = 0; j < x_length; ++j) {
          const std::size_t row = transposed ? j : i, col = transposed ? i : j;
          sum += static_cast<double>(a_host[5 + col * (m + 2) + row]) * x_host[3 + 2 * j];
        }
        expected[4 + 3 * i] = 0.75 * sum;
      }
      test::check_all_close(all, expected, 1e-5, "gemv on iterators");
    }
    boost::compute::vector<float> short_x(n - 1, context), y(m, context);
    CHECK_THROWS_AS(compute::gemv(queue, Layout::RowMajor, Transpose::No, m, n, 1.0f, a, short_x, 0.0f, y), Error);
  }

  TEST_CASE("boost compute: gemm_strided_batched and gemm_batched match the host reference") {
    boost::compute::context context(device().context());
    boost::compute::command_queue queue(context, boost::compute::device(device().device()));
    auto random = test::random_engine("boost-batched");
    const std::size_t m = 7, n = 5, k = 9, batch = 3;
    const auto a_host = test::random_vector<float>(batch * m * k + 16, random);
    const auto b_host = test::random_vector<float>(batch * k * n + 16, random);
    const auto c_host = test::random_vector<float>(batch * m * n + 16, random);
    boost::compute::vector<float> a(a_host.begin(), a_host.end(), queue), b(b_host.begin(), b_host.end(), queue);
    // C_i = alpha A_i B_i + beta C_i, dense row-major matrices: A_i at a_at[i], B_i at b_at[i], C_i at c_at[i].
    auto expected = [&](const std::vector<std::size_t>& a_at, const std::vector<std::size_t>& b_at,
                        const std::vector<std::size_t>& c_at, const std::vector<double>& alphas,
                        const std::vector<double>& betas) {
      std::vector<float> want = c_host;
      for (std::size_t i = 0; i < a_at.size(); ++i)
        reference::gemm(reference::Layout::RowMajor, reference::Transpose::No, reference::Transpose::No, m, n, k,
                        alphas[i], a_host.data() + a_at[i], k, b_host.data() + b_at[i], n, betas[i],
                        want.data() + c_at[i], n);
      return std::vector<double>(want.begin(), want.end());
    };
    auto download = [&](const boost::compute::vector<float>& c) {
      std::vector<float> got(c.size());
      boost::compute::copy(c.begin(), c.end(), got.begin(), queue);
      return got;
    };
    {
      boost::compute::vector<float> c(c_host.begin(), c_host.end(), queue);
      compute::gemm_strided_batched(queue, Layout::RowMajor, Transpose::No, Transpose::No, m, n, k, 1.25f, a, b, 0.5f,
                                    c, batch)
          .wait();
      test::check_all_close(download(c),
                            expected({0, m * k, 2 * m * k}, {0, k * n, 2 * k * n}, {0, m * n, 2 * m * n},
                                     {1.25, 1.25, 1.25}, {0.5, 0.5, 0.5}),
                            1e-5, "gemm_strided_batched on whole vectors");
    }
    {
      // Iterators: the batch starts at elements 2, 3 and 4; B shared by every product (stride 0).
      boost::compute::vector<float> c(c_host.begin(), c_host.end(), queue);
      compute::gemm_strided_batched(queue, Layout::RowMajor, Transpose::No, Transpose::No, m, n, k, -1.0f,
                                    a.begin() + 2, k, m * k, b.begin() + 3, n, 0, 2.0f, c.begin() + 4, n, m * n, batch)
          .wait();
      test::check_all_close(
          download(c),
          expected({2, 2 + m * k, 2 + 2 * m * k}, {3, 3, 3}, {4, 4 + m * n, 4 + 2 * m * n}, {-1, -1, -1}, {2, 2, 2}),
          1e-5, "gemm_strided_batched on iterators");
    }
    {
      // Per-matrix offsets and scalars, in reverse order, on whole vectors and on iterators (offsets then count
      // from the iterator).
      const std::vector<std::size_t> a_at{2 * m * k, m * k, 0}, b_at{0, 2 * k * n, k * n}, c_at{m * n, 0, 2 * m * n};
      const std::vector<float> alphas{0.5f, -2.0f, 1.0f}, betas{0.0f, 1.0f, -0.25f};
      boost::compute::vector<float> c(c_host.begin(), c_host.end(), queue);
      compute::gemm_batched(queue, Layout::RowMajor, Transpose::No, Transpose::No, m, n, k, alphas, a, a_at, k, b, b_at,
                            n, betas, c, c_at, n)
          .wait();
      const std::vector<double> alpha_values(alphas.begin(), alphas.end()), beta_values(betas.begin(), betas.end());
      test::check_all_close(download(c), expected(a_at, b_at, c_at, alpha_values, beta_values), 1e-5,
                            "gemm_batched on whole vectors");
      boost::compute::vector<float> shifted(c_host.begin(), c_host.end(), queue);
      compute::gemm_batched(queue, Layout::RowMajor, Transpose::No, Transpose::No, m, n, k, alphas, a.begin() + 1, a_at,
                            k, b.begin() + 2, b_at, n, betas, shifted.begin() + 3, c_at, n)
          .wait();
      auto moved = [](std::vector<std::size_t> at, std::size_t by) {
        for (auto& value : at) value += by;
        return at;
      };
      test::check_all_close(download(shifted),
                            expected(moved(a_at, 1), moved(b_at, 2), moved(c_at, 3), alpha_values, beta_values), 1e-5,
                            "gemm_batched on iterators");
    }
    boost::compute::vector<float> small(10, context), c(batch * m * n, context);
    CHECK_THROWS_AS(compute::gemm_strided_batched(queue, Layout::RowMajor, Transpose::No, Transpose::No, m, n, k, 1.0f,
                                                  small, b, 0.0f, c, batch),
                    Error);
  }

  TEST_CASE("boost compute: rgb_to_gray and the blurs on dense images match the host reference") {
    boost::compute::context context(device().context());
    boost::compute::command_queue queue(context, boost::compute::device(device().device()));
    auto random = test::random_engine("boost-image");
    const std::size_t width = 53, height = 31;
    auto rgb_host = test::random_vector<std::uint8_t>(3 * width * height, random, 0, 255);
    boost::compute::vector<std::uint8_t> rgb(rgb_host.begin(), rgb_host.end(), queue);
    boost::compute::vector<std::uint8_t> gray(width * height, context);
    const GrayWeights weights;
    compute::rgb_to_gray(queue, width, height, rgb, gray, weights).wait();
    std::vector<std::uint8_t> gray_host(width * height);
    boost::compute::copy(gray.begin(), gray.end(), gray_host.begin(), queue);
    const auto gray_want =
        reference::rgb_to_gray(rgb_host.data(), width, height, 3 * width, weights.red, weights.green, weights.blue);
    std::size_t bad = 0;
    for (std::size_t i = 0; i < gray_host.size(); ++i)
      if (!reference::matches_u8(gray_want[i], gray_host[i], 1e-4)) ++bad;
    CHECK(bad == 0);

    // Blurs of a 3-channel float image. Two border modes, one reading zeros and one folding indices, cover the
    // overloads (each mode is a program of its own; ops.convolve tests all four in depth).
    const int channels = 3;
    auto src_host = test::random_vector<float>(width * channels * height, random);
    boost::compute::vector<float> src(src_host.begin(), src_host.end(), queue), dst(src_host.size(), context);
    std::vector<float> got(src_host.size());
    for (Border border : {Border::Zero, Border::Wrap}) {
      CAPTURE(to_string(border));
      const auto ref_border = static_cast<reference::Border>(static_cast<int>(border));  // same numbering
      const long w = static_cast<long>(width), h = static_cast<long>(height), pitch = w * channels;
      compute::box_blur(queue, width, height, channels, src, dst, 2, 1, border).wait();
      boost::compute::copy(dst.begin(), dst.end(), got.begin(), queue);
      auto want = reference::separable_filter(src_host.data(), w, h, channels, pitch, reference::box_taps(2),
                                              reference::box_taps(1), ref_border);
      test::check_all_close(got, want, 1e-5, "box_blur on Boost.Compute vectors");

      compute::gaussian_blur(queue, width, height, channels, src, dst, 1.2, border).wait();
      boost::compute::copy(dst.begin(), dst.end(), got.begin(), queue);
      const int radius = reference::gaussian_radius(1.2);
      const auto taps = reference::gaussian_taps(1.2, radius);
      want = reference::separable_filter(src_host.data(), w, h, channels, pitch, taps, taps, ref_border);
      test::check_all_close(got, want, 1e-5, "gaussian_blur on Boost.Compute vectors");
    }
    boost::compute::vector<float> small(width, context);
    CHECK_THROWS_AS(compute::box_blur(queue, width, height, channels, src, small, 1, 1, Border::Zero), Error);
    CHECK_THROWS_AS(compute::gaussian_blur(queue, width, height, channels, small, dst, 1.0, Border::Zero), Error);
    CHECK_THROWS_AS(compute::rgb_to_gray(queue, width, height, gray, gray), Error);
  }

  TEST_CASE("boost compute: vectors of different sizes are refused") {
    boost::compute::context context(device().context());
    boost::compute::command_queue queue(context, boost::compute::device(device().device()));
    boost::compute::vector<float> x(10, context), y(11, context);
    CHECK_THROWS_AS(compute::axpy(queue, 1.0f, x, y), Error);
  }

  TEST_CASE("boost compute: the conversions retain the objects they wrap") {
    boost::compute::context context(device().context());
    boost::compute::vector<float> x(16, context);
    cl::Buffer buffer = compute::buffer(x);
    CHECK(buffer() == x.get_buffer().get());
    CHECK(buffer.getInfo<CL_MEM_SIZE>() >= 16 * sizeof(float));
  }

  TEST_CASE("boost compute: ranges and start iterators are offsets, and elements outside them stay untouched") {
    boost::compute::context context(device().context());
    boost::compute::command_queue queue(context, boost::compute::device(device().device()));
    auto random = test::random_engine("boost-ranges");
    const std::size_t n = 1009, x_at = 3, y_at = 11;
    auto x_host = test::random_vector<float>(n + 20, random), y_host = test::random_vector<float>(n + 20, random);
    boost::compute::vector<float> x(x_host.begin(), x_host.end(), queue), y(y_host.begin(), y_host.end(), queue);
    compute::axpy(queue, -2.0f, x.begin() + x_at, x.begin() + x_at + n, y.begin() + y_at).wait();
    std::vector<float> got(n + 20);
    boost::compute::copy(y.begin(), y.end(), got.begin(), queue);
    std::vector<double> want(y_host.begin(), y_host.end());
    for (std::size_t i = 0; i < n; ++i) want[y_at + i] = -2.0 * x_host[x_at + i] + y_host[y_at + i];
    test::check_all_close(got, want, 1e-6, "axpy over a range (elements outside it unchanged)");

    boost::compute::vector<float> c(y_host.begin(), y_host.end(), queue);
    compute::vector_add(queue, x.begin() + 1, x.begin() + 1 + n, x.begin() + 2, c.begin() + 4).wait();
    boost::compute::copy(c.begin(), c.end(), got.begin(), queue);
    want.assign(y_host.begin(), y_host.end());
    for (std::size_t i = 0; i < n; ++i) want[4 + i] = static_cast<double>(x_host[1 + i]) + x_host[2 + i];
    test::check_all_close(got, want, 1e-6, "vector_add over ranges");

    double sum = 0, magnitude = 0;
    for (std::size_t i = 0; i < n; ++i) sum += x_host[x_at + i], magnitude += std::abs(x_host[x_at + i]);
    CHECK(std::abs(compute::reduce_value(queue, ReduceOp::Sum, x.begin() + x_at, x.begin() + x_at + n) - sum) <=
          (n + 2) * 0x1p-24 * magnitude);  // the float sum's bound (a relative one fails near 0)
    const auto smallest = std::min_element(x_host.begin() + x_at, x_host.begin() + x_at + n) - x_host.begin();
    CHECK(compute::reduce_index(queue, ReduceOp::ArgMin, x.begin() + x_at, x.begin() + x_at + n) ==
          static_cast<std::size_t>(smallest) - x_at);
    CHECK_THROWS_AS(compute::axpy(queue, 1.0f, x.begin() + 5, x.begin() + 2, y.begin()), Error);
    CHECK_THROWS_AS(compute::axpy(queue, 1.0f, x.begin(), y.end(), c.begin()), Error);

    // A transpose and a gemm on sub-matrices: start iterators with leading dimensions.
    const std::size_t rows = 13, cols = 9, ld = 17;
    compute::transpose(queue, rows, cols, x.begin() + 5, ld, c.begin() + 2, rows + 1).wait();
    boost::compute::copy(c.begin(), c.end(), got.begin(), queue);
    std::size_t bad = 0;
    for (std::size_t r = 0; r < rows; ++r)
      for (std::size_t col = 0; col < cols; ++col) bad += got[2 + col * (rows + 1) + r] != x_host[5 + r * ld + col];
    CHECK(bad == 0);
  }

  TEST_CASE("boost compute: an op waits for the events of its wait list") {
    boost::compute::context context(device().context());
    boost::compute::command_queue queue(context, boost::compute::device(device().device()));
    std::vector<float> x_host{1, 2, 3, 4, 5}, y_host{10, 20, 30, 40, 50};
    boost::compute::vector<float> x(x_host.begin(), x_host.end(), queue), y(y_host.begin(), y_host.end(), queue);
    queue.finish();
    boost::compute::user_event gate(context);
    boost::compute::event done = compute::axpy(queue, 2.0f, x, y, boost::compute::wait_list(gate));
    REQUIRE(done.get() != nullptr);
    queue.flush();
    CHECK(done.status() != CL_COMPLETE);
    gate.set_status(CL_COMPLETE);
    done.wait();
    std::vector<float> got(5);
    boost::compute::copy(y.begin(), y.end(), got.begin(), queue);
    CHECK(got == std::vector<float>{12, 24, 36, 48, 60});
    boost::compute::vector<float> sum(1, context);
    boost::compute::user_event second_gate(context);
    done = compute::reduce(queue, ReduceOp::Sum, x, sum, boost::compute::wait_list(second_gate));
    queue.flush();
    CHECK(done.status() != CL_COMPLETE);
    second_gate.set_status(CL_COMPLETE);
    done.wait();
    boost::compute::copy(sum.begin(), sum.end(), got.begin(), queue);
    CHECK(got[0] == 15.0f);
  }

  TEST_CASE("boost compute: reduce into a device vector, values and indices") {
    boost::compute::context context(device().context());
    boost::compute::command_queue queue(context, boost::compute::device(device().device()));
    auto random = test::random_engine("boost-reduce-device");
    auto host = test::random_vector<float>(4099, random);
    boost::compute::vector<float> x(host.begin(), host.end(), queue), result(3, context);
    boost::compute::vector<std::int32_t> index(2, context);
    compute::reduce(queue, ReduceOp::Max, x, result).wait();
    compute::reduce(queue, ReduceOp::Min, x.begin() + 1, x.end(), result.begin() + 2).wait();
    compute::reduce(queue, ReduceOp::ArgMax, x.begin() + 7, x.end(), index.begin() + 1).wait();
    std::vector<float> values(3);
    std::vector<std::int32_t> indices(2);
    boost::compute::copy(result.begin(), result.end(), values.begin(), queue);
    boost::compute::copy(index.begin(), index.end(), indices.begin(), queue);
    CHECK(values[0] == *std::max_element(host.begin(), host.end()));
    CHECK(values[2] == *std::min_element(host.begin() + 1, host.end()));
    CHECK(indices[1] == std::max_element(host.begin() + 7, host.end()) - (host.begin() + 7));
    // The result's type must fit the op: an index is an int32, a value of the input's type.
    CHECK_THROWS_AS(compute::reduce(queue, ReduceOp::ArgMax, x, result), Error);
    CHECK_THROWS_AS(compute::reduce(queue, ReduceOp::Sum, x, index), Error);
    boost::compute::vector<float> empty(context);
    CHECK_THROWS_AS(compute::reduce(queue, ReduceOp::Sum, x, empty), Error);
  }

  TEST_CASE("boost compute: convolve2d and separable_filter match the host reference") {
    boost::compute::context context(device().context());
    boost::compute::command_queue queue(context, boost::compute::device(device().device()));
    auto random = test::random_engine("boost-filters");
    const std::size_t width = 37, height = 23, channels = 3, row = width * channels;
    const long w = static_cast<long>(width), h = static_cast<long>(height);
    auto src_host = test::random_vector<float>(row * height, random);
    auto filter_host = test::random_vector<float>(5 * 3, random);
    auto row_taps = test::random_vector<float>(7, random), column_taps = test::random_vector<float>(3, random);
    boost::compute::vector<float> src(src_host.begin(), src_host.end(), queue), dst(row * height, context);
    boost::compute::vector<float> filter(filter_host.begin(), filter_host.end(), queue);
    boost::compute::vector<float> row_filter(row_taps.begin(), row_taps.end(), queue);
    boost::compute::vector<float> column_filter(column_taps.begin(), column_taps.end(), queue);
    std::vector<float> got(row * height);
    for (Border border : {Border::Clamp, Border::Mirror}) {
      CAPTURE(to_string(border));
      const auto ref_border = static_cast<reference::Border>(static_cast<int>(border));
      compute::convolve2d(queue, width, height, channels, src, dst, filter, 5, 3, border).wait();
      boost::compute::copy(dst.begin(), dst.end(), got.begin(), queue);
      auto want = reference::convolve2d(src_host.data(), w, h, channels, w * 3, filter_host, 2, 1, ref_border);
      test::check_all_close(got, want, 1e-5, "convolve2d on Boost.Compute vectors");

      compute::separable_filter(queue, width, height, channels, src, dst, row_filter, column_filter, border).wait();
      boost::compute::copy(dst.begin(), dst.end(), got.begin(), queue);
      want = reference::separable_filter(src_host.data(), w, h, channels, w * 3, row_taps, column_taps, ref_border);
      test::check_all_close(got, want, 1e-5, "separable_filter on Boost.Compute vectors");
    }
    // A sub-image: the 20 x 10 block at (4, 5) of the source, filtered into the top-left of dst (pitch kept).
    compute::convolve2d(queue, 20, 10, channels, src.begin() + 5 * row + 4 * channels, row, dst.begin(), row,
                        filter.begin(), 5, 3, Border::Wrap)
        .wait();
    boost::compute::copy(dst.begin(), dst.end(), got.begin(), queue);
    auto want = reference::convolve2d(src_host.data() + 5 * row + 4 * channels, 20, 10, channels, w * 3, filter_host, 2,
                                      1, reference::Border::Wrap);
    std::size_t bad = 0;
    for (std::size_t y = 0; y < 10; ++y)
      for (std::size_t e = 0; e < 20 * channels; ++e)
        bad += !reference::matches_float(want[y * 20 * channels + e], got[y * row + e], 1e-5);
    CHECK(bad == 0);
    boost::compute::vector<float> short_filter(14, context);
    CHECK_THROWS_AS(compute::convolve2d(queue, width, height, channels, src, dst, short_filter, 5, 3, Border::Zero),
                    Error);
  }
}
