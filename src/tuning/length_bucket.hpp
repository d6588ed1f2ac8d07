// Shape buckets of one-dimensional ops (elementwise, reductions): all lengths of a bucket share a tuning
// choice; the timing length represents the bucket when it is tuned.
#pragma once

#include <cstdint>

namespace tilecl::detail {

struct LengthBucket {
  const char* name;
  std::uint64_t timing_n;
  std::uint64_t code;  // the bucket as a number (0 for the smallest), for the per-thread dispatch memo
};

// n below 2^14 (a few work-groups: launch-bound), below 2^18 and 2^22 (cache-resident on large devices),
// and everything larger (memory-bound).
inline LengthBucket length_bucket(std::uint64_t n) {
  if (n < (std::uint64_t{1} << 14)) return {"n<2^14", std::uint64_t{1} << 13, 0};
  if (n < (std::uint64_t{1} << 18)) return {"n<2^18", std::uint64_t{1} << 17, 1};
  if (n < (std::uint64_t{1} << 22)) return {"n<2^22", std::uint64_t{1} << 21, 2};
  return {"n>=2^22", std::uint64_t{1} << 24, 3};
}

}  // namespace tilecl::detail
