#include "tuning/tuning_run.hpp"

#include <atomic>

#include "context_cache.hpp"
#include "tuning/tuning_db.hpp"

namespace tilecl::detail {
namespace {

// Never destroyed: it holds OpenCL queues (see src/context_cache.hpp).
ContextCache<cl_device_id, cl::CommandQueue>& profiling_queues() {
  static auto* queues = new ContextCache<cl_device_id, cl::CommandQueue>;
  return *queues;
}

std::atomic<Timer*> test_timer{nullptr};

bool is_failure(CandidateStatus status) {
  return status == CandidateStatus::BuildFailed || status == CandidateStatus::LaunchFailed ||
         status == CandidateStatus::WrongResult;
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
    if (!is_failure(result.status) || result.message.rfind("failed before", 0) == 0) continue;
    records.failures.push_back({key.op, key.dtype, source, result.config.to_string(), result.message.substr(0, 300)});
  }
  return records;
}

}  // namespace

cl::CommandQueue profiling_queue(const QueueTarget& target) {
  return profiling_queues().get(target.context, target.device(), [&target] {
    return cl::CommandQueue(target.context, target.device, CL_QUEUE_PROFILING_ENABLE);
  });
}

std::size_t profiling_queue_count() { return profiling_queues().size(); }

void set_tuning_timer_for_testing(Timer* timer) { test_timer.store(timer); }

TuningOutcome tune_and_record(const QueueTarget& target, TuningSubject& subject, const std::vector<Config>& candidates,
                              const Config& default_config, const TunerOptions& options, const TuningDatabase& database,
                              const std::string& source, const char* origin) {
  cl::CommandQueue queue = profiling_queue(target);
  EventTimer event_timer;
  Timer* timer = test_timer.load();
  TuningOutcome outcome =
      run_tuner(subject, queue, candidates, default_config, options, timer != nullptr ? *timer : event_timer);
  database.merge(records_of(outcome, subject, source, origin));
  return outcome;
}

}  // namespace tilecl::detail
