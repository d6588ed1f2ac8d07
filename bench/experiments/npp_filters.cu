// Experiment (not part of the build): NVIDIA's NPP image filters as a reference figure for tilecl's image ops on
// NVIDIA GPUs. NPP is CUDA-only, so it cannot sit in `tilecl bench` (an OpenCL program built on Debian); this program
// times NPP on the GPU machine, and `image_latency npp` times tilecl's calls on the same images in the same session.
//
// Cases, every one at 7680x4320 with the edge pixel repeated (NPP_BORDER_REPLICATE, tilecl::Border::Clamp -- the one
// border NPP's Gaussian takes): Gaussian 9x9 (NPP's fixed 9x9 kernel), box 5x5 and a general 5x5 filter (filter2D),
// on uint8 and float images with 1, 3 and 4 channels; RGB to gray (uint8, float). Each beside a device-to-device copy
// of the bytes the call reads and writes.
//
// Per case, one line of JSON: npp_us the median of 30 single calls between two CUDA events; npp_batch_us 20 calls
// back to back between two events, per call; copy_us the same for cudaMemcpyAsync of (source + destination bytes) / 2.
//
// Build and run on the GPU machine (CUDA 13):
//   nvcc -O2 -std=c++17 -arch=sm_90 bench/experiments/npp_filters.cu -lnppif -lnppicc -lnppc -o npp_filters
//   ./npp_filters > npp.jsonl
#include <cuda_runtime.h>
#include <npp.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <random>
#include <string>
#include <vector>

namespace {

constexpr int kWidth = 7680;
constexpr int kHeight = 4320;

void check(cudaError_t status, const char* what) {
  if (status != cudaSuccess) {
    std::fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(status));
    std::exit(1);
  }
}

NppStreamContext stream_context(cudaStream_t stream) {
  NppStreamContext ctx{};
  int device = 0;
  check(cudaGetDevice(&device), "cudaGetDevice");
  ctx.hStream = stream;
  ctx.nCudaDeviceId = device;
  cudaDeviceGetAttribute(&ctx.nMultiProcessorCount, cudaDevAttrMultiProcessorCount, device);
  cudaDeviceGetAttribute(&ctx.nMaxThreadsPerMultiProcessor, cudaDevAttrMaxThreadsPerMultiProcessor, device);
  cudaDeviceGetAttribute(&ctx.nMaxThreadsPerBlock, cudaDevAttrMaxThreadsPerBlock, device);
  int shared = 0;
  cudaDeviceGetAttribute(&shared, cudaDevAttrMaxSharedMemoryPerBlock, device);
  ctx.nSharedMemPerBlock = static_cast<size_t>(shared);
  cudaDeviceGetAttribute(&ctx.nCudaDevAttrComputeCapabilityMajor, cudaDevAttrComputeCapabilityMajor, device);
  cudaDeviceGetAttribute(&ctx.nCudaDevAttrComputeCapabilityMinor, cudaDevAttrComputeCapabilityMinor, device);
  unsigned int flags = 0;
  cudaStreamGetFlags(stream, &flags);
  ctx.nStreamFlags = flags;
  return ctx;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

struct Timing {
  double single_us = 0, batch_us = 0;
};

// Returns false (and prints the status) when the call fails.
bool time_call(cudaStream_t stream, const std::function<NppStatus()>& call, Timing& out, std::string& error) {
  const NppStatus first = call();
  if (first != NPP_SUCCESS) {
    error = "NppStatus " + std::to_string(static_cast<int>(first));
    return false;
  }
  check(cudaStreamSynchronize(stream), "warm-up");
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  std::vector<double> singles;
  for (int i = 0; i < 30; ++i) {
    cudaEventRecord(a, stream);
    call();
    cudaEventRecord(b, stream);
    cudaEventSynchronize(b);
    float ms = 0;
    cudaEventElapsedTime(&ms, a, b);
    singles.push_back(ms * 1000.0);
  }
  cudaEventRecord(a, stream);
  for (int i = 0; i < 20; ++i) call();
  cudaEventRecord(b, stream);
  cudaEventSynchronize(b);
  float ms = 0;
  cudaEventElapsedTime(&ms, a, b);
  out.single_us = median(singles);
  out.batch_us = ms * 1000.0 / 20;
  cudaEventDestroy(a);
  cudaEventDestroy(b);
  return true;
}

double copy_us(cudaStream_t stream, void* to, const void* from, size_t bytes) {
  Timing t;
  std::string error;
  time_call(
      stream,
      [&]() {
        cudaMemcpyAsync(to, from, bytes, cudaMemcpyDeviceToDevice, stream);
        return NPP_SUCCESS;
      },
      t, error);
  return t.single_us;
}

struct Images {
  void* src = nullptr;
  void* dst = nullptr;
  void* scratch = nullptr;  // copy target
  size_t bytes = 0;         // the largest source (7680x4320x4 floats)
};

void report(const std::string& op, const std::string& dtype, int channels, const std::string& filter, bool ok,
            const Timing& t, const std::string& error, double copy) {
  std::printf("{\"op\": \"%s\", \"dtype\": \"%s\", \"shape\": \"%dx%dx%d\", \"filter\": \"%s\", ", op.c_str(),
              dtype.c_str(), kWidth, kHeight, channels, filter.c_str());
  if (ok)
    std::printf("\"npp_us\": %.2f, \"npp_batch_us\": %.2f, \"copy_us\": %.2f}\n", t.single_us, t.batch_us, copy);
  else
    std::printf("\"error\": \"%s\"}\n", error.c_str());
  std::fflush(stdout);
}

}  // namespace

int main() {
  cudaStream_t stream;
  check(cudaStreamCreate(&stream), "cudaStreamCreate");
  const NppStreamContext ctx = stream_context(stream);
  cudaDeviceProp prop{};
  cudaGetDeviceProperties(&prop, 0);
  std::fprintf(stderr, "device: %s, %d SMs\n", prop.name, prop.multiProcessorCount);

  Images im;
  im.bytes = size_t(kWidth) * kHeight * 4 * sizeof(float);
  check(cudaMalloc(&im.src, im.bytes), "cudaMalloc src");
  check(cudaMalloc(&im.dst, im.bytes), "cudaMalloc dst");
  check(cudaMalloc(&im.scratch, im.bytes), "cudaMalloc scratch");
  {
    // Random bytes; read as floats they are reinterpreted, so overwrite with floats in 0..255 below per type.
    std::vector<float> host(im.bytes / sizeof(float));
    std::mt19937 rng(19);
    std::uniform_real_distribution<float> value(0.0f, 255.0f);
    for (auto& v : host) v = value(rng);
    check(cudaMemcpy(im.src, host.data(), im.bytes, cudaMemcpyHostToDevice), "upload");
  }
  // 5x5 filter taps: float on the device (32f), int with a divisor (8u), in NPP's reversed order (any order: timing).
  std::vector<float> ftaps(25);
  std::vector<Npp32s> itaps(25);
  for (int i = 0; i < 25; ++i) {
    ftaps[i] = static_cast<float>((i * 7) % 11 + 1) / 150.0f;
    itaps[i] = (i * 7) % 11 + 1;
  }
  Npp32f* dftaps = nullptr;
  Npp32s* ditaps = nullptr;
  cudaMalloc(&dftaps, sizeof(ftaps[0]) * 25);
  cudaMalloc(&ditaps, sizeof(itaps[0]) * 25);
  cudaMemcpy(dftaps, ftaps.data(), sizeof(ftaps[0]) * 25, cudaMemcpyHostToDevice);
  cudaMemcpy(ditaps, itaps.data(), sizeof(itaps[0]) * 25, cudaMemcpyHostToDevice);
  Npp32s divisor = 0;
  for (auto t : itaps) divisor += t;

  const NppiSize size{kWidth, kHeight};
  const NppiPoint origin{0, 0};
  const NppiSize mask5{5, 5};
  const NppiPoint anchor5{2, 2};
  const NppiBorderType border = NPP_BORDER_REPLICATE;

  for (int channels : {1, 3, 4}) {
    for (const char* dtype : {"uint8", "float"}) {
      const bool bytes = std::string(dtype) == "uint8";
      const int step = kWidth * channels * (bytes ? 1 : 4);
      const size_t image_bytes = size_t(step) * kHeight;
      const double copy = copy_us(stream, im.scratch, im.src, image_bytes);
      const auto* s8 = static_cast<const Npp8u*>(im.src);
      auto* d8 = static_cast<Npp8u*>(im.dst);
      const auto* s32 = static_cast<const Npp32f*>(im.src);
      auto* d32 = static_cast<Npp32f*>(im.dst);
      std::function<NppStatus()> gauss, box, filter;
      if (bytes && channels == 1) {
        gauss = [&]() { return nppiFilterGaussBorder_8u_C1R_Ctx(s8, step, size, origin, d8, step, size, NPP_MASK_SIZE_9_X_9, border, ctx); };
        box = [&]() { return nppiFilterBoxBorder_8u_C1R_Ctx(s8, step, size, origin, d8, step, size, mask5, anchor5, border, ctx); };
        filter = [&]() { return nppiFilterBorder_8u_C1R_Ctx(s8, step, size, origin, d8, step, size, ditaps, mask5, anchor5, divisor, border, ctx); };
      } else if (bytes && channels == 3) {
        gauss = [&]() { return nppiFilterGaussBorder_8u_C3R_Ctx(s8, step, size, origin, d8, step, size, NPP_MASK_SIZE_9_X_9, border, ctx); };
        box = [&]() { return nppiFilterBoxBorder_8u_C3R_Ctx(s8, step, size, origin, d8, step, size, mask5, anchor5, border, ctx); };
        filter = [&]() { return nppiFilterBorder_8u_C3R_Ctx(s8, step, size, origin, d8, step, size, ditaps, mask5, anchor5, divisor, border, ctx); };
      } else if (bytes) {
        gauss = [&]() { return nppiFilterGaussBorder_8u_C4R_Ctx(s8, step, size, origin, d8, step, size, NPP_MASK_SIZE_9_X_9, border, ctx); };
        box = [&]() { return nppiFilterBoxBorder_8u_C4R_Ctx(s8, step, size, origin, d8, step, size, mask5, anchor5, border, ctx); };
        filter = [&]() { return nppiFilterBorder_8u_C4R_Ctx(s8, step, size, origin, d8, step, size, ditaps, mask5, anchor5, divisor, border, ctx); };
      } else if (channels == 1) {
        gauss = [&]() { return nppiFilterGaussBorder_32f_C1R_Ctx(s32, step, size, origin, d32, step, size, NPP_MASK_SIZE_9_X_9, border, ctx); };
        box = [&]() { return nppiFilterBoxBorder_32f_C1R_Ctx(s32, step, size, origin, d32, step, size, mask5, anchor5, border, ctx); };
        filter = [&]() { return nppiFilterBorder_32f_C1R_Ctx(s32, step, size, origin, d32, step, size, dftaps, mask5, anchor5, border, ctx); };
      } else if (channels == 3) {
        gauss = [&]() { return nppiFilterGaussBorder_32f_C3R_Ctx(s32, step, size, origin, d32, step, size, NPP_MASK_SIZE_9_X_9, border, ctx); };
        box = [&]() { return nppiFilterBoxBorder_32f_C3R_Ctx(s32, step, size, origin, d32, step, size, mask5, anchor5, border, ctx); };
        filter = [&]() { return nppiFilterBorder_32f_C3R_Ctx(s32, step, size, origin, d32, step, size, dftaps, mask5, anchor5, border, ctx); };
      } else {
        gauss = [&]() { return nppiFilterGaussBorder_32f_C4R_Ctx(s32, step, size, origin, d32, step, size, NPP_MASK_SIZE_9_X_9, border, ctx); };
        box = [&]() { return nppiFilterBoxBorder_32f_C4R_Ctx(s32, step, size, origin, d32, step, size, mask5, anchor5, border, ctx); };
        filter = [&]() { return nppiFilterBorder_32f_C4R_Ctx(s32, step, size, origin, d32, step, size, dftaps, mask5, anchor5, border, ctx); };
      }
      for (auto [op, filter_name, call] : {std::make_tuple("gaussian_blur", "9x9", gauss),
                                           std::make_tuple("box_blur", "5x5", box),
                                           std::make_tuple("convolve2d", "5x5", filter)}) {
        Timing t;
        std::string error;
        const bool ok = time_call(stream, call, t, error);
        report(op, dtype, channels, filter_name, ok, t, error, copy);
      }
    }
  }
  // RGB to gray: 3 channels in, 1 out; the copy moves (source + destination) / 2 bytes.
  for (const char* dtype : {"uint8", "float"}) {
    const bool bytes = std::string(dtype) == "uint8";
    const int esize = bytes ? 1 : 4;
    const int src_step = kWidth * 3 * esize, dst_step = kWidth * esize;
    const double copy = copy_us(stream, im.scratch, im.src, size_t(src_step + dst_step) * kHeight / 2);
    std::function<NppStatus()> gray;
    if (bytes)
      gray = [&]() {
        return nppiRGBToGray_8u_C3C1R_Ctx(static_cast<const Npp8u*>(im.src), src_step, static_cast<Npp8u*>(im.dst),
                                          dst_step, size, ctx);
      };
    else
      gray = [&]() {
        return nppiRGBToGray_32f_C3C1R_Ctx(static_cast<const Npp32f*>(im.src), src_step, static_cast<Npp32f*>(im.dst),
                                           dst_step, size, ctx);
      };
    Timing t;
    std::string error;
    const bool ok = time_call(stream, gray, t, error);
    report("rgb_to_gray", dtype, 3, "-", ok, t, error, copy);
  }
  return 0;
}
