// Links tilecl as an outside project would, runs one op on the default device and checks the result.
#include <cstdio>
#include <tilecl/tilecl.hpp>
#include <vector>

int main() {
  try {
    cl::Device device = tilecl::select_device();
    cl::Context context(device);
    cl::CommandQueue queue(context, device);
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
    queue.enqueueReadBuffer(c_buffer, CL_TRUE, 0, n * sizeof(float), c.data());
    for (std::size_t i = 0; i < n; ++i) {
      if (c[i] != a[i] + b[i]) {
        std::printf("consumer: c[%zu] = %g, expected %g\n", i, c[i], a[i] + b[i]);
        return 1;
      }
    }
    std::printf("consumer: tilecl %s, vector_add of %zu floats correct on %s\n", tilecl::version(), n,
                tilecl::device_info(device).device_name.c_str());
    return 0;
  } catch (const std::exception& error) {
    std::printf("consumer: %s\n", error.what());
    return 1;
  }
}
