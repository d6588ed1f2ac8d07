// Errors raised by tilecl: every failure names the op, the argument and an OpenCL error by name.
//
// Bad-input policy, shared by every op (tested row by row by the reliability.bad_input suite):
// - Arguments are validated before anything is enqueued: a null queue, null buffers, buffers or wait-list events
//   of another context than the queue, a null event in the wait list, buffers too small for offset + extent
//   (computed in 64 bits, overflow refused), leading dimensions or pitches below a row, extents past the kernels'
//   32-bit indexing, out-of-range enum values, bad filter sizes, double on a device without cl_khr_fp64, and
//   forbidden overlap (CL_MEM_COPY_OVERLAP; sub-buffers are resolved to the bytes of their parent). Each raises
//   tilecl::Error (never another exception type).
// - Aliasing: axpy's y is read and written by design, and vector_add's c may be a or b exactly (the same bytes,
//   through the same buffer or a sub-buffer); every other op forbids any overlap of its output with its inputs
//   (transpose, reduce, gemm, rgb_to_gray and the filters cannot work in place).
// - A zero-sized problem is a no-op: it returns a null event, enqueues nothing and checks no buffer (they may be
//   null). Arguments that are wrong at any size (enum values, filter sizes, channels, sigma, weights) are still
//   refused. reduce is the exception: the Sum of nothing writes 0 and the Min/Max/ArgMin/ArgMax of nothing are
//   errors.
#pragma once

#include <CL/opencl.hpp>
#include <stdexcept>
#include <string>

namespace tilecl {

// The symbolic name of an OpenCL status code ("CL_OUT_OF_RESOURCES"), or "CL_UNKNOWN_ERROR(<n>)".
std::string cl_error_name(cl_int status);

// Base of every exception tilecl throws (the OpenCL-CLHPP cl::Error of a failing driver call is caught
// and rethrown as a tilecl::Error with the same status). what() reads
//   "tilecl::<op>: <argument>: <detail> [<CL_ERROR_NAME>]".
class Error : public std::runtime_error {
 public:
  Error(std::string op, std::string argument, cl_int status, const std::string& detail);

  const std::string& op() const noexcept { return op_; }
  const std::string& argument() const noexcept { return argument_; }
  cl_int status() const noexcept { return status_; }
  std::string status_name() const { return cl_error_name(status_); }

 private:
  std::string op_;
  std::string argument_;
  cl_int status_;
};

// A kernel program failed to compile; carries the build options and the compiler's log.
class BuildError : public Error {
 public:
  BuildError(std::string op, std::string family, cl_int status, std::string options, std::string log);

  const std::string& family() const noexcept { return family_; }
  const std::string& options() const noexcept { return options_; }
  const std::string& log() const noexcept { return log_; }

 private:
  std::string family_;
  std::string options_;
  std::string log_;
};

}  // namespace tilecl
