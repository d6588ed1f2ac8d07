// `tilecl tune`: searches a key's whole space (not only launch parameters), persists the winner with origin "tune"
// and makes it the choice of this process (src/tuning/choice_resolver.hpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>

#include "checks.hpp"
#include "tuning/tuner.hpp"
#include "tuning/tuning_subject.hpp"

namespace tilecl::detail {

enum class SearchStrategy { Exhaustive, Random };

struct FullTuneOptions {
  double budget_ms = 10000;  // per key
  SearchStrategy strategy = SearchStrategy::Exhaustive;
  std::uint64_t seed = 1;          // random order, and the scratch data
  std::size_t max_candidates = 0;  // 0: no limit
  std::function<void(std::size_t, std::size_t)> progress;
};

// The outcome lists every candidate.
TuningOutcome tune_key(const QueueTarget& target, TuningSubject& subject, const FullTuneOptions& options);

}  // namespace tilecl::detail
