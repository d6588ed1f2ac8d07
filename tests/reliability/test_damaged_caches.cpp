// Every kind of damage to the two caches on disk -- program binaries and the tuning database -- in one table.
// For each case a clean run fills a private cache, the damage is applied, then:
//   1. a call computes the right result and the damage is reported exactly once;
//   2. a second call, with the in-memory state dropped, computes the right result and reports nothing more.
// Writers killed half-way (a second process killing itself between writing the temp file and renaming it)
// have their own cases below the table.
#include <doctest/doctest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>

#include "binary_cache.hpp"
#include "file_store.hpp"
#include "kernel_sources.hpp"
#include "log.hpp"
#include "support/cache_files.hpp"
#include "support/fixture.hpp"
#include "tilecl/tilecl.hpp"
#include "tuning/tuning_db.hpp"

using namespace tilecl;
namespace fs = std::filesystem;
using tilecl::test::device;

namespace {

enum class Store { ProgramBinary, TuningDatabase };

// What the clean run left in the cache.
struct CacheFiles {
  fs::path root;
  fs::path binary;    // the only program binary (program-binary cases run one program)
  fs::path database;  // the device's tuning database
};

struct DamageCase {
  const char* name;
  Store store;
  std::function<void(const CacheFiles&)> damage;
  // Checks after the first call, beyond a right result and one report (may be empty).
  std::function<void(const CacheFiles&)> check_after = nullptr;
  // Damage that chmod makes: skipped here, with the reason printed, where file permissions do not bind (root);
  // the unprivileged-probe test case covers it then.
  bool needs_permissions = false;
  // Damage that chown makes (a file of another user): skipped, with the reason printed, unless this process is root.
  bool needs_root = false;
};

using test::files_with_extension;
using test::replace_with;
using test::replace_with_bytes;
using test::text_of;

// Something that makes a directory unwritable: chmod where permissions bind, else a regular file in its place
// (no one, root included, can create files below a regular file).
void make_unwritable(const fs::path& directory) {
  if (test::file_permissions_enforced()) {
    fs::permissions(directory, fs::perms::owner_read | fs::perms::owner_exec);
  } else {
    MESSAGE("file permissions do not bind this process (root): " << directory.filename()
                                                                 << " is replaced by a regular file instead of chmod");
    fs::remove_all(directory);
    replace_with(directory, "in the way");
  }
}

// Rewrites the tuning database's entry for `op` with other parameters, as a hand edit would.
void edit_entry(const fs::path& database, const std::string& op, const tuning::Parameters& parameters) {
  auto document = nlohmann::json::parse(text_of(database));
  bool found = false;
  for (auto& entry : document["entries"]) {
    if (entry["op"] != op) continue;
    entry["variant"] = parameters.variant;
    entry["params"] = parameters.values;
    found = true;
  }
  REQUIRE_MESSAGE(found, "no entry for " << op << " in " << database);
  replace_with(database, document.dump(1));
}

std::int64_t too_wide_work_group() { return static_cast<std::int64_t>(device().info->max_work_group_size) * 4; }

// A square transpose tile, of a shape the search space otherwise accepts, that needs more local memory than the
// device has.
tuning::Parameters transpose_tile_beyond_local_memory() {
  const DeviceInfo& info = *device().info;
  std::int64_t tile = 16;
  while (static_cast<std::uint64_t>(tile * tile) * sizeof(float) <= info.local_memory_bytes) tile *= 2;
  const std::int64_t vec = 16;
  REQUIRE(static_cast<std::size_t>(tile / vec) <= std::min(info.max_work_group_size, info.max_work_item_sizes[0]));
  return {"tiled", {{"TILE", tile}, {"VEC", vec}, {"WG_Y", 1}}};
}

// --- the calls each case makes, with their results checked ---------------------------------------------------

constexpr std::size_t kLength = 5000;  // one axpy bucket
constexpr std::size_t kRows = 45, kCols = 37;

bool axpy_is_right() {
  auto random = test::random_engine("damaged-caches-axpy");
  const auto x = test::random_vector<float>(kLength, random), y = test::random_vector<float>(kLength, random);
  cl::Buffer x_buffer = test::to_device(x), y_buffer = test::to_device(y);
  axpy<float>(device().queue, kLength, 2.0f, x_buffer, 0, y_buffer, 0);
  const auto got = test::from_device<float>(y_buffer, kLength);
  for (std::size_t i = 0; i < kLength; ++i)
    if (!test::close(got[i], 2.0 * x[i] + y[i], 1e-6)) return false;
  return true;
}

bool transpose_is_right() {
  auto random = test::random_engine("damaged-caches-transpose");
  const auto in = test::random_vector<float>(kRows * kCols, random);
  cl::Buffer in_buffer = test::to_device(in);
  cl::Buffer out_buffer(device().context, CL_MEM_READ_WRITE, kRows * kCols * sizeof(float));
  transpose<float>(device().queue, kRows, kCols, in_buffer, 0, kCols, out_buffer, 0, kRows);
  const auto got = test::from_device<float>(out_buffer, kRows * kCols);
  for (std::size_t r = 0; r < kRows; ++r)
    for (std::size_t c = 0; c < kCols; ++c)
      if (got[c * kRows + r] != in[r * kCols + c]) return false;
  return true;
}

// Program binaries: tuning off, so exactly one program (axpy's default) is built and cached. The tuning
// database: first-use tuning of axpy and transpose, so both keys are read, tuned and written.
bool calls_are_right(Store store) {
  clear_program_cache();
  tuning::clear();
  if (store == Store::ProgramBinary) return axpy_is_right();
  const bool axpy_right = axpy_is_right();
  return transpose_is_right() && axpy_right;
}

void run_case(const DamageCase& damage_case) {
  INFO("damaged cache case: " << std::string(damage_case.name));
  if (damage_case.needs_permissions && !test::file_permissions_enforced()) {
    MESSAGE("skipped '" << std::string(damage_case.name)
                        << "' in this process: file permissions do not bind it (root reads through chmod 000); "
                           "an unprivileged probe runs it instead");
    return;
  }
  if (damage_case.needs_root && ::geteuid() != 0) {
    MESSAGE("skipped '" << std::string(damage_case.name) << "': only root can give a file to another user");
    return;
  }
  std::string directory_name = damage_case.name;
  for (char& c : directory_name)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '-';
  test::ScopedEnv cache("TILECL_CACHE_DIR", test::temp_directory("damaged-" + directory_name));
  test::ScopedEnv mode("TILECL_TUNE", damage_case.store == Store::TuningDatabase ? "first-use" : "off");
  test::ScopedEnv budget("TILECL_TUNE_BUDGET_MS", "30");

  CacheFiles files;
  files.root = cache_directory();
  REQUIRE(calls_are_right(damage_case.store));
  const auto binaries = files_with_extension(files.root / "programs", ".bin");
  REQUIRE(binaries.size() >= 1);
  if (damage_case.store == Store::ProgramBinary) REQUIRE(binaries.size() == 1);
  files.binary = binaries.front();
  files.database = files.root / "tuning" / (device().info->fingerprint() + ".json");
  if (damage_case.store == Store::TuningDatabase) REQUIRE(fs::exists(files.database));

  damage_case.damage(files);
  const std::size_t reports_before = test::reports_mentioning(files.root.string());
  CHECK(calls_are_right(damage_case.store));
  CHECK_MESSAGE(test::reports_mentioning(files.root.string()) == reports_before + 1, "the damage is reported once");
  if (damage_case.check_after) damage_case.check_after(files);
  CHECK(calls_are_right(damage_case.store));
  CHECK_MESSAGE(test::reports_mentioning(files.root.string()) == reports_before + 1, "and not again");

  std::error_code ignored;  // undo chmod, so the temp directory can be removed by anyone
  for (fs::recursive_directory_iterator it(files.root, ignored), end; !ignored && it != end; it.increment(ignored))
    fs::permissions(it->path(), fs::perms::owner_all, ignored);
}

// The last report that mentions `text`.
std::string last_report_about(const std::string& text) {
  std::string found;
  for (const auto& report : detail::reports_so_far())
    if (report.message.find(text) != std::string::npos) found = report.message;
  return found;
}

void check_binary_rewritten(const CacheFiles& files) {
  CHECK(fs::is_regular_file(fs::symlink_status(files.binary)));
  CHECK(statistics().disk_rejects > 0);
}

// Checks that the database was moved to <file><suffix> and rebuilt with the device's own entries.
std::function<void(const CacheFiles&)> database_set_aside(std::string suffix) {
  return [suffix](const CacheFiles& files) {
    CHECK(fs::exists(fs::symlink_status(files.database.string() + suffix)));
    CHECK(fs::is_regular_file(fs::symlink_status(files.database)));
    CHECK(detail::TuningDatabase(files.database, *device().info).load().entries.size() == 2);
  };
}

const auto check_database_rebuilt = database_set_aside(".corrupt");

void truncate(const fs::path& path) {
  const std::string text = text_of(path);
  replace_with(path, text.substr(0, text.size() / 2));
}

void garbage(const fs::path& path) { replace_with(path, std::string("\x01\x02 not a cache file \xff")); }

void directory_in_place(const fs::path& path) {
  fs::remove(path);
  fs::create_directory(path);
}

void unreadable(const fs::path& path) { fs::permissions(path, fs::perms::none); }

// A sparse file of 64 GiB: nothing may read it whole.
void huge(const fs::path& path) { fs::resize_file(path, std::uintmax_t{64} << 30); }

// Replaces the file by a symbolic link to a copy of it, elsewhere in the cache directory.
void symlink_to_copy(const CacheFiles& files, const fs::path& path) {
  const fs::path copy = files.root / ("copy-of-" + path.filename().string());
  fs::copy_file(path, copy, fs::copy_options::overwrite_existing);
  fs::remove(path);
  fs::create_symlink(copy, path);
}

// A valid file for the binary's key (key, kernel names, checksum) holding the binary of another program.
void another_programs_binary(const fs::path& path) {
  const std::string bytes = text_of(path);
  const std::string key = test::binary_key_text(bytes);
  std::string why;
  const auto original = detail::decode_binary_file(std::vector<unsigned char>(bytes.begin(), bytes.end()), key, why);
  REQUIRE_MESSAGE(original.has_value(), why);
  cl::Program other(device().context, detail::kernel_source("transpose").text);
  other.build({device().device});
  replace_with_bytes(path,
                     detail::encode_binary_file(key, {original->kernels, other.getInfo<CL_PROGRAM_BINARIES>()[0]}));
}

std::vector<DamageCase> binary_damage_cases() {
  return {
      {"program binary: truncated", Store::ProgramBinary, [](const CacheFiles& f) { truncate(f.binary); },
       check_binary_rewritten},
      {"program binary: garbage", Store::ProgramBinary, [](const CacheFiles& f) { garbage(f.binary); },
       check_binary_rewritten},
      {"program binary: empty", Store::ProgramBinary, [](const CacheFiles& f) { replace_with(f.binary, ""); },
       check_binary_rewritten},
      {"program binary: hand-edited (a flipped byte in the binary)", Store::ProgramBinary,
       [](const CacheFiles& f) {
         std::string text = text_of(f.binary);
         text[text.size() - 10] = static_cast<char>(text[text.size() - 10] ^ 0xff);
         replace_with(f.binary, text);
       },
       check_binary_rewritten},
      {"program binary: another format version", Store::ProgramBinary,
       [](const CacheFiles& f) {
         std::string text = text_of(f.binary);
         text[8] = 99;  // the u32 format after the 8-byte magic
         replace_with(f.binary, text);
       },
       check_binary_rewritten},
      {"program binary: another device or driver", Store::ProgramBinary,
       [](const CacheFiles& f) {
         replace_with_bytes(f.binary,
                            detail::encode_binary_file("library=tilecl 0.0\ndriver_version=other\n", {{"k"}, {1, 2}}));
       },
       check_binary_rewritten},
      {"program binary: another program's binary under a valid header and checksum", Store::ProgramBinary,
       [](const CacheFiles& f) { another_programs_binary(f.binary); },
       [](const CacheFiles& f) {
         check_binary_rewritten(f);
         CHECK(last_report_about(f.binary.string()).find("another program's binary") != std::string::npos);
       }},
      {"program binary: huge (a sparse file of 64 GiB)", Store::ProgramBinary,
       [](const CacheFiles& f) { huge(f.binary); },
       [](const CacheFiles& f) {
         check_binary_rewritten(f);
         CHECK(last_report_about(f.binary.string()).find("above the limit") != std::string::npos);
       }},
      {"program binary: a symbolic link to a valid copy (not followed)", Store::ProgramBinary,
       [](const CacheFiles& f) { symlink_to_copy(f, f.binary); }, check_binary_rewritten},
      {"program binary: a directory in place of the file", Store::ProgramBinary,
       [](const CacheFiles& f) { directory_in_place(f.binary); }, check_binary_rewritten},
      // As root, the unreadable cases run in a probe as an unprivileged user instead (a test case below).
      {"program binary: unreadable (chmod 000)", Store::ProgramBinary,
       [](const CacheFiles& f) { unreadable(f.binary); }, check_binary_rewritten, true},
      {"program binary: read-only cache directory", Store::ProgramBinary,
       [](const CacheFiles& f) {
         fs::remove(f.binary);
         make_unwritable(f.binary.parent_path());
       },
       [](const CacheFiles& f) { CHECK(!last_report_about(f.root.string()).empty()); }},
  };
}

// A foreign or corrupt database is set aside and rebuilt; a directory in its place is left alone and not used.
std::vector<DamageCase> database_damage_cases() {
  return {
      {"tuning database: truncated", Store::TuningDatabase, [](const CacheFiles& f) { truncate(f.database); },
       check_database_rebuilt},
      {"tuning database: garbage", Store::TuningDatabase, [](const CacheFiles& f) { garbage(f.database); },
       check_database_rebuilt},
      {"tuning database: empty", Store::TuningDatabase, [](const CacheFiles& f) { replace_with(f.database, ""); },
       check_database_rebuilt},
      {"tuning database: valid JSON of the wrong shape", Store::TuningDatabase,
       [](const CacheFiles& f) {
         replace_with(f.database, R"({"format": "tilecl-tuning", "version": 1, "device": {"fingerprint": ")" +
                                      device().info->fingerprint() + R"("}, "entries": [{"op": 3}]})");
       },
       check_database_rebuilt},
      {"tuning database: nested deeper than the reader's bound", Store::TuningDatabase,
       [](const CacheFiles& f) {
         std::string text = text_of(f.database);
         const auto at = text.find("\"params\": {") + 11;
         text.insert(at, "\"deep\": " + std::string(200000, '[') + std::string(200000, ']') + ", ");
         replace_with(f.database, text);
       },
       check_database_rebuilt},
      {"tuning database: huge (a sparse file of 64 GiB)", Store::TuningDatabase,
       [](const CacheFiles& f) { huge(f.database); },
       [](const CacheFiles& f) {
         check_database_rebuilt(f);
         fs::remove(f.database.string() + ".corrupt");
       }},
      {"tuning database: a symbolic link to a valid copy (not followed)", Store::TuningDatabase,
       [](const CacheFiles& f) { symlink_to_copy(f, f.database); }, check_database_rebuilt},
      {"tuning database: an older format version", Store::TuningDatabase,
       [](const CacheFiles& f) {
         replace_with(f.database, R"({"format": "tilecl-tuning", "version": 0, "device": {}, "entries": []})");
       },
       check_database_rebuilt},
      {"tuning database: a newer format version (set aside, rebuilt)", Store::TuningDatabase,
       [](const CacheFiles& f) {
         replace_with(f.database, R"({"format": "tilecl-tuning", "version": 999, "device": {}, "entries": []})");
       },
       [](const CacheFiles& f) {
         database_set_aside(".foreign")(f);
         CHECK(text_of(f.database.string() + ".foreign").find("999") != std::string::npos);
       }},
      {"tuning database: another device or driver (set aside, rebuilt)", Store::TuningDatabase,
       [](const CacheFiles& f) {
         DeviceInfo other = *device().info;
         other.driver_version = "some other driver";
         replace_with(f.database, detail::TuningDatabase::to_json_text(other, {}));
       },
       [](const CacheFiles& f) {
         database_set_aside(".foreign")(f);
         CHECK(last_report_about(f.database.string()).find("another device or driver") != std::string::npos);
       }},
      {"tuning database: hand-edited work-group size above CL_DEVICE_MAX_WORK_GROUP_SIZE", Store::TuningDatabase,
       [](const CacheFiles& f) {
         edit_entry(f.database, "axpy", {"naive", {{"WG_X", too_wide_work_group()}}});
       },
       [](const CacheFiles& f) {
         // Refused by the work-group rule, or before it by WG_X's declared range (which the value is beyond too).
         const std::string report = last_report_about(f.database.string());
         CHECK(
             (report.find("max work-group size") != std::string::npos || report.find("WG_X = ") != std::string::npos));
         const auto used = tuning::parameters_for(device().queue, "axpy", "float", std::to_string(kLength));
         CHECK(used.origin == tuning::Origin::FirstUse);  // tuned again, the edited entry never launched
         CHECK(used.parameters != tuning::Parameters{"naive", {{"WG_X", too_wide_work_group()}}});
       }},
      {"tuning database: hand-edited tile beyond the device's local memory", Store::TuningDatabase,
       [](const CacheFiles& f) { edit_entry(f.database, "transpose", transpose_tile_beyond_local_memory()); },
       [](const CacheFiles& f) {
         // Refused by the local-memory rule, or before it by TILE's range where the device's local memory is
         // larger than any tile the space allows (PoCL).
         const std::string report = last_report_about(f.database.string());
         CHECK((report.find("local memory") != std::string::npos || report.find("TILE = ") != std::string::npos));
         const auto used = tuning::parameters_for(device().queue, "transpose", "float",
                                                  std::to_string(kRows) + "x" + std::to_string(kCols));
         CHECK(used.origin == tuning::Origin::FirstUse);
         CHECK(used.parameters != transpose_tile_beyond_local_memory());
       }},
      {"tuning database: a directory in place of the file (left alone, not used)", Store::TuningDatabase,
       [](const CacheFiles& f) { directory_in_place(f.database); },
       [](const CacheFiles& f) {
         CHECK(last_report_about(f.database.string()).find("a directory") != std::string::npos);
         CHECK(fs::is_directory(f.database));
       }},
      {"tuning database: unreadable (chmod 000)", Store::TuningDatabase,
       [](const CacheFiles& f) { unreadable(f.database); }, check_database_rebuilt, true},
      {"tuning database: read-only cache directory", Store::TuningDatabase,
       [](const CacheFiles& f) {
         fs::remove(f.database);
         make_unwritable(f.database.parent_path());
       },
       [](const CacheFiles& f) { CHECK(!last_report_about(f.root.string()).empty()); }},
  };
}

// ---- files planted by someone else ---------------------------------------------------------------------------
// Each case plants a valid file (right key, kernel names and checksum) whose axpy computes a wrong result, and gives
// it away by one trust rule: a right result proves it was not used.

constexpr std::uint32_t kOtherUser = 1;  // daemon: neither root nor the user tests run as

void plant(const CacheFiles& files) { replace_with_bytes(files.binary, test::sabotaged_binary(files.binary)); }

void give_to_other_user(const fs::path& path) { REQUIRE(::lchown(path.c_str(), kOtherUser, kOtherUser) == 0); }

// The planted file is where it was, as it was: an untrusted directory is not written either.
std::function<void(const CacheFiles&)> left_alone(std::string reason) {
  return [reason](const CacheFiles& files) {
    CHECK(last_report_about(files.root.string()).find(reason) != std::string::npos);
    CHECK(fs::exists(fs::symlink_status(files.binary)));
  };
}

// The other user's directory, holding a planted file of the binary's name.
fs::path planted_elsewhere(const CacheFiles& files) {
  const fs::path theirs = files.root.parent_path() / (files.root.filename().string() + "-theirs");
  fs::create_directories(theirs);
  replace_with_bytes(theirs / files.binary.filename(), test::sabotaged_binary(files.binary));
  return theirs;
}

// Replaces the binary by a symbolic link to a planted file when read_file() is about to open it.
void swap_before_open(const CacheFiles& files) {
  const fs::path target = planted_elsewhere(files) / files.binary.filename();
  auto armed = std::make_shared<bool>(true);
  detail::set_before_open_hook_for_testing([armed, target, binary = files.binary](const fs::path& path) {
    if (!*armed || path != binary) return;
    *armed = false;
    fs::remove(binary);
    fs::create_symlink(target, binary);
  });
}

std::vector<DamageCase> planted_cases() {
  const auto binary_rejected = [](std::string reason) {
    return [reason](const CacheFiles& f) {
      check_binary_rewritten(f);
      CHECK(last_report_about(f.binary.string()).find(reason) != std::string::npos);
    };
  };
  return {
      {"planted binary: the cache directory is writable by others (chmod 777)", Store::ProgramBinary,
       [](const CacheFiles& f) {
         plant(f);
         fs::permissions(f.root, fs::perms::all);
       },
       left_alone("writable by others")},
      {"planted binary: its folder is writable by its group (chmod 775)", Store::ProgramBinary,
       [](const CacheFiles& f) {
         plant(f);
         fs::permissions(f.binary.parent_path(),
                         fs::perms::owner_all | fs::perms::group_all | fs::perms::others_read | fs::perms::others_exec);
       },
       left_alone("writable by its group")},
      {"planted binary: its folder belongs to another user", Store::ProgramBinary,
       [](const CacheFiles& f) {
         plant(f);
         give_to_other_user(f.binary.parent_path());
       },
       left_alone("owned by user 1"), false, true},
      {"planted binary: its folder is a symbolic link to another user's", Store::ProgramBinary,
       [](const CacheFiles& f) {
         const fs::path theirs = planted_elsewhere(f);
         fs::remove_all(f.binary.parent_path());
         fs::create_directory_symlink(theirs, f.binary.parent_path());
       },
       left_alone("symbolic link")},
      {"planted binary: the file belongs to another user", Store::ProgramBinary,
       [](const CacheFiles& f) {
         plant(f);
         give_to_other_user(f.binary);
       },
       binary_rejected("owned by user 1"), false, true},
      {"planted binary: the file is writable by others", Store::ProgramBinary,
       [](const CacheFiles& f) {
         plant(f);
         fs::permissions(f.binary, fs::perms::owner_read | fs::perms::owner_write | fs::perms::others_write);
       },
       binary_rejected("writable by others")},
      {"planted binary: the file is a symbolic link to another user's file", Store::ProgramBinary,
       [](const CacheFiles& f) {
         const fs::path target = planted_elsewhere(f) / f.binary.filename();
         fs::remove(f.binary);
         fs::create_symlink(target, f.binary);
       },
       binary_rejected("symbolic link")},
      {"planted binary: swapped for a symbolic link between the check and the open (simulated)", Store::ProgramBinary,
       swap_before_open,
       [binary_rejected](const CacheFiles& f) {
         detail::set_before_open_hook_for_testing(nullptr);
         binary_rejected("symbolic link")(f);
       }},
      {"tuning database: its folder is writable by others (not read, not written)", Store::TuningDatabase,
       [](const CacheFiles& f) { fs::permissions(f.database.parent_path(), fs::perms::all); },
       [](const CacheFiles& f) {
         CHECK(last_report_about(f.root.string()).find("writable by others") != std::string::npos);
         CHECK_FALSE(fs::exists(f.database.string() + ".corrupt"));
         const auto used = tuning::parameters_for(device().queue, "axpy", "float", std::to_string(kLength));
         CHECK(used.origin == tuning::Origin::FirstUse);
       }},
      {"tuning database: the file belongs to another user (set aside, rebuilt)", Store::TuningDatabase,
       [](const CacheFiles& f) { give_to_other_user(f.database); }, check_database_rebuilt, false, true},
  };
}

std::vector<DamageCase> damage_cases() {
  std::vector<DamageCase> cases = binary_damage_cases();
  for (auto more : {database_damage_cases(), planted_cases()}) cases.insert(cases.end(), more.begin(), more.end());
  return cases;
}

// Runs the probe with the given cache and extra environment; returns its exit status and report.
test::CommandResult run_probe(const std::string& cache, const std::string& environment, const std::string& args) {
  return test::run_command("TILECL_CACHE_DIR='" + cache + "' " + environment + " '" + test::probe_path() + "' " + args +
                           " 2>/dev/null");
}

std::vector<fs::path> temp_files(const fs::path& root) {
  std::vector<fs::path> found;
  for (const auto& entry : fs::recursive_directory_iterator(root))
    if (entry.path().filename().string().find(".tmp.") != std::string::npos) found.push_back(entry.path());
  return found;
}

// Runs the probe as nobody, with a cache (and PoCL's kernel cache) under `home`, which nobody may write.
nlohmann::json probe_as_nobody(const std::string& home, const std::string& environment, const std::string& args) {
  return test::probe_report(
      "HOME='" + home + "' XDG_CACHE_HOME='" + home + "' TILECL_CACHE_DIR='" + home + "/cache' " + environment, args,
      true);
}

// Makes a temp file look abandoned long ago, as after a crash.
void age(const fs::path& file) {
  fs::last_write_time(file, fs::file_time_type::clock::now() - detail::kAbandonedTempAge - std::chrono::minutes(1));
}

}  // namespace

TEST_SUITE("reliability.damaged_caches") {
  TEST_CASE("damaged caches: every damage to either cache gives right results and is reported exactly once") {
    const auto cases = damage_cases();
    std::size_t binary_cases = 0;
    for (const auto& damage_case : cases) binary_cases += damage_case.store == Store::ProgramBinary;
    MESSAGE("damaged-cache cases: " << cases.size() << " in the table (" << binary_cases << " program binary, "
                                    << cases.size() - binary_cases
                                    << " tuning database); below it: 2 killed writers, a live writer's temp file, "
                                       "and (as root) 4 unreadable / read-only cases run as an unprivileged user");
    for (const auto& damage_case : cases) run_case(damage_case);
  }

  TEST_CASE("damaged caches: unreadable files and read-only directories, as an unprivileged user when root") {
    if (test::file_permissions_enforced()) {
      MESSAGE("file permissions bind this process: the table's chmod 000 cases ran in it");
      return;
    }
    if (test::as_nobody().empty()) {
      MESSAGE("skipped: file permissions do not bind this process and setpriv is not available to drop them");
      return;
    }
    const std::string home = test::temp_directory("unreadable-as-nobody");
    fs::permissions(home, fs::perms::all);
    const fs::path programs = fs::path(home) / "cache" / "programs" / device().info->fingerprint();
    const fs::path database = fs::path(home) / "cache" / "tuning" / (device().info->fingerprint() + ".json");

    // Program binary: reported and deleted by the first process, rewritten, silent for the next.
    REQUIRE(probe_as_nobody(home, "TILECL_TUNE=off", "axpy 1000")["disk_writes"] == 1);
    const auto binaries = files_with_extension(programs, ".bin");
    REQUIRE(binaries.size() == 1);
    fs::permissions(binaries.front(), fs::perms::none);
    auto damaged = probe_as_nobody(home, "TILECL_TUNE=off", "axpy 1000");
    CHECK(damaged["correct"] == true);
    CHECK(damaged["reports"] == 1);
    CHECK(damaged["disk_rejects"] == 1);
    auto after = probe_as_nobody(home, "TILECL_TUNE=off", "axpy 1000");
    CHECK(after["correct"] == true);
    CHECK(after["reports"] == 0);
    CHECK(after["compiles"] == 0);

    // Tuning database: reported and set aside by the first process, rebuilt, read by the next.
    REQUIRE(probe_as_nobody(home, "TILECL_TUNE=first-use", "choose axpy float 2^13")["origin"] == "first-use");
    fs::permissions(database, fs::perms::none);
    damaged = probe_as_nobody(home, "TILECL_TUNE=first-use", "choose axpy float 2^13");
    CHECK(damaged["origin"] == "first-use");
    CHECK(damaged["reports"] == 1);
    CHECK(fs::exists(database.string() + ".corrupt"));
    after = probe_as_nobody(home, "TILECL_TUNE=first-use", "choose axpy float 2^13");
    CHECK(after["origin"] == "database");
    CHECK(after["reports"] == 0);

    // Read-only directories (chmod 555, which binds nobody): right results, one report per process, no write.
    for (const auto& binary : files_with_extension(programs, ".bin")) fs::remove(binary);
    fs::remove(database);
    fs::permissions(programs,
                    fs::perms::owner_read | fs::perms::owner_exec | fs::perms::others_read | fs::perms::others_exec);
    fs::permissions(database.parent_path(),
                    fs::perms::owner_read | fs::perms::owner_exec | fs::perms::others_read | fs::perms::others_exec);
    damaged = probe_as_nobody(home, "TILECL_TUNE=off", "axpy 1000");
    CHECK(damaged["correct"] == true);
    CHECK(damaged["reports"] == 1);
    CHECK(damaged["disk_writes"] == 0);
    fs::permissions(programs, fs::perms::owner_all);  // so that only the database's directory is read-only below
    damaged = probe_as_nobody(home, "TILECL_TUNE=first-use", "choose axpy float 2^13");
    CHECK(damaged["origin"] == "first-use");
    CHECK(damaged["reports"] == 1);
    CHECK_FALSE(fs::exists(database));
    fs::permissions(database.parent_path(), fs::perms::all);
  }

  TEST_CASE("damaged caches: after a database of another device or a newer release, the next process does not tune") {
    const std::string foreign_device = [] {
      DeviceInfo other = *device().info;
      other.driver_version = "some other driver";
      return detail::TuningDatabase::to_json_text(other, {});
    }();
    const std::string newer_release = R"({"format": "tilecl-tuning", "version": 2, "device": {}, "entries": []})";
    for (const std::string& text : {foreign_device, newer_release}) {
      const std::string cache = test::temp_directory("foreign-database");
      const fs::path database = fs::path(cache) / "tuning" / (device().info->fingerprint() + ".json");
      fs::create_directories(database.parent_path());
      replace_with(database, text);
      const std::string environment = "TILECL_CACHE_DIR='" + cache + "' TILECL_TUNE=first-use TILECL_TUNE_BUDGET_MS=30";
      const auto first = test::probe_report(environment, "choose axpy float 2^13");
      CHECK(first["origin"] == "first-use");
      CHECK(first["reports"] == 1);
      const auto second = test::probe_report(environment, "choose axpy float 2^13");
      CHECK(second["origin"] == "database");
      CHECK(second["tunings"] == 0);
      CHECK(second["reports"] == 0);
      CHECK(text_of(database.string() + ".foreign") == text);
    }
  }

  TEST_CASE("damaged caches: a database writer killed between temp file and rename leaves the old file intact") {
    const std::string cache = test::temp_directory("killed-database-writer");
    REQUIRE(run_probe(cache, "", "record warm 3").status == 0);
    const fs::path database = fs::path(cache) / "tuning" / (device().info->fingerprint() + ".json");
    const std::string before = text_of(database);

    auto killed = run_probe(cache, "TILECL_TEST_KILL_AFTER_TEMP_FILE=1", "record killed 1");
    CHECK(killed.status != 0);
    CHECK(text_of(database) == before);
    const auto leftovers = temp_files(cache);
    REQUIRE(leftovers.size() == 1);
    CHECK(leftovers.front().filename().string().rfind(database.filename().string() + ".tmp.", 0) == 0);

    // The next writer ignores the temp file, and deletes it once it is old enough to be abandoned.
    age(leftovers.front());
    auto next = run_probe(cache, "", "record next 1");
    REQUIRE(next.status == 0);
    CHECK(nlohmann::json::parse(next.output)["reports"] == 0);
    CHECK(temp_files(cache).empty());
    test::ScopedEnv env("TILECL_CACHE_DIR", cache);
    CHECK(detail::TuningDatabase(*device().info).load().entries.size() == 4);  // warm0-2 and next0; killed0 died
  }

  TEST_CASE("damaged caches: a binary writer killed half-way leaves no file under the real name, only a temp file") {
    const std::string cache = test::temp_directory("killed-binary-writer");
    auto killed = run_probe(cache, "TILECL_TUNE=off TILECL_TEST_KILL_AFTER_TEMP_FILE=1", "axpy 1000");
    CHECK(killed.status != 0);
    CHECK(files_with_extension(fs::path(cache) / "programs", ".bin").empty());
    const auto leftovers = temp_files(cache);
    REQUIRE(leftovers.size() == 1);

    age(leftovers.front());
    auto next = run_probe(cache, "TILECL_TUNE=off", "axpy 1000");
    REQUIRE(next.status == 0);
    const auto report = nlohmann::json::parse(next.output);
    CHECK(report["correct"] == true);
    CHECK(report["reports"] == 0);
    CHECK(report["disk_rejects"] == 0);
    CHECK(report["disk_writes"] == 1);
    CHECK(temp_files(cache).empty());
    CHECK(files_with_extension(fs::path(cache) / "programs", ".bin").size() == 1);
  }

  TEST_CASE("damaged caches: a fresh temp file of a live writer is neither read nor deleted") {
    const fs::path directory = test::temp_directory("live-temp");
    const fs::path target = directory / "file.bin";
    const fs::path live = directory / "file.bin.tmp.1.2.3";
    replace_with(live, "half written");
    detail::write_atomically(target, {'o', 'k'});
    CHECK(text_of(target) == "ok");
    CHECK(fs::exists(live));
    age(live);
    CHECK(detail::remove_abandoned_temp_files(target) == 1);
    CHECK_FALSE(fs::exists(live));
  }
}
