#include <doctest/doctest.h>

#include <atomic>
#include <thread>

#include "support/fixture.hpp"
#include "tilecl/tilecl.hpp"

using namespace tilecl;
using tilecl::test::device;

TEST_SUITE("runtime.concurrency") {
  TEST_CASE("concurrency: threads calling ops at once (first-use tuning on) get right answers and tune each key once") {
    test::ScopedEnv cache("TILECL_CACHE_DIR", test::temp_directory("concurrency"));
    test::ScopedEnv tune("TILECL_TUNE", "first-use");
    tuning::clear();
    clear_program_cache();
    const auto before = statistics();

    constexpr int kThreads = 8;
    std::atomic<int> ready{0};
    std::atomic<int> wrong{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t) {
      threads.emplace_back([&, t] {
        // Half the threads share the fixture's queue, the others have their own.
        cl::CommandQueue own(device().context, device().device);
        cl::CommandQueue& queue = t % 2 == 0 ? device().queue : own;
        auto random = test::random_engine("concurrency" + std::to_string(t));
        const std::size_t n = 3000 + 17 * t, rows = 37, cols = 29;
        auto x = test::random_vector<float>(n, random), y = test::random_vector<float>(n, random);
        auto matrix = test::random_vector<float>(rows * cols, random);
        cl::Buffer x_buffer = test::to_device(x), y_buffer = test::to_device(y);
        cl::Buffer in = test::to_device(matrix), out(device().context, CL_MEM_READ_WRITE, rows * cols * sizeof(float));
        cl::Buffer sum(device().context, CL_MEM_READ_WRITE, sizeof(float));
        ready++;
        while (ready < kThreads) std::this_thread::yield();
        for (int round = 0; round < 3; ++round) {
          axpy<float>(queue, n, 0.5f, x_buffer, 0, y_buffer, 0);
          transpose<float>(queue, rows, cols, in, 0, cols, out, 0, rows);
          reduce<float>(queue, ReduceOp::Sum, n, x_buffer, 0, sum, 0);
        }
        queue.finish();
        std::vector<float> got_y(n), got_t(rows * cols);
        float got_sum = 0;
        queue.enqueueReadBuffer(y_buffer, CL_TRUE, 0, n * sizeof(float), got_y.data());
        queue.enqueueReadBuffer(out, CL_TRUE, 0, rows * cols * sizeof(float), got_t.data());
        queue.enqueueReadBuffer(sum, CL_TRUE, 0, sizeof(float), &got_sum);
        double want_sum = 0;
        for (std::size_t i = 0; i < n; ++i) {
          want_sum += x[i];
          if (std::abs(got_y[i] - (y[i] + 1.5 * x[i])) > 1e-5 * (1 + std::abs(y[i]))) ++wrong;
        }
        for (std::size_t r = 0; r < rows; ++r)
          for (std::size_t c = 0; c < cols; ++c)
            if (got_t[c * rows + r] != matrix[r * cols + c]) ++wrong;
        if (std::abs(got_sum - want_sum) > 1e-4 * (1 + std::abs(want_sum))) ++wrong;
      });
    }
    for (auto& thread : threads) thread.join();
    CHECK(wrong == 0);
    // Three ops, one shape bucket each: three tunings, whatever the number of threads.
    CHECK(statistics().tunings - before.tunings == 3);
    tuning::clear();
  }
}
