// gemm with an explicit configuration (tests, the tuner), and the pieces of its tuning: shape buckets, search
// space, device-derived defaults. The public API (tilecl/gemm.hpp) picks a configuration itself.
#pragma once

#include <CL/opencl.hpp>
#include <string>
#include <vector>

#include "dtype.hpp"
#include "tilecl/types.hpp"
#include "tuning/search_space.hpp"
#include "tuning/variant.hpp"

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

// The shape category of a call (ops/gemm/shapes.hpp lists them); a call's tuned choice is stored per shape
// class, which refines the category by sizes and transposes.
std::string gemm_bucket(Layout layout, Transpose trans_a, Transpose trans_b, std::uint64_t m, std::uint64_t n,
                        std::uint64_t k);
// Every category, in the order the classifier tests them.
std::vector<std::string> gemm_buckets();

// The search space of a category: every variant (gemv only in the gemv categories), so any valid configuration can
// be forced (the tuner tries the default first).
SearchSpace gemm_search_space(const DTypeInfo& dtype, const std::string& bucket, const DeviceInfo& device);
// The default at a category's representative shape.
Config gemm_default_config(const DTypeInfo& dtype, const std::string& bucket, const DeviceInfo& device);
// Every variant's kernel and build macros, for the macro contract test.
FamilyMacros gemm_macros();

}  // namespace tilecl::detail
