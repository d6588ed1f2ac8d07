// C API: vector_add, axpy (include/tilecl/tilecl.h).
#include "tilecl/elementwise.hpp"

#include "c_api/call.hpp"

namespace tilecl::c_api {
namespace {

template <typename T>
tilecl_status vector_add(cl_command_queue queue, size_t n, cl_mem a, size_t a_offset, cl_mem b, size_t b_offset,
                         cl_mem c, size_t c_offset, const Events& events) {
  return enqueue("vector_add", queue, events, [&](cl::CommandQueue& q, const std::vector<cl::Event>* wait) {
    cl::Buffer out = buffer("vector_add", "c", c);
    return tilecl::vector_add<T>(q, n, buffer("vector_add", "a", a), a_offset, buffer("vector_add", "b", b), b_offset,
                                 out, c_offset, wait);
  });
}

// Scalar: alpha's type (float for tilecl::half).
template <typename T, typename Scalar>
tilecl_status axpy(cl_command_queue queue, size_t n, Scalar alpha, cl_mem x, size_t x_offset, cl_mem y, size_t y_offset,
                   const Events& events) {
  return enqueue("axpy", queue, events, [&](cl::CommandQueue& q, const std::vector<cl::Event>* wait) {
    cl::Buffer out = buffer("axpy", "y", y);
    return tilecl::axpy<T>(q, n, alpha, buffer("axpy", "x", x), x_offset, out, y_offset, wait);
  });
}

}  // namespace
}  // namespace tilecl::c_api

#define TILECL_C_ELEMENTWISE(suffix, T, Scalar)                                                                    \
  tilecl_status tilecl_vector_add_##suffix(cl_command_queue queue, size_t n, cl_mem a, size_t a_offset, cl_mem b,  \
                                           size_t b_offset, cl_mem c, size_t c_offset, TILECL_C_WAIT_PARAMETERS) { \
    return tilecl::c_api::vector_add<T>(queue, n, a, a_offset, b, b_offset, c, c_offset, TILECL_C_EVENTS);         \
  }                                                                                                                \
  tilecl_status tilecl_axpy_##suffix(cl_command_queue queue, size_t n, Scalar alpha, cl_mem x, size_t x_offset,    \
                                     cl_mem y, size_t y_offset, TILECL_C_WAIT_PARAMETERS) {                        \
    return tilecl::c_api::axpy<T, Scalar>(queue, n, alpha, x, x_offset, y, y_offset, TILECL_C_EVENTS);             \
  }

extern "C" {
TILECL_C_ELEMENTWISE(f32, float, float)
TILECL_C_ELEMENTWISE(f64, double, double)
TILECL_C_ELEMENTWISE(f16, tilecl::half, float)
}
