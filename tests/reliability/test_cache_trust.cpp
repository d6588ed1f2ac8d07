// Who may write what tilecl loads (SECURITY.md): the cache is private by default, a cache another user can write
// is not used, and a fleet's shared cache is read but never written. The table of planted files, case by case,
// is in the damaged-caches suite; here are the end-to-end cases across users: as root the probes run as the
// unprivileged user nobody (another user than the test, which plays the attacker or the administrator).
#include <doctest/doctest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>

#include "support/cache_files.hpp"
#include "support/fixture.hpp"
#include "tilecl/tilecl.hpp"

using namespace tilecl;
namespace fs = std::filesystem;
using tilecl::test::device;

namespace {

// A home for a probe run as nobody (PoCL keeps its own cache there), which nobody may write.
std::string shared_home(const std::string& name) {
  const std::string home = test::temp_directory(name);
  fs::permissions(home, fs::perms::all);
  return home;
}

// The environment of a probe with the given cache directory and home.
std::string probe_environment(const std::string& home, const fs::path& cache, const std::string& more = {}) {
  return "HOME='" + home + "' XDG_CACHE_HOME='" + home + "' TILECL_CACHE_DIR='" + cache.string() + "' " + more;
}

// Every file below `root` with its size and modification time: what "nothing written" compares.
std::map<std::string, std::string> listing(const fs::path& root) {
  std::map<std::string, std::string> files;
  for (const auto& entry : fs::recursive_directory_iterator(root)) {
    struct stat status {};
    ::lstat(entry.path().c_str(), &status);
    files[entry.path().string()] = std::to_string(status.st_size) + " " + std::to_string(status.st_mtim.tv_sec) + "." +
                                   std::to_string(status.st_mtim.tv_nsec) + " " + std::to_string(status.st_mode);
  }
  return files;
}

mode_t mode_of(const fs::path& path) {
  struct stat status {};
  REQUIRE(::lstat(path.c_str(), &status) == 0);
  return status.st_mode & 07777;
}

}  // namespace

TEST_SUITE("reliability.cache_trust") {
  TEST_CASE("cache trust: what tilecl creates is private (directories 0700, files 0600) whatever the umask") {
    const fs::path cache = fs::path(test::temp_directory("private")) / "not" / "there" / "yet";
    test::ScopedEnv directory("TILECL_CACHE_DIR", cache.string());
    test::ScopedEnv tune("TILECL_TUNE", "first-use");
    test::ScopedEnv budget("TILECL_TUNE_BUDGET_MS", "30");
    const mode_t previous = ::umask(0);
    clear_program_cache();
    tuning::clear();
    auto random = test::random_engine("private-cache");
    const std::size_t n = 3001;
    const auto x = test::random_vector<float>(n, random), y = test::random_vector<float>(n, random);
    cl::Buffer x_buffer = test::to_device(x), y_buffer = test::to_device(y);
    axpy<float>(device().queue, n, 2.0f, x_buffer, 0, y_buffer, 0);
    const auto got = test::from_device<float>(y_buffer, n);
    ::umask(previous);
    for (std::size_t i = 0; i < n; ++i) REQUIRE(test::close(got[i], 2.0 * x[i] + y[i], 1e-6));

    const std::string fingerprint = device().info->fingerprint();
    for (const fs::path& folder : {cache, cache / "programs", cache / "programs" / fingerprint, cache / "tuning"})
      CHECK_MESSAGE(mode_of(folder) == 0700, folder);
    const auto binaries = test::files_with_extension(cache / "programs", ".bin");
    REQUIRE_FALSE(binaries.empty());
    for (const fs::path& file : {binaries.front(), cache / "tuning" / (fingerprint + ".json"),
                                 cache / "tuning" / (fingerprint + ".json.lock")})
      CHECK_MESSAGE(mode_of(file) == 0600, file);
    tuning::clear();
  }

  TEST_CASE("cache trust: a valid-checksum binary another user planted in a world-writable cache is not used") {
    // The attack: TILECL_CACHE_DIR on a folder everyone may write (a /tmp folder, a shared volume). The attacker
    // knows everything a cache key holds (library, kernel source, options, device, driver), so the file it plants
    // has the right name, header and checksum -- and an axpy that computes (alpha + 1) * x + y.
    const bool unprivileged = !test::as_nobody().empty();
    if (!unprivileged) MESSAGE("not root: the victim runs as this user, the planted files keep this user's owner");
    const std::string home = shared_home("planted");
    const fs::path own = fs::path(home) / "own", shared = fs::path(home) / "shared";

    // The file the victim's own cache holds, and its planted twin.
    auto clean = test::probe_report(probe_environment(home, own, "TILECL_TUNE=off"), "axpy 1000", unprivileged);
    REQUIRE(clean["disk_writes"] == 1);
    const auto binaries = test::files_with_extension(own / "programs", ".bin");
    REQUIRE(binaries.size() == 1);
    const auto planted = test::sabotaged_binary(binaries.front());
    const fs::path target = shared / fs::relative(binaries.front(), own);
    fs::create_directories(target.parent_path());
    test::replace_with_bytes(target, planted);
    fs::permissions(shared, fs::perms::all);  // world-writable, as /tmp or a shared volume
    if (::geteuid() == 0)
      for (const auto& entry : fs::recursive_directory_iterator(shared / "programs"))
        REQUIRE(::lchown(entry.path().c_str(), 1, 1) == 0);  // the attacker's files
    const auto before = listing(shared);

    auto victim = test::probe_report(probe_environment(home, shared, "TILECL_TUNE=off"), "axpy 1000", unprivileged);
    CHECK(victim["correct"] == true);
    CHECK(victim["disk_hits"] == 0);
    CHECK(victim["disk_writes"] == 0);
    CHECK(victim["reports"] == 1);  // the untrusted cache, once
    CHECK(listing(shared) == before);

    // The control: the same file in the victim's own cache is used (and computes the wrong result), so the planted
    // file is a working attack and only the trust checks stop it.
    test::replace_with_bytes(binaries.front(), planted);
    auto fooled = test::probe_report(probe_environment(home, own, "TILECL_TUNE=off"), "axpy 1000", unprivileged);
    CHECK(fooled["disk_hits"] == 1);
    CHECK(fooled["correct"] == false);
  }

  TEST_CASE("cache trust: a fleet's read-only cache (TILECL_CACHE_READONLY) is read, never written") {
    const bool unprivileged = !test::as_nobody().empty();
    const std::string home = shared_home("read-only-cache"), admin_home = test::temp_directory("administrator");
    const fs::path fleet = fs::path(home) / "fleet", own = fs::path(home) / "own";
    const std::string tuned = "TILECL_TUNE=first-use TILECL_TUNE_BUDGET_MS=30";

    // The administrator (this process's user: root when the suite runs as root) fills the cache and opens it for
    // reading: what tilecl writes is private.
    auto admin = test::probe_report(probe_environment(admin_home, fleet, tuned), "axpy 1000");
    REQUIRE(admin["correct"] == true);
    REQUIRE(admin["disk_writes"].get<int>() >= 1);
    REQUIRE(test::run_command("chmod -R a+rX '" + fleet.string() + "'").status == 0);
    const auto before = listing(fleet);

    const std::string readonly = tuned + " TILECL_CACHE_READONLY='" + fleet.string() + "'";
    auto user = test::probe_report(probe_environment(home, own, readonly), "axpy 1000", unprivileged);
    CHECK(user["correct"] == true);
    CHECK(user["compiles"] == 0);
    CHECK(user["disk_hits"].get<int>() >= 1);
    CHECK(user["tunings"] == 0);
    CHECK(user["tuning_db_hits"].get<int>() >= 1);
    CHECK(user["reports"] == 0);
    CHECK(test::files_with_extension(own, ".bin").empty());  // nothing needed compiling
    CHECK(listing(fleet) == before);

    // A damaged file there is ignored (reported), never deleted; the user's own cache gets the rebuilt program.
    const auto shared_binaries = test::files_with_extension(fleet / "programs", ".bin");
    REQUIRE_FALSE(shared_binaries.empty());
    for (const auto& binary : shared_binaries) test::replace_with(binary, "damaged");
    const auto damaged = listing(fleet);
    user = test::probe_report(probe_environment(home, own, readonly), "axpy 1000", unprivileged);
    CHECK(user["correct"] == true);
    CHECK(user["reports"] == 1);
    CHECK(user["disk_writes"].get<int>() >= 1);
    CHECK(listing(fleet) == damaged);

    // Writable by its group: not used at all (reported once); the program is compiled from source.
    fs::permissions(fleet / "programs", fs::perms::group_write, fs::perm_options::add);
    const auto opened = listing(fleet);
    fs::remove_all(own);
    user = test::probe_report(probe_environment(home, own, readonly), "axpy 1000", unprivileged);
    CHECK(user["correct"] == true);
    CHECK(user["reports"] == 1);
    CHECK(user["disk_hits"] == 0);
    CHECK(listing(fleet) == opened);
  }
}
