// tilecl cache path|list|clear|export|import: the compiled programs and tuning databases on disk.
#include <iostream>

#include "cache_admin.hpp"
#include "commands.hpp"
#include "text_table.hpp"
#include "tilecl/runtime.hpp"

namespace tilecl::tool {

namespace {

int print_cache_path(const std::string& directory) {
  if (directory.empty()) {
    std::cout << "(disk cache off: TILECL_CACHE=off, or no HOME)" << std::endl;
    return 1;
  }
  std::cout << directory << std::endl;
  return 0;
}

int list_cache(const std::string& directory) {
  std::cout << "cache directory: " << (directory.empty() ? "(off)" : directory) << "\n\n";
  TextTable programs({"device fingerprint", "programs", "size"});
  for (const auto& entry : detail::list_program_cache())
    programs.add({entry.fingerprint, std::to_string(entry.files), std::to_string(entry.bytes / 1024) + " KiB"});
  std::cout << "compiled programs\n";
  programs.print(std::cout);
  TextTable tuning({"device fingerprint", "device", "driver", "entries", "failures", "state"});
  for (const auto& entry : detail::list_tuning_databases())
    tuning.add({entry.fingerprint.empty() ? entry.path.filename().string() : entry.fingerprint, entry.device_name,
                entry.driver_version, std::to_string(entry.entries), std::to_string(entry.failures),
                entry.problem.empty() ? "ok" : entry.problem});
  std::cout << "\ntuning databases\n";
  tuning.print(std::cout);
  return 0;
}

// Neither flag: both kinds of files.
int clear_cache(const std::string& directory, bool programs_only, bool tuning_only) {
  const bool both = !programs_only && !tuning_only;
  std::size_t removed = 0;
  if (both || programs_only) removed += detail::clear_program_cache_files();
  if (both || tuning_only) removed += detail::clear_tuning_databases();
  std::cout << "removed " << removed << " files from " << (directory.empty() ? "(off)" : directory) << std::endl;
  return 0;
}

int export_cache(const std::string& file) {
  const auto count = detail::export_tuning(file);
  std::cout << "exported " << count << " tuning database(s) to " << file << std::endl;
  return 0;
}

int import_cache(const std::string& directory, const std::string& file) {
  const auto count = detail::import_tuning(file);
  std::cout << "merged " << count << " tuning database(s) into " << directory << std::endl;
  return 0;
}

}  // namespace

Action add_cache_command(CLI::App& app) {
  auto* cache = app.add_subcommand("cache", "Inspect, clear, export and import what tilecl keeps on disk");
  cache->require_subcommand(1);
  auto* path = cache->add_subcommand("path", "Print the cache directory");
  auto* list = cache->add_subcommand("list", "List compiled programs and tuning databases per device");
  auto* clear = cache->add_subcommand("clear", "Delete cached programs and/or tuning databases");
  auto programs_only = std::make_shared<bool>(false), tuning_only = std::make_shared<bool>(false);
  clear->add_flag("--programs", *programs_only, "Only compiled programs");
  clear->add_flag("--tuning", *tuning_only, "Only tuning databases");
  auto* export_command = cache->add_subcommand("export", "Write every tuning database into one file");
  auto* import_command = cache->add_subcommand("import", "Merge tuning databases from a file written by export");
  auto file = std::make_shared<std::string>();
  export_command->add_option("FILE", *file, "Bundle to write")->required();
  import_command->add_option("FILE", *file, "Bundle to read")->required()->check(CLI::ExistingFile);

  return [=] {
    const std::string directory = cache_directory();
    if (path->parsed()) return print_cache_path(directory);
    if (list->parsed()) return list_cache(directory);
    if (clear->parsed()) return clear_cache(directory, *programs_only, *tuning_only);
    if (export_command->parsed()) return export_cache(*file);
    if (import_command->parsed()) return import_cache(directory, *file);
    return 1;
  };
}

}  // namespace tilecl::tool
