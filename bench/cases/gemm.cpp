// GEMM: tilecl's gemm (public API) and its naive kernel beside CLBlast's SGEMM / DGEMM (same layout and
// arguments), against the FMA limit. Every row is timed between two bracket kernels on the device
// (cases/bracket.hpp): tilecl may enqueue several kernels (packing, split-K reduction) and CLBlast runs padding
// and transposing kernels before the one whose event it returns, so neither's last event alone is the call.
#include <CL/opencl.hpp>

#ifdef TILECL_HAVE_CLBLAST
#include <clblast_c.h>
#endif

#include <type_traits>

#include "cases/bracket.hpp"
#include "cases/cases.hpp"
#include "ops/gemm.hpp"
#include "tilecl/gemm.hpp"
#include "tilecl/tuning.hpp"

namespace tilecl::bench {
namespace {

struct Shape {
  std::size_t m, n, k;
  Transpose trans_a = Transpose::No, trans_b = Transpose::No;

  std::string text() const {
    std::string name = std::to_string(m) + "x" + std::to_string(n) + "x" + std::to_string(k);
    if (trans_a == Transpose::Yes || trans_b == Transpose::Yes)
      name += std::string(":") + (trans_a == Transpose::Yes ? "T" : "N") + (trans_b == Transpose::Yes ? "T" : "N");
    return name;
  }
  // Row-major leading dimensions of the stored matrices (minimal).
  std::size_t lda() const { return trans_a == Transpose::Yes ? m : k; }
  std::size_t ldb() const { return trans_b == Transpose::Yes ? k : n; }
};

// Rotated copies of A, B and C (so repeated runs of memory-bound shapes do not measure the cache), filled with
// a random block repeated: the values do not change the timing, and filling GiBs one random number at a time
// would take longer than the benchmark.
template <typename T>
struct Operands {
  std::vector<cl::Buffer> a, b, c;
};

template <typename T>
Operands<T> make_operands(BenchContext& context, const Shape& shape) {
  const std::size_t counts[3] = {shape.m * shape.k, shape.k * shape.n, shape.m * shape.n};
  const std::size_t sets = context.rotation_sets((counts[0] + counts[1] + counts[2]) * sizeof(T));
  std::uniform_real_distribution<double> distribution(-1.0, 1.0);
  std::vector<T> block(65537);
  for (auto& value : block) value = static_cast<T>(distribution(context.random));
  Operands<T> operands;
  std::vector<T> values;
  for (std::size_t s = 0; s < sets; ++s) {
    std::vector<cl::Buffer>* lists[3] = {&operands.a, &operands.b, &operands.c};
    for (int i = 0; i < 3; ++i) {
      values.resize(counts[i]);
      for (std::size_t j = 0; j < counts[i]; ++j) values[j] = block[(j + s * 7919 + i * 104729) % block.size()];
      lists[i]->emplace_back(context.context, CL_MEM_READ_WRITE, counts[i] * sizeof(T));
      context.queue.enqueueWriteBuffer(lists[i]->back(), CL_TRUE, 0, counts[i] * sizeof(T), values.data());
    }
  }
  return operands;
}

template <typename T>
Row base_row(const Shape& shape) {
  Row row;
  row.family = "gemm";
  row.op = "gemm";
  row.shape = shape.text();
  row.dtype = std::is_same_v<T, float> ? "float" : "double";
  row.work = 2.0 * static_cast<double>(shape.m) * static_cast<double>(shape.n) * static_cast<double>(shape.k);
  row.unit = Unit::FlopsPerSecond;
  return row;
}

template <typename T>
void bench_shape(BenchContext& context, const Shape& shape, bool with_naive) {
  if (std::is_same_v<T, double> && !context.info->fp64) return;
  Operands<T> v = make_operands<T>(context, shape);
  const std::size_t sets = v.a.size();
  const T alpha = T(1), beta = T(0.5);
  auto& queue = context.queue;

  Row ours = base_row<T>(shape);
  ours.implementation = "tilecl";
  const auto choice = tuning::parameters_for(queue, "gemm", ours.dtype, shape.text());
  ours.parameters =
      choice.parameters.to_string() + " (" + tuning::origin_name(choice.origin) + ", " + choice.bucket + ")";
  ours.timing = time_bracketed(context, [&](int i) {
    gemm<T>(queue, Layout::RowMajor, shape.trans_a, shape.trans_b, shape.m, shape.n, shape.k, alpha, v.a[i % sets], 0,
            shape.lda(), v.b[i % sets], 0, shape.ldb(), beta, v.c[i % sets], 0, shape.n);
  });
  context.add(ours);

  if (with_naive) {
    Row naive = base_row<T>(shape);
    naive.implementation = "tilecl naive";
    naive.kind = Row::Kind::OursBaseline;
    const detail::Config naive_config{"naive", {{"WG_X", 16}, {"WG_Y", context.info->is_gpu() ? 16 : 4}}};
    naive.parameters = naive_config.to_string();
    naive.timing = time_bracketed(context, [&](int i) {
      detail::gemm_with<T>(naive_config, queue, Layout::RowMajor, shape.trans_a, shape.trans_b, shape.m, shape.n,
                           shape.k, alpha, v.a[i % sets], 0, shape.lda(), v.b[i % sets], 0, shape.ldb(), beta,
                           v.c[i % sets], 0, shape.n);
    });
    context.add(naive);
  }

#ifdef TILECL_HAVE_CLBLAST
  Row clblast = base_row<T>(shape);
  clblast.implementation = std::is_same_v<T, float> ? "CLBlast SGEMM" : "CLBlast DGEMM";
  clblast.kind = Row::Kind::Peer;
  const auto trans = [](Transpose t) { return t == Transpose::Yes ? CLBlastTransposeYes : CLBlastTransposeNo; };
  try {
    clblast.timing = time_bracketed(context, [&](int i) {
      cl_command_queue raw = queue();
      cl_event event = nullptr;
      CLBlastStatusCode status;
      if constexpr (std::is_same_v<T, float>)
        status = CLBlastSgemm(CLBlastLayoutRowMajor, trans(shape.trans_a), trans(shape.trans_b), shape.m, shape.n,
                              shape.k, alpha, v.a[i % sets](), 0, shape.lda(), v.b[i % sets](), 0, shape.ldb(), beta,
                              v.c[i % sets](), 0, shape.n, &raw, &event);
      else
        status = CLBlastDgemm(CLBlastLayoutRowMajor, trans(shape.trans_a), trans(shape.trans_b), shape.m, shape.n,
                              shape.k, alpha, v.a[i % sets](), 0, shape.lda(), v.b[i % sets](), 0, shape.ldb(), beta,
                              v.c[i % sets](), 0, shape.n, &raw, &event);
      if (status != CLBlastSuccess) throw std::runtime_error("CLBlast gemm failed: status " + std::to_string(status));
      if (event != nullptr) clReleaseEvent(event);
    });
  } catch (const std::exception& error) {
    clblast.failed = true;
    clblast.note = error.what();
  }
  context.add(clblast);
#endif
}

}  // namespace

FamilyBenchmark gemm_benchmark() {
  return {"gemm", [](BenchContext& context) {
            if (context.quick) {
              bench_shape<float>(context, {512, 512, 512}, true);
              return;
            }
            if (context.info->is_gpu()) {
              for (const Shape& shape : std::vector<Shape>{{4096, 4096, 4096},
                                                           {8192, 8192, 8192},
                                                           {1000, 1000, 1000},
                                                           {4097, 4097, 4097},
                                                           {127, 127, 127},
                                                           {8192, 8192, 64},
                                                           {8192, 64, 8192},
                                                           {64, 8192, 8192},
                                                           {1, 4096, 4096},
                                                           {4096, 1, 4096},
                                                           {16, 4096, 4096}})
                bench_shape<float>(context, shape, true);
              for (const Shape& shape : std::vector<Shape>{{4096, 4096, 4096}, {1000, 1000, 1000}, {4097, 4097, 4097}})
                bench_shape<double>(context, shape, true);
            } else {
              // The naive kernel runs at a few GFLOP/s on a CPU: up to 1024^3 (under a second a run).
              for (const Shape& shape : std::vector<Shape>{{1024, 1024, 1024},
                                                           {1000, 1000, 1000},
                                                           {127, 127, 127},
                                                           {1, 4096, 4096},
                                                           {4096, 1, 4096},
                                                           {64, 4096, 4096}})
                bench_shape<float>(context, shape, shape.m * shape.n * shape.k <= (std::size_t{1} << 30));
              bench_shape<double>(context, {1024, 1024, 1024}, false);
            }
          }};
}

std::vector<FirstCallOp> gemm_first_calls() {
  auto run = [](cl::CommandQueue& queue, bool clblast) {
    const std::size_t n = 512;
    cl::Context context = queue.getInfo<CL_QUEUE_CONTEXT>();
    std::vector<float> values(n * n, 0.5f);
    cl::Buffer a(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, n * n * sizeof(float), values.data());
    cl::Buffer b(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, n * n * sizeof(float), values.data());
    cl::Buffer c(context, CL_MEM_READ_WRITE, n * n * sizeof(float));
    if (!clblast) {
      gemm<float>(queue, Layout::RowMajor, Transpose::No, Transpose::No, n, n, n, 1.0f, a, 0, n, b, 0, n, 0.0f, c, 0, n)
          .wait();
      return;
    }
#ifdef TILECL_HAVE_CLBLAST
    cl_command_queue raw = queue();
    cl_event event = nullptr;
    if (CLBlastSgemm(CLBlastLayoutRowMajor, CLBlastTransposeNo, CLBlastTransposeNo, n, n, n, 1.0f, a(), 0, n, b(), 0, n,
                     0.0f, c(), 0, n, &raw, &event) != CLBlastSuccess)
      throw std::runtime_error("CLBlastSgemm failed");
    clWaitForEvents(1, &event);
    clReleaseEvent(event);
#endif
  };
  std::vector<FirstCallOp> ops{{"gemm", true, [run](cl::CommandQueue& q) { run(q, false); }}};
#ifdef TILECL_HAVE_CLBLAST
  ops.push_back({"clblast-sgemm", false, [run](cl::CommandQueue& q) { run(q, true); }});
#endif
  return ops;
}

}  // namespace tilecl::bench
