#include "report.hpp"

#include <algorithm>
#include <iomanip>
#include <map>
#include <sstream>

namespace tilecl::bench {
namespace {

std::string fixed(double value, int digits) {
  std::ostringstream text;
  text << std::fixed << std::setprecision(digits) << value;
  return text.str();
}

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

std::string escape_xml(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '<')
      out += "&lt;";
    else if (c == '>')
      out += "&gt;";
    else if (c == '&')
      out += "&amp;";
    else if (c == '"')
      out += "&quot;";
    else
      out += c;
  }
  return out;
}

}  // namespace

double fraction_of_limit(const Row& row, const Limits& limits) {
  const double limit = row.unit == Unit::BytesPerSecond ? limits.copy_gb_per_s : limits.fma_gflop_per_s;
  return limit > 0 ? row.rate() / limit : 0;
}

double ratio_to_best_peer(const Row& row, const std::vector<Row>& rows) {
  double best = 0;
  for (const auto& other : rows)
    if (other.kind == Row::Kind::Peer && same_problem(row, other) && !other.failed) best = std::max(best, other.rate());
  return best > 0 ? row.rate() / best : 0;
}

void print_table(std::ostream& out, const std::vector<Row>& rows, const Limits& limits) {
  std::vector<std::vector<std::string>> table{
      {"family", "op", "shape", "dtype", "implementation", "median", "spread", "rate", "of limit", "vs best peer"}};
  for (const auto& row : rows) {
    const double spread = row.timing.median_ms > 0 ? (row.timing.max_ms - row.timing.min_ms) / row.timing.median_ms : 0;
    const double ratio = row.kind == Row::Kind::Ours ? ratio_to_best_peer(row, rows) : 0;
    table.push_back(
        {row.family, row.op, row.shape, row.dtype, row.implementation + (row.timing.host_timed ? " *" : ""),
         row.failed ? "failed" : fixed(row.timing.median_ms, 4) + " ms",
         row.failed ? "-" : "±" + fixed(50 * spread, 1) + "%",
         row.failed ? "-" : fixed(row.rate(), 1) + " " + unit_name(row.unit),
         row.failed || row.kind == Row::Kind::Limit ? "" : fixed(100 * fraction_of_limit(row, limits), 1) + "%",
         ratio > 0 ? fixed(ratio, 2) + "x" : ""});
  }
  std::vector<std::size_t> widths(table[0].size(), 0);
  for (const auto& line : table)
    for (std::size_t c = 0; c < line.size(); ++c) widths[c] = std::max(widths[c], line[c].size());
  for (std::size_t r = 0; r < table.size(); ++r) {
    for (std::size_t c = 0; c < table[r].size(); ++c)
      out << std::left << std::setw(static_cast<int>(widths[c] + 2)) << table[r][c];
    out << "\n";
    if (r == 0) {
      std::size_t total = 0;
      for (auto w : widths) total += w + 2;
      out << std::string(total, '-') << "\n";
    }
  }
  out << "(* host-timed: the library returns no event, so the clock stops after clFinish)\n";
  for (const auto& row : rows)
    if (row.failed)
      out << "failed: " << row.implementation << " " << row.op << " " << row.shape << ": " << row.note << "\n";
}

void print_first_calls(std::ostream& out, const std::vector<FirstCallResult>& results) {
  if (results.empty()) return;
  out << "\nfirst call in a fresh process (ms; includes compiling, loading cached programs, tuning)\n";
  std::map<std::string, std::map<std::string, std::string>> by_op;
  std::vector<std::string> order;
  for (const auto& result : results) {
    if (!by_op.count(result.op)) order.push_back(result.op);
    by_op[result.op][result.scenario] =
        result.error.empty() ? fixed(result.milliseconds, 1) : "failed: " + result.error;
  }
  const std::vector<std::string> scenarios{"cold caches", "warm binary cache", "warm binary cache + tuning database"};
  std::size_t op_width = 4;
  for (const auto& op : order) op_width = std::max(op_width, op.size() + 2);
  out << std::left << std::setw(static_cast<int>(op_width)) << "op";
  for (const auto& s : scenarios) out << std::setw(38) << s;
  out << "\n";
  for (const auto& op : order) {
    out << std::setw(static_cast<int>(op_width)) << op;
    for (const auto& s : scenarios) out << std::setw(38) << (by_op[op].count(s) ? by_op[op][s] : "-");
    out << "\n";
  }
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
  document["limits"] = {{"copy_gb_per_s", limits.copy_gb_per_s}, {"fma_gflop_per_s", limits.fma_gflop_per_s}};
  document["rows"] = nlohmann::json::array();
  for (const auto& row : rows) {
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
         {"host_timed", row.timing.host_timed},
         {"work", row.work},
         {"unit", unit_name(row.unit)},
         {"rate", row.rate()},
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

std::string family_chart_svg(const std::string& family, const std::vector<Row>& rows, const Limits& limits,
                             const DeviceInfo& device, const RunInfo& run) {
  std::vector<const Row*> bars;
  for (const auto& row : rows)
    if (row.family == family && !row.failed) bars.push_back(&row);
  const int label_width = 430, chart_width = 520, bar_height = 16, gap = 4, group_gap = 12, top = 56;
  double max_fraction = 1.0;
  for (const auto* row : bars) max_fraction = std::max(max_fraction, fraction_of_limit(*row, limits));
  // Layout: groups of bars per problem.
  int height = top;
  std::string previous;
  std::ostringstream body;
  for (const auto* row : bars) {
    const std::string problem = row->op + " " + row->shape + " " + row->dtype;
    if (problem != previous) {
      height += group_gap;
      body << "<text x=\"8\" y=\"" << height + 12 << "\" font-weight=\"bold\">" << escape_xml(problem) << "</text>\n";
      height += bar_height + gap;
      previous = problem;
    }
    const double fraction = fraction_of_limit(*row, limits);
    const int width = static_cast<int>(chart_width * fraction / max_fraction);
    const char* color = row->kind == Row::Kind::Ours           ? "#1f77b4"
                        : row->kind == Row::Kind::OursBaseline ? "#9ecae1"
                                                               : "#ff7f0e";
    body << "<text x=\"24\" y=\"" << height + 12 << "\">" << escape_xml(row->implementation) << "</text>\n"
         << "<rect x=\"" << label_width << "\" y=\"" << height << "\" width=\"" << std::max(width, 1) << "\" height=\""
         << bar_height << "\" fill=\"" << color << "\"/>\n"
         << "<text x=\"" << label_width + std::max(width, 1) + 6 << "\" y=\"" << height + 12 << "\">"
         << fixed(row->rate(), 1) << " " << unit_name(row->unit) << " (" << fixed(100 * fraction, 1) << "%)</text>\n";
    height += bar_height + gap;
  }
  height += 40;
  const int limit_x = label_width + static_cast<int>(chart_width / max_fraction);
  std::ostringstream svg;
  svg << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << label_width + chart_width + 220 << "\" height=\""
      << height << "\" font-family=\"sans-serif\" font-size=\"12\">\n"
      << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
      << "<text x=\"8\" y=\"20\" font-size=\"15\" font-weight=\"bold\">tilecl " << escape_xml(family) << " on "
      << escape_xml(device.device_name) << "</text>\n"
      << "<text x=\"8\" y=\"38\">bar length: fraction of the device limit measured in the same run (copy "
      << fixed(limits.copy_gb_per_s, 1) << " GB/s, FMA " << fixed(limits.fma_gflop_per_s, 1) << " GFLOP/s); "
      << escape_xml(run.date) << ", commit " << escape_xml(run.commit) << "</text>\n"
      << body.str() << "<line x1=\"" << limit_x << "\" y1=\"" << top << "\" x2=\"" << limit_x << "\" y2=\""
      << height - 30 << "\" stroke=\"#d62728\" stroke-dasharray=\"5,4\"/>\n"
      << "<text x=\"" << limit_x - 30 << "\" y=\"" << height - 14 << "\" fill=\"#d62728\">device limit</text>\n"
      << "<rect x=\"8\" y=\"" << height - 26 << "\" width=\"12\" height=\"12\" fill=\"#1f77b4\"/><text x=\"24\" y=\""
      << height - 16 << "\">tilecl</text>"
      << "<rect x=\"80\" y=\"" << height - 26 << "\" width=\"12\" height=\"12\" fill=\"#9ecae1\"/><text x=\"96\" y=\""
      << height - 16 << "\">tilecl baseline</text>"
      << "<rect x=\"210\" y=\"" << height - 26 << "\" width=\"12\" height=\"12\" fill=\"#ff7f0e\"/><text x=\"226\" y=\""
      << height - 16 << "\">peer</text>\n"
      << "</svg>\n";
  return svg.str();
}

}  // namespace tilecl::bench
