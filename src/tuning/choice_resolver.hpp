// What configuration a key gets, in order: an override (src/tuning/overrides.hpp), the choice already made in this
// process, the tuning database, first-use tuning (TILECL_TUNE), the device-derived default. Choices are held in a
// BuildOnceMap: threads that miss the same key wait for one resolution, so a key is tuned once per process; the
// database makes it once per device. A chosen configuration that fails is discarded (recorded as a known failure,
// src/tuning/known_failures.hpp) and the key resolved again without it -- once, however many callers saw it fail.
#pragma once

#include <string>
#include <tuple>

#include "checks.hpp"
#include "context_cache.hpp"
#include "tilecl/tuning.hpp"
#include "tuning/tuning_subject.hpp"

namespace tilecl::detail {

class ChoiceResolver {
 public:
  static ChoiceResolver& instance();

  // The parameters for a call; never throws for tuning failures (falls back to the default).
  tuning::Choice choose(const QueueTarget& target, TuningSubject& subject);

  // A chosen configuration failed to build or launch: reported once, recorded as a failure (in the database and in
  // this process), and the key's choice forgotten -- if it still is `failed` -- so that the next resolution tunes
  // without it.
  void discard(const QueueTarget& target, TuningSubject& subject, const Config& failed, const std::string& reason);

  // Makes `choice` the key's choice in this process (the result of `tilecl tune`).
  void set_choice(const DeviceInfo& device, const TuningKey& key, const tuning::Choice& choice);

  // Forgets every choice held in memory (the database is kept).
  void forget_choices();

 private:
  ChoiceResolver() = default;

  using MemoryKey = std::tuple<std::string, std::string, std::string, std::string>;  // fingerprint, op, dtype, bucket
  static MemoryKey memory_key(const DeviceInfo& device, const TuningKey& key);

  BuildOnceMap<MemoryKey, tuning::Choice> choices_;
};

}  // namespace tilecl::detail
