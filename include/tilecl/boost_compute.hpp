// Boost.Compute interop: pass boost::compute queues and vectors to tilecl. Header-only; include it only in
// code that already uses Boost.Compute (tilecl itself does not depend on it).
//
//   boost::compute::vector<float> x(n, context), y(n, context);
//   tilecl::compute::axpy(queue, 2.0f, x, y);          // y = 2 x + y over the whole vectors
//   cl::Buffer b = tilecl::compute::buffer(x);          // or use any tilecl op on the underlying buffers
//
// Every family's main ops have an overload here that works on whole, densely packed vectors (offset 0,
// leading dimension or pitch equal to the row length): axpy, vector_add, reduce_value, reduce_index,
// transpose, gemm, rgb_to_gray, box_blur, gaussian_blur. For offsets, pitches or the other ops, pass
// buffer(vector) to the op in the family's header. Sizes are in elements. A vector too small for the shape
// raises tilecl::Error (CL_INVALID_BUFFER_SIZE) before anything is enqueued; everything else is checked by
// the op itself, with the errors its header lists. Thread-safety is the ops': any thread, any queue.
#pragma once

#include <CL/opencl.hpp>
#include <algorithm>
#include <boost/compute/command_queue.hpp>
#include <boost/compute/container/vector.hpp>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "tilecl/color.hpp"
#include "tilecl/convolve.hpp"
#include "tilecl/elementwise.hpp"
#include "tilecl/error.hpp"
#include "tilecl/gemm.hpp"
#include "tilecl/reduce.hpp"
#include "tilecl/transpose.hpp"

namespace tilecl::compute {

// The same OpenCL objects, retained, as OpenCL-CLHPP types.
inline cl::CommandQueue queue(const boost::compute::command_queue& queue) {
  return cl::CommandQueue(queue.get(), /*retainObject=*/true);
}
template <typename T>
cl::Buffer buffer(const boost::compute::vector<T>& vector) {
  return cl::Buffer(vector.get_buffer().get(), /*retainObject=*/true);
}

// A tilecl event as a Boost.Compute event (null when the op enqueued nothing).
inline boost::compute::event event(const cl::Event& event) {
  return event() != nullptr ? boost::compute::event(event(), /*retain=*/true) : boost::compute::event();
}

namespace interop_detail {
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
}  // namespace interop_detail

// y = alpha x + y over whole vectors.
template <typename T>
boost::compute::event axpy(boost::compute::command_queue& queue, T alpha, const boost::compute::vector<T>& x,
                           boost::compute::vector<T>& y) {
  interop_detail::require_same_size("axpy", x, y, "y");
  cl::CommandQueue q = compute::queue(queue);
  cl::Buffer y_buffer = compute::buffer(y);
  return event(tilecl::axpy<T>(q, x.size(), alpha, compute::buffer(x), 0, y_buffer, 0));
}

// c = a + b over whole vectors.
template <typename T>
boost::compute::event vector_add(boost::compute::command_queue& queue, const boost::compute::vector<T>& a,
                                 const boost::compute::vector<T>& b, boost::compute::vector<T>& c) {
  interop_detail::require_same_size("vector_add", a, b, "b");
  interop_detail::require_same_size("vector_add", a, c, "c");
  cl::CommandQueue q = compute::queue(queue);
  cl::Buffer c_buffer = compute::buffer(c);
  return event(tilecl::vector_add<T>(q, a.size(), compute::buffer(a), 0, compute::buffer(b), 0, c_buffer, 0));
}

// The Sum, Min or Max of a whole vector, returned to the host (waits).
template <typename T>
T reduce_value(boost::compute::command_queue& queue, ReduceOp op, const boost::compute::vector<T>& x) {
  cl::CommandQueue q = compute::queue(queue);
  return tilecl::reduce_value<T>(q, op, x.size(), compute::buffer(x), 0);
}

// The index of the first minimum or maximum (ArgMin, ArgMax) of a whole vector (waits).
template <typename T>
std::size_t reduce_index(boost::compute::command_queue& queue, ReduceOp op, const boost::compute::vector<T>& x) {
  cl::CommandQueue q = compute::queue(queue);
  return tilecl::reduce_index<T>(q, op, x.size(), compute::buffer(x), 0);
}

// out = in^T for a dense row-major rows x cols matrix held in `in` (out gets cols x rows).
template <typename T>
boost::compute::event transpose(boost::compute::command_queue& queue, std::size_t rows, std::size_t cols,
                                const boost::compute::vector<T>& in, boost::compute::vector<T>& out) {
  interop_detail::require_holds("transpose", in, rows, cols, "in");
  interop_detail::require_holds("transpose", out, rows, cols, "out");
  cl::CommandQueue q = compute::queue(queue);
  cl::Buffer out_buffer = compute::buffer(out);
  return event(tilecl::transpose<T>(q, rows, cols, compute::buffer(in), 0, cols, out_buffer, 0, rows));
}

// C = alpha op(A) op(B) + beta C (tilecl::gemm) for dense matrices: op(A) m x k, op(B) k x n, C m x n, all
// three stored in `layout` with no padding (A is stored k x m when trans_a is Yes, B n x k when trans_b is).
template <typename T>
boost::compute::event gemm(boost::compute::command_queue& queue, Layout layout, Transpose trans_a, Transpose trans_b,
                           std::size_t m, std::size_t n, std::size_t k, T alpha, const boost::compute::vector<T>& a,
                           const boost::compute::vector<T>& b, T beta, boost::compute::vector<T>& c) {
  const bool row_major = layout == Layout::RowMajor;
  // The stored matrices' rows and columns; the leading dimension is the length of a stored row (RowMajor)
  // or column (ColMajor), at least 1 so that empty operands stay legal.
  const std::size_t a_rows = trans_a == Transpose::Yes ? k : m, a_cols = trans_a == Transpose::Yes ? m : k;
  const std::size_t b_rows = trans_b == Transpose::Yes ? n : k, b_cols = trans_b == Transpose::Yes ? k : n;
  const auto leading = [&](std::size_t rows, std::size_t cols) {
    return std::max<std::size_t>(1, row_major ? cols : rows);
  };
  interop_detail::require_holds("gemm", a, m, k, "a");
  interop_detail::require_holds("gemm", b, k, n, "b");
  interop_detail::require_holds("gemm", c, m, n, "c");
  cl::CommandQueue q = compute::queue(queue);
  cl::Buffer c_buffer = compute::buffer(c);
  return event(tilecl::gemm<T>(q, layout, trans_a, trans_b, m, n, k, alpha, compute::buffer(a), 0,
                               leading(a_rows, a_cols), compute::buffer(b), 0, leading(b_rows, b_cols), beta, c_buffer,
                               0, leading(m, n)));
}

// Gray image (width x height) from an interleaved RGB image (3 * width x height elements); T: std::uint8_t or
// float (tilecl::rgb_to_gray).
template <typename T>
boost::compute::event rgb_to_gray(boost::compute::command_queue& queue, std::size_t width, std::size_t height,
                                  const boost::compute::vector<T>& rgb, boost::compute::vector<T>& gray,
                                  const GrayWeights& weights = GrayWeights()) {
  interop_detail::require_holds("rgb_to_gray", rgb, height, 3 * width, "src");
  interop_detail::require_holds("rgb_to_gray", gray, height, width, "dst");
  cl::CommandQueue q = compute::queue(queue);
  cl::Buffer gray_buffer = compute::buffer(gray);
  return event(
      tilecl::rgb_to_gray<T>(q, width, height, compute::buffer(rgb), 0, 3 * width, gray_buffer, 0, width, weights));
}

// Box blur (tilecl::box_blur) of a dense width x height image of `channels` interleaved channels.
template <typename T>
boost::compute::event box_blur(boost::compute::command_queue& queue, std::size_t width, std::size_t height,
                               std::size_t channels, const boost::compute::vector<T>& src,
                               boost::compute::vector<T>& dst, std::size_t radius_x, std::size_t radius_y,
                               Border border) {
  const std::size_t row = width * channels;
  interop_detail::require_holds("box_blur", src, height, row, "src");
  interop_detail::require_holds("box_blur", dst, height, row, "dst");
  cl::CommandQueue q = compute::queue(queue);
  cl::Buffer dst_buffer = compute::buffer(dst);
  return event(tilecl::box_blur<T>(q, width, height, channels, compute::buffer(src), 0, row, dst_buffer, 0, row,
                                   radius_x, radius_y, border));
}

// Gaussian blur (tilecl::gaussian_blur) of a dense width x height image of `channels` interleaved channels.
template <typename T>
boost::compute::event gaussian_blur(boost::compute::command_queue& queue, std::size_t width, std::size_t height,
                                    std::size_t channels, const boost::compute::vector<T>& src,
                                    boost::compute::vector<T>& dst, double sigma, Border border,
                                    std::optional<std::size_t> radius = std::nullopt) {
  const std::size_t row = width * channels;
  interop_detail::require_holds("gaussian_blur", src, height, row, "src");
  interop_detail::require_holds("gaussian_blur", dst, height, row, "dst");
  cl::CommandQueue q = compute::queue(queue);
  cl::Buffer dst_buffer = compute::buffer(dst);
  return event(tilecl::gaussian_blur<T>(q, width, height, channels, compute::buffer(src), 0, row, dst_buffer, 0, row,
                                        sigma, border, radius));
}

}  // namespace tilecl::compute
