// reduce, reduce_value, reduce_index: validate -> parameters -> program -> kernel leases -> enqueue the passes.
//
// A reduction is a plan of passes enqueued back to back on the caller's queue, each waiting for the one before
// (so out-of-order queues are safe too), with the partial results in a workspace (src/workspace.hpp):
//   pass 1   reduce_<variant> reads x and writes P1 partials to workspace slots [0, P1) -- or, with one work-group
//            (P1 = 1: small inputs), the result itself, where the last pass would have;
//   pass 2.. reduce_partials, while more than 16 partials per work-item remain: spans of 16 * WG partials
//            per work-group, written to the next free slots;
//   last     reduce_partials with one work-group over what is left, writing the result.
// Workspace layout: values as T in slots [0, slots), then (argmin/argmax) indices as int32 from the next
// 8-byte boundary, same slots. The last slot receives the final value (and index) when the result does not
// go to the caller's buffer: the value of argmin/argmax, and everything for reduce_value / reduce_index.
#include "ops/reduce.hpp"

#include <algorithm>
#include <cmath>
#include <memory>
#include <optional>

#include "checks.hpp"
#include "launch.hpp"
#include "ops/op_frame.hpp"
#include "ops/tunable_ops.hpp"
#include "program_cache.hpp"
#include "tilecl/error.hpp"
#include "tilecl/reduce.hpp"
#include "tuning/choice_resolver.hpp"
#include "tuning/length_bucket.hpp"
#include "tuning/scratch.hpp"
#include "workspace.hpp"

namespace tilecl {
namespace detail {
namespace {

constexpr const char* kReduceFamily = "reduce";
// Later passes reduce up to this many partials per work-item; the last pass handles at most WG * 16.
constexpr std::uint64_t kPartialsPerItem = 16;
// Work-group size of reduce_partials in programs whose pass 1 is reduce_chunked (WG_PARTIALS).
constexpr std::int64_t kChunkedPartialsGroup = 64;
// The vector variant's lanes each add their elements one after the other, so the rounding error of a float sum
// grows with the elements per lane: the plan launches enough work-groups that no lane adds more than this
// (about 1e-7 relative for values of one sign; pairwise trees do the rest).
constexpr std::uint64_t kMaxElementsPerLane = 4096;
// Vectors per lane up to which the vector variant's first pass is one work-group that writes the result itself: one
// launch instead of two (a launch costs PoCL 7-15 us of host and queue time, a GPU a few us, more than one group's
// extra work at these sizes).
constexpr std::uint64_t kSingleGroupVectorsPerLane = 8;
// The smallest workspace asked for: small reductions of growing sizes then share one allocation instead of
// reallocating at every step (oclgrind also reports false "uninitialized" reads in buffers allocated where
// released ones were).
constexpr std::uint64_t kMinimumWorkspaceBytes = std::uint64_t{64} * 1024;

const ReduceOp kAllOps[] = {ReduceOp::Sum, ReduceOp::Min, ReduceOp::Max, ReduceOp::ArgMin, ReduceOp::ArgMax};

bool is_arg(ReduceOp op) { return op == ReduceOp::ArgMin || op == ReduceOp::ArgMax; }

// REDUCE_OP in kernels/reduce.cl.
int op_code(ReduceOp op) {
  switch (op) {
    case ReduceOp::Sum:
      return 0;
    case ReduceOp::Min:
      return 1;
    case ReduceOp::Max:
      return 2;
    case ReduceOp::ArgMin:
      return 3;
    case ReduceOp::ArgMax:
      return 4;
  }
  return 0;
}

// What the op reads: checks every argument except the result.
void validate_input(const std::string& name, const QueueTarget& target, const DTypeInfo& dtype, ReduceOp op,
                    std::uint64_t n, const cl::Buffer& x, std::uint64_t x_offset) {
  check_dtype_supported(name, dtype, *target.info);
  check_enum(name, "op", op);
  if (n == 0 && op != ReduceOp::Sum)
    throw Error(name, "n", CL_INVALID_VALUE,
                std::string("the ") + to_string(op) + " of no elements is undefined (n = 0)");
  check_kernel_extent(name, "n", n);
  if (n > 0) check_buffer(name, "x", x, target.context, x_offset, n, dtype.size);
}

// Bytes of one partial or result value: T's, or a float's for half storage (reduced in float).
std::size_t value_size(const DTypeInfo& dtype) { return is_half_storage(dtype) ? 4 : dtype.size; }

// Bytes of one result element: a value for sum/min/max, int32 for argmin/argmax.
std::size_t result_size(const DTypeInfo& dtype, ReduceOp op) { return is_arg(op) ? 4 : value_size(dtype); }

void validate_result(const std::string& name, const QueueTarget& target, const DTypeInfo& dtype, ReduceOp op,
                     std::uint64_t n, const cl::Buffer& x, std::uint64_t x_offset, const cl::Buffer& result,
                     std::uint64_t result_offset) {
  const std::size_t size = result_size(dtype, op);
  check_buffer(name, "result", result, target.context, result_offset, 1, size);
  // In bytes: the result's element size may differ from x's (int32 indices of doubles).
  if (n > 0)
    check_no_overlap(name, "x", x, x_offset * dtype.size, n * dtype.size, "result", result, result_offset * size, size,
                     1);
}

BuildOptions build_options_for(const DTypeInfo& dtype, ReduceOp op, const Config& config) {
  BuildOptions options;
  options.define("DTYPE", dtype.cl_type);
  if (is_half_storage(dtype)) options.define("HALF_STORAGE", std::int64_t{1});
  options.define("REDUCE_OP", op_code(op));
  if (config.variant == "chunked") {
    for (const char* name : {"VEC", "WPT"}) options.define(name, config.value(name));
    options.define("WG_PARTIALS", kChunkedPartialsGroup);
  } else {
    options.define("WG_X", config.value("WG_X"));
    if (config.variant == "vector")
      for (const char* name : {"VEC", "WPT", "USE_SUBGROUPS"}) options.define(name, config.value(name));
  }
  return options;
}

// ---- The plan ----------------------------------------------------------------------------------------

struct Pass {
  bool first = false;                 // pass 1 (reads x) or reduce_partials
  std::uint64_t count = 0, span = 0;  // reduce_partials: partials in, partials per work-group
  std::uint64_t in_slot = 0;          // reduce_partials: first slot read
  std::uint64_t out_slot = 0;         // first slot written (unless last)
  bool last = false;
  std::uint64_t global = 0, local = 0;  // local 0: the driver chooses
};

struct Plan {
  std::vector<Pass> passes;
  std::uint64_t final_slot = 0;  // the last slot: the final value (and index) when not in the caller's buffer
  std::uint64_t index_base = 0;  // int32 element offset of the index array (argmin/argmax)
  std::uint64_t bytes = 0;
};

Plan make_plan(const Config& config, const DTypeInfo& dtype, ReduceOp op, const DeviceInfo& device, std::uint64_t n) {
  const bool chunked = config.variant == "chunked";
  const std::uint64_t tree = chunked ? kChunkedPartialsGroup : config.value("WG_X");
  Plan plan;
  Pass first;
  first.first = true;
  std::uint64_t count = 0;
  if (chunked) {
    count = ceil_div(n, config.value("VEC") * config.value("WPT"));
    first.local = config.value("WG_X");
    first.global = first.local > 0 ? round_up(count, first.local) : count;
  } else if (config.variant == "vector") {
    const std::uint64_t vec = config.value("VEC");
    const std::uint64_t wanted =
        std::max<std::uint64_t>(static_cast<std::uint64_t>(config.value("GROUPS_PER_CU")) * device.compute_units,
                                ceil_div(ceil_div(n, kMaxElementsPerLane), tree * vec));
    count = std::max<std::uint64_t>(1, std::min(wanted, ceil_div(ceil_div(n, vec), tree)));
    if (ceil_div(n, vec) <= tree * kSingleGroupVectorsPerLane) count = 1;
    first.local = tree;
    first.global = count * tree;
  } else {
    count = ceil_div(n, tree);
    first.local = tree;
    first.global = count * tree;
  }
  // One partial is the result: the first pass writes it where the last pass would (pass_targets), slot 0.
  first.last = count == 1;
  plan.passes.push_back(first);
  std::uint64_t next = 0;
  if (!first.last) {
    std::uint64_t in = 0;
    next = count;
    while (count > tree * kPartialsPerItem) {
      Pass pass;
      pass.count = count;
      pass.span = tree * kPartialsPerItem;
      const std::uint64_t groups = ceil_div(count, pass.span);
      pass.in_slot = in;
      pass.out_slot = next;
      pass.local = tree;
      pass.global = groups * tree;
      plan.passes.push_back(pass);
      in = next;
      next += groups;
      count = groups;
    }
    Pass last;
    last.count = count;
    last.span = count;
    last.in_slot = in;
    last.last = true;
    last.local = tree;
    last.global = tree;
    plan.passes.push_back(last);
  }
  plan.final_slot = next;
  const std::uint64_t slots = next + 1;
  const std::uint64_t value_bytes = round_up(slots * value_size(dtype), 8);
  plan.index_base = value_bytes / 4;
  plan.bytes = value_bytes + (is_arg(op) ? 4 * slots : 0);
  return plan;
}

// Where the result goes: the caller's buffer, or (buffer == nullptr) the workspace's final slot, read back
// into `host` (sizeof(T) bytes for a value, 4 for an index).
struct Destination {
  cl::Buffer* buffer = nullptr;
  std::uint64_t offset = 0;
  void* host = nullptr;
};

// Where a partials pass writes its values and indices: the scratch slots, or for the last pass the final slot or the
// caller's buffer (the index for argmin/argmax, else the value).
struct PassTargets {
  const cl::Buffer* values;
  std::uint64_t value_offset;
  const cl::Buffer* indices;
  std::uint64_t index_offset;
};

PassTargets pass_targets(const Pass& pass, const Plan& plan, const Destination& destination, bool arg,
                         const cl::Buffer& scratch) {
  if (!pass.last) return {&scratch, pass.out_slot, &scratch, plan.index_base + pass.out_slot};
  PassTargets targets{&scratch, plan.final_slot, &scratch, plan.index_base + plan.final_slot};
  if (destination.buffer == nullptr) return targets;
  if (arg) {
    targets.indices = destination.buffer;
    targets.index_offset = destination.offset;
  } else {
    targets.values = destination.buffer;
    targets.value_offset = destination.offset;
  }
  return targets;
}

// Reads the final slot (value, or index for argmin/argmax) into the caller's host memory after `last`.
cl::Event read_result(const std::string& name, cl::CommandQueue& queue, const DTypeInfo& dtype, ReduceOp op,
                      const Plan& plan, const cl::Buffer& scratch, void* host, const cl::Event& last) {
  const std::vector<cl::Event> previous{last};
  const std::uint64_t offset =
      is_arg(op) ? (plan.index_base + plan.final_slot) * 4 : plan.final_slot * value_size(dtype);
  cl::Event read;
  try {
    queue.enqueueReadBuffer(scratch, CL_FALSE, offset, result_size(dtype, op), host, &previous, &read);
  } catch (const cl::Error& error) {
    throw Error(name, "result", error.err(), "reading the result back failed");
  }
  return read;
}

// `memo`: the call's memo entry (nullptr for an explicit configuration), which keeps the program, with its work-group
// sizes checked (they follow from the configuration), and the first pass's kernel for the next call on this thread.
template <typename T>
std::vector<cl::Event> launch(const std::string& name, const QueueTarget& target, cl::CommandQueue& queue, ReduceOp op,
                              const Config& config, std::uint64_t n, const cl::Buffer& x, std::uint64_t x_offset,
                              const Destination& destination, const std::vector<cl::Event>* wait,
                              Resolved* memo = nullptr) {
  const DTypeInfo& dtype = dtype_of<T>();
  const Plan plan = make_plan(config, dtype, op, *target.info, n);
  const auto first_kernel = [&config] { return "reduce_" + config.variant; };  // built where used: not on a warm call
  std::shared_ptr<CompiledProgram> program = memo != nullptr ? memo->program : nullptr;
  if (!program) {
    program = ProgramCache::instance().get(target.context, target.device, kReduceFamily,
                                           build_options_for(dtype, op, config), name);
    check_work_group_fits(name, *program, first_kernel(), plan.passes.front().local);
    // The later passes' group, whether or not this call's plan has them (the memo checks once per program).
    const std::uint64_t partials_group =
        config.variant == "chunked" ? kChunkedPartialsGroup : static_cast<std::uint64_t>(config.value("WG_X"));
    check_work_group_fits(name, *program, "reduce_partials", partials_group);
    if (memo != nullptr) memo->program = program;
  }
  std::optional<CompiledProgram::Lease> own_first;
  std::optional<CompiledProgram::Lease>& first_holder = memo != nullptr ? memo->kernel : own_first;
  if (!first_holder) first_holder.emplace(program->lease(first_kernel(), name));
  CompiledProgram::Lease& first_lease = *first_holder;
  auto partials_lease = program->lease("reduce_partials", name);

  WorkspaceLease workspace = acquire_workspace(name, target.context, target.device, "reduce partials",
                                               std::max(plan.bytes, kMinimumWorkspaceBytes), wait);
  cl::Buffer& scratch = workspace.buffer();
  const bool arg = is_arg(op);
  std::vector<cl::Event> events;
  try {
    for (const Pass& pass : plan.passes) {
      std::vector<cl::Event> previous;
      if (!events.empty()) previous.push_back(events.back());
      const std::vector<cl::Event>* after = events.empty() ? workspace.wait_list() : &previous;
      const cl::NDRange local = pass.local > 0 ? cl::NDRange(pass.local) : cl::NullRange;
      if (pass.first) {
        const PassTargets out = pass_targets(pass, plan, destination, arg, scratch);  // slot 0 unless also last
        set_kernel_args(name, first_lease.kernel(), static_cast<cl_int>(n), x, static_cast<cl_ulong>(x_offset),
                        *out.values, static_cast<cl_ulong>(out.value_offset), *out.indices,
                        static_cast<cl_ulong>(out.index_offset));
        events.push_back(enqueue_kernel(name, queue, first_lease.kernel(), cl::NDRange(pass.global), local, after));
        continue;
      }
      const PassTargets out = pass_targets(pass, plan, destination, arg, scratch);
      set_kernel_args(name, partials_lease.kernel(), static_cast<cl_int>(pass.count), static_cast<cl_int>(pass.span),
                      scratch, static_cast<cl_ulong>(pass.in_slot), scratch,
                      static_cast<cl_ulong>(plan.index_base + pass.in_slot), *out.values,
                      static_cast<cl_ulong>(out.value_offset), *out.indices, static_cast<cl_ulong>(out.index_offset));
      events.push_back(enqueue_kernel(name, queue, partials_lease.kernel(), cl::NDRange(pass.global), local, after));
    }
    if (destination.buffer == nullptr)
      events.push_back(read_result(name, queue, dtype, op, plan, scratch, destination.host, events.back()));
  } catch (...) {
    // Whatever was enqueued still uses the workspace: the next user waits for it.
    if (!events.empty()) workspace.release_after(events.back());
    throw;
  }
  workspace.release_after(events.back());
  return events;
}

}  // namespace

std::size_t reduce_launches(const Config& config, const DTypeInfo& dtype, ReduceOp op, const DeviceInfo& device,
                            std::uint64_t n) {
  return make_plan(config, dtype, op, device, n).passes.size();
}

namespace {

// ---- Tuning ------------------------------------------------------------------------------------------

template <typename T>
class ReduceSubject : public TuningSubject {
 public:
  ReduceSubject(ReduceOp op, std::uint64_t n) : op_(op), bucket_(length_bucket(n)) {}

  TuningKey key() const override { return {reduce_tuning_name(op_), dtype_of<T>().name, bucket_.name}; }
  std::string family() const override { return kReduceFamily; }
  std::string timing_shape() const override { return "n=" + std::to_string(bucket_.timing_n); }
  SearchSpace search_space(const DeviceInfo& device) const override {
    return reduce_search_space(dtype_of<T>(), op_, device);
  }
  Config default_config(const DeviceInfo& device) const override {
    return reduce_default_config(dtype_of<T>(), op_, device);
  }
  BuildOptions build_options(const Config& config) const override {
    return build_options_for(dtype_of<T>(), op_, config);
  }

  void prepare(const cl::CommandQueue& queue, std::uint64_t seed) override {
    std::mt19937_64 random(seed);
    queue_ = queue;
    const cl::Context context = queue.getInfo<CL_QUEUE_CONTEXT>();
    timing_x_ = upload(context, queue_, random_values<T>(bucket_.timing_n, random));
    result_ = cl::Buffer(context, CL_MEM_READ_WRITE, (kResultOffset + 1) * 8);
    // Sums: values in [-1, 1]; extremes: small integers, so ties (and the first-index rule) are everywhere.
    std::vector<T> values = random_values<T>(kVerifyOffset + kVerifyN, random);
    if (op_ != ReduceOp::Sum) {
      std::uniform_int_distribution<int> small(-20, 20);
      for (auto& value : values) value = static_cast<T>(small(random));
    }
    verify_x_ = upload(context, queue_, values);
    const T* data = values.data() + kVerifyOffset;
    expected_ = 0;
    scale_ = 0;
    for (std::size_t i = 0; i < kVerifyN; ++i) scale_ += std::abs(static_cast<double>(data[i]));
    std::size_t best = 0;
    for (std::size_t i = 0; i < kVerifyN; ++i) {
      if (op_ == ReduceOp::Sum) expected_ += static_cast<double>(data[i]);
      const bool more = data[i] > data[best], less = data[i] < data[best];
      if ((op_ == ReduceOp::Min || op_ == ReduceOp::ArgMin) ? less : more) best = i;
    }
    if (op_ == ReduceOp::Min || op_ == ReduceOp::Max) expected_ = static_cast<double>(data[best]);
    if (is_arg(op_)) expected_ = static_cast<double>(best);
  }

  std::vector<cl::Event> run(cl::CommandQueue& queue, const Config& config) override {
    auto target = queue_target(reduce_tuning_name(op_), queue);
    return launch<T>(reduce_tuning_name(op_), target, queue, op_, config, bucket_.timing_n, timing_x_, 0,
                     Destination{&result_, kResultOffset, nullptr}, nullptr);
  }

  std::string verify(cl::CommandQueue& queue, const Config& config) override {
    auto target = queue_target(reduce_tuning_name(op_), queue);
    const std::vector<std::uint8_t> poison((kResultOffset + 1) * 8, 0xA7);
    queue.enqueueWriteBuffer(result_, CL_TRUE, 0, poison.size(), poison.data());
    launch<T>(reduce_tuning_name(op_), target, queue, op_, config, kVerifyN, verify_x_, kVerifyOffset,
              Destination{&result_, kResultOffset, nullptr}, nullptr)
        .back()
        .wait();
    double got = 0;
    if (is_arg(op_)) {
      got = download<std::int32_t>(queue, result_, kResultOffset + 1)[kResultOffset];
    } else {
      got = static_cast<double>(download<ComputeType<T>>(queue, result_, kResultOffset + 1)[kResultOffset]);
    }
    // Half is summed in float: float's bound (the reference sums the stored halves).
    const double tolerance = op_ != ReduceOp::Sum || std::is_integral_v<T> ? 0
                             : std::is_same_v<ComputeType<T>, float>       ? 2e-6 * scale_
                                                                           : 1e-13 * scale_;
    if (std::abs(got - expected_) <= tolerance) return {};
    return std::string(to_string(op_)) + " of " + std::to_string(kVerifyN) + " elements is " + std::to_string(got) +
           ", expected " + std::to_string(expected_);
  }

  double work() const override { return static_cast<double>(bucket_.timing_n) * sizeof(T); }
  const char* work_unit() const override { return "byte"; }

 private:
  static constexpr std::size_t kVerifyN = 100003;  // prime: not a multiple of any vector, chunk or work-group
  static constexpr std::size_t kVerifyOffset = 3;  // misaligned for every vector width
  static constexpr std::size_t kResultOffset = 2;

  ReduceOp op_;
  LengthBucket bucket_;
  cl::CommandQueue queue_;
  cl::Buffer timing_x_, verify_x_, result_;
  double expected_ = 0, scale_ = 0;
};

std::unique_ptr<TuningSubject> make_subject(ReduceOp op, const std::string& dtype, std::uint64_t n) {
  if (dtype == "float") return std::make_unique<ReduceSubject<float>>(op, n);
  if (dtype == "double") return std::make_unique<ReduceSubject<double>>(op, n);
  if (dtype == "int32") return std::make_unique<ReduceSubject<std::int32_t>>(op, n);
  if (dtype == "half") return std::make_unique<ReduceSubject<half>>(op, n);
  throw Error(reduce_tuning_name(op), "dtype", CL_INVALID_VALUE, "'" + dtype + "' is not float, double, int32 or half");
}

// What the common frame's resolve() needs to find or tune a reduction's choice (the per-thread memo first).
template <typename T>
struct ReduceChoice {
  struct Call {
    ReduceOp op;
    std::uint64_t n;
  };
  ShapeKey shape_key(const Call& c) const {
    static const char* const names[] = {"reduce_sum", "reduce_min", "reduce_max", "reduce_argmin", "reduce_argmax"};
    return {names[op_code(c.op)], dtype_of<T>().name, length_bucket(c.n).code, 0};
  }
  std::unique_ptr<TuningSubject> subject(const Call& c) const { return std::make_unique<ReduceSubject<T>>(c.op, c.n); }
};

// The call's memo entry (its choice resolved), or nullptr with an explicit configuration, which is checked.
template <typename T>
Resolved* memo_entry(const std::string& name, const Config* explicit_config, const QueueTarget& target, ReduceOp op,
                     std::uint64_t n) {
  if (explicit_config == nullptr) return &resolve(ReduceChoice<T>{}, target, {op, n});
  check_explicit_config(name.c_str(), reduce_search_space(dtype_of<T>(), op, *target.info), *explicit_config,
                        *target.info);
  return nullptr;
}

template <typename T>
cl::Event run_reduce(const Config* explicit_config, cl::CommandQueue& queue, ReduceOp op, std::uint64_t n,
                     const cl::Buffer& x, std::uint64_t x_offset, cl::Buffer& result, std::uint64_t result_offset,
                     const std::vector<cl::Event>* wait) {
  const std::string name = "reduce";
  const auto target = queue_target(name, queue);
  const DTypeInfo& dtype = dtype_of<T>();
  validate_input(name, target, dtype, op, n, x, x_offset);
  validate_result(name, target, dtype, op, n, x, x_offset, result, result_offset);
  check_wait_list(name, wait, target.context);
  if (n == 0) {
    // The sum of nothing is 0: written, so the result never keeps stale data.
    using Value = ComputeType<T>;
    cl::Event event;
    try {
      queue.enqueueFillBuffer(result, Value(0), result_offset * sizeof(Value), sizeof(Value), wait, &event);
    } catch (const cl::Error& error) {
      throw Error(name, "result", error.err(), "writing the sum of no elements (0) failed");
    }
    return event;
  }
  Resolved* memo = memo_entry<T>(name, explicit_config, target, op, n);
  const Config& config = memo != nullptr ? memo->config : *explicit_config;
  return launch<T>(name, target, queue, op, config, n, x, x_offset, Destination{&result, result_offset, nullptr}, wait,
                   memo)
      .back();
}

// reduce_value / reduce_index: the result travels through the workspace and is read back.
template <typename T, typename Out>
Out run_reduce_to_host(const std::string& name, bool wants_index, cl::CommandQueue& queue, ReduceOp op, std::uint64_t n,
                       const cl::Buffer& x, std::uint64_t x_offset, const std::vector<cl::Event>* wait) {
  const auto target = queue_target(name, queue);
  check_enum(name, "op", op);
  if (is_arg(op) != wants_index)
    throw Error(name, "op", CL_INVALID_VALUE,
                std::string("ReduceOp ") + to_string(op) +
                    (is_arg(op) ? " gives an index: use reduce_index" : " gives a value: use reduce_value"));
  validate_input(name, target, dtype_of<T>(), op, n, x, x_offset);
  check_wait_list(name, wait, target.context);
  if (n == 0) return Out(0);
  Resolved* memo = memo_entry<T>(name, nullptr, target, op, n);
  Out out{};
  // Never blocks on a caller's event that fails meanwhile (launch.hpp: wait_on_host).
  wait_on_host(
      name,
      launch<T>(name, target, queue, op, memo->config, n, x, x_offset, Destination{nullptr, 0, &out}, wait, memo)
          .back(),
      wait);
  return out;
}

std::vector<std::int64_t> unique(const std::vector<std::int64_t>& values) {
  std::vector<std::int64_t> result;
  for (auto value : values)
    if (value >= 0 && std::find(result.begin(), result.end(), value) == result.end()) result.push_back(value);
  return result;
}

std::int64_t floor_power_of_two(std::uint64_t value) {
  std::int64_t power = 1;
  while (static_cast<std::uint64_t>(power) * 2 <= value) power *= 2;
  return power;
}

}  // namespace

std::string reduce_tuning_name(ReduceOp op) { return std::string("reduce_") + to_string(op); }

SearchSpace reduce_search_space(const DTypeInfo& dtype, ReduceOp op, const DeviceInfo& device) {
  const Config preferred = reduce_default_config(dtype, op, device);
  const std::int64_t size = static_cast<std::int64_t>(dtype.size);
  auto first = [&](const std::string& variant, const char* name, std::vector<std::int64_t> rest) {
    auto found = preferred.values.find(name);
    if (preferred.variant == variant && found != preferred.values.end()) rest.insert(rest.begin(), found->second);
    return unique(rest);
  };
  auto vec_legal = [](std::int64_t vec) { return vec == 1 || vec == 2 || vec == 4 || vec == 8 || vec == 16; };

  // Local memory holds accumulators (float for half storage) and int indices.
  const auto local_bytes = static_cast<std::int64_t>(value_size(dtype)) + 4;
  Constraint tree_fits{"WG_X is a power of two, within the device's max work-group size and local memory",
                       [local_bytes](const Values& v, const DeviceInfo& d) {
                         const auto wg = at(v, "WG_X");
                         return is_power_of_two(wg) && static_cast<std::uint64_t>(wg) <= d.max_work_group_size &&
                                static_cast<std::uint64_t>(wg * local_bytes) <= d.local_memory_bytes;
                       }};
  const std::vector<std::int64_t> work_groups{256, 128, 512, 1024, 64};
  VariantSpace interleaved{"interleaved", {{"WG_X", first("interleaved", "WG_X", work_groups)}}, {tree_fits}};
  VariantSpace sequential{"sequential", {{"WG_X", first("sequential", "WG_X", work_groups)}}, {tree_fits}};
  VariantSpace vector{
      "vector",
      {{"WG_X", first("vector", "WG_X", work_groups)},
       {"VEC", first("vector", "VEC", {16 / size, 32 / size, 8 / size})},
       {"WPT", first("vector", "WPT", {4, 2, 8, 1})},
       {"USE_SUBGROUPS", {0, 1}},
       {"GROUPS_PER_CU", first("vector", "GROUPS_PER_CU", {8, 4, 16, 2, 32}), ParameterKind::Launch}},
      {tree_fits,
       {"VEC in {1, 2, 4, 8, 16}", [vec_legal](const Values& v, const DeviceInfo&) { return vec_legal(at(v, "VEC")); }},
       {"1 <= WPT <= 16", [](const Values& v, const DeviceInfo&) { return at(v, "WPT") >= 1 && at(v, "WPT") <= 16; }},
       {"USE_SUBGROUPS = 1 only on devices with cl_khr_subgroups",
        [](const Values& v, const DeviceInfo& d) {
          return at(v, "USE_SUBGROUPS") == 0 || (at(v, "USE_SUBGROUPS") == 1 && d.subgroups);
        }},
       {"1 <= GROUPS_PER_CU <= 1024", [](const Values& v, const DeviceInfo&) {
          return at(v, "GROUPS_PER_CU") >= 1 && at(v, "GROUPS_PER_CU") <= 1024;
        }}}};
  VariantSpace chunked{
      "chunked",
      {{"VEC", first("chunked", "VEC", {16, 8, 4})},
       {"WPT", first("chunked", "WPT", {128, 256, 512, 1024, 64})},
       {"WG_X", first("chunked", "WG_X", {8, 16, 64, 0}), ParameterKind::Launch}},
      {{"VEC in {1, 2, 4, 8, 16}", [vec_legal](const Values& v, const DeviceInfo&) { return vec_legal(at(v, "VEC")); }},
       {"1 <= WPT and WPT * VEC <= 65536",
        [](const Values& v, const DeviceInfo&) { return at(v, "WPT") >= 1 && at(v, "WPT") * at(v, "VEC") <= 65536; }},
       {"WG_X (0: the driver chooses) and the later passes' 64 fit the device's max work-group size",
        [local_bytes](const Values& v, const DeviceInfo& d) {
          return static_cast<std::uint64_t>(at(v, "WG_X")) <= d.max_work_group_size &&
                 static_cast<std::uint64_t>(kChunkedPartialsGroup) <= d.max_work_group_size &&
                 static_cast<std::uint64_t>(kChunkedPartialsGroup * local_bytes) <= d.local_memory_bytes;
        }}}};
  if (preferred.variant == "chunked") return SearchSpace({chunked, vector, sequential, interleaved});
  return SearchSpace({vector, chunked, sequential, interleaved});
}

Config reduce_default_config(const DTypeInfo& dtype, ReduceOp /*op*/, const DeviceInfo& device) {
  const auto size = static_cast<std::int64_t>(dtype.size);
  if (device.is_cpu() || !device.local_memory_is_dedicated) {
    // CPU: each work-item streams a contiguous chunk of 2048 elements with one SIMD register per load (PoCL
    // vectorizes across work-items too); work-groups of the device's preferred multiple.
    const unsigned width = size == 8 ? device.native_vector_width_double : device.native_vector_width_float;
    const std::int64_t vec = std::clamp<std::int64_t>(floor_power_of_two(std::max(1u, width)), 4, 16);
    const std::int64_t work_group =
        std::min<std::int64_t>(static_cast<std::int64_t>(device.preferred_work_group_multiple),
                               static_cast<std::int64_t>(device.max_work_group_size));
    return {"chunked", {{"VEC", vec}, {"WPT", 2048 / vec}, {"WG_X", std::max<std::int64_t>(1, work_group)}}};
  }
  // Provisional GPU pick (phase-1 notes; the GPU sweep may change it): 16-byte loads, 4 in flight per
  // work-item, 256 work-items (or the device's largest power of two below that), 8 work-groups per compute
  // unit, then a tree in local memory.
  const std::int64_t work_group = std::min<std::int64_t>(256, floor_power_of_two(device.max_work_group_size));
  return {"vector",
          {{"WG_X", work_group},
           {"VEC", std::max<std::int64_t>(1, 16 / size)},
           {"WPT", 4},
           {"USE_SUBGROUPS", 0},
           {"GROUPS_PER_CU", 8}}};
}

template <typename T>
cl::Event reduce_with(const Config& config, cl::CommandQueue& queue, ReduceOp op, std::size_t n, const cl::Buffer& x,
                      std::size_t x_offset, cl::Buffer& result, std::size_t result_offset,
                      const std::vector<cl::Event>* wait) {
  return run_reduce<T>(&config, queue, op, n, x, x_offset, result, result_offset, wait);
}

std::vector<TunableOp> reduce_tunable_ops() {
  std::vector<TunableOp> ops;
  for (ReduceOp op : kAllOps) {
    TunableOp entry;
    entry.description = {reduce_tuning_name(op),
                         kReduceFamily,
                         {"float", "double", "int32", "half"},
                         "N (elements), e.g. 16777216 or 2^24",
                         {"2^13", "2^17", "2^21", "2^24"}};
    entry.make_subject = [op](const std::string& dtype, const std::string& shape) {
      return make_subject(op, dtype, parse_size(reduce_tuning_name(op), shape));
    };
    ops.push_back(entry);
  }
  return ops;
}

#define TILECL_INSTANTIATE_REDUCE_WITH(T)                                                                       \
  template cl::Event reduce_with<T>(const Config&, cl::CommandQueue&, ReduceOp, std::size_t, const cl::Buffer&, \
                                    std::size_t, cl::Buffer&, std::size_t, const std::vector<cl::Event>*);
TILECL_INSTANTIATE_REDUCE_WITH(float)
TILECL_INSTANTIATE_REDUCE_WITH(double)
TILECL_INSTANTIATE_REDUCE_WITH(std::int32_t)
TILECL_INSTANTIATE_REDUCE_WITH(half)
#undef TILECL_INSTANTIATE_REDUCE_WITH

}  // namespace detail

template <typename T>
detail::ReduceEvent<T> reduce(cl::CommandQueue& queue, ReduceOp op, std::size_t n, const cl::Buffer& x,
                              std::size_t x_offset, cl::Buffer& result, std::size_t result_offset,
                              const std::vector<cl::Event>* wait) {
  return detail::run_reduce<T>(nullptr, queue, op, n, x, x_offset, result, result_offset, wait);
}

template <typename T>
detail::ReduceValue<T> reduce_value(cl::CommandQueue& queue, ReduceOp op, std::size_t n, const cl::Buffer& x,
                                    std::size_t x_offset, const std::vector<cl::Event>* wait) {
  return detail::run_reduce_to_host<T, detail::ComputeType<T>>("reduce_value", false, queue, op, n, x, x_offset, wait);
}

template <typename T>
detail::ReduceIndex<T> reduce_index(cl::CommandQueue& queue, ReduceOp op, std::size_t n, const cl::Buffer& x,
                                    std::size_t x_offset, const std::vector<cl::Event>* wait) {
  return static_cast<std::size_t>(
      detail::run_reduce_to_host<T, std::int32_t>("reduce_index", true, queue, op, n, x, x_offset, wait));
}

#define TILECL_INSTANTIATE_REDUCE(T)                                                                                  \
  template cl::Event reduce<T>(cl::CommandQueue&, ReduceOp, std::size_t, const cl::Buffer&, std::size_t, cl::Buffer&, \
                               std::size_t, const std::vector<cl::Event>*);                                           \
  template detail::ComputeType<T> reduce_value<T>(cl::CommandQueue&, ReduceOp, std::size_t, const cl::Buffer&,        \
                                                  std::size_t, const std::vector<cl::Event>*);                        \
  template std::size_t reduce_index<T>(cl::CommandQueue&, ReduceOp, std::size_t, const cl::Buffer&, std::size_t,      \
                                       const std::vector<cl::Event>*);
TILECL_INSTANTIATE_REDUCE(float)
TILECL_INSTANTIATE_REDUCE(double)
TILECL_INSTANTIATE_REDUCE(std::int32_t)
TILECL_INSTANTIATE_REDUCE(half)
#undef TILECL_INSTANTIATE_REDUCE

}  // namespace tilecl
