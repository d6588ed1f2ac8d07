// Half, bfloat16 and TF32 GEMM at the GEMM sweep's shapes (same distribution: m, n, k log-uniform in [1, 6000] on
// GPUs, [1, 400] on CPUs where the portable kernel runs; random transposes, layout and padded leading dimensions).
// The peer is tilecl's own float gemm (MathMode::Standard) on the same shape: issue 20 asks that no shape run slower
// than the FP32 path (ratio >= 1). Each shape is also checked: the result against a float gemm of the same stored
// values, within the documented bound (src/ops/gemm/mma_accuracy.hpp) plus the float reference's own error; a
// result outside it makes the point an error ("wrong result ...").
#include <CL/opencl.hpp>
#include <algorithm>
#include <cmath>
#include <random>
#include <sstream>

#include "ops/gemm/mma_accuracy.hpp"
#include "sweeps/common.hpp"
#include "tilecl/gemm.hpp"
#include "tilecl/tuning.hpp"
#include "tilecl/types.hpp"

namespace tilecl::bench::sweeps {
namespace {

namespace mma = detail::gemm::mma;

// The element type a mode stores (float for TF32) and its format.
template <typename T>
struct Mode;
template <>
struct Mode<half> {
  static constexpr const char* name = "half";
  static constexpr mma::Format format = mma::Format::F16;
};
template <>
struct Mode<bfloat16> {
  static constexpr const char* name = "bfloat16";
  static constexpr mma::Format format = mma::Format::BF16;
};
template <>
struct Mode<float> {
  static constexpr const char* name = "tf32";
  static constexpr mma::Format format = mma::Format::TF32;
};

// Random values in [-1, 1) stored as T, and the same stored values as floats (exact: every half and bfloat16 is a
// float).
template <typename T>
struct Operand {
  std::vector<T> stored;
  std::vector<float> as_float;
};
template <typename T>
Operand<T> random_operand(std::uint64_t elements, std::mt19937_64& random) {
  std::uniform_real_distribution<float> value(-1.0f, 1.0f);
  Operand<T> operand;
  operand.stored.resize(std::max<std::uint64_t>(elements, 1));
  operand.as_float.resize(operand.stored.size());
  for (std::size_t i = 0; i < operand.stored.size(); ++i) {
    operand.stored[i] = T(value(random));
    operand.as_float[i] = static_cast<float>(operand.stored[i]);
  }
  return operand;
}

template <typename V>
cl::Buffer device_copy(BenchContext& context, const std::vector<V>& values) {
  cl::Buffer buffer(context.context, CL_MEM_READ_WRITE, values.size() * sizeof(V));
  context.queue.enqueueWriteBuffer(buffer, CL_TRUE, 0, values.size() * sizeof(V), values.data());
  return buffer;
}

template <typename V>
std::vector<V> host_copy(BenchContext& context, const cl::Buffer& buffer, std::size_t elements) {
  std::vector<V> values(elements);
  context.queue.enqueueReadBuffer(buffer, CL_TRUE, 0, elements * sizeof(V), values.data());
  return values;
}

// The mode's call: gemm<half>, gemm<bfloat16>, or float gemm in TF32 mode.
template <typename T>
void call(cl::CommandQueue& queue, const GemmShape& s, float alpha, const cl::Buffer& a, const cl::Buffer& b,
          float beta, cl::Buffer& c) {
  if constexpr (std::is_same_v<T, float>)
    gemm(queue, MathMode::TF32, s.layout, s.trans_a, s.trans_b, s.m, s.n, s.k, alpha, a, 0, s.lda, b, 0, s.ldb, beta, c,
         0, s.ldc);
  else
    gemm<T>(queue, s.layout, s.trans_a, s.trans_b, s.m, s.n, s.k, alpha, a, 0, s.lda, b, 0, s.ldb, beta, c, 0, s.ldc);
}

// "" when every element of C is within the bound of the mode, else the first offender.
template <typename T>
std::string check(BenchContext& context, const GemmShape& s, const Operand<T>& a, const Operand<T>& b,
                  const Operand<T>& c_start, float alpha, float beta) {
  auto& queue = context.queue;
  const std::size_t c_elements = c_start.stored.size();
  const cl::Buffer a_values = device_copy(context, a.stored), b_values = device_copy(context, b.stored);
  cl::Buffer c_mode = device_copy(context, c_start.stored);
  call<T>(queue, s, alpha, a_values, b_values, beta, c_mode);
  // Reference: float gemm of the same stored values; magnitude: float gemm of their absolute values.
  auto absolute = [](std::vector<float> v) {
    for (float& x : v) x = std::abs(x);
    return v;
  };
  const cl::Buffer a_float = device_copy(context, a.as_float), b_float = device_copy(context, b.as_float);
  const cl::Buffer a_abs = device_copy(context, absolute(a.as_float)),
                   b_abs = device_copy(context, absolute(b.as_float));
  cl::Buffer c_reference = device_copy(context, c_start.as_float);
  cl::Buffer c_magnitude = device_copy(context, absolute(c_start.as_float));
  gemm<float>(queue, s.layout, s.trans_a, s.trans_b, s.m, s.n, s.k, alpha, a_float, 0, s.lda, b_float, 0, s.ldb, beta,
              c_reference, 0, s.ldc);
  gemm<float>(queue, s.layout, s.trans_a, s.trans_b, s.m, s.n, s.k, std::abs(alpha), a_abs, 0, s.lda, b_abs, 0, s.ldb,
              std::abs(beta), c_magnitude, 0, s.ldc);
  const auto got = host_copy<T>(context, c_mode, c_elements);
  const auto reference = host_copy<float>(context, c_reference, c_elements);
  const auto magnitude = host_copy<float>(context, c_magnitude, c_elements);
  const double float_error = static_cast<double>(s.k + 2) * std::ldexp(1.0, -24);  // the reference's own error
  for (std::uint64_t row = 0; row < s.m; ++row)
    for (std::uint64_t col = 0; col < s.n; ++col) {
      const std::size_t at = s.layout == Layout::RowMajor ? row * s.ldc + col : col * s.ldc + row;
      const double want = reference[at], scale = 1.01 * magnitude[at];
      const double bound = mma::error_bound(Mode<T>::format, s.k, scale, want) + float_error * scale;
      const double value = static_cast<float>(got[at]);
      if (!(std::abs(value - want) <= bound)) {
        std::ostringstream message;
        message << "wrong result at (" << row << ", " << col << "): " << value << ", float gemm " << want << ", bound "
                << bound;
        return message.str();
      }
    }
  return "";
}

template <typename T>
SweepPoint measure(BenchContext& context, const GemmShape& s, std::mt19937_64& values) {
  SweepPoint point;
  point.family = "gemm_mma";
  point.op = "gemm_mma";
  point.dtype = Mode<T>::name;
  point.shape = s.text();
  point.flops = 2.0 * static_cast<double>(s.m) * static_cast<double>(s.n) * static_cast<double>(s.k);
  return measured(point, [&](SweepPoint& p) {
    const auto a = random_operand<T>(GemmShape::extent(s.layout, s.a_rows(), s.a_cols(), s.lda), values);
    const auto b = random_operand<T>(GemmShape::extent(s.layout, s.b_rows(), s.b_cols(), s.ldb), values);
    const auto c = random_operand<T>(GemmShape::extent(s.layout, s.m, s.n, s.ldc), values);
    const float alpha = 1.0f, beta = 0.5f;
    const std::string wrong = check<T>(context, s, a, b, c, alpha, beta);
    if (!wrong.empty()) throw std::runtime_error(wrong);

    auto& queue = context.queue;
    const cl::Buffer a_buffer = device_copy(context, a.stored), b_buffer = device_copy(context, b.stored);
    cl::Buffer c_buffer = device_copy(context, c.stored);
    p.peer = "float gemm";  // tilecl's own FP32 path
    const cl::Buffer a_float = device_copy(context, a.as_float), b_float = device_copy(context, b.as_float);
    cl::Buffer c_float = device_copy(context, c.as_float);
    time_beside_peer(
        queue, p, [&] { call<T>(queue, s, alpha, a_buffer, b_buffer, beta, c_buffer); },
        [&] {
          gemm<float>(queue, s.layout, s.trans_a, s.trans_b, s.m, s.n, s.k, alpha, a_float, 0, s.lda, b_float, 0, s.ldb,
                      beta, c_float, 0, s.ldc);
        });
    const auto choice = tuning::parameters_for(queue, "gemm_mma", p.dtype, s.tuning_shape());
    p.ours_parameters = choice.parameters.to_string() + " (" + tuning::origin_name(choice.origin) + ")";
  });
}

template <typename T>
SweepOp mma_op(const DeviceInfo& device, int count) {
  const std::uint64_t largest = device.is_cpu() ? 400 : 6000;
  return {"gemm_mma", "gemm_mma", Mode<T>::name, count, [largest](BenchContext& context, std::mt19937_64& random) {
            const GemmShape shape = draw_gemm_shape(random, largest);
            std::mt19937_64 values(random());  // the operands' values: their own stream, one draw of the shapes'
            return measure<T>(context, shape, values);
          }};
}

}  // namespace

std::vector<SweepOp> gemm_mma_sweep_ops(const DeviceInfo& device) {
  const int count = device.is_cpu() ? 8 : 25;
  return {mma_op<half>(device, count), mma_op<bfloat16>(device, count), mma_op<float>(device, count)};
}

}  // namespace tilecl::bench::sweeps
