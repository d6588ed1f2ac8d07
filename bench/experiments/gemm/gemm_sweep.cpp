// gemm_sweep: correctness and speed of the kernels in kernels/gemm.cl, with CLBlast as the peer.
//
// It plays the part of the future op module (src/ops/gemm.cpp): it maps ColMajor to RowMajor, picks the
// orientation of the skinny kernels, packs operands that miss the vector-load preconditions into a reused
// workspace, splits K when asked, and derives global/local sizes from each configuration. See
// docs/notes/gemm.md for the rules it implements and the command lines.
//
// Usage: gemm_sweep [options]
//   --kernels DIR      directory with common.clh and gemm.cl (default: the source tree's kernels/)
//   --plan FILE        sweep plan (see plans/*.txt); without it, --config/--shapes give a single sweep
//   --config "VARIANT KEY=VALUE ..."   add a configuration (repeatable)
//   --shapes "MxNxK[:TT][:col] ..."    shapes to time for --config entries
//   --test             broad correctness suite over all variants (layouts, transposes, alpha/beta, offsets,
//                      leading dimensions, odd shapes); exit status 1 on any failure
//   --tiny             the correctness suite at tiny sizes only (for oclgrind)
//   --dtype float|double   (default float)
//   --json FILE        write every result as JSON
//   --reps N --warmup N   timed runs (median) and warm-up runs per measurement (default 5, 1); shapes with
//                      fewer than 64 flops per operand element rotate over copies of A and B that add up to
//                      3x the device's global-memory cache, so no call finds its inputs in cache
//   --jobs N           programs built in parallel before the sweep (default 4)
//   --no-peer          skip CLBlast
//   --filter TEXT      only configurations whose text contains TEXT
//   --seed N
//   --verbose          print each correctness check before it runs
//   --peak-gflops X    the device's arithmetic peak, for the % of peak column (e.g. 66900 for an H200, FP32)
//   --time-limit S     stop starting measurements after S seconds (the summary and JSON still come out)
//   --dry-run          only check the plan's configurations against the device limits (or the ones given
//                      with --assume-local BYTES --assume-wg N) and list the programs it would build
// Device: TILECL_PLATFORM / TILECL_DEVICE (index or case-insensitive name substring; default first).
// TILECL_SHOW_KERNELS=1 prints every build's options, time and log.
#include <CL/opencl.hpp>
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <memory>
#include <mutex>
#include <numeric>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "gemm_reference.hpp"

#ifdef TILECL_HAVE_CLBLAST
#include <clblast_c.h>
#endif

namespace ref = tilecl::reference;
using Clock = std::chrono::steady_clock;

namespace {

// ---------------------------------------------------------------------------------------------------------
// Small utilities

std::string lower(std::string s) {
  for (auto& ch : s) ch = char(std::tolower((unsigned char)ch));
  return s;
}

std::vector<std::string> split_words(const std::string& text) {
  std::istringstream in(text);
  std::vector<std::string> out;
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string json_escape(const std::string& s) {
  std::string out;
  for (char ch : s) {
    if (ch == '"' || ch == '\\') {
      out += '\\';
      out += ch;
    } else if (ch == '\n') {
      out += "\\n";
    } else if ((unsigned char)ch < 0x20) {
      out += ' ';
    } else {
      out += ch;
    }
  }
  return out;
}

std::size_t round_up(std::size_t x, std::size_t m) { return (x + m - 1) / m * m; }
std::size_t ceil_div(std::size_t x, std::size_t m) { return (x + m - 1) / m; }

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// Fast deterministic random numbers (splitmix64) in [-1, 1).
struct Random {
  std::uint64_t state;
  explicit Random(std::uint64_t seed) : state(seed) {}
  std::uint64_t next() {
    std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  double uniform() { return double(next() >> 11) * (2.0 / 9007199254740992.0) - 1.0; }
};

// ---------------------------------------------------------------------------------------------------------
// Device selection

struct DeviceContext {
  cl::Platform platform;
  cl::Device device;
  cl::Context context;
  cl::CommandQueue queue;
  std::string name, platform_name, driver;
  bool fp64 = false;
  std::size_t local_mem = 0, max_wg = 0;
  bool is_cpu = false;
};

template <typename T>
T pick(const std::vector<T>& items, const char* env, const std::function<std::string(const T&)>& name_of) {
  const char* want = std::getenv(env);
  if (!want || !*want) return items.at(0);
  const std::string w = want;
  if (std::all_of(w.begin(), w.end(), ::isdigit)) return items.at(std::stoul(w));
  for (const auto& it : items)
    if (lower(name_of(it)).find(lower(w)) != std::string::npos) return it;
  throw std::runtime_error(std::string(env) + "=" + w + " matches nothing");
}

DeviceContext open_device() {
  DeviceContext d;
  std::vector<cl::Platform> platforms;
  cl::Platform::get(&platforms);
  if (platforms.empty()) throw std::runtime_error("no OpenCL platform");
  d.platform = pick<cl::Platform>(platforms, "TILECL_PLATFORM",
                                  [](const cl::Platform& p) { return p.getInfo<CL_PLATFORM_NAME>(); });
  std::vector<cl::Device> devices;
  d.platform.getDevices(CL_DEVICE_TYPE_ALL, &devices);
  d.device =
      pick<cl::Device>(devices, "TILECL_DEVICE", [](const cl::Device& x) { return x.getInfo<CL_DEVICE_NAME>(); });
  d.context = cl::Context(d.device);
  d.queue = cl::CommandQueue(d.context, d.device, CL_QUEUE_PROFILING_ENABLE);
  d.name = d.device.getInfo<CL_DEVICE_NAME>();
  d.platform_name = d.platform.getInfo<CL_PLATFORM_NAME>();
  d.driver = d.device.getInfo<CL_DRIVER_VERSION>();
  d.fp64 = d.device.getInfo<CL_DEVICE_EXTENSIONS>().find("cl_khr_fp64") != std::string::npos;
  d.local_mem = d.device.getInfo<CL_DEVICE_LOCAL_MEM_SIZE>();
  d.max_wg = d.device.getInfo<CL_DEVICE_MAX_WORK_GROUP_SIZE>();
  d.is_cpu = d.device.getInfo<CL_DEVICE_TYPE>() & CL_DEVICE_TYPE_CPU;
  return d;
}

// ---------------------------------------------------------------------------------------------------------
// Configurations: a variant plus KEY=VALUE parameters. Build parameters become -D options; launch-only
// parameters (below) only change the host's geometry or plan.

const std::set<std::string> kLaunchOnly = {"SPLIT", "LOCAL_X", "LOCAL_Y", "SOLVE_T"};

// Per-variant defaults; everything a variant uses is passed explicitly so the .cl defaults never matter.
const std::map<std::string, std::map<std::string, int>> kVariantDefaults = {
    {"naive", {{"LOCAL_X", 16}, {"LOCAL_Y", 16}}},
    {"tiled", {{"TILE", 16}, {"PAD", 1}}},
    {"regblock",
     {{"TILE_M", 64},
      {"TILE_N", 64},
      {"TILE_K", 16},
      {"WPT_M", 4},
      {"WPT_N", 4},
      {"VEC", 4},
      {"PAD", 0},
      {"USE_DOUBLE_BUFFER", 0},
      {"USE_PREFETCH", 1},
      {"WARP_N", 0},
      {"SPLIT", 1}}},
    {"cpu", {{"WPT_M", 4}, {"WPT_N", 16}, {"VEC", 8}, {"USE_PACKED_B", 0}, {"LOCAL_X", 8}, {"LOCAL_Y", 1}}},
    {"skinny_m", {{"WPT_M", 1}, {"VEC", 4}, {"WG_X", 32}, {"WG_Y", 8}, {"SPLIT", 1}}},
    {"skinny_n", {{"WPT_M", 1}, {"WPT_N", 1}, {"VEC", 4}, {"WG_X", 32}, {"WG_Y", 8}, {"SPLIT", 1}}},
};

struct Config {
  std::string variant;
  std::map<std::string, int> params;
  std::string text;  // as written by the user (short)

  int get(const std::string& key, int fallback = 0) const {
    auto it = params.find(key);
    return it == params.end() ? fallback : it->second;
  }
  std::string kernel_name() const { return "gemm_" + variant; }
};

Config parse_config(const std::string& text) {
  const auto words = split_words(text);
  if (words.empty()) throw std::runtime_error("empty configuration");
  Config c;
  c.variant = words[0];
  auto defaults = kVariantDefaults.find(c.variant);
  if (defaults == kVariantDefaults.end()) throw std::runtime_error("unknown variant " + c.variant);
  c.params = defaults->second;
  c.text = c.variant;
  for (std::size_t i = 1; i < words.size(); ++i) {
    const auto eq = words[i].find('=');
    if (eq == std::string::npos) throw std::runtime_error("bad parameter " + words[i]);
    c.params[words[i].substr(0, eq)] = std::stoi(words[i].substr(eq + 1));
    c.text += " " + words[i];
  }
  return c;
}

// Host-side constraints of the configuration (the search space's constraints). Empty = valid.
std::string check_config(const Config& c, const DeviceContext& d, std::size_t elem) {
  auto pow2 = [](int v) { return v > 0 && (v & (v - 1)) == 0; };
  const int vec = c.get("VEC", 1);
  if (c.params.count("VEC") && (!pow2(vec) || vec > 16)) return "VEC not in 1,2,4,8,16";
  if (c.variant == "tiled") {
    const int t = c.get("TILE");
    if (std::size_t(t * t) > d.max_wg) return "TILE^2 > max work-group";
    if (2 * t * (t + c.get("PAD")) * elem > d.local_mem) return "local memory";
  } else if (c.variant == "regblock") {
    const int tm = c.get("TILE_M"), tn = c.get("TILE_N"), tk = c.get("TILE_K");
    const int wm = c.get("WPT_M"), wn = c.get("WPT_N");
    if (tm % wm || tn % wn) return "TILE_M % WPT_M or TILE_N % WPT_N";
    if (wm % vec || wn % vec || tk % vec) return "WPT_M, WPT_N, TILE_K must be multiples of VEC";
    const int threads = (tm / wm) * (tn / wn);
    if (std::size_t(threads) > d.max_wg) return "work-group too large";
    if ((tm * tk) % (vec * threads) || (tn * tk) % (vec * threads)) return "tile loads do not divide";
    const int pad = (c.get("PAD") + vec - 1) / vec * vec;
    const std::size_t local = std::size_t(1 + c.get("USE_DOUBLE_BUFFER")) * tk * (tm + tn + 2 * pad) * elem;
    if (local > d.local_mem) return "local memory";
    if (const int w = c.get("WARP_N"); w) {
      if (32 % w || (tn / wn) % w || (tm / wm) % (32 / w) || threads % 32) return "WARP_N does not fit the work-group";
    }
  } else if (c.variant == "cpu") {
    if (c.get("WPT_N") % vec) return "WPT_N % VEC";
  } else if (c.variant == "skinny_m" || c.variant == "skinny_n") {
    if (std::size_t(c.get("WG_X") * c.get("WG_Y")) > d.max_wg) return "work-group too large";
  }
  if (c.get("SPLIT", 1) < 1) return "SPLIT < 1";
  return "";
}

// ---------------------------------------------------------------------------------------------------------
// Programs: common.clh + gemm.cl, one program per sorted option string.

struct ProgramCache {
  const DeviceContext* dev = nullptr;
  std::string source;
  std::mutex mutex;
  std::map<std::string, std::shared_ptr<cl::Program>> programs;
  std::map<std::string, std::string> failures;  // options -> log
  std::map<std::string, double> build_seconds;
  std::function<bool()> stop_building = [] { return false; };  // past the build deadline: build nothing new

  static std::string options(const Config& c, const std::string& dtype, int ta, int tb, int tc) {
    std::map<std::string, int> defs;
    for (const auto& [k, v] : c.params)
      if (!kLaunchOnly.count(k)) defs[k] = v;
    defs["TRANS_A"] = ta;
    defs["TRANS_B"] = tb;
    defs["TRANS_C"] = tc;
    std::string o = "-DDTYPE=" + dtype;
    for (const auto& [k, v] : defs) o += " -D" + k + "=" + std::to_string(v);
    // Only the kernel this configuration launches (plus the small helpers): faster builds.
    std::string variant = c.variant;
    for (auto& ch : variant) ch = char(std::toupper((unsigned char)ch));
    o += " -DGEMM_VARIANT=GEMM_" + variant;
    return o;
  }

  // Returns null and records the log when the build fails.
  std::shared_ptr<cl::Program> get(const std::string& opts) {
    {
      std::lock_guard<std::mutex> lock(mutex);
      auto it = programs.find(opts);
      if (it != programs.end()) return it->second;
      if (failures.count(opts)) return nullptr;
      if (stop_building()) {
        failures[opts] = "not built: time limit";
        return nullptr;
      }
    }
    const auto t0 = Clock::now();
    auto program = std::make_shared<cl::Program>(dev->context, source);
    std::string log;
    bool ok = true;
    try {
      program->build({dev->device}, opts.c_str());
    } catch (const cl::Error&) {
      ok = false;
      log = program->getBuildInfo<CL_PROGRAM_BUILD_LOG>(dev->device);
    }
    const double seconds = std::chrono::duration<double>(Clock::now() - t0).count();
    std::lock_guard<std::mutex> lock(mutex);
    if (const char* show = std::getenv("TILECL_SHOW_KERNELS"); show && *show == '1') {
      if (ok) log = program->getBuildInfo<CL_PROGRAM_BUILD_LOG>(dev->device);
      std::fprintf(stderr, "# build %s (%.2f s): %s\n%s\n", ok ? "ok" : "FAILED", seconds, opts.c_str(), log.c_str());
    }
    build_seconds[opts] = seconds;
    if (!ok) {
      failures[opts] = log;
      return nullptr;
    }
    programs[opts] = program;
    return program;
  }

  void prebuild(const std::vector<std::string>& all, int jobs) {
    std::vector<std::string> todo;
    for (const auto& o : all)
      if (!programs.count(o) && !failures.count(o) && std::find(todo.begin(), todo.end(), o) == todo.end())
        todo.push_back(o);
    std::atomic<std::size_t> next{0};
    std::vector<std::thread> threads;
    for (int j = 0; j < std::max(1, jobs); ++j)
      threads.emplace_back([&] {
        for (std::size_t i; (i = next++) < todo.size();) get(todo[i]);
      });
    for (auto& t : threads) t.join();
  }
};

// ---------------------------------------------------------------------------------------------------------
// Problems

struct Problem {
  ref::Layout layout = ref::Layout::RowMajor;
  bool ta = false, tb = false;
  std::size_t m = 0, n = 0, k = 0;
  double alpha = 1, beta = 0;
  std::size_t a_off = 0, b_off = 0, c_off = 0;
  std::size_t lda = 0, ldb = 0, ldc = 0;  // 0: minimal

  ref::Extent a_extent() const { return ref::stored_extent(ta ? ref::Transpose::Yes : ref::Transpose::No, m, k); }
  ref::Extent b_extent() const { return ref::stored_extent(tb ? ref::Transpose::Yes : ref::Transpose::No, k, n); }
  ref::Extent c_extent() const { return {m, n}; }
  void fill_lds() {
    if (!lda) lda = ref::min_ld(layout, a_extent());
    if (!ldb) ldb = ref::min_ld(layout, b_extent());
    if (!ldc) ldc = ref::min_ld(layout, c_extent());
  }
  std::string name() const {
    std::string s = std::to_string(m) + "x" + std::to_string(n) + "x" + std::to_string(k);
    if (ta || tb) s += std::string(":") + (ta ? "T" : "N") + (tb ? "T" : "N");
    if (layout == ref::Layout::ColMajor) s += ":col";
    return s;
  }
  double flops() const { return 2.0 * double(m) * double(n) * double(k); }
};

Problem parse_shape(const std::string& text) {
  Problem p;
  std::string dims = text, rest;
  const auto colon = text.find(':');
  if (colon != std::string::npos) {
    dims = text.substr(0, colon);
    rest = text.substr(colon);
  }
  if (std::sscanf(dims.c_str(), "%zux%zux%zu", &p.m, &p.n, &p.k) != 3) throw std::runtime_error("bad shape " + text);
  std::istringstream in(rest);
  for (std::string part; std::getline(in, part, ':');) {
    if (part.empty()) continue;
    if (part == "col") {
      p.layout = ref::Layout::ColMajor;
    } else if (part.size() == 2 && (part[0] == 'N' || part[0] == 'T') && (part[1] == 'N' || part[1] == 'T')) {
      p.ta = part[0] == 'T';
      p.tb = part[1] == 'T';
    } else {
      throw std::runtime_error("bad shape suffix " + part);
    }
  }
  p.fill_lds();
  return p;
}

// ---------------------------------------------------------------------------------------------------------
// The op logic: a problem on cl::Buffers -> a sequence of kernel launches.

struct Operand {
  cl::Buffer buffer;
  std::size_t offset = 0, ld = 0;
};

// Row-major problem as the kernels see it.
struct KernelProblem {
  std::size_t m, n, k;
  int ta, tb, tc;
  Operand a, b, c;
};

// The vector-load direction of each operand for a kernel: 'k', 'm', 'n' or 0 (no vector loads).
void vector_dims(const std::string& variant, int ta, int tb, char* a_dim, char* b_dim) {
  *a_dim = *b_dim = 0;
  if (variant == "regblock") {
    *a_dim = ta ? 'm' : 'k';
    *b_dim = tb ? 'k' : 'n';
  } else if (variant == "skinny_m") {
    *b_dim = tb ? 0 : 'n';
  } else if (variant == "skinny_n") {
    *a_dim = ta ? 0 : 'k';
    *b_dim = tb ? 'k' : 0;
  }
}

template <typename T>
struct Runner {
  DeviceContext* dev;
  ProgramCache* programs;
  std::string dtype;
  cl::Buffer workspace;
  std::size_t workspace_elems = 0;
  std::map<std::string, cl::Kernel> kernels;  // options + name -> kernel (single thread)

  Runner(DeviceContext* d, ProgramCache* p, std::string type) : dev(d), programs(p), dtype(std::move(type)) {}

  cl::Kernel kernel(const std::string& opts, const std::string& name) {
    const std::string key = opts + "|" + name;
    auto it = kernels.find(key);
    if (it != kernels.end()) return it->second;
    auto program = programs->get(opts);
    if (!program) throw std::runtime_error("build failed: " + opts);
    cl::Kernel k(*program, name.c_str());
    kernels[key] = k;
    return k;
  }

  void ensure_workspace(std::size_t elems) {
    if (elems <= workspace_elems) return;
    workspace = cl::Buffer(dev->context, CL_MEM_READ_WRITE, std::max<std::size_t>(elems, 1) * sizeof(T));
    workspace_elems = elems;
  }

  // Map the BLAS call to the row-major problem the kernels see.
  static KernelProblem to_kernel_problem(const Config& cfg, const Problem& p, const Operand& a, const Operand& b,
                                         const Operand& c) {
    KernelProblem kp;
    if (p.layout == ref::Layout::RowMajor) {
      kp = {p.m, p.n, p.k, p.ta, p.tb, 0, a, b, c};
    } else {  // C^T = op(B)^T op(A)^T, all row-major
      kp = {p.n, p.m, p.k, p.tb, p.ta, 0, b, a, c};
    }
    // Orientation: solve the transposed problem C^T = op(B)^T op(A)^T into C with TRANS_C = 1.
    bool transposed = cfg.get("SOLVE_T", 0) != 0;
    if (!cfg.params.count("SOLVE_T")) {
      if (cfg.variant == "skinny_m") {  // wants small M, then B along N (TRANS_B = 0)
        transposed = kp.n < kp.m || (kp.n == kp.m && kp.tb && !kp.ta);
      } else if (cfg.variant == "skinny_n") {  // wants small N, then A along K (TRANS_A = 0)
        transposed = kp.m < kp.n || (kp.n == kp.m && kp.ta && !kp.tb);
      }
    }
    if (transposed) kp = {kp.n, kp.m, kp.k, !kp.tb, !kp.ta, 1, kp.b, kp.a, kp.c};
    return kp;
  }

  std::string options_for(const Config& cfg, const KernelProblem& kp) const {
    return ProgramCache::options(cfg, dtype, kp.ta, kp.tb, kp.tc);
  }

  // The program options this config needs for a problem (for parallel prebuilds).
  std::string options_for(const Config& cfg, const Problem& p) const {
    Operand none;
    return options_for(cfg, to_kernel_problem(cfg, p, none, none, none));
  }

  static void launch(cl::CommandQueue& q, cl::Kernel& k, cl::NDRange global, cl::NDRange local,
                     std::vector<cl::Event>* events) {
    cl::Event e;
    q.enqueueNDRangeKernel(k, cl::NullRange, global, local, nullptr, &e);
    if (events) events->push_back(e);
  }

  // Enqueue one GEMM; events of every launch are appended. Zero-sized problems enqueue nothing.
  void enqueue(const Config& cfg, const Problem& p, const Operand& a_in, const Operand& b_in, const Operand& c_in,
               std::vector<cl::Event>* events) {
    if (p.m == 0 || p.n == 0) return;
    KernelProblem kp = to_kernel_problem(cfg, p, a_in, b_in, c_in);
    std::size_t K = p.alpha == 0 ? 0 : kp.k;  // alpha == 0: A and B are not read
    const std::string opts = options_for(cfg, kp);
    auto& q = dev->queue;
    const std::string& v = cfg.variant;
    const int vec = cfg.get("VEC", 1);

    // Vector-load preconditions; pack what misses them.
    char a_dim, b_dim;
    vector_dims(v, kp.ta, kp.tb, &a_dim, &b_dim);
    auto extent = [&](char dim) { return dim == 'm' ? kp.m : dim == 'n' ? kp.n : K; };
    auto misses = [&](const Operand& o, char dim) {
      return dim && (o.ld % vec || o.offset % vec || extent(dim) % vec);
    };
    bool pack_a = K > 0 && misses(kp.a, a_dim), pack_b = K > 0 && misses(kp.b, b_dim);
    std::size_t K_run = K;
    if (K % vec && (a_dim == 'k' || b_dim == 'k') && (pack_a || pack_b)) {
      pack_a = pack_b = true;  // K is padded with zeros in both operands
      K_run = round_up(K, vec);
    }
    // Workspace layout: [packed A][packed B][K-slice partials], each section 64-element aligned.
    auto stored = [](std::size_t rows_op, std::size_t cols_op, int trans) {
      return trans ? std::pair{cols_op, rows_op} : std::pair{rows_op, cols_op};
    };
    const auto [a_rows, a_cols] = stored(kp.m, K, kp.ta);
    const auto [b_rows, b_cols] = stored(K, kp.n, kp.tb);
    const std::size_t a_rows_p = round_up(a_rows, vec), a_cols_p = round_up(a_cols, vec);
    const std::size_t b_rows_p = round_up(b_rows, vec), b_cols_p = round_up(b_cols, vec);
    std::size_t ws = 0;
    const std::size_t a_ws = ws;
    if (pack_a) ws += round_up(a_rows_p * a_cols_p, 64);
    const std::size_t b_ws = ws;
    if (pack_b) ws += round_up(b_rows_p * b_cols_p, 64);

    // K slices.
    int slices = 1;
    std::size_t k_slice = std::max<std::size_t>(K_run, 1);
    const int split = cfg.get("SPLIT", 1);
    if (split > 1 && K_run > 0) {
      const std::size_t granule = v == "regblock" ? std::size_t(cfg.get("TILE_K")) : std::size_t(vec);
      k_slice = round_up(ceil_div(K_run, split), granule);
      slices = int(ceil_div(K_run, k_slice));
    }
    const std::size_t c_rows = kp.tc ? kp.n : kp.m, c_cols = kp.tc ? kp.m : kp.n;  // stored extents of C
    const std::size_t w_ld = round_up(c_cols, vec), w_stride = round_up(c_rows * w_ld, 64);
    const std::size_t w_ws = ws;
    if (slices > 1) ws += slices * w_stride;
    // gemm_cpu with USE_PACKED_B: op(B) in k-major panels of WPT_N columns.
    const bool panels = v == "cpu" && cfg.get("USE_PACKED_B") && K > 0;
    const std::size_t panel = cfg.get("WPT_N", 1), panel_stride = round_up(K * panel, 64);
    const std::size_t p_ws = ws;
    if (panels) ws += ceil_div(kp.n, panel) * panel_stride;
    ensure_workspace(ws);

    Operand a = kp.a, b = kp.b, c = kp.c;
    auto pack = [&](const Operand& src, std::size_t rows, std::size_t cols, std::size_t rows_p, std::size_t cols_p,
                    std::size_t at) {
      cl::Kernel k = kernel(opts, "gemm_pack");
      int i = 0;
      k.setArg(i++, cl_int(rows));
      k.setArg(i++, cl_int(cols));
      k.setArg(i++, src.buffer);
      k.setArg(i++, cl_ulong(src.offset));
      k.setArg(i++, cl_int(src.ld));
      k.setArg(i++, cl_int(0));
      k.setArg(i++, cl_int(rows_p));
      k.setArg(i++, cl_int(cols_p));
      k.setArg(i++, workspace);
      k.setArg(i++, cl_ulong(at));
      k.setArg(i++, cl_int(cols_p));
      launch(q, k, cl::NDRange(round_up(cols_p, 16), round_up(rows_p, 16)), cl::NDRange(16, 16), events);
      return Operand{workspace, at, cols_p};
    };
    // When K is padded, the padded operand's K extent is K_run.
    if (pack_a) {
      a = pack(kp.a, a_rows, a_cols, kp.ta ? round_up(K_run, vec) : a_rows_p, kp.ta ? a_cols_p : round_up(K_run, vec),
               a_ws);
    }
    if (pack_b) {
      b = pack(kp.b, b_rows, b_cols, kp.tb ? b_rows_p : round_up(K_run, vec), kp.tb ? round_up(K_run, vec) : b_cols_p,
               b_ws);
    }

    if (panels) {
      cl::Kernel k = kernel(opts, "gemm_pack_panels");
      int i = 0;
      k.setArg(i++, cl_int(K));
      k.setArg(i++, cl_int(kp.n));
      k.setArg(i++, kp.b.buffer);
      k.setArg(i++, cl_ulong(kp.b.offset));
      k.setArg(i++, cl_int(kp.b.ld));
      k.setArg(i++, cl_int(kp.tb));
      k.setArg(i++, cl_int(panel));
      k.setArg(i++, cl_int(panel_stride));
      k.setArg(i++, workspace);
      k.setArg(i++, cl_ulong(p_ws));
      launch(q, k, cl::NDRange(round_up(round_up(kp.n, panel), 16), round_up(K, 4)), cl::NDRange(16, 4), events);
      b = Operand{workspace, p_ws, panel_stride};
    }
    T alpha = T(p.alpha), beta = T(p.beta);
    Operand out = c;
    std::size_t out_stride = 0;
    if (slices > 1) {
      out = Operand{workspace, w_ws, w_ld};
      out_stride = w_stride;
      alpha = T(1);
      beta = T(0);
    }
    cl::Kernel k = kernel(opts, cfg.kernel_name());
    int i = 0;
    k.setArg(i++, cl_int(kp.m));
    k.setArg(i++, cl_int(kp.n));
    k.setArg(i++, cl_int(K_run));
    k.setArg(i++, alpha);
    k.setArg(i++, a.buffer);
    k.setArg(i++, cl_ulong(a.offset));
    k.setArg(i++, cl_int(a.ld));
    k.setArg(i++, b.buffer);
    k.setArg(i++, cl_ulong(b.offset));
    k.setArg(i++, cl_int(b.ld));
    k.setArg(i++, beta);
    k.setArg(i++, out.buffer);
    k.setArg(i++, cl_ulong(out.offset));
    k.setArg(i++, cl_int(out.ld));
    if (v == "regblock" || v == "skinny_m" || v == "skinny_n") {
      k.setArg(i++, cl_int(k_slice));
      k.setArg(i++, cl_ulong(out_stride));
    }
    const std::size_t M = kp.m, N = kp.n;
    if (v == "naive") {
      const std::size_t lx = cfg.get("LOCAL_X"), ly = cfg.get("LOCAL_Y");
      launch(q, k, cl::NDRange(round_up(N, lx), round_up(M, ly)), cl::NDRange(lx, ly), events);
    } else if (v == "tiled") {
      const std::size_t t = cfg.get("TILE");
      launch(q, k, cl::NDRange(round_up(N, t), round_up(M, t)), cl::NDRange(t, t), events);
    } else if (v == "regblock") {
      const std::size_t tm = cfg.get("TILE_M"), tn = cfg.get("TILE_N");
      const std::size_t wx = tn / cfg.get("WPT_N"), wy = tm / cfg.get("WPT_M");
      launch(q, k, cl::NDRange(ceil_div(N, tn) * wx, ceil_div(M, tm) * wy, slices), cl::NDRange(wx, wy, 1), events);
    } else if (v == "cpu") {
      const std::size_t lx = cfg.get("LOCAL_X"), ly = cfg.get("LOCAL_Y");
      const std::size_t gx = ceil_div(N, cfg.get("WPT_N")), gy = ceil_div(M, cfg.get("WPT_M"));
      if (lx == 0 || ly == 0) {
        launch(q, k, cl::NDRange(gx, gy), cl::NullRange, events);
      } else {
        launch(q, k, cl::NDRange(round_up(gx, lx), round_up(gy, ly)), cl::NDRange(lx, ly), events);
      }
    } else if (v == "skinny_m") {
      const std::size_t wx = cfg.get("WG_X"), wy = cfg.get("WG_Y");
      launch(q, k, cl::NDRange(ceil_div(N, wx * vec) * wx, wy * slices, ceil_div(M, cfg.get("WPT_M"))),
             cl::NDRange(wx, wy, 1), events);
    } else if (v == "skinny_n") {
      const std::size_t wx = cfg.get("WG_X"), wy = cfg.get("WG_Y");
      launch(q, k, cl::NDRange(wx * slices, ceil_div(M, wy * cfg.get("WPT_M")) * wy, ceil_div(N, cfg.get("WPT_N"))),
             cl::NDRange(wx, wy, 1), events);
    } else {
      throw std::runtime_error("unknown variant " + v);
    }
    if (slices > 1) {
      cl::Kernel r = kernel(opts, "gemm_splitk_reduce");
      int j = 0;
      r.setArg(j++, cl_int(c_rows));
      r.setArg(j++, cl_int(c_cols));
      r.setArg(j++, cl_int(slices));
      r.setArg(j++, workspace);
      r.setArg(j++, cl_ulong(w_ws));
      r.setArg(j++, cl_int(w_ld));
      r.setArg(j++, cl_ulong(w_stride));
      r.setArg(j++, T(p.alpha));
      r.setArg(j++, T(p.beta));
      r.setArg(j++, c.buffer);
      r.setArg(j++, cl_ulong(c.offset));
      r.setArg(j++, cl_int(c.ld));
      launch(q, r, cl::NDRange(round_up(c_cols, 16), round_up(c_rows, 16)), cl::NDRange(16, 16), events);
    }
  }
};

// ---------------------------------------------------------------------------------------------------------
// Correctness: random data, NaN in every element of A and B that is not part of the matrix, a sentinel
// around C, NaN inside C when beta == 0.

const double kSentinel = 12345.0;

template <typename T>
struct HostProblem {
  std::vector<T> a, b, c, c_ref;
  std::vector<double> magnitude;
};

template <typename T>
void fill_matrix(std::vector<T>& buf, ref::Layout layout, ref::Extent e, std::size_t offset, std::size_t ld,
                 Random& rng, T outside, bool nan_inside = false) {
  std::fill(buf.begin(), buf.end(), outside);
  for (std::size_t r = 0; r < e.rows; ++r)
    for (std::size_t c = 0; c < e.cols; ++c)
      buf[offset + ref::matrix_index(layout, r, c, ld)] =
          nan_inside ? std::numeric_limits<T>::quiet_NaN() : T(rng.uniform());
}

struct VerifyResult {
  bool ok = false;
  std::string message;
  double max_ratio = 0;  // max |err| / tolerance
};

template <typename T>
VerifyResult verify(Runner<T>& runner, const Config& cfg, const Problem& p, std::uint64_t seed) {
  VerifyResult res;
  Random rng(seed);
  const T nan = std::numeric_limits<T>::quiet_NaN();
  const std::size_t slack = 5;
  const std::size_t a_size = p.a_off + ref::required_elements(p.layout, p.a_extent(), p.lda) + slack;
  const std::size_t b_size = p.b_off + ref::required_elements(p.layout, p.b_extent(), p.ldb) + slack;
  const std::size_t c_size = p.c_off + ref::required_elements(p.layout, p.c_extent(), p.ldc) + slack;
  std::vector<T> a(a_size), b(b_size), c(c_size);
  fill_matrix(a, p.layout, p.a_extent(), p.a_off, p.lda, rng, nan);
  fill_matrix(b, p.layout, p.b_extent(), p.b_off, p.ldb, rng, nan);
  fill_matrix(c, p.layout, p.c_extent(), p.c_off, p.ldc, rng, T(kSentinel), p.beta == 0);
  std::vector<T> c_ref = c;
  std::vector<double> mag;
  ref::gemm<T>(p.layout, p.ta ? ref::Transpose::Yes : ref::Transpose::No,
               p.tb ? ref::Transpose::Yes : ref::Transpose::No, p.m, p.n, p.k, p.alpha, a.data() + p.a_off, p.lda,
               b.data() + p.b_off, p.ldb, p.beta, c_ref.data() + p.c_off, p.ldc, &mag);
  auto& ctx = runner.dev->context;
  Operand A{cl::Buffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, a.size() * sizeof(T), a.data()), p.a_off, p.lda};
  Operand B{cl::Buffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, b.size() * sizeof(T), b.data()), p.b_off, p.ldb};
  Operand C{cl::Buffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, c.size() * sizeof(T), c.data()), p.c_off, p.ldc};
  try {
    runner.enqueue(cfg, p, A, B, C, nullptr);
    runner.dev->queue.enqueueReadBuffer(C.buffer, CL_TRUE, 0, c.size() * sizeof(T), c.data());
  } catch (const cl::Error& e) {
    res.message = std::string(e.what()) + " " + std::to_string(e.err());
    return res;
  } catch (const std::exception& e) {
    res.message = e.what();
    return res;
  }
  // Every element: inside the matrix within tolerance, outside untouched.
  std::vector<char> inside(c_size, 0);
  for (std::size_t r = 0; r < p.m; ++r)
    for (std::size_t col = 0; col < p.n; ++col) inside[p.c_off + ref::matrix_index(p.layout, r, col, p.ldc)] = 1;
  std::size_t bad = 0;
  std::ostringstream first;
  for (std::size_t i = 0; i < c_size; ++i) {
    double err, tol;
    if (inside[i]) {
      err = std::fabs(double(c[i]) - double(c_ref[i]));
      tol = ref::gemm_tolerance<T>(p.k, mag[i - p.c_off]);
      if (!(err <= tol)) err = std::numeric_limits<double>::infinity();
    } else {
      err = double(c[i]) == kSentinel ? 0 : std::numeric_limits<double>::infinity();
      tol = 1;
    }
    res.max_ratio = std::max(res.max_ratio, std::isfinite(err) ? err / tol : 1e300);
    if (!std::isfinite(err)) {
      if (bad++ == 0)
        first << "first bad element " << i << (inside[i] ? " (inside)" : " (outside)") << ": got " << double(c[i])
              << " want " << double(c_ref[i]);
    }
  }
  res.ok = bad == 0;
  if (!res.ok) res.message = std::to_string(bad) + " bad; " + first.str();
  return res;
}

// ---------------------------------------------------------------------------------------------------------
// Timing

struct Timing {
  double event_ms = 0, wall_ms = 0;
  int runs = 0;
};

double event_span_ms(const std::vector<cl::Event>& events) {
  if (events.empty()) return 0;
  const cl_ulong start = events.front().getProfilingInfo<CL_PROFILING_COMMAND_START>();
  const cl_ulong end = events.back().getProfilingInfo<CL_PROFILING_COMMAND_END>();
  return double(end - start) * 1e-6;
}

// run(events) enqueues one call; warm-up, then reps timed calls, each finished before the next.
Timing time_calls(cl::CommandQueue& q, const std::function<void(std::vector<cl::Event>*)>& run, int warmup, int reps) {
  for (int i = 0; i < warmup; ++i) run(nullptr);
  q.finish();
  // Short calls get more repetitions (at least ~100 ms of timed work, at most 200 runs).
  std::vector<double> ev, wall;
  const auto budget_start = Clock::now();
  for (int i = 0; i < 200; ++i) {
    std::vector<cl::Event> events;
    const auto t0 = Clock::now();
    run(&events);
    q.finish();
    const auto t1 = Clock::now();
    wall.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
    ev.push_back(events.empty() ? wall.back() : event_span_ms(events));
    const double spent = std::chrono::duration<double, std::milli>(t1 - budget_start).count();
    if (i + 1 >= reps && (spent > 100 || i + 1 >= 4 * reps)) break;
  }
  return {median(ev), median(wall), int(ev.size())};
}

// ---------------------------------------------------------------------------------------------------------
// CLBlast peer

#ifdef TILECL_HAVE_CLBLAST
template <typename T>
CLBlastStatusCode clblast_gemm(const Problem& p, const Operand& a, const Operand& b, const Operand& c,
                               cl_command_queue* q, cl_event* e) {
  const auto layout = p.layout == ref::Layout::RowMajor ? CLBlastLayoutRowMajor : CLBlastLayoutColMajor;
  const auto ta = p.ta ? CLBlastTransposeYes : CLBlastTransposeNo;
  const auto tb = p.tb ? CLBlastTransposeYes : CLBlastTransposeNo;
  if constexpr (std::is_same_v<T, float>) {
    return CLBlastSgemm(layout, ta, tb, p.m, p.n, p.k, float(p.alpha), a.buffer(), a.offset, a.ld, b.buffer(), b.offset,
                        b.ld, float(p.beta), c.buffer(), c.offset, c.ld, q, e);
  } else {
    return CLBlastDgemm(layout, ta, tb, p.m, p.n, p.k, p.alpha, a.buffer(), a.offset, a.ld, b.buffer(), b.offset, b.ld,
                        p.beta, c.buffer(), c.offset, c.ld, q, e);
  }
}
#endif

// ---------------------------------------------------------------------------------------------------------
// Results

// "regblock TILE_M=128 TILE_N=128 TILE_K=16 WPT_M=8 WPT_N=8 VEC=4 ..." -> "rb T128x128x16 W8x8 V4 ...".
std::string short_name(const std::string& text) {
  const Config c = parse_config(text);
  const std::map<std::string, std::string> variants = {{"naive", "nv"}, {"tiled", "ti"},    {"regblock", "rb"},
                                                       {"cpu", "cpu"},  {"skinny_m", "sm"}, {"skinny_n", "sn"}};
  std::map<std::string, int> given;
  for (const auto& w : split_words(text))
    if (auto eq = w.find('='); eq != std::string::npos) given[w.substr(0, eq)] = std::stoi(w.substr(eq + 1));
  auto has = [&](const char* k) { return given.count(k) > 0; };
  std::string out = variants.count(c.variant) ? variants.at(c.variant) : c.variant;
  auto v = [&](const char* k) { return std::to_string(given[k]); };
  if (has("TILE_M") || has("TILE_N") || has("TILE_K"))
    out += " T" + v("TILE_M") + "x" + v("TILE_N") + "x" + v("TILE_K");
  if (has("TILE")) out += " T" + v("TILE");
  if (has("WPT_M") && has("WPT_N"))
    out += " W" + v("WPT_M") + "x" + v("WPT_N");
  else if (has("WPT_M"))
    out += " W" + v("WPT_M");
  else if (has("WPT_N"))
    out += " Wn" + v("WPT_N");
  if (has("WG_X") || has("WG_Y")) out += " G" + v("WG_X") + "x" + v("WG_Y");
  if (has("LOCAL_X") || has("LOCAL_Y")) out += " L" + v("LOCAL_X") + "x" + v("LOCAL_Y");
  const std::vector<std::pair<const char*, const char*>> flags = {
      {"VEC", "V"},           {"PAD", "P"},     {"USE_DOUBLE_BUFFER", "DB"},
      {"USE_PREFETCH", "PF"}, {"WARP_N", "WN"}, {"USE_PACKED_B", "PB"},
      {"SPLIT", "S"},         {"SOLVE_T", "ST"}};
  for (const auto& [k, abbr] : flags)
    if (has(k)) out += std::string(" ") + abbr + v(k);
  for (const auto& [k, val] : given) {  // anything else, verbatim
    static const std::set<std::string> known = {"TILE_M",
                                                "TILE_N",
                                                "TILE_K",
                                                "TILE",
                                                "WPT_M",
                                                "WPT_N",
                                                "WG_X",
                                                "WG_Y",
                                                "LOCAL_X",
                                                "LOCAL_Y",
                                                "VEC",
                                                "PAD",
                                                "USE_DOUBLE_BUFFER",
                                                "USE_PREFETCH",
                                                "WARP_N",
                                                "USE_PACKED_B",
                                                "SPLIT",
                                                "SOLVE_T"};
    if (!known.count(k)) out += " " + k + "=" + std::to_string(val);
  }
  return out;
}

struct Result {
  std::string config, variant, shape, status;  // status: ok | invalid | build | verify | error
  std::string detail;
  double event_ms = 0, wall_ms = 0, gflops = 0, gbps = 0, peer_ms = 0, peer_gflops = 0, ratio = 0;
  double spot_ratio = 0;
  double pct_copy = 0, pct_peak = 0;  // GB/s vs device copy bandwidth; GFLOP/s vs --peak-gflops
  int runs = 0;
};

struct Report {
  std::vector<Result> results;
  std::map<std::string, Result> peers;  // shape -> CLBlast
  double copy_gbps = 0;
};

void write_json(const std::string& path, const Report& rep, const DeviceContext& d, const std::string& dtype) {
  std::ofstream out(path);
  out << "{\n  \"device\": \"" << json_escape(d.name) << "\", \"platform\": \"" << json_escape(d.platform_name)
      << "\", \"driver\": \"" << json_escape(d.driver) << "\", \"dtype\": \"" << dtype
      << "\",\n  \"copy_gbps\": " << rep.copy_gbps << ",\n  \"peer\": [\n";
  bool first = true;
  for (const auto& [shape, r] : rep.peers) {
    out << (first ? "" : ",\n") << "    {\"shape\": \"" << shape << "\", \"status\": \"" << r.status
        << "\", \"ms\": " << r.event_ms << ", \"wall_ms\": " << r.wall_ms << ", \"gflops\": " << r.gflops
        << ", \"detail\": \"" << json_escape(r.detail) << "\"}";
    first = false;
  }
  out << "\n  ],\n  \"results\": [\n";
  first = true;
  for (const auto& r : rep.results) {
    out << (first ? "" : ",\n") << "    {\"config\": \"" << json_escape(r.config) << "\", \"variant\": \"" << r.variant
        << "\", \"shape\": \"" << r.shape << "\", \"status\": \"" << r.status << "\", \"detail\": \""
        << json_escape(r.detail) << "\", \"event_ms\": " << r.event_ms << ", \"wall_ms\": " << r.wall_ms
        << ", \"runs\": " << r.runs << ", \"gflops\": " << r.gflops << ", \"gbps\": " << r.gbps
        << ", \"peer_wall_ms\": " << r.peer_ms << ", \"peer_gflops\": " << r.peer_gflops
        << ", \"speedup_vs_peer\": " << r.ratio << ", \"pct_of_copy_bandwidth\": " << r.pct_copy
        << ", \"pct_of_peak\": " << r.pct_peak << ", \"spot_check_ratio\": " << r.spot_ratio << "}";
    first = false;
  }
  out << "\n  ]\n}\n";
}

// ---------------------------------------------------------------------------------------------------------
// The plan: shape sets, configurations to run on them.

struct PlanEntry {
  std::string set;
  Config config;
};

struct Plan {
  std::map<std::string, std::vector<std::string>> shape_sets;
  std::vector<std::string> set_order;
  std::vector<PlanEntry> entries;
  std::vector<std::string> verify_shapes = {"133x129x67", "131x67x129:TT:col"};
  std::vector<std::string> verify_skinny = {"5x133x67", "133x3x67:TN", "2x129x131:NT:col"};
};

Plan parse_plan(const std::string& path) {
  Plan plan;
  std::istringstream in(read_file(path));
  int line_no = 0;
  for (std::string line; std::getline(in, line);) {
    ++line_no;
    const auto hash = line.find('#');
    if (hash != std::string::npos) line = line.substr(0, hash);
    auto words = split_words(line);
    if (words.empty()) continue;
    try {
      if (words[0] == "shapes" && words.size() >= 3) {
        if (!plan.shape_sets.count(words[1])) plan.set_order.push_back(words[1]);
        for (std::size_t i = 2; i < words.size(); ++i) plan.shape_sets[words[1]].push_back(words[i]);
      } else if (words[0] == "verify" && words.size() >= 2) {
        plan.verify_shapes.assign(words.begin() + 1, words.end());
      } else if (words[0] == "verify_skinny" && words.size() >= 2) {
        plan.verify_skinny.assign(words.begin() + 1, words.end());
      } else if (words[0] == "run" && words.size() >= 3) {
        std::string text;
        for (std::size_t i = 2; i < words.size(); ++i) text += (i > 2 ? " " : "") + words[i];
        plan.entries.push_back({words[1], parse_config(text)});
      } else {
        throw std::runtime_error("unknown directive");
      }
    } catch (const std::exception& e) {
      throw std::runtime_error(path + ":" + std::to_string(line_no) + ": " + e.what());
    }
  }
  return plan;
}

const std::vector<std::string>& verify_shapes_for(const Plan& plan, const Config& c) {
  return (c.variant == "skinny_m" || c.variant == "skinny_n") ? plan.verify_skinny : plan.verify_shapes;
}

// ---------------------------------------------------------------------------------------------------------
// Sweep

struct Options {
  std::string kernels = std::string(TILECL_SOURCE_DIR) + "/kernels";
  std::string plan, json, dtype = "float", filter;
  std::vector<std::string> configs, shapes;
  bool test = false, tiny = false, peer = true, verbose = false, dry_run = false;
  std::size_t assume_local = 0, assume_wg = 0;
  int reps = 5, warmup = 1, jobs = 4;
  double time_limit = 0, peak_gflops = 0;
  std::uint64_t seed = 12345;
};

template <typename T>
struct ShapeData {
  Problem p;
  std::vector<T> a, b;  // host copies for spot checks
  Operand A, B, C;
  // Memory-bound shapes rotate over copies of A and B that together exceed the last-level cache, so a
  // call cannot find its operands in cache from the previous call. copies[0] is A, B themselves.
  std::vector<std::pair<Operand, Operand>> copies;
  std::size_t next = 0;
  std::pair<Operand, Operand> operands() { return copies[next++ % copies.size()]; }
};

template <typename T>
ShapeData<T> make_shape(DeviceContext& d, const Problem& p, std::uint64_t seed) {
  ShapeData<T> s;
  s.p = p;
  Random rng(seed);
  const std::size_t a_n = ref::required_elements(p.layout, p.a_extent(), p.lda) + p.a_off;
  const std::size_t b_n = ref::required_elements(p.layout, p.b_extent(), p.ldb) + p.b_off;
  const std::size_t c_n = ref::required_elements(p.layout, p.c_extent(), p.ldc) + p.c_off;
  s.a.resize(std::max<std::size_t>(a_n, 1));
  s.b.resize(std::max<std::size_t>(b_n, 1));
  for (auto& x : s.a) x = T(rng.uniform());
  for (auto& x : s.b) x = T(rng.uniform());
  s.A = {cl::Buffer(d.context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, s.a.size() * sizeof(T), s.a.data()), p.a_off,
         p.lda};
  s.B = {cl::Buffer(d.context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, s.b.size() * sizeof(T), s.b.data()), p.b_off,
         p.ldb};
  s.C = {cl::Buffer(d.context, CL_MEM_READ_WRITE, std::max<std::size_t>(c_n, 1) * sizeof(T)), p.c_off, p.ldc};
  s.copies.push_back({s.A, s.B});
  // Memory-bound (fewer than 64 flops per element of A and B): enough copies to pass 3x the cache.
  const double elems = double(s.a.size() + s.b.size());
  if (p.flops() < 64.0 * elems) {
    const std::size_t cache = d.device.getInfo<CL_DEVICE_GLOBAL_MEM_CACHE_SIZE>();
    const std::size_t bytes = (s.a.size() + s.b.size()) * sizeof(T);
    const std::size_t want = std::min<std::size_t>(8, (3 * std::max<std::size_t>(cache, 64u << 20)) / bytes + 1);
    for (std::size_t i = 1; i < want; ++i) {
      Operand a{cl::Buffer(d.context, CL_MEM_READ_ONLY, s.a.size() * sizeof(T)), p.a_off, p.lda};
      Operand b{cl::Buffer(d.context, CL_MEM_READ_ONLY, s.b.size() * sizeof(T)), p.b_off, p.ldb};
      d.queue.enqueueCopyBuffer(s.A.buffer, a.buffer, 0, 0, s.a.size() * sizeof(T));
      d.queue.enqueueCopyBuffer(s.B.buffer, b.buffer, 0, 0, s.b.size() * sizeof(T));
      s.copies.push_back({a, b});
    }
    d.queue.finish();
  }
  return s;
}

// Compare a few random outputs of the last call (beta == 0) with the reference. Returns max err/tol.
template <typename T>
double spot_check(DeviceContext& d, ShapeData<T>& s, std::uint64_t seed) {
  const Problem& p = s.p;
  Random rng(seed);
  double worst = 0;
  for (int t = 0; t < 24; ++t) {
    const std::size_t i = rng.next() % p.m, j = rng.next() % p.n;
    T got;
    const std::size_t idx = p.c_off + ref::matrix_index(p.layout, i, j, p.ldc);
    d.queue.enqueueReadBuffer(s.C.buffer, CL_TRUE, idx * sizeof(T), sizeof(T), &got);
    double mag;
    const double want = p.alpha * ref::gemm_dot(p.layout, p.ta ? ref::Transpose::Yes : ref::Transpose::No,
                                                p.tb ? ref::Transpose::Yes : ref::Transpose::No, i, j, p.k,
                                                s.a.data() + p.a_off, p.lda, s.b.data() + p.b_off, p.ldb, &mag);
    const double err = std::fabs(double(got) - want), tol = ref::gemm_tolerance<T>(p.k, std::fabs(p.alpha) * mag);
    worst = std::max(worst, err <= tol ? err / tol : 1e300);
  }
  return worst;
}

double measure_copy_gbps(DeviceContext& d) {
  const std::size_t bytes = d.is_cpu ? (std::size_t(64) << 20) : (std::size_t(512) << 20);
  cl::Buffer src(d.context, CL_MEM_READ_WRITE, bytes), dst(d.context, CL_MEM_READ_WRITE, bytes);
  d.queue.enqueueFillBuffer(src, cl_uchar(1), 0, bytes);
  d.queue.enqueueFillBuffer(dst, cl_uchar(0), 0, bytes);
  Timing t = time_calls(
      d.queue,
      [&](std::vector<cl::Event>* ev) {
        cl::Event e;
        d.queue.enqueueCopyBuffer(src, dst, 0, 0, bytes, nullptr, &e);
        if (ev) ev->push_back(e);
      },
      1, 5);
  return 2.0 * double(bytes) / (t.event_ms * 1e-3) * 1e-9;
}

template <typename T>
int run_sweep(DeviceContext& d, const Options& opt, Plan plan) {
  const auto sweep_start = Clock::now();
  auto out_of_time = [&] {
    return opt.time_limit > 0 && std::chrono::duration<double>(Clock::now() - sweep_start).count() > opt.time_limit;
  };
  ProgramCache programs;
  programs.dev = &d;
  programs.source = read_file(opt.kernels + "/common.clh") + "\n" + read_file(opt.kernels + "/gemm.cl");
  // Builds may use at most 45% of the time limit, so that timing always gets its share.
  programs.stop_building = [&] {
    return opt.time_limit > 0 &&
           std::chrono::duration<double>(Clock::now() - sweep_start).count() > 0.45 * opt.time_limit;
  };
  Runner<T> runner(&d, &programs, opt.dtype);
  Report rep;
  const std::size_t elem = sizeof(T);

  // Gate: the file must build on this device with its defaults; otherwise nothing else can, so stop here
  // with the compiler's log instead of spending the run on identical failures.
  {
    const std::string opts = "-DDTYPE=" + opt.dtype;
    const auto t0 = Clock::now();
    if (!programs.get(opts)) {
      std::printf("FATAL: gemm.cl does not build with \"%s\" on %s. Build log:\n%s\n", opts.c_str(), d.name.c_str(),
                  programs.failures[opts].substr(0, 6000).c_str());
      return 3;
    }
    std::printf("# gemm.cl builds with defaults in %.2f s\n", std::chrono::duration<double>(Clock::now() - t0).count());
  }

  // Filter, validate, and prebuild every program the verification and timing need, in parallel.
  std::vector<PlanEntry> entries;
  std::map<std::string, std::string> invalid;  // config text -> reason
  for (auto& e : plan.entries) {
    if (!opt.filter.empty() && e.config.text.find(opt.filter) == std::string::npos) continue;
    entries.push_back(e);
    const std::string why = check_config(e.config, d, elem);
    if (!why.empty()) invalid[e.config.text] = why;
  }
  if (opt.dry_run) {
    std::set<std::string> needed;
    for (const auto& e : entries) {
      const bool bad = invalid.count(e.config.text);
      std::printf("%-8s %-7s %s%s%s\n", bad ? "INVALID" : "valid", e.set.c_str(), e.config.text.c_str(),
                  bad ? "  -- " : "", bad ? invalid[e.config.text].c_str() : "");
      if (bad) continue;
      for (const auto& s : verify_shapes_for(plan, e.config))
        needed.insert(runner.options_for(e.config, parse_shape(s)));
      for (const auto& s : plan.shape_sets[e.set]) needed.insert(runner.options_for(e.config, parse_shape(s)));
    }
    std::printf("# %zu configurations, %zu invalid, %zu programs to build\n", entries.size(), invalid.size(),
                needed.size());
    return invalid.empty() ? 0 : 1;
  }
  {
    // First the programs that timing needs (plan order), then those only verification needs, so that a
    // build deadline costs verification coverage before it costs measurements.
    std::vector<std::string> primary, secondary;
    for (const auto& e : entries) {
      if (invalid.count(e.config.text)) continue;
      for (const auto& s : plan.shape_sets[e.set]) primary.push_back(runner.options_for(e.config, parse_shape(s)));
      const auto& vs = verify_shapes_for(plan, e.config);
      for (std::size_t i = 0; i < vs.size(); ++i)
        (i == 0 ? primary : secondary).push_back(runner.options_for(e.config, parse_shape(vs[i])));
    }
    const auto t0 = Clock::now();
    programs.prebuild(primary, opt.jobs);
    programs.prebuild(secondary, opt.jobs);
    std::printf("# built %zu programs (%zu failed) in %.1f s with %d jobs\n", programs.programs.size(),
                programs.failures.size(), std::chrono::duration<double>(Clock::now() - t0).count(), opt.jobs);
  }
  rep.copy_gbps = measure_copy_gbps(d);
  std::printf("# device-to-device copy: %.1f GB/s (read + write)\n", rep.copy_gbps);

  // Verify a configuration once (at the plan's ragged shapes, beta == 0 over NaN and beta != 0), before it
  // is timed anywhere. Returns "" when it may be timed.
  std::map<std::string, std::string> verdict;  // config text -> "" ok, else why
  auto verify_config = [&](const Config& c) -> const std::string& {
    auto known = verdict.find(c.text);
    if (known != verdict.end()) return known->second;
    std::string why, note;
    if (invalid.count(c.text)) {
      why = "invalid: " + invalid[c.text];
    } else {
      const auto& vs = verify_shapes_for(plan, c);
      for (std::size_t i = 0; i < vs.size(); ++i) {
        const std::string& s = vs[i];
        Problem p = parse_shape(s);
        const std::string opts = runner.options_for(c, p);
        if (!programs.get(opts)) {
          const std::string& log = programs.failures[opts];
          const bool time_limit = log.rfind("not built", 0) == 0;
          if (time_limit && i > 0) {  // a verification-only program left unbuilt by the build deadline
            note += " (not verified at " + s + ": build deadline)";
            continue;
          }
          why = (time_limit ? "skipped: " : "build: ") + log.substr(0, std::min<std::size_t>(log.size(), 300));
          break;
        }
        p.alpha = 1.5;
        p.beta = 0;
        VerifyResult v = verify<T>(runner, c, p, opt.seed);
        if (v.ok) {
          p.beta = -0.5;  // the beta path too
          v = verify<T>(runner, c, p, opt.seed + 1);
        }
        if (!v.ok) {
          why = "verify " + s + ": " + v.message;
          break;
        }
      }
    }
    std::printf("%-8s %s%s%s%s\n", why.empty() ? "verified" : "FAILED", c.text.c_str(), why.empty() ? "" : "  -- ",
                why.c_str(), note.c_str());
    std::fflush(stdout);
    return verdict[c.text] = why;
  };

  // Plan order: per shape set, the set's data and the peer, then each configuration verified and timed.
  for (const auto& set : plan.set_order) {
    std::vector<std::unique_ptr<ShapeData<T>>> shapes;
    for (const auto& e : entries) {
      if (e.set != set) continue;
      if (out_of_time()) {
        for (const auto& shape_text : plan.shape_sets[set]) {
          Result r;
          r.config = e.config.text;
          r.variant = e.config.variant;
          r.shape = parse_shape(shape_text).name();
          r.status = "skipped";
          r.detail = "time limit";
          rep.results.push_back(r);
        }
        continue;
      }
      const std::string& why = verify_config(e.config);
      if (shapes.empty() && why.empty()) {  // first configuration of the set that will be timed
        for (const auto& shape_text : plan.shape_sets[set]) {
          Problem p = parse_shape(shape_text);
          p.alpha = 1;
          p.beta = 0;
          shapes.push_back(std::make_unique<ShapeData<T>>(make_shape<T>(d, p, opt.seed + 7)));
          ShapeData<T>& data = *shapes.back();
          Result peer;
          peer.config = "clblast";
          peer.shape = p.name();
#ifdef TILECL_HAVE_CLBLAST
          if (opt.peer && !rep.peers.count(p.name())) {
            try {
              cl_command_queue q = d.queue();
              Timing t = time_calls(
                  d.queue,
                  [&](std::vector<cl::Event>* ev) {
                    cl_event ce = nullptr;
                    const auto [a, b] = data.operands();
                    const CLBlastStatusCode status = clblast_gemm<T>(p, a, b, data.C, &q, &ce);
                    if (status != CLBlastSuccess) throw std::runtime_error("CLBlast status " + std::to_string(status));
                    if (ev && ce)
                      ev->push_back(cl::Event(ce));
                    else if (ce)
                      clReleaseEvent(ce);
                  },
                  opt.warmup + 1, opt.reps);
              peer.status = "ok";
              peer.event_ms = t.event_ms;  // last kernel of the call only
              peer.wall_ms = t.wall_ms;
              peer.gflops = p.flops() / (t.wall_ms * 1e-3) * 1e-9;
              peer.spot_ratio = spot_check(d, data, opt.seed + 3);
              if (peer.spot_ratio > 1) peer.status = "wrong";
            } catch (const std::exception& ex) {
              peer.status = "error";
              peer.detail = ex.what();
            }
            rep.peers[p.name()] = peer;
            std::printf("%-44s %-18s wall %9.3f ms %9.1f GFLOP/s  %s\n", "clblast", p.name().c_str(), peer.wall_ms,
                        peer.gflops, peer.status.c_str());
            std::fflush(stdout);
          }
#endif
        }
      }
      for (std::size_t si = 0; si < plan.shape_sets[set].size(); ++si) {
        Result r;
        r.config = e.config.text;
        r.variant = e.config.variant;
        r.shape = parse_shape(plan.shape_sets[set][si]).name();
        if (!why.empty()) {
          r.status = why.rfind("invalid", 0) == 0   ? "invalid"
                     : why.rfind("build", 0) == 0   ? "build"
                     : why.rfind("skipped", 0) == 0 ? "skipped"
                                                    : "verify";
          r.detail = why;
          rep.results.push_back(r);
          continue;
        }
        ShapeData<T>& data = *shapes[si];
        const Problem& p = data.p;
        const double bytes = double(elem) * (double(p.m) * p.k + double(p.k) * p.n + double(p.m) * p.n);
        const Result* pr = rep.peers.count(p.name()) ? &rep.peers[p.name()] : nullptr;
        try {
          if (!programs.get(runner.options_for(e.config, p))) throw std::runtime_error("build failed");
          Timing t = time_calls(
              d.queue,
              [&](std::vector<cl::Event>* ev) {
                const auto [a, b] = data.operands();
                runner.enqueue(e.config, p, a, b, data.C, ev);
              },
              opt.warmup, opt.reps);
          r.event_ms = t.event_ms;
          r.wall_ms = t.wall_ms;
          r.runs = t.runs;
          r.gflops = p.flops() / (t.event_ms * 1e-3) * 1e-9;
          r.gbps = bytes / (t.event_ms * 1e-3) * 1e-9;
          r.pct_copy = rep.copy_gbps > 0 ? 100.0 * r.gbps / rep.copy_gbps : 0;
          r.pct_peak = opt.peak_gflops > 0 ? 100.0 * r.gflops / opt.peak_gflops : 0;
          r.spot_ratio = spot_check(d, data, opt.seed + 5);
          r.status = r.spot_ratio <= 1 ? "ok" : "wrong";
          if (pr && pr->status == "ok") {
            r.peer_ms = pr->wall_ms;
            r.peer_gflops = pr->gflops;
            r.ratio = pr->wall_ms / t.wall_ms;
          }
        } catch (const cl::Error& ex) {
          r.status = "error";
          r.detail = std::string(ex.what()) + " " + std::to_string(ex.err());
        } catch (const std::exception& ex) {
          r.status = "error";
          r.detail = ex.what();
        }
        rep.results.push_back(r);
        std::printf("%-44s %-18s %9.3f ms %9.1f GFLOP/s %7.1f GB/s %5.1f%%bw %5.1f%%pk x%.2f %s\n",
                    r.config.substr(0, 44).c_str(), r.shape.c_str(), r.event_ms, r.gflops, r.gbps, r.pct_copy,
                    r.pct_peak, r.ratio, r.status.c_str());
        std::fflush(stdout);
      }
    }
  }

  // Compact summary (the part that must survive a 12,000-character output tail): per shape, the peer and
  // the best configurations in short notation; then one line per configuration that did not run.
  std::printf("\n==== summary: %s | %s | %s | copy %.0f GB/s | peak %.0f GFLOP/s | x = CLBlast wall / ours wall ====\n",
              d.name.c_str(), d.driver.c_str(), opt.dtype.c_str(), rep.copy_gbps, opt.peak_gflops);
  std::vector<std::string> shapes;
  for (const auto& r : rep.results)
    if (std::find(shapes.begin(), shapes.end(), r.shape) == shapes.end()) shapes.push_back(r.shape);
  for (const auto& s : shapes) {
    std::vector<const Result*> ok;
    for (const auto& r : rep.results)
      if (r.shape == s && r.status == "ok") ok.push_back(&r);
    std::sort(ok.begin(), ok.end(), [](const Result* a, const Result* b) { return a->event_ms < b->event_ms; });
    const auto pi = rep.peers.find(s);
    if (pi == rep.peers.end() || pi->second.status != "ok") {
      std::printf("%s  CLBlast -\n", s.c_str());
    } else {
      std::printf("%s  CLBlast %.1f GFLOP/s %.3f ms\n", s.c_str(), pi->second.gflops, pi->second.wall_ms);
    }
    const std::size_t top = shapes.size() <= 4 ? 8 : 5;
    for (std::size_t i = 0; i < ok.size() && i < top; ++i)
      std::printf("  %9.1f %3.0f%%pk %7.1fGB/s %3.0f%%bw %8.3fms x%.2f %s\n", ok[i]->gflops, ok[i]->pct_peak,
                  ok[i]->gbps, ok[i]->pct_copy, ok[i]->event_ms, ok[i]->ratio, short_name(ok[i]->config).c_str());
  }
  std::set<std::string> reported;
  for (const auto& r : rep.results) {
    if (r.status == "ok" || reported.count(r.config)) continue;
    reported.insert(r.config);
    std::printf("  %s: %s %s\n", r.status.c_str(), short_name(r.config).c_str(), r.detail.substr(0, 100).c_str());
  }
  if (!opt.json.empty()) {
    write_json(opt.json, rep, d, opt.dtype);
    std::printf("# results written to %s\n", opt.json.c_str());
  }
  return 0;
}

// ---------------------------------------------------------------------------------------------------------
// Correctness suite

std::vector<std::string> suite_configs(bool cpu_device) {
  std::vector<std::string> c = {
      "naive",
      "naive LOCAL_X=8 LOCAL_Y=4 SOLVE_T=1",
      "tiled TILE=8 PAD=1",
      "tiled TILE=16 PAD=0",
      "regblock TILE_M=32 TILE_N=32 TILE_K=8 WPT_M=4 WPT_N=4 VEC=4 PAD=0 USE_DOUBLE_BUFFER=0 USE_PREFETCH=0",
      "regblock TILE_M=32 TILE_N=64 TILE_K=16 WPT_M=4 WPT_N=8 VEC=4 PAD=4 USE_DOUBLE_BUFFER=1",
      "regblock TILE_M=16 TILE_N=32 TILE_K=8 WPT_M=2 WPT_N=4 VEC=2 PAD=2 USE_PREFETCH=1 SPLIT=3",
      "regblock TILE_M=16 TILE_N=16 TILE_K=4 WPT_M=2 WPT_N=2 VEC=1 PAD=1 USE_DOUBLE_BUFFER=1 SOLVE_T=1",
      "regblock TILE_M=64 TILE_N=32 TILE_K=16 WPT_M=8 WPT_N=8 VEC=8 USE_DOUBLE_BUFFER=1",
      "regblock TILE_M=64 TILE_N=64 TILE_K=16 WPT_M=4 WPT_N=4 VEC=4 USE_DOUBLE_BUFFER=1 WARP_N=8",
      "regblock TILE_M=32 TILE_N=64 TILE_K=16 WPT_M=2 WPT_N=4 VEC=2 USE_PREFETCH=1 WARP_N=4 SPLIT=2",
      "cpu WPT_M=4 WPT_N=16 VEC=8",
      "cpu WPT_M=3 WPT_N=8 VEC=4 LOCAL_X=4 LOCAL_Y=2 SOLVE_T=1",
      "cpu WPT_M=6 WPT_N=32 VEC=16 USE_PACKED_B=1",
      "cpu WPT_M=2 WPT_N=4 VEC=2 USE_PACKED_B=1 LOCAL_X=0 LOCAL_Y=0",
      "skinny_m WPT_M=2 VEC=4 WG_X=8 WG_Y=4",
      "skinny_m WPT_M=1 VEC=2 WG_X=16 WG_Y=4 SPLIT=3",
      "skinny_n WPT_M=2 WPT_N=2 VEC=4 WG_X=8 WG_Y=4",
      "skinny_n WPT_M=1 WPT_N=3 VEC=1 WG_X=16 WG_Y=2 SPLIT=2",
  };
  (void)cpu_device;
  return c;
}

template <typename T>
int run_suite(DeviceContext& d, const Options& opt) {
  ProgramCache programs;
  programs.dev = &d;
  programs.source = read_file(opt.kernels + "/common.clh") + "\n" + read_file(opt.kernels + "/gemm.cl");
  Runner<T> runner(&d, &programs, opt.dtype);

  // Problems: each layout x transpose pair with a rotating choice of shape, scalars, offsets and lds.
  struct Case {
    std::size_t m, n, k;
    double alpha, beta;
    std::size_t off, ld_extra;
  };
  std::vector<Case> cases;
  if (opt.tiny) {
    cases = {{5, 7, 3, 1.5, 0, 3, 2}, {9, 4, 5, -1, 0.5, 0, 0}, {1, 1, 1, 2, 0, 1, 1}};
  } else {
    cases = {
        {133, 129, 67, 1.5, 0, 3, 5}, {1, 1, 1, 1, 1, 0, 0},     {7, 5, 3, -0.5, 2, 1, 1},
        {17, 31, 1, 1, 0, 0, 3},      {64, 64, 64, 1, 0, 0, 0},  {3, 70, 130, 0.75, -1, 2, 0},
        {70, 3, 130, 1, 0.5, 0, 7},   {1, 257, 63, 1, 0, 5, 0},  {259, 1, 63, 2, 1, 0, 2},
        {29, 37, 0, 1, 0.5, 1, 1},    {31, 33, 200, 1, 0, 4, 4}, {40, 48, 33, 0, 2, 0, 0},
    };
  }
  int build_failures = 0;
  std::vector<Config> configs;
  for (const auto& text : suite_configs(d.is_cpu)) {
    if (!opt.filter.empty() && text.find(opt.filter) == std::string::npos) continue;
    Config c = parse_config(text);
    const std::string why = check_config(c, d, sizeof(T));
    if (!why.empty()) {  // a suite entry must be a legal configuration
      std::printf("INVALID %s: %s\n", text.c_str(), why.c_str());
      ++build_failures;
      continue;
    }
    configs.push_back(c);
  }
  std::vector<Problem> problems;
  std::size_t rot = 0;
  for (int layout = 0; layout < 2; ++layout) {
    for (int t = 0; t < 4; ++t) {
      for (std::size_t ci = 0; ci < cases.size(); ++ci) {
        // every case with every transpose pair in row-major; a rotating half in col-major
        if (layout == 1 && (ci + t) % 2) continue;
        const Case& c = cases[(ci + rot) % cases.size()];
        Problem p;
        p.layout = layout ? ref::Layout::ColMajor : ref::Layout::RowMajor;
        p.ta = t & 1;
        p.tb = t >> 1;
        p.m = c.m;
        p.n = c.n;
        p.k = c.k;
        p.alpha = c.alpha;
        p.beta = c.beta;
        p.a_off = c.off;
        p.b_off = c.off * 2 + 1 - (c.off == 0);
        p.c_off = c.off;
        p.fill_lds();
        p.lda += c.ld_extra;
        p.ldb += c.ld_extra / 2;
        p.ldc += c.ld_extra;
        problems.push_back(p);
      }
      ++rot;
    }
  }
  // The file must compile with no options at all (every macro has a default), and in double.
  for (const std::string o : {"", "-DDTYPE=double"}) {
    if (o == "-DDTYPE=double" && !d.fp64) continue;
    const bool ok = programs.get(o) != nullptr;
    std::printf("%-6s gemm.cl builds with options \"%s\"\n", ok ? "ok" : "FAIL", o.c_str());
    if (!ok) std::printf("%s\n", programs.failures[o].c_str());
    build_failures += !ok;
  }
  // Prebuild.
  {
    std::vector<std::string> needed;
    for (const auto& c : configs)
      for (const auto& p : problems) needed.push_back(runner.options_for(c, p));
    const auto t0 = Clock::now();
    programs.prebuild(needed, opt.jobs);
    std::printf("# built %zu programs (%zu failed) in %.1f s\n", programs.programs.size(), programs.failures.size(),
                std::chrono::duration<double>(Clock::now() - t0).count());
    for (const auto& [o, log] : programs.failures) std::printf("BUILD FAILED %s\n%s\n", o.c_str(), log.c_str());
  }
  int failures = 0, total = 0;
  for (const auto& c : configs) {
    int bad = 0;
    double worst = 0;
    for (std::size_t i = 0; i < problems.size(); ++i) {
      const Problem& p = problems[i];
      if (opt.verbose)
        std::printf("  check %s %s a=%g b=%g\n", c.text.c_str(), p.name().c_str(), p.alpha, p.beta),
            std::fflush(stdout);
      VerifyResult v = verify<T>(runner, c, p, opt.seed + i);
      ++total;
      worst = std::max(worst, v.max_ratio);
      if (!v.ok) {
        ++bad;
        if (bad <= 4)
          std::printf("  FAIL %-60s %-22s a=%g b=%g off=%zu lda=%zu ldb=%zu ldc=%zu: %s\n", c.text.c_str(),
                      p.name().c_str(), p.alpha, p.beta, p.a_off, p.lda, p.ldb, p.ldc, v.message.c_str());
      }
    }
    failures += bad;
    std::printf("%-6s %-100s %3zu problems, worst err/tol %.3g\n", bad ? "FAIL" : "ok", c.text.c_str(), problems.size(),
                worst);
    std::fflush(stdout);
  }
  std::printf("%d of %d checks failed (%s, %s)\n", failures, total, d.name.c_str(), opt.dtype.c_str());
  return failures || build_failures ? 1 : 0;
}

}  // namespace

int main(int argc, char** argv) {
  Options opt;
  try {
    for (int i = 1; i < argc; ++i) {
      const std::string a = argv[i];
      auto value = [&]() -> std::string {
        if (i + 1 >= argc) throw std::runtime_error("missing value for " + a);
        return argv[++i];
      };
      if (a == "--kernels")
        opt.kernels = value();
      else if (a == "--plan")
        opt.plan = value();
      else if (a == "--json")
        opt.json = value();
      else if (a == "--config")
        opt.configs.push_back(value());
      else if (a == "--shapes")
        for (auto& s : split_words(value())) opt.shapes.push_back(s);
      else if (a == "--test")
        opt.test = true;
      else if (a == "--tiny")
        opt.test = opt.tiny = true;
      else if (a == "--dtype")
        opt.dtype = value();
      else if (a == "--reps")
        opt.reps = std::stoi(value());
      else if (a == "--warmup")
        opt.warmup = std::stoi(value());
      else if (a == "--jobs")
        opt.jobs = std::stoi(value());
      else if (a == "--no-peer")
        opt.peer = false;
      else if (a == "--verbose")
        opt.verbose = true;
      else if (a == "--dry-run")
        opt.dry_run = true;
      else if (a == "--time-limit")
        opt.time_limit = std::stod(value());
      else if (a == "--peak-gflops")
        opt.peak_gflops = std::stod(value());
      else if (a == "--assume-local")
        opt.assume_local = std::stoull(value());
      else if (a == "--assume-wg")
        opt.assume_wg = std::stoull(value());
      else if (a == "--filter")
        opt.filter = value();
      else if (a == "--seed")
        opt.seed = std::stoull(value());
      else
        throw std::runtime_error("unknown option " + a + " (see the comment at the top of gemm_sweep.cpp)");
    }
    if (opt.dtype != "float" && opt.dtype != "double") throw std::runtime_error("--dtype float|double");
    DeviceContext d = open_device();
    std::printf("# device: %s | %s | driver %s | local %zu KiB | max wg %zu | seed %llu\n", d.name.c_str(),
                d.platform_name.c_str(), d.driver.c_str(), d.local_mem / 1024, d.max_wg, (unsigned long long)opt.seed);
    if (opt.dtype == "double" && !d.fp64) throw std::runtime_error("device has no fp64");
    const bool dbl = opt.dtype == "double";
    if (opt.assume_local) d.local_mem = opt.assume_local;
    if (opt.assume_wg) d.max_wg = opt.assume_wg;
    if (opt.test) return dbl ? run_suite<double>(d, opt) : run_suite<float>(d, opt);
    Plan plan;
    if (!opt.plan.empty()) plan = parse_plan(opt.plan);
    if (!opt.configs.empty()) {
      plan.entries.clear();
      if (!opt.shapes.empty()) {
        plan.shape_sets["cli"] = opt.shapes;
        plan.set_order = {"cli"};
      }
      for (const auto& c : opt.configs)
        plan.entries.push_back({plan.set_order.empty() ? "cli" : plan.set_order[0], parse_config(c)});
      if (plan.set_order.empty()) throw std::runtime_error("--config needs --shapes or a --plan with shapes");
      if (!opt.shapes.empty())
        for (auto& e : plan.entries) e.set = "cli";
    }
    if (plan.entries.empty()) throw std::runtime_error("nothing to run: give --plan, --config or --test");
    return dbl ? run_sweep<double>(d, opt, plan) : run_sweep<float>(d, opt, plan);
  } catch (const cl::Error& e) {
    std::fprintf(stderr, "OpenCL error: %s (%d)\n", e.what(), e.err());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
  }
  return 2;
}
