#include "tuning/tuning_db.hpp"

#include <algorithm>
#include <chrono>
#include <ctime>
#include <functional>
#include <limits>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "cache_directory.hpp"
#include "file_store.hpp"
#include "log.hpp"
#include "trusted_directory.hpp"

namespace tilecl::detail {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

constexpr const char* kFormat = "tilecl-tuning";

json device_json(const DeviceInfo& device) {
  return {{"fingerprint", device.fingerprint()},         {"platform_name", device.platform_name},
          {"platform_version", device.platform_version}, {"device_name", device.device_name},
          {"device_vendor", device.device_vendor},       {"device_version", device.device_version},
          {"driver_version", device.driver_version},     {"opencl_c_version", device.opencl_c_version},
          {"compute_units", device.compute_units}};
}

json entry_json(const TuningEntry& entry) {
  return {{"op", entry.op},
          {"dtype", entry.dtype},
          {"bucket", entry.bucket},
          {"source", entry.source_hash},
          {"variant", entry.parameters.variant},
          {"params", entry.parameters.values},
          {"time_ms", entry.time_ms},
          {"default_ms", entry.default_ms},
          {"origin", entry.origin},
          {"date", entry.date},
          {"shape", entry.shape}};
}

// A damaged document, refused as malformed like nlohmann's own exceptions.
struct Malformed : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A whole number that fits std::int64_t. nlohmann's get<integer>() converts a float with a static_cast,
// which is undefined behaviour when the value is out of range ("VEC": 1e30; found by fuzz_tuning_db), and
// silently truncates a fraction.
std::int64_t integer_from(const json& value, const std::string& what) {
  const bool fits =
      value.is_number_integer() &&
      !(value.is_number_unsigned() &&
        value.get<std::uint64_t>() > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()));
  if (!fits) throw Malformed(what + " is not an integer within 64 bits: " + value.dump());
  return value.get<std::int64_t>();
}

TuningEntry entry_from(const json& j) {
  TuningEntry entry;
  entry.op = j.at("op").get<std::string>();
  entry.dtype = j.at("dtype").get<std::string>();
  entry.bucket = j.at("bucket").get<std::string>();
  entry.source_hash = j.at("source").get<std::string>();
  entry.parameters.variant = j.at("variant").get<std::string>();
  const json& params = j.at("params");
  if (!params.is_object() || params.size() > kMaxEntryParameters)
    throw Malformed("params is not an object of at most " + std::to_string(kMaxEntryParameters) + " values");
  for (const auto& [name, value] : params.items()) entry.parameters.values[name] = integer_from(value, name);
  entry.time_ms = j.value("time_ms", 0.0);
  entry.default_ms = j.value("default_ms", 0.0);
  entry.origin = j.value("origin", std::string("tune"));
  entry.date = j.value("date", std::string());
  entry.shape = j.value("shape", std::string());
  return entry;
}

TuningFailure failure_from(const json& j) {
  return {j.at("op").get<std::string>(), j.at("dtype").get<std::string>(), j.at("source").get<std::string>(),
          j.at("config").get<std::string>(), j.value("reason", std::string())};
}

// The entries and failures of a document of this format version; throws json::exception or Malformed.
TuningRecords records_from(const json& document) {
  const json& entries = document.at("entries");
  const json failures = document.value("failures", json::array());
  if (entries.size() > kMaxDatabaseEntries || failures.size() > kMaxDatabaseEntries)
    throw Malformed("more than " + std::to_string(kMaxDatabaseEntries) + " entries or failures");
  TuningRecords records;
  for (const auto& item : entries) records.entries.push_back(entry_from(item));
  for (const auto& item : failures) records.failures.push_back(failure_from(item));
  return records;
}

}  // namespace

bool json_deeper_than(const std::string& text, std::size_t limit) {
  std::size_t depth = 0;
  bool in_string = false, escaped = false;
  for (const char c : text) {
    if (in_string) {
      const bool closes = !escaped && c == '"';
      escaped = !escaped && c == '\\';
      in_string = !closes;
      continue;
    }
    if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > limit) return true;
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return false;
}

std::string utc_now() {
  std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm parts{};
  gmtime_r(&now, &parts);
  char text[32];
  std::strftime(text, sizeof(text), "%Y-%m-%dT%H:%M:%SZ", &parts);
  return text;
}

TuningDatabase::TuningDatabase(const DeviceInfo& device) : device_(device) {
  const std::string name = device.fingerprint() + ".json";
  if (auto root = writable_cache()) {
    own_ = Location{*root, {"tuning"}, name};
    path_ = root->path / "tuning" / name;
  }
  if (auto root = read_only_cache()) shared_ = Location{*root, {"tuning"}, name};
}

TuningDatabase::TuningDatabase(fs::path path, const DeviceInfo& device)
    : own_(Location{CacheRoot{path.parent_path().empty() ? fs::path(".") : path.parent_path(), false},
                    {},
                    path.filename().string()}),
      path_(std::move(path)),
      device_(device) {}

std::string TuningDatabase::to_json_text(const DeviceInfo& device, const TuningRecords& records) {
  json document = {{"format", kFormat}, {"version", kTuningDatabaseVersion}, {"device", device_json(device)}};
  document["entries"] = json::array();
  for (const auto& entry : records.entries) document["entries"].push_back(entry_json(entry));
  document["failures"] = json::array();
  for (const auto& failure : records.failures)
    document["failures"].push_back({{"op", failure.op},
                                    {"dtype", failure.dtype},
                                    {"source", failure.source_hash},
                                    {"config", failure.config},
                                    {"reason", failure.reason}});
  return document.dump(1) + "\n";
}

TuningDatabase::FileState TuningDatabase::from_json_text(const std::string& text, const DeviceInfo* device,
                                                         TuningRecords& records, std::string& why) {
  if (text.size() > kMaxDatabaseBytes || json_deeper_than(text, kMaxJsonDepth)) {
    why = "larger than " + std::to_string(kMaxDatabaseBytes) + " bytes or nested deeper than " +
          std::to_string(kMaxJsonDepth) + " levels";
    return FileState::Corrupt;
  }
  json document = json::parse(text, nullptr, false);
  if (document.is_discarded() || !document.is_object()) {
    why = "not valid JSON";
    return FileState::Corrupt;
  }
  try {
    if (document.value("format", std::string()) != kFormat) {
      why = "not a tilecl tuning database";
      return FileState::Corrupt;
    }
    const auto version_field = document.find("version");
    const std::int64_t version = version_field == document.end() ? 0 : integer_from(*version_field, "version");
    if (version != kTuningDatabaseVersion) {
      why = "database format version " + std::to_string(version) + ", this library reads " +
            std::to_string(kTuningDatabaseVersion);
      return version < kTuningDatabaseVersion ? FileState::Stale : FileState::Foreign;
    }
    TuningRecords parsed = records_from(document);
    const std::string fingerprint = document.at("device").value("fingerprint", std::string());
    if (device != nullptr && fingerprint != device->fingerprint()) {
      why = "written for another device or driver (fingerprint " + fingerprint + ")";
      return FileState::Foreign;
    }
    records = std::move(parsed);
    return FileState::Valid;
  } catch (const json::exception& error) {
    why = std::string("malformed: ") + error.what();
    return FileState::Corrupt;
  } catch (const Malformed& error) {
    why = std::string("malformed: ") + error.what();
    return FileState::Corrupt;
  }
}

TuningDatabase::FileState TuningDatabase::read(const Location& location, TuningRecords& records,
                                               std::string& why) const {
  auto folder = open_cache_folder(location.root, location.folders, false);
  if (!folder) return FileState::Missing;
  FileRead file = read_file(*folder, location.name, kMaxDatabaseBytes);
  why = file.why;
  switch (file.outcome) {
    case FileRead::Outcome::Missing:
      return FileState::Missing;
    case FileRead::Outcome::NotAFile:
      return FileState::NotAFile;
    case FileRead::Outcome::Refused:
      return FileState::Corrupt;
    case FileRead::Outcome::Read:
      break;
  }
  return from_json_text(std::string(file.bytes.begin(), file.bytes.end()), &device_, records, why);
}

void TuningDatabase::set_aside(const TrustedDirectory& folder, FileState state, const std::string& why) const {
  const std::string file = path_->string();
  if (state == FileState::NotAFile) {
    warn_once("tuning-db:" + file, "tuning database " + file + " is not used: " + why);
    return;
  }
  const bool foreign = state == FileState::Foreign;
  const std::string aside = own_->name + (foreign ? ".foreign" : ".corrupt");
  rename_entry(folder, own_->name, aside);
  warn_once("tuning-db:" + file, "tuning database " + file + (foreign ? " is not this device's (" : " is damaged (") +
                                     why + "); moved to " + (folder.path() / aside).string() +
                                     " and rebuilt with this device's entries");
}

std::optional<TuningRecords> TuningDatabase::current_records(const TrustedDirectory& folder) const {
  TuningRecords current;
  std::string why;
  const FileState state = read(*own_, current, why);
  if (state == FileState::Valid || state == FileState::Missing) return current;
  set_aside(folder, state, why);
  if (state == FileState::NotAFile) return std::nullopt;
  return TuningRecords{};
}

bool TuningDatabase::write(const TrustedDirectory& folder, const TuningRecords& records) const {
  const std::string text = to_json_text(device_, records);
  write_atomically(folder, own_->name, std::vector<unsigned char>(text.begin(), text.end()));
  log_verbose("tuning database: wrote " + path_->string());
  return true;
}

TuningRecords TuningDatabase::load_own() const {
  TuningRecords records;
  std::string why;
  const FileState state = read(*own_, records, why);
  if (state == FileState::Valid || state == FileState::Missing) return records;
  if (state == FileState::NotAFile) {
    warn_once("tuning-db:" + path_->string(), "tuning database " + path_->string() + " is not used: " + why);
    return {};
  }
  // Set aside under the writer lock, so a writer mid-merge is not disturbed.
  try {
    auto folder = open_cache_folder(own_->root, own_->folders, false);
    if (!folder) return {};
    FileLock lock(*folder, own_->name + ".lock");
    return current_records(*folder).value_or(TuningRecords{});
  } catch (const std::exception&) {
    warn_once("tuning-db:" + path_->string(), "tuning database " + path_->string() + " is not used: " + why);
    return {};
  }
}

TuningRecords TuningDatabase::load_shared() const {
  TuningRecords records;
  std::string why;
  const FileState state = read(*shared_, records, why);
  if (state != FileState::Valid && state != FileState::Missing) {
    const fs::path file = shared_->root.path / "tuning" / shared_->name;
    warn_once("tuning-db:" + file.string(),
              "tuning database " + file.string() + " of the read-only cache is not used: " + why);
  }
  return records;
}

TuningRecords TuningDatabase::load() const {
  TuningRecords records;
  if (own_) records = load_own();
  if (!shared_) return records;
  const TuningRecords shared = load_shared();
  for (const auto& entry : shared.entries) {
    const bool known = std::any_of(records.entries.begin(), records.entries.end(),
                                   [&](const TuningEntry& own) { return own.same_key(entry); });
    if (!known) records.entries.push_back(entry);
  }
  records.failures.insert(records.failures.end(), shared.failures.begin(), shared.failures.end());
  return records;
}

bool TuningDatabase::update(bool create, const std::function<bool(TuningRecords&)>& change) const {
  if (!own_) return false;
  try {
    auto folder = open_cache_folder(own_->root, own_->folders, create);
    if (!folder) return false;
    FileLock lock(*folder, own_->name + ".lock");
    auto current = current_records(*folder);
    return current && change(*current) && write(*folder, *current);
  } catch (const std::exception& error) {
    warn_once("tuning-db-write:" + path_->string(),
              std::string("cannot write the tuning database (continuing without it): ") + error.what());
    return false;
  }
}

bool TuningDatabase::merge(const TuningRecords& records) const {
  return update(true, [&records](TuningRecords& current) {
    for (const auto& entry : records.entries) {
      auto existing = std::find_if(current.entries.begin(), current.entries.end(),
                                   [&](const TuningEntry& known) { return known.same_key(entry); });
      if (existing != current.entries.end())
        *existing = entry;
      else
        current.entries.push_back(entry);
    }
    for (const auto& failure : records.failures) {
      const bool known = std::any_of(current.failures.begin(), current.failures.end(), [&](const TuningFailure& f) {
        return f.op == failure.op && f.dtype == failure.dtype && f.source_hash == failure.source_hash &&
               f.config == failure.config;
      });
      if (!known) current.failures.push_back(failure);
    }
    return true;
  });
}

bool TuningDatabase::erase_entry(const std::string& op, const std::string& dtype, const std::string& bucket) const {
  return update(false, [&](TuningRecords& current) {
    const auto kept = std::remove_if(current.entries.begin(), current.entries.end(), [&](const TuningEntry& entry) {
      return entry.op == op && entry.dtype == dtype && entry.bucket == bucket;
    });
    if (kept == current.entries.end()) return false;
    current.entries.erase(kept, current.entries.end());
    return true;
  });
}

bool TuningDatabase::erase() const {
  if (!own_) return false;
  auto folder = open_cache_folder(own_->root, own_->folders, false);
  return folder && remove_entry(*folder, own_->name);
}

}  // namespace tilecl::detail
