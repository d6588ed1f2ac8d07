// Elementwise: axpy and vector_add beside CLBlast's axpy and Boost.Compute's transform, against the copy limit.
#include <CL/opencl.hpp>

#ifdef TILECL_HAVE_CLBLAST
#include <clblast_c.h>
#endif
#ifdef TILECL_HAVE_BOOST_COMPUTE
#include <boost/compute/algorithm/transform.hpp>
#include <boost/compute/container/vector.hpp>
#include <boost/compute/functional.hpp>
#include <boost/compute/iterator/buffer_iterator.hpp>
#include <boost/compute/lambda.hpp>
#endif

#include <functional>

#include "cases/cases.hpp"
#include "ops/elementwise.hpp"
#include "tilecl/elementwise.hpp"
#include "tilecl/tuning.hpp"

namespace tilecl::bench {
namespace {

struct Vectors {
  std::vector<cl::Buffer> x, y, z;  // rotated sets
};

Vectors make_vectors(BenchContext& context, std::size_t n) {
  const std::size_t sets = context.rotation_sets(3 * n * sizeof(float));
  Vectors vectors;
  std::vector<float> values(n);
  std::uniform_real_distribution<float> distribution(-1.0f, 1.0f);
  for (std::size_t s = 0; s < sets; ++s) {
    for (auto* list : {&vectors.x, &vectors.y, &vectors.z}) {
      for (auto& value : values) value = distribution(context.random);
      list->emplace_back(context.context, CL_MEM_READ_WRITE, n * sizeof(float));
      context.queue.enqueueWriteBuffer(list->back(), CL_TRUE, 0, n * sizeof(float), values.data());
    }
  }
  return vectors;
}

Row base_row(const std::string& op, std::size_t n, double bytes) {
  Row row;
  row.family = "elementwise";
  row.op = op;
  row.shape = "n=" + std::to_string(n);
  row.dtype = "float";
  row.work = bytes;
  row.unit = Unit::BytesPerSecond;
  return row;
}

void bench_axpy(BenchContext& context, std::size_t n) {
  Vectors v = make_vectors(context, n);
  const std::size_t sets = v.x.size();
  const double bytes = 3.0 * static_cast<double>(n) * sizeof(float);
  const float alpha = 0.5f;

  Row ours = base_row("axpy", n, bytes);
  ours.implementation = "tilecl";
  const auto choice = tuning::parameters_for(context.queue, "axpy", "float", std::to_string(n));
  ours.parameters = choice.parameters.to_string() + " (" + tuning::origin_name(choice.origin) + ")";
  ours.timing = time_with_events(
      [&](int i) {
        return std::vector<cl::Event>{axpy<float>(context.queue, n, alpha, v.x[i % sets], 0, v.y[i % sets], 0)};
      },
      context.measure);
  context.add(ours);

  Row naive = base_row("axpy", n, bytes);
  naive.implementation = "tilecl naive";
  naive.kind = Row::Kind::OursBaseline;
  const detail::Config naive_config{"naive", {{"WG_X", context.info->is_gpu() ? 256 : 0}}};
  naive.parameters = naive_config.to_string();
  naive.timing = time_with_events(
      [&](int i) {
        return std::vector<cl::Event>{
            detail::axpy_with<float>(naive_config, context.queue, n, alpha, v.x[i % sets], 0, v.y[i % sets], 0)};
      },
      context.measure);
  context.add(naive);

#ifdef TILECL_HAVE_CLBLAST
  Row clblast = base_row("axpy", n, bytes);
  clblast.implementation = "CLBlast";
  clblast.kind = Row::Kind::Peer;
  clblast.timing = time_with_events(
      [&](int i) {
        cl_event event = nullptr;
        cl_command_queue queue = context.queue();
        const auto status = CLBlastSaxpy(n, alpha, v.x[i % sets](), 0, 1, v.y[i % sets](), 0, 1, &queue, &event);
        if (status != CLBlastSuccess) throw std::runtime_error("CLBlastSaxpy failed: " + std::to_string(status));
        return std::vector<cl::Event>{cl::Event(event)};
      },
      context.measure);
  context.add(clblast);
#endif

#ifdef TILECL_HAVE_BOOST_COMPUTE
  Row boost = base_row("axpy", n, bytes);
  boost.implementation = "Boost.Compute";
  boost.kind = Row::Kind::Peer;
  boost.note = "host-timed";
  boost::compute::command_queue queue(context.queue());
  using boost::compute::lambda::_1;
  using boost::compute::lambda::_2;
  boost.timing = time_with_host_clock(
      &context.queue,
      [&](int i) {
        auto x = boost::compute::make_buffer_iterator<float>(boost::compute::buffer(v.x[i % sets]()), 0);
        auto y = boost::compute::make_buffer_iterator<float>(boost::compute::buffer(v.y[i % sets]()), 0);
        boost::compute::transform(x, x + static_cast<std::ptrdiff_t>(n), y, y, alpha * _1 + _2, queue);
      },
      context.measure);
  context.add(boost);
#endif
}

void bench_vector_add(BenchContext& context, std::size_t n) {
  Vectors v = make_vectors(context, n);
  const std::size_t sets = v.x.size();
  const double bytes = 3.0 * static_cast<double>(n) * sizeof(float);

  Row ours = base_row("vector_add", n, bytes);
  ours.implementation = "tilecl";
  const auto choice = tuning::parameters_for(context.queue, "vector_add", "float", std::to_string(n));
  ours.parameters = choice.parameters.to_string() + " (" + tuning::origin_name(choice.origin) + ")";
  ours.timing = time_with_events(
      [&](int i) {
        return std::vector<cl::Event>{
            vector_add<float>(context.queue, n, v.x[i % sets], 0, v.y[i % sets], 0, v.z[i % sets], 0)};
      },
      context.measure);
  context.add(ours);

#ifdef TILECL_HAVE_BOOST_COMPUTE
  Row boost = base_row("vector_add", n, bytes);
  boost.implementation = "Boost.Compute";
  boost.kind = Row::Kind::Peer;
  boost.note = "host-timed";
  boost::compute::command_queue queue(context.queue());
  boost.timing = time_with_host_clock(
      &context.queue,
      [&](int i) {
        auto a = boost::compute::make_buffer_iterator<float>(boost::compute::buffer(v.x[i % sets]()), 0);
        auto b = boost::compute::make_buffer_iterator<float>(boost::compute::buffer(v.y[i % sets]()), 0);
        auto c = boost::compute::make_buffer_iterator<float>(boost::compute::buffer(v.z[i % sets]()), 0);
        boost::compute::transform(a, a + static_cast<std::ptrdiff_t>(n), b, c, boost::compute::plus<float>(), queue);
      },
      context.measure);
  context.add(boost);
#endif
}

// Half storage (16-bit elements, computed in float): axpy and vector_add at the same element count, rates counting
// 2-byte elements (the report sets them beside the copy of about as many bytes).
void bench_half(BenchContext& context, std::size_t n) {
  const std::size_t sets = context.rotation_sets(3 * n * sizeof(half));
  std::vector<cl::Buffer> x, y, z;
  std::vector<half> values(n);
  std::uniform_real_distribution<float> distribution(-1.0f, 1.0f);
  for (std::size_t s = 0; s < sets; ++s) {
    for (auto* list : {&x, &y, &z}) {
      for (auto& value : values) value = half(distribution(context.random));
      list->emplace_back(context.context, CL_MEM_READ_WRITE, n * sizeof(half));
      context.queue.enqueueWriteBuffer(list->back(), CL_TRUE, 0, n * sizeof(half), values.data());
    }
  }
  const double bytes = 3.0 * static_cast<double>(n) * sizeof(half);
  auto add_row = [&](const std::string& op, const std::function<cl::Event(int)>& call) {
    Row row = base_row(op, n, bytes);
    row.dtype = "half";
    row.implementation = "tilecl";
    const auto choice = tuning::parameters_for(context.queue, op, "half", std::to_string(n));
    row.parameters = choice.parameters.to_string() + " (" + tuning::origin_name(choice.origin) + ")";
    row.timing = time_with_events([&](int i) { return std::vector<cl::Event>{call(i)}; }, context.measure);
    context.add(row);
  };
  add_row("axpy", [&](int i) { return axpy<half>(context.queue, n, 0.5f, x[i % sets], 0, y[i % sets], 0); });
  add_row("vector_add",
          [&](int i) { return vector_add<half>(context.queue, n, x[i % sets], 0, y[i % sets], 0, z[i % sets], 0); });
}

}  // namespace

FamilyBenchmark elementwise_benchmark() {
  return {"elementwise", [](BenchContext& context) {
            const std::size_t n = context.quick            ? (std::size_t{1} << 22)
                                  : context.info->is_gpu() ? (std::size_t{1} << 26)
                                                           : (std::size_t{1} << 24);
            bench_axpy(context, n);
            bench_vector_add(context, n);
            bench_half(context, n);
          }};
}

std::vector<FirstCallOp> elementwise_first_calls() {
  auto run_axpy = [](cl::CommandQueue& queue, bool clblast) {
    const std::size_t n = std::size_t{1} << 20;
    cl::Context context = queue.getInfo<CL_QUEUE_CONTEXT>();
    std::vector<float> values(n, 1.5f);
    cl::Buffer x(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, n * sizeof(float), values.data());
    cl::Buffer y(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, n * sizeof(float), values.data());
    if (!clblast) {
      axpy<float>(queue, n, 2.0f, x, 0, y, 0).wait();
      return;
    }
#ifdef TILECL_HAVE_CLBLAST
    cl_command_queue raw = queue();
    cl_event event = nullptr;
    if (CLBlastSaxpy(n, 2.0f, x(), 0, 1, y(), 0, 1, &raw, &event) != CLBlastSuccess)
      throw std::runtime_error("CLBlastSaxpy failed");
    clWaitForEvents(1, &event);
    clReleaseEvent(event);
#endif
  };
  std::vector<FirstCallOp> ops{{"axpy", true, [run_axpy](cl::CommandQueue& q) { run_axpy(q, false); }}};
#ifdef TILECL_HAVE_CLBLAST
  ops.push_back({"clblast-saxpy", false, [run_axpy](cl::CommandQueue& q) { run_axpy(q, true); }});
#endif
  return ops;
}

}  // namespace tilecl::bench
