#include "multi_device/matrix_blocks.hpp"

#include <algorithm>
#include <array>
#include <cstdint>

namespace tilecl::detail {

namespace {

using Triple = std::array<std::size_t, 3>;

// A logical block at logical (row, col) of a storage, as the origin and region of a rectangular copy in bytes.
struct Rect {
  Triple origin;
  Triple region;
};

Rect rect_of(const MatrixStorage& storage, std::size_t row, std::size_t col, const Block& block,
             std::size_t element_size) {
  std::size_t memory_row = row, memory_col = col, memory_rows = block.rows, memory_cols = block.cols;
  if (storage.transposed) {
    std::swap(memory_row, memory_col);
    std::swap(memory_rows, memory_cols);
  }
  return {{memory_col * element_size, storage.base_row + memory_row, 0}, {memory_cols * element_size, memory_rows, 1}};
}

const std::vector<cl::Event>* wait_list(const Events& wait) { return wait.empty() ? nullptr : &wait; }

}  // namespace

std::size_t storage_span(const MatrixStorage& storage, std::size_t rows, std::size_t cols) {
  if (rows == 0 || cols == 0) return 0;
  if (storage.transposed) std::swap(rows, cols);
  return (rows - 1) * storage.ld + cols;
}

void write_block(cl::CommandQueue& queue, const cl::Buffer& buffer, const MatrixStorage& device_storage,
                 std::size_t to_row, std::size_t to_col, const void* host, const MatrixStorage& host_storage,
                 const Block& block, std::size_t element_size, const Events& wait, Events& done) {
  if (block.rows == 0 || block.cols == 0) return;
  const Rect to = rect_of(device_storage, to_row, to_col, block, element_size);
  const Rect from = rect_of(host_storage, block.row, block.col, block, element_size);
  cl::Event event;
  queue.enqueueWriteBufferRect(buffer, CL_FALSE, to.origin, from.origin, to.region, device_storage.ld * element_size, 0,
                               host_storage.ld * element_size, 0, host, wait_list(wait), &event);
  done.push_back(event);
}

void read_block(cl::CommandQueue& queue, const cl::Buffer& buffer, const MatrixStorage& device_storage,
                std::size_t from_row, std::size_t from_col, void* host, const MatrixStorage& host_storage,
                const Block& block, std::size_t element_size, const Events& wait, Events& done) {
  if (block.rows == 0 || block.cols == 0) return;
  const Rect from = rect_of(device_storage, from_row, from_col, block, element_size);
  const Rect to = rect_of(host_storage, block.row, block.col, block, element_size);
  cl::Event event;
  queue.enqueueReadBufferRect(buffer, CL_FALSE, from.origin, to.origin, from.region, device_storage.ld * element_size,
                              0, host_storage.ld * element_size, 0, host, wait_list(wait), &event);
  done.push_back(event);
}

void fill_zeros(cl::CommandQueue& queue, const cl::Buffer& buffer, std::size_t offset, std::size_t bytes,
                const Events& wait, Events& done) {
  if (bytes == 0) return;
  cl::Event event;
  queue.enqueueFillBuffer(buffer, std::uint8_t{0}, offset, bytes, wait_list(wait), &event);
  done.push_back(event);
}

cl::Buffer device_buffer(const cl::Context& context, std::size_t elements, std::size_t element_size) {
  return cl::Buffer(context, CL_MEM_READ_WRITE, std::max<std::size_t>(elements, 1) * element_size);
}

}  // namespace tilecl::detail
