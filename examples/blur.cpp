// An RGB frame to gray, then a 9x9 Gaussian blur and a 5x5 filter of our own, on the default OpenCL device.
#include <iostream>
#include <vector>

#include "tilecl/tilecl.hpp"

int main() {
  cl::Device device = tilecl::select_device();
  cl::Context context(device);
  cl::CommandQueue queue(context, device);

  const std::size_t width = 640, height = 480;
  std::vector<std::uint8_t> rgb(3 * width * height);
  for (std::size_t i = 0; i < rgb.size(); ++i) rgb[i] = static_cast<std::uint8_t>(i % 251);
  cl::Buffer frame(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, rgb.size(), rgb.data());
  cl::Buffer gray(context, CL_MEM_READ_WRITE, width * height), blurred(context, CL_MEM_READ_WRITE, width * height);
  cl::Buffer sharpened(context, CL_MEM_READ_WRITE, width * height);
  // Filters live on the device, like every operand: upload once, use in every call.
  const std::vector<float> sharpen{0,      0,      -0.25f, 0, 0,      0, 0, -0.25f, 0, 0,      -0.25f, -0.25f, 3,
                                   -0.25f, -0.25f, 0,      0, -0.25f, 0, 0, 0,      0, -0.25f, 0,      0};
  cl::Buffer taps(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sharpen.size() * sizeof(float),
                  const_cast<float*>(sharpen.data()));

  try {
    // Pitches are in elements: 3 * width for the RGB frame, width for the gray images.
    tilecl::rgb_to_gray<std::uint8_t>(queue, width, height, frame, 0, 3 * width, gray, 0, width);
    tilecl::gaussian_blur<std::uint8_t>(queue, width, height, 1, gray, 0, width, blurred, 0, width, 1.5,
                                        tilecl::Border::Mirror);
    tilecl::convolve2d<std::uint8_t>(queue, width, height, 1, blurred, 0, width, sharpened, 0, width, taps, 0, 5, 5,
                                     tilecl::Border::Clamp)
        .wait();
  } catch (const tilecl::Error& error) {  // names the op, the argument and the OpenCL error
    std::cerr << error.what() << std::endl;
    return 1;
  }
  std::vector<std::uint8_t> out(width * height);
  queue.enqueueReadBuffer(sharpened, CL_TRUE, 0, out.size(), out.data());
  std::cout << "pixel (320, 240) = " << +out[240 * width + 320] << " on " << tilecl::device_info(device).device_name
            << std::endl;
  return 0;
}
