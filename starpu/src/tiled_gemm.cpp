// The tiled GEMM task graph: A, B and C registered and partitioned into tiles, one gemm task per (i, j, p).
#include <string>

#include "partitioned_matrix.hpp"
#include "tilecl/error.hpp"
#include "tilecl/starpu.hpp"

namespace tilecl::starpu {

namespace {

constexpr const char* kOp = "starpu tiled_gemm";

std::size_t parts(std::size_t size, std::size_t tile) { return (size + tile - 1) / tile; }

void check_ld(const char* argument, std::size_t ld, std::size_t cols) {
  if (ld < cols || ld == 0)
    throw Error(kOp, argument, CL_INVALID_VALUE, std::to_string(ld) + " is below a row of " + std::to_string(cols));
}

// k == 0 (or alpha == 0): C = beta * C, nothing to multiply; done on the host.
template <typename T>
void scale(std::size_t m, std::size_t n, T beta, T* c, std::size_t ldc) {
  for (std::size_t i = 0; i < m; ++i)
    for (std::size_t j = 0; j < n; ++j) c[i * ldc + j] = beta == T(0) ? T(0) : beta * c[i * ldc + j];
}

}  // namespace

template <typename T>
void tiled_gemm(Transpose trans_a, Transpose trans_b, std::size_t m, std::size_t n, std::size_t k, T alpha, const T* a,
                std::size_t lda, const T* b, std::size_t ldb, T beta, T* c, std::size_t ldc, std::size_t tile) {
  if (tile == 0) throw Error(kOp, "tile", CL_INVALID_VALUE, "the tile size is 0");
  const bool ta = trans_a == Transpose::Yes, tb = trans_b == Transpose::Yes;
  check_ld("lda", lda, ta ? m : k);
  check_ld("ldb", ldb, tb ? k : n);
  check_ld("ldc", ldc, n);
  if (m == 0 || n == 0) return;
  if (c == nullptr) throw Error(kOp, "c", CL_INVALID_VALUE, "the host pointer is null");
  if (k == 0 || alpha == T(0)) return scale(m, n, beta, c, ldc);
  if (a == nullptr || b == nullptr) throw Error(kOp, a ? "b" : "a", CL_INVALID_VALUE, "the host pointer is null");
  const std::size_t mt = parts(m, tile), nt = parts(n, tile), kt = parts(k, tile);
  {
    const detail::PartitionedMatrix tiles_a(a, ta ? k : m, ta ? m : k, lda, sizeof(T), ta ? kt : mt, ta ? mt : kt);
    const detail::PartitionedMatrix tiles_b(b, tb ? n : k, tb ? k : n, ldb, sizeof(T), tb ? nt : kt, tb ? kt : nt);
    const detail::PartitionedMatrix tiles_c(c, m, n, ldc, sizeof(T), mt, nt);
    for (std::size_t i = 0; i < mt; ++i)
      for (std::size_t j = 0; j < nt; ++j)
        for (std::size_t p = 0; p < kt; ++p) {
          GemmArguments<T> args{trans_a, trans_b, alpha, p == 0 ? beta : T(1)};
          const int status =
              starpu_task_insert(&gemm_codelet<T>(), STARPU_R, ta ? tiles_a.tile(p, i) : tiles_a.tile(i, p), STARPU_R,
                                 tb ? tiles_b.tile(j, p) : tiles_b.tile(p, j), STARPU_RW, tiles_c.tile(i, j),
                                 STARPU_VALUE, &args, sizeof(args), 0);
          if (status != 0)
            throw Error(kOp, "task", CL_INVALID_OPERATION,
                        "starpu_task_insert failed (" + std::to_string(status) + ")");
        }
    starpu_task_wait_for_all();
  }
  rethrow_failure();
}

template void tiled_gemm<float>(Transpose, Transpose, std::size_t, std::size_t, std::size_t, float, const float*,
                                std::size_t, const float*, std::size_t, float, float*, std::size_t, std::size_t);
template void tiled_gemm<double>(Transpose, Transpose, std::size_t, std::size_t, std::size_t, double, const double*,
                                 std::size_t, const double*, std::size_t, double, double*, std::size_t, std::size_t);

}  // namespace tilecl::starpu
