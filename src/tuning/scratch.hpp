// Scratch data for tuning subjects: random buffers (never zeros) and result comparison.
#pragma once

#include <CL/opencl.hpp>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "tilecl/types.hpp"

namespace tilecl::detail {

// Uniform values in [-1, 1) for floating types (tilecl::half and bfloat16 rounded from them), [-100, 100] for
// integers.
template <typename T>
std::vector<T> random_values(std::size_t count, std::mt19937_64& random) {
  std::vector<T> values(count);
  if constexpr (std::is_floating_point_v<T> || std::is_same_v<T, half> || std::is_same_v<T, bfloat16>) {
    std::uniform_real_distribution<double> distribution(-1.0, 1.0);
    for (auto& value : values) value = static_cast<T>(distribution(random));
  } else {
    std::uniform_int_distribution<int> distribution(std::is_signed_v<T> ? -100 : 0, std::is_signed_v<T> ? 100 : 255);
    for (auto& value : values) value = static_cast<T>(distribution(random));
  }
  return values;
}

// A device buffer holding `values` (at least one element, so zero-sized scratch stays valid).
template <typename T>
cl::Buffer upload(const cl::Context& context, cl::CommandQueue& queue, const std::vector<T>& values) {
  cl::Buffer buffer(context, CL_MEM_READ_WRITE, std::max<std::size_t>(1, values.size()) * sizeof(T));
  if (!values.empty()) queue.enqueueWriteBuffer(buffer, CL_TRUE, 0, values.size() * sizeof(T), values.data());
  return buffer;
}

// A device buffer of `count` elements: `block` repeated (timing operands: the values do not change the timing, and
// filling hundreds of MiB one random number at a time would be slow).
template <typename T>
cl::Buffer upload_repeated(const cl::Context& context, cl::CommandQueue& queue, const std::vector<T>& block,
                           std::uint64_t count) {
  std::vector<T> values(count);
  for (std::uint64_t i = 0; i < count; ++i) values[i] = block[i % block.size()];
  return upload(context, queue, values);
}

template <typename T>
std::vector<T> download(cl::CommandQueue& queue, const cl::Buffer& buffer, std::size_t count) {
  std::vector<T> values(count);
  if (count > 0) queue.enqueueReadBuffer(buffer, CL_TRUE, 0, count * sizeof(T), values.data());
  return values;
}

// Empty when every got[i] is within tolerance * (1 + |expected[i]|) of expected[i]; else the first miss.
template <typename T>
std::string compare_with_reference(const std::vector<T>& got, const std::vector<double>& expected, double tolerance) {
  if (got.size() != expected.size()) return "size differs";
  for (std::size_t i = 0; i < got.size(); ++i) {
    const double value = static_cast<double>(got[i]);
    if (!(std::abs(value - expected[i]) <= tolerance * (1.0 + std::abs(expected[i]))))
      return "element " + std::to_string(i) + " is " + std::to_string(value) + ", expected " +
             std::to_string(expected[i]);
  }
  return {};
}

// `count` values repeating `block` from its element `shift` on: timing operands of hundreds of MiB without drawing
// each value (the values do not change the timing).
template <typename T>
std::vector<T> repeated_values(const std::vector<T>& block, std::size_t count, std::size_t shift = 0) {
  std::vector<T> values(count);
  for (std::size_t i = 0; i < count; ++i) values[i] = block[(i + shift) % block.size()];
  return values;
}

// Empty when every |got[i] - expected[i]| <= bounds[i] + 2 eps |expected[i]| (the bound of a reference's rounding
// error plus the final rounding to T; a bound of 0 asks for the value itself); else the first miss, naming `what`.
template <typename T>
std::string compare_within_bounds(const std::vector<T>& got, const std::vector<double>& expected,
                                  const std::vector<double>& bounds, const std::string& what) {
  if (got.size() != expected.size() || got.size() != bounds.size()) return what + ": size differs";
  for (std::size_t i = 0; i < got.size(); ++i) {
    const double bound = bounds[i] + 2 * std::numeric_limits<T>::epsilon() * std::abs(expected[i]);
    if (!(std::abs(static_cast<double>(got[i]) - expected[i]) <= bound))
      return "element " + std::to_string(i) + " of " + what + " is " + std::to_string(static_cast<double>(got[i])) +
             ", expected " + std::to_string(expected[i]);
  }
  return {};
}

}  // namespace tilecl::detail
