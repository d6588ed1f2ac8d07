#include "workspace.hpp"

#include <algorithm>
#include <utility>

#include "context_cache.hpp"
#include "tilecl/device.hpp"
#include "tilecl/error.hpp"

namespace tilecl::detail {
namespace {

using Slot = WorkspaceLease::Slot;

// (device, purpose), within a context.
using Key = std::pair<cl_device_id, std::string>;

// Never destroyed: it holds OpenCL buffers, which must not be released after the driver has unloaded.
ContextCache<Key, std::shared_ptr<Slot>>& slots() {
  static auto* cache = new ContextCache<Key, std::shared_ptr<Slot>>;
  return *cache;
}

std::shared_ptr<Slot> new_slot() { return std::make_shared<Slot>(); }

cl_int execution_status(const cl::Event& event) {
  cl_int status = CL_COMPLETE;
  clGetEventInfo(event(), CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(status), &status, nullptr);
  return status;
}

bool is_user_event(const cl::Event& event) {
  cl_command_type type = 0;
  clGetEventInfo(event(), CL_EVENT_COMMAND_TYPE, sizeof(type), &type, nullptr);
  return type == CL_COMMAND_USER;
}

// Grows the lease's buffer to at least `bytes` (by half again at least, so growing in small steps is cheap).
WorkspaceLease grown(const std::string& op, const cl::Context& context, const cl::Device& device,
                     const std::string& purpose, std::size_t bytes, WorkspaceLease lease, Slot& slot) {
  if (slot.bytes >= bytes) return lease;
  // Some drivers (NVIDIA's) accept any size at creation and fail later: check the device's limit first.
  const std::uint64_t limit = device_info(device).max_allocation_bytes;
  if (bytes > limit)
    throw Error(op, "workspace", CL_INVALID_BUFFER_SIZE,
                "needs " + std::to_string(bytes) + " bytes of scratch memory for " + purpose + ", above the " +
                    std::to_string(limit) + "-byte allocation limit of the device");
  const std::size_t size = std::max(bytes, slot.bytes + slot.bytes / 2);
  try {
    slot.buffer = cl::Buffer(context, CL_MEM_READ_WRITE, size);
    slot.bytes = size;
  } catch (const cl::Error& error) {
    throw Error(op, "workspace", error.err(),
                "cannot allocate " + std::to_string(size) + " bytes of scratch memory for " + purpose);
  }
  return lease;
}

}  // namespace

WorkspaceLease::WorkspaceLease(std::shared_ptr<Slot> slot, const std::vector<cl::Event>* caller_wait)
    : slot_(std::move(slot)), lock_(slot_->mutex) {
  if (caller_wait != nullptr) wait_ = *caller_wait;
  auto& pending = slot_->user_events;
  const cl_int previous = slot_->last_use() != nullptr ? execution_status(slot_->last_use) : CL_COMPLETE;
  if (slot_->last_use() != nullptr) wait_.push_back(slot_->last_use);
  if (previous == CL_COMPLETE) pending.clear();
  pending.erase(std::remove_if(pending.begin(), pending.end(),
                               [](const cl::Event& event) { return execution_status(event) == CL_COMPLETE; }),
                pending.end());
  inherits_user_event_ = previous < 0 || !pending.empty();
  if (caller_wait == nullptr) return;
  for (const auto& event : *caller_wait)
    if (is_user_event(event) && execution_status(event) != CL_COMPLETE) pending.push_back(event);
}

WorkspaceLease acquire_workspace(const std::string& op, const cl::Context& context, const cl::Device& device,
                                 const std::string& purpose, std::size_t bytes,
                                 const std::vector<cl::Event>* caller_wait) {
  const Key key{device(), purpose};
  std::shared_ptr<Slot> slot = slots().get(context, key, new_slot);
  WorkspaceLease lease(slot, caller_wait);  // takes the slot's lock
  if (!lease.inherits_user_event()) return grown(op, context, device, purpose, bytes, std::move(lease), *slot);
  // The previous user's commands may never run: leave that buffer to them and start a new one.
  std::shared_ptr<Slot> fresh = new_slot();
  slots().set(context, key, fresh);
  return grown(op, context, device, purpose, bytes, WorkspaceLease(fresh, caller_wait), *fresh);
}

void release_workspaces() { slots().clear(); }

std::size_t workspace_count() { return slots().size(); }

}  // namespace tilecl::detail
