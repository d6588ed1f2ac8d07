// Small OpenCL helpers for the standalone image-family harness: device selection from TILECL_PLATFORM /
// TILECL_DEVICE, a program cache keyed by family and options, profiling-event timing and a JSON writer.
#pragma once

#include <CL/opencl.hpp>
#include <algorithm>
#include <atomic>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <mutex>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace bench {

inline std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

inline std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// Picks an element by index ("1") or by case-insensitive name substring ("nvidia"); empty picks the first.
template <typename T, typename NameOf>
std::size_t pick(const std::vector<T>& items, const char* env, NameOf name_of) {
  const char* value = std::getenv(env);
  if (value == nullptr || *value == '\0') return 0;
  const std::string want(value);
  if (std::all_of(want.begin(), want.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); })) {
    const std::size_t index = std::stoul(want);
    if (index < items.size()) return index;
    throw std::runtime_error(std::string(env) + "=" + want + ": index out of range");
  }
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (lower(name_of(items[i])).find(lower(want)) != std::string::npos) return i;
  }
  throw std::runtime_error(std::string(env) + "=" + want + ": no match");
}

struct Context {
  cl::Platform platform;
  cl::Device device;
  cl::Context context;
  cl::CommandQueue queue;
  std::string device_name;
  std::string platform_name;
  bool is_gpu = false;
  std::size_t max_work_group = 0;
  std::size_t local_mem = 0;
  std::size_t cache_bytes = 0;
  std::size_t max_alloc = 0;

  static Context create() {
    Context ctx;
    std::vector<cl::Platform> platforms;
    cl::Platform::get(&platforms);
    if (platforms.empty()) throw std::runtime_error("no OpenCL platform");
    ctx.platform = platforms[pick(platforms, "TILECL_PLATFORM",
                                  [](const cl::Platform& p) { return p.getInfo<CL_PLATFORM_NAME>(); })];
    std::vector<cl::Device> devices;
    ctx.platform.getDevices(CL_DEVICE_TYPE_ALL, &devices);
    if (devices.empty()) throw std::runtime_error("no OpenCL device on the platform");
    ctx.device =
        devices[pick(devices, "TILECL_DEVICE", [](const cl::Device& d) { return d.getInfo<CL_DEVICE_NAME>(); })];
    ctx.context = cl::Context(ctx.device);
    ctx.queue = cl::CommandQueue(ctx.context, ctx.device, CL_QUEUE_PROFILING_ENABLE);
    ctx.device_name = ctx.device.getInfo<CL_DEVICE_NAME>();
    ctx.platform_name = ctx.platform.getInfo<CL_PLATFORM_NAME>();
    ctx.is_gpu = (ctx.device.getInfo<CL_DEVICE_TYPE>() & CL_DEVICE_TYPE_GPU) != 0;
    ctx.max_work_group = ctx.device.getInfo<CL_DEVICE_MAX_WORK_GROUP_SIZE>();
    ctx.local_mem = ctx.device.getInfo<CL_DEVICE_LOCAL_MEM_SIZE>();
    ctx.cache_bytes = ctx.device.getInfo<CL_DEVICE_GLOBAL_MEM_CACHE_SIZE>();
    ctx.max_alloc = ctx.device.getInfo<CL_DEVICE_MAX_MEM_ALLOC_SIZE>();
    return ctx;
  }
};

// Programs keyed by family + options; failures are remembered (with their log) and not retried.
class ProgramCache {
 public:
  ProgramCache(Context& ctx, std::string kernel_dir) : ctx_(ctx), dir_(std::move(kernel_dir)) {}

  // Returns nullptr and fills *error when the build fails.
  cl::Program* get(const std::string& family, const std::string& options, std::string* error, double* build_s) {
    const std::string key = family + "|" + options;
    if (auto it = failed_.find(key); it != failed_.end()) {
      *error = it->second;
      return nullptr;
    }
    if (auto it = programs_.find(key); it != programs_.end()) return &it->second;
    auto& source = sources_[family];
    if (source.empty()) source = read_text(dir_ + "/common.clh") + "\n" + read_text(dir_ + "/" + family + ".cl");
    const auto start = std::chrono::steady_clock::now();
    cl::Program program(ctx_.context, source);
    try {
      program.build({ctx_.device}, ("-cl-std=CL1.2 " + options).c_str());
    } catch (const cl::Error&) {
      std::string log = program.getBuildInfo<CL_PROGRAM_BUILD_LOG>(ctx_.device);
      if (log.size() > 1500) log = log.substr(0, 1500) + "...";
      failed_[key] = "build failed (" + options + "): " + log;
      *error = failed_[key];
      return nullptr;
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (build_s != nullptr) *build_s = seconds;
    total_build_s_ += seconds;
    ++builds_;
    return &programs_.emplace(key, std::move(program)).first->second;
  }

  // Builds many programs at once on `threads` host threads (clBuildProgram is thread-safe; a GPU driver's
  // compiler is mostly serial per call, so this divides the compile time of a sweep).
  void prebuild(const std::set<std::pair<std::string, std::string>>& items, unsigned threads) {
    std::vector<std::pair<std::string, std::string>> todo;
    for (const auto& item : items) {
      const std::string key = item.first + "|" + item.second;
      if (programs_.count(key) == 0 && failed_.count(key) == 0) todo.push_back(item);
    }
    for (const auto& item : todo) {
      if (sources_[item.first].empty()) {
        sources_[item.first] = read_text(dir_ + "/common.clh") + "\n" + read_text(dir_ + "/" + item.first + ".cl");
      }
    }
    std::atomic<std::size_t> next{0};
    std::mutex mutex;
    const auto start = std::chrono::steady_clock::now();
    auto work = [&]() {
      for (std::size_t i = next++; i < todo.size(); i = next++) {
        const auto& [family, options] = todo[i];
        const std::string key = family + "|" + options;
        try {
          cl::Program program(ctx_.context, sources_.at(family));
          try {
            program.build({ctx_.device}, ("-cl-std=CL1.2 " + options).c_str());
            std::lock_guard<std::mutex> lock(mutex);
            programs_.emplace(key, std::move(program));
            ++builds_;
          } catch (const cl::Error&) {
            std::string log = program.getBuildInfo<CL_PROGRAM_BUILD_LOG>(ctx_.device);
            if (log.size() > 1500) log = log.substr(0, 1500) + "...";
            std::lock_guard<std::mutex> lock(mutex);
            failed_[key] = "build failed (" + options + "): " + log;
          }
        } catch (const cl::Error& e) {
          std::lock_guard<std::mutex> lock(mutex);
          failed_[key] = "program creation failed (" + options + "): error " + std::to_string(e.err());
        }
      }
    };
    std::vector<std::thread> pool;
    for (unsigned t = 1; t < std::max(1u, threads); ++t) pool.emplace_back(work);
    work();
    for (auto& t : pool) t.join();
    total_build_s_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }

  cl::Kernel kernel(const std::string& family, const std::string& options, const std::string& name,
                    std::string* error) {
    const std::string key = family + "|" + options + "|" + name;
    if (auto it = kernels_.find(key); it != kernels_.end()) return it->second;
    cl::Program* program = get(family, options, error, nullptr);
    if (program == nullptr) return cl::Kernel();
    try {
      return kernels_[key] = cl::Kernel(*program, name.c_str());
    } catch (const cl::Error& e) {
      *error = "no kernel " + name + " in program (" + options + "): error " + std::to_string(e.err());
      return cl::Kernel();
    }
  }

  int builds() const { return builds_; }
  double total_build_seconds() const { return total_build_s_; }

 private:
  Context& ctx_;
  std::string dir_;
  std::map<std::string, std::string> sources_;
  std::map<std::string, cl::Program> programs_;
  std::map<std::string, cl::Kernel> kernels_;
  std::map<std::string, std::string> failed_;
  int builds_ = 0;
  double total_build_s_ = 0.0;
};

inline double event_seconds(const cl::Event& first, const cl::Event& last) {
  const cl_ulong start = first.getProfilingInfo<CL_PROFILING_COMMAND_START>();
  const cl_ulong end = last.getProfilingInfo<CL_PROFILING_COMMAND_END>();
  return static_cast<double>(end - start) * 1e-9;
}

inline double median(std::vector<double> values) {
  if (values.empty()) return 0.0;
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 == 1 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

inline std::size_t round_up(std::size_t value, std::size_t multiple) {
  return (value + multiple - 1) / multiple * multiple;
}

inline std::string json_escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
    } else {
      out += c;
    }
  }
  return out;
}

// One flat JSON object per record: keys with string or number values.
class JsonRecord {
 public:
  JsonRecord& add(const std::string& key, const std::string& value) {
    fields_.push_back("\"" + json_escape(key) + "\": \"" + json_escape(value) + "\"");
    return *this;
  }
  JsonRecord& add(const std::string& key, const char* value) { return add(key, std::string(value)); }
  JsonRecord& add(const std::string& key, double value) {
    char buf[64];
    if (value != value) {
      std::snprintf(buf, sizeof buf, "null");
    } else {
      std::snprintf(buf, sizeof buf, "%.6g", value);
    }
    fields_.push_back("\"" + json_escape(key) + "\": " + buf);
    return *this;
  }
  JsonRecord& add(const std::string& key, int value) { return add(key, static_cast<double>(value)); }
  JsonRecord& add(const std::string& key, bool value) {
    fields_.push_back("\"" + json_escape(key) + "\": " + (value ? "true" : "false"));
    return *this;
  }
  std::string str() const {
    std::string out = "{";
    for (std::size_t i = 0; i < fields_.size(); ++i) out += (i ? ", " : "") + fields_[i];
    return out + "}";
  }

 private:
  std::vector<std::string> fields_;
};

}  // namespace bench
