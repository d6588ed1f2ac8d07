// The tuning database: one JSON file per device fingerprint, <cache>/tuning/<fingerprint>.json.
//
// {"format": "tilecl-tuning", "version": 1, "device": {identity fields, "fingerprint"},
//  "entries":  [{"op", "dtype", "bucket", "source", "variant", "params", "time_ms", "default_ms", "origin",
//                "date", "shape"}],
//  "failures": [{"op", "dtype", "source", "config", "reason"}]}
//
// Readers take no lock: writers replace the file atomically (temp file + rename). Writers serialise on
// <file>.lock, re-read the file under the lock, merge their entries into it and write it back, so no
// entry of another process is lost. Files are read through the cache's trust checks (src/trusted_directory.hpp)
// and bounded (kMaxDatabaseBytes, nesting depth, entry counts) before they are parsed.
// A file this library cannot use is set aside, reported once, and replaced by the device's own entries, so the
// next process finds them and does not tune again: a file that does not parse, cannot be read, is too large, is
// not trusted, or has an older format version is moved to <file>.corrupt; a file of another device (another
// fingerprint) or of a newer format version (a newer tilecl: formats after 1 will use their own file names, so
// they never collide with this one) is moved to <file>.foreign. Something other than a regular file (a
// directory) is left alone and not used. Entries whose values do not fit the device are refused by the tuning
// service (SearchSpace::validate), reported once per database and key, and tuned again.
//
// With TILECL_CACHE_READONLY set, the database of the same name in that shared cache is read too: its entries
// serve the keys the user's own file lacks, and it is never written, moved or deleted.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "cache_directory.hpp"
#include "tilecl/device.hpp"
#include "tuning/search_space.hpp"

namespace tilecl::detail {

constexpr int kTuningDatabaseVersion = 1;

// Bounds on what is parsed: a database holds a few hundred entries (ops x dtypes x buckets) of ~300 bytes.
constexpr std::uint64_t kMaxDatabaseBytes = std::uint64_t{16} << 20;
constexpr std::size_t kMaxDatabaseEntries = 50000;  // entries, and failures
constexpr std::size_t kMaxEntryParameters = 64;
constexpr std::size_t kMaxJsonDepth = 8;  // a database nests 4 deep (document, entries, entry, params)

// Whether a JSON text nests arrays and objects deeper than `limit` (brackets inside strings do not count).
bool json_deeper_than(const std::string& text, std::size_t limit);

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
  // The database of `device` under the cache directory (written), plus the one in the read-only shared cache
  // when TILECL_CACHE_READONLY is set (read); disabled (reads nothing, writes nothing) when neither is there.
  explicit TuningDatabase(const DeviceInfo& device);
  // A database at an explicit path (tests, import/export), with no shared one.
  TuningDatabase(std::filesystem::path path, const DeviceInfo& device);

  // Whether there is a file to write.
  bool enabled() const { return own_.has_value(); }
  // The file written (the user's own).
  const std::optional<std::filesystem::path>& path() const { return path_; }

  // What the user's file holds now, plus the shared file's entries and failures for keys it lacks; empty when
  // missing or unusable (an unusable file of the user's is set aside, see above).
  TuningRecords load() const;

  // Adds or replaces entries (same op, dtype, bucket) and adds failures, under the writer lock.
  // Returns false (after reporting once) when the file cannot be written or is not a regular file.
  bool merge(const TuningRecords& records) const;

  // Drops the entry of (op, dtype, bucket) from the user's file, under the writer lock, with the same re-read and
  // atomic write as merge(). Returns whether an entry was dropped (false also when the file cannot be written; an
  // entry of the read-only shared file cannot be dropped).
  bool erase_entry(const std::string& op, const std::string& dtype, const std::string& bucket) const;

  // Deletes the user's file. Returns whether one was there.
  bool erase() const;

  // JSON conversion, shared with export/import.
  static std::string to_json_text(const DeviceInfo& device, const TuningRecords& records);
  // What a document (or the file's place) is, for this library and (when given) this device.
  enum class FileState { Missing, Valid, Foreign, Stale, Corrupt, NotAFile };
  // Parses a database document: Valid with the records, or Corrupt (malformed, or beyond the bounds above), Stale
  // (an older format version), Foreign (a newer format version, or another device) with the reason in `why`.
  static FileState from_json_text(const std::string& text, const DeviceInfo* device, TuningRecords& records,
                                  std::string& why);

  // Where a database file is: a folder of a cache root, and its name there.
  struct Location {
    CacheRoot root;
    std::vector<std::string> folders;
    std::string name;
  };

 private:
  FileState read(const Location& location, TuningRecords& records, std::string& why) const;
  TuningRecords load_own() const;
  TuningRecords load_shared() const;
  // Under the writer lock: the current records of the user's file, after setting an unusable file aside; nullopt
  // when the file is not a regular file (reported).
  std::optional<TuningRecords> current_records(const TrustedDirectory& folder) const;
  void set_aside(const TrustedDirectory& folder, FileState state, const std::string& why) const;
  bool write(const TrustedDirectory& folder, const TuningRecords& records) const;
  // Under the writer lock: the user's file re-read, passed to `change`, and written back when it returns true.
  bool update(bool create, const std::function<bool(TuningRecords&)>& change) const;

  std::optional<Location> own_;
  std::optional<Location> shared_;
  std::optional<std::filesystem::path> path_;
  DeviceInfo device_;
};

// Now, UTC, ISO 8601 ("2026-11-30T12:34:56Z").
std::string utc_now();

}  // namespace tilecl::detail
