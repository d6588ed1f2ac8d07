// The gemm and rgb_to_gray codelets: the task's matrices as tilecl operands on the worker's queue.
#include <cstdint>

#include "tilecl/color.hpp"
#include "tilecl/gemm.hpp"
#include "tilecl/starpu.hpp"
#include "worker_data.hpp"

namespace tilecl::starpu {

namespace {

template <typename T>
void gemm_opencl(void* buffers[], void* cl_arg) {
  detail::guarded("starpu gemm", [&] {
    GemmArguments<T> args;
    starpu_codelet_unpack_args(cl_arg, &args);
    const auto a = detail::device_matrix(buffers[0]), b = detail::device_matrix(buffers[1]);
    auto c = detail::device_matrix(buffers[2]);
    const std::size_t k = args.trans_a == Transpose::No ? a.nx : a.ny;
    cl::CommandQueue queue = detail::worker_queue();
    gemm<T>(queue, Layout::RowMajor, args.trans_a, args.trans_b, c.ny, c.nx, k, args.alpha, a.buffer,
            a.offset_elements(), a.ld, b.buffer, b.offset_elements(), b.ld, args.beta, c.buffer, c.offset_elements(),
            c.ld)
        .wait();
  });
}

void rgb_to_gray_opencl(void* buffers[], void* /*cl_arg: none*/) {
  detail::guarded("starpu rgb_to_gray", [&] {
    const auto rgb = detail::device_matrix(buffers[0]);
    auto gray = detail::device_matrix(buffers[1]);
    cl::CommandQueue queue = detail::worker_queue();
    rgb_to_gray<std::uint8_t>(queue, gray.nx, gray.ny, rgb.buffer, rgb.offset_elements(), rgb.ld, gray.buffer,
                              gray.offset_elements(), gray.ld)
        .wait();
  });
}

}  // namespace

template <typename T>
starpu_codelet& gemm_codelet() {
  static starpu_codelet codelet = detail::make_codelet(sizeof(T) == 4 ? "tilecl_sgemm" : "tilecl_dgemm", gemm_opencl<T>,
                                                       {STARPU_R, STARPU_R, STARPU_RW});
  return codelet;
}

starpu_codelet& rgb_to_gray_codelet() {
  static starpu_codelet codelet = detail::make_codelet("tilecl_rgb_to_gray", rgb_to_gray_opencl, {STARPU_R, STARPU_W});
  return codelet;
}

template starpu_codelet& gemm_codelet<float>();
template starpu_codelet& gemm_codelet<double>();

}  // namespace tilecl::starpu
