// The filter taps a call's kernels read through __constant arguments: a caller's buffers (bound as they are when
// possible, else copied on the device into buffers of their exact size) or taps built on the host (kept on the
// device, one buffer per context and taps).
#pragma once

#include <CL/opencl.hpp>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "checks.hpp"
#include "ops/image/filter_types.hpp"

namespace tilecl::detail {

// The buffers bound to the kernels' __constant arguments (direct: `first` is the filter; separable: row and
// column filters), and the device copies that must finish before the kernels read them.
struct BoundTaps {
  cl::Buffer first, second;
  std::vector<cl::Event> copies;
};

// Taps a caller passes in a device buffer (floats).
struct TapsArgument {
  const char* name;  // "filter", "row_filter", "column_filter"
  const cl::Buffer* buffer;
  std::uint64_t offset;
  std::uint64_t count;
};

// Host-built taps as 32-bit words: floats' bit patterns, or the integers of OpenCV's fixed-point arithmetic.
using TapWords = std::vector<std::uint32_t>;
TapWords tap_words(const std::vector<float>& taps);
// Integer taps as the separable kernels read them under OpenCV's arithmetic: floats holding the integers
// (USE_FIXED_POINT 1), or the integers themselves (2: the dividing finish).
TapWords fixed_tap_words(const std::vector<std::uint32_t>& taps, bool dividing_finish);

// The taps of all filters of a call must fit the constant memory together (some drivers place every
// __constant argument of a kernel in one bank); `argument` names the size argument in the error.
// A direct filter has kw x kh taps, a separable one kw + kh.
void check_constant_memory(const std::string& op, const std::string& argument, const QueueTarget& target,
                           std::uint64_t kw, std::uint64_t kh, bool direct);

// The caller's taps buffer holds its taps, is of the queue's context, and does not overlap dst.
void check_taps_buffer(const std::string& op, const TapsArgument& taps, const QueueTarget& target,
                       const ImageOperands& image, std::uint64_t dst_extent, std::size_t element_size);

// Binds the caller's taps as they are when possible, else copies them (after `wait`) into buffers of their own.
BoundTaps bind_taps(const std::string& op, const QueueTarget& target, cl::CommandQueue& queue,
                    const std::vector<TapsArgument>& arguments, const std::vector<cl::Event>* wait);

// Device copies of host-built taps (row, column), created on first use and kept per context.
BoundTaps host_taps(const std::string& op, const cl::Context& context, const TapWords& row, const TapWords& column);
// How many device copies of host-built taps are kept (all contexts).
std::size_t host_taps_count();

}  // namespace tilecl::detail
