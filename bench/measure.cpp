#include "measure.hpp"

#include <algorithm>
#include <chrono>

namespace tilecl::bench {
namespace {

Timing summarize(std::vector<double> times, bool host_timed) {
  Timing timing;
  std::sort(times.begin(), times.end());
  timing.runs = static_cast<int>(times.size());
  timing.median_ms = times[times.size() / 2];
  timing.min_ms = times.front();
  timing.max_ms = times.back();
  timing.host_timed = host_timed;
  return timing;
}

double span_ms(const std::vector<cl::Event>& events) {
  cl::Event::waitForEvents(events);
  const auto start = events.front().getProfilingInfo<CL_PROFILING_COMMAND_START>();
  const auto end = events.back().getProfilingInfo<CL_PROFILING_COMMAND_END>();
  return static_cast<double>(end - start) * 1e-6;
}

template <typename Once>
Timing repeat(const Once& once, const MeasureOptions& options, bool host_timed) {
  int repetition = 0;
  for (int i = 0; i < options.warmups; ++i) once(repetition++);
  std::vector<double> times;
  double total = 0;
  while (static_cast<int>(times.size()) < options.max_runs &&
         (static_cast<int>(times.size()) < options.min_runs || total < options.time_budget_ms)) {
    const double ms = once(repetition++);
    times.push_back(ms);
    total += ms;
  }
  return summarize(times, host_timed);
}

}  // namespace

Timing time_with_events(const std::function<std::vector<cl::Event>(int)>& run, const MeasureOptions& options) {
  return repeat([&](int i) { return span_ms(run(i)); }, options, false);
}

Timing time_with_host_clock(cl::CommandQueue* queue, const std::function<void(int)>& run,
                            const MeasureOptions& options) {
  if (queue != nullptr) queue->finish();
  return repeat(
      [&](int i) {
        const auto start = std::chrono::steady_clock::now();
        run(i);
        if (queue != nullptr) queue->finish();
        return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
      },
      options, true);
}

}  // namespace tilecl::bench
