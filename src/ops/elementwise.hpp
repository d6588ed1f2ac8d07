// Elementwise ops with an explicit configuration (tests, the tuner); the public API picks one itself.
#pragma once

#include <CL/opencl.hpp>
#include <vector>

#include "dtype.hpp"
#include "tuning/search_space.hpp"

namespace tilecl::detail {

template <typename T>
cl::Event vector_add_with(const Config& config, cl::CommandQueue& queue, std::size_t n, const cl::Buffer& a,
                          std::size_t a_offset, const cl::Buffer& b, std::size_t b_offset, cl::Buffer& c,
                          std::size_t c_offset, const std::vector<cl::Event>* wait = nullptr);

// T: float, double or half (alpha: ComputeType<T>, float for half).
template <typename T>
cl::Event axpy_with(const Config& config, cl::CommandQueue& queue, std::size_t n, ComputeType<T> alpha,
                    const cl::Buffer& x, std::size_t x_offset, cl::Buffer& y, std::size_t y_offset,
                    const std::vector<cl::Event>* wait = nullptr);

// The search space and default shared by vector_add and axpy.
SearchSpace elementwise_search_space();
Config elementwise_default_config(const DTypeInfo& dtype, const DeviceInfo& device);

}  // namespace tilecl::detail
