// vector_add and axpy: their variants (one descriptor each), the tuning subject and the op in the common frame
// (ops/op_frame.hpp).
#include "ops/elementwise.hpp"

#include <algorithm>
#include <memory>

#include "dtype.hpp"
#include "launch.hpp"
#include "ops/op_frame.hpp"
#include "ops/tunable_ops.hpp"
#include "tilecl/elementwise.hpp"
#include "tuning/constraints.hpp"
#include "tuning/length_bucket.hpp"
#include "tuning/scratch.hpp"
#include "tuning/variant.hpp"

namespace tilecl {
namespace detail {
namespace {

constexpr const char* kElementwiseFamily = "elementwise";
// Elements per launch: keeps every index inside a kernel well within 32 bits.
constexpr std::uint64_t kChunkElements = std::uint64_t{1} << 30;

enum class Kind { Add, Axpy };

const char* op_name(Kind kind) { return kind == Kind::Add ? "vector_add" : "axpy"; }
const char* kernel_stem(Kind kind) { return kind == Kind::Add ? "elementwise_add" : "elementwise_axpy"; }

// The buffers of one call. For axpy, `second` is unused and `output` (y) is also read.
struct Operands {
  const cl::Buffer* first;
  std::uint64_t first_offset;
  const cl::Buffer* second;
  std::uint64_t second_offset;
  cl::Buffer* output;
  std::uint64_t output_offset;
};

void validate(Kind kind, const QueueTarget& target, const DTypeInfo& dtype, std::uint64_t n, const Operands& operands) {
  const std::string op = op_name(kind);
  check_dtype_supported(op, dtype, *target.info);
  const char* first_name = kind == Kind::Add ? "a" : "x";
  const char* output_name = kind == Kind::Add ? "c" : "y";
  check_buffer(op, first_name, *operands.first, target.context, operands.first_offset, n, dtype.size);
  if (kind == Kind::Add) check_buffer(op, "b", *operands.second, target.context, operands.second_offset, n, dtype.size);
  check_buffer(op, output_name, *operands.output, target.context, operands.output_offset, n, dtype.size);
  // The output may be an input exactly (in place), but must not partly overlap one.
  check_in_place_or_disjoint(op, first_name, *operands.first, operands.first_offset, output_name, *operands.output,
                             operands.output_offset, n, dtype.size);
  if (kind == Kind::Add)
    check_in_place_or_disjoint(op, "b", *operands.second, operands.second_offset, output_name, *operands.output,
                               operands.output_offset, n, dtype.size);
}

struct ElementwiseParams {
  std::int64_t vec = 1, wpt = 1, strided = 1, wg_x = 0;
};
const std::vector<std::int64_t> kWorkGroups{0, 32, 64, 128, 256, 512, 1024};

struct Variants {
  VariantDescriptor<ElementwiseParams> naive, vector;
  SearchSpace space;
};
const Variants& variants() {
  using F = VariantDescriptor<ElementwiseParams>::Field;
  using P = ElementwiseParams;
  static const Variants v = [] {
    const Constraint fits =
        constraints::derived("WG_X <= the device's max work-group size", [](const Values& values, const DeviceInfo& d) {
          return static_cast<std::uint64_t>(at(values, "WG_X")) <= d.max_work_group_size;
        });
    Variants made{{"naive", "naive", {F{"WG_X", &P::wg_x, ParameterKind::Launch, kWorkGroups, 0, 1024}}, {fits}},
                  {"vector",
                   "vector",
                   {F{"VEC", &P::vec, ParameterKind::Build, {1, 2, 4, 8, 16}, 1, 16},
                    F{"WPT", &P::wpt, ParameterKind::Build, {1, 2, 4, 8}, 1, 64},
                    F{"USE_STRIDED", &P::strided, ParameterKind::Build, {0, 1}, 0, 1},
                    F{"WG_X", &P::wg_x, ParameterKind::Launch, kWorkGroups, 0, 1024}},
                   {fits, constraints::one_of("VEC", {1, 2, 4, 8, 16}), constraints::is_switch("USE_STRIDED")}},
                  {}};
    made.space = SearchSpace({made.naive.space(), made.vector.space()});
    return made;
  }();
  return v;
}

// One call's kernel and launch sizes, from a configuration (kept with the memo entry).
struct LaunchPlan {
  std::string kernel;
  BuildOptions options;
  std::uint64_t per_item = 1, work_group = 0;
};

LaunchPlan plan_for(Kind kind, const DTypeInfo& dtype, const Config& config) {
  const bool vectorized = config.variant == "vector";
  const auto& descriptor = vectorized ? variants().vector : variants().naive;
  const ElementwiseParams p = descriptor.decode(config);
  LaunchPlan plan;
  plan.kernel = std::string(kernel_stem(kind)) + "_" + config.variant;
  plan.options.define("DTYPE", dtype.cl_type);
  if (is_half_storage(dtype)) plan.options.define("HALF_STORAGE", std::int64_t{1});
  descriptor.render(p, plan.options);
  plan.per_item = vectorized ? static_cast<std::uint64_t>(p.vec * p.wpt) : 1;
  plan.work_group = static_cast<std::uint64_t>(p.wg_x);
  return plan;
}

template <typename T>
cl::Event launch(Kind kind, const QueueTarget& target, cl::CommandQueue& queue, Resolved& resolved, std::uint64_t n,
                 ComputeType<T> alpha, const Operands& operands, const std::vector<cl::Event>* wait) {
  const char* op = op_name(kind);
  const auto& plan = resolved.plan_as<LaunchPlan>([kind](const Config& c) { return plan_for(kind, dtype_of<T>(), c); });
  cl::Kernel& kernel = resolved.main_kernel(target, kElementwiseFamily, plan.options, plan.kernel, op);
  resolved.check_main_work_group(op, plan.kernel, plan.work_group);

  std::vector<cl::Event> events;
  for (std::uint64_t start = 0; start < n; start += kChunkElements) {
    const std::uint64_t count = std::min(kChunkElements, n - start);
    const std::uint64_t items = ceil_div(count, plan.per_item);
    const std::uint64_t global = plan.work_group > 0 ? round_up(items, plan.work_group) : items;
    const cl_int count_arg = static_cast<cl_int>(count);
    const cl_ulong first_offset = operands.first_offset + start, output_offset = operands.output_offset + start;
    if (kind == Kind::Add) {
      const cl_ulong second_offset = operands.second_offset + start;
      set_kernel_args(op, kernel, count_arg, *operands.first, first_offset, *operands.second, second_offset,
                      *operands.output, output_offset);
    } else {
      set_kernel_args(op, kernel, count_arg, alpha, *operands.first, first_offset, *operands.output, output_offset);
    }
    // Every chunk waits for the caller's events: on an out-of-order queue the chunks are independent.
    events.push_back(enqueue_kernel(op, queue, kernel, cl::NDRange(global),
                                    plan.work_group > 0 ? cl::NDRange(plan.work_group) : cl::NullRange, wait));
  }
  if (events.size() == 1) return events.front();
  cl::Event done;
  queue.enqueueMarkerWithWaitList(&events, &done);
  return done;
}

template <typename T>
class ElementwiseSubject : public TuningSubject {
 public:
  ElementwiseSubject(Kind kind, std::uint64_t n) : kind_(kind), bucket_(length_bucket(n)) {}

  TuningKey key() const override { return {op_name(kind_), dtype_of<T>().name, bucket_.name}; }
  std::string family() const override { return kElementwiseFamily; }
  std::string timing_shape() const override { return "n=" + std::to_string(bucket_.timing_n); }
  SearchSpace search_space(const DeviceInfo& /*device*/) const override { return variants().space; }
  Config default_config(const DeviceInfo& device) const override {
    return elementwise_default_config(dtype_of<T>(), device);
  }
  BuildOptions build_options(const Config& config) const override {
    return plan_for(kind_, dtype_of<T>(), config).options;
  }

  void prepare(const cl::CommandQueue& queue, std::uint64_t seed) override {
    std::mt19937_64 random(seed);
    queue_ = queue;
    const cl::Context context = queue.getInfo<CL_QUEUE_CONTEXT>();
    timing_first_ = upload(context, queue_, random_values<T>(bucket_.timing_n, random));
    timing_second_ = upload(context, queue_, random_values<T>(bucket_.timing_n, random));
    timing_output_ = upload(context, queue_, random_values<T>(bucket_.timing_n, random));
    verify_first_values_ = random_values<T>(kVerifyOffset + kVerifyN, random);
    verify_second_values_ = random_values<T>(kVerifyOffset + kVerifyN, random);
    verify_output_values_ = random_values<T>(kVerifyOffset + kVerifyN, random);
    verify_first_ = upload(context, queue_, verify_first_values_);
    verify_second_ = upload(context, queue_, verify_second_values_);
    verify_output_ = cl::Buffer(context, CL_MEM_READ_WRITE, (kVerifyOffset + kVerifyN) * sizeof(T));
    expected_.resize(kVerifyOffset + kVerifyN);
    for (std::size_t i = 0; i < expected_.size(); ++i) {
      const double first = verify_first_values_[i], output = verify_output_values_[i];
      const bool inside = i >= kVerifyOffset;
      expected_[i] = !inside              ? output
                     : kind_ == Kind::Add ? first + static_cast<double>(verify_second_values_[i])
                                          : static_cast<double>(kAlpha) * first + output;
    }
  }

  std::vector<cl::Event> run(cl::CommandQueue& queue, const Config& config) override {
    return {run_with(queue, config, bucket_.timing_n, {&timing_first_, 0, &timing_second_, 0, &timing_output_, 0})};
  }

  std::string verify(cl::CommandQueue& queue, const Config& config) override {
    queue.enqueueWriteBuffer(verify_output_, CL_TRUE, 0, verify_output_values_.size() * sizeof(T),
                             verify_output_values_.data());
    run_with(queue, config, kVerifyN,
             {&verify_first_, kVerifyOffset, &verify_second_, kVerifyOffset, &verify_output_, kVerifyOffset})
        .wait();
    // Half: one rounding to half (2^-11 relative) after float arithmetic; the bound is relative plus absolute.
    const double tolerance = std::is_same_v<T, half> ? 1.0 / 2048 : std::is_same_v<T, float> ? 1e-5 : 1e-12;
    return compare_with_reference(download<T>(queue, verify_output_, expected_.size()), expected_, tolerance);
  }

  double work() const override { return 3.0 * static_cast<double>(bucket_.timing_n) * sizeof(T); }
  const char* work_unit() const override { return "byte"; }

 private:
  static constexpr std::size_t kVerifyN = 12347;  // prime: not a multiple of any VEC * WPT
  static constexpr std::size_t kVerifyOffset = 3;
  static constexpr double kAlpha = 0.75;

  cl::Event run_with(cl::CommandQueue& queue, const Config& config, std::uint64_t n, const Operands& operands);

  Kind kind_;
  LengthBucket bucket_;
  cl::CommandQueue queue_;
  cl::Buffer timing_first_, timing_second_, timing_output_;
  cl::Buffer verify_first_, verify_second_, verify_output_;
  std::vector<T> verify_first_values_, verify_second_values_, verify_output_values_;
  std::vector<double> expected_;
};

std::unique_ptr<TuningSubject> make_subject(Kind kind, const std::string& dtype, std::uint64_t n) {
  if (dtype == "float") return std::make_unique<ElementwiseSubject<float>>(kind, n);
  if (dtype == "double") return std::make_unique<ElementwiseSubject<double>>(kind, n);
  if (dtype == "half") return std::make_unique<ElementwiseSubject<half>>(kind, n);
  throw Error(op_name(kind), "dtype", CL_INVALID_VALUE, "'" + dtype + "' is not float, double or half");
}

template <typename T>
struct ElementwiseOp {
  struct Call {
    Kind kind;
    std::uint64_t n;
    ComputeType<T> alpha;
    Operands operands;
  };
  const char* name() const { return kind_name; }
  bool is_empty(const Call& c) const { return c.n == 0; }
  void validate(const QueueTarget& target, const Call& c) const {
    detail::validate(c.kind, target, dtype_of<T>(), c.n, c.operands);
  }
  const SearchSpace& space(const DeviceInfo& /*device*/, const Call& /*c*/) const { return variants().space; }
  ShapeKey shape_key(const Call& c) const { return {kind_name, dtype_of<T>().name, length_bucket(c.n).code, 0}; }
  std::unique_ptr<TuningSubject> subject(const Call& c) const {
    return std::make_unique<ElementwiseSubject<T>>(c.kind, c.n);
  }
  cl::Event enqueue(const QueueTarget& target, cl::CommandQueue& queue, Resolved& resolved, const Call& c,
                    const std::vector<cl::Event>* wait) const {
    return launch<T>(c.kind, target, queue, resolved, c.n, c.alpha, c.operands, wait);
  }
  const char* kind_name;
};

template <typename T>
cl::Event run_elementwise(Kind kind, const Config* explicit_config, cl::CommandQueue& queue, std::uint64_t n,
                          ComputeType<T> alpha, const Operands& operands, const std::vector<cl::Event>* wait) {
  return run_op(ElementwiseOp<T>{op_name(kind)}, explicit_config, queue, {kind, n, alpha, operands}, wait);
}

template <typename T>
cl::Event ElementwiseSubject<T>::run_with(cl::CommandQueue& queue, const Config& config, std::uint64_t n,
                                          const Operands& operands) {
  return run_elementwise<T>(kind_, &config, queue, n, static_cast<ComputeType<T>>(kAlpha), operands, nullptr);
}

}  // namespace

SearchSpace elementwise_search_space() { return variants().space; }

Config elementwise_default_config(const DTypeInfo& dtype, const DeviceInfo& device) {
  Config config{"vector", {}};
  if (device.is_cpu()) {
    // One SIMD register per access, each work-item streaming its own contiguous block; PoCL picks the
    // work-group size.
    // (Half is computed in float: a float register's width of halves.)
    const unsigned width = dtype.size == 8 ? device.native_vector_width_double : device.native_vector_width_float;
    config.values = {{"VEC", std::clamp<std::int64_t>(width, 1, 16)}, {"WPT", 4}, {"USE_STRIDED", 0}, {"WG_X", 0}};
  } else {
    // 16-byte accesses (what GPU memory systems coalesce best), interleaved across work-items; 256 work-items,
    // or the device's maximum if lower. Half storage: 8-byte accesses (4 halves) and 64 work-items -- on the H200,
    // axpy and vector_add of 2^26 halves took 0.112 and 0.110 ms against 0.172 and 0.176 ms with 16-byte
    // accesses and 256 work-items (bench/experiments/explore_overrides.cpp, 2026-12-02).
    const bool half = is_half_storage(dtype);
    const std::int64_t vec = half ? 4 : std::max<std::int64_t>(1, 16 / static_cast<std::int64_t>(dtype.size));
    const std::int64_t work_group =
        std::min<std::int64_t>(half ? 64 : 256, static_cast<std::int64_t>(device.max_work_group_size));
    config.values = {{"VEC", vec}, {"WPT", 4}, {"USE_STRIDED", 1}, {"WG_X", work_group}};
  }
  return config;
}

template <typename T>
cl::Event vector_add_with(const Config& config, cl::CommandQueue& queue, std::size_t n, const cl::Buffer& a,
                          std::size_t a_offset, const cl::Buffer& b, std::size_t b_offset, cl::Buffer& c,
                          std::size_t c_offset, const std::vector<cl::Event>* wait) {
  return run_elementwise<T>(Kind::Add, &config, queue, n, ComputeType<T>(0),
                            Operands{&a, a_offset, &b, b_offset, &c, c_offset}, wait);
}

template <typename T>
cl::Event axpy_with(const Config& config, cl::CommandQueue& queue, std::size_t n, ComputeType<T> alpha,
                    const cl::Buffer& x, std::size_t x_offset, cl::Buffer& y, std::size_t y_offset,
                    const std::vector<cl::Event>* wait) {
  return run_elementwise<T>(Kind::Axpy, &config, queue, n, alpha, Operands{&x, x_offset, nullptr, 0, &y, y_offset},
                            wait);
}

std::vector<TunableOp> elementwise_tunable_ops() {
  auto entry = [](Kind kind) {
    TunableOp op;
    op.description = {op_name(kind),
                      kElementwiseFamily,
                      {"float", "double", "half"},
                      "N (elements), e.g. 1048576 or 2^20",
                      {"2^13", "2^17", "2^21", "2^24"}};
    op.make_subject = [kind](const std::string& dtype, const std::string& shape) {
      return make_subject(kind, dtype, parse_size(op_name(kind), shape));
    };
    return op;
  };
  return {entry(Kind::Add), entry(Kind::Axpy)};
}

template cl::Event vector_add_with<float>(const Config&, cl::CommandQueue&, std::size_t, const cl::Buffer&, std::size_t,
                                          const cl::Buffer&, std::size_t, cl::Buffer&, std::size_t,
                                          const std::vector<cl::Event>*);
template cl::Event vector_add_with<double>(const Config&, cl::CommandQueue&, std::size_t, const cl::Buffer&,
                                           std::size_t, const cl::Buffer&, std::size_t, cl::Buffer&, std::size_t,
                                           const std::vector<cl::Event>*);
template cl::Event axpy_with<float>(const Config&, cl::CommandQueue&, std::size_t, float, const cl::Buffer&,
                                    std::size_t, cl::Buffer&, std::size_t, const std::vector<cl::Event>*);
template cl::Event axpy_with<double>(const Config&, cl::CommandQueue&, std::size_t, double, const cl::Buffer&,
                                     std::size_t, cl::Buffer&, std::size_t, const std::vector<cl::Event>*);
template cl::Event vector_add_with<half>(const Config&, cl::CommandQueue&, std::size_t, const cl::Buffer&, std::size_t,
                                         const cl::Buffer&, std::size_t, cl::Buffer&, std::size_t,
                                         const std::vector<cl::Event>*);
template cl::Event axpy_with<half>(const Config&, cl::CommandQueue&, std::size_t, float, const cl::Buffer&, std::size_t,
                                   cl::Buffer&, std::size_t, const std::vector<cl::Event>*);

}  // namespace detail

template <typename T>
detail::ElementwiseEvent<T> vector_add(cl::CommandQueue& queue, std::size_t n, const cl::Buffer& a,
                                       std::size_t a_offset, const cl::Buffer& b, std::size_t b_offset, cl::Buffer& c,
                                       std::size_t c_offset, const std::vector<cl::Event>* wait) {
  return detail::run_elementwise<T>(detail::Kind::Add, nullptr, queue, n, detail::ComputeType<T>(0),
                                    detail::Operands{&a, a_offset, &b, b_offset, &c, c_offset}, wait);
}

template <typename T>
detail::AxpyEvent<T> axpy(cl::CommandQueue& queue, std::size_t n, T alpha, const cl::Buffer& x, std::size_t x_offset,
                          cl::Buffer& y, std::size_t y_offset, const std::vector<cl::Event>* wait) {
  return detail::run_elementwise<T>(detail::Kind::Axpy, nullptr, queue, n, alpha,
                                    detail::Operands{&x, x_offset, nullptr, 0, &y, y_offset}, wait);
}

template <typename T>
detail::HalfEvent<T> axpy(cl::CommandQueue& queue, std::size_t n, float alpha, const cl::Buffer& x,
                          std::size_t x_offset, cl::Buffer& y, std::size_t y_offset,
                          const std::vector<cl::Event>* wait) {
  return detail::run_elementwise<T>(detail::Kind::Axpy, nullptr, queue, n, alpha,
                                    detail::Operands{&x, x_offset, nullptr, 0, &y, y_offset}, wait);
}

template cl::Event vector_add<float>(cl::CommandQueue&, std::size_t, const cl::Buffer&, std::size_t, const cl::Buffer&,
                                     std::size_t, cl::Buffer&, std::size_t, const std::vector<cl::Event>*);
template cl::Event vector_add<double>(cl::CommandQueue&, std::size_t, const cl::Buffer&, std::size_t, const cl::Buffer&,
                                      std::size_t, cl::Buffer&, std::size_t, const std::vector<cl::Event>*);
template cl::Event axpy<float>(cl::CommandQueue&, std::size_t, float, const cl::Buffer&, std::size_t, cl::Buffer&,
                               std::size_t, const std::vector<cl::Event>*);
template cl::Event axpy<double>(cl::CommandQueue&, std::size_t, double, const cl::Buffer&, std::size_t, cl::Buffer&,
                                std::size_t, const std::vector<cl::Event>*);
template cl::Event vector_add<half>(cl::CommandQueue&, std::size_t, const cl::Buffer&, std::size_t, const cl::Buffer&,
                                    std::size_t, cl::Buffer&, std::size_t, const std::vector<cl::Event>*);
template cl::Event axpy<half>(cl::CommandQueue&, std::size_t, float, const cl::Buffer&, std::size_t, cl::Buffer&,
                              std::size_t, const std::vector<cl::Event>*);

}  // namespace tilecl
