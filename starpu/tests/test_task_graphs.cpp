#include <doctest/doctest.h>
#include <starpu.h>

#include <cmath>
#include <string>

#include "reference/gemm_reference.hpp"
#include "support.hpp"
#include "tilecl/color.hpp"
#include "tilecl/convolve.hpp"
#include "tilecl/error.hpp"
#include "tilecl/runtime.hpp"
#include "tilecl/starpu.hpp"

using namespace tilecl;
namespace st = tilecl::starpu;

namespace {

struct GemmShape {
  Transpose trans_a, trans_b;
  std::size_t m, n, k, tile;
  float alpha, beta;
  std::size_t ld_extra;
};

// The tiled graph against the host reference: each C tile sums its k tiles one after the other in float, so the
// bound is that of a sum of k + (k tiles) terms.
void check_tiled_gemm(const GemmShape& s) {
  CAPTURE(s.m);
  CAPTURE(s.n);
  CAPTURE(s.k);
  CAPTURE(s.tile);
  CAPTURE(static_cast<int>(s.trans_a));
  CAPTURE(static_cast<int>(s.trans_b));
  const bool ta = s.trans_a == Transpose::Yes, tb = s.trans_b == Transpose::Yes;
  const std::size_t lda = (ta ? s.m : s.k) + s.ld_extra, ldb = (tb ? s.k : s.n) + s.ld_extra, ldc = s.n + s.ld_extra;
  auto a = st::test::random_values<float>((ta ? s.k : s.m) * lda + 1, -1, 1);
  auto b = st::test::random_values<float>((tb ? s.n : s.k) * ldb + 1, -1, 1);
  auto c = st::test::random_values<float>(s.m * ldc, -1, 1);
  const auto c_start = c;
  st::tiled_gemm<float>(s.trans_a, s.trans_b, s.m, s.n, s.k, s.alpha, a.data(), lda, b.data(), ldb, s.beta, c.data(),
                        ldc, s.tile);
  std::vector<float> want = c_start;
  std::vector<double> magnitude(want.size(), 0.0);
  reference::gemm(reference::Layout::RowMajor, ta ? reference::Transpose::Yes : reference::Transpose::No,
                  tb ? reference::Transpose::Yes : reference::Transpose::No, s.m, s.n, s.k, s.alpha, a.data(), lda,
                  b.data(), ldb, s.beta, want.data(), ldc, &magnitude);
  const std::size_t steps = s.k + (s.k + s.tile - 1) / s.tile;
  std::size_t bad = 0;
  for (std::size_t i = 0; i < s.m; ++i)
    for (std::size_t j = 0; j < ldc; ++j) {
      const std::size_t at = i * ldc + j;
      const bool ok = j < s.n ? std::abs(c[at] - want[at]) <=
                                    reference::gemm_tolerance<float>(steps, magnitude[at]) + 1e-6 * std::abs(want[at])
                              : c[at] == c_start[at];
      if (!ok && bad++ < 5) FAIL_CHECK("C(" << i << ", " << j << ") is " << c[at] << ", expected " << want[at]);
    }
  CHECK(bad == 0);
}

// rgb_to_gray then gaussian_blur on one device, frame by frame.
std::vector<std::uint8_t> single_device_pipeline(const std::vector<std::uint8_t>& rgb, std::size_t width,
                                                 std::size_t height, std::size_t frames, double sigma,
                                                 std::size_t radius, Border border) {
  auto& queue = st::test::single_queue();
  std::vector<std::uint8_t> result;
  for (std::size_t f = 0; f < frames; ++f) {
    const std::vector<std::uint8_t> frame(rgb.begin() + f * 3 * width * height,
                                          rgb.begin() + (f + 1) * 3 * width * height);
    cl::Buffer in = st::test::device_copy(frame);
    cl::Buffer gray = st::test::device_copy(std::vector<std::uint8_t>(width * height));
    cl::Buffer out = st::test::device_copy(std::vector<std::uint8_t>(width * height));
    rgb_to_gray<std::uint8_t>(queue, width, height, in, 0, 3 * width, gray, 0, width);
    gaussian_blur<std::uint8_t>(queue, width, height, 1, gray, 0, width, out, 0, width, sigma, border, radius).wait();
    const auto values = st::test::host_copy<std::uint8_t>(out, width * height);
    result.insert(result.end(), values.begin(), values.end());
  }
  return result;
}

}  // namespace

TEST_SUITE("starpu.task_graphs") {
  TEST_CASE("tiled gemm: every transpose, ragged tiles, k in several steps, equals the reference within the bound") {
    for (Transpose ta : {Transpose::No, Transpose::Yes})
      for (Transpose tb : {Transpose::No, Transpose::Yes}) check_tiled_gemm({ta, tb, 45, 38, 41, 16, 1.25f, 0.5f, 3});
    check_tiled_gemm({Transpose::No, Transpose::No, 1, 1, 1, 4, 1.0f, 0.0f, 0});
    check_tiled_gemm({Transpose::No, Transpose::Yes, 7, 64, 9, 64, -1.0f, 1.0f, 0});  // one tile
    check_tiled_gemm({Transpose::No, Transpose::No, 9, 5, 0, 4, 1.0f, 2.0f, 1});      // k = 0: C = beta C
    check_tiled_gemm({Transpose::Yes, Transpose::No, 5, 9, 6, 4, 0.0f, -1.0f, 2});    // alpha = 0
    // Each OpenCL worker's device got its own programs (its context is one tilecl keeps state for).
    CHECK(cache_sizes().contexts >= starpu_opencl_worker_get_count());
  }

  TEST_CASE("image pipeline: bands with halos equal rgb_to_gray then gaussian_blur on one device, every border") {
    struct Case {
      std::size_t width, height, frames, bands, radius;
      double sigma;
      Border border;
    };
    for (const Case& c : {Case{61, 47, 3, 4, 2, 0.8, Border::Mirror}, Case{33, 20, 2, 3, 3, 1.1, Border::Wrap},
                          Case{17, 5, 1, 4, 3, 1.0, Border::Clamp}, Case{24, 9, 2, 9, 1, 0.5, Border::Zero},
                          Case{32, 1, 1, 2, 2, 1.0, Border::Mirror}}) {
      CAPTURE(c.width);
      CAPTURE(c.height);
      CAPTURE(c.bands);
      CAPTURE(c.radius);
      CAPTURE(static_cast<int>(c.border));
      const auto rgb = st::test::random_values<std::uint8_t>(3 * c.width * c.height * c.frames, 0, 255.99);
      std::vector<std::uint8_t> out(c.width * c.height * c.frames, 0x5a);
      st::gray_gaussian_pipeline(c.width, c.height, c.frames, rgb.data(), out.data(), c.sigma, c.radius, c.border,
                                 c.bands);
      const auto want = single_device_pipeline(rgb, c.width, c.height, c.frames, c.sigma, c.radius, c.border);
      std::size_t differ = 0;
      for (std::size_t i = 0; i < out.size(); ++i) differ += out[i] == want[i] ? 0 : 1;
      CHECK_MESSAGE(differ == 0, differ << " of " << out.size() << " pixels differ from the single-device pipeline");
    }
  }

  TEST_CASE("task graphs: bad arguments raise tilecl::Error") {
    std::vector<float> x(16, 1.0f);
    CHECK_THROWS_AS(st::tiled_gemm<float>(Transpose::No, Transpose::No, 4, 4, 4, 1.f, x.data(), 3, x.data(), 4, 0.f,
                                          x.data(), 4, 2),
                    Error);
    CHECK_THROWS_AS(st::tiled_gemm<float>(Transpose::No, Transpose::No, 4, 4, 4, 1.f, x.data(), 4, x.data(), 4, 0.f,
                                          x.data(), 4, 0),
                    Error);
    std::vector<std::uint8_t> rgb(12), out(4);
    CHECK_THROWS_AS(st::gray_gaussian_pipeline(2, 2, 1, rgb.data(), out.data(), 1.0, 1, Border::Clamp, 0), Error);
    CHECK_THROWS_AS(st::gray_gaussian_pipeline(2, 2, 1, nullptr, out.data(), 1.0, 1, Border::Clamp, 1), Error);
  }
}
