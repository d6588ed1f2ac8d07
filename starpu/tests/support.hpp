// What the StarPU suites share: random data, a tilecl queue of its own for single-device results, tolerances.
#pragma once

#include <CL/opencl.hpp>
#include <cstdint>
#include <random>
#include <type_traits>
#include <vector>

#include "tilecl/device.hpp"

namespace tilecl::starpu::test {

inline std::mt19937_64& random_engine() {
  static std::mt19937_64 engine(std::random_device{}());
  return engine;
}

template <typename T>
std::vector<T> random_values(std::size_t count, double low, double high) {
  std::vector<T> values(count);
  std::uniform_real_distribution<double> distribution(low, high);
  for (auto& value : values) value = static_cast<T>(distribution(random_engine()));
  return values;
}

// A queue on the first device, in a context of its own (not StarPU's).
inline cl::CommandQueue& single_queue() {
  static cl::CommandQueue& queue = *[] {
    const cl::Device device = select_device();
    return new cl::CommandQueue(cl::Context(device), device);
  }();
  return queue;
}

template <typename T>
cl::Buffer device_copy(const std::vector<T>& values) {
  const auto context = single_queue().getInfo<CL_QUEUE_CONTEXT>();
  return cl::Buffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                    std::max<std::size_t>(values.size(), 1) * sizeof(T), const_cast<T*>(values.data()));
}

template <typename T>
std::vector<T> host_copy(const cl::Buffer& buffer, std::size_t count) {
  std::vector<T> values(count);
  single_queue().enqueueReadBuffer(buffer, CL_TRUE, 0, count * sizeof(T), values.data());
  return values;
}

}  // namespace tilecl::starpu::test
