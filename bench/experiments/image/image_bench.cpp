// Sweep harness for the image families: kernels/color.cl (rgb_to_gray) and kernels/convolve.cl (convolve2d,
// separable filters, box and Gaussian blurs).
//
//   image_bench --kernels <dir with common.clh, color.cl, convolve.cl> [--preset gpu|cpu|quick]
//               [--json results.json] [--size WxH] [--gray-size WxH] [--reps N] [--only TEXT]
//               [--no-matrix] [--no-timing] [--no-opencv] [--list] [--limits LOCAL_BYTES,MAX_WG]
//
// 0. Every program the run needs is compiled first, on up to 8 host threads; both .cl files also alone.
// 1. Verification matrix: every variant x {float, uchar} x {1, 3 channels} x {Zero, Clamp, Mirror, Wrap} on
//    tiny, odd and ragged images (1x1, 3x2, 2x3, ... 133x71), radius 0, non-square filters, filters larger
//    than the image (15x15 and 31x31 on 3x2), pitches larger than the row and element offsets, against the
//    double-precision host reference (tests/reference/image_reference.hpp). Outputs are poisoned first and
//    every element outside the image (pitch padding, offset, slack after the buffer's end) must keep it.
// 2. Timing list of the preset: each configuration is verified again at small ragged sizes with its own
//    build, then timed at the large size with profiling events (warm-up, median), inputs rotating over
//    enough buffers to exceed the last-level cache. The device copy bandwidth (clEnqueueCopyBuffer) is
//    measured in the same run and OpenCV's CPU functions are timed as the peer (when built with OpenCV).
// Device: TILECL_PLATFORM / TILECL_DEVICE (index or name substring; default the first).
// Output: progress on stderr, the compact table on stdout, everything in --json (rewritten as it goes).
// On a CPU device the table adds CPU time per call (ours and OpenCV's), robust to other load.
// --limits pretends the device has less local memory / a smaller work-group limit (e.g. 49152,1024 checks
// on PoCL that the GPU list fits an H200). TILECL_BENCH_VERBOSE=1 prints each verification case first;
// TILECL_BENCH_THREADS sets the number of compile threads.
#include "../../../tests/reference/image_reference.hpp"
#include "cl_bench.hpp"

#ifdef TILECL_BENCH_HAVE_OPENCV
#include <opencv2/core.hpp>
#include <opencv2/core/utility.hpp>
#include <opencv2/imgproc.hpp>
#endif

#include <sys/resource.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <ctime>
#include <iostream>
#include <memory>
#include <random>
#include <set>

namespace {

namespace ref = tilecl::reference;
using ref::Border;

// ---------------------------------------------------------------------------------------------------------
// Configurations

enum class Variant { GrayNaive, GrayVector, DirectNaive, DirectVector, DirectTiled, TwoPass, SepVector, SepTiled };

const char* variant_name(Variant v) {
  switch (v) {
    case Variant::GrayNaive:
      return "gray_naive";
    case Variant::GrayVector:
      return "gray_vector";
    case Variant::DirectNaive:
      return "direct_naive";
    case Variant::DirectVector:
      return "direct_vector";
    case Variant::DirectTiled:
      return "direct_tiled";
    case Variant::TwoPass:
      return "two_pass";
    case Variant::SepVector:
      return "sep_vector";
    case Variant::SepTiled:
      return "sep_tiled";
  }
  return "?";
}

bool is_gray(Variant v) { return v == Variant::GrayNaive || v == Variant::GrayVector; }
bool is_separable(Variant v) { return v == Variant::TwoPass || v == Variant::SepVector || v == Variant::SepTiled; }
bool is_tiled(Variant v) { return v == Variant::DirectTiled || v == Variant::SepTiled; }

struct Config {
  Variant variant = Variant::DirectNaive;
  std::string dtype = "float";  // float | uchar
  int channels = 1;
  Border border = Border::Mirror;
  int vec = 4, wpt = 1, tile_x = 32, tile_y = 16, wpt_y = 4, pad = 0;
  std::size_t lx = 16, ly = 4;  // launch-only local size of the non-tiled kernels
  bool fixed_radius = false;    // RADIUS_X/RADIUS_Y as build macros (always for the tiled kernels)
  bool local_input = false;     // USE_LOCAL_INPUT of convolve_separable_tiled

  int elem_size() const { return dtype == "uchar" ? 1 : 4; }
  std::string family() const { return is_gray(variant) ? "color" : "convolve"; }
  std::size_t wg_x() const { return is_tiled(variant) ? static_cast<std::size_t>(tile_x * channels / vec) : lx; }
  std::size_t wg_y() const { return is_tiled(variant) ? static_cast<std::size_t>(tile_y / wpt_y) : ly; }

  std::string options(int rx, int ry) const {
    std::map<std::string, int> d;
    if (is_gray(variant)) {
      if (variant == Variant::GrayVector) {
        d["VEC"] = vec;
        d["WPT"] = wpt;
      }
    } else {
      d["BORDER"] = static_cast<int>(border);
      d["CHANNELS"] = channels;
      d["VEC"] = vec;
      d["WPT_Y"] = wpt_y;
      if (is_tiled(variant)) {
        d["TILE_X"] = tile_x;
        d["TILE_Y"] = tile_y;
        d["PAD"] = pad;
      }
      if (is_tiled(variant)) d["USE_LOCAL_INPUT"] = local_input ? 1 : 0;  // direct_tiled ignores it
      if (is_tiled(variant) || fixed_radius) {
        d["RADIUS_X"] = rx;
        d["RADIUS_Y"] = ry;
      }
    }
    std::string out = "-DDTYPE=" + dtype;
    for (const auto& [key, value] : d) out += " -D" + key + "=" + std::to_string(value);
    return out;
  }

  std::string params() const {
    char buf[96];
    switch (variant) {
      case Variant::GrayNaive:
      case Variant::DirectNaive:
        std::snprintf(buf, sizeof buf, "l%zux%zu", lx, ly);
        break;
      case Variant::GrayVector:
        std::snprintf(buf, sizeof buf, "v%d w%d l%zux%zu", vec, wpt, lx, ly);
        break;
      case Variant::DirectVector:
      case Variant::TwoPass:
        std::snprintf(buf, sizeof buf, "v%d l%zux%zu%s", vec, lx, ly, fixed_radius ? " R" : "");
        break;
      case Variant::SepVector:
        std::snprintf(buf, sizeof buf, "v%d wy%d l%zux%zu%s", vec, wpt_y, lx, ly, fixed_radius ? " R" : "");
        break;
      case Variant::DirectTiled:
      case Variant::SepTiled:
        std::snprintf(buf, sizeof buf, "t%dx%d wy%d v%d p%d%s", tile_x, tile_y, wpt_y, vec, pad,
                      local_input ? " L" : "");
        break;
    }
    return buf;
  }

  // Why the configuration cannot run on this device, or "".
  std::string invalid(const bench::Context& ctx, int rx, int ry) const {
    if (is_tiled(variant)) {
      if ((tile_x * channels) % vec != 0) return "TILE_X*CHANNELS % VEC";
      if (tile_y % wpt_y != 0) return "TILE_Y % WPT_Y";
      if (pad % vec != 0) return "PAD % VEC";
      const long halo = (static_cast<long>(rx) * channels + vec - 1) / vec * vec;
      const long rows = tile_y + 2L * ry;
      long floats = 0;
      if (variant == Variant::DirectTiled || local_input) floats += rows * (tile_x * channels + 2 * halo + pad);
      if (variant == Variant::SepTiled) floats += rows * (tile_x * channels + pad);
      if (static_cast<std::size_t>(floats) * 4 > ctx.local_mem) return "local memory";
    }
    if (wg_x() * wg_y() > ctx.max_work_group) return "work-group size";
    return "";
  }
};

// ---------------------------------------------------------------------------------------------------------
// Problems

enum class Layout { Dense, Ragged, Aligned };

struct Problem {
  std::string op;           // gray | filter2d | gauss | box | sep
  std::string filter_name;  // "9x9", "5x3", ...
  int width = 0, height = 0, channels = 1;
  long src_pitch = 0, dst_pitch = 0, src_offset = 0, dst_offset = 0;
  int rx = 0, ry = 0;
  std::vector<float> filter;              // (2ry+1) x (2rx+1); for separable problems the outer product
  std::vector<float> row_taps, col_taps;  // separable problems only
  double sigma = 0.0;
  float wr = 0.21f, wg = 0.72f, wb = 0.07f;

  bool separable() const { return !row_taps.empty(); }
  long src_row() const { return op == "gray" ? 3L * width : static_cast<long>(width) * channels; }
  long dst_row() const { return op == "gray" ? static_cast<long>(width) : static_cast<long>(width) * channels; }
  std::string size() const { return std::to_string(width) + "x" + std::to_string(height); }
};

void set_layout(Problem& p, Layout layout) {
  switch (layout) {
    case Layout::Dense:
      p.src_pitch = p.src_row();
      p.dst_pitch = p.dst_row();
      p.src_offset = p.dst_offset = 0;
      break;
    case Layout::Ragged:  // pitches and offsets that break every alignment
      p.src_pitch = p.src_row() + 3;
      p.dst_pitch = p.dst_row() + 5;
      p.src_offset = 5;
      p.dst_offset = 7;
      break;
    case Layout::Aligned:  // pitches larger than the row, 64-byte multiples; aligned offsets
      p.src_pitch = static_cast<long>(bench::round_up(p.src_row(), 16)) + 16;
      p.dst_pitch = static_cast<long>(bench::round_up(p.dst_row(), 16)) + 16;
      p.src_offset = 16;
      p.dst_offset = 32;
      break;
  }
}

std::vector<float> outer(const std::vector<float>& col, const std::vector<float>& row) {
  std::vector<float> f(col.size() * row.size());
  for (std::size_t i = 0; i < col.size(); ++i) {
    for (std::size_t j = 0; j < row.size(); ++j) f[i * row.size() + j] = col[i] * row[j];
  }
  return f;
}

// Random taps in [-0.3, 1] scaled to sum `total`, so uchar results saturate at both ends now and then.
std::vector<float> random_taps(std::size_t n, double total, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> u(-0.3, 1.0);
  std::vector<double> t(n);
  double sum = 0.0;
  for (double& x : t) sum += (x = u(rng));
  if (std::abs(sum) < 0.2) {
    t[n / 2] += 1.0;
    sum += 1.0;
  }
  std::vector<float> out(n);
  for (std::size_t i = 0; i < n; ++i) out[i] = static_cast<float>(t[i] * total / sum);
  return out;
}

std::string dims(int rx, int ry) { return std::to_string(2 * rx + 1) + "x" + std::to_string(2 * ry + 1); }

Problem gray_problem(int w, int h, Layout layout) {
  Problem p;
  p.op = "gray";
  p.filter_name = "-";
  p.width = w;
  p.height = h;
  set_layout(p, layout);
  return p;
}

Problem filter2d_problem(int w, int h, int channels, int rx, int ry, Layout layout, std::mt19937_64& rng) {
  Problem p;
  p.op = "filter2d";
  p.width = w;
  p.height = h;
  p.channels = channels;
  p.rx = rx;
  p.ry = ry;
  p.filter = random_taps(static_cast<std::size_t>((2 * rx + 1) * (2 * ry + 1)), 1.15, rng);
  p.filter_name = dims(rx, ry);
  set_layout(p, layout);
  return p;
}

Problem separable_problem(int w, int h, int channels, int rx, int ry, Layout layout, std::mt19937_64& rng) {
  Problem p;
  p.op = "sep";
  p.width = w;
  p.height = h;
  p.channels = channels;
  p.rx = rx;
  p.ry = ry;
  p.row_taps = random_taps(static_cast<std::size_t>(2 * rx + 1), 1.1, rng);
  p.col_taps = random_taps(static_cast<std::size_t>(2 * ry + 1), 1.05, rng);
  p.filter = outer(p.col_taps, p.row_taps);
  p.filter_name = dims(rx, ry);
  set_layout(p, layout);
  return p;
}

Problem gauss_problem(int w, int h, int channels, int radius, double sigma) {
  Problem p;
  p.op = "gauss";
  p.width = w;
  p.height = h;
  p.channels = channels;
  p.rx = p.ry = radius;
  p.sigma = sigma;
  p.row_taps = p.col_taps = ref::gaussian_taps(sigma, radius);
  p.filter = outer(p.col_taps, p.row_taps);
  p.filter_name = dims(radius, radius);
  set_layout(p, Layout::Dense);
  return p;
}

Problem box_problem(int w, int h, int channels, int rx, int ry) {
  Problem p;
  p.op = "box";
  p.width = w;
  p.height = h;
  p.channels = channels;
  p.rx = rx;
  p.ry = ry;
  p.row_taps = ref::box_taps(rx);
  p.col_taps = ref::box_taps(ry);
  p.filter = outer(p.col_taps, p.row_taps);
  p.filter_name = dims(rx, ry);
  set_layout(p, Layout::Dense);
  return p;
}

std::size_t buffer_elements(long offset, long pitch, long row, int height) {
  return static_cast<std::size_t>(offset + pitch * (height - 1) + row);
}

// ---------------------------------------------------------------------------------------------------------
// Launching

class Runner {
 public:
  Runner(bench::Context& ctx, bench::ProgramCache& cache) : ctx_(ctx), cache_(cache) {}

  struct Filters {
    cl::Buffer filter, row, col;
  };

  Filters make_filters(const Problem& p) {
    Filters f;
    auto make = [&](const std::vector<float>& v) {
      std::vector<float> copy = v.empty() ? std::vector<float>{0.0f} : v;
      return cl::Buffer(ctx_.context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, copy.size() * sizeof(float),
                        copy.data());
    };
    f.filter = make(p.filter);
    f.row = make(p.row_taps);
    f.col = make(p.col_taps);
    return f;
  }

  // Enqueues the configuration; returns the events of its first and last kernel, or an error.
  std::string launch(const Config& c, const Problem& p, const cl::Buffer& src, const cl::Buffer& dst, const Filters& f,
                     std::vector<cl::Event>* events) {
    if (is_separable(c.variant) && !p.separable()) return "separable variant on a non-separable filter";
    const std::string invalid = c.invalid(ctx_, p.rx, p.ry);
    if (!invalid.empty()) return "invalid: " + invalid;
    const std::string options = c.options(p.rx, p.ry);
    std::string error;
    const cl_int w = p.width, h = p.height, rx = p.rx, ry = p.ry;
    const cl_int sp = static_cast<cl_int>(p.src_pitch), dp = static_cast<cl_int>(p.dst_pitch);
    const cl_ulong so = static_cast<cl_ulong>(p.src_offset), dof = static_cast<cl_ulong>(p.dst_offset);
    const long row_e = static_cast<long>(p.width) * p.channels;
    auto ceil_div = [](long a, long b) { return static_cast<std::size_t>((a + b - 1) / b); };
    const cl::NDRange local(c.wg_x(), c.wg_y());
    auto global2 = [&](std::size_t gx, std::size_t gy) {
      return cl::NDRange(bench::round_up(gx, c.wg_x()), bench::round_up(gy, c.wg_y()));
    };
    auto get = [&](const char* name) { return cache_.kernel(c.family(), options, name, &error); };
    events->assign(1, cl::Event());
    try {
      switch (c.variant) {
        case Variant::GrayNaive:
        case Variant::GrayVector: {
          const bool vector = c.variant == Variant::GrayVector;
          cl::Kernel k = get(vector ? "color_rgb_to_gray_vector" : "color_rgb_to_gray_naive");
          if (error.size()) return error;
          k.setArg(0, w), k.setArg(1, h), k.setArg(2, src), k.setArg(3, so), k.setArg(4, sp);
          k.setArg(5, dst), k.setArg(6, dof), k.setArg(7, dp);
          k.setArg(8, p.wr), k.setArg(9, p.wg), k.setArg(10, p.wb);
          const cl::NDRange global = vector ? global2(ceil_div(w, c.vec), ceil_div(h, c.wpt)) : global2(w, h);
          ctx_.queue.enqueueNDRangeKernel(k, cl::NullRange, global, local, nullptr, &(*events)[0]);
          break;
        }
        case Variant::DirectNaive:
        case Variant::DirectVector:
        case Variant::DirectTiled: {
          const char* name = c.variant == Variant::DirectNaive    ? "convolve_direct_naive"
                             : c.variant == Variant::DirectVector ? "convolve_direct_vector"
                                                                  : "convolve_direct_tiled";
          cl::Kernel k = get(name);
          if (error.size()) return error;
          k.setArg(0, w), k.setArg(1, h), k.setArg(2, src), k.setArg(3, so), k.setArg(4, sp);
          k.setArg(5, dst), k.setArg(6, dof), k.setArg(7, dp), k.setArg(8, f.filter), k.setArg(9, rx);
          k.setArg(10, ry);
          cl::NDRange global;
          if (c.variant == Variant::DirectNaive) {
            global = global2(w, h);
          } else if (c.variant == Variant::DirectVector) {
            global = global2(ceil_div(row_e, c.vec), h);
          } else {
            global = cl::NDRange(ceil_div(w, c.tile_x) * c.wg_x(), ceil_div(h, c.tile_y) * c.wg_y());
          }
          ctx_.queue.enqueueNDRangeKernel(k, cl::NullRange, global, local, nullptr, &(*events)[0]);
          break;
        }
        case Variant::TwoPass: {
          cl::Kernel rows = get("convolve_rows_vector");
          if (error.size()) return error;
          cl::Kernel cols = get("convolve_cols_vector");
          if (error.size()) return error;
          const cl_int work_pitch = static_cast<cl_int>(bench::round_up(static_cast<std::size_t>(row_e), 16));
          const std::size_t work_bytes = static_cast<std::size_t>(work_pitch) * h * sizeof(float);
          if (work_bytes_ != work_bytes) {
            // A fresh workspace per size, filled with NaN: a column pass that read anything the row pass did
            // not write would poison its outputs and fail verification.
            work_ = cl::Buffer(ctx_.context, CL_MEM_READ_WRITE, work_bytes);
            // (A host write, not clEnqueueFillBuffer: oclgrind treats filled memory as uninitialized.)
            const std::vector<float> nans(work_bytes / sizeof(float), std::numeric_limits<float>::quiet_NaN());
            ctx_.queue.enqueueWriteBuffer(work_, CL_TRUE, 0, work_bytes, nans.data());
            work_bytes_ = work_bytes;
          }
          rows.setArg(0, w), rows.setArg(1, h), rows.setArg(2, src), rows.setArg(3, so), rows.setArg(4, sp);
          rows.setArg(5, work_), rows.setArg(6, work_pitch), rows.setArg(7, f.row), rows.setArg(8, rx);
          cols.setArg(0, w), cols.setArg(1, h), cols.setArg(2, work_), cols.setArg(3, work_pitch);
          cols.setArg(4, dst), cols.setArg(5, dof), cols.setArg(6, dp), cols.setArg(7, f.col), cols.setArg(8, ry);
          const cl::NDRange global = global2(ceil_div(row_e, c.vec), h);
          events->assign(2, cl::Event());
          ctx_.queue.enqueueNDRangeKernel(rows, cl::NullRange, global, local, nullptr, &(*events)[0]);
          ctx_.queue.enqueueNDRangeKernel(cols, cl::NullRange, global, local, nullptr, &(*events)[1]);
          break;
        }
        case Variant::SepVector:
        case Variant::SepTiled: {
          const bool tiled = c.variant == Variant::SepTiled;
          cl::Kernel k = get(tiled ? "convolve_separable_tiled" : "convolve_separable_vector");
          if (error.size()) return error;
          k.setArg(0, w), k.setArg(1, h), k.setArg(2, src), k.setArg(3, so), k.setArg(4, sp);
          k.setArg(5, dst), k.setArg(6, dof), k.setArg(7, dp), k.setArg(8, f.row), k.setArg(9, f.col);
          k.setArg(10, rx), k.setArg(11, ry);
          const cl::NDRange global =
              tiled ? cl::NDRange(ceil_div(w, c.tile_x) * c.wg_x(), ceil_div(h, c.tile_y) * c.wg_y())
                    : global2(ceil_div(row_e, c.vec), ceil_div(h, c.wpt_y));
          ctx_.queue.enqueueNDRangeKernel(k, cl::NullRange, global, local, nullptr, &(*events)[0]);
          break;
        }
      }
    } catch (const cl::Error& e) {
      return std::string("OpenCL error ") + std::to_string(e.err()) + " in " + e.what();
    }
    return "";
  }

  bench::Context& ctx() { return ctx_; }

 private:
  bench::Context& ctx_;
  bench::ProgramCache& cache_;
  cl::Buffer work_;
  std::size_t work_bytes_ = 0;
};

// ---------------------------------------------------------------------------------------------------------
// Verification

template <typename T>
void fill_random(std::vector<T>& v, bool gray, std::mt19937_64& rng) {
  if constexpr (std::is_same_v<T, std::uint8_t>) {
    std::uniform_int_distribution<int> u(0, 255);
    for (auto& x : v) x = static_cast<std::uint8_t>(u(rng));
  } else {
    std::uniform_real_distribution<float> u(gray ? 0.0f : -1.0f, 1.0f);
    for (auto& x : v) x = u(rng);
  }
}

template <typename T>
std::string verify_typed(Runner& runner, const Config& c, const Problem& p, std::mt19937_64& rng) {
  constexpr bool is_u8 = std::is_same_v<T, std::uint8_t>;
  auto& ctx = runner.ctx();
  const int h = p.height;
  const long src_row = p.src_row(), dst_row = p.dst_row();
  const std::size_t slack = 64;
  std::vector<T> src(buffer_elements(p.src_offset, p.src_pitch, src_row, h) + slack);
  fill_random(src, p.op == "gray", rng);
  const std::size_t dst_n = buffer_elements(p.dst_offset, p.dst_pitch, dst_row, h) + slack;

  // Exact results and the tolerance of a float evaluation.
  std::vector<double> exact;
  double magnitude = is_u8 ? 255.0 : 1.0;
  std::size_t terms = 0;
  const T* s0 = src.data() + p.src_offset;
  if (p.op == "gray") {
    exact = ref::rgb_to_gray(s0, p.width, h, p.src_pitch, p.wr, p.wg, p.wb);
    magnitude *= std::abs(p.wr) + std::abs(p.wg) + std::abs(p.wb);
    terms = 3;
  } else if (is_separable(c.variant)) {
    exact = ref::separable_filter(s0, p.width, h, p.channels, p.src_pitch, p.row_taps, p.col_taps, c.border);
    double sr = 0.0, sc = 0.0;
    for (float t : p.row_taps) sr += std::abs(t);
    for (float t : p.col_taps) sc += std::abs(t);
    magnitude *= sr * sc;
    terms = p.row_taps.size() + p.col_taps.size() + 2;
  } else {
    exact = ref::convolve2d(s0, p.width, h, p.channels, p.src_pitch, p.filter, p.rx, p.ry, c.border);
    double sf = 0.0;
    for (float t : p.filter) sf += std::abs(t);
    magnitude *= sf;
    terms = p.filter.size();
  }
  const double tolerance = ref::float_sum_tolerance(terms, magnitude);

  cl::Buffer src_buf(ctx.context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, src.size() * sizeof(T), src.data());
  cl::Buffer dst_buf(ctx.context, CL_MEM_READ_WRITE, dst_n * sizeof(T));
  const Runner::Filters filters = runner.make_filters(p);

  std::vector<T> poisons;
  if constexpr (is_u8) {
    poisons = {0x3C, 0xC3};
  } else {
    float nan;
    const std::uint32_t bits = 0x7fc01234u;
    std::memcpy(&nan, &bits, sizeof nan);
    poisons = {nan};
  }
  for (const T poison : poisons) {
    std::vector<T> dst(dst_n, poison);
    ctx.queue.enqueueWriteBuffer(dst_buf, CL_TRUE, 0, dst_n * sizeof(T), dst.data());
    std::vector<cl::Event> events;
    const std::string error = runner.launch(c, p, src_buf, dst_buf, filters, &events);
    if (!error.empty()) return error;
    ctx.queue.enqueueReadBuffer(dst_buf, CL_TRUE, 0, dst_n * sizeof(T), dst.data());
    std::size_t bad = 0;
    std::string first;
    for (std::size_t i = 0; i < dst_n; ++i) {
      const long rel = static_cast<long>(i) - p.dst_offset;
      const long y = rel >= 0 ? rel / p.dst_pitch : -1;
      const long e = rel >= 0 ? rel - y * p.dst_pitch : -1;
      const bool inside = rel >= 0 && y < h && e < dst_row;
      bool ok;
      double want = 0.0;
      if (inside) {
        want = exact[static_cast<std::size_t>(y * dst_row + e)];
        if constexpr (is_u8) {
          ok = ref::matches_u8(want, dst[i], tolerance);
        } else {
          ok = ref::matches_float(want, dst[i], tolerance);
        }
      } else {
        ok = std::memcmp(&dst[i], &poison, sizeof(T)) == 0;
      }
      if (!ok && bad++ == 0) {
        char buf[200];
        if (inside) {
          std::snprintf(buf, sizeof buf, "first at x=%ld c=%ld y=%ld: got %.6g want %.6g (tol %.2g)",
                        e / (p.op == "gray" ? 1 : p.channels), e % (p.op == "gray" ? 1 : p.channels), y,
                        static_cast<double>(dst[i]), want, tolerance);
        } else {
          std::snprintf(buf, sizeof buf, "wrote outside the image at element %zu", i);
        }
        first = buf;
      }
    }
    if (bad > 0) return std::to_string(bad) + " bad elements, " + first;
  }
  return "";
}

std::string verify(Runner& runner, const Config& c, const Problem& p, std::mt19937_64& rng) {
  try {
    return c.dtype == "uchar" ? verify_typed<std::uint8_t>(runner, c, p, rng) : verify_typed<float>(runner, c, p, rng);
  } catch (const cl::Error& e) {
    return std::string("OpenCL error ") + std::to_string(e.err()) + " in " + e.what();
  }
}

std::string describe(const Config& c, const Problem& p) {
  const char* layout = p.src_offset == 0 ? "dense" : p.src_offset == 5 ? "ragged" : "aligned";
  return std::string(variant_name(c.variant)) + " " + c.params() + " " + c.dtype + " C" + std::to_string(c.channels) +
         " " + (is_gray(c.variant) ? "" : ref::border_name(c.border)) + " " + p.op + " " + p.filter_name + " on " +
         p.size() + " " + layout;
}

// ---------------------------------------------------------------------------------------------------------
// Timing

struct Options {
  std::string kernel_dir;
  std::string json_path;
  std::string preset = "cpu";
  std::string only;
  int width = 0, height = 0, gray_width = 0, gray_height = 0;
  int reps = 0;
  bool matrix = true, timing = true, opencv = true, list = false;
  std::size_t local_limit = 0, wg_limit = 0;
};

// Device buffers for timing, reused while consecutive configurations need the same sizes.
class TimingBuffers {
 public:
  explicit TimingBuffers(bench::Context& ctx) : ctx_(ctx) {}

  void prepare(const std::string& dtype, bool gray, std::size_t src_bytes, std::size_t dst_bytes) {
    const std::string key = dtype + (gray ? "g" : "c") + std::to_string(src_bytes) + "/" + std::to_string(dst_bytes);
    if (key == key_) return;
    src_.clear();
    dst_.clear();
    key_ = key;
    // Rotate over enough inputs and outputs to exceed three times the last-level cache.
    const std::size_t cache = std::max<std::size_t>(ctx_.cache_bytes, 32u << 20);
    const std::size_t sets =
        std::clamp<std::size_t>((3 * cache + src_bytes + dst_bytes - 1) / (src_bytes + dst_bytes), 2, 8);
    // xorshift64: hundreds of megabytes of random input in a fraction of a second.
    std::uint64_t state = 0x9E3779B97F4A7C15ull;
    auto next = [&state]() {
      state ^= state << 13;
      state ^= state >> 7;
      state ^= state << 17;
      return state;
    };
    std::vector<unsigned char> host(src_bytes);
    if (dtype == "uchar") {
      for (std::size_t i = 0; i + 8 <= src_bytes; i += 8) {
        const std::uint64_t r = next();
        std::memcpy(&host[i], &r, 8);
      }
    } else {
      float* f = reinterpret_cast<float*>(host.data());
      const float lo = gray ? 0.0f : -1.0f, span = gray ? 1.0f : 2.0f;
      for (std::size_t i = 0; i < src_bytes / 4; ++i) f[i] = lo + span * static_cast<float>(next() >> 40) * 0x1p-24f;
    }
    for (std::size_t i = 0; i < sets; ++i) {
      src_.emplace_back(ctx_.context, CL_MEM_READ_ONLY, src_bytes);
      ctx_.queue.enqueueWriteBuffer(src_.back(), CL_TRUE, 0, src_bytes, host.data());
      dst_.emplace_back(ctx_.context, CL_MEM_READ_WRITE, dst_bytes);
      ctx_.queue.enqueueFillBuffer(dst_.back(), static_cast<cl_uchar>(0), 0, dst_bytes);
    }
    ctx_.queue.finish();
  }
  std::size_t sets() const { return src_.size(); }
  const cl::Buffer& src(std::size_t i) const { return src_[i % src_.size()]; }
  const cl::Buffer& dst(std::size_t i) const { return dst_[i % dst_.size()]; }
  void release() {
    src_.clear();
    dst_.clear();
    key_.clear();
  }

 private:
  bench::Context& ctx_;
  std::string key_;
  std::vector<cl::Buffer> src_, dst_;
};

// CPU time of the whole process (all threads: PoCL's and OpenCV's workers included). On a CPU device, CPU
// seconds per call divided by the core count is a load-robust estimate of the call's time on an idle machine.
double process_cpu_seconds() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
         1e-6 * static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec);
}

// Median seconds of one call; negative with *error set on failure. *cpu_seconds: process CPU time per call.
double time_config(Runner& runner, TimingBuffers& buffers, const Config& c, const Problem& p, int reps,
                   std::string* error, double* cpu_seconds) {
  auto& ctx = runner.ctx();
  const std::size_t es = static_cast<std::size_t>(c.elem_size());
  buffers.prepare(c.dtype, p.op == "gray", buffer_elements(0, p.src_pitch, p.src_row(), p.height) * es,
                  buffer_elements(0, p.dst_pitch, p.dst_row(), p.height) * es);
  const Runner::Filters filters = runner.make_filters(p);
  const int warmup = 3;
  std::vector<std::vector<cl::Event>> all;
  try {
    double cpu_start = 0.0;
    for (int i = 0; i < warmup + reps; ++i) {
      if (i == warmup) {
        ctx.queue.finish();
        cpu_start = process_cpu_seconds();
      }
      std::vector<cl::Event> events;
      *error = runner.launch(c, p, buffers.src(i), buffers.dst(i), filters, &events);
      if (!error->empty()) return -1.0;
      if (i >= warmup) all.push_back(events);
    }
    ctx.queue.finish();
    if (cpu_seconds != nullptr) *cpu_seconds = (process_cpu_seconds() - cpu_start) / reps;
    std::vector<double> times;
    for (const auto& events : all) times.push_back(bench::event_seconds(events.front(), events.back()));
    return bench::median(times);
  } catch (const cl::Error& e) {
    *error = std::string("OpenCL error ") + std::to_string(e.err()) + " in " + e.what();
    return -1.0;
  }
}

double copy_bandwidth(bench::Context& ctx, std::size_t bytes, int reps) {
  bytes = std::min(bytes, static_cast<std::size_t>(ctx.max_alloc));
  cl::Buffer a(ctx.context, CL_MEM_READ_WRITE, bytes), b(ctx.context, CL_MEM_READ_WRITE, bytes);
  ctx.queue.enqueueFillBuffer(a, static_cast<cl_uchar>(1), 0, bytes);
  ctx.queue.enqueueFillBuffer(b, static_cast<cl_uchar>(2), 0, bytes);
  std::vector<cl::Event> events(static_cast<std::size_t>(reps + 2));
  for (auto& e : events) ctx.queue.enqueueCopyBuffer(a, b, 0, 0, bytes, nullptr, &e);
  ctx.queue.finish();
  std::vector<double> times;
  for (std::size_t i = 2; i < events.size(); ++i) times.push_back(bench::event_seconds(events[i], events[i]));
  return 2.0 * static_cast<double>(bytes) / bench::median(times);
}

// ---------------------------------------------------------------------------------------------------------
// OpenCV peer (CPU functions, default thread count)

#ifdef TILECL_BENCH_HAVE_OPENCV
int cv_border(Border b) {
  switch (b) {
    case Border::Zero:
      return cv::BORDER_CONSTANT;
    case Border::Clamp:
      return cv::BORDER_REPLICATE;
    case Border::Mirror:
      return cv::BORDER_REFLECT_101;
    case Border::Wrap:
      return cv::BORDER_WRAP;
  }
  return cv::BORDER_DEFAULT;
}

// OpenCV's filters refuse BORDER_WRAP; for Wrap the peer pads with copyMakeBorder(BORDER_WRAP) into scratch
// and filters the inner region of interest, whose outside neighbours OpenCV then reads from the padding.
void cv_call(const Problem& p, Border border, const cv::Mat& src, cv::Mat& dst, cv::Mat& scratch) {
  if (p.op != "gray" && border == Border::Wrap) {
    cv::copyMakeBorder(src, scratch, p.ry, p.ry, p.rx, p.rx, cv::BORDER_WRAP);
    const cv::Mat inner = scratch(cv::Rect(p.rx, p.ry, src.cols, src.rows));
    cv::Mat scratch2;
    cv_call(p, Border::Clamp, inner, dst, scratch2);
    return;
  }
  if (p.op == "gray") {
    cv::cvtColor(src, dst, cv::COLOR_RGB2GRAY);
  } else if (p.op == "gauss") {
    cv::GaussianBlur(src, dst, cv::Size(2 * p.rx + 1, 2 * p.ry + 1), p.sigma, p.sigma, cv_border(border));
  } else if (p.op == "box") {
    cv::blur(src, dst, cv::Size(2 * p.rx + 1, 2 * p.ry + 1), cv::Point(-1, -1), cv_border(border));
  } else {
    const cv::Mat kernel(2 * p.ry + 1, 2 * p.rx + 1, CV_32F, const_cast<float*>(p.filter.data()));
    cv::filter2D(src, dst, -1, kernel, cv::Point(-1, -1), 0, cv_border(border));
  }
}

// Median seconds of the OpenCV call, or a negative value with *error set.
double time_opencv(const Problem& p, const std::string& dtype, Border border, int reps, std::string* error,
                   double* cpu_seconds) {
  const int depth = dtype == "uchar" ? CV_8U : CV_32F;
  const int channels = p.op == "gray" ? 3 : p.channels;
  const std::size_t bytes = static_cast<std::size_t>(p.width) * p.height * channels * (dtype == "uchar" ? 1 : 4);
  const std::size_t sets = std::clamp<std::size_t>((96u << 20) / (2 * bytes) + 1, 2, 8);
  std::vector<cv::Mat> src(sets), dst(sets), scratch(sets);
  cv::RNG rng(7);
  for (auto& m : src) {
    m.create(p.height, p.width, CV_MAKETYPE(depth, channels));
    if (depth == CV_8U) {
      rng.fill(m, cv::RNG::UNIFORM, 0, 256);
    } else {
      rng.fill(m, cv::RNG::UNIFORM, -1.0, 1.0);
    }
  }
  try {
    std::vector<double> times;
    double cpu_start = 0.0;
    for (int i = 0; i < reps + 2; ++i) {
      if (i == 2) cpu_start = process_cpu_seconds();
      const auto start = std::chrono::steady_clock::now();
      cv_call(p, border, src[i % sets], dst[i % sets], scratch[i % sets]);
      const double t = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      if (i >= 2) times.push_back(t);
    }
    *cpu_seconds = (process_cpu_seconds() - cpu_start) / reps;
    return bench::median(times);
  } catch (const cv::Exception& e) {
    *error = e.what();
    return -1.0;
  }
}

// OpenCV's filter2D on float data against our reference for each border rule: checks that the rule
// correspondence (Zero/Clamp/Mirror/Wrap = CONSTANT/REPLICATE/REFLECT_101/WRAP) holds.
void check_opencv_borders(std::mt19937_64& rng) {
  std::printf(
      "opencv border check (filter2D float, 5x3 and 15x15 filters, 37x23 and 7x4 images; wrap through "
      "copyMakeBorder):");
  for (int b = 0; b < 4; ++b) {
    const Border border = static_cast<Border>(b);
    bool ok = true;
    std::string note;
    for (int channels : {1, 3}) {
      for (auto [w, h, rx, ry] : {std::array<int, 4>{37, 23, 2, 1}, std::array<int, 4>{7, 4, 7, 7}}) {
        Problem p = filter2d_problem(w, h, channels, rx, ry, Layout::Dense, rng);
        cv::Mat src(h, w, CV_32FC(channels)), dst, scratch;
        cv::randu(src, -1.0, 1.0);
        try {
          cv_call(p, border, src, dst, scratch);
        } catch (const cv::Exception& e) {
          ok = false;
          note = " (opencv refused)";
          continue;
        }
        const auto exact = ref::convolve2d(src.ptr<float>(), w, h, channels, w * channels, p.filter, rx, ry, border);
        for (int y = 0; y < h; ++y) {
          for (int e = 0; e < w * channels; ++e) {
            if (std::abs(dst.ptr<float>(y)[e] - exact[static_cast<std::size_t>(y * w * channels + e)]) > 1e-4)
              ok = false;
          }
        }
      }
    }
    std::printf(" %s=%s%s", ref::border_name(border), ok ? "agrees" : "DIFFERS", note.c_str());
  }
  std::printf("\n");
}
#endif

// ---------------------------------------------------------------------------------------------------------
// Configuration lists

Config make(Variant v, const std::string& dtype, int channels, Border border) {
  Config c;
  c.variant = v;
  c.dtype = dtype;
  c.channels = channels;
  c.border = border;
  return c;
}
Config local(Config c, std::size_t lx, std::size_t ly) {
  c.lx = lx;
  c.ly = ly;
  return c;
}
Config vec(Config c, int v, int wpt_or_wpty = 0) {
  c.vec = v;
  if (wpt_or_wpty > 0) (is_gray(c.variant) ? c.wpt : c.wpt_y) = wpt_or_wpty;
  return c;
}
Config tile(Config c, int tx, int ty, int wpty, int v, int pad = 0) {
  c.tile_x = tx;
  c.tile_y = ty;
  c.wpt_y = wpty;
  c.vec = v;
  c.pad = pad;
  return c;
}

Config local_input(Config c) {
  c.local_input = true;
  return c;
}
Config fixed(Config c) {
  c.fixed_radius = true;
  return c;
}

struct Case {
  Config config;
  Problem problem;
};

// The verification matrix: (config, problem) pairs.
std::vector<Case> verification_matrix(const std::string& preset, std::mt19937_64& rng) {
  const bool quick = preset == "quick";
  std::vector<Case> cases;
  const std::vector<std::array<int, 2>> shapes =
      quick ? std::vector<std::array<int, 2>>{{3, 2}, {1, 1}, {37, 23}}
            : std::vector<std::array<int, 2>>{{1, 1}, {3, 2}, {2, 3}, {5, 7}, {37, 23}, {133, 71}};
  const std::vector<std::array<int, 2>> runtime_filters =
      quick ? std::vector<std::array<int, 2>>{{1, 1}, {2, 0}, {7, 7}}
            : std::vector<std::array<int, 2>>{{0, 0}, {1, 1}, {2, 1}, {0, 3}, {3, 0}, {7, 7}};
  const std::vector<std::array<int, 2>> tiled_filters =
      quick ? std::vector<std::array<int, 2>>{{2, 1}, {7, 7}}
            : std::vector<std::array<int, 2>>{{0, 0}, {2, 1}, {0, 3}, {7, 7}};
  const std::vector<Border> borders = {Border::Zero, Border::Clamp, Border::Mirror, Border::Wrap};

  for (const std::string dtype : {"float", "uchar"}) {
    // rgb_to_gray
    std::vector<Config> gray = {
        local(make(Variant::GrayNaive, dtype, 1, Border::Zero), 16, 4),
        local(vec(make(Variant::GrayVector, dtype, 1, Border::Zero), dtype == "uchar" ? 16 : 4, 1), 8, 2),
        local(vec(make(Variant::GrayVector, dtype, 1, Border::Zero), 8, 3), 4, 4),
        local(vec(make(Variant::GrayVector, dtype, 1, Border::Zero), 2, 1), 8, 1),
        local(vec(make(Variant::GrayVector, dtype, 1, Border::Zero), dtype == "uchar" ? 4 : 16, 2), 8, 1)};
    const std::vector<std::array<int, 2>> gray_shapes =
        quick ? std::vector<std::array<int, 2>>{{1, 1}, {35, 5}}
              : std::vector<std::array<int, 2>>{{1, 1}, {15, 3}, {17, 5}, {33, 9}, {100, 7}, {37, 23}};
    for (const auto& c : gray) {
      int n = 0;
      for (auto [w, h] : gray_shapes) {
        for (Layout layout : {Layout::Ragged, Layout::Aligned, Layout::Dense}) {
          Problem p = gray_problem(w, h, layout);
          if (++n % 2 == 0) p.wr = 0.6f, p.wg = 0.9f, p.wb = -0.4f;  // user weights that saturate both ends
          cases.push_back({c, p});
        }
      }
    }
    for (int channels : {1, 3}) {
      for (Border border : borders) {
        // Generic kernels (radius from the arguments) share one program per (dtype, channels, border).
        std::vector<Config> generic = {local(make(Variant::DirectNaive, dtype, channels, border), 8, 4),
                                       local(vec(make(Variant::DirectVector, dtype, channels, border), 4, 3), 8, 2),
                                       local(vec(make(Variant::TwoPass, dtype, channels, border), 4, 3), 8, 2),
                                       local(vec(make(Variant::SepVector, dtype, channels, border), 4, 3), 4, 2)};
        for (const auto& c : generic) {
          int n = 0;
          for (auto [w, h] : shapes) {
            std::vector<std::array<int, 2>> filters = runtime_filters;
            if (w == 3 && h == 2) filters.push_back({15, 15});  // 31 x 31 on a 3 x 2 image
            for (auto [rx, ry] : filters) {
              const Layout layout = (n++ % 2 == 0) ? Layout::Ragged : Layout::Aligned;
              cases.push_back({c, is_separable(c.variant) ? separable_problem(w, h, channels, rx, ry, layout, rng)
                                                          : filter2d_problem(w, h, channels, rx, ry, layout, rng)});
            }
          }
        }
        // Tiled kernels: radius fixed at build time; a small tile so that 37 x 23 and 133 x 71 have interior tiles.
        const Config tiled_direct =
            tile(make(Variant::DirectTiled, dtype, channels, border), quick ? 8 : 16, quick ? 4 : 8, 2, 4, 4);
        Config tiled_sep = tiled_direct;
        tiled_sep.variant = Variant::SepTiled;
        Config tiled_sep_local = tiled_sep;
        tiled_sep_local.local_input = true;
        for (auto [rx, ry] : tiled_filters) {
          int n = 0;
          for (auto [w, h] : shapes) {
            const Layout layout = (n++ % 2 == 0) ? Layout::Aligned : Layout::Ragged;
            cases.push_back({tiled_direct, filter2d_problem(w, h, channels, rx, ry, layout, rng)});
            cases.push_back({tiled_sep, separable_problem(w, h, channels, rx, ry, layout, rng)});
            if (rx == 7 || rx == 2) {  // the local-input form at two radii only (a program per radius)
              cases.push_back({tiled_sep_local, separable_problem(w, h, channels, rx, ry, layout, rng)});
            }
          }
        }
      }
    }
  }
  return cases;
}

struct TimedCase {
  Config config;
  Problem problem;  // the large problem
};

// The timing list of a preset.
std::vector<TimedCase> timing_list(const Options& o) {
  std::vector<TimedCase> list;
  const bool gpu = o.preset == "gpu";
  const int gw = o.gray_width, gh = o.gray_height, w = o.width, h = o.height;
  const Border M = Border::Mirror;
  auto add = [&](const Config& c, const Problem& p) { list.push_back({c, p}); };

  // rgb_to_gray
  const Problem gray = gray_problem(gw, gh, Layout::Dense);
  const Config gn_u8 = make(Variant::GrayNaive, "uchar", 1, M), gv_u8 = make(Variant::GrayVector, "uchar", 1, M);
  const Config gn_f = make(Variant::GrayNaive, "float", 1, M), gv_f = make(Variant::GrayVector, "float", 1, M);
  if (gpu) {
    add(local(gn_u8, 256, 1), gray);
    add(local(gn_u8, 32, 8), gray);
    for (auto [lx, ly] : {std::array<std::size_t, 2>{64, 4}, {128, 2}, {256, 1}, {32, 8}})
      add(local(vec(gv_u8, 16, 1), lx, ly), gray);
    add(local(vec(gv_u8, 16, 2), 64, 4), gray);
    add(local(vec(gv_u8, 16, 4), 128, 1), gray);
    add(local(vec(gv_u8, 8, 1), 128, 2), gray);
    add(local(gn_f, 256, 1), gray);
    add(local(vec(gv_f, 4, 1), 64, 4), gray);
    add(local(vec(gv_f, 4, 1), 256, 1), gray);
    add(local(vec(gv_f, 4, 2), 128, 2), gray);
    add(local(vec(gv_f, 8, 1), 64, 4), gray);
  } else {
    add(local(gn_u8, 64, 1), gray);
    add(local(vec(gv_u8, 16, 1), 8, 1), gray);
    add(local(vec(gv_u8, 16, 1), 64, 1), gray);
    add(local(vec(gv_u8, 16, 4), 16, 1), gray);
    add(local(vec(gv_u8, 8, 1), 64, 1), gray);
    add(local(gn_f, 64, 1), gray);
    add(local(vec(gv_f, 4, 1), 64, 1), gray);
    add(local(vec(gv_f, 8, 1), 64, 1), gray);
    add(local(vec(gv_f, 16, 1), 16, 1), gray);
  }

  // Gaussian 9 x 9 (sigma 1.7, OpenCV's default sigma for ksize 9) and box 5 x 5, float, one channel.
  const Problem g9 = gauss_problem(w, h, 1, 4, 1.7), b5 = box_problem(w, h, 1, 2, 2);
  const Config st = make(Variant::SepTiled, "float", 1, M), dt = make(Variant::DirectTiled, "float", 1, M);
  const Config tp = make(Variant::TwoPass, "float", 1, M), sv = make(Variant::SepVector, "float", 1, M);
  const Config dv = make(Variant::DirectVector, "float", 1, M), dn = make(Variant::DirectNaive, "float", 1, M);
  if (gpu) {
    for (auto t : {std::array<int, 5>{64, 32, 4, 4, 0},
                   {128, 32, 4, 4, 0},
                   {128, 32, 8, 4, 0},
                   {128, 64, 8, 4, 0},
                   {64, 64, 8, 4, 0},
                   {256, 32, 8, 4, 0},
                   {128, 16, 2, 4, 0},
                   {256, 16, 4, 4, 0},
                   {128, 32, 4, 2, 0},
                   {64, 32, 4, 8, 0},
                   {64, 128, 16, 4, 0},
                   {128, 32, 4, 4, 4}}) {
      add(tile(st, t[0], t[1], t[2], t[3], t[4]), g9);
    }
    add(local_input(tile(st, 64, 32, 4, 4)), g9);
    add(local_input(tile(st, 128, 32, 4, 4)), g9);
    for (Border b : {Border::Zero, Border::Clamp, Border::Wrap}) {
      Config c = tile(st, 128, 32, 4, 4);
      c.border = b;
      add(c, g9);
    }
    add(tile(dt, 128, 32, 4, 4), g9);
    add(tile(dt, 64, 16, 4, 4), g9);
    add(local(vec(tp, 4), 64, 4), g9);
    add(local(vec(sv, 4, 8), 64, 4), g9);
    add(local(dn, 32, 8), g9);
    for (auto t : {std::array<int, 4>{128, 32, 4, 4},
                   {128, 64, 8, 4},
                   {64, 32, 4, 4},
                   {256, 32, 8, 4},
                   {128, 16, 4, 4},
                   {64, 64, 8, 4}}) {
      add(tile(st, t[0], t[1], t[2], t[3]), b5);
    }
    add(local_input(tile(st, 128, 32, 4, 4)), b5);
    for (auto t : {std::array<int, 4>{128, 32, 4, 4}, {128, 16, 4, 4}, {64, 32, 8, 4}})
      add(tile(dt, t[0], t[1], t[2], t[3]), b5);
    add(local(vec(tp, 4), 64, 4), b5);
    add(local(vec(sv, 4, 8), 64, 4), b5);
  } else {
    for (auto [v, wy, lx] : {std::array<int, 3>{8, 4, 8}, {16, 4, 8}, {16, 8, 8}, {16, 4, 32}}) {
      add(local(vec(sv, v, wy), static_cast<std::size_t>(lx), 1), g9);
    }
    add(local(vec(tp, 8), 8, 1), g9);
    add(local(vec(tp, 16), 8, 1), g9);
    add(local(vec(dv, 16), 8, 1), g9);
    add(fixed(local(vec(sv, 16, 8), 8, 1)), g9);
    add(fixed(local(vec(sv, 16, 16), 8, 1)), g9);
    add(fixed(local(vec(tp, 16), 8, 1)), g9);
    add(fixed(local(vec(dv, 16), 8, 1)), g9);
    add(tile(st, 64, 16, 4, 8), g9);
    add(tile(st, 128, 32, 8, 16), g9);
    add(local_input(tile(st, 128, 32, 8, 16)), g9);
    add(local(dn, 64, 1), g9);
    for (Border b : {Border::Zero, Border::Clamp, Border::Wrap}) {
      for (Config c : {local(vec(sv, 16, 8), 8, 1), fixed(local(vec(tp, 16), 8, 1))}) {
        c.border = b;
        add(c, g9);
      }
    }
    add(local(vec(sv, 16, 4), 8, 1), b5);
    add(local(vec(sv, 16, 8), 8, 1), b5);
    add(local(vec(tp, 16), 8, 1), b5);
    add(fixed(local(vec(tp, 16), 8, 1)), b5);
    add(local(vec(dv, 16), 8, 1), b5);
    add(tile(dt, 128, 32, 8, 16), b5);
    add(tile(st, 128, 32, 8, 16), b5);
  }

  // uchar and RGB blurs (no targets; reported against the peers).
  const Problem g9c3 = gauss_problem(w, h, 3, 4, 1.7), b5c3 = box_problem(w, h, 3, 2, 2);
  const Config st_u8 = make(Variant::SepTiled, "uchar", 1, M), st_u8c3 = make(Variant::SepTiled, "uchar", 3, M);
  const Config st_fc3 = make(Variant::SepTiled, "float", 3, M);
  if (gpu) {
    add(tile(st_u8, 128, 32, 4, 4), g9);
    add(tile(st_u8, 256, 32, 4, 16), g9);
    add(local(vec(make(Variant::TwoPass, "uchar", 1, M), 16), 32, 4), g9);
    add(tile(st_u8c3, 64, 32, 4, 4), g9c3);
    add(tile(st_u8c3, 128, 16, 4, 8), g9c3);
    add(local(vec(make(Variant::TwoPass, "uchar", 3, M), 4), 64, 4), g9c3);
    add(tile(st_fc3, 32, 32, 4, 4), g9c3);
    add(tile(st_fc3, 64, 16, 4, 4), g9c3);
    add(tile(st_u8c3, 64, 32, 4, 4), b5c3);
  } else {
    add(local(vec(make(Variant::SepVector, "uchar", 1, M), 16, 8), 8, 1), g9);
    add(fixed(local(vec(make(Variant::TwoPass, "uchar", 1, M), 16), 8, 1)), g9);
    add(local(vec(make(Variant::SepVector, "uchar", 3, M), 16, 8), 8, 1), g9c3);
    add(fixed(local(vec(make(Variant::TwoPass, "uchar", 3, M), 16), 8, 1)), g9c3);
    add(local(vec(make(Variant::SepVector, "float", 3, M), 16, 8), 8, 1), g9c3);
    add(fixed(local(vec(make(Variant::TwoPass, "float", 3, M), 16), 8, 1)), g9c3);
    add(local(vec(make(Variant::SepVector, "uchar", 3, M), 16, 8), 8, 1), b5c3);
    add(fixed(local(vec(make(Variant::TwoPass, "uchar", 3, M), 16), 8, 1)), b5c3);
  }

  // filter2D (a caller's filter): 5 x 5 and 15 x 15.
  std::mt19937_64 rng(99);
  const Problem f5 = filter2d_problem(w, h, 1, 2, 2, Layout::Dense, rng);
  const Problem f15 = filter2d_problem(w, h, 1, 7, 7, Layout::Dense, rng);
  const Config dt_u8 = make(Variant::DirectTiled, "uchar", 1, M);
  if (gpu) {
    for (auto t : {std::array<int, 4>{128, 32, 4, 4}, {64, 16, 4, 4}, {128, 16, 2, 4}})
      add(tile(dt, t[0], t[1], t[2], t[3]), f5);
    add(local(vec(dv, 4), 64, 4), f5);
    add(local(dn, 32, 8), f5);
    add(tile(dt, 128, 32, 4, 4), f15);
    add(tile(dt, 64, 32, 8, 4), f15);
    add(local(dn, 32, 8), f15);
    add(tile(dt_u8, 128, 32, 4, 4), f5);
  } else {
    add(local(vec(dv, 8), 8, 1), f5);
    add(local(vec(dv, 16), 8, 1), f5);
    add(fixed(local(vec(dv, 16), 8, 1)), f5);
    add(fixed(local(vec(dv, 8), 8, 1)), f5);
    add(local(dn, 64, 1), f5);
    add(tile(dt, 128, 32, 8, 16), f5);
    add(local(vec(dv, 16), 8, 1), f15);
    add(fixed(local(vec(make(Variant::DirectVector, "uchar", 1, M), 16), 8, 1)), f5);
  }
  return list;
}

// ---------------------------------------------------------------------------------------------------------

struct Row {
  std::string op, variant, params, dtype, border, filter, size;
  int channels = 1;
  double seconds = -1.0, gbs = 0.0, pct_copy = 0.0, peer_seconds = -1.0, cpu_seconds = -1.0, peer_cpu = -1.0;
  std::string status;
};

bool parse_size(const std::string& s, int* w, int* h) { return std::sscanf(s.c_str(), "%dx%d", w, h) == 2; }

std::string peer_key(const Problem& p, const std::string& dtype, Border border) {
  return p.op + "|" + p.filter_name + "|" + dtype + "|" + std::to_string(p.op == "gray" ? 3 : p.channels) + "|" +
         (p.op == "gray" ? "-" : ref::border_name(border)) + "|" + p.size();
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= argc) throw std::runtime_error("missing value after " + a);
      return argv[++i];
    };
    if (a == "--kernels")
      o.kernel_dir = next();
    else if (a == "--json")
      o.json_path = next();
    else if (a == "--preset")
      o.preset = next();
    else if (a == "--only")
      o.only = next();
    else if (a == "--reps")
      o.reps = std::stoi(next());
    else if (a == "--size") {
      if (!parse_size(next(), &o.width, &o.height)) throw std::runtime_error("--size WxH");
    } else if (a == "--gray-size") {
      if (!parse_size(next(), &o.gray_width, &o.gray_height)) throw std::runtime_error("--gray-size WxH");
    } else if (a == "--no-matrix")
      o.matrix = false;
    else if (a == "--no-timing")
      o.timing = false;
    else if (a == "--no-opencv")
      o.opencv = false;
    else if (a == "--list")
      o.list = true;
    else if (a == "--limits") {  // pretend the device has at most LOCAL bytes of local memory and WG work-items
      if (std::sscanf(next().c_str(), "%zu,%zu", &o.local_limit, &o.wg_limit) != 2)
        throw std::runtime_error("--limits LOCAL,WG");
    } else {
      std::fprintf(
          stderr,
          "usage: %s --kernels DIR [--preset gpu|cpu|quick] [--json FILE] [--size WxH] [--gray-size WxH]\n"
          "          [--reps N] [--only TEXT] [--no-matrix] [--no-timing] [--no-opencv] [--list] [--limits LOCAL,WG]\n",
          argv[0]);
      return a == "--help" || a == "-h" ? 0 : 2;
    }
  }
  if (o.kernel_dir.empty()) {
    std::fprintf(stderr, "--kernels DIR is required (the repository's kernels/ folder)\n");
    return 2;
  }
  if (o.preset != "gpu" && o.preset != "cpu" && o.preset != "quick") {
    std::fprintf(stderr, "--preset must be gpu, cpu or quick\n");
    return 2;
  }
  const bool gpu = o.preset == "gpu";
  if (o.width == 0) o.width = gpu ? 7680 : 1920, o.height = gpu ? 4320 : 1080;
  if (o.gray_width == 0) o.gray_width = 7680, o.gray_height = 4320;
  if (o.reps == 0) o.reps = gpu ? 20 : 7;
  if (o.preset == "quick") o.timing = false;

  const bool verbose = std::getenv("TILECL_BENCH_VERBOSE") != nullptr;  // print each case before it runs
  const auto t_start = std::chrono::steady_clock::now();
  bench::Context ctx = bench::Context::create();
  if (o.local_limit > 0) ctx.local_mem = std::min(ctx.local_mem, o.local_limit);
  if (o.wg_limit > 0) ctx.max_work_group = std::min(ctx.max_work_group, o.wg_limit);
  bench::ProgramCache cache(ctx, o.kernel_dir);
  Runner runner(ctx, cache);
  const std::uint64_t seed = 20261129;
  std::mt19937_64 rng(seed);
  std::printf("device: %s (%s), %s; preset %s; seed %llu\n", ctx.device_name.c_str(), ctx.platform_name.c_str(),
              ctx.is_gpu ? "GPU" : "not GPU", o.preset.c_str(), static_cast<unsigned long long>(seed));

  std::vector<TimedCase> timed;
  if (o.timing || o.list) {
    for (auto& t : timing_list(o)) {
      const std::string name = describe(t.config, t.problem);
      if (o.only.empty() || name.find(o.only) != std::string::npos) timed.push_back(t);
    }
  }
  if (o.list) {
    for (const auto& t : timed) std::printf("%s\n", describe(t.config, t.problem).c_str());
    return 0;
  }

  std::vector<std::string> json;
  int failures = 0;
  // Rewritten after the matrix and after every timed configuration, so a run cut short keeps its results.
  auto write_json = [&](bool complete) {
    if (o.json_path.empty()) return;
    std::ofstream out(o.json_path);
    out << "{\"device\": \"" << bench::json_escape(ctx.device_name) << "\", \"platform\": \""
        << bench::json_escape(ctx.platform_name) << "\", \"preset\": \"" << o.preset << "\", \"seed\": " << seed
        << ", \"complete\": " << (complete ? "true" : "false") << ", \"results\": [\n";
    for (std::size_t i = 0; i < json.size(); ++i) out << "  " << json[i] << (i + 1 < json.size() ? ",\n" : "\n");
    out << "]}\n";
  };

  // 0. Compile every program the run needs, on several host threads.
  std::vector<Case> cases;
  if (o.matrix) cases = verification_matrix(o.preset, rng);
  {
    std::set<std::pair<std::string, std::string>> programs;
    for (const auto& [c, p] : cases) {
      if (o.only.empty() || describe(c, p).find(o.only) != std::string::npos) {
        programs.insert({c.family(), c.options(p.rx, p.ry)});
      }
    }
    for (const auto& [c, p] : timed) programs.insert({c.family(), c.options(p.rx, p.ry)});
    programs.insert({"color", ""});  // every file must compile with no options at all
    programs.insert({"convolve", ""});
    // Oclgrind's compiler is not thread-safe (it crashes on concurrent builds): one thread there.
    unsigned threads = std::clamp(std::thread::hardware_concurrency(), 1u, 8u);
    if (ctx.platform_name.find("Oclgrind") != std::string::npos) threads = 1;
    if (const char* env = std::getenv("TILECL_BENCH_THREADS")) threads = std::max(1, std::atoi(env));
    cache.prebuild(programs, threads);
    std::printf("compiled %d programs on %u threads in %.1f s (%zu failed)\n", cache.builds(), threads,
                cache.total_build_seconds(), programs.size() - static_cast<std::size_t>(cache.builds()));
    for (const char* family : {"color", "convolve"}) {
      std::string error;
      if (cache.get(family, "", &error, nullptr) == nullptr) {
        ++failures;
        std::printf("FAIL %s.cl does not compile without options: %s\n", family, error.c_str());
      }
    }
    std::fflush(stdout);
  }

  // 1. Verification matrix.
  if (o.matrix) {
    int passed = 0, failed = 0, shown = 0;
    for (const auto& [c, p] : cases) {
      if (!o.only.empty() && describe(c, p).find(o.only) == std::string::npos) continue;
      if (verbose) std::fprintf(stderr, "verify %s\n", describe(c, p).c_str());
      const std::string error = verify(runner, c, p, rng);
      if (error.empty()) {
        ++passed;
      } else {
        ++failed;
        if (shown++ < 25) std::printf("FAIL %s: %s\n", describe(c, p).c_str(), error.c_str());
      }
      json.push_back(bench::JsonRecord()
                         .add("kind", "verify")
                         .add("case", describe(c, p))
                         .add("ok", error.empty())
                         .add("error", error)
                         .str());
    }
    failures += failed;
    write_json(false);
    std::printf("verification matrix: %d passed, %d failed (%.1f s since start)\n", passed, failed,
                std::chrono::duration<double>(std::chrono::steady_clock::now() - t_start).count());
    std::fflush(stdout);
  }
#ifdef TILECL_BENCH_HAVE_OPENCV
  if (o.opencv && o.matrix) check_opencv_borders(rng);
#endif

  // 2. Timing.
  if (o.timing) {
    const double copy = copy_bandwidth(ctx, gpu ? (std::size_t{1} << 30) : (std::size_t{256} << 20), o.reps);
    std::printf("device copy bandwidth (clEnqueueCopyBuffer, read + write): %.1f GB/s\n", copy * 1e-9);
    json.push_back(bench::JsonRecord().add("kind", "copy").add("gbs", copy * 1e-9).str());
    TimingBuffers buffers(ctx);
    std::vector<Row> rows;
    std::map<std::string, std::array<double, 2>> peers;  // wall and CPU seconds
    for (const auto& [c, big] : timed) {
      Row row;
      row.op = big.op == "gray" ? "gray" : big.op + big.filter_name;
      row.variant = variant_name(c.variant);
      row.params = c.params();
      row.dtype = c.dtype == "uchar" ? "u8" : "f32";
      row.channels = big.op == "gray" ? 3 : c.channels;
      row.border = big.op == "gray" ? "-" : ref::border_name(c.border);
      row.filter = big.filter_name;
      row.size = big.size();
      // Verify this build at small ragged sizes with the same filter size first.
      std::string error;
      for (auto [w, h, layout] : {std::array<int, 3>{37, 23, 1}, {133, 71, 2}, {3, 2, 1}}) {
        Problem small = big;
        small.width = w;
        small.height = h;
        set_layout(small, static_cast<Layout>(layout));
        error = verify(runner, c, small, rng);
        if (!error.empty()) break;
      }
      if (error.empty()) {
        const double s = time_config(runner, buffers, c, big, o.reps, &error, &row.cpu_seconds);
        if (s > 0) {
          row.seconds = s;
          const double bytes = big.op == "gray" ? 4.0 * big.width * big.height * c.elem_size()
                                                : 2.0 * big.width * big.height * big.channels * c.elem_size();
          row.gbs = bytes / s * 1e-9;
          row.pct_copy = 100.0 * bytes / s / copy;
        }
      }
      row.status = error.empty() ? "ok" : error;
      if (!error.empty()) {
        ++failures;
        std::printf("FAIL %s: %s\n", describe(c, big).c_str(), error.c_str());
      }
#ifdef TILECL_BENCH_HAVE_OPENCV
      if (o.opencv) {
        const std::string key = peer_key(big, c.dtype, c.border);
        if (peers.find(key) == peers.end()) {
          buffers.release();  // keep host and device memory in check while OpenCV runs
          std::string peer_error;
          double cpu = -1.0;
          const double wall = time_opencv(big, c.dtype, c.border, std::max(3, o.reps / 2), &peer_error, &cpu);
          peers[key] = {wall, cpu};
          if (!peer_error.empty()) std::printf("opencv %s: %s\n", key.c_str(), peer_error.substr(0, 200).c_str());
        }
        row.peer_seconds = peers[key][0];
        row.peer_cpu = peers[key][1];
      }
#endif
      std::fprintf(stderr, "%-12s %-13s %-24s %s C%d %-6s %9.1f us\n", row.op.c_str(), row.variant.c_str(),
                   row.params.c_str(), row.dtype.c_str(), row.channels, row.border.c_str(), row.seconds * 1e6);
      json.push_back(bench::JsonRecord()
                         .add("kind", "time")
                         .add("op", row.op)
                         .add("variant", row.variant)
                         .add("params", row.params)
                         .add("options", c.options(big.rx, big.ry))
                         .add("dtype", row.dtype)
                         .add("channels", row.channels)
                         .add("border", row.border)
                         .add("size", row.size)
                         .add("seconds", row.seconds)
                         .add("gbs", row.gbs)
                         .add("pct_copy", row.pct_copy)
                         .add("opencv_seconds", row.peer_seconds)
                         .add("cpu_seconds", row.cpu_seconds)
                         .add("opencv_cpu_seconds", row.peer_cpu)
                         .add("status", row.status)
                         .str());
      rows.push_back(row);
      write_json(false);
    }

    // Final compact table.
    // On a CPU device two more columns: CPU microseconds per call (ours, OpenCV's) and their ratio, which
    // stay meaningful when other processes load the machine.
    const bool cpu_columns = !ctx.is_gpu;
    std::printf("\n%-12s %-13s %-22s %-3s %1s %-6s %-9s %9s %8s %6s %9s %7s%s\n", "op", "variant", "params", "T", "C",
                "border", "size", "time_us", "GB/s", "%copy", "opencv_us", "x_ocv",
                cpu_columns ? "   cpu_us ocv_cpu_us x_ocv_cpu" : "");
    std::string last_group;
    for (const auto& r : rows) {
      const std::string group = r.op + r.dtype + std::to_string(r.channels);
      if (!last_group.empty() && group != last_group) std::printf("\n");
      last_group = group;
      char peer[32] = "-", ratio[32] = "-";
      if (r.peer_seconds > 0) std::snprintf(peer, sizeof peer, "%.0f", r.peer_seconds * 1e6);
      if (r.peer_seconds > 0 && r.seconds > 0) std::snprintf(ratio, sizeof ratio, "%.2f", r.peer_seconds / r.seconds);
      if (r.seconds > 0) {
        char cpu[64] = "";
        if (cpu_columns && r.cpu_seconds > 0 && r.peer_cpu > 0) {
          std::snprintf(cpu, sizeof cpu, " %8.0f %10.0f %9.2f", r.cpu_seconds * 1e6, r.peer_cpu * 1e6,
                        r.peer_cpu / r.cpu_seconds);
        } else if (cpu_columns && r.cpu_seconds > 0) {
          std::snprintf(cpu, sizeof cpu, " %8.0f %10s %9s", r.cpu_seconds * 1e6, "-", "-");
        }
        std::printf("%-12s %-13s %-22s %-3s %d %-6s %-9s %9.1f %8.1f %5.1f%% %9s %7s%s\n", r.op.c_str(),
                    r.variant.c_str(), r.params.c_str(), r.dtype.c_str(), r.channels, r.border.c_str(), r.size.c_str(),
                    r.seconds * 1e6, r.gbs, r.pct_copy, peer, ratio, cpu);
      } else {
        std::printf("%-12s %-13s %-22s %-3s %d %-6s %-9s FAILED: %.60s\n", r.op.c_str(), r.variant.c_str(),
                    r.params.c_str(), r.dtype.c_str(), r.channels, r.border.c_str(), r.size.c_str(), r.status.c_str());
      }
    }
    std::printf(
        "\ncopy %.1f GB/s; bytes counted: gray 4 per pixel x sizeof(T), filters 2 x channels x sizeof(T) per "
        "pixel; x_ocv = OpenCV time / our time (CPU OpenCV, %d threads)\n",
        copy * 1e-9,
#ifdef TILECL_BENCH_HAVE_OPENCV
        cv::getNumThreads()
#else
        0
#endif
    );
  }
  const double total = std::chrono::duration<double>(std::chrono::steady_clock::now() - t_start).count();
  std::printf("done in %.1f s (%d programs, %.1f s compiling); %d failure(s)\n", total, cache.builds(),
              cache.total_build_seconds(), failures);
  write_json(true);
  return failures == 0 ? 0 : 1;
}
