// The runtime's state: caches, where they live, and what they did. Every function here is thread-safe.
#pragma once

#include <CL/opencl.hpp>
#include <cstddef>
#include <cstdint>
#include <string>

namespace tilecl {

// Counters since the process started (or since reset_statistics()). TILECL_VERBOSE=1 prints each event
// as it happens and these totals at exit.
struct Statistics {
  std::uint64_t memory_hits = 0;     // program found in the in-memory cache
  std::uint64_t disk_hits = 0;       // program built from a binary in the disk cache
  std::uint64_t disk_writes = 0;     // binaries written to the disk cache
  std::uint64_t disk_rejects = 0;    // damaged, foreign or unbuildable cache files deleted
  std::uint64_t compiles = 0;        // programs compiled from source
  double compile_seconds = 0;        // time spent compiling from source (and building from binaries)
  std::uint64_t tunings = 0;         // tuning searches run (first use or tilecl tune)
  double tuning_seconds = 0;         // time spent in them
  std::uint64_t tuning_db_hits = 0;  // parameters found in the tuning database
};

// A snapshot of the counters (each read atomically; a call running meanwhile may be half counted).
Statistics statistics();
// Sets every counter to zero.
void reset_statistics();

// The cache directory in use: $TILECL_CACHE_DIR, else $XDG_CACHE_HOME/tilecl, else $HOME/.cache/tilecl.
// Empty when TILECL_CACHE=off or no location can be determined.
std::string cache_directory();

// Drops every compiled program held in memory (the disk cache is kept). Programs in use stay alive until
// their last user lets go.
void clear_program_cache();

// Drops everything tilecl keeps for `context` (compiled programs and their kernels, workspaces, the tuning
// queue), so the context's memory is freed once the application releases its own handles too. Optional:
// tilecl keeps state for the `context_limit` most recently used contexts (TILECL_CONTEXTS_KEPT, default 4)
// and drops the least recently used beyond that, so an application that creates and releases contexts does
// not accumulate them either; a dropped context that is used again is served as on its first use (programs
// come from the disk cache).
// Calls in flight on a forgotten context are unaffected.
void forget_context(const cl::Context& context);

// What the in-memory caches hold now (for tests and leak hunting).
struct CacheSizes {
  std::size_t contexts = 0;       // contexts with state kept
  std::size_t context_limit = 0;  // the most contexts kept
  std::size_t programs = 0;       // compiled programs (each with its idle kernels)
  std::size_t workspaces = 0;     // device scratch buffers
  std::size_t tuning_queues = 0;  // profiling queues of first-use tuning
};
CacheSizes cache_sizes();

// The library's version ("0.1.0"), part of every binary-cache key. The pointer stays valid for the process.
const char* version();

}  // namespace tilecl
