// The contexts the runtime keeps state for (compiled programs, workspaces, tuning queues, convolution taps), so
// that the state of contexts an application has released does not accumulate.
//
// Every cache that keeps per-context state registers a pruner here, and calls touch() before it looks up or
// inserts an entry. The registry remembers the contexts_kept() most recently used contexts; when another one
// comes, or forget() is called, every cache drops its entries for contexts no longer remembered. Dropping
// the state of a context still in use costs a rebuild (from the disk cache) and a new workspace, never a
// wrong result: programs and workspaces in use are held by their leases.
//
// Why not CL_CONTEXT_REFERENCE_COUNT ("the cache holds the only references"): the OpenCL specification calls
// the value stale and meant for leak hunting, and drivers differ in whether the programs, kernels, buffers and
// queues made from a context count towards it, so that test cannot be made portable (NVIDIA, PoCL).
#pragma once

#include <CL/opencl.hpp>
#include <cstddef>
#include <functional>
#include <list>
#include <mutex>
#include <set>
#include <vector>

namespace tilecl::detail {

// How many contexts' state is kept before the least recently used is dropped: TILECL_CONTEXTS_KEPT, else 4.
// A kept context costs what its driver holds for it and its programs: about 20 MB of host memory on PoCL and
// about 100 MB on NVIDIA's (H200), so the default covers the few contexts an application uses at once.
std::size_t contexts_kept();

class ContextRegistry {
 public:
  static ContextRegistry& instance();

  // Drops a cache's entries whose context is not in `kept`. Called without the registry's lock held, so it
  // may lock the cache; the cache must not hold its own lock while it calls touch() or forget().
  using Pruner = std::function<void(const std::set<cl_context>& kept)>;
  void add_pruner(Pruner pruner);

  // Marks `context` as the most recently used; drops the least recently used beyond contexts_kept().
  void touch(const cl::Context& context);

  // Drops every cache's state for `context` now.
  void forget(cl_context context);

  std::size_t size();

 private:
  // The contexts remembered now, and the pruners to run against them (outside the lock).
  void prune_outside_lock(std::unique_lock<std::mutex>& lock);

  std::mutex mutex_;
  std::list<cl::Context> recent_;  // most recent first; retained, so no handle is reused while remembered
  std::vector<Pruner> pruners_;
};

}  // namespace tilecl::detail
