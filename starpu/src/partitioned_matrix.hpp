// A row-major host matrix registered with StarPU and cut into row_parts x column_parts tiles (StarPU's
// vertical_block and block filters: part sizes differ by at most one, the first ones larger). On destruction the
// tiles are gathered and the matrix unregistered: its contents come back to host memory, unless `keep_contents`
// is false (an intermediate result).
#pragma once

#include <starpu.h>

#include <cstddef>

namespace tilecl::starpu::detail {

class PartitionedMatrix {
 public:
  PartitionedMatrix(const void* data, std::size_t rows, std::size_t cols, std::size_t ld, std::size_t element_size,
                    std::size_t row_parts, std::size_t column_parts, bool keep_contents = true);
  ~PartitionedMatrix();
  PartitionedMatrix(const PartitionedMatrix&) = delete;
  PartitionedMatrix& operator=(const PartitionedMatrix&) = delete;

  starpu_data_handle_t tile(std::size_t row_part, std::size_t column_part = 0) const;
  std::size_t tile_rows(std::size_t row_part) const;

 private:
  starpu_data_handle_t handle_ = nullptr;
  bool keep_contents_;
};

}  // namespace tilecl::starpu::detail
