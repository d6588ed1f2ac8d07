#include <cmath>
#include <string>
#include <utility>

#include "multi_device/entry.hpp"
#include "tilecl/error.hpp"
#include "tilecl/multi_device.hpp"

namespace tilecl {

namespace {

constexpr const char* kOp = "DeviceSet";

std::vector<double> checked_weights(std::vector<double> weights, std::size_t count) {
  if (weights.empty()) return std::vector<double>(count, 1.0);
  if (weights.size() != count)
    throw Error(kOp, "devices", CL_INVALID_VALUE,
                std::to_string(weights.size()) + " weights for " + std::to_string(count) + " queues");
  for (std::size_t i = 0; i < weights.size(); ++i)
    if (!(weights[i] > 0) || !std::isfinite(weights[i]))
      throw Error(
          kOp, "devices", CL_INVALID_VALUE,
          "weight " + std::to_string(i) + " is " + std::to_string(weights[i]) + " (finite and positive needed)");
  return weights;
}

// The caller's queue for compute, and an in-order upload and download queue of the same context and device.
std::shared_ptr<DeviceSet::Entry> make_entry(const cl::CommandQueue& queue, std::size_t index) {
  const std::string argument = "devices[" + std::to_string(index) + "]";
  if (queue() == nullptr) throw Error(kOp, argument, CL_INVALID_COMMAND_QUEUE, "the command queue is null");
  try {
    auto entry = std::make_shared<DeviceSet::Entry>();
    entry->index = index;
    entry->compute = queue;
    entry->context = queue.getInfo<CL_QUEUE_CONTEXT>();
    entry->device = queue.getInfo<CL_QUEUE_DEVICE>();
    entry->upload = cl::CommandQueue(entry->context, entry->device);
    entry->download = cl::CommandQueue(entry->context, entry->device);
    return entry;
  } catch (const cl::Error& error) {
    throw Error(kOp, argument, error.err(), std::string("cannot use the command queue (") + error.what() + ")");
  }
}

}  // namespace

DeviceSet::DeviceSet(std::vector<cl::CommandQueue> queues, DeviceSetOptions options)
    : pieces_per_device_(options.pieces_per_device) {
  if (queues.empty()) throw Error(kOp, "devices", CL_INVALID_VALUE, "the set has no command queue");
  if (pieces_per_device_ == 0) throw Error(kOp, "devices", CL_INVALID_VALUE, "pieces_per_device is 0 (at least 1)");
  weights_ = checked_weights(std::move(options.weights), queues.size());
  for (std::size_t i = 0; i < queues.size(); ++i) entries_.push_back(make_entry(queues[i], i));
}

std::size_t DeviceSet::size() const noexcept { return entries_.size(); }

DeviceSet::Entry& DeviceSet::entry(std::size_t index) const {
  if (index >= entries_.size())
    throw Error(kOp, "index", CL_INVALID_VALUE,
                std::to_string(index) + " is past the set's " + std::to_string(entries_.size()) + " queues");
  return *entries_[index];
}

cl::CommandQueue& DeviceSet::queue(std::size_t index) const { return entry(index).compute; }
cl::CommandQueue& DeviceSet::upload_queue(std::size_t index) const { return entry(index).upload; }
cl::CommandQueue& DeviceSet::download_queue(std::size_t index) const { return entry(index).download; }
const std::vector<double>& DeviceSet::weights() const noexcept { return weights_; }
std::size_t DeviceSet::pieces_per_device() const noexcept { return pieces_per_device_; }

}  // namespace tilecl
