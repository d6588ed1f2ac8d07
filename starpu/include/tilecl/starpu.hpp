// tilecl in StarPU task graphs (optional component: CMake option TILECL_WITH_STARPU, on when StarPU 1.3 is
// found). tilecl's ops as StarPU codelets with OpenCL implementations, run on each OpenCL worker's own queue:
// each worker's device compiles through tilecl's program cache and is tuned on its own (fingerprint, database)
// as any queue is. Plus a tiled GEMM and a tiled image pipeline written as task graphs.
//
// Data are StarPU matrices in row-major order: nx = elements per row (columns), ny = rows, ld = elements
// between row starts; a tile is a sub-matrix of a partitioned matrix (starpu_data_map_filters with
// starpu_matrix_filter_vertical_block for rows, starpu_matrix_filter_block for columns).
//
// Errors: a codelet cannot throw through StarPU; it records the first failure, and the task graphs below raise it
// as tilecl::Error once their tasks are done. Programs that submit the codelets themselves call
// tilecl::starpu::rethrow_failure() after starpu_task_wait_for_all().
#pragma once

#include <starpu.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "tilecl/types.hpp"

namespace tilecl::starpu {

// cl_arg of gemm_codelet<T>() tasks (one STARPU_VALUE of this type).
template <typename T>
struct GemmArguments {
  Transpose trans_a = Transpose::No;
  Transpose trans_b = Transpose::No;
  T alpha = T(1);
  T beta = T(0);
};

// C = alpha * op(A) * op(B) + beta * C (tilecl::gemm). Buffers: A (STARPU_R), B (STARPU_R), C (STARPU_RW).
// m and n are C's ny and nx, k is op(A)'s columns. T: float or double.
template <typename T>
starpu_codelet& gemm_codelet();

// tilecl::rgb_to_gray with the default weights. Buffers: RGB (STARPU_R, uint8, nx = 3 * width) and gray
// (STARPU_W, uint8, nx = width), the same ny. No cl_arg.
starpu_codelet& rgb_to_gray_codelet();

// cl_arg of gaussian_band_codelet<T>() tasks: where the band and its neighbours lie in the image.
struct BandArguments {
  std::size_t image_height = 0;  // rows of the whole image
  std::size_t band_start = 0;    // first row of the band (buffer 1)
  std::size_t above_start = 0;   // first row of buffer 0 (the band above, or the last band when Wrap folds)
  std::size_t below_start = 0;   // first row of buffer 2
  std::size_t channels = 1;
  double sigma = 1.0;
  std::size_t radius = 1;
  Border border = Border::Clamp;
};

// tilecl::gaussian_blur of one band of rows of an image, reading the halo rows (as the border rule gives them)
// from the bands above and below. Buffers: above (STARPU_R), band (STARPU_R), below (STARPU_R), out (STARPU_W, the
// band's rows); nx = width * channels elements of T (std::uint8_t or float). The same handle may be given for
// several of the three. The result equals the whole image's call on the band's rows (docs: multi_device.hpp,
// "Results"); a halo row outside the three buffers fails the task (band_rows_reachable() says beforehand).
template <typename T>
starpu_codelet& gaussian_band_codelet();

// Whether every halo row of every band of `bands` consecutive bands (sizes as StarPU's vertical_block filter
// cuts them) lies in the band or its neighbours (above/below, folded at the image's edges by Wrap).
bool band_rows_reachable(std::size_t height, std::size_t bands, std::size_t radius, Border border);

// Raises the first failure a codelet recorded since the last call, as tilecl::Error, and forgets it.
void rethrow_failure();

// How many tilecl codelet tasks each StarPU worker (by worker id) has run in this process.
std::vector<std::size_t> tasks_per_worker();

// Task graph: C = alpha * op(A) * op(B) + beta * C on row-major host matrices, in tiles of at most tile x tile
// (C, and the matching tiles of A and B along k): one gemm task per (i, j, p), the k steps of one C tile in order
// (beta for the first, 1 after), scheduled by StarPU over its workers. Registers, partitions and unregisters the
// matrices (C is back in host memory on return). StarPU must be initialised with OpenCL workers.
template <typename T>
void tiled_gemm(Transpose trans_a, Transpose trans_b, std::size_t m, std::size_t n, std::size_t k, T alpha, const T* a,
                std::size_t lda, const T* b, std::size_t ldb, T beta, T* c, std::size_t ldc, std::size_t tile);

// Task graph: each of `frames` interleaved RGB frames (width x height, rows of 3 * width bytes, frames packed) to
// gray (rgb_to_gray), then a Gaussian blur (sigma, radius, border) of the gray image, in `bands` bands of rows per
// frame (fewer when the halo of a band would reach past its neighbours): frames * bands gray tasks and as many
// blur tasks, each blur depending on the gray tasks of its band and its neighbours. out: frames packed gray
// images of width x height bytes.
void gray_gaussian_pipeline(std::size_t width, std::size_t height, std::size_t frames, const std::uint8_t* rgb,
                            std::uint8_t* out, double sigma, std::size_t radius, Border border, std::size_t bands);

}  // namespace tilecl::starpu
