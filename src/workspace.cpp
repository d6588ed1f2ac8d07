#include "workspace.hpp"

#include <map>
#include <set>
#include <tuple>

#include "context_registry.hpp"
#include "tilecl/device.hpp"
#include "tilecl/error.hpp"

namespace tilecl::detail {
namespace {

using Key = std::tuple<cl_context, cl_device_id, std::string>;

struct Registry {
  std::mutex mutex;
  std::map<Key, std::pair<cl::Context, std::shared_ptr<WorkspaceLease::Slot>>> slots;

  void prune(const std::set<cl_context>& kept) {
    std::vector<decltype(slots)::mapped_type> dropped;  // released after the lock
    std::lock_guard<std::mutex> lock(mutex);
    dropped = take_entries_not_kept(slots, kept, [](const Key& key) { return std::get<0>(key); });
  }
};

// Never destroyed: it holds OpenCL buffers, which must not be released after the driver has unloaded.
Registry& registry() {
  static Registry* instance = [] {
    auto* created = new Registry;
    ContextRegistry::instance().add_pruner([created](const std::set<cl_context>& kept) { created->prune(kept); });
    return created;
  }();
  return *instance;
}

}  // namespace

WorkspaceLease::WorkspaceLease(std::shared_ptr<Slot> slot, const std::vector<cl::Event>* caller_wait)
    : slot_(std::move(slot)), lock_(slot_->mutex) {
  if (caller_wait != nullptr) wait_ = *caller_wait;
  if (slot_->last_use() != nullptr) wait_.push_back(slot_->last_use);
}

WorkspaceLease acquire_workspace(const std::string& op, const cl::Context& context, const cl::Device& device,
                                 const std::string& purpose, std::size_t bytes,
                                 const std::vector<cl::Event>* caller_wait) {
  std::shared_ptr<WorkspaceLease::Slot> slot;
  ContextRegistry::instance().touch(context);  // before taking the registry's lock: it may prune it
  {
    Registry& all = registry();
    std::lock_guard<std::mutex> lock(all.mutex);
    auto& entry = all.slots[Key{context(), device(), purpose}];
    if (!entry.second) entry = {context, std::make_shared<WorkspaceLease::Slot>()};
    slot = entry.second;
  }
  WorkspaceLease lease(slot, caller_wait);  // takes the slot's lock
  if (slot->bytes < bytes) {
    // Some drivers (NVIDIA's) accept any size at creation and fail later: check the device's limit first.
    const std::uint64_t limit = device_info(device).max_allocation_bytes;
    if (bytes > limit)
      throw Error(op, "workspace", CL_INVALID_BUFFER_SIZE,
                  "needs " + std::to_string(bytes) + " bytes of scratch memory for " + purpose + ", above the " +
                      std::to_string(limit) + "-byte allocation limit of the device");
    const std::size_t grown = std::max(bytes, slot->bytes + slot->bytes / 2);
    try {
      slot->buffer = cl::Buffer(context, CL_MEM_READ_WRITE, grown);
      slot->bytes = grown;
    } catch (const cl::Error& error) {
      throw Error(op, "workspace", error.err(),
                  "cannot allocate " + std::to_string(grown) + " bytes of scratch memory for " + purpose);
    }
  }
  return lease;
}

void release_workspaces() {
  Registry& all = registry();
  std::lock_guard<std::mutex> lock(all.mutex);
  all.slots.clear();
}

std::size_t workspace_count() {
  Registry& all = registry();
  std::lock_guard<std::mutex> lock(all.mutex);
  return all.slots.size();
}

}  // namespace tilecl::detail
