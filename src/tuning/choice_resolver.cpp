#include "tuning/choice_resolver.hpp"

#include <algorithm>
#include <optional>
#include <random>
#include <set>
#include <vector>

#include "dispatch_generation.hpp"
#include "environment.hpp"
#include "kernel_sources.hpp"
#include "log.hpp"
#include "program_cache.hpp"
#include "statistics.hpp"
#include "tuning/known_failures.hpp"
#include "tuning/overrides.hpp"
#include "tuning/tuning_db.hpp"
#include "tuning/tuning_run.hpp"

namespace tilecl::detail {
namespace {

constexpr double kDefaultFirstUseBudgetMs = 250;

// The budget of one first-use tuning: TILECL_TUNE_BUDGET_MS when set, else what the subject asks for by default.
double first_use_budget_ms(const TuningSubject& subject) {
  if (auto text = env_value("TILECL_TUNE_BUDGET_MS")) {
    try {
      return std::max(0.0, std::stod(*text));
    } catch (const std::logic_error&) {
      warn_once("TILECL_TUNE_BUDGET_MS", "TILECL_TUNE_BUDGET_MS='" + *text + "' is not a number; using 250");
    }
  }
  return subject.first_use_budget_ms(kDefaultFirstUseBudgetMs);
}

// What a resolution works from: the key, the device, the kernel source, the space and default, the database.
struct Resolution {
  TuningKey key;
  const DeviceInfo& device;
  std::string source;
  SearchSpace space;
  Config default_config;
  TuningDatabase database;
  TuningRecords records;
  std::set<std::string> failures;

  Resolution(const QueueTarget& target, TuningSubject& subject)
      : key(subject.key()),
        device(*target.info),
        source(kernel_source(subject.family()).hash),
        space(subject.search_space(device)),
        default_config(subject.default_config(device)),
        database(device),
        records(database.load()),
        failures(known_failures(target, records, key, source)) {}

  tuning::Choice choice(const Config& config, tuning::Origin origin) const { return {config, origin, key.bucket}; }
};

// Whether a database entry for the key can be used; reports why not (an edited kernel, a known failure, a
// configuration the space refuses).
bool usable_entry(const Resolution& resolution, const TuningEntry& entry) {
  const TuningKey& key = resolution.key;
  if (entry.source_hash != resolution.source) {
    log_verbose("tuning database: " + key.op + " " + key.bucket + " was tuned for an edited kernel; ignored");
    return false;
  }
  if (resolution.failures.count(entry.parameters.to_string()) != 0) {
    log_verbose("tuning database: " + key.op + " " + key.bucket + " holds a configuration known to fail; tuning again");
    return false;
  }
  const std::string why = resolution.space.validate(entry.parameters, resolution.device);
  if (why.empty()) return true;
  const std::string file = resolution.database.path() ? resolution.database.path()->string() : std::string();
  warn_once("tuning-entry:" + file + ":" + key.op + ":" + key.dtype + ":" + key.bucket,
            "tuning database entry for " + key.op + " " + key.dtype + " " + key.bucket + " in " + file +
                " is not usable (" + why + "); " +
                (tuning::mode() == tuning::Mode::Off ? "using defaults" : "tuning again"));
  return false;
}

// The database's usable configuration for the key, if any.
std::optional<Config> stored_config(const Resolution& resolution) {
  const TuningKey& key = resolution.key;
  for (const auto& entry : resolution.records.entries) {
    if (entry.op != key.op || entry.dtype != key.dtype || entry.bucket != key.bucket) continue;
    if (usable_entry(resolution, entry)) return entry.parameters;
  }
  return std::nullopt;
}

// The largest space (combinations of candidates) whose configs first use walks looking for programs this process
// has built already: gemm_batched's 1.3-1.7 * 10^5 configurations took 0.5-1 s of host time per key to walk.
constexpr std::uint64_t kWalkedSpace = 16384;

// TILECL_TUNE=first-use: the subject's own list when it has one (the default first); else only what costs no
// compile: launch parameters of the default program, and (in spaces small enough to walk) configs whose programs
// this process has built already.
std::vector<Config> first_use_candidates(const QueueTarget& target, TuningSubject& subject,
                                         const Resolution& resolution) {
  const Config& default_config = resolution.default_config;
  const SearchSpace& space = resolution.space;
  std::vector<Config> candidates{default_config};
  for (const Config& config : subject.first_use_candidates(*target.info))
    if (config != default_config && space.validate(config, *target.info).empty()) candidates.push_back(config);
  if (candidates.size() > 1) return candidates;
  for (const Config& config : space.same_program_configs(default_config, *target.info))
    if (config != default_config) candidates.push_back(config);
  if (space.combinations() > kWalkedSpace) return candidates;
  for (const Config& config : space.enumerate(*target.info)) {
    if (space.same_program(config, default_config)) continue;
    if (ProgramCache::instance().contains(target.context, target.device, subject.family(),
                                          subject.build_options(config)))
      candidates.push_back(config);
  }
  return candidates;
}

// TILECL_TUNE=full: the whole space in a fixed random order, the default first.
std::vector<Config> full_candidates(const Resolution& resolution) {
  std::vector<Config> candidates = resolution.space.enumerate(resolution.device);
  std::mt19937_64 random(1);
  std::shuffle(candidates.begin(), candidates.end(), random);
  candidates.erase(std::remove(candidates.begin(), candidates.end(), resolution.default_config), candidates.end());
  candidates.insert(candidates.begin(), resolution.default_config);
  return candidates;
}

// Tunes the key within the first-use budget and stores the winner; the default when nothing verified.
tuning::Choice first_use_choice(const QueueTarget& target, TuningSubject& subject, const Resolution& resolution,
                                tuning::Mode mode) {
  const TuningKey& key = resolution.key;
  const std::vector<Config> candidates =
      mode == tuning::Mode::Full ? full_candidates(resolution) : first_use_candidates(target, subject, resolution);
  TunerOptions options;
  options.budget_ms = first_use_budget_ms(subject);
  options.known_failures = resolution.failures;
  const TuningOutcome outcome = tune_and_record(target, subject, candidates, resolution.default_config, options,
                                                resolution.database, resolution.source, "first-use");
  log_verbose("first-use tuning of " + key.op + " " + key.dtype + " " + key.bucket + ": " +
              std::to_string(outcome.results.size()) + " candidates in " + std::to_string(outcome.elapsed_seconds) +
              " s" + (outcome.found ? ", best " + outcome.best.to_string() : ", none verified"));
  if (!outcome.found) {
    warn_once("tuning:" + key.op + ":" + key.dtype + ":" + key.bucket,
              "no configuration of " + key.op + " verified on this device; using defaults");
    return resolution.choice(resolution.default_config, tuning::Origin::Default);
  }
  return resolution.choice(outcome.best, tuning::Origin::FirstUse);
}

// The database's choice, else first-use tuning (unless TILECL_TUNE=off), else the default.
tuning::Choice resolve(const QueueTarget& target, TuningSubject& subject) {
  const Resolution resolution(target, subject);
  if (auto stored = stored_config(resolution)) {
    counters().tuning_db_hits++;
    return resolution.choice(*stored, tuning::Origin::Database);
  }
  const tuning::Mode mode = tuning::mode();
  if (mode == tuning::Mode::Off) return resolution.choice(resolution.default_config, tuning::Origin::Default);
  return first_use_choice(target, subject, resolution, mode);
}

// resolve(), with any error of the resolution reported once and answered by the default.
tuning::Choice resolve_or_default(const QueueTarget& target, TuningSubject& subject) {
  try {
    return resolve(target, subject);
  } catch (const std::exception& error) {
    const TuningKey key = subject.key();
    warn_once("tuning:" + key.op + ":" + key.dtype + ":" + key.bucket,
              std::string("tuning ") + key.op + " failed (" + error.what() + "); using defaults");
    return {subject.default_config(*target.info), tuning::Origin::Default, key.bucket};
  }
}

}  // namespace

// Never destroyed, like every runtime singleton (src/context_cache.hpp).
ChoiceResolver& ChoiceResolver::instance() {
  static auto* resolver = new ChoiceResolver;
  return *resolver;
}

ChoiceResolver::MemoryKey ChoiceResolver::memory_key(const DeviceInfo& device, const TuningKey& key) {
  return MemoryKey{device.fingerprint(), key.op, key.dtype, key.bucket};
}

tuning::Choice ChoiceResolver::choose(const QueueTarget& target, TuningSubject& subject) {
  const TuningKey key = subject.key();
  if (auto overridden = find_override(target.info->fingerprint(), key.op, key.dtype))
    return {*overridden, tuning::Origin::Override, key.bucket};
  return choices_.get(memory_key(*target.info, key), [&] { return resolve_or_default(target, subject); });
}

void ChoiceResolver::discard(const QueueTarget& target, TuningSubject& subject, const Config& failed,
                             const std::string& reason) {
  const TuningKey key = subject.key();
  record_failure(target, key, kernel_source(subject.family()).hash, failed, reason);
  // Only the failed choice: another caller that saw it fail may have resolved the key again already.
  choices_.erase_if_built(memory_key(*target.info, key),
                          [&failed](const tuning::Choice& choice) { return choice.parameters == failed; });
  invalidate_dispatch_memos();
}

void ChoiceResolver::set_choice(const DeviceInfo& device, const TuningKey& key, const tuning::Choice& choice) {
  choices_.set(memory_key(device, key), choice);
  invalidate_dispatch_memos();
}

void ChoiceResolver::forget_choices() {
  choices_.clear();
  invalidate_dispatch_memos();
}

}  // namespace tilecl::detail
