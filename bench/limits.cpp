// The device's limits, measured in the same run as the benchmarks they frame.
#include <algorithm>
#include <functional>
#include <iostream>
#include <string>
#include <vector>

#include "cases/cases.hpp"
#include "report.hpp"

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

// The copy sizes measured: 64 KiB up to 1 GiB on GPUs (256 MiB on CPUs, less if one buffer may not be that
// large), by factors of 4 (16 with --quick), the largest always included.
std::vector<std::size_t> copy_sizes(const BenchContext& context) {
  const std::size_t largest = std::min<std::size_t>(
      context.info->is_gpu() ? (std::size_t{1} << 30) : (std::size_t{1} << 28), context.info->max_allocation_bytes / 2);
  std::vector<std::size_t> sizes;
  for (std::size_t bytes = std::size_t{1} << 16; bytes < largest; bytes *= context.quick ? 16 : 4)
    sizes.push_back(bytes);
  sizes.push_back(largest);
  return sizes;
}

// Source and target buffer pairs of `bytes` each, as many as a row of that size rotates through, sources
// filled with random bytes.
struct CopyBuffers {
  std::vector<cl::Buffer> sources, targets;
};
CopyBuffers copy_buffers(BenchContext& context, std::size_t bytes) {
  CopyBuffers buffers;
  std::vector<unsigned char> pattern(bytes);
  for (std::size_t set = 0; set < context.rotation_sets(2 * bytes); ++set) {
    for (auto& byte : pattern) byte = static_cast<unsigned char>(context.random());
    buffers.sources.emplace_back(context.context, CL_MEM_READ_WRITE, bytes);
    buffers.targets.emplace_back(context.context, CL_MEM_READ_WRITE, bytes);
    context.queue.enqueueWriteBuffer(buffers.sources.back(), CL_TRUE, 0, bytes, pattern.data());
  }
  return buffers;
}

Row copy_row(BenchContext& context, std::size_t bytes, const CopyBuffers& buffers) {
  const std::size_t sets = buffers.sources.size();
  int run = 0;
  return limit_row(context, "copy", bytes_text(bytes), "bytes", "clEnqueueCopyBuffer", 2.0 * static_cast<double>(bytes),
                   Unit::BytesPerSecond, [&] {
                     cl::Event event;
                     const std::size_t set = static_cast<std::size_t>(run++) % sets;
                     context.queue.enqueueCopyBuffer(buffers.sources[set], buffers.targets[set], 0, 0, bytes, nullptr,
                                                     &event);
                     return event;
                   });
}

Row copy_kernel_row(BenchContext& context, std::size_t bytes, const CopyBuffers& buffers) {
  cl::Program program = build_limit_program(context, "-DVW=4");
  cl::Kernel kernel(program, "bench_copy");
  const std::size_t sets = buffers.sources.size();
  int run = 0;
  return limit_row(context, "copy", bytes_text(bytes), "bytes", "copy kernel (float4)",
                   2.0 * static_cast<double>(bytes), Unit::BytesPerSecond, [&] {
                     cl::Event event;
                     const std::size_t set = static_cast<std::size_t>(run++) % sets;
                     kernel.setArg(0, buffers.sources[set]);
                     kernel.setArg(1, buffers.targets[set]);
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

// Copies at every size (report.cpp compares each GB/s row with the copy of about its size), then the FMA rate.
// The largest size keeps both implementations' rows; smaller sizes keep the faster one.
Limits measure_limits(BenchContext& context) {
  Limits limits;
  const std::vector<std::size_t> sizes = copy_sizes(context);
  for (const std::size_t bytes : sizes) {
    const CopyBuffers buffers = copy_buffers(context, bytes);
    Row copy = copy_row(context, bytes, buffers);
    Row kernel = copy_kernel_row(context, bytes, buffers);
    limits.copies.push_back({bytes, std::max(copy.rate(), kernel.rate())});
    if (bytes == sizes.back()) {
      context.add(copy);
      context.add(kernel);
    } else {
      context.add(copy.rate() >= kernel.rate() ? copy : kernel);
    }
  }
  limits.copy_gb_per_s = limits.copies.back().gb_per_s;
  Row fma = fma_row(context);
  limits.fma_gflop_per_s = fma.rate();
  context.add(fma);
  return limits;
}

}  // namespace tilecl::bench
