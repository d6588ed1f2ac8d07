// Boost.Compute interop: pass boost::compute queues, vectors, iterators and wait lists to tilecl. Header-only;
// include it only in code that already uses Boost.Compute (tilecl itself does not depend on it).
//
//   boost::compute::vector<float> x(n, context), y(n, context);
//   tilecl::compute::axpy(queue, 2.0f, x, y);                                   // whole vectors
//   tilecl::compute::axpy(queue, 2.0f, x.begin() + 8, x.end(), y.begin() + 8);  // ranges: offsets
//   tilecl::compute::axpy(queue, 2.0f, x, y, boost::compute::wait_list(upload));  // after an event
//
// Every op of every family has two overloads here, each taking an optional boost::compute::wait_list last:
// - on iterators: a range [first, last) for the vector ops (axpy, vector_add, reduce, reduce_value,
//   reduce_index) and a start iterator with a leading dimension or pitch for the matrix and image ops
//   (transpose, gemm, gemv, gemm_strided_batched, gemm_batched, rgb_to_gray, convolve2d, separable_filter, box_blur,
//   gaussian_blur), exactly as the family's header takes a buffer, an offset and a pitch (the iterator's index is the
//   offset);
// - on whole, densely packed vectors (offset 0, leading dimension or pitch equal to the row length), which
//   also check that each vector is large enough for the shape.
// Sizes are in elements. A vector too small for the shape, or a range whose ends belong to different
// buffers, raises tilecl::Error (CL_INVALID_BUFFER_SIZE, CL_INVALID_VALUE) before anything is enqueued;
// everything else is checked by the op itself, with the errors its header lists. Each returns the op's last
// event as a boost::compute::event (null when the op enqueued nothing). Thread-safety is the ops': any
// thread, any queue.
#pragma once

#include <CL/opencl.hpp>
#include <algorithm>
#include <boost/compute/command_queue.hpp>
#include <boost/compute/container/vector.hpp>
#include <boost/compute/iterator/buffer_iterator.hpp>
#include <boost/compute/utility/wait_list.hpp>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "tilecl/color.hpp"
#include "tilecl/convolve.hpp"
#include "tilecl/elementwise.hpp"
#include "tilecl/error.hpp"
#include "tilecl/gemm.hpp"
#include "tilecl/gemm_batched.hpp"
#include "tilecl/gemv.hpp"
#include "tilecl/reduce.hpp"
#include "tilecl/transpose.hpp"

namespace tilecl::compute {

template <typename T>
using iterator = boost::compute::buffer_iterator<T>;
using boost::compute::wait_list;

// The same OpenCL objects, retained, as OpenCL-CLHPP types.
inline cl::CommandQueue queue(const boost::compute::command_queue& queue) {
  return cl::CommandQueue(queue.get(), /*retainObject=*/true);
}
template <typename T>
cl::Buffer buffer(const boost::compute::vector<T>& vector) {
  return cl::Buffer(vector.get_buffer().get(), /*retainObject=*/true);
}
template <typename T>
cl::Buffer buffer(const iterator<T>& position) {
  return cl::Buffer(position.get_buffer().get(), /*retainObject=*/true);
}
// The events of a wait list, retained.
inline std::vector<cl::Event> events(const wait_list& list) {
  std::vector<cl::Event> converted;
  for (const auto& event : list) converted.emplace_back(event.get(), /*retainObject=*/true);
  return converted;
}

// A tilecl event as a Boost.Compute event (null when the op enqueued nothing).
inline boost::compute::event event(const cl::Event& event) {
  return event() != nullptr ? boost::compute::event(event(), /*retain=*/true) : boost::compute::event();
}

namespace interop_detail {

// Calls op(queue, wait) with the converted queue and wait list (nullptr when empty); returns its event.
template <typename Op>
boost::compute::event call(boost::compute::command_queue& queue, const wait_list& list, Op&& op) {
  cl::CommandQueue q = compute::queue(queue);
  const std::vector<cl::Event> wait = events(list);
  return event(op(q, wait.empty() ? nullptr : &wait));
}

template <typename T>
void require_same_size(const char* op, const boost::compute::vector<T>& a, const boost::compute::vector<T>& b,
                       const char* name) {
  if (a.size() != b.size())
    throw Error(op, name, CL_INVALID_VALUE,
                "vector sizes differ (" + std::to_string(a.size()) + " and " + std::to_string(b.size()) + ")");
}
// The vector holds at least rows x cols elements (the product checked for overflow, not wrapped around).
template <typename T>
void require_holds(const char* op, const boost::compute::vector<T>& vector, std::size_t rows, std::size_t cols,
                   const char* name) {
  if (rows != 0 && cols > std::numeric_limits<std::size_t>::max() / rows)
    throw Error(op, name, CL_INVALID_VALUE,
                "rows x cols overflows (" + std::to_string(rows) + " x " + std::to_string(cols) + ")");
  if (vector.size() < rows * cols)
    throw Error(op, name, CL_INVALID_BUFFER_SIZE,
                "vector holds " + std::to_string(vector.size()) + " elements, the shape needs " +
                    std::to_string(rows * cols) + " (" + std::to_string(rows) + " x " + std::to_string(cols) + ")");
}
// The vector holds `count` matrices of rows x cols elements (every product checked for overflow).
template <typename T>
void require_holds_batch(const char* op, const boost::compute::vector<T>& vector, std::size_t count, std::size_t rows,
                         std::size_t cols, const char* name) {
  if (rows != 0 && cols > std::numeric_limits<std::size_t>::max() / rows)
    throw Error(op, name, CL_INVALID_VALUE,
                "rows x cols overflows (" + std::to_string(rows) + " x " + std::to_string(cols) + ")");
  require_holds(op, vector, count, rows * cols, name);
}
// The leading dimensions of dense operands of a product (op(A) m x k, op(B) k x n, C m x n, stored in `layout`
// with no padding; A stored k x m when trans_a is Yes, B n x k when trans_b is): the length of a stored row
// (RowMajor) or column (ColMajor), at least 1 so that empty operands stay legal.
struct DenseLeading {
  std::size_t a, b, c;
};
inline DenseLeading dense_leading(Layout layout, Transpose trans_a, Transpose trans_b, std::size_t m, std::size_t n,
                                  std::size_t k) {
  const bool row_major = layout == Layout::RowMajor;
  const auto leading = [row_major](std::size_t rows, std::size_t cols) {
    return std::max<std::size_t>(1, row_major ? cols : rows);
  };
  const bool ta = trans_a == Transpose::Yes, tb = trans_b == Transpose::Yes;
  return {leading(ta ? k : m, ta ? m : k), leading(tb ? n : k, tb ? k : n), leading(m, n)};
}
// The leading dimensions of dense gemm operands held in a, b and c, which must be large enough for the shape.
template <typename T>
DenseLeading dense_gemm_operands(Layout layout, Transpose trans_a, Transpose trans_b, std::size_t m, std::size_t n,
                                 std::size_t k, const boost::compute::vector<T>& a, const boost::compute::vector<T>& b,
                                 const boost::compute::vector<T>& c) {
  require_holds("gemm", a, m, k, "a");
  require_holds("gemm", b, k, n, "b");
  require_holds("gemm", c, m, n, "c");
  return dense_leading(layout, trans_a, trans_b, m, n, k);
}
// The scalars (alpha, beta) of axpy, gemv, gemm and the batched gemms: float for the 16-bit floats (tilecl::half,
// tilecl::bfloat16), T otherwise. Not deduced: T comes from the vectors or iterators.
template <typename T>
using scalar = std::conditional_t<std::is_same_v<T, half> || std::is_same_v<T, bfloat16>, float, T>;
// `offsets` shifted by the start iterator's index (the offsets of the matrices in the whole buffer).
inline std::vector<std::size_t> shifted(const std::vector<std::size_t>& offsets, std::size_t start) {
  std::vector<std::size_t> moved(offsets);
  for (std::size_t& offset : moved) offset += start;
  return moved;
}
// The length of [first, last): both ends on one buffer, last not before first.
template <typename T>
std::size_t range_length(const char* op, const iterator<T>& first, const iterator<T>& last, const char* name) {
  if (first.get_buffer().get() != last.get_buffer().get() || last.get_index() < first.get_index())
    throw Error(op, name, CL_INVALID_VALUE, "the range's ends are on different buffers, or last is before first");
  return last.get_index() - first.get_index();
}

}  // namespace interop_detail

// --- Vectors: axpy, vector_add, reduce, reduce_value, reduce_index ---------------------------------------

// y = alpha x + y over [x_first, x_last) and as many elements from y_first. T: float, double, or tilecl::half
// (alpha then float).
template <typename T>
boost::compute::event axpy(boost::compute::command_queue& queue, interop_detail::scalar<T> alpha, iterator<T> x_first,
                           iterator<T> x_last, iterator<T> y_first, const wait_list& events = wait_list()) {
  const std::size_t n = interop_detail::range_length("axpy", x_first, x_last, "x");
  return interop_detail::call(queue, events, [&](cl::CommandQueue& q, const std::vector<cl::Event>* wait) {
    cl::Buffer y = buffer(y_first);
    return tilecl::axpy<T>(q, n, alpha, buffer(x_first), x_first.get_index(), y, y_first.get_index(), wait);
  });
}
// y = alpha x + y over whole vectors of one size.
template <typename T>
boost::compute::event axpy(boost::compute::command_queue& queue, interop_detail::scalar<T> alpha,
                           const boost::compute::vector<T>& x, boost::compute::vector<T>& y,
                           const wait_list& events = wait_list()) {
  interop_detail::require_same_size("axpy", x, y, "y");
  return compute::axpy<T>(queue, alpha, x.begin(), x.end(), y.begin(), events);
}

// c = a + b over [a_first, a_last) and as many elements from b_first and c_first. T: float, double or tilecl::half.
template <typename T>
boost::compute::event vector_add(boost::compute::command_queue& queue, iterator<T> a_first, iterator<T> a_last,
                                 iterator<T> b_first, iterator<T> c_first, const wait_list& events = wait_list()) {
  const std::size_t n = interop_detail::range_length("vector_add", a_first, a_last, "a");
  return interop_detail::call(queue, events, [&](cl::CommandQueue& q, const std::vector<cl::Event>* wait) {
    cl::Buffer c = buffer(c_first);
    return tilecl::vector_add<T>(q, n, buffer(a_first), a_first.get_index(), buffer(b_first), b_first.get_index(), c,
                                 c_first.get_index(), wait);
  });
}
// c = a + b over whole vectors of one size.
template <typename T>
boost::compute::event vector_add(boost::compute::command_queue& queue, const boost::compute::vector<T>& a,
                                 const boost::compute::vector<T>& b, boost::compute::vector<T>& c,
                                 const wait_list& events = wait_list()) {
  interop_detail::require_same_size("vector_add", a, b, "b");
  interop_detail::require_same_size("vector_add", a, c, "c");
  return compute::vector_add<T>(queue, a.begin(), a.end(), b.begin(), c.begin(), events);
}

// The reduction of [x_first, x_last) into *result on the device (tilecl::reduce): R is T for Sum, Min and
// Max (float for T = tilecl::half, which is reduced in float), std::int32_t for ArgMin and ArgMax (another R raises
// CL_INVALID_VALUE).
template <typename T, typename R>
boost::compute::event reduce(boost::compute::command_queue& queue, ReduceOp op, iterator<T> x_first, iterator<T> x_last,
                             iterator<R> result, const wait_list& events = wait_list()) {
  const bool index = op == ReduceOp::ArgMin || op == ReduceOp::ArgMax;
  if (index ? !std::is_same_v<R, std::int32_t> : !std::is_same_v<R, detail::ReduceValue<T>>)
    throw Error("reduce", "result", CL_INVALID_VALUE,
                std::string("the result of ") + to_string(op) + " is " +
                    (index ? "a std::int32_t" : "of the input's type (float for tilecl::half)"));
  const std::size_t n = interop_detail::range_length("reduce", x_first, x_last, "x");
  return interop_detail::call(queue, events, [&](cl::CommandQueue& q, const std::vector<cl::Event>* wait) {
    cl::Buffer out = buffer(result);
    return tilecl::reduce<T>(q, op, n, buffer(x_first), x_first.get_index(), out, result.get_index(), wait);
  });
}
// The reduction of a whole vector into result[0].
template <typename T, typename R>
boost::compute::event reduce(boost::compute::command_queue& queue, ReduceOp op, const boost::compute::vector<T>& x,
                             boost::compute::vector<R>& result, const wait_list& events = wait_list()) {
  interop_detail::require_holds("reduce", result, 1, 1, "result");
  return compute::reduce<T, R>(queue, op, x.begin(), x.end(), result.begin(), events);
}

// The Sum, Min or Max of [x_first, x_last), returned to the host (waits); a float for T = tilecl::half.
template <typename T>
detail::ReduceValue<T> reduce_value(boost::compute::command_queue& queue, ReduceOp op, iterator<T> x_first,
                                    iterator<T> x_last, const wait_list& events = wait_list()) {
  const std::size_t n = interop_detail::range_length("reduce_value", x_first, x_last, "x");
  cl::CommandQueue q = compute::queue(queue);
  const std::vector<cl::Event> wait = compute::events(events);
  return tilecl::reduce_value<T>(q, op, n, buffer(x_first), x_first.get_index(), wait.empty() ? nullptr : &wait);
}
// The Sum, Min or Max of a whole vector, returned to the host (waits).
template <typename T>
detail::ReduceValue<T> reduce_value(boost::compute::command_queue& queue, ReduceOp op,
                                    const boost::compute::vector<T>& x, const wait_list& events = wait_list()) {
  return compute::reduce_value<T>(queue, op, x.begin(), x.end(), events);
}

// The index (relative to x_first) of the first minimum or maximum (ArgMin, ArgMax) of [x_first, x_last) (waits).
template <typename T>
std::size_t reduce_index(boost::compute::command_queue& queue, ReduceOp op, iterator<T> x_first, iterator<T> x_last,
                         const wait_list& events = wait_list()) {
  const std::size_t n = interop_detail::range_length("reduce_index", x_first, x_last, "x");
  cl::CommandQueue q = compute::queue(queue);
  const std::vector<cl::Event> wait = compute::events(events);
  return tilecl::reduce_index<T>(q, op, n, buffer(x_first), x_first.get_index(), wait.empty() ? nullptr : &wait);
}
// The index of the first minimum or maximum of a whole vector (waits).
template <typename T>
std::size_t reduce_index(boost::compute::command_queue& queue, ReduceOp op, const boost::compute::vector<T>& x,
                         const wait_list& events = wait_list()) {
  return compute::reduce_index<T>(queue, op, x.begin(), x.end(), events);
}

// --- Matrices: transpose, gemm, gemv, gemm_strided_batched, gemm_batched ---------------------------------

// out = in^T (tilecl::transpose): in is rows x cols from in_first with leading dimension ld_in, out cols x rows
// from out_first with ld_out. T: any of tilecl::transpose's, tilecl::half and tilecl::bfloat16 included.
template <typename T>
boost::compute::event transpose(boost::compute::command_queue& queue, std::size_t rows, std::size_t cols,
                                iterator<T> in_first, std::size_t ld_in, iterator<T> out_first, std::size_t ld_out,
                                const wait_list& events = wait_list()) {
  return interop_detail::call(queue, events, [&](cl::CommandQueue& q, const std::vector<cl::Event>* wait) {
    cl::Buffer out = buffer(out_first);
    return tilecl::transpose<T>(q, rows, cols, buffer(in_first), in_first.get_index(), ld_in, out,
                                out_first.get_index(), ld_out, wait);
  });
}
// out = in^T for a dense row-major rows x cols matrix held in `in` (out gets cols x rows).
template <typename T>
boost::compute::event transpose(boost::compute::command_queue& queue, std::size_t rows, std::size_t cols,
                                const boost::compute::vector<T>& in, boost::compute::vector<T>& out,
                                const wait_list& events = wait_list()) {
  interop_detail::require_holds("transpose", in, rows, cols, "in");
  interop_detail::require_holds("transpose", out, rows, cols, "out");
  return compute::transpose<T>(queue, rows, cols, in.begin(), cols, out.begin(), rows, events);
}

// C = alpha op(A) op(B) + beta C (tilecl::gemm) on matrices starting at a_first, b_first and c_first with
// leading dimensions lda, ldb and ldc. T: float, double, or tilecl::half and tilecl::bfloat16 (alpha and beta
// then float).
template <typename T>
boost::compute::event gemm(boost::compute::command_queue& queue, Layout layout, Transpose trans_a, Transpose trans_b,
                           std::size_t m, std::size_t n, std::size_t k, interop_detail::scalar<T> alpha,
                           iterator<T> a_first, std::size_t lda, iterator<T> b_first, std::size_t ldb,
                           interop_detail::scalar<T> beta, iterator<T> c_first, std::size_t ldc,
                           const wait_list& events = wait_list()) {
  return interop_detail::call(queue, events, [&](cl::CommandQueue& q, const std::vector<cl::Event>* wait) {
    cl::Buffer c = buffer(c_first);
    return tilecl::gemm<T>(q, layout, trans_a, trans_b, m, n, k, alpha, buffer(a_first), a_first.get_index(), lda,
                           buffer(b_first), b_first.get_index(), ldb, beta, c, c_first.get_index(), ldc, wait);
  });
}
// The same for dense matrices: op(A) m x k, op(B) k x n, C m x n, all three stored in `layout` with no padding
// (A is stored k x m when trans_a is Yes, B n x k when trans_b is).
template <typename T>
boost::compute::event gemm(boost::compute::command_queue& queue, Layout layout, Transpose trans_a, Transpose trans_b,
                           std::size_t m, std::size_t n, std::size_t k, interop_detail::scalar<T> alpha,
                           const boost::compute::vector<T>& a, const boost::compute::vector<T>& b,
                           interop_detail::scalar<T> beta, boost::compute::vector<T>& c,
                           const wait_list& events = wait_list()) {
  const auto ld = interop_detail::dense_gemm_operands(layout, trans_a, trans_b, m, n, k, a, b, c);
  return compute::gemm<T>(queue, layout, trans_a, trans_b, m, n, k, alpha, a.begin(), ld.a, b.begin(), ld.b, beta,
                          c.begin(), ld.c, events);
}

// Float gemm in a math mode (tilecl::gemm with MathMode: MathMode::TF32 may round A and B to TF32), on iterators
// and on dense vectors as above.
inline boost::compute::event gemm(boost::compute::command_queue& queue, MathMode mode, Layout layout, Transpose trans_a,
                                  Transpose trans_b, std::size_t m, std::size_t n, std::size_t k, float alpha,
                                  iterator<float> a_first, std::size_t lda, iterator<float> b_first, std::size_t ldb,
                                  float beta, iterator<float> c_first, std::size_t ldc,
                                  const wait_list& events = wait_list()) {
  return interop_detail::call(queue, events, [&](cl::CommandQueue& q, const std::vector<cl::Event>* wait) {
    cl::Buffer c = buffer(c_first);
    return tilecl::gemm(q, mode, layout, trans_a, trans_b, m, n, k, alpha, buffer(a_first), a_first.get_index(), lda,
                        buffer(b_first), b_first.get_index(), ldb, beta, c, c_first.get_index(), ldc, wait);
  });
}
inline boost::compute::event gemm(boost::compute::command_queue& queue, MathMode mode, Layout layout, Transpose trans_a,
                                  Transpose trans_b, std::size_t m, std::size_t n, std::size_t k, float alpha,
                                  const boost::compute::vector<float>& a, const boost::compute::vector<float>& b,
                                  float beta, boost::compute::vector<float>& c, const wait_list& events = wait_list()) {
  const auto ld = interop_detail::dense_gemm_operands(layout, trans_a, trans_b, m, n, k, a, b, c);
  return compute::gemm(queue, mode, layout, trans_a, trans_b, m, n, k, alpha, a.begin(), ld.a, b.begin(), ld.b, beta,
                       c.begin(), ld.c, events);
}

// y = alpha op(A) x + beta y (tilecl::gemv) on a matrix starting at a_first with leading dimension lda and
// vectors starting at x_first and y_first with steps incx and incy (negative steps as in tilecl::gemv: the
// start iterator is then the low end of the vector's span). T: float, double, or tilecl::half (alpha and beta then
// float).
template <typename T>
boost::compute::event gemv(boost::compute::command_queue& queue, Layout layout, Transpose trans, std::size_t m,
                           std::size_t n, interop_detail::scalar<T> alpha, iterator<T> a_first, std::size_t lda,
                           iterator<T> x_first, std::ptrdiff_t incx, interop_detail::scalar<T> beta,
                           iterator<T> y_first, std::ptrdiff_t incy, const wait_list& events = wait_list()) {
  return interop_detail::call(queue, events, [&](cl::CommandQueue& q, const std::vector<cl::Event>* wait) {
    cl::Buffer y = buffer(y_first);
    return tilecl::gemv<T>(q, layout, trans, m, n, alpha, buffer(a_first), a_first.get_index(), lda, buffer(x_first),
                           x_first.get_index(), incx, beta, y, y_first.get_index(), incy, wait);
  });
}
// The same for a dense m x n matrix stored in `layout` and contiguous vectors (x: n elements, y: m; swapped with
// trans).
template <typename T>
boost::compute::event gemv(boost::compute::command_queue& queue, Layout layout, Transpose trans, std::size_t m,
                           std::size_t n, interop_detail::scalar<T> alpha, const boost::compute::vector<T>& a,
                           const boost::compute::vector<T>& x, interop_detail::scalar<T> beta,
                           boost::compute::vector<T>& y, const wait_list& events = wait_list()) {
  const bool transposed = trans == Transpose::Yes;
  interop_detail::require_holds("gemv", a, m, n, "a");
  interop_detail::require_holds("gemv", x, transposed ? m : n, 1, "x");
  interop_detail::require_holds("gemv", y, transposed ? n : m, 1, "y");
  const std::size_t lda = std::max<std::size_t>(1, layout == Layout::RowMajor ? n : m);
  return compute::gemv<T>(queue, layout, trans, m, n, alpha, a.begin(), lda, x.begin(), 1, beta, y.begin(), 1, events);
}

// C_i = alpha op(A_i) op(B_i) + beta C_i for i < batch_count (tilecl::gemm_strided_batched): matrix i of A at
// a_first + i * stride_a with leading dimension lda (likewise B and C). T: float, double or tilecl::half (float
// alpha and beta, and float alphas and betas below).
template <typename T>
boost::compute::event gemm_strided_batched(boost::compute::command_queue& queue, Layout layout, Transpose trans_a,
                                           Transpose trans_b, std::size_t m, std::size_t n, std::size_t k,
                                           interop_detail::scalar<T> alpha, iterator<T> a_first, std::size_t lda,
                                           std::size_t stride_a, iterator<T> b_first, std::size_t ldb,
                                           std::size_t stride_b, interop_detail::scalar<T> beta, iterator<T> c_first,
                                           std::size_t ldc, std::size_t stride_c, std::size_t batch_count,
                                           const wait_list& events = wait_list()) {
  return interop_detail::call(queue, events, [&](cl::CommandQueue& q, const std::vector<cl::Event>* wait) {
    cl::Buffer c = buffer(c_first);
    return tilecl::gemm_strided_batched<T>(q, layout, trans_a, trans_b, m, n, k, alpha, buffer(a_first),
                                           a_first.get_index(), lda, stride_a, buffer(b_first), b_first.get_index(),
                                           ldb, stride_b, beta, c, c_first.get_index(), ldc, stride_c, batch_count,
                                           wait);
  });
}
// The same for batch_count dense matrices one after the other in each vector (stored as compute::gemm's dense
// overload stores them; stride = the matrix's size).
template <typename T>
boost::compute::event gemm_strided_batched(boost::compute::command_queue& queue, Layout layout, Transpose trans_a,
                                           Transpose trans_b, std::size_t m, std::size_t n, std::size_t k,
                                           interop_detail::scalar<T> alpha, const boost::compute::vector<T>& a,
                                           const boost::compute::vector<T>& b, interop_detail::scalar<T> beta,
                                           boost::compute::vector<T>& c, std::size_t batch_count,
                                           const wait_list& events = wait_list()) {
  interop_detail::require_holds_batch("gemm_strided_batched", a, batch_count, m, k, "a");
  interop_detail::require_holds_batch("gemm_strided_batched", b, batch_count, k, n, "b");
  interop_detail::require_holds_batch("gemm_strided_batched", c, batch_count, m, n, "c");
  const auto ld = interop_detail::dense_leading(layout, trans_a, trans_b, m, n, k);
  return compute::gemm_strided_batched<T>(queue, layout, trans_a, trans_b, m, n, k, alpha, a.begin(), ld.a, m * k,
                                          b.begin(), ld.b, k * n, beta, c.begin(), ld.c, m * n, batch_count, events);
}

// C_i = alphas[i] op(A_i) op(B_i) + betas[i] C_i (tilecl::gemm_batched): matrix i of A at a_first +
// a_offsets[i] with leading dimension lda (likewise B and C); the batch is alphas.size().
template <typename T>
boost::compute::event gemm_batched(boost::compute::command_queue& queue, Layout layout, Transpose trans_a,
                                   Transpose trans_b, std::size_t m, std::size_t n, std::size_t k,
                                   const std::vector<interop_detail::scalar<T>>& alphas, iterator<T> a_first,
                                   const std::vector<std::size_t>& a_offsets, std::size_t lda, iterator<T> b_first,
                                   const std::vector<std::size_t>& b_offsets, std::size_t ldb,
                                   const std::vector<interop_detail::scalar<T>>& betas, iterator<T> c_first,
                                   const std::vector<std::size_t>& c_offsets, std::size_t ldc,
                                   const wait_list& events = wait_list()) {
  return interop_detail::call(queue, events, [&](cl::CommandQueue& q, const std::vector<cl::Event>* wait) {
    cl::Buffer c = buffer(c_first);
    return tilecl::gemm_batched<T>(q, layout, trans_a, trans_b, m, n, k, alphas, buffer(a_first),
                                   interop_detail::shifted(a_offsets, a_first.get_index()), lda, buffer(b_first),
                                   interop_detail::shifted(b_offsets, b_first.get_index()), ldb, betas, c,
                                   interop_detail::shifted(c_offsets, c_first.get_index()), ldc, wait);
  });
}
// The same with the offsets counted from the start of whole vectors.
template <typename T>
boost::compute::event gemm_batched(boost::compute::command_queue& queue, Layout layout, Transpose trans_a,
                                   Transpose trans_b, std::size_t m, std::size_t n, std::size_t k,
                                   const std::vector<interop_detail::scalar<T>>& alphas,
                                   const boost::compute::vector<T>& a, const std::vector<std::size_t>& a_offsets,
                                   std::size_t lda, const boost::compute::vector<T>& b,
                                   const std::vector<std::size_t>& b_offsets, std::size_t ldb,
                                   const std::vector<interop_detail::scalar<T>>& betas, boost::compute::vector<T>& c,
                                   const std::vector<std::size_t>& c_offsets, std::size_t ldc,
                                   const wait_list& events = wait_list()) {
  return compute::gemm_batched<T>(queue, layout, trans_a, trans_b, m, n, k, alphas, a.begin(), a_offsets, lda,
                                  b.begin(), b_offsets, ldb, betas, c.begin(), c_offsets, ldc, events);
}

// --- Images: rgb_to_gray, convolve2d, separable_filter, box_blur, gaussian_blur --------------------------

// Gray image (tilecl::rgb_to_gray) of an interleaved RGB image: rows of 3 * width elements from src_first,
// src_pitch apart; width elements a row from dst_first, dst_pitch apart. T: std::uint8_t or float.
template <typename T>
boost::compute::event rgb_to_gray(boost::compute::command_queue& queue, std::size_t width, std::size_t height,
                                  iterator<T> src_first, std::size_t src_pitch, iterator<T> dst_first,
                                  std::size_t dst_pitch, const GrayWeights& weights = GrayWeights(),
                                  const wait_list& events = wait_list()) {
  return interop_detail::call(queue, events, [&](cl::CommandQueue& q, const std::vector<cl::Event>* wait) {
    cl::Buffer dst = buffer(dst_first);
    return tilecl::rgb_to_gray<T>(q, width, height, buffer(src_first), src_first.get_index(), src_pitch, dst,
                                  dst_first.get_index(), dst_pitch, weights, wait);
  });
}
// The same for a dense image: `rgb` holds 3 * width x height elements, `gray` width x height.
template <typename T>
boost::compute::event rgb_to_gray(boost::compute::command_queue& queue, std::size_t width, std::size_t height,
                                  const boost::compute::vector<T>& rgb, boost::compute::vector<T>& gray,
                                  const GrayWeights& weights = GrayWeights(), const wait_list& events = wait_list()) {
  interop_detail::require_holds("rgb_to_gray", rgb, height, 3 * width, "src");
  interop_detail::require_holds("rgb_to_gray", gray, height, width, "dst");
  return compute::rgb_to_gray<T>(queue, width, height, rgb.begin(), 3 * width, gray.begin(), width, weights, events);
}

// dst = src correlated with the filter_width x filter_height float taps from filter_first
// (tilecl::convolve2d); images of `channels` interleaved channels, rows src_pitch / dst_pitch apart.
template <typename T>
boost::compute::event convolve2d(boost::compute::command_queue& queue, std::size_t width, std::size_t height,
                                 std::size_t channels, iterator<T> src_first, std::size_t src_pitch,
                                 iterator<T> dst_first, std::size_t dst_pitch, iterator<float> filter_first,
                                 std::size_t filter_width, std::size_t filter_height, Border border,
                                 const wait_list& events = wait_list()) {
  return interop_detail::call(queue, events, [&](cl::CommandQueue& q, const std::vector<cl::Event>* wait) {
    cl::Buffer dst = buffer(dst_first);
    return tilecl::convolve2d<T>(q, width, height, channels, buffer(src_first), src_first.get_index(), src_pitch, dst,
                                 dst_first.get_index(), dst_pitch, buffer(filter_first), filter_first.get_index(),
                                 filter_width, filter_height, border, wait);
  });
}
// The same for dense images; `filter` holds at least filter_width x filter_height taps.
template <typename T>
boost::compute::event convolve2d(boost::compute::command_queue& queue, std::size_t width, std::size_t height,
                                 std::size_t channels, const boost::compute::vector<T>& src,
                                 boost::compute::vector<T>& dst, const boost::compute::vector<float>& filter,
                                 std::size_t filter_width, std::size_t filter_height, Border border,
                                 const wait_list& events = wait_list()) {
  const std::size_t row = width * channels;
  interop_detail::require_holds("convolve2d", src, height, row, "src");
  interop_detail::require_holds("convolve2d", dst, height, row, "dst");
  interop_detail::require_holds("convolve2d", filter, filter_height, filter_width, "filter");
  return compute::convolve2d<T>(queue, width, height, channels, src.begin(), row, dst.begin(), row, filter.begin(),
                                filter_width, filter_height, border, events);
}

// dst = src correlated with column(j) * row(i) (tilecl::separable_filter): row_length taps from row_first
// along x, column_length taps from column_first along y.
template <typename T>
boost::compute::event separable_filter(boost::compute::command_queue& queue, std::size_t width, std::size_t height,
                                       std::size_t channels, iterator<T> src_first, std::size_t src_pitch,
                                       iterator<T> dst_first, std::size_t dst_pitch, iterator<float> row_first,
                                       std::size_t row_length, iterator<float> column_first, std::size_t column_length,
                                       Border border, const wait_list& events = wait_list()) {
  return interop_detail::call(queue, events, [&](cl::CommandQueue& q, const std::vector<cl::Event>* wait) {
    cl::Buffer dst = buffer(dst_first);
    return tilecl::separable_filter<T>(q, width, height, channels, buffer(src_first), src_first.get_index(), src_pitch,
                                       dst, dst_first.get_index(), dst_pitch, buffer(row_first), row_first.get_index(),
                                       row_length, buffer(column_first), column_first.get_index(), column_length,
                                       border, wait);
  });
}
// The same for dense images, with every tap of row_filter (along x) and column_filter (along y).
template <typename T>
boost::compute::event separable_filter(boost::compute::command_queue& queue, std::size_t width, std::size_t height,
                                       std::size_t channels, const boost::compute::vector<T>& src,
                                       boost::compute::vector<T>& dst, const boost::compute::vector<float>& row_filter,
                                       const boost::compute::vector<float>& column_filter, Border border,
                                       const wait_list& events = wait_list()) {
  const std::size_t row = width * channels;
  interop_detail::require_holds("separable_filter", src, height, row, "src");
  interop_detail::require_holds("separable_filter", dst, height, row, "dst");
  return compute::separable_filter<T>(queue, width, height, channels, src.begin(), row, dst.begin(), row,
                                      row_filter.begin(), row_filter.size(), column_filter.begin(),
                                      column_filter.size(), border, events);
}

// Box blur (tilecl::box_blur) of an image of `channels` interleaved channels, rows src_pitch / dst_pitch apart.
template <typename T>
boost::compute::event box_blur(boost::compute::command_queue& queue, std::size_t width, std::size_t height,
                               std::size_t channels, iterator<T> src_first, std::size_t src_pitch,
                               iterator<T> dst_first, std::size_t dst_pitch, std::size_t radius_x, std::size_t radius_y,
                               Border border, const wait_list& events = wait_list()) {
  return interop_detail::call(queue, events, [&](cl::CommandQueue& q, const std::vector<cl::Event>* wait) {
    cl::Buffer dst = buffer(dst_first);
    return tilecl::box_blur<T>(q, width, height, channels, buffer(src_first), src_first.get_index(), src_pitch, dst,
                               dst_first.get_index(), dst_pitch, radius_x, radius_y, border, wait);
  });
}
// The same for dense images.
template <typename T>
boost::compute::event box_blur(boost::compute::command_queue& queue, std::size_t width, std::size_t height,
                               std::size_t channels, const boost::compute::vector<T>& src,
                               boost::compute::vector<T>& dst, std::size_t radius_x, std::size_t radius_y,
                               Border border, const wait_list& events = wait_list()) {
  const std::size_t row = width * channels;
  interop_detail::require_holds("box_blur", src, height, row, "src");
  interop_detail::require_holds("box_blur", dst, height, row, "dst");
  return compute::box_blur<T>(queue, width, height, channels, src.begin(), row, dst.begin(), row, radius_x, radius_y,
                              border, events);
}

// Gaussian blur (tilecl::gaussian_blur) of an image of `channels` interleaved channels, rows src_pitch /
// dst_pitch apart.
template <typename T>
boost::compute::event gaussian_blur(boost::compute::command_queue& queue, std::size_t width, std::size_t height,
                                    std::size_t channels, iterator<T> src_first, std::size_t src_pitch,
                                    iterator<T> dst_first, std::size_t dst_pitch, double sigma, Border border,
                                    std::optional<std::size_t> radius = std::nullopt,
                                    const wait_list& events = wait_list()) {
  return interop_detail::call(queue, events, [&](cl::CommandQueue& q, const std::vector<cl::Event>* wait) {
    cl::Buffer dst = buffer(dst_first);
    return tilecl::gaussian_blur<T>(q, width, height, channels, buffer(src_first), src_first.get_index(), src_pitch,
                                    dst, dst_first.get_index(), dst_pitch, sigma, border, radius, wait);
  });
}
// The same for dense images.
template <typename T>
boost::compute::event gaussian_blur(boost::compute::command_queue& queue, std::size_t width, std::size_t height,
                                    std::size_t channels, const boost::compute::vector<T>& src,
                                    boost::compute::vector<T>& dst, double sigma, Border border,
                                    std::optional<std::size_t> radius = std::nullopt,
                                    const wait_list& events = wait_list()) {
  const std::size_t row = width * channels;
  interop_detail::require_holds("gaussian_blur", src, height, row, "src");
  interop_detail::require_holds("gaussian_blur", dst, height, row, "dst");
  return compute::gaussian_blur<T>(queue, width, height, channels, src.begin(), row, dst.begin(), row, sigma, border,
                                   radius, events);
}

}  // namespace tilecl::compute
