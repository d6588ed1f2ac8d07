// Transpose with an explicit configuration (tests, the tuner, the benchmark's naive row); the public API
// picks one itself.
#pragma once

#include <CL/opencl.hpp>
#include <vector>

#include "dtype.hpp"
#include "tuning/search_space.hpp"
#include "tuning/variant.hpp"

namespace tilecl::detail {

// Runs exactly `config` (no shortcut for contiguous degenerate shapes); validated like the public call.
template <typename T>
cl::Event transpose_with(const Config& config, cl::CommandQueue& queue, std::size_t rows, std::size_t cols,
                         const cl::Buffer& in, std::size_t in_offset, std::size_t ld_in, cl::Buffer& out,
                         std::size_t out_offset, std::size_t ld_out, const std::vector<cl::Event>* wait = nullptr);

// Variants: naive, tiled (local tile, PAD = 0), padded (local tile with PAD >= 1), block (registers, no local
// memory). Variants are listed with the device's likely winner first.
SearchSpace transpose_search_space(const DTypeInfo& dtype, const DeviceInfo& device);
// The configuration used when nothing is tuned: the one place to change the provisional defaults.
Config transpose_default_config(const DTypeInfo& dtype, const DeviceInfo& device);
// Every variant's kernel and build macros, for the macro contract test.
FamilyMacros transpose_macros();

}  // namespace tilecl::detail
