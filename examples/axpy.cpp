// y = 2 x + y on the default OpenCL device (TILECL_PLATFORM / TILECL_DEVICE pick another).
#include <iostream>
#include <vector>

#include "tilecl/tilecl.hpp"

int main() {
  cl::Device device = tilecl::select_device();
  cl::Context context(device);
  cl::CommandQueue queue(context, device);

  const std::size_t n = 1 << 20;
  std::vector<float> x(n, 1.5f), y(n, 0.25f);
  cl::Buffer x_buffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * sizeof(float), x.data());
  cl::Buffer y_buffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, n * sizeof(float), y.data());

  try {
    tilecl::axpy<float>(queue, n, 2.0f, x_buffer, 0, y_buffer, 0).wait();
  } catch (const tilecl::Error& error) {  // names the op, the argument and the OpenCL error
    std::cerr << error.what() << std::endl;
    return 1;
  }
  queue.enqueueReadBuffer(y_buffer, CL_TRUE, 0, n * sizeof(float), y.data());
  std::cout << "y[0] = " << y[0] << " (expected 3.25) on " << tilecl::device_info(device).device_name << std::endl;
  return y[0] == 3.25f ? 0 : 1;
}
