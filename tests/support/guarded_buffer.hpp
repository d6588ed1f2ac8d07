// An output buffer with canaries: `guard` elements of a fixed byte pattern before and after the region an op
// may write, so a write outside it (a negative index, a missed bound, a wrong offset) is caught even when the
// test itself passes offset 0. Every op test allocates its outputs through it and ends with check_guards().
#pragma once

#include <doctest/doctest.h>

#include <CL/opencl.hpp>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "support/fixture.hpp"

namespace tilecl::test {

template <typename T>
class GuardedBuffer {
 public:
  static constexpr std::size_t kDefaultGuard = 19;  // odd: no vector width or tile divides it
  static constexpr unsigned char kGuardByte = 0xC5;

  // The region holds `contents` (what the test would have allocated itself, offsets and padding included).
  explicit GuardedBuffer(const std::vector<T>& contents, std::size_t guard = kDefaultGuard)
      : guard_(guard), count_(contents.size()) {
    std::vector<T> whole(guard_ + count_ + guard_);
    std::memset(static_cast<void*>(whole.data()), kGuardByte, whole.size() * sizeof(T));
    std::memcpy(static_cast<void*>(whole.data() + guard_), contents.data(), count_ * sizeof(T));
    buffer_ = to_device(whole);
  }
  // A region of `count` elements, each `fill` (poison by default).
  explicit GuardedBuffer(std::size_t count, T fill = poison<T>(), std::size_t guard = kDefaultGuard)
      : GuardedBuffer(std::vector<T>(count, fill), guard) {}

  cl::Buffer& buffer() { return buffer_; }
  // The element offset of the region's first element: add it to the offset the test passes to the op.
  std::size_t offset() const { return guard_; }
  std::size_t size() const { return count_; }

  // The region as it is now (blocking read).
  std::vector<T> read() const {
    const auto whole = from_device<T>(buffer_, guard_ + count_ + guard_);
    return std::vector<T>(whole.begin() + static_cast<std::ptrdiff_t>(guard_),
                          whole.begin() + static_cast<std::ptrdiff_t>(guard_ + count_));
  }

  // Indices (in the whole buffer, guards first) of the guard elements that no longer hold the pattern.
  std::vector<std::size_t> touched_guards() const {
    const auto whole = from_device<T>(buffer_, guard_ + count_ + guard_);
    T pattern;
    std::memset(static_cast<void*>(&pattern), kGuardByte, sizeof(T));
    std::vector<std::size_t> touched;
    for (std::size_t i = 0; i < whole.size(); ++i) {
      if (i == guard_) i += count_;
      if (i >= whole.size()) break;
      if (std::memcmp(&whole[i], &pattern, sizeof(T)) != 0) touched.push_back(i);
    }
    return touched;
  }

  // Fails the current test (naming `what` and the first few elements) when a guard was written.
  void check_guards(const std::string& what) const {
    const auto touched = touched_guards();
    for (std::size_t i = 0; i < touched.size() && i < 3; ++i)
      FAIL_CHECK(what << ": guard element " << (touched[i] < guard_ ? "before" : "after") << " the region (index "
                      << touched[i] << ", region [" << guard_ << ", " << guard_ + count_ << ")) was written");
    CHECK_MESSAGE(touched.empty(), what << ": " << touched.size() << " guard elements written");
  }

 private:
  std::size_t guard_;
  std::size_t count_;
  cl::Buffer buffer_;
};

}  // namespace tilecl::test
