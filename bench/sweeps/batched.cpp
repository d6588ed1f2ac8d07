// Strided-batched SGEMM at random shapes (bench/sweeps/shapes.hpp, draw_batched_shape): sides log-uniform in
// [1, 128] ([1, 64] on CPUs), random transposes, layout, padded leading dimensions and gaps between matrices,
// batches within 2^26 operand elements (2^22 on CPUs). Peer: CLBlast's SgemmStridedBatched with the same
// arguments; beside a copy of the bytes the call must move (A and B read, C read and written).
#include <CL/opencl.hpp>

#ifdef TILECL_HAVE_CLBLAST
#include <clblast_c.h>
#endif

#include "sweeps/common.hpp"
#include "tilecl/gemm_batched.hpp"
#include "tilecl/tuning.hpp"

namespace tilecl::bench::sweeps {
namespace {

SweepPoint batched_point(BenchContext& context, const BatchedShape& s) {
  SweepPoint point{"blas", "gemm_strided_batched", "float", s.text()};
  const GemmShape& g = s.gemm;
  const auto batch = static_cast<double>(s.batch);
  point.flops = 2.0 * batch * static_cast<double>(g.m) * static_cast<double>(g.n) * static_cast<double>(g.k);
  point.bytes = batch * static_cast<double>(g.m * g.k + g.k * g.n + 2 * g.m * g.n) * sizeof(float);
  return measured(point, [&](SweepPoint& p) {
    const auto elements = [&](std::uint64_t span, std::uint64_t stride) { return (s.batch - 1) * stride + span; };
    cl::Buffer a = filled_buffer<float>(context, elements(s.span_a(), s.stride_a()));
    cl::Buffer b = filled_buffer<float>(context, elements(s.span_b(), s.stride_b()));
    cl::Buffer c = filled_buffer<float>(context, elements(s.span_c(), s.stride_c()));
    auto& queue = context.queue;
    const auto ours = [&] {
      gemm_strided_batched<float>(queue, g.layout, g.trans_a, g.trans_b, g.m, g.n, g.k, 1.0f, a, 0, g.lda, s.stride_a(),
                                  b, 0, g.ldb, s.stride_b(), 0.5f, c, 0, g.ldc, s.stride_c(), s.batch);
    };
    std::function<void()> peer;
#ifdef TILECL_HAVE_CLBLAST
    p.peer = "CLBlast";
    peer = [&] {
      const auto trans = [](Transpose t) { return t == Transpose::Yes ? CLBlastTransposeYes : CLBlastTransposeNo; };
      cl_command_queue raw = queue();
      cl_event event = nullptr;
      if (CLBlastSgemmStridedBatched(g.layout == Layout::RowMajor ? CLBlastLayoutRowMajor : CLBlastLayoutColMajor,
                                     trans(g.trans_a), trans(g.trans_b), g.m, g.n, g.k, 1.0f, a(), 0, g.lda,
                                     s.stride_a(), b(), 0, g.ldb, s.stride_b(), 0.5f, c(), 0, g.ldc, s.stride_c(),
                                     s.batch, &raw, &event) != CLBlastSuccess)
        throw std::runtime_error("CLBlastSgemmStridedBatched failed");
      if (event != nullptr) clReleaseEvent(event);
    };
#endif
    time_beside_peer(queue, p, ours, peer);
    const std::string bucket_shape =
        std::to_string(s.batch) + "x" + std::to_string(g.m) + "x" + std::to_string(g.n) + "x" + std::to_string(g.k);
    const auto choice = tuning::parameters_for(queue, "gemm_strided_batched", "float", bucket_shape);
    p.ours_parameters = choice.parameters.to_string() + " (" + tuning::origin_name(choice.origin) + ")";
    p.copy_ms = copy_ms(context, static_cast<std::uint64_t>(p.bytes));
  });
}

}  // namespace

std::vector<SweepOp> batched_sweep_ops(const DeviceInfo& device) {
  const std::uint64_t side = device.is_cpu() ? 64 : 128;
  const std::uint64_t elements = device.is_cpu() ? (1u << 22) : (1u << 26);
  return {{"blas", "gemm_strided_batched", "float", 20, [side, elements](BenchContext& c, std::mt19937_64& r) {
             return batched_point(c, draw_batched_shape(r, side, elements));
           }}};
}

}  // namespace tilecl::bench::sweeps
