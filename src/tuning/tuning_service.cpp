#include "tuning/tuning_service.hpp"

#include <algorithm>
#include <random>

#include "context_registry.hpp"
#include "environment.hpp"
#include "kernel_sources.hpp"
#include "log.hpp"
#include "ops/op_frame.hpp"
#include "program_cache.hpp"
#include "statistics.hpp"
#include "tilecl/error.hpp"
#include "tuning/op_registry.hpp"
#include "tuning/tuning_db.hpp"

namespace tilecl {
namespace detail {
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

std::set<std::string> recorded_failures(const TuningRecords& records, const TuningKey& key, const std::string& source) {
  std::set<std::string> failed;
  for (const auto& failure : records.failures) {
    if (failure.op == key.op && failure.dtype == key.dtype && failure.source_hash == source)
      failed.insert(failure.config);
  }
  return failed;
}

std::string failure_key(const QueueTarget& target, const TuningKey& key, const std::string& source,
                        const std::string& config) {
  return target.info->fingerprint() + "|" + key.op + "|" + key.dtype + "|" + source + "|" + config;
}

// The winner (if any) and the failures of a search, as database records.
TuningRecords records_of(const TuningOutcome& outcome, TuningSubject& subject, const std::string& source,
                         const char* origin) {
  const TuningKey key = subject.key();
  TuningRecords records;
  if (outcome.found) {
    TuningEntry entry;
    entry.op = key.op;
    entry.dtype = key.dtype;
    entry.bucket = key.bucket;
    entry.source_hash = source;
    entry.parameters = outcome.best;
    entry.time_ms = outcome.best_ms;
    entry.default_ms = outcome.default_ms;
    entry.origin = origin;
    entry.date = utc_now();
    entry.shape = subject.timing_shape();
    records.entries.push_back(entry);
  }
  for (const auto& result : outcome.results) {
    if (result.status == CandidateStatus::BuildFailed || result.status == CandidateStatus::LaunchFailed ||
        result.status == CandidateStatus::WrongResult) {
      if (result.message.rfind("failed before", 0) == 0) continue;
      records.failures.push_back({key.op, key.dtype, source, result.config.to_string(), result.message.substr(0, 300)});
    }
  }
  return records;
}

}  // namespace

// Never destroyed: it holds OpenCL queues, which must not be released after the driver has unloaded.
TuningService& TuningService::instance() {
  static TuningService* service = new TuningService;
  return *service;
}

TuningService::TuningService() {
  ContextRegistry::instance().add_pruner([this](const std::set<cl_context>& kept) { prune(kept); });
}

void TuningService::prune(const std::set<cl_context>& kept) {
  std::vector<cl::CommandQueue> dropped;  // released after the lock
  std::lock_guard<std::mutex> lock(mutex_);
  dropped = take_entries_not_kept(profiling_queues_, kept, [](const auto& key) { return key.first; });
}

std::size_t TuningService::profiling_queue_count() {
  std::lock_guard<std::mutex> lock(mutex_);
  return profiling_queues_.size();
}

cl::CommandQueue TuningService::profiling_queue(const QueueTarget& target) {
  ContextRegistry::instance().touch(target.context);  // before taking the lock: it may prune this service
  std::lock_guard<std::mutex> lock(mutex_);
  auto key = std::make_pair(target.context(), target.device());
  auto found = profiling_queues_.find(key);
  if (found != profiling_queues_.end()) return found->second;
  cl::CommandQueue queue(target.context, target.device, CL_QUEUE_PROFILING_ENABLE);
  profiling_queues_.emplace(key, queue);
  return queue;
}

void TuningService::set_override(const DeviceInfo& device, const std::string& op, const std::string& dtype,
                                 const Config& config) {
  std::lock_guard<std::mutex> lock(mutex_);
  overrides_[OverrideKey{device.fingerprint(), op, dtype}] = config;
  invalidate_dispatch_memos();
}

void TuningService::clear() {
  std::lock_guard<std::mutex> lock(mutex_);
  overrides_.clear();
  choices_.clear();
  invalidate_dispatch_memos();
}

std::set<std::string> TuningService::known_failures(const QueueTarget& target, const TuningRecords& records,
                                                    const TuningSubject& subject, const std::string& source) {
  const TuningKey key = subject.key();
  std::set<std::string> failed = recorded_failures(records, key, source);
  std::lock_guard<std::mutex> lock(mutex_);
  const std::string prefix = failure_key(target, key, source, "");
  for (auto it = failed_in_process_.lower_bound(prefix); it != failed_in_process_.end() && it->rfind(prefix, 0) == 0;
       ++it)
    failed.insert(it->substr(prefix.size()));
  return failed;
}

void TuningService::discard(const QueueTarget& target, TuningSubject& subject, const Config& failed,
                            const std::string& reason) {
  const TuningKey key = subject.key();
  const std::string source = kernel_source(subject.family()).hash;
  warn_once("tuning-failure:" + failure_key(target, key, source, failed.to_string()),
            "the configuration chosen for " + key.op + " " + key.dtype + " " + key.bucket + " (" + failed.to_string() +
                ") failed: " + reason + "; it is recorded as failing and the key is tuned again without it");
  TuningRecords records;
  records.failures.push_back({key.op, key.dtype, source, failed.to_string(), reason.substr(0, 300)});
  TuningDatabase(*target.info).merge(records);
  {
    std::lock_guard<std::mutex> lock(mutex_);
    failed_in_process_.insert(failure_key(target, key, source, failed.to_string()));
    choices_.erase(MemoryKey{target.info->fingerprint(), key.op, key.dtype, key.bucket});
  }
  invalidate_dispatch_memos();
}

tuning::Choice TuningService::choose(const QueueTarget& target, TuningSubject& subject) {
  const TuningKey key = subject.key();
  const std::string fingerprint = target.info->fingerprint();
  std::promise<tuning::Choice> promise;
  std::shared_future<tuning::Choice> future;
  bool resolver = false;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto overridden = overrides_.find(OverrideKey{fingerprint, key.op, key.dtype});
    if (overridden != overrides_.end()) return {overridden->second, tuning::Origin::Override, key.bucket};
    const MemoryKey memory_key{fingerprint, key.op, key.dtype, key.bucket};
    auto found = choices_.find(memory_key);
    if (found != choices_.end()) {
      future = found->second;
    } else {
      future = promise.get_future().share();
      choices_.emplace(memory_key, future);
      resolver = true;
    }
  }
  if (!resolver) return future.get();
  tuning::Choice choice;
  try {
    choice = resolve(target, subject);
  } catch (const std::exception& error) {
    warn_once("tuning:" + key.op + ":" + key.dtype + ":" + key.bucket,
              std::string("tuning ") + key.op + " failed (" + error.what() + "); using defaults");
    choice = {subject.default_config(*target.info), tuning::Origin::Default, key.bucket};
  }
  promise.set_value(choice);
  return choice;
}

tuning::Choice TuningService::resolve(const QueueTarget& target, TuningSubject& subject) {
  const TuningKey key = subject.key();
  const DeviceInfo& device = *target.info;
  const std::string source = kernel_source(subject.family()).hash;
  const SearchSpace space = subject.search_space(device);
  const Config default_config = subject.default_config(device);

  TuningDatabase database(device);
  const TuningRecords records = database.load();
  const std::set<std::string> failures = known_failures(target, records, subject, source);
  for (const auto& entry : records.entries) {
    if (entry.op != key.op || entry.dtype != key.dtype || entry.bucket != key.bucket) continue;
    if (entry.source_hash != source) {
      log_verbose("tuning database: " + key.op + " " + key.bucket + " was tuned for an edited kernel; ignored");
      continue;
    }
    if (failures.count(entry.parameters.to_string()) != 0) {
      log_verbose("tuning database: " + key.op + " " + key.bucket +
                  " holds a configuration known to fail; tuning again");
      continue;
    }
    std::string why = space.validate(entry.parameters, device);
    if (!why.empty()) {
      const std::string file = database.path() ? database.path()->string() : std::string();
      warn_once("tuning-entry:" + file + ":" + key.op + ":" + key.dtype + ":" + key.bucket,
                "tuning database entry for " + key.op + " " + key.dtype + " " + key.bucket + " in " + file +
                    " is not usable (" + why + "); " +
                    (tuning::mode() == tuning::Mode::Off ? "using defaults" : "tuning again"));
      continue;
    }
    counters().tuning_db_hits++;
    return {entry.parameters, tuning::Origin::Database, key.bucket};
  }

  const tuning::Mode mode = tuning::mode();
  if (mode == tuning::Mode::Off) return {default_config, tuning::Origin::Default, key.bucket};

  std::vector<Config> candidates;
  if (mode == tuning::Mode::Full) {
    candidates = space.enumerate(device);
    std::mt19937_64 random(1);
    std::shuffle(candidates.begin(), candidates.end(), random);
    candidates.erase(std::remove(candidates.begin(), candidates.end(), default_config), candidates.end());
    candidates.insert(candidates.begin(), default_config);
  } else {
    candidates = first_use_candidates(target, subject, space, default_config);
  }

  TunerOptions options;
  options.budget_ms = first_use_budget_ms(subject);
  options.known_failures = failures;
  cl::CommandQueue queue = profiling_queue(target);
  EventTimer event_timer;
  Timer& timer = test_timer_ != nullptr ? *test_timer_ : event_timer;
  TuningOutcome outcome = run_tuner(subject, queue, candidates, default_config, options, timer);
  log_verbose("first-use tuning of " + key.op + " " + key.dtype + " " + key.bucket + ": " +
              std::to_string(outcome.results.size()) + " candidates in " + std::to_string(outcome.elapsed_seconds) +
              " s" + (outcome.found ? ", best " + outcome.best.to_string() : ", none verified"));
  database.merge(records_of(outcome, subject, source, "first-use"));
  if (!outcome.found) {
    warn_once("tuning:" + key.op + ":" + key.dtype + ":" + key.bucket,
              "no configuration of " + key.op + " verified on this device; using defaults");
    return {default_config, tuning::Origin::Default, key.bucket};
  }
  return {outcome.best, tuning::Origin::FirstUse, key.bucket};
}

std::vector<Config> TuningService::first_use_candidates(const QueueTarget& target, TuningSubject& subject,
                                                        const SearchSpace& space, const Config& default_config) {
  // The subject's own list when it has one (the default first); else only what costs no compile: launch
  // parameters of the default program, and configs whose programs this process has built already.
  std::vector<Config> candidates{default_config};
  for (const Config& config : subject.first_use_candidates(*target.info))
    if (config != default_config && space.validate(config, *target.info).empty()) candidates.push_back(config);
  if (candidates.size() > 1) return candidates;
  for (const Config& config : space.enumerate(*target.info)) {
    if (config == default_config) continue;
    if (space.same_program(config, default_config) ||
        ProgramCache::instance().contains(target.context, target.device, subject.family(),
                                          subject.build_options(config)))
      candidates.push_back(config);
  }
  return candidates;
}

TuningOutcome TuningService::tune(const QueueTarget& target, TuningSubject& subject, const FullTuneOptions& options) {
  const TuningKey key = subject.key();
  const DeviceInfo& device = *target.info;
  const std::string source = kernel_source(subject.family()).hash;
  const SearchSpace space = subject.search_space(device);
  const Config default_config = subject.default_config(device);

  std::vector<Config> candidates = space.enumerate(device);
  candidates.erase(std::remove(candidates.begin(), candidates.end(), default_config), candidates.end());
  if (options.strategy == SearchStrategy::Random) {
    std::mt19937_64 random(options.seed);
    std::shuffle(candidates.begin(), candidates.end(), random);
  }
  candidates.insert(candidates.begin(), default_config);

  // The database's current choice for the key (if still valid) competes right after the default, so a search
  // that misses it (a random order, a short budget) never replaces it with something slower.
  TuningDatabase database(device);
  const TuningRecords records = database.load();
  for (const auto& entry : records.entries) {
    if (entry.op != key.op || entry.dtype != key.dtype || entry.bucket != key.bucket || entry.source_hash != source ||
        entry.parameters == default_config || !space.validate(entry.parameters, device).empty())
      continue;
    candidates.erase(std::remove(candidates.begin(), candidates.end(), entry.parameters), candidates.end());
    candidates.insert(candidates.begin() + 1, entry.parameters);
  }
  if (options.max_candidates > 0 && candidates.size() > options.max_candidates)
    candidates.resize(options.max_candidates);

  TunerOptions tuner_options;
  tuner_options.budget_ms = options.budget_ms;
  tuner_options.seed = options.seed;
  tuner_options.known_failures = known_failures(target, records, subject, source);
  tuner_options.progress = options.progress;
  cl::CommandQueue queue = profiling_queue(target);
  EventTimer event_timer;
  Timer& timer = test_timer_ != nullptr ? *test_timer_ : event_timer;
  TuningOutcome outcome = run_tuner(subject, queue, candidates, default_config, tuner_options, timer);
  database.merge(records_of(outcome, subject, source, "tune"));
  if (outcome.found) {
    std::promise<tuning::Choice> promise;
    promise.set_value({outcome.best, tuning::Origin::Tune, key.bucket});
    std::lock_guard<std::mutex> lock(mutex_);
    choices_[MemoryKey{device.fingerprint(), key.op, key.dtype, key.bucket}] = promise.get_future().share();
    invalidate_dispatch_memos();
  }
  return outcome;
}

}  // namespace detail

// --- Public tuning API ---------------------------------------------------------------------------

tuning::Mode tuning::mode() {
  auto text = detail::env_value("TILECL_TUNE");
  if (!text || *text == "first-use") return Mode::FirstUse;
  if (*text == "off" || *text == "0") return Mode::Off;
  if (*text == "full") return Mode::Full;
  detail::warn_once("TILECL_TUNE", "TILECL_TUNE='" + *text + "' is not off, first-use or full; using first-use");
  return Mode::FirstUse;
}

const char* tuning::origin_name(Origin origin) {
  switch (origin) {
    case Origin::Override:
      return "override";
    case Origin::Database:
      return "database";
    case Origin::FirstUse:
      return "first-use";
    case Origin::Tune:
      return "tune";
    case Origin::Default:
      return "default";
  }
  return "?";
}

tuning::Choice tuning::parameters_for(const cl::CommandQueue& queue, const std::string& op, const std::string& dtype,
                                      const std::string& shape) {
  const auto& entry = detail::find_tunable_op(op);
  auto subject = entry.make_subject(dtype, shape);
  auto target = detail::queue_target(op, queue);
  return detail::TuningService::instance().choose(target, *subject);
}

void tuning::override_parameters(const cl::Device& device, const std::string& op, const std::string& dtype,
                                 const Parameters& parameters) {
  const auto& entry = detail::find_tunable_op(op);
  auto subject = entry.make_subject(dtype, entry.description.default_shapes.front());
  const DeviceInfo& info = device_info(device);
  std::string why = subject->search_space(info).validate(parameters, info);
  if (!why.empty())
    throw Error(op, "parameters", CL_INVALID_VALUE, "cannot override with '" + parameters.to_string() + "': " + why);
  detail::TuningService::instance().set_override(info, op, dtype, parameters);
}

void tuning::clear() { detail::TuningService::instance().clear(); }

std::vector<tuning::OpDescription> tuning::tunable_ops() {
  std::vector<OpDescription> descriptions;
  for (const auto& op : detail::tunable_op_registry()) descriptions.push_back(op.description);
  return descriptions;
}

}  // namespace tilecl
