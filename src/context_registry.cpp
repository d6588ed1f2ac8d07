#include "context_registry.hpp"

#include <exception>
#include <string>

#include "environment.hpp"
#include "log.hpp"
#include "tilecl/runtime.hpp"

namespace tilecl {
namespace detail {

std::size_t contexts_kept() {
  static const std::size_t kept = [] {
    constexpr std::size_t kDefault = 4;
    const auto value = env_value("TILECL_CONTEXTS_KEPT");
    if (!value) return kDefault;
    std::size_t parsed = 0, used = 0;
    try {
      parsed = std::stoul(*value, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used != value->size() || parsed == 0) {
      warn_once("TILECL_CONTEXTS_KEPT", "TILECL_CONTEXTS_KEPT=" + *value + " is not a positive whole number; keeping " +
                                            std::to_string(kDefault) + " contexts");
      return kDefault;
    }
    return parsed;
  }();
  return kept;
}

// Never destroyed: it holds contexts, which must not be released after the driver has unloaded.
ContextRegistry& ContextRegistry::instance() {
  static ContextRegistry* registry = new ContextRegistry;
  return *registry;
}

void ContextRegistry::add_pruner(Pruner pruner) {
  std::lock_guard<std::mutex> lock(mutex_);
  pruners_.push_back(std::move(pruner));
}

void ContextRegistry::touch(const cl::Context& context) {
  std::unique_lock<std::mutex> lock(mutex_);
  if (!recent_.empty() && recent_.front()() == context()) return;
  for (auto it = recent_.begin(); it != recent_.end(); ++it) {
    if ((*it)() == context()) {
      recent_.splice(recent_.begin(), recent_, it);
      return;
    }
  }
  recent_.push_front(context);
  if (recent_.size() <= contexts_kept()) return;
  // The dropped context is released after the caches let go of their entries for it.
  cl::Context dropped = std::move(recent_.back());
  recent_.pop_back();
  prune_outside_lock(lock);
}

void ContextRegistry::forget(cl_context context) {
  std::unique_lock<std::mutex> lock(mutex_);
  recent_.remove_if([context](const cl::Context& remembered) { return remembered() == context; });
  prune_outside_lock(lock);
}

std::size_t ContextRegistry::size() {
  std::lock_guard<std::mutex> lock(mutex_);
  return recent_.size();
}

void ContextRegistry::prune_outside_lock(std::unique_lock<std::mutex>& lock) {
  std::set<cl_context> kept;
  for (const auto& context : recent_) kept.insert(context());
  const std::vector<Pruner> pruners = pruners_;
  lock.unlock();
  for (const auto& prune : pruners) prune(kept);
}

}  // namespace detail

void forget_context(const cl::Context& context) { detail::ContextRegistry::instance().forget(context()); }

}  // namespace tilecl
