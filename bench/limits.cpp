// The device's limits, measured in the same run as the benchmarks they frame.
#include <algorithm>
#include <functional>
#include <iostream>

#include "cases/cases.hpp"

namespace tilecl::bench {
namespace {

// Eight independent FMA chains of VW-wide vectors per work-item: enough independent work to saturate the FMA
// units (VW = 4 on GPUs; on CPUs the SIMD width, since a loop inside the kernel keeps PoCL from vectorizing
// across work-items). And a copy kernel: on a CPU, clEnqueueCopyBuffer may be a single-threaded memcpy,
// below what the device's cores reach together.
const char* kLimitSource = R"CLC(
#define VTYPE TILECL_CAT(float, VW)
#define TILECL_CAT_IMPL(a, b) a##b
#define TILECL_CAT(a, b) TILECL_CAT_IMPL(a, b)
__kernel void bench_fma_peak(__global VTYPE* out, const float seed, const int iterations) {
  const VTYPE start = (VTYPE)((float)get_global_id(0) * 1e-7f + seed);
  VTYPE a0 = start, a1 = start + 0.1f, a2 = start + 0.2f, a3 = start + 0.3f;
  VTYPE a4 = start + 0.4f, a5 = start + 0.5f, a6 = start + 0.6f, a7 = start + 0.7f;
  const VTYPE m = (VTYPE)(0.99999f), c = (VTYPE)(1e-5f);
  for (int i = 0; i < iterations; ++i) {
    a0 = fma(a0, m, c); a1 = fma(a1, m, c); a2 = fma(a2, m, c); a3 = fma(a3, m, c);
    a4 = fma(a4, m, c); a5 = fma(a5, m, c); a6 = fma(a6, m, c); a7 = fma(a7, m, c);
  }
  const VTYPE sum = ((a0 + a1) + (a2 + a3)) + ((a4 + a5) + (a6 + a7));
  out[get_global_id(0)] = sum;  /* every lane is used, so no chain is dead code */
}
__kernel void bench_copy(__global const float4* in, __global float4* out) {
  out[get_global_id(0)] = in[get_global_id(0)];
}
)CLC";

cl::Program build_limit_program(BenchContext& context, const std::string& options) {
  cl::Program program(context.context, kLimitSource);
  try {
    program.build({context.device}, options.c_str());
  } catch (const cl::Error&) {
    throw std::runtime_error("the limit kernels do not build: " +
                             program.getBuildInfo<CL_PROGRAM_BUILD_LOG>(context.device));
  }
  return program;
}

// A limit row, timed by running `enqueue` (which returns its one event) repeatedly.
Row limit_row(BenchContext& context, const std::string& op, const std::string& shape, const std::string& dtype,
              const std::string& implementation, double work, Unit unit, const std::function<cl::Event()>& enqueue) {
  Row row;
  row.family = "limits";
  row.op = op;
  row.shape = shape;
  row.dtype = dtype;
  row.implementation = implementation;
  row.kind = Row::Kind::Limit;
  row.work = work;
  row.unit = unit;
  row.timing = time_with_events([&](int) { return std::vector<cl::Event>{enqueue()}; }, context.measure);
  return row;
}

std::size_t copy_bytes(const BenchContext& context) {
  return std::min<std::size_t>(context.info->is_gpu() ? (std::size_t{1} << 30) : (std::size_t{1} << 28),
                               context.info->max_allocation_bytes / 2);
}

Row copy_row(BenchContext& context, std::size_t bytes) {
  cl::Buffer source(context.context, CL_MEM_READ_WRITE, bytes), target(context.context, CL_MEM_READ_WRITE, bytes);
  std::vector<unsigned char> pattern(bytes);
  for (auto& byte : pattern) byte = static_cast<unsigned char>(context.random());
  context.queue.enqueueWriteBuffer(source, CL_TRUE, 0, bytes, pattern.data());
  return limit_row(context, "copy", std::to_string(bytes >> 20) + " MiB", "bytes", "clEnqueueCopyBuffer",
                   2.0 * static_cast<double>(bytes), Unit::BytesPerSecond, [&] {
                     cl::Event event;
                     context.queue.enqueueCopyBuffer(source, target, 0, 0, bytes, nullptr, &event);
                     return event;
                   });
}

Row copy_kernel_row(BenchContext& context, std::size_t bytes) {
  cl::Program program = build_limit_program(context, "-DVW=4");
  cl::Kernel kernel(program, "bench_copy");
  cl::Buffer source(context.context, CL_MEM_READ_WRITE, bytes), target(context.context, CL_MEM_READ_WRITE, bytes);
  context.queue.enqueueFillBuffer(source, 1.5f, 0, bytes);
  kernel.setArg(0, source);
  kernel.setArg(1, target);
  return limit_row(context, "copy", std::to_string(bytes >> 20) + " MiB", "bytes", "copy kernel (float4)",
                   2.0 * static_cast<double>(bytes), Unit::BytesPerSecond, [&] {
                     cl::Event event;
                     context.queue.enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(bytes / 16), cl::NullRange,
                                                        nullptr, &event);
                     return event;
                   });
}

Row fma_row(BenchContext& context) {
  const int width =
      context.info->is_gpu() ? 4 : static_cast<int>(std::clamp(context.info->native_vector_width_float, 4u, 16u));
  cl::Program program = build_limit_program(context, "-cl-mad-enable -DVW=" + std::to_string(width));
  cl::Kernel kernel(program, "bench_fma_peak");
  const std::size_t global =
      static_cast<std::size_t>(context.info->compute_units) * (context.info->is_gpu() ? 8192 : 1024);
  const int iterations = context.info->is_gpu() ? 4096 : 16384;  // long enough for stable CPU timestamps
  cl::Buffer out(context.context, CL_MEM_WRITE_ONLY, global * sizeof(float) * width);
  kernel.setArg(0, out);
  kernel.setArg(1, 0.5f);
  kernel.setArg(2, iterations);
  return limit_row(
      context, "fma", std::to_string(global) + " items x " + std::to_string(iterations), "float", "FMA-bound kernel",
      static_cast<double>(global) * iterations * 8 * width * 2, Unit::FlopsPerSecond, [&] {
        cl::Event event;
        context.queue.enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(global), cl::NullRange, nullptr, &event);
        return event;
      });
}

}  // namespace

Limits measure_limits(BenchContext& context) {
  Limits limits;
  const std::size_t bytes = copy_bytes(context);
  Row copy = copy_row(context, bytes);
  Row copy_kernel = copy_kernel_row(context, bytes);
  limits.copy_gb_per_s = std::max(copy.rate(), copy_kernel.rate());
  context.add(copy);
  context.add(copy_kernel);
  Row fma = fma_row(context);
  limits.fma_gflop_per_s = fma.rate();
  context.add(fma);
  return limits;
}

}  // namespace tilecl::bench
