// tilecl tune: searches each op's space ahead of time and writes the winners to the tuning database.
#include <iostream>

#include "checks.hpp"
#include "commands.hpp"
#include "tilecl/error.hpp"
#include "tune_plan.hpp"
#include "tune_progress.hpp"
#include "tune_report.hpp"
#include "tuning/full_tune.hpp"
#include "tuning/tuning_db.hpp"
#include "usage.hpp"

namespace tilecl::tool {
namespace {

constexpr int kInterruptedExitStatus = 130;  // 128 + SIGINT, as shells report a command Ctrl-C ended

struct TuneSettings {
  DeviceOption device;
  TuneSelection selection;
  double budget_ms = 10000;
  std::string strategy = "exhaustive";
  std::uint64_t seed = 1;
  std::size_t max_candidates = 0;
  bool dry_run = false;
  bool json = false;
};

detail::FullTuneOptions tuner_options(const TuneSettings& settings) {
  detail::FullTuneOptions options;
  options.budget_ms = settings.budget_ms;
  options.seed = settings.seed;
  options.max_candidates = settings.max_candidates;
  options.strategy =
      settings.strategy == "random" ? detail::SearchStrategy::Random : detail::SearchStrategy::Exhaustive;
  return options;
}

std::string key_label(const PlannedKey& key) {
  return key.op->description.name + " " + key.dtype + " " + key.timed_shape + " (bucket " + key.key.bucket + ")";
}

// Tunes the plan's keys in order; stops at a Ctrl-C, dropping the key in progress.
void tune_keys(const TunePlan& plan, const TuneSettings& settings, const detail::QueueTarget& target, TuneRun& run) {
  InterruptGuard interrupts;
  TuneProgress progress(plan.to_tune(), settings.budget_ms * 1e-3, settings.json ? std::cerr : std::cout);
  detail::FullTuneOptions options = tuner_options(settings);
  options.progress = [&progress](std::size_t done, std::size_t total) { progress.candidate(done, total); };
  for (const auto& key : plan.keys) {
    KeyResult result{&key, KeyState::AlreadyTuned, std::nullopt};
    if (!key.already_tuned && run.interrupted) result.state = KeyState::NotReached;
    if (!key.already_tuned && !run.interrupted) {
      try {
        progress.start_key(key_label(key));
        result.outcome = detail::tune_key(target, *key.subject, options);
        result.state = KeyState::Tuned;
        progress.finish_key(outcome_summary(*result.outcome));
      } catch (const TuneInterrupted&) {
        run.interrupted = true;
        result.state = KeyState::Interrupted;
      }
    }
    run.results.push_back(std::move(result));
  }
  run.elapsed_seconds = progress.elapsed_seconds();
}

int run_tune(const TuneSettings& settings) {
  const auto [platform, device_selector] = split_device_selector(settings.device.selector);
  cl::Device device = select_device(platform, device_selector);
  cl::Context context(device);
  cl::CommandQueue queue(context, device);
  const auto target = detail::queue_target("tune", queue);
  const DeviceInfo& info = *target.info;
  const TunePlan plan = plan_tuning(settings.selection, info);

  TuneRun run;
  run.device = &info;
  const detail::TuningDatabase database(info);
  run.database = database.path() ? database.path()->string() : std::string("(disk cache off)");
  run.budget_ms = settings.budget_ms;
  run.dry_run = settings.dry_run;
  run.skipped = plan.skipped;
  if (!settings.json)
    std::cout << (settings.dry_run ? "would tune on " : "tuning on ") << info.device_name << " (" << info.platform_name
              << ", driver " << info.driver_version << ", fingerprint " << info.fingerprint() << ")\n";
  if (settings.dry_run) {
    for (const auto& key : plan.keys)
      run.results.push_back({&key, key.already_tuned ? KeyState::AlreadyTuned : KeyState::Planned, std::nullopt});
  } else {
    tune_keys(plan, settings, target, run);
  }
  if (settings.json) {
    std::cout << tune_json(run).dump(2) << std::endl;
  } else {
    std::cout << "\n";
    print_tune_table(std::cout, run);
    print_tune_summary(std::cout, run, plan.to_tune());
  }
  return run.interrupted ? kInterruptedExitStatus : 0;
}

}  // namespace

Action add_tune_command(CLI::App& app) {
  auto settings = std::make_shared<TuneSettings>();
  auto* command = app.add_subcommand("tune", "Tune kernels for a device ahead of time and store the winners");
  settings->device.add_to(*command);
  auto& selection = settings->selection;
  command->add_option("--family", selection.families, "Families whose ops to tune (default: all); repeatable")
      ->delimiter(',')
      ->check(CLI::IsMember(tune_families()));
  command->add_option("--op", selection.ops, "Ops to tune (default: all of the families); repeatable")
      ->delimiter(',')
      ->check(CLI::IsMember(tune_ops()));
  command->add_option("--dtype", selection.dtypes, "Element types (default: every type the op has)")
      ->delimiter(',')
      ->check(CLI::IsMember(tune_dtypes()));
  command->add_option("--shape", selection.shapes,
                      "Shapes to tune (default: a representative set per op); syntax per op below");
  command->add_option("--budget", settings->budget_ms, "Time budget per key in milliseconds")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  command->add_option("--strategy", settings->strategy, "exhaustive or random")
      ->check(CLI::IsMember({"exhaustive", "random"}))
      ->capture_default_str();
  command->add_option("--seed", settings->seed, "Seed for the random order and the scratch data")
      ->capture_default_str();
  command->add_option("--max-candidates", settings->max_candidates, "Try at most this many configurations per key");
  command->add_flag("--force", selection.force, "Tune keys the database already has");
  command->add_flag("--dry-run", settings->dry_run, "List the keys that would be tuned and the time budget; tune none");
  command->add_flag("--json", settings->json, "Print the results (or the plan) as JSON on stdout");
  command->footer(tune_help_footer());
  return [settings] { return run_tune(*settings); };
}

}  // namespace tilecl::tool
