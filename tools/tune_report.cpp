#include "tune_report.hpp"

#include <iomanip>
#include <set>
#include <sstream>

#include "text_table.hpp"

namespace tilecl::tool {
namespace {

std::string fixed(double value, int digits) {
  std::ostringstream text;
  text << std::fixed << std::setprecision(digits) << value;
  return text.str();
}

struct Counts {
  std::size_t tried = 0, failed = 0;
};

Counts count(const detail::TuningOutcome& outcome) {
  Counts counts;
  for (const auto& result : outcome.results) {
    if (result.status != detail::CandidateStatus::NotTried) ++counts.tried;
    if (result.status == detail::CandidateStatus::BuildFailed ||
        result.status == detail::CandidateStatus::LaunchFailed || result.status == detail::CandidateStatus::WrongResult)
      ++counts.failed;
  }
  return counts;
}

std::string rate(const detail::TuningSubject& subject, double milliseconds) {
  if (milliseconds <= 0) return "-";
  const double per_second = subject.work() / (milliseconds * 1e-3) * 1e-9;
  return fixed(per_second, 1) + (std::string(subject.work_unit()) == "flop" ? " GFLOP/s" : " GB/s");
}

std::string shape_cell(const PlannedKey& key) {
  return key.at_representative ? key.shape + " -> " + key.timed_shape : key.timed_shape;
}

// Up to three rejected candidates of distinct kinds per key, for the notes under the table.
void add_failure_notes(const KeyResult& result, std::vector<std::string>& notes) {
  std::set<std::string> kinds;
  for (const auto& candidate : result.outcome->results) {
    const bool failed = candidate.status == detail::CandidateStatus::BuildFailed ||
                        candidate.status == detail::CandidateStatus::LaunchFailed ||
                        candidate.status == detail::CandidateStatus::WrongResult;
    if (!failed) continue;
    const std::string reason =
        std::string(detail::candidate_status_name(candidate.status)) + ": " + candidate.message.substr(0, 160);
    if (kinds.size() < 3 && kinds.insert(reason.substr(0, 60)).second)
      notes.push_back(result.key->op->description.name + " " + result.key->dtype + " " + result.key->key.bucket + ": " +
                      candidate.config.to_string() + ": " + reason);
  }
}

std::vector<std::string> planned_row(const KeyResult& result) {
  const PlannedKey& key = *result.key;
  return {key.op->description.name,      key.dtype, shape_cell(key), key.key.bucket, key_state_name(result.state),
          std::to_string(key.candidates)};
}

std::vector<std::string> result_row(const KeyResult& result) {
  const PlannedKey& key = *result.key;
  std::vector<std::string> row{key.op->description.name, key.dtype, shape_cell(key), key.key.bucket};
  if (!result.outcome) {
    row.insert(row.end(), {key_state_name(result.state), "-", "-", "-", "-", std::to_string(key.candidates), "-"});
    return row;
  }
  const auto& outcome = *result.outcome;
  const Counts counts = count(outcome);
  row.insert(
      row.end(),
      {outcome.found ? outcome.best.to_string() : "(none verified)",
       outcome.found ? fixed(outcome.best_ms, 4) + " ms" : "-", rate(*key.subject, outcome.best_ms),
       outcome.default_ms > 0 ? fixed(outcome.default_ms, 4) + " ms" : "-",
       outcome.default_ms > 0 && outcome.best_ms > 0 ? fixed(outcome.default_ms / outcome.best_ms, 2) + "x" : "-",
       std::to_string(counts.tried) + " of " + std::to_string(key.candidates), std::to_string(counts.failed)});
  return row;
}

}  // namespace

const char* key_state_name(KeyState state) {
  switch (state) {
    case KeyState::Tuned:
      return "tuned";
    case KeyState::AlreadyTuned:
      return "already tuned";
    case KeyState::Planned:
      return "to tune";
    case KeyState::Interrupted:
      return "interrupted";
    case KeyState::NotReached:
      return "not reached";
  }
  return "?";
}

std::string outcome_summary(const detail::TuningOutcome& outcome) {
  const Counts counts = count(outcome);
  std::string text = outcome.found ? "best " + outcome.best.to_string() + " " + fixed(outcome.best_ms, 4) + " ms"
                                   : std::string("no candidate verified");
  if (outcome.found && outcome.default_ms > 0)
    text += " (" + fixed(outcome.default_ms / outcome.best_ms, 2) + "x the default)";
  return text + ", " + std::to_string(counts.tried) + " tried, " + std::to_string(counts.failed) + " failed";
}

void print_tune_table(std::ostream& out, const TuneRun& run) {
  TextTable table(run.dry_run
                      ? std::vector<std::string>{"op", "dtype", "shape (-> timed at)", "bucket", "state", "candidates"}
                      : std::vector<std::string>{"op", "dtype", "shape (-> timed at)", "bucket", "best parameters",
                                                 "time", "rate", "default", "speed-up", "tried", "failed"});
  std::vector<std::string> notes;
  for (const auto& result : run.results) {
    table.add(run.dry_run ? planned_row(result) : result_row(result));
    if (result.outcome) add_failure_notes(result, notes);
  }
  table.print(out);
  if (!notes.empty()) {
    out << "\nexamples of rejected candidates (all are recorded in the database and not tried again):\n";
    for (const auto& note : notes) out << "  " << note << "\n";
  }
  for (const auto& skipped : run.skipped) out << "skipped: " << skipped << "\n";
  for (const auto& result : run.results)
    if (result.key->at_representative) {
      out << "note: a shape given as A -> B is tuned at B, the representative of its bucket; every shape of the "
             "bucket uses the result\n";
      break;
    }
}

void print_tune_summary(std::ostream& out, const TuneRun& run, std::size_t to_tune) {
  std::size_t tuned = 0, already = 0;
  for (const auto& result : run.results) {
    tuned += result.state == KeyState::Tuned;
    already += result.state == KeyState::AlreadyTuned;
  }
  if (run.dry_run) {
    out << "\n"
        << to_tune << " key(s) to tune, " << already << " already tuned (--force tunes them again); at most "
        << "about " << fixed(static_cast<double>(to_tune) * run.budget_ms * 1e-3, 0) << " s (" << run.budget_ms
        << " ms per key, plus the last candidate of each)";
  } else if (run.interrupted) {
    out << "\ninterrupted after " << fixed(run.elapsed_seconds, 1) << " s: " << tuned << " of " << to_tune
        << " key(s) tuned and kept in the database; the key in progress was dropped. Run the same command again "
        << "to tune the rest (tuned keys are skipped)";
  } else {
    out << "\ntuned " << tuned << " key(s) in " << fixed(run.elapsed_seconds, 1) << " s";
    if (already > 0) out << "; " << already << " already tuned (use --force to tune again)";
  }
  out << "\ndatabase: " << run.database << std::endl;
}

nlohmann::json tune_json(const TuneRun& run) {
  nlohmann::json keys = nlohmann::json::array();
  for (const auto& result : run.results) {
    const PlannedKey& key = *result.key;
    nlohmann::json entry = {{"op", key.op->description.name},
                            {"dtype", key.dtype},
                            {"shape", key.shape},
                            {"bucket", key.key.bucket},
                            {"timed_shape", key.timed_shape},
                            {"tuned_at_representative", key.at_representative},
                            {"state", key_state_name(result.state)},
                            {"candidates", key.candidates}};
    if (result.outcome) {
      const Counts counts = count(*result.outcome);
      entry["found"] = result.outcome->found;
      entry["best"] = result.outcome->found ? result.outcome->best.to_string() : "";
      entry["best_ms"] = result.outcome->best_ms;
      entry["default_ms"] = result.outcome->default_ms;
      entry["tried"] = counts.tried;
      entry["failed"] = counts.failed;
      entry["seconds"] = result.outcome->elapsed_seconds;
    }
    keys.push_back(entry);
  }
  return {{"device",
           {{"name", run.device->device_name},
            {"platform", run.device->platform_name},
            {"driver", run.device->driver_version},
            {"fingerprint", run.device->fingerprint()}}},
          {"database", run.database},
          {"budget_ms_per_key", run.budget_ms},
          {"dry_run", run.dry_run},
          {"interrupted", run.interrupted},
          {"elapsed_seconds", run.elapsed_seconds},
          {"keys", keys},
          {"skipped", run.skipped}};
}

}  // namespace tilecl::tool
