// Kernel launches of one op call in a chain: each waits for the previous one, so out-of-order queues keep the
// order too; the first waits for the caller's wait list (or a workspace lease's).
#pragma once

#include <CL/opencl.hpp>
#include <string>
#include <utility>
#include <vector>

#include "launch.hpp"
#include "program_cache.hpp"

namespace tilecl::detail {

class LaunchSequence {
 public:
  // `events` (optional) receives every launch, first to last.
  LaunchSequence(std::string op, cl::CommandQueue& queue, const std::vector<cl::Event>* first_wait,
                 std::vector<cl::Event>* events)
      : op_(std::move(op)), queue_(queue), first_wait_(first_wait), events_(events) {}

  // Leases the kernel from `program`, sets its arguments in order and enqueues it after the previous launch.
  template <typename... Args>
  void launch(CompiledProgram& program, const std::string& kernel_name, const cl::NDRange& global,
              const cl::NDRange& local, const Args&... args) {
    auto lease = program.lease(kernel_name, op_);
    launch_kernel(lease.kernel(), global, local, args...);
  }

  // The same with a kernel the caller holds (leased for good by a memo entry, used by one thread at a time).
  template <typename... Args>
  void launch_kernel(cl::Kernel& kernel, const cl::NDRange& global, const cl::NDRange& local, const Args&... args) {
    set_kernel_args(op_, kernel, args...);
    last_ = enqueue_kernel(op_, queue_, kernel, global, local, next_wait());
    if (events_ != nullptr) events_->push_back(last_);
  }

  // A command enqueued by the caller (a buffer write): later launches wait for it.
  void append(const cl::Event& event) {
    last_ = event;
    if (events_ != nullptr) events_->push_back(last_);
  }

  // The wait list for the next command: the last launch, or the first wait list when nothing ran yet.
  const std::vector<cl::Event>* next_wait() {
    if (last_() == nullptr) return first_wait_;
    previous_ = {last_};
    return &previous_;
  }

  const cl::Event& last() const { return last_; }

 private:
  std::string op_;
  cl::CommandQueue& queue_;
  const std::vector<cl::Event>* first_wait_;
  std::vector<cl::Event>* events_;
  cl::Event last_;
  std::vector<cl::Event> previous_;
};

}  // namespace tilecl::detail
