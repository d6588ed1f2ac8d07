#include <doctest/doctest.h>

#include <atomic>
#include <set>
#include <thread>
#include <vector>

#include "program_cache.hpp"
#include "support/fixture.hpp"
#include "tilecl/error.hpp"
#include "tilecl/runtime.hpp"

using namespace tilecl;
using tilecl::detail::BuildOptions;
using tilecl::detail::ProgramCache;
using tilecl::test::device;

namespace {

// Options no other test uses, so the first get() really compiles.
BuildOptions fresh_options(const std::string& tag) {
  static std::atomic<int> counter{0};
  BuildOptions options;
  options.define("TILECL_TEST_TAG", static_cast<std::int64_t>(test::seed() % 100000) * 100 + counter++);
  options.define("TILECL_TEST_" + tag, 1);
  return options;
}

}  // namespace

TEST_SUITE("runtime.program_cache") {
  TEST_CASE("program cache: sixteen threads asking for one program at once cause exactly one compile") {
    test::ScopedEnv no_disk("TILECL_CACHE", "off");
    const BuildOptions options = fresh_options("THREADS");
    const auto before = statistics();
    constexpr int kThreads = 16;
    std::vector<std::shared_ptr<detail::CompiledProgram>> programs(kThreads);
    std::atomic<int> ready{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t) {
      threads.emplace_back([&, t] {
        ready++;
        while (ready < kThreads) std::this_thread::yield();
        programs[t] = ProgramCache::instance().get(device().context, device().device, "elementwise", options, "test");
      });
    }
    for (auto& thread : threads) thread.join();
    const auto after = statistics();
    CHECK(after.compiles - before.compiles == 1);
    CHECK(after.memory_hits - before.memory_hits == kThreads - 1);
    for (const auto& program : programs) CHECK(program.get() == programs[0].get());
  }

  TEST_CASE("program cache: different options give different programs, equal options the same one") {
    const BuildOptions a = fresh_options("A");
    BuildOptions b = a;
    b.define("WPT", 2);
    auto& cache = ProgramCache::instance();
    auto first = cache.get(device().context, device().device, "elementwise", a, "test");
    auto second = cache.get(device().context, device().device, "elementwise", b, "test");
    auto again = cache.get(device().context, device().device, "elementwise", a, "test");
    CHECK(first.get() != second.get());
    CHECK(first.get() == again.get());
    CHECK(second->options().find("-DWPT=2") != std::string::npos);
    CHECK(cache.contains(device().context, device().device, "elementwise", a));
    CHECK_FALSE(cache.contains(device().context, device().device, "elementwise", fresh_options("NEVER_BUILT")));
  }

  TEST_CASE("program cache: a kernel object is never handed to two holders at once") {
    auto program =
        ProgramCache::instance().get(device().context, device().device, "elementwise", fresh_options("LEASE"), "test");
    cl_kernel first_handle = nullptr;
    {
      auto first = program->lease("elementwise_axpy_vector", "test");
      auto second = program->lease("elementwise_axpy_vector", "test");
      CHECK(first.kernel()() != second.kernel()());
      first_handle = first.kernel()();
    }
    // Returned kernels are reused rather than created anew.
    auto reused = program->lease("elementwise_axpy_vector", "test");
    auto other = program->lease("elementwise_axpy_vector", "test");
    CHECK((reused.kernel()() == first_handle || other.kernel()() == first_handle));

    // Many threads leasing and setting arguments concurrently never share a kernel.
    std::mutex mutex;
    std::set<cl_kernel> in_use;
    std::atomic<bool> shared{false};
    std::vector<std::thread> threads;
    for (int t = 0; t < 8; ++t) {
      threads.emplace_back([&, t] {
        for (int i = 0; i < 200; ++i) {
          auto lease = program->lease("elementwise_axpy_vector", "test");
          {
            std::lock_guard<std::mutex> lock(mutex);
            if (!in_use.insert(lease.kernel()()).second) shared = true;
          }
          lease.kernel().setArg(0, static_cast<cl_int>(t));
          std::lock_guard<std::mutex> lock(mutex);
          in_use.erase(lease.kernel()());
        }
      });
    }
    for (auto& thread : threads) thread.join();
    CHECK_FALSE(shared);
  }

  TEST_CASE("program cache: a program that does not compile raises BuildError with the log, once") {
    BuildOptions bad = fresh_options("BAD");
    bad.define("VEC", 5);  // float5 does not exist
    const auto before = statistics();
    try {
      ProgramCache::instance().get(device().context, device().device, "elementwise", bad, "axpy");
      FAIL("expected a BuildError");
    } catch (const BuildError& error) {
      CHECK(error.op() == "axpy");
      CHECK(error.family() == "elementwise");
      CHECK(error.status_name() == "CL_BUILD_PROGRAM_FAILURE");
      CHECK(error.options().find("-DVEC=5") != std::string::npos);
      CHECK_FALSE(error.log().empty());
    }
    // The failure is remembered: asking again raises the same error without compiling again.
    CHECK_THROWS_AS(ProgramCache::instance().get(device().context, device().device, "elementwise", bad, "axpy"),
                    BuildError);
    CHECK(statistics().compiles == before.compiles);
  }

  TEST_CASE("program cache: an unknown kernel name is a clear error") {
    auto program =
        ProgramCache::instance().get(device().context, device().device, "elementwise", fresh_options("NAME"), "test");
    try {
      program->lease("elementwise_no_such_kernel", "axpy");
      FAIL("expected an error");
    } catch (const Error& error) {
      CHECK(error.status_name() == "CL_INVALID_KERNEL_NAME");
      CHECK(error.argument().find("elementwise_no_such_kernel") != std::string::npos);
    }
  }

  TEST_CASE("program cache: clearing drops programs; held leases stay valid") {
    const BuildOptions options = fresh_options("CLEAR");
    auto program = ProgramCache::instance().get(device().context, device().device, "elementwise", options, "test");
    auto lease = program->lease("elementwise_add_naive", "test");
    program.reset();
    clear_program_cache();
    CHECK_FALSE(ProgramCache::instance().contains(device().context, device().device, "elementwise", options));
    CHECK_NOTHROW(lease.kernel().setArg(0, 1));
  }
}
