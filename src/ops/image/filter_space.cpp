// Search spaces: for each variant of kernels/convolve.cl its build parameters (the macros of the same names),
// its launch parameters and the constraints that keep it legal on a device. `tilecl tune` walks parameters in
// declaration order, the first varying fastest. The macros each variant reads are listed in
// filter_program.cpp, and a test checks every parameter here against that table and the kernel file.
#include "ops/image/filter_space.hpp"

#include <algorithm>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <tuple>
#include <utility>

#include "ops/image/filter_program.hpp"
#include "ops/image/image_common.hpp"

namespace tilecl::detail {
namespace {

Constraint one_of(const char* name, std::vector<std::int64_t> allowed) {
  std::string description = std::string(name) + " in {";
  for (std::size_t i = 0; i < allowed.size(); ++i) description += (i ? ", " : "") + std::to_string(allowed[i]);
  return {description + "}", [name, allowed](const Values& v, const DeviceInfo&) {
            return std::find(allowed.begin(), allowed.end(), at(v, name)) != allowed.end();
          }};
}

// The tiled variant's constraints: tile divisibility, work-group and local-memory limits, the unroll limit.
std::vector<Constraint> tiled_constraints(const FilterShape& shape) {
  const auto channels = static_cast<std::int64_t>(shape.channels);
  const bool direct = shape.form == FilterForm::Direct;
  std::vector<Constraint> constraints{one_of("VEC", {2, 4, 8, 16})};
  constraints.push_back({"TILE_X * channels % VEC == 0, TILE_Y % WPT_Y == 0, PAD % VEC == 0, 1 <= WPT_Y <= 32",
                         [channels](const Values& v, const DeviceInfo&) {
                           return at(v, "TILE_X") > 0 && at(v, "TILE_Y") > 0 && at(v, "WPT_Y") >= 1 &&
                                  at(v, "WPT_Y") <= 32 && (at(v, "TILE_X") * channels) % at(v, "VEC") == 0 &&
                                  at(v, "TILE_Y") % at(v, "WPT_Y") == 0 && at(v, "PAD") >= 0 &&
                                  at(v, "PAD") % at(v, "VEC") == 0 && at(v, "TILE_X") <= 4096 &&
                                  at(v, "TILE_Y") <= 4096;
                         }});
  constraints.push_back({"work-group (TILE_X * channels / VEC) x (TILE_Y / WPT_Y) within the device's limits",
                         [channels](const Values& v, const DeviceInfo& d) {
                           const std::int64_t x = at(v, "TILE_X") * channels / at(v, "VEC"),
                                              y = at(v, "TILE_Y") / at(v, "WPT_Y");
                           return x >= 1 && y >= 1 && static_cast<std::uint64_t>(x * y) <= d.max_work_group_size &&
                                  static_cast<std::uint64_t>(x) <= d.max_work_item_sizes[0] &&
                                  static_cast<std::uint64_t>(y) <= d.max_work_item_sizes[1];
                         }});
  constraints.push_back({"the tile fits the device's local memory", [shape](const Values& v, const DeviceInfo& d) {
                           FilterPlan plan = plan_of(Config{"tiled", v});
                           return tiled_local_bytes(shape, plan) <= d.local_memory_bytes;
                         }});
  const int largest = std::max(shape.radius_x, shape.radius_y);
  const int limit = direct ? kMaxTiledDirectRadius : kMaxFixedRadius;
  constraints.push_back({"filter radii <= " + std::to_string(limit) + " (the tiled kernel unrolls its taps)",
                         [largest, limit](const Values&, const DeviceInfo&) { return largest <= limit; }});
  if (!direct) {
    constraints.push_back(one_of("USE_LOCAL_INPUT", {0, 1}));
    constraints.push_back(one_of("USE_PREFETCH", {0, 1}));
  }
  return constraints;
}

// Bytes with float sums: how results are rounded (USE_ROUND_BY_ADD; the same results either way), adding 2^23
// tried first.
void add_rounding_parameter(const FilterShape& shape, const DTypeInfo& dtype, std::vector<Parameter>& parameters,
                            std::vector<Constraint>& constraints) {
  if (dtype.size != 1 || shape.opencv) return;
  parameters.push_back({"USE_ROUND_BY_ADD", {1, 0}});
  constraints.push_back(one_of("USE_ROUND_BY_ADD", {0, 1}));
}

VariantSpace tiled_space(const FilterShape& shape, const DTypeInfo& dtype) {
  // Tile height and rows per work-item around the default first, then tile width, vector width, padding.
  std::vector<Parameter> parameters{{"TILE_Y", {32, 16, 64, 8}},
                                    {"WPT_Y", {8, 4, 16, 2}},
                                    {"TILE_X", {128, 64, 256, 32}},
                                    {"VEC", {4, 8, 2, 16}},
                                    {"PAD", {0, 4}}};
  // Separable: where the row pass reads its windows and whether a work-item loads all of them first.
  if (shape.form == FilterForm::Separable) {
    parameters.push_back({"USE_LOCAL_INPUT", {0, 1}});
    parameters.push_back({"USE_PREFETCH", {1, 0}});
  }
  std::vector<Constraint> constraints = tiled_constraints(shape);
  add_rounding_parameter(shape, dtype, parameters, constraints);
  return VariantSpace{"tiled", parameters, constraints};
}

// A CPU-shaped (non-tiled) variant: its parameters, then how an interior chunk reads its row taps, the byte
// parameters (the same results either way), and the launch-only work-group.
VariantSpace cpu_shaped(const std::string& variant, std::vector<Parameter> parameters,
                        std::vector<Constraint> constraints, const FilterShape& shape, const DTypeInfo& dtype) {
  // How an interior chunk reads its row taps: its window once and shuffles (1), or a load per tap (0).
  if (variant != "naive") {
    parameters.push_back({"USE_WINDOW", {0, 1}});
    constraints.push_back(one_of("USE_WINDOW", {0, 1}));
    add_rounding_parameter(shape, dtype, parameters, constraints);
  }
  for (auto& parameter : work_group_parameters()) parameters.push_back(parameter);
  constraints.push_back(work_group_fits());
  return VariantSpace{variant, parameters, constraints};
}

// The register ring (convolve_separable_ring, written for bytes; floats load element by element): elements and rows per
// work-item, a flat work-group. Its ring of 2 ry + 1 row passes and its row window stay in registers: (2 ry + 1) VEC +
// VEC + 2 rx channels values at most 128 (a 15x15 filter on 3 channels takes VEC 4; 9x9 on 4 channels VEC 8). Not a
// default anywhere: on the H200 a prototype without borders ran 1.3-1.8x faster than the tiled kernel on bytes
// (7680x4320, run 9a), but the kernel as built into the library measured 2-4x slower than the tiled one (runs 9b-9e;
// its last form, with a branch-free path for chunks inside the image, was not measured: docs/notes/image.md). `tilecl
// tune` times it beside the others and keeps it only where it wins.
VariantSpace ring_space(const FilterShape& shape, const DTypeInfo& dtype) {
  std::vector<Parameter> parameters{{"VEC", {8, 4, 16}},
                                    {"WPT_Y", {16, 32}},
                                    {"WG_X", {128, 256}, ParameterKind::Launch},
                                    {"WG_Y", {1}, ParameterKind::Launch}};
  const auto channels = static_cast<std::int64_t>(shape.channels);
  const std::int64_t rx = shape.radius_x, ry = shape.radius_y;
  std::vector<Constraint> constraints{
      one_of("VEC", {4, 8, 16}),
      {"1 <= WPT_Y <= 64",
       [](const Values& v, const DeviceInfo&) { return at(v, "WPT_Y") >= 1 && at(v, "WPT_Y") <= 64; }},
      {"filter radii <= " + std::to_string(kMaxFixedRadius) + " and (2 ry + 1) VEC + VEC + 2 rx channels <= 128",
       [channels, rx, ry](const Values& v, const DeviceInfo&) {
         const std::int64_t vec = at(v, "VEC");
         return std::max(rx, ry) <= kMaxFixedRadius && (2 * ry + 1) * vec + vec + 2 * rx * channels <= 128;
       }},
      work_group_fits()};
  add_rounding_parameter(shape, dtype, parameters, constraints);
  return VariantSpace{"ring", parameters, constraints};
}

// The words kernel (convolve_separable_words: bytes with integer taps, 32-bit words of two 16-bit lanes, local
// memory, little-endian devices): its work-group, rows and word columns per work-item, and for taps of 1 whether
// the row pass adds two outputs at once. Written from the reading that the tiled kernel's byte filters are bound
// by instructions per pixel (docs/notes/image.md, sessions 19-20): by hand count about 11 a pixel for a 5x5 box on
// one channel, against 32 for the tiled kernel's 9x9 Gaussian. Not a default anywhere until it has been measured on
// a GPU (session 24: no device started); `tilecl tune` times it beside the others and keeps it where it wins.
VariantSpace words_space(const FilterShape& shape) {
  std::vector<Parameter> parameters{{"WORDS_WG", {128, 256, 64}}, {"WPT_Y", {16, 32, 8}}, {"WPW", {1, 2}}};
  const auto channels = static_cast<std::int64_t>(shape.channels);
  const std::int64_t rx = shape.radius_x, ry = shape.radius_y;
  const std::int64_t taps = (2 * rx + 1) * (2 * ry + 1);
  const bool packable = shape.integer_taps == IntegerTaps::Ones && 255 * taps < 65536;
  if (packable) parameters.push_back({"USE_PACKED_SUMS", {0, 1}});
  std::vector<Constraint> constraints{
      one_of("WORDS_WG", {8, 16, 32, 64, 128, 256, 512, 1024}),
      one_of("WPW", {1, 2, 4}),
      {"1 <= WPT_Y <= 64",
       [](const Values& v, const DeviceInfo&) { return at(v, "WPT_Y") >= 1 && at(v, "WPT_Y") <= 64; }},
      {"filter radii <= " + std::to_string(kMaxFixedRadius) + ", WPW * WORDS_WG > 2 ceil(rx * channels / 4)",
       [channels, rx, ry](const Values& v, const DeviceInfo&) {
         return std::max(rx, ry) <= kMaxFixedRadius && at(v, "WPW") * at(v, "WORDS_WG") > 2 * ((rx * channels + 3) / 4);
       }},
      {"a little-endian device, WORDS_WG within its work-group limits, 8 WPT_Y WPW WORDS_WG bytes of local memory",
       [](const Values& v, const DeviceInfo& d) {
         const auto group = static_cast<std::uint64_t>(at(v, "WORDS_WG"));
         const auto local = static_cast<std::uint64_t>(8 * at(v, "WPT_Y") * at(v, "WPW")) * group;
         return d.little_endian && group <= d.max_work_group_size && group <= d.max_work_item_sizes[0] &&
                local <= d.local_memory_bytes;
       }}};
  if (packable) constraints.push_back(one_of("USE_PACKED_SUMS", {0, 1}));
  return VariantSpace{"words", parameters, constraints};
}

// Bytes with float sums are rounded by adding 2^23 on every device: PoCL's rint is a software sequence, and on
// the H200 the tiled kernels ran 1-3% faster with it (a 9x9 Gaussian on 1 / 3 channels at 7680x4320: 0.0745 /
// 0.235 ms against 0.0757 / 0.241 ms with rint; bench/results/nvidia-h200/explore-overrides, run 7a).
void set_rounding_default(const FilterShape& shape, const DTypeInfo& dtype, Config& config) {
  if (dtype.size == 1 && !shape.opencv) config.values["USE_ROUND_BY_ADD"] = 1;
}

// The tiled kernels' first choice on GPUs: (TILE_Y, WPT_Y) pairs in order of preference, and the widest tile.
// A local tile of about 128 elements by 32 rows, 4 outputs (16 bytes of floats) per work-item and row, 4 rows
// per work-item: for a 9x9 Gaussian at 7680x4320 the H200 measured 0.090 ms with 4 rows against 0.106 ms with
// 8 (tilecl tune, 2026-11-30). Bytes (separable): 8-byte chunks, no prefetch, tiles of 256 pixels for one
// channel. On the H200 a 9x9 uint8 Gaussian at 7680x4320 took 0.077 ms with one channel against 0.096 ms with
// the float settings, and 0.234 ms with three channels against 0.524 ms (0.29 ms without prefetch alone); four
// channels 0.35 ms with 8-byte chunks (0.437 ms with 4-byte ones, no prefetch). Bytes take tiles of 32 rows at
// every radius: a 5x5 box on 3 channels took 0.159 ms against 0.200 ms with 16 rows (1 channel: 0.060 against
// 0.058) (bench/experiments/explore_overrides.cpp, 2026-12-02, runs 6b, 6c and 7a).
struct TiledPreference {
  std::vector<std::pair<std::int64_t, std::int64_t>> heights;
  std::int64_t widest = 32;
  bool bytes = false;
  bool prefetch = false;  // USE_PREFETCH of the separable kernel
};

TiledPreference tiled_preference(const FilterShape& shape, const DTypeInfo& dtype) {
  TiledPreference preference;
  const bool direct = shape.form == FilterForm::Direct;
  preference.bytes = dtype.size == 1 && !direct;
  // Prefetching every row-pass window first pays on one channel of floats (above; H100 at 7680x4320: 98 us with it,
  // 109 without); on 3 and 4 channels its windows take the registers. H100, kernel time without / with it: 7680x4320
  // 9x9 Gaussian on 3 / 4 channels 328 / 393 and 452 / 690 us, 5x5 box on 3 channels 299 / 306; 55x4781x4 13x13
  // 93 / 166, 782x2946x4 9x9 53 / 71 (bench/results/nvidia-h100/session18, runs 3-5).
  preference.prefetch = !preference.bytes && shape.channels == 1;
  if (shape.channels == 1) preference.widest = preference.bytes ? 256 : direct ? 128 : 64;
  if (direct || preference.bytes)
    preference.heights = {{32, 4}, {16, 4}, {8, 2}};
  else if (shape.radius_y >= 3)
    preference.heights = {{32, 4}, {32, 8}, {16, 4}, {8, 2}};
  else
    preference.heights = {{16, 4}, {32, 8}, {8, 2}};
  return preference;
}

// The preferred tiled configuration, halving the tile width while the local memory or the work-group limit is
// exceeded; none when no width fits.
std::optional<Config> preferred_tiled(const FilterShape& shape, const DTypeInfo& dtype, const DeviceInfo& device,
                                      const SearchSpace& space) {
  const TiledPreference preference = tiled_preference(shape, dtype);
  for (std::int64_t x = preference.widest; x >= 8; x /= 2) {
    for (auto [tile_y, wpt_y] : preference.heights) {
      Config config{
          "tiled",
          {{"TILE_X", x}, {"TILE_Y", tile_y}, {"WPT_Y", wpt_y}, {"VEC", preference.bytes ? 8 : 4}, {"PAD", 0}}};
      if (shape.form == FilterForm::Separable) {
        config.values["USE_LOCAL_INPUT"] = 0;
        config.values["USE_PREFETCH"] = preference.prefetch ? 1 : 0;
      }
      set_rounding_default(shape, dtype, config);
      if (space.validate(config, device).empty()) return config;
    }
  }
  return std::nullopt;
}

// Small images on GPUs (at most 2^16 pixels: a few dozen tiles): the default tile's serial work per work-group is
// the call's critical path there. Filters with rx + ry >= 7 take the two passes (two short, fully parallel
// kernels), smaller ones tiles of 32 x 8 pixels with 2 rows per work-item. H100, kernel + call (enqueue + finish):
// a 72x124x3 11x11 Gaussian on bytes 66 us with the default tile, 50 us with 32 x 8, 35 us in two passes; a
// 22x168x4 15x15 box 92 / 88 / 42 us; a 16x60x4 15x3 Gaussian on floats 78 / 53 / 38 us; a 50x40x3 3x3 Gaussian
// 34 / 25 / 34 us and a 95x28 5x5 one 27 / 23 / 34 us (bench/experiments/image_latency.cpp, session 9 run A).
std::optional<Config> small_image_default(const FilterShape& shape, const DTypeInfo& dtype, const DeviceInfo& device,
                                          const SearchSpace& space) {
  Config config;
  if (shape.form == FilterForm::Separable && shape.radius_x + shape.radius_y >= 7) {
    config = {"two_pass", {{"VEC", 4}, {"USE_WINDOW", 0}}};
    const Values work_group = work_group_default(64, 256, device.max_work_group_size);
    config.values.insert(work_group.begin(), work_group.end());
  } else {
    config = {"tiled", {{"TILE_X", 32}, {"TILE_Y", 8}, {"WPT_Y", 2}, {"VEC", 4}, {"PAD", 0}}};
    if (shape.form == FilterForm::Separable) {
      config.values["USE_LOCAL_INPUT"] = 0;
      config.values["USE_PREFETCH"] = 0;
    }
  }
  set_rounding_default(shape, dtype, config);
  if (space.validate(config, device).empty()) return config;
  return std::nullopt;
}

// Tall and wide images with large separable filters on GPUs: the register ring, 4 elements and 16 rows per
// work-item, no local memory. H100, kernel us, ring / tiled default (no prefetch): 55x4781x4 13x13 Gaussian floats
// 56 / 93, 4407x25x4 15x15 37 / 78, 22x5771x4 15x15 box on bytes 59 / 86, 43x4468x3 3x13 Gaussian bytes 22 / 22;
// on a square 782x2946x4 9x9 the ring took 102 against 53 (bench/results/nvidia-h100/session18, runs 3 and 4).
std::optional<Config> narrow_image_default(const FilterShape& shape, const DTypeInfo& dtype, const DeviceInfo& device,
                                           const SearchSpace& space) {
  if (shape.form != FilterForm::Separable || shape.radius_x + shape.radius_y < 7) return std::nullopt;
  Config config{"ring", {{"VEC", 4}, {"WPT_Y", 16}, {"WG_X", 128}, {"WG_Y", 1}}};
  set_rounding_default(shape, dtype, config);
  if (space.validate(config, device).empty()) return config;
  return std::nullopt;
}

Config gpu_default(const FilterShape& shape, const DTypeInfo& dtype, const DeviceInfo& device, const SearchSpace& space,
                   std::uint64_t pixels, Aspect aspect) {
  if (pixels <= kSmallImagePixels)
    if (auto small = small_image_default(shape, dtype, device, space)) return *small;
  if (aspect != Aspect::Square)
    if (auto narrow = narrow_image_default(shape, dtype, device, space)) return *narrow;
  if (auto tiled = preferred_tiled(shape, dtype, device, space)) return *tiled;
  // Too large a filter for the tiled kernels: 16-byte accesses, 256 work-items.
  const bool direct = shape.form == FilterForm::Direct;
  Config config{direct ? "vector" : "two_pass", {{"VEC", 4}, {"USE_WINDOW", 0}}};
  set_rounding_default(shape, dtype, config);
  const Values work_group = work_group_default(64, 256, device.max_work_group_size);
  config.values.insert(work_group.begin(), work_group.end());
  return config;
}

SearchSpace build_search_space(const FilterShape& shape, const DTypeInfo& dtype) {
  const Constraint vectors = one_of("VEC", {2, 4, 8, 16});
  if (shape.form == FilterForm::Direct) {
    // Rows per work-item: with build-time radii and WPT_Y > 1 the kernel keeps 2 ry + 1 output rows of VEC floats
    // in registers and reads each input row once.
    const std::int64_t ring_rows = 2 * static_cast<std::int64_t>(shape.radius_y) + 1;
    const bool ring = fixed_radius(shape, FilterVariant::Vector);
    VariantSpace vector = cpu_shaped(
        "vector", {{"VEC", {4, 8, 16, 2}}, {"WPT_Y", {1, 8, 16, 32}}},
        {vectors,
         {"1 <= WPT_Y <= 128, and (2 ry + 1) VEC <= " + std::to_string(kMaxDirectRingFloats) +
              " when the rows roll through registers",
          [ring, ring_rows](const Values& v, const DeviceInfo&) {
            const std::int64_t rows = at(v, "WPT_Y");
            return rows >= 1 && rows <= 128 && (!ring || rows == 1 || ring_rows * at(v, "VEC") <= kMaxDirectRingFloats);
          }}},
        shape, dtype);
    VariantSpace naive = cpu_shaped("naive", {}, {}, shape, dtype);
    return SearchSpace({tiled_space(shape, dtype), vector, naive});
  }
  // Rows per work-item: with a build-time radius the kernel rolls its row passes through registers, so many
  // rows cost no registers and filter each input row fewer times (32: 1.25 times for a 9x9 filter).
  VariantSpace vector =
      cpu_shaped("vector", {{"WPT_Y", {32, 16, 64, 8, 4}}, {"VEC", {4, 8, 16}}},
                 {vectors,
                  {"1 <= WPT_Y <= 128",
                   [](const Values& v, const DeviceInfo&) { return at(v, "WPT_Y") >= 1 && at(v, "WPT_Y") <= 128; }}},
                 shape, dtype);
  VariantSpace two_pass = cpu_shaped("two_pass", {{"VEC", {4, 8, 16}}}, {vectors}, shape, dtype);
  std::vector<VariantSpace> variants{tiled_space(shape, dtype), vector, two_pass, ring_space(shape, dtype)};
  if (dtype.size == 1 && shape.integer_taps != IntegerTaps::None) variants.push_back(words_space(shape));
  return SearchSpace(variants);
}

}  // namespace

// Every call validates its configuration against the space: built once per shape and element type (building it
// took a fifth of a small image filter's host time: perf on PoCL, 2026-12-02) and kept for the process.
const SearchSpace& convolve_search_space(const FilterShape& shape, const DTypeInfo& dtype) {
  using Key = std::tuple<int, std::uint64_t, int, int, bool, bool, bool, int, std::size_t, std::string>;
  const Key key{static_cast<int>(shape.form),
                shape.channels,
                shape.radius_x,
                shape.radius_y,
                shape.opencv,
                shape.dividing_finish,
                shape.symmetric,
                static_cast<int>(shape.integer_taps),
                dtype.size,
                dtype.cl_type};
  static std::mutex mutex;
  static std::map<Key, std::unique_ptr<const SearchSpace>> spaces;
  std::lock_guard<std::mutex> lock(mutex);
  auto& space = spaces[key];
  if (!space) space = std::make_unique<const SearchSpace>(build_search_space(shape, dtype));
  return *space;
}

Aspect filter_aspect(std::uint64_t width, std::uint64_t height) {
  if (width * height <= kSmallImagePixels || std::min(width, height) > kNarrowSide) return Aspect::Square;
  return width <= kNarrowSide ? Aspect::Tall : Aspect::Wide;
}

FilterImageClass filter_image_class(std::uint64_t width, std::uint64_t height) {
  FilterImageClass image;
  image.area = area_class(width * height);
  image.aspect = filter_aspect(width, height);
  image.width = image.area.width, image.height = image.area.height;
  image.bucket = image.area.name;
  if (image.aspect == Aspect::Square) return image;
  const std::uint64_t across = kNarrowSide * 3 / 4, along = image.area.width * image.area.height / across;
  image.width = image.aspect == Aspect::Tall ? across : along;
  image.height = image.aspect == Aspect::Tall ? along : across;
  image.bucket += image.aspect == Aspect::Tall ? " tall" : " wide";
  return image;
}

Config convolve_default_config(const FilterShape& shape, const DTypeInfo& dtype, const DeviceInfo& device,
                               std::uint64_t pixels, Aspect aspect) {
  const SearchSpace& space = convolve_search_space(shape, dtype);
  const bool gpu_shaped = !device.is_cpu() && device.local_memory_is_dedicated &&
                          device.local_memory_bytes >= std::uint64_t{32} * 1024 && device.max_work_group_size >= 256;
  if (gpu_shaped) return gpu_default(shape, dtype, device, space, pixels, aspect);
  // CPUs (and devices without fast local memory): no local memory, one SIMD register of floats per work-item;
  // fused separable passes of 32 or 64 rows per work-item (8 at run-time radii, which keep a sum per row); bytes
  // rounded by adding 2^23. Work-groups of 128 x 1: few,
  // large groups (PoCL runs a work-group as a loop; 8 x 1 was up to 1.5x slower at 1920x1080).
  const std::int64_t vec = std::clamp<std::int64_t>(static_cast<std::int64_t>(device.native_vector_width_float), 4, 16);
  Config config{"vector", {{"VEC", vec == 4 || vec == 8 || vec == 16 ? vec : 8}}};
  if (shape.form == FilterForm::Separable) config.values["WPT_Y"] = shape.radius_y <= kMaxFixedRadius ? 32 : 8;
  config.values["USE_WINDOW"] = 0;
  set_rounding_default(shape, dtype, config);
  const Values work_group = work_group_default(128, 128, device.max_work_group_size);
  config.values.insert(work_group.begin(), work_group.end());
  // Fused strips of 64 rows for filters of 5 rows or more where the image still gives every compute unit two
  // work-groups of them: each input row is then filtered (64 + 2 ry) / 64 times instead of (32 + 2 ry) / 32. PoCL
  // on 2 cores (bench/results/pocl-cpu/session23, enqueue + finish): 1014x650x4 11x11 float box 2.6-2.7 -> 1.7
  // ms, 1920x1080x3 9x9 float Gaussian 4.4-4.7 -> 3.8-4.0 ms; bytes within the machine's noise.
  if (shape.form == FilterForm::Separable && shape.radius_y >= 2 && shape.radius_y <= kMaxFixedRadius) {
    const std::uint64_t strip = 64 * static_cast<std::uint64_t>(config.values["WG_X"] * config.values["VEC"]);
    const std::uint64_t units = std::max(1u, device.compute_units);
    if (pixels * shape.channels / strip >= 2 * units) config.values["WPT_Y"] = 64;
  }
  // Direct filters: strips of 16 rows through the ring of output rows where it fits the registers, else one row.
  // PoCL, VEC 16 (bench/experiments/image_latency.cpp, section cpu): a 1x9 filter on a 1293x1621x4 byte image 5.1
  // -> 1.8 ms, a 5x5 one on 1920x1080 bytes 1.3 -> 0.7-1.1 ms, 3x3 on 1123x153 floats 0.14 -> 0.05-0.09 ms.
  if (shape.form == FilterForm::Direct) {
    config.values["WPT_Y"] = 16;
    if (!space.validate(config, device).empty()) config.values["WPT_Y"] = 1;
  }
  return config;
}

FilterPlan plan_of(const Config& config) {
  auto value = [&config](const char* name, std::int64_t fallback) { return config_value(config, name, fallback); };
  FilterPlan plan;
  plan.variant = config.variant == "naive"      ? FilterVariant::Naive
                 : config.variant == "tiled"    ? FilterVariant::Tiled
                 : config.variant == "two_pass" ? FilterVariant::TwoPass
                 : config.variant == "ring"     ? FilterVariant::Ring
                 : config.variant == "words"    ? FilterVariant::Words
                                                : FilterVariant::Vector;
  plan.vec = value("VEC", 4);
  plan.tile_x = value("TILE_X", 0);
  plan.tile_y = value("TILE_Y", 0);
  plan.wpt_y = value("WPT_Y", 1);
  plan.pad = value("PAD", 0);
  plan.local_input = value("USE_LOCAL_INPUT", 0) != 0;
  plan.prefetch = value("USE_PREFETCH", 0) != 0;
  plan.round_by_add = value("USE_ROUND_BY_ADD", 0) != 0;
  plan.window = value("USE_WINDOW", 0);
  plan.wg_x = value("WG_X", 0);
  plan.wg_y = value("WG_Y", 1);
  plan.words_wg = value("WORDS_WG", 128);
  plan.wpw = value("WPW", 1);
  plan.packed_sums = value("USE_PACKED_SUMS", 0) != 0;
  return plan;
}

std::uint64_t tiled_local_bytes(const FilterShape& shape, const FilterPlan& plan) {
  const auto channels = static_cast<std::int64_t>(shape.channels);
  if (plan.vec <= 0) return ~std::uint64_t{0};
  const std::int64_t halo = (shape.radius_x * channels + plan.vec - 1) / plan.vec * plan.vec;
  const std::int64_t rows = plan.tile_y + 2 * static_cast<std::int64_t>(shape.radius_y);
  const std::int64_t tile_elements = plan.tile_x * channels;
  const std::int64_t input = rows * (tile_elements + 2 * halo + plan.pad);
  if (shape.form == FilterForm::Direct) return static_cast<std::uint64_t>(4 * input);
  const std::int64_t mid = rows * (tile_elements + plan.pad);
  return static_cast<std::uint64_t>(4 * (mid + (plan.local_input ? input : 0)));
}

}  // namespace tilecl::detail
