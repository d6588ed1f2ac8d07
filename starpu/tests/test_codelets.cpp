#include <doctest/doctest.h>
#include <starpu.h>

#include <cmath>

#include "reference/gemm_reference.hpp"
#include "support.hpp"
#include "tilecl/error.hpp"
#include "tilecl/gemm.hpp"
#include "tilecl/starpu.hpp"

using namespace tilecl;
namespace st = tilecl::starpu;

TEST_SUITE("starpu.codelets") {
  TEST_CASE("gemm codelet: a task on each OpenCL worker (its own device and context) computes tilecl::gemm") {
    REQUIRE(starpu_opencl_worker_get_count() >= 1);
    const std::size_t m = 23, n = 19, k = 31, lda = 33, ldb = 19, ldc = 21;
    for (unsigned worker = 0; worker < starpu_worker_get_count(); ++worker) {
      CAPTURE(worker);
      auto a = st::test::random_values<float>(m * lda, -1, 1), b = st::test::random_values<float>(k * ldb, -1, 1);
      auto c = st::test::random_values<float>(m * ldc, -1, 1);
      const auto c_start = c;
      starpu_data_handle_t ha, hb, hc;
      starpu_matrix_data_register(&ha, STARPU_MAIN_RAM, reinterpret_cast<uintptr_t>(a.data()), lda, k, m,
                                  sizeof(float));
      starpu_matrix_data_register(&hb, STARPU_MAIN_RAM, reinterpret_cast<uintptr_t>(b.data()), ldb, n, k,
                                  sizeof(float));
      starpu_matrix_data_register(&hc, STARPU_MAIN_RAM, reinterpret_cast<uintptr_t>(c.data()), ldc, n, m,
                                  sizeof(float));
      const st::GemmArguments<float> args{Transpose::No, Transpose::No, 0.75f, -1.5f};
      const auto before = st::tasks_per_worker();
      REQUIRE(starpu_task_insert(&st::gemm_codelet<float>(), STARPU_R, ha, STARPU_R, hb, STARPU_RW, hc, STARPU_VALUE,
                                 &args, sizeof(args), STARPU_EXECUTE_ON_WORKER, static_cast<int>(worker), 0) == 0);
      starpu_task_wait_for_all();
      starpu_data_unregister(ha);
      starpu_data_unregister(hb);
      starpu_data_unregister(hc);
      st::rethrow_failure();
      CHECK(st::tasks_per_worker()[worker] == before[worker] + 1);
      std::vector<float> want = c_start;
      std::vector<double> magnitude;
      reference::gemm(reference::Layout::RowMajor, reference::Transpose::No, reference::Transpose::No, m, n, k, 0.75,
                      a.data(), lda, b.data(), ldb, -1.5, want.data(), ldc, &magnitude);
      std::size_t bad = 0;
      for (std::size_t i = 0; i < m; ++i)
        for (std::size_t j = 0; j < ldc; ++j) {
          const std::size_t at = i * ldc + j;
          const bool ok = j < n ? std::abs(c[at] - want[at]) <=
                                      reference::gemm_tolerance<float>(k, magnitude[at]) + 1e-6 * std::abs(want[at])
                                : c[at] == c_start[at];
          bad += ok ? 0 : 1;
        }
      CHECK(bad == 0);
    }
  }

  TEST_CASE("band reachability: the halo of a band must lie in the band and its two neighbours") {
    CHECK(st::band_rows_reachable(100, 4, 3, Border::Clamp));
    CHECK(st::band_rows_reachable(100, 4, 25, Border::Wrap));
    CHECK_FALSE(st::band_rows_reachable(100, 4, 26, Border::Mirror));
    CHECK_FALSE(st::band_rows_reachable(8, 8, 2, Border::Clamp));  // one-row bands, radius 2
    CHECK(st::band_rows_reachable(5, 1, 40, Border::Mirror));      // one band: every folded row is in it
    CHECK(st::band_rows_reachable(5, 1, 40, Border::Wrap));
  }

  TEST_CASE("codelet failures are recorded and raised as tilecl::Error by rethrow_failure") {
    std::vector<std::uint8_t> gray(8 * 6, 7), out(8 * 6, 0);
    starpu_data_handle_t hg, ho;
    starpu_matrix_data_register(&hg, STARPU_MAIN_RAM, reinterpret_cast<uintptr_t>(gray.data()), 8, 8, 6, 1);
    starpu_matrix_data_register(&ho, STARPU_MAIN_RAM, reinterpret_cast<uintptr_t>(out.data()), 8, 8, 6, 1);
    // The band claims to start at row 40 of a 100-row image: its halo rows are nowhere in the task's buffers.
    st::BandArguments args{100, 40, 40, 40, 1, 1.0, 2, Border::Clamp};
    REQUIRE(starpu_task_insert(&st::gaussian_band_codelet<std::uint8_t>(), STARPU_R, hg, STARPU_R, hg, STARPU_R, hg,
                               STARPU_W, ho, STARPU_VALUE, &args, sizeof(args), 0) == 0);
    starpu_task_wait_for_all();
    try {
      st::rethrow_failure();
      FAIL("no failure recorded");
    } catch (const Error& error) {
      CHECK(error.argument() == "band");
      CHECK(std::string(error.what()).find("outside the band's neighbours") != std::string::npos);
    }
    // A bad argument of the op itself, as the op names it.
    args = {6, 0, 0, 0, 1, -1.0, 2, Border::Clamp};
    REQUIRE(starpu_task_insert(&st::gaussian_band_codelet<std::uint8_t>(), STARPU_R, hg, STARPU_R, hg, STARPU_R, hg,
                               STARPU_W, ho, STARPU_VALUE, &args, sizeof(args), 0) == 0);
    starpu_task_wait_for_all();
    starpu_data_unregister(hg);
    starpu_data_unregister(ho);
    CHECK_THROWS_AS(st::rethrow_failure(), Error);
    st::rethrow_failure();  // forgotten once raised
  }
}
