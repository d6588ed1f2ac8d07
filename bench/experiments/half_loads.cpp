// Experiment (not part of the build): how a device reads half-precision storage without cl_khr_fp16. The half
// memory-bound ops (axpy, gemv, sum) ran at 44-89% of a copy on the H200 while the float ones reach 85-91%, at
// the same time per element (gemv 16384^2: half 0.298 ms, float 0.279 ms), which points at the loads, not the
// bytes. Each kernel sums 8 halves per work-item (2^27 halves, 256 MiB) and writes one float:
//   vload     vload_half8 from global memory (what the kernels do now: the compiler may see only 2-byte alignment)
//   private   one aligned ushort8 load, then vload_half8 from a private copy (the conversion stays in registers)
//   bits      one aligned ushort8 load, converted with integer operations (normal numbers, zeros, subnormals by a
//             multiply, infinities and NaNs by a select)
// and checks the three against each other. Prints one JSON line per kernel; with a directory argument it also
// writes the program binary (PTX on NVIDIA) there.
// Build: g++ -O2 -std=c++17 bench/experiments/half_loads.cpp -lOpenCL -o half_loads
#define CL_HPP_TARGET_OPENCL_VERSION 120
#define CL_HPP_MINIMUM_OPENCL_VERSION 120
#define CL_HPP_ENABLE_EXCEPTIONS
#include <CL/opencl.hpp>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <functional>
#include <iostream>
#include <random>
#include <string>
#include <vector>

#include "batch_timing.hpp"

namespace {

const char* kSource = R"CL(
float8 bits_to_float8(const ushort8 h) {
  const uint8 u = convert_uint8(h);
  const uint8 magnitude = (u & 0x7fffu) << 13;
  /* 2^-112 scaling turns the shifted exponent into float's; infinities and NaNs keep an all-ones exponent. */
  const float8 scaled = as_float8(magnitude) * 0x1p112f;
  const uint8 special = (magnitude >= (uint8)(0x0f800000u)) ? (uint8)(0x7f800000u) : (uint8)(0u);
  return as_float8(as_uint8(scaled) | special | ((u & 0x8000u) << 16));
}
__kernel void sum_vload(__global const ushort* x, __global float* out) {
  const size_t i = get_global_id(0);
  const float8 v = vload_half8(i, (__global const half*)x);
  out[i] = v.s0 + v.s1 + v.s2 + v.s3 + v.s4 + v.s5 + v.s6 + v.s7;
}
__kernel void sum_private(__global const ushort* x, __global float* out) {
  const size_t i = get_global_id(0);
  const ushort8 h = ((__global const ushort8*)x)[i];
  const float8 v = vload_half8(0, (const __private half*)&h);
  out[i] = v.s0 + v.s1 + v.s2 + v.s3 + v.s4 + v.s5 + v.s6 + v.s7;
}
__kernel void sum_bits(__global const ushort* x, __global float* out) {
  const size_t i = get_global_id(0);
  const float8 v = bits_to_float8(((__global const ushort8*)x)[i]);
  out[i] = v.s0 + v.s1 + v.s2 + v.s3 + v.s4 + v.s5 + v.s6 + v.s7;
}
)CL";

double best_ms(cl::CommandQueue& queue, const std::function<void()>& call) {
  return tilecl::experiments::best_batch_ms(queue, call, 5, 20);
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<cl::Platform> platforms;
  cl::Platform::get(&platforms);
  std::vector<cl::Device> devices;
  platforms.at(0).getDevices(CL_DEVICE_TYPE_ALL, &devices);
  const cl::Device device = devices.at(0);
  cl::Context context(device);
  cl::CommandQueue queue(context, device);
  cl::Program program(context, kSource);
  try {
    program.build({device});
  } catch (const cl::Error&) {
    std::cerr << program.getBuildInfo<CL_PROGRAM_BUILD_LOG>(device) << "\n";
    return 1;
  }
  if (argc > 1) {
    const auto binaries = program.getInfo<CL_PROGRAM_BINARIES>();
    std::ofstream(std::string(argv[1]) + "/half_loads.bin", std::ios::binary)
        .write(reinterpret_cast<const char*>(binaries.at(0).data()), static_cast<std::streamsize>(binaries[0].size()));
  }
  const std::size_t n = std::size_t(1) << 27, items = n / 8;
  std::vector<std::uint16_t> host(n);
  std::mt19937 random(7);
  // Every class of half: normals of both signs, subnormals, zeros, infinities, NaNs.
  for (auto& h : host) h = static_cast<std::uint16_t>(random());
  cl::Buffer x(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * 2, host.data());
  cl::Buffer copy_to(context, CL_MEM_READ_WRITE, n * 2);
  std::vector<std::vector<float>> results;
  for (const char* name : {"sum_vload", "sum_private", "sum_bits"}) {
    cl::Kernel kernel(program, name);
    cl::Buffer out(context, CL_MEM_READ_WRITE, items * 4);
    kernel.setArg(0, x);
    kernel.setArg(1, out);
    const double ms = best_ms(queue, [&] { queue.enqueueNDRangeKernel(kernel, cl::NullRange, items, 256); });
    std::vector<float> result(items);
    queue.enqueueReadBuffer(out, CL_TRUE, 0, items * 4, result.data());
    results.push_back(result);
    std::cout << "{\"kernel\": \"" << name << "\", \"ms\": " << ms << ", \"GB/s\": " << (n * 2 + items * 4) / ms / 1e6
              << "}" << std::endl;
  }
  const double copy = best_ms(queue, [&] { queue.enqueueCopyBuffer(x, copy_to, 0, 0, n * 2); });
  std::cout << "{\"kernel\": \"copy of the halves\", \"ms\": " << copy << "}" << std::endl;
  std::size_t differing = 0;
  for (std::size_t i = 0; i < items; ++i)
    for (std::size_t k = 1; k < results.size(); ++k) {
      const float a = results[0][i], b = results[k][i];
      if (!(a == b || (std::isnan(a) && std::isnan(b)))) ++differing;
    }
  std::cout << "{\"differing sums\": " << differing << "}" << std::endl;
  return 0;
}
