#include "program_cache.hpp"

#include <algorithm>
#include <chrono>
#include <iostream>

#include "binary_cache.hpp"
#include "dispatch_generation.hpp"
#include "environment.hpp"
#include "kernel_sources.hpp"
#include "log.hpp"
#include "statistics.hpp"
#include "tilecl/device.hpp"
#include "tilecl/error.hpp"
#include "tilecl/runtime.hpp"

namespace tilecl::detail {
namespace {

std::string build_log(const cl::Program& program, const cl::Device& device) {
  try {
    return program.getBuildInfo<CL_PROGRAM_BUILD_LOG>(device);
  } catch (const cl::Error&) {
    return "(no build log)";
  }
}

void show_kernel(const KernelSource& source, const std::string& options, const std::string& log) {
  if (!show_kernels()) return;
  std::cerr << "[tilecl] ---- program " << source.family << " (" << source.origin << ") options: " << options << "\n"
            << source.text << "\n[tilecl] ---- build log:\n"
            << log << "\n[tilecl] ----" << std::endl;
}

// One kernel of each that the program defines, sorted by name.
NamedKernels kernels_of(cl::Program& program) {
  std::vector<cl::Kernel> kernels;
  program.createKernels(&kernels);
  NamedKernels named;
  for (auto& kernel : kernels) {
    std::string name = kernel.getInfo<CL_KERNEL_FUNCTION_NAME>();
    while (!name.empty() && name.back() == '\0') name.pop_back();
    named.emplace_back(std::move(name), std::move(kernel));
  }
  std::sort(named.begin(), named.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  return named;
}

std::vector<std::string> names_of(const NamedKernels& kernels) {
  std::vector<std::string> names;
  for (const auto& kernel : kernels) names.push_back(kernel.first);
  return names;
}

std::string listed(const std::vector<std::string>& names) {
  std::string text;
  for (const auto& name : names) text += (text.empty() ? "" : " ") + name;
  return "[" + text + "]";
}

// A program from a cached binary, or nullptr when there is none, the driver refuses it, or it does not define
// the kernels its file names (another program's binary).
std::shared_ptr<CompiledProgram> build_from_disk(const cl::Context& context, const cl::Device& device,
                                                 const BinaryKey& key, const std::string& family,
                                                 const std::string& options) {
  auto loaded = load_binary(key);
  if (!loaded) return nullptr;
  try {
    cl::Program::Binaries binaries{loaded->program.binary};
    std::vector<cl_int> status;
    cl::Program program(context, {device}, binaries, &status);
    program.build({device}, options.c_str());
    NamedKernels kernels = kernels_of(program);
    if (names_of(kernels) != loaded->program.kernels) {
      reject_binary(key, loaded->source,
                    "the program it holds defines the kernels " + listed(names_of(kernels)) + ", not the " +
                        listed(loaded->program.kernels) + " its header names (another program's binary)");
      return nullptr;
    }
    counters().disk_hits++;
    log_verbose("disk cache: hit for " + family + " [" + options + "]");
    return std::make_shared<CompiledProgram>(program, device, family, options, kernels);
  } catch (const cl::Error& error) {
    reject_binary(key, loaded->source, "the driver refused it (" + cl_error_name(error.err()) + ")");
    return nullptr;
  }
}

// Compiles the family's source; throws tilecl::Error or BuildError.
cl::Program compile(const cl::Context& context, const cl::Device& device, const KernelSource& source,
                    const std::string& options, const std::string& op) {
  cl::Program program;
  try {
    program = cl::Program(context, source.text);
  } catch (const cl::Error& error) {
    throw Error(op, "program '" + source.family + "'", error.err(), "cannot create the program from source");
  }
  try {
    program.build({device}, options.c_str());
  } catch (const cl::Error& error) {
    std::string log = build_log(program, device);
    show_kernel(source, options, log);
    throw BuildError(op, source.family, error.err(), options, log);
  }
  show_kernel(source, options, build_log(program, device));
  return program;
}

// Stores the program's binary, with the names of its kernels, in the disk cache.
void store(const BinaryKey& key, const cl::Program& program, const NamedKernels& kernels) {
  try {
    auto binaries = program.getInfo<CL_PROGRAM_BINARIES>();
    if (binaries.size() == 1 && !kernels.empty()) store_binary(key, {names_of(kernels), binaries[0]});
  } catch (const cl::Error& error) {
    log_verbose("no binary to cache for " + key.fingerprint + ": " + cl_error_name(error.err()));
  }
}

}  // namespace

// --- CompiledProgram -------------------------------------------------------------------------------

CompiledProgram::CompiledProgram(cl::Program program, cl::Device device, std::string family, std::string options,
                                 const NamedKernels& kernels)
    : program_(std::move(program)),
      device_(std::move(device)),
      family_(std::move(family)),
      options_(std::move(options)) {
  for (const auto& [name, kernel] : kernels) idle_[name].push_back(kernel);
}

CompiledProgram::Lease::Lease(std::shared_ptr<CompiledProgram> owner, std::string name, cl::Kernel kernel)
    : owner_(std::move(owner)), name_(std::move(name)), kernel_(std::move(kernel)) {}

CompiledProgram::Lease::Lease(Lease&& other) noexcept
    : owner_(std::move(other.owner_)), name_(std::move(other.name_)), kernel_(std::move(other.kernel_)) {}

CompiledProgram::Lease::~Lease() {
  if (owner_ != nullptr) owner_->give_back(name_, std::move(kernel_));
}

CompiledProgram::Lease CompiledProgram::lease(const std::string& kernel_name, const std::string& op) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto& idle = idle_[kernel_name];
    if (!idle.empty()) {
      cl::Kernel kernel = std::move(idle.back());
      idle.pop_back();
      return Lease(shared_from_this(), kernel_name, std::move(kernel));
    }
  }
  try {
    return Lease(shared_from_this(), kernel_name, cl::Kernel(program_, kernel_name.c_str()));
  } catch (const cl::Error& error) {
    throw Error(op, "kernel '" + kernel_name + "'", error.err(),
                "cannot create the kernel from program '" + family_ + "' built with \"" + options_ + "\"");
  }
}

void CompiledProgram::give_back(const std::string& name, cl::Kernel kernel) {
  std::lock_guard<std::mutex> lock(mutex_);
  idle_[name].push_back(std::move(kernel));
}

size_t CompiledProgram::kernel_work_group_limit(const std::string& kernel_name, const std::string& op) {
  auto held = lease(kernel_name, op);
  return held.kernel().getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(device_);
}

std::uint64_t CompiledProgram::kernel_local_memory(const std::string& kernel_name, const std::string& op) {
  auto held = lease(kernel_name, op);
  return held.kernel().getWorkGroupInfo<CL_KERNEL_LOCAL_MEM_SIZE>(device_);
}

// --- Building --------------------------------------------------------------------------------------

std::shared_ptr<CompiledProgram> build_program(const cl::Context& context, const cl::Device& device,
                                               const std::string& family, const std::string& options,
                                               const std::string& op) {
  const auto start = std::chrono::steady_clock::now();
  const KernelSource source = kernel_source(family);
  const DeviceInfo& info = device_info(device);
  const BinaryKey key = make_binary_key(info, family, source.hash, options);

  if (auto program = build_from_disk(context, device, key, family, options)) {
    counters().compile_nanoseconds += nanoseconds_since(start);
    return program;
  }

  cl::Program program = compile(context, device, source, options, op);
  counters().compiles++;
  const auto elapsed = nanoseconds_since(start);
  counters().compile_nanoseconds += elapsed;
  log_verbose("compiled " + family + " [" + options + "] in " + std::to_string(static_cast<double>(elapsed) * 1e-6) +
              " ms");
  NamedKernels kernels;
  try {
    kernels = kernels_of(program);
  } catch (const cl::Error& error) {
    log_verbose("cannot list the kernels of " + family + ": " + cl_error_name(error.err()));
  }
  store(key, program, kernels);
  return std::make_shared<CompiledProgram>(program, device, family, options, kernels);
}

// --- ProgramCache ----------------------------------------------------------------------------------

// Never destroyed: releasing OpenCL objects from static destructors can run after the driver has unloaded.
ProgramCache& ProgramCache::instance() {
  static ProgramCache* cache = new ProgramCache;
  return *cache;
}

std::size_t ProgramCache::size() { return programs_.size(); }

std::shared_ptr<CompiledProgram> ProgramCache::get(const cl::Context& context, const cl::Device& device,
                                                   const std::string& family, const BuildOptions& options,
                                                   const std::string& op) {
  const std::string rendered = options.render();
  bool built = false;
  auto program = programs_.get(context, Key{device(), family, rendered}, [&] {
    built = true;
    return build_program(context, device, family, rendered, op);
  });
  if (!built) counters().memory_hits++;
  return program;
}

bool ProgramCache::contains(const cl::Context& context, const cl::Device& device, const std::string& family,
                            const BuildOptions& options) {
  return programs_.contains(context, Key{device(), family, options.render()});
}

void ProgramCache::clear() { programs_.clear(); }

}  // namespace tilecl::detail

void tilecl::clear_program_cache() {
  detail::ProgramCache::instance().clear();
  detail::invalidate_dispatch_memos();  // the per-thread memos hold programs too
}
