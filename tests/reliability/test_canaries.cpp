// The canaries every op test relies on: GuardedBuffer notices a write just outside its region, on either side,
// and nothing else.
#include <doctest/doctest.h>

#include <cstdint>
#include <vector>

#include "support/fixture.hpp"
#include "support/guarded_buffer.hpp"

using tilecl::test::device;

namespace {

template <typename T>
void check_canaries_of() {
  tilecl::test::GuardedBuffer<T> guarded(std::vector<T>(10, T(1)));
  CHECK(guarded.size() == 10);
  CHECK(guarded.offset() == tilecl::test::GuardedBuffer<T>::kDefaultGuard);
  CHECK(guarded.read() == std::vector<T>(10, T(1)));
  CHECK(guarded.touched_guards().empty());
  // Writing the whole region is not a guard violation.
  const std::vector<T> twos(10, T(2));
  device().queue.enqueueWriteBuffer(guarded.buffer(), CL_TRUE, guarded.offset() * sizeof(T), 10 * sizeof(T),
                                    twos.data());
  CHECK(guarded.touched_guards().empty());
  // One element before and one after are.
  const T value(3);
  device().queue.enqueueWriteBuffer(guarded.buffer(), CL_TRUE, (guarded.offset() - 1) * sizeof(T), sizeof(T), &value);
  device().queue.enqueueWriteBuffer(guarded.buffer(), CL_TRUE, (guarded.offset() + 10) * sizeof(T), sizeof(T), &value);
  const auto touched = guarded.touched_guards();
  CHECK(touched == std::vector<std::size_t>{guarded.offset() - 1, guarded.offset() + 10});
  CHECK(guarded.read() == twos);
}

}  // namespace

TEST_SUITE("reliability.canaries") {
  TEST_CASE("canaries: a guarded buffer notices a write just before or just after its region, for every type") {
    check_canaries_of<float>();
    check_canaries_of<double>();
    check_canaries_of<std::int32_t>();
    check_canaries_of<std::uint8_t>();
  }

  TEST_CASE("canaries: a guarded buffer of poison starts poisoned inside and intact outside") {
    tilecl::test::GuardedBuffer<float> guarded(5);
    for (float value : guarded.read()) CHECK(tilecl::test::is_poison(value));
    CHECK(guarded.touched_guards().empty());
  }
}
