#include "ops/image/tap_buffers.hpp"

#include <cstring>
#include <map>
#include <mutex>

#include "context_cache.hpp"
#include "tilecl/error.hpp"

namespace tilecl::detail {
namespace {

constexpr std::size_t kTapBytes = 4;

std::uint64_t constant_memory_limit(const cl::Device& device) {
  // The last device asked on this thread: warm calls take no lock.
  thread_local cl_device_id last_device = nullptr;
  thread_local std::uint64_t last_limit = 0;
  if (device() == last_device) return last_limit;
  static std::mutex mutex;
  static auto* limits = new std::map<cl_device_id, std::uint64_t>;  // never destroyed, like the other caches
  std::lock_guard<std::mutex> lock(mutex);
  auto found = limits->find(device());
  if (found == limits->end())
    found = limits->emplace(device(), device.getInfo<CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE>()).first;
  last_device = device();
  last_limit = found->second;
  return last_limit;
}

// Device copies of host-built taps, per context (dropped with their context, src/context_cache.hpp). Never
// destroyed: it holds OpenCL buffers.
ContextCache<TapWords, cl::Buffer>& tap_cache() {
  static auto* cache = new ContextCache<TapWords, cl::Buffer>;
  return *cache;
}

// A device copy of `taps`, made on first use; a failed allocation is not remembered (the next call tries again).
cl::Buffer cached_taps(const std::string& op, const cl::Context& context, const TapWords& taps) {
  constexpr std::size_t kMostEntries = 256;  // a bound, not a policy: taps are cheap to rebuild
  if (tap_cache().size() >= kMostEntries && !tap_cache().contains(context, taps)) tap_cache().clear();
  return tap_cache().get(
      context, taps,
      [&] {
        try {
          return cl::Buffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, taps.size() * kTapBytes,
                            const_cast<std::uint32_t*>(taps.data()));
        } catch (const cl::Error& error) {
          throw Error(op, "taps", error.err(),
                      "cannot allocate " + std::to_string(taps.size()) + " taps on the device");
        }
      },
      OnFailure::Retry);
}

}  // namespace

TapWords tap_words(const std::vector<float>& taps) {
  TapWords words(taps.size());
  std::memcpy(words.data(), taps.data(), taps.size() * kTapBytes);
  return words;
}

TapWords fixed_tap_words(const std::vector<std::uint32_t>& taps, bool dividing_finish) {
  if (dividing_finish) return taps;
  return tap_words(std::vector<float>(taps.begin(), taps.end()));
}

void check_constant_memory(const std::string& op, const std::string& argument, const QueueTarget& target,
                           std::uint64_t kw, std::uint64_t kh, bool direct) {
  const std::uint64_t taps = direct ? kw * kh : kw + kh;
  const std::uint64_t limit = constant_memory_limit(target.device);
  if (taps * kTapBytes <= limit) return;
  const std::string what =
      direct ? "a " + std::to_string(kw) + " x " + std::to_string(kh) + " filter's taps"
             : "row and column filters of " + std::to_string(kw) + " and " + std::to_string(kh) + " taps";
  throw Error(op, argument, CL_INVALID_VALUE,
              what + " need " + std::to_string(taps * kTapBytes) + " bytes of constant memory; the device allows " +
                  std::to_string(limit) + " (" + std::to_string(limit / kTapBytes) + " taps)");
}

void check_taps_buffer(const std::string& op, const TapsArgument& taps, const QueueTarget& target,
                       const ImageOperands& image, std::uint64_t dst_extent, std::size_t element_size) {
  check_buffer(op, taps.name, *taps.buffer, target.context, 0, 0, kTapBytes);  // null, invalid, other context
  const std::uint64_t size = taps.buffer->getInfo<CL_MEM_SIZE>();
  const std::uint64_t end = checked_add(op, taps.name, taps.offset, taps.count);
  const std::uint64_t needed = checked_multiply(op, taps.name, end, kTapBytes);
  if (needed > size)
    throw Error(op, taps.name, CL_INVALID_BUFFER_SIZE,
                std::string("filter buffer too short: ") + std::to_string(taps.count) + " taps at offset " +
                    std::to_string(taps.offset) + " need " + std::to_string(needed) + " bytes, it holds " +
                    std::to_string(size));
  // The kernels must not write the taps they read (compared in bytes: the element types differ).
  check_no_overlap(op, taps.name, *taps.buffer, taps.offset * kTapBytes, taps.count * kTapBytes, "dst", *image.dst,
                   image.dst_offset * element_size, dst_extent * element_size, 1);
}

BoundTaps bind_taps(const std::string& op, const QueueTarget& target, cl::CommandQueue& queue,
                    const std::vector<TapsArgument>& arguments, const std::vector<cl::Event>* wait) {
  std::uint64_t bound_bytes = 0;
  bool as_they_are = true;
  for (const auto& taps : arguments) {
    as_they_are = as_they_are && taps.offset == 0;
    bound_bytes += taps.buffer->getInfo<CL_MEM_SIZE>();
  }
  as_they_are = as_they_are && bound_bytes <= constant_memory_limit(target.device);
  std::vector<cl::Buffer> buffers;
  BoundTaps bound;
  for (const auto& taps : arguments) {
    if (as_they_are) {
      buffers.push_back(*taps.buffer);
      continue;
    }
    const auto bytes = static_cast<std::size_t>(taps.count * kTapBytes);
    try {
      buffers.emplace_back(target.context, CL_MEM_READ_ONLY, bytes);
      cl::Event copied;
      queue.enqueueCopyBuffer(*taps.buffer, buffers.back(), static_cast<std::size_t>(taps.offset * kTapBytes), 0, bytes,
                              wait, &copied);
      bound.copies.push_back(copied);
    } catch (const cl::Error& error) {
      throw Error(op, taps.name, error.err(), "cannot copy the taps into a buffer of their own");
    }
  }
  bound.first = buffers.at(0);
  bound.second = buffers.size() > 1 ? buffers[1] : buffers[0];
  return bound;
}

BoundTaps host_taps(const std::string& op, const cl::Context& context, const TapWords& row, const TapWords& column) {
  BoundTaps bound;
  bound.first = cached_taps(op, context, row);
  bound.second = column == row ? bound.first : cached_taps(op, context, column);
  return bound;
}

std::size_t host_taps_count() { return tap_cache().size(); }

}  // namespace tilecl::detail
