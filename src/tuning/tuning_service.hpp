// Where an op's parameters come from, in order: an override, the choice already made in this process,
// the tuning database, first-use tuning (TILECL_TUNE), the device-derived default. Threads that miss the
// same key wait for one resolution, so a key is tuned once per process; the database makes it once per
// device.
#pragma once

#include <CL/opencl.hpp>
#include <future>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <tuple>

#include "checks.hpp"
#include "tilecl/tuning.hpp"
#include "tuning/tuner.hpp"
#include "tuning/tuning_db.hpp"
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

class TuningService {
 public:
  static TuningService& instance();

  // The parameters for a call; never throws for tuning failures (falls back to the default).
  tuning::Choice choose(const QueueTarget& target, TuningSubject& subject);

  // `tilecl tune`: searches the space (not only launch parameters), persists the winner with origin "tune"
  // and makes it the choice of this process. The outcome lists every candidate.
  TuningOutcome tune(const QueueTarget& target, TuningSubject& subject, const FullTuneOptions& options);

  // A chosen configuration failed to build or launch: reported once, recorded as a failure (in the database and in
  // this process), the key's choice forgotten so that the next resolution tunes without it.
  void discard(const QueueTarget& target, TuningSubject& subject, const Config& failed, const std::string& reason);

  void set_override(const DeviceInfo& device, const std::string& op, const std::string& dtype, const Config& config);
  void clear();

  // The queue tuning runs on: same context and device as the caller's, with profiling enabled. Kept per
  // context until the context is forgotten (src/context_registry.hpp).
  cl::CommandQueue profiling_queue(const QueueTarget& target);
  std::size_t profiling_queue_count();

  // For tests: the clock the first-use tuner uses (nullptr restores OpenCL profiling events).
  void set_timer_for_testing(Timer* timer) { test_timer_ = timer; }

 private:
  TuningService();
  void prune(const std::set<cl_context>& kept);

  using MemoryKey = std::tuple<std::string, std::string, std::string, std::string>;  // fingerprint, op, dtype, bucket
  using OverrideKey = std::tuple<std::string, std::string, std::string>;             // fingerprint, op, dtype

  tuning::Choice resolve(const QueueTarget& target, TuningSubject& subject);
  // The configurations known to fail for the subject's op and kernel source: the database's and this process's.
  std::set<std::string> known_failures(const QueueTarget& target, const TuningRecords& records,
                                       const TuningSubject& subject, const std::string& source);
  static std::vector<Config> first_use_candidates(const QueueTarget& target, TuningSubject& subject,
                                                  const SearchSpace& space, const Config& default_config);

  std::mutex mutex_;
  std::map<OverrideKey, Config> overrides_;
  std::map<MemoryKey, std::shared_future<tuning::Choice>> choices_;
  std::map<std::pair<cl_context, cl_device_id>, cl::CommandQueue> profiling_queues_;
  std::set<std::string> failed_in_process_;  // fingerprint + op + dtype + source + config of discarded choices
  Timer* test_timer_ = nullptr;
};

}  // namespace tilecl::detail
