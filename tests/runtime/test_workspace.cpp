#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <future>
#include <memory>
#include <mutex>
#include <numeric>
#include <thread>

#include "support/fixture.hpp"
#include "tilecl/error.hpp"
#include "tilecl/tilecl.hpp"
#include "workspace.hpp"

using namespace tilecl;
using tilecl::test::device;

namespace {

constexpr std::size_t kReduceLength = 100000;  // several passes, so reductions use their workspace

struct SumInput {
  std::vector<float> values;
  cl::Buffer buffer;
  double sum = 0;
};

SumInput sum_input(const std::string& salt) {
  auto random = test::random_engine(salt);
  SumInput input;
  input.values = test::random_vector<float>(kReduceLength, random);
  input.buffer = test::to_device(input.values);
  input.sum = std::accumulate(input.values.begin(), input.values.end(), 0.0);
  return input;
}

// A user event that is set once, by the test or by a guard thread, whichever comes first.
struct Gate {
  cl::UserEvent event{device().context};
  std::once_flag once;
  void open(cl_int status) {
    std::call_once(once, [&] { event.setStatus(status); });
  }
};

}  // namespace

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

  TEST_CASE("workspace: a call waiting for a user event neither holds up nor hangs the next call on its workspace") {
    test::ScopedEnv tune("TILECL_TUNE", "off");
    const SumInput first = sum_input("workspace-user-event-first"), second = sum_input("workspace-user-event-second");
    cl::CommandQueue waiting_queue(device().context, device().device);  // in-order: keep the waiting call apart
    cl::Buffer result(device().context, CL_MEM_READ_WRITE, sizeof(float));
    auto gate = std::make_shared<Gate>();
    const std::vector<cl::Event> wait{gate->event};
    reduce<float>(waiting_queue, ReduceOp::Sum, kReduceLength, first.buffer, 0, result, 0, &wait);

    // The gate opens after 10 s at the latest (a guard, so that a regression fails here rather than hangs).
    std::promise<void> finished;
    std::thread guard([gate, done = finished.get_future()] {
      done.wait_for(std::chrono::seconds(10));
      gate->open(CL_COMPLETE);
    });
    const auto start = std::chrono::steady_clock::now();
    const float got = reduce_value<float>(device().queue, ReduceOp::Sum, kReduceLength, second.buffer, 0);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    CHECK_MESSAGE(seconds < 5, "reduce_value waited " << seconds << " s for another call's user event");
    CHECK(test::close(got, second.sum, 1e-4));
    gate->open(CL_COMPLETE);
    waiting_queue.finish();
    CHECK(test::close(test::from_device<float>(result, 1).at(0), first.sum, 1e-4));
    finished.set_value();
    guard.join();
  }

  TEST_CASE("workspace: after a call whose wait-list event failed, the next call on its workspace runs") {
    test::ScopedEnv tune("TILECL_TUNE", "off");
    const SumInput first = sum_input("workspace-failed-first"), second = sum_input("workspace-failed-second");
    cl::CommandQueue failing_queue(device().context, device().device);
    cl::Buffer result(device().context, CL_MEM_READ_WRITE, sizeof(float));
    cl::UserEvent gate(device().context);
    const std::vector<cl::Event> wait{gate};
    reduce<float>(failing_queue, ReduceOp::Sum, kReduceLength, first.buffer, 0, result, 0, &wait);
    gate.setStatus(-5);  // the call's commands fail (PoCL) or never run

    // Its last command will never complete: a later user of the workspace must not wait for it. The call runs in a
    // thread of its own, so that a regression fails the test instead of hanging it.
    struct Outcome {
      std::atomic<bool> done{false};
      float value = 0;
    };
    auto outcome = std::make_shared<Outcome>();
    std::thread call([outcome, x = second.buffer] {
      outcome->value = reduce_value<float>(device().queue, ReduceOp::Sum, kReduceLength, x, 0);
      outcome->done = true;
    });
    for (int i = 0; i < 100 && !outcome->done; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(100));
    if (!outcome->done) {
      call.detach();
      FAIL("reduce_value blocked for 10 s behind a failed call's workspace");
    }
    call.join();
    const float got = outcome->value;
    CHECK(test::close(got, second.sum, 1e-4));
  }
}
