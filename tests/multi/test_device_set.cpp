#include <doctest/doctest.h>

#include <atomic>
#include <cmath>
#include <functional>
#include <numeric>
#include <stdexcept>

#include "multi/multi_support.hpp"
#include "multi_device/halo_rows.hpp"
#include "multi_device/pipeline.hpp"
#include "multi_device/shares.hpp"
#include "reference/image_reference.hpp"
#include "tilecl/error.hpp"
#include "tilecl/multi_device.hpp"

using namespace tilecl;
using tilecl::detail::IndexRange;
namespace multi = tilecl::test::multi;

namespace {

reference::Border to_reference(Border border) { return static_cast<reference::Border>(static_cast<int>(border)); }

using multi::expect_error;

// The ranges are consecutive and cover [0, total).
void check_cover(const std::vector<IndexRange>& ranges, std::size_t begin, std::size_t end) {
  std::size_t at = begin;
  for (const auto& r : ranges) {
    CHECK(r.begin == at);
    CHECK(r.end >= r.begin);
    at = r.end;
  }
  CHECK(at == end);
}

}  // namespace

TEST_SUITE("multi.device_set") {
  TEST_CASE("shares: proportional to the weights, consecutive, empty when there are more devices than indices") {
    auto random = test::random_engine("shares");
    for (int trial = 0; trial < 200; ++trial) {
      const std::size_t devices = 1 + random() % 5, total = random() % 50;
      std::vector<double> weights;
      for (std::size_t i = 0; i < devices; ++i) weights.push_back(0.25 + double(random() % 8));
      CAPTURE(total);
      const auto shares = detail::split_by_weights(total, weights);
      REQUIRE(shares.size() == devices);
      check_cover(shares, 0, total);
      const double sum = std::accumulate(weights.begin(), weights.end(), 0.0);
      for (std::size_t i = 0; i < devices; ++i)
        CHECK(std::abs(double(shares[i].size()) - double(total) * weights[i] / sum) < 1.0);
    }
    const auto few = detail::split_by_weights(2, {1, 1, 1});
    CHECK(few[0].size() + few[1].size() + few[2].size() == 2);
    CHECK(detail::split_by_weights(5, {3, 1, 1})[0].size() == 3);
  }

  TEST_CASE("shares: pieces differ by at most one and never cross a frame") {
    for (std::size_t size = 0; size < 30; ++size)
      for (std::size_t pieces = 1; pieces < 7; ++pieces) {
        const auto parts = detail::cut_evenly({5, 5 + size}, pieces);
        check_cover(parts, 5, 5 + size);
        CHECK(parts.size() == std::min(size, pieces));
        for (const auto& p : parts) CHECK(p.size() + 1 >= (size + pieces - 1) / pieces);
      }
    for (std::size_t begin = 0; begin < 20; ++begin)
      for (std::size_t end = begin; end < 40; end += 3)
        for (std::size_t cap : {1, 2, 5, 100}) {
          const auto parts = detail::cut_at_periods({begin, end}, 7, cap);
          check_cover(parts, begin, end);
          for (const auto& p : parts) {
            CHECK(p.size() <= cap);
            CHECK(p.begin / 7 == (p.end - 1) / 7);
          }
        }
  }

  TEST_CASE("halo rows: every border rule maps rows as the kernels do, runs in order") {
    for (const Border border :
         {Border::Zero, Border::Clamp, Border::Mirror, Border::Wrap, Border::Reflect, Border::Constant})
      for (std::size_t height = 1; height < 9; ++height) {
        for (long long row = -25; row < 25; ++row) {
          const auto mapped = detail::border_row(row, height, border);
          const long want = reference::fold_index(long(row), long(height), to_reference(border));
          CHECK(mapped.has_value() == (want >= 0));
          if (mapped) CHECK(long(*mapped) == want);
        }
        for (std::size_t begin = 0; begin < height; ++begin)
          for (std::size_t end = begin + 1; end <= height; ++end)
            for (std::size_t halo : {0, 1, 3, 11}) {
              const auto runs = detail::extended_band_rows(height, {begin, end}, halo, border);
              std::size_t to = 0;
              for (const auto& run : runs) {
                CHECK(run.to == to);
                CHECK(run.count > 0);
                for (std::size_t i = 0; i < run.count; ++i) {
                  const long want =
                      reference::fold_index(long(begin + to + i) - long(halo), long(height), to_reference(border));
                  CHECK(run.zeros == (want < 0));
                  if (!run.zeros) CHECK(long(run.from + i) == want);
                }
                to += run.count;
              }
              CHECK(to == end - begin + 2 * halo);
            }
      }
  }

  TEST_CASE("device set: bad sets raise tilecl::Error naming the devices") {
    const auto queues = multi::queues(multi::devices(2), false);
    expect_error([] { DeviceSet set({}); }, "devices", CL_INVALID_VALUE);
    expect_error([&] { DeviceSet set({queues[0], cl::CommandQueue()}); }, "devices[1]", CL_INVALID_COMMAND_QUEUE);
    expect_error([&] { DeviceSet set(queues, {{1.0}, 2}); }, "devices", CL_INVALID_VALUE);
    expect_error([&] { DeviceSet set(queues, {{1.0, 0.0}, 2}); }, "devices", CL_INVALID_VALUE);
    expect_error([&] { DeviceSet set(queues, {{1.0, std::nan("")}, 2}); }, "devices", CL_INVALID_VALUE);
    expect_error([&] { DeviceSet set(queues, {{}, 0}); }, "devices", CL_INVALID_VALUE);
    DeviceSet set(queues, {{2.0, 1.0}, 4});
    CHECK(set.size() == 2);
    CHECK(set.weights() == std::vector<double>{2.0, 1.0});
    CHECK(set.pieces_per_device() == 4);
    CHECK(set.queue(1)() == queues[1]());
    CHECK(set.upload_queue(0).getInfo<CL_QUEUE_DEVICE>()() == queues[0].getInfo<CL_QUEUE_DEVICE>()());
    CHECK(set.download_queue(1).getInfo<CL_QUEUE_CONTEXT>()() == queues[1].getInfo<CL_QUEUE_CONTEXT>()());
    expect_error([&] { set.queue(2); }, "index", CL_INVALID_VALUE);
  }

  TEST_CASE("device set: a failure on one device waits for the others and arrives as tilecl::Error") {
    DeviceSet set(multi::queues(multi::devices(3), false));
    const std::vector<IndexRange> shares{{0, 1}, {1, 2}, {2, 3}};
    std::atomic<int> finished{0};
    const auto fail_on = [&](std::size_t failing, auto failure) {
      finished = 0;
      detail::run_on_devices("test_op", set, shares, [&](DeviceSet::Entry& entry, IndexRange) {
        if (entry.index == failing) throw failure;
        ++finished;
      });
    };
    expect_error([&] { fail_on(1, cl::Error(CL_OUT_OF_RESOURCES, "clEnqueueNDRangeKernel")); }, "devices[1]",
                 CL_OUT_OF_RESOURCES);
    CHECK(finished == 2);
    expect_error([&] { fail_on(2, std::runtime_error("no memory")); }, "devices[2]", CL_OUT_OF_HOST_MEMORY);
    expect_error([&] { fail_on(0, Error("gemm", "lda", CL_INVALID_VALUE, "as raised by an op")); }, "lda",
                 CL_INVALID_VALUE);
    // Devices with an empty share are not called.
    int calls = 0;
    detail::run_on_devices("test_op", set, {{0, 0}, {0, 4}, {4, 4}}, [&](DeviceSet::Entry& entry, IndexRange share) {
      CHECK(entry.index == 1);
      CHECK(share.size() == 4);
      ++calls;
    });
    CHECK(calls == 1);
  }
}
