// Warm-up: compile and tune an op ahead of its first call, so the hot path never waits for either.
#pragma once

#include <CL/opencl.hpp>
#include <string>

#include "tilecl/tuning.hpp"

namespace tilecl {

// What prepare() did and chose.
struct Prepared {
  tuning::Choice choice;    // the parameters every call of the op and dtype in the shape's bucket will use,
                            // where they came from, and the bucket
  std::string timed_shape;  // the bucket's representative shape, at which tuning (if any) timed candidates
  double milliseconds = 0;  // what prepare() took (near 0 when the key was prepared or called before)
};

// Resolves the parameters of `op` on `dtype` at `shape` exactly as the op's first call on the queue's device
// would -- an override, the tuning database, first-use tuning (TILECL_TUNE, within TILECL_TUNE_BUDGET_MS) or the
// device-derived default -- and builds the kernel program of that choice into the in-memory cache (and the
// disk cache), so that the first call costs what any later call does. Names and shape syntax are those of
// `tilecl tune --help` and tuning::tunable_ops(): op "axpy", dtype "float", shape "2^20", "4096x4096x4096", ...
// Every shape of the bucket shares the choice, so one prepare() per bucket suffices. The program built is the
// one the representative problem uses; for gemm that is row-major without transposes, so a call with
// transposes or column-major storage still builds its own program on its first call.
// Thread-safe; concurrent calls for one key wait for one resolution. Unknown names, a malformed shape or double
// on a device without fp64 raise tilecl::Error (CL_INVALID_VALUE, CL_INVALID_DEVICE); a program that does not
// build raises tilecl::BuildError.
Prepared prepare(const cl::CommandQueue& queue, const std::string& op, const std::string& dtype,
                 const std::string& shape);

}  // namespace tilecl
