#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <fstream>
#include <functional>
#include <optional>
#include <sstream>
#include <thread>

#include "ops/convolve.hpp"
#include "ops/image/filter_calls.hpp"
#include "ops/image/filter_program.hpp"
#include "ops/image/filter_space.hpp"
#include "ops/image/image_common.hpp"
#include "ops/image/tap_buffers.hpp"
#include "reference/image_reference.hpp"
#include "support/fixture.hpp"
#include "support/guarded_buffer.hpp"
#include "sweeps/shapes.hpp"
#include "tilecl/convolve.hpp"
#include "tilecl/error.hpp"
#include "tilecl/runtime.hpp"
#include "tilecl/tuning.hpp"
#include "tuning/op_registry.hpp"
#include "tuning/tuner.hpp"

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

// One filter problem: the op, channels, border rule (with the constant's value), radii, the Gaussian's sigma
// (its radius left to the op's default when `default_radius`) and the arithmetic.
struct Filter {
  Op op;
  std::size_t channels;
  Border border;
  int radius_x, radius_y;
  double sigma = 1.0;
  bool default_radius = false;
  Arithmetic arithmetic = Arithmetic::Float;
  double border_value = 0.0;
};

std::string describe(const Filter& f) {
  return std::string(op_name(f.op)) + " c" + std::to_string(f.channels) + " border " +
         reference::border_name(to_reference(f.border)) + " " + std::to_string(2 * f.radius_x + 1) + "x" +
         std::to_string(2 * f.radius_y + 1) + (f.arithmetic == Arithmetic::OpenCV ? " opencv" : "");
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

// The taps of a problem, and what the op must compute from `source` (exact values; under the OpenCV
// arithmetic the bytes OpenCV computes, as reference::opencv_* model them).
struct Expected {
  std::vector<float> direct, row, column;
  std::vector<double> values;
  double tolerance = 0;  // of float sums; 0: bit-exact
};

template <typename T>
double border_constant(const Filter& f) {
  if (f.border != Border::Constant) return 0.0;
  if (std::is_same_v<T, float>) return f.border_value;
  return std::clamp(std::nearbyint(f.border_value), 0.0, 255.0);
}

template <typename T>
Expected expected_exact_bytes(const Filter& f, const T* source, std::size_t width, std::size_t height,
                              std::size_t pitch, Expected e) {
  const reference::ByteImage image{reinterpret_cast<const std::uint8_t*>(source),
                                   static_cast<long>(width),
                                   static_cast<long>(height),
                                   static_cast<long>(f.channels),
                                   static_cast<long>(pitch),
                                   to_reference(f.border),
                                   static_cast<std::uint8_t>(border_constant<T>(f))};
  std::vector<std::uint8_t> bytes;
  if (f.op == Op::Convolve2d)
    bytes = reference::opencv_filter2d(image, e.direct, f.radius_x, f.radius_y);
  else if (f.op == Op::Box)
    bytes = reference::opencv_box_blur(image, f.radius_x, f.radius_y);
  else
    bytes = reference::opencv_gaussian_blur(image, reference::opencv_gaussian_fixed(2 * f.radius_x + 1, f.sigma),
                                            reference::opencv_gaussian_fixed(2 * f.radius_y + 1, f.sigma));
  e.values.assign(bytes.begin(), bytes.end());
  return e;
}

template <typename T>
Expected expected_of(const Filter& f, const T* source, std::size_t width, std::size_t height, std::size_t pitch,
                     std::mt19937_64& random) {
  const std::size_t kw = 2 * f.radius_x + 1, kh = 2 * f.radius_y + 1;
  Expected e;
  if (f.op == Op::Convolve2d) e.direct = random_taps(kw * kh, random);
  if (f.op == Op::Separable) e.row = random_taps(kw, random), e.column = random_taps(kh, random);
  if (f.op == Op::Box) e.row = reference::box_taps(f.radius_x), e.column = reference::box_taps(f.radius_y);
  if (f.op == Op::Gaussian) e.row = e.column = reference::gaussian_taps(f.sigma, f.radius_x);
  if (!std::is_same_v<T, float> && f.arithmetic == Arithmetic::OpenCV)
    return expected_exact_bytes(f, source, width, height, pitch, e);
  const long w = static_cast<long>(width), h = static_cast<long>(height), p = static_cast<long>(pitch);
  const int c = static_cast<int>(f.channels);
  const double value = border_constant<T>(f),
               largest = std::max(std::is_same_v<T, float> ? 2.0 : 255.0, std::abs(value));
  double magnitude = 0;
  if (f.op == Op::Convolve2d) {
    e.values =
        reference::convolve2d(source, w, h, c, p, e.direct, f.radius_x, f.radius_y, to_reference(f.border), value);
    for (float t : e.direct) magnitude += std::abs(t);
  } else {
    e.values = reference::separable_filter(source, w, h, c, p, e.row, e.column, to_reference(f.border), value);
    double row_sum = 0, column_sum = 0;
    for (float t : e.row) row_sum += std::abs(t);
    for (float t : e.column) column_sum += std::abs(t);
    magnitude = row_sum * column_sum;
  }
  const std::size_t taps = f.op == Op::Convolve2d ? kw * kh : kw + kh;
  e.tolerance = reference::float_sum_tolerance(taps, magnitude * largest);
  return e;
}

// Calls the op (with `config`, or the public API's own choice).
template <typename T>
cl::Event call_filter(const Config* config, const Filter& f, std::size_t width, std::size_t height,
                      const cl::Buffer& src, const Placement& p, cl::Buffer& dst, std::size_t dst_at,
                      const cl::Buffer& first, const cl::Buffer& second, std::size_t taps_offset) {
  auto& q = device().queue;
  const std::size_t c = f.channels, kw = 2 * f.radius_x + 1, kh = 2 * f.radius_y + 1;
  const FilterOptions options(f.border, f.border_value, f.arithmetic);
  const std::optional<std::size_t> radius =
      f.default_radius ? std::nullopt : std::optional<std::size_t>(static_cast<std::size_t>(f.radius_x));
  switch (f.op) {
    case Op::Convolve2d:
      return config ? detail::convolve2d_with<T>(*config, q, width, height, c, src, p.src_offset, p.src_pitch, dst,
                                                 dst_at, p.dst_pitch, first, taps_offset, kw, kh, options)
                    : convolve2d<T>(q, width, height, c, src, p.src_offset, p.src_pitch, dst, dst_at, p.dst_pitch,
                                    first, taps_offset, kw, kh, options);
    case Op::Separable:
      return config ? detail::separable_filter_with<T>(*config, q, width, height, c, src, p.src_offset, p.src_pitch,
                                                       dst, dst_at, p.dst_pitch, first, taps_offset, kw, second,
                                                       taps_offset + 1, kh, options)
                    : separable_filter<T>(q, width, height, c, src, p.src_offset, p.src_pitch, dst, dst_at, p.dst_pitch,
                                          first, taps_offset, kw, second, taps_offset + 1, kh, options);
    case Op::Box:
      return config ? detail::box_blur_with<T>(*config, q, width, height, c, src, p.src_offset, p.src_pitch, dst,
                                               dst_at, p.dst_pitch, f.radius_x, f.radius_y, options)
                    : box_blur<T>(q, width, height, c, src, p.src_offset, p.src_pitch, dst, dst_at, p.dst_pitch,
                                  f.radius_x, f.radius_y, options);
    case Op::Gaussian:
      return config ? detail::gaussian_blur_with<T>(*config, q, width, height, c, src, p.src_offset, p.src_pitch, dst,
                                                    dst_at, p.dst_pitch, f.sigma, options, radius)
                    : gaussian_blur<T>(q, width, height, c, src, p.src_offset, p.src_pitch, dst, dst_at, p.dst_pitch,
                                       f.sigma, options, radius);
  }
  return {};
}

// Runs the filter on a width x height image and checks every element of dst: the expected value inside the
// image, the initial fill everywhere else (pitch padding, offset, guard). Byte outputs run twice with two
// different fills, so a skipped or stray write cannot pass by matching the fill; float outputs start as NaN.
template <typename T>
void check_filter(const Config* config, const Filter& f, std::size_t width, std::size_t height, ImageLayout layout,
                  std::size_t taps_offset) {
  CAPTURE(describe(f));
  CAPTURE(width);
  CAPTURE(height);
  CAPTURE(static_cast<int>(layout));
  CAPTURE(taps_offset);
  auto random = test::random_engine(describe(f) + std::to_string(width) + "x" + std::to_string(height));
  const std::size_t row = width * f.channels;
  const Placement p = place(layout, row);
  const std::size_t src_size = p.src_offset + reference::image_extent(p.src_pitch, row, height) + kGuard;
  const std::size_t dst_size = p.dst_offset + reference::image_extent(p.dst_pitch, row, height) + kGuard;
  const bool bytes = !std::is_same_v<T, float>;
  // Settings shared by both types say how their bytes are rounded (bytes with float sums only): the others drop
  // it.
  std::optional<Config> typed;
  if (config != nullptr && (!bytes || f.arithmetic == Arithmetic::OpenCV)) {
    typed = *config;
    typed->values.erase("USE_ROUND_BY_ADD");
    config = &*typed;
  }
  const auto src =
      bytes ? test::random_vector<T>(src_size, random, 0, 255) : test::random_vector<T>(src_size, random, -1.0, 2.0);
  const Expected expected = expected_of(f, src.data() + p.src_offset, width, height, p.src_pitch, random);
  cl::Buffer src_buffer = test::to_device(src);
  cl::Buffer first_taps = taps_buffer(f.op == Op::Convolve2d ? expected.direct : expected.row, taps_offset);
  cl::Buffer second_taps = taps_buffer(expected.column, taps_offset + 1);
  for (int pass = 0; pass < (bytes ? 2 : 1); ++pass) {
    std::vector<T> initial(dst_size, test::poison<T>());
    if (bytes) {
      auto fill = test::random_engine("fill" + std::to_string(pass));
      initial = test::random_vector<T>(dst_size, fill, 0, 255);
    }
    test::GuardedBuffer<T> guarded_dst(initial);
    cl::Event done = call_filter<T>(config, f, width, height, src_buffer, p, guarded_dst.buffer(),
                                    guarded_dst.offset() + p.dst_offset, first_taps, second_taps, taps_offset);
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
        const double want =
            expected.values[((i - p.dst_offset) / p.dst_pitch) * row + (i - p.dst_offset) % p.dst_pitch];
        if constexpr (std::is_same_v<T, float>)
          ok = reference::matches_float(want, got[i], expected.tolerance);
        else
          ok = expected.tolerance == 0 ? got[i] == want : reference::matches_u8(want, got[i], expected.tolerance);
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

// The combinations the sweeps draw from: every border rule (the constant both a float and a byte value that
// saturates), bytes and floats, one, three and four channels, with radii that include 0, non-square filters
// and filters larger than the 3x2 image. Each setting of a variant takes two of them (a program each).
struct Combination {
  Border border;
  double border_value;
  bool bytes;
  std::size_t channels;
  int radius_x, radius_y;
};
const std::array<Combination, 6> kCombinations{{{Border::Zero, 0.0, false, 1, 1, 2},
                                                {Border::Clamp, 0.0, true, 3, 2, 0},
                                                {Border::Mirror, 0.0, false, 4, 0, 3},
                                                {Border::Wrap, 0.0, true, 1, 7, 7},
                                                {Border::Reflect, 0.0, true, 4, 3, 1},
                                                {Border::Constant, 300.7, false, 3, 1, 1}}};

// One setting of a variant in the sweep: its combinations `first` and `second`, each with the radii of the
// combination `rotate` places further on; one setting per variant also runs with OpenCV's arithmetic on bytes
// (the op is a blur for separable settings: separable_filter has no OpenCV arithmetic).
struct Setting {
  Op op;
  Config config;
  std::size_t first, second, rotate;
  bool opencv = false;  // also run with OpenCV's arithmetic (one setting per variant: a program each)
};

Filter filter_of(const Setting& setting, std::size_t combination, Arithmetic arithmetic = Arithmetic::Float) {
  const Combination& c = kCombinations[combination];
  const Combination& radii = kCombinations[(combination + setting.rotate) % kCombinations.size()];
  Op op = setting.op;
  int ry = radii.radius_y;
  if (arithmetic == Arithmetic::OpenCV && op == Op::Separable) {
    op = combination % 2 ? Op::Box : Op::Gaussian;
    ry = op == Op::Gaussian ? radii.radius_x : ry;  // the sigma form is square
  }
  int rx = radii.radius_x;
  if (arithmetic == Arithmetic::OpenCV && op == Op::Convolve2d)
    rx = std::min(rx, 4), ry = std::min(ry, 2);  // < 130 taps
  Filter f{op, c.channels, c.border, rx, ry, 1.3, false, arithmetic, c.border_value};
  if (arithmetic == Arithmetic::OpenCV && f.border == Border::Constant) f.border_value = 77.0;
  return f;
}

// A tiled setting; with local_input it is the separable kernel's, which also takes USE_PREFETCH (all row-pass
// windows of a work-item loaded before any is filtered).
Config tiled(std::int64_t tile_x, std::int64_t tile_y, std::int64_t wpt_y, std::int64_t vec, std::int64_t pad,
             std::optional<std::int64_t> local_input = std::nullopt, std::int64_t prefetch = 1) {
  Config config{"tiled", {{"TILE_X", tile_x}, {"TILE_Y", tile_y}, {"WPT_Y", wpt_y}, {"VEC", vec}, {"PAD", pad}}};
  if (local_input) {
    config.values["USE_LOCAL_INPUT"] = *local_input;
    config.values["USE_PREFETCH"] = prefetch;
  }
  return config;
}

Config with_group(Config config, std::int64_t x, std::int64_t y) {
  config.values["WG_X"] = x;
  config.values["WG_Y"] = y;
  return config;
}

// A setting with its rounding of bytes (floats and OpenCV's arithmetic drop it: see check_filter).
Config rounding(Config config, std::int64_t round_by_add) {
  config.values["USE_ROUND_BY_ADD"] = round_by_add;
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
// have interior and edge tiles), and every vector width. The tiled settings avoid the 15 x 15 filter: PoCL
// takes seconds to compile their unrolled tap loops for it (the tiled ones get filters larger than the 3x2
// image anyway).
std::vector<Setting> swept_settings() {
  // The direct vector kernel one row per work-item, and in strips of rows through its ring of output rows (WPT_Y
  // above 1; 5 and 3 leave a partial strip on every test image, 16 covers the short ones in one strip).
  return {{Op::Convolve2d, rounding(with_group({"vector", {{"VEC", 4}, {"WPT_Y", 1}, {"USE_WINDOW", 1}}}, 8, 2), 0), 0,
           5, 0},
          {Op::Convolve2d, rounding(with_group({"vector", {{"VEC", 16}, {"WPT_Y", 5}, {"USE_WINDOW", 0}}}, 16, 1), 1),
           2, 3, 1, true},
          {Op::Convolve2d, rounding(with_group({"vector", {{"VEC", 8}, {"WPT_Y", 3}, {"USE_WINDOW", 1}}}, 8, 1), 0), 1,
           4, 2, true},
          {Op::Convolve2d, rounding(with_group({"vector", {{"VEC", 16}, {"WPT_Y", 16}, {"USE_WINDOW", 0}}}, 4, 2), 1),
           3, 0, 3},
          {Op::Convolve2d, rounding(tiled(16, 8, 2, 4, 0), 1), 0, 5, 0},
          {Op::Convolve2d, rounding(tiled(8, 8, 4, 8, 8), 0), 2, 4, 4, true},
          {Op::Separable, rounding(with_group({"two_pass", {{"VEC", 4}, {"USE_WINDOW", 0}}}, 8, 2), 1), 0, 1, 3},
          {Op::Separable, rounding(with_group({"two_pass", {{"VEC", 16}, {"USE_WINDOW", 1}}}, 4, 4), 0), 4, 5, 2, true},
          {Op::Separable, rounding(with_group({"vector", {{"VEC", 8}, {"WPT_Y", 3}, {"USE_WINDOW", 1}}}, 8, 1), 0), 0,
           1, 2},
          {Op::Separable, rounding(with_group({"vector", {{"VEC", 16}, {"WPT_Y", 32}, {"USE_WINDOW", 0}}}, 4, 2), 1), 4,
           5, 0, true},
          {Op::Separable, rounding(tiled(16, 8, 2, 4, 0, 0, 0), 1), 0, 1, 1},
          {Op::Separable, rounding(tiled(8, 16, 4, 8, 8, 0, 1), 0), 2, 3, 2},
          {Op::Separable, rounding(tiled(16, 8, 8, 2, 2, 1, 0), 1), 4, 5, 0, true},
          // The register ring (bytes: combinations 1, 3 and 4; floats: 0 and 5), at most 128 registers of ring and
          // window.
          {Op::Separable, rounding(with_group({"ring", {{"VEC", 4}, {"WPT_Y", 3}}}, 8, 1), 1), 1, 3, 0, true},
          {Op::Separable, rounding(with_group({"ring", {{"VEC", 8}, {"WPT_Y", 16}}}, 4, 2), 0), 4, 1, 1},
          {Op::Separable, rounding(with_group({"ring", {{"VEC", 16}, {"WPT_Y", 1}}}, 16, 1), 1), 3, 4, 1},
          {Op::Separable, with_group({"ring", {{"VEC", 4}, {"WPT_Y", 8}}}, 8, 1), 0, 5, 0}};
}

const Config kNaive = with_group({"naive", {}}, 8, 4);

// Each call's shape flag (`flag`: the expected value beside the call) and the macro the fused and the two-pass byte
// programs build from it.
void check_shape_macro(const std::vector<std::pair<detail::FilterCall, bool>>& calls, bool detail::FilterShape::*flag,
                       const char* macro) {
  const Config fused{"vector", {{"VEC", 8}, {"WPT_Y", 4}, {"USE_WINDOW", 0}}};
  const Config two_pass{"two_pass", {{"VEC", 8}, {"USE_WINDOW", 0}}};
  for (const auto& [call, expected] : calls) {
    const detail::FilterShape& shape = call.problem.shape;
    CAPTURE(shape.radius_x);
    CAPTURE(shape.radius_y);
    CHECK(shape.*flag == expected);
    for (const Config& config : {fused, two_pass}) {
      const auto options = detail::filter_build_options(shape, Border::Mirror, detail::dtype_of<std::uint8_t>(),
                                                        detail::plan_of(config));
      CHECK(options.macros().at(macro) == (expected ? "1" : "0"));
    }
  }
}

}  // namespace

TEST_SUITE("ops.convolve") {
  TEST_CASE(
      "convolve: every variant and setting matches the host reference under every border, type and channel count") {
    // naive reads the radius at run time: one program per type, channels and border serves every filter size.
    for (const auto& c : kCombinations) {
      for (auto [rx, ry] : {std::pair<int, int>{0, 0}, {1, 1}, {3, 1}, {7, 7}})
        check_any(&kNaive,
                  Filter{Op::Convolve2d, c.channels, c.border, rx, ry, 1.0, false, Arithmetic::Float, c.border_value},
                  c.bytes, {{1, 1}, {3, 2}, {37, 23}});
    }
    for (const auto& setting : swept_settings()) {
      CAPTURE(setting.config.to_string());
      for (std::size_t combination : {setting.first, setting.second})
        check_any(&setting.config, filter_of(setting, combination), kCombinations[combination].bytes);
    }
  }

  TEST_CASE("convolve: edge chunks of the vector kernels at every width") {
    // Chunks whose taps cross a row's end build their window through the border rule: in registers where it reaches
    // at most one row beyond either end (kernels/convolve.cl, conv_edge_in_reach), else through private memory.
    // Widths 1..40 of 8-lane chunks with 3 taps each side cross that limit for every rule and channel count, and
    // rows of 2 (VEC + rx channels) elements or fewer are all edge chunks. Not marked for the oclgrind run: oclgrind
    // 21.10's instruction counter (--inst-counts, which that run needs) corrupts its own heap and aborts on the
    // register window of some settings (the 3-channel byte one at widths 11 and 12, for one); under oclgrind's
    // bounds, race and uninitialized-value checks without it the case passes (2026-12-07, by hand:
    // `oclgrind --data-races --uninitialized --check-api tilecl_tests -tc="convolve: edge chunks*"`).
    std::vector<std::pair<std::size_t, std::size_t>> images;
    for (std::size_t width = 1; width <= 40; ++width) images.emplace_back(width, 3);
    const Config fused = rounding(with_group({"vector", {{"VEC", 8}, {"WPT_Y", 2}, {"USE_WINDOW", 0}}}, 4, 2), 1);
    const Config ring = rounding(with_group({"vector", {{"VEC", 8}, {"WPT_Y", 3}, {"USE_WINDOW", 1}}}, 8, 1), 1);
    const Config one_row = rounding(with_group({"vector", {{"VEC", 4}, {"WPT_Y", 1}, {"USE_WINDOW", 0}}}, 8, 2), 0);
    const std::array<std::size_t, 6> channels{1, 3, 4, 3, 1, 4};
    for (std::size_t i = 0; i < kCombinations.size(); ++i) {
      const Combination& c = kCombinations[i];
      CAPTURE(i);
      const Filter separable{Op::Separable, channels[i], c.border, 3, 1, 1.0, false, Arithmetic::Float, c.border_value};
      check_any(&fused, separable, c.bytes, images);
      Filter direct = separable;
      direct.op = Op::Convolve2d;
      check_any(i % 2 == 0 ? &ring : &one_row, direct, !c.bytes, images);
    }
  }

  TEST_CASE("convolve: every variant with OpenCV's byte arithmetic gives OpenCV's bytes exactly") {
    // Direct variants: filter2D's fused float sums; separable ones: GaussianBlur's and blur's integers.
    check_any(&kNaive, filter_of(Setting{Op::Convolve2d, kNaive, 0, 0, 1}, 1, Arithmetic::OpenCV), true,
              {{1, 1}, {3, 2}, {37, 23}});
    for (const auto& setting : swept_settings()) {
      if (!setting.opencv) continue;
      CAPTURE(setting.config.to_string());
      check_any(&setting.config, filter_of(setting, setting.first, Arithmetic::OpenCV), true,
                {{1, 1}, {3, 2}, {5, 7}, {37, 23}, {133, 71}});
    }
  }

  TEST_CASE(
      "convolve: the blurs' symmetric taps (USE_SYMMETRIC 1) match the host reference in every CPU-shaped setting") {
    // The sweep's separable_filter rows have random taps (USE_SYMMETRIC 0) and its blurs OpenCV's integer sums;
    // this runs the blurs with float sums -- a changed order of summation -- through the same settings.
    for (const auto& setting : swept_settings()) {
      if (setting.op != Op::Separable || setting.config.variant == "tiled") continue;
      CAPTURE(setting.config.to_string());
      for (std::size_t combination : {setting.first, setting.second}) {
        Filter f = filter_of(setting, combination);
        f.op = combination % 2 ? Op::Box : Op::Gaussian;
        if (f.op == Op::Gaussian) f.radius_y = f.radius_x;  // the sigma form is square
        check_any(&setting.config, f, kCombinations[combination].bytes);
      }
    }
  }

  TEST_CASE("convolve: the words kernel sums bytes with integer taps exactly, every border, channel count and layout") {
    // convolve_separable_words serves box_blur (either arithmetic) and OpenCV's GaussianBlur on bytes: every setting
    // under every border, cycling through 1/3/4 channels, the three kinds of call and radii that include 0, non-square
    // filters and filters larger than the image. Small bands (18 to 128 output words) so that the wider test images
    // span several (133 pixels of 3 or 4 channels: 100 or 133 words) and the edge bands' folding meets the inner ones'
    // plain loads (the aligned 133x71 layout); every layout (ragged rows load and store bytes). Box sums are exact: the
    // float arithmetic's expected value is the exact quotient rounded, within the reference's float tolerance.
    const std::vector<Config> settings{
        {"words", {{"WORDS_WG", 32}, {"WPT_Y", 3}, {"WPW", 1}, {"USE_PACKED_SUMS", 0}}},
        {"words", {{"WORDS_WG", 64}, {"WPT_Y", 8}, {"WPW", 2}, {"USE_PACKED_SUMS", 1}}},
        {"words", {{"WORDS_WG", 32}, {"WPT_Y", 16}, {"WPW", 4}, {"USE_PACKED_SUMS", 0}}}};
    const std::array<std::pair<int, int>, 6> radii{{{1, 2}, {2, 0}, {0, 3}, {7, 7}, {3, 1}, {1, 1}}};
    const std::array<Border, 6> borders{Border::Zero, Border::Clamp,   Border::Mirror,
                                        Border::Wrap, Border::Reflect, Border::Constant};
    const std::array<std::size_t, 3> channel_counts{1, 3, 4};
    for (std::size_t s = 0; s < settings.size(); ++s) {
      for (std::size_t b = 0; b < borders.size(); ++b) {
        const std::size_t kind = (b + s) % 3;  // box (float), box (OpenCV), Gaussian (OpenCV)
        Filter f{kind == 2 ? Op::Gaussian : Op::Box,
                 channel_counts[(b + 2 * s) % 3],
                 borders[b],
                 radii[(b + s) % 6].first,
                 radii[(b + s) % 6].second,
                 1.3,
                 false,
                 kind == 0 ? Arithmetic::Float : Arithmetic::OpenCV,
                 77.0};
        if (f.op == Op::Gaussian) f.radius_y = f.radius_x;  // the sigma form is square
        Config config = settings[s];
        if (f.op == Op::Gaussian) config.values.erase("USE_PACKED_SUMS");  // taps of 1 only
        // The setting must serve the call (else the call would warn and take the default).
        const detail::FilterImages images{37, 23, f.channels, detail::ImageOperands{nullptr, 0, 200, nullptr, 0, 200}};
        const FilterOptions options(f.border, f.border_value, f.arithmetic);
        const detail::FilterCall call =
            f.op == Op::Box ? detail::box_call(images, f.radius_x, f.radius_y, options, true)
                            : detail::gaussian_sigma_call(images, f.sigma, std::size_t(f.radius_x), options, true);
        CAPTURE(config.to_string());
        CAPTURE(describe(f));
        REQUIRE(detail::convolve_search_space(call.problem.shape, detail::dtype_of<std::uint8_t>())
                    .validate(config, *device().info) == "");
        check_images<std::uint8_t>(&config, f);
      }
    }
  }

  TEST_CASE("convolve: the words kernel is offered for byte box blurs and OpenCV's byte Gaussian only") {
    const detail::FilterImages images{37, 23, 3, detail::ImageOperands{nullptr, 0, 111, nullptr, 0, 111}};
    const FilterOptions exact(Border::Mirror, 0.0, Arithmetic::OpenCV);
    cl::Buffer taps(device().context, CL_MEM_READ_WRITE, 16 * sizeof(float));
    const detail::TapsArgument row{"row_filter", &taps, 0, 5}, column{"column_filter", &taps, 0, 3};
    using detail::IntegerTaps;
    const std::vector<std::pair<detail::FilterCall, IntegerTaps>> calls{
        {detail::box_call(images, 2, 1, Border::Mirror, true), IntegerTaps::Ones},
        {detail::box_call(images, 2, 1, exact, true), IntegerTaps::Ones},
        {detail::box_call(images, 20, 9, exact, true), IntegerTaps::None},  // OpenCV's dividing finish
        {detail::box_call(images, 2, 1, Border::Mirror, false), IntegerTaps::None},
        {detail::gaussian_sigma_call(images, 1.3, std::nullopt, exact, true), IntegerTaps::Fixed},
        {detail::gaussian_kernel_call(images, GaussianKernel{7, 3, 0, 0}, exact, true), IntegerTaps::Fixed},
        {detail::gaussian_kernel_call(images, GaussianKernel{7, 3, 0, 0}, Border::Mirror, true), IntegerTaps::None},
        {detail::separable_call(images, row, column, Border::Mirror, true), IntegerTaps::None}};
    for (const auto& [call, expected] : calls) {
      const detail::FilterShape& shape = call.problem.shape;
      CAPTURE(shape.radius_x);
      CAPTURE(shape.radius_y);
      CHECK(shape.integer_taps == expected);
      const bool offered =
          detail::convolve_search_space(shape, detail::dtype_of<std::uint8_t>()).find("words") != nullptr;
      CHECK(offered == (expected != IntegerTaps::None));
      if (!offered) continue;
      const Config config{"words", {{"WORDS_WG", 64}, {"WPT_Y", 8}, {"WPW", 1}}};
      const auto options = detail::filter_build_options(shape, Border::Mirror, detail::dtype_of<std::uint8_t>(),
                                                        detail::plan_of(config));
      CHECK(options.macros().at("USE_INTEGER_TAPS") == std::to_string(static_cast<int>(expected)));
      CHECK(options.macros().at("USE_FIXED_POINT") == (shape.opencv ? "1" : "0"));
    }
    // Never for floats, whatever the call.
    CHECK(detail::convolve_search_space(calls[0].first.problem.shape, detail::dtype_of<float>()).find("words") ==
          nullptr);
  }

  TEST_CASE("convolve: the blurs' calls are marked symmetric and build USE_SYMMETRIC 1, separable_filter's 0") {
    const detail::FilterImages images{37, 23, 3, detail::ImageOperands{nullptr, 0, 111, nullptr, 0, 111}};
    const FilterOptions exact(Border::Mirror, 0.0, Arithmetic::OpenCV);
    cl::Buffer taps(device().context, CL_MEM_READ_WRITE, 16 * sizeof(float));
    const detail::TapsArgument row{"row_filter", &taps, 0, 5}, column{"column_filter", &taps, 0, 3};
    const std::vector<std::pair<detail::FilterCall, bool>> calls{
        {detail::gaussian_kernel_call(images, GaussianKernel{9, 5, 1.7, 0.9}, Border::Zero, false), true},
        {detail::gaussian_kernel_call(images, GaussianKernel{7, 3, 0, 0}, exact, true), true},
        {detail::gaussian_sigma_call(images, 1.3, std::nullopt, Border::Clamp, true), true},
        {detail::box_call(images, 2, 1, exact, true), true},
        {detail::box_call(images, 20, 9, exact, true), true},  // the dividing finish (above 256 taps)
        {detail::box_call(images, 0, 3, Border::Reflect, false), true},
        {detail::separable_call(images, row, column, Border::Mirror, false), false}};
    check_shape_macro(calls, &detail::FilterShape::symmetric, "USE_SYMMETRIC");
  }

  TEST_CASE("convolve: the blurs' byte calls with float sums are of unit gain (USE_UNIT_GAIN 1), no other call") {
    const detail::FilterImages images{37, 23, 3, detail::ImageOperands{nullptr, 0, 111, nullptr, 0, 111}};
    const FilterOptions exact(Border::Mirror, 0.0, Arithmetic::OpenCV);
    const FilterOptions constant(Border::Constant, 300.0);  // saturated to 255 for bytes
    cl::Buffer taps(device().context, CL_MEM_READ_WRITE, 16 * sizeof(float));
    const detail::TapsArgument row{"row_filter", &taps, 0, 5}, column{"column_filter", &taps, 0, 3};
    const std::vector<std::pair<detail::FilterCall, bool>> calls{
        {detail::gaussian_kernel_call(images, GaussianKernel{9, 5, 1.7, 0.9}, Border::Zero, true), true},
        {detail::gaussian_kernel_call(images, GaussianKernel{9, 5, 1.7, 0.9}, Border::Zero, false), false},
        {detail::gaussian_kernel_call(images, GaussianKernel{7, 3, 0, 0}, exact, true), false},
        {detail::gaussian_sigma_call(images, 1.3, std::nullopt, constant, true), true},
        {detail::gaussian_sigma_call(images, 2.0, 40, Border::Wrap, true), true},
        {detail::box_call(images, 2, 1, exact, true), false},
        {detail::box_call(images, 0, 3, Border::Reflect, true), true},
        {detail::box_call(images, 20, 9, Border::Reflect, true), true},
        {detail::box_call(images, 0, 3, Border::Reflect, false), false},
        {detail::separable_call(images, row, column, Border::Mirror, false), false}};
    check_shape_macro(calls, &detail::FilterShape::unit_gain, "USE_UNIT_GAIN");
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
            {rounding(with_group({"vector", {{"VEC", 16}, {"WPT_Y", 2}, {"USE_WINDOW", 0}}}, 8, 1), round_by_add),
             false},
            {rounding(with_group({"vector", {{"VEC", 16}, {"WPT_Y", 2}, {"USE_WINDOW", 1}}}, 8, 1), round_by_add),
             true},
            {rounding(with_group({"two_pass", {{"VEC", 8}, {"USE_WINDOW", 0}}}, 8, 1), round_by_add), true}};
        // The tiled kernels with both roundings too.
        runs.push_back({rounding(tiled(16, 4, 2, 4, 0, 0, 0), round_by_add), true});
        runs.push_back({rounding(tiled(16, 4, 2, 4, 0, 0, 1), round_by_add), true});
        runs.push_back({rounding(tiled(8, 8, 4, 4, 0), round_by_add), false});
        if (round_by_add == 0) runs.push_back({with_group({"naive", {}}, 8, 1), false});
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

  TEST_CASE("image kernels: a launch work-group is fitted to narrow and short calls, never grown") {
    using detail::fitted_flat_launch;
    auto check = [](std::int64_t wg_x, std::int64_t wg_y, std::uint64_t items_x, std::uint64_t items_y,
                    std::size_t want_x, std::size_t want_y) {
      CAPTURE(wg_x);
      CAPTURE(wg_y);
      CAPTURE(items_x);
      CAPTURE(items_y);
      const auto launch = fitted_flat_launch(wg_x, wg_y, items_x, items_y);
      CHECK(launch.local[0] == want_x);
      CHECK(launch.local[1] == want_y);
      CHECK(launch.group_items == want_x * want_y);
      CHECK(launch.group_items <= static_cast<std::size_t>(wg_x * wg_y));
      CHECK(launch.global[0] % want_x == 0);
      CHECK(launch.global[1] % want_y == 0);
      CHECK(launch.global[0] >= items_x);
      CHECK(launch.global[1] >= items_y);
    };
    check(128, 1, 1000, 1000, 128, 1);  // wide enough: unchanged
    check(128, 1, 12, 1518, 16, 8);     // narrow and tall: 16 x 8 (1518 / 16 rows of groups >= 64)
    check(128, 1, 12, 100, 16, 1);      // narrow and short: rows kept for the cores
    check(128, 1, 1, 100000, 1, 64);    // one item a row: at most 64 rows
    check(64, 4, 3, 3, 4, 4);           // tiny: width cut, height as given
    check(96, 2, 5, 10000, 6, 32);      // a width that is not a power of two halves while it stays even
    check(7, 3, 2, 2, 7, 3);            // odd: left as it is
    const auto driver = fitted_flat_launch(0, 1, 12, 34);  // WG_X = 0: the driver chooses
    CHECK(driver.group_items == 0);
    CHECK(driver.global[0] == 12);
    CHECK(driver.global[1] == 34);
  }

  TEST_CASE("convolve: the GPU defaults' tile shapes are exact on an image with interior tiles") {
    // The defaults an H200-like GPU gets (float and byte tiles differ: bytes take 8-element chunks in 256-pixel
    // tiles with one channel; prefetch on one channel of floats only), run here on an image larger than one tile in
    // each direction.
    DeviceInfo gpu = *device().info;
    gpu.type = CL_DEVICE_TYPE_GPU, gpu.local_memory_is_dedicated = true;
    gpu.local_memory_bytes = std::min<std::uint64_t>(49152, device().info->local_memory_bytes);
    gpu.max_work_group_size = std::min<std::size_t>(1024, device().info->max_work_group_size);
    const auto gpu_default = [&](detail::FilterForm form, std::uint64_t channels, int radius,
                                 const detail::DTypeInfo& dtype, bool opencv, const char* variant) {
      const detail::FilterShape shape{form, channels, radius, radius, opencv};
      const Config config = detail::convolve_default_config(shape, dtype, gpu, 7680 * 4320);
      INFO(config.to_string());
      CHECK(config.variant == variant);
      return config;
    };
    const Config direct = gpu_default(detail::FilterForm::Direct, 1, 2, detail::dtype_of<float>(), false, "tiled");
    const Config separable =
        gpu_default(detail::FilterForm::Separable, 1, 4, detail::dtype_of<float>(), false, "tiled");
    const Config bytes =
        gpu_default(detail::FilterForm::Separable, 1, 4, detail::dtype_of<std::uint8_t>(), false, "tiled");
    const Config byte_channels =
        gpu_default(detail::FilterForm::Separable, 3, 4, detail::dtype_of<std::uint8_t>(), true, "tiled");
    const Config float_channels =
        gpu_default(detail::FilterForm::Separable, 4, 4, detail::dtype_of<float>(), false, "tiled");
    CHECK(bytes.values.at("USE_ROUND_BY_ADD") == 1);
    // Row-pass windows prefetched on one channel of floats only (slower on 3 and 4 channels, and on bytes).
    CHECK(separable.values.at("USE_PREFETCH") == 1);
    CHECK(float_channels.values.at("USE_PREFETCH") == 0);
    CHECK(bytes.values.at("USE_PREFETCH") == 0);
    check_filter<float>(&float_channels, Filter{Op::Gaussian, 4, Border::Clamp, 4, 4, 1.7}, 150, 70,
                        ImageLayout::Ragged, 0);
    check_filter<float>(&direct, Filter{Op::Convolve2d, 1, Border::Mirror, 2, 2}, 300, 100, ImageLayout::Aligned, 0);
    check_filter<float>(&separable, Filter{Op::Gaussian, 1, Border::Mirror, 4, 4, 1.7}, 300, 100, ImageLayout::Ragged,
                        0);
    check_filter<std::uint8_t>(&bytes, Filter{Op::Gaussian, 1, Border::Wrap, 4, 4, 1.7}, 600, 100, ImageLayout::Ragged,
                               0);
    check_filter<std::uint8_t>(&byte_channels,
                               Filter{Op::Gaussian, 3, Border::Reflect, 4, 4, 1.7, false, Arithmetic::OpenCV}, 300, 100,
                               ImageLayout::Aligned, 0);
  }

  TEST_CASE("convolve: the CPU defaults fuse strips of 64 rows for large images and filters of 5 rows or more") {
    // A 2-core CPU: 64-row strips where the image gives each core two work-groups of them, 32 otherwise and for
    // filters of 1 or 3 rows; the 64-row default then runs exact on images of one partial and one whole strip.
    DeviceInfo cpu = *device().info;
    cpu.type = CL_DEVICE_TYPE_CPU, cpu.local_memory_is_dedicated = false, cpu.compute_units = 2;
    cpu.native_vector_width_float = 16;
    cpu.max_work_group_size = std::max<std::size_t>(128, device().info->max_work_group_size);
    const auto cpu_rows = [&](std::uint64_t channels, int ry, const detail::DTypeInfo& dtype, std::uint64_t pixels) {
      const detail::FilterShape shape{detail::FilterForm::Separable, channels, 2, ry, false};
      const Config config = detail::convolve_default_config(shape, dtype, cpu, pixels);
      INFO(config.to_string());
      CHECK(config.variant == "vector");
      return config.values.at("WPT_Y");
    };
    const std::uint64_t four_strips = 4 * 64 * 128 * 16;  // pixels of one channel for two work-groups per core
    CHECK(cpu_rows(1, 4, detail::dtype_of<float>(), four_strips) == 64);
    CHECK(cpu_rows(1, 4, detail::dtype_of<float>(), four_strips - 1) == 32);
    CHECK(cpu_rows(4, 2, detail::dtype_of<std::uint8_t>(), four_strips / 4) == 64);
    CHECK(cpu_rows(4, 1, detail::dtype_of<std::uint8_t>(), four_strips) == 32);
    CHECK(cpu_rows(1, detail::kMaxFixedRadius + 1, detail::dtype_of<float>(), four_strips) == 8);
    const Config strips = with_group({"vector", {{"VEC", 8}, {"WPT_Y", 64}, {"USE_WINDOW", 0}}}, 8, 1);
    check_filter<float>(&strips, Filter{Op::Gaussian, 3, Border::Mirror, 4, 4, 1.7}, 41, 150, ImageLayout::Ragged, 0);
    const Config byte_strips = rounding(strips, 1);
    check_filter<std::uint8_t>(&byte_strips, Filter{Op::Box, 1, Border::Zero, 2, 3}, 93, 70, ImageLayout::Aligned, 0);
  }

  TEST_CASE("convolve: the GPU defaults for small images (short tiles, two passes for large filters) are exact") {
    DeviceInfo gpu = *device().info;
    gpu.type = CL_DEVICE_TYPE_GPU, gpu.local_memory_is_dedicated = true;
    gpu.local_memory_bytes = std::min<std::uint64_t>(49152, device().info->local_memory_bytes);
    gpu.max_work_group_size = std::min<std::size_t>(1024, device().info->max_work_group_size);
    const std::uint64_t small = detail::kSmallImagePixels;
    const auto small_default = [&](detail::FilterForm form, std::uint64_t channels, int rx, int ry,
                                   const detail::DTypeInfo& dtype) {
      const detail::FilterShape shape{form, channels, rx, ry, false};
      const Config config = detail::convolve_default_config(shape, dtype, gpu, small);
      INFO(config.to_string());
      CHECK(detail::convolve_default_config(shape, dtype, gpu, small + 1).to_string() != config.to_string());
      return config;
    };
    const Config direct = small_default(detail::FilterForm::Direct, 3, 4, 3, detail::dtype_of<float>());
    const Config tile = small_default(detail::FilterForm::Separable, 4, 1, 2, detail::dtype_of<std::uint8_t>());
    const Config passes = small_default(detail::FilterForm::Separable, 3, 5, 5, detail::dtype_of<std::uint8_t>());
    const Config float_passes = small_default(detail::FilterForm::Separable, 4, 7, 1, detail::dtype_of<float>());
    CHECK(direct.variant == "tiled");
    CHECK(direct.values.at("TILE_Y") == 8);
    CHECK(tile.variant == "tiled");
    CHECK(tile.values.at("TILE_Y") == 8);
    CHECK(passes.variant == "two_pass");
    CHECK(float_passes.variant == "two_pass");
    check_filter<float>(&direct, Filter{Op::Convolve2d, 3, Border::Mirror, 4, 3}, 61, 43, ImageLayout::Ragged, 0);
    check_filter<std::uint8_t>(&tile, Filter{Op::Separable, 4, Border::Zero, 1, 2}, 27, 187, ImageLayout::Ragged, 0);
    check_filter<std::uint8_t>(&passes, Filter{Op::Gaussian, 3, Border::Reflect, 5, 5, 2.0}, 72, 124,
                               ImageLayout::Aligned, 0);
    check_filter<float>(&float_passes, Filter{Op::Separable, 4, Border::Clamp, 7, 1}, 16, 60, ImageLayout::Ragged, 0);
  }

  TEST_CASE("convolve: tall and wide images have buckets of their own; on GPUs large separable filters take the ring") {
    using detail::Aspect;
    // Classes: above the small images, at most kNarrowSide pixels across is tall or wide, timed at 48 across.
    const auto tall = detail::filter_image_class(40, 1700), wide = detail::filter_image_class(4407, 25);
    CHECK(tall.aspect == Aspect::Tall);
    CHECK(tall.bucket == "px<=2^20 tall");
    CHECK(tall.width == 48);
    CHECK(tall.width * tall.height == 1024 * 768);
    CHECK(wide.aspect == Aspect::Wide);
    CHECK(wide.bucket == "px<=2^20 wide");
    CHECK(wide.height == 48);
    CHECK(detail::filter_image_class(65, 5000).aspect == Aspect::Square);
    CHECK(detail::filter_image_class(20, 3000).aspect == Aspect::Square);  // 60000 pixels: a small image
    CHECK(detail::filter_image_class(64, 1025).aspect == Aspect::Tall);
    CHECK(detail::find_tunable_op("gaussian_blur").make_subject("float", "55x4781x4,13x13,reflect")->key().bucket ==
          "c4 13x13 px<=2^20 tall");
    CHECK(detail::find_tunable_op("gaussian_blur").make_subject("float", "55x4781x4,13x13,reflect")->timing_shape() ==
          "48x16384x4,13x13,reflect");

    DeviceInfo gpu = *device().info;
    gpu.type = CL_DEVICE_TYPE_GPU, gpu.local_memory_is_dedicated = true;
    gpu.local_memory_bytes = std::min<std::uint64_t>(49152, device().info->local_memory_bytes);
    gpu.max_work_group_size = std::min<std::size_t>(1024, device().info->max_work_group_size);
    const auto gpu_default = [&](detail::FilterForm form, std::uint64_t channels, int rx, int ry,
                                 const detail::DTypeInfo& dtype, Aspect aspect) {
      const detail::FilterShape shape{form, channels, rx, ry, false};
      const Config config = detail::convolve_default_config(shape, dtype, gpu, 1024 * 768, aspect);
      INFO(config.to_string());
      return config;
    };
    const Config floats = gpu_default(detail::FilterForm::Separable, 4, 6, 6, detail::dtype_of<float>(), Aspect::Tall);
    const Config bytes =
        gpu_default(detail::FilterForm::Separable, 3, 1, 6, detail::dtype_of<std::uint8_t>(), Aspect::Wide);
    CHECK(floats.variant == "ring");
    CHECK(bytes.variant == "ring");
    CHECK(bytes.values.at("USE_ROUND_BY_ADD") == 1);
    // Small filters, direct filters and square images keep the tiles.
    CHECK(gpu_default(detail::FilterForm::Separable, 4, 2, 2, detail::dtype_of<float>(), Aspect::Tall).variant ==
          "tiled");
    CHECK(gpu_default(detail::FilterForm::Direct, 1, 4, 4, detail::dtype_of<float>(), Aspect::Tall).variant == "tiled");
    CHECK(gpu_default(detail::FilterForm::Separable, 4, 6, 6, detail::dtype_of<float>(), Aspect::Square).variant ==
          "tiled");
    check_filter<float>(&floats, Filter{Op::Gaussian, 4, Border::Reflect, 6, 6, 2.3}, 40, 1700, ImageLayout::Ragged, 0);
    check_filter<std::uint8_t>(&bytes, Filter{Op::Gaussian, 3, Border::Mirror, 1, 6, 1.9}, 1500, 45,
                               ImageLayout::Aligned, 0);
  }

  TEST_CASE("convolve: the bench sweep's images, scaled down (seeds 1-2), through the public calls") {
    // The same random streams as `tilecl bench --sweep --family convolve` (bench/sweeps/shapes.hpp,
    // draw_image_shape) with sides of at most 96: its channel counts, borders, filter sizes (x and y apart) and
    // padded rows, with the device's own choice of kernel. Blurs with different x and y sizes run as
    // separable_filter with random taps (the sigma form here is square).
    using bench::sweeps::ImageSweepOp;
    for (std::uint64_t seed = 1; seed <= 2; ++seed)
      for (auto [op, name] : {std::pair<ImageSweepOp, const char*>{ImageSweepOp::Gaussian, "gaussian_blur"},
                              {ImageSweepOp::Box, "box_blur"},
                              {ImageSweepOp::Convolve2d, "convolve2d"}})
        for (const char* dtype : {"uint8", "float"}) {
          auto random = bench::sweeps::sweep_random(seed, name, dtype);
          for (int i = 0; i < 3; ++i) {
            const auto s = bench::sweeps::draw_image_shape(random, op, 96, 6000);
            std::uniform_real_distribution<float> tap(-0.05f, 0.25f);  // the bench draws filter2D's taps next
            for (std::uint64_t t = 0; t < s.filter_width * s.filter_height; ++t) tap(random);
            CAPTURE(seed);
            CAPTURE(dtype);
            CAPTURE(s.filter_key());
            const int rx = static_cast<int>(s.filter_width / 2), ry = static_cast<int>(s.filter_height / 2);
            Filter f{Op::Convolve2d, s.channels, s.border, rx, ry};
            if (op == ImageSweepOp::Box) f.op = Op::Box;
            if (op == ImageSweepOp::Gaussian) {
              f.op = rx == ry ? Op::Gaussian : Op::Separable;
              f.sigma = 0.3 * (rx - 1) + 0.8;  // OpenCV's sigma for the size
            }
            const ImageLayout layout = s.padded_rows ? ImageLayout::Ragged : ImageLayout::Dense;
            if (std::string(dtype) == "uint8")
              check_filter<std::uint8_t>(nullptr, f, s.width, s.height, layout, static_cast<std::size_t>(i % 2));
            else
              check_filter<float>(nullptr, f, s.width, s.height, layout, static_cast<std::size_t>(i % 2));
          }
        }
  }

  TEST_CASE("convolve: the register ring (bytes) on images with inner strips, edge chunks and a partial strip") {
    // Its three paths: inner chunks of strips inside the image (branch-free), chunks near the left and right
    // edges and the strips at the top, bottom and the partial last one (border rule once per work-item).
    const Config one = rounding(with_group({"ring", {{"VEC", 8}, {"WPT_Y", 16}}}, 128, 1), 1);
    const Config four = rounding(with_group({"ring", {{"VEC", 4}, {"WPT_Y", 32}}}, 64, 1), 0);
    check_filter<std::uint8_t>(&one, Filter{Op::Gaussian, 1, Border::Mirror, 4, 4, 1.7}, 600, 100, ImageLayout::Ragged,
                               0);
    check_filter<std::uint8_t>(&one, Filter{Op::Box, 3, Border::Constant, 2, 3, 1.0, false, Arithmetic::Float, 40.0},
                               301, 70, ImageLayout::Aligned, 3);
    check_filter<std::uint8_t>(&four, Filter{Op::Separable, 4, Border::Reflect, 3, 1}, 150, 99, ImageLayout::Dense, 0);
    check_filter<std::uint8_t>(&four, Filter{Op::Gaussian, 3, Border::Clamp, 2, 2, 1.1, false, Arithmetic::OpenCV}, 200,
                               90, ImageLayout::Ragged, 0);
    // Its space: at most 128 registers of ring and window ((2 ry + 1) VEC + VEC + 2 rx channels).
    const detail::FilterShape wide{detail::FilterForm::Separable, 3, 7, 7, false};
    const auto space = detail::convolve_search_space(wide, detail::dtype_of<std::uint8_t>());
    Config ring = rounding(with_group({"ring", {{"VEC", 8}, {"WPT_Y", 16}}}, 128, 1), 1);
    CHECK(space.validate(ring, *device().info).find("128") != std::string::npos);  // 15 * 8 + 8 + 42 = 170
    ring.values["VEC"] = 4;
    CHECK(space.validate(ring, *device().info).empty());  // 60 + 4 + 42 = 106
    CHECK(detail::convolve_search_space(wide, detail::dtype_of<float>()).find("ring") != nullptr);
    const Config floats = with_group({"ring", {{"VEC", 4}, {"WPT_Y", 16}}}, 32, 1);
    check_filter<float>(&floats, Filter{Op::Gaussian, 3, Border::Mirror, 3, 3, 1.2}, 200, 70, ImageLayout::Ragged, 0);
  }

  TEST_CASE("convolve: filters above the unrolled limits read their radius at run time, exact under every border") {
    // 21 x 19 taps: more than the direct vector kernel unrolls; radius 17 and 18: more than the separable
    // kernels unroll.
    const Config direct = rounding(with_group({"vector", {{"VEC", 8}, {"WPT_Y", 3}, {"USE_WINDOW", 1}}}, 8, 2), 0);
    const Config fused = rounding(with_group({"vector", {{"VEC", 4}, {"WPT_Y", 4}, {"USE_WINDOW", 0}}}, 8, 1), 1);
    const Config two_pass = with_group({"two_pass", {{"VEC", 8}, {"USE_WINDOW", 1}}}, 8, 2);
    const std::vector<std::pair<std::size_t, std::size_t>> images{{3, 2}, {45, 41}};
    for (const auto& c : kCombinations) {
      check_any(&direct,
                Filter{Op::Convolve2d, c.channels, c.border, 10, 9, 1.0, false, Arithmetic::Float, c.border_value},
                c.bytes, images);
      check_any(c.bytes ? &fused : &two_pass,
                Filter{Op::Separable, c.channels, c.border, 17, 18, 1.0, false, Arithmetic::Float, c.border_value},
                c.bytes, images);
    }
    // OpenCV's box arithmetic beyond 256 taps (its float and double paths), at run-time radii.
    check_any(&fused, Filter{Op::Box, 3, Border::Reflect, 17, 9, 1.0, false, Arithmetic::OpenCV}, true, images);
  }

  TEST_CASE("convolve: blurs through the public API (device-derived defaults) and through explicit variants") {
    check_any(nullptr, Filter{Op::Box, 1, Border::Mirror, 2, 1}, false);
    check_any(nullptr, Filter{Op::Box, 3, Border::Wrap, 0, 3}, true);
    check_any(nullptr, Filter{Op::Box, 4, Border::Constant, 2, 2, 1.0, false, Arithmetic::OpenCV, 200.0}, true);
    check_any(nullptr, Filter{Op::Gaussian, 3, Border::Zero, 3, 3, 1.1}, false);
    check_any(nullptr, Filter{Op::Gaussian, 4, Border::Reflect, 2, 2, 0.9, false, Arithmetic::OpenCV}, true);
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
    check_any(nullptr, Filter{Op::Convolve2d, 4, Border::Reflect, 2, 1, 1.0, false, Arithmetic::OpenCV}, true);
    check_any(nullptr, Filter{Op::Separable, 1, Border::Wrap, 4, 4}, false);
    check_any(nullptr, Filter{Op::Separable, 3, Border::Clamp, 2, 1}, true);
    check_any(nullptr, Filter{Op::Separable, 4, Border::Constant, 2, 3, 1.0, false, Arithmetic::Float, -12.5}, true);
  }

  TEST_CASE("convolve: gaussian_blur in OpenCV's terms derives sizes and sigmas as cv::GaussianBlur does") {
    auto& q = device().queue;
    auto random = test::random_engine("gaussian-kernel");
    const std::size_t width = 41, height = 29, channels = 3, row = width * channels;
    const auto src = test::random_vector<float>(row * height, random, 0.0, 1.0);
    cl::Buffer src_buffer = test::to_device(src);
    test::GuardedBuffer<float> dst(row * height);
    // (kernel, the sizes and sigmas OpenCV resolves it to for float images: 2 round(4 sigma) + 1, sigma from
    // the size 0.3 ((k - 1) / 2 - 1) + 0.8, sizes 3..7 with sigma 0: OpenCV's fixed taps).
    struct Case {
      GaussianKernel kernel;
      int width, height;
      double sigma_x, sigma_y;
    };
    for (const Case& c : {Case{{0, 0, 1.1, 0.0}, 11, 11, 1.1, 1.1}, Case{{5, 0, 0.0, 0.7}, 5, 7, 0.0, 0.7},
                          Case{{9, 3, 0.0, 0.0}, 9, 3, 0.0, 0.0}, Case{{7, 13, 1.5, 2.0}, 7, 13, 1.5, 2.0}}) {
      CAPTURE(c.width);
      CAPTURE(c.height);
      gaussian_blur<float>(q, width, height, channels, src_buffer, 0, row, dst.buffer(), dst.offset(), row, c.kernel,
                           Border::Reflect)
          .wait();
      auto taps = [](int n, double sigma) {
        std::vector<float> t;
        for (double v : reference::opencv_gaussian_kernel(n, sigma)) t.push_back(static_cast<float>(v));
        return t;
      };
      const auto want = reference::separable_filter(
          src.data(), static_cast<long>(width), static_cast<long>(height), static_cast<int>(channels),
          static_cast<long>(row), taps(c.width, c.sigma_x), taps(c.height, c.sigma_y), reference::Border::Reflect);
      test::check_all_close(dst.read(), want, 1e-5, "gaussian_blur(GaussianKernel)");
      dst.check_guards("gaussian_blur(GaussianKernel)");
    }
  }

  TEST_CASE("convolve: host-built taps are kept per context and dropped with a forgotten context") {
    auto random = test::random_engine("taps-per-context");
    const std::size_t width = 17, height = 5, channels = 1;
    const auto src = test::random_vector<float>(width * height, random, 0.0, 1.0);
    cl::Context context(device().device);
    cl::CommandQueue queue(context, device().device);
    cl::Buffer src_buffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, src.size() * sizeof(float),
                          const_cast<float*>(src.data()));
    cl::Buffer dst_buffer(context, CL_MEM_READ_WRITE, src.size() * sizeof(float));
    const std::size_t before = detail::host_taps_count();
    auto blur = [&](double sigma) {
      gaussian_blur<float>(queue, width, height, channels, src_buffer, 0, width, dst_buffer, 0, width,
                           GaussianKernel{5, 3, sigma, 0.9}, Border::Reflect)
          .wait();
    };
    blur(1.3);
    const std::size_t after_first = detail::host_taps_count();
    CHECK(after_first > before);  // the row and column taps of this context
    blur(1.3);
    CHECK(detail::host_taps_count() == after_first);  // the same taps again: no new copy
    std::vector<float> got(src.size());
    queue.enqueueReadBuffer(dst_buffer, CL_TRUE, 0, got.size() * sizeof(float), got.data());
    std::vector<float> row_taps, column_taps;
    for (double v : reference::opencv_gaussian_kernel(5, 1.3)) row_taps.push_back(static_cast<float>(v));
    for (double v : reference::opencv_gaussian_kernel(3, 0.9)) column_taps.push_back(static_cast<float>(v));
    test::check_all_close(got,
                          reference::separable_filter(src.data(), static_cast<long>(width), static_cast<long>(height),
                                                      static_cast<int>(channels), static_cast<long>(width), row_taps,
                                                      column_taps, reference::Border::Reflect),
                          1e-5, "gaussian_blur on its own context");
    forget_context(context);
    CHECK(detail::host_taps_count() <= before);  // forgetting may also drop other contexts' taps, never keep these
  }

  TEST_CASE("convolve: degenerate sigmas give their limit, a copy, never NaN or zeros, in every form") {
    // sigma 1e-200 or 1e-170 (sigma^2 underflows), a denormal: the Gaussian's limit is a single tap of 1.
    auto& q = device().queue;
    auto random = test::random_engine("degenerate");
    const std::size_t width = 23, height = 9, channels = 3, row = width * channels;
    const auto floats = test::random_vector<float>(row * height, random, 0.0, 1.0);
    const auto bytes = test::random_vector<std::uint8_t>(row * height, random, 1, 255);
    cl::Buffer float_src = test::to_device(floats), byte_src = test::to_device(bytes);
    test::GuardedBuffer<float> float_dst(row * height);
    test::GuardedBuffer<std::uint8_t> byte_dst(row * height, 0);
    for (double sigma : {1e-200, 1e-170, 5e-324, 1e-30}) {
      CAPTURE(sigma);
      for (Arithmetic arithmetic : {Arithmetic::Float, Arithmetic::OpenCV}) {
        const FilterOptions options(Border::Mirror, 0.0, arithmetic);
        // The default radius (1 for these sigmas) on floats, a radius of 4 on bytes.
        gaussian_blur<float>(q, width, height, channels, float_src, 0, row, float_dst.buffer(), float_dst.offset(), row,
                             sigma, options)
            .wait();
        CHECK(float_dst.read() == floats);
        gaussian_blur<std::uint8_t>(q, width, height, channels, byte_src, 0, row, byte_dst.buffer(), byte_dst.offset(),
                                    row, sigma, options, std::size_t{4})
            .wait();
        CHECK(byte_dst.read() == bytes);
        for (const GaussianKernel& kernel : {GaussianKernel{0, 0, sigma, 0.0}, GaussianKernel{9, 5, sigma, sigma}}) {
          gaussian_blur<std::uint8_t>(q, width, height, channels, byte_src, 0, row, byte_dst.buffer(),
                                      byte_dst.offset(), row, kernel, options)
              .wait();
          CHECK(byte_dst.read() == bytes);
        }
      }
    }
    float_dst.check_guards("degenerate sigma");
    byte_dst.check_guards("degenerate sigma");
    // A huge sigma is a box of the kernel's size: finite, never NaN.
    gaussian_blur<float>(q, width, height, channels, float_src, 0, row, float_dst.buffer(), float_dst.offset(), row,
                         GaussianKernel{5, 5, 1e300, 1e300}, Border::Clamp)
        .wait();
    const auto want = reference::separable_filter(
        floats.data(), static_cast<long>(width), static_cast<long>(height), static_cast<int>(channels),
        static_cast<long>(row), std::vector<float>(5, 0.2f), std::vector<float>(5, 0.2f), reference::Border::Clamp);
    test::check_all_close(float_dst.read(), want, 1e-5, "sigma 1e300");
  }

  TEST_CASE("convolve: the Constant border reads its value, rounded and saturated for bytes") {
    // A 1x1 image under a 3x3 box: the output is (pixel + 8 value) / 9.
    auto& q = device().queue;
    const std::vector<std::uint8_t> pixel{90};
    cl::Buffer src = test::to_device(pixel);
    test::GuardedBuffer<std::uint8_t> out(1);
    // 12.5 reads as 12 (ties to even): 186 / 9 = 20.7 -> 21; 300.7 as 255: 2130 / 9 -> 237; -5 as 0: 10.
    const std::vector<std::pair<double, int>> cases{{12.5, 21}, {300.7, 237}, {-5.0, 10}};
    for (auto [value, want] : cases) {
      CAPTURE(value);
      box_blur<std::uint8_t>(q, 1, 1, 1, src, 0, 1, out.buffer(), out.offset(), 1, 1, 1,
                             FilterOptions(Border::Constant, value))
          .wait();
      CHECK(+out.read()[0] == want);
    }
    out.check_guards("constant border");
  }

  TEST_CASE("convolve: a zero-sized image enqueues nothing and returns a null event") {
    cl::Buffer tiny(device().context, CL_MEM_READ_WRITE, 4);
    auto& q = device().queue;
    CHECK(convolve2d<float>(q, 0, 10, 1, tiny, 0, 0, tiny, 0, 0, tiny, 0, 3, 3, Border::Zero)() == nullptr);
    CHECK(separable_filter<std::uint8_t>(q, 10, 0, 3, tiny, 0, 0, tiny, 0, 0, tiny, 0, 3, tiny, 0, 5, Border::Wrap)() ==
          nullptr);
    CHECK(box_blur<float>(q, 0, 0, 4, tiny, 0, 0, tiny, 0, 0, 2, 2, Border::Clamp)() == nullptr);
    CHECK(gaussian_blur<std::uint8_t>(q, 0, 5, 1, tiny, 0, 0, tiny, 0, 0, 1.5, Border::Mirror)() == nullptr);
    CHECK(gaussian_blur<std::uint8_t>(q, 0, 5, 1, tiny, 0, 0, tiny, 0, 0, GaussianKernel{3, 3, 0.0, 0.0},
                                      Border::Reflect)() == nullptr);
    // Scalar arguments are still checked.
    CHECK_THROWS_AS(gaussian_blur<float>(q, 0, 5, 1, tiny, 0, 0, tiny, 0, 0, -1.0, Border::Mirror), Error);
    CHECK_THROWS_AS(
        gaussian_blur<float>(q, 0, 5, 1, tiny, 0, 0, tiny, 0, 0, GaussianKernel{4, 3, 0.0, 0.0}, Border::Mirror),
        Error);
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
    const Config two_pass = with_group({"two_pass", {{"VEC", 4}, {"USE_WINDOW", 0}}}, 8, 2);
    run(&two_pass);  // two kernels and the workspace's ordering
  }

  TEST_CASE("convolve: two-pass calls in flight at once share the workspace safely, also on an out-of-order queue") {
    const Config two_pass = with_group({"two_pass", {{"VEC", 4}, {"USE_WINDOW", 1}}}, 8, 2);
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
    // subject's ragged and aligned layouts (interior and edge tiles) and is timed; with OpenCV's arithmetic,
    // bit for bit.
    const std::vector<std::pair<std::string, std::string>> subjects{{"separable_filter", "200x100x3,5x3,wrap"},
                                                                    {"gaussian_blur", "200x100x4,5x3,reflect,opencv"},
                                                                    {"box_blur", "200x100,3x5,constant,opencv"}};
    for (const auto& [name, shape] : subjects) {
      CAPTURE(shape);
      const auto& op = detail::find_tunable_op(name);
      auto subject = op.make_subject("uint8", shape);
      const std::vector<Config> candidates{
          rounding(with_group({"vector", {{"VEC", 8}, {"WPT_Y", 3}, {"USE_WINDOW", 0}}}, 8, 1), 1),
          rounding(with_group({"two_pass", {{"VEC", 4}, {"USE_WINDOW", 1}}}, 8, 2), 0),
          rounding(tiled(16, 8, 2, 4, 0, 0), 1)};
      std::vector<Config> typed = candidates;
      if (shape.find("opencv") != std::string::npos)
        for (auto& config : typed) config.values.erase("USE_ROUND_BY_ADD");
      cl::CommandQueue profiling(device().context, device().device, CL_QUEUE_PROFILING_ENABLE);
      detail::TunerOptions options;
      options.budget_ms = 1e9;
      detail::EventTimer timer(1);
      const auto outcome = detail::run_tuner(*subject, profiling, typed, typed[0], options, timer);
      CHECK(outcome.found);
      for (const auto& result : outcome.results) {
        CAPTURE(result.config.to_string());
        CAPTURE(result.message);
        CHECK((result.status == detail::CandidateStatus::Best || result.status == detail::CandidateStatus::Measured));
      }
    }
    CHECK(detail::find_tunable_op("separable_filter").make_subject("uint8", "200x100x3,5x3,wrap")->key().bucket ==
          "c3 5x3 px<=2^16");
    CHECK(detail::find_tunable_op("box_blur").make_subject("uint8", "200x100,3x5,opencv")->key().bucket ==
          "c1 3x5 px<=2^16 opencv");
    CHECK(detail::find_tunable_op("box_blur").make_subject("uint8", "200x100,3x5,reflect")->timing_shape() ==
          "256x192,3x5,reflect");
    const auto& op = detail::find_tunable_op("separable_filter");
    for (const char* bad : {"640x480", "640x480,4x5", "640x480,5x5,sideways", "640x480x2,5x5", "640x0,3x3",
                            "640x480,5x5,opencv", "640x480,5x5,mirror,mirror"})
      CHECK_THROWS_AS(op.make_subject("float", bad), Error);
    tuning::clear();
  }

  TEST_CASE("convolve: each variant's macros are the ones its kernel reads and its search space declares") {
    // A parameter of a space that its kernel does not read (a typo) would build with the kernel's default.
    std::ifstream file(test::source_directory() + "/kernels/convolve.cl");
    std::stringstream text;
    text << file.rdbuf();
    const std::string source = text.str();
    REQUIRE(!source.empty());
    for (const auto& [variant, macros] : detail::convolve_macro_table())
      for (const auto& macro : macros) {
        CAPTURE(variant);
        CAPTURE(macro);
        CHECK(source.find("#ifndef " + macro + "\n") != std::string::npos);
      }
    for (detail::FilterForm form : {detail::FilterForm::Direct, detail::FilterForm::Separable})
      for (bool opencv : {false, true})
        for (const detail::DTypeInfo* dtype : {&detail::dtype_of<float>(), &detail::dtype_of<std::uint8_t>()}) {
          const detail::FilterShape shape{form, 3, 2, 1, opencv && dtype->size == 1};
          const auto space = detail::convolve_search_space(shape, *dtype);
          for (const auto& config : space.enumerate(*device().info)) {
            const std::string key =
                std::string(form == detail::FilterForm::Direct ? "direct " : "separable ") + config.variant;
            CAPTURE(key);
            const auto& table = detail::convolve_macro_table().at(key);
            const auto options = detail::filter_build_options(shape, Border::Reflect, *dtype, detail::plan_of(config));
            for (const auto& [macro, value] : options.macros())
              CHECK_MESSAGE(std::find(table.begin(), table.end(), macro) != table.end(), macro);
            for (const auto& parameter : space.find(config.variant)->parameters)
              if (parameter.kind == detail::ParameterKind::Build)
                CHECK_MESSAGE(options.has(parameter.name), parameter.name);
          }
        }
  }

  TEST_CASE("convolve: bad arguments raise tilecl::Error naming the argument") {
    auto& q = device().queue;
    cl::Buffer src(device().context, CL_MEM_READ_WRITE, 100 * 10 * 3 * sizeof(float));
    cl::Buffer dst(device().context, CL_MEM_READ_WRITE, 100 * 10 * 3 * sizeof(float));
    cl::Buffer filter(device().context, CL_MEM_READ_WRITE, 25 * sizeof(float));
    const Border m = Border::Mirror;
    const FilterOptions exact(Border::Mirror, 0.0, Arithmetic::OpenCV);
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
    for (std::size_t channels : {0, 2, 5})
      expect_error(
          gauss, [&] { gaussian_blur<float>(q, 10, 10, channels, src, 0, 50, dst, 0, 50, 1.0, m); }, "channels",
          "CL_INVALID_VALUE");
    // Options.
    expect_error(
        gauss, [&] { gaussian_blur<float>(q, 10, 10, 1, src, 0, 10, dst, 0, 10, 1.0, static_cast<Border>(9)); },
        "border", "CL_INVALID_VALUE");
    expect_error(
        box, [&] { box_blur<float>(q, 10, 10, 1, src, 0, 10, dst, 0, 10, 1, 1, FilterOptions(Border::Constant, NAN)); },
        "border_value", "CL_INVALID_VALUE");
    expect_error(
        box,
        [&] {
          box_blur<float>(q, 10, 10, 1, src, 0, 10, dst, 0, 10, 1, 1,
                          FilterOptions(Border::Clamp, 0.0, static_cast<Arithmetic>(7)));
        },
        "arithmetic", "CL_INVALID_VALUE");
    expect_error(
        sep,
        [&] {
          separable_filter<std::uint8_t>(q, 10, 10, 1, src, 0, 10, dst, 0, 10, filter, 0, 3, filter, 0, 3, exact);
        },
        "arithmetic", "CL_INVALID_VALUE", "no bit-exact OpenCV counterpart");
    expect_error(
        c2, [&] { convolve2d<std::uint8_t>(q, 10, 10, 1, src, 0, 10, dst, 0, 10, filter, 0, 13, 11, exact); },
        "filter_width", "CL_INVALID_VALUE", "DFT");
    expect_error(
        box, [&] { box_blur<std::uint8_t>(q, 10, 10, 1, src, 0, 10, dst, 0, 10, 2100, 2100, exact); }, "radius_x",
        "CL_INVALID_VALUE", "32 bits");
    // Sigma and radii.
    for (double sigma : {0.0, -2.0, double(NAN), 1e9})
      expect_error(
          gauss, [&] { gaussian_blur<float>(q, 10, 10, 1, src, 0, 10, dst, 0, 10, sigma, m); }, "sigma",
          "CL_INVALID_VALUE");
    expect_error(
        gauss, [&] { gaussian_blur<float>(q, 10, 10, 1, src, 0, 10, dst, 0, 10, 1.0, m, 100000); }, "radius",
        "CL_INVALID_VALUE");
    // OpenCV's terms: sizes odd (or 0 with a positive sigma), sigmas 0 or positive and finite.
    const std::vector<std::tuple<GaussianKernel, std::string, std::string>> kernels{
        {{4, 3, 1.0, 0.0}, "ksize_width", "odd"},
        {{3, 200001, 1.0, 0.0}, "ksize_height", "at most"},
        {{0, 0, 0.0, 0.0}, "sigma_x", "needs a positive sigma"},
        {{3, 0, 0.0, 0.0}, "sigma_y", "needs a positive sigma"},
        {{3, 3, -1.0, 0.0}, "sigma_x", "positive and finite"},
        {{3, 3, 1.0, double(INFINITY)}, "sigma_y", "positive and finite"},
        {{0, 3, 1e9, 0.0}, "sigma_x", "kernel size above"}};
    for (const auto& [kernel, argument, text] : kernels)
      expect_error(
          gauss, [&, k = kernel] { gaussian_blur<float>(q, 10, 10, 1, src, 0, 10, dst, 0, 10, k, m); }, argument,
          "CL_INVALID_VALUE", text);
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
          detail::box_blur_with<float>(with_group({"vector", {{"VEC", 3}, {"WPT_Y", 2}, {"USE_WINDOW", 0}}}, 8, 1), q,
                                       10, 10, 1, src, 0, 10, dst, 0, 10, 1, 1, m);
        },
        "config", "CL_INVALID_VALUE");
    expect_error(
        box,
        [&] {
          detail::box_blur_with<std::uint8_t>(
              rounding(with_group({"vector", {{"VEC", 4}, {"WPT_Y", 2}, {"USE_WINDOW", 1}}}, 8, 1), 1), q, 10, 10, 1,
              src, 0, 10, dst, 0, 10, 1, 1, exact);
        },
        "config", "CL_INVALID_VALUE");  // OpenCV's arithmetic rounds one way: no USE_ROUND_BY_ADD
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
    // The two-pass workspace, grown once to the largest size used here (see prepare_workspace_for_oclgrind).
    test::prepare_workspace_for_oclgrind("convolve two-pass intermediate", 64 * 1024);
    // The sweep's programs (the first combination of each setting, and OpenCV's arithmetic), at sizes with
    // interior and edge tiles of its 8 x 8 and 16 x 8 tiles (the 8 x 16 ones have interior columns).
    check_any(&kNaive, Filter{Op::Convolve2d, 1, Border::Zero, 1, 1}, false, {{3, 2}, {19, 11}});
    check_any(&kNaive, Filter{Op::Convolve2d, 4, Border::Reflect, 1, 2, 1.0, false, Arithmetic::OpenCV}, true,
              {{3, 2}, {19, 11}});
    for (const auto& setting : swept_settings()) {
      CAPTURE(setting.config.to_string());
      check_any(&setting.config, filter_of(setting, setting.first), kCombinations[setting.first].bytes,
                {{3, 2}, {19, 11}});
      if (setting.opencv)
        check_any(&setting.config, filter_of(setting, setting.second, Arithmetic::OpenCV), true, {{19, 11}});
    }
    // The blurs' symmetric taps with float sums (USE_SYMMETRIC 1) in the fused kernel, bytes and floats.
    const Config fused = rounding(with_group({"vector", {{"VEC", 16}, {"WPT_Y", 32}, {"USE_WINDOW", 0}}}, 4, 2), 1);
    check_any(&fused, Filter{Op::Gaussian, 3, Border::Reflect, 2, 2, 1.3}, true, {{19, 11}});
    check_any(&fused, Filter{Op::Box, 1, Border::Zero, 1, 3}, false, {{19, 11}});
    // Strips of 4 rows: the fused kernel's loop for inner chunks of strips inside the image, with USE_UNIT_GAIN on
    // bytes (rounding by adding 2^23, and by rint).
    for (int by_add : {1, 0}) {
      const Config strips =
          rounding(with_group({"vector", {{"VEC", 4}, {"WPT_Y", 4}, {"USE_WINDOW", 0}}}, 4, 2), by_add);
      check_any(&strips, Filter{Op::Gaussian, 3, Border::Mirror, 2, 2, 1.3}, true, {{37, 23}});
      check_any(&strips, Filter{Op::Box, 1, Border::Constant, 1, 2, 1.0, false, Arithmetic::Float, 200.0}, true,
                {{37, 23}});
    }
    const Config strips = with_group({"vector", {{"VEC", 4}, {"WPT_Y", 4}, {"USE_WINDOW", 0}}}, 4, 2);
    check_any(&strips, Filter{Op::Gaussian, 3, Border::Mirror, 2, 2, 1.3}, false, {{37, 23}});
    // The words kernel: bands inside the image load plain words (the first image of each list: dense rows, a band
    // and its rows inside), the others fold their edges; ragged rows load and store bytes.
    const Config packed{"words", {{"WORDS_WG", 8}, {"WPT_Y", 4}, {"WPW", 2}, {"USE_PACKED_SUMS", 1}}};
    check_any(&packed, Filter{Op::Box, 1, Border::Reflect, 1, 1}, true, {{160, 14}, {19, 11}, {3, 2}});
    const Config weighted{"words", {{"WORDS_WG", 16}, {"WPT_Y", 2}, {"WPW", 1}}};
    check_any(&weighted, Filter{Op::Gaussian, 3, Border::Constant, 2, 2, 1.3, false, Arithmetic::OpenCV, 77.0}, true,
              {{64, 14}, {19, 11}});
  }
}
