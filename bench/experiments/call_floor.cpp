// Experiment (not part of the build): what one small call costs on a device, split into the host's part and the
// device's. For a bare kernel (an empty one, enqueued straight through OpenCL) and for tilecl calls on tiny
// problems, the median of 201 warm calls (each followed by clFinish) of:
//   call     the host time of the enqueueing call itself (and its tenth percentile, call_p10);
//   kernel   the device time of the call's last command (OpenCL profiling: END - START);
//   queued   from the command's QUEUED to its START (the runtime's scheduling);
//   total    enqueue + finish, what the bench's sweep times.
// tilecl's part is its call minus the bare kernel's call; the rest is the OpenCL runtime's.
// Build against a Release build of tilecl:
//   g++ -O2 -std=c++17 -Iinclude -Ibuild/include bench/experiments/call_floor.cpp build/libtilecl.a -lOpenCL \
//       -lpthread -o /tmp/call_floor
// Run: /tmp/call_floor (the default device; TILECL_PLATFORM / TILECL_DEVICE are not read here)
#define CL_HPP_TARGET_OPENCL_VERSION 120
#define CL_HPP_MINIMUM_OPENCL_VERSION 120
#define CL_HPP_ENABLE_EXCEPTIONS
#include <CL/opencl.hpp>
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <functional>
#include <iostream>
#include <vector>

#include "tilecl/color.hpp"
#include "tilecl/convolve.hpp"
#include "tilecl/elementwise.hpp"
#include "tilecl/gemm_batched.hpp"
#include "tilecl/gemv.hpp"
#include "tilecl/reduce.hpp"

namespace {

using Clock = std::chrono::steady_clock;

double median(std::vector<double> values) {
  if (values.empty()) return 0.0;
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

// The tenth percentile: a shared VM's interruptions inflate the median of some runs (session 22: gemm_strided_batched's
// call 13-27 us in one run, 13.3-13.7 in the next); the fastest tenth is what the code costs.
double tenth(std::vector<double> values) {
  if (values.empty()) return 0.0;
  std::sort(values.begin(), values.end());
  return values[values.size() / 10];
}

double us_between(Clock::time_point start, Clock::time_point end) {
  return std::chrono::duration<double, std::micro>(end - start).count();
}

void report(cl::CommandQueue& queue, const char* name, const std::function<cl::Event()>& call) {
  call();
  call();
  queue.finish();
  std::vector<double> host, total, kernel, queued;
  for (int i = 0; i < 201; ++i) {
    const auto start = Clock::now();
    cl::Event event = call();
    host.push_back(us_between(start, Clock::now()));
    queue.finish();
    total.push_back(us_between(start, Clock::now()));
    if (event() == nullptr) continue;
    const auto queued_at = static_cast<double>(event.getProfilingInfo<CL_PROFILING_COMMAND_QUEUED>());
    const auto start_at = static_cast<double>(event.getProfilingInfo<CL_PROFILING_COMMAND_START>());
    const auto end_at = static_cast<double>(event.getProfilingInfo<CL_PROFILING_COMMAND_END>());
    kernel.push_back((end_at - start_at) / 1000.0);
    queued.push_back((start_at - queued_at) / 1000.0);
  }
  std::cout << "{\"call\": \"" << name << "\", \"call_us\": " << median(host) << ", \"call_p10_us\": " << tenth(host)
            << ", \"kernel_us\": " << median(kernel) << ", \"queued_us\": " << median(queued)
            << ", \"total_us\": " << median(total) << "}" << std::endl;
}

}  // namespace

int main() {
  cl::Context context(CL_DEVICE_TYPE_DEFAULT);
  const cl::Device device = context.getInfo<CL_CONTEXT_DEVICES>().front();
  cl::CommandQueue queue(context, device, CL_QUEUE_PROFILING_ENABLE);
  cl::Program program(context, "kernel void empty(global float* x) { if (get_global_id(0) == 1u << 30) x[0] = 1; }");
  program.build();
  cl::Kernel empty(program, "empty");
  const std::size_t bytes = std::size_t{1} << 22;
  const std::vector<float> values(bytes / sizeof(float), 0.5f);
  cl::Buffer a(context, CL_MEM_READ_WRITE, bytes), b(context, CL_MEM_READ_WRITE, bytes);
  queue.enqueueWriteBuffer(a, CL_TRUE, 0, bytes, values.data());
  queue.enqueueWriteBuffer(b, CL_TRUE, 0, bytes, values.data());
  empty.setArg(0, a);
  auto bare = [&](std::size_t global, std::size_t local) {
    return [&, global, local] {
      cl::Event event;
      queue.enqueueNDRangeKernel(empty, cl::NullRange, cl::NDRange(global),
                                 local == 0 ? cl::NullRange : cl::NDRange(local), nullptr, &event);
      return event;
    };
  };
  report(queue, "empty kernel, 1 work-item", bare(1, 0));
  report(queue, "empty kernel, 64 work-items in one group", bare(64, 64));
  report(queue, "empty kernel, 4096 work-items", bare(4096, 0));
  report(queue, "axpy n=16", [&] { return cl::Event(tilecl::axpy<float>(queue, 16, 0.5f, a, 0, b, 0)); });
  report(queue, "sum float n=1000",
         [&] { return cl::Event(tilecl::reduce<float>(queue, tilecl::ReduceOp::Sum, 1000, a, 0, b, 0)); });
  report(queue, "gemv float 200x15", [&] {
    return cl::Event(tilecl::gemv<float>(queue, tilecl::Layout::RowMajor, tilecl::Transpose::No, 200, 15, 1.0f, a, 0,
                                         16, a, 0, 1, 0.0f, b, 0, 1));
  });
  report(queue, "gemm_strided_batched float 8 x 4x5x6", [&] {
    return cl::Event(tilecl::gemm_strided_batched<float>(queue, tilecl::Layout::RowMajor, tilecl::Transpose::No,
                                                         tilecl::Transpose::No, 4, 5, 6, 1.0f, a, 0, 6, 24, a, 0, 5, 30,
                                                         0.0f, b, 0, 5, 20, 8));
  });
  report(queue, "rgb_to_gray float 27x39 RGBA", [&] {
    return cl::Event(tilecl::rgb_to_gray<float>(
        queue, 27, 39, a, 0, 27 * 4, b, 0, 27, tilecl::GrayOptions(tilecl::GrayWeights(), tilecl::ChannelOrder::RGBA)));
  });
  report(queue, "gaussian_blur float 31x82 3x3 reflect", [&] {
    return cl::Event(tilecl::gaussian_blur<float>(queue, 31, 82, 1, a, 0, 31, b, 0, 31,
                                                  tilecl::GaussianKernel{3, 3, 0.0, 0.0},
                                                  tilecl::FilterOptions(tilecl::Border::Reflect)));
  });
  report(queue, "box_blur float 18x96 7x7 clamp", [&] {
    return cl::Event(tilecl::box_blur<float>(queue, 18, 96, 1, a, 0, 18, b, 0, 18, 3, 3,
                                             tilecl::FilterOptions(tilecl::Border::Clamp)));
  });
  return 0;
}
