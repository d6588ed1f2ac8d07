#include "sweep.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <iomanip>
#include <iostream>
#include <map>
#include <set>
#include <sstream>

#include "sweeps/common.hpp"

namespace tilecl::bench {

std::vector<SweepOp> sweep_ops(const DeviceInfo& device) {
  std::vector<SweepOp> ops;
  for (auto&& family :
       {sweeps::gemm_sweep_ops(device), sweeps::gemm_mma_sweep_ops(device), sweeps::transpose_sweep_ops(device),
        sweeps::vector_sweep_ops(device), sweeps::batched_sweep_ops(device), sweeps::image_sweep_ops(device)})
    ops.insert(ops.end(), family.begin(), family.end());
  return ops;
}

namespace {

double median_of(std::vector<double> times) {
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

// One call of `run`, host-timed up to the end of a finish on `queue` (none for host-only peers).
double timed_call_ms(cl::CommandQueue* queue, const std::function<void()>& run) {
  const auto start = std::chrono::steady_clock::now();
  run();
  if (queue != nullptr) queue->finish();
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

double median_host_ms(cl::CommandQueue* queue, const std::function<void()>& run, double budget_ms) {
  run();
  run();
  if (queue != nullptr) queue->finish();
  std::vector<double> times;
  double total = 0;
  while (times.size() < 3 || (times.size() < 15 && total < budget_ms)) {
    times.push_back(timed_call_ms(queue, run));
    total += times.back();
  }
  return median_of(times);
}

void time_beside_peer(cl::CommandQueue& queue, SweepPoint& point, const std::function<void()>& ours,
                      const std::function<void()>& peer, double budget_ms) {
  if (!peer) {
    point.ours_ms = median_host_ms(&queue, ours, budget_ms);
    return;
  }
  for (const auto* run : {&ours, &ours, &peer, &peer}) (*run)();
  queue.finish();
  // Pairs in alternating order (ours first, then the peer first), so that a drift of the machine's speed (another
  // process, a clock change, PoCL's worker threads going to sleep) falls on both sides alike. Calls of tens of
  // microseconds (PoCL's enqueue + finish floor varies 2-5x from call to call) get more pairs than long ones.
  std::vector<double> our_times, peer_times;
  double total = 0;
  const auto more = [&] {
    const std::size_t pairs = our_times.size();
    if (pairs < 3) return true;
    if (pairs >= kMostPairs || total >= budget_ms) return false;
    return pairs < 15 || total < budget_ms / 10;
  };
  while (more()) {
    const bool ours_first = our_times.size() % 2 == 0;
    const double first = timed_call_ms(&queue, ours_first ? ours : peer);
    const double second = timed_call_ms(&queue, ours_first ? peer : ours);
    our_times.push_back(ours_first ? first : second);
    peer_times.push_back(ours_first ? second : first);
    total += first + second;
  }
  point.ours_ms = median_of(our_times);
  point.peer_ms = median_of(peer_times);
}

double copy_ms(BenchContext& context, std::uint64_t bytes) {
  const std::uint64_t size = std::max<std::uint64_t>(bytes / 2, 4);  // bytes counts the read and the write
  cl::Buffer from(context.context, CL_MEM_READ_WRITE, size), to(context.context, CL_MEM_READ_WRITE, size);
  const cl_uchar pattern = 0x5a;
  context.queue.enqueueFillBuffer(from, pattern, 0, size);
  context.queue.enqueueFillBuffer(to, pattern, 0, size);
  return median_host_ms(&context.queue, [&] { context.queue.enqueueCopyBuffer(from, to, 0, 0, size); });
}

std::vector<SweepPoint> run_sweep(BenchContext& context, const SweepSettings& settings) {
  const std::set<std::string> wanted(settings.families.begin(), settings.families.end());
  std::vector<SweepPoint> points;
  if (wanted.empty() || wanted.count("overhead")) points = sweeps::measure_overheads(context);
  for (const SweepOp& op : sweep_ops(*context.info)) {
    if (!wanted.empty() && !wanted.count(op.family) && !wanted.count(op.op)) continue;
    // Each op draws from its own stream, so adding an op or changing a count leaves the others' shapes alone.
    std::mt19937_64 random = sweeps::sweep_random(settings.seed, op.op, op.dtype);
    const int count = settings.count > 0 ? settings.count : op.default_count;
    for (int i = 0; i < count; ++i) {
      SweepPoint point = op.measure_random_shape(context, random);
      std::cerr << "  sweep " << point.op << " " << point.dtype << " " << point.shape << ": "
                << (point.error.empty() ? std::to_string(point.ours_ms) + " ms, " + point.peer + " " +
                                              std::to_string(point.peer_ms) + " ms"
                                        : "failed: " + point.error)
                << std::endl;
      points.push_back(std::move(point));
    }
  }
  return points;
}

namespace {

struct Summary {
  int shapes = 0, failed = 0, below = 0;
  double log_sum = 0, worst = 0, worst_of_copy = 0;
  double reference_log_sum = 0, copy_log_sum = 0;
  int with_reference = 0, with_copy = 0;
  std::string reference;
  std::string worst_shape, worst_copy_shape;
  int with_ratio = 0;
  double geomean() const { return with_ratio > 0 ? std::exp(log_sum / with_ratio) : 0; }
  double reference_geomean() const { return with_reference > 0 ? std::exp(reference_log_sum / with_reference) : 0; }
  double copy_geomean() const { return with_copy > 0 ? std::exp(copy_log_sum / with_copy) : 0; }
};

std::map<std::string, Summary> summarize(const std::vector<SweepPoint>& points) {
  std::map<std::string, Summary> summaries;
  for (const auto& point : points) {
    Summary& s = summaries[point.op + " " + point.dtype];
    ++s.shapes;
    if (!point.error.empty()) {
      ++s.failed;
      continue;
    }
    if (point.ratio() > 0) {
      s.log_sum += std::log(point.ratio());
      if (s.with_ratio == 0 || point.ratio() < s.worst) s.worst = point.ratio(), s.worst_shape = point.shape;
      ++s.with_ratio;
      if (point.ratio() < 1.0) ++s.below;
    }
    if (point.of_reference() > 0) {
      s.reference = point.reference;
      s.reference_log_sum += std::log(point.of_reference());
      ++s.with_reference;
    }
    if (point.of_copy() > 0) {
      s.copy_log_sum += std::log(point.of_copy());
      ++s.with_copy;
    }
    if (point.of_copy() > 0 && (s.worst_of_copy == 0 || point.of_copy() < s.worst_of_copy))
      s.worst_of_copy = point.of_copy(), s.worst_copy_shape = point.shape;
  }
  return summaries;
}

std::string fixed(double value, int digits) {
  std::ostringstream text;
  text << std::fixed << std::setprecision(digits) << value;
  return text.str();
}

}  // namespace

void print_sweep(std::ostream& out, const std::vector<SweepPoint>& points, const SweepSettings& settings) {
  out << "\nShape sweep (seed " << settings.seed
      << "; times are host-timed enqueue + finish medians after warm-up, tilecl's calls alternating with the peer's; "
         "ratio = peer time / tilecl time)\n";
  out << std::left << std::setw(28) << "shape" << std::setw(12) << "tilecl ms" << std::setw(16) << "peer"
      << std::setw(12) << "peer ms" << std::setw(9) << "ratio" << std::setw(9) << "of copy"
      << "parameters\n";
  std::string current;
  for (const auto& p : points) {
    if (p.op + p.dtype != current) {
      current = p.op + p.dtype;
      out << "-- " << p.op << " " << p.dtype << "\n";
    }
    if (!p.error.empty()) {
      out << std::setw(28) << p.shape << "failed: " << p.error << "\n";
      continue;
    }
    out << std::setw(28) << p.shape << std::setw(12) << fixed(p.ours_ms, 4) << std::setw(16) << p.peer << std::setw(12)
        << (p.peer_ms > 0 ? fixed(p.peer_ms, 4) : "-") << std::setw(9) << (p.ratio() > 0 ? fixed(p.ratio(), 2) : "-")
        << std::setw(9) << (p.of_copy() > 0 ? fixed(100 * p.of_copy(), 0) + "%" : "-")
        << (p.reference_ms > 0 ? p.reference + " " + fixed(p.of_reference(), 2) + "x  " : "")
        << p.ours_parameters.substr(0, 60) << "\n";
  }
  out << "\nSweep summary (geometric mean and worst of peer time / tilecl time; below = shapes where the peer is "
         "faster)\n";
  for (const auto& [name, s] : summarize(points)) {
    out << "  " << std::setw(18) << name << " shapes " << std::setw(4) << s.shapes << " geomean " << std::setw(6)
        << fixed(s.geomean(), 2) << " worst " << std::setw(6) << fixed(s.worst, 2) << " (" << s.worst_shape
        << ")  below 1.0: " << s.below;
    if (s.worst_of_copy > 0)
      out << "  of copy: geomean " << fixed(100 * s.copy_geomean(), 0) << "%, worst " << fixed(100 * s.worst_of_copy, 0)
          << "% (" << s.worst_copy_shape << ")";
    if (s.with_reference > 0) out << "  vs " << s.reference << ": geomean " << fixed(s.reference_geomean(), 2);
    if (s.failed > 0) out << "  FAILED: " << s.failed;
    out << "\n";
  }
}

nlohmann::json sweep_json(const std::vector<SweepPoint>& points, const SweepSettings& settings) {
  nlohmann::json json = {{"seed", settings.seed}, {"points", nlohmann::json::array()}, {"summary", {}}};
  for (const auto& p : points)
    json["points"].push_back({{"family", p.family},
                              {"op", p.op},
                              {"dtype", p.dtype},
                              {"shape", p.shape},
                              {"peer", p.peer},
                              {"bytes", p.bytes},
                              {"flops", p.flops},
                              {"tilecl_ms", p.ours_ms},
                              {"peer_ms", p.peer_ms},
                              {"copy_ms", p.copy_ms},
                              {"reference", p.reference},
                              {"reference_ms", p.reference_ms},
                              {"ratio", p.ratio()},
                              {"of_copy", p.of_copy()},
                              {"parameters", p.ours_parameters},
                              {"error", p.error}});
  for (const auto& [name, s] : summarize(points))
    json["summary"][name] = {{"shapes", s.shapes},
                             {"geomean_ratio", s.geomean()},
                             {"worst_ratio", s.worst},
                             {"worst_shape", s.worst_shape},
                             {"below_1", s.below},
                             {"worst_of_copy", s.worst_of_copy},
                             {"geomean_of_copy", s.copy_geomean()},
                             {"worst_of_copy_shape", s.worst_copy_shape},
                             {"failed", s.failed},
                             {"reference", s.reference},
                             {"reference_geomean", s.reference_geomean()}};
  return json;
}

std::string sweep_chart_svg(const std::vector<SweepPoint>& points, const std::string& title) {
  // x: ratio on a log scale from 1/8 to 8; one row of dots per op, the 1.0 line marked.
  const auto summaries = summarize(points);
  const int label_width = 170, width = 640, row_height = 28, top = 40;
  const double low = std::log(0.125), high = std::log(8.0);
  auto x_of = [&](double ratio) {
    const double clamped = std::clamp(std::log(ratio), low, high);
    return label_width + (clamped - low) / (high - low) * width;
  };
  std::ostringstream svg;
  const int height = top + static_cast<int>(summaries.size()) * row_height + 40;
  svg << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << label_width + width + 200 << "\" height=\"" << height
      << "\" font-family=\"sans-serif\" font-size=\"12\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
      << "<text x=\"10\" y=\"20\" font-size=\"14\">" << title
      << " -- peer time / tilecl time per random shape (right of 1: tilecl faster)</text>\n";
  for (double tick : {0.125, 0.25, 0.5, 1.0, 2.0, 4.0, 8.0}) {
    svg << "<line x1=\"" << x_of(tick) << "\" y1=\"" << top - 8 << "\" x2=\"" << x_of(tick) << "\" y2=\"" << height - 30
        << "\" stroke=\"" << (tick == 1.0 ? "black" : "#ddd") << "\"/>\n<text x=\"" << x_of(tick) - 8 << "\" y=\""
        << height - 14 << "\">" << tick << "</text>\n";
  }
  int row = 0;
  for (const auto& [name, s] : summaries) {
    const int y = top + row * row_height + row_height / 2;
    svg << "<text x=\"10\" y=\"" << y + 4 << "\">" << name << "</text>\n";
    for (const auto& p : points)
      if (p.op + " " + p.dtype == name && p.ratio() > 0)
        svg << "<circle cx=\"" << x_of(p.ratio()) << "\" cy=\"" << y << "\" r=\"4\" fill=\""
            << (p.ratio() < 1 ? "#c33" : "#36c") << "\" fill-opacity=\"0.6\"><title>" << p.shape << ": "
            << fixed(p.ratio(), 2) << "</title></circle>\n";
    svg << "<text x=\"" << label_width + width + 10 << "\" y=\"" << y + 4 << "\">geomean " << fixed(s.geomean(), 2)
        << ", worst " << fixed(s.worst, 2) << "</text>\n";
    ++row;
  }
  svg << "</svg>\n";
  return svg.str();
}

}  // namespace tilecl::bench
