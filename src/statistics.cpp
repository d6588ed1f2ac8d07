#include "statistics.hpp"

#include <cstdio>

#include "context_registry.hpp"
#include "environment.hpp"
#include "program_cache.hpp"
#include "tilecl/runtime.hpp"
#include "tuning/tuning_run.hpp"
#include "workspace.hpp"

namespace tilecl {
namespace detail {
namespace {

// With TILECL_VERBOSE=1 the totals are printed when the process exits.
struct ExitReport {
  ~ExitReport() {
    if (!verbose()) return;
    Statistics s = statistics();
    std::fprintf(stderr,
                 "[tilecl] statistics: %llu memory hits, %llu disk hits, %llu compiles (%.3f s), %llu disk writes, "
                 "%llu disk rejects, %llu tunings (%.3f s), %llu tuning-database hits\n",
                 static_cast<unsigned long long>(s.memory_hits), static_cast<unsigned long long>(s.disk_hits),
                 static_cast<unsigned long long>(s.compiles), s.compile_seconds,
                 static_cast<unsigned long long>(s.disk_writes), static_cast<unsigned long long>(s.disk_rejects),
                 static_cast<unsigned long long>(s.tunings), s.tuning_seconds,
                 static_cast<unsigned long long>(s.tuning_db_hits));
  }
};

}  // namespace

Counters& counters() {
  static Counters instance;
  static ExitReport report;  // constructed after instance, so destroyed before it
  return instance;
}

}  // namespace detail

Statistics statistics() {
  const auto& c = detail::counters();
  Statistics s;
  s.memory_hits = c.memory_hits;
  s.disk_hits = c.disk_hits;
  s.disk_writes = c.disk_writes;
  s.disk_rejects = c.disk_rejects;
  s.compiles = c.compiles;
  s.compile_seconds = static_cast<double>(c.compile_nanoseconds) * 1e-9;
  s.tunings = c.tunings;
  s.tuning_seconds = static_cast<double>(c.tuning_nanoseconds) * 1e-9;
  s.tuning_db_hits = c.tuning_db_hits;
  return s;
}

void reset_statistics() {
  auto& c = detail::counters();
  c.memory_hits = 0;
  c.disk_hits = 0;
  c.disk_writes = 0;
  c.disk_rejects = 0;
  c.compiles = 0;
  c.compile_nanoseconds = 0;
  c.tunings = 0;
  c.tuning_nanoseconds = 0;
  c.tuning_db_hits = 0;
}

CacheSizes cache_sizes() {
  CacheSizes sizes;
  sizes.contexts = detail::ContextRegistry::instance().size();
  sizes.context_limit = detail::contexts_kept();
  sizes.programs = detail::ProgramCache::instance().size();
  sizes.workspaces = detail::workspace_count();
  sizes.tuning_queues = detail::profiling_queue_count();
  return sizes;
}

const char* version() { return TILECL_VERSION; }

}  // namespace tilecl
