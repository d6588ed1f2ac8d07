// Elementwise vector operations (BLAS level 1 style). Units, events, errors and thread-safety: tilecl.hpp.
#pragma once

#include <CL/opencl.hpp>
#include <cstddef>
#include <vector>

#include "tilecl/element_types.hpp"

namespace tilecl {

// c[c_offset + i] = a[a_offset + i] + b[b_offset + i] for i in [0, n). T: float, double or tilecl::half (16-bit
// storage: each element is read as float, the sum computed in float and rounded once to half, to nearest even, so
// the result is within 2^-11 relative of the exact sum of the stored inputs; overflow gives infinity).
// c may be a or b exactly (the same bytes, through the same buffer or a sub-buffer); any other overlap is an
// error (CL_MEM_COPY_OVERLAP). n == 0 enqueues nothing, checks no buffer and returns a null event. Each buffer
// must hold its n elements past its offset (CL_INVALID_BUFFER_SIZE). Launches of more than 2^30 elements are
// split; the event is the last one's.
template <typename T>
detail::ElementwiseEvent<T> vector_add(cl::CommandQueue& queue, std::size_t n, const cl::Buffer& a,
                                       std::size_t a_offset, const cl::Buffer& b, std::size_t b_offset, cl::Buffer& c,
                                       std::size_t c_offset, const std::vector<cl::Event>* wait = nullptr);

// y[y_offset + i] = alpha * x[x_offset + i] + y[y_offset + i] for i in [0, n). T: float or double.
// y is in/out by design; x may be y exactly (same bytes), any other overlap is an error (CL_MEM_COPY_OVERLAP).
// n == 0 enqueues nothing, checks no buffer and returns a null event. Buffer sizes are checked as for vector_add.
template <typename T>
detail::AxpyEvent<T> axpy(cl::CommandQueue& queue, std::size_t n, T alpha, const cl::Buffer& x, std::size_t x_offset,
                          cl::Buffer& y, std::size_t y_offset, const std::vector<cl::Event>* wait = nullptr);

// axpy on tilecl::half storage with a float alpha: alpha * x + y computed in float (one rounding of the product and
// one of the sum, each 2^-24 relative) and rounded once to half (2^-11 relative). Otherwise as above.
template <typename T>
detail::HalfEvent<T> axpy(cl::CommandQueue& queue, std::size_t n, float alpha, const cl::Buffer& x,
                          std::size_t x_offset, cl::Buffer& y, std::size_t y_offset,
                          const std::vector<cl::Event>* wait = nullptr);

}  // namespace tilecl
