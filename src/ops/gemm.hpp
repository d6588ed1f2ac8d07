// gemm with an explicit configuration (tests, the tuner), and the pieces of its tuning: shape buckets, search
// space, device-derived defaults. The public API (tilecl/gemm.hpp) picks a configuration itself.
#pragma once

#include <CL/opencl.hpp>
#include <string>
#include <vector>

#include "dtype.hpp"
#include "tilecl/types.hpp"
#include "tuning/search_space.hpp"

namespace tilecl::detail {

template <typename T>
cl::Event gemm_with(const Config& config, cl::CommandQueue& queue, Layout layout, Transpose trans_a, Transpose trans_b,
                    std::size_t m, std::size_t n, std::size_t k, T alpha, const cl::Buffer& a, std::size_t a_offset,
                    std::size_t lda, const cl::Buffer& b, std::size_t b_offset, std::size_t ldb, T beta, cl::Buffer& c,
                    std::size_t c_offset, std::size_t ldc, const std::vector<cl::Event>* wait = nullptr);

// Every kernel launch of one call, first to last (for timing the whole call with profiling events).
template <typename T>
std::vector<cl::Event> gemm_with_events(const Config& config, cl::CommandQueue& queue, Layout layout, Transpose trans_a,
                                        Transpose trans_b, std::size_t m, std::size_t n, std::size_t k, T alpha,
                                        const cl::Buffer& a, std::size_t a_offset, std::size_t lda, const cl::Buffer& b,
                                        std::size_t b_offset, std::size_t ldb, T beta, cl::Buffer& c,
                                        std::size_t c_offset, std::size_t ldc);

// The shape bucket of a call (see gemm.cpp for the list): all calls of a bucket share one tuned choice.
std::string gemm_bucket(Layout layout, Transpose trans_a, Transpose trans_b, std::uint64_t m, std::uint64_t n,
                        std::uint64_t k);
// Every bucket, in the order the classifier tests them.
std::vector<std::string> gemm_buckets();

// The search space of a bucket: every variant (so any valid configuration can be forced for any bucket), with
// the bucket's default variant first and each parameter's candidates starting from the default's value, so a
// budget-limited search explores around the default first.
SearchSpace gemm_search_space(const DTypeInfo& dtype, const std::string& bucket, const DeviceInfo& device);
Config gemm_default_config(const DTypeInfo& dtype, const std::string& bucket, const DeviceInfo& device);

}  // namespace tilecl::detail
