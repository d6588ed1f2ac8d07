// The parts of tilecl._core, one function per file; module.cpp calls each. The module is private: the
// Python package (python/tilecl/) validates arrays and turns PyOpenCL objects into the handles used here.
#pragma once

#include <nanobind/nanobind.h>

namespace tilecl::python {

void bind_errors(nanobind::module_& module);
void bind_linear_algebra(nanobind::module_& module);
void bind_image(nanobind::module_& module);
void bind_runtime(nanobind::module_& module);
void bind_tuning(nanobind::module_& module);
void bind_timing(nanobind::module_& module);

}  // namespace tilecl::python
