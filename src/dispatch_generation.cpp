#include "dispatch_generation.hpp"

#include <atomic>
#include <set>

#include "context_registry.hpp"

namespace tilecl::detail {
namespace {

std::atomic<std::uint64_t> generation{1};

// A forgotten context's programs must not stay in use through the memos.
const bool kRegistered = [] {
  ContextRegistry::instance().add_pruner([](const std::set<cl_context>&) { invalidate_dispatch_memos(); });
  return true;
}();

}  // namespace

void invalidate_dispatch_memos() { generation.fetch_add(1, std::memory_order_acq_rel); }
std::uint64_t dispatch_generation() { return generation.load(std::memory_order_acquire); }

}  // namespace tilecl::detail
