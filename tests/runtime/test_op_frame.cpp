// The per-thread memo of the op frame (src/ops/op_frame.hpp): what a warm call finds, that an entry an enqueue in
// progress holds (pinned) is never the one a nested op's call replaces, and the main kernel's work-group check.
#include <doctest/doctest.h>

#include <cstdint>
#include <vector>

#include "build_options.hpp"
#include "ops/op_frame.hpp"
#include "support/fixture.hpp"

using namespace tilecl;
using tilecl::test::device;

namespace {

constexpr const char* kOp = "memo-test";
constexpr const char* kDtype = "float";

detail::ShapeKey key_of(std::uint64_t shape_class) { return {kOp, kDtype, shape_class, 0}; }

detail::Config config_of(std::uint64_t shape_class) {
  return {"naive", {{"WG_X", static_cast<std::int64_t>(shape_class)}}};
}

}  // namespace

TEST_SUITE("runtime.op_frame") {
  TEST_CASE("op frame: a remembered key is found until 32 newer keys push it out") {
    const detail::QueueTarget target = detail::queue_target(kOp, device().queue);
    // Earlier calls of this thread (other suites in the same process) may have left entries of an older dispatch
    // generation, which a new key takes first: 32 keys of the current one fill every slot.
    for (std::uint64_t i = 0; i < 32; ++i) detail::remember(target, key_of(7000 + i), config_of(7000 + i));
    detail::Resolved& first = detail::remember(target, key_of(1000), config_of(1000));
    CHECK(detail::find_memoized(target, key_of(1000)) == &first);
    CHECK(detail::find_memoized(target, key_of(1001)) == nullptr);
    for (std::uint64_t i = 0; i < 32; ++i) detail::remember(target, key_of(2000 + i), config_of(2000 + i));
    CHECK(detail::find_memoized(target, key_of(1000)) == nullptr);
    for (std::uint64_t i = 0; i < 32; ++i) {
      const detail::Resolved* found = detail::find_memoized(target, key_of(2000 + i));
      REQUIRE(found != nullptr);
      CHECK(found->config == config_of(2000 + i));
    }
  }

  TEST_CASE("op frame: a pinned entry survives any number of inner calls' new keys, and is replaced once unpinned") {
    const detail::QueueTarget target = detail::queue_target(kOp, device().queue);
    detail::Resolved& outer = detail::remember(target, key_of(3000), config_of(3000));
    {
      const detail::MemoPin pin(outer);
      detail::Resolved& inner = detail::remember(target, key_of(3001), config_of(3001));
      {
        const detail::MemoPin inner_pin(inner);  // nested twice
        for (std::uint64_t i = 0; i < 100; ++i) detail::remember(target, key_of(4000 + i), config_of(4000 + i));
        CHECK(detail::find_memoized(target, key_of(3001)) == &inner);
      }
      for (std::uint64_t i = 0; i < 100; ++i) detail::remember(target, key_of(5000 + i), config_of(5000 + i));
      CHECK(detail::find_memoized(target, key_of(3000)) == &outer);
      CHECK(outer.config == config_of(3000));                         // still the entry's own: not overwritten in place
      CHECK(detail::find_memoized(target, key_of(3001)) == nullptr);  // unpinned: pushed out
    }
    for (std::uint64_t i = 0; i < 32; ++i) detail::remember(target, key_of(6000 + i), config_of(6000 + i));
    CHECK(detail::find_memoized(target, key_of(3000)) == nullptr);
  }

  TEST_CASE("op frame: the main kernel's work-group size is checked once per entry and size, refused above its limit") {
    const detail::QueueTarget target = detail::queue_target(kOp, device().queue);
    detail::Resolved resolved;
    resolved.config = config_of(1);
    const std::string kernel = "transpose_naive";  // no required work-group size: the device's limit
    resolved.main_kernel(target, "transpose", detail::BuildOptions(), kernel, kOp);
    const std::uint64_t limit = resolved.program->kernel_work_group_limit(kernel, kOp);
    try {
      resolved.check_main_work_group(kOp, kernel, limit + 1);
      FAIL("expected tilecl::Error");
    } catch (const Error& error) {
      CHECK(error.argument() == "work-group size");
      CHECK(error.status_name() == "CL_INVALID_WORK_GROUP_SIZE");
    }
    CHECK(resolved.checked_work_group == 0);  // a refused size is not remembered: the next call checks it again
    resolved.check_main_work_group(kOp, kernel, limit);
    CHECK(resolved.checked_work_group == limit);  // warm calls of this size skip the kernel lease and the query
    CHECK_THROWS_AS(resolved.check_main_work_group(kOp, kernel, limit + 1), Error);  // another size is checked
    CHECK(resolved.checked_work_group == limit);
    resolved.check_main_work_group(kOp, kernel, 0);  // no local size: nothing to check
  }
}
