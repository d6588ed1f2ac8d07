// How `tilecl tune` reports as it goes, and Ctrl-C. On a terminal: one live line on stderr ("key 3 of 12 ...
// candidate 14 of 40, 12.3 s elapsed, about 40 s left"); otherwise one line per finished key. The first
// Ctrl-C stops the run after the current candidate (TuneInterrupted is thrown from the tuner's progress
// callback; the key being tuned is dropped, finished keys stay in the database); a second one ends the
// process at once.
#pragma once

#include <chrono>
#include <cstddef>
#include <ostream>
#include <string>

namespace tilecl::tool {

struct TuneInterrupted {};

// Installs the SIGINT handler for the lifetime of the object (the previous one is restored after).
class InterruptGuard {
 public:
  InterruptGuard();
  ~InterruptGuard();
  InterruptGuard(const InterruptGuard&) = delete;
  InterruptGuard& operator=(const InterruptGuard&) = delete;
  static bool interrupted();
};

class TuneProgress {
 public:
  // `keys`: how many will be tuned; `budget_seconds`: each key's budget, for the estimate before the first
  // key ends. Per-key lines go to `lines` (stdout, or stderr when stdout carries --json).
  TuneProgress(std::size_t keys, double budget_seconds, std::ostream& lines);
  ~TuneProgress();

  // Key `label` starts (keys are counted from 1 in the order they start).
  void start_key(const std::string& label);
  // The tuner's progress callback: `done` of `total` candidates. Throws TuneInterrupted after a Ctrl-C.
  void candidate(std::size_t done, std::size_t total);
  // The key ended; `summary` is its result in a few words.
  void finish_key(const std::string& summary);

  double elapsed_seconds() const;
  std::size_t keys_finished() const { return finished_; }

 private:
  std::string timing() const;  // "12.3 s elapsed, about 40 s left"
  void clear_live_line() const;

  std::size_t keys_;
  double budget_seconds_;
  std::ostream& lines_;
  bool live_;  // stderr is a terminal
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  std::size_t started_ = 0, finished_ = 0;
  std::string label_;
};

}  // namespace tilecl::tool
