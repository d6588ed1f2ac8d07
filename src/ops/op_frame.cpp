#include "ops/op_frame.hpp"

#include <algorithm>
#include <array>

#include "environment.hpp"
#include "launch.hpp"

namespace tilecl::detail {
namespace {

struct MemoEntry {
  cl_context context = nullptr;
  cl_device_id device = nullptr;
  const char* op = nullptr;
  const char* dtype = nullptr;
  std::uint64_t shape_class = 0, program_code = 0, generation = 0;
  std::unique_ptr<Resolved> resolved;

  bool matches(const QueueTarget& target, const ShapeKey& key, std::uint64_t current) const {
    return generation == current && context == target.context() && device == target.device() && op == key.op &&
           dtype == key.dtype && shape_class == key.shape_class && program_code == key.program_code;
  }
};

// Per thread: a few dozen keys are warm at once in real programs; the oldest entry makes room.
constexpr std::size_t kMemoEntries = 32;
// Ops nest one level today (via_float's float gemm); four pins leave room.
constexpr std::size_t kMaxPins = 4;
struct Memo {
  std::array<MemoEntry, kMemoEntries> entries;
  std::size_t next = 0;
  std::array<const Resolved*, kMaxPins> pinned{};
  std::size_t pins = 0;

  bool is_pinned(const MemoEntry& entry) const {
    for (std::size_t i = 0; i < std::min(pins, kMaxPins); ++i)
      if (pinned[i] == entry.resolved.get()) return true;
    return false;
  }
};
thread_local Memo memo;

}  // namespace

MemoPin::MemoPin(const Resolved& resolved) {
  if (memo.pins < kMaxPins) memo.pinned[memo.pins] = &resolved;
  ++memo.pins;
}

MemoPin::~MemoPin() {
  --memo.pins;
  if (memo.pins < kMaxPins) memo.pinned[memo.pins] = nullptr;
}

Resolved* find_memoized(const QueueTarget& target, const ShapeKey& key) {
  const std::uint64_t current = dispatch_generation();
  for (auto& entry : memo.entries)
    if (entry.resolved != nullptr && entry.matches(target, key, current)) return entry.resolved.get();
  return nullptr;
}

Resolved& remember(const QueueTarget& target, const ShapeKey& key, Config config) {
  const std::uint64_t current = dispatch_generation();
  MemoEntry* slot = nullptr;
  for (auto& entry : memo.entries)  // a stale entry first, then the oldest; never one an enqueue in progress holds
    if (entry.resolved != nullptr && entry.generation != current && !memo.is_pinned(entry)) slot = &entry;
  while (slot == nullptr) {
    MemoEntry& oldest = memo.entries[memo.next];
    memo.next = (memo.next + 1) % kMemoEntries;
    if (!memo.is_pinned(oldest)) slot = &oldest;
  }
  *slot = MemoEntry{target.context(), target.device(),  key.op,  key.dtype,
                    key.shape_class,  key.program_code, current, std::make_unique<Resolved>()};
  slot->resolved->config = std::move(config);
  return *slot->resolved;
}

bool is_configuration_failure(const Error& error) {
  if (dynamic_cast<const BuildError*>(&error) != nullptr) return true;
  switch (error.status()) {
    case CL_INVALID_WORK_GROUP_SIZE:
    case CL_INVALID_WORK_ITEM_SIZE:
    case CL_INVALID_GLOBAL_WORK_SIZE:
    case CL_OUT_OF_RESOURCES:
    case CL_INVALID_KERNEL_NAME:
      return true;
    default:
      return false;
  }
}

cl::Kernel& Resolved::main_kernel(const QueueTarget& target, const char* family, const BuildOptions& options,
                                  const std::string& name, const char* op) {
  if (!program) {
    // For the tests of what happens when a chosen configuration fails: TILECL_TEST_FAIL_CONFIG names one (as
    // Parameters::to_string() writes it) that then fails to build.
    if (const auto failing = env_value("TILECL_TEST_FAIL_CONFIG"); failing && *failing == config.to_string())
      throw BuildError(op, family, CL_BUILD_PROGRAM_FAILURE, options.render(), "TILECL_TEST_FAIL_CONFIG");
    program = ProgramCache::instance().get(target.context, target.device, family, options, op);
  }
  if (!kernel) kernel.emplace(program->lease(name, op));
  return kernel->kernel();
}

void Resolved::check_main_work_group(std::string_view op, const std::string& name, std::uint64_t items) {
  if (items == 0 || items == checked_work_group) return;
  check_work_group_fits(std::string(op), *program, name, items);
  checked_work_group = items;
}

void check_explicit_config(const char* op, const SearchSpace& space, const Config& config, const DeviceInfo& device) {
  const std::string why = space.validate(config, device);
  if (!why.empty()) throw Error(op, "config", CL_INVALID_VALUE, config.to_string() + ": " + why);
}

}  // namespace tilecl::detail
