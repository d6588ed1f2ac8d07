#include <doctest/doctest.h>

#include <atomic>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <thread>

#include "support/fixture.hpp"
#include "support/mixed_ops.hpp"
#include "tilecl/tilecl.hpp"
#include "tuning/tuning_db.hpp"

using namespace tilecl;
using tilecl::test::device;

namespace {

// Where a thread's calls go.
enum class Sharing { FixtureQueue, OwnQueue, OwnContext };

const char* sharing_name(Sharing sharing) {
  switch (sharing) {
    case Sharing::FixtureQueue:
      return "the fixture's queue";
    case Sharing::OwnQueue:
      return "its own queue";
    case Sharing::OwnContext:
      return "its own context";
  }
  return "?";
}

// The tilecl state held for contexts, in total.
std::size_t held_objects(const CacheSizes& sizes) { return sizes.programs + sizes.workspaces + sizes.tuning_queues; }

}  // namespace

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

  TEST_CASE("concurrency: threads on one queue, own queues and own contexts mix five ops with first-use tuning") {
    test::ScopedEnv cache("TILECL_CACHE_DIR", test::temp_directory("concurrency-mixed"));
    test::ScopedEnv tune("TILECL_TUNE", "first-use");
    test::ScopedEnv budget("TILECL_TUNE_BUDGET_MS", "50");
    tuning::clear();
    constexpr int kThreads = 6, kRounds = 3;
    const Sharing sharings[] = {Sharing::FixtureQueue, Sharing::OwnQueue, Sharing::OwnContext};
    std::atomic<int> ready{0}, rounds{0};
    std::mutex mutex;
    std::vector<std::string> failures;
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t) {
      threads.emplace_back([&, t] {
        const Sharing sharing = sharings[t % 3];
        cl::Context context = sharing == Sharing::OwnContext ? cl::Context(device().device) : device().context;
        cl::CommandQueue own(context, device().device);
        cl::CommandQueue& queue = sharing == Sharing::FixtureQueue ? device().queue : own;
        auto random = test::random_engine("concurrency-mixed" + std::to_string(t));
        ready++;
        while (ready < kThreads) std::this_thread::yield();
        for (int round = 0; round < kRounds; ++round) {
          const auto sizes = round == 0 ? test::small_mixed_sizes() : test::random_mixed_sizes(random, 40000);
          try {
            for (const auto& failure : test::run_mixed_ops(queue, sizes, random)) {
              std::lock_guard<std::mutex> lock(mutex);
              failures.push_back(std::string("thread on ") + sharing_name(sharing) + ": " + failure);
            }
          } catch (const std::exception& error) {
            std::lock_guard<std::mutex> lock(mutex);
            failures.push_back(std::string("thread on ") + sharing_name(sharing) + " threw: " + error.what());
          }
          rounds++;
        }
      });
    }
    for (auto& thread : threads) thread.join();
    for (const auto& failure : failures) FAIL_CHECK(failure);
    CHECK(rounds == kThreads * kRounds);
    MESSAGE(kThreads << " threads x " << kRounds << " rounds x " << test::kMixedOpsPerRound << " ops, "
                     << failures.size() << " wrong");
    tuning::clear();
  }

  TEST_CASE("concurrency: four processes writing one tuning database at once lose no entry") {
    const std::string cache = test::temp_directory("concurrency-processes");
    constexpr int kProcesses = 4, kEntriesEach = 25;
    std::string command;
    for (int p = 0; p < kProcesses; ++p)
      command += "TILECL_CACHE_DIR='" + cache + "' '" + test::probe_path() + "' record process" + std::to_string(p) +
                 "_ " + std::to_string(kEntriesEach) + " >/dev/null 2>&1 & ";
    command += "wait";
    CHECK(test::run_command(command).status == 0);
    test::ScopedEnv env("TILECL_CACHE_DIR", cache);
    const auto records = detail::TuningDatabase(*device().info).load();
    CHECK(records.entries.size() == kProcesses * kEntriesEach);
  }

  TEST_CASE("concurrency: first use from many threads in a fresh process (discovery, device, build, tuning) is safe") {
    // PoCL's start-up is not thread safe: select_device() from 8 threads at once crashed in every run before
    // discovery was serialised. Each run is a fresh process, so every first use happens from 8 threads at once.
    // Under AddressSanitizer, use_sigaltstack=0: the first thread to compile makes PoCL's LLVM replace that thread's
    // alternate signal stack with one of its own (malloc'd), which ASan then fails to unmap when the thread exits.
    constexpr int kRuns = 4;
    for (int run = 0; run < kRuns; ++run) {
      CAPTURE(run);
      const std::string cache = test::temp_directory("concurrency-first-use");
      const auto result = test::run_command(
          "ASAN_OPTIONS=\"${ASAN_OPTIONS:+$ASAN_OPTIONS:use_sigaltstack=0}\" "
          "TILECL_CACHE_DIR='" +
          cache + "' TILECL_TUNE=first-use '" + test::probe_path() + "' threads 8 2>/dev/null");
      REQUIRE_MESSAGE(result.status == 0, "probe exit status " << result.status << ": " << result.output);
      const auto report = nlohmann::json::parse(result.output);
      CHECK_MESSAGE(report["correct"] == true, report.dump());
      CHECK(report["compiles"].get<int>() >= 1);
    }
  }

  TEST_CASE("concurrency: contexts created, used and released in turn do not accumulate cached state") {
    const auto sizes = test::small_mixed_sizes();
    auto random = test::random_engine("concurrency-contexts");
    auto use = [&](const cl::Context& context) {
      cl::CommandQueue queue(context, device().device);
      for (const auto& failure : test::run_mixed_ops(queue, sizes, random)) FAIL_CHECK(failure);
      queue.finish();
    };
    auto use_new_context = [&](bool forget) {
      cl::Context context(device().device);
      use(context);
      if (forget) forget_context(context);
      // The application's handles are released here; tilecl's, if any, keep the context valid.
    };

    // Programs of these sizes into the disk cache; then that context and the fixture's are forgotten, so
    // there is room for one more context whatever the earlier cases left kept.
    {
      cl::Context warm(device().device);
      use(warm);
      forget_context(warm);
    }
    forget_context(device().context);

    // With forget_context(): everything held for the context goes at once.
    const CacheSizes before = cache_sizes();
    REQUIRE_MESSAGE(before.contexts < before.context_limit, "no room to add a context without dropping another");
    for (int cycle = 0; cycle < 3; ++cycle) use_new_context(true);
    const CacheSizes after_forgetting = cache_sizes();
    CHECK(after_forgetting.contexts == before.contexts);
    CHECK(held_objects(after_forgetting) == held_objects(before));

    // Without it: the least recently used contexts are dropped beyond the limit, so the total stays bounded.
    const std::size_t limit = cache_sizes().context_limit;
    if (const char* kept = std::getenv("TILECL_CONTEXTS_KEPT")) CHECK(limit == std::stoul(kept));
    const int cycles = static_cast<int>(limit) + 8;
    std::size_t most_held = 0, held_at_limit = 0;
    for (int cycle = 0; cycle < cycles; ++cycle) {
      use_new_context(false);
      const CacheSizes now = cache_sizes();
      CHECK(now.contexts <= limit);
      most_held = std::max(most_held, held_objects(now));
      if (cycle + 1 == static_cast<int>(limit)) held_at_limit = held_objects(now);
    }
    const CacheSizes end = cache_sizes();
    MESSAGE(cycles << " context cycles: " << end.contexts << " contexts kept (limit " << limit << "), " << end.programs
                   << " programs, " << end.workspaces << " workspaces, " << end.tuning_queues
                   << " tuning queues; most objects held " << most_held);
    CHECK(end.contexts == limit);
    CHECK(held_objects(end) <= held_at_limit);

    // The fixture's context, possibly dropped meanwhile, still works: it is served as on first use.
    for (const auto& failure : test::run_mixed_ops(device().queue, sizes, random)) FAIL_CHECK(failure);
  }
}
