// `tilecl bench --sweep`: each op at a few dozen random shapes drawn from a stated distribution (seeded, the
// seed printed), each beside the best peer on the device and, for memory-bound ops, beside a copy of the same
// bytes, all in one run. Reported per op: the geometric mean and worst of the peer's time over ours, how many
// shapes we lose, and for memory-bound ops the worst fraction of copy speed.
#pragma once

#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <vector>

#include "bench_context.hpp"

namespace tilecl::bench {

struct SweepSettings {
  std::uint64_t seed = 1;
  int count = 0;  // shapes per op; 0: the op's own default
  std::vector<std::string> families;
};

// One shape of one op, timed for tilecl, the peer and (memory-bound ops) the copy of the same bytes. Times are
// medians of host-timed enqueue + finish, after warm-up calls (so first-use tuning is not in them).
struct SweepPoint {
  std::string family, op, dtype, shape, peer;
  double bytes = 0;  // bytes a memory-bound op must move (read + write); 0 for compute-bound ops
  double flops = 0;
  double ours_ms = 0, peer_ms = 0, copy_ms = 0;
  // A reference that is not a peer (OpenBLAS on host memory, on CPUs): reported, not counted in the ratio.
  std::string reference;
  double reference_ms = 0;
  std::string ours_parameters;
  std::string error;

  double ratio() const { return ours_ms > 0 && peer_ms > 0 ? peer_ms / ours_ms : 0; }  // > 1: we are faster
  double of_reference() const { return ours_ms > 0 && reference_ms > 0 ? reference_ms / ours_ms : 0; }
  double of_copy() const { return ours_ms > 0 && copy_ms > 0 ? copy_ms / ours_ms : 0; }
};

// One op's sweep: how to draw a shape and how to time it.
struct SweepOp {
  std::string family, op, dtype;
  int default_count = 25;
  std::function<SweepPoint(BenchContext&, std::mt19937_64&)> measure_random_shape;
};

std::vector<SweepOp> sweep_ops(const DeviceInfo& device);

// Runs the sweep; prints progress on stderr.
std::vector<SweepPoint> run_sweep(BenchContext& context, const SweepSettings& settings);

void print_sweep(std::ostream& out, const std::vector<SweepPoint>& points, const SweepSettings& settings);
nlohmann::json sweep_json(const std::vector<SweepPoint>& points, const SweepSettings& settings);
// One chart per run: every point's ratio to the peer (log scale), grouped by op.
std::string sweep_chart_svg(const std::vector<SweepPoint>& points, const std::string& title);

// Host-timed median of `run` (enqueue + finish on `queue`) after two warm-up calls.
// `queue` may be null for host-only peers.
double median_host_ms(cl::CommandQueue* queue, const std::function<void()>& run, double budget_ms = 200);
// Sets point.ours_ms and point.peer_ms: host-timed medians of `ours` and `peer` (enqueue + finish on `queue`), each
// call of one beside a call of the other, after two warm-up calls each (the first of `ours` tunes it). Without a
// peer, the median of `ours` alone.
inline constexpr std::size_t kMostPairs = 61;
void time_beside_peer(cl::CommandQueue& queue, SweepPoint& point, const std::function<void()>& ours,
                      const std::function<void()>& peer, double budget_ms = 400);
// The host-timed median of a device-to-device copy of `bytes` bytes (the limit for memory-bound ops).
double copy_ms(BenchContext& context, std::uint64_t bytes);

}  // namespace tilecl::bench
