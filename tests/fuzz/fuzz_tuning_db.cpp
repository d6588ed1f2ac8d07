// libFuzzer target: the tuning database reader (TuningDatabase::from_json_text), which reads a JSON file any
// process, older library or damaged disk may have left in the cache directory. Every input must be accepted
// or refused with a reason, never crash; what is accepted must survive a round trip through the writer.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "fuzz/fuzz_inputs.hpp"
#include "tuning/tuning_db.hpp"

namespace {

using tilecl::detail::TuningDatabase;
using tilecl::detail::TuningRecords;
using State = TuningDatabase::FileState;

bool same_records(const TuningRecords& a, const TuningRecords& b) {
  if (a.entries.size() != b.entries.size() || a.failures.size() != b.failures.size()) return false;
  for (std::size_t i = 0; i < a.entries.size(); ++i) {
    const auto& x = a.entries[i];
    const auto& y = b.entries[i];
    if (!x.same_key(y) || x.source_hash != y.source_hash || x.parameters != y.parameters || x.time_ms != y.time_ms ||
        x.default_ms != y.default_ms || x.origin != y.origin || x.date != y.date || x.shape != y.shape)
      return false;
  }
  for (std::size_t i = 0; i < a.failures.size(); ++i) {
    const auto& x = a.failures[i];
    const auto& y = b.failures[i];
    if (x.op != y.op || x.dtype != y.dtype || x.source_hash != y.source_hash || x.config != y.config ||
        x.reason != y.reason)
      return false;
  }
  return true;
}

[[noreturn]] void fail(const char* what) {
  std::fprintf(stderr, "fuzz_tuning_db: %s\n", what);
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const tilecl::DeviceInfo device = tilecl::fuzz::seed_device();
  const std::string text(reinterpret_cast<const char*>(data), size);

  TuningRecords any_device;
  std::string why;
  const State state = TuningDatabase::from_json_text(text, nullptr, any_device, why);
  if (state != State::Valid) {
    if (why.empty()) fail("a refused document has no reason");
    return 0;
  }

  // For a given device the answer is the same, or Foreign (another device's file).
  TuningRecords this_device;
  why.clear();
  const State for_device = TuningDatabase::from_json_text(text, &device, this_device, why);
  if (for_device == State::Valid && !same_records(any_device, this_device)) fail("the device changed the records");
  if (for_device != State::Valid && (for_device != State::Foreign || why.empty())) fail("device check misfiled");

  // What was read, written again, reads back the same.
  const std::string written = TuningDatabase::to_json_text(device, any_device);
  TuningRecords again;
  why.clear();
  if (TuningDatabase::from_json_text(written, &device, again, why) != State::Valid)
    fail(("the writer's own output is refused: " + why).c_str());
  if (!same_records(any_device, again)) fail("the round trip changed the records");
  return 0;
}
