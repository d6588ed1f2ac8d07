#include "c_api/call.hpp"

#include <new>

namespace tilecl::c_api {
namespace {

std::string& last_error() {
  thread_local std::string message;
  return message;
}

}  // namespace

cl::CommandQueue queue(const char* op, cl_command_queue handle) {
  if (handle == nullptr) return cl::CommandQueue();
  try {
    return cl::CommandQueue(handle, /*retainObject=*/true);
  } catch (const cl::Error& error) {
    throw Error(op, "queue", error.err(), "not a valid command queue");
  }
}

cl::Buffer buffer(const char* op, const char* argument, cl_mem handle) {
  if (handle == nullptr) return cl::Buffer();
  try {
    return cl::Buffer(handle, /*retainObject=*/true);
  } catch (const cl::Error& error) {
    throw Error(op, argument, error.err(), "not a valid memory object");
  }
}

const std::vector<cl::Event>* wait_list(const char* op, const Events& events, std::vector<cl::Event>& storage) {
  if ((events.count == 0) != (events.list == nullptr))
    throw Error(op, "event_wait_list", CL_INVALID_EVENT_WAIT_LIST,
                events.list == nullptr
                    ? "num_events_in_wait_list is " + std::to_string(events.count) + " but event_wait_list is NULL"
                    : std::string("event_wait_list is given but num_events_in_wait_list is 0"));
  if (events.count == 0) return nullptr;
  storage.reserve(events.count);
  for (cl_uint i = 0; i < events.count; ++i) {
    // A null event stays null, for the op's wait-list check to name; others are retained for the call.
    if (events.list[i] == nullptr) {
      storage.emplace_back();
      continue;
    }
    try {
      storage.emplace_back(events.list[i], /*retainObject=*/true);
    } catch (const cl::Error& error) {
      throw Error(op, "event_wait_list", error.err(), "event " + std::to_string(i) + " is not a valid event");
    }
  }
  return &storage;
}

tilecl_status status_of_current_exception() {
  try {
    throw;
  } catch (const Error& error) {
    last_error() = error.what();
    return error.status();
  } catch (const cl::Error& error) {
    last_error() = std::string("tilecl: ") + error.what() + " [" + cl_error_name(error.err()) + "]";
    return error.err();
  } catch (const std::bad_alloc&) {
    last_error() = "tilecl: out of host memory [CL_OUT_OF_HOST_MEMORY]";
    return CL_OUT_OF_HOST_MEMORY;
  } catch (const std::exception& error) {
    last_error() = std::string("tilecl: ") + error.what() + " [TILECL_ERROR_UNKNOWN]";
    return TILECL_ERROR_UNKNOWN;
  } catch (...) {
    last_error() = "tilecl: unknown failure [TILECL_ERROR_UNKNOWN]";
    return TILECL_ERROR_UNKNOWN;
  }
}

void record_success() { last_error().clear(); }

const char* last_error_text() { return last_error().c_str(); }

void require_not_null(const char* op, const char* argument, const void* pointer) {
  if (pointer == nullptr) throw Error(op, argument, CL_INVALID_VALUE, "is NULL");
}

}  // namespace tilecl::c_api
