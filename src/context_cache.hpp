// The two shapes of in-memory cache the runtime needs, written once:
//
// BuildOnceMap<Key, Value>: the first caller of a key builds its value, outside the map's lock; callers that
// arrive meanwhile wait for that one build; a build that throws is remembered, and every later caller of the key
// gets the same exception (no retry) -- unless the caller asks for OnFailure::Retry, for values whose failures
// are passing (an allocation). Used where a value is costly (a compiled program, a tuning choice).
//
// ContextCache<Key, Value>: a BuildOnceMap whose entries belong to an OpenCL context. Each entry retains its
// context (so the handle cannot be reused by a new context while the entry exists), touches the context in the
// ContextRegistry before every lookup, and registers a pruner there, so the entries of contexts the registry no
// longer remembers are dropped (src/context_registry.hpp). Used for every per-context state (programs,
// workspaces, profiling queues, device copies of filter taps).
//
// Both are safe to call from any number of threads. Values are copied out (make them cheap to copy: handles,
// shared pointers). A ContextCache must never be destroyed (create it with `new` in a function-local static):
// its pruner stays registered, and releasing OpenCL objects from static destructors can run after the driver
// has unloaded.
#pragma once

#include <CL/opencl.hpp>
#include <chrono>
#include <cstddef>
#include <exception>
#include <functional>
#include <future>
#include <iterator>
#include <map>
#include <mutex>
#include <set>
#include <utility>
#include <vector>

#include "context_registry.hpp"

namespace tilecl::detail {

// What a failed build leaves: the exception for every later caller, or nothing (the next caller builds again; the
// callers that waited for the failed build still get its exception).
enum class OnFailure { Remember, Retry };

template <typename Key, typename Value>
class BuildOnceMap {
 public:
  // The value of `key`: built by `build()` (a callable returning Value) in the first caller's thread.
  template <typename Build>
  Value get(const Key& key, Build&& build, OnFailure on_failure = OnFailure::Remember) {
    std::promise<Value> promise;
    std::shared_future<Value> future;
    bool builder = false;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      auto [entry, inserted] = entries_.try_emplace(key);
      if (inserted) entry->second = promise.get_future().share();
      future = entry->second;
      builder = inserted;
    }
    if (builder) {
      try {
        promise.set_value(std::forward<Build>(build)());
      } catch (...) {
        promise.set_exception(std::current_exception());
        if (on_failure == OnFailure::Retry) erase(key);
      }
    }
    return future.get();
  }

  void erase(const Key& key) {
    typename Map::node_type dropped;  // released after the lock
    std::lock_guard<std::mutex> lock(mutex_);
    dropped = entries_.extract(key);
  }

  // Drops the key's entry when it is built and `drop(value)` holds; an entry being built, or whose build failed,
  // stays. For forgetting one value without undoing a newer build of the same key.
  template <typename Drop>
  void erase_if_built(const Key& key, Drop drop) {
    typename Map::node_type dropped;  // released after the lock
    std::lock_guard<std::mutex> lock(mutex_);
    auto found = entries_.find(key);
    if (found == entries_.end() || !is_value(found->second) || !drop(found->second.get())) return;
    dropped = entries_.extract(found);
  }

  // Whether the key is built, being built, or failed.
  bool contains(const Key& key) {
    std::lock_guard<std::mutex> lock(mutex_);
    return entries_.count(key) != 0;
  }

  // Replaces the key's entry with a value known already (a full tuning's result, a fresh workspace).
  void set(const Key& key, Value value) {
    std::promise<Value> promise;
    promise.set_value(std::move(value));
    std::shared_future<Value> replaced = promise.get_future().share();
    std::lock_guard<std::mutex> lock(mutex_);
    std::swap(entries_[key], replaced);  // the old entry is released after the lock
  }

  // Drops every entry whose key fails `keep(key)`; keys and values are released after the lock (releasing
  // OpenCL objects can take a while).
  template <typename Keep>
  void erase_unless(Keep keep) {
    std::vector<typename Map::node_type> dropped;
    std::lock_guard<std::mutex> lock(mutex_);
    for (auto it = entries_.begin(); it != entries_.end();) {
      auto next = std::next(it);
      if (!keep(it->first)) dropped.push_back(entries_.extract(it));
      it = next;
    }
  }

  void clear() {
    Map dropped;
    std::lock_guard<std::mutex> lock(mutex_);
    dropped.swap(entries_);
  }

  std::size_t size() {
    std::lock_guard<std::mutex> lock(mutex_);
    return entries_.size();
  }

 private:
  using Map = std::map<Key, std::shared_future<Value>>;

  // Whether a build is finished and did not throw.
  static bool is_value(const std::shared_future<Value>& future) {
    if (future.wait_for(std::chrono::seconds(0)) != std::future_status::ready) return false;
    try {
      future.get();
      return true;
    } catch (...) {
      return false;
    }
  }

  std::mutex mutex_;
  Map entries_;
};

// A context and a key, ordered by the context's handle, then the key. Holding the cl::Context retains it.
template <typename Key>
struct ContextKey {
  cl::Context context;
  Key key;

  bool operator<(const ContextKey& other) const {
    if (context() != other.context()) return std::less<cl_context>()(context(), other.context());
    return key < other.key;
  }
};

template <typename Key, typename Value>
class ContextCache {
 public:
  ContextCache() {
    ContextRegistry::instance().add_pruner([this](const std::set<cl_context>& kept) {
      entries_.erase_unless([&kept](const ContextKey<Key>& key) { return kept.count(key.context()) != 0; });
    });
  }
  ContextCache(const ContextCache&) = delete;
  ContextCache& operator=(const ContextCache&) = delete;

  // The value of (context, key), built once by `build()` (BuildOnceMap::get).
  template <typename Build>
  Value get(const cl::Context& context, const Key& key, Build&& build, OnFailure on_failure = OnFailure::Remember) {
    ContextRegistry::instance().touch(context);  // before the map's lock: touching may prune this cache
    return entries_.get(ContextKey<Key>{context, key}, std::forward<Build>(build), on_failure);
  }

  bool contains(const cl::Context& context, const Key& key) { return entries_.contains(ContextKey<Key>{context, key}); }

  // Replaces the entry of (context, key) (BuildOnceMap::set).
  void set(const cl::Context& context, const Key& key, Value value) {
    ContextRegistry::instance().touch(context);
    entries_.set(ContextKey<Key>{context, key}, std::move(value));
  }

  void clear() { entries_.clear(); }
  std::size_t size() { return entries_.size(); }

 private:
  BuildOnceMap<ContextKey<Key>, Value> entries_;
};

}  // namespace tilecl::detail
