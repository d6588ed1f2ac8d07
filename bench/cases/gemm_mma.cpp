// GEMM on 16-bit floats and in TF32 mode: tilecl's gemm<half>, gemm<bfloat16> and gemm(MathMode::TF32) beside its own
// float gemm (the FP32 path) at the same shapes, against the FMA limit. Every row is timed between two bracket
// kernels (cases/bracket.hpp): packing an unaligned operand is part of the call. cuBLAS figures for the same shapes
// are measured apart (PyTorch on the GPU host) and listed beside these in bench/results/.
#include <CL/opencl.hpp>

#include "cases/bracket.hpp"
#include "cases/cases.hpp"
#include "ops/gemm/mma.hpp"
#include "tilecl/gemm.hpp"
#include "tilecl/tuning.hpp"

namespace tilecl::bench {
namespace {

struct Shape {
  std::size_t m, n, k;
  std::string text() const { return std::to_string(m) + "x" + std::to_string(n) + "x" + std::to_string(k); }
};

// Rotated copies of A, B and C, filled with a random block repeated (the values do not change the timing).
template <typename T>
std::vector<std::array<cl::Buffer, 3>> make_operands(BenchContext& context, const Shape& shape) {
  const std::size_t counts[3] = {shape.m * shape.k, shape.k * shape.n, shape.m * shape.n};
  const std::size_t sets = context.rotation_sets((counts[0] + counts[1] + counts[2]) * sizeof(T));
  std::uniform_real_distribution<float> distribution(-1.0f, 1.0f);
  std::vector<T> block(65537);
  for (auto& value : block) value = T(distribution(context.random));
  std::vector<std::array<cl::Buffer, 3>> operands(sets);
  std::vector<T> values;
  for (std::size_t s = 0; s < sets; ++s)
    for (int i = 0; i < 3; ++i) {
      values.resize(counts[i]);
      for (std::size_t j = 0; j < counts[i]; ++j) values[j] = block[(j + s * 7919 + i * 104729) % block.size()];
      operands[s][i] = cl::Buffer(context.context, CL_MEM_READ_WRITE, counts[i] * sizeof(T));
      context.queue.enqueueWriteBuffer(operands[s][i], CL_TRUE, 0, counts[i] * sizeof(T), values.data());
    }
  return operands;
}

// One row: `dtype` is "half", "bfloat16", "tf32" (float storage, MathMode::TF32) or "float" (gemm<float>).
template <typename T>
void bench_row(BenchContext& context, const Shape& shape, const std::string& dtype) {
  const auto operands = make_operands<T>(context, shape);
  Row row;
  row.family = "gemm_mma";
  row.op = "gemm";
  row.shape = shape.text();
  row.dtype = dtype;
  row.implementation = dtype == "float" ? "tilecl (FP32 path)" : "tilecl";
  row.kind = dtype == "float" ? Row::Kind::OursBaseline : Row::Kind::Ours;
  row.work = 2.0 * static_cast<double>(shape.m) * static_cast<double>(shape.n) * static_cast<double>(shape.k);
  row.unit = Unit::FlopsPerSecond;
  // TF32 runs as float gemm where the tensor cores would not pay (or are absent): the row shows that choice.
  const bool float_path =
      dtype == "float" ||
      (dtype == "tf32" && !detail::tf32_on_tensor_cores(*context.info, Layout::RowMajor, Transpose::No, Transpose::No,
                                                        shape.m, shape.n, shape.k));
  const auto choice = tuning::parameters_for(context.queue, float_path ? "gemm" : "gemm_mma",
                                             float_path ? "float" : dtype, shape.text());
  row.parameters =
      choice.parameters.to_string() + " (" + tuning::origin_name(choice.origin) + ", " + choice.bucket + ")";
  const std::size_t sets = operands.size();
  try {
    row.timing = time_bracketed(context, [&](int i) {
      const auto& [a, b, c] = operands[i % sets];
      cl::Buffer out = c;
      if constexpr (std::is_same_v<T, float>) {
        const MathMode mode = dtype == "float" ? MathMode::Standard : MathMode::TF32;
        gemm(context.queue, mode, Layout::RowMajor, Transpose::No, Transpose::No, shape.m, shape.n, shape.k, 1.0f, a, 0,
             shape.k, b, 0, shape.n, 0.5f, out, 0, shape.n);
      } else {
        gemm<T>(context.queue, Layout::RowMajor, Transpose::No, Transpose::No, shape.m, shape.n, shape.k, 1.0f, a, 0,
                shape.k, b, 0, shape.n, 0.5f, out, 0, shape.n);
      }
    });
  } catch (const std::exception& error) {
    row.failed = true;
    row.note = error.what();
  }
  context.add(row);
}

void bench_shape(BenchContext& context, const Shape& shape) {
  bench_row<half>(context, shape, "half");
  bench_row<bfloat16>(context, shape, "bfloat16");
  bench_row<float>(context, shape, "tf32");
  bench_row<float>(context, shape, "float");
}

}  // namespace

FamilyBenchmark gemm_mma_benchmark() {
  return {"gemm_mma", [](BenchContext& context) {
            if (context.quick) {
              bench_row<half>(context, {256, 256, 256}, "half");
              return;
            }
            if (context.info->is_gpu()) {
              for (const Shape& shape : std::vector<Shape>{{4096, 4096, 4096},
                                                           {8192, 8192, 8192},
                                                           {1000, 1000, 1000},
                                                           {4097, 4097, 4097},
                                                           {8192, 8192, 64},
                                                           {1, 4096, 4096}})
                bench_shape(context, shape);
            } else {
              for (const Shape& shape : std::vector<Shape>{{512, 512, 512}, {1000, 1000, 1000}})
                bench_shape(context, shape);
            }
          }};
}

}  // namespace tilecl::bench
