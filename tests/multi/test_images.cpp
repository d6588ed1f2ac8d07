#include <doctest/doctest.h>

#include <cstdint>
#include <optional>
#include <type_traits>

#include "multi/multi_support.hpp"
#include "reference/image_reference.hpp"
#include "support/fixture.hpp"
#include "tilecl/convolve.hpp"
#include "tilecl/error.hpp"
#include "tilecl/multi_device.hpp"
#include "tilecl/tuning.hpp"

using namespace tilecl;
namespace multi = tilecl::test::multi;

namespace {

reference::Border to_reference(Border border) { return static_cast<reference::Border>(static_cast<int>(border)); }

enum class Op { Convolve2d, Separable, Box, Gaussian };

struct Filter {
  Op op;
  int radius_x, radius_y;
  Border border;
  double sigma = 1.0;
  bool default_radius = false;  // gaussian_blur without a radius (ceil(3 sigma))
};

struct Images {
  std::size_t width, height, channels, frames;
  std::size_t pitch_extra = 0;  // elements past each row
  std::size_t gap = 0;          // elements between frames
};

std::string describe(const Filter& f, const Images& im) {
  const char* names[] = {"convolve2d", "separable", "box", "gaussian"};
  return std::string(names[static_cast<int>(f.op)]) + " " + std::to_string(2 * f.radius_x + 1) + "x" +
         std::to_string(2 * f.radius_y + 1) + " " + reference::border_name(to_reference(f.border)) + " " +
         std::to_string(im.width) + "x" + std::to_string(im.height) + "x" + std::to_string(im.channels) + " frames " +
         std::to_string(im.frames) + " pitch+" + std::to_string(im.pitch_extra) + " gap " + std::to_string(im.gap);
}

// A filter's host taps: direct taps for convolve2d, row and column taps for the others.
struct Taps {
  std::vector<float> direct, row, column;
};

Taps taps_of(const Filter& f, std::mt19937_64& random) {
  Taps t;
  const std::size_t kw = 2 * f.radius_x + 1, kh = 2 * f.radius_y + 1;
  switch (f.op) {
    case Op::Convolve2d:
      t.direct = test::random_vector<float>(kw * kh, random, -0.3, 0.5);
      break;
    case Op::Separable:
      t.row = test::random_vector<float>(kw, random, -0.2, 0.6);
      t.column = test::random_vector<float>(kh, random, -0.2, 0.6);
      break;
    case Op::Box:
      t.row = reference::box_taps(f.radius_x);
      t.column = reference::box_taps(f.radius_y);
      break;
    case Op::Gaussian:
      t.row = t.column = reference::gaussian_taps(f.sigma, f.radius_x);
      break;
  }
  return t;
}

std::optional<std::size_t> gaussian_radius(const Filter& f) {
  return f.default_radius ? std::nullopt : std::optional<std::size_t>(f.radius_x);
}

template <typename T>
void run_multi(DeviceSet& set, const Filter& f, const Images& im, const Taps& t, const T* src, T* dst) {
  const std::size_t pitch = im.width * im.channels + im.pitch_extra, stride = im.height * pitch + im.gap;
  const FrameBatch frames{im.frames, stride, stride};
  switch (f.op) {
    case Op::Convolve2d:
      convolve2d<T>(set, im.width, im.height, im.channels, src, pitch, dst, pitch, t.direct, 2 * f.radius_x + 1,
                    2 * f.radius_y + 1, f.border, frames);
      break;
    case Op::Separable:
      separable_filter<T>(set, im.width, im.height, im.channels, src, pitch, dst, pitch, t.row, t.column, f.border,
                          frames);
      break;
    case Op::Box:
      box_blur<T>(set, im.width, im.height, im.channels, src, pitch, dst, pitch, f.radius_x, f.radius_y, f.border,
                  frames);
      break;
    case Op::Gaussian:
      gaussian_blur<T>(set, im.width, im.height, im.channels, src, pitch, dst, pitch, f.sigma, f.border,
                       gaussian_radius(f), frames);
      break;
  }
}

// One frame through the single-device op on `queue` (its own buffers); returns the frame as the op wrote it.
template <typename T>
std::vector<T> run_single(cl::CommandQueue& queue, const Filter& f, const Images& im, const Taps& t, const T* src,
                          const std::vector<T>& initial) {
  const auto context = queue.getInfo<CL_QUEUE_CONTEXT>();
  const std::size_t pitch = im.width * im.channels + im.pitch_extra, count = im.height * pitch;
  const auto buffer = [&](const auto* data, std::size_t n) {
    using E = std::remove_const_t<std::remove_pointer_t<decltype(data)>>;
    return cl::Buffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, std::max<std::size_t>(n, 1) * sizeof(E),
                      const_cast<E*>(data));
  };
  cl::Buffer in = buffer(src, count), out = buffer(initial.data(), count);
  cl::Event done;
  switch (f.op) {
    case Op::Convolve2d:
      done =
          convolve2d<T>(queue, im.width, im.height, im.channels, in, 0, pitch, out, 0, pitch,
                        buffer(t.direct.data(), t.direct.size()), 0, 2 * f.radius_x + 1, 2 * f.radius_y + 1, f.border);
      break;
    case Op::Separable:
      done = separable_filter<T>(queue, im.width, im.height, im.channels, in, 0, pitch, out, 0, pitch,
                                 buffer(t.row.data(), t.row.size()), 0, t.row.size(),
                                 buffer(t.column.data(), t.column.size()), 0, t.column.size(), f.border);
      break;
    case Op::Box:
      done = box_blur<T>(queue, im.width, im.height, im.channels, in, 0, pitch, out, 0, pitch, f.radius_x, f.radius_y,
                         f.border);
      break;
    case Op::Gaussian:
      done = gaussian_blur<T>(queue, im.width, im.height, im.channels, in, 0, pitch, out, 0, pitch, f.sigma, f.border,
                              gaussian_radius(f));
      break;
  }
  done.wait();
  std::vector<T> result(count);
  queue.enqueueReadBuffer(out, CL_TRUE, 0, count * sizeof(T), result.data());
  return result;
}

template <typename T>
T sentinel() {
  if constexpr (std::is_same_v<T, float>)
    return 777.25f;
  else
    return 0x5a;
}

// Every frame: within the rounding bound of the exact result; against the single-device call on `single_queue`,
// equal bit for bit (`identical`) or both within the bound; padding, gaps and guards untouched; src unchanged.
// Returns how many elements differ from the single-device result.
template <typename T>
std::size_t check_filter(DeviceSet& set, const Filter& f, const Images& im, cl::CommandQueue& single_queue,
                         bool identical) {
  CAPTURE(describe(f, im));
  auto random = test::random_engine("multi image " + describe(f, im));
  const Taps t = taps_of(f, random);
  const std::size_t row = im.width * im.channels, pitch = row + im.pitch_extra;
  const std::size_t stride = im.height * pitch + im.gap, total = im.frames * stride;
  const bool bytes = std::is_same_v<T, std::uint8_t>;
  multi::GuardedHost<T> src(total, sentinel<T>()), dst(total, sentinel<T>());
  const auto values = test::random_vector<T>(total, random, bytes ? 0 : -1, bytes ? 255 : 1);
  for (std::size_t i = 0; i < total; ++i) src[i] = values[i];
  const std::vector<T> src_before(src.data(), src.data() + total);
  run_multi<T>(set, f, im, t, src.data(), dst.data());

  double taps = 0, magnitude = bytes ? 255.0 : 1.0;
  if (f.op == Op::Convolve2d) {
    double sum = 0;
    for (float x : t.direct) sum += std::abs(x);
    magnitude *= sum;
    taps = static_cast<double>(t.direct.size());
  } else {
    double row_sum = 0, column_sum = 0;
    for (float x : t.row) row_sum += std::abs(x);
    for (float x : t.column) column_sum += std::abs(x);
    magnitude *= row_sum * column_sum;
    taps = static_cast<double>(t.row.size() + t.column.size());
  }
  const double tolerance = reference::float_sum_tolerance(static_cast<std::size_t>(taps), magnitude);
  const auto matches = [&](double exact, T got) {
    if constexpr (bytes)
      return reference::matches_u8(exact, got, tolerance);
    else
      return reference::matches_float(exact, got, tolerance);
  };
  std::size_t bad = 0, differing = 0;
  for (std::size_t frame = 0; frame < im.frames; ++frame) {
    const T* in = src.data() + frame * stride;
    const auto exact = f.op == Op::Convolve2d
                           ? reference::convolve2d(in, long(im.width), long(im.height), int(im.channels), long(pitch),
                                                   t.direct, f.radius_x, f.radius_y, to_reference(f.border))
                           : reference::separable_filter(in, long(im.width), long(im.height), int(im.channels),
                                                         long(pitch), t.row, t.column, to_reference(f.border));
    const auto single = run_single<T>(single_queue, f, im, t, in, std::vector<T>(im.height * pitch, sentinel<T>()));
    for (std::size_t y = 0; y < im.height; ++y)
      for (std::size_t x = 0; x < row; ++x) {
        const T got = dst[frame * stride + y * pitch + x], one = single[y * pitch + x];
        const double want = exact[y * row + x];
        if (got != one) ++differing;
        const bool ok = matches(want, got) && matches(want, one) && (!identical || got == one);
        if (!ok && bad++ < 5)
          FAIL_CHECK("frame " << frame << " (" << x << ", " << y << ") is " << +got << ", single device " << +one
                              << ", exact " << want);
      }
  }
  CHECK_MESSAGE(bad == 0, bad << " elements wrong");
  for (std::size_t i = 0; i < total; ++i) {
    const std::size_t in_frame = i % stride;
    const bool written = in_frame < im.height * pitch && in_frame % pitch < row && i / stride < im.frames;
    if (!written && !(dst[i] == sentinel<T>())) {
      FAIL_CHECK("element " << i << " outside the images was written");
      break;
    }
  }
  dst.check_guards("dst");
  CHECK(std::vector<T>(src.data(), src.data() + total) == src_before);
  return differing;
}

const Border kBorders[] = {Border::Zero, Border::Clamp,   Border::Mirror,
                           Border::Wrap, Border::Reflect, Border::Constant};

}  // namespace

TEST_SUITE("multi.images") {
  TEST_CASE("multi images: every filter and border on 2 and 3 devices equals the single-device call") {
    // Two devices alike in one context: every op, both types. Three devices (one of another driver), each context
    // its own: two of the same filters again (the other driver compiles its own programs).
    std::size_t differing = 0;
    const auto filters = [](std::size_t turn) {
      const Op op = static_cast<Op>(turn);
      const Filter f{op, op == Op::Gaussian ? 2 : 1, op == Op::Box ? 3 : 2, kBorders[(turn * 5) % 6], 0.8};
      const Images im{29 + turn, 23, turn % 2 ? 3u : 1u, 1 + turn % 3, turn % 3, turn % 2 ? 5u : 0u};
      return std::make_pair(f, im);
    };
    DeviceSet two(multi::queues(multi::alike(2), true), {{}, 2});
    for (std::size_t turn = 0; turn < 4; ++turn) {
      const auto [f, im] = filters(turn);
      differing += check_filter<float>(two, f, im, two.queue(0), false);
      differing += check_filter<std::uint8_t>(two, f, im, two.queue(0), false);
    }
    const auto chosen = multi::devices(3);
    CAPTURE(multi::describe(chosen, false));
    DeviceSet three(multi::queues(chosen, false), {{}, 2});
    for (std::size_t turn : {1, 3}) {
      const auto [f, im] = filters(turn);
      differing += check_filter<std::uint8_t>(three, f, im, three.queue(0), false);
    }
    MESSAGE(differing << " elements differ from the single-device call (devices' default configurations)");
  }

  TEST_CASE("multi images: awkward bands -- one row per device, more devices than rows, a halo past the image") {
    // Three queues on one device in one context: the bands' logic at the cost of one compile per program.
    const auto one = multi::alike(1).front();
    DeviceSet set(multi::queues({one, one, one}, true), {{1.0, 1.0, 1.0}, 3});
    // A Gaussian of radius 3 reaches past bands of one or two rows, and past the image (Mirror and Wrap fold it);
    // a 3 x 7 filter too.
    std::size_t turn = 0;
    for (const Images& im : {Images{7, 3, 1, 1}, Images{5, 2, 3, 1, 2}, Images{4, 1, 1, 4, 0, 3}, Images{13, 5, 1, 2}})
      for (const Border border : kBorders) {
        if (im.channels == 1 || turn % 2 == 0)
          check_filter<float>(set, {Op::Gaussian, 3, 3, border, 1.0}, im, set.queue(0), false);
        if (turn++ % 5 == 0) check_filter<float>(set, {Op::Convolve2d, 1, 3, border}, im, set.queue(0), false);
      }
  }

  TEST_CASE("multi images: bit-identical to the single-device call under one configuration on every device") {
    const auto chosen = multi::alike(2);
    DeviceSet set(multi::queues(chosen, false), {{2.0, 1.0}, 2});
    const Filter f{Op::Gaussian, 2, 2, Border::Mirror, 0.9};
    const Images im{37, 41, 3, 2, 1, 0};
    for (const char* dtype : {"float", "uint8"}) {
      const auto choice = tuning::parameters_for(set.queue(0), "gaussian_blur", dtype, "37x41x3,5x5,mirror");
      MESSAGE("gaussian_blur " << std::string(dtype) << ": " << choice.parameters.to_string());
      for (const auto& d : chosen) tuning::override_parameters(d, "gaussian_blur", dtype, choice.parameters);
    }
    CHECK(check_filter<float>(set, f, im, set.queue(0), true) == 0);
    CHECK(check_filter<std::uint8_t>(set, f, im, set.queue(0), true) == 0);
    tuning::clear();
  }

  TEST_CASE("multi images: devices tuned differently (an override on one fingerprint) agree within the bound") {
    const auto chosen = multi::devices(3);
    DeviceSet set(multi::queues(chosen, true));
    tuning::override_parameters(chosen.back(), "box_blur", "float",
                                tuning::Parameters::parse("two_pass VEC=4 USE_WINDOW=0 WG_X=16 WG_Y=2"));
    check_filter<float>(set, {Op::Box, 2, 1, Border::Clamp}, {31, 17, 1, 2}, set.queue(0), false);
    tuning::clear();
  }

  TEST_CASE("multi images: bad arguments raise tilecl::Error naming the argument, before any work") {
    DeviceSet set(multi::queues(multi::devices(2), false));
    std::vector<float> src(400, 1.0f), dst(400, 0.0f);
    const auto expect = multi::expect_error;
    const std::vector<float> taps(9, 0.1f);
    expect([&] { box_blur<float>(set, 8, 8, 1, nullptr, 8, dst.data(), 8, 1, 1, Border::Clamp); }, "src",
           CL_INVALID_VALUE);
    expect([&] { box_blur<float>(set, 8, 8, 1, src.data(), 7, dst.data(), 8, 1, 1, Border::Clamp); }, "src_pitch",
           CL_INVALID_VALUE);
    expect([&] { box_blur<float>(set, 8, 8, 2, src.data(), 16, dst.data(), 16, 1, 1, Border::Clamp); }, "channels",
           CL_INVALID_VALUE);
    expect([&] { box_blur<float>(set, 8, 8, 1, src.data(), 8, src.data() + 3, 8, 1, 1, Border::Clamp); }, "dst",
           CL_MEM_COPY_OVERLAP);
    expect(
        [&] {
          box_blur<float>(set, 4, 4, 1, src.data(), 4, dst.data(), 4, 1, 1, Border::Clamp, {3, 16, 10});
        },
        "frames", CL_MEM_COPY_OVERLAP);
    expect([&] { convolve2d<float>(set, 8, 8, 1, src.data(), 8, dst.data(), 8, taps, 3, 5, Border::Wrap); }, "filter",
           CL_INVALID_BUFFER_SIZE);
    expect([&] { convolve2d<float>(set, 8, 8, 1, src.data(), 8, dst.data(), 8, taps, 3, 4, Border::Wrap); },
           "filter_height", CL_INVALID_VALUE);
    expect(
        [&] {
          separable_filter<float>(set, 8, 8, 1, src.data(), 8, dst.data(), 8, {1, 2}, {1}, Border::Zero);
        },
        "row_filter_length", CL_INVALID_VALUE);
    expect([&] { gaussian_blur<float>(set, 8, 8, 1, src.data(), 8, dst.data(), 8, -1.0, Border::Zero); }, "sigma",
           CL_INVALID_VALUE);
    expect([&] { gaussian_blur<float>(set, 8, 8, 1, src.data(), 8, dst.data(), 8, 1.0, static_cast<Border>(9)); },
           "border", CL_INVALID_VALUE);
    // Nothing to do: no pointer is read, nothing is written.
    gaussian_blur<float>(set, 0, 8, 1, nullptr, 0, nullptr, 0, 1.0, Border::Zero);
    box_blur<float>(set, 8, 8, 1, nullptr, 8, nullptr, 8, 1, 1, Border::Zero, {0, 0, 0});
    CHECK(dst == std::vector<float>(400, 0.0f));
  }
}
