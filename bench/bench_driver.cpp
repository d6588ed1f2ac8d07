#include "bench_driver.hpp"

#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <set>
#include <sstream>

#include "bench_commit.hpp"
#include "cases/cases.hpp"
#include "report.hpp"
#include "sweep.hpp"
#include "tilecl/device.hpp"
#include "tilecl/error.hpp"
#include "tilecl/runtime.hpp"
#include "tuning/tuning_db.hpp"

namespace tilecl::bench {

namespace fs = std::filesystem;

std::size_t BenchContext::rotation_sets(std::size_t bytes) const {
  const std::size_t cache = std::max<std::uint64_t>(info->global_cache_bytes, 1 << 20);
  std::size_t sets = 1;
  while (sets < 16 && sets * bytes < 4 * cache) ++sets;
  return sets;
}

void BenchContext::add(Row row) {
  std::cerr << "  " << row.family << " " << row.op << " " << row.shape << " " << row.dtype << " " << row.implementation
            << ": " << (row.failed ? "failed (" + row.note + ")" : std::to_string(row.timing.median_ms) + " ms")
            << std::endl;
  rows.push_back(std::move(row));
}

namespace {

struct Settings {
  std::string device;
  bool quick = false;
  std::vector<std::string> families;
  std::string json_path;
  bool first_call = true;
  bool no_first_call = false;
  int max_runs = 0;
  bool sweep = false;
  SweepSettings sweep_settings;
  std::string internal_first_call;  // hidden: measure one op's first call in this (fresh) process
};

std::vector<FamilyBenchmark> all_benchmarks() {
  return {
      elementwise_benchmark(), transpose_benchmark(), reduce_benchmark(),   gemm_benchmark(),
      image_benchmark(),       blas_benchmark(),      gemm_mma_benchmark(),
  };
}

std::vector<FirstCallOp> all_first_calls() {
  std::vector<FirstCallOp> ops;
  for (auto&& family : {elementwise_first_calls()}) ops.insert(ops.end(), family.begin(), family.end());
  for (auto&& op : transpose_first_calls()) ops.push_back(op);
  for (auto&& op : reduce_first_calls()) ops.push_back(op);
  for (auto&& op : gemm_first_calls()) ops.push_back(op);
  for (auto&& op : image_first_calls()) ops.push_back(op);
  for (auto&& op : blas_first_calls()) ops.push_back(op);
  return ops;
}

std::string command_line() {
  std::ifstream file("/proc/self/cmdline", std::ios::binary);
  std::string text, argument;
  while (std::getline(file, argument, '\0')) text += (text.empty() ? "" : " ") + argument;
  return text.empty() ? "tilecl bench" : text;
}

std::string self_executable() {
  std::error_code error;
  auto path = fs::read_symlink("/proc/self/exe", error);
  return error ? "tilecl" : path.string();
}

cl::Device pick_device(const std::string& selector) {
  auto [platform, device] = split_device_selector(selector);
  return select_device(platform, device);
}

nlohmann::json statistics_json() {
  const Statistics s = statistics();
  return {{"memory_hits", s.memory_hits},         {"disk_hits", s.disk_hits}, {"compiles", s.compiles},
          {"compile_seconds", s.compile_seconds}, {"tunings", s.tunings},     {"tuning_seconds", s.tuning_seconds},
          {"tuning_db_hits", s.tuning_db_hits}};
}

// In the child process: time the op's first call (context creation excluded).
int run_internal_first_call(const Settings& settings) {
  cl::Device device = pick_device(settings.device);
  cl::Context context(device);
  cl::CommandQueue queue(context, device);
  for (const auto& op : all_first_calls()) {
    if (op.name != settings.internal_first_call) continue;
    const auto start = std::chrono::steady_clock::now();
    op.call(queue);
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    nlohmann::json out = {{"ms", ms}, {"statistics", statistics_json()}};
    std::cout << out.dump() << std::endl;
    return 0;
  }
  std::cerr << "unknown first-call op " << settings.internal_first_call << std::endl;
  return 2;
}

FirstCallResult run_child(const std::string& op, bool ours, const std::string& scenario, const std::string& environment,
                          const std::string& device) {
  FirstCallResult result{op, ours, scenario, 0, nlohmann::json::object(), ""};
  const std::string command = environment + " '" + self_executable() + "' bench --internal-first-call " + op +
                              (device.empty() ? "" : " --device '" + device + "'") + " 2>/dev/null";
  FILE* pipe = popen(command.c_str(), "r");
  std::string output;
  char buffer[4096];
  while (pipe != nullptr && std::fgets(buffer, sizeof(buffer), pipe) != nullptr) output += buffer;
  const int status = pipe != nullptr ? pclose(pipe) : -1;
  nlohmann::json parsed = nlohmann::json::parse(output, nullptr, false);
  if (status != 0 || parsed.is_discarded()) {
    result.error = "exit status " + std::to_string(status);
    return result;
  }
  result.milliseconds = parsed["ms"].get<double>();
  result.statistics = parsed["statistics"];
  return result;
}

// Each op in fresh processes: cold caches; programs cached but no tuning database; both cached.
std::vector<FirstCallResult> measure_first_calls(const Settings& settings) {
  std::vector<FirstCallResult> results;
  for (const auto& op : all_first_calls()) {
    const fs::path root =
        fs::temp_directory_path() / ("tilecl-first-call-" + std::to_string(::getpid()) + "-" + op.name);
    fs::remove_all(root);
    fs::create_directories(root / "pocl");
    // A private PoCL kernel cache too, so "cold" is cold on a CPU device as well (other drivers ignore it).
    const std::string environment =
        "TILECL_CACHE_DIR='" + (root / "tilecl").string() + "' POCL_CACHE_DIR='" + (root / "pocl").string() + "'";
    std::cerr << "  first call: " << op.name << std::endl;
    results.push_back(run_child(op.name, op.ours, "cold caches", environment, settings.device));
    if (op.ours) {
      fs::remove_all(root / "tilecl" / "tuning");
      results.push_back(run_child(op.name, op.ours, "warm binary cache", environment, settings.device));
      results.push_back(
          run_child(op.name, op.ours, "warm binary cache + tuning database", environment, settings.device));
    }
    fs::remove_all(root);
  }
  return results;
}

// `--sweep`: random shapes per op beside the peers and the copy of the same bytes (sweep.hpp).
int run_sweep_command(const Settings& settings, BenchContext& context, const RunInfo& run) {
  SweepSettings sweep = settings.sweep_settings;
  sweep.families = settings.families;
  std::cout << "shape sweep, seed " << sweep.seed << " (reproduce with --sweep --seed " << sweep.seed << ")"
            << std::endl;
  const std::vector<SweepPoint> points = run_sweep(context, sweep);
  print_sweep(std::cout, points, sweep);
  if (!settings.json_path.empty()) {
    const fs::path json_path(settings.json_path);
    if (json_path.has_parent_path()) fs::create_directories(json_path.parent_path());
    nlohmann::json json = sweep_json(points, sweep);
    json["run"] = {{"command", run.command}, {"date", run.date}, {"commit", run.commit}};
    json["device"] = {{"name", context.info->device_name},
                      {"platform", context.info->platform_name},
                      {"driver", context.info->driver_version},
                      {"fingerprint", context.info->fingerprint()}};
    std::ofstream(json_path) << json.dump(1) << "\n";
    const fs::path chart = json_path.parent_path() / (json_path.stem().string() + ".svg");
    std::ofstream(chart) << sweep_chart_svg(points, context.info->device_name + ", commit " + run.commit);
    std::cout << "\nwrote " << json_path.string() << " and " << chart.string() << std::endl;
  }
  bool any_failed = false;
  for (const auto& point : points) any_failed = any_failed || !point.error.empty();
  return any_failed ? 1 : 0;
}

int run_bench(const Settings& settings) {
  if (!settings.internal_first_call.empty()) return run_internal_first_call(settings);

  BenchContext context;
  context.device = pick_device(settings.device);
  context.context = cl::Context(context.device);
  context.queue = cl::CommandQueue(context.context, context.device, CL_QUEUE_PROFILING_ENABLE);
  context.info = &device_info(context.device);
  context.quick = settings.quick;
  context.measure.time_budget_ms = settings.quick ? 150 : 1000;
  context.measure.max_runs = settings.max_runs > 0 ? settings.max_runs : (settings.quick ? 5 : 15);
  context.measure.warmups = settings.quick ? 1 : 2;

  RunInfo run{command_line(), detail::utc_now(), TILECL_BENCH_COMMIT, settings.quick};
  std::cout << "tilecl " << version() << " bench on " << context.info->device_name << "\n  "
            << context.info->platform_name << ", driver " << context.info->driver_version << ", fingerprint "
            << context.info->fingerprint() << "\n  commit " << run.commit << ", " << run.date << "\n";
  const char* tune = std::getenv("TILECL_TUNE");
  std::cout << "tilecl rows use the parameters a call would use (TILECL_TUNE=" << (tune ? tune : "first-use")
            << ")\n  tuning database: " << (cache_directory().empty() ? "off" : cache_directory()) << "\n"
            << std::endl;

  if (settings.sweep) return run_sweep_command(settings, context, run);

  std::cerr << "measuring device limits" << std::endl;
  context.limits = measure_limits(context);
  const std::set<std::string> wanted(settings.families.begin(), settings.families.end());
  for (const auto& benchmark : all_benchmarks()) {
    if (!wanted.empty() && !wanted.count(benchmark.family)) continue;
    std::cerr << "benchmarking " << benchmark.family << std::endl;
    try {
      benchmark.run(context);
    } catch (const std::exception& error) {
      Row failed;
      failed.family = benchmark.family;
      failed.op = "(family)";
      failed.implementation = "tilecl";
      failed.failed = true;
      failed.note = error.what();
      context.rows.push_back(failed);
    }
  }
  std::vector<FirstCallResult> first_calls;
  if (settings.first_call && !settings.no_first_call && !settings.quick) first_calls = measure_first_calls(settings);

  print_table(std::cout, context.rows, context.limits);
  print_first_calls(std::cout, first_calls);

  if (!settings.json_path.empty()) {
    const fs::path json_path(settings.json_path);
    if (json_path.has_parent_path()) fs::create_directories(json_path.parent_path());
    std::ofstream(json_path) << to_json(run, *context.info, context.limits, context.rows, first_calls).dump(1) << "\n";
    std::set<std::string> families;
    for (const auto& row : context.rows)
      if (row.family != "limits") families.insert(row.family);
    for (const auto& family : families) {
      const fs::path chart = json_path.parent_path() / (json_path.stem().string() + "-" + family + ".svg");
      std::ofstream(chart) << family_chart_svg(family, context.rows, context.limits, *context.info, run);
    }
    std::cout << "\nwrote " << json_path.string() << " and " << families.size() << " chart(s) beside it" << std::endl;
  }
  bool any_failed = false;
  for (const auto& row : context.rows) any_failed = any_failed || row.failed;
  return any_failed ? 1 : 0;
}

}  // namespace

std::function<int()> add_bench_command(CLI::App& app) {
  auto settings = std::make_shared<Settings>();
  auto* command = app.add_subcommand("bench", "Benchmark tilecl beside its peers and the device's limits");
  command->add_option("--device", settings->device, "Device as P:D (index or name substring each)");
  command->add_flag("--quick", settings->quick,
                    "Small sizes and few runs (under a minute on a CPU); no first-call section");
  // --family: a benchmark's family, or (--sweep) a sweep op's family or name, or "overhead" (the sweep's warm tiny
  // calls beside CLBlast's, which a sweep without --family also runs).
  std::set<std::string> families{"overhead"};
  for (const auto& benchmark : all_benchmarks()) families.insert(benchmark.family);
  for (const auto& op : sweep_ops(DeviceInfo{})) families.insert({op.family, op.op});
  command->add_option("--family", settings->families, "Families to run (default: all)")
      ->delimiter(',')
      ->check(CLI::IsMember(families));
  command->add_option("--json", settings->json_path,
                      "Write results as JSON here, and an SVG chart per family beside it");
  command->add_flag("--no-first-call", settings->no_first_call, "Skip the first-call latency measurements");
  command->add_option("--runs", settings->max_runs, "Timed runs per row at most (after warm-up)");
  command->add_flag("--sweep", settings->sweep,
                    "Random shapes per op (seeded) beside the peers and a copy of the same bytes, with a summary per "
                    "op (geometric mean, worst, shapes below the peer); --family limits the ops");
  command->add_option("--seed", settings->sweep_settings.seed, "The sweep's random seed (default 1)");
  command->add_option("--sweep-count", settings->sweep_settings.count, "Shapes per op in the sweep (default: per op)");
  command->add_option("--internal-first-call", settings->internal_first_call)->group("");
  return [settings] { return run_bench(*settings); };
}

}  // namespace tilecl::bench
