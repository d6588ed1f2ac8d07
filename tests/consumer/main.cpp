// Links tilecl as an outside project would, runs one op on the default device and checks the result, then
// checks that a bad argument still raises tilecl::Error. It compiles OpenCL-CLHPP with its own settings: the
// target version it is configured with (CMakeLists.txt) and no CL_HPP_ENABLE_EXCEPTIONS, so its own cl:: calls
// return status codes.
#include <cstdio>
#include <tilecl/tilecl.hpp>
#include <vector>

#ifdef CL_HPP_ENABLE_EXCEPTIONS
#error "the consumer must build without CL_HPP_ENABLE_EXCEPTIONS: tilecl may not impose it"
#endif

namespace {

bool vector_add_is_right(cl::Context& context, cl::CommandQueue& queue) {
  const std::size_t n = 1000;
  std::vector<float> a(n), b(n), c(n);
  for (std::size_t i = 0; i < n; ++i) {
    a[i] = static_cast<float>(i);
    b[i] = 0.5f * static_cast<float>(i);
  }
  cl::Buffer a_buffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * sizeof(float), a.data());
  cl::Buffer b_buffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * sizeof(float), b.data());
  cl::Buffer c_buffer(context, CL_MEM_WRITE_ONLY, n * sizeof(float));
  tilecl::vector_add<float>(queue, n, a_buffer, 0, b_buffer, 0, c_buffer, 0);
  if (queue.enqueueReadBuffer(c_buffer, CL_TRUE, 0, n * sizeof(float), c.data()) != CL_SUCCESS) return false;
  for (std::size_t i = 0; i < n; ++i) {
    if (c[i] != a[i] + b[i]) {
      std::printf("consumer: c[%zu] = %g, expected %g\n", i, c[i], a[i] + b[i]);
      return false;
    }
  }
  return true;
}

// tilecl's own errors are exceptions whatever the application's OpenCL-CLHPP settings.
bool bad_input_raises(cl::Context& context, cl::CommandQueue& queue) {
  cl::Buffer small(context, CL_MEM_READ_WRITE, 16 * sizeof(float));
  try {
    tilecl::axpy<float>(queue, 1000, 1.0f, small, 0, small, 0);
  } catch (const tilecl::Error& error) {
    return error.status() == CL_INVALID_BUFFER_SIZE;
  }
  std::printf("consumer: a too small buffer raised no tilecl::Error\n");
  return false;
}

}  // namespace

int main() {
  try {
    cl::Device device = tilecl::select_device();
    cl::Context context(device);
    cl::CommandQueue queue(context, device);
    if (!vector_add_is_right(context, queue) || !bad_input_raises(context, queue)) return 1;
    std::printf("consumer (CL_HPP_TARGET_OPENCL_VERSION %d): tilecl %s, vector_add of 1000 floats correct on %s\n",
                CL_HPP_TARGET_OPENCL_VERSION, tilecl::version(), tilecl::device_info(device).device_name.c_str());
    return 0;
  } catch (const std::exception& error) {
    std::printf("consumer: %s\n", error.what());
    return 1;
  }
}
