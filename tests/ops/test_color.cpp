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

#include "ops/color.hpp"
#include "reference/image_reference.hpp"
#include "support/fixture.hpp"
#include "support/guarded_buffer.hpp"
#include "tilecl/color.hpp"
#include "tilecl/error.hpp"
#include "tilecl/tuning.hpp"

using namespace tilecl;
using tilecl::detail::Config;
using tilecl::test::device;

namespace {

// How an image sits in its buffer: dense rows; ragged pitches and offsets (every alignment test fails, so
// the vector kernels take vloadn/vstoren); or aligned, padded rows (the vector-pointer paths).
enum class ImageLayout { Dense, Ragged, Aligned };

struct Placement {
  std::size_t src_offset, src_pitch, dst_offset, dst_pitch;
};

Placement place(ImageLayout layout, std::size_t width, std::size_t channels) {
  switch (layout) {
    case ImageLayout::Dense:
      return {0, channels * width, 0, width};
    case ImageLayout::Ragged:
      return {7, channels * width + 5, 5, width + 3};
    case ImageLayout::Aligned:
      return {64, (channels * width + 63) / 64 * 64 + 64, 16, (width + 15) / 16 * 16 + 16};
  }
  return {};
}

std::size_t channels_of(ChannelOrder order) {
  return order == ChannelOrder::RGBA || order == ChannelOrder::BGRA ? 4 : 3;
}
bool blue_first(ChannelOrder order) { return order == ChannelOrder::BGR || order == ChannelOrder::BGRA; }

constexpr std::size_t kGuard = 29;  // elements after the last row that must stay untouched

// What rgb_to_gray must compute: exact values (float arithmetic, with its tolerance) or, under the OpenCV
// arithmetic on bytes, cvtColor's bytes as reference::opencv_gray models them (tolerance 0: bit for bit).
template <typename T>
std::pair<std::vector<double>, double> expected_gray(const T* src, std::size_t width, std::size_t height,
                                                     std::size_t pitch, const GrayOptions& options) {
  const long w = static_cast<long>(width), h = static_cast<long>(height), p = static_cast<long>(pitch);
  const int channels = static_cast<int>(channels_of(options.order));
  if constexpr (!std::is_same_v<T, float>) {
    if (options.arithmetic == Arithmetic::OpenCV) {
      const auto bytes = reference::opencv_gray(src, w, h, p, channels, blue_first(options.order));
      return {std::vector<double>(bytes.begin(), bytes.end()), 0.0};
    }
  }
  const GrayWeights& weights = options.weights;
  const double magnitude = 255.0 * (std::abs(weights.red) + std::abs(weights.green) + std::abs(weights.blue));
  return {reference::rgb_to_gray(src, w, h, p, weights.red, weights.green, weights.blue, channels,
                                 blue_first(options.order)),
          reference::float_sum_tolerance(3, magnitude)};
}

// Runs rgb_to_gray (with `config`, or the public API's own choice) and checks every element of dst: the
// reference inside the image, the initial fill everywhere else (pitch padding, offset, guard). Byte outputs
// run twice with two different fills, so a skipped or stray write cannot pass by matching the fill.
template <typename T>
void check_gray(const Config* config, std::size_t width, std::size_t height, ImageLayout layout,
                const GrayOptions& options) {
  CAPTURE(width);
  CAPTURE(height);
  CAPTURE(static_cast<int>(layout));
  CAPTURE(static_cast<int>(options.order));
  CAPTURE(static_cast<int>(options.arithmetic));
  auto random = test::random_engine("gray" + std::to_string(width) + "x" + std::to_string(height));
  const std::size_t channels = channels_of(options.order);
  const Placement p = place(layout, width, channels);
  const std::size_t src_size = p.src_offset + reference::image_extent(p.src_pitch, channels * width, height) + kGuard;
  const std::size_t dst_size = p.dst_offset + reference::image_extent(p.dst_pitch, width, height) + kGuard;
  const auto src = std::is_same_v<T, float> ? test::random_vector<T>(src_size, random, -1.0, 2.0)
                                            : test::random_vector<T>(src_size, random, 0, 255);
  const auto [exact, tolerance] = expected_gray(src.data() + p.src_offset, width, height, p.src_pitch, options);
  std::optional<Config> typed;  // OpenCV's arithmetic has one rounding: no USE_ROUND_BY_ADD
  if (config != nullptr && options.arithmetic == Arithmetic::OpenCV && !std::is_same_v<T, float>) {
    typed = *config;
    typed->values.erase("USE_ROUND_BY_ADD");
    config = &*typed;
  }
  cl::Buffer src_buffer = test::to_device(src);
  for (int pass = 0; pass < (std::is_same_v<T, float> ? 1 : 2); ++pass) {
    std::vector<T> initial(dst_size, test::poison<T>());
    if constexpr (!std::is_same_v<T, float>) {
      auto fill = test::random_engine("fill" + std::to_string(pass));
      initial = test::random_vector<T>(dst_size, fill, 0, 255);
    }
    test::GuardedBuffer<T> dst_buffer(initial);
    const std::size_t dst_at = dst_buffer.offset() + p.dst_offset;
    if (config)
      detail::rgb_to_gray_with<T>(*config, device().queue, width, height, src_buffer, p.src_offset, p.src_pitch,
                                  dst_buffer.buffer(), dst_at, p.dst_pitch, options)
          .wait();
    else
      rgb_to_gray<T>(device().queue, width, height, src_buffer, p.src_offset, p.src_pitch, dst_buffer.buffer(), dst_at,
                     p.dst_pitch, options)
          .wait();
    dst_buffer.check_guards("gray dst");
    const auto got = dst_buffer.read();
    std::size_t bad = 0;
    for (std::size_t i = 0; i < dst_size; ++i) {
      bool ok;
      const bool inside =
          i >= p.dst_offset && (i - p.dst_offset) % p.dst_pitch < width && (i - p.dst_offset) / p.dst_pitch < height;
      if (!inside) {
        ok = std::is_same_v<T, float> ? test::is_poison(got[i]) : got[i] == initial[i];
      } else {
        const double want = exact[((i - p.dst_offset) / p.dst_pitch) * width + (i - p.dst_offset) % p.dst_pitch];
        if constexpr (std::is_same_v<T, float>)
          ok = reference::matches_float(want, got[i], tolerance * (1.0 + std::abs(want)));
        else
          ok = tolerance == 0 ? got[i] == want : reference::matches_u8(want, got[i], tolerance);
      }
      if (!ok && bad++ < 5) FAIL_CHECK("element " << i << (inside ? " (inside)" : " (outside)") << " is " << +got[i]);
    }
    CHECK_MESSAGE(bad == 0, bad << " of " << dst_size << " elements wrong");
  }
  // src is read only.
  CHECK(test::from_device<T>(src_buffer, src.size()) == src);
}

// Every variant; every vector width, several chunks and rows per work-item, several work-group shapes and
// none (the driver's choice); each setting with one element type (a program each), both types per variant
// that takes both.
struct Setting {
  Config config;
  bool bytes;
};
std::vector<Setting> settings_to_sweep() {
  std::vector<Setting> settings{{{"naive", {{"WG_X", 16}, {"WG_Y", 4}}}, true},
                                {{"naive", {{"WG_X", 0}, {"WG_Y", 1}}}, false}};
  // Bytes also take USE_ROUND_BY_ADD (both ways of rounding, two settings each).
  const std::vector<std::array<std::int64_t, 7>> vector_settings{
      // VEC, WPT_X, WPT_Y, WG_X, WG_Y, bytes, ROUND_BY_ADD
      {16, 1, 1, 8, 2, 1, 1}, {16, 2, 3, 0, 1, 0, 0}, {8, 4, 1, 16, 1, 1, 0}, {4, 1, 2, 32, 2, 0, 0},
      {2, 3, 1, 8, 4, 1, 1},  {4, 2, 1, 8, 1, 1, 0},  {16, 4, 2, 64, 1, 1, 1}};
  for (const auto& s : vector_settings) {
    Config config{"vector", {{"VEC", s[0]}, {"WPT_X", s[1]}, {"WPT_Y", s[2]}, {"WG_X", s[3]}, {"WG_Y", s[4]}}};
    if (s[5] == 1) config.values["USE_ROUND_BY_ADD"] = s[6];
    settings.push_back({config, s[5] == 1});
  }
  // The words variant (bytes only): every vector width, both roundings, several work-group shapes and none.
  const std::vector<std::array<std::int64_t, 4>> words_settings{// VEC, WG_X, WG_Y, ROUND_BY_ADD
                                                                {16, 8, 2, 0},
                                                                {8, 16, 1, 1},
                                                                {4, 4, 4, 0},
                                                                {16, 0, 1, 1}};
  for (const auto& s : words_settings)
    settings.push_back({{"words", {{"VEC", s[0]}, {"WG_X", s[1]}, {"WG_Y", s[2]}, {"USE_ROUND_BY_ADD", s[3]}}}, true});
  return settings;
}

void check_any(const Setting& setting, std::size_t width, std::size_t height, ImageLayout layout,
               const GrayOptions& options) {
  if (setting.bytes)
    check_gray<std::uint8_t>(&setting.config, width, height, layout, options);
  else
    check_gray<float>(&setting.config, width, height, layout, options);
}

// The source layouts and arithmetics a setting is run with: three and four channels in both orders, OpenCV's
// arithmetic with the BT.601 weights (bytes), and the saturating or default weights.
std::vector<GrayOptions> options_to_sweep(bool bytes) {
  std::vector<GrayOptions> options{GrayOptions(GrayWeights{0.6f, 0.9f, -0.4f}, ChannelOrder::RGB),
                                   GrayOptions(GrayWeights(), ChannelOrder::BGRA),
                                   GrayOptions(GrayWeights::bt709(), ChannelOrder::RGBA)};
  if (bytes) options.emplace_back(GrayWeights::bt601(), ChannelOrder::BGR, Arithmetic::OpenCV);
  return options;
}

const std::vector<std::pair<std::size_t, std::size_t>> kSizes{{1, 1},  {2, 3},    {15, 1}, {17, 5},
                                                              {33, 7}, {131, 13}, {257, 3}};
const GrayOptions kSaturating(GrayWeights{0.6f, 0.9f, -0.4f});

void expect_error(const std::function<void()>& call, const std::string& argument, const std::string& status) {
  try {
    call();
    FAIL("expected tilecl::Error for " << argument);
  } catch (const Error& error) {
    CHECK(error.op() == "rgb_to_gray");
    CHECK(error.argument() == argument);
    CHECK(error.status_name() == status);
    CHECK(std::string(error.what()).find("tilecl::rgb_to_gray: " + argument) == 0);
  }
}

}  // namespace

TEST_SUITE("ops.color") {
  TEST_CASE("color: rgb_to_gray matches the host reference for every variant and setting, bytes and floats alike") {
    for (const auto& setting : settings_to_sweep()) {
      CAPTURE(setting.config.to_string());
      int turn = 0;
      for (const GrayOptions& options : options_to_sweep(setting.bytes)) {
        for (auto [width, height] : kSizes) {
          check_any(setting, width, height, static_cast<ImageLayout>(turn % 3), options);
          ++turn;
        }
      }
    }
  }

  TEST_CASE("color: rgb_to_gray through the public API (device-derived defaults), every layout") {
    for (auto [width, height] : kSizes) {
      for (ImageLayout layout : {ImageLayout::Dense, ImageLayout::Ragged, ImageLayout::Aligned}) {
        check_gray<std::uint8_t>(nullptr, width, height, layout, GrayWeights());
        check_gray<float>(nullptr, width, height, layout, kSaturating);
        check_gray<std::uint8_t>(nullptr, width, height, layout,
                                 GrayOptions(GrayWeights::bt601(), ChannelOrder::RGBA, Arithmetic::OpenCV));
        check_gray<float>(nullptr, width, height, layout, GrayOptions(GrayWeights::bt709(), ChannelOrder::BGR));
      }
    }
    check_gray<std::uint8_t>(nullptr, 1920, 1080, ImageLayout::Dense, GrayWeights());
  }

  TEST_CASE("color: default weights are 0.21, 0.72, 0.07 and u8 results are rounded to nearest and saturated") {
    const GrayWeights weights;
    CHECK(weights.red == 0.21f);
    CHECK(weights.green == 0.72f);
    CHECK(weights.blue == 0.07f);
    CHECK(GrayWeights::bt601().red == 0.299f);
    CHECK(GrayWeights::bt601().green == 0.587f);
    CHECK(GrayWeights::bt601().blue == 0.114f);
    CHECK(GrayWeights::bt709().red == 0.2126f);
    CHECK(GrayWeights::bt709().green == 0.7152f);
    CHECK(GrayWeights::bt709().blue == 0.0722f);
    // With weights (0.5, -0.5, 1.2): (100, 100, 100) -> 120; (255, 0, 255) -> 433.5 saturates at 255;
    // (0, 200, 0) -> -100 saturates at 0; 0.5 * 3 = 1.5 rounds to 2 and 0.5 * 5 = 2.5 to 2 (ties to even).
    std::vector<std::uint8_t> src{100, 100, 100, 255, 0, 255, 0, 200, 0, 3, 0, 0, 5, 0, 0};
    cl::Buffer src_buffer = test::to_device(src);
    test::GuardedBuffer<std::uint8_t> dst(5);
    rgb_to_gray<std::uint8_t>(device().queue, 5, 1, src_buffer, 0, 15, dst.buffer(), dst.offset(), 5).wait();
    CHECK(dst.read()[0] == 100);
    rgb_to_gray<std::uint8_t>(device().queue, 5, 1, src_buffer, 0, 15, dst.buffer(), dst.offset(), 5,
                              {0.5f, -0.5f, 1.2f})
        .wait();
    CHECK(dst.read() == std::vector<std::uint8_t>{120, 255, 0, 2, 2});
    dst.check_guards("gray of five pixels");
  }

  TEST_CASE("color: every byte setting rounds exact ties to even and saturates, in whole chunks and tails alike") {
    // gray = w * R with w = 0.5, 1.5 or -0.5: every odd R is an exact tie (x.5), 1.5 * R saturates above 170,
    // -0.5 * R below 0. Both ROUND_BY_ADD settings must give exactly the rounded value (no tolerance).
    const std::size_t width = 256 + 21, height = 3;
    std::vector<std::uint8_t> src(3 * width * height);
    for (std::size_t i = 0; i < width * height; ++i) {
      src[3 * i] = static_cast<std::uint8_t>((i * 7 + i / width) % 256);
      src[3 * i + 1] = static_cast<std::uint8_t>(i % 251);
      src[3 * i + 2] = static_cast<std::uint8_t>(i % 241);
    }
    cl::Buffer src_buffer = test::to_device(src);
    test::GuardedBuffer<std::uint8_t> dst_buffer(width * height);
    for (const auto& setting : settings_to_sweep()) {
      if (!setting.bytes) continue;
      CAPTURE(setting.config.to_string());
      for (float w : {0.5f, 1.5f, -0.5f}) {
        CAPTURE(w);
        detail::rgb_to_gray_with<std::uint8_t>(setting.config, device().queue, width, height, src_buffer, 0, 3 * width,
                                               dst_buffer.buffer(), dst_buffer.offset(), width,
                                               GrayOptions(GrayWeights{w, 0.0f, 0.0f}))
            .wait();
        dst_buffer.check_guards("gray of ties");
        const auto got = dst_buffer.read();
        std::size_t bad = 0;
        for (std::size_t i = 0; i < width * height; ++i) {
          const std::uint8_t want = reference::round_saturate_u8(static_cast<double>(w) * src[3 * i]);
          if (got[i] != want && bad++ < 5) FAIL_CHECK("pixel " << i << ": " << +got[i] << ", want " << +want);
        }
        CHECK(bad == 0);
      }
    }
  }

  TEST_CASE("color: each variant's macros are the ones its kernel reads and its search space declares") {
    std::ifstream file(test::source_directory() + "/kernels/color.cl");
    std::stringstream text;
    text << file.rdbuf();
    const std::string source = text.str();
    REQUIRE(!source.empty());
    for (const auto& [variant, macros] : detail::color_macro_table())
      for (const auto& macro : macros) {
        CAPTURE(variant);
        CAPTURE(macro);
        CHECK(source.find("#ifndef " + macro + "\n") != std::string::npos);
      }
    for (const detail::DTypeInfo* dtype : {&detail::dtype_of<float>(), &detail::dtype_of<std::uint8_t>()})
      for (const detail::GrayShape shape : {detail::GrayShape{3, false}, detail::GrayShape{4, true}}) {
        const auto space = detail::rgb_to_gray_search_space(*dtype, shape);
        for (const auto& config : space.enumerate(*device().info)) {
          CAPTURE(config.to_string());
          const auto& table = detail::color_macro_table().at(config.variant);
          const auto options = detail::gray_build_options(*dtype, shape, detail::gray_plan_of(config));
          for (const auto& [macro, value] : options.macros())
            CHECK_MESSAGE(std::find(table.begin(), table.end(), macro) != table.end(), macro);
          for (const auto& parameter : space.find(config.variant)->parameters)
            if (parameter.kind == detail::ParameterKind::Build)
              CHECK_MESSAGE(options.has(parameter.name), parameter.name);
        }
      }
  }

  TEST_CASE("color: a zero-sized image enqueues nothing and returns a null event") {
    cl::Buffer tiny(device().context, CL_MEM_READ_WRITE, 4);
    CHECK(rgb_to_gray<float>(device().queue, 0, 100, tiny, 0, 0, tiny, 0, 0)() == nullptr);
    CHECK(rgb_to_gray<std::uint8_t>(device().queue, 100, 0, tiny, 0, 0, tiny, 0, 0)() == nullptr);
  }

  TEST_CASE("color: the wait list holds the kernel back") {
    // The call waits for a user event; meanwhile another queue replaces the image: the result must be the
    // replacement's.
    const std::vector<float> old_image(3 * 64 * 4, 1.0f), new_image(3 * 64 * 4, 2.0f);
    cl::Buffer src = test::to_device(old_image);
    test::GuardedBuffer<float> dst(64 * 4);
    cl::UserEvent gate(device().context);
    const std::vector<cl::Event> wait{gate};
    cl::Event done =
        rgb_to_gray<float>(device().queue, 64, 4, src, 0, 192, dst.buffer(), dst.offset(), 64, GrayWeights(), &wait);
    device().queue.flush();
    std::this_thread::sleep_for(std::chrono::milliseconds(30));
    CHECK(done.getInfo<CL_EVENT_COMMAND_EXECUTION_STATUS>() != CL_COMPLETE);
    cl::CommandQueue other(device().context, device().device);
    other.enqueueWriteBuffer(src, CL_TRUE, 0, new_image.size() * sizeof(float), new_image.data());
    gate.setStatus(CL_COMPLETE);
    done.wait();
    for (float value : dst.read()) CHECK(value == doctest::Approx(2.0f));
    dst.check_guards("gray after the gate");
  }

  TEST_CASE("color: bad arguments raise tilecl::Error naming the argument") {
    cl::Buffer src(device().context, CL_MEM_READ_WRITE, 3 * 100 * 10 * sizeof(float));
    cl::Buffer dst(device().context, CL_MEM_READ_WRITE, 100 * 10 * sizeof(float));
    auto& q = device().queue;
    expect_error([&] { rgb_to_gray<float>(q, 100, 10, src, 0, 299, dst, 0, 100); }, "src_pitch", "CL_INVALID_VALUE");
    expect_error([&] { rgb_to_gray<float>(q, 100, 10, src, 0, 300, dst, 0, 99); }, "dst_pitch", "CL_INVALID_VALUE");
    expect_error([&] { rgb_to_gray<float>(q, 100, 10, src, 1, 300, dst, 0, 100); }, "src", "CL_INVALID_BUFFER_SIZE");
    expect_error([&] { rgb_to_gray<float>(q, 100, 11, src, 0, 300, dst, 0, 100); }, "src", "CL_INVALID_BUFFER_SIZE");
    expect_error([&] { rgb_to_gray<float>(q, 100, 10, src, 0, 300, dst, 0, 101); }, "dst", "CL_INVALID_BUFFER_SIZE");
    expect_error([&] { rgb_to_gray<float>(q, 100, 10, src, 0, 300, src, 0, 100); }, "dst", "CL_MEM_COPY_OVERLAP");
    expect_error(
        [&] {
          rgb_to_gray<float>(q, 10, 10, src, 0, 30, dst, 0, 10, GrayWeights{NAN, 0.5f, 0.5f});
        },
        "weights", "CL_INVALID_VALUE");
    expect_error([&] { rgb_to_gray<float>(q, 10, 10, src, 0, std::size_t{1} << 31, dst, 0, 10); }, "src_pitch",
                 "CL_INVALID_VALUE");
    expect_error(
        [&] {
          rgb_to_gray<float>(q, std::size_t{1} << 30, 1, src, 0, std::size_t{3} << 30, dst, 0, std::size_t{1} << 30);
        },
        "width", "CL_INVALID_VALUE");
    cl::Buffer null_buffer;
    expect_error([&] { rgb_to_gray<float>(q, 10, 10, null_buffer, 0, 30, dst, 0, 10); }, "src",
                 "CL_INVALID_MEM_OBJECT");
    cl::Context other(device().device);
    cl::Buffer foreign(other, CL_MEM_READ_WRITE, 1000 * sizeof(float));
    expect_error([&] { rgb_to_gray<float>(q, 10, 10, src, 0, 30, foreign, 0, 10); }, "dst", "CL_INVALID_CONTEXT");
    // Four-channel sources need 4 * width elements per row; the options' enums and OpenCV's weights.
    expect_error(
        [&] { rgb_to_gray<float>(q, 10, 10, src, 0, 30, dst, 0, 10, GrayOptions(GrayWeights(), ChannelOrder::BGRA)); },
        "src_pitch", "CL_INVALID_VALUE");
    expect_error(
        [&] {
          rgb_to_gray<float>(q, 10, 10, src, 0, 30, dst, 0, 10,
                             GrayOptions(GrayWeights(), static_cast<ChannelOrder>(4)));
        },
        "order", "CL_INVALID_VALUE");
    expect_error(
        [&] {
          rgb_to_gray<float>(q, 10, 10, src, 0, 30, dst, 0, 10,
                             GrayOptions(GrayWeights(), ChannelOrder::RGB, static_cast<Arithmetic>(3)));
        },
        "arithmetic", "CL_INVALID_VALUE");
    expect_error(
        [&] {
          rgb_to_gray<std::uint8_t>(q, 10, 10, src, 0, 30, dst, 0, 10,
                                    GrayOptions(GrayWeights::bt709(), ChannelOrder::RGB, Arithmetic::OpenCV));
        },
        "weights", "CL_INVALID_VALUE");
    expect_error(
        [&] {
          detail::rgb_to_gray_with<std::uint8_t>(
              {"vector", {{"VEC", 3}, {"WPT_X", 1}, {"WPT_Y", 1}, {"USE_ROUND_BY_ADD", 1}, {"WG_X", 0}, {"WG_Y", 1}}},
              q, 10, 10, src, 0, 30, dst, 0, 10);
        },
        "config", "CL_INVALID_VALUE");
    expect_error(
        [&] {
          detail::rgb_to_gray_with<std::uint8_t>(
              {"naive", {{"WG_X", static_cast<std::int64_t>(device().info->max_work_group_size) * 2}, {"WG_Y", 1}}}, q,
              10, 10, src, 0, 30, dst, 0, 10);
        },
        "config", "CL_INVALID_VALUE");
  }

  TEST_CASE("color: the tuner verifies rgb_to_gray candidates at ragged layouts and picks one on first use") {
    test::ScopedEnv cache("TILECL_CACHE_DIR", test::temp_directory("color-tuning"));
    test::ScopedEnv mode("TILECL_TUNE", "first-use");
    tuning::clear();
    for (const char* dtype : {"uint8", "float"}) {
      CAPTURE(dtype);
      auto choice = tuning::parameters_for(device().queue, "rgb_to_gray", dtype, "640x480");
      CHECK(choice.origin == tuning::Origin::FirstUse);
      CHECK(choice.bucket == "px<=2^20");
    }
    CHECK(tuning::parameters_for(device().queue, "rgb_to_gray", "uint8", "640x480,bgra,opencv").bucket ==
          "px<=2^20 c4 opencv");
    CHECK_THROWS_AS(tuning::parameters_for(device().queue, "rgb_to_gray", "float", "640x480x3"), Error);
    CHECK_THROWS_AS(tuning::parameters_for(device().queue, "rgb_to_gray", "float", "640x480,cmyk"), Error);
    CHECK_THROWS_AS(tuning::parameters_for(device().queue, "rgb_to_gray", "double", "640x480"), Error);
    tuning::clear();
  }
}

TEST_SUITE("ops.color") {
  TEST_CASE("color: tiny ragged images under every variant (also run under oclgrind)") {
    for (const auto& setting : settings_to_sweep()) {
      CAPTURE(setting.config.to_string());
      for (const GrayOptions& options : options_to_sweep(setting.bytes))
        for (auto [width, height] : {std::pair<std::size_t, std::size_t>{1, 1}, {19, 3}, {35, 2}})
          check_any(setting, width, height, width == 19 ? ImageLayout::Aligned : ImageLayout::Ragged, options);
    }
  }
}
