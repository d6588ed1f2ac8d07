// gemv: validate -> parameters -> program -> kernel lease -> enqueue.
//
// Every call becomes a GemvProblem over a row-major matrix R (src/ops/gemv.hpp): a RowMajor A is R, a ColMajor A
// is R transposed; "dots" when the outputs are dot products along stored rows (RowMajor without transpose,
// ColMajor with), else "columns". Then, in order, whatever the call needs:
//   1. gemv_gather: strided vectors (and, for dots, vectors not aligned to VEC) into a contiguous workspace;
//   2. gemv_dots or gemv_columns, writing depth-slice partials into the workspace when the depth is split;
//   3. gemv_reduce: y = alpha * (sum of the slices) + beta * y.
// alpha == 0 or depth == 0 launches only gemv_reduce over zero slices (y = beta * y).
// Buckets, search space and defaults: gemv_tuning.cpp.
#include "ops/gemv.hpp"

#include <algorithm>
#include <memory>

#include "launch_chain.hpp"
#include "ops/gemv_tuning.hpp"
#include "ops/op_frame.hpp"
#include "program_cache.hpp"
#include "tilecl/error.hpp"
#include "tilecl/gemv.hpp"
#include "tuning/choice_resolver.hpp"
#include "workspace.hpp"

namespace tilecl {
namespace detail {
namespace {

// A depth slice never covers fewer terms than this (the partials would cost more than they save).
constexpr std::uint64_t kMinSliceDepth = 256;
// Workspace sections and packed vectors start at multiples of this many elements (any VEC divides it).
constexpr std::uint64_t kAlignment = 64;

// ---- launch plan ------------------------------------------------------------------------------------------

// How one problem runs under one configuration.
struct Plan {
  Config config;  // VEC lowered to what R's offset and leading dimension allow
  bool pack_x = false;
  std::uint64_t groups = 0, slices = 1, k_slice = 0;
  std::uint64_t x_ld = 0, w_stride = 0, w_at = 0, workspace = 0;  // elements
};

// The widest power of two <= vec that divides every value.
std::int64_t aligned_width(std::int64_t vec, std::initializer_list<std::uint64_t> values) {
  while (vec > 1 && std::any_of(values.begin(), values.end(),
                                [vec](std::uint64_t value) { return value % static_cast<std::uint64_t>(vec) != 0; }))
    vec /= 2;
  return vec;
}

void check_workspace_extent(std::uint64_t elements) {
  if (elements > kMaxKernelExtent)
    throw Error(kGemvOp, "workspace", CL_INVALID_VALUE,
                "the gathered vectors or the depth-slice partials would span " + std::to_string(elements) +
                    " elements, beyond the kernels' 32-bit index range");
}

// Splits the depth over work-groups when the outputs alone give fewer work-items than the device holds at
// once (compute units x max work-group size), up to SPLIT slices of at least kMinSliceDepth terms.
void plan_slices(const GemvProblem& p, const DeviceInfo& device, Plan& plan) {
  const auto value = [&](const char* name) { return static_cast<std::uint64_t>(plan.config.value(name)); };
  const std::uint64_t vec = value("VEC"), wpt = value("WPT"), wg_x = value("WG_X"), wg_y = value("WG_Y");
  plan.groups = p.form == GemvForm::Dots ? ceil_div(p.rows, wg_y * wpt) : ceil_div(p.cols, vec * wpt * wg_x);
  const std::uint64_t items = plan.groups * wg_x * wg_y;
  const std::uint64_t target = std::max<std::uint64_t>(1, device.compute_units) * device.max_work_group_size;
  const std::uint64_t depth = p.depth();
  std::uint64_t slices = 1;
  if (items < target) slices = std::min({value("SPLIT"), ceil_div(target, items), depth / kMinSliceDepth});
  plan.slices = 1;
  plan.k_slice = depth;
  if (slices > 1) {
    plan.k_slice = round_up(ceil_div(depth, slices), vec);
    plan.slices = ceil_div(depth, plan.k_slice);
  }
}

// The configuration with VEC lowered to what R's offset and leading dimension allow.
Config lowered_config(const Config& config, const GemvProblem& p) {
  Config lowered = config;
  lowered.values["VEC"] = aligned_width(config.value("VEC"), {p.r_offset, p.ldr});
  return lowered;
}

Plan plan_for(const GemvProblem& p, const Config& config, const DeviceInfo& device) {
  Plan plan;
  plan.config = lowered_config(config, p);
  plan_slices(p, device, plan);
  const auto width = static_cast<std::uint64_t>(plan.config.value("VEC"));
  const bool x_misaligned =
      p.form == GemvForm::Dots && (p.x_offset % width != 0 || (p.vectors > 1 && p.ldx % width != 0));
  plan.pack_x = p.incx != 1 || x_misaligned;
  if (plan.pack_x) {
    plan.x_ld = round_up(p.depth(), kAlignment);
    check_workspace_extent(p.vectors * plan.x_ld);
    plan.workspace = p.vectors * plan.x_ld;
  }
  if (plan.slices > 1) {
    plan.w_stride = round_up(p.vectors * p.length(), kAlignment);
    check_workspace_extent(plan.slices * plan.w_stride);
    plan.w_at = plan.workspace;
    plan.workspace += plan.slices * plan.w_stride;
  }
  return plan;
}

// ---- enqueue ----------------------------------------------------------------------------------------------

void check_problem(const GemvProblem& p) {
  if (p.length() == 0)
    throw Error(kGemvOp, "length", CL_INVALID_VALUE, "a problem without outputs reached the kernels");
  if (p.vectors == 0 || p.vectors > kMaxGemvVectors)
    throw Error(kGemvOp, "vectors", CL_INVALID_VALUE,
                std::to_string(p.vectors) + " vectors: one launch takes 1 to " + std::to_string(kMaxGemvVectors));
}

// The local size of the helper kernels: fixed (PoCL compiles a kernel once per local size).
cl::NDRange helper_local(const DeviceInfo& device) {
  return cl::NDRange(std::min<std::size_t>(64, device.max_work_group_size), 1);
}
cl::NDRange helper_global(const cl::NDRange& local, std::uint64_t length, std::uint64_t vectors) {
  return cl::NDRange(round_up(length, local.get()[0]), vectors);
}

std::shared_ptr<CompiledProgram> program_for(const QueueTarget& target, const DTypeInfo& dtype, const Config& config,
                                             const GemvProblem& p) {
  return ProgramCache::instance().get(target.context, target.device, "gemv",
                                      gemv_build_options(dtype, config, p.form, p.vectors), kGemvOp);
}

// y = beta * y: gemv_reduce over zero slices (R and X are not read); every program of the problem's form and
// vectors holds it.
template <typename T>
void enqueue_scale(const QueueTarget& target, LaunchSequence& chain, CompiledProgram& program, const GemvProblem& p,
                   ComputeType<T> beta) {
  const cl::NDRange local = helper_local(*target.info);
  chain.launch(program, "gemv_reduce", helper_global(local, p.length(), p.vectors), local,
               static_cast<cl_int>(p.length()), cl_int{0}, *p.y, cl_ulong{0}, cl_int{0}, ComputeType<T>(0), beta, *p.y,
               static_cast<cl_ulong>(p.y_offset), static_cast<cl_int>(p.ldy), static_cast<cl_int>(p.incy));
}

template <typename T>
void enqueue_product(const QueueTarget& target, LaunchSequence& chain, CompiledProgram& program, const GemvProblem& p,
                     const Plan& plan, ComputeType<T> alpha, ComputeType<T> beta, cl::Buffer* scratch) {
  const cl::NDRange helper = helper_local(*target.info);
  const cl::Buffer* x = p.x;
  std::uint64_t x_offset = p.x_offset, ldx = p.ldx;
  if (plan.pack_x) {
    chain.launch(program, "gemv_gather", helper_global(helper, p.depth(), p.vectors), helper,
                 static_cast<cl_int>(p.depth()), *p.x, static_cast<cl_ulong>(p.x_offset), static_cast<cl_int>(p.ldx),
                 static_cast<cl_int>(p.incx), *scratch, cl_ulong{0}, static_cast<cl_int>(plan.x_ld));
    x = scratch, x_offset = 0, ldx = plan.x_ld;
  }
  const auto wg_x = static_cast<std::uint64_t>(plan.config.value("WG_X"));
  const auto wg_y = static_cast<std::uint64_t>(plan.config.value("WG_Y"));
  const std::string kernel = p.form == GemvForm::Dots ? "gemv_dots" : "gemv_columns";
  check_work_group_fits(kGemvOp, program, kernel, wg_x * wg_y);
  cl::Buffer& partials = plan.slices > 1 ? *scratch : *p.y;
  chain.launch(program, kernel, cl::NDRange(plan.groups * wg_x, plan.slices * wg_y), cl::NDRange(wg_x, wg_y),
               static_cast<cl_int>(p.rows), static_cast<cl_int>(p.cols), alpha, *p.r, static_cast<cl_ulong>(p.r_offset),
               static_cast<cl_int>(p.ldr), *x, static_cast<cl_ulong>(x_offset), static_cast<cl_int>(ldx), beta, *p.y,
               static_cast<cl_ulong>(p.y_offset), static_cast<cl_int>(p.ldy), static_cast<cl_int>(p.incy),
               static_cast<cl_int>(plan.k_slice), partials, static_cast<cl_ulong>(plan.w_at),
               static_cast<cl_int>(plan.w_stride));
  if (plan.slices > 1)
    chain.launch(program, "gemv_reduce", helper_global(helper, p.length(), p.vectors), helper,
                 static_cast<cl_int>(p.length()), static_cast<cl_int>(plan.slices), *scratch,
                 static_cast<cl_ulong>(plan.w_at), static_cast<cl_int>(plan.w_stride), alpha, beta, *p.y,
                 static_cast<cl_ulong>(p.y_offset), static_cast<cl_int>(p.ldy), static_cast<cl_int>(p.incy));
}

// What the op frame's resolve() needs for the tuned choice of a call without an explicit configuration (the
// per-thread memo first, so that a warm call builds no subject, renders no options and takes no lock): the bucket as
// a number (gemv_bucket_index), and what else selects the program -- the form, the vectors and the load width R's
// offset and leading dimension allow (lowered_config).
template <typename T>
struct GemvChoice {
  using Call = GemvProblem;
  ShapeKey shape_key(const GemvProblem& p) const {
    const std::uint64_t form = p.form == GemvForm::Dots ? 0 : 1;
    const auto width = static_cast<std::uint64_t>(aligned_width(16, {p.r_offset, p.ldr}));
    return {kGemvOp, dtype_of<T>().name, gemv_bucket_index(p), form | p.vectors << 1 | width << 6};
  }
  std::unique_ptr<TuningSubject> subject(const GemvProblem& p) const {
    return make_gemv_subject(dtype_of<T>().name, gemv_bucket(p));
  }
};

// An explicit configuration (tests, the tuner), refused when it breaks the bucket's search space.
template <typename T>
const Config& validated_config(const QueueTarget& target, const GemvProblem& p, const Config& config) {
  const std::string why = gemv_search_space(dtype_of<T>(), gemv_bucket(p), *target.info).validate(config, *target.info);
  if (!why.empty()) throw Error(kGemvOp, "config", CL_INVALID_VALUE, config.to_string() + ": " + why);
  return config;
}

// ---- validation of the public call ------------------------------------------------------------------------

struct Call {
  Layout layout;
  Transpose trans;
  std::uint64_t m, n;
  const cl::Buffer* a;
  std::uint64_t a_offset, lda;
  const cl::Buffer* x;
  std::uint64_t x_offset;
  std::int64_t incx;
  cl::Buffer* y;
  std::uint64_t y_offset;
  std::int64_t incy;

  std::uint64_t x_length() const { return trans == Transpose::No ? n : m; }
  std::uint64_t y_length() const { return trans == Transpose::No ? m : n; }
};

std::uint64_t magnitude(std::int64_t value) {
  return value < 0 ? std::uint64_t{0} - static_cast<std::uint64_t>(value) : static_cast<std::uint64_t>(value);
}

// A zero increment is never valid (BLAS refuses it before looking at the sizes).
void check_increment(const char* name, std::int64_t inc) {
  if (inc == 0) throw Error(kGemvOp, name, CL_INVALID_VALUE, "the increment must not be 0");
}

// Elements a vector of `length` elements at step `inc` spans (BLAS: from its offset, either direction).
std::uint64_t vector_span(const char* name, std::uint64_t length, std::int64_t inc) {
  check_kernel_extent(kGemvOp, std::string("inc") + name, magnitude(inc));
  const std::uint64_t span = checked_add(kGemvOp, name, checked_multiply(kGemvOp, name, length - 1, magnitude(inc)), 1);
  check_kernel_extent(kGemvOp, name, span);
  return span;
}

template <typename T>
void validate(const QueueTarget& target, const Call& call) {
  const DTypeInfo& dtype = dtype_of<T>();
  check_dtype_supported(kGemvOp, dtype, *target.info);
  check_kernel_extent(kGemvOp, "m", call.m);
  check_kernel_extent(kGemvOp, "n", call.n);
  const bool row_major = call.layout == Layout::RowMajor;
  const std::uint64_t lines = row_major ? call.m : call.n, line = row_major ? call.n : call.m;
  if (call.lda < line)
    throw Error(kGemvOp, "lda", CL_INVALID_VALUE,
                std::to_string(call.lda) + " is less than the " + (row_major ? "columns" : "rows") + " (" +
                    std::to_string(line) + ") of the " + (row_major ? "row-major " : "column-major ") +
                    std::to_string(call.m) + " x " + std::to_string(call.n) + " matrix a");
  check_kernel_extent(kGemvOp, "lda", call.lda);
  const std::uint64_t a_span = checked_add(kGemvOp, "a", checked_multiply(kGemvOp, "a", lines - 1, call.lda), line);
  check_kernel_extent(kGemvOp, "a", a_span);
  const std::uint64_t x_span = vector_span("x", call.x_length(), call.incx);
  const std::uint64_t y_span = vector_span("y", call.y_length(), call.incy);
  check_buffer(kGemvOp, "a", *call.a, target.context, call.a_offset, a_span, dtype.size);
  check_buffer(kGemvOp, "x", *call.x, target.context, call.x_offset, x_span, dtype.size);
  check_buffer(kGemvOp, "y", *call.y, target.context, call.y_offset, y_span, dtype.size);
  check_no_overlap(kGemvOp, "a", *call.a, call.a_offset, a_span, "y", *call.y, call.y_offset, y_span, dtype.size);
  check_no_overlap(kGemvOp, "x", *call.x, call.x_offset, x_span, "y", *call.y, call.y_offset, y_span, dtype.size);
}

// The kernels' view of a validated call. A negative increment starts at the far end of the vector's span.
GemvProblem problem_of(const Call& call) {
  const bool row_major = call.layout == Layout::RowMajor, transposed = call.trans == Transpose::Yes;
  GemvProblem p;
  p.form = row_major != transposed ? GemvForm::Dots : GemvForm::Columns;
  p.rows = row_major ? call.m : call.n;
  p.cols = row_major ? call.n : call.m;
  p.r = call.a;
  p.r_offset = call.a_offset;
  p.ldr = call.lda;
  p.x = call.x;
  p.x_offset = call.x_offset + (call.incx < 0 ? (call.x_length() - 1) * magnitude(call.incx) : 0);
  p.incx = call.incx;
  p.y = call.y;
  p.y_offset = call.y_offset + (call.incy < 0 ? (call.y_length() - 1) * magnitude(call.incy) : 0);
  p.incy = call.incy;
  return p;
}

template <typename T>
cl::Event run_gemv(const Config* config, cl::CommandQueue& queue, const Call& call, ComputeType<T> alpha,
                   ComputeType<T> beta, const std::vector<cl::Event>* wait) {
  check_enum(kGemvOp, "layout", call.layout);
  check_enum(kGemvOp, "trans", call.trans);
  check_increment("incx", call.incx);
  check_increment("incy", call.incy);
  if (call.m == 0 || call.n == 0) return cl::Event();
  const auto target = queue_target(kGemvOp, queue);
  validate<T>(target, call);
  check_wait_list(kGemvOp, wait, target.context);
  return enqueue_gemv<T>(target, queue, problem_of(call), alpha, beta, wait, config);
}

}  // namespace

template <typename T>
cl::Event enqueue_gemv(const QueueTarget& target, cl::CommandQueue& queue, const GemvProblem& p, ComputeType<T> alpha,
                       ComputeType<T> beta, const std::vector<cl::Event>* wait, const Config* config,
                       std::vector<cl::Event>* events) {
  check_problem(p);
  const bool scale_only = alpha == 0 || p.depth() == 0;
  if (config == nullptr && !scale_only) {
    // The memo entry keeps the choice and its program (built before the workspace is leased: a compile never holds
    // the workspace's lock).
    Resolved& resolved = resolve(GemvChoice<T>{}, target, p);
    if (!resolved.program) resolved.program = gemv_program(target, dtype_of<T>(), resolved.config, p);
    return enqueue_gemv_with_program<T>(target, queue, p, resolved.config, *resolved.program, alpha, beta, wait,
                                        events);
  }
  // The scaling alone needs no tuned choice: without a configuration, it runs in the bucket's default program.
  const Config chosen = config == nullptr ? gemv_default_config(dtype_of<T>(), gemv_bucket(p), *target.info)
                                          : validated_config<T>(target, p, *config);
  auto program = gemv_program(target, dtype_of<T>(), chosen, p);
  return enqueue_gemv_with_program<T>(target, queue, p, chosen, *program, alpha, beta, wait, events);
}

template <typename T>
cl::Event enqueue_gemv_with_program(const QueueTarget& target, cl::CommandQueue& queue, const GemvProblem& p,
                                    const Config& config, CompiledProgram& program, ComputeType<T> alpha,
                                    ComputeType<T> beta, const std::vector<cl::Event>* wait,
                                    std::vector<cl::Event>* events) {
  check_problem(p);
  if (alpha == 0 || p.depth() == 0) {
    LaunchSequence chain(kGemvOp, queue, wait, events);
    enqueue_scale<T>(target, chain, program, p, beta);
    return chain.last();
  }
  const Plan plan = plan_for(p, config, *target.info);
  std::unique_ptr<WorkspaceLease> lease;
  if (plan.workspace > 0)
    lease = std::make_unique<WorkspaceLease>(
        // Elements of the partials' type (the gathered 16-bit vectors of half take less than theirs).
        acquire_workspace(kGemvOp, target.context, target.device, "gemv", plan.workspace * sizeof(ComputeType<T>),
                          wait));
  LaunchSequence chain(kGemvOp, queue, lease ? lease->wait_list() : wait, events);
  enqueue_product<T>(target, chain, program, p, plan, alpha, beta, lease ? &lease->buffer() : nullptr);
  if (lease) lease->release_after(chain.last());
  return chain.last();
}

std::shared_ptr<CompiledProgram> gemv_program(const QueueTarget& target, const DTypeInfo& dtype, const Config& config,
                                              const GemvProblem& p) {
  return program_for(target, dtype, lowered_config(config, p), p);
}

std::size_t gemv_launches(const GemvProblem& problem, const Config& config, const DeviceInfo& device) {
  const Plan plan = plan_for(problem, config, device);
  return 1 + (plan.pack_x ? 1 : 0) + (plan.slices > 1 ? 1 : 0);
}

namespace {

// A gemm call in row-major terms: a ColMajor call is C^T = op(B)^T op(A)^T, A and B (and their transposes) swapped.
struct RowMajorGemm {
  bool ta, tb;
  std::uint64_t m, n, k;
  const cl::Buffer* left;
  std::uint64_t left_offset, left_ld;
  const cl::Buffer* right;
  std::uint64_t right_offset, right_ld;
};

RowMajorGemm row_major_gemm(Layout layout, Transpose trans_a, Transpose trans_b, std::uint64_t m, std::uint64_t n,
                            std::uint64_t k, const cl::Buffer& a, std::uint64_t a_offset, std::uint64_t lda,
                            const cl::Buffer& b, std::uint64_t b_offset, std::uint64_t ldb) {
  const bool yes_a = trans_a == Transpose::Yes, yes_b = trans_b == Transpose::Yes;
  if (layout == Layout::RowMajor) return {yes_a, yes_b, m, n, k, &a, a_offset, lda, &b, b_offset, ldb};
  return {yes_b, yes_a, n, m, k, &b, b_offset, ldb, &a, a_offset, lda};
}

// Row v of C = (row v of op(left)) op(right): R is right, stored k x n (columns) or n x k (dots).
void rows_of_c(const RowMajorGemm& g, std::uint64_t ldc, GemvProblem& p) {
  p.form = g.tb ? GemvForm::Dots : GemvForm::Columns;
  p.rows = g.tb ? g.n : g.k, p.cols = g.tb ? g.k : g.n;
  p.r = g.right, p.r_offset = g.right_offset, p.ldr = g.right_ld;
  p.vectors = g.m;
  p.x = g.left, p.x_offset = g.left_offset;
  p.ldx = g.ta ? 1 : g.left_ld, p.incx = g.ta ? static_cast<std::int64_t>(g.left_ld) : 1;
  p.ldy = ldc, p.incy = 1;
}

// Column v of C = op(left) (column v of op(right)): R is left, stored m x k (dots) or k x m (columns).
void columns_of_c(const RowMajorGemm& g, std::uint64_t ldc, GemvProblem& p) {
  p.form = g.ta ? GemvForm::Columns : GemvForm::Dots;
  p.rows = g.ta ? g.k : g.m, p.cols = g.ta ? g.m : g.k;
  p.r = g.left, p.r_offset = g.left_offset, p.ldr = g.left_ld;
  p.vectors = g.n;
  p.x = g.right, p.x_offset = g.right_offset;
  p.ldx = g.tb ? g.right_ld : 1, p.incx = g.tb ? 1 : static_cast<std::int64_t>(g.right_ld);
  p.ldy = 1, p.incy = static_cast<std::int64_t>(ldc);
}

}  // namespace

std::optional<GemvProblem> gemv_problem_of_gemm(Layout layout, Transpose trans_a, Transpose trans_b, std::uint64_t m,
                                                std::uint64_t n, std::uint64_t k, const cl::Buffer& a,
                                                std::uint64_t a_offset, std::uint64_t lda, const cl::Buffer& b,
                                                std::uint64_t b_offset, std::uint64_t ldb, cl::Buffer& c,
                                                std::uint64_t c_offset, std::uint64_t ldc) {
  const RowMajorGemm g = row_major_gemm(layout, trans_a, trans_b, m, n, k, a, a_offset, lda, b, b_offset, ldb);
  if (std::min(g.m, g.n) > kMaxGemvVectors) return std::nullopt;
  GemvProblem p;
  p.y = &c;
  p.y_offset = c_offset;
  if (g.m <= g.n)
    rows_of_c(g, ldc, p);
  else
    columns_of_c(g, ldc, p);
  return p;
}

template <typename T>
cl::Event gemv_with(const Config& config, cl::CommandQueue& queue, Layout layout, Transpose trans, std::size_t m,
                    std::size_t n, ComputeType<T> alpha, const cl::Buffer& a, std::size_t a_offset, std::size_t lda,
                    const cl::Buffer& x, std::size_t x_offset, std::ptrdiff_t incx, ComputeType<T> beta, cl::Buffer& y,
                    std::size_t y_offset, std::ptrdiff_t incy, const std::vector<cl::Event>* wait) {
  return run_gemv<T>(&config, queue,
                     Call{layout, trans, m, n, &a, a_offset, lda, &x, x_offset, incx, &y, y_offset, incy}, alpha, beta,
                     wait);
}

#define TILECL_GEMV_INSTANTIATE(T, S)                                                                               \
  template cl::Event enqueue_gemv<T>(const QueueTarget&, cl::CommandQueue&, const GemvProblem&, S, S,               \
                                     const std::vector<cl::Event>*, const Config*, std::vector<cl::Event>*);        \
  template cl::Event enqueue_gemv_with_program<T>(const QueueTarget&, cl::CommandQueue&, const GemvProblem&,        \
                                                  const Config&, CompiledProgram&, S, S,                            \
                                                  const std::vector<cl::Event>*, std::vector<cl::Event>*);          \
  template cl::Event gemv_with<T>(const Config&, cl::CommandQueue&, Layout, Transpose, std::size_t, std::size_t, S, \
                                  const cl::Buffer&, std::size_t, std::size_t, const cl::Buffer&, std::size_t,      \
                                  std::ptrdiff_t, S, cl::Buffer&, std::size_t, std::ptrdiff_t,                      \
                                  const std::vector<cl::Event>*);
TILECL_GEMV_INSTANTIATE(float, float)
TILECL_GEMV_INSTANTIATE(double, double)
TILECL_GEMV_INSTANTIATE(half, float)
#undef TILECL_GEMV_INSTANTIATE

}  // namespace detail

template <typename T>
detail::GemvEvent<T> gemv(cl::CommandQueue& queue, Layout layout, Transpose trans, std::size_t m, std::size_t n,
                          T alpha, const cl::Buffer& a, std::size_t a_offset, std::size_t lda, const cl::Buffer& x,
                          std::size_t x_offset, std::ptrdiff_t incx, T beta, cl::Buffer& y, std::size_t y_offset,
                          std::ptrdiff_t incy, const std::vector<cl::Event>* wait) {
  return detail::run_gemv<T>(
      nullptr, queue, detail::Call{layout, trans, m, n, &a, a_offset, lda, &x, x_offset, incx, &y, y_offset, incy},
      alpha, beta, wait);
}

template <typename T>
detail::HalfEvent<T> gemv(cl::CommandQueue& queue, Layout layout, Transpose trans, std::size_t m, std::size_t n,
                          float alpha, const cl::Buffer& a, std::size_t a_offset, std::size_t lda, const cl::Buffer& x,
                          std::size_t x_offset, std::ptrdiff_t incx, float beta, cl::Buffer& y, std::size_t y_offset,
                          std::ptrdiff_t incy, const std::vector<cl::Event>* wait) {
  return detail::run_gemv<T>(
      nullptr, queue, detail::Call{layout, trans, m, n, &a, a_offset, lda, &x, x_offset, incx, &y, y_offset, incy},
      alpha, beta, wait);
}

template cl::Event gemv<float>(cl::CommandQueue&, Layout, Transpose, std::size_t, std::size_t, float, const cl::Buffer&,
                               std::size_t, std::size_t, const cl::Buffer&, std::size_t, std::ptrdiff_t, float,
                               cl::Buffer&, std::size_t, std::ptrdiff_t, const std::vector<cl::Event>*);
template cl::Event gemv<double>(cl::CommandQueue&, Layout, Transpose, std::size_t, std::size_t, double,
                                const cl::Buffer&, std::size_t, std::size_t, const cl::Buffer&, std::size_t,
                                std::ptrdiff_t, double, cl::Buffer&, std::size_t, std::ptrdiff_t,
                                const std::vector<cl::Event>*);

template cl::Event gemv<half>(cl::CommandQueue&, Layout, Transpose, std::size_t, std::size_t, float, const cl::Buffer&,
                              std::size_t, std::size_t, const cl::Buffer&, std::size_t, std::ptrdiff_t, float,
                              cl::Buffer&, std::size_t, std::ptrdiff_t, const std::vector<cl::Event>*);

}  // namespace tilecl
