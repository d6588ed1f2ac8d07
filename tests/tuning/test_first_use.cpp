#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <thread>

#include "kernel_sources.hpp"
#include "program_cache.hpp"
#include "support/fixture.hpp"
#include "tilecl/elementwise.hpp"
#include "tilecl/error.hpp"
#include "tilecl/gemm.hpp"
#include "tilecl/runtime.hpp"
#include "tilecl/tuning.hpp"
#include "tuning/choice_resolver.hpp"
#include "tuning/full_tune.hpp"
#include "tuning/op_registry.hpp"
#include "tuning/tuning_db.hpp"
#include "tuning/tuning_run.hpp"

using namespace tilecl;
using tilecl::test::device;

namespace {

// A private cache directory and first-use tuning for one test, with the in-memory choices forgotten.
struct FreshTuningState {
  test::ScopedEnv cache;
  test::ScopedEnv mode;
  explicit FreshTuningState(const std::string& name, const std::string& tune_mode = "first-use")
      : cache("TILECL_CACHE_DIR", test::temp_directory(name)), mode("TILECL_TUNE", tune_mode) {
    tuning::clear();
  }
  ~FreshTuningState() { tuning::clear(); }
};

nlohmann::json probe_choose(const std::string& cache, const std::string& op, const std::string& shape) {
  const std::string command = "TILECL_CACHE_DIR='" + cache + "' TILECL_TUNE=first-use '" + test::probe_path() +
                              "' choose " + op + " float " + shape + " 2>/dev/null";
  auto result = test::run_command(command);
  REQUIRE_MESSAGE(result.status == 0, command << " -> " << result.output);
  return nlohmann::json::parse(result.output);
}

class WidestWorkGroupWins : public detail::Timer {
 public:
  double time_ms(detail::TuningSubject&, cl::CommandQueue&, const detail::Config& config) override {
    return 1000.0 / static_cast<double>(1 + config.value("WG_X"));
  }
};

// The same choice, slowly: a tuning takes long enough that other threads act while it is in flight.
class SlowWidestWorkGroupWins : public WidestWorkGroupWins {
 public:
  double time_ms(detail::TuningSubject& subject, cl::CommandQueue& queue, const detail::Config& config) override {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    return WidestWorkGroupWins::time_ms(subject, queue, config);
  }
};

}  // namespace

TEST_SUITE("tuning.first_use") {
  TEST_CASE("first use: a call with no database entry tunes, persists the winner, and computes correctly") {
    FreshTuningState state("first-use-call");
    auto random = test::random_engine("first-use");
    auto x = test::random_vector<float>(5000, random), y = test::random_vector<float>(5000, random);
    cl::Buffer x_buffer = test::to_device(x), y_buffer = test::to_device(y);
    const auto before = statistics();
    axpy<float>(device().queue, 5000, 2.0f, x_buffer, 0, y_buffer, 0).wait();
    CHECK(statistics().tunings - before.tunings == 1);
    std::vector<double> want(5000);
    for (int i = 0; i < 5000; ++i) want[i] = 2.0 * x[i] + y[i];
    test::check_all_close(test::from_device<float>(y_buffer, 5000), want, 1e-6, "axpy after tuning");

    auto records = detail::TuningDatabase(*device().info).load();
    REQUIRE(records.entries.size() == 1);
    CHECK(records.entries[0].op == "axpy");
    CHECK(records.entries[0].origin == "first-use");
    CHECK(records.entries[0].bucket == "n<2^14");
    CHECK(records.entries[0].source_hash == detail::kernel_source("elementwise").hash);
    CHECK(records.entries[0].time_ms > 0);

    // The same bucket again: no second tuning.
    axpy<float>(device().queue, 4000, 2.0f, x_buffer, 0, y_buffer, 0).wait();
    CHECK(statistics().tunings - before.tunings == 1);
  }

  TEST_CASE("first use: the service keeps the fastest verified candidate by its clock") {
    FreshTuningState state("first-use-timer");
    // Every launch variant must get its turn: a cold PoCL kernel cache compiles each work-group size anew.
    test::ScopedEnv budget("TILECL_TUNE_BUDGET_MS", "600000");
    WidestWorkGroupWins timer;
    detail::set_tuning_timer_for_testing(&timer);
    auto choice = tuning::parameters_for(device().queue, "axpy", "float", "2^13");
    detail::set_tuning_timer_for_testing(nullptr);
    CHECK(choice.origin == tuning::Origin::FirstUse);
    // The widest work-group the default kernel accepts on this device (its own limit can be below the device's).
    auto subject = detail::find_tunable_op("axpy").make_subject("float", "2^13");
    auto program = detail::ProgramCache::instance().get(device().context, device().device, "elementwise",
                                                        subject->build_options(choice.parameters), "test");
    const auto limit =
        std::min(program->kernel_work_group_limit("elementwise_axpy_" + choice.parameters.variant, "test"),
                 device().info->max_work_group_size);
    std::int64_t widest = 0;
    for (std::int64_t candidate : {32, 64, 128, 256, 512, 1024})
      if (static_cast<std::size_t>(candidate) <= limit) widest = candidate;
    MESSAGE("kernel work-group limit " << limit << ", chosen " << choice.parameters.to_string());
    CHECK(choice.parameters.value("WG_X") == widest);
  }

  TEST_CASE("tilecl tune: the database's current choice competes, so a short search never replaces it by worse") {
    FreshTuningState state("tune-keeps-best");
    const tuning::Parameters stored{"naive", {{"WG_X", 32}}};
    detail::TuningEntry entry;
    entry.op = "axpy";
    entry.dtype = "float";
    entry.bucket = "n<2^14";
    entry.source_hash = detail::kernel_source("elementwise").hash;
    entry.parameters = stored;
    entry.origin = "tune";
    REQUIRE(detail::TuningDatabase(*device().info).merge({{entry}, {}}));

    struct StoredIsFastest : detail::Timer {
      tuning::Parameters fastest;
      double time_ms(detail::TuningSubject&, cl::CommandQueue&, const detail::Config& config) override {
        return config == fastest ? 1.0 : 5.0;
      }
    } timer;
    timer.fastest = stored;
    detail::set_tuning_timer_for_testing(&timer);
    auto subject = detail::find_tunable_op("axpy").make_subject("float", "2^13");
    detail::FullTuneOptions options;
    options.strategy = detail::SearchStrategy::Random;
    options.max_candidates = 2;  // the default and the stored choice, nothing else
    options.budget_ms = 1e9;
    auto outcome = detail::tune_key(detail::queue_target("test", device().queue), *subject, options);
    detail::set_tuning_timer_for_testing(nullptr);
    REQUIRE(outcome.found);
    CHECK(outcome.best == stored);
    CHECK(detail::TuningDatabase(*device().info).load().entries.at(0).parameters == stored);
  }

  TEST_CASE("first use: sixteen threads missing the same key wait for one tuning") {
    FreshTuningState state("first-use-threads");
    const auto before = statistics();
    std::vector<tuning::Choice> choices(16);
    std::vector<std::thread> threads;
    for (int t = 0; t < 16; ++t)
      threads.emplace_back(
          [&, t] { choices[t] = tuning::parameters_for(device().queue, "vector_add", "float", "2^17"); });
    for (auto& thread : threads) thread.join();
    CHECK(statistics().tunings - before.tunings == 1);
    for (const auto& choice : choices) CHECK(choice.parameters == choices[0].parameters);
  }

  TEST_CASE("first use: a second process reads the database instead of tuning again") {
    const std::string cache = test::temp_directory("first-use-process");
    auto first = probe_choose(cache, "axpy", "2^17");
    CHECK(first["origin"] == "first-use");
    CHECK(first["tunings"] == 1);
    auto second = probe_choose(cache, "axpy", "2^17");
    CHECK(second["origin"] == "database");
    CHECK(second["tunings"] == 0);
    CHECK(second["tuning_db_hits"] == 1);
    CHECK(second["parameters"] == first["parameters"]);
  }

  TEST_CASE("first use: an unwritable cache directory never fails the call; the choice is simply not kept") {
    const std::string parent = test::temp_directory("first-use-unwritable");
    std::ofstream(parent + "/a-file") << "not a directory";
    auto first = probe_choose(parent + "/a-file/cache", "axpy", "2^13");
    CHECK(first["origin"] == "first-use");
    auto second = probe_choose(parent + "/a-file/cache", "axpy", "2^13");
    CHECK(second["origin"] == "first-use");  // nothing could be stored, so the next process tunes again
  }

  TEST_CASE("first use: processes tuning different keys at once into one database lose no entry") {
    const std::string cache = test::temp_directory("first-use-writers");
    std::string command;
    for (const char* op : {"axpy", "vector_add"})
      for (const char* shape : {"2^13", "2^17", "2^21"})
        command += "TILECL_CACHE_DIR='" + cache + "' TILECL_TUNE=first-use '" + test::probe_path() + "' choose " + op +
                   " float " + shape + " >/dev/null 2>&1 & ";
    command += "wait";
    CHECK(test::run_command(command).status == 0);
    test::ScopedEnv env("TILECL_CACHE_DIR", cache);
    auto records = detail::TuningDatabase(*device().info).load();
    CHECK(records.entries.size() == 6);
  }

  TEST_CASE("first use: an entry tuned for an edited kernel source is not used") {
    FreshTuningState state("first-use-source", "off");
    detail::TuningEntry stale;
    stale.op = "axpy";
    stale.dtype = "float";
    stale.bucket = "n<2^14";
    stale.source_hash = "0000000000000000";
    stale.parameters = {"naive", {{"WG_X", 32}}};
    REQUIRE(detail::TuningDatabase(*device().info).merge({{stale}, {}}));
    auto choice = tuning::parameters_for(device().queue, "axpy", "float", "1000");
    CHECK(choice.origin == tuning::Origin::Default);
    CHECK(choice.parameters != stale.parameters);
  }

  TEST_CASE("first use: TILECL_TUNE=off never tunes and uses device-derived defaults") {
    FreshTuningState state("first-use-off", "off");
    const auto before = statistics();
    auto choice = tuning::parameters_for(device().queue, "axpy", "double", "2^21");
    CHECK(choice.origin == tuning::Origin::Default);
    CHECK(statistics().tunings == before.tunings);
    CHECK(tuning::mode() == tuning::Mode::Off);
  }

  TEST_CASE("overrides: valid parameters win over everything; invalid ones are refused with the reason") {
    FreshTuningState state("overrides");
    tuning::Parameters parameters{"naive", {{"WG_X", 32}}};
    tuning::override_parameters(device().device, "axpy", "float", parameters);
    auto choice = tuning::parameters_for(device().queue, "axpy", "float", "2^20");
    CHECK(choice.origin == tuning::Origin::Override);
    CHECK(choice.parameters == parameters);
    try {
      tuning::override_parameters(
          device().device, "axpy", "float",
          {"naive", {{"WG_X", static_cast<std::int64_t>(device().info->max_work_group_size) + 1}}});
      FAIL("expected an error");
    } catch (const Error& error) {
      CHECK(error.argument() == "parameters");
      CHECK(std::string(error.what()).find("WG_X") != std::string::npos);
    }
    CHECK_THROWS_AS(tuning::override_parameters(device().device, "axpy", "float", {"no_such_variant", {}}), Error);
    CHECK_THROWS_AS(tuning::override_parameters(device().device, "no_such_op", "float", parameters), Error);
    tuning::clear();
    CHECK(tuning::parameters_for(device().queue, "axpy", "float", "2^20").origin != tuning::Origin::Override);
  }

  TEST_CASE("overrides: a variant that only some shape classes have (gemm's gemv) is accepted for those calls") {
    FreshTuningState state("overrides-gemv", "off");
    const tuning::Parameters parameters{
        "gemv", {{"UNROLL", 2}, {"WPT", 2}, {"VEC", 4}, {"WG_Y", 1}, {"WG_X", 8}, {"SPLIT", 4}}};
    tuning::override_parameters(device().device, "gemm", "float", parameters);
    const auto chosen = tuning::parameters_for(device().queue, "gemm", "float", "4x300x257");
    CHECK(chosen.origin == tuning::Origin::Override);
    CHECK(chosen.parameters == parameters);
    // A call of that class runs with it and computes C = A B (A 4 x 257, B 257 x 300, row-major).
    const std::size_t m = 4, n = 300, k = 257;
    auto random = test::random_engine("overrides-gemv");
    const auto a = test::random_vector<float>(m * k, random), b = test::random_vector<float>(k * n, random);
    std::vector<float> c(m * n, -7.0f);
    cl::Buffer da(device().context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, a.size() * 4,
                  const_cast<float*>(a.data()));
    cl::Buffer db(device().context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, b.size() * 4,
                  const_cast<float*>(b.data()));
    cl::Buffer dc(device().context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, c.size() * 4, c.data());
    gemm<float>(device().queue, Layout::RowMajor, Transpose::No, Transpose::No, m, n, k, 1.0f, da, 0, k, db, 0, n, 0.0f,
                dc, 0, n);
    device().queue.enqueueReadBuffer(dc, CL_TRUE, 0, c.size() * 4, c.data());
    for (std::size_t i = 0; i < m; ++i)
      for (std::size_t j = 0; j < n; ++j) {
        double expected = 0, magnitude = 0;
        for (std::size_t p = 0; p < k; ++p) {
          expected += double(a[i * k + p]) * b[p * n + j];
          magnitude += std::abs(double(a[i * k + p]) * b[p * n + j]);
        }
        REQUIRE(std::abs(c[i * n + j] - expected) <= 1e-6 * k * magnitude + 1e-30);
      }
    // A call the variant cannot run is refused by name, not run wrong.
    cl::Buffer square_a(device().context, CL_MEM_READ_WRITE, 64 * 64 * 4),
        square_b(device().context, CL_MEM_READ_WRITE, 64 * 64 * 4),
        square_c(device().context, CL_MEM_READ_WRITE, 64 * 64 * 4);
    try {
      gemm<float>(device().queue, Layout::RowMajor, Transpose::No, Transpose::No, 64, 64, 64, 1.0f, square_a, 0, 64,
                  square_b, 0, 64, 0.0f, square_c, 0, 64);
      FAIL("expected an error");
    } catch (const Error& error) {
      CHECK(std::string(error.what()).find("gemv") != std::string::npos);
    }
    CHECK_THROWS_AS(tuning::override_parameters(device().device, "gemm", "float", {"gemv", {{"VEC", 3}}}), Error);
  }

  TEST_CASE("tunable ops: every op describes its dtypes and shapes, and bad shapes are refused") {
    auto ops = tuning::tunable_ops();
    REQUIRE_FALSE(ops.empty());
    for (const auto& op : ops) {
      CAPTURE(op.name);
      CHECK_FALSE(op.dtypes.empty());
      CHECK_FALSE(op.default_shapes.empty());
    }
    CHECK_THROWS_AS(tuning::parameters_for(device().queue, "axpy", "float", "many"), Error);
    CHECK_THROWS_AS(tuning::parameters_for(device().queue, "axpy", "int8", "100"), Error);
  }
}

TEST_SUITE("tuning.first_use") {
  TEST_CASE("first use: a chosen configuration that fails to build is reported once, recorded, and tuned around") {
    FreshTuningState state("first-use-failing-choice");
    auto random = test::random_engine("failing-choice");
    const std::size_t n = 3000;
    auto x = test::random_vector<float>(n, random), y = test::random_vector<float>(n, random);
    cl::Buffer x_buffer = test::to_device(x), y_buffer = test::to_device(y);
    // The first call tunes and stores its winner; the winner then "fails to build" in this and later processes.
    axpy<float>(device().queue, n, 2.0f, x_buffer, 0, y_buffer, 0).wait();
    const auto first = tuning::parameters_for(device().queue, "axpy", "float", std::to_string(n));
    REQUIRE(first.origin == tuning::Origin::FirstUse);
    tuning::clear();
    test::ScopedEnv failing("TILECL_TEST_FAIL_CONFIG", first.parameters.to_string());
    const std::size_t reports = test::reports_mentioning(first.parameters.to_string());
    y_buffer = test::to_device(y);
    axpy<float>(device().queue, n, 2.0f, x_buffer, 0, y_buffer, 0).wait();  // the database's entry fails; no error
    const auto got = test::from_device<float>(y_buffer, n);
    for (std::size_t i = 0; i < n; ++i) REQUIRE(test::close(got[i], 2.0 * x[i] + y[i], 1e-6));
    CHECK(test::reports_mentioning(first.parameters.to_string()) == reports + 1);
    const auto second = tuning::parameters_for(device().queue, "axpy", "float", std::to_string(n));
    CHECK(second.origin == tuning::Origin::FirstUse);  // tuned again ...
    CHECK(second.parameters != first.parameters);      // ... without the failing configuration
    // The failure is in the database: a fresh resolution neither uses the failing entry nor reports again.
    const auto records = detail::TuningDatabase(*device().info).load();
    bool recorded = false;
    for (const auto& failure : records.failures) recorded = recorded || failure.config == first.parameters.to_string();
    CHECK(recorded);
    tuning::clear();
    axpy<float>(device().queue, n, 2.0f, x_buffer, 0, y_buffer, 0).wait();
    CHECK(test::reports_mentioning(first.parameters.to_string()) == reports + 1);
  }

  TEST_CASE("first use: threads that all see the chosen configuration fail discard it once and tune the key once") {
    FreshTuningState state("first-use-failing-threads");
    auto random = test::random_engine("failing-threads");
    const std::size_t n = 2999;
    const auto x = test::random_vector<float>(n, random), y = test::random_vector<float>(n, random);
    const cl::Buffer x_buffer = test::to_device(x);
    cl::Buffer first_y = test::to_device(y);
    axpy<float>(device().queue, n, 2.0f, x_buffer, 0, first_y, 0).wait();
    const auto first = tuning::parameters_for(device().queue, "axpy", "float", std::to_string(n));
    REQUIRE(first.origin == tuning::Origin::FirstUse);
    tuning::clear();
    test::ScopedEnv failing("TILECL_TEST_FAIL_CONFIG", first.parameters.to_string());
    const auto before = statistics();
    constexpr int kThreads = 8;
    std::vector<std::vector<float>> results(kThreads);
    std::atomic<int> ready{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t)
      threads.emplace_back([&, t] {
        cl::Buffer y_buffer = test::to_device(y);
        ++ready;
        while (ready < kThreads) std::this_thread::yield();
        axpy<float>(device().queue, n, 2.0f, x_buffer, 0, y_buffer, 0).wait();  // the database's entry fails
        results[t] = test::from_device<float>(y_buffer, n);
      });
    for (auto& thread : threads) thread.join();
    CHECK(statistics().tunings - before.tunings == 1);  // one resolution without the failing configuration
    for (const auto& got : results) {
      REQUIRE(got.size() == n);
      for (std::size_t i = 0; i < n; ++i) REQUIRE(test::close(got[i], 2.0 * x[i] + y[i], 1e-6));
    }
    const auto second = tuning::parameters_for(device().queue, "axpy", "float", std::to_string(n));
    CHECK(second.origin == tuning::Origin::FirstUse);
    CHECK(second.parameters != first.parameters);
  }

  TEST_CASE("first use: threads discarding the same failed choice at once leave one resolution of the key") {
    // Every thread holds the stored choice before any discards it; a discard must not undo the resolution
    // another thread started after its own discard (with the old unconditional erase, each thread tuned).
    FreshTuningState state("first-use-discard-threads");
    const std::string shape = "3001";
    const auto stored = tuning::parameters_for(device().queue, "axpy", "float", shape);
    REQUIRE(stored.origin == tuning::Origin::FirstUse);
    tuning::clear();
    SlowWidestWorkGroupWins timer;
    detail::set_tuning_timer_for_testing(&timer);
    const auto before = statistics();
    constexpr int kThreads = 8;
    std::vector<tuning::Choice> held(kThreads), after(kThreads);
    std::atomic<int> holding{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t)
      threads.emplace_back([&, t] {
        auto subject = detail::find_tunable_op("axpy").make_subject("float", shape);
        const auto target = detail::queue_target("test", device().queue);
        auto& resolver = detail::ChoiceResolver::instance();
        held[t] = resolver.choose(target, *subject);
        ++holding;
        while (holding < kThreads) std::this_thread::yield();
        resolver.discard(target, *subject, held[t].parameters, "discarded by the test");
        after[t] = resolver.choose(target, *subject);
      });
    for (auto& thread : threads) thread.join();
    detail::set_tuning_timer_for_testing(nullptr);
    CHECK(statistics().tunings - before.tunings == 1);
    for (int t = 0; t < kThreads; ++t) {
      CHECK(held[t].origin == tuning::Origin::Database);
      CHECK(held[t].parameters == stored.parameters);
      CHECK(after[t].origin == tuning::Origin::FirstUse);
      CHECK(after[t].parameters == after[0].parameters);
    }
    CHECK(after[0].parameters != stored.parameters);
  }
}
