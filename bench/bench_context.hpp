// What a family's benchmark receives and produces: the device (with a profiling queue), the measured limits,
// the run's settings, and rows -- one per implementation of one op at one shape.
#pragma once

#include <CL/opencl.hpp>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "measure.hpp"
#include "tilecl/device.hpp"

namespace tilecl::bench {

enum class Unit { BytesPerSecond, FlopsPerSecond };

struct Row {
  std::string family;          // "elementwise", "gemm", ...
  std::string op;              // "axpy"
  std::string shape;           // "n=16777216"
  std::string dtype;           // "float"
  std::string implementation;  // "tilecl", "tilecl naive", "CLBlast", "Boost.Compute", "OpenCV", ...
  enum class Kind { Ours, OursBaseline, Peer, Limit } kind = Kind::Ours;
  std::string parameters;  // for tilecl rows: the configuration and where it came from
  Timing timing;
  double work = 0;  // bytes moved (read + write) or floating-point operations, per run
  Unit unit = Unit::BytesPerSecond;
  std::string note;  // "host-timed", "failed: ...", ...
  bool failed = false;

  // GB/s or GFLOP/s (1e9 per second) at the median time.
  double rate() const { return timing.median_ms > 0 && !failed ? work / (timing.median_ms * 1e-3) * 1e-9 : 0; }
};

// A device-to-device copy of `bytes` (each of source and target), rotated through as many buffer pairs as a
// row of that size rotates through, and its rate (read + write; the faster of clEnqueueCopyBuffer and a copy
// kernel).
struct CopyRate {
  std::size_t bytes = 0;
  double gb_per_s = 0;
};

struct Limits {
  double copy_gb_per_s = 0;      // the largest copy measured (1 GiB on GPUs), read + write
  double fma_gflop_per_s = 0;    // FMA-bound kernel, float
  std::vector<CopyRate> copies;  // by size, smallest first: what a GB/s row is compared with (report.hpp)
};

struct BenchContext {
  cl::Device device;
  cl::Context context;
  cl::CommandQueue queue;  // profiling enabled
  const DeviceInfo* info = nullptr;
  bool quick = false;
  MeasureOptions measure;
  std::mt19937_64 random{20261130};
  Limits limits;
  std::vector<Row> rows;

  // How many copies of a working set of `bytes` to rotate through so repeated runs do not measure the cache:
  // enough to exceed four times the last-level cache the device reports, at most 16.
  std::size_t rotation_sets(std::size_t bytes) const;

  // Appends the row and prints a one-line progress note on stderr.
  void add(Row row);
};

// A family's benchmark: appends its rows.
struct FamilyBenchmark {
  std::string family;
  std::function<void(BenchContext&)> run;
};

// An op measured for first-call latency in a fresh process: `call` runs it once on the queue and waits.
struct FirstCallOp {
  std::string name;  // "axpy", "gemm", "clblast-sgemm"
  bool ours = true;
  std::function<void(cl::CommandQueue&)> call;
};

}  // namespace tilecl::bench
