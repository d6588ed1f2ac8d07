#include "support/mixed_ops.hpp"

#include <algorithm>
#include <cmath>

#include "reference/gemm_reference.hpp"
#include "reference/image_reference.hpp"
#include "reference/reduce_reference.hpp"
#include "tilecl/tilecl.hpp"

namespace tilecl::test {
namespace {

std::vector<float> uniform_values(std::size_t count, std::mt19937_64& random) {
  std::uniform_real_distribution<float> distribution(-1.0f, 1.0f);
  std::vector<float> values(count);
  for (auto& value : values) value = distribution(random);
  return values;
}

cl::Buffer buffer_with(const cl::Context& context, cl::CommandQueue& queue, const std::vector<float>& values) {
  cl::Buffer buffer(context, CL_MEM_READ_WRITE, std::max<std::size_t>(1, values.size()) * sizeof(float));
  if (!values.empty()) queue.enqueueWriteBuffer(buffer, CL_TRUE, 0, values.size() * sizeof(float), values.data());
  return buffer;
}

std::vector<float> read_back(cl::CommandQueue& queue, const cl::Buffer& buffer, std::size_t count) {
  std::vector<float> values(count);
  if (count > 0) queue.enqueueReadBuffer(buffer, CL_TRUE, 0, count * sizeof(float), values.data());
  return values;
}

// The first element outside its tolerance, described; empty when every element is close.
std::string first_miss(const char* op, const std::vector<float>& got, const std::vector<double>& want,
                       const std::vector<double>& tolerance) {
  for (std::size_t i = 0; i < got.size(); ++i) {
    if (!(std::abs(static_cast<double>(got[i]) - want[i]) <= tolerance[i]))
      return std::string(op) + ": element " + std::to_string(i) + " of " + std::to_string(got.size()) + " is " +
             std::to_string(got[i]) + ", expected " + std::to_string(want[i]);
  }
  return {};
}

std::size_t awkward_size(std::mt19937_64& random, std::size_t max) {
  static const std::size_t kPrimes[] = {1, 2, 3, 7, 13, 31, 61, 127, 257, 509, 1021, 4093, 65521};
  std::uniform_int_distribution<int> kind(0, 3);
  switch (kind(random)) {
    case 0: {
      std::vector<std::size_t> fitting;
      for (std::size_t prime : kPrimes)
        if (prime <= max) fitting.push_back(prime);
      return fitting[std::uniform_int_distribution<std::size_t>(0, fitting.size() - 1)(random)];
    }
    case 1: {
      std::size_t power = 1;
      while (power * 2 <= max + 1 && std::uniform_int_distribution<int>(0, 3)(random) != 0) power *= 2;
      return std::clamp<std::size_t>(power + (std::uniform_int_distribution<int>(0, 1)(random) ? 1 : -1) * (power > 1),
                                     1, max);
    }
    default:
      return std::uniform_int_distribution<std::size_t>(1, max)(random);
  }
}

}  // namespace

MixedSizes small_mixed_sizes() { return {3001, 37, 29, 33, 19, 45, 41, 23}; }

MixedSizes random_mixed_sizes(std::mt19937_64& random, std::size_t max_length) {
  const auto side = std::max<std::size_t>(1, static_cast<std::size_t>(std::sqrt(static_cast<double>(max_length))));
  const std::size_t gemm_side = std::min<std::size_t>(side, 160);  // the host reference is cubic
  return {awkward_size(random, max_length), awkward_size(random, side),      awkward_size(random, side),
          awkward_size(random, gemm_side),  awkward_size(random, gemm_side), awkward_size(random, gemm_side),
          awkward_size(random, side),       awkward_size(random, side)};
}

std::vector<std::string> run_mixed_ops(cl::CommandQueue& queue, const MixedSizes& s, std::mt19937_64& random) {
  const cl::Context context = queue.getInfo<CL_QUEUE_CONTEXT>();
  std::vector<std::string> wrong;
  auto note = [&wrong](std::string miss) {
    if (!miss.empty()) wrong.push_back(std::move(miss));
  };

  // axpy: y = 0.75 x + y
  const auto x = uniform_values(s.length, random), y = uniform_values(s.length, random);
  cl::Buffer x_buffer = buffer_with(context, queue, x), y_buffer = buffer_with(context, queue, y);
  axpy<float>(queue, s.length, 0.75f, x_buffer, 0, y_buffer, 0);
  std::vector<double> want(s.length), tolerance(s.length);
  for (std::size_t i = 0; i < s.length; ++i) {
    want[i] = 0.75 * x[i] + y[i];
    tolerance[i] = 1e-6 * (1.0 + std::abs(want[i]));
  }
  note(first_miss("axpy", read_back(queue, y_buffer, s.length), want, tolerance));

  // reduce: the sum of x
  cl::Buffer sum_buffer(context, CL_MEM_READ_WRITE, sizeof(float));
  reduce<float>(queue, ReduceOp::Sum, s.length, x_buffer, 0, sum_buffer, 0);
  note(first_miss("reduce", read_back(queue, sum_buffer, 1), {reference::sum(x.data(), s.length)},
                  {reference::float_sum_tolerance(s.length, reference::sum_abs(x.data(), s.length))}));

  // transpose: rows x cols -> cols x rows, exact
  const auto matrix = uniform_values(s.rows * s.cols, random);
  cl::Buffer in = buffer_with(context, queue, matrix);
  cl::Buffer out(context, CL_MEM_READ_WRITE, std::max<std::size_t>(1, matrix.size()) * sizeof(float));
  transpose<float>(queue, s.rows, s.cols, in, 0, s.cols, out, 0, s.rows);
  want.assign(matrix.size(), 0);
  for (std::size_t r = 0; r < s.rows; ++r)
    for (std::size_t c = 0; c < s.cols; ++c) want[c * s.rows + r] = matrix[r * s.cols + c];
  note(first_miss("transpose", read_back(queue, out, matrix.size()), want, std::vector<double>(want.size(), 0.0)));

  // gemm: C = A B, row-major
  const auto a = uniform_values(s.m * s.k, random), b = uniform_values(s.k * s.n, random);
  cl::Buffer a_buffer = buffer_with(context, queue, a), b_buffer = buffer_with(context, queue, b);
  cl::Buffer c_buffer(context, CL_MEM_READ_WRITE, std::max<std::size_t>(1, s.m * s.n) * sizeof(float));
  gemm<float>(queue, Layout::RowMajor, Transpose::No, Transpose::No, s.m, s.n, s.k, 1.0f, a_buffer, 0, s.k, b_buffer, 0,
              s.n, 0.0f, c_buffer, 0, s.n);
  std::vector<float> c(s.m * s.n);
  std::vector<double> magnitude;
  reference::gemm<float>(reference::Layout::RowMajor, reference::Transpose::No, reference::Transpose::No, s.m, s.n, s.k,
                         1.0, a.data(), s.k, b.data(), s.n, 0.0, c.data(), s.n, &magnitude);
  want.assign(c.begin(), c.end());
  tolerance.assign(c.size(), 0);
  // The reference is rounded to float once more than the kernel's result: one extra ulp of slack.
  for (std::size_t i = 0; i < c.size(); ++i)
    tolerance[i] = reference::gemm_tolerance<float>(s.k, magnitude[i]) + std::abs(want[i]) * 1.2e-7;
  note(first_miss("gemm", read_back(queue, c_buffer, c.size()), want, tolerance));

  // rgb_to_gray: interleaved RGB floats, dense rows
  const auto rgb = uniform_values(3 * s.width * s.height, random);
  cl::Buffer rgb_buffer = buffer_with(context, queue, rgb);
  cl::Buffer gray(context, CL_MEM_READ_WRITE, std::max<std::size_t>(1, s.width * s.height) * sizeof(float));
  const GrayWeights weights;
  rgb_to_gray<float>(queue, s.width, s.height, rgb_buffer, 0, 3 * s.width, gray, 0, s.width, weights);
  want = reference::rgb_to_gray(rgb.data(), static_cast<long>(s.width), static_cast<long>(s.height),
                                static_cast<long>(3 * s.width), weights.red, weights.green, weights.blue);
  note(first_miss("rgb_to_gray", read_back(queue, gray, want.size()), want, std::vector<double>(want.size(), 1e-6)));
  return wrong;
}

}  // namespace tilecl::test
