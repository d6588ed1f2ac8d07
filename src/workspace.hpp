// Device scratch memory kept between calls (reduction partials, packed GEMM panels, the intermediate image
// of a separable filter), so no call allocates.
//
// One buffer per (context, device, purpose), grown on demand, never shrunk. A lease holds the buffer's lock
// while the op enqueues, and the op's commands wait for the previous user's last event: calls from any number
// of threads and queues (in-order or not) never use the buffer at the same time on the device either.
// A buffer replaced by a larger one is released; OpenCL frees it once the commands that use it complete.
#pragma once

#include <CL/opencl.hpp>
#include <cstddef>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace tilecl::detail {

class WorkspaceLease {
 public:
  struct Slot {
    std::mutex mutex;
    cl::Buffer buffer;
    std::size_t bytes = 0;
    cl::Event last_use;  // the last command of the previous user; null when none
    // User events (clCreateUserEvent) that the commands up to last_use wait for and that had not completed
    // when the lease was taken. One that fails leaves last_use pending for good where the driver does not
    // propagate the failure (PoCL), so a slot with one of these still incomplete is not waited for but replaced.
    std::vector<cl::Event> user_events;
  };

  WorkspaceLease(std::shared_ptr<Slot> slot, const std::vector<cl::Event>* caller_wait);
  WorkspaceLease(WorkspaceLease&&) = default;
  ~WorkspaceLease() = default;

  cl::Buffer& buffer() { return slot_->buffer; }
  std::size_t bytes() const { return slot_->bytes; }
  // The caller's wait list plus the previous user's last event: pass it to the first command that touches
  // the workspace. nullptr when empty.
  const std::vector<cl::Event>* wait_list() { return wait_.empty() ? nullptr : &wait_; }
  // Records the last command that touches the workspace; the next user waits for it.
  void release_after(const cl::Event& last_command) { slot_->last_use = last_command; }

  // Whether the previous user's commands may never complete: they wait for a user event still incomplete.
  bool inherits_user_event() const { return inherits_user_event_; }

 private:
  std::shared_ptr<Slot> slot_;
  std::unique_lock<std::mutex> lock_;
  std::vector<cl::Event> wait_;
  bool inherits_user_event_ = false;
};

// A workspace of at least `bytes` for `purpose` on the device. Throws tilecl::Error (naming `op`) when the
// allocation fails.
WorkspaceLease acquire_workspace(const std::string& op, const cl::Context& context, const cl::Device& device,
                                 const std::string& purpose, std::size_t bytes,
                                 const std::vector<cl::Event>* caller_wait);

// Frees every workspace (for tests and for programs that want the memory back).
void release_workspaces();

// Workspaces held now. Those of forgotten contexts are dropped (src/context_registry.hpp).
std::size_t workspace_count();

}  // namespace tilecl::detail
