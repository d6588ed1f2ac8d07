#include "cases/bracket.hpp"

#include <algorithm>
#include <stdexcept>

namespace tilecl::bench {
namespace {

const char* kBracketSource = R"CLC(
__kernel void bench_bracket(__global int* counter) {
  if (get_global_id(0) == 0) counter[0] += 1;
}
)CLC";

}  // namespace

Timing time_bracketed(BenchContext& context, const std::function<void(int)>& run) {
  cl::Program program(context.context, kBracketSource);
  try {
    program.build({context.device});
  } catch (const cl::Error&) {
    throw std::runtime_error("the bracket kernel does not build: " +
                             program.getBuildInfo<CL_PROGRAM_BUILD_LOG>(context.device));
  }
  cl::Kernel kernel(program, "bench_bracket");
  cl::Buffer counter(context.context, CL_MEM_READ_WRITE, sizeof(cl_int));
  kernel.setArg(0, counter);
  auto bracket = [&](const std::function<void()>& inside) {
    cl::Event before, after;
    context.queue.enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(1), cl::NullRange, nullptr, &before);
    inside();
    context.queue.enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(1), cl::NullRange, nullptr, &after);
    return std::vector<cl::Event>{before, after};
  };
  MeasureOptions empty_options = context.measure;
  empty_options.max_runs = 9;
  empty_options.min_runs = 9;
  const Timing empty = time_with_events([&](int) { return bracket([] {}); }, empty_options);
  Timing timing = time_with_events([&](int i) { return bracket([&] { run(i); }); }, context.measure);
  auto less_empty = [&](double ms) { return std::max(ms - empty.median_ms, 1e-6); };
  timing.median_ms = less_empty(timing.median_ms);
  timing.min_ms = less_empty(timing.min_ms);
  timing.max_ms = less_empty(timing.max_ms);
  return timing;
}

}  // namespace tilecl::bench
