// The runtime's state: caches, where they live, and what they did. Every function here is thread-safe.
#pragma once

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

// The library's version ("0.1.0"), part of every binary-cache key. The pointer stays valid for the process.
const char* version();

}  // namespace tilecl
