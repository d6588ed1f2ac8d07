// tilecl._core: the C++ library behind the Python package.
#include "bindings.hpp"

NB_MODULE(_core, module) {
  module.doc() = "tilecl's C++ library (private: use the tilecl package)";
  tilecl::python::bind_errors(module);
  tilecl::python::bind_linear_algebra(module);
  tilecl::python::bind_image(module);
  tilecl::python::bind_runtime(module);
  tilecl::python::bind_tuning(module);
  tilecl::python::bind_timing(module);
}
