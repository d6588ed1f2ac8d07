#include <doctest/doctest.h>

#include <string>

#include "tilecl/error.hpp"

TEST_SUITE("runtime.errors") {
  TEST_CASE("errors: OpenCL status codes are named, unknown ones show their number") {
    CHECK(tilecl::cl_error_name(CL_OUT_OF_RESOURCES) == "CL_OUT_OF_RESOURCES");
    CHECK(tilecl::cl_error_name(CL_INVALID_BUFFER_SIZE) == "CL_INVALID_BUFFER_SIZE");
    CHECK(tilecl::cl_error_name(CL_BUILD_PROGRAM_FAILURE) == "CL_BUILD_PROGRAM_FAILURE");
    CHECK(tilecl::cl_error_name(-9999) == "CL_UNKNOWN_ERROR(-9999)");
  }

  TEST_CASE("errors: the message names the op, the argument and the OpenCL error") {
    tilecl::Error error("axpy", "x", CL_INVALID_BUFFER_SIZE, "buffer too small");
    CHECK(std::string(error.what()) == "tilecl::axpy: x: buffer too small [CL_INVALID_BUFFER_SIZE]");
    CHECK(error.op() == "axpy");
    CHECK(error.argument() == "x");
    CHECK(error.status() == CL_INVALID_BUFFER_SIZE);
    CHECK(error.status_name() == "CL_INVALID_BUFFER_SIZE");
  }

  TEST_CASE("errors: a build error carries the options and the build log and is a tilecl::Error") {
    tilecl::BuildError error("gemm", "gemm", CL_BUILD_PROGRAM_FAILURE, "-DVEC=3", "error: bad vector width");
    const tilecl::Error& base = error;
    CHECK(base.status_name() == "CL_BUILD_PROGRAM_FAILURE");
    CHECK(error.options() == "-DVEC=3");
    CHECK(error.log() == "error: bad vector width");
    CHECK(std::string(error.what()).find("bad vector width") != std::string::npos);
    CHECK(std::string(error.what()).find("-DVEC=3") != std::string::npos);
  }
}
