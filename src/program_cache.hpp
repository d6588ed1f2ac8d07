// Compiled programs, in memory, keyed by (context, device, family, options).
//
// The first caller of a key builds the program (from the disk cache when it can, else from source); every
// concurrent caller of the same key waits for that one build. Programs stay until clear_program_cache(),
// tilecl::forget_context(), or until their context is among the least recently used (src/context_registry.hpp).
// A program hands out kernels through leases: a cl::Kernel carries argument state, so one kernel object is
// never in two threads' hands at once; a lease returns its kernel to the program's pool when it ends.
#pragma once

#include <CL/opencl.hpp>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "build_options.hpp"
#include "context_cache.hpp"

namespace tilecl::detail {

// Kernels of a program with their names, e.g. one of each it defines.
using NamedKernels = std::vector<std::pair<std::string, cl::Kernel>>;

class CompiledProgram : public std::enable_shared_from_this<CompiledProgram> {
 public:
  // `kernels` start the pool of idle kernels.
  CompiledProgram(cl::Program program, cl::Device device, std::string family, std::string options,
                  const NamedKernels& kernels = {});

  class Lease {
   public:
    Lease(std::shared_ptr<CompiledProgram> owner, std::string name, cl::Kernel kernel);
    Lease(Lease&& other) noexcept;
    Lease& operator=(Lease&&) = delete;
    Lease(const Lease&) = delete;
    ~Lease();
    cl::Kernel& kernel() { return kernel_; }

   private:
    std::shared_ptr<CompiledProgram> owner_;  // keeps the program alive while its kernel is out
    std::string name_;
    cl::Kernel kernel_;
  };

  // A kernel of this program for the caller's exclusive use. Throws tilecl::Error for an unknown name.
  Lease lease(const std::string& kernel_name, const std::string& op);

  const cl::Program& program() const { return program_; }
  const std::string& family() const { return family_; }
  const std::string& options() const { return options_; }

  // CL_KERNEL_WORK_GROUP_SIZE and CL_KERNEL_LOCAL_MEM_SIZE of a kernel on this program's device.
  size_t kernel_work_group_limit(const std::string& kernel_name, const std::string& op);
  std::uint64_t kernel_local_memory(const std::string& kernel_name, const std::string& op);

 private:
  void give_back(const std::string& name, cl::Kernel kernel);

  cl::Program program_;
  cl::Device device_;
  std::string family_;
  std::string options_;
  std::mutex mutex_;
  std::map<std::string, std::vector<cl::Kernel>> idle_;
};

class ProgramCache {
 public:
  static ProgramCache& instance();

  // The built program; throws tilecl::BuildError when it does not compile (and again for every later
  // caller of the same key: a failed build is remembered, not retried).
  std::shared_ptr<CompiledProgram> get(const cl::Context& context, const cl::Device& device, const std::string& family,
                                       const BuildOptions& options, const std::string& op);

  // Whether the key is built already (or being built), without building it.
  bool contains(const cl::Context& context, const cl::Device& device, const std::string& family,
                const BuildOptions& options);

  void clear();

  // Programs held (built, being built, or failed).
  std::size_t size();

 private:
  ProgramCache() = default;

  // (device, family, rendered options), within a context.
  using Key = std::tuple<cl_device_id, std::string, std::string>;
  ContextCache<Key, std::shared_ptr<CompiledProgram>> programs_;
};

// Builds without the in-memory cache (disk cache still used): what ProgramCache calls on a miss.
std::shared_ptr<CompiledProgram> build_program(const cl::Context& context, const cl::Device& device,
                                               const std::string& family, const std::string& options,
                                               const std::string& op);

}  // namespace tilecl::detail
