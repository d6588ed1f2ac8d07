#include <doctest/doctest.h>

#include <chrono>
#include <cstring>
#include <thread>

#include "checks.hpp"
#include "ops/transpose.hpp"
#include "reference/transpose_reference.hpp"
#include "support/fixture.hpp"
#include "support/guarded_buffer.hpp"
#include "sweeps/shapes.hpp"
#include "tilecl/error.hpp"
#include "tilecl/transpose.hpp"
#include "tilecl/tuning.hpp"
#include "tuning/op_registry.hpp"

using namespace tilecl;
using tilecl::detail::Config;
using tilecl::test::device;

namespace {

constexpr std::size_t kGuard = 29;

struct Shape {
  std::size_t rows, cols;
};
// Degenerate, prime, tile-sized and ragged: no shape is a multiple of every tile, vector and work-group.
const std::vector<Shape> kShapes{{1, 1},    {1, 37},   {37, 1},  {2, 3},     {17, 33},  {33, 17},
                                 {61, 127}, {127, 61}, {64, 64}, {100, 136}, {131, 67}, {5, 250}};

// How a matrix sits in memory: packed, padded and misaligned, or padded and aligned to 16 elements (the
// vector paths run on the aligned layout, the element-wise edge paths on the misaligned one).
struct Layout {
  const char* name;
  std::size_t in_offset, ld_in_extra, out_offset, ld_out_extra;
  bool align16;
};
const std::vector<Layout> kLayouts{
    {"packed", 0, 0, 0, 0, false}, {"misaligned", 7, 3, 2, 5, false}, {"aligned", 16, 0, 32, 0, true}};

std::size_t align_up(std::size_t value, std::size_t multiple) { return (value + multiple - 1) / multiple * multiple; }

// Settings of every variant beyond the defaults: both tile variants at several tiles, vectors and rows, every
// block edge with and without shuffles. PoCL compiles a kernel again for every local size it meets (about half
// a second each), so the sets below share programs and local sizes where they can, and launch sizes left to
// the driver (which change with the shape) have a test of their own.
std::vector<Config> float_configs() {
  std::vector<Config> configs{detail::transpose_default_config(detail::dtype_of<float>(), *device().info),
                              {"naive", {{"WG_X", 16}, {"WG_Y", 4}}},
                              {"tiled", {{"TILE", 16}, {"VEC", 1}, {"WG_Y", 4}}},
                              {"tiled", {{"TILE", 32}, {"VEC", 4}, {"WG_Y", 8}}},
                              {"padded", {{"TILE", 32}, {"VEC", 2}, {"WG_Y", 16}, {"PAD", 1}}},
                              {"padded", {{"TILE", 64}, {"VEC", 4}, {"WG_Y", 8}, {"PAD", 2}}},
                              {"padded", {{"TILE", 16}, {"VEC", 4}, {"WG_Y", 2}, {"PAD", 4}}},
                              {"shifted", {{"TILE", 32}, {"VEC", 4}, {"WG_Y", 8}, {"PAD", 1}, {"SECTOR", 8}}},
                              {"shifted", {{"TILE", 16}, {"VEC", 2}, {"WG_Y", 4}, {"PAD", 2}, {"SECTOR", 16}}}};
  for (std::int64_t vec : {2, 4, 16})
    for (std::int64_t shuffle : {0, 1})
      configs.push_back({"block", {{"VEC", vec}, {"USE_SHUFFLE", shuffle}, {"WG_X", 4}, {"WG_Y", 2}}});
  configs.push_back({"block", {{"VEC", 8}, {"USE_SHUFFLE", 0}, {"WG_X", 1}, {"WG_Y", 32}}});
  return configs;
}

std::vector<Config> byte_configs() {
  // The 16-wide vectors (16 x 16 blocks, 64-wide tiles) and both shuffles.
  return {detail::transpose_default_config(detail::dtype_of<std::uint8_t>(), *device().info),
          {"naive", {{"WG_X", 16}, {"WG_Y", 4}}},
          {"tiled", {{"TILE", 64}, {"VEC", 16}, {"WG_Y", 8}}},
          {"padded", {{"TILE", 64}, {"VEC", 16}, {"WG_Y", 4}, {"PAD", 1}}},
          {"padded", {{"TILE", 32}, {"VEC", 8}, {"WG_Y", 8}, {"PAD", 4}}},
          {"shifted", {{"TILE", 64}, {"VEC", 4}, {"WG_Y", 8}, {"PAD", 4}, {"SECTOR", 32}}},
          {"bytes", {{"TILE", 64}, {"WG_Y", 8}, {"PAD", 1}, {"SECTOR", 32}}},
          {"bytes", {{"TILE", 32}, {"WG_Y", 4}, {"PAD", 2}, {"SECTOR", 8}}},
          {"block", {{"VEC", 16}, {"USE_SHUFFLE", 1}, {"WG_X", 1}, {"WG_Y", 8}}},
          {"block", {{"VEC", 16}, {"USE_SHUFFLE", 0}, {"WG_X", 4}, {"WG_Y", 2}}},
          {"block", {{"VEC", 4}, {"USE_SHUFFLE", 1}, {"WG_X", 4}, {"WG_Y", 2}}},
          {"bytes", {{"TILE", 32}, {"WG_Y", 2}, {"PAD", 1}, {"SECTOR", 4}}}};
}

std::vector<Config> double_configs() {
  return {detail::transpose_default_config(detail::dtype_of<double>(), *device().info),
          {"naive", {{"WG_X", 16}, {"WG_Y", 4}}},
          {"tiled", {{"TILE", 32}, {"VEC", 2}, {"WG_Y", 8}}},
          {"padded", {{"TILE", 16}, {"VEC", 1}, {"WG_Y", 16}, {"PAD", 1}}},
          {"shifted", {{"TILE", 32}, {"VEC", 2}, {"WG_Y", 8}, {"PAD", 1}, {"SECTOR", 4}}},
          {"block", {{"VEC", 2}, {"USE_SHUFFLE", 1}, {"WG_X", 4}, {"WG_Y", 2}}},
          {"block", {{"VEC", 4}, {"USE_SHUFFLE", 0}, {"WG_X", 1}, {"WG_Y", 16}}}};
}

// 2-byte elements (half and bfloat16 share the ushort programs): 16-byte vectors (VEC 8), 16-wide blocks, the
// shifted tile at 32-byte sectors (SECTOR 16) and at 16 elements with VEC 4, the unpadded tile at VEC 16.
std::vector<Config> half_configs() {
  return {detail::transpose_default_config(detail::dtype_of<half>(), *device().info),
          {"naive", {{"WG_X", 16}, {"WG_Y", 4}}},
          {"tiled", {{"TILE", 64}, {"VEC", 16}, {"WG_Y", 8}}},
          {"padded", {{"TILE", 32}, {"VEC", 8}, {"WG_Y", 8}, {"PAD", 1}}},
          {"padded", {{"TILE", 16}, {"VEC", 2}, {"WG_Y", 4}, {"PAD", 2}}},
          {"shifted", {{"TILE", 64}, {"VEC", 8}, {"WG_Y", 16}, {"PAD", 1}, {"SECTOR", 16}}},
          {"shifted", {{"TILE", 32}, {"VEC", 4}, {"WG_Y", 8}, {"PAD", 2}, {"SECTOR", 32}}},
          {"block", {{"VEC", 8}, {"USE_SHUFFLE", 1}, {"WG_X", 4}, {"WG_Y", 2}}},
          {"block", {{"VEC", 16}, {"USE_SHUFFLE", 1}, {"WG_X", 1}, {"WG_Y", 8}}},
          {"block", {{"VEC", 4}, {"USE_SHUFFLE", 0}, {"WG_X", 4}, {"WG_Y", 2}}}};
}

// Random 16-bit patterns for half and bfloat16 (every exponent, NaN payloads and infinities included: a transpose
// moves bits), random values of the range below for the other types.
template <typename T>
std::vector<T> random_elements(std::size_t count, std::mt19937_64& random, double low, double high) {
  if constexpr (std::is_same_v<T, half> || std::is_same_v<T, bfloat16>) {
    const auto bits = test::random_vector<std::uint16_t>(count, random, 1, 65535);
    std::vector<T> values(count);
    for (std::size_t i = 0; i < count; ++i) values[i] = T::from_bits(bits[i]);
    return values;
  } else {
    return test::random_vector<T>(count, random, low, high);
  }
}

// int32 shares float's programs (the kernels move 4-byte words): the default and one of each variant.
std::vector<Config> int32_configs() {
  const auto floats = float_configs();
  return {floats[0], floats[1], floats[3], floats[4], floats[7], floats[11]};
}

// What a mismatch prints: the value, or the bits of a 16-bit float.
template <typename T>
auto bits_of(T value) {
  if constexpr (std::is_same_v<T, half> || std::is_same_v<T, bfloat16>)
    return value.bits;
  else
    return value;
}

// Transposes a random matrix (shape, layout) with `config` (nullptr: the public API) into a poisoned output
// with guard regions, and compares the whole output buffer, guards included, bit for bit.
template <typename T>
void check_transpose(const Config* config, Shape shape, const Layout& layout) {
  const std::size_t rows = shape.rows, cols = shape.cols;
  const std::size_t ld_in = layout.align16 ? align_up(cols, 16) : cols + layout.ld_in_extra;
  const std::size_t ld_out = layout.align16 ? align_up(rows, 16) : rows + layout.ld_out_extra;
  auto random = test::random_engine("transpose" + std::to_string(rows) + "x" + std::to_string(cols));
  // Integers cover the whole range of the type (bits are moved, not values); floats avoid zero.
  const std::size_t in_size = layout.in_offset + rows * ld_in + kGuard;
  auto in = std::is_floating_point_v<T>       ? random_elements<T>(in_size, random, 0.5, 2.0)
            : std::is_same_v<T, std::uint8_t> ? random_elements<T>(in_size, random, 1, 255)
                                              : random_elements<T>(in_size, random, -2e9, 2e9);
  std::vector<T> out(layout.out_offset + cols * ld_out + kGuard);
  std::memset(static_cast<void*>(out.data()), 0xA7, out.size() * sizeof(T));
  cl::Buffer in_buffer = test::to_device(in);
  test::GuardedBuffer<T> out_buffer(out);
  const std::size_t out_at = out_buffer.offset() + layout.out_offset;
  cl::Event event;
  if (config)
    event = detail::transpose_with<T>(*config, device().queue, rows, cols, in_buffer, layout.in_offset, ld_in,
                                      out_buffer.buffer(), out_at, ld_out);
  else
    event = transpose<T>(device().queue, rows, cols, in_buffer, layout.in_offset, ld_in, out_buffer.buffer(), out_at,
                         ld_out);
  REQUIRE(event() != nullptr);
  event.wait();
  std::vector<T> want = out;
  reference::transpose(rows, cols, in.data() + layout.in_offset, ld_in, want.data() + layout.out_offset, ld_out);
  const auto got = out_buffer.read();
  out_buffer.check_guards("transpose out");
  std::size_t bad = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    if (std::memcmp(&got[i], &want[i], sizeof(T)) != 0) {
      if (bad < 3) FAIL_CHECK("element " << i << " is " << +bits_of(got[i]) << ", expected " << +bits_of(want[i]));
      ++bad;
    }
  }
  CHECK_MESSAGE(bad == 0, bad << " of " << got.size() << " output elements differ (" << rows << "x" << cols << ", "
                              << layout.name << ")");
}

template <typename T>
void sweep_type(const std::vector<Config>& configs) {
  for (const auto& config : configs) {
    CAPTURE(config.to_string());
    for (const auto& shape : kShapes) {
      CAPTURE(shape.rows);
      CAPTURE(shape.cols);
      for (const auto& layout : kLayouts) {
        CAPTURE(layout.name);
        check_transpose<T>(&config, shape, layout);
      }
    }
  }
}

template <typename E>
void expect_error(E&& call, const std::string& argument, const std::string& status) {
  try {
    call();
    FAIL("expected tilecl::Error for " << argument);
  } catch (const Error& error) {
    CHECK(error.argument() == argument);
    CHECK(error.status_name() == status);
    CHECK(std::string(error.what()).find("tilecl::transpose") == 0);
  }
}

}  // namespace

TEST_SUITE("ops.transpose") {
  TEST_CASE("transpose: every variant and setting matches the reference at awkward shapes and layouts (float)") {
    sweep_type<float>(float_configs());
  }

  TEST_CASE("transpose: every variant matches the reference for bytes, doubles and int32, at several settings") {
    sweep_type<std::uint8_t>(byte_configs());
    sweep_type<double>(double_configs());
    sweep_type<std::int32_t>(int32_configs());
  }

  TEST_CASE("transpose: every variant moves half and bfloat16 bit for bit, at several settings") {
    sweep_type<half>(half_configs());
    const auto halves = half_configs();
    sweep_type<bfloat16>({halves[0], halves[2], halves[5], halves[7]});
  }

  TEST_CASE("transpose: launch sizes left to the driver") {
    for (const Config& config : {Config{"naive", {{"WG_X", 0}, {"WG_Y", 0}}},
                                 Config{"block", {{"VEC", 4}, {"USE_SHUFFLE", 1}, {"WG_X", 0}, {"WG_Y", 0}}}}) {
      CAPTURE(config.to_string());
      check_transpose<float>(&config, {61, 127}, kLayouts[1]);
      check_transpose<float>(&config, {64, 64}, kLayouts[2]);
    }
  }

  TEST_CASE("transpose: the public API at every shape and layout, for every element type") {
    for (const auto& shape : kShapes) {
      CAPTURE(shape.rows);
      CAPTURE(shape.cols);
      for (const auto& layout : kLayouts) {
        CAPTURE(layout.name);
        check_transpose<float>(nullptr, shape, layout);
        check_transpose<double>(nullptr, shape, layout);
        check_transpose<std::int32_t>(nullptr, shape, layout);
        check_transpose<std::uint8_t>(nullptr, shape, layout);
        check_transpose<half>(nullptr, shape, layout);
        check_transpose<bfloat16>(nullptr, shape, layout);
      }
    }
    // Larger ragged and prime shapes, and single rows and columns long enough to span many work-groups.
    for (Shape shape : {Shape{509, 1021}, Shape{1000, 3}, Shape{3, 1000}, Shape{1, 4099}, Shape{4099, 1}}) {
      CAPTURE(shape.rows);
      CAPTURE(shape.cols);
      check_transpose<float>(nullptr, shape, kLayouts[0]);
      check_transpose<std::uint8_t>(nullptr, shape, kLayouts[1]);
      check_transpose<half>(nullptr, shape, kLayouts[1]);
    }
  }

  TEST_CASE("transpose: the bench sweep's shapes, scaled down (seeds 1-4), float, double and bytes") {
    // The same random streams as `tilecl bench --sweep` (bench/sweeps/shapes.hpp) with sides of at most 700:
    // its aspect ratios, ragged edges and padded leading dimensions, through the public API.
    for (std::uint64_t seed = 1; seed <= 4; ++seed)
      for (const char* dtype : {"float", "uint8", "double"}) {
        auto random = bench::sweeps::sweep_random(seed, "transpose", dtype);
        for (int i = 0; i < 6; ++i) {
          const auto s = bench::sweeps::draw_transpose_shape(random, 700);
          CAPTURE(seed);
          CAPTURE(dtype);
          CAPTURE(s.text());
          const Shape shape{s.rows, s.cols};
          auto layout = kLayouts[0];  // packed, then the shape's padding and an odd input offset in half of them
          layout.name = "sweep", layout.in_offset = static_cast<std::size_t>(i % 2);
          layout.ld_in_extra = s.ld_in - s.cols, layout.ld_out_extra = s.ld_out - s.rows;
          if (std::string(dtype) == "float") check_transpose<float>(nullptr, shape, layout);
          if (std::string(dtype) == "uint8") check_transpose<std::uint8_t>(nullptr, shape, layout);
          if (std::string(dtype) == "double") check_transpose<double>(nullptr, shape, layout);
        }
      }
  }

  TEST_CASE("transpose: the smallest tiles build (transpose_bytes is left out below a 4-byte tile)") {
    // tiled TILE=1 made the program's transpose_bytes declare a work-group of TILE / 4 = 0 items (CI's random
    // configuration test, seed 3220126039).
    const Config smallest{"tiled", {{"TILE", 1}, {"VEC", 1}, {"WG_Y", 1}}};
    check_transpose<float>(&smallest, {5, 3}, kLayouts[0]);
    check_transpose<std::uint8_t>(&smallest, {3, 7}, kLayouts[1]);
  }

  TEST_CASE("transpose: matrices taller than one launch are transposed in bands of rows") {
    // 32768 work-groups along y per launch: a 1 x 1 work-group of naive covers one row, a block of VEC = 2
    // two rows, so these shapes take three and two launches.
    const Config naive{"naive", {{"WG_X", 4}, {"WG_Y", 1}}};
    const Config block{"block", {{"VEC", 2}, {"USE_SHUFFLE", 1}, {"WG_X", 2}, {"WG_Y", 1}}};
    check_transpose<std::uint8_t>(&naive, {70001, 3}, kLayouts[1]);
    check_transpose<std::uint8_t>(&block, {70001, 5}, kLayouts[2]);
  }

  TEST_CASE("transpose: the wait list holds the kernel back") {
    // The input changes (through another queue) while a user event holds the transpose back: the result is
    // the transpose of the new input.
    const std::size_t rows = 37, cols = 53;
    auto random = test::random_engine("wait");
    const auto before = test::random_vector<float>(rows * cols, random, 0.5, 2.0);
    const auto after = test::random_vector<float>(rows * cols, random, 0.5, 2.0);
    cl::Buffer in = test::to_device(before);
    test::GuardedBuffer<float> out(rows * cols);
    cl::UserEvent gate(device().context);
    const std::vector<cl::Event> wait{gate};
    cl::Event done = transpose<float>(device().queue, rows, cols, in, 0, cols, out.buffer(), out.offset(), rows, &wait);
    // Submitted and given time to run: it must still be waiting for the gate.
    device().queue.flush();
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    CHECK(done.getInfo<CL_EVENT_COMMAND_EXECUTION_STATUS>() != CL_COMPLETE);
    cl::CommandQueue other(device().context, device().device);
    other.enqueueWriteBuffer(in, CL_TRUE, 0, after.size() * sizeof(float), after.data());
    gate.setStatus(CL_COMPLETE);
    done.wait();
    std::vector<float> want(rows * cols);
    reference::transpose(rows, cols, after.data(), cols, want.data(), rows);
    test::check_all_close(out.read(), std::vector<double>(want.begin(), want.end()), 0, "transpose after the gate");
    out.check_guards("transpose after the gate");
  }

  TEST_CASE("transpose: rows or cols = 0 enqueues nothing and returns a null event") {
    cl::Buffer tiny(device().context, CL_MEM_READ_WRITE, 4);
    CHECK(transpose<float>(device().queue, 0, 100, tiny, 1000, 0, tiny, 1000, 0)() == nullptr);
    CHECK(transpose<float>(device().queue, 100, 0, tiny, 0, 0, tiny, 0, 0)() == nullptr);
    const Config naive{"naive", {{"WG_X", 0}, {"WG_Y", 0}}};
    CHECK(detail::transpose_with<std::uint8_t>(naive, device().queue, 0, 0, tiny, 0, 0, tiny, 0, 0)() == nullptr);
  }

  TEST_CASE("transpose: in and out may share a buffer when their exact extents do not overlap") {
    // in: 30 x 40 with ld_in 50 ends at element (30 - 1) * 50 + 40 = 1490; out (40 x 30, ld_out 30) starts there.
    const std::size_t rows = 30, cols = 40, ld_in = 50, ld_out = 30, out_offset = 1490;
    auto random = test::random_engine("shared");
    auto values = test::random_vector<float>(out_offset + cols * ld_out, random, 0.5, 2.0);
    test::GuardedBuffer<float> guarded(values);
    cl::Buffer& buffer = guarded.buffer();
    const std::size_t at = guarded.offset();
    transpose<float>(device().queue, rows, cols, buffer, at, ld_in, buffer, at + out_offset, ld_out).wait();
    std::vector<float> want = values;
    reference::transpose(rows, cols, values.data(), ld_in, want.data() + out_offset, ld_out);
    test::check_all_close(guarded.read(), std::vector<double>(want.begin(), want.end()), 0, "shared buffer");
    guarded.check_guards("shared buffer");
    // One element earlier, the last element of in is the first of out.
    expect_error(
        [&] { transpose<float>(device().queue, rows, cols, buffer, at, ld_in, buffer, at + out_offset - 1, ld_out); },
        "out", "CL_MEM_COPY_OVERLAP");
  }

  TEST_CASE("transpose: bad arguments raise tilecl::Error naming the argument") {
    cl::Buffer small(device().context, CL_MEM_READ_WRITE, 100 * sizeof(float));
    cl::Buffer large(device().context, CL_MEM_READ_WRITE, 10000 * sizeof(float));
    auto queue = device().queue;
    expect_error([&] { transpose<float>(queue, 10, 20, large, 0, 19, small, 0, 10); }, "ld_in", "CL_INVALID_VALUE");
    expect_error([&] { transpose<float>(queue, 10, 20, large, 0, 20, large, 5000, 9); }, "ld_out", "CL_INVALID_VALUE");
    // Exact extents: 10 x 10 with ld 10 needs 100 elements, so offset 1 overflows the small buffer by one.
    CHECK_NOTHROW(transpose<float>(queue, 10, 10, small, 0, 10, large, 0, 10).wait());
    expect_error([&] { transpose<float>(queue, 10, 10, small, 1, 10, large, 0, 10); }, "in", "CL_INVALID_BUFFER_SIZE");
    expect_error([&] { transpose<float>(queue, 10, 10, large, 0, 10, small, 1, 10); }, "out", "CL_INVALID_BUFFER_SIZE");
    expect_error([&] { transpose<double>(queue, 50, 20, large, 0, 20, large, 999, 50); }, "out", "CL_MEM_COPY_OVERLAP");
    expect_error([&] { transpose<float>(queue, std::size_t{1} << 31, 1, large, 0, 1, large, 0, std::size_t{1} << 31); },
                 "rows", "CL_INVALID_VALUE");
    expect_error([&] { transpose<float>(queue, 2, 2, large, ~std::size_t{0} - 1, 2, small, 0, 2); }, "in",
                 "CL_INVALID_VALUE");
    cl::Buffer null_buffer;
    expect_error([&] { transpose<float>(queue, 2, 2, null_buffer, 0, 2, small, 0, 2); }, "in", "CL_INVALID_MEM_OBJECT");
    cl::Context other(device().device);
    cl::Buffer foreign(other, CL_MEM_READ_WRITE, 1000 * sizeof(float));
    expect_error([&] { transpose<float>(queue, 2, 2, small, 0, 2, foreign, 0, 2); }, "out", "CL_INVALID_CONTEXT");
    // Sub-buffers of one buffer are resolved to their parent for the overlap check.
    const std::size_t half = 4096;
    cl_buffer_region first{0, half}, second{half / 2, half};
    cl::Buffer a = large.createSubBuffer(CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &first);
    cl::Buffer b = large.createSubBuffer(CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &second);
    expect_error([&] { transpose<float>(queue, 32, 32, a, 0, 32, b, 0, 32); }, "out", "CL_MEM_COPY_OVERLAP");
    CHECK_NOTHROW(transpose<float>(queue, 16, 16, a, 0, 16, b, 0, 16).wait());  // [0, 1 KiB) and [2, 3 KiB)
    // Configurations that break the search space's rules.
    const Config bad_tile{"tiled", {{"TILE", 24}, {"VEC", 16}, {"WG_Y", 8}}};
    expect_error([&] { detail::transpose_with<float>(bad_tile, queue, 4, 4, large, 0, 4, small, 0, 4); }, "config",
                 "CL_INVALID_VALUE");
    const Config missing_pad{"padded", {{"TILE", 32}, {"VEC", 4}, {"WG_Y", 8}}};
    expect_error([&] { detail::transpose_with<float>(missing_pad, queue, 4, 4, large, 0, 4, small, 0, 4); }, "config",
                 "CL_INVALID_VALUE");
    const Config half_launch{"block", {{"VEC", 4}, {"USE_SHUFFLE", 1}, {"WG_X", 0}, {"WG_Y", 8}}};
    expect_error([&] { detail::transpose_with<float>(half_launch, queue, 4, 4, large, 0, 4, small, 0, 4); }, "config",
                 "CL_INVALID_VALUE");
  }

  TEST_CASE("transpose: the defaults and search space follow the device's properties") {
    DeviceInfo gpu = *device().info;
    gpu.type = CL_DEVICE_TYPE_GPU;
    gpu.local_memory_is_dedicated = true;
    gpu.local_memory_bytes = 48 * 1024;
    gpu.max_work_group_size = 1024;
    gpu.max_work_item_sizes = {1024, 1024, 64};
    DeviceInfo cpu = gpu;
    cpu.type = CL_DEVICE_TYPE_CPU;
    cpu.local_memory_is_dedicated = false;
    for (const detail::DTypeInfo* dtype :
         {&detail::dtype_of<float>(), &detail::dtype_of<double>(), &detail::dtype_of<std::int32_t>(),
          &detail::dtype_of<std::uint8_t>(), &detail::dtype_of<half>()}) {
      CAPTURE(dtype->name);
      for (const DeviceInfo* info : {&gpu, &cpu}) {
        const Config preferred = detail::transpose_default_config(*dtype, *info);
        const auto space = detail::transpose_search_space(*dtype, *info);
        CHECK(space.validate(preferred, *info).empty());
        // The default is one of the configurations a search tries (the tuner puts it first).
        const auto all = space.enumerate(*info);
        REQUIRE_FALSE(all.empty());
        CHECK(std::find(all.begin(), all.end(), preferred) != all.end());
        CHECK(all.size() < 2000);
      }
      const Config gpu_default = detail::transpose_default_config(*dtype, gpu);
      CHECK(gpu_default.variant == (dtype->size == 1 ? "padded" : "shifted"));
      // 16-byte accesses for 4- and 8-byte elements; words of 4 bytes for bytes.
      if (dtype->size > 1) CHECK(gpu_default.value("VEC") * static_cast<std::int64_t>(dtype->size) == 16);
      if (dtype->size == 1) CHECK(gpu_default.value("VEC") == 4);
      CHECK(detail::transpose_search_space(*dtype, gpu).validate(gpu_default, gpu) == "");
      CHECK(detail::transpose_default_config(*dtype, cpu).variant == "block");
      // First use times one other tile beside the GPU default: the padded one beside the shifted, and for bytes the
      // 128 x 128 padded tile beside the 64 x 64 one; none on CPUs.
      const auto subject = detail::find_tunable_op("transpose").make_subject(dtype->name, "4096x4000");
      const auto others = subject->first_use_candidates(gpu);
      REQUIRE(others.size() == 1);
      CHECK(others[0].variant == "padded");
      if (dtype->size == 1) CHECK(others[0].value("TILE") == 128);
      CHECK(detail::transpose_search_space(*dtype, gpu).validate(others[0], gpu) == "");
      CHECK(subject->first_use_candidates(cpu).empty());
    }
    // A device with little local memory gets no tile that does not fit.
    DeviceInfo small_local = gpu;
    small_local.local_memory_bytes = 4096;
    for (const auto& config :
         detail::transpose_search_space(detail::dtype_of<double>(), small_local).enumerate(small_local)) {
      if (config.variant == "tiled" || config.variant == "padded")
        CHECK(config.value("TILE") * (config.value("TILE") + (config.variant == "padded" ? config.value("PAD") : 0)) *
                  8 <=
              4096);
    }
  }

  TEST_CASE("transpose: the tuning entry verifies every variant at ragged shapes and rejects malformed shapes") {
    const auto& op = detail::find_tunable_op("transpose");
    CHECK(op.description.dtypes.size() == 6);
    auto subject = op.make_subject("uint8", "100x200");
    CHECK(subject->key().bucket == "rows*cols<2^16");
    CHECK(detail::find_tunable_op("transpose").make_subject("float", "16x100000")->key().bucket == "min(rows,cols)<32");
    CHECK(detail::find_tunable_op("transpose").make_subject("float", "8192x8192")->key().bucket ==
          "rows*cols>=2^22,out-aligned");
    CHECK(detail::find_tunable_op("transpose").make_subject("float", "8191x8192")->key().bucket == "rows*cols>=2^22");
    CHECK(detail::find_tunable_op("transpose").make_subject("uint8", "1000x1000")->key().bucket == "rows*cols<2^22");
    subject->prepare(device().queue, 7);
    cl::CommandQueue queue = device().queue;
    for (const Config& config : byte_configs()) {
      CAPTURE(config.to_string());
      CHECK(subject->verify(queue, config).empty());
    }
    CHECK_THROWS_AS(op.make_subject("float", "100"), Error);
    CHECK_THROWS_AS(op.make_subject("float", "0x100"), Error);
    CHECK_THROWS_AS(op.make_subject("int64", "100x100"), Error);
    auto halves = op.make_subject("half", "300x200");
    halves->prepare(device().queue, 11);
    for (const Config& config : half_configs()) {
      CAPTURE(config.to_string());
      CHECK(halves->verify(queue, config).empty());
    }
    // What a call would use, resolved as the call resolves it (tuning is off in the test runner).
    const auto choice = tuning::parameters_for(device().queue, "transpose", "float", "2048x2048");
    CHECK(choice.parameters == detail::transpose_default_config(detail::dtype_of<float>(), *device().info));
  }
}

TEST_SUITE("ops.transpose") {
  TEST_CASE("transpose: tiny ragged shapes under every variant (also run under oclgrind)") {
    // Settings shared with the sweeps above (no extra compiles on PoCL). Bytes run the 16-wide register block with
    // shuffle2 shuffles (USE_SHUFFLE = 2: oclgrind reports a false "uninitialized value" for the .even/.odd form of
    // 16-wide vectors, kernels/transpose.cl says more; the sweeps above check that form bit for bit) and without
    // shuffles, the tiled kernel with windows on misaligned rows and edge tiles, and the shifted and bytes tiles.
    const auto floats = float_configs();
    for (const Config& config : {floats[1], floats[2], floats[6], floats[12], floats[9], floats[7], floats[8]}) {
      CAPTURE(config.to_string());
      for (Shape shape : {Shape{1, 5}, Shape{9, 13}, Shape{16, 8}, Shape{17, 33}}) {
        CAPTURE(shape.rows);
        CAPTURE(shape.cols);
        check_transpose<float>(&config, shape, kLayouts[1]);
        check_transpose<float>(&config, shape, kLayouts[2]);
      }
    }
    const Config byte_shuffle2{"block", {{"VEC", 16}, {"USE_SHUFFLE", 2}, {"WG_X", 1}, {"WG_Y", 8}}};
    check_transpose<std::uint8_t>(&byte_shuffle2, {17, 35}, kLayouts[2]);
    check_transpose<std::uint8_t>(&byte_configs()[9], {17, 35}, kLayouts[1]);
    check_transpose<std::uint8_t>(&byte_configs()[3], {130, 70}, kLayouts[1]);
    check_transpose<std::uint8_t>(&byte_configs()[5], {130, 70}, kLayouts[1]);
    check_transpose<std::uint8_t>(&byte_configs()[6], {130, 70}, kLayouts[1]);
    check_transpose<std::uint8_t>(&byte_configs()[7], {45, 77}, kLayouts[0]);
    check_transpose<std::uint8_t>(&byte_configs()[11], {130, 70}, kLayouts[1]);
    check_transpose<double>(&double_configs()[3], {19, 21}, kLayouts[2]);
    check_transpose<double>(&double_configs()[4], {41, 37}, kLayouts[1]);
    check_transpose<half>(&half_configs()[5], {70, 83}, kLayouts[1]);
    const Config half_shuffle2{"block", {{"VEC", 16}, {"USE_SHUFFLE", 2}, {"WG_X", 1}, {"WG_Y", 8}}};
    check_transpose<half>(&half_shuffle2, {17, 35}, kLayouts[2]);
  }
}
