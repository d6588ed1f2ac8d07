// Matrix transpose (out-of-place, row-major). Units, events, errors and thread-safety: tilecl.hpp.
#pragma once

#include <CL/opencl.hpp>
#include <cstddef>
#include <vector>

#include "tilecl/element_types.hpp"

namespace tilecl {

// out = in^T for row-major matrices: in is rows x cols with leading dimension ld_in (>= cols), out is
// cols x rows with leading dimension ld_out (>= rows):
//   out[out_offset + c * ld_out + r] = in[in_offset + r * ld_in + c]   for r < rows, c < cols.
// Offsets are in elements. Elements of out outside that region are left untouched. T: float, double,
// std::int32_t, std::uint8_t, tilecl::half, tilecl::bfloat16 (the kernels move bits, so double needs no fp64
// support on the device and the 16-bit types no cl_khr_fp16).
// rows or cols == 0 enqueues nothing, checks no buffer and returns a null event. Every extent (rows, cols,
// ld_in, ld_out) must be below 2^31. in and out must not share any byte of their extents ((rows - 1) * ld_in +
// cols elements from in_offset, (cols - 1) * ld_out + rows from out_offset): an overlap raises tilecl::Error
// with CL_MEM_COPY_OVERLAP (so no transpose in place). Returns the event of the last command enqueued.
template <typename T>
detail::TransposeEvent<T> transpose(cl::CommandQueue& queue, std::size_t rows, std::size_t cols, const cl::Buffer& in,
                                    std::size_t in_offset, std::size_t ld_in, cl::Buffer& out, std::size_t out_offset,
                                    std::size_t ld_out, const std::vector<cl::Event>* wait = nullptr);

}  // namespace tilecl
