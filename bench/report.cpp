#include "report.hpp"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <map>
#include <sstream>

namespace tilecl::bench {
namespace {

constexpr std::size_t kMaxColumns = 120;  // tables fit a 120-column terminal

const char* unit_name(Unit unit) { return unit == Unit::BytesPerSecond ? "GB/s" : "GFLOP/s"; }

const char* kind_name(Row::Kind kind) {
  switch (kind) {
    case Row::Kind::Ours:
      return "tilecl";
    case Row::Kind::OursBaseline:
      return "tilecl-baseline";
    case Row::Kind::Peer:
      return "peer";
    case Row::Kind::Limit:
      return "limit";
  }
  return "?";
}

bool same_problem(const Row& a, const Row& b) {
  return a.family == b.family && a.op == b.op && a.shape == b.shape && a.dtype == b.dtype;
}

// Columns padded to their widest cell, two spaces apart.
void print_columns(std::ostream& out, const std::vector<std::vector<std::string>>& table) {
  std::vector<std::size_t> widths(table.front().size(), 0);
  for (const auto& line : table)
    for (std::size_t c = 0; c < line.size(); ++c) widths[c] = std::max(widths[c], line[c].size());
  for (const auto& line : table) {
    std::string text;
    for (std::size_t c = 0; c < line.size(); ++c)
      text += line[c] + (c + 1 < line.size() ? std::string(widths[c] - line[c].size() + 2, ' ') : "");
    out << text << "\n";
  }
}

std::vector<std::string> table_row(const Row& row, const std::vector<Row>& rows, const Limits& limits) {
  const double ratio = row.kind == Row::Kind::Ours ? ratio_to_best_peer(row, rows) : 0;
  const double median = row.timing.median_ms;
  return {row.op,
          row.shape,
          row.dtype,
          row.implementation + (row.timing.host_timed ? " *" : ""),
          row.failed ? "failed"
                     : fixed_text(median, median < 10     ? 4
                                          : median < 1000 ? 2
                                                          : 0) +
                           " ms",
          row.failed ? "-"
                     : "±" + fixed_text(50 * row.timing.spread(), 0) + "%" + (row.timing.spread_is_large() ? " !" : ""),
          row.failed ? "-" : fixed_text(row.rate(), 1) + " " + unit_name(row.unit),
          row.failed || row.kind == Row::Kind::Limit ? "" : percent_text(fraction_of_limit(row, limits)),
          ratio > 0 ? fixed_text(ratio, 2) + "x" : ""};
}

// Items after a prefix, comma-separated, wrapped to kMaxColumns (continuation lines indented like the prefix).
void print_wrapped(std::ostream& out, const std::string& prefix, const std::vector<std::string>& items) {
  std::string line = prefix;
  for (std::size_t i = 0; i < items.size(); ++i) {
    const std::string item = items[i] + (i + 1 < items.size() ? "," : "");
    if (line.size() > prefix.size() && line.size() + 1 + item.size() > kMaxColumns) {
      out << line << "\n";
      line = std::string(prefix.size(), ' ');
    }
    line += (line.size() > prefix.size() ? " " : "") + item;
  }
  out << line << "\n";
}

void print_notes(std::ostream& out, const std::vector<Row>& rows, const Limits& limits) {
  out << "of limit: GB/s rows against a copy moving about as many bytes (measured in this run), GFLOP/s rows\n"
      << "          against the FMA-bound kernel (" << fixed_text(limits.fma_gflop_per_s, 1) << " GFLOP/s)\n";
  std::vector<std::string> copies;
  for (const auto& copy : limits.copies)
    copies.push_back(bytes_text(copy.bytes) + " " + fixed_text(copy.gb_per_s, 1) + " GB/s");
  print_wrapped(out, "copies:   ", copies);
  out << "*         host-timed: the library returns no event, so the clock stops after clFinish\n";
  std::vector<std::string> noisy;
  for (const auto& row : rows)
    if (!row.failed && row.timing.spread_is_large())
      noisy.push_back(row.op + " " + row.shape + " " + row.dtype + " " + row.implementation);
  if (!noisy.empty()) {
    out << "!         the runs spread by more than ±" << fixed_text(50 * Timing::kLargeSpread, 0)
        << "% around their median: rough figures (a busy device or host?)\n";
    print_wrapped(out, "          ", noisy);
  }
  for (const auto& row : rows)
    if (row.failed)
      out << "failed: " << row.implementation << " " << row.op << " " << row.shape << ": " << row.note << "\n";
}

}  // namespace

std::string fixed_text(double value, int digits) {
  std::ostringstream text;
  text << std::fixed << std::setprecision(digits) << value;
  return text.str();
}

std::string percent_text(double fraction) {
  const double value = 100 * fraction;
  return fixed_text(value, value < 1 ? 2 : value < 10 ? 1 : 0) + "%";
}

std::string bytes_text(std::size_t bytes) {
  return bytes >= (std::size_t{1} << 20) ? std::to_string(bytes >> 20) + " MiB" : std::to_string(bytes >> 10) + " KiB";
}

double limit_rate(const Row& row, const Limits& limits, std::string* reference) {
  if (row.unit == Unit::FlopsPerSecond) {
    if (reference != nullptr) *reference = "FMA-bound kernel";
    return limits.fma_gflop_per_s;
  }
  if (limits.copies.empty() || row.work <= 0) {
    if (reference != nullptr) *reference = "copy";
    return limits.copy_gb_per_s;
  }
  // A copy of S bytes moves 2 S; the nearest on a log scale.
  const auto distance = [&](const CopyRate& copy) { return std::abs(std::log(2.0 * copy.bytes / row.work)); };
  const CopyRate& nearest = *std::min_element(limits.copies.begin(), limits.copies.end(),
                                              [&](const auto& a, const auto& b) { return distance(a) < distance(b); });
  if (reference != nullptr) *reference = "copy of " + bytes_text(nearest.bytes);
  return nearest.gb_per_s;
}

double fraction_of_limit(const Row& row, const Limits& limits) {
  const double limit = limit_rate(row, limits);
  return limit > 0 ? row.rate() / limit : 0;
}

double ratio_to_best_peer(const Row& row, const std::vector<Row>& rows) {
  double best = 0;
  for (const auto& other : rows)
    if (other.kind == Row::Kind::Peer && same_problem(row, other) && !other.failed) best = std::max(best, other.rate());
  return best > 0 ? row.rate() / best : 0;
}

// One section per family (its name on a line of its own), so that the table fits kMaxColumns.
void print_table(std::ostream& out, const std::vector<Row>& rows, const Limits& limits) {
  const std::vector<std::string> header{"op",     "shape", "dtype",    "implementation", "median",
                                        "spread", "rate",  "of limit", "vs peer"};
  std::vector<std::string> families;
  for (const auto& row : rows)
    if (std::find(families.begin(), families.end(), row.family) == families.end()) families.push_back(row.family);
  std::vector<std::vector<std::string>> table{header};
  std::vector<std::size_t> section_starts;
  for (const auto& family : families) {
    section_starts.push_back(table.size());
    for (const auto& row : rows)
      if (row.family == family) table.push_back(table_row(row, rows, limits));
  }
  std::ostringstream body;
  print_columns(body, table);
  std::istringstream lines(body.str());
  std::string line;
  std::size_t index = 0, section = 0;
  while (std::getline(lines, line)) {
    if (section < families.size() && index == section_starts[section]) out << "[" << families[section++] << "]\n";
    out << line << "\n";
    if (index++ == 0) out << std::string(std::min(line.size(), kMaxColumns), '-') << "\n";
  }
  print_notes(out, rows, limits);
}

void print_first_calls(std::ostream& out, const std::vector<FirstCallResult>& results) {
  if (results.empty()) return;
  out << "\nfirst call in a fresh process (ms; includes compiling, loading cached programs, tuning):\n"
      << "  cold: empty caches; programs: binary cache warm, no tuning database; both: binary cache and tuning "
         "database warm\n";
  const std::vector<std::string> scenarios{"cold caches", "warm binary cache", "warm binary cache + tuning database"};
  std::map<std::string, std::map<std::string, std::string>> by_op;
  std::vector<std::string> order;
  for (const auto& result : results) {
    if (!by_op.count(result.op)) order.push_back(result.op);
    by_op[result.op][result.scenario] =
        result.error.empty() ? fixed_text(result.milliseconds, 1) : "failed: " + result.error;
  }
  std::vector<std::vector<std::string>> table{{"op", "cold", "programs", "both"}};
  for (const auto& op : order) {
    std::vector<std::string> line{op};
    for (const auto& scenario : scenarios) line.push_back(by_op[op].count(scenario) ? by_op[op][scenario] : "-");
    table.push_back(line);
  }
  print_columns(out, table);
}

nlohmann::json to_json(const RunInfo& run, const DeviceInfo& device, const Limits& limits, const std::vector<Row>& rows,
                       const std::vector<FirstCallResult>& first_calls) {
  nlohmann::json document;
  document["run"] = {{"command", run.command}, {"date", run.date}, {"commit", run.commit}, {"quick", run.quick}};
  document["device"] = {{"fingerprint", device.fingerprint()},
                        {"platform", device.platform_name},
                        {"platform_version", device.platform_version},
                        {"device", device.device_name},
                        {"vendor", device.device_vendor},
                        {"driver_version", device.driver_version},
                        {"opencl_c_version", device.opencl_c_version},
                        {"compute_units", device.compute_units}};
  nlohmann::json copies = nlohmann::json::array();
  for (const auto& copy : limits.copies) copies.push_back({{"bytes", copy.bytes}, {"gb_per_s", copy.gb_per_s}});
  document["limits"] = {
      {"copy_gb_per_s", limits.copy_gb_per_s}, {"fma_gflop_per_s", limits.fma_gflop_per_s}, {"copies", copies}};
  document["rows"] = nlohmann::json::array();
  for (const auto& row : rows) {
    std::string reference;
    const double limit = limit_rate(row, limits, &reference);
    document["rows"].push_back(
        {{"family", row.family},
         {"op", row.op},
         {"shape", row.shape},
         {"dtype", row.dtype},
         {"implementation", row.implementation},
         {"kind", kind_name(row.kind)},
         {"parameters", row.parameters},
         {"median_ms", row.timing.median_ms},
         {"min_ms", row.timing.min_ms},
         {"max_ms", row.timing.max_ms},
         {"runs", row.timing.runs},
         {"spread", row.timing.spread()},
         {"host_timed", row.timing.host_timed},
         {"work", row.work},
         {"unit", unit_name(row.unit)},
         {"rate", row.rate()},
         {"limit", reference},
         {"limit_rate", limit},
         {"fraction_of_limit", fraction_of_limit(row, limits)},
         {"ratio_to_best_peer", row.kind == Row::Kind::Ours ? ratio_to_best_peer(row, rows) : 0.0},
         {"failed", row.failed},
         {"note", row.note}});
  }
  document["first_call"] = nlohmann::json::array();
  for (const auto& result : first_calls)
    document["first_call"].push_back({{"op", result.op},
                                      {"ours", result.ours},
                                      {"scenario", result.scenario},
                                      {"ms", result.milliseconds},
                                      {"statistics", result.statistics},
                                      {"error", result.error}});
  return document;
}

}  // namespace tilecl::bench
