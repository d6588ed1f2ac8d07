// Vector ops at random lengths, log-uniform in [1, 2^28] on GPUs ([1, 2^25] on CPUs): axpy beside CLBlast's
// axpy, the sum beside CLBlast's sum; both beside a copy of the bytes they must move.
#include <CL/opencl.hpp>

#ifdef TILECL_HAVE_CLBLAST
#include <clblast_c.h>
#endif

#include "sweeps/common.hpp"
#include "tilecl/elementwise.hpp"
#include "tilecl/reduce.hpp"

namespace tilecl::bench::sweeps {
namespace {

std::uint64_t largest_length(const DeviceInfo& device) { return device.is_cpu() ? (1u << 25) : (1u << 28); }

SweepPoint axpy_point(BenchContext& context, std::uint64_t n) {
  SweepPoint point{"elementwise", "axpy", "float", "n=" + std::to_string(n)};
  point.bytes = 3.0 * static_cast<double>(n) * sizeof(float);
  return measured(point, [&](SweepPoint& p) {
    cl::Buffer x = filled_buffer<float>(context, n), y = filled_buffer<float>(context, n);
    auto& queue = context.queue;
    std::function<void()> peer;
#ifdef TILECL_HAVE_CLBLAST
    p.peer = "CLBlast";
    peer = [&] {
      cl_command_queue raw = queue();
      cl_event event = nullptr;
      if (CLBlastSaxpy(n, 0.5f, x(), 0, 1, y(), 0, 1, &raw, &event) != CLBlastSuccess)
        throw std::runtime_error("CLBlastSaxpy failed");
      if (event != nullptr) clReleaseEvent(event);
    };
#endif
    time_beside_peer(
        queue, p, [&] { axpy<float>(queue, n, 0.5f, x, 0, y, 0); }, peer);
    p.copy_ms = copy_ms(context, static_cast<std::uint64_t>(p.bytes));
  });
}

SweepPoint sum_point(BenchContext& context, std::uint64_t n) {
  SweepPoint point{"reduce", "sum", "float", "n=" + std::to_string(n)};
  point.bytes = static_cast<double>(n) * sizeof(float);
  return measured(point, [&](SweepPoint& p) {
    cl::Buffer x = filled_buffer<float>(context, n), result = filled_buffer<float>(context, 1);
    auto& queue = context.queue;
    std::function<void()> peer;
#ifdef TILECL_HAVE_CLBLAST
    p.peer = "CLBlast";
    peer = [&] {
      cl_command_queue raw = queue();
      cl_event event = nullptr;
      if (CLBlastSsum(n, result(), 0, x(), 0, 1, &raw, &event) != CLBlastSuccess)
        throw std::runtime_error("CLBlastSsum failed");
      if (event != nullptr) clReleaseEvent(event);
    };
#endif
    time_beside_peer(
        queue, p, [&] { reduce<float>(queue, ReduceOp::Sum, n, x, 0, result, 0); }, peer);
    p.copy_ms = copy_ms(context, static_cast<std::uint64_t>(p.bytes));
  });
}

}  // namespace

std::vector<SweepOp> vector_sweep_ops(const DeviceInfo& device) {
  const std::uint64_t largest = largest_length(device);
  return {{"elementwise", "axpy", "float", 20,
           [largest](BenchContext& c, std::mt19937_64& r) { return axpy_point(c, draw_vector_length(r, largest)); }},
          {"reduce", "sum", "float", 20,
           [largest](BenchContext& c, std::mt19937_64& r) { return sum_point(c, draw_vector_length(r, largest)); }}};
}

}  // namespace tilecl::bench::sweeps
