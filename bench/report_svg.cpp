// family_chart_svg (report.hpp): one horizontal bar chart per family.
#include <algorithm>
#include <sstream>

#include "report.hpp"

namespace tilecl::bench {
namespace {

constexpr int kLabelWidth = 300, kChartWidth = 560, kBarHeight = 16, kGap = 4, kGroupGap = 12, kTop = 70;
// Bars are drawn up to this fraction of their limit; longer ones are cut with a mark (their label says how far).
constexpr double kMaxDrawnFraction = 1.5;

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

// Colours by implementation, the same in the bars and the legend: tilecl's rows blue, each peer its own.
class Palette {
 public:
  const std::string& colour(const Row& row) {
    auto found = std::find(names_.begin(), names_.end(), row.implementation);
    if (found != names_.end()) return colours_[static_cast<std::size_t>(found - names_.begin())];
    static const char* const kPeers[] = {"#ff7f0e", "#2ca02c", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f"};
    const std::size_t peer_count = static_cast<std::size_t>(
        std::count_if(kinds_.begin(), kinds_.end(), [](Row::Kind kind) { return kind == Row::Kind::Peer; }));
    names_.push_back(row.implementation);
    kinds_.push_back(row.kind);
    colours_.push_back(row.kind == Row::Kind::Ours           ? "#1f77b4"
                       : row.kind == Row::Kind::OursBaseline ? "#9ecae1"
                                                             : kPeers[peer_count % 6]);
    return colours_.back();
  }
  // "<rect/><text/>" pairs for the legend, one per implementation seen, from (x, y).
  std::string legend(int x, int y) const {
    std::ostringstream svg;
    for (std::size_t i = 0; i < names_.size(); ++i) {
      svg << "<rect x=\"" << x << "\" y=\"" << y - 10 << "\" width=\"12\" height=\"12\" fill=\"" << colours_[i]
          << "\"/><text x=\"" << x + 16 << "\" y=\"" << y << "\">" << escape_xml(names_[i]) << "</text>\n";
      x += 36 + 7 * static_cast<int>(names_[i].size());
    }
    return svg.str();
  }

 private:
  std::vector<std::string> names_, colours_;
  std::vector<Row::Kind> kinds_;
};

struct Layout {
  double scale;  // fractions shown across the chart width
  int x(double fraction) const {
    return kLabelWidth + static_cast<int>(kChartWidth * std::min(fraction, scale) / scale);
  }
};

// One bar: its label, the bar (at least 3 pixels, so tiny rates show), a cut mark past the drawn range, the
// rate and fraction with the limit it is a fraction of.
void draw_bar(std::ostringstream& body, const Row& row, int y, const Layout& layout, const Limits& limits,
              Palette& palette, bool& above_limit) {
  std::string reference;
  limit_rate(row, limits, &reference);
  const double fraction = fraction_of_limit(row, limits);
  const int end = std::max(layout.x(fraction), kLabelWidth + 3);
  body << "<text x=\"24\" y=\"" << y + 12 << "\">" << escape_xml(row.implementation) << "</text>\n"
       << "<rect x=\"" << kLabelWidth << "\" y=\"" << y << "\" width=\"" << end - kLabelWidth << "\" height=\""
       << kBarHeight << "\" fill=\"" << palette.colour(row) << "\"/>\n";
  if (fraction > layout.scale)
    body << "<text x=\"" << end - 14 << "\" y=\"" << y + 12 << "\" fill=\"white\">&#187;</text>\n";
  std::string label = fixed_text(row.rate(), 1) + " " + (row.unit == Unit::BytesPerSecond ? "GB/s" : "GFLOP/s") + " (" +
                      percent_text(fraction) + " of " + reference + ")";
  if (fraction > 1) {
    label += " *";
    above_limit = true;
  }
  body << "<text x=\"" << end + 6 << "\" y=\"" << y + 12 << "\">" << escape_xml(label) << "</text>\n";
}

// A limit row of the family (a copy of the same bytes): a red mark across its group's bars, labelled.
void draw_limit_mark(std::ostringstream& body, const Row& row, int group_top, int group_bottom, const Layout& layout,
                     const Limits& limits) {
  const double fraction = fraction_of_limit(row, limits);
  const int x = layout.x(fraction);
  body << "<line x1=\"" << x << "\" y1=\"" << group_top << "\" x2=\"" << x << "\" y2=\"" << group_bottom
       << "\" stroke=\"#d62728\" stroke-width=\"2\"/>\n"
       << "<text x=\"" << x + 4 << "\" y=\"" << group_top - 2 << "\" fill=\"#d62728\" font-size=\"10\">"
       << escape_xml(row.implementation + ": " + fixed_text(row.rate(), 1) + " GB/s") << "</text>\n";
}

}  // namespace

std::string family_chart_svg(const std::string& family, const std::vector<Row>& rows, const Limits& limits,
                             const DeviceInfo& device, const RunInfo& run) {
  std::vector<const Row*> family_rows;
  double largest = 1.0;
  for (const auto& row : rows) {
    if (row.family != family || row.failed) continue;
    family_rows.push_back(&row);
    largest = std::max(largest, fraction_of_limit(row, limits));
  }
  const Layout layout{std::min(largest, kMaxDrawnFraction) * 1.05};
  Palette palette;
  std::ostringstream body;
  bool above_limit = false;
  int y = kTop;
  std::vector<std::string> problems;
  for (const auto* first : family_rows) {
    const std::string problem = first->op + " " + first->shape + " " + first->dtype;
    if (std::find(problems.begin(), problems.end(), problem) != problems.end()) continue;
    problems.push_back(problem);
    y += kGroupGap;
    body << "<text x=\"8\" y=\"" << y + 12 << "\" font-weight=\"bold\">" << escape_xml(problem) << "</text>\n";
    y += kBarHeight + kGap;
    const int group_top = y;
    for (const auto* row : family_rows)
      if (row->op + " " + row->shape + " " + row->dtype == problem && row->kind != Row::Kind::Limit) {
        draw_bar(body, *row, y, layout, limits, palette, above_limit);
        y += kBarHeight + kGap;
      }
    for (const auto* row : family_rows)
      if (row->op + " " + row->shape + " " + row->dtype == problem && row->kind == Row::Kind::Limit)
        draw_limit_mark(body, *row, group_top, y - kGap, layout, limits);
  }
  const int limit_x = layout.x(1.0), height = y + (above_limit ? 70 : 50);
  std::ostringstream svg;
  svg << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << kLabelWidth + kChartWidth + 420 << "\" height=\""
      << height << "\" font-family=\"sans-serif\" font-size=\"12\">\n"
      << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
      << "<text x=\"8\" y=\"20\" font-size=\"15\" font-weight=\"bold\">tilecl " << escape_xml(family) << " on "
      << escape_xml(device.device_name) << "</text>\n"
      << "<text x=\"8\" y=\"38\">bar length: the rate as a fraction of its limit, measured in the same run: GB/s rows "
         "against a copy moving about as many bytes, GFLOP/s rows against the FMA-bound kernel ("
      << fixed_text(limits.fma_gflop_per_s, 1) << " GFLOP/s)</text>\n"
      << "<text x=\"8\" y=\"54\">" << escape_xml(run.date) << ", commit " << escape_xml(run.commit)
      << (run.quick ? ", --quick" : "") << "</text>\n"
      << body.str() << "<line x1=\"" << limit_x << "\" y1=\"" << kTop << "\" x2=\"" << limit_x << "\" y2=\"" << y
      << "\" stroke=\"#d62728\" stroke-dasharray=\"5,4\"/>\n"
      << "<text x=\"" << limit_x - 20 << "\" y=\"" << y + 14 << "\" fill=\"#d62728\">limit (100%)</text>\n"
      << palette.legend(8, y + 34);
  if (above_limit)
    svg << "<text x=\"8\" y=\"" << y + 56 << "\">* faster than the copy of its size in this run: the copy is a "
        << "practical limit, not a bound (a row's data may stay in cache where the copy's does not); bars past "
        << percent_text(kMaxDrawnFraction) << " are cut (&#187;)</text>\n";
  svg << "</svg>\n";
  return svg.str();
}

}  // namespace tilecl::bench
