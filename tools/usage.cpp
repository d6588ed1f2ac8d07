#include "usage.hpp"

#include <iostream>
#include <vector>

namespace tilecl::tool {
namespace {

// The chain of subcommands that were recognised, root first.
std::vector<CLI::App*> parsed_chain(CLI::App& app) {
  std::vector<CLI::App*> chain{&app};
  while (!chain.back()->get_subcommands().empty()) chain.push_back(chain.back()->get_subcommands().front());
  return chain;
}

std::string command_path(const std::vector<CLI::App*>& chain) {
  std::string path = "tilecl";
  for (std::size_t i = 1; i < chain.size(); ++i) path += " " + chain[i]->get_name();
  return path;
}

std::string subcommand_names(CLI::App& app) {
  std::string names;
  for (const CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; }))
    names += (names.empty() ? "" : ", ") + sub->get_name();
  return names;
}

// The first word after the recognised commands that is not an option: the word CLI11 did not know as a
// command. Empty when there is none.
std::string unknown_command_word(const std::vector<CLI::App*>& chain, int argc, const char* const* argv) {
  std::size_t matched = 1;
  for (int i = 1; i < argc; ++i) {
    std::string word = argv[i];
    if (!word.empty() && word[0] == '-') continue;
    if (matched < chain.size() && word == chain[matched]->get_name()) {
      ++matched;
      continue;
    }
    return word;
  }
  return "";
}

}  // namespace

int report_parse_error(CLI::App& app, const CLI::ParseError& error, int argc, const char* const* argv) {
  const auto chain = parsed_chain(app);
  const std::string path = command_path(chain);
  std::string message = error.what();
  if (error.get_name() == "RequiredError" && message.rfind("A subcommand", 0) == 0) {
    const std::string word = unknown_command_word(chain, argc, argv);
    message = (word.empty() ? std::string("a command is required") : "unknown command '" + word + "'") +
              " (commands: " + subcommand_names(*chain.back()) + ")";
  }
  std::cerr << path << ": " << message << "\nsee '" << path << " --help'" << std::endl;
  return kUsageExitStatus;
}

int report_usage_error(const std::string& command, const UsageError& error) {
  std::cerr << command << ": " << error.what() << "\nsee '" << command << " --help'" << std::endl;
  return kUsageExitStatus;
}

}  // namespace tilecl::tool
