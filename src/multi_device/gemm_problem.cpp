#include "multi_device/gemm_problem.hpp"

#include <utility>

#include "checks.hpp"
#include "dtype.hpp"
#include "multi_device/entry.hpp"
#include "tilecl/error.hpp"
#include "tilecl/gemm.hpp"

namespace tilecl::detail {

namespace {

// How a stored operand sits in memory: ColMajor storage, or a transposed use, flips it (both flip it back).
MatrixStorage storage_of(Layout layout, Transpose trans, std::size_t ld) {
  return MatrixStorage{ld, (layout == Layout::ColMajor) != (trans == Transpose::Yes), 0};
}

MatrixStorage flipped(MatrixStorage storage) {
  storage.transposed = !storage.transposed;
  return storage;
}

void check_ld(const char* op, const char* argument, const MatrixStorage& storage, std::size_t rows, std::size_t cols) {
  const std::size_t memory_cols = storage.transposed ? rows : cols;
  if (storage.ld < std::max<std::size_t>(memory_cols, 1))
    throw Error(op, argument, CL_INVALID_VALUE,
                std::to_string(storage.ld) + " is below the stored rows' " + std::to_string(memory_cols) +
                    " elements (at least " + std::to_string(std::max<std::size_t>(memory_cols, 1)) + ")");
}

void check_pointer(const char* op, const char* argument, const void* pointer) {
  if (pointer == nullptr) throw Error(op, argument, CL_INVALID_VALUE, "the host pointer is null");
}

}  // namespace

template <typename T>
GemmProblem<T> GemmProblem<T>::transposed() const {
  GemmProblem<T> t = *this;
  std::swap(t.m, t.n);
  t.a = b;
  t.a_storage = flipped(b_storage);
  t.b = a;
  t.b_storage = flipped(a_storage);
  t.c_storage = flipped(c_storage);
  return t;
}

template <typename T>
GemmProblem<T> gemm_problem(Layout layout, Transpose trans_a, Transpose trans_b, std::size_t m, std::size_t n,
                            std::size_t k, T alpha, const T* a, std::size_t lda, const T* b, std::size_t ldb, T beta,
                            T* c, std::size_t ldc) {
  return {m,
          n,
          k,
          alpha,
          beta,
          a,
          storage_of(layout, trans_a, lda),
          b,
          storage_of(layout, trans_b, ldb),
          c,
          storage_of(layout, Transpose::No, ldc)};
}

template <typename T>
void validate_gemm(const char* op, DeviceSet& devices, Layout layout, Transpose trans_a, Transpose trans_b,
                   const GemmProblem<T>& problem, bool empty) {
  for (std::size_t i = 0; i < devices.size(); ++i) {
    DeviceSet::Entry& entry = devices.entry(i);
    // An empty call checks the enumerators exactly as the op does, and enqueues nothing.
    cl::Buffer none;
    gemm<T>(entry.compute, layout, trans_a, trans_b, 0, 0, 0, T(0), none, 0, 1, none, 0, 1, T(0), none, 0, 1);
    check_dtype_supported(op, dtype_of<T>(), device_info(entry.device));
  }
  const GemmProblem<T>& p = problem;
  check_ld(op, "lda", p.a_storage, p.m, p.k);
  check_ld(op, "ldb", p.b_storage, p.k, p.n);
  check_ld(op, "ldc", p.c_storage, p.m, p.n);
  if (empty) return;
  check_pointer(op, "c", p.c);
  const std::size_t c_span = storage_span(p.c_storage, p.m, p.n);
  if (!p.reads_ab()) return;
  check_pointer(op, "a", p.a);
  check_pointer(op, "b", p.b);
  if (host_ranges_overlap<T>(p.c, c_span, p.a, storage_span(p.a_storage, p.m, p.k)))
    throw Error(op, "c", CL_MEM_COPY_OVERLAP, "C overlaps A");
  if (host_ranges_overlap<T>(p.c, c_span, p.b, storage_span(p.b_storage, p.k, p.n)))
    throw Error(op, "c", CL_MEM_COPY_OVERLAP, "C overlaps B");
}

DeviceGemmForm device_gemm_form(const MatrixStorage& a, const MatrixStorage& b, const MatrixStorage& c) {
  // A ColMajor call reads every matrix transposed in memory; a transposed use flips an operand once more.
  const auto trans = [&](const MatrixStorage& x) {
    return x.transposed != c.transposed ? Transpose::Yes : Transpose::No;
  };
  return {c.transposed ? Layout::ColMajor : Layout::RowMajor, trans(a), trans(b)};
}

// Pointer types as templates, so that the macro's T stays inside angle brackets.
template <typename U>
using PointerTo = U*;

#define TILECL_INSTANTIATE(T)                                                                                     \
  template struct GemmProblem<T>;                                                                                 \
  template GemmProblem<T> gemm_problem<T>(Layout, Transpose, Transpose, std::size_t, std::size_t, std::size_t, T, \
                                          PointerTo<const T>, std::size_t, PointerTo<const T>, std::size_t, T,    \
                                          PointerTo<T>, std::size_t);                                             \
  template void validate_gemm<T>(const char*, DeviceSet&, Layout, Transpose, Transpose, const GemmProblem<T>&, bool);
TILECL_INSTANTIATE(float)
TILECL_INSTANTIATE(double)
#undef TILECL_INSTANTIATE

}  // namespace tilecl::detail
