// Reductions with an explicit configuration (tests, the tuner, the benchmark's naive row); the public API
// picks one itself.
#pragma once

#include <CL/opencl.hpp>
#include <string>
#include <vector>

#include "dtype.hpp"
#include "tilecl/types.hpp"
#include "tuning/search_space.hpp"

namespace tilecl::detail {

template <typename T>
cl::Event reduce_with(const Config& config, cl::CommandQueue& queue, ReduceOp op, std::size_t n, const cl::Buffer& x,
                      std::size_t x_offset, cl::Buffer& result, std::size_t result_offset,
                      const std::vector<cl::Event>* wait = nullptr);

// The tuning op of a ReduceOp: "reduce_sum", "reduce_min", "reduce_max", "reduce_argmin", "reduce_argmax".
std::string reduce_tuning_name(ReduceOp op);

// Variants: vector (GPU: grid-stride loop, vector loads, local-memory tree), chunked (CPU: a contiguous chunk
// per work-item, no local memory), sequential and interleaved (one element per work-item; baselines). Listed
// with the device's likely winner first.
SearchSpace reduce_search_space(const DTypeInfo& dtype, ReduceOp op, const DeviceInfo& device);
// The configuration used when nothing is tuned: the one place to change the provisional defaults.
Config reduce_default_config(const DTypeInfo& dtype, ReduceOp op, const DeviceInfo& device);

// The kernel launches a reduction of n elements makes with `config` (its passes; the tests check the one-launch rule
// for small inputs).
std::size_t reduce_launches(const Config& config, const DTypeInfo& dtype, ReduceOp op, const DeviceInfo& device,
                            std::uint64_t n);

}  // namespace tilecl::detail
