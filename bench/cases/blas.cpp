// BLAS breadth: gemv in both orientations beside CLBlast's Xgemv and a copy of the same bytes; gemm calls with
// m of 1 to 8 run as gemv with several vectors (the entry point gemm's dispatch can use) beside CLBlast's Xgemm;
// strided-batched and offset-batched gemm beside CLBlast's XgemmStridedBatched and XgemmBatched. Every row is
// timed between bracket kernels (cases/bracket.hpp): tilecl and CLBlast may each enqueue several commands.
#include <CL/opencl.hpp>

#ifdef TILECL_HAVE_CLBLAST
#include <clblast.h>
#endif

#include <type_traits>

#include "cases/bracket.hpp"
#include "cases/cases.hpp"
#include "checks.hpp"
#include "dtype.hpp"
#include "ops/gemv.hpp"
#include "tilecl/gemm_batched.hpp"
#include "tilecl/gemv.hpp"
#include "tilecl/tuning.hpp"

namespace tilecl::bench {
namespace {

template <typename T>
const char* blas_prefix() {
  return std::is_same_v<T, float> ? "S" : "D";
}

// `sets` buffers of `count` elements: a random block repeated (the values do not change the timing).
template <typename T>
std::vector<cl::Buffer> filled_buffers(BenchContext& context, std::size_t count, std::size_t sets) {
  std::uniform_real_distribution<double> distribution(-1.0, 1.0);
  std::vector<T> block(65537), values(count);
  for (auto& value : block) value = static_cast<T>(distribution(context.random));
  std::vector<cl::Buffer> buffers;
  for (std::size_t s = 0; s < sets; ++s) {
    for (std::size_t j = 0; j < count; ++j) values[j] = block[(j + s * 7919) % block.size()];
    buffers.emplace_back(context.context, CL_MEM_READ_WRITE, std::max<std::size_t>(1, count) * sizeof(T));
    context.queue.enqueueWriteBuffer(buffers.back(), CL_TRUE, 0, count * sizeof(T), values.data());
  }
  return buffers;
}

Row base_row(const std::string& op, const std::string& shape, const char* dtype, double work, Unit unit) {
  Row row;
  row.family = "blas";
  row.op = op;
  row.shape = shape;
  row.dtype = dtype;
  row.work = work;
  row.unit = unit;
  return row;
}

// Times `run` between brackets into `row`, or records why it failed (a peer that refuses a shape).
void add_timed(BenchContext& context, Row row, const std::function<void(int)>& run) {
  try {
    row.timing = time_bracketed(context, run);
  } catch (const std::exception& error) {
    row.failed = true;
    row.note = error.what();
  }
  context.add(std::move(row));
}

#ifdef TILECL_HAVE_CLBLAST
clblast::Transpose peer_transpose(Transpose t) {
  return t == Transpose::Yes ? clblast::Transpose::kYes : clblast::Transpose::kNo;
}
void check_peer(clblast::StatusCode status, cl_event event) {
  if (event != nullptr) clReleaseEvent(event);
  if (status != clblast::StatusCode::kSuccess)
    throw std::runtime_error("CLBlast failed: status " + std::to_string(static_cast<int>(status)));
}
#endif

// y = A x + 0.5 y with A m x n row-major, not transposed (dots) or transposed (columns). Half: 16-bit storage
// computed in float (rates count 2-byte elements), no peer row.
template <typename T>
void bench_gemv(BenchContext& context, std::size_t m, std::size_t n, Transpose trans) {
  if (std::is_same_v<T, double> && !context.info->fp64) return;
  const std::size_t x_length = trans == Transpose::No ? n : m, y_length = trans == Transpose::No ? m : n;
  const std::size_t sets = context.rotation_sets(m * n * sizeof(T));
  const auto a = filled_buffers<T>(context, m * n, sets);
  const auto x = filled_buffers<T>(context, x_length, sets);
  auto y = filled_buffers<T>(context, y_length, sets);
  const std::string shape = std::to_string(m) + "x" + std::to_string(n) + (trans == Transpose::No ? ":N" : ":T");
  const double bytes = static_cast<double>((m * n + x_length + 2 * y_length) * sizeof(T));
  auto& queue = context.queue;

  Row ours = base_row("gemv", shape, detail::dtype_of<T>().name, bytes, Unit::BytesPerSecond);
  ours.implementation = "tilecl";
  const auto choice = tuning::parameters_for(queue, "gemv", ours.dtype, shape);
  ours.parameters =
      choice.parameters.to_string() + " (" + tuning::origin_name(choice.origin) + ", " + choice.bucket + ")";
  using Scalar = detail::ComputeType<T>;
  add_timed(context, ours, [&](int i) {
    gemv<T>(queue, Layout::RowMajor, trans, m, n, Scalar(1), a[i % sets], 0, n, x[i % sets], 0, 1, Scalar(0.5),
            y[i % sets], 0, 1);
  });

#ifdef TILECL_HAVE_CLBLAST
  if constexpr (!std::is_same_v<T, half>) {
    Row peer = base_row("gemv", shape, detail::dtype_of<T>().name, bytes, Unit::BytesPerSecond);
    peer.implementation = std::string("CLBlast ") + blas_prefix<T>() + "gemv";
    peer.kind = Row::Kind::Peer;
    add_timed(context, peer, [&](int i) {
      cl_command_queue raw = queue();
      cl_event event = nullptr;
      check_peer(clblast::Gemv<T>(clblast::Layout::kRowMajor, peer_transpose(trans), m, n, T(1), a[i % sets](), 0, n,
                                  x[i % sets](), 0, 1, T(0.5), y[i % sets](), 0, 1, &raw, &event),
                 event);
    });
  }
#endif

  // The same traffic as one plain copy: reading and writing half the matrix's bytes.
  Row copy = base_row("gemv", shape, detail::dtype_of<T>().name, bytes, Unit::BytesPerSecond);
  copy.implementation = "copy of the same bytes";
  copy.kind = Row::Kind::Limit;
  const std::size_t copy_bytes = static_cast<std::size_t>(bytes) / 2 / 64 * 64;
  copy.parameters = "clEnqueueCopyBuffer of " + std::to_string(copy_bytes) + " bytes";
  cl::Buffer copy_target(context.context, CL_MEM_READ_WRITE, copy_bytes);
  add_timed(context, copy, [&](int i) { queue.enqueueCopyBuffer(a[i % sets], copy_target, 0, 0, copy_bytes); });
}

// C (m x n) = A (m x k) B (k x n) + 0.5 C with m of 1 to 8: through detail::enqueue_gemv (several vectors at
// once) and CLBlast's Xgemm.
template <typename T>
void bench_gemm_as_gemv(BenchContext& context, std::size_t m, std::size_t n, std::size_t k) {
  const std::size_t sets = context.rotation_sets(k * n * sizeof(T));
  const auto a = filled_buffers<T>(context, m * k, sets), b = filled_buffers<T>(context, k * n, sets);
  auto c = filled_buffers<T>(context, m * n, sets);
  const std::string shape = std::to_string(m) + "x" + std::to_string(n) + "x" + std::to_string(k);
  const double bytes = static_cast<double>((m * k + k * n + 2 * m * n) * sizeof(T));
  auto& queue = context.queue;
  const auto target = detail::queue_target("gemv", queue);

  Row ours = base_row("gemm m<=8 as gemv", shape, detail::dtype_of<T>().name, bytes, Unit::BytesPerSecond);
  ours.implementation = "tilecl";
  ours.parameters = "detail::enqueue_gemv, " + std::to_string(m) + " vectors";
  add_timed(context, ours, [&](int i) {
    const auto problem = detail::gemv_problem_of_gemm(Layout::RowMajor, Transpose::No, Transpose::No, m, n, k,
                                                      a[i % sets], 0, k, b[i % sets], 0, n, c[i % sets], 0, n);
    detail::enqueue_gemv<T>(target, queue, *problem, T(1), T(0.5), nullptr);
  });
#ifdef TILECL_HAVE_CLBLAST
  Row peer = base_row("gemm m<=8 as gemv", shape, detail::dtype_of<T>().name, bytes, Unit::BytesPerSecond);
  peer.implementation = std::string("CLBlast ") + blas_prefix<T>() + "gemm";
  peer.kind = Row::Kind::Peer;
  add_timed(context, peer, [&](int i) {
    cl_command_queue raw = queue();
    cl_event event = nullptr;
    check_peer(
        clblast::Gemm<T>(clblast::Layout::kRowMajor, clblast::Transpose::kNo, clblast::Transpose::kNo, m, n, k, T(1),
                         a[i % sets](), 0, k, b[i % sets](), 0, n, T(0.5), c[i % sets](), 0, n, &raw, &event),
        event);
  });
#endif
}

struct BatchShape {
  std::size_t batch, m, n, k;
  std::string text() const {
    return std::to_string(batch) + "x" + std::to_string(m) + "x" + std::to_string(n) + "x" + std::to_string(k);
  }
};

// The operands of a batch: matrices packed one after the other (sa, sb, sc elements each), in `sets` rotating
// copies, their offsets, and every alpha 1 and beta 0.5 (float for half).
template <typename T>
struct BatchOperands {
  using Scalar = detail::ComputeType<T>;
  std::size_t sa, sb, sc, sets;
  std::vector<cl::Buffer> a, b, c;
  std::vector<std::size_t> a_offsets, b_offsets, c_offsets;
  std::vector<Scalar> alphas, betas;
  double flops;

  BatchOperands(BenchContext& context, const BatchShape& s)
      : sa(s.m * s.k),
        sb(s.k * s.n),
        sc(s.m * s.n),
        sets(context.rotation_sets(s.batch * (sa + sb + sc) * sizeof(T))),
        a(filled_buffers<T>(context, s.batch * sa, sets)),
        b(filled_buffers<T>(context, s.batch * sb, sets)),
        c(filled_buffers<T>(context, s.batch * sc, sets)),
        alphas(s.batch, Scalar(1)),
        betas(s.batch, Scalar(0.5)),
        flops(2.0 * static_cast<double>(s.batch * s.m * s.n * s.k)) {
    for (std::size_t i = 0; i < s.batch; ++i)
      a_offsets.push_back(i * sa), b_offsets.push_back(i * sb), c_offsets.push_back(i * sc);
  }
};

#ifdef TILECL_HAVE_CLBLAST
// CLBlast's GemmStridedBatched and GemmBatched on the operands of bench_batched.
template <typename T>
void bench_batched_peers(BenchContext& context, const BatchShape& s, BatchOperands<T>& o) {
  const std::size_t sa = o.sa, sb = o.sb, sc = o.sc, sets = o.sets;
  const double flops = o.flops;
  const auto &a = o.a, &b = o.b;
  auto& c = o.c;
  const auto &a_offsets = o.a_offsets, &b_offsets = o.b_offsets, &c_offsets = o.c_offsets;
  const auto &alphas = o.alphas, &betas = o.betas;
  auto& queue = context.queue;
  Row peer = base_row("gemm_strided_batched", s.text(), detail::dtype_of<T>().name, flops, Unit::FlopsPerSecond);
  peer.implementation = std::string("CLBlast ") + blas_prefix<T>() + "gemmStridedBatched";
  peer.kind = Row::Kind::Peer;
  add_timed(context, peer, [&](int i) {
    cl_command_queue raw = queue();
    cl_event event = nullptr;
    check_peer(
        clblast::GemmStridedBatched<T>(clblast::Layout::kRowMajor, clblast::Transpose::kNo, clblast::Transpose::kNo,
                                       s.m, s.n, s.k, T(1), a[i % sets](), 0, s.k, sa, b[i % sets](), 0, s.n, sb,
                                       T(0.5), c[i % sets](), 0, s.n, sc, s.batch, &raw, &event),
        event);
  });
  Row listed_peer = base_row("gemm_batched", s.text(), detail::dtype_of<T>().name, flops, Unit::FlopsPerSecond);
  listed_peer.implementation = std::string("CLBlast ") + blas_prefix<T>() + "gemmBatched";
  listed_peer.kind = Row::Kind::Peer;
  add_timed(context, listed_peer, [&](int i) {
    cl_command_queue raw = queue();
    cl_event event = nullptr;
    check_peer(clblast::GemmBatched<T>(clblast::Layout::kRowMajor, clblast::Transpose::kNo, clblast::Transpose::kNo,
                                       s.m, s.n, s.k, alphas.data(), a[i % sets](), a_offsets.data(), s.k,
                                       b[i % sets](), b_offsets.data(), s.n, betas.data(), c[i % sets](),
                                       c_offsets.data(), s.n, s.batch, &raw, &event),
               event);
  });
}
#endif

// Row-major NN batches, matrices packed one after the other: strided (gemm_strided_batched) and as listed
// offsets (gemm_batched, every alpha 1 and beta 0.5), each beside CLBlast's (float and double: no peer for half).
template <typename T>
void bench_batched(BenchContext& context, const BatchShape& s) {
  if (std::is_same_v<T, double> && !context.info->fp64) return;
  BatchOperands<T> o(context, s);
  using Scalar = typename BatchOperands<T>::Scalar;
  const std::size_t sa = o.sa, sb = o.sb, sc = o.sc, sets = o.sets;
  const double flops = o.flops;
  const auto &a = o.a, &b = o.b;
  auto& c = o.c;
  auto& queue = context.queue;

  Row strided = base_row("gemm_strided_batched", s.text(), detail::dtype_of<T>().name, flops, Unit::FlopsPerSecond);
  strided.implementation = "tilecl";
  const auto choice = tuning::parameters_for(queue, "gemm_strided_batched", strided.dtype, s.text());
  strided.parameters =
      choice.parameters.to_string() + " (" + tuning::origin_name(choice.origin) + ", " + choice.bucket + ")";
  add_timed(context, strided, [&](int i) {
    gemm_strided_batched<T>(queue, Layout::RowMajor, Transpose::No, Transpose::No, s.m, s.n, s.k, Scalar(1),
                            a[i % sets], 0, s.k, sa, b[i % sets], 0, s.n, sb, Scalar(0.5), c[i % sets], 0, s.n, sc,
                            s.batch);
  });
  Row listed = base_row("gemm_batched", s.text(), detail::dtype_of<T>().name, flops, Unit::FlopsPerSecond);
  listed.implementation = "tilecl";
  const auto listed_choice = tuning::parameters_for(queue, "gemm_batched", listed.dtype, s.text());
  listed.parameters = listed_choice.parameters.to_string() + " (" + tuning::origin_name(listed_choice.origin) + ", " +
                      listed_choice.bucket + ")";
  add_timed(context, listed, [&](int i) {
    gemm_batched<T>(queue, Layout::RowMajor, Transpose::No, Transpose::No, s.m, s.n, s.k, o.alphas, a[i % sets],
                    o.a_offsets, s.k, b[i % sets], o.b_offsets, s.n, o.betas, c[i % sets], o.c_offsets, s.n);
  });

#ifdef TILECL_HAVE_CLBLAST
  if constexpr (!std::is_same_v<T, half>) bench_batched_peers<T>(context, s, o);
#endif
}

void run_gpu(BenchContext& context) {
  for (const BatchShape& shape : std::vector<BatchShape>{
           {4096, 32, 32, 32}, {1024, 64, 64, 64}, {256, 128, 128, 128}, {3000, 20, 30, 40}, {16384, 8, 8, 8}})
    bench_batched<float>(context, shape);
  bench_batched<double>(context, {1024, 32, 32, 32});
  bench_batched<half>(context, {4096, 32, 32, 32});
  for (std::size_t side : {16384, 8192})
    for (Transpose trans : {Transpose::No, Transpose::Yes}) bench_gemv<float>(context, side, side, trans);
  for (Transpose trans : {Transpose::No, Transpose::Yes}) bench_gemv<double>(context, 8192, 8192, trans);
  for (Transpose trans : {Transpose::No, Transpose::Yes}) bench_gemv<half>(context, 16384, 16384, trans);
  for (std::size_t m : {1, 4, 8}) bench_gemm_as_gemv<float>(context, m, 8192, 8192);
}

void run_cpu(BenchContext& context) {
  for (const BatchShape& shape : std::vector<BatchShape>{
           {1024, 32, 32, 32}, {256, 64, 64, 64}, {64, 128, 128, 128}, {1000, 20, 30, 40}, {4096, 8, 8, 8}})
    bench_batched<float>(context, shape);
  bench_batched<double>(context, {256, 32, 32, 32});
  bench_batched<half>(context, {1024, 32, 32, 32});
  for (Transpose trans : {Transpose::No, Transpose::Yes}) bench_gemv<float>(context, 4096, 4096, trans);
  for (Transpose trans : {Transpose::No, Transpose::Yes}) bench_gemv<double>(context, 2048, 2048, trans);
  for (Transpose trans : {Transpose::No, Transpose::Yes}) bench_gemv<half>(context, 4096, 4096, trans);
  for (std::size_t m : {1, 4}) bench_gemm_as_gemv<float>(context, m, 2048, 2048);
}

}  // namespace

FamilyBenchmark blas_benchmark() {
  return {"blas", [](BenchContext& context) {
            if (context.quick) {
              bench_batched<float>(context, {256, 16, 16, 16});
              bench_gemv<float>(context, 512, 512, Transpose::Yes);
              return;
            }
            if (context.info->is_gpu())
              run_gpu(context);
            else
              run_cpu(context);
          }};
}

std::vector<FirstCallOp> blas_first_calls() {
  auto run = [](cl::CommandQueue& queue) {
    const std::size_t n = 32, batch = 64;
    cl::Context context = queue.getInfo<CL_QUEUE_CONTEXT>();
    std::vector<float> values(batch * n * n, 0.5f);
    cl::Buffer a(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, values.size() * sizeof(float), values.data());
    cl::Buffer c(context, CL_MEM_READ_WRITE, values.size() * sizeof(float));
    gemm_strided_batched<float>(queue, Layout::RowMajor, Transpose::No, Transpose::No, n, n, n, 1.0f, a, 0, n, n * n, a,
                                0, n, n * n, 0.0f, c, 0, n, n * n, batch)
        .wait();
  };
  return {{"gemm_strided_batched", true, run}};
}

}  // namespace tilecl::bench
