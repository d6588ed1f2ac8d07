// Errors raised by tilecl: every failure names the op, the argument and an OpenCL error by name.
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
