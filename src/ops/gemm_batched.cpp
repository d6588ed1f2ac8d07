// gemm_strided_batched, gemm_batched: validate -> parameters -> program -> kernel lease -> enqueue.
//
// A call becomes a row-major batch for the kernels (kernels/gemm_batched.cl): a ColMajor call is solved as
// C^T = op(B)^T op(A)^T (A and B swap, with their offsets, strides and leading dimensions; their transposes swap;
// m and n swap). One launch computes every matrix; gemm_batched first copies the per-matrix offsets and scalars
// into a workspace, in the same chain. Validation: gemm_batched_checks.cpp; tuning: gemm_batched_tuning.cpp.
#include "tilecl/gemm_batched.hpp"

#include <algorithm>
#include <memory>

#include "launch_chain.hpp"
#include "ops/gemm_batched_parts.hpp"
#include "ops/op_frame.hpp"
#include "program_cache.hpp"
#include "tilecl/error.hpp"
#include "tuning/choice_resolver.hpp"
#include "workspace.hpp"

namespace tilecl {
namespace detail {
namespace {

// Groups along the NDRange's third dimension: CUDA-based drivers allow 65535; the CPU kernel loops over the
// matrices of its group (a few groups per core amortize PoCL's cost per work-group).
constexpr std::uint64_t kMaxGroupsZ = 32768;
constexpr std::uint64_t kCpuGroupsPerUnit = 64;

// The kernels' view: row-major, A and B already swapped for a ColMajor call.
template <typename T>
struct KernelBatch {
  std::uint64_t m, n, k, batch;
  bool trans_a, trans_b;
  const cl::Buffer *a, *b;
  cl::Buffer* c;
  std::uint64_t lda, ldb, ldc, a_offset, b_offset, c_offset, stride_a, stride_b, stride_c;
  ComputeType<T> alpha, beta;
  const std::vector<std::size_t>*a_offsets, *b_offsets, *c_offsets;
};

template <typename T>
KernelBatch<T> row_major(const BatchedCall<T>& c) {
  const bool ta = c.trans_a == Transpose::Yes, tb = c.trans_b == Transpose::Yes;
  if (c.layout == Layout::RowMajor)
    return {c.m,        c.n,        c.k,     c.batch, ta,          tb,          c.a,        c.b,
            c.c,        c.lda,      c.ldb,   c.ldc,   c.a_offset,  c.b_offset,  c.c_offset, c.stride_a,
            c.stride_b, c.stride_c, c.alpha, c.beta,  c.a_offsets, c.b_offsets, c.c_offsets};
  return {c.n,        c.m,        c.k,     c.batch, tb,          ta,          c.b,        c.a,
          c.c,        c.ldb,      c.lda,   c.ldc,   c.b_offset,  c.a_offset,  c.c_offset, c.stride_b,
          c.stride_a, c.stride_c, c.alpha, c.beta,  c.b_offsets, c.a_offsets, c.c_offsets};
}

// Where every stored row of each operand starts, as a multiple of elements (the tiled kernel's ALIGN_A/B/C): the
// leading dimension, the first offset and (for more than one matrix) the stride, or every listed offset.
template <typename T>
OperandAlignment alignment_of(const KernelBatch<T>& p) {
  const auto strided = [&](std::uint64_t ld, std::uint64_t offset, std::uint64_t stride) {
    return common_alignment({ld, offset, p.batch > 1 ? stride : 0});
  };
  if (p.a_offsets != nullptr)
    return {common_alignment(p.lda, *p.a_offsets), common_alignment(p.ldb, *p.b_offsets),
            common_alignment(p.ldc, *p.c_offsets)};
  return {strided(p.lda, p.a_offset, p.stride_a), strided(p.ldb, p.b_offset, p.stride_b),
          strided(p.ldc, p.c_offset, p.stride_c)};
}

// Frees a host copy once the transfer from it has completed (OpenCL calls it from a driver thread).
void CL_CALLBACK free_upload(cl_event /*event*/, cl_int /*status*/, void* data) {
  delete static_cast<std::vector<unsigned char>*>(data);
}

// 3 * batch offsets (A, B, C of each matrix, in the kernels' order), then 2 * batch scalars (alpha, beta).
template <typename T>
std::vector<unsigned char> per_matrix_table(const KernelBatch<T>& p, const BatchedCall<T>& call) {
  std::vector<cl_ulong> offsets(3 * p.batch);
  std::vector<ComputeType<T>> scalars(2 * p.batch);
  for (std::uint64_t i = 0; i < p.batch; ++i) {
    offsets[3 * i] = (*p.a_offsets)[i];
    offsets[3 * i + 1] = (*p.b_offsets)[i];
    offsets[3 * i + 2] = (*p.c_offsets)[i];
    scalars[2 * i] = (*call.alphas)[i];
    scalars[2 * i + 1] = (*call.betas)[i];
  }
  const std::size_t scalar_bytes = scalars.size() * sizeof(ComputeType<T>);
  std::vector<unsigned char> bytes(offsets.size() * sizeof(cl_ulong) + scalar_bytes);
  std::copy_n(reinterpret_cast<const unsigned char*>(offsets.data()), offsets.size() * sizeof(cl_ulong), bytes.begin());
  std::copy_n(reinterpret_cast<const unsigned char*>(scalars.data()), scalar_bytes,
              bytes.begin() + static_cast<std::ptrdiff_t>(offsets.size() * sizeof(cl_ulong)));
  return bytes;
}

// Writes the table into the workspace without blocking: a host copy lives until the transfer completes.
void upload_table(const std::string& op, cl::CommandQueue& queue, std::vector<unsigned char> table,
                  WorkspaceLease& lease, LaunchSequence& chain) {
  auto* copy = new std::vector<unsigned char>(std::move(table));
  cl::Event written;
  try {
    queue.enqueueWriteBuffer(lease.buffer(), CL_FALSE, 0, copy->size(), copy->data(), lease.wait_list(), &written);
  } catch (const cl::Error& error) {
    delete copy;
    throw Error(op, "queue", error.err(), "enqueueing the copy of the per-matrix offsets and scalars failed");
  }
  chain.append(written);
  try {
    written.setCallback(CL_COMPLETE, free_upload, copy);
  } catch (const cl::Error&) {
    written.wait();  // no callback: free the copy once the transfer is done
    delete copy;
  }
}

struct Geometry {
  cl::NDRange global, local;
  std::uint64_t work_group;
};

// A configuration's launch parameters, decoded once (a memo entry keeps them: no lookup by name on a warm call).
struct LaunchShape {
  bool tiled = false;
  std::uint64_t tile_m = 1, tile_n = 1, wpt_m = 1, wpt_n = 1, mats = 1, wg_x = 1, wg_y = 1;
};

LaunchShape launch_shape_of(const Config& config) {
  const auto value = [&](const char* name) { return static_cast<std::uint64_t>(config.value(name)); };
  LaunchShape shape;
  if (config.variant == "tiled") {
    shape.tiled = true;
    shape.tile_m = value("TILE_M"), shape.tile_n = value("TILE_N"), shape.wpt_m = value("WPT_M");
    shape.wpt_n = value("WPT_N"), shape.mats = value("MATS");
  } else if (config.variant == "cpu") {
    shape.wpt_m = value("WPT_M"), shape.wpt_n = value("WPT_N"), shape.wg_x = value("WG_X"), shape.wg_y = value("WG_Y");
  } else {
    throw Error("gemm_batched", "config", CL_INVALID_VALUE, "unknown variant");
  }
  return shape;
}

Geometry geometry_of(const LaunchShape& s, std::uint64_t m, std::uint64_t n, std::uint64_t batch,
                     const DeviceInfo& device) {
  if (s.tiled) {
    const std::uint64_t wg_x = s.tile_n / s.wpt_n, wg_y = s.tile_m / s.wpt_m;
    const std::uint64_t tiles = ceil_div(m, s.tile_m) * ceil_div(n, s.tile_n);
    const std::uint64_t groups_z = std::min(ceil_div(batch, s.mats), kMaxGroupsZ);
    return {cl::NDRange(tiles * wg_x, wg_y, groups_z * s.mats), cl::NDRange(wg_x, wg_y, s.mats), wg_x * wg_y * s.mats};
  }
  const std::uint64_t groups_z =
      std::min({batch, kMaxGroupsZ, kCpuGroupsPerUnit * std::max<std::uint64_t>(1, device.compute_units)});
  return {cl::NDRange(round_up(ceil_div(n, s.wpt_n), s.wg_x), round_up(ceil_div(m, s.wpt_m), s.wg_y), groups_z),
          cl::NDRange(s.wg_x, s.wg_y, 1), s.wg_x * s.wg_y};
}

// What a call runs: the configuration (fitted to the call's sizes where it was chosen), its program's options, its
// kernel's name and launch parameters. A memo entry keeps one (plan_as); an explicit configuration makes its own.
struct BatchedPlan {
  Config config;
  BuildOptions options;
  std::string kernel;
  LaunchShape launch;
};

template <typename T>
BatchedPlan plan_of(const Config& chosen, bool fit, const KernelBatch<T>& p, bool per_matrix,
                    const DeviceInfo& device) {
  BatchedPlan plan;
  plan.config = fit ? gemm_batched_fit_config(dtype_of<T>(), chosen, p.m, p.n, p.k, p.batch, device) : chosen;
  plan.options =
      gemm_batched_build_options(dtype_of<T>(), plan.config, p.trans_a, p.trans_b, per_matrix, alignment_of(p));
  plan.kernel = "gemm_batched_" + plan.config.variant;
  plan.launch = launch_shape_of(plan.config);
  return plan;
}

std::uint64_t ceil_log2(std::uint64_t x) {
  std::uint64_t bits = 0;
  while (bits < 63 && (std::uint64_t{1} << bits) < x) ++bits;
  return bits;
}

std::uint64_t alignment_code(std::uint64_t width) { return width >= 8 ? 3 : width >= 4 ? 2 : width >= 2 ? 1 : 0; }

// What the op frame's resolve() needs for the tuned choice of a call (the per-thread memo first). The key holds what
// the fitted configuration and its program depend on: the bucket and the fit follow the next powers of two of m, n
// and k (gemm_batched_fit_config shrinks power-of-two tiles to them), the matrices per group the batch over the
// device's compute units, the program the transposes, the per-matrix table and the operands' alignment.
template <typename T>
struct BatchedChoice {
  struct Call {
    const BatchedCall<T>* call;
    const KernelBatch<T>* p;
  };
  ShapeKey shape_key(const Call& c) const {
    const KernelBatch<T>& p = *c.p;
    const std::uint64_t batch_cap = ceil_log2(gemm_batched_matrices_cap(p.batch, *device));  // a power of two
    const std::uint64_t k_class = p.k == 0 ? 0 : 1 + ceil_log2(p.k);  // k = 0 keeps the tile's depth
    const std::uint64_t shape_class = ceil_log2(p.m) | ceil_log2(p.n) << 6 | k_class << 12 | batch_cap << 19;
    const OperandAlignment align = alignment_of(p);
    const std::uint64_t program_code =
        static_cast<std::uint64_t>(p.trans_a) | static_cast<std::uint64_t>(p.trans_b) << 1 |
        static_cast<std::uint64_t>(c.call->per_matrix()) << 2 | alignment_code(align.a) << 3 |
        alignment_code(align.b) << 5 | alignment_code(align.c) << 7;
    return {batched_op_name(*c.call), dtype_of<T>().name, shape_class, program_code};
  }
  std::unique_ptr<TuningSubject> subject(const Call& c) const {
    return make_gemm_batched_subject(dtype_of<T>().name, gemm_batched_bucket(c.call->m, c.call->n),
                                     c.call->per_matrix());
  }
  const DeviceInfo* device;
};

template <typename T>
cl::Event enqueue_batched(const QueueTarget& target, cl::CommandQueue& queue, cl::Kernel& kernel, const Geometry& g,
                          const BatchedCall<T>& call, const KernelBatch<T>& p, const std::vector<cl::Event>* wait,
                          std::vector<cl::Event>* events) {
  const char* op = batched_op_name(call);
  std::unique_ptr<WorkspaceLease> lease;
  std::vector<unsigned char> table;
  if (call.per_matrix()) {
    table = per_matrix_table(p, call);
    lease = std::make_unique<WorkspaceLease>(
        acquire_workspace(op, target.context, target.device, "gemm_batched", table.size(), wait));
  }
  LaunchSequence chain(op, queue, lease ? lease->wait_list() : wait, events);
  if (lease) upload_table(op, queue, std::move(table), *lease, chain);
  // Without a table the kernel never reads `offsets`; any valid buffer fills the argument.
  const cl::Buffer& offsets = lease ? lease->buffer() : *p.c;
  chain.launch_kernel(kernel, g.global, g.local, static_cast<cl_int>(p.m), static_cast<cl_int>(p.n),
                      static_cast<cl_int>(p.k), p.alpha, *p.a, static_cast<cl_ulong>(p.a_offset),
                      static_cast<cl_int>(p.lda), static_cast<cl_ulong>(p.stride_a), *p.b,
                      static_cast<cl_ulong>(p.b_offset), static_cast<cl_int>(p.ldb), static_cast<cl_ulong>(p.stride_b),
                      p.beta, *p.c, static_cast<cl_ulong>(p.c_offset), static_cast<cl_int>(p.ldc),
                      static_cast<cl_ulong>(p.stride_c), static_cast<cl_int>(p.batch), offsets);
  if (lease) lease->release_after(chain.last());
  return chain.last();
}

// The per-matrix vectors all hold batch_count entries; refused whatever the sizes (never a valid call).
template <typename T>
void check_vector_sizes(const BatchedCall<T>& call) {
  if (!call.per_matrix()) return;
  const std::pair<const char*, std::size_t> sizes[] = {{"betas", call.betas->size()},
                                                       {"a_offsets", call.a_offsets->size()},
                                                       {"b_offsets", call.b_offsets->size()},
                                                       {"c_offsets", call.c_offsets->size()}};
  for (const auto& [name, size] : sizes)
    if (size != call.batch)
      throw Error(batched_op_name(call), name, CL_INVALID_VALUE,
                  "holds " + std::to_string(size) + " entries, alphas " + std::to_string(call.batch) +
                      ": every per-matrix vector needs one entry per matrix");
}

// A chosen configuration, fitted to matrices smaller than its tile: the memo entry keeps the plan, the program and
// the kernel (a warm call takes no lock, builds no string and leases nothing).
template <typename T>
cl::Event enqueue_chosen(const QueueTarget& target, cl::CommandQueue& queue, const BatchedCall<T>& run,
                         const KernelBatch<T>& p, const std::vector<cl::Event>* wait, std::vector<cl::Event>* events) {
  const char* op = batched_op_name(run);
  const BatchedChoice<T> choice{target.info};
  const typename BatchedChoice<T>::Call call{&run, &p};
  const auto enqueue_with = [&](Resolved& resolved) {
    const MemoPin pin(resolved);
    const BatchedPlan& plan = resolved.plan_as<BatchedPlan>(
        [&](const Config& chosen) { return plan_of(chosen, true, p, run.per_matrix(), *target.info); });
    cl::Kernel& kernel = resolved.main_kernel(target, "gemm_batched", plan.options, plan.kernel, op);
    const Geometry g = geometry_of(plan.launch, p.m, p.n, p.batch, *target.info);
    resolved.check_main_work_group(op, plan.kernel, g.work_group);
    return enqueue_batched<T>(target, queue, kernel, g, run, p, wait, events);
  };
  Resolved& resolved = resolve(choice, target, call);
  try {
    return enqueue_with(resolved);
  } catch (const Error& error) {
    // A chosen configuration that does not build or launch: reported once, recorded, and the key chosen again.
    if (!is_configuration_failure(error)) throw;
    const Config failed = resolved.config;  // the memo entry is replaced below
    return enqueue_with(resolve_after_failure(choice, target, call, failed, error));
  }
}

// An explicit configuration (tests, the tuner) runs as given, refused when it breaks its bucket's search space.
template <typename T>
void check_config(const QueueTarget& target, const BatchedCall<T>& call, const Config& config) {
  const std::string bucket = gemm_batched_bucket(call.m, call.n);
  const std::string why = gemm_batched_search_space(dtype_of<T>(), bucket, *target.info).validate(config, *target.info);
  if (!why.empty()) throw Error(batched_op_name(call), "config", CL_INVALID_VALUE, config.to_string() + ": " + why);
}

}  // namespace

template <typename T>
cl::Event run_gemm_batched(const Config* config, cl::CommandQueue& queue, const BatchedCall<T>& call,
                           const std::vector<cl::Event>* wait, std::vector<cl::Event>* events) {
  const std::string op = batched_op_name(call);
  check_enum(op, "layout", call.layout);
  check_enum(op, "trans_a", call.trans_a);
  check_enum(op, "trans_b", call.trans_b);
  check_vector_sizes(call);
  if (call.m == 0 || call.n == 0 || call.batch == 0) return cl::Event();
  const auto target = queue_target(op, queue);
  // Evenly spaced offsets are validated as the strided call they describe, and run as it (no table to upload)
  // when the scalars are uniform too.
  BatchedCall<T> strided;
  const bool regular = evenly_spaced(call, strided);
  validate_batched<T>(target, regular ? strided : call);
  check_wait_list(op, wait, target.context);
  const BatchedCall<T>& run = regular && uniform_scalars(call) ? strided : call;
  const KernelBatch<T> p = row_major(run);
  if (config != nullptr) {  // runs as given
    check_config(target, run, *config);
    const BatchedPlan plan = plan_of(*config, false, p, run.per_matrix(), *target.info);
    auto program = ProgramCache::instance().get(target.context, target.device, "gemm_batched", plan.options, op);
    const Geometry g = geometry_of(plan.launch, p.m, p.n, p.batch, *target.info);
    check_work_group_fits(op, *program, plan.kernel, g.work_group);
    auto lease = program->lease(plan.kernel, op);
    return enqueue_batched<T>(target, queue, lease.kernel(), g, run, p, wait, events);
  }
  return enqueue_chosen<T>(target, queue, run, p, wait, events);
}

template cl::Event run_gemm_batched<float>(const Config*, cl::CommandQueue&, const BatchedCall<float>&,
                                           const std::vector<cl::Event>*, std::vector<cl::Event>*);
template cl::Event run_gemm_batched<double>(const Config*, cl::CommandQueue&, const BatchedCall<double>&,
                                            const std::vector<cl::Event>*, std::vector<cl::Event>*);
template cl::Event run_gemm_batched<half>(const Config*, cl::CommandQueue&, const BatchedCall<half>&,
                                          const std::vector<cl::Event>*, std::vector<cl::Event>*);

// The public entry points' bodies: a strided call, and one with per-matrix offsets and scalars.
template <typename T>
cl::Event strided_batched(cl::CommandQueue& queue, Layout layout, Transpose trans_a, Transpose trans_b, std::size_t m,
                          std::size_t n, std::size_t k, ComputeType<T> alpha, const cl::Buffer& a, std::size_t a_offset,
                          std::size_t lda, std::size_t stride_a, const cl::Buffer& b, std::size_t b_offset,
                          std::size_t ldb, std::size_t stride_b, ComputeType<T> beta, cl::Buffer& c,
                          std::size_t c_offset, std::size_t ldc, std::size_t stride_c, std::size_t batch_count,
                          const std::vector<cl::Event>* wait) {
  BatchedCall<T> call;
  call.layout = layout, call.trans_a = trans_a, call.trans_b = trans_b;
  call.m = m, call.n = n, call.k = k, call.batch = batch_count;
  call.a = &a, call.b = &b, call.c = &c;
  call.lda = lda, call.ldb = ldb, call.ldc = ldc;
  call.a_offset = a_offset, call.b_offset = b_offset, call.c_offset = c_offset;
  call.stride_a = stride_a, call.stride_b = stride_b, call.stride_c = stride_c;
  call.alpha = alpha, call.beta = beta;
  return run_gemm_batched<T>(nullptr, queue, call, wait);
}

template <typename T>
cl::Event offsets_batched(cl::CommandQueue& queue, Layout layout, Transpose trans_a, Transpose trans_b, std::size_t m,
                          std::size_t n, std::size_t k, const std::vector<ComputeType<T>>& alphas, const cl::Buffer& a,
                          const std::vector<std::size_t>& a_offsets, std::size_t lda, const cl::Buffer& b,
                          const std::vector<std::size_t>& b_offsets, std::size_t ldb,
                          const std::vector<ComputeType<T>>& betas, cl::Buffer& c,
                          const std::vector<std::size_t>& c_offsets, std::size_t ldc,
                          const std::vector<cl::Event>* wait) {
  BatchedCall<T> call;
  call.layout = layout, call.trans_a = trans_a, call.trans_b = trans_b;
  call.m = m, call.n = n, call.k = k, call.batch = alphas.size();
  call.a = &a, call.b = &b, call.c = &c;
  call.lda = lda, call.ldb = ldb, call.ldc = ldc;
  call.a_offsets = &a_offsets, call.b_offsets = &b_offsets, call.c_offsets = &c_offsets;
  call.alphas = &alphas, call.betas = &betas;
  return run_gemm_batched<T>(nullptr, queue, call, wait);
}

}  // namespace detail

template <typename T>
detail::BatchedEvent<T> gemm_strided_batched(cl::CommandQueue& queue, Layout layout, Transpose trans_a,
                                             Transpose trans_b, std::size_t m, std::size_t n, std::size_t k, T alpha,
                                             const cl::Buffer& a, std::size_t a_offset, std::size_t lda,
                                             std::size_t stride_a, const cl::Buffer& b, std::size_t b_offset,
                                             std::size_t ldb, std::size_t stride_b, T beta, cl::Buffer& c,
                                             std::size_t c_offset, std::size_t ldc, std::size_t stride_c,
                                             std::size_t batch_count, const std::vector<cl::Event>* wait) {
  return detail::strided_batched<T>(queue, layout, trans_a, trans_b, m, n, k, alpha, a, a_offset, lda, stride_a, b,
                                    b_offset, ldb, stride_b, beta, c, c_offset, ldc, stride_c, batch_count, wait);
}

template <typename T>
detail::HalfEvent<T> gemm_strided_batched(cl::CommandQueue& queue, Layout layout, Transpose trans_a, Transpose trans_b,
                                          std::size_t m, std::size_t n, std::size_t k, float alpha, const cl::Buffer& a,
                                          std::size_t a_offset, std::size_t lda, std::size_t stride_a,
                                          const cl::Buffer& b, std::size_t b_offset, std::size_t ldb,
                                          std::size_t stride_b, float beta, cl::Buffer& c, std::size_t c_offset,
                                          std::size_t ldc, std::size_t stride_c, std::size_t batch_count,
                                          const std::vector<cl::Event>* wait) {
  return detail::strided_batched<T>(queue, layout, trans_a, trans_b, m, n, k, alpha, a, a_offset, lda, stride_a, b,
                                    b_offset, ldb, stride_b, beta, c, c_offset, ldc, stride_c, batch_count, wait);
}

template <typename T>
detail::BatchedEvent<T> gemm_batched(cl::CommandQueue& queue, Layout layout, Transpose trans_a, Transpose trans_b,
                                     std::size_t m, std::size_t n, std::size_t k, const std::vector<T>& alphas,
                                     const cl::Buffer& a, const std::vector<std::size_t>& a_offsets, std::size_t lda,
                                     const cl::Buffer& b, const std::vector<std::size_t>& b_offsets, std::size_t ldb,
                                     const std::vector<T>& betas, cl::Buffer& c,
                                     const std::vector<std::size_t>& c_offsets, std::size_t ldc,
                                     const std::vector<cl::Event>* wait) {
  return detail::offsets_batched<T>(queue, layout, trans_a, trans_b, m, n, k, alphas, a, a_offsets, lda, b, b_offsets,
                                    ldb, betas, c, c_offsets, ldc, wait);
}

template <typename T>
detail::HalfEvent<T> gemm_batched(cl::CommandQueue& queue, Layout layout, Transpose trans_a, Transpose trans_b,
                                  std::size_t m, std::size_t n, std::size_t k, const std::vector<float>& alphas,
                                  const cl::Buffer& a, const std::vector<std::size_t>& a_offsets, std::size_t lda,
                                  const cl::Buffer& b, const std::vector<std::size_t>& b_offsets, std::size_t ldb,
                                  const std::vector<float>& betas, cl::Buffer& c,
                                  const std::vector<std::size_t>& c_offsets, std::size_t ldc,
                                  const std::vector<cl::Event>* wait) {
  return detail::offsets_batched<T>(queue, layout, trans_a, trans_b, m, n, k, alphas, a, a_offsets, lda, b, b_offsets,
                                    ldb, betas, c, c_offsets, ldc, wait);
}

#define TILECL_GEMM_BATCHED_INSTANTIATE(T)                                                                             \
  template cl::Event gemm_strided_batched<T>(                                                                          \
      cl::CommandQueue&, Layout, Transpose, Transpose, std::size_t, std::size_t, std::size_t, T, const cl::Buffer&,    \
      std::size_t, std::size_t, std::size_t, const cl::Buffer&, std::size_t, std::size_t, std::size_t, T, cl::Buffer&, \
      std::size_t, std::size_t, std::size_t, std::size_t, const std::vector<cl::Event>*);                              \
  template cl::Event gemm_batched<T>(cl::CommandQueue&, Layout, Transpose, Transpose, std::size_t, std::size_t,        \
                                     std::size_t, const std::vector<T>&, const cl::Buffer&,                            \
                                     const std::vector<std::size_t>&, std::size_t, const cl::Buffer&,                  \
                                     const std::vector<std::size_t>&, std::size_t, const std::vector<T>&, cl::Buffer&, \
                                     const std::vector<std::size_t>&, std::size_t, const std::vector<cl::Event>*);
TILECL_GEMM_BATCHED_INSTANTIATE(float)
TILECL_GEMM_BATCHED_INSTANTIATE(double)
#undef TILECL_GEMM_BATCHED_INSTANTIATE

template cl::Event gemm_strided_batched<half>(cl::CommandQueue&, Layout, Transpose, Transpose, std::size_t, std::size_t,
                                              std::size_t, float, const cl::Buffer&, std::size_t, std::size_t,
                                              std::size_t, const cl::Buffer&, std::size_t, std::size_t, std::size_t,
                                              float, cl::Buffer&, std::size_t, std::size_t, std::size_t, std::size_t,
                                              const std::vector<cl::Event>*);
template cl::Event gemm_batched<half>(cl::CommandQueue&, Layout, Transpose, Transpose, std::size_t, std::size_t,
                                      std::size_t, const std::vector<float>&, const cl::Buffer&,
                                      const std::vector<std::size_t>&, std::size_t, const cl::Buffer&,
                                      const std::vector<std::size_t>&, std::size_t, const std::vector<float>&,
                                      cl::Buffer&, const std::vector<std::size_t>&, std::size_t,
                                      const std::vector<cl::Event>*);

}  // namespace tilecl
