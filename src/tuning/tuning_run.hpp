// How the resolver and `tilecl tune` run the tuner for a key: on a profiling queue of the caller's context and
// device (one per pair, kept in a ContextCache until the context is forgotten, src/context_registry.hpp), timed
// by OpenCL profiling events (or the test clock), and with the outcome written to the tuning database.
#pragma once

#include <CL/opencl.hpp>
#include <cstddef>
#include <string>
#include <vector>

#include "checks.hpp"
#include "tuning/tuner.hpp"
#include "tuning/tuning_db.hpp"
#include "tuning/tuning_subject.hpp"

namespace tilecl::detail {

// The queue tuning runs on: same context and device as the caller's, with profiling enabled.
cl::CommandQueue profiling_queue(const QueueTarget& target);
std::size_t profiling_queue_count();

// For tests: the clock the tuning runs use (nullptr restores OpenCL profiling events).
void set_tuning_timer_for_testing(Timer* timer);

// Runs the tuner over `candidates` (the default first) and merges the winner (as an entry of `origin`: "first-use",
// "tune") and the failures into `database`.
TuningOutcome tune_and_record(const QueueTarget& target, TuningSubject& subject, const std::vector<Config>& candidates,
                              const Config& default_config, const TunerOptions& options, const TuningDatabase& database,
                              const std::string& source, const char* origin);

}  // namespace tilecl::detail
