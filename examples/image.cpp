// An image through the image families on the default OpenCL device: RGB to gray (BT.601 weights, as OpenCV's
// cvtColor), then a Gaussian blur of the colour image in each border mode, each written as a PNG. Without an
// input file it draws a test pattern (bright top edge, dark bottom and right edges, rings), which makes the
// border modes easy to tell apart.
// Usage: image [INPUT|-] [OUTPUT_DIR] [WIDTHxHEIGHT]
//   INPUT         PNG, PPM or anything else stb_image reads; "-" (default) draws the pattern
//   OUTPUT_DIR    where input.png (the pattern), gray.png and blur_<border>.png (colour) go (default ".")
//   WIDTHxHEIGHT  size of the drawn pattern (default 320x240)
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#define STB_IMAGE_IMPLEMENTATION
#include <stb_image.h>
#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb_image_write.h>

#include "tilecl/tilecl.hpp"

namespace {

struct Image {
  int width = 0, height = 0;
  std::vector<std::uint8_t> rgb;  // interleaved R, G, B; rows of 3 * width bytes
};

Image draw_pattern(int width, int height) {
  Image image{width, height, std::vector<std::uint8_t>(3 * static_cast<std::size_t>(width) * height)};
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) {
      const double u = (x + 0.5) / width, v = (y + 0.5) / height;
      const double ring = 0.5 + 0.5 * std::cos(std::hypot(u - 0.4, (v - 0.55) * height / width) * 60.0);
      double r = 255 * (0.2 + 0.6 * u), g = 255 * (0.3 + 0.5 * ring), b = 255 * (0.9 - 0.7 * v);
      if (v < 0.08) r = g = b = 255;                                           // bright band at the top edge
      if (v > 0.92 || u > 0.94) r = g = b = 0;                                 // dark bands at the bottom and right
      if (u < 0.25 && v > 0.6 && ((x / 8 + y / 8) % 2 == 0)) r = g = b = 230;  // checkerboard
      std::uint8_t* pixel = &image.rgb[3 * (static_cast<std::size_t>(y) * width + x)];
      pixel[0] = static_cast<std::uint8_t>(r);
      pixel[1] = static_cast<std::uint8_t>(g);
      pixel[2] = static_cast<std::uint8_t>(b);
    }
  }
  return image;
}

bool write_png(const std::string& path, int width, int height, int channels, const std::uint8_t* pixels) {
  if (stbi_write_png(path.c_str(), width, height, channels, pixels, width * channels) != 0) return true;
  std::cerr << "image: cannot write " << path << std::endl;
  return false;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string input = argc > 1 ? argv[1] : "-";
  const std::string output_dir = argc > 2 ? argv[2] : ".";
  int pattern_width = 320, pattern_height = 240;
  if (argc > 3 && std::sscanf(argv[3], "%dx%d", &pattern_width, &pattern_height) != 2) {
    std::cerr << "image: size must be WIDTHxHEIGHT, e.g. 320x240" << std::endl;
    return 2;
  }

  Image image;
  if (input == "-") {
    image = draw_pattern(pattern_width, pattern_height);
    if (!write_png(output_dir + "/input.png", image.width, image.height, 3, image.rgb.data())) return 1;
  } else {
    int channels = 0;
    stbi_uc* pixels = stbi_load(input.c_str(), &image.width, &image.height, &channels, 3);  // forced to RGB
    if (pixels == nullptr) {
      std::cerr << "image: cannot read " << input << ": " << stbi_failure_reason() << std::endl;
      return 1;
    }
    image.rgb.assign(pixels, pixels + 3 * static_cast<std::size_t>(image.width) * image.height);
    stbi_image_free(pixels);
  }
  const std::size_t width = image.width, height = image.height;

  cl::Device device = tilecl::select_device();
  cl::Context context(device);
  cl::CommandQueue queue(context, device);
  cl::Buffer rgb(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, image.rgb.size(), image.rgb.data());
  cl::Buffer gray(context, CL_MEM_READ_WRITE, width * height), blurred(context, CL_MEM_READ_WRITE, 3 * width * height);
  std::vector<std::uint8_t> pixels(3 * width * height);
  // A blur wide enough for the border rule to show: sigma 1/24 of the shorter side; the kernel size derived
  // from it as OpenCV's GaussianBlur does (2 * round(3 sigma) + 1 for bytes).
  const double sigma = static_cast<double>(std::max<std::size_t>(1, std::min(width, height) / 24));
  const tilecl::GaussianKernel kernel{0, 0, sigma, sigma};
  try {
    // Pitches count elements: 3 * width bytes per RGB row, width per gray row.
    tilecl::rgb_to_gray<std::uint8_t>(queue, width, height, rgb, 0, 3 * width, gray, 0, width,
                                      tilecl::GrayOptions(tilecl::GrayWeights::bt601(), tilecl::ChannelOrder::RGB));
    queue.enqueueReadBuffer(gray, CL_TRUE, 0, width * height, pixels.data());
    if (!write_png(output_dir + "/gray.png", image.width, image.height, 1, pixels.data())) return 1;
    // Constant reads mid-gray outside the image; the others fold or repeat the image.
    for (tilecl::Border border : {tilecl::Border::Zero, tilecl::Border::Clamp, tilecl::Border::Mirror,
                                  tilecl::Border::Wrap, tilecl::Border::Reflect, tilecl::Border::Constant}) {
      tilecl::gaussian_blur<std::uint8_t>(queue, width, height, 3, rgb, 0, 3 * width, blurred, 0, 3 * width, kernel,
                                          tilecl::FilterOptions(border, 128.0));
      queue.enqueueReadBuffer(blurred, CL_TRUE, 0, pixels.size(), pixels.data());
      const std::string path = output_dir + "/blur_" + tilecl::to_string(border) + ".png";
      if (!write_png(path, image.width, image.height, 3, pixels.data())) return 1;
    }
  } catch (const tilecl::Error& error) {  // names the op, the argument and the OpenCL error
    std::cerr << error.what() << std::endl;
    return 1;
  }
  std::cout << width << "x" << height << " on " << tilecl::device_info(device).device_name << ": wrote gray.png and "
            << "blur_{zero,clamp,mirror,wrap,reflect,constant}.png (Gaussian, sigma " << sigma << ") to " << output_dir
            << std::endl;
  return 0;
}
