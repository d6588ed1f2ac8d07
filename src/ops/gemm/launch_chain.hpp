// Launches in a chain (each waits for the one before, so out-of-order queues keep the order too) and the fixed
// local size of gemm's helper kernels; shared by the gemm modules.
#pragma once

#include <CL/opencl.hpp>
#include <algorithm>
#include <string>
#include <vector>

#include "checks.hpp"
#include "launch.hpp"
#include "ops/gemm/problem.hpp"
#include "program_cache.hpp"
#include "tilecl/device.hpp"

namespace tilecl::detail::gemm {

class LaunchChain {
 public:
  LaunchChain(cl::CommandQueue& queue, const std::vector<cl::Event>* first_wait, std::vector<cl::Event>* events)
      : queue_(queue), first_wait_(first_wait), events_(events) {}

  template <typename... Args>
  void launch(cl::Kernel& kernel, const cl::NDRange& global, const cl::NDRange& local, const Args&... args) {
    set_kernel_args(kOp, kernel, args...);
    std::vector<cl::Event> previous;
    if (last_() != nullptr) previous.push_back(last_);
    last_ = enqueue_kernel(kOp, queue_, kernel, global, local, last_() != nullptr ? &previous : first_wait_);
    if (events_ != nullptr) events_->push_back(last_);
  }

  template <typename... Args>
  void launch(CompiledProgram& program, const std::string& kernel_name, const cl::NDRange& global,
              const cl::NDRange& local, const Args&... args) {
    auto lease = program.lease(kernel_name, kOp);
    launch(lease.kernel(), global, local, args...);
  }

  const cl::Event& last() const { return last_; }
  // A command enqueued outside the chain (another op's last event): the next launch waits for it.
  void continue_after(const cl::Event& event) { last_ = event; }
  // What a command enqueued outside the chain must wait for: the last launch, else the chain's first wait list.
  const std::vector<cl::Event>* wait_for_next(std::vector<cl::Event>& storage) const {
    if (last_() == nullptr) return first_wait_;
    storage.assign(1, last_);
    return &storage;
  }

 private:
  cl::CommandQueue& queue_;
  const std::vector<cl::Event>* first_wait_;
  std::vector<cl::Event>* events_;
  cl::Event last_;
};

// The local size of the helper kernels (pack, reduce): always a fixed one (16 x 16 on GPUs, 16 x 4 on CPUs), never
// the driver's choice: PoCL compiles a kernel once per local size, and chooses the size from the global size, so a
// NULL local size would cost a compile for every new matrix shape.
inline cl::NDRange helper_local(const DeviceInfo& device, std::size_t x, std::size_t y) {
  if (device.is_cpu()) y = std::min<std::size_t>(y, 4);
  while (x * y > 1 &&
         (x * y > device.max_work_group_size || x > device.max_work_item_sizes[0] || y > device.max_work_item_sizes[1]))
    y > 1 ? y /= 2 : x /= 2;
  return cl::NDRange(x, y);
}
inline cl::NDRange helper_global(const cl::NDRange& local, std::uint64_t x, std::uint64_t y) {
  return cl::NDRange(round_up(x, local.get()[0]), round_up(y, local.get()[1]));
}

}  // namespace tilecl::detail::gemm
