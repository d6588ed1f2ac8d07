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

// Formatting shared by the report's table and charts: "12.35" (digits after the point), "0.27%" / "3.4%" /
// "99%" (a fraction, with enough digits to tell small values apart), "64 KiB" / "256 MiB".
std::string fixed_text(double value, int digits);
std::string percent_text(double fraction);
std::string bytes_text(std::size_t bytes);

// The rate a row is compared with: for GB/s rows the copy that moves about as many bytes (the nearest size on a
// log scale: a row whose data stays in cache is compared with a copy whose data does too, not with a 1 GiB
// copy), for GFLOP/s rows the FMA-bound kernel. `reference` (when given) receives its name ("copy of 64 MiB").
double limit_rate(const Row& row, const Limits& limits, std::string* reference = nullptr);
// The fraction of that limit the row reached (0 when there is none).
double fraction_of_limit(const Row& row, const Limits& limits);
// Our rate over the best peer's rate at the same op, shape and dtype; 0 when there is no peer.
double ratio_to_best_peer(const Row& row, const std::vector<Row>& rows);

void print_table(std::ostream& out, const std::vector<Row>& rows, const Limits& limits);
void print_first_calls(std::ostream& out, const std::vector<FirstCallResult>& results);

nlohmann::json to_json(const RunInfo& run, const DeviceInfo& device, const Limits& limits, const std::vector<Row>& rows,
                       const std::vector<FirstCallResult>& first_calls);

// One horizontal bar chart per family: every implementation's rate as a fraction of its limit (limit_rate), the
// limit drawn as a line at 100% and limit rows of the family (a copy of the same bytes) as marks, not bars.
std::string family_chart_svg(const std::string& family, const std::vector<Row>& rows, const Limits& limits,
                             const DeviceInfo& device, const RunInfo& run);

}  // namespace tilecl::bench
