#include "multi_device/pipeline.hpp"

#include <exception>
#include <future>
#include <string>
#include <system_error>

#include "tilecl/error.hpp"

namespace tilecl::detail {

namespace {

void wait_all(const Events& events) {
  for (const auto& event : events) event.wait();
}

// Waits for whatever the entry's transfer queues still hold, ignoring failures: used on the way out of a failed
// call, so that no copy touches host memory after the call returned.
void drain_transfers(DeviceSet::Entry& entry) noexcept {
  for (cl::CommandQueue* queue : {&entry.upload, &entry.download}) {
    try {
      queue->finish();
    } catch (...) {  // NOLINT(bugprone-empty-catch): the call is already failing with a better error
    }
  }
}

// The entry's failure as a tilecl::Error.
std::exception_ptr as_tilecl_error(const char* op, std::size_t index, std::exception_ptr failure) {
  const std::string argument = "devices[" + std::to_string(index) + "]";
  try {
    std::rethrow_exception(failure);
  } catch (const Error&) {
    return failure;
  } catch (const cl::Error& error) {
    return std::make_exception_ptr(Error(op, argument, error.err(), std::string("OpenCL call ") + error.what()));
  } catch (const std::exception& error) {
    return std::make_exception_ptr(Error(op, argument, CL_OUT_OF_HOST_MEMORY, error.what()));
  }
}

}  // namespace

void run_pieces(DeviceSet::Entry& entry, PieceWork& work) {
  const std::size_t slots = work.slots();
  std::vector<Events> downloads(work.pieces());
  for (std::size_t piece = 0; piece < work.pieces(); ++piece) {
    const Events& reused = piece >= slots ? downloads[piece - slots] : Events{};
    Events uploaded = work.upload(piece, entry.upload, reused);
    entry.upload.flush();
    const Events computed = work.compute(piece, entry.compute, uploaded.empty() ? reused : uploaded);
    entry.compute.flush();
    downloads[piece] = work.download(piece, entry.download, computed);
    entry.download.flush();
  }
  for (const auto& events : downloads) wait_all(events);
}

void run_on_devices(const char* op, DeviceSet& devices, const std::vector<IndexRange>& shares,
                    const std::function<void(DeviceSet::Entry&, IndexRange)>& work) {
  auto guarded = [&](std::size_t index) -> std::exception_ptr {
    DeviceSet::Entry& entry = devices.entry(index);
    try {
      work(entry, shares[index]);
      return nullptr;
    } catch (...) {
      drain_transfers(entry);
      return as_tilecl_error(op, index, std::current_exception());
    }
  };
  std::vector<std::size_t> busy;
  for (std::size_t i = 0; i < shares.size(); ++i)
    if (!shares[i].empty()) busy.push_back(i);
  std::vector<std::exception_ptr> failures;
  if (busy.size() == 1) {
    failures.push_back(guarded(busy.front()));
  } else {
    std::vector<std::future<std::exception_ptr>> running;
    for (const std::size_t index : busy) {
      try {
        running.push_back(std::async(std::launch::async, guarded, index));
      } catch (const std::system_error&) {  // no thread to be had: this entry runs on the caller's
        std::promise<std::exception_ptr> done;
        done.set_value(guarded(index));
        running.push_back(done.get_future());
      }
    }
    for (auto& result : running) failures.push_back(result.get());
  }
  for (const auto& failure : failures)
    if (failure) std::rethrow_exception(failure);
}

}  // namespace tilecl::detail
