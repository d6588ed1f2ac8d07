#include "tune_progress.hpp"

#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <iomanip>
#include <sstream>

namespace tilecl::tool {
namespace {

volatile std::sig_atomic_t interrupt_requested = 0;
struct sigaction previous_action {};

void on_interrupt(int /*signal*/) {
  interrupt_requested = 1;
  const char message[] =
      "\ntilecl tune: stopping after the current candidate; keys already tuned are kept (Ctrl-C again quits at "
      "once)\n";
  // write(2) is async-signal-safe; nothing to do if it fails.
  [[maybe_unused]] const auto written = ::write(2, message, sizeof(message) - 1);
}

std::string seconds(double value) {
  std::ostringstream text;
  text << std::fixed << std::setprecision(value < 10 ? 1 : 0) << value << " s";
  return text.str();
}

}  // namespace

InterruptGuard::InterruptGuard() {
  interrupt_requested = 0;
  struct sigaction action {};
  action.sa_handler = on_interrupt;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESETHAND;  // the second Ctrl-C gets the default action: the process ends
  sigaction(SIGINT, &action, &previous_action);
}

InterruptGuard::~InterruptGuard() { sigaction(SIGINT, &previous_action, nullptr); }

bool InterruptGuard::interrupted() { return interrupt_requested != 0; }

TuneProgress::TuneProgress(std::size_t keys, double budget_seconds, std::ostream& lines)
    : keys_(keys), budget_seconds_(budget_seconds), lines_(lines), live_(::isatty(2) != 0) {}

TuneProgress::~TuneProgress() { clear_live_line(); }

double TuneProgress::elapsed_seconds() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

std::string TuneProgress::timing() const {
  const std::size_t left = keys_ - finished_;
  // Before any key ends, each is assumed to use its whole budget; after, the mean time of the keys done.
  const double per_key = finished_ > 0 ? elapsed_seconds() / static_cast<double>(finished_) : budget_seconds_;
  return seconds(elapsed_seconds()) + " elapsed, about " + seconds(per_key * static_cast<double>(left)) + " left";
}

void TuneProgress::start_key(const std::string& label) {
  ++started_;
  label_ = label;
  candidate(0, 0);
}

void TuneProgress::candidate(std::size_t done, std::size_t total) {
  if (InterruptGuard::interrupted()) throw TuneInterrupted{};
  if (!live_) return;
  std::string line = "key " + std::to_string(started_) + " of " + std::to_string(keys_) + ": " + label_;
  if (total > 0) line += ", candidate " + std::to_string(done) + " of " + std::to_string(total);
  line += "; " + timing();
  if (line.size() > 119) line.resize(119);
  std::fprintf(stderr, "\r%-119s", line.c_str());
  std::fflush(stderr);
}

void TuneProgress::finish_key(const std::string& summary) {
  ++finished_;
  clear_live_line();
  lines_ << "key " << started_ << " of " << keys_ << ": " << label_ << ": " << summary << "; " << timing() << std::endl;
}

void TuneProgress::clear_live_line() const {
  if (live_) std::fprintf(stderr, "\r%119s\r", "");
}

}  // namespace tilecl::tool
