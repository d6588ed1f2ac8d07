// tilecl::Error and tilecl::BuildError become tilecl.Error and tilecl.BuildError (python/tilecl/_errors.py),
// with the op, the argument and the OpenCL status as attributes and tilecl's message unchanged. A cl::Error
// that escapes (a PyOpenCL handle the driver refuses) becomes a tilecl.Error of the op "python".
#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>

#include "bindings.hpp"
#include "tilecl/error.hpp"

namespace nb = nanobind;

namespace tilecl::python {
namespace {

void raise_python_error(const char* kind, const Error& error, const char* family, const char* options,
                        const char* log) {
  nb::object factory = nb::module_::import_("tilecl._errors").attr("from_library");
  nb::object exception = factory(kind, error.what(), error.op(), error.argument(), error.status(), error.status_name(),
                                 family, options, log);
  PyErr_SetObject(reinterpret_cast<PyObject*>(Py_TYPE(exception.ptr())), exception.ptr());
}

void translate(const std::exception_ptr& pointer, void* /*payload*/) {
  try {
    std::rethrow_exception(pointer);
  } catch (const BuildError& error) {
    raise_python_error("build", error, error.family().c_str(), error.options().c_str(), error.log().c_str());
  } catch (const Error& error) {
    raise_python_error("error", error, "", "", "");
  } catch (const cl::Error& error) {
    raise_python_error("error", Error("python", error.what(), error.err(), "OpenCL call failed"), "", "", "");
  }
}

}  // namespace

void bind_errors(nb::module_& module) {
  nb::register_exception_translator(translate);
  module.def("cl_error_name", &cl_error_name, "The symbolic name of an OpenCL status code.");
}

}  // namespace tilecl::python
