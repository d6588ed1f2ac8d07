// What the per-family sweeps share: drawing sizes and making filled device buffers.
#pragma once

#include <CL/opencl.hpp>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>

#include "bench_context.hpp"
#include "sweep.hpp"
#include "sweeps/shapes.hpp"

namespace tilecl::bench::sweeps {

// A device buffer of `elements` elements filled with a repeating non-zero pattern (values do not change the
// timing of these ops; filling on the device keeps multi-GiB shapes quick).
template <typename T>
cl::Buffer filled_buffer(BenchContext& context, std::uint64_t elements) {
  const std::uint64_t count = std::max<std::uint64_t>(elements, 1);
  cl::Buffer buffer(context.context, CL_MEM_READ_WRITE, count * sizeof(T));
  const T pattern = static_cast<T>(0.5);
  context.queue.enqueueFillBuffer(buffer, pattern == T(0) ? T(1) : pattern, 0, count * sizeof(T));
  return buffer;
}

template <typename T>
const char* type_name() {
  if constexpr (std::is_same_v<T, float>) return "float";
  if constexpr (std::is_same_v<T, double>) return "double";
  if constexpr (std::is_same_v<T, std::int32_t>) return "int32";
  return "uint8";
}

// Runs one shape's measurements, turning any exception into the point's error.
template <typename Measure>
SweepPoint measured(SweepPoint point, const Measure& measure) {
  try {
    measure(point);
  } catch (const std::exception& error) {
    point.error = error.what();
  }
  return point;
}

std::vector<SweepOp> gemm_sweep_ops(const DeviceInfo& device);
// Half, bfloat16 and TF32 gemm beside float gemm at the GEMM sweep's shapes, each result checked.
std::vector<SweepOp> gemm_mma_sweep_ops(const DeviceInfo& device);
std::vector<SweepOp> transpose_sweep_ops(const DeviceInfo& device);
std::vector<SweepOp> vector_sweep_ops(const DeviceInfo& device);
// Strided-batched SGEMM at random batches of small matrices beside CLBlast's and a copy of the bytes.
std::vector<SweepOp> batched_sweep_ops(const DeviceInfo& device);
// Filters and gray at random images beside a copy of their bytes (and OpenCV on CPUs).
std::vector<SweepOp> image_sweep_ops(const DeviceInfo& device);
// The host overhead of a warm call on tiny problems (axpy, transpose, gemm), beside CLBlast's.
std::vector<SweepPoint> measure_overheads(BenchContext& context);

}  // namespace tilecl::bench::sweeps
