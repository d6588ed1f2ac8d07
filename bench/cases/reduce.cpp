// Reductions beside CLBlast's sum and amax and Boost.Compute's reduce (rates count the bytes read).
#include <CL/opencl.hpp>

#ifdef TILECL_HAVE_CLBLAST
#include <clblast_c.h>
#endif
#ifdef TILECL_HAVE_BOOST_COMPUTE
#include <boost/compute/algorithm/reduce.hpp>
#include <boost/compute/functional/operator.hpp>
#include <boost/compute/iterator/buffer_iterator.hpp>
#endif

#include <cmath>
#include <stdexcept>

#include "cases/bracket.hpp"
#include "cases/cases.hpp"
#include "ops/reduce.hpp"
#include "tilecl/reduce.hpp"
#include "tilecl/tuning.hpp"

namespace tilecl::bench {
namespace {

// One rotated input and what its reductions must give.
struct Input {
  cl::Buffer x;
  double sum = 0;
  float max = 0;
  std::size_t argmax = 0;
};

// Values uniform in [0, 1): max |x| is max x, so CLBlast's amax does the work of an argmax.
std::vector<Input> make_inputs(BenchContext& context, std::size_t n) {
  std::vector<Input> inputs(context.rotation_sets(n * sizeof(float)));
  std::vector<float> values(n);
  std::uint64_t state = context.random() | 1;
  for (auto& input : inputs) {
    for (auto& value : values) {
      state ^= state << 13;
      state ^= state >> 7;
      state ^= state << 17;
      value = static_cast<float>(state >> 40) * (1.0f / 16777216.0f);
    }
    for (std::size_t i = 0; i < n; ++i) {
      input.sum += values[i];
      if (values[i] > values[input.argmax]) input.argmax = i;
    }
    input.max = values[input.argmax];
    input.x = cl::Buffer(context.context, CL_MEM_READ_WRITE, n * sizeof(float));
    context.queue.enqueueWriteBuffer(input.x, CL_TRUE, 0, n * sizeof(float), values.data());
  }
  return inputs;
}

Row base_row(const std::string& op, std::size_t n) {
  Row row;
  row.family = "reduce";
  row.op = op;
  row.shape = "n=" + std::to_string(n);
  row.dtype = "float";
  row.work = static_cast<double>(n) * sizeof(float);
  row.unit = Unit::BytesPerSecond;
  return row;
}

// Empty when the result in `result` (a float, or an int32 index) is what `input` should give.
std::string check(BenchContext& context, ReduceOp op, const cl::Buffer& result, const Input& input) {
  if (op == ReduceOp::ArgMax) {
    std::int32_t index = -1;
    context.queue.enqueueReadBuffer(result, CL_TRUE, 0, sizeof(index), &index);
    return static_cast<std::size_t>(index) == input.argmax ? "" : "wrong index " + std::to_string(index);
  }
  float value = 0;
  context.queue.enqueueReadBuffer(result, CL_TRUE, 0, sizeof(value), &value);
  const bool right = op == ReduceOp::Max ? value == input.max : std::abs(value - input.sum) <= 1e-5 * input.sum;
  return right ? "" : "wrong value " + std::to_string(value);
}

void bench_op(BenchContext& context, const std::vector<Input>& inputs, ReduceOp op, const std::string& name,
              std::size_t n) {
  const std::size_t sets = inputs.size();
  cl::Buffer result(context.context, CL_MEM_READ_WRITE, 64);
  auto finish = [&](Row& row) {
    const std::string wrong = check(context, op, result, inputs[0]);
    if (!wrong.empty()) {
      row.failed = true;
      row.note = wrong;
    }
    context.add(row);
  };

  Row ours = base_row(name, n);
  ours.implementation = "tilecl";
  const auto choice = tuning::parameters_for(context.queue, detail::reduce_tuning_name(op), "float", std::to_string(n));
  ours.parameters = choice.parameters.to_string() + " (" + tuning::origin_name(choice.origin) + ")";
  ours.timing =
      time_bracketed(context, [&](int i) { reduce<float>(context.queue, op, n, inputs[i % sets].x, 0, result, 0); });
  reduce<float>(context.queue, op, n, inputs[0].x, 0, result, 0).wait();
  finish(ours);

  Row naive = base_row(name, n);
  naive.implementation = "tilecl naive";
  naive.kind = Row::Kind::OursBaseline;
  const detail::Config config{"interleaved", {{"WG_X", 256}}};
  naive.parameters = config.to_string();
  naive.timing = time_bracketed(context, [&](int i) {
    detail::reduce_with<float>(config, context.queue, op, n, inputs[i % sets].x, 0, result, 0);
  });
  detail::reduce_with<float>(config, context.queue, op, n, inputs[0].x, 0, result, 0).wait();
  finish(naive);

#ifdef TILECL_HAVE_CLBLAST
  if (op == ReduceOp::Sum || op == ReduceOp::ArgMax) {
    Row clblast = base_row(name, n);
    clblast.implementation = "CLBlast";
    clblast.kind = Row::Kind::Peer;
    clblast.note = op == ReduceOp::Sum ? "CLBlastSsum" : "CLBlastiSamax (index of max |x|)";
    cl::Buffer peer_result(context.context, CL_MEM_READ_WRITE, 64);
    clblast.timing = time_bracketed(context, [&](int i) {
      cl_command_queue queue = context.queue();
      cl_event event = nullptr;
      const auto status = op == ReduceOp::Sum
                              ? CLBlastSsum(n, peer_result(), 0, inputs[i % sets].x(), 0, 1, &queue, &event)
                              : CLBlastiSamax(n, peer_result(), 0, inputs[i % sets].x(), 0, 1, &queue, &event);
      if (status != CLBlastSuccess) throw std::runtime_error("CLBlast failed: " + std::to_string(status));
      if (event != nullptr) clReleaseEvent(event);
    });
    context.add(clblast);
  }
#endif

#ifdef TILECL_HAVE_BOOST_COMPUTE
  if (op == ReduceOp::Sum) {
    Row boost = base_row(name, n);
    boost.implementation = "Boost.Compute";
    boost.kind = Row::Kind::Peer;
    boost.note = "reduce plus<float>";
    boost::compute::command_queue queue(context.queue());
    cl::Buffer peer_result(context.context, CL_MEM_READ_WRITE, 64);
    auto output = boost::compute::make_buffer_iterator<float>(boost::compute::buffer(peer_result()), 0);
    boost.timing = time_bracketed(context, [&](int i) {
      auto first = boost::compute::make_buffer_iterator<float>(boost::compute::buffer(inputs[i % sets].x()), 0);
      boost::compute::reduce(first, first + static_cast<std::ptrdiff_t>(n), output, boost::compute::plus<float>(),
                             queue);
    });
    context.add(boost);
  }
#endif
}

// The sum of n halves (16-bit storage, summed in float; the rate counts 2-byte elements), checked against a double
// sum of the stored values.
void bench_half_sum(BenchContext& context, std::size_t n) {
  std::vector<cl::Buffer> inputs;
  std::vector<half> values(n);
  std::uniform_real_distribution<float> unit(0.0f, 1.0f);
  double sum = 0;
  for (std::size_t s = 0; s < context.rotation_sets(n * sizeof(half)); ++s) {
    sum = 0;
    for (auto& value : values) {
      value = half(unit(context.random));
      sum += static_cast<float>(value);
    }
    inputs.emplace_back(context.context, CL_MEM_READ_WRITE, n * sizeof(half));
    context.queue.enqueueWriteBuffer(inputs.back(), CL_TRUE, 0, n * sizeof(half), values.data());
  }
  cl::Buffer result(context.context, CL_MEM_READ_WRITE, 64);
  Row row = base_row("sum", n);
  row.dtype = "half";
  row.work = static_cast<double>(n) * sizeof(half);
  row.implementation = "tilecl";
  const auto choice = tuning::parameters_for(context.queue, "reduce_sum", "half", std::to_string(n));
  row.parameters = choice.parameters.to_string() + " (" + tuning::origin_name(choice.origin) + ")";
  const std::size_t sets = inputs.size();
  row.timing = time_bracketed(
      context, [&](int i) { reduce<half>(context.queue, ReduceOp::Sum, n, inputs[i % sets], 0, result, 0); });
  const float got = reduce_value<half>(context.queue, ReduceOp::Sum, n, inputs.back(), 0);
  if (std::abs(got - sum) > 1e-5 * sum) {
    row.failed = true;
    row.note = "wrong value " + std::to_string(got);
  }
  context.add(row);
}

}  // namespace

FamilyBenchmark reduce_benchmark() {
  return {"reduce", [](BenchContext& context) {
            const std::size_t n = context.quick            ? (std::size_t{1} << 22)
                                  : context.info->is_gpu() ? (std::size_t{1} << 28)
                                                           : (std::size_t{1} << 25);
            const std::vector<Input> inputs = make_inputs(context, n);
            bench_op(context, inputs, ReduceOp::Sum, "sum", n);
            bench_op(context, inputs, ReduceOp::Max, "max", n);
            bench_op(context, inputs, ReduceOp::ArgMax, "argmax", n);
            bench_half_sum(context, n);
          }};
}

std::vector<FirstCallOp> reduce_first_calls() {
  auto run = [](cl::CommandQueue& queue, bool clblast) {
    const std::size_t n = std::size_t{1} << 20;
    cl::Context context = queue.getInfo<CL_QUEUE_CONTEXT>();
    std::vector<float> values(n, 0.5f);
    cl::Buffer x(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, n * sizeof(float), values.data());
    cl::Buffer result(context, CL_MEM_READ_WRITE, 64);
    if (!clblast) {
      reduce<float>(queue, ReduceOp::Sum, n, x, 0, result, 0).wait();
      return;
    }
#ifdef TILECL_HAVE_CLBLAST
    cl_command_queue raw = queue();
    cl_event event = nullptr;
    if (CLBlastSsum(n, result(), 0, x(), 0, 1, &raw, &event) != CLBlastSuccess)
      throw std::runtime_error("CLBlastSsum failed");
    clWaitForEvents(1, &event);
    clReleaseEvent(event);
#endif
  };
  std::vector<FirstCallOp> ops{{"reduce_sum", true, [run](cl::CommandQueue& q) { run(q, false); }}};
#ifdef TILECL_HAVE_CLBLAST
  ops.push_back({"clblast-ssum", false, [run](cl::CommandQueue& q) { run(q, true); }});
#endif
  return ops;
}

}  // namespace tilecl::bench
