// The frame every op call goes through: an empty problem returns at once; otherwise the queue is resolved, the
// call validated, a configuration chosen (an explicit one checked against the op's search space, else the tuning
// service's choice) and the op enqueues its plan. An op module only describes its own part (struct Op below).
//
// Warm calls skip the tuning service and the program cache: each thread keeps a small memo of what earlier calls
// resolved -- the configuration, the compiled program and a kernel object of its own -- keyed by plain numbers
// (context, device, op, dtype, the op's shape class and program code), so a warm call takes no lock, builds no
// string and allocates nothing before its enqueue. Anything that can change a choice or a program
// (tuning::clear, overrides, `tilecl tune`, clear_program_cache, a forgotten context) advances a global
// generation, and entries of older generations are resolved again.
//
// What an op type provides (all const member functions):
//   using Call = ...;                       the call's arguments
//   const char* name() const;               for errors: "transpose"
//   bool is_empty(const Call&) const;       nothing to do: the frame returns a null event
//   void validate(const QueueTarget&, const Call&) const;
//   const SearchSpace& space(const DeviceInfo&, const Call&) const;   what explicit configurations must meet
//   ShapeKey shape_key(const Call&) const;  the tuned choice's key and the program code (see ShapeKey)
//   std::unique_ptr<TuningSubject> subject(const Call&) const;        tunes the key when nothing is stored
//   cl::Event enqueue(const QueueTarget&, cl::CommandQueue&, Resolved&, const Call&, const wait list*) const;
#pragma once

#include <CL/opencl.hpp>
#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

#include "checks.hpp"
#include "dispatch_generation.hpp"
#include "program_cache.hpp"
#include "tilecl/error.hpp"
#include "tuning/choice_resolver.hpp"

namespace tilecl::detail {

// Identifies a call's tuned choice and programs with plain numbers. `op` and `dtype` point to static strings.
struct ShapeKey {
  const char* op;
  const char* dtype;
  std::uint64_t shape_class;   // the op's code of the shape bucket: calls with equal codes share a choice
  std::uint64_t program_code;  // what else selects the programs (transposes, alignment): equal codes, equal programs
};

// What a call resolved: the configuration, and what the op's enqueue caches for the next call of the same key on
// this thread (the main program and a kernel object no other thread uses).
struct Resolved {
  Config config;
  bool is_explicit = false;  // given by the caller (tests, the tuner): the op runs exactly it, no shortcut
  std::shared_ptr<CompiledProgram> program;
  std::optional<CompiledProgram::Lease> kernel;
  std::shared_ptr<CompiledProgram> helper_program;  // a second program some ops need (gemm's pack and reduce)
  std::shared_ptr<const void> plan;                 // the op's decoded launch plan for this configuration (plan_as)

  // The op's plan of type P, made by make(config) on the first call and kept with the memo entry.
  template <typename P, typename Make>
  const P& plan_as(Make make) {
    if (!plan) plan = std::make_shared<const P>(make(config));
    return *static_cast<const P*>(plan.get());
  }

  // The program for `options` (cached here after the first call) and the kernel `name` leased for good.
  cl::Kernel& main_kernel(const QueueTarget& target, const char* family, const BuildOptions& options,
                          const std::string& name, const char* op);

  // check_work_group_fits for the main kernel `name` (after main_kernel), once per memo entry and work-group size: a
  // warm call neither leases the kernel a second time (a lock and a lookup) nor asks the driver for its limit.
  void check_main_work_group(std::string_view op, const std::string& name, std::uint64_t items);
  std::uint64_t checked_work_group = 0;  // the work-group size check_main_work_group last passed; 0: none
};

// The memoized resolution of `key` on this thread (nullptr: not memoized); remember() stores one.
Resolved* find_memoized(const QueueTarget& target, const ShapeKey& key);
Resolved& remember(const QueueTarget& target, const ShapeKey& key, Config config);

// While an op enqueues, its memo entry is pinned: an op whose enqueue calls another op (half gemm's via_float runs
// float gemm) keeps its entry when the inner call remembers one of its own.
class MemoPin {
 public:
  explicit MemoPin(const Resolved& resolved);
  ~MemoPin();
  MemoPin(const MemoPin&) = delete;
  MemoPin& operator=(const MemoPin&) = delete;
};

// An explicit configuration that does not meet the op's search space is refused (CL_INVALID_VALUE).
void check_explicit_config(const char* op, const SearchSpace& space, const Config& config, const DeviceInfo& device);

template <typename Op>
Resolved& resolve(const Op& op, const QueueTarget& target, const typename Op::Call& call) {
  const ShapeKey key = op.shape_key(call);
  if (Resolved* memoized = find_memoized(target, key)) return *memoized;
  auto subject = op.subject(call);
  return remember(target, key, ChoiceResolver::instance().choose(target, *subject).parameters);
}

// Whether an error raised while enqueueing a chosen configuration is the configuration's fault (it does not build,
// or the device refuses its launch sizes or resources), rather than the call's or the device's state.
bool is_configuration_failure(const Error& error);

// A tuned configuration failed to build or launch: it is reported once, recorded as a failure in the tuning
// database (so no process uses it again: its entry is skipped and the key tuned again without it), and the call's
// key is resolved anew.
template <typename Op>
Resolved& resolve_after_failure(const Op& op, const QueueTarget& target, const typename Op::Call& call,
                                const Config& failed, const Error& error) {
  auto subject = op.subject(call);
  ChoiceResolver::instance().discard(target, *subject, failed, error.what());
  return remember(target, op.shape_key(call), ChoiceResolver::instance().choose(target, *subject).parameters);
}

template <typename Op>
cl::Event run_op(const Op& op, const Config* explicit_config, cl::CommandQueue& queue, const typename Op::Call& call,
                 const std::vector<cl::Event>* wait) {
  if (op.is_empty(call)) return cl::Event();
  const QueueTarget target = queue_target(op.name(), queue);
  op.validate(target, call);
  check_wait_list(op.name(), wait, target.context);
  if (explicit_config == nullptr) {
    Resolved& resolved = resolve(op, target, call);
    try {
      const MemoPin pin(resolved);
      return op.enqueue(target, queue, resolved, call, wait);
    } catch (const Error& error) {
      if (!is_configuration_failure(error)) throw;
      const Config failed = resolved.config;  // the memo entry is replaced below
      Resolved& again = resolve_after_failure(op, target, call, failed, error);
      const MemoPin pin(again);
      return op.enqueue(target, queue, again, call, wait);
    }
  }
  check_explicit_config(op.name(), op.space(*target.info, call), *explicit_config, *target.info);
  Resolved once{*explicit_config, true, nullptr, std::nullopt, nullptr, nullptr};
  return op.enqueue(target, queue, once, call, wait);
}

}  // namespace tilecl::detail
