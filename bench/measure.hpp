// Timing for benchmarks: warm-up, then the median and spread of several runs, with OpenCL profiling events
// where the implementation gives us its events, else the host clock after finish().
#pragma once

#include <CL/opencl.hpp>
#include <functional>
#include <vector>

namespace tilecl::bench {

struct Timing {
  double median_ms = 0;
  double min_ms = 0;
  double max_ms = 0;
  int runs = 0;
  bool host_timed = false;

  // (max - min) / median: how far the runs spread around the median (0 with one run).
  double spread() const { return median_ms > 0 ? (max_ms - min_ms) / median_ms : 0; }
  // Runs this spread make the median uncertain; the report flags the row (kLargeSpread).
  bool spread_is_large() const { return spread() > kLargeSpread; }
  static constexpr double kLargeSpread = 0.5;
};

struct MeasureOptions {
  int warmups = 2;
  int max_runs = 15;
  int min_runs = 3;
  double time_budget_ms = 1000;  // stop adding runs past this (at least min_runs)
};

// run(i) enqueues repetition i and returns its events, first to last; the time of a repetition is the end of
// its last event minus the start of its first. The queue must have profiling enabled.
Timing time_with_events(const std::function<std::vector<cl::Event>(int)>& run, const MeasureOptions& options);

// run(i) does repetition i; the clock stops after queue.finish() (or at return when queue is null).
Timing time_with_host_clock(cl::CommandQueue* queue, const std::function<void(int)>& run,
                            const MeasureOptions& options);

}  // namespace tilecl::bench
