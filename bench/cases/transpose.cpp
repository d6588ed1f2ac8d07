// Transpose beside CLBlast's omatcopy, against the copy limit (rates count bytes read + written).
#include <CL/opencl.hpp>

#ifdef TILECL_HAVE_CLBLAST
#include <clblast_c.h>
#endif

#include <cstdint>
#include <stdexcept>

#include "cases/bracket.hpp"
#include "cases/cases.hpp"
#include "ops/transpose.hpp"
#include "tilecl/transpose.hpp"
#include "tilecl/tuning.hpp"

namespace tilecl::bench {
namespace {

template <typename T>
const char* dtype_name() {
  if constexpr (std::is_same_v<T, float>) return "float";
  if constexpr (std::is_same_v<T, double>) return "double";
  if constexpr (std::is_same_v<T, std::int32_t>) return "int32";
  if constexpr (std::is_same_v<T, half>) return "half";
  return "uint8";
}

struct Matrices {
  std::vector<cl::Buffer> in, out;  // rotated sets
};

// Inputs hold a cheap non-constant pattern (the kernels move bits; the values do not matter to the time).
template <typename T>
Matrices make_matrices(BenchContext& context, std::size_t rows, std::size_t cols) {
  const std::size_t bytes = rows * cols * sizeof(T);
  const std::size_t sets = context.rotation_sets(2 * bytes);
  std::vector<T> values(rows * cols);
  for (std::size_t i = 0; i < values.size(); ++i) {
    if constexpr (std::is_same_v<T, half>)
      values[i] = half::from_bits(static_cast<std::uint16_t>((i * 2654435761u) >> 7));
    else
      values[i] = static_cast<T>((i * 2654435761u) >> 7);
  }
  Matrices matrices;
  for (std::size_t s = 0; s < sets; ++s) {
    matrices.in.emplace_back(context.context, CL_MEM_READ_WRITE, bytes);
    matrices.out.emplace_back(context.context, CL_MEM_READ_WRITE, bytes);
    context.queue.enqueueWriteBuffer(matrices.in.back(), CL_TRUE, 0, bytes, values.data());
    // Written once, so no timed run pays for the first touch of its pages (PoCL maps memory lazily).
    context.queue.enqueueWriteBuffer(matrices.out.back(), CL_TRUE, 0, bytes, values.data());
  }
  return matrices;
}

template <typename T>
Row base_row(std::size_t rows, std::size_t cols) {
  Row row;
  row.family = "transpose";
  row.op = "transpose";
  row.shape = std::to_string(rows) + "x" + std::to_string(cols);
  row.dtype = dtype_name<T>();
  row.work = 2.0 * static_cast<double>(rows) * static_cast<double>(cols) * sizeof(T);
  row.unit = Unit::BytesPerSecond;
  return row;
}

template <typename T>
void bench_shape(BenchContext& context, std::size_t rows, std::size_t cols, bool with_naive) {
  Matrices m = make_matrices<T>(context, rows, cols);
  const std::size_t sets = m.in.size();

  Row ours = base_row<T>(rows, cols);
  ours.implementation = "tilecl";
  const auto choice = tuning::parameters_for(context.queue, "transpose", dtype_name<T>(),
                                             std::to_string(rows) + "x" + std::to_string(cols));
  ours.parameters = choice.parameters.to_string() + " (" + tuning::origin_name(choice.origin) + ")";
  ours.timing = time_bracketed(context, [&](int i) {
    transpose<T>(context.queue, rows, cols, m.in[i % sets], 0, cols, m.out[i % sets], 0, rows);
  });
  context.add(ours);

  if (with_naive) {
    Row naive = base_row<T>(rows, cols);
    naive.implementation = "tilecl naive";
    naive.kind = Row::Kind::OursBaseline;
    const detail::Config config{"naive", {{"WG_X", context.info->is_gpu() ? 32 : 8}, {"WG_Y", 8}}};
    naive.parameters = config.to_string();
    naive.timing = time_bracketed(context, [&](int i) {
      detail::transpose_with<T>(config, context.queue, rows, cols, m.in[i % sets], 0, cols, m.out[i % sets], 0, rows);
    });
    context.add(naive);
  }

#ifdef TILECL_HAVE_CLBLAST
  if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
    Row clblast = base_row<T>(rows, cols);
    clblast.implementation = "CLBlast";
    clblast.kind = Row::Kind::Peer;
    clblast.note = std::is_same_v<T, float> ? "CLBlastSomatcopy" : "CLBlastDomatcopy";
    clblast.timing = time_bracketed(context, [&](int i) {
      cl_command_queue queue = context.queue();
      cl_event event = nullptr;
      const auto status = std::is_same_v<T, float>
                              ? CLBlastSomatcopy(CLBlastLayoutRowMajor, CLBlastTransposeYes, rows, cols, 1.0f,
                                                 m.in[i % sets](), 0, cols, m.out[i % sets](), 0, rows, &queue, &event)
                              : CLBlastDomatcopy(CLBlastLayoutRowMajor, CLBlastTransposeYes, rows, cols, 1.0,
                                                 m.in[i % sets](), 0, cols, m.out[i % sets](), 0, rows, &queue, &event);
      if (status != CLBlastSuccess) throw std::runtime_error("CLBlast omatcopy failed: " + std::to_string(status));
      if (event != nullptr) clReleaseEvent(event);
    });
    context.add(clblast);
  }
#endif
}

}  // namespace

FamilyBenchmark transpose_benchmark() {
  return {"transpose", [](BenchContext& context) {
            using Shape = std::pair<std::size_t, std::size_t>;
            std::vector<Shape> shapes;
            if (context.quick)
              shapes = {{1024, 1024}};
            else if (context.info->is_gpu())
              shapes = {{16384, 16384}, {8192, 8192}, {8191, 8193}};
            else
              shapes = {{2048, 2048}, {2047, 2049}};
            for (const auto& [rows, cols] : shapes) bench_shape<float>(context, rows, cols, true);
            // The other element types at the first shape: bytes (16-byte accesses need 16 x 16 blocks), doubles and
            // halves (2-byte elements: rates count their bytes).
            const auto [rows, cols] = shapes.front();
            bench_shape<std::uint8_t>(context, rows, cols, false);
            bench_shape<double>(context, rows, cols, false);
            bench_shape<half>(context, rows, cols, false);
          }};
}

std::vector<FirstCallOp> transpose_first_calls() {
  auto run = [](cl::CommandQueue& queue, bool clblast) {
    const std::size_t n = 1024;
    cl::Context context = queue.getInfo<CL_QUEUE_CONTEXT>();
    std::vector<float> values(n * n, 1.5f);
    cl::Buffer in(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, n * n * sizeof(float), values.data());
    cl::Buffer out(context, CL_MEM_READ_WRITE, n * n * sizeof(float));
    if (!clblast) {
      transpose<float>(queue, n, n, in, 0, n, out, 0, n).wait();
      return;
    }
#ifdef TILECL_HAVE_CLBLAST
    cl_command_queue raw = queue();
    cl_event event = nullptr;
    if (CLBlastSomatcopy(CLBlastLayoutRowMajor, CLBlastTransposeYes, n, n, 1.0f, in(), 0, n, out(), 0, n, &raw,
                         &event) != CLBlastSuccess)
      throw std::runtime_error("CLBlastSomatcopy failed");
    clWaitForEvents(1, &event);
    clReleaseEvent(event);
#endif
  };
  std::vector<FirstCallOp> ops{{"transpose", true, [run](cl::CommandQueue& q) { run(q, false); }}};
#ifdef TILECL_HAVE_CLBLAST
  ops.push_back({"clblast-somatcopy", false, [run](cl::CommandQueue& q) { run(q, true); }});
#endif
  return ops;
}

}  // namespace tilecl::bench
