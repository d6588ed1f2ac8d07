// A second process for cross-process tests. Prints one JSON object on stdout.
//   tilecl_test_probe axpy N              runs a float axpy of length N, checks it, reports statistics
//   tilecl_test_probe choose OP DTYPE SHAPE  resolves the parameters a call would use (may tune)
//   tilecl_test_probe record PREFIX COUNT    merges COUNT tuning-database entries (ops PREFIX0, PREFIX1, ...)
//                                            into the device's database, one merge each
//   tilecl_test_probe threads N              N threads start at once, each selecting the device, making its own
//                                            context and queue and checking an axpy and a reduce_value: every
//                                            first use (discovery, device query, build, tuning) from N threads
// Every report includes the statistics and "reports", the number of warnings the library printed.
#include <atomic>
#include <chrono>
#include <cmath>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "log.hpp"
#include "tilecl/tilecl.hpp"
#include "tuning/tuning_db.hpp"

namespace {

nlohmann::json statistics_json() {
  const tilecl::Statistics s = tilecl::statistics();
  return {{"memory_hits", s.memory_hits},
          {"disk_hits", s.disk_hits},
          {"disk_writes", s.disk_writes},
          {"disk_rejects", s.disk_rejects},
          {"compiles", s.compiles},
          {"compile_seconds", s.compile_seconds},
          {"tunings", s.tunings},
          {"tuning_db_hits", s.tuning_db_hits},
          {"reports", tilecl::detail::reports_so_far().size()}};
}

int run_axpy(std::size_t n) {
  cl::Device device = tilecl::select_device();
  cl::Context context(device);
  cl::CommandQueue queue(context, device);
  std::vector<float> x(n), y(n);
  for (std::size_t i = 0; i < n; ++i) {
    x[i] = static_cast<float>(i % 17) * 0.5f;
    y[i] = static_cast<float>(i % 5);
  }
  cl::Buffer x_buffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, n * sizeof(float), x.data());
  cl::Buffer y_buffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, n * sizeof(float), y.data());
  const auto start = std::chrono::steady_clock::now();
  tilecl::axpy<float>(queue, n, 2.0f, x_buffer, 0, y_buffer, 0).wait();
  const double first_call_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  std::vector<float> result(n);
  queue.enqueueReadBuffer(y_buffer, CL_TRUE, 0, n * sizeof(float), result.data());
  bool correct = true;
  for (std::size_t i = 0; i < n; ++i) correct = correct && result[i] == 2.0f * x[i] + y[i];
  nlohmann::json out = statistics_json();
  out["correct"] = correct;
  out["first_call_ms"] = first_call_ms;
  std::cout << out.dump() << std::endl;
  return correct ? 0 : 1;
}

int run_choose(const std::string& op, const std::string& dtype, const std::string& shape) {
  cl::Device device = tilecl::select_device();
  cl::Context context(device);
  cl::CommandQueue queue(context, device);
  const auto choice = tilecl::tuning::parameters_for(queue, op, dtype, shape);
  nlohmann::json out = statistics_json();
  out["origin"] = tilecl::tuning::origin_name(choice.origin);
  out["parameters"] = choice.parameters.to_string();
  out["bucket"] = choice.bucket;
  std::cout << out.dump() << std::endl;
  return 0;
}

int run_record(const std::string& prefix, std::size_t count) {
  const tilecl::DeviceInfo& device = tilecl::device_info(tilecl::select_device());
  const tilecl::detail::TuningDatabase database(device);
  bool written = true;
  for (std::size_t i = 0; i < count; ++i) {
    tilecl::detail::TuningEntry entry;
    entry.op = prefix + std::to_string(i);
    entry.dtype = "float";
    entry.bucket = "n<2^14";
    entry.source_hash = "0123456789abcdef";
    entry.parameters = {"naive", {{"WG_X", 64}}};
    entry.origin = "tune";
    entry.date = tilecl::detail::utc_now();
    written = database.merge({{entry}, {}}) && written;
  }
  nlohmann::json out = statistics_json();
  out["written"] = written;
  std::cout << out.dump() << std::endl;
  return written ? 0 : 1;
}

// One thread's first use: device, context, queue, two ops; an empty string when right, else what went wrong.
std::string first_use_round(std::size_t index) {
  try {
    cl::Device device = tilecl::select_device();
    cl::Context context(device);
    cl::CommandQueue queue(context, device);
    const std::size_t n = 3000 + 7 * index;
    std::vector<float> x(n), y(n);
    double sum = 0;
    for (std::size_t i = 0; i < n; ++i) {
      x[i] = static_cast<float>((i * 7 + index) % 13) * 0.25f;
      y[i] = static_cast<float>(i % 3);
      sum += x[i];
    }
    cl::Buffer x_buffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, n * sizeof(float), x.data());
    cl::Buffer y_buffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, n * sizeof(float), y.data());
    tilecl::axpy<float>(queue, n, 2.0f, x_buffer, 0, y_buffer, 0);
    const float got_sum = tilecl::reduce_value<float>(queue, tilecl::ReduceOp::Sum, n, x_buffer, 0);
    std::vector<float> result(n);
    queue.enqueueReadBuffer(y_buffer, CL_TRUE, 0, n * sizeof(float), result.data());
    for (std::size_t i = 0; i < n; ++i)
      if (result[i] != 2.0f * x[i] + y[i]) return "axpy wrong at " + std::to_string(i);
    if (std::abs(got_sum - sum) > 1e-3 * sum)
      return "reduce_value " + std::to_string(got_sum) + " != " + std::to_string(sum);
    return {};
  } catch (const std::exception& error) {
    return error.what();
  }
}

int run_threads(std::size_t count) {
  std::vector<std::string> failures(count);
  std::atomic<std::size_t> ready{0};
  std::vector<std::thread> threads;
  for (std::size_t t = 0; t < count; ++t) {
    threads.emplace_back([&, t] {
      ++ready;
      while (ready < count) std::this_thread::yield();
      failures[t] = first_use_round(t);
    });
  }
  for (auto& thread : threads) thread.join();
  nlohmann::json out = statistics_json();
  out["failures"] = nlohmann::json::array();
  for (const auto& failure : failures)
    if (!failure.empty()) out["failures"].push_back(failure);
  out["correct"] = out["failures"].empty();
  std::cout << out.dump() << std::endl;
  return out["correct"] ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const std::vector<std::string> args(argv + 1, argv + argc);
    if (args.size() == 2 && args[0] == "axpy") return run_axpy(std::stoul(args[1]));
    if (args.size() == 4 && args[0] == "choose") return run_choose(args[1], args[2], args[3]);
    if (args.size() == 3 && args[0] == "record") return run_record(args[1], std::stoul(args[2]));
    if (args.size() == 2 && args[0] == "threads") return run_threads(std::stoul(args[1]));
    std::cerr << "usage: tilecl_test_probe axpy N | choose OP DTYPE SHAPE | record PREFIX COUNT | threads N\n";
    return 2;
  } catch (const std::exception& error) {
    std::cerr << "tilecl_test_probe: " << error.what() << std::endl;
    return 1;
  }
}
