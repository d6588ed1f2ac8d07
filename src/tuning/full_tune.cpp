#include "tuning/full_tune.hpp"

#include <algorithm>
#include <random>
#include <vector>

#include "kernel_sources.hpp"
#include "tuning/choice_resolver.hpp"
#include "tuning/known_failures.hpp"
#include "tuning/tuning_db.hpp"
#include "tuning/tuning_run.hpp"

namespace tilecl::detail {
namespace {

// The space in the strategy's order, the default first.
std::vector<Config> ordered_candidates(const SearchSpace& space, const DeviceInfo& device, const Config& default_config,
                                       const FullTuneOptions& options) {
  std::vector<Config> candidates = space.enumerate(device);
  candidates.erase(std::remove(candidates.begin(), candidates.end(), default_config), candidates.end());
  if (options.strategy == SearchStrategy::Random) {
    std::mt19937_64 random(options.seed);
    std::shuffle(candidates.begin(), candidates.end(), random);
  }
  candidates.insert(candidates.begin(), default_config);
  return candidates;
}

// The database's current choice for the key (if still valid) competes right after the default, so a search that
// misses it (a random order, a short budget) never replaces it with something slower.
void promote_stored_choice(const TuningRecords& records, const TuningKey& key, const std::string& source,
                           const SearchSpace& space, const DeviceInfo& device, std::vector<Config>& candidates) {
  const Config& default_config = candidates.front();
  for (const auto& entry : records.entries) {
    if (entry.op != key.op || entry.dtype != key.dtype || entry.bucket != key.bucket || entry.source_hash != source ||
        entry.parameters == default_config || !space.validate(entry.parameters, device).empty())
      continue;
    candidates.erase(std::remove(candidates.begin(), candidates.end(), entry.parameters), candidates.end());
    candidates.insert(candidates.begin() + 1, entry.parameters);
  }
}

}  // namespace

TuningOutcome tune_key(const QueueTarget& target, TuningSubject& subject, const FullTuneOptions& options) {
  const TuningKey key = subject.key();
  const DeviceInfo& device = *target.info;
  const std::string source = kernel_source(subject.family()).hash;
  const SearchSpace space = subject.search_space(device);
  const Config default_config = subject.default_config(device);

  std::vector<Config> candidates = ordered_candidates(space, device, default_config, options);
  const TuningDatabase database(device);
  const TuningRecords records = database.load();
  promote_stored_choice(records, key, source, space, device, candidates);
  if (options.max_candidates > 0 && candidates.size() > options.max_candidates)
    candidates.resize(options.max_candidates);

  TunerOptions tuner_options;
  tuner_options.budget_ms = options.budget_ms;
  tuner_options.seed = options.seed;
  tuner_options.known_failures = known_failures(target, records, key, source);
  tuner_options.progress = options.progress;
  TuningOutcome outcome =
      tune_and_record(target, subject, candidates, default_config, tuner_options, database, source, "tune");
  if (outcome.found)
    ChoiceResolver::instance().set_choice(device, key, {outcome.best, tuning::Origin::Tune, key.bucket});
  return outcome;
}

}  // namespace tilecl::detail
