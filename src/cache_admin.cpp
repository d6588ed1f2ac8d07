#include "cache_admin.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "cache_directory.hpp"
#include "file_store.hpp"
#include "tilecl/error.hpp"
#include "tuning/tuning_db.hpp"

namespace tilecl::detail {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

constexpr const char* kBundleFormat = "tilecl-tuning-bundle";
// A bundle holds one database per device of a fleet.
constexpr std::uint64_t kMaxBundleBytes = 16 * kMaxDatabaseBytes;

std::optional<json> parse_bounded(const std::string& text, std::size_t depth) {
  if (json_deeper_than(text, depth)) return std::nullopt;
  json document = json::parse(text, nullptr, false);
  if (document.is_discarded()) return std::nullopt;
  return document;
}

// The tuning databases of the user's cache (names of the trusted folder's *.json files, sorted).
struct TuningFiles {
  std::optional<TrustedDirectory> folder;
  std::vector<std::string> names;
};

TuningFiles tuning_files() {
  TuningFiles files;
  if (auto root = writable_cache()) files.folder = open_cache_folder(*root, {"tuning"}, false);
  if (!files.folder) return files;
  std::error_code error;
  for (fs::directory_iterator it(files.folder->path(), error), end; !error && it != end; it.increment(error))
    if (it->path().extension() == ".json") files.names.push_back(it->path().filename().string());
  std::sort(files.names.begin(), files.names.end());
  return files;
}

// A database file of the folder as a JSON document; nullopt when it is unusable (untrusted, too large, not JSON).
std::optional<json> read_database(const TrustedDirectory& folder, const std::string& name) {
  FileRead file = read_file(folder, name, kMaxDatabaseBytes);
  if (file.outcome != FileRead::Outcome::Read) return std::nullopt;
  return parse_bounded(std::string(file.bytes.begin(), file.bytes.end()), kMaxJsonDepth);
}

// The identity recorded in a database's header, as a DeviceInfo whose fingerprint() can be recomputed.
DeviceInfo identity_of(const json& device) {
  DeviceInfo info;
  info.platform_name = device.value("platform_name", "");
  info.platform_version = device.value("platform_version", "");
  info.device_name = device.value("device_name", "");
  info.device_vendor = device.value("device_vendor", "");
  info.device_version = device.value("device_version", "");
  info.driver_version = device.value("driver_version", "");
  info.opencl_c_version = device.value("opencl_c_version", "");
  info.compute_units = device.value("compute_units", 0u);
  return info;
}

std::size_t remove_all_files(const std::optional<fs::path>& root) {
  std::error_code error;
  if (!root || !fs::exists(*root, error)) return 0;
  std::size_t removed = 0;
  for (const auto& entry : fs::recursive_directory_iterator(*root, error))
    if (entry.is_regular_file(error)) ++removed;
  fs::remove_all(*root, error);
  return removed;
}

}  // namespace

std::vector<ProgramCacheSummary> list_program_cache() {
  std::vector<ProgramCacheSummary> summaries;
  auto root = program_cache_root();
  std::error_code error;
  if (!root || !fs::is_directory(*root, error)) return summaries;
  for (const auto& folder : fs::directory_iterator(*root, error)) {
    if (!folder.is_directory(error)) continue;
    ProgramCacheSummary summary{folder.path().filename().string(), 0, 0};
    for (const auto& file : fs::directory_iterator(folder.path(), error)) {
      if (file.path().extension() != ".bin") continue;
      ++summary.files;
      summary.bytes += file.file_size(error);
    }
    summaries.push_back(summary);
  }
  return summaries;
}

std::vector<TuningDatabaseSummary> list_tuning_databases() {
  std::vector<TuningDatabaseSummary> summaries;
  const TuningFiles files = tuning_files();
  for (const auto& name : files.names) {
    TuningDatabaseSummary summary;
    summary.path = files.folder->path() / name;
    auto document = read_database(*files.folder, name);
    if (!document || !document->contains("device")) {
      summary.problem = "not a valid tuning database";
      summaries.push_back(summary);
      continue;
    }
    const DeviceInfo identity = identity_of((*document)["device"]);
    summary.fingerprint = (*document)["device"].value("fingerprint", "");
    summary.device_name = identity.device_name;
    summary.driver_version = identity.driver_version;
    TuningRecords records;
    std::string why;
    if (TuningDatabase::from_json_text(document->dump(), nullptr, records, why) == TuningDatabase::FileState::Valid) {
      summary.entries = records.entries.size();
      summary.failures = records.failures.size();
    } else {
      summary.problem = why;
    }
    summaries.push_back(summary);
  }
  return summaries;
}

std::size_t clear_program_cache_files() { return remove_all_files(program_cache_root()); }
std::size_t clear_tuning_databases() { return remove_all_files(tuning_root()); }

std::size_t export_tuning(const fs::path& bundle) {
  json document = {{"format", kBundleFormat}, {"version", kTuningDatabaseVersion}, {"databases", json::array()}};
  const TuningFiles files = tuning_files();
  for (const auto& name : files.names) {
    auto database = read_database(*files.folder, name);
    TuningRecords records;
    std::string why;
    if (database &&
        TuningDatabase::from_json_text(database->dump(), nullptr, records, why) == TuningDatabase::FileState::Valid)
      document["databases"].push_back(*database);
  }
  const std::string text = document.dump(1) + "\n";
  try {
    write_atomically(bundle, std::vector<unsigned char>(text.begin(), text.end()));
  } catch (const std::exception& error) {
    throw Error("cache export", bundle.string(), CL_INVALID_VALUE, error.what());
  }
  return document["databases"].size();
}

namespace {

struct BundledDatabase {
  DeviceInfo identity;
  TuningRecords records;
};

// The checked databases of one bundle written by export_tuning(). Anything else -- not JSON, another document,
// a field of the wrong type -- raises tilecl::Error naming the file and what is wrong, before anything is merged.
std::vector<BundledDatabase> read_bundle(const fs::path& bundle) {
  const auto refuse = [&](const std::string& why) {
    return Error("cache import", bundle.string(), CL_INVALID_VALUE,
                 "not a tuning bundle written by `tilecl cache export`: " + why);
  };
  std::string why_unreadable;
  const auto bytes = read_bytes(bundle, kMaxBundleBytes, why_unreadable);
  auto document = bytes ? parse_bounded(std::string(bytes->begin(), bytes->end()), kMaxJsonDepth + 2) : std::nullopt;
  if (!document) throw refuse(bytes ? "not JSON, or nested too deep" : "unreadable (" + why_unreadable + ")");
  std::vector<BundledDatabase> databases;
  try {
    if (!document->is_object() || document->value("format", "") != kBundleFormat)
      throw refuse(std::string("no \"format\": \"") + kBundleFormat + "\"");
    if (!document->contains("databases") || !(*document)["databases"].is_array()) throw refuse("no \"databases\" list");
    for (const auto& database : (*document)["databases"]) {
      if (!database.is_object() || !database.contains("device")) throw refuse("a database without a device header");
      BundledDatabase bundled{identity_of(database["device"]), {}};
      if (bundled.identity.fingerprint() != database["device"].value("fingerprint", ""))
        throw refuse("the device header of '" + bundled.identity.device_name + "' does not match its fingerprint");
      std::string why;
      if (TuningDatabase::from_json_text(database.dump(), &bundled.identity, bundled.records, why) !=
          TuningDatabase::FileState::Valid)
        throw refuse(why);
      databases.push_back(std::move(bundled));
    }
  } catch (const json::exception& error) {
    std::string reason = error.what();  // "[json.exception.type_error.302] type must be string, but is number"
    const auto bracket = reason.find("] ");
    throw refuse("a field has the wrong type (" + (bracket == std::string::npos ? reason : reason.substr(bracket + 2)) +
                 ")");
  }
  return databases;
}

}  // namespace

std::size_t import_tuning(const fs::path& bundle) {
  const std::vector<BundledDatabase> databases = read_bundle(bundle);
  if (!tuning_root()) throw Error("cache import", "cache", CL_INVALID_VALUE, "the disk cache is off (TILECL_CACHE)");
  for (const auto& database : databases) {
    TuningDatabase target(*tuning_root() / (database.identity.fingerprint() + ".json"), database.identity);
    if (!target.merge(database.records))
      throw Error("cache import", target.path()->string(), CL_INVALID_VALUE, "cannot write the tuning database");
  }
  return databases.size();
}

}  // namespace tilecl::detail
