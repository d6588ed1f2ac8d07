#include "worker_data.hpp"

#include <array>
#include <atomic>
#include <cstring>
#include <mutex>
#include <string>

#include "tilecl/error.hpp"
#include "tilecl/starpu.hpp"

namespace tilecl::starpu {

namespace detail {

namespace {

struct FailureSlot {
  std::mutex mutex;
  std::exception_ptr failure;
};

FailureSlot& failure_slot() {
  static FailureSlot slot;
  return slot;
}

std::array<std::atomic<std::size_t>, STARPU_NMAXWORKERS>& task_counts() {
  static std::array<std::atomic<std::size_t>, STARPU_NMAXWORKERS> counts{};
  return counts;
}

// A byte offset as the origin of a rectangular copy: the row it falls in, and the bytes into that row.
std::array<std::size_t, 3> origin(std::size_t offset, std::size_t pitch) { return {offset % pitch, offset / pitch, 0}; }

}  // namespace

DeviceMatrix device_matrix(void* buffer_interface) {
  DeviceMatrix matrix;
  // StarPU keeps an OpenCL worker's cl_mem in the interface's integer handle.
  // NOLINTNEXTLINE(performance-no-int-to-ptr): the integer is a cl_mem, as StarPU stores it
  matrix.buffer = cl::Buffer(reinterpret_cast<cl_mem>(STARPU_MATRIX_GET_DEV_HANDLE(buffer_interface)), true);
  matrix.offset_bytes = STARPU_MATRIX_GET_OFFSET(buffer_interface);
  matrix.nx = STARPU_MATRIX_GET_NX(buffer_interface);
  matrix.ny = STARPU_MATRIX_GET_NY(buffer_interface);
  matrix.ld = STARPU_MATRIX_GET_LD(buffer_interface);
  matrix.element_size = STARPU_MATRIX_GET_ELEMSIZE(buffer_interface);
  return matrix;
}

cl::CommandQueue worker_queue() {
  cl_command_queue queue = nullptr;
  starpu_opencl_get_current_queue(&queue);
  return cl::CommandQueue(queue, true);
}

cl::Event copy_rows(cl::CommandQueue& queue, const cl::Buffer& from, std::size_t from_offset, std::size_t from_pitch,
                    const cl::Buffer& to, std::size_t to_offset, std::size_t to_pitch, std::size_t rows,
                    std::size_t row_bytes, const std::vector<cl::Event>& wait) {
  cl::Event event;
  queue.enqueueCopyBufferRect(from, to, origin(from_offset, from_pitch), origin(to_offset, to_pitch),
                              {row_bytes, rows, 1}, from_pitch, 0, to_pitch, 0, wait.empty() ? nullptr : &wait, &event);
  return event;
}

void record_failure(const char* codelet, std::exception_ptr failure) noexcept {
  try {
    try {
      std::rethrow_exception(failure);
    } catch (const Error&) {
    } catch (const cl::Error& error) {
      failure =
          std::make_exception_ptr(Error(codelet, "task", error.err(), std::string("OpenCL call ") + error.what()));
    } catch (const std::exception& error) {
      failure = std::make_exception_ptr(Error(codelet, "task", CL_OUT_OF_HOST_MEMORY, error.what()));
    }
    FailureSlot& slot = failure_slot();
    std::lock_guard<std::mutex> lock(slot.mutex);
    if (!slot.failure) slot.failure = failure;
  } catch (...) {  // NOLINT(bugprone-empty-catch): out of memory while recording; the task's output is wrong anyway
  }
}

starpu_codelet make_codelet(const char* name, starpu_opencl_func_t function,
                            std::vector<starpu_data_access_mode> modes) {
  starpu_codelet codelet;
  starpu_codelet_init(&codelet);
  codelet.where = STARPU_OPENCL;
  codelet.opencl_funcs[0] = function;
  codelet.nbuffers = static_cast<int>(modes.size());
  for (std::size_t i = 0; i < modes.size(); ++i) codelet.modes[i] = modes[i];
  codelet.name = name;
  return codelet;
}

void count_task() noexcept {
  const int worker = starpu_worker_get_id();
  if (worker >= 0 && worker < STARPU_NMAXWORKERS) ++task_counts()[static_cast<std::size_t>(worker)];
}

}  // namespace detail

std::vector<std::size_t> tasks_per_worker() {
  std::vector<std::size_t> counts;
  for (unsigned i = 0; i < starpu_worker_get_count(); ++i) counts.push_back(detail::task_counts()[i].load());
  return counts;
}

void rethrow_failure() {
  detail::FailureSlot& slot = detail::failure_slot();
  std::exception_ptr failure;
  {
    std::lock_guard<std::mutex> lock(slot.mutex);
    std::swap(failure, slot.failure);
  }
  if (failure) std::rethrow_exception(failure);
}

}  // namespace tilecl::starpu
