#include <doctest/doctest.h>

#include <atomic>
#include <thread>

#include "support/fixture.hpp"
#include "tilecl/error.hpp"
#include "workspace.hpp"

using namespace tilecl;
using tilecl::test::device;

TEST_SUITE("runtime.workspace") {
  TEST_CASE("workspace: reused between calls, grown on demand, separate per purpose") {
    cl_mem first = nullptr;
    {
      auto lease = detail::acquire_workspace("test", device().context, device().device, "test-a", 1000, nullptr);
      CHECK(lease.bytes() >= 1000);
      first = lease.buffer()();
    }
    {
      auto lease = detail::acquire_workspace("test", device().context, device().device, "test-a", 500, nullptr);
      CHECK(lease.buffer()() == first);  // big enough: the same buffer
    }
    cl_mem grown = nullptr;
    {
      auto lease = detail::acquire_workspace("test", device().context, device().device, "test-a", 100000, nullptr);
      CHECK(lease.bytes() >= 100000);
      CHECK(lease.buffer().getInfo<CL_MEM_SIZE>() >= 100000);
      grown = lease.buffer()();
    }
    // Compared with test-a's live buffer: `first` was released when it grew, and a new buffer may reuse its
    // handle (ThreadSanitizer's allocator does at once).
    auto other = detail::acquire_workspace("test", device().context, device().device, "test-b", 1000, nullptr);
    CHECK(other.buffer()() != grown);
  }

  TEST_CASE("workspace: the next user waits for the previous user's last command") {
    cl::Event marker;
    {
      auto lease = detail::acquire_workspace("test", device().context, device().device, "test-wait", 64, nullptr);
      CHECK(lease.wait_list() == nullptr);
      device().queue.enqueueFillBuffer(lease.buffer(), 7, 0, 64, lease.wait_list(), &marker);
      lease.release_after(marker);
    }
    auto next = detail::acquire_workspace("test", device().context, device().device, "test-wait", 64, nullptr);
    REQUIRE(next.wait_list() != nullptr);
    CHECK(next.wait_list()->back()() == marker());
    next.release_after(marker);
  }

  TEST_CASE("workspace: threads never hold one workspace at the same time") {
    std::atomic<int> holders{0};
    std::atomic<bool> overlapped{false};
    std::vector<std::thread> threads;
    for (int t = 0; t < 8; ++t) {
      threads.emplace_back([&] {
        for (int i = 0; i < 50; ++i) {
          auto lease = detail::acquire_workspace("test", device().context, device().device, "test-threads",
                                                 static_cast<std::size_t>(64 + i), nullptr);
          if (++holders > 1) overlapped = true;
          std::this_thread::yield();
          --holders;
        }
      });
    }
    for (auto& thread : threads) thread.join();
    CHECK_FALSE(overlapped);
  }

  TEST_CASE("workspace: an impossible size is a clear error") {
    CHECK_THROWS_AS(detail::acquire_workspace("reduce", device().context, device().device, "test-huge",
                                              std::size_t{1} << 62, nullptr),
                    Error);
  }
}
