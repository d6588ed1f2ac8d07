// Host overhead of one call on a tiny problem, beside CLBlast's: what a warm call costs the host before the
// device does any work. Two figures per op: enqueue only (2000 calls back to back, then one finish, per call)
// and enqueue + finish (the median of single calls).
#include <CL/opencl.hpp>

#ifdef TILECL_HAVE_CLBLAST
#include <clblast_c.h>
#endif

#include <chrono>

#include "sweeps/common.hpp"
#include "tilecl/elementwise.hpp"
#include "tilecl/gemm.hpp"
#include "tilecl/transpose.hpp"

namespace tilecl::bench::sweeps {
namespace {

constexpr int kCalls = 2000;

// Microseconds per call of `run` when `calls` are enqueued back to back (one finish at the end).
double enqueue_only_us(cl::CommandQueue& queue, const std::function<void()>& run, int calls) {
  run();
  queue.finish();
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < calls; ++i) run();
  queue.finish();
  return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count() / calls;
}

SweepPoint overhead_point(BenchContext& context, const std::string& op, const std::function<void()>& ours,
                          const std::function<void()>& peer) {
  SweepPoint point{"overhead", op, "float", "enqueue+finish"};
  point.peer = peer ? "CLBlast" : "";
  auto& queue = context.queue;
  return measured(point, [&](SweepPoint& p) { time_beside_peer(queue, p, ours, peer, 200); });
}

#ifdef TILECL_HAVE_CLBLAST
template <typename Call>
std::function<void()> clblast_call(Call call) {
  return [call]() mutable {
    cl_event event = nullptr;
    if (call(&event) != CLBlastSuccess) throw std::runtime_error("CLBlast call failed");
    if (event != nullptr) clReleaseEvent(event);
  };
}
#endif

}  // namespace

std::vector<SweepPoint> measure_overheads(BenchContext& context) {
  auto& queue = context.queue;
  cl::Buffer x = filled_buffer<float>(context, 64), y = filled_buffer<float>(context, 64);
  cl::Buffer c = filled_buffer<float>(context, 64);
  std::vector<SweepPoint> points;
  struct Case {
    std::string name;
    std::function<void()> ours, peer;
  };
  std::vector<Case> cases{{"axpy n=16", [&] { axpy<float>(queue, 16, 0.5f, x, 0, y, 0); }, nullptr},
                          {"transpose 4x4", [&] { transpose<float>(queue, 4, 4, x, 0, 4, y, 0, 4); }, nullptr},
                          {"gemm 4x4x4",
                           [&] {
                             gemm<float>(queue, Layout::RowMajor, Transpose::No, Transpose::No, 4, 4, 4, 1.f, x, 0, 4,
                                         y, 0, 4, 0.5f, c, 0, 4);
                           },
                           nullptr}};
#ifdef TILECL_HAVE_CLBLAST
  cl_command_queue raw = queue();
  cases[0].peer =
      clblast_call([&, raw](cl_event* e) mutable { return CLBlastSaxpy(16, 0.5f, x(), 0, 1, y(), 0, 1, &raw, e); });
  cases[1].peer = clblast_call([&, raw](cl_event* e) mutable {
    return CLBlastSomatcopy(CLBlastLayoutRowMajor, CLBlastTransposeYes, 4, 4, 1.f, x(), 0, 4, y(), 0, 4, &raw, e);
  });
  cases[2].peer = clblast_call([&, raw](cl_event* e) mutable {
    return CLBlastSgemm(CLBlastLayoutRowMajor, CLBlastTransposeNo, CLBlastTransposeNo, 4, 4, 4, 1.f, x(), 0, 4, y(), 0,
                        4, 0.5f, c(), 0, 4, &raw, e);
  });
#endif
  for (const auto& test : cases) {
    points.push_back(overhead_point(context, test.name, test.ours, test.peer));
    SweepPoint enqueue{"overhead", test.name, "float", "enqueue only"};
    enqueue.peer = points.back().peer;
    points.push_back(measured(enqueue, [&](SweepPoint& p) {
      p.ours_ms = enqueue_only_us(queue, test.ours, kCalls) * 1e-3;
      if (test.peer) p.peer_ms = enqueue_only_us(queue, test.peer, kCalls) * 1e-3;
    }));
  }
  return points;
}

}  // namespace tilecl::bench::sweeps
