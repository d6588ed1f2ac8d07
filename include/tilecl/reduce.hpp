// Reductions of a vector: sum, min, max, argmin, argmax. Units, events, errors and thread-safety: tilecl.hpp.
#pragma once

#include <CL/opencl.hpp>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "tilecl/element_types.hpp"
#include "tilecl/types.hpp"

namespace tilecl {

// Reduces x[x_offset .. x_offset + n) on the device and writes the result into `result` at element
// `result_offset`, with no host round trip (the passes are enqueued back to back; scratch memory comes from a
// workspace kept between calls). T: float, double (needs cl_khr_fp64), std::int32_t, tilecl::half (16-bit storage,
// read as float and reduced in float exactly as float input would be: the value written or returned is a float; a
// sum may exceed half's range; no cl_khr_fp16 needed).
//
// The result buffer's element type depends on the op:
//   ReduceOp::Sum, Min, Max      one T at result[result_offset] (result_offset counts T elements); for
//                                tilecl::half one float (result_offset counts floats);
//   ReduceOp::ArgMin, ArgMax     one std::int32_t (cl_int) index into x, relative to x_offset, at
//                                result[result_offset] (result_offset counts int32 elements).
// Semantics (README "Promises"):
//   Sum     floating point: lanes and partials are added in a tree (not left to right); a float sum of 2^26
//           values is within 1e-6 relative of the exact sum (the error bound grows with n and the spread of
//           the values). int32: wraps modulo 2^32.
//   Min/Max NaN propagates: any NaN in the input gives NaN. -0.0 and +0.0 compare equal.
//   ArgMin/ArgMax the index of the first NaN if there is one, else of the first extreme element.
// n = 0: Sum writes 0 (a fill, whose event is returned); Min, Max, ArgMin and ArgMax of nothing raise
// tilecl::Error (CL_INVALID_VALUE). n must be below 2^31. `result` must not overlap the elements of x that
// are read (CL_MEM_COPY_OVERLAP). With n = 0, x is not checked (it may be null). Returns the event of the last
// command enqueued.
template <typename T>
detail::ReduceEvent<T> reduce(cl::CommandQueue& queue, ReduceOp op, std::size_t n, const cl::Buffer& x,
                              std::size_t x_offset, cl::Buffer& result, std::size_t result_offset,
                              const std::vector<cl::Event>* wait = nullptr);

// The value of a Sum, Min or Max, returned to the host: enqueues reduce() into a small buffer and reads it
// back, blocking the calling thread until it is known. n = 0 gives 0 for Sum; errors as for reduce().
// ArgMin and ArgMax raise tilecl::Error here: use reduce_index().
template <typename T>
detail::ReduceValue<T> reduce_value(cl::CommandQueue& queue, ReduceOp op, std::size_t n, const cl::Buffer& x,
                                    std::size_t x_offset, const std::vector<cl::Event>* wait = nullptr);

// The index (relative to x_offset) of an ArgMin or ArgMax, returned to the host (blocks until it is known).
// Sum, Min and Max raise tilecl::Error here: use reduce_value().
template <typename T>
detail::ReduceIndex<T> reduce_index(cl::CommandQueue& queue, ReduceOp op, std::size_t n, const cl::Buffer& x,
                                    std::size_t x_offset, const std::vector<cl::Event>* wait = nullptr);

}  // namespace tilecl
