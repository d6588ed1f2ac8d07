// Process-wide counters behind tilecl::statistics().
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>

namespace tilecl::detail {

struct Counters {
  std::atomic<std::uint64_t> memory_hits{0};
  std::atomic<std::uint64_t> disk_hits{0};
  std::atomic<std::uint64_t> disk_writes{0};
  std::atomic<std::uint64_t> disk_rejects{0};
  std::atomic<std::uint64_t> compiles{0};
  std::atomic<std::uint64_t> compile_nanoseconds{0};
  std::atomic<std::uint64_t> tunings{0};
  std::atomic<std::uint64_t> tuning_nanoseconds{0};
  std::atomic<std::uint64_t> tuning_db_hits{0};
};

Counters& counters();

inline std::uint64_t nanoseconds_since(std::chrono::steady_clock::time_point start) {
  return static_cast<std::uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - start).count());
}

}  // namespace tilecl::detail
