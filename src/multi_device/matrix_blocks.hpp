// Rectangular copies between host and device matrices (clEnqueueWriteBufferRect / ReadBufferRect). A matrix is
// seen through its storage: logical element (row, col) sits in memory at memory row `row`, column `col` (or at
// memory row `col`, column `row` when the memory holds its transpose), memory rows `ld` elements apart and
// starting `base_row` memory rows into the buffer. A copy keeps the orientation: host and device storages of
// one matrix have the same `transposed`.
#pragma once

#include <CL/opencl.hpp>
#include <cstddef>
#include <functional>

#include "multi_device/pipeline.hpp"

namespace tilecl::detail {

struct MatrixStorage {
  std::size_t ld = 1;
  bool transposed = false;
  std::size_t base_row = 0;

  // Element offset of logical (row, col).
  std::size_t offset_of(std::size_t row, std::size_t col) const {
    return transposed ? (base_row + col) * ld + row : (base_row + row) * ld + col;
  }
};

// A logical block: rows [row, row + rows), columns [col, col + cols).
struct Block {
  std::size_t row = 0;
  std::size_t col = 0;
  std::size_t rows = 0;
  std::size_t cols = 0;
};

// Elements from the first to the last element of a logical rows x cols matrix (0 when empty).
std::size_t storage_span(const MatrixStorage& storage, std::size_t rows, std::size_t cols);

// Whether the host ranges [a, a + a_elements) and [b, b + b_elements) share an element.
template <typename T>
bool host_ranges_overlap(const T* a, std::size_t a_elements, const T* b, std::size_t b_elements) {
  if (a_elements == 0 || b_elements == 0) return false;
  const std::less<const T*> before;
  return before(a, b + b_elements) && before(b, a + a_elements);
}

// Enqueues the copy of logical block `block` of the host matrix (host, host_storage) to the device matrix
// (buffer, device_storage) at logical (to_row, to_col), after `wait`, without blocking; appends its event to
// `done`. An empty block enqueues nothing.
void write_block(cl::CommandQueue& queue, const cl::Buffer& buffer, const MatrixStorage& device_storage,
                 std::size_t to_row, std::size_t to_col, const void* host, const MatrixStorage& host_storage,
                 const Block& block, std::size_t element_size, const Events& wait, Events& done);

// The reverse: logical block `block` of the host matrix receives the device matrix's block at logical
// (from_row, from_col).
void read_block(cl::CommandQueue& queue, const cl::Buffer& buffer, const MatrixStorage& device_storage,
                std::size_t from_row, std::size_t from_col, void* host, const MatrixStorage& host_storage,
                const Block& block, std::size_t element_size, const Events& wait, Events& done);

// Enqueues zeros over `bytes` bytes of the buffer from byte `offset`; appends its event to `done`.
void fill_zeros(cl::CommandQueue& queue, const cl::Buffer& buffer, std::size_t offset, std::size_t bytes,
                const Events& wait, Events& done);

// A device buffer of at least `elements` elements (one when 0: OpenCL refuses empty buffers).
cl::Buffer device_buffer(const cl::Context& context, std::size_t elements, std::size_t element_size);

}  // namespace tilecl::detail
