// The generic tuner: tries configurations of a subject, verifies each before it may win, times the
// survivors and keeps the fastest. A candidate that fails to build, launch or verify is recorded and the
// search goes on.
#pragma once

#include <CL/opencl.hpp>
#include <cstdint>
#include <functional>
#include <set>
#include <string>
#include <vector>

#include "tuning/tuning_subject.hpp"

namespace tilecl::detail {

// Measures one configuration, in milliseconds; throws (tilecl::Error, cl::Error) when it cannot run.
class Timer {
 public:
  virtual ~Timer() = default;
  virtual double time_ms(TuningSubject& subject, cl::CommandQueue& queue, const Config& config) = 0;
};

// OpenCL profiling events (the queue must have CL_QUEUE_PROFILING_ENABLE): one warm-up run (which also
// builds the program), then the median of up to `repeats` runs, fewer when runs are slow.
class EventTimer : public Timer {
 public:
  explicit EventTimer(int repeats = 5, double slow_run_ms = 50.0) : repeats_(repeats), slow_run_ms_(slow_run_ms) {}
  double time_ms(TuningSubject& subject, cl::CommandQueue& queue, const Config& config) override;

 private:
  int repeats_;
  double slow_run_ms_;
};

enum class CandidateStatus { Best, Measured, BuildFailed, LaunchFailed, WrongResult, NotTried };
const char* candidate_status_name(CandidateStatus status);

struct CandidateResult {
  Config config;
  CandidateStatus status = CandidateStatus::NotTried;
  double time_ms = 0;
  std::string message;
};

struct TuningOutcome {
  bool found = false;  // at least one candidate verified and was timed
  Config best;
  double best_ms = 0;
  double default_ms = 0;  // 0 when the default was not measured
  double elapsed_seconds = 0;
  std::vector<CandidateResult> results;
};

struct TunerOptions {
  double budget_ms = 250;  // no new candidate starts after this, counted from the end of prepare; the first always runs
  std::uint64_t seed = 1;  // scratch data
  // Configs known to fail (their to_string()); skipped, not retried.
  std::set<std::string> known_failures;
  // Called after each candidate with (done, total).
  std::function<void(std::size_t, std::size_t)> progress;
};

// Tries `candidates` in order (put the default first). The subject is prepared once.
TuningOutcome run_tuner(TuningSubject& subject, cl::CommandQueue& queue, const std::vector<Config>& candidates,
                        const Config& default_config, const TunerOptions& options, Timer& timer);

}  // namespace tilecl::detail
