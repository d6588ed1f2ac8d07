#include <doctest/doctest.h>

#include <boost/compute/algorithm/copy.hpp>
#include <boost/compute/container/vector.hpp>

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
    double want = 0;
    for (float v : host) want += v;
    CHECK(compute::reduce_value(queue, ReduceOp::Sum, x) == doctest::Approx(want).epsilon(1e-5));
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
}
