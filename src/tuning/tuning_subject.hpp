// What the tuner needs from an op: one problem (op, dtype, shape) it can build, run, time and verify with
// any configuration of its search space, on scratch buffers of its own. Each op module implements one.
#pragma once

#include <CL/opencl.hpp>
#include <cstdint>
#include <string>
#include <vector>

#include "build_options.hpp"
#include "tuning/search_space.hpp"

namespace tilecl::detail {

// The tuning database stores one choice per key; the device fingerprint completes it.
struct TuningKey {
  std::string op;
  std::string dtype;
  std::string bucket;  // a range of shapes that share a choice, e.g. "n<=2^20"
};

class TuningSubject {
 public:
  virtual ~TuningSubject() = default;

  virtual TuningKey key() const = 0;
  // The kernel family: its source hash guards database entries against edited kernels.
  virtual std::string family() const = 0;
  // The shape timed when tuning this key (a representative of the bucket), in --shape syntax.
  virtual std::string timing_shape() const = 0;

  virtual SearchSpace search_space(const DeviceInfo& device) const = 0;
  // Used when nothing is tuned: derived from the device's properties, never from a vendor table.
  virtual Config default_config(const DeviceInfo& device) const = 0;
  // The -D options the config builds with (its build parameters plus the op's fixed macros).
  virtual BuildOptions build_options(const Config& config) const = 0;

  // First-use tuning: what to try besides the default, even when it needs a compile (empty: the default's
  // launch-parameter variations and configurations whose programs this process has built, which cost no compile),
  // and the time budget for it given the configured one (TILECL_TUNE_BUDGET_MS). An op whose best choice depends on
  // the shape more than launch parameters can say (gemm: a model's top tilings).
  virtual std::vector<Config> first_use_candidates(const DeviceInfo& /*device*/) const { return {}; }
  virtual double first_use_budget_ms(double configured_ms) const { return configured_ms; }

  // Allocates scratch buffers with random data at the timing and verification shapes and computes what
  // verify() compares with. Never touches a caller's buffers.
  virtual void prepare(const cl::CommandQueue& queue, std::uint64_t seed) = 0;
  // Enqueues one run at the timing shape; returns the events of its kernels, first to last.
  virtual std::vector<cl::Event> run(cl::CommandQueue& queue, const Config& config) = 0;
  // Runs at a verification shape with ragged edges and compares with the reference: empty when correct,
  // else a description of the first difference.
  virtual std::string verify(cl::CommandQueue& queue, const Config& config) = 0;

  // The work of one timed run, for rates: an amount and its unit ("flop" or "byte").
  virtual double work() const = 0;
  virtual const char* work_unit() const = 0;
};

}  // namespace tilecl::detail
