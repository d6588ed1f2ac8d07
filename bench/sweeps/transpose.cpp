// Transpose at random shapes: rows and cols log-uniform in [1, 20000] on GPUs ([1, 4000] on CPUs), leading
// dimensions packed in two shapes of three and padded by 1..16 otherwise; float, double and uint8. Peer:
// CLBlast's omatcopy (float and double; CLBlast has no 8-bit matrix copy, so uint8 rows show only their
// fraction of a copy of the same bytes).
#include <CL/opencl.hpp>

#ifdef TILECL_HAVE_CLBLAST
#include <clblast_c.h>
#endif

#include "sweeps/common.hpp"
#include "tilecl/transpose.hpp"
#include "tilecl/tuning.hpp"

namespace tilecl::bench::sweeps {
namespace {

#ifdef TILECL_HAVE_CLBLAST
template <typename T>
void clblast_omatcopy(cl::CommandQueue& queue, const TransposeShape& s, const cl::Buffer& in, cl::Buffer& out) {
  cl_command_queue raw = queue();
  cl_event event = nullptr;
  CLBlastStatusCode status;
  if constexpr (std::is_same_v<T, float>)
    status = CLBlastSomatcopy(CLBlastLayoutRowMajor, CLBlastTransposeYes, s.rows, s.cols, 1.0f, in(), 0, s.ld_in, out(),
                              0, s.ld_out, &raw, &event);
  else
    status = CLBlastDomatcopy(CLBlastLayoutRowMajor, CLBlastTransposeYes, s.rows, s.cols, 1.0, in(), 0, s.ld_in, out(),
                              0, s.ld_out, &raw, &event);
  if (status != CLBlastSuccess) throw std::runtime_error("CLBlast omatcopy: status " + std::to_string(status));
  if (event != nullptr) clReleaseEvent(event);
}
#endif

template <typename T>
SweepPoint measure(BenchContext& context, const TransposeShape& s) {
  SweepPoint point;
  point.family = "transpose";
  point.op = "transpose";
  point.dtype = type_name<T>();
  point.shape = s.text();
  point.bytes = 2.0 * static_cast<double>(s.rows) * static_cast<double>(s.cols) * sizeof(T);
  return measured(point, [&](SweepPoint& p) {
    cl::Buffer in = filled_buffer<T>(context, (s.rows - 1) * s.ld_in + s.cols);
    cl::Buffer out = filled_buffer<T>(context, (s.cols - 1) * s.ld_out + s.rows);
    auto& queue = context.queue;
    std::function<void()> peer;
#ifdef TILECL_HAVE_CLBLAST
    if constexpr (std::is_floating_point_v<T>) {
      p.peer = "CLBlast";
      peer = [&] { clblast_omatcopy<T>(queue, s, in, out); };
    }
#endif
    time_beside_peer(
        queue, p, [&] { transpose<T>(queue, s.rows, s.cols, in, 0, s.ld_in, out, 0, s.ld_out); }, peer);
    const auto choice =
        tuning::parameters_for(queue, "transpose", p.dtype, std::to_string(s.rows) + "x" + std::to_string(s.cols));
    p.ours_parameters = choice.parameters.to_string() + " (" + tuning::origin_name(choice.origin) + ")";
    p.copy_ms = copy_ms(context, static_cast<std::uint64_t>(p.bytes));
  });
}

template <typename T>
SweepOp transpose_op(const DeviceInfo& device, int count) {
  const std::uint64_t largest = device.is_cpu() ? 4000 : 20000;
  return {"transpose", "transpose", type_name<T>(), count, [largest](BenchContext& context, std::mt19937_64& random) {
            return measure<T>(context, draw_transpose_shape(random, largest));
          }};
}

}  // namespace

std::vector<SweepOp> transpose_sweep_ops(const DeviceInfo& device) {
  std::vector<SweepOp> ops{transpose_op<float>(device, 25), transpose_op<std::uint8_t>(device, 15)};
  if (device.fp64) ops.push_back(transpose_op<double>(device, 15));
  return ops;
}

}  // namespace tilecl::bench::sweeps
