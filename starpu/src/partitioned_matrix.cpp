#include "partitioned_matrix.hpp"

#include <cstdint>

namespace tilecl::starpu::detail {

PartitionedMatrix::PartitionedMatrix(const void* data, std::size_t rows, std::size_t cols, std::size_t ld,
                                     std::size_t element_size, std::size_t row_parts, std::size_t column_parts,
                                     bool keep_contents)
    : keep_contents_(keep_contents) {
  starpu_matrix_data_register(&handle_, STARPU_MAIN_RAM, reinterpret_cast<uintptr_t>(data), static_cast<uint32_t>(ld),
                              static_cast<uint32_t>(cols), static_cast<uint32_t>(rows), element_size);
  starpu_data_filter by_rows{};
  by_rows.filter_func = starpu_matrix_filter_vertical_block;
  by_rows.nchildren = static_cast<unsigned>(row_parts);
  starpu_data_filter by_columns{};
  by_columns.filter_func = starpu_matrix_filter_block;
  by_columns.nchildren = static_cast<unsigned>(column_parts);
  starpu_data_map_filters(handle_, 2, &by_rows, &by_columns);
}

PartitionedMatrix::~PartitionedMatrix() {
  starpu_data_unpartition(handle_, STARPU_MAIN_RAM);
  if (keep_contents_)
    starpu_data_unregister(handle_);
  else
    starpu_data_unregister_no_coherency(handle_);
}

starpu_data_handle_t PartitionedMatrix::tile(std::size_t row_part, std::size_t column_part) const {
  return starpu_data_get_sub_data(handle_, 2, static_cast<unsigned>(row_part), static_cast<unsigned>(column_part));
}

std::size_t PartitionedMatrix::tile_rows(std::size_t row_part) const { return starpu_matrix_get_ny(tile(row_part)); }

}  // namespace tilecl::starpu::detail
