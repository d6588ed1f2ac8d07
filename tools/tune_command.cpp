// tilecl tune: searches each op's space ahead of time and writes the winners to the tuning database.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iomanip>
#include <iostream>
#include <set>
#include <sstream>

#include "checks.hpp"
#include "commands.hpp"
#include "kernel_sources.hpp"
#include "text_table.hpp"
#include "tilecl/device.hpp"
#include "tilecl/error.hpp"
#include "tuning/op_registry.hpp"
#include "tuning/tuning_db.hpp"
#include "tuning/tuning_service.hpp"

namespace tilecl::tool {
namespace {

struct TuneSettings {
  DeviceOption device;
  std::vector<std::string> ops;
  std::vector<std::string> dtypes;
  std::vector<std::string> shapes;
  double budget_ms = 10000;
  std::string strategy = "exhaustive";
  std::uint64_t seed = 1;
  std::size_t max_candidates = 0;
  bool force = false;
};

std::string fixed(double value, int digits) {
  std::ostringstream text;
  text << std::fixed << std::setprecision(digits) << value;
  return text.str();
}

std::string rate(double work, const char* unit, double milliseconds) {
  if (milliseconds <= 0) return "-";
  const double per_second = work / (milliseconds * 1e-3);
  return std::string(unit) == "flop" ? fixed(per_second * 1e-9, 1) + " GFLOP/s" : fixed(per_second * 1e-9, 1) + " GB/s";
}

// "[####------] 12/40 gemm float 1024x1024x1024" on one line of a terminal; nothing when stderr is a file.
class ProgressBar {
 public:
  explicit ProgressBar(std::string label) : label_(std::move(label)), enabled_(::isatty(2) != 0) {}
  void update(std::size_t done, std::size_t total) {
    if (!enabled_ || total == 0) return;
    const int width = 30, filled = static_cast<int>(width * done / total);
    std::fprintf(stderr, "\r[%s%s] %zu/%zu %s", std::string(filled, '#').c_str(),
                 std::string(width - filled, '-').c_str(), done, total, label_.c_str());
    std::fflush(stderr);
  }
  ~ProgressBar() {
    if (enabled_) std::fprintf(stderr, "\r%s\r", std::string(100, ' ').c_str());
  }

 private:
  std::string label_;
  bool enabled_;
};

bool already_tuned(const detail::TuningRecords& records, const detail::TuningKey& key, const std::string& source) {
  return std::any_of(records.entries.begin(), records.entries.end(), [&](const auto& entry) {
    return entry.op == key.op && entry.dtype == key.dtype && entry.bucket == key.bucket &&
           entry.source_hash == source && entry.origin == "tune";
  });
}

int run_tune(const TuneSettings& settings) {
  const auto [platform, device_selector] = split_device_selector(settings.device.selector);
  cl::Device device = select_device(platform, device_selector);
  cl::Context context(device);
  cl::CommandQueue queue(context, device);
  const auto target = detail::queue_target("tune", queue);
  const DeviceInfo& info = *target.info;
  std::cout << "tuning on " << info.device_name << " (" << info.platform_name << ", driver " << info.driver_version
            << ", fingerprint " << info.fingerprint() << ")\n";

  detail::FullTuneOptions options;
  options.budget_ms = settings.budget_ms;
  options.seed = settings.seed;
  options.max_candidates = settings.max_candidates;
  if (settings.strategy == "random")
    options.strategy = detail::SearchStrategy::Random;
  else if (settings.strategy != "exhaustive")
    throw Error("tune", "--strategy", CL_INVALID_VALUE, "'" + settings.strategy + "' is not exhaustive or random");

  std::vector<const detail::TunableOp*> ops;
  if (settings.ops.empty()) {
    for (const auto& op : detail::tunable_op_registry()) ops.push_back(&op);
  } else {
    for (const auto& name : settings.ops) ops.push_back(&detail::find_tunable_op(name));
  }

  const auto start = std::chrono::steady_clock::now();
  const detail::TuningRecords existing = detail::TuningDatabase(info).load();
  TextTable table(
      {"op", "dtype", "shape", "bucket", "best parameters", "time", "rate", "default", "speed-up", "tried", "failed"});
  std::size_t keys = 0, skipped = 0;
  std::vector<std::string> failure_notes;
  for (const auto* op : ops) {
    const auto& dtypes = settings.dtypes.empty() ? op->description.dtypes : settings.dtypes;
    const auto& shapes = settings.shapes.empty() ? op->description.default_shapes : settings.shapes;
    for (const auto& dtype : dtypes) {
      if (dtype == "double" && !info.fp64) {
        std::cout << "skipping " << op->description.name << " double: the device has no fp64\n";
        continue;
      }
      for (const auto& shape : shapes) {
        auto subject = op->make_subject(dtype, shape);
        const auto key = subject->key();
        const std::string source = detail::kernel_source(subject->family()).hash;
        if (!settings.force && already_tuned(existing, key, source)) {
          ++skipped;
          continue;
        }
        ProgressBar bar(op->description.name + " " + dtype + " " + subject->timing_shape());
        options.progress = [&bar](std::size_t done, std::size_t total) { bar.update(done, total); };
        const auto outcome = detail::TuningService::instance().tune(target, *subject, options);
        ++keys;
        std::size_t tried = 0, failed = 0;
        std::set<std::string> reasons;
        for (const auto& result : outcome.results) {
          if (result.status != detail::CandidateStatus::NotTried) ++tried;
          if (result.status == detail::CandidateStatus::BuildFailed ||
              result.status == detail::CandidateStatus::LaunchFailed ||
              result.status == detail::CandidateStatus::WrongResult) {
            ++failed;
            // One example per distinct kind of failure, for the notes under the table.
            const std::string reason =
                std::string(detail::candidate_status_name(result.status)) + ": " + result.message.substr(0, 160);
            if (reasons.size() < 3 && reasons.insert(reason.substr(0, 60)).second)
              failure_notes.push_back(op->description.name + " " + dtype + " " + key.bucket + ": " +
                                      result.config.to_string() + ": " + reason);
          }
        }
        table.add(
            {op->description.name, dtype, subject->timing_shape(), key.bucket,
             outcome.found ? outcome.best.to_string() : "(none verified)",
             outcome.found ? fixed(outcome.best_ms, 4) + " ms" : "-",
             rate(subject->work(), subject->work_unit(), outcome.best_ms),
             outcome.default_ms > 0 ? fixed(outcome.default_ms, 4) + " ms" : "-",
             outcome.default_ms > 0 && outcome.best_ms > 0 ? fixed(outcome.default_ms / outcome.best_ms, 2) + "x" : "-",
             std::to_string(tried), std::to_string(failed)});
      }
    }
  }
  table.print(std::cout);
  if (!failure_notes.empty()) {
    std::cout << "\nexamples of rejected candidates (all are recorded in the database and not tried again):\n";
    for (const auto& note : failure_notes) std::cout << "  " << note << "\n";
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::cout << "\ntuned " << keys << " key(s) in " << fixed(seconds, 1) << " s";
  if (skipped > 0) std::cout << "; " << skipped << " already tuned (use --force to tune again)";
  const detail::TuningDatabase database(info);
  std::cout << "\ndatabase: " << (database.path() ? database.path()->string() : std::string("(disk cache off)"))
            << std::endl;
  return 0;
}

}  // namespace

Action add_tune_command(CLI::App& app) {
  auto settings = std::make_shared<TuneSettings>();
  auto* command = app.add_subcommand("tune", "Tune kernels for a device ahead of time and store the winners");
  settings->device.add_to(*command);
  command->add_option("--op", settings->ops, "Ops to tune (default: all); repeatable")->delimiter(',');
  command->add_option("--dtype", settings->dtypes, "Element types (default: every type the op has)")->delimiter(',');
  command->add_option("--shape", settings->shapes,
                      "Shapes to tune (default: a representative set per op), e.g. 1024x1024x1024 or 2^20");
  command->add_option("--budget", settings->budget_ms, "Time budget per key in milliseconds")->capture_default_str();
  command->add_option("--strategy", settings->strategy, "exhaustive or random")
      ->check(CLI::IsMember({"exhaustive", "random"}))
      ->capture_default_str();
  command->add_option("--seed", settings->seed, "Seed for the random order and the scratch data")
      ->capture_default_str();
  command->add_option("--max-candidates", settings->max_candidates, "Try at most this many configurations per key");
  command->add_flag("--force", settings->force, "Tune keys the database already has");
  return [settings] { return run_tune(*settings); };
}

}  // namespace tilecl::tool
