#include "tuning/tuning_db.hpp"

#include <chrono>
#include <ctime>
#include <limits>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "cache_directory.hpp"
#include "file_store.hpp"
#include "log.hpp"

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
  if (!params.is_object()) throw Malformed("params is not an object");
  for (const auto& [name, value] : params.items()) entry.parameters.values[name] = integer_from(value, name);
  entry.time_ms = j.value("time_ms", 0.0);
  entry.default_ms = j.value("default_ms", 0.0);
  entry.origin = j.value("origin", std::string("tune"));
  entry.date = j.value("date", std::string());
  entry.shape = j.value("shape", std::string());
  return entry;
}

}  // namespace

std::string utc_now() {
  std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm parts{};
  gmtime_r(&now, &parts);
  char text[32];
  std::strftime(text, sizeof(text), "%Y-%m-%dT%H:%M:%SZ", &parts);
  return text;
}

TuningDatabase::TuningDatabase(const DeviceInfo& device) : device_(device) {
  if (auto root = tuning_root()) path_ = *root / (device.fingerprint() + ".json");
}

TuningDatabase::TuningDatabase(fs::path path, const DeviceInfo& device) : path_(std::move(path)), device_(device) {}

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
    TuningRecords parsed;
    for (const auto& item : document.at("entries")) parsed.entries.push_back(entry_from(item));
    for (const auto& item : document.value("failures", json::array())) {
      parsed.failures.push_back({item.at("op").get<std::string>(), item.at("dtype").get<std::string>(),
                                 item.at("source").get<std::string>(), item.at("config").get<std::string>(),
                                 item.value("reason", std::string())});
    }
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

TuningDatabase::FileState TuningDatabase::read(TuningRecords& records, std::string& why) const {
  if (!path_) return FileState::Missing;
  std::error_code error;
  if (!fs::exists(*path_, error)) return FileState::Missing;
  if (!fs::is_regular_file(*path_, error)) {
    why = "not a regular file";  // moving a directory aside could take someone's files with it: left alone
    return FileState::Foreign;
  }
  auto bytes = read_bytes(*path_);
  if (!bytes) {
    why = "unreadable";
    return FileState::Corrupt;
  }
  return from_json_text(std::string(bytes->begin(), bytes->end()), &device_, records, why);
}

TuningRecords TuningDatabase::load() const {
  TuningRecords records;
  std::string why;
  switch (read(records, why)) {
    case FileState::Stale:
    case FileState::Corrupt: {
      // Set aside under the writer lock, so a writer mid-merge is not disturbed.
      try {
        FileLock lock(path_->string() + ".lock");
        TuningRecords again;
        const FileState state = read(again, why);
        if (state == FileState::Corrupt || state == FileState::Stale) {
          warn_once("tuning-db:" + path_->string(), "tuning database " + path_->string() + " is damaged (" + why +
                                                        "); moved to " + path_->string() + ".corrupt and rebuilt");
          std::error_code ignored;
          fs::rename(*path_, path_->string() + ".corrupt", ignored);
        } else {
          records = std::move(again);
        }
      } catch (const std::exception&) {
        warn_once("tuning-db:" + path_->string(), "tuning database " + path_->string() + " is damaged (" + why + ")");
      }
      break;
    }
    case FileState::Foreign:
      warn_once("tuning-db:" + path_->string(), "tuning database " + path_->string() + " is not used: " + why);
      break;
    case FileState::Missing:
    case FileState::Valid:
      break;
  }
  return records;
}

bool TuningDatabase::merge(const TuningRecords& records) const {
  if (!path_) return false;
  try {
    FileLock lock(path_->string() + ".lock");
    TuningRecords current;
    std::string why;
    FileState state = read(current, why);
    if (state == FileState::Foreign) {
      warn_once("tuning-db:" + path_->string(), "tuning database " + path_->string() + " is not used: " + why);
      return false;
    }
    if (state == FileState::Corrupt || state == FileState::Stale) {
      warn_once("tuning-db:" + path_->string(), "tuning database " + path_->string() + " is damaged (" + why +
                                                    "); moved to " + path_->string() + ".corrupt and rebuilt");
      std::error_code ignored;
      fs::rename(*path_, path_->string() + ".corrupt", ignored);
      current = {};
    }
    for (const auto& entry : records.entries) {
      bool replaced = false;
      for (auto& existing : current.entries) {
        if (existing.same_key(entry)) {
          existing = entry;
          replaced = true;
        }
      }
      if (!replaced) current.entries.push_back(entry);
    }
    for (const auto& failure : records.failures) {
      bool known = false;
      for (const auto& existing : current.failures)
        known = known || (existing.op == failure.op && existing.dtype == failure.dtype &&
                          existing.source_hash == failure.source_hash && existing.config == failure.config);
      if (!known) current.failures.push_back(failure);
    }
    const std::string text = to_json_text(device_, current);
    write_atomically(*path_, std::vector<unsigned char>(text.begin(), text.end()));
    log_verbose("tuning database: wrote " + path_->string());
    return true;
  } catch (const std::exception& error) {
    warn_once("tuning-db-write:" + path_->string(),
              std::string("cannot write the tuning database (continuing without it): ") + error.what());
    return false;
  }
}

bool TuningDatabase::erase() const {
  if (!path_) return false;
  std::error_code ignored;
  return fs::remove(*path_, ignored);
}

}  // namespace tilecl::detail
