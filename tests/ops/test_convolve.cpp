#include <doctest/doctest.h>

#include <array>
#include <chrono>
#include <cmath>
#include <functional>
#include <optional>
#include <thread>

#include "ops/convolve.hpp"
#include "reference/image_reference.hpp"
#include "support/fixture.hpp"
#include "support/guarded_buffer.hpp"
#include "tilecl/convolve.hpp"
#include "tilecl/error.hpp"
#include "tilecl/tuning.hpp"
#include "tuning/op_registry.hpp"
#include "tuning/tuner.hpp"
#include "workspace.hpp"

using namespace tilecl;
using tilecl::detail::Config;
using tilecl::test::device;

namespace {

enum class Op { Convolve2d, Separable, Box, Gaussian };

const char* op_name(Op op) {
  switch (op) {
    case Op::Convolve2d:
      return "convolve2d";
    case Op::Separable:
      return "separable_filter";
    case Op::Box:
      return "box_blur";
    case Op::Gaussian:
      return "gaussian_blur";
  }
  return "?";
}

reference::Border to_reference(Border border) { return static_cast<reference::Border>(static_cast<int>(border)); }

// How an image sits in its buffer: dense rows; ragged pitches and offsets (every alignment test fails: the
// unaligned paths); aligned, padded rows (the vector-pointer paths).
enum class ImageLayout { Dense, Ragged, Aligned };

struct Placement {
  std::size_t src_offset, src_pitch, dst_offset, dst_pitch;
};

Placement place(ImageLayout layout, std::size_t row) {
  switch (layout) {
    case ImageLayout::Dense:
      return {0, row, 0, row};
    case ImageLayout::Ragged:
      return {5, row + 3, 7, row + 5};
    case ImageLayout::Aligned:
      return {16, (row + 15) / 16 * 16 + 16, 32, (row + 15) / 16 * 16 + 32};
  }
  return {};
}

constexpr std::size_t kGuard = 23;  // elements after the last row that must stay untouched

// One filter problem: the op, its pixel type, channels, border rule and radii (sigma for Gaussians; 0 = the
// radius is left to the op's default when `default_radius`).
struct Filter {
  Op op;
  std::size_t channels;
  Border border;
  int radius_x, radius_y;
  double sigma = 1.0;
  bool default_radius = false;
};

std::string describe(const Filter& f) {
  return std::string(op_name(f.op)) + " c" + std::to_string(f.channels) + " border " +
         reference::border_name(to_reference(f.border)) + " " + std::to_string(2 * f.radius_x + 1) + "x" +
         std::to_string(2 * f.radius_y + 1);
}

// Random taps with negative ones, summing to 1.15: byte results saturate at both ends.
std::vector<float> random_taps(std::size_t count, std::mt19937_64& random) {
  auto values = test::random_vector<double>(count, random, -0.3, 1.0);
  double sum = 0;
  for (double v : values) sum += v;
  std::vector<float> taps(count);
  for (std::size_t i = 0; i < count; ++i) taps[i] = static_cast<float>(1.15 * values[i] / sum);
  return taps;
}

// A device buffer holding `taps` at `offset`, with junk around them.
cl::Buffer taps_buffer(const std::vector<float>& taps, std::size_t offset) {
  std::vector<float> values(offset + taps.size() + (offset ? 5 : 0), 1e30f);
  std::copy(taps.begin(), taps.end(), values.begin() + static_cast<std::ptrdiff_t>(offset));
  return test::to_device(values);
}

// Runs the filter (with `config`, or the public API's own choice) on a width x height image and checks every
// element of dst: the reference inside the image, the initial fill everywhere else (pitch padding, offset,
// guard). Byte outputs run twice with two different fills, so a skipped or stray write cannot pass by matching
// the fill; float outputs start as NaN.
template <typename T>
void check_filter(const Config* config, const Filter& f, std::size_t width, std::size_t height, ImageLayout layout,
                  std::size_t taps_offset) {
  CAPTURE(describe(f));
  CAPTURE(width);
  CAPTURE(height);
  CAPTURE(static_cast<int>(layout));
  CAPTURE(taps_offset);
  auto random = test::random_engine(describe(f) + std::to_string(width) + "x" + std::to_string(height));
  const std::size_t c = f.channels, row = width * c;
  const Placement p = place(layout, row);
  const std::size_t src_size = p.src_offset + reference::image_extent(p.src_pitch, row, height) + kGuard;
  const std::size_t dst_size = p.dst_offset + reference::image_extent(p.dst_pitch, row, height) + kGuard;
  const bool bytes = !std::is_same_v<T, float>;
  // Settings shared by both types say how their bytes are rounded (ROUND_BY_ADD, a parameter of the CPU-shaped
  // variants for bytes only): floats drop it.
  std::optional<Config> typed;
  if (config != nullptr && !bytes) {
    typed = *config;
    typed->values.erase("ROUND_BY_ADD");
    config = &*typed;
  }
  const auto src =
      bytes ? test::random_vector<T>(src_size, random, 0, 255) : test::random_vector<T>(src_size, random, -1.0, 2.0);
  const std::size_t kw = 2 * f.radius_x + 1, kh = 2 * f.radius_y + 1;

  std::vector<float> direct, row_taps, column_taps;
  switch (f.op) {
    case Op::Convolve2d:
      direct = random_taps(kw * kh, random);
      break;
    case Op::Separable:
      row_taps = random_taps(kw, random);
      column_taps = random_taps(kh, random);
      break;
    case Op::Box:
      row_taps = reference::box_taps(f.radius_x);
      column_taps = reference::box_taps(f.radius_y);
      break;
    case Op::Gaussian:
      row_taps = reference::gaussian_taps(f.sigma, f.radius_x);
      column_taps = row_taps;
      break;
  }
  std::vector<double> exact;
  double magnitude = bytes ? 255.0 : 2.0, taps = 0;
  const auto* source = src.data() + p.src_offset;
  if (f.op == Op::Convolve2d) {
    exact =
        reference::convolve2d(source, static_cast<long>(width), static_cast<long>(height), static_cast<int>(c),
                              static_cast<long>(p.src_pitch), direct, f.radius_x, f.radius_y, to_reference(f.border));
    double sum = 0;
    for (float t : direct) sum += std::abs(t);
    magnitude *= sum;
    taps = static_cast<double>(direct.size());
  } else {
    exact =
        reference::separable_filter(source, static_cast<long>(width), static_cast<long>(height), static_cast<int>(c),
                                    static_cast<long>(p.src_pitch), row_taps, column_taps, to_reference(f.border));
    double row_sum = 0, column_sum = 0;
    for (float t : row_taps) row_sum += std::abs(t);
    for (float t : column_taps) column_sum += std::abs(t);
    magnitude *= row_sum * column_sum;
    taps = static_cast<double>(kw + kh);
  }
  const double tolerance = reference::float_sum_tolerance(static_cast<std::size_t>(taps), magnitude);

  cl::Buffer src_buffer = test::to_device(src);
  cl::Buffer first_taps = taps_buffer(f.op == Op::Convolve2d ? direct : row_taps, taps_offset);
  cl::Buffer second_taps = taps_buffer(column_taps, taps_offset + 1);
  for (int pass = 0; pass < (bytes ? 2 : 1); ++pass) {
    std::vector<T> initial(dst_size, test::poison<T>());
    if (bytes) {
      auto fill = test::random_engine("fill" + std::to_string(pass));
      initial = test::random_vector<T>(dst_size, fill, 0, 255);
    }
    test::GuardedBuffer<T> guarded_dst(initial);
    cl::Buffer& dst_buffer = guarded_dst.buffer();
    const std::size_t dst_at = guarded_dst.offset() + p.dst_offset;
    auto& q = device().queue;
    const std::optional<std::size_t> radius =
        f.default_radius ? std::nullopt : std::optional<std::size_t>(static_cast<std::size_t>(f.radius_x));
    cl::Event done;
    switch (f.op) {
      case Op::Convolve2d:
        done = config ? detail::convolve2d_with<T>(*config, q, width, height, c, src_buffer, p.src_offset, p.src_pitch,
                                                   dst_buffer, dst_at, p.dst_pitch, first_taps, taps_offset, kw, kh,
                                                   f.border)
                      : convolve2d<T>(q, width, height, c, src_buffer, p.src_offset, p.src_pitch, dst_buffer, dst_at,
                                      p.dst_pitch, first_taps, taps_offset, kw, kh, f.border);
        break;
      case Op::Separable:
        done = config ? detail::separable_filter_with<T>(*config, q, width, height, c, src_buffer, p.src_offset,
                                                         p.src_pitch, dst_buffer, dst_at, p.dst_pitch, first_taps,
                                                         taps_offset, kw, second_taps, taps_offset + 1, kh, f.border)
                      : separable_filter<T>(q, width, height, c, src_buffer, p.src_offset, p.src_pitch, dst_buffer,
                                            dst_at, p.dst_pitch, first_taps, taps_offset, kw, second_taps,
                                            taps_offset + 1, kh, f.border);
        break;
      case Op::Box:
        done = config ? detail::box_blur_with<T>(*config, q, width, height, c, src_buffer, p.src_offset, p.src_pitch,
                                                 dst_buffer, dst_at, p.dst_pitch, f.radius_x, f.radius_y, f.border)
                      : box_blur<T>(q, width, height, c, src_buffer, p.src_offset, p.src_pitch, dst_buffer, dst_at,
                                    p.dst_pitch, f.radius_x, f.radius_y, f.border);
        break;
      case Op::Gaussian:
        done = config
                   ? detail::gaussian_blur_with<T>(*config, q, width, height, c, src_buffer, p.src_offset, p.src_pitch,
                                                   dst_buffer, dst_at, p.dst_pitch, f.sigma, f.border, radius)
                   : gaussian_blur<T>(q, width, height, c, src_buffer, p.src_offset, p.src_pitch, dst_buffer, dst_at,
                                      p.dst_pitch, f.sigma, f.border, radius);
        break;
    }
    REQUIRE(done() != nullptr);
    done.wait();
    guarded_dst.check_guards("filter dst");
    const auto got = guarded_dst.read();
    std::size_t bad = 0;
    for (std::size_t i = 0; i < dst_size; ++i) {
      const bool inside =
          i >= p.dst_offset && (i - p.dst_offset) % p.dst_pitch < row && (i - p.dst_offset) / p.dst_pitch < height;
      bool ok;
      if (!inside) {
        ok = bytes ? got[i] == initial[i] : test::is_poison(got[i]);
      } else {
        const double want = exact[((i - p.dst_offset) / p.dst_pitch) * row + (i - p.dst_offset) % p.dst_pitch];
        if constexpr (std::is_same_v<T, float>)
          ok = reference::matches_float(want, got[i], tolerance);
        else
          ok = reference::matches_u8(want, got[i], tolerance);
      }
      if (!ok && bad++ < 5) FAIL_CHECK("element " << i << (inside ? " (inside)" : " (outside)") << " is " << +got[i]);
    }
    CHECK_MESSAGE(bad == 0, bad << " of " << dst_size << " elements wrong");
  }
  CHECK(test::from_device<T>(src_buffer, src.size()) == src);  // src is read only
}

// The images every program is checked at: one pixel, filters larger than the image, odd sizes, and sizes with
// interior and edge tiles of the small tiles the sweep uses; the layout and the taps' placement (bound as
// they are, or copied from an offset) rotate.
const std::vector<std::pair<std::size_t, std::size_t>> kImages{{1, 1}, {3, 2}, {2, 3}, {5, 7}, {37, 23}, {133, 71}};

template <typename T>
void check_images(const Config* config, const Filter& f,
                  const std::vector<std::pair<std::size_t, std::size_t>>& images = kImages) {
  int turn = 0;
  for (auto [width, height] : images) {
    check_filter<T>(config, f, width, height, static_cast<ImageLayout>(turn % 3), turn % 2 ? 3 : 0);
    ++turn;
  }
}

void check_any(const Config* config, const Filter& f, bool bytes,
               const std::vector<std::pair<std::size_t, std::size_t>>& images = kImages) {
  if (bytes)
    check_images<std::uint8_t>(config, f, images);
  else
    check_images<float>(config, f, images);
}

// The combinations the sweeps draw from: each border rule once, bytes and floats, one and three channels,
// with radii that include 0, non-square filters and filters larger than the 3x2 image. Each setting of a
// variant takes two of them (a program each), and the settings of a variant together take all four.
struct Combination {
  Border border;
  bool bytes;
  std::size_t channels;
  int radius_x, radius_y;
};
const std::array<Combination, 4> kCombinations{{{Border::Zero, false, 1, 1, 2},
                                                {Border::Clamp, true, 3, 2, 0},
                                                {Border::Mirror, false, 3, 0, 3},
                                                {Border::Wrap, true, 1, 7, 7}}};

// One setting of a variant in the sweep: its combinations `first` and `second`, each with the radii of the
// combination `rotate` places further on.
struct Setting {
  Op op;
  Config config;
  std::size_t first, second, rotate;
};

Filter filter_of(const Setting& setting, std::size_t combination) {
  const Combination& c = kCombinations[combination];
  const Combination& radii = kCombinations[(combination + setting.rotate) % kCombinations.size()];
  return Filter{setting.op, c.channels, c.border, radii.radius_x, radii.radius_y};
}

// A tiled setting; with local_input it is the separable kernel's, which also takes PREFETCH (all row-pass
// windows of a work-item loaded before any is filtered).
Config tiled(std::int64_t tile_x, std::int64_t tile_y, std::int64_t wpt_y, std::int64_t vec, std::int64_t pad,
             std::optional<std::int64_t> local_input = std::nullopt, std::int64_t prefetch = 1) {
  Config config{"tiled", {{"TILE_X", tile_x}, {"TILE_Y", tile_y}, {"WPT_Y", wpt_y}, {"VEC", vec}, {"PAD", pad}}};
  if (local_input) {
    config.values["USE_LOCAL_INPUT"] = *local_input;
    config.values["PREFETCH"] = prefetch;
  }
  return config;
}

Config with_group(Config config, std::int64_t x, std::int64_t y) {
  config.values["WG_X"] = x;
  config.values["WG_Y"] = y;
  return config;
}

// A CPU-shaped (vector, two_pass) setting with its rounding of bytes (floats ignore it: see check_filter).
Config rounding(Config config, std::int64_t round_by_add) {
  config.values["ROUND_BY_ADD"] = round_by_add;
  return config;
}

void expect_error(const std::string& op, const std::function<void()>& call, const std::string& argument,
                  const std::string& status, const std::string& text = "") {
  try {
    call();
    FAIL("expected tilecl::Error for " << argument);
  } catch (const Error& error) {
    CHECK(error.op() == op);
    CHECK(error.argument() == argument);
    CHECK(error.status_name() == status);
    CHECK(std::string(error.what()).find("tilecl::" + op + ": " + argument) == 0);
    if (!text.empty()) CHECK_MESSAGE(std::string(error.what()).find(text) != std::string::npos, error.what());
  }
}

// Every setting of every variant the sweep runs: several per variant, small tiles (so that the test images
// have interior and edge tiles), and every vector width.
std::vector<Setting> swept_settings() {
  // The tiled settings avoid the 15 x 15 filter: PoCL takes seconds to compile their unrolled tap loops for it
  // (the naive and vector kernels take it, and the tiled ones get filters larger than the 3x2 image anyway).
  return {{Op::Convolve2d, rounding(with_group({"vector", {{"VEC", 4}}}, 8, 2), 0), 0, 1, 0},
          {Op::Convolve2d, rounding(with_group({"vector", {{"VEC", 16}}}, 16, 1), 1), 2, 3, 1},
          {Op::Convolve2d, tiled(16, 8, 2, 4, 0), 0, 1, 0},
          {Op::Convolve2d, tiled(8, 8, 4, 8, 8), 2, 3, 3},
          {Op::Separable, rounding(with_group({"two_pass", {{"VEC", 4}}}, 8, 2), 1), 0, 1, 3},
          {Op::Separable, rounding(with_group({"two_pass", {{"VEC", 16}}}, 4, 4), 0), 2, 3, 2},
          {Op::Separable, rounding(with_group({"vector", {{"VEC", 8}, {"WPT_Y", 3}}}, 8, 1), 0), 0, 1, 2},
          {Op::Separable, rounding(with_group({"vector", {{"VEC", 16}, {"WPT_Y", 8}}}, 4, 2), 1), 2, 3, 0},
          {Op::Separable, tiled(16, 8, 2, 4, 0, 0, 0), 0, 1, 1},
          {Op::Separable, tiled(8, 16, 4, 8, 8, 0, 1), 2, 3, 2},
          {Op::Separable, tiled(16, 8, 8, 2, 2, 1, 0), 0, 1, 0},
          {Op::Separable, tiled(8, 12, 4, 4, 0, 1, 1), 1, 2, 3}};
}

const Config kNaive = with_group({"naive", {}}, 8, 4);

}  // namespace

TEST_SUITE("ops.convolve") {
  TEST_CASE(
      "convolve: every variant and setting matches the host reference under every border, type and channel count") {
    // naive reads the radius at run time: one program per type, channels and border serves every filter size.
    for (const auto& c : kCombinations) {
      for (auto [rx, ry] : {std::pair<int, int>{0, 0}, {1, 1}, {3, 1}, {7, 7}})
        check_any(&kNaive, Filter{Op::Convolve2d, c.channels, c.border, rx, ry}, c.bytes, {{1, 1}, {3, 2}, {37, 23}});
    }
    for (const auto& setting : swept_settings()) {
      CAPTURE(setting.config.to_string());
      for (std::size_t combination : {setting.first, setting.second})
        check_any(&setting.config, filter_of(setting, combination), kCombinations[combination].bytes);
    }
  }

  TEST_CASE("convolve: every byte variant rounds exact ties to even and saturates, both ways of rounding") {
    // out = t * in with t = 0.5, 1.5 or -0.5 (a 1-tap filter, or a 1x3 column filter {0, t, 0}): every odd
    // input is an exact tie, 1.5 * in saturates above 170, -0.5 * in below 0. No tolerance: the rounded value.
    const std::size_t width = 77, height = 5;
    std::vector<std::uint8_t> src(width * height);
    for (std::size_t i = 0; i < src.size(); ++i) src[i] = static_cast<std::uint8_t>((i * 7 + i / width) % 256);
    cl::Buffer src_buffer = test::to_device(src);
    test::GuardedBuffer<std::uint8_t> dst(src.size());
    cl::Buffer& dst_buffer = dst.buffer();
    const std::size_t at = dst.offset();
    auto& q = device().queue;
    for (float t : {0.5f, 1.5f, -0.5f}) {
      CAPTURE(t);
      const std::vector<float> one{t}, unit{1.0f}, column{0.0f, t, 0.0f};
      cl::Buffer one_buffer = test::to_device(one), unit_buffer = test::to_device(unit);
      cl::Buffer column_buffer = test::to_device(column);
      for (std::int64_t round_by_add : {0, 1}) {
        CAPTURE(round_by_add);
        std::vector<std::pair<Config, bool>> runs{
            // (config, separable)
            {rounding(with_group({"vector", {{"VEC", 16}}}, 8, 1), round_by_add), false},
            {rounding(with_group({"vector", {{"VEC", 16}, {"WPT_Y", 2}}}, 8, 1), round_by_add), true},
            {rounding(with_group({"two_pass", {{"VEC", 8}}}, 8, 1), round_by_add), true}};
        if (round_by_add == 0) {
          runs.push_back({with_group({"naive", {}}, 8, 1), false});
          runs.push_back({tiled(16, 4, 2, 4, 0, 0, 0), true});
          runs.push_back({tiled(16, 4, 2, 4, 0, 0, 1), true});
        }
        for (const auto& [config, separable] : runs) {
          CAPTURE(config.to_string());
          if (separable)
            detail::separable_filter_with<std::uint8_t>(config, q, width, height, 1, src_buffer, 0, width, dst_buffer,
                                                        at, width, unit_buffer, 0, 1, column_buffer, 0, 3, Border::Zero)
                .wait();
          else
            detail::convolve2d_with<std::uint8_t>(config, q, width, height, 1, src_buffer, 0, width, dst_buffer, at,
                                                  width, one_buffer, 0, 1, 1, Border::Zero)
                .wait();
          dst.check_guards("rounded dst");
          const auto got = dst.read();
          std::size_t bad = 0;
          for (std::size_t i = 0; i < src.size(); ++i) {
            const std::uint8_t want = reference::round_saturate_u8(static_cast<double>(t) * src[i]);
            if (got[i] != want && bad++ < 5) FAIL_CHECK("element " << i << ": " << +got[i] << ", want " << +want);
          }
          CHECK(bad == 0);
        }
      }
    }
  }

  TEST_CASE("convolve: the GPU defaults' tile shapes are exact on an image with interior tiles") {
    const Config direct = tiled(128, 32, 4, 4, 0), separable = tiled(64, 32, 4, 4, 0, 0, 1);
    check_filter<float>(&direct, Filter{Op::Convolve2d, 1, Border::Mirror, 2, 2}, 300, 100, ImageLayout::Aligned, 0);
    check_filter<float>(&separable, Filter{Op::Gaussian, 1, Border::Mirror, 4, 4, 1.7}, 300, 100, ImageLayout::Ragged,
                        0);
  }

  TEST_CASE("convolve: filters above the unrolled limits read their radius at run time, exact under every border") {
    // 21 x 19 taps: more than the direct vector kernel unrolls; radius 17 and 18: more than the separable
    // kernels unroll.
    const Config direct = rounding(with_group({"vector", {{"VEC", 8}}}, 8, 2), 0);
    const Config fused = rounding(with_group({"vector", {{"VEC", 4}, {"WPT_Y", 4}}}, 8, 1), 1);
    const Config two_pass = with_group({"two_pass", {{"VEC", 8}}}, 8, 2);
    const std::vector<std::pair<std::size_t, std::size_t>> images{{3, 2}, {45, 41}};
    for (const auto& c : kCombinations) {
      check_any(&direct, Filter{Op::Convolve2d, c.channels, c.border, 10, 9}, c.bytes, images);
      check_any(c.bytes ? &fused : &two_pass, Filter{Op::Separable, c.channels, c.border, 17, 18}, c.bytes, images);
    }
  }

  TEST_CASE("convolve: blurs through the public API (device-derived defaults) and through explicit variants") {
    check_any(nullptr, Filter{Op::Box, 1, Border::Mirror, 2, 1}, false);
    check_any(nullptr, Filter{Op::Box, 3, Border::Wrap, 0, 3}, true);
    check_any(nullptr, Filter{Op::Gaussian, 3, Border::Zero, 3, 3, 1.1}, false);
    // Default radius: ceil(3 sigma) = 4 for sigma 1.2.
    check_any(nullptr, Filter{Op::Gaussian, 1, Border::Clamp, 4, 4, 1.2, true}, true);
    check_any(nullptr, Filter{Op::Gaussian, 1, Border::Mirror, 0, 0, 0.5}, false, {{3, 2}, {37, 23}});  // identity
    const Config gpu_like = tiled(16, 8, 4, 4, 0, 0);
    check_any(&gpu_like, Filter{Op::Gaussian, 1, Border::Mirror, 2, 2, 0.8}, false, {{37, 23}, {133, 71}});
    check_any(&gpu_like, Filter{Op::Box, 1, Border::Mirror, 2, 2}, false, {{37, 23}});
  }

  TEST_CASE("convolve: convolve2d and separable_filter through the public API (device-derived defaults)") {
    check_any(nullptr, Filter{Op::Convolve2d, 1, Border::Mirror, 2, 2}, false);
    check_any(nullptr, Filter{Op::Convolve2d, 3, Border::Zero, 1, 2}, true);
    check_any(nullptr, Filter{Op::Separable, 1, Border::Wrap, 4, 4}, false);
    check_any(nullptr, Filter{Op::Separable, 3, Border::Clamp, 2, 1}, true);
  }

  TEST_CASE("convolve: a zero-sized image enqueues nothing and returns a null event") {
    cl::Buffer tiny(device().context, CL_MEM_READ_WRITE, 4);
    auto& q = device().queue;
    CHECK(convolve2d<float>(q, 0, 10, 1, tiny, 0, 0, tiny, 0, 0, tiny, 0, 3, 3, Border::Zero)() == nullptr);
    CHECK(separable_filter<std::uint8_t>(q, 10, 0, 3, tiny, 0, 0, tiny, 0, 0, tiny, 0, 3, tiny, 0, 5, Border::Wrap)() ==
          nullptr);
    CHECK(box_blur<float>(q, 0, 0, 1, tiny, 0, 0, tiny, 0, 0, 2, 2, Border::Clamp)() == nullptr);
    CHECK(gaussian_blur<std::uint8_t>(q, 0, 5, 1, tiny, 0, 0, tiny, 0, 0, 1.5, Border::Mirror)() == nullptr);
    // Scalar arguments are still checked.
    CHECK_THROWS_AS(gaussian_blur<float>(q, 0, 5, 1, tiny, 0, 0, tiny, 0, 0, -1.0, Border::Mirror), Error);
  }

  TEST_CASE("convolve: the wait list holds every command back, the copy of the taps included") {
    // Each call waits for a user event; meanwhile another queue replaces the image and the taps (which sit at
    // an offset, so they are copied first). The results must come from the replacements.
    const std::size_t width = 64, height = 16;
    const std::vector<float> old_image(width * height, 2.0f), new_image(width * height, 3.0f);
    const std::vector<float> old_taps{0, 0, 0, 0, 1.0f, 0, 0, 0}, new_taps{0, 0, 0, 0, 0.5f, 0.5f, 0.5f, 0};
    auto run = [&](const Config* config) {
      cl::Buffer src = test::to_device(old_image), taps = test::to_device(old_taps);
      test::GuardedBuffer<float> guarded(old_image.size());
      cl::Buffer& dst = guarded.buffer();
      const std::size_t at = guarded.offset();
      cl::UserEvent gate(device().context);
      const std::vector<cl::Event> wait{gate};
      auto& q = device().queue;
      cl::Event done = config
                           ? detail::separable_filter_with<float>(*config, q, width, height, 1, src, 0, width, dst, at,
                                                                  width, taps, 4, 3, taps, 4, 3, Border::Clamp, &wait)
                           : separable_filter<float>(q, width, height, 1, src, 0, width, dst, at, width, taps, 4, 3,
                                                     taps, 4, 3, Border::Clamp, &wait);
      q.flush();
      std::this_thread::sleep_for(std::chrono::milliseconds(30));
      CHECK(done.getInfo<CL_EVENT_COMMAND_EXECUTION_STATUS>() != CL_COMPLETE);
      cl::CommandQueue other(device().context, device().device);
      other.enqueueWriteBuffer(src, CL_TRUE, 0, new_image.size() * sizeof(float), new_image.data());
      other.enqueueWriteBuffer(taps, CL_TRUE, 0, new_taps.size() * sizeof(float), new_taps.data());
      gate.setStatus(CL_COMPLETE);
      done.wait();
      // New taps (1.5 x 1.5) over the new image of 3: 6.75 everywhere (old taps 3, old image 4.5, both old 2).
      for (float value : guarded.read()) CHECK(value == doctest::Approx(6.75f));
      guarded.check_guards("dst after the gate");
    };
    run(nullptr);
    const Config two_pass = with_group({"two_pass", {{"VEC", 4}}}, 8, 2);
    run(&two_pass);  // two kernels and the workspace's ordering
  }

  TEST_CASE("convolve: two-pass calls in flight at once share the workspace safely, also on an out-of-order queue") {
    const Config two_pass = with_group({"two_pass", {{"VEC", 4}}}, 8, 2);
    cl::CommandQueue out_of_order;
    try {
      out_of_order = cl::CommandQueue(device().context, device().device, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
    } catch (const cl::Error&) {
      out_of_order = device().queue;  // not supported: the in-order queue still checks back-to-back calls
    }
    auto random = test::random_engine("workspace");
    const std::vector<float> taps{0.1f, 0.2f, 0.4f, 0.2f, 0.1f};
    cl::Buffer taps_buffer = test::to_device(taps);
    std::vector<std::vector<float>> sources;
    std::vector<cl::Buffer> inputs;
    std::vector<test::GuardedBuffer<float>> outputs;
    std::vector<cl::Event> done;
    const std::vector<std::pair<std::size_t, std::size_t>> sizes{{200, 150}, {37, 300}, {311, 17}};
    for (auto [width, height] : sizes) {
      sources.push_back(test::random_vector<float>(width * height, random));
      inputs.push_back(test::to_device(sources.back()));
      outputs.emplace_back(width * height);
      done.push_back(detail::separable_filter_with<float>(two_pass, out_of_order, width, height, 1, inputs.back(), 0,
                                                          width, outputs.back().buffer(), outputs.back().offset(),
                                                          width, taps_buffer, 0, 5, taps_buffer, 0, 5, Border::Mirror));
    }
    cl::Event::waitForEvents(done);
    for (std::size_t i = 0; i < sizes.size(); ++i) {
      const auto [width, height] = sizes[i];
      const auto exact =
          reference::separable_filter(sources[i].data(), static_cast<long>(width), static_cast<long>(height), 1,
                                      static_cast<long>(width), taps, taps, reference::Border::Mirror);
      test::check_all_close(outputs[i].read(), exact, 1e-5, "call " + std::to_string(i));
      outputs[i].check_guards("call " + std::to_string(i));
    }
  }

  TEST_CASE("convolve: an override that cannot serve a filter size gives way to the default there") {
    test::ScopedEnv mode("TILECL_TUNE", "off");
    tuning::clear();
    tuning::override_parameters(device().device, "box_blur", "float", tiled(16, 8, 2, 4, 0, 0));
    auto choice = tuning::parameters_for(device().queue, "box_blur", "float", "640x480,3x5");
    CHECK(choice.origin == tuning::Origin::Override);
    check_any(nullptr, Filter{Op::Box, 1, Border::Mirror, 1, 2}, false, {{37, 23}});
    check_any(nullptr, Filter{Op::Box, 1, Border::Mirror, 20, 1}, false, {{45, 9}});  // beyond the tiled radii
    tuning::clear();
  }

  TEST_CASE("convolve: the tuner verifies candidates against its reference and picks one on first use") {
    test::ScopedEnv cache("TILECL_CACHE_DIR", test::temp_directory("convolve-tuning"));
    test::ScopedEnv mode("TILECL_TUNE", "first-use");
    tuning::clear();
    auto choice = tuning::parameters_for(device().queue, "gaussian_blur", "float", "200x100,9x9");
    CHECK(choice.origin == tuning::Origin::FirstUse);
    CHECK(choice.bucket == "c1 9x9 px<=2^16");
    // The subject of `tilecl tune`, run over one candidate of each variant: every one verifies at the
    // subject's ragged and aligned layouts (interior and edge tiles) and is timed.
    const auto& op = detail::find_tunable_op("separable_filter");
    auto subject = op.make_subject("uint8", "200x100x3,5x3,wrap");
    CHECK(subject->key().bucket == "c3 5x3 px<=2^16");
    CHECK(subject->timing_shape() == "256x192x3,5x3,wrap");
    const std::vector<Config> candidates{rounding(with_group({"vector", {{"VEC", 8}, {"WPT_Y", 3}}}, 8, 1), 1),
                                         rounding(with_group({"two_pass", {{"VEC", 4}}}, 8, 2), 0),
                                         tiled(16, 8, 2, 4, 0, 0)};
    cl::CommandQueue profiling(device().context, device().device, CL_QUEUE_PROFILING_ENABLE);
    detail::TunerOptions options;
    options.budget_ms = 1e9;
    detail::EventTimer timer(1);
    const auto outcome = detail::run_tuner(*subject, profiling, candidates, candidates[0], options, timer);
    CHECK(outcome.found);
    for (const auto& result : outcome.results) {
      CAPTURE(result.config.to_string());
      CAPTURE(result.message);
      CHECK((result.status == detail::CandidateStatus::Best || result.status == detail::CandidateStatus::Measured));
    }
    for (const char* bad : {"640x480", "640x480,4x5", "640x480,5x5,sideways", "640x480x2,5x5", "640x0,3x3"})
      CHECK_THROWS_AS(op.make_subject("float", bad), Error);
    CHECK_THROWS_AS(detail::find_tunable_op("gaussian_blur").make_subject("float", "640x480,5x3"), Error);
    tuning::clear();
  }

  TEST_CASE("convolve: bad arguments raise tilecl::Error naming the argument") {
    auto& q = device().queue;
    cl::Buffer src(device().context, CL_MEM_READ_WRITE, 100 * 10 * 3 * sizeof(float));
    cl::Buffer dst(device().context, CL_MEM_READ_WRITE, 100 * 10 * 3 * sizeof(float));
    cl::Buffer filter(device().context, CL_MEM_READ_WRITE, 25 * sizeof(float));
    const Border m = Border::Mirror;
    const std::string c2 = "convolve2d", sep = "separable_filter", box = "box_blur", gauss = "gaussian_blur";
    // Filter sizes.
    expect_error(
        c2, [&] { convolve2d<float>(q, 10, 10, 1, src, 0, 10, dst, 0, 10, filter, 0, 4, 3, m); }, "filter_width",
        "CL_INVALID_VALUE", "odd");
    expect_error(
        c2, [&] { convolve2d<float>(q, 10, 10, 1, src, 0, 10, dst, 0, 10, filter, 0, 3, 0, m); }, "filter_height",
        "CL_INVALID_VALUE", "empty");
    expect_error(
        sep, [&] { separable_filter<float>(q, 10, 10, 1, src, 0, 10, dst, 0, 10, filter, 0, 0, filter, 0, 3, m); },
        "row_filter_length", "CL_INVALID_VALUE", "empty");
    expect_error(
        sep, [&] { separable_filter<float>(q, 10, 10, 1, src, 0, 10, dst, 0, 10, filter, 0, 3, filter, 0, 6, m); },
        "column_filter_length", "CL_INVALID_VALUE", "odd");
    // Filter buffers.
    expect_error(
        c2, [&] { convolve2d<float>(q, 10, 10, 1, src, 0, 10, dst, 0, 10, filter, 1, 5, 5, m); }, "filter",
        "CL_INVALID_BUFFER_SIZE", "filter buffer too short");
    expect_error(
        c2, [&] { convolve2d<float>(q, 10, 10, 1, src, 0, 10, dst, 0, 10, filter, 0, 7, 5, m); }, "filter",
        "CL_INVALID_BUFFER_SIZE", "filter buffer too short");
    expect_error(
        sep, [&] { separable_filter<float>(q, 10, 10, 1, src, 0, 10, dst, 0, 10, filter, 0, 5, filter, 21, 5, m); },
        "column_filter", "CL_INVALID_BUFFER_SIZE", "filter buffer too short");
    cl::Buffer null_buffer;
    expect_error(
        c2, [&] { convolve2d<float>(q, 10, 10, 1, src, 0, 10, dst, 0, 10, null_buffer, 0, 3, 3, m); }, "filter",
        "CL_INVALID_MEM_OBJECT");
    expect_error(
        c2, [&] { convolve2d<float>(q, 10, 10, 1, src, 0, 10, dst, 0, 10, dst, 0, 3, 3, m); }, "dst",
        "CL_MEM_COPY_OVERLAP");
    cl::Context other(device().device);
    cl::Buffer foreign(other, CL_MEM_READ_WRITE, 100 * sizeof(float));
    expect_error(
        sep, [&] { separable_filter<float>(q, 10, 10, 1, src, 0, 10, dst, 0, 10, filter, 0, 3, foreign, 0, 3, m); },
        "column_filter", "CL_INVALID_CONTEXT");
    // Images.
    expect_error(
        c2, [&] { convolve2d<float>(q, 10, 10, 3, src, 0, 29, dst, 0, 30, filter, 0, 3, 3, m); }, "src_pitch",
        "CL_INVALID_VALUE");
    expect_error(
        box, [&] { box_blur<float>(q, 10, 10, 1, src, 0, 10, dst, 0, 9, 1, 1, m); }, "dst_pitch", "CL_INVALID_VALUE");
    expect_error(
        box, [&] { box_blur<float>(q, 100, 10, 3, src, 1, 300, dst, 0, 300, 1, 1, m); }, "src",
        "CL_INVALID_BUFFER_SIZE");
    expect_error(
        box, [&] { box_blur<std::uint8_t>(q, 100, 10, 3, src, 0, 300, dst, 0, 1400, 1, 1, m); }, "dst",
        "CL_INVALID_BUFFER_SIZE");
    expect_error(
        gauss, [&] { gaussian_blur<float>(q, 100, 10, 1, src, 0, 100, src, 500, 100, 1.0, m); }, "dst",
        "CL_MEM_COPY_OVERLAP");
    expect_error(
        gauss, [&] { gaussian_blur<float>(q, 10, 10, 2, src, 0, 20, dst, 0, 20, 1.0, m); }, "channels",
        "CL_INVALID_VALUE");
    expect_error(
        gauss, [&] { gaussian_blur<float>(q, 10, 10, 1, src, 0, 10, dst, 0, 10, 1.0, static_cast<Border>(9)); },
        "border", "CL_INVALID_VALUE");
    // Sigma and radii.
    expect_error(
        gauss, [&] { gaussian_blur<float>(q, 10, 10, 1, src, 0, 10, dst, 0, 10, 0.0, m); }, "sigma",
        "CL_INVALID_VALUE");
    expect_error(
        gauss, [&] { gaussian_blur<float>(q, 10, 10, 1, src, 0, 10, dst, 0, 10, -2.0, m); }, "sigma",
        "CL_INVALID_VALUE");
    expect_error(
        gauss, [&] { gaussian_blur<float>(q, 10, 10, 1, src, 0, 10, dst, 0, 10, NAN, m); }, "sigma",
        "CL_INVALID_VALUE");
    expect_error(
        gauss, [&] { gaussian_blur<float>(q, 10, 10, 1, src, 0, 10, dst, 0, 10, 1e9, m); }, "sigma",
        "CL_INVALID_VALUE");
    expect_error(
        gauss, [&] { gaussian_blur<float>(q, 10, 10, 1, src, 0, 10, dst, 0, 10, 1.0, m, 100000); }, "radius",
        "CL_INVALID_VALUE");
    // Too many taps for the device's constant memory.
    const std::uint64_t constant = device().device.getInfo<CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE>();
    std::size_t side = static_cast<std::size_t>(std::ceil(std::sqrt(static_cast<double>(constant / 4 + 1)))) | 1;
    expect_error(
        c2, [&] { convolve2d<float>(q, 10, 10, 1, src, 0, 10, dst, 0, 10, filter, 0, side, side, m); }, "filter_width",
        "CL_INVALID_VALUE", "constant memory");
    const std::size_t radius = constant / 16 + 1;  // 2 (2r + 1) taps of 4 bytes exceed the limit
    if (radius <= 65535) {
      expect_error(
          gauss, [&] { gaussian_blur<float>(q, 10, 10, 1, src, 0, 10, dst, 0, 10, 1.0, m, radius); }, "radius",
          "CL_INVALID_VALUE", "constant memory");
      expect_error(
          box, [&] { box_blur<float>(q, 10, 10, 1, src, 0, 10, dst, 0, 10, radius, radius, m); }, "radius_x",
          "CL_INVALID_VALUE", "constant memory");
    }
    // Explicit configurations that break the search space's rules for this filter.
    expect_error(
        c2,
        [&] {
          detail::convolve2d_with<float>(tiled(16, 8, 2, 4, 0), q, 10, 10, 1, src, 0, 10, dst, 0, 10, filter, 0, 19, 1,
                                         m);
        },
        "config", "CL_INVALID_VALUE", "radii");
    expect_error(
        sep,
        [&] {
          detail::separable_filter_with<float>(tiled(16, 8, 3, 4, 0, 0), q, 10, 10, 1, src, 0, 10, dst, 0, 10, filter,
                                               0, 3, filter, 0, 3, m);
        },
        "config", "CL_INVALID_VALUE", "TILE_Y % WPT_Y");
    expect_error(
        box,
        [&] {
          detail::box_blur_with<float>(with_group({"vector", {{"VEC", 3}, {"WPT_Y", 2}}}, 8, 1), q, 10, 10, 1, src, 0,
                                       10, dst, 0, 10, 1, 1, m);
        },
        "config", "CL_INVALID_VALUE");
    expect_error(
        c2,
        [&] {
          detail::convolve2d_with<float>(with_group({"naive", {}}, 1 << 20, 1), q, 10, 10, 1, src, 0, 10, dst, 0, 10,
                                         filter, 0, 3, 3, m);
        },
        "config", "CL_INVALID_VALUE");
  }
}

TEST_SUITE("ops.convolve") {
  TEST_CASE("convolve: tiny ragged images under every variant (also run under oclgrind)") {
    // oclgrind's uninitialized-value checker keeps stale shadow state for a buffer address that an earlier,
    // smaller buffer had (it then calls the two-pass workspace, which only kernels write, uninitialized). So
    // the workspace is grown once to the largest size used here and written from the host, as oclgrind wants.
    {
      const std::size_t bytes = 64 * 1024;
      auto workspace = detail::acquire_workspace("test", device().context, device().device,
                                                 "convolve two-pass intermediate", bytes, nullptr);
      const std::vector<unsigned char> zeros(workspace.bytes(), 0);
      device().queue.enqueueWriteBuffer(workspace.buffer(), CL_TRUE, 0, zeros.size(), zeros.data());
    }
    // The sweep's programs (the first combination of each setting), at sizes with interior and edge tiles of
    // its 8 x 8, 16 x 8 and 8 x 16 tiles.
    check_any(&kNaive, Filter{Op::Convolve2d, 1, Border::Zero, 1, 1}, false, {{3, 2}, {19, 11}});
    for (const auto& setting : swept_settings()) {
      CAPTURE(setting.config.to_string());
      check_any(&setting.config, filter_of(setting, setting.first), kCombinations[setting.first].bytes,
                {{3, 2}, {19, 11}, {35, 18}});
    }
  }
}
