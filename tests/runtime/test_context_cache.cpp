#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "context_cache.hpp"
#include "support/fixture.hpp"
#include "tilecl/runtime.hpp"

using namespace tilecl;
using tilecl::test::device;

TEST_SUITE("runtime.context_cache") {
  TEST_CASE("build-once map: threads asking for one key at once get the value of a single build") {
    detail::BuildOnceMap<std::string, int> map;
    std::atomic<int> builds{0}, ready{0};
    std::vector<int> got(8, 0);
    std::vector<std::thread> threads;
    for (int t = 0; t < 8; ++t) {
      threads.emplace_back([&, t] {
        ++ready;
        while (ready < 8) std::this_thread::yield();
        got[t] = map.get("key", [&] {
          std::this_thread::sleep_for(std::chrono::milliseconds(50));  // others arrive while it builds
          return 100 + builds++;
        });
      });
    }
    for (auto& thread : threads) thread.join();
    CHECK(builds == 1);
    for (int value : got) CHECK(value == 100);
    CHECK(map.contains("key"));
    CHECK_FALSE(map.contains("other"));
    CHECK(map.size() == 1);
  }

  TEST_CASE("build-once map: a failed build is remembered and rethrown, not retried; set() replaces") {
    detail::BuildOnceMap<int, std::string> map;
    int builds = 0;
    auto failing = [&]() -> std::string {
      ++builds;
      throw std::runtime_error("build failed");
    };
    CHECK_THROWS_WITH_AS(map.get(1, failing), "build failed", std::runtime_error);
    CHECK_THROWS_WITH_AS(map.get(1, failing), "build failed", std::runtime_error);
    CHECK(builds == 1);
    map.set(1, "known");
    CHECK(map.get(1, failing) == "known");
    CHECK(builds == 1);
    map.erase_unless([](int key) { return key != 1; });
    CHECK(map.size() == 0);
    CHECK(map.get(1, [] { return std::string("rebuilt"); }) == "rebuilt");
    map.clear();
    CHECK_FALSE(map.contains(1));
  }

  TEST_CASE("build-once map: erase_if_built drops only a finished value that matches, never a build in flight") {
    detail::BuildOnceMap<int, int> map;
    CHECK(map.get(1, [] { return 10; }) == 10);
    map.erase_if_built(1, [](int value) { return value == 11; });  // a newer value: kept
    CHECK(map.contains(1));
    map.erase_if_built(1, [](int value) { return value == 10; });
    CHECK_FALSE(map.contains(1));
    map.erase_if_built(2, [](int) { return true; });  // no entry: nothing happens
    CHECK_THROWS_AS(map.get(3, []() -> int { throw std::runtime_error("failed"); }), std::runtime_error);
    map.erase_if_built(3, [](int) { return true; });  // a failed build stays remembered
    CHECK(map.contains(3));

    std::atomic<bool> building{false}, release{false};
    std::thread builder([&] {
      map.get(4, [&] {
        building = true;
        while (!release) std::this_thread::yield();
        return 40;
      });
    });
    while (!building) std::this_thread::yield();
    map.erase_if_built(4, [](int) { return true; });  // in flight: kept, and later callers wait for it
    CHECK(map.contains(4));
    release = true;
    builder.join();
    CHECK(map.get(4, [] { return 41; }) == 40);
  }

  TEST_CASE("build-once map: with OnFailure::Retry a failed build is not remembered") {
    detail::BuildOnceMap<int, int> map;
    int builds = 0;
    auto flaky = [&] {
      if (++builds == 1) throw std::runtime_error("out of memory, this once");
      return 42;
    };
    CHECK_THROWS_AS(map.get(3, flaky, detail::OnFailure::Retry), std::runtime_error);
    CHECK_FALSE(map.contains(3));
    CHECK(map.get(3, flaky, detail::OnFailure::Retry) == 42);
    CHECK(map.get(3, flaky, detail::OnFailure::Retry) == 42);
    CHECK(builds == 2);
  }

  TEST_CASE("context cache: entries are per context, and dropped when their context is forgotten") {
    static auto* cache = new detail::ContextCache<int, std::string>;  // never destroyed, like the runtime's
    cl::Context other(device().device);
    int builds = 0;
    auto build = [&] { return "built " + std::to_string(++builds); };
    CHECK(cache->get(device().context, 7, build) == "built 1");
    CHECK(cache->get(device().context, 7, build) == "built 1");
    CHECK(cache->get(other, 7, build) == "built 2");
    CHECK(cache->contains(other, 7));
    CHECK(cache->size() == 2);
    forget_context(other);
    CHECK_FALSE(cache->contains(other, 7));
    CHECK(cache->contains(device().context, 7));
    cache->set(device().context, 7, "replaced");
    CHECK(cache->get(device().context, 7, build) == "replaced");
    cache->clear();
    CHECK(cache->size() == 0);
  }
}
