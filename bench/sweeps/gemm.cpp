// GEMM at random shapes: m, n, k log-uniform in [1, 6000] on GPUs ([1, 1500] on CPUs, where the peers run at a
// few GFLOP/s), random transposes and layout, leading dimensions padded by 1..16 in half the shapes. Peers:
// CLBlast (same layout and arguments). On CPUs OpenBLAS's cblas_?gemm on host memory is timed too, as a reference
// (the CPU's practical ceiling, with no OpenCL launch cost), reported beside the ratio to CLBlast.
#include <CL/opencl.hpp>

#ifdef TILECL_HAVE_CLBLAST
#include <clblast_c.h>
#endif
#ifdef TILECL_HAVE_OPENBLAS
#include <cblas.h>
#endif

#include <chrono>

#include "sweeps/common.hpp"
#include "tilecl/gemm.hpp"
#include "tilecl/tuning.hpp"

namespace tilecl::bench::sweeps {
namespace {

#ifdef TILECL_HAVE_CLBLAST
template <typename T>
void clblast_gemm(cl::CommandQueue& queue, const GemmShape& s, const cl::Buffer& a, const cl::Buffer& b,
                  cl::Buffer& c) {
  const auto layout = s.layout == Layout::RowMajor ? CLBlastLayoutRowMajor : CLBlastLayoutColMajor;
  const auto trans = [](Transpose t) { return t == Transpose::Yes ? CLBlastTransposeYes : CLBlastTransposeNo; };
  cl_command_queue raw = queue();
  cl_event event = nullptr;
  CLBlastStatusCode status;
  if constexpr (std::is_same_v<T, float>)
    status = CLBlastSgemm(layout, trans(s.trans_a), trans(s.trans_b), s.m, s.n, s.k, 1.0f, a(), 0, s.lda, b(), 0, s.ldb,
                          0.5f, c(), 0, s.ldc, &raw, &event);
  else
    status = CLBlastDgemm(layout, trans(s.trans_a), trans(s.trans_b), s.m, s.n, s.k, 1.0, a(), 0, s.lda, b(), 0, s.ldb,
                          0.5, c(), 0, s.ldc, &raw, &event);
  if (status != CLBlastSuccess) throw std::runtime_error("CLBlast gemm: status " + std::to_string(status));
  if (event != nullptr) clReleaseEvent(event);
}
#endif

#ifdef TILECL_HAVE_OPENBLAS
template <typename T>
double openblas_ms(const GemmShape& s) {
  std::vector<T> a(GemmShape::extent(s.layout, s.a_rows(), s.a_cols(), s.lda), T(0.5));
  std::vector<T> b(GemmShape::extent(s.layout, s.b_rows(), s.b_cols(), s.ldb), T(0.25));
  std::vector<T> c(GemmShape::extent(s.layout, s.m, s.n, s.ldc), T(1));
  const auto layout = s.layout == Layout::RowMajor ? CblasRowMajor : CblasColMajor;
  const auto trans = [](Transpose t) { return t == Transpose::Yes ? CblasTrans : CblasNoTrans; };
  return median_host_ms(nullptr, [&] {
    if constexpr (std::is_same_v<T, float>)
      cblas_sgemm(layout, trans(s.trans_a), trans(s.trans_b), s.m, s.n, s.k, 1.0f, a.data(), s.lda, b.data(), s.ldb,
                  0.5f, c.data(), s.ldc);
    else
      cblas_dgemm(layout, trans(s.trans_a), trans(s.trans_b), s.m, s.n, s.k, 1.0, a.data(), s.lda, b.data(), s.ldb, 0.5,
                  c.data(), s.ldc);
  });
}
#endif

template <typename T>
SweepPoint measure(BenchContext& context, const GemmShape& s) {
  SweepPoint point;
  point.family = "gemm";
  point.op = "gemm";
  point.dtype = type_name<T>();
  point.shape = s.text();
  point.flops = 2.0 * static_cast<double>(s.m) * static_cast<double>(s.n) * static_cast<double>(s.k);
  return measured(point, [&](SweepPoint& p) {
    cl::Buffer a = filled_buffer<T>(context, GemmShape::extent(s.layout, s.a_rows(), s.a_cols(), s.lda));
    cl::Buffer b = filled_buffer<T>(context, GemmShape::extent(s.layout, s.b_rows(), s.b_cols(), s.ldb));
    cl::Buffer c = filled_buffer<T>(context, GemmShape::extent(s.layout, s.m, s.n, s.ldc));
    auto& queue = context.queue;
    std::function<void()> peer;
#ifdef TILECL_HAVE_CLBLAST
    p.peer = "CLBlast";
    peer = [&] { clblast_gemm<T>(queue, s, a, b, c); };
#endif
    const auto ours = [&] {
      gemm<T>(queue, s.layout, s.trans_a, s.trans_b, s.m, s.n, s.k, T(1), a, 0, s.lda, b, 0, s.ldb, T(0.5), c, 0,
              s.ldc);
    };
    time_beside_peer(queue, p, ours, peer);
    const auto choice = tuning::parameters_for(queue, "gemm", p.dtype, s.tuning_shape());
    p.ours_parameters = choice.parameters.to_string() + " (" + tuning::origin_name(choice.origin) + ")";
#ifdef TILECL_HAVE_OPENBLAS
    if (context.info->is_cpu()) {
      p.reference = "OpenBLAS";
      p.reference_ms = openblas_ms<T>(s);
    }
#endif
  });
}

template <typename T>
SweepOp gemm_op(const DeviceInfo& device, int count) {
  const std::uint64_t largest = device.is_cpu() ? 1500 : 6000;
  return {"gemm", "gemm", type_name<T>(), count, [largest](BenchContext& context, std::mt19937_64& random) {
            return measure<T>(context, draw_gemm_shape(random, largest));
          }};
}

}  // namespace

std::vector<SweepOp> gemm_sweep_ops(const DeviceInfo& device) {
  std::vector<SweepOp> ops{gemm_op<float>(device, 40)};
  if (device.fp64) ops.push_back(gemm_op<double>(device, 12));
  return ops;
}

}  // namespace tilecl::bench::sweeps
