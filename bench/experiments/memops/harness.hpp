// Shared pieces of the memops sweep harnesses (transpose_sweep, reduce_sweep): device selection, program
// builds from a kernel directory, configuration strings, timing with profiling events, copy bandwidth,
// a compact table and a small JSON writer.
#pragma once

#include <CL/opencl.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <functional>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace memops {

// ---------------------------------------------------------------------------------------------------------
// Element types

enum class DType { f32, f64, i32, u8, u32, u64 };

inline const char* cl_name(DType t) {
  switch (t) {
    case DType::f32: return "float";
    case DType::f64: return "double";
    case DType::i32: return "int";
    case DType::u8: return "uchar";
    case DType::u32: return "uint";
    case DType::u64: return "ulong";
  }
  return "?";
}

inline std::size_t size_of(DType t) {
  switch (t) {
    case DType::f32: return 4;
    case DType::f64: return 8;
    case DType::i32: return 4;
    case DType::u8: return 1;
    case DType::u32: return 4;
    case DType::u64: return 8;
  }
  return 0;
}

inline DType parse_dtype(const std::string& s) {
  if (s == "float" || s == "f32") return DType::f32;
  if (s == "double" || s == "f64") return DType::f64;
  if (s == "int" || s == "int32" || s == "i32") return DType::i32;
  if (s == "uchar" || s == "uint8" || s == "u8") return DType::u8;
  if (s == "uint" || s == "uint32" || s == "u32") return DType::u32;
  if (s == "ulong" || s == "uint64" || s == "u64") return DType::u64;
  throw std::runtime_error("unknown dtype '" + s + "'");
}

// ---------------------------------------------------------------------------------------------------------
// Device

struct Env {
  cl::Platform platform;
  cl::Device device;
  cl::Context context;
  cl::CommandQueue queue;  // in order, profiling enabled
  std::string platform_name, device_name;
  bool is_cpu = false;
};

// Picks an entry from an environment variable that holds an index or a name substring; default 0.
template <typename T, typename NameOf>
std::size_t pick(const std::vector<T>& items, const char* variable, NameOf name_of) {
  const char* value = std::getenv(variable);
  if (value == nullptr || *value == '\0') return 0;
  const std::string text(value);
  if (text.find_first_not_of("0123456789") == std::string::npos) {
    const std::size_t index = std::stoul(text);
    if (index < items.size()) return index;
    throw std::runtime_error(std::string(variable) + "=" + text + " is out of range");
  }
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (name_of(items[i]).find(text) != std::string::npos) return i;
  }
  throw std::runtime_error(std::string(variable) + "=" + text + " matches nothing");
}

inline Env open_device() {
  Env env;
  std::vector<cl::Platform> platforms;
  cl::Platform::get(&platforms);
  if (platforms.empty()) throw std::runtime_error("no OpenCL platform");
  env.platform = platforms[pick(platforms, "TILECL_PLATFORM",
                                [](const cl::Platform& p) { return p.getInfo<CL_PLATFORM_NAME>(); })];
  std::vector<cl::Device> devices;
  env.platform.getDevices(CL_DEVICE_TYPE_ALL, &devices);
  if (devices.empty()) throw std::runtime_error("no OpenCL device");
  env.device =
      devices[pick(devices, "TILECL_DEVICE", [](const cl::Device& d) { return d.getInfo<CL_DEVICE_NAME>(); })];
  env.context = cl::Context(env.device);
  env.queue = cl::CommandQueue(env.context, env.device, CL_QUEUE_PROFILING_ENABLE);
  env.platform_name = env.platform.getInfo<CL_PLATFORM_NAME>();
  env.device_name = env.device.getInfo<CL_DEVICE_NAME>();
  env.is_cpu = (env.device.getInfo<CL_DEVICE_TYPE>() & CL_DEVICE_TYPE_CPU) != 0;
  return env;
}

inline bool has_extension(const cl::Device& device, const std::string& name) {
  const std::string extensions = " " + device.getInfo<CL_DEVICE_EXTENSIONS>() + " ";
  return extensions.find(" " + name + " ") != std::string::npos;
}

// Assumed size of the last-level cache in front of global memory: what the device reports, at least 64 MiB
// (some drivers report only a first-level cache).
inline std::size_t llc_bytes(const cl::Device& device) {
  const std::size_t reported = device.getInfo<CL_DEVICE_GLOBAL_MEM_CACHE_SIZE>();
  return std::max<std::size_t>(reported, std::size_t(64) << 20);
}

inline void print_device(const Env& env) {
  const cl::Device& d = env.device;
  std::printf("platform: %s | device: %s | driver %s | %s | CUs %u | local %lu KiB | cache %lu KiB\n",
              env.platform_name.c_str(), env.device_name.c_str(), d.getInfo<CL_DRIVER_VERSION>().c_str(),
              d.getInfo<CL_DEVICE_VERSION>().c_str(), d.getInfo<CL_DEVICE_MAX_COMPUTE_UNITS>(),
              static_cast<unsigned long>(d.getInfo<CL_DEVICE_LOCAL_MEM_SIZE>() >> 10),
              static_cast<unsigned long>(d.getInfo<CL_DEVICE_GLOBAL_MEM_CACHE_SIZE>() >> 10));
}

// ---------------------------------------------------------------------------------------------------------
// Sources and programs

inline std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// common.clh + <family>.cl, exactly as the runtime assembles them.
inline std::string family_source(const std::string& kernel_dir, const std::string& family) {
  return read_file(kernel_dir + "/common.clh") + "\n" + read_file(kernel_dir + "/" + family + ".cl");
}

struct BuildFailure : std::runtime_error {
  using std::runtime_error::runtime_error;
};

inline cl::Program build_program(const Env& env, const std::string& source, const std::string& options) {
  cl::Program program(env.context, source);
  try {
    program.build({env.device}, options.c_str());
  } catch (const cl::Error&) {
    const std::string log = program.getBuildInfo<CL_PROGRAM_BUILD_LOG>(env.device);
    throw BuildFailure("build failed with '" + options + "':\n" + log.substr(0, 4000));
  }
  if (std::getenv("MEMOPS_SHOW_LOG") != nullptr) {
    std::printf("build log for '%s':\n%s\n", options.c_str(),
                program.getBuildInfo<CL_PROGRAM_BUILD_LOG>(env.device).c_str());
  }
  return program;
}

// ---------------------------------------------------------------------------------------------------------
// Configurations: "variant/NAME=V,NAME=V@launch=v,launch=v". Build values become -D options (sorted);
// launch values only shape the NDRange.

struct Config {
  std::string text;
  std::string variant;
  std::map<std::string, std::string> build;  // sorted: options render in a stable order
  std::map<std::string, long> launch;

  long value(const std::string& name, long fallback) const {
    auto b = build.find(name);
    if (b != build.end()) return std::stol(b->second);
    auto l = launch.find(name);
    return l != launch.end() ? l->second : fallback;
  }
};

inline Config parse_config(const std::string& text) {
  Config config;
  config.text = text;
  const std::size_t slash = text.find('/');
  const std::size_t at = text.find('@');
  config.variant = text.substr(0, std::min(slash, at));
  auto parse_list = [&](const std::string& list, auto&& add) {
    std::stringstream stream(list);
    std::string item;
    while (std::getline(stream, item, ',')) {
      if (item.empty()) continue;
      const std::size_t eq = item.find('=');
      if (eq == std::string::npos) throw std::runtime_error("bad config item '" + item + "' in " + text);
      add(item.substr(0, eq), item.substr(eq + 1));
    }
  };
  if (slash != std::string::npos) {
    parse_list(text.substr(slash + 1, at == std::string::npos ? std::string::npos : at - slash - 1),
               [&](const std::string& k, const std::string& v) { config.build[k] = v; });
  }
  if (at != std::string::npos) {
    parse_list(text.substr(at + 1),
               [&](const std::string& k, const std::string& v) { config.launch[k] = std::stol(v); });
  }
  return config;
}

// ---------------------------------------------------------------------------------------------------------
// Timing. Every operation (ours and the peers') is bracketed by two empty one-work-item kernels; its time
// is START(after) - END(before) less the same span with nothing in between (one launch gap, measured once),
// so it covers every kernel the operation enqueues and the gaps between them, whatever the operation does
// internally. Our own kernels also report their summed event time.

struct Timing {
  double median_s = 0, min_s = 0;  // bracketed span, less the span of an empty bracket
  double kernel_median_s = 0;      // summed kernel events of the operation (0 if not provided)
  std::vector<double> each_kernel_median_s;  // per kernel of the operation, in enqueue order
};

inline double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

class Timer {
 public:
  explicit Timer(const Env& env) : env_(env) {
    cl::Program program = build_program(env, "__kernel void memops_bench_mark(__global int* p) {}", "");
    mark_ = cl::Kernel(program, "memops_bench_mark");
    dummy_ = cl::Buffer(env.context, CL_MEM_READ_WRITE, 64);
    mark_.setArg(0, dummy_);
    idle_s_ = 0;
    idle_s_ = time([](int, std::vector<cl::Event>&) {}, 3, 21).median_s;
  }

  // Median span of an empty bracket: the launch gap subtracted from every measurement.
  double idle_seconds() const { return idle_s_; }

  // enqueue(rep, events): enqueues the operation once (rep selects rotating buffers); it may append the
  // events of its own kernels to `events` for the kernel-time column.
  Timing time(const std::function<void(int, std::vector<cl::Event>&)>& enqueue, int warmup, int reps) {
    std::vector<cl::Event> ignored;
    for (int w = 0; w < warmup; ++w) enqueue(w, ignored);
    env_.queue.finish();
    std::vector<cl::Event> before(reps), after(reps);
    std::vector<std::vector<cl::Event>> kernels(reps);
    for (int r = 0; r < reps; ++r) {
      env_.queue.enqueueNDRangeKernel(mark_, cl::NullRange, cl::NDRange(1), cl::NullRange, nullptr, &before[r]);
      enqueue(warmup + r, kernels[r]);
      env_.queue.enqueueNDRangeKernel(mark_, cl::NullRange, cl::NDRange(1), cl::NullRange, nullptr, &after[r]);
    }
    env_.queue.finish();
    std::vector<double> spans, kernel_times;
    std::vector<std::vector<double>> each(kernels.empty() ? 0 : kernels[0].size());
    for (int r = 0; r < reps; ++r) {
      const auto t0 = before[r].getProfilingInfo<CL_PROFILING_COMMAND_END>();
      const auto t1 = after[r].getProfilingInfo<CL_PROFILING_COMMAND_START>();
      spans.push_back(std::max(0.0, 1e-9 * static_cast<double>(t1 > t0 ? t1 - t0 : 0) - idle_s_));
      double k = 0;
      for (std::size_t i = 0; i < kernels[r].size(); ++i) {
        const cl::Event& e = kernels[r][i];
        const double d = 1e-9 * static_cast<double>(e.getProfilingInfo<CL_PROFILING_COMMAND_END>() -
                                                    e.getProfilingInfo<CL_PROFILING_COMMAND_START>());
        k += d;
        if (i < each.size()) each[i].push_back(d);
      }
      kernel_times.push_back(k);
    }
    Timing t;
    t.median_s = median(spans);
    t.min_s = *std::min_element(spans.begin(), spans.end());
    t.kernel_median_s = median(kernel_times);
    for (const auto& samples : each) t.each_kernel_median_s.push_back(median(samples));
    return t;
  }

 private:
  const Env& env_;
  cl::Kernel mark_;
  cl::Buffer dummy_;
  double idle_s_ = 0;
};

// Number of copies of an operation's buffers to rotate through so that consecutive repetitions never find
// their data in the last-level cache: enough copies to cover twice the assumed LLC, at most 16.
inline int rotation_count(const cl::Device& device, std::size_t bytes_per_rep) {
  const std::size_t need = 2 * llc_bytes(device);
  const std::size_t count = (need + bytes_per_rep - 1) / std::max<std::size_t>(bytes_per_rep, 1);
  return static_cast<int>(std::clamp<std::size_t>(count, 1, 16));
}

// Device copy bandwidth (read + write bytes per second) with clEnqueueCopyBuffer of `bytes`, rotating
// buffer pairs so that the working set exceeds the last-level cache.
inline Timing copy_timing(const Env& env, Timer& timer, std::size_t bytes, int warmup, int reps) {
  const int rotation = rotation_count(env.device, 2 * bytes);
  std::vector<cl::Buffer> src, dst;
  for (int i = 0; i < rotation; ++i) {
    src.emplace_back(env.context, CL_MEM_READ_WRITE, bytes);
    dst.emplace_back(env.context, CL_MEM_READ_WRITE, bytes);
    env.queue.enqueueFillBuffer(src.back(), std::uint8_t(i + 1), 0, bytes);
    env.queue.enqueueFillBuffer(dst.back(), std::uint8_t(0), 0, bytes);
  }
  env.queue.finish();
  return timer.time(
      [&](int rep, std::vector<cl::Event>& events) {
        events.emplace_back();
        env.queue.enqueueCopyBuffer(src[rep % rotation], dst[rep % rotation], 0, 0, bytes, nullptr,
                                    &events.back());
      },
      warmup, reps);
}

// ---------------------------------------------------------------------------------------------------------
// Pattern fill on the device: 32-bit word w of a buffer holds pattern_word(w, seed), so large inputs need no
// host-side generation and any element can be predicted on the host for sampled checks.

inline std::uint32_t pattern_word(std::uint64_t w, std::uint32_t seed) {
  std::uint32_t x = static_cast<std::uint32_t>(w) ^ (static_cast<std::uint32_t>(w >> 32) * 0x85EBCA6Bu) ^ seed;
  x ^= x >> 16;
  x *= 0x7FEB352Du;
  x ^= x >> 15;
  x *= 0x846CA68Bu;
  x ^= x >> 16;
  return x;
}

inline const char* kPatternSource = R"CLC(
__kernel void memops_fill_pattern(__global uint* p, ulong words, uint seed) {
  const ulong w = get_global_id(0);
  if (w >= words) return;
  uint x = (uint)w ^ ((uint)(w >> 32) * 0x85EBCA6Bu) ^ seed;
  x ^= x >> 16;
  x *= 0x7FEB352Du;
  x ^= x >> 15;
  x *= 0x846CA68Bu;
  x ^= x >> 16;
  p[w] = x;
}
)CLC";

// Fills `bytes` (a multiple of 4) of `buffer` with the pattern.
inline void fill_pattern(const Env& env, const cl::Buffer& buffer, std::size_t bytes, std::uint32_t seed) {
  static cl::Program program;
  static cl::Kernel kernel;
  if (!kernel()) {
    program = build_program(env, kPatternSource, "");
    kernel = cl::Kernel(program, "memops_fill_pattern");
  }
  const std::size_t words = bytes / 4;
  kernel.setArg(0, buffer);
  kernel.setArg(1, static_cast<cl_ulong>(words));
  kernel.setArg(2, seed);
  env.queue.enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange((words + 255) / 256 * 256), cl::NDRange(256));
}

// The byte at `offset` of a buffer filled with the pattern.
inline std::uint8_t pattern_byte(std::uint64_t offset, std::uint32_t seed) {
  return static_cast<std::uint8_t>(pattern_word(offset / 4, seed) >> (8 * (offset % 4)));
}

// ---------------------------------------------------------------------------------------------------------
// Random data (splitmix64: fast, reproducible from a printed seed)

class Random {
 public:
  explicit Random(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  double uniform() { return static_cast<double>(next() >> 11) * (1.0 / 9007199254740992.0); }  // [0, 1)
  float uniform_float() { return static_cast<float>(next() >> 40) * (1.0f / 16777216.0f); }  // [0, 1)

 private:
  std::uint64_t state_;
};

inline std::uint64_t seed_from_env() {
  const char* s = std::getenv("MEMOPS_SEED");
  return s ? std::strtoull(s, nullptr, 0) : 20261129ull;
}

// ---------------------------------------------------------------------------------------------------------
// JSON (flat records; enough for results files)

class JsonRecord {
 public:
  JsonRecord& add(const std::string& key, const std::string& value) {
    std::string escaped;
    for (char c : value) {
      if (c == '"' || c == '\\') escaped += '\\';
      if (c == '\n') {
        escaped += "\\n";
        continue;
      }
      escaped += c;
    }
    fields_.push_back("\"" + key + "\": \"" + escaped + "\"");
    return *this;
  }
  JsonRecord& add(const std::string& key, const char* value) { return add(key, std::string(value)); }
  JsonRecord& add(const std::string& key, double value) {
    char text[64];
    if (std::isfinite(value)) {
      std::snprintf(text, sizeof text, "%.6g", value);
    } else {
      std::snprintf(text, sizeof text, "null");
    }
    fields_.push_back("\"" + key + "\": " + text);
    return *this;
  }
  JsonRecord& add(const std::string& key, long value) {
    fields_.push_back("\"" + key + "\": " + std::to_string(value));
    return *this;
  }
  JsonRecord& add(const std::string& key, int value) { return add(key, static_cast<long>(value)); }
  JsonRecord& add(const std::string& key, bool value) {
    fields_.push_back("\"" + key + "\": " + (value ? "true" : "false"));
    return *this;
  }
  std::string str() const {
    std::string s = "{";
    for (std::size_t i = 0; i < fields_.size(); ++i) s += (i ? ", " : "") + fields_[i];
    return s + "}";
  }

 private:
  std::vector<std::string> fields_;
};

inline void write_json(const std::string& path, const JsonRecord& header, const std::vector<JsonRecord>& rows) {
  if (path.empty()) return;
  std::ofstream out(path);
  if (!out) throw std::runtime_error("cannot write " + path);
  out << "{\n\"run\": " << header.str() << ",\n\"results\": [\n";
  for (std::size_t i = 0; i < rows.size(); ++i) out << "  " << rows[i].str() << (i + 1 < rows.size() ? ",\n" : "\n");
  out << "]\n}\n";
}

inline std::string now_text() {
  const std::time_t t = std::time(nullptr);
  char text[64];
  std::strftime(text, sizeof text, "%Y-%m-%d %H:%M:%S", std::localtime(&t));
  return text;
}

inline double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace memops
