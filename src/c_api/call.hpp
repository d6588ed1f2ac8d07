// The C API's plumbing (include/tilecl/tilecl.h): OpenCL handles to OpenCL-CLHPP objects, exceptions to status
// codes and the thread's last error message. An op's C function is a call() around the C++ op:
//
//   template <typename T>
//   tilecl_status axpy(cl_command_queue queue, size_t n, T alpha, cl_mem x, size_t x_offset, cl_mem y,
//                      size_t y_offset, const c_api::Events& events) {
//     return c_api::enqueue("axpy", queue, events, [&](cl::CommandQueue& q, const std::vector<cl::Event>* wait) {
//       cl::Buffer out = c_api::buffer("axpy", "y", y);
//       return tilecl::axpy<T>(q, n, alpha, c_api::buffer("axpy", "x", x), x_offset, out, y_offset, wait);
//     });
//   }
//
// plus one extern "C" function per element type that forwards to it (TILECL_C_EVENTS below), and its
// declaration in tilecl.h.
#pragma once

#include <CL/opencl.hpp>
#include <exception>
#include <string>
#include <vector>

#include "tilecl/error.hpp"
#include "tilecl/tilecl.h"

// The last three parameters of every enqueueing C function, and the Events made of them.
#define TILECL_C_WAIT_PARAMETERS cl_uint num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event
#define TILECL_C_EVENTS \
  tilecl::c_api::Events { num_events_in_wait_list, event_wait_list, event }

namespace tilecl::c_api {

// The OpenCL wait list and event output of a C call.
struct Events {
  cl_uint count = 0;
  const cl_event* list = nullptr;
  cl_event* out = nullptr;  // may be null
};

// The handles as retained OpenCL-CLHPP objects (null stays null: the op reports it); a handle the driver
// refuses to retain raises tilecl::Error naming the argument.
cl::CommandQueue queue(const char* op, cl_command_queue handle);
cl::Buffer buffer(const char* op, const char* argument, cl_mem handle);
// The wait list, or nullptr when it is empty; a count without a list or a list without a count raises
// CL_INVALID_EVENT_WAIT_LIST.
const std::vector<cl::Event>* wait_list(const char* op, const Events& events, std::vector<cl::Event>& storage);

// The status of the exception being handled (call only inside a catch block), recording its message as the
// thread's last error.
tilecl_status status_of_current_exception();
// Clears the thread's last error (a successful call).
void record_success();
// The thread's last error message ("" after a success).
const char* last_error_text();

// Runs body() and maps what it throws to a status.
template <typename Body>
tilecl_status guarded(Body&& body) {
  try {
    body();
    record_success();
    return CL_SUCCESS;
  } catch (...) {
    return status_of_current_exception();
  }
}

// Runs enqueue(queue, wait) for `op` (it returns the C++ op's event) and hands the event to events.out,
// retained for the caller (NULL when nothing was enqueued or the call failed).
template <typename Enqueue>
tilecl_status enqueue(const char* op, cl_command_queue queue_handle, const Events& events, Enqueue&& enqueue_op) {
  if (events.out != nullptr) *events.out = nullptr;
  return guarded([&] {
    cl::CommandQueue q = queue(op, queue_handle);
    std::vector<cl::Event> storage;
    const std::vector<cl::Event>* wait = wait_list(op, events, storage);
    cl::Event done = enqueue_op(q, wait);
    if (events.out != nullptr && done() != nullptr) {
      clRetainEvent(done());
      *events.out = done();
    }
  });
}

// A pointer the caller must provide (a name, where to write a result): null raises CL_INVALID_VALUE naming it.
void require_not_null(const char* op, const char* argument, const void* pointer);

}  // namespace tilecl::c_api
