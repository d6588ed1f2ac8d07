// The contract between the host and the kernel sources: every build parameter a search space declares is a macro
// its family's source reads (a misspelt name would otherwise build silently with the kernel's default), and every
// macro a source declares a default for is one the host sets (no dead tunables).
#include <doctest/doctest.h>

#include <map>
#include <regex>
#include <set>

#include "dtype.hpp"
#include "kernel_sources.hpp"
#include "ops/gemm.hpp"
#include "ops/gemm/mma_variants.hpp"
#include "ops/transpose.hpp"
#include "support/fixture.hpp"
#include "tilecl/tuning.hpp"
#include "tuning/op_registry.hpp"

using namespace tilecl;
using tilecl::test::device;

namespace {

// Macros a family's file declares a default for: `#ifndef NAME` with a `#define NAME` in the file (the default
// may depend on other macros, as color.cl's VEC on the element type).
std::set<std::string> declared_macros(const std::string& text) {
  std::set<std::string> names;
  const std::regex pattern(R"(#ifndef\s+([A-Z_][A-Z0-9_]*))");
  for (std::sregex_iterator it(text.begin(), text.end(), pattern), end; it != end; ++it) {
    const std::string name = (*it)[1];
    if (std::regex_search(text, std::regex("#define\\s+" + name + "\\b"))) names.insert(name);
  }
  return names;
}

// Whether `name` is used in the source beyond its own #ifndef / #define default.
bool is_read(const std::string& text, const std::string& name) {
  const std::regex word("\\b" + name + "\\b");
  const auto uses = std::distance(std::sregex_iterator(text.begin(), text.end(), word), std::sregex_iterator());
  return uses > 2;
}

// For every tunable op, per family: the build parameters of its search space, and every macro a configuration's
// program is built with (the problem's macros included), over every dtype and representative shape.
struct HostMacros {
  std::map<std::string, std::set<std::string>> parameters, rendered;
};
const HostMacros& host_macros() {
  static const HostMacros macros = [] {
    HostMacros host;
    for (const auto& op : detail::tunable_op_registry()) {
      const std::string& family = op.description.family;
      for (const auto& dtype : op.description.dtypes) {
        if (!device().info->fp64 && dtype == "double") continue;
        for (const auto& shape : op.description.default_shapes) {
          auto subject = op.make_subject(dtype, shape);
          const auto space = subject->search_space(*device().info);
          // A variant may build from another family than its op's (gemm's "gemv" runs gemv.cl).
          auto family_of = [&](const std::string& variant) {
            const auto* found = space.find(variant);
            return found != nullptr && !found->family.empty() ? found->family : family;
          };
          for (const auto& variant : space.variants())
            for (const auto& parameter : variant.parameters)
              if (parameter.kind == detail::ParameterKind::Build)
                host.parameters[family_of(variant.variant)].insert(parameter.name);
          std::vector<detail::Config> configs = space.enumerate(*device().info, 1);  // the first of each variant
          configs.push_back(subject->default_config(*device().info));
          for (const auto& config : configs) {
            const detail::BuildOptions options = subject->build_options(config);
            for (const auto& [name, value] : options.macros()) host.rendered[family_of(config.variant)].insert(name);
          }
        }
      }
    }
    return host;
  }();
  return macros;
}

}  // namespace

TEST_SUITE("runtime.macro_contract") {
  TEST_CASE("macro contract: every build parameter of every search space is a macro its kernel family reads") {
    const HostMacros& host = host_macros();
    REQUIRE(host.parameters.size() >= 5);
    for (const auto& entry : host.parameters) {
      const std::string& family = entry.first;
      const std::string text = detail::kernel_source(family).text;
      const auto declared = declared_macros(text);
      for (const auto& name : entry.second) {
        CAPTURE(family);
        CAPTURE(name);
        CHECK(declared.count(name) == 1);
        CHECK(is_read(text, name));
      }
    }
  }

  TEST_CASE("macro contract: the descriptors name kernels that exist and macros the kernels declare") {
    for (const detail::FamilyMacros& family :
         {detail::transpose_macros(), detail::gemm_macros(), detail::gemm::mma::mma_family_macros()}) {
      const std::string text = detail::kernel_source(family.family).text;
      const auto declared = declared_macros(text);
      for (const auto& variant : family.variants) {
        CAPTURE(variant.variant);
        CHECK(std::regex_search(text, std::regex("void\\s+" + variant.kernel + "\\s*\\(")));
        for (const auto& name : variant.macros) {
          CAPTURE(name);
          CHECK(declared.count(name) == 1);
        }
      }
      for (const auto& name : family.problem_macros) {
        CAPTURE(name);
        CHECK(declared.count(name) == 1);
      }
    }
  }

  TEST_CASE("macro contract: every macro a kernel file declares a default for is one the host sets") {
    const HostMacros& host = host_macros();
    for (const auto& entry : host.rendered) {
      const std::string& family = entry.first;
      const auto declared = declared_macros(detail::kernel_source(family).text);
      for (const auto& name : declared) {
        CAPTURE(family);
        CAPTURE(name);
        CHECK(entry.second.count(name) == 1);
      }
    }
  }
}
