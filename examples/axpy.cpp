// Vector add and y = 2 x + y on the default OpenCL device (TILECL_PLATFORM / TILECL_DEVICE pick another).
// Usage: axpy [N]   (N elements, default 2^20)
#include <cstdlib>
#include <iostream>
#include <vector>

#include "tilecl/tilecl.hpp"

int main(int argc, char** argv) {
  const std::size_t n = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : std::size_t{1} << 20;
  cl::Device device = tilecl::select_device();
  cl::Context context(device);
  cl::CommandQueue queue(context, device);

  std::vector<float> x(n), y(n);
  for (std::size_t i = 0; i < n; ++i) {
    x[i] = static_cast<float>(i % 1000);
    y[i] = 0.25f;
  }
  const std::size_t bytes = n * sizeof(float);
  cl::Buffer x_buffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, x.data());
  cl::Buffer y_buffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes, y.data());
  cl::Buffer sum_buffer(context, CL_MEM_READ_WRITE, bytes);

  try {
    // Sizes and offsets count elements, not bytes. Ops on one in-order queue run in order.
    tilecl::vector_add<float>(queue, n, x_buffer, 0, y_buffer, 0, sum_buffer, 0);  // sum = x + y
    tilecl::axpy<float>(queue, n, 2.0f, x_buffer, 0, y_buffer, 0);                 // y = 2 x + y
  } catch (const tilecl::Error& error) {  // names the op, the argument and the OpenCL error
    std::cerr << error.what() << std::endl;
    return 1;
  }
  std::vector<float> sum(n);
  queue.enqueueReadBuffer(sum_buffer, CL_TRUE, 0, bytes, sum.data());
  queue.enqueueReadBuffer(y_buffer, CL_TRUE, 0, bytes, y.data());
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < n; ++i)
    if (sum[i] != x[i] + 0.25f || y[i] != 2.0f * x[i] + 0.25f) ++wrong;
  std::cout << n << " elements on " << tilecl::device_info(device).device_name << ": " << wrong << " wrong"
            << std::endl;
  return wrong == 0 ? 0 : 1;
}
