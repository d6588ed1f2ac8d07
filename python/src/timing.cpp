// The C++ side of the call-overhead measurement (`python -m tilecl bench`, python/tests): the same tiny
// vector_add called from C++ in a loop, so Python's cost per call is the difference of the two.
#include <nanobind/nanobind.h>

#include <chrono>

#include "bindings.hpp"
#include "handles.hpp"
#include "tilecl/elementwise.hpp"

namespace nb = nanobind;

namespace tilecl::python {
namespace {

// Seconds per call of vector_add<float>(n) over `calls` calls: enqueued back to back and finished once
// (synchronous = false), or each waited for (synchronous = true).
double time_vector_add(Handle queue, std::size_t n, Handle a, Handle b, Handle c, std::size_t calls, bool synchronous) {
  cl::CommandQueue command_queue = queue_from(queue);
  const cl::Buffer x = buffer_from(a), y = buffer_from(b);
  cl::Buffer z = buffer_from(c);
  command_queue.finish();
  const auto start = std::chrono::steady_clock::now();
  for (std::size_t call = 0; call < calls; ++call) {
    cl::Event done = vector_add<float>(command_queue, n, x, 0, y, 0, z, 0);
    if (synchronous) done.wait();
  }
  command_queue.finish();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() /
         static_cast<double>(calls > 0 ? calls : 1);
}

}  // namespace

void bind_timing(nb::module_& module) {
  module.def("time_vector_add", &time_vector_add, nb::call_guard<nb::gil_scoped_release>());
}

}  // namespace tilecl::python
