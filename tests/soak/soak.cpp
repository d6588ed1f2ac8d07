// tilecl_soak: a bounded stress run, by hand (not CTest or CI).
//
//   tilecl_soak [--threads N] [--seconds S] [--rounds R] [--max-length L] [--context-every K] [--warmup W]
//               [--seed X]
//
// N threads (default 3) call the mixed round of tests/support/mixed_ops (axpy, reduce, transpose, gemm,
// rgb_to_gray) at random, often awkward sizes up to L elements (default 200000), every result checked against
// a host reference, until S seconds (default 60) or R rounds in all (default: no limit) have passed. Thread 0
// uses a queue shared with others, thread 1 its own queue on the shared context, thread 2 (and every third
// after) its own context, released and created anew every K rounds (default 25) -- with forget_context() every
// other time, so both ways state for dead contexts goes are exercised. First-use tuning follows TILECL_TUNE
// (on by default), the caches TILECL_CACHE_DIR.
//
// Prints the calls made, the wrong results and errors, and the resident set size (/proc/self/statm) at start,
// after warm-up and at the end, with the growth after warm-up; a progress line every 15 s shows the trend.
// Warm-up ends after W seconds (default: a third of S, at most 60) once every thread has done 20 rounds and,
// when contexts are re-created (3 threads or more), the runtime holds state for as many contexts as it keeps
// (src/context_registry.hpp): by then the caches hold their steady number of contexts and programs, and
// each context kept costs the driver's memory for its programs (about 20 MB on PoCL), so an earlier point
// would count the caches filling up as growth. With glibc it also prints the bytes malloc has handed out
// (flat while RSS grows: the allocator's or the driver's mappings, not live objects) and the RSS after
// malloc_trim(0). Exits 1 when any result was wrong or any call failed.
#include <unistd.h>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "support/mixed_ops.hpp"
#include "tilecl/tilecl.hpp"

namespace {

struct Options {
  int threads = 3;
  double seconds = 60;
  long long rounds = 0;  // 0: no limit
  std::size_t max_length = 200000;
  int context_every = 25;
  double warmup_seconds = -1;  // -1: a third of `seconds`, at most 60
  std::uint64_t seed = 1;
};

constexpr long long kWarmupRoundsPerThread = 20;
constexpr double kProgressSeconds = 15;

long long resident_kib() {
  std::ifstream statm("/proc/self/statm");
  long long total_pages = 0, resident_pages = 0;
  statm >> total_pages >> resident_pages;
  return resident_pages * ::sysconf(_SC_PAGESIZE) / 1024;
}

// Bytes the C allocator has handed out and not had back (glibc: every arena, and mmapped blocks), in KiB; -1
// elsewhere. Flat while RSS grows: the growth is no live object's, but free pages the allocator keeps or
// mappings outside the heap (the driver's loaded kernel libraries).
long long heap_in_use_kib() {
#if defined(__GLIBC__) && (__GLIBC__ > 2 || __GLIBC_MINOR__ >= 33)
  const struct mallinfo2 info = ::mallinfo2();
  return static_cast<long long>((info.uordblks + info.hblkhd) / 1024);
#else
  return -1;
#endif
}

// RSS after the allocator has given its free pages back to the system (glibc's malloc_trim); -1 elsewhere.
long long resident_kib_after_trim() {
#if defined(__GLIBC__)
  ::malloc_trim(0);
  return resident_kib();
#else
  return -1;
#endif
}

Options parse(int argc, char** argv) {
  Options options;
  for (int i = 1; i < argc; ++i) {
    const std::string flag = argv[i];
    if (i + 1 >= argc) throw std::invalid_argument("missing value after " + flag);
    const std::string value = argv[++i];
    if (flag == "--threads")
      options.threads = std::max(1, std::stoi(value));
    else if (flag == "--seconds")
      options.seconds = std::stod(value);
    else if (flag == "--rounds")
      options.rounds = std::stoll(value);
    else if (flag == "--max-length")
      options.max_length = std::max<std::size_t>(1, std::stoul(value));
    else if (flag == "--context-every")
      options.context_every = std::max(1, std::stoi(value));
    else if (flag == "--warmup")
      options.warmup_seconds = std::stod(value);
    else if (flag == "--seed")
      options.seed = std::stoull(value);
    else
      throw std::invalid_argument("unknown option " + flag);
  }
  return options;
}

struct Totals {
  std::atomic<long long> rounds{0};
  std::atomic<long long> calls{0};
  std::atomic<long long> wrong{0};
  std::atomic<long long> errors{0};
  std::atomic<long long> contexts_created{0};
  std::atomic<bool> stop{false};
  std::mutex mutex;  // for printing failures
};

// One thread's loop; `rounds_done` is this thread's count, for the warm-up point.
void soak_thread(int index, const Options& options, const cl::Device& device, cl::CommandQueue& shared_queue,
                 Totals& totals, std::atomic<long long>& rounds_done) {
  std::mt19937_64 random(options.seed * 7919 + static_cast<std::uint64_t>(index));
  const bool own_context = index % 3 == 2;
  const cl::Context shared_context = shared_queue.getInfo<CL_QUEUE_CONTEXT>();
  cl::Context context = own_context ? cl::Context(device) : shared_context;
  if (own_context) totals.contexts_created++;
  cl::CommandQueue own_queue(context, device);
  int recreations = 0;
  for (long long round = 0; !totals.stop; ++round) {
    if (options.rounds > 0 && totals.rounds++ >= options.rounds) break;
    if (own_context && round > 0 && round % options.context_every == 0) {
      own_queue.finish();
      if (++recreations % 2 == 0) tilecl::forget_context(context);
      context = cl::Context(device);
      own_queue = cl::CommandQueue(context, device);
      totals.contexts_created++;
    }
    cl::CommandQueue& queue = index == 0 ? shared_queue : own_queue;
    const auto sizes = tilecl::test::random_mixed_sizes(random, options.max_length);
    try {
      const auto failures = tilecl::test::run_mixed_ops(queue, sizes, random);
      totals.wrong += static_cast<long long>(failures.size());
      for (const auto& failure : failures) {
        std::lock_guard<std::mutex> lock(totals.mutex);
        std::cerr << "wrong result (thread " << index << ", round " << round << "): " << failure << std::endl;
      }
    } catch (const std::exception& error) {
      totals.errors++;
      std::lock_guard<std::mutex> lock(totals.mutex);
      std::cerr << "error (thread " << index << ", round " << round << "): " << error.what() << std::endl;
    }
    totals.calls += static_cast<long long>(tilecl::test::kMixedOpsPerRound);
    rounds_done++;
  }
  own_queue.finish();
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const Options options = parse(argc, argv);
    const long long rss_start = resident_kib();
    cl::Device device = tilecl::select_device();
    cl::Context context(device);
    cl::CommandQueue shared_queue(context, device);
    const auto& info = tilecl::device_info(device);
    std::cout << "tilecl_soak: " << info.device_name << " (" << info.platform_name << "), " << options.threads
              << " threads, " << options.seconds << " s"
              << (options.rounds > 0 ? ", at most " + std::to_string(options.rounds) + " rounds" : std::string())
              << ", sizes up to " << options.max_length << ", new context every " << options.context_every
              << " rounds, seed " << options.seed << ", cache " << tilecl::cache_directory() << std::endl;

    Totals totals;
    std::vector<std::atomic<long long>> rounds_done(static_cast<std::size_t>(options.threads));
    std::vector<std::thread> threads;
    const auto start = std::chrono::steady_clock::now();
    for (int t = 0; t < options.threads; ++t)
      threads.emplace_back(soak_thread, t, std::cref(options), std::cref(device), std::ref(shared_queue),
                           std::ref(totals), std::ref(rounds_done[static_cast<std::size_t>(t)]));

    const bool churns_contexts = options.threads >= 3;
    long long rss_warm = -1, heap_warm = -1;
    double warm_seconds = 0, next_progress = kProgressSeconds;
    const double warmup_seconds =
        options.warmup_seconds >= 0 ? options.warmup_seconds : std::min(60.0, options.seconds / 3);
    const auto elapsed = [&start] {
      return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    };
    while (elapsed() < options.seconds && !(options.rounds > 0 && totals.rounds >= options.rounds)) {
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
      if (rss_warm < 0 && elapsed() >= warmup_seconds &&
          std::all_of(rounds_done.begin(), rounds_done.end(),
                      [](const auto& done) { return done >= kWarmupRoundsPerThread; }) &&
          (!churns_contexts || tilecl::cache_sizes().contexts >= tilecl::cache_sizes().context_limit)) {
        rss_warm = resident_kib();
        heap_warm = heap_in_use_kib();
        warm_seconds = elapsed();
      }
      if (elapsed() >= next_progress) {
        const auto held = tilecl::cache_sizes();
        std::cout << "  " << static_cast<int>(elapsed()) << " s: " << totals.calls << " calls, "
                  << totals.wrong + totals.errors << " wrong or failed, RSS " << resident_kib() << " KiB (heap in use "
                  << heap_in_use_kib() << " KiB), " << held.contexts << " contexts, " << held.programs
                  << " programs held" << std::endl;
        next_progress += kProgressSeconds;
      }
    }
    totals.stop = true;
    for (auto& thread : threads) thread.join();
    shared_queue.finish();
    const long long rss_end = resident_kib();
    const long long heap_end = heap_in_use_kib();
    if (rss_warm < 0) {
      std::cout << "warning: the run ended before warm-up did (every thread " << kWarmupRoundsPerThread << " rounds"
                << (churns_contexts ? ", state kept for as many contexts as the limit" : "")
                << "); warm-up RSS is the end RSS" << std::endl;
      rss_warm = rss_end;
      heap_warm = heap_end;
      warm_seconds = elapsed();
    }

    const auto sizes = tilecl::cache_sizes();
    const auto statistics = tilecl::statistics();
    std::cout << "calls: " << totals.calls << " in " << elapsed() << " s ("
              << totals.calls / static_cast<long long>(tilecl::test::kMixedOpsPerRound) << " rounds of "
              << tilecl::test::kMixedOpsPerRound << " ops)\n"
              << "wrong results: " << totals.wrong << ", errors: " << totals.errors << "\n"
              << "contexts created: " << totals.contexts_created << "; held now: " << sizes.contexts
              << " contexts (limit " << sizes.context_limit << "), " << sizes.programs << " programs, "
              << sizes.workspaces << " workspaces, " << sizes.tuning_queues << " tuning queues\n"
              << "compiles: " << statistics.compiles << ", disk hits: " << statistics.disk_hits
              << ", memory hits: " << statistics.memory_hits << ", tunings: " << statistics.tunings << "\n"
              << "RSS KiB: start " << rss_start << ", after warm-up (" << warm_seconds << " s) " << rss_warm << ", end "
              << rss_end << "; growth after warm-up " << rss_end - rss_warm << " KiB\n"
              << "heap in use KiB (malloc): after warm-up " << heap_warm << ", end " << heap_end << "; growth "
              << heap_end - heap_warm << " KiB; RSS after malloc_trim " << resident_kib_after_trim() << " KiB"
              << std::endl;
    return totals.wrong == 0 && totals.errors == 0 ? 0 : 1;
  } catch (const std::exception& error) {
    std::cerr << "tilecl_soak: " << error.what() << std::endl;
    return 2;
  }
}
