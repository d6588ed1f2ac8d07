#include <doctest/doctest.h>

#include <boost/compute/algorithm/copy.hpp>
#include <boost/compute/container/vector.hpp>

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
