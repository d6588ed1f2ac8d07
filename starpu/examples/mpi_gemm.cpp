// StarPU-MPI: a tiled SGEMM across MPI ranks, each rank's OpenCL workers running tilecl's gemm codelet.
//
//   mpirun -np 2 starpu_mpi_gemm [M N K TILE]     (defaults 512 512 512 128)
//
// C = A * B in tiles: rank (i + j) % ranks owns C tile (i, j), rank i % ranks owns A's row of tiles i, rank
// j % ranks B's column of tiles j. Every rank submits the same task sequence; StarPU-MPI runs each task on the
// owner of the C tile it writes and moves the A and B tiles it reads. Each rank fills its own tiles from a
// formula of the element's position (no rank needs the whole matrices) and checks its C tiles against a
// double-precision dot product; the ranks' counts are summed. Exit status 0 when every element is right.
#include <mpi.h>
#include <starpu.h>
#include <starpu_mpi.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "tilecl/starpu.hpp"

namespace {

// Element (row, col) of matrix `which`: a fixed pseudo-random value in [-1, 1).
float element(int which, std::size_t row, std::size_t col) {
  std::uint64_t x =
      (static_cast<std::uint64_t>(which) << 58) ^ (row * 0x9E3779B97F4A7C15ull) ^ (col + 0x632BE59BD9B4E019ull);
  x ^= x >> 31;
  x *= 0xBF58476D1CE4E5B9ull;
  x ^= x >> 29;
  return static_cast<float>(static_cast<double>(x >> 40) / static_cast<double>(1ull << 23) - 1.0);
}

struct Grid {
  std::size_t size, tile;
  std::size_t count() const { return (size + tile - 1) / tile; }
  std::size_t extent(std::size_t index) const { return std::min(tile, size - index * tile); }
};

// One tile of a matrix: registered on every rank, with memory on its owner only.
struct Tile {
  std::vector<float> values;
  starpu_data_handle_t handle = nullptr;
};

Tile make_tile(int which, const Grid& rows, const Grid& cols, std::size_t i, std::size_t j, int owner, int rank,
               starpu_mpi_tag_t tag) {
  Tile tile;
  const std::size_t ny = rows.extent(i), nx = cols.extent(j);
  if (owner == rank) {
    tile.values.resize(nx * ny);
    for (std::size_t r = 0; r < ny; ++r)
      for (std::size_t c = 0; c < nx; ++c)
        tile.values[r * nx + c] = element(which, i * rows.tile + r, j * cols.tile + c);
    starpu_matrix_data_register(&tile.handle, STARPU_MAIN_RAM, reinterpret_cast<uintptr_t>(tile.values.data()),
                                static_cast<uint32_t>(nx), static_cast<uint32_t>(nx), static_cast<uint32_t>(ny),
                                sizeof(float));
  } else {
    starpu_matrix_data_register(&tile.handle, -1, 0, static_cast<uint32_t>(nx), static_cast<uint32_t>(nx),
                                static_cast<uint32_t>(ny), sizeof(float));
  }
  starpu_mpi_data_register(tile.handle, tag, owner);
  return tile;
}

// Wrong elements of an owned C tile (already back in host memory), and the largest error relative to the bound.
std::size_t check_tile(const Tile& tile, const Grid& m, const Grid& n, std::size_t k, std::size_t i, std::size_t j,
                       double& worst) {
  std::size_t wrong = 0;
  const std::size_t ny = m.extent(i), nx = n.extent(j);
  for (std::size_t r = 0; r < ny; ++r)
    for (std::size_t c = 0; c < nx; ++c) {
      double sum = 0, magnitude = 0;
      for (std::size_t p = 0; p < k; ++p) {
        const double product = double(element(0, i * m.tile + r, p)) * double(element(1, p, j * n.tile + c));
        sum += product;
        magnitude += std::abs(product);
      }
      const double bound = double(k + k / m.tile + 2) * 1.2e-7 * magnitude + 1e-30;
      const double error = std::abs(double(tile.values[r * nx + c]) - sum) / bound;
      worst = std::max(worst, error);
      wrong += error <= 1.0 ? 0 : 1;
    }
  return wrong;
}

}  // namespace

int main(int argc, char** argv) {
  const std::size_t m = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 512;
  const std::size_t n = argc > 2 ? std::strtoul(argv[2], nullptr, 10) : 512;
  const std::size_t k = argc > 3 ? std::strtoul(argv[3], nullptr, 10) : 512;
  const std::size_t tile = argc > 4 ? std::strtoul(argv[4], nullptr, 10) : 128;
  if (m == 0 || n == 0 || k == 0 || tile == 0) {
    std::fprintf(stderr, "usage: %s [M N K TILE], all positive\n", argv[0]);
    return 2;
  }
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_SERIALIZED, &provided);
  if (starpu_mpi_init_conf(&argc, &argv, 0, MPI_COMM_WORLD, nullptr) != 0) {
    std::fprintf(stderr, "starpu_mpi_init_conf failed\n");
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  int rank = 0, ranks = 1;
  starpu_mpi_comm_rank(MPI_COMM_WORLD, &rank);
  starpu_mpi_comm_size(MPI_COMM_WORLD, &ranks);
  const Grid gm{m, tile}, gn{n, tile}, gk{k, tile};
  std::vector<std::vector<Tile>> a(gm.count()), b(gk.count()), c(gm.count());
  starpu_mpi_tag_t tag = 0;
  for (std::size_t i = 0; i < gm.count(); ++i)
    for (std::size_t p = 0; p < gk.count(); ++p)
      a[i].push_back(make_tile(0, gm, gk, i, p, int(i % ranks), rank, tag++));
  for (std::size_t p = 0; p < gk.count(); ++p)
    for (std::size_t j = 0; j < gn.count(); ++j)
      b[p].push_back(make_tile(1, gk, gn, p, j, int(j % ranks), rank, tag++));
  for (std::size_t i = 0; i < gm.count(); ++i)
    for (std::size_t j = 0; j < gn.count(); ++j)
      c[i].push_back(make_tile(2, gm, gn, i, j, int((i + j) % ranks), rank, tag++));

  const double start = starpu_timing_now();
  for (std::size_t i = 0; i < gm.count(); ++i)
    for (std::size_t j = 0; j < gn.count(); ++j)
      for (std::size_t p = 0; p < gk.count(); ++p) {
        const tilecl::starpu::GemmArguments<float> args{tilecl::Transpose::No, tilecl::Transpose::No, 1.0f,
                                                        p == 0 ? 0.0f : 1.0f};
        starpu_mpi_task_insert(MPI_COMM_WORLD, &tilecl::starpu::gemm_codelet<float>(), STARPU_R, a[i][p].handle,
                               STARPU_R, b[p][j].handle, STARPU_RW, c[i][j].handle, STARPU_VALUE, &args, sizeof(args),
                               0);
      }
  starpu_task_wait_for_all();
  const double seconds = (starpu_timing_now() - start) * 1e-6;
  for (auto* tiles : {&a, &b, &c})
    for (auto& row : *tiles)
      for (auto& t : row) starpu_data_unregister(t.handle);

  unsigned long wrong = 0, checked = 0, failed_tasks = 0;
  double worst = 0;
  try {
    tilecl::starpu::rethrow_failure();
  } catch (const std::exception& error) {
    std::fprintf(stderr, "rank %d: %s\n", rank, error.what());
    failed_tasks = 1;
  }
  for (std::size_t i = 0; i < gm.count(); ++i)
    for (std::size_t j = 0; j < gn.count(); ++j)
      if (int((i + j) % ranks) == rank) {
        wrong += check_tile(c[i][j], gm, gn, k, i, j, worst);
        checked += gm.extent(i) * gn.extent(j);
      }
  const unsigned workers = starpu_opencl_worker_get_count();
  starpu_mpi_shutdown();

  unsigned long totals[3] = {0, 0, 0}, mine[3] = {wrong, checked, failed_tasks};
  MPI_Reduce(mine, totals, 3, MPI_UNSIGNED_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  double worst_all = 0;
  MPI_Reduce(&worst, &worst_all, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  std::printf("rank %d: %u OpenCL workers, checked %lu elements of its C tiles\n", rank, workers, checked);
  int status = 0;
  if (rank == 0) {
    const bool ok = totals[0] == 0 && totals[1] == m * n && totals[2] == 0;
    std::printf(
        "tilecl starpu-mpi sgemm %zux%zux%zu in %zu-tiles on %d ranks: %.3f s (%.2f GFLOP/s), %lu of %lu "
        "elements wrong, largest error %.2f of the bound, %lu ranks with failed tasks: %s\n",
        m, n, k, tile, ranks, seconds, 2.0 * double(m) * double(n) * double(k) / seconds * 1e-9, totals[0], totals[1],
        worst_all, totals[2], ok ? "OK" : "FAILED");
    status = ok ? 0 : 1;
  }
  MPI_Bcast(&status, 1, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Finalize();
  return status;
}
