// Shared by the experiments: host time of back-to-back calls ended by one finish, per call, best of several batches.
// The experiments include it by its relative path and are built one file at a time (see each file's header).
#pragma once

#include <sys/resource.h>

#include <CL/opencl.hpp>
#include <algorithm>
#include <chrono>
#include <functional>
#include <vector>

namespace tilecl::experiments {

// One call and a finish first, then `runs` single calls each ended by a finish (as the bench's sweeps time them):
// their host times in milliseconds, fastest first.
inline std::vector<double> single_call_ms(cl::CommandQueue& queue, const std::function<void()>& call, int runs) {
  call();
  queue.finish();
  std::vector<double> times;
  for (int run = 0; run < runs; ++run) {
    const auto start = std::chrono::steady_clock::now();
    call();
    queue.finish();
    times.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
  }
  std::sort(times.begin(), times.end());
  return times;
}

// The process's CPU time (user and system, every thread: PoCL's workers included) so far, in milliseconds. On a
// shared machine it moves much less than wall time with the neighbours' load.
inline double process_cpu_ms() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1e3 +
         static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e3;
}

// CPU time per call (process_cpu_ms) over `calls` calls, each ended by a finish.
inline double cpu_ms_per_call(cl::CommandQueue& queue, const std::function<void()>& call, int calls) {
  const double start = process_cpu_ms();
  for (int k = 0; k < calls; ++k) {
    call();
    queue.finish();
  }
  return (process_cpu_ms() - start) / calls;
}

// One call and a finish first (compiles, first-use tuning and caches out of the way), then `batches` batches of
// `repeats` calls each ended by one finish: the best batch's time per call, in milliseconds.
inline double best_batch_ms(cl::CommandQueue& queue, const std::function<void()>& call, int batches, int repeats) {
  call();
  queue.finish();
  double best = 1e30;
  for (int batch = 0; batch < batches; ++batch) {
    const auto start = std::chrono::steady_clock::now();
    for (int r = 0; r < repeats; ++r) call();
    queue.finish();
    best = std::min(
        best, std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count() / repeats);
  }
  return best;
}

}  // namespace tilecl::experiments
