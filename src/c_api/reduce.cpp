// C API: reduce, reduce_value, reduce_index (include/tilecl/tilecl.h).
#include "tilecl/reduce.hpp"

#include <cstdint>

#include "c_api/call.hpp"

static_assert(TILECL_SUM == static_cast<int>(tilecl::ReduceOp::Sum) &&
                  TILECL_MIN == static_cast<int>(tilecl::ReduceOp::Min) &&
                  TILECL_MAX == static_cast<int>(tilecl::ReduceOp::Max) &&
                  TILECL_ARGMIN == static_cast<int>(tilecl::ReduceOp::ArgMin) &&
                  TILECL_ARGMAX == static_cast<int>(tilecl::ReduceOp::ArgMax),
              "tilecl_reduce_op and tilecl::ReduceOp must list the same ops in the same order");

namespace tilecl::c_api {
namespace {

template <typename T>
tilecl_status reduce(cl_command_queue queue, tilecl_reduce_op op, size_t n, cl_mem x, size_t x_offset, cl_mem result,
                     size_t result_offset, const Events& events) {
  return enqueue("reduce", queue, events, [&](cl::CommandQueue& q, const std::vector<cl::Event>* wait) {
    cl::Buffer out = buffer("reduce", "result", result);
    return tilecl::reduce<T>(q, static_cast<ReduceOp>(op), n, buffer("reduce", "x", x), x_offset, out, result_offset,
                             wait);
  });
}

// reduce_value and reduce_index: `read(q, wait)` returns the result, stored in *output (named output_name).
template <typename Output, typename Read>
tilecl_status read_back(const char* op, cl_command_queue queue, const char* output_name, Output* output,
                        const Events& events, Read&& read) {
  return guarded([&] {
    require_not_null(op, output_name, output);
    cl::CommandQueue q = c_api::queue(op, queue);
    std::vector<cl::Event> storage;
    *output = static_cast<Output>(read(q, wait_list(op, events, storage)));
  });
}

template <typename T, typename Output>
tilecl_status reduce_value(cl_command_queue queue, tilecl_reduce_op op, size_t n, cl_mem x, size_t x_offset,
                           Output* value, const Events& events) {
  return read_back(
      "reduce_value", queue, "value", value, events, [&](cl::CommandQueue& q, const std::vector<cl::Event>* wait) {
        return tilecl::reduce_value<T>(q, static_cast<ReduceOp>(op), n, buffer("reduce_value", "x", x), x_offset, wait);
      });
}

template <typename T>
tilecl_status reduce_index(cl_command_queue queue, tilecl_reduce_op op, size_t n, cl_mem x, size_t x_offset,
                           size_t* index, const Events& events) {
  return read_back(
      "reduce_index", queue, "index", index, events, [&](cl::CommandQueue& q, const std::vector<cl::Event>* wait) {
        return tilecl::reduce_index<T>(q, static_cast<ReduceOp>(op), n, buffer("reduce_index", "x", x), x_offset, wait);
      });
}

}  // namespace
}  // namespace tilecl::c_api

#define TILECL_C_REDUCE(suffix, T, ValuePointer)                                                                   \
  tilecl_status tilecl_reduce_##suffix(cl_command_queue queue, tilecl_reduce_op op, size_t n, cl_mem x,            \
                                       size_t x_offset, cl_mem result, size_t result_offset,                       \
                                       TILECL_C_WAIT_PARAMETERS) {                                                 \
    return tilecl::c_api::reduce<T>(queue, op, n, x, x_offset, result, result_offset, TILECL_C_EVENTS);            \
  }                                                                                                                \
  tilecl_status tilecl_reduce_value_##suffix(cl_command_queue queue, tilecl_reduce_op op, size_t n, cl_mem x,      \
                                             size_t x_offset, ValuePointer value, cl_uint num_events_in_wait_list, \
                                             const cl_event* event_wait_list) {                                    \
    return tilecl::c_api::reduce_value<T>(queue, op, n, x, x_offset, value,                                        \
                                          {num_events_in_wait_list, event_wait_list, nullptr});                    \
  }                                                                                                                \
  tilecl_status tilecl_reduce_index_##suffix(cl_command_queue queue, tilecl_reduce_op op, size_t n, cl_mem x,      \
                                             size_t x_offset, size_t* index, cl_uint num_events_in_wait_list,      \
                                             const cl_event* event_wait_list) {                                    \
    return tilecl::c_api::reduce_index<T>(queue, op, n, x, x_offset, index,                                        \
                                          {num_events_in_wait_list, event_wait_list, nullptr});                    \
  }

extern "C" {
TILECL_C_REDUCE(f32, float, float*)
TILECL_C_REDUCE(f64, double, double*)
TILECL_C_REDUCE(i32, std::int32_t, cl_int*)
TILECL_C_REDUCE(f16, tilecl::half, float*)  // reduced in float: a float result
}
