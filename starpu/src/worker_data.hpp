// What a codelet's OpenCL implementation sees: the worker's queue and StarPU matrices as tilecl operands, and
// how a failure leaves the codelet (recorded, never thrown through StarPU).
#pragma once

#include <starpu.h>

#include <CL/opencl.hpp>
#include <cstddef>
#include <exception>
#include <vector>

namespace tilecl::starpu::detail {

// A StarPU matrix on the worker's device: its cl_mem, and where its elements lie (byte offset, row pitch).
struct DeviceMatrix {
  cl::Buffer buffer;
  std::size_t offset_bytes = 0;
  std::size_t nx = 0, ny = 0, ld = 0, element_size = 0;

  std::size_t offset_elements() const { return offset_bytes / element_size; }
  std::size_t pitch_bytes() const { return ld * element_size; }
};

DeviceMatrix device_matrix(void* buffer_interface);

// The calling OpenCL worker's command queue (StarPU's, retained).
cl::CommandQueue worker_queue();

// Enqueues the copy of `rows` rows of `row_bytes` bytes from (from, its byte offset, its pitch) to (to, ...).
cl::Event copy_rows(cl::CommandQueue& queue, const cl::Buffer& from, std::size_t from_offset, std::size_t from_pitch,
                    const cl::Buffer& to, std::size_t to_offset, std::size_t to_pitch, std::size_t rows,
                    std::size_t row_bytes, const std::vector<cl::Event>& wait);

// Records the first failure of any codelet (rethrow_failure() raises it).
void record_failure(const char* codelet, std::exception_ptr failure) noexcept;

// Counts a task of the calling worker.
void count_task() noexcept;

// Runs a codelet's body, recording what it throws.
template <typename Body>
void guarded(const char* codelet, Body&& body) noexcept {
  count_task();
  try {
    body();
  } catch (...) {
    record_failure(codelet, std::current_exception());
  }
}

// A codelet with one OpenCL implementation and the given buffer modes.
starpu_codelet make_codelet(const char* name, starpu_opencl_func_t function,
                            std::vector<starpu_data_access_mode> modes);

}  // namespace tilecl::starpu::detail
