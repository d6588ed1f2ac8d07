#include "program_cache.hpp"

#include <chrono>
#include <iostream>

#include "binary_cache.hpp"
#include "context_registry.hpp"
#include "environment.hpp"
#include "kernel_sources.hpp"
#include "log.hpp"
#include "ops/op_frame.hpp"
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

// A program from a cached binary, or nullptr when there is none or the driver refuses it.
std::shared_ptr<CompiledProgram> build_from_disk(const cl::Context& context, const cl::Device& device,
                                                 const BinaryKey& key, const std::string& family,
                                                 const std::string& options) {
  auto binary = load_binary(key);
  if (!binary) return nullptr;
  try {
    cl::Program::Binaries binaries{*binary};
    std::vector<cl_int> status;
    cl::Program program(context, {device}, binaries, &status);
    program.build({device}, options.c_str());
    counters().disk_hits++;
    log_verbose("disk cache: hit for " + family + " [" + options + "]");
    return std::make_shared<CompiledProgram>(program, device, family, options);
  } catch (const cl::Error& error) {
    reject_binary(key, "the driver refused it (" + cl_error_name(error.err()) + ")");
    return nullptr;
  }
}

}  // namespace

// --- CompiledProgram -------------------------------------------------------------------------------

CompiledProgram::CompiledProgram(cl::Program program, cl::Device device, std::string family, std::string options)
    : program_(std::move(program)),
      device_(std::move(device)),
      family_(std::move(family)),
      options_(std::move(options)) {}

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

  cl::Program program;
  try {
    program = cl::Program(context, source.text);
  } catch (const cl::Error& error) {
    throw Error(op, "program '" + family + "'", error.err(), "cannot create the program from source");
  }
  try {
    program.build({device}, options.c_str());
  } catch (const cl::Error& error) {
    std::string log = build_log(program, device);
    show_kernel(source, options, log);
    throw BuildError(op, family, error.err(), options, log);
  }
  show_kernel(source, options, build_log(program, device));
  counters().compiles++;
  const auto elapsed = nanoseconds_since(start);
  counters().compile_nanoseconds += elapsed;
  log_verbose("compiled " + family + " [" + options + "] in " + std::to_string(static_cast<double>(elapsed) * 1e-6) +
              " ms");

  try {
    auto binaries = program.getInfo<CL_PROGRAM_BINARIES>();
    if (binaries.size() == 1) store_binary(key, binaries[0]);
  } catch (const cl::Error& error) {
    log_verbose("no binary to cache for " + family + ": " + cl_error_name(error.err()));
  }
  return std::make_shared<CompiledProgram>(program, device, family, options);
}

// --- ProgramCache ----------------------------------------------------------------------------------

// Never destroyed: releasing OpenCL objects from static destructors can run after the driver has unloaded.
ProgramCache& ProgramCache::instance() {
  static ProgramCache* cache = new ProgramCache;
  return *cache;
}

ProgramCache::ProgramCache() {
  ContextRegistry::instance().add_pruner([this](const std::set<cl_context>& kept) { prune(kept); });
}

void ProgramCache::prune(const std::set<cl_context>& kept) {
  std::vector<Entry> dropped;  // released after the lock: releasing a program can take a while
  std::lock_guard<std::mutex> lock(mutex_);
  dropped = take_entries_not_kept(entries_, kept, [](const auto& key) { return std::get<0>(key); });
}

std::size_t ProgramCache::size() {
  std::lock_guard<std::mutex> lock(mutex_);
  return entries_.size();
}

std::shared_ptr<CompiledProgram> ProgramCache::get(const cl::Context& context, const cl::Device& device,
                                                   const std::string& family, const BuildOptions& options,
                                                   const std::string& op) {
  ContextRegistry::instance().touch(context);  // before taking the lock: it may prune this cache
  const std::string rendered = options.render();
  const Key key{context(), device(), family, rendered};
  std::promise<std::shared_ptr<CompiledProgram>> promise;
  std::shared_future<std::shared_ptr<CompiledProgram>> future;
  bool builder = false;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto found = entries_.find(key);
    if (found != entries_.end()) {
      future = found->second.program;
    } else {
      future = promise.get_future().share();
      entries_.emplace(key, Entry{context, future});
      builder = true;
    }
  }
  if (!builder) {
    counters().memory_hits++;
    return future.get();  // waits while another thread builds; rethrows its BuildError
  }
  try {
    promise.set_value(build_program(context, device, family, rendered, op));
  } catch (...) {
    promise.set_exception(std::current_exception());
  }
  return future.get();
}

bool ProgramCache::contains(const cl::Context& context, const cl::Device& device, const std::string& family,
                            const BuildOptions& options) {
  std::lock_guard<std::mutex> lock(mutex_);
  return entries_.count(Key{context(), device(), family, options.render()}) != 0;
}

void ProgramCache::clear() {
  std::lock_guard<std::mutex> lock(mutex_);
  entries_.clear();
}

}  // namespace tilecl::detail

void tilecl::clear_program_cache() {
  detail::ProgramCache::instance().clear();
  detail::invalidate_dispatch_memos();  // the per-thread memos hold programs too
}
