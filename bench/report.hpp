// Presenting benchmark results: a table on stdout, a JSON document, and an SVG chart per family.
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <vector>

#include "bench_context.hpp"

namespace tilecl::bench {

struct FirstCallResult {
  std::string op;
  bool ours = true;
  std::string scenario;  // "cold caches", "warm binary cache", "warm binary cache + tuning database"
  double milliseconds = 0;
  nlohmann::json statistics;  // tilecl's counters in that process
  std::string error;
};

struct RunInfo {
  std::string command;
  std::string date;
  std::string commit;
  bool quick = false;
};

// The fraction of the device limit a row reached: copy bandwidth for GB/s rows, FMA rate for GFLOP/s rows.
double fraction_of_limit(const Row& row, const Limits& limits);
// Our rate over the best peer's rate at the same op, shape and dtype; 0 when there is no peer.
double ratio_to_best_peer(const Row& row, const std::vector<Row>& rows);

void print_table(std::ostream& out, const std::vector<Row>& rows, const Limits& limits);
void print_first_calls(std::ostream& out, const std::vector<FirstCallResult>& results);

nlohmann::json to_json(const RunInfo& run, const DeviceInfo& device, const Limits& limits, const std::vector<Row>& rows,
                       const std::vector<FirstCallResult>& first_calls);

// One horizontal bar chart per family: every implementation's rate as a fraction of the device limit.
std::string family_chart_svg(const std::string& family, const std::vector<Row>& rows, const Limits& limits,
                             const DeviceInfo& device, const RunInfo& run);

}  // namespace tilecl::bench
