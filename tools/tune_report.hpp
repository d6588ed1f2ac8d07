// What `tilecl tune` prints at the end (or for --dry-run): a table on stdout, or a JSON document (--json).
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "tilecl/device.hpp"
#include "tune_plan.hpp"
#include "tuning/tuner.hpp"

namespace tilecl::tool {

// A key's outcome: tuned (with the tuner's outcome), skipped as already tuned, planned only (--dry-run), or
// dropped by an interruption.
enum class KeyState { Tuned, AlreadyTuned, Planned, Interrupted, NotReached };
const char* key_state_name(KeyState state);

struct KeyResult {
  const PlannedKey* key = nullptr;
  KeyState state = KeyState::Planned;
  std::optional<detail::TuningOutcome> outcome;
};

struct TuneRun {
  const DeviceInfo* device = nullptr;
  std::string database;  // its path, or "(disk cache off)"
  double budget_ms = 0;
  bool dry_run = false;
  bool interrupted = false;
  double elapsed_seconds = 0;
  std::vector<KeyResult> results;
  std::vector<std::string> skipped;
};

// "best regblock ... 1.2345 ms (1.52x the default), 40 tried, 0 failed", or why there is none.
std::string outcome_summary(const detail::TuningOutcome& outcome);

void print_tune_table(std::ostream& out, const TuneRun& run);
// The closing lines: what was tuned (or would be, and the time that may take), an interruption, the database.
// `to_tune`: the keys the plan had to tune.
void print_tune_summary(std::ostream& out, const TuneRun& run, std::size_t to_tune);
nlohmann::json tune_json(const TuneRun& run);

}  // namespace tilecl::tool
