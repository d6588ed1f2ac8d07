// C API: transpose (include/tilecl/tilecl.h).
#include "tilecl/transpose.hpp"

#include <cstdint>

#include "c_api/call.hpp"

namespace tilecl::c_api {
namespace {

template <typename T>
tilecl_status transpose(cl_command_queue queue, size_t rows, size_t cols, cl_mem in, size_t in_offset, size_t ld_in,
                        cl_mem out, size_t out_offset, size_t ld_out, const Events& events) {
  return enqueue("transpose", queue, events, [&](cl::CommandQueue& q, const std::vector<cl::Event>* wait) {
    cl::Buffer out_buffer = buffer("transpose", "out", out);
    return tilecl::transpose<T>(q, rows, cols, buffer("transpose", "in", in), in_offset, ld_in, out_buffer, out_offset,
                                ld_out, wait);
  });
}

}  // namespace
}  // namespace tilecl::c_api

#define TILECL_C_TRANSPOSE(suffix, T)                                                                    \
  tilecl_status tilecl_transpose_##suffix(cl_command_queue queue, size_t rows, size_t cols, cl_mem in,   \
                                          size_t in_offset, size_t ld_in, cl_mem out, size_t out_offset, \
                                          size_t ld_out, TILECL_C_WAIT_PARAMETERS) {                     \
    return tilecl::c_api::transpose<T>(queue, rows, cols, in, in_offset, ld_in, out, out_offset, ld_out, \
                                       TILECL_C_EVENTS);                                                 \
  }

extern "C" {
TILECL_C_TRANSPOSE(f32, float)
TILECL_C_TRANSPOSE(f64, double)
TILECL_C_TRANSPOSE(i32, std::int32_t)
TILECL_C_TRANSPOSE(u8, std::uint8_t)
TILECL_C_TRANSPOSE(f16, tilecl::half)
TILECL_C_TRANSPOSE(bf16, tilecl::bfloat16)
}
