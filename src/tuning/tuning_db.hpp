// The tuning database: one JSON file per device fingerprint, <cache>/tuning/<fingerprint>.json.
//
// {"format": "tilecl-tuning", "version": 1, "device": {identity fields, "fingerprint"},
//  "entries":  [{"op", "dtype", "bucket", "source", "variant", "params", "time_ms", "default_ms", "origin",
//                "date", "shape"}],
//  "failures": [{"op", "dtype", "source", "config", "reason"}]}
//
// Readers take no lock: writers replace the file atomically (temp file + rename). Writers serialise on
// <file>.lock, re-read the file under the lock, merge their entries into it and write it back, so no
// entry of another process is lost. A file written for another device, or by a newer library (a higher
// format version), or something other than a regular file (a directory) is left alone and not used; a file
// that does not parse, cannot be read, or has an older format version is reported once and moved aside to
// <file>.corrupt, then rebuilt. Entries whose values do not fit the device are refused by the tuning
// service (SearchSpace::validate), reported once per database and key, and tuned again.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "tilecl/device.hpp"
#include "tuning/search_space.hpp"

namespace tilecl::detail {

constexpr int kTuningDatabaseVersion = 1;

struct TuningEntry {
  std::string op;
  std::string dtype;
  std::string bucket;
  std::string source_hash;
  Config parameters;
  double time_ms = 0;
  double default_ms = 0;
  std::string origin;  // "first-use" or "tune"
  std::string date;    // UTC, ISO 8601
  std::string shape;   // the shape that was timed

  bool same_key(const TuningEntry& other) const {
    return op == other.op && dtype == other.dtype && bucket == other.bucket;
  }
};

struct TuningFailure {
  std::string op;
  std::string dtype;
  std::string source_hash;
  std::string config;  // Config::to_string()
  std::string reason;
};

struct TuningRecords {
  std::vector<TuningEntry> entries;
  std::vector<TuningFailure> failures;
};

class TuningDatabase {
 public:
  // The database of `device` under the cache directory; disabled (reads nothing, writes nothing) when the
  // disk cache is off.
  explicit TuningDatabase(const DeviceInfo& device);
  // A database at an explicit path (tests, import/export).
  TuningDatabase(std::filesystem::path path, const DeviceInfo& device);

  bool enabled() const { return path_.has_value(); }
  const std::optional<std::filesystem::path>& path() const { return path_; }

  // What the file holds now; empty when missing, foreign or corrupt (corrupt files are set aside).
  TuningRecords load() const;

  // Adds or replaces entries (same op, dtype, bucket) and adds failures, under the writer lock.
  // Returns false (after reporting once) when the file cannot be written or belongs to another device.
  bool merge(const TuningRecords& records) const;

  // Deletes the file. Returns whether one was there.
  bool erase() const;

  // JSON conversion, shared with export/import.
  static std::string to_json_text(const DeviceInfo& device, const TuningRecords& records);
  // What a document is, for this library and (when given) this device.
  enum class FileState { Missing, Valid, Foreign, Stale, Corrupt };
  // Parses a database document: Valid with the records, or Corrupt (malformed), Stale (an older format
  // version), Foreign (a newer format version, or another device) with the reason in `why`.
  static FileState from_json_text(const std::string& text, const DeviceInfo* device, TuningRecords& records,
                                  std::string& why);

 private:
  FileState read(TuningRecords& records, std::string& why) const;

  std::optional<std::filesystem::path> path_;
  DeviceInfo device_;
};

// Now, UTC, ISO 8601 ("2026-11-30T12:34:56Z").
std::string utc_now();

}  // namespace tilecl::detail
