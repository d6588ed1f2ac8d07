// transpose_sweep: checks and times the kernels of kernels/transpose.cl over a list of configurations,
// side by side with the device copy bandwidth and CLBlast omatcopy.
//
//   transpose_sweep --kernels DIR [--preset gpu|cpu|smoke] [--config TEXT]... [--rows R --cols C]
//                   [--reps N] [--warmup N] [--json PATH] [--list] [--no-peers] [--verify-only] [--no-verify]
//                   [--check-max ELEMENTS]   (skip check shapes larger than that: for runs under oclgrind)
//
// A configuration is "variant/NAME=V,...@launch=v,...": variant naive | tiled | block; build values
// (DTYPE, TILE, WG_Y, PAD, VEC) become -D options; launch values (lx, ly) shape the NDRange (lx=0: let the
// runtime choose). The device comes from TILECL_PLATFORM / TILECL_DEVICE (index or name substring).
#include "harness.hpp"
#include "../../../tests/reference/transpose_reference.hpp"

#ifdef MEMOPS_HAVE_CLBLAST
#include <clblast_c.h>
#endif

#include <cstring>
#include <iostream>
#include <optional>

using namespace memops;

namespace {

struct Shape {
  int rows, cols, ld_in_extra, ld_out_extra;
  long in_offset, out_offset;
  int ld_in() const { return cols + ld_in_extra; }
  int ld_out() const { return rows + ld_out_extra; }
  std::size_t in_elements() const { return static_cast<std::size_t>(in_offset) + std::size_t(rows) * ld_in(); }
  std::size_t out_elements() const {
    return static_cast<std::size_t>(out_offset) + std::size_t(cols) * ld_out();
  }
};

// Ragged shapes: vectors, primes, non-multiples of every tile, leading dimensions and offsets both aligned
// and misaligned to 4 and 16 elements, full tiles of 32 and 64.
const std::vector<Shape> kCheckShapes = {
    {1, 1, 0, 0, 0, 0},         {1, 37, 0, 0, 0, 0},        {37, 1, 0, 0, 0, 0},
    {1, 1000, 3, 0, 5, 0},      {1000, 1, 0, 7, 0, 3},      {17, 33, 0, 0, 0, 0},
    {33, 17, 5, 2, 1, 2},       {61, 127, 0, 0, 0, 0},      {127, 61, 3, 1, 7, 0},
    {64, 96, 4, 8, 4, 8},       {96, 64, 0, 0, 0, 0},       {251, 509, 0, 0, 0, 0},
    {509, 251, 2, 3, 0, 1},     {256, 256, 0, 0, 0, 0},     {100, 260, 4, 4, 16, 4},
    {192, 320, 16, 32, 16, 64}, {320, 192, 0, 0, 0, 0},     {1031, 1021, 5, 0, 3, 0},
    {1024, 768, 0, 0, 0, 0},    {250, 1001, 16, 6, 32, 16},
};

struct Geometry {
  cl::NDRange global, local;
};

// How global and local sizes derive from the configuration and the problem (see the .cl header).
Geometry geometry(const Config& c, int rows, int cols) {
  auto round_up = [](long a, long b) { return (a + b - 1) / b * b; };
  auto ceil_div = [](long a, long b) { return (a + b - 1) / b; };
  if (c.variant == "naive") {
    const long lx = c.value("lx", 16), ly = c.value("ly", 16);
    if (lx == 0) return {cl::NDRange(cols, rows), cl::NullRange};
    return {cl::NDRange(round_up(cols, lx), round_up(rows, ly)), cl::NDRange(lx, ly)};
  }
  if (c.variant == "tiled") {
    const long tile = c.value("TILE", 32), vec = c.value("VEC", 4), wg_y = c.value("WG_Y", 8);
    return {cl::NDRange(ceil_div(cols, tile) * tile / vec, ceil_div(rows, tile) * wg_y),
            cl::NDRange(tile / vec, wg_y)};
  }
  if (c.variant == "block") {
    const long vec = c.value("VEC", 4), lx = c.value("lx", 8), ly = c.value("ly", 8);
    if (lx == 0) return {cl::NDRange(round_up(ceil_div(cols, vec), 8), round_up(ceil_div(rows, vec), 1)), cl::NullRange};
    return {cl::NDRange(round_up(ceil_div(cols, vec), lx), round_up(ceil_div(rows, vec), ly)), cl::NDRange(lx, ly)};
  }
  throw std::runtime_error("unknown variant " + c.variant);
}

std::vector<std::string> preset(const std::string& name) {
  if (name == "smoke") {
    return {"naive@lx=8,ly=4",
            "tiled/TILE=32,WG_Y=8,PAD=0,VEC=1",
            "tiled/TILE=16,WG_Y=4,PAD=1,VEC=4",
            "tiled/TILE=32,WG_Y=8,PAD=1,VEC=4,DTYPE=double",
            "tiled/TILE=32,WG_Y=4,PAD=1,VEC=16,DTYPE=uchar",
            "block/VEC=4@lx=4,ly=2",
            "block/VEC=8,USE_SHUFFLE=0@lx=2,ly=2",
            "block/VEC=8@lx=2,ly=2",
            "block/VEC=2,DTYPE=double@lx=4,ly=4",
            "block/VEC=16,DTYPE=uchar@lx=2,ly=2",
            "block/VEC=16,DTYPE=uchar,USE_SHUFFLE=0@lx=2,ly=2",
            "block/VEC=4,DTYPE=int@lx=4,ly=2",
            "block/VEC=4,DTYPE=uint@lx=4,ly=2",
            "block/VEC=2,DTYPE=ulong@lx=4,ly=2"};
  }
  if (name == "cpu") {
    return {"naive@lx=16,ly=1",
            "tiled/TILE=32,WG_Y=8,PAD=0,VEC=1",
            "tiled/TILE=32,WG_Y=8,PAD=1,VEC=1",
            "tiled/TILE=32,WG_Y=8,PAD=1,VEC=8",
            "tiled/TILE=64,WG_Y=8,PAD=0,VEC=8",
            "block/VEC=4@lx=1,ly=32",
            "block/VEC=8,USE_SHUFFLE=0@lx=1,ly=32",
            "block/VEC=8@lx=8,ly=1",
            "block/VEC=8@lx=1,ly=8",
            "block/VEC=8@lx=1,ly=16",
            "block/VEC=8@lx=1,ly=32",
            "block/VEC=8@lx=2,ly=16",
            "block/VEC=16@lx=4,ly=1",
            "block/VEC=16@lx=8,ly=1",
            "block/VEC=16@lx=1,ly=16",
            "block/VEC=8,DTYPE=double@lx=1,ly=16",
            "block/VEC=16,DTYPE=uchar,USE_SHUFFLE=0@lx=1,ly=8",
            "block/VEC=16,DTYPE=uchar@lx=1,ly=8",
            "block/VEC=16,DTYPE=uchar@lx=1,ly=32",
            "block/VEC=8,DTYPE=int@lx=1,ly=32"};
  }
  if (name == "gpu") {
    std::vector<std::string> list = {
        "naive@lx=32,ly=8",
        "tiled/TILE=32,WG_Y=8,PAD=0,VEC=1",
        "tiled/TILE=32,WG_Y=8,PAD=1,VEC=1",
        "tiled/TILE=32,WG_Y=32,PAD=1,VEC=1",
    };
    for (const char* t : {"TILE=32,WG_Y=4", "TILE=32,WG_Y=8", "TILE=32,WG_Y=16", "TILE=32,WG_Y=32",
                          "TILE=64,WG_Y=4", "TILE=64,WG_Y=8", "TILE=64,WG_Y=16"}) {
      for (const char* pad : {"PAD=0", "PAD=1"}) list.push_back(std::string("tiled/") + t + "," + pad + ",VEC=4");
    }
    list.push_back("tiled/TILE=64,WG_Y=8,PAD=2,VEC=4");
    list.push_back("tiled/TILE=32,WG_Y=8,PAD=1,VEC=2");
    list.push_back("tiled/TILE=64,WG_Y=16,PAD=1,VEC=2");
    for (const char* l : {"lx=4,ly=8", "lx=8,ly=4", "lx=8,ly=8", "lx=16,ly=4", "lx=16,ly=8", "lx=32,ly=4",
                          "lx=32,ly=8", "lx=16,ly=16", "lx=64,ly=4"}) {
      list.push_back(std::string("block/VEC=4@") + l);
    }
    list.push_back("block/VEC=4,USE_SHUFFLE=0@lx=8,ly=8");
    list.push_back("block/VEC=4,USE_SHUFFLE=0@lx=16,ly=8");
    list.push_back("block/VEC=2@lx=16,ly=8");
    list.push_back("block/VEC=8@lx=8,ly=8");
    // other element types at the same shape: 16-byte accesses where the kernel allows it
    for (const char* c : {"tiled/DTYPE=double,TILE=32,WG_Y=8,PAD=1,VEC=2", "tiled/DTYPE=double,TILE=32,WG_Y=16,PAD=1,VEC=2",
                          "block/DTYPE=double,VEC=2@lx=16,ly=8", "block/DTYPE=double,VEC=4@lx=8,ly=8",
                          "tiled/DTYPE=int,TILE=32,WG_Y=8,PAD=1,VEC=4", "block/DTYPE=int,VEC=4@lx=8,ly=8",
                          "naive/DTYPE=uchar@lx=32,ly=8", "tiled/DTYPE=uchar,TILE=64,WG_Y=8,PAD=0,VEC=16",
                          "tiled/DTYPE=uchar,TILE=64,WG_Y=16,PAD=4,VEC=16", "tiled/DTYPE=uchar,TILE=64,WG_Y=8,PAD=4,VEC=4",
                          "block/DTYPE=uchar,VEC=4@lx=16,ly=8", "block/DTYPE=uchar,VEC=8@lx=16,ly=8",
                          "block/DTYPE=uchar,VEC=16@lx=8,ly=8", "block/DTYPE=uchar,VEC=16@lx=16,ly=4",
                          "block/DTYPE=uchar,VEC=16@lx=4,ly=16",
                          "block/DTYPE=uchar,VEC=16,USE_SHUFFLE=0@lx=8,ly=8"}) {
      list.push_back(c);
    }
    return list;
  }
  throw std::runtime_error("unknown preset " + name);
}

DType config_dtype(const Config& c) {
  auto it = c.build.find("DTYPE");
  return it == c.build.end() ? DType::f32 : parse_dtype(it->second);
}

std::string options_of(const Config& c) {
  std::string result;
  if (c.build.find("DTYPE") == c.build.end()) result = "-DDTYPE=float";
  for (const auto& [name, v] : c.build) result += (result.empty() ? "-D" : " -D") + name + "=" + v;
  return result;
}

void set_args(cl::Kernel& k, const Shape& s, const cl::Buffer& in, const cl::Buffer& out) {
  k.setArg(0, s.rows);
  k.setArg(1, s.cols);
  k.setArg(2, in);
  k.setArg(3, static_cast<cl_ulong>(s.in_offset));
  k.setArg(4, s.ld_in());
  k.setArg(5, out);
  k.setArg(6, static_cast<cl_ulong>(s.out_offset));
  k.setArg(7, s.ld_out());
}

void fill_random(std::vector<std::uint8_t>& bytes, Random& rng) {
  for (std::size_t i = 0; i < bytes.size(); i += 8) {
    const std::uint64_t v = rng.next();
    std::memcpy(bytes.data() + i, &v, std::min<std::size_t>(8, bytes.size() - i));
  }
}

// Expected output: a copy of the poisoned output with the transposed region written (byte-wise per element).
void expected_output(const Shape& s, std::size_t elem, const std::vector<std::uint8_t>& in,
                     std::vector<std::uint8_t>& out) {
  for (int r = 0; r < s.rows; ++r) {
    for (int c = 0; c < s.cols; ++c) {
      const std::size_t src = (s.in_offset + std::size_t(r) * s.ld_in() + c) * elem;
      const std::size_t dst = (s.out_offset + std::size_t(c) * s.ld_out() + r) * elem;
      std::memcpy(out.data() + dst, in.data() + src, elem);
    }
  }
}

constexpr std::uint8_t kPoison = 0xA7;
constexpr std::uint32_t kPatternSeed = 0x5EED0000u;

// Sampled check of a transpose at the timing shape: `out` must hold the transpose of rotation input 0.
std::string check_big(const Env& env, int rows, int cols, std::size_t elem, const cl::Buffer& out, Random& rng) {
  static std::vector<std::uint8_t> got;  // reused: the timing shape is 1-2 GiB on a GPU
  got.resize(std::size_t(rows) * cols * elem);
  env.queue.enqueueReadBuffer(out, CL_TRUE, 0, got.size(), got.data());
  for (int k = 0; k < 200000; ++k) {
    const std::uint64_t r = rng.next() % rows, c = rng.next() % cols;
    for (std::size_t b = 0; b < elem; ++b) {
      if (got[(c * rows + r) * elem + b] != pattern_byte((r * cols + c) * elem + b, kPatternSeed)) {
        return "at " + std::to_string(rows) + "x" + std::to_string(cols) + ": out[" + std::to_string(c) + "][" +
               std::to_string(r) + "] is wrong";
      }
    }
  }
  return "";
}

// Runs `enqueue` on every check shape; returns an empty string or the first failure.
long g_check_max_elements = 1L << 40;  // --check-max: skip larger check shapes (for oclgrind)

std::string check(const Env& env, std::size_t elem, Random& rng,
                  const std::function<void(const Shape&, const cl::Buffer&, const cl::Buffer&)>& enqueue) {
  for (const Shape& s : kCheckShapes) {
    if (long(s.rows) * s.cols > g_check_max_elements) continue;
    std::vector<std::uint8_t> in(s.in_elements() * elem), out(s.out_elements() * elem + 64 * elem, kPoison);
    fill_random(in, rng);
    cl::Buffer din(env.context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, in.size(), in.data());
    cl::Buffer dout(env.context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, out.size(), out.data());
    enqueue(s, din, dout);
    std::vector<std::uint8_t> got(out.size());
    env.queue.enqueueReadBuffer(dout, CL_TRUE, 0, got.size(), got.data());
    expected_output(s, elem, in, out);
    if (got != out) {
      std::size_t first = 0;
      while (got[first] == out[first]) ++first;
      const long e = static_cast<long>(first / elem) - s.out_offset;
      const long out_row = e / s.ld_out(), out_col = e % s.ld_out();
      const bool inside = e >= 0 && out_row < s.cols && out_col < s.rows;
      char text[200];
      std::snprintf(text, sizeof text, "%dx%d ld %d/%d off %ld/%ld: first bad element out[%ld][%ld] (%s)", s.rows,
                    s.cols, s.ld_in(), s.ld_out(), s.in_offset, s.out_offset, e < 0 ? -1 : out_row,
                    e < 0 ? e : out_col, inside ? "inside" : "outside the result: written out of bounds");
      return text;
    }
  }
  return "";
}

struct Row {
  std::string kind, name, dtype, status, note;
  double median_s = 0, kernel_s = 0, gbps = 0, kernel_gbps = 0, pct_copy = 0, vs_peer = 0, compile_s = 0;
};

void print_row(const Row& r) {
  if (r.status != "ok") {
    std::printf("%-50s %-6s %s\n", r.name.c_str(), r.dtype.c_str(), r.status.c_str());
  } else if (r.median_s == 0) {
    std::printf("%-50s %-6s verified%s%s\n", r.name.c_str(), r.dtype.c_str(), r.note.empty() ? "" : "; ",
                r.note.c_str());
  } else {
    std::printf("%-50s %-6s %8.3f ms %7.1f GB/s %5.1f%% copy %5.2fx peer%s%s\n", r.name.c_str(), r.dtype.c_str(),
                r.median_s * 1e3, r.gbps, r.pct_copy, r.vs_peer, r.note.empty() ? "" : " ", r.note.c_str());
  }
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  std::string kernel_dir, json_path, preset_name;
  std::vector<std::string> config_texts;
  int rows = 0, cols = 0, reps = 0, warmup = 2;
  bool list_only = false, peers = true, verify = true, verify_only = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= argc) throw std::runtime_error("missing value after " + a);
      return argv[++i];
    };
    if (a == "--kernels") kernel_dir = next();
    else if (a == "--json") json_path = next();
    else if (a == "--preset") preset_name = next();
    else if (a == "--config") config_texts.push_back(next());
    else if (a == "--rows") rows = std::stoi(next());
    else if (a == "--cols") cols = std::stoi(next());
    else if (a == "--reps") reps = std::stoi(next());
    else if (a == "--warmup") warmup = std::stoi(next());
    else if (a == "--list") list_only = true;
    else if (a == "--no-peers") peers = false;
    else if (a == "--no-verify") verify = false;
    else if (a == "--verify-only") verify_only = true;
    else if (a == "--check-max") g_check_max_elements = std::stol(next());
    else {
      std::fprintf(stderr, "usage: %s --kernels DIR [--preset gpu|cpu|smoke] [--config TEXT]... [--rows R --cols C]\n"
                   "       [--reps N] [--warmup N] [--json PATH] [--list] [--no-peers] [--verify-only] [--no-verify]\n"
                   "       [--check-max ELEMENTS]\n", argv[0]);
      return 2;
    }
  }
  if (kernel_dir.empty() && !list_only) {
    std::fprintf(stderr, "--kernels DIR is required\n");
    return 2;
  }
  if (list_only) {  // print the configurations of a preset (no device needed)
    if (preset_name.empty()) preset_name = "gpu";
    const auto list = preset(preset_name);
    for (const auto& t : list) std::printf("%s\n", t.c_str());
    std::printf("%zu configurations\n", list.size());
    return 0;
  }
  const auto start = std::chrono::steady_clock::now();
  Env env = open_device();
  print_device(env);
  if (preset_name.empty() && config_texts.empty()) preset_name = env.is_cpu ? "cpu" : "gpu";
  if (!preset_name.empty()) {
    for (auto& t : preset(preset_name)) config_texts.push_back(t);
  }
  if (rows == 0) rows = env.is_cpu ? 2048 : 16384;
  if (cols == 0) cols = rows;
  if (reps == 0) reps = env.is_cpu ? 7 : 15;
  const std::uint64_t seed = seed_from_env();
  Random rng(seed);
  const std::string source = family_source(kernel_dir, "transpose");
  Timer timer(env);
  std::printf("transpose %d x %d (ld = extent), seed %llu, %d reps (median), warm-up %d, launch gap %.1f us\n",
              rows, cols, static_cast<unsigned long long>(seed), reps, warmup, timer.idle_seconds() * 1e6);

  std::vector<Row> rows_out;
  std::vector<JsonRecord> json_rows;
  auto record = [&](const Row& r) {
    rows_out.push_back(r);
    print_row(r);
    json_rows.push_back(JsonRecord()
                            .add("kind", r.kind)
                            .add("name", r.name)
                            .add("dtype", r.dtype)
                            .add("rows", rows)
                            .add("cols", cols)
                            .add("status", r.status)
                            .add("note", r.note)
                            .add("median_s", r.median_s)
                            .add("kernel_s", r.kernel_s)
                            .add("gbps", r.gbps)
                            .add("kernel_gbps", r.kernel_gbps)
                            .add("pct_copy", r.pct_copy)
                            .add("vs_peer", r.vs_peer)
                            .add("compile_s", r.compile_s));
  };

  // Device limit: clEnqueueCopyBuffer, read + write bytes, at least 256 MiB.
  const std::size_t f32_bytes = std::size_t(rows) * cols * 4;
  const std::size_t copy_bytes = std::max<std::size_t>(f32_bytes, std::size_t(256) << 20);
  const Timing copy = verify_only ? Timing{} : copy_timing(env, timer, copy_bytes, warmup, reps);
  const double copy_gbps = verify_only ? 0 : 2.0 * copy_bytes / copy.median_s * 1e-9;
  {
    Row r{"copy", "clEnqueueCopyBuffer " + std::to_string(copy_bytes >> 20) + " MiB", "-", "ok", ""};
    r.median_s = copy.median_s;
    r.gbps = copy_gbps;
    r.pct_copy = 100;
    if (!verify_only) record(r);
  }

  // Timing buffers per element type, created on first use; rotated beyond the last-level cache.
  struct Buffers {
    std::vector<cl::Buffer> in, out;
  };
  std::map<DType, Buffers> buffers;
  auto buffers_for = [&](DType t) -> Buffers& {
    auto it = buffers.find(t);
    if (it != buffers.end()) return it->second;
    buffers.clear();  // one type at a time keeps the footprint at a few GiB on the GPU
    const std::size_t bytes = std::size_t(rows) * cols * size_of(t);
    const int rotation = rotation_count(env.device, 2 * bytes);
    Buffers b;
    for (int i = 0; i < rotation; ++i) {
      b.in.emplace_back(env.context, CL_MEM_READ_WRITE, bytes);
      b.out.emplace_back(env.context, CL_MEM_READ_WRITE, bytes);
      fill_pattern(env, b.in.back(), bytes, kPatternSeed + i);
      env.queue.enqueueFillBuffer(b.out.back(), static_cast<std::uint32_t>(0), 0, bytes);
    }
    env.queue.finish();
    return buffers.emplace(t, std::move(b)).first->second;
  };
  const Shape big{rows, cols, 0, 0, 0, 0};
  auto gbps_of = [&](DType t, double s) { return s > 0 ? 2.0 * rows * double(cols) * size_of(t) / s * 1e-9 : 0; };

  // Peer: CLBlast omatcopy (float, double), checked on the ragged shapes first.
  std::map<DType, double> peer_gbps;
#ifdef MEMOPS_HAVE_CLBLAST
  if (peers) {
    std::vector<DType> types;
    for (const auto& t : config_texts) {
      const DType d = config_dtype(parse_config(t));
      if ((d == DType::f32 || d == DType::f64) && std::find(types.begin(), types.end(), d) == types.end())
        types.push_back(d);
    }
    for (DType t : types) {
      auto run = [&](const Shape& s, const cl::Buffer& in, const cl::Buffer& out, cl_event* event) {
        cl_command_queue q = env.queue();
        const CLBlastStatusCode status =
            t == DType::f32 ? CLBlastSomatcopy(CLBlastLayoutRowMajor, CLBlastTransposeYes, s.rows, s.cols, 1.0f,
                                               in(), s.in_offset, s.ld_in(), out(), s.out_offset, s.ld_out(), &q, event)
                            : CLBlastDomatcopy(CLBlastLayoutRowMajor, CLBlastTransposeYes, s.rows, s.cols, 1.0,
                                               in(), s.in_offset, s.ld_in(), out(), s.out_offset, s.ld_out(), &q, event);
        if (status != CLBlastSuccess) throw std::runtime_error("CLBlast omatcopy status " + std::to_string(status));
      };
      Row r{"peer", "CLBlast omatcopy", cl_name(t), "ok", ""};
      try {
        if (verify) {
          const std::string bad = check(env, size_of(t), rng, [&](const Shape& s, const cl::Buffer& in, const cl::Buffer& out) {
            cl_event e = nullptr;
            run(s, in, out, &e);
            if (e) clReleaseEvent(e);
          });
          if (!bad.empty()) r.note = "WRONG at " + bad;
        }
        if (!verify_only) {
          Buffers& b = buffers_for(t);
          const Timing tm = timer.time(
              [&](int rep, std::vector<cl::Event>&) {
                cl_event e = nullptr;
                run(big, b.in[rep % b.in.size()], b.out[rep % b.in.size()], &e);
                if (e) clReleaseEvent(e);
              },
              warmup, reps);
          r.median_s = tm.median_s;
          r.gbps = gbps_of(t, tm.median_s);
          r.pct_copy = 100 * r.gbps / copy_gbps;
          r.vs_peer = 1;
          if (verify) {
            cl_event e = nullptr;
            run(big, b.in[0], b.out[0], &e);
            if (e) clReleaseEvent(e);
            const std::string bad = check_big(env, rows, cols, size_of(t), b.out[0], rng);
            if (!bad.empty()) r.note += (r.note.empty() ? "WRONG " : "; WRONG ") + bad;
          }
          peer_gbps[t] = r.gbps;
        }
      } catch (const std::exception& e) {
        r.status = std::string("ERROR ") + e.what();
      }
      record(r);
    }
  }
#endif

  // Our configurations.
  int failures = 0;
  for (const std::string& text : config_texts) {
    const Config config = parse_config(text);
    const DType t = config_dtype(config);
    Row r{"ours", text, cl_name(t), "ok", ""};
    try {
      const auto compile_start = std::chrono::steady_clock::now();
      cl::Program program = build_program(env, source, options_of(config) + " -cl-std=CL1.2");
      cl::Kernel kernel(program, ("transpose_" + config.variant).c_str());
      r.compile_s = seconds_since(compile_start);
      const Geometry probe = geometry(config, rows, cols);
      if (probe.local.dimensions() == 2) {
        const std::size_t wg = probe.local[0] * probe.local[1];
        const std::size_t limit = kernel.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(env.device);
        if (wg > limit) throw std::runtime_error("work-group " + std::to_string(wg) + " > kernel limit " + std::to_string(limit));
      }
      auto launch = [&](const Shape& s, const cl::Buffer& in, const cl::Buffer& out, cl::Event* event) {
        set_args(kernel, s, in, out);
        const Geometry g = geometry(config, s.rows, s.cols);
        env.queue.enqueueNDRangeKernel(kernel, cl::NullRange, g.global, g.local, nullptr, event);
      };
      if (verify) {
        const std::string bad = check(env, size_of(t), rng, [&](const Shape& s, const cl::Buffer& in, const cl::Buffer& out) {
          launch(s, in, out, nullptr);
        });
        if (!bad.empty()) throw std::runtime_error("WRONG " + bad);
      }
      if (!verify_only) {
        Buffers& b = buffers_for(t);
        const Timing tm = timer.time(
            [&](int rep, std::vector<cl::Event>& events) {
              events.emplace_back();
              launch(big, b.in[rep % b.in.size()], b.out[rep % b.in.size()], &events.back());
            },
            warmup, reps);
        r.median_s = tm.median_s;
        r.kernel_s = tm.kernel_median_s;
        r.gbps = gbps_of(t, tm.median_s);
        r.kernel_gbps = gbps_of(t, tm.kernel_median_s);
        r.pct_copy = 100 * r.gbps / copy_gbps;
        auto p = peer_gbps.find(t);
        r.vs_peer = p != peer_gbps.end() ? r.gbps / p->second : 0;
        if (verify) {
          launch(big, b.in[0], b.out[0], nullptr);
          const std::string bad = check_big(env, rows, cols, size_of(t), b.out[0], rng);
          if (!bad.empty()) throw std::runtime_error("WRONG " + bad);
        }
      }
    } catch (const cl::Error& e) {
      r.status = std::string("ERROR ") + e.what() + " " + std::to_string(e.err());
    } catch (const std::exception& e) {
      r.status = std::string("ERROR ") + e.what();
    }
    if (r.status != "ok") ++failures;
    record(r);
  }

  // Compact summary: the limit, the peers, the best configuration per (variant, type), the overall best.
  std::printf("\n== transpose summary: %s, %d x %d, copy %.1f GB/s, %d failures, %.1f s ==\n", env.device_name.c_str(),
              rows, cols, copy_gbps, failures, seconds_since(start));
  std::map<std::string, const Row*> best;
  for (const Row& r : rows_out) {
    if (r.kind != "ours" || r.status != "ok") continue;
    const std::string key = r.dtype + " " + parse_config(r.name).variant;
    if (!best.count(key) || best[key]->gbps < r.gbps) best[key] = &r;
  }
  for (const Row& r : rows_out) {
    if (r.kind != "ours") print_row(r);
  }
  std::printf("-- best per type and variant:\n");
  for (const auto& [key, r] : best) print_row(*r);
  std::vector<const Row*> top;
  for (const Row& r : rows_out) {
    if (r.kind == "ours" && r.status == "ok" && r.dtype == "float") top.push_back(&r);
  }
  std::sort(top.begin(), top.end(), [](const Row* a, const Row* b) { return a->gbps > b->gbps; });
  std::printf("-- top float configurations:\n");
  for (std::size_t i = 0; i < std::min<std::size_t>(top.size(), 6); ++i) print_row(*top[i]);
  for (const Row& r : rows_out) {
    if (r.status != "ok") print_row(r);
  }

  JsonRecord header;
  header.add("family", "transpose").add("device", env.device_name).add("platform", env.platform_name)
      .add("driver", env.device.getInfo<CL_DRIVER_VERSION>()).add("date", now_text()).add("seed", static_cast<long>(seed))
      .add("rows", rows).add("cols", cols).add("reps", reps).add("copy_gbps", copy_gbps)
      .add("launch_gap_s", timer.idle_seconds())
      .add("wall_s", seconds_since(start));
  write_json(json_path, header, json_rows);
  return failures ? 1 : 0;
}
