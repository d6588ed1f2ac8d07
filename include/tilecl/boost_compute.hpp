// Boost.Compute interop: pass boost::compute queues and vectors to tilecl. Header-only; include it only in
// code that already uses Boost.Compute (tilecl itself does not depend on it).
//
//   boost::compute::vector<float> x(n, context), y(n, context);
//   tilecl::compute::axpy(queue, 2.0f, x, y);          // y = 2 x + y over the whole vectors
//   cl::Buffer b = tilecl::compute::buffer(x);          // or use any tilecl op on the underlying buffers
#pragma once

#include <CL/opencl.hpp>
#include <boost/compute/command_queue.hpp>
#include <boost/compute/container/vector.hpp>
#include <limits>
#include <string>
#include <vector>

#include "tilecl/elementwise.hpp"
#include "tilecl/error.hpp"
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
// The vector holds a dense rows x cols matrix (the product checked for overflow, not wrapped around).
template <typename T>
void require_holds_matrix(const char* op, const boost::compute::vector<T>& vector, std::size_t rows, std::size_t cols,
                          const char* name) {
  if (rows != 0 && cols > std::numeric_limits<std::size_t>::max() / rows)
    throw Error(op, name, CL_INVALID_VALUE,
                "rows x cols overflows (" + std::to_string(rows) + " x " + std::to_string(cols) + ")");
  if (vector.size() < rows * cols)
    throw Error(op, name, CL_INVALID_BUFFER_SIZE,
                "vector holds " + std::to_string(vector.size()) + " elements, fewer than rows x cols (" +
                    std::to_string(rows * cols) + ")");
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
  interop_detail::require_holds_matrix("transpose", in, rows, cols, "in");
  interop_detail::require_holds_matrix("transpose", out, rows, cols, "out");
  cl::CommandQueue q = compute::queue(queue);
  cl::Buffer out_buffer = compute::buffer(out);
  return event(tilecl::transpose<T>(q, rows, cols, compute::buffer(in), 0, cols, out_buffer, 0, rows));
}

}  // namespace tilecl::compute
