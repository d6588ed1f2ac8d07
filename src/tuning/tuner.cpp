#include "tuning/tuner.hpp"

#include <algorithm>
#include <chrono>

#include "statistics.hpp"
#include "tilecl/error.hpp"

namespace tilecl::detail {
namespace {

double event_span_ms(const std::vector<cl::Event>& events) {
  if (events.empty()) return 0;
  cl::Event::waitForEvents(events);
  const auto start = events.front().getProfilingInfo<CL_PROFILING_COMMAND_START>();
  const auto end = events.back().getProfilingInfo<CL_PROFILING_COMMAND_END>();
  return end > start ? static_cast<double>(end - start) * 1e-6 : 0.0;
}

}  // namespace

const char* candidate_status_name(CandidateStatus status) {
  switch (status) {
    case CandidateStatus::Best:
      return "best";
    case CandidateStatus::Measured:
      return "measured";
    case CandidateStatus::BuildFailed:
      return "build failed";
    case CandidateStatus::LaunchFailed:
      return "launch failed";
    case CandidateStatus::WrongResult:
      return "wrong result";
    case CandidateStatus::NotTried:
      return "not tried";
  }
  return "?";
}

double EventTimer::time_ms(TuningSubject& subject, cl::CommandQueue& queue, const Config& config) {
  // The warm-up run also builds the program; a slow run means fewer repeats, to keep within the budget.
  const double first = event_span_ms(subject.run(queue, config));
  const int repeats = first > slow_run_ms_ ? 1 : repeats_;
  std::vector<double> times;
  times.reserve(static_cast<std::size_t>(repeats));
  for (int i = 0; i < repeats; ++i) times.push_back(event_span_ms(subject.run(queue, config)));
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

namespace {

// Verifies the candidate, then times it; a failure to build, launch or verify is the result's status.
void try_candidate(TuningSubject& subject, cl::CommandQueue& queue, Timer& timer, CandidateResult& result) {
  try {
    std::string difference = subject.verify(queue, result.config);
    if (!difference.empty()) {
      result.status = CandidateStatus::WrongResult;
      result.message = difference;
    } else {
      result.time_ms = timer.time_ms(subject, queue, result.config);
      result.status = CandidateStatus::Measured;
    }
  } catch (const BuildError& error) {
    result.status = CandidateStatus::BuildFailed;
    result.message = error.what();
  } catch (const Error& error) {
    result.status = CandidateStatus::LaunchFailed;
    result.message = error.what();
  } catch (const cl::Error& error) {
    result.status = CandidateStatus::LaunchFailed;
    result.message = std::string(error.what()) + " " + cl_error_name(error.err());
  }
}

// A measured candidate: the default's time, and the best so far.
void record_measured(const CandidateResult& result, const Config& default_config, TuningOutcome& outcome) {
  if (result.status != CandidateStatus::Measured) return;
  if (result.config == default_config) outcome.default_ms = result.time_ms;
  if (!outcome.found || result.time_ms < outcome.best_ms) {
    outcome.found = true;
    outcome.best = result.config;
    outcome.best_ms = result.time_ms;
  }
}

// When a candidate beat the default, both are timed once more, one after the other, and each keeps its faster
// time: a burst of load while the default was timed (another process on a shared CPU) let a kernel 4x slower win
// first use (PoCL, gemm 514x192x8: bench/results/pocl-cpu/session19). A candidate that fails now keeps its time.
void confirm_best(TuningSubject& subject, cl::CommandQueue& queue, Timer& timer, const Config& default_config,
                  TuningOutcome& outcome) {
  if (!outcome.found || outcome.default_ms <= 0 || outcome.best == default_config) return;
  const auto again = [&](const Config& config, double& time) {
    try {
      time = std::min(time, timer.time_ms(subject, queue, config));
    } catch (const Error&) {
    } catch (const cl::Error&) {
    }
  };
  again(default_config, outcome.default_ms);
  again(outcome.best, outcome.best_ms);
  for (auto& result : outcome.results) {
    if (result.status != CandidateStatus::Measured) continue;
    if (result.config == default_config) result.time_ms = outcome.default_ms;
    if (result.config == outcome.best) result.time_ms = outcome.best_ms;
  }
  if (outcome.default_ms <= outcome.best_ms) {
    outcome.best = default_config;
    outcome.best_ms = outcome.default_ms;
  }
}

}  // namespace

TuningOutcome run_tuner(TuningSubject& subject, cl::CommandQueue& queue, const std::vector<Config>& candidates,
                        const Config& default_config, const TunerOptions& options, Timer& timer) {
  const auto prepared = std::chrono::steady_clock::now();
  TuningOutcome outcome;
  subject.prepare(queue, options.seed);
  // The budget is the candidates': preparing the timing data is not counted against it (a large first-use shape
  // took most of a 250 ms budget on the H200 before any candidate after the default ran).
  const auto start = std::chrono::steady_clock::now();

  std::size_t done = 0;
  for (const Config& config : candidates) {
    CandidateResult result;
    result.config = config;
    bool tried = false;
    const double elapsed_ms = static_cast<double>(nanoseconds_since(start)) * 1e-6;
    if (done > 0 && elapsed_ms > options.budget_ms) {
      result.message = "budget spent";
    } else if (options.known_failures.count(config.to_string()) != 0) {
      result.status = CandidateStatus::BuildFailed;
      result.message = "failed before (recorded in the tuning database)";
    } else {
      ++done;
      tried = true;
      try_candidate(subject, queue, timer, result);
      record_measured(result, default_config, outcome);
    }
    outcome.results.push_back(std::move(result));
    if (tried && options.progress) options.progress(done, candidates.size());
  }
  confirm_best(subject, queue, timer, default_config, outcome);
  for (auto& result : outcome.results) {
    if (outcome.found && result.status == CandidateStatus::Measured && result.config == outcome.best)
      result.status = CandidateStatus::Best;
  }
  outcome.elapsed_seconds = static_cast<double>(nanoseconds_since(prepared)) * 1e-9;
  counters().tunings++;
  counters().tuning_nanoseconds += nanoseconds_since(prepared);
  return outcome;
}

}  // namespace tilecl::detail
