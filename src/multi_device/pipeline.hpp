// How a multi-device call runs: one host thread per device with work, and on each device a pipeline of pieces
// through three queues (upload, compute, download) tied by events, so transfers overlap compute.
#pragma once

#include <CL/opencl.hpp>
#include <cstddef>
#include <functional>
#include <vector>

#include "multi_device/entry.hpp"
#include "multi_device/shares.hpp"

namespace tilecl::detail {

using Events = std::vector<cl::Event>;

// One device's share of a call, cut into pieces. Each stage enqueues on the queue it is given, after `wait`,
// without blocking, and returns the events of what it enqueued. Pieces use `slots()` sets of device buffers in
// turn: piece p uses slot p % slots().
class PieceWork {
 public:
  virtual ~PieceWork() = default;
  virtual std::size_t pieces() const = 0;
  virtual std::size_t slots() const = 0;
  virtual Events upload(std::size_t piece, cl::CommandQueue& queue, const Events& wait) = 0;
  virtual Events compute(std::size_t piece, cl::CommandQueue& queue, const Events& wait) = 0;
  virtual Events download(std::size_t piece, cl::CommandQueue& queue, const Events& wait) = 0;
};

// Runs every piece on the entry's queues: piece p's upload waits for the download of piece p - slots (whose
// buffers it reuses), its compute for its upload (or, when it uploads nothing, for that download), its
// download for its compute. Each queue is flushed after each stage, since another queue waits for its events.
// Returns once every download is complete.
void run_pieces(DeviceSet::Entry& entry, PieceWork& work);

// Calls work(entry, share) for every entry whose share is not empty, each on its own host thread (inline when
// only one has work), and returns when all are done. A failure on an entry waits for that entry's transfers
// (they read and write host memory), and the first failure is raised as tilecl::Error once every entry has
// stopped (a tilecl::Error as it is, anything else naming `op` and the entry as "devices[i]").
void run_on_devices(const char* op, DeviceSet& devices, const std::vector<IndexRange>& shares,
                    const std::function<void(DeviceSet::Entry&, IndexRange)>& work);

}  // namespace tilecl::detail
