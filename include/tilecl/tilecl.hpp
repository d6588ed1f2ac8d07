// tilecl: OpenCL kernels compiled at run time, tuned per device, cached in memory and on disk.
// This header includes every public header (not boost_compute.hpp, which needs Boost.Compute).
//
// Every op in tilecl follows the same rules (tilecl.hpp lists them once; each function adds its own):
// - Sizes, offsets, leading dimensions and pitches count elements of T, never bytes.
// - The op validates everything, then enqueues on `queue` and returns the event of the last command it
//   enqueued, without waiting. `wait` (optional) lists events its first command waits for.
// - Errors are tilecl::Error naming the argument, thrown before anything is enqueued: CL_INVALID_VALUE (a bad
//   size or parameter), CL_INVALID_BUFFER_SIZE (a buffer smaller than the elements it must hold),
//   CL_INVALID_MEM_OBJECT (a null buffer), CL_INVALID_CONTEXT (a buffer of another context than the queue),
//   CL_INVALID_DEVICE (double on a device without cl_khr_fp64), CL_MEM_COPY_OVERLAP (forbidden overlap). A
//   kernel that fails to compile raises tilecl::BuildError; a failed enqueue raises tilecl::Error with the
//   driver's status (CL_OUT_OF_RESOURCES, ...).
// - Thread-safe: any number of threads may call any ops at once, on one queue or on several (programs,
//   tuning and scratch memory are shared safely). The first call for a new device and shape may compile and
//   tune (TILECL_TUNE), so it takes longer than the next.
#pragma once

#include "tilecl/color.hpp"
#include "tilecl/convolve.hpp"
#include "tilecl/device.hpp"
#include "tilecl/elementwise.hpp"
#include "tilecl/error.hpp"
#include "tilecl/gemm.hpp"
#include "tilecl/gemm_batched.hpp"
#include "tilecl/gemv.hpp"
#include "tilecl/multi_device.hpp"
#include "tilecl/prepare.hpp"
#include "tilecl/reduce.hpp"
#include "tilecl/runtime.hpp"
#include "tilecl/transpose.hpp"
#include "tilecl/tuning.hpp"
#include "tilecl/types.hpp"
