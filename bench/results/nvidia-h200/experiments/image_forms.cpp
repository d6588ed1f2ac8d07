// Exploration harness behind bench/results/nvidia-h200/README.md ("Image kernels"); not part of the build.
// Gray u8 and Gaussian/box float at 7680x4320: copy baselines, kernel forms of its own (below), and
// kernels/color.cl and kernels/convolve.cl under build options, each timed with OpenCL events and checked.
// Build: g++ -O2 -std=c++17 image_forms.cpp -lOpenCL; run: image_forms KERNEL_DIR [name filter]
// (NVEXP_GAUSS=1 also runs the blur section; NVEXP_FLOOR=1 runs only an empty kernel and copies of 8 MiB to
// 512 MiB). The image-forms-run*.txt files were made by successive
// versions of this file, against the kernels of their day: runs 2-3 passed UNPACK to a color.cl whose
// vector kernel then took bytes out of words (since removed), run 2 passed STEPS to a convolve.cl with a
// ring of row-pass rows (since removed), runs 3-5 PREFETCH to the convolve.cl of commit e967724.
#define CL_HPP_TARGET_OPENCL_VERSION 120
#define CL_HPP_MINIMUM_OPENCL_VERSION 120
#define CL_HPP_ENABLE_EXCEPTIONS
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/opencl.hpp>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

static std::string slurp(const std::string& p) {
  std::ifstream f(p);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

struct Env {
  cl::Context ctx;
  cl::Device dev;
  cl::CommandQueue q;
  std::string dir;
  cl::Buffer flush;
  cl::Kernel flush_kernel;
  bool nv = false;
};

static cl::Program build(Env& e, const std::string& src, const std::string& opts, bool show) {
  cl::Program p(e.ctx, src);
  try {
    p.build({e.dev}, (e.nv ? opts + " -cl-nv-verbose" : opts).c_str());
  } catch (...) {
    std::cout << "BUILD FAILED " << opts << "\n" << p.getBuildInfo<CL_PROGRAM_BUILD_LOG>(e.dev) << "\n";
    throw;
  }
  if (show) {
    std::string log = p.getBuildInfo<CL_PROGRAM_BUILD_LOG>(e.dev);
    std::istringstream in(log);
    std::string line;
    while (std::getline(in, line))
      if (line.find("Used") != std::string::npos || line.find("spill") != std::string::npos)
        std::cout << "    ptxas: " << line << "\n";
  }
  return p;
}

struct Result {
  double median_us, min_us, batch_us, cold_us;
};

static Result time_kernel(Env& e, cl::Kernel& k, cl::NDRange g, cl::NDRange l) {
  for (int i = 0; i < 5; ++i) e.q.enqueueNDRangeKernel(k, cl::NullRange, g, l);
  e.q.finish();
  std::vector<double> t;
  for (int i = 0; i < 30; ++i) {
    cl::Event ev;
    e.q.enqueueNDRangeKernel(k, cl::NullRange, g, l, nullptr, &ev);
    ev.wait();
    t.push_back((ev.getProfilingInfo<CL_PROFILING_COMMAND_END>() - ev.getProfilingInfo<CL_PROFILING_COMMAND_START>()) *
                1e-3);
  }
  std::sort(t.begin(), t.end());
  // batch: 20 back to back, first start to last end
  std::vector<cl::Event> evs(20);
  for (int i = 0; i < 20; ++i) e.q.enqueueNDRangeKernel(k, cl::NullRange, g, l, nullptr, &evs[i]);
  e.q.finish();
  double batch = (evs.back().getProfilingInfo<CL_PROFILING_COMMAND_END>() -
                  evs.front().getProfilingInfo<CL_PROFILING_COMMAND_START>()) *
                 1e-3 / 20;
  // cold L2: a 256 MiB write before each timed launch
  std::vector<double> c;
  for (int i = 0; i < 15; ++i) {
    e.q.enqueueNDRangeKernel(e.flush_kernel, cl::NullRange, cl::NDRange(64 << 20), cl::NDRange(256));
    cl::Event ev;
    e.q.enqueueNDRangeKernel(k, cl::NullRange, g, l, nullptr, &ev);
    ev.wait();
    c.push_back((ev.getProfilingInfo<CL_PROFILING_COMMAND_END>() - ev.getProfilingInfo<CL_PROFILING_COMMAND_START>()) *
                1e-3);
  }
  std::sort(c.begin(), c.end());
  return {t[t.size() / 2], t[0], batch, c[c.size() / 2]};
}

static bool want(const std::string& name, const std::string& filter) {
  return filter.empty() || name.find(filter) != std::string::npos;
}

static void report(const std::string& name, const Result& r, double bytes, double copy_gbs) {
  const double gbs = bytes / (r.median_us * 1e3);
  std::printf(
      "%-64s med %8.2f us  min %8.2f  batch %8.2f  cold %8.2f  %7.1f GB/s  %5.1f%% (batch %5.1f%%, cold %5.1f%%)\n",
      name.c_str(), r.median_us, r.min_us, r.batch_us, r.cold_us, gbs, 100 * gbs / copy_gbs,
      100 * bytes / (r.batch_us * 1e3) / copy_gbs, 100 * bytes / (r.cold_us * 1e3) / copy_gbs);
  std::fflush(stdout);
}

static const char* kExtra = R"CLC(
__kernel void copy4(__global const float4* in, __global float4* out) { out[get_global_id(0)] = in[get_global_id(0)]; }
__kernel void copy4_stride(__global const float4* in, __global float4* out, const int n) {
  for (int i = get_global_id(0); i < n; i += get_global_size(0)) out[i] = in[i];
}
__kernel void empty(__global float4* out) {}
__kernel void fill(__global float4* out) { out[get_global_id(0)] = (float4)(1.0f); }

/* gray u8, 16 px per chunk from three uint4, bytes extracted one by one; chunks grid-strided over the image
   when STRIDE, else one chunk per item. Image pitch assumed = width (contiguous), width % 16 == 0 here. */
#ifndef GSTRIDE
#define GSTRIDE 0
#endif
#ifndef GUNROLL
#define GUNROLL 1
#endif
uchar gpx(uint r, uint g, uint b, float wr, float wg, float wb) {
  return convert_uchar(clamp(rint(wr * (float)r + wg * (float)g + wb * (float)b), 0.0f, 255.0f));
}
#define B(w, i) (((w) >> (8 * (i))) & 0xffu)
uint gray4(uint w0, uint w1, uint w2, float wr, float wg, float wb) {
  /* 12 bytes = 4 pixels: w0 = R0 G0 B0 R1, w1 = G1 B1 R2 G2, w2 = B2 R3 G3 B3 */
  uint p0 = gpx(B(w0, 0), B(w0, 1), B(w0, 2), wr, wg, wb);
  uint p1 = gpx(B(w0, 3), B(w1, 0), B(w1, 1), wr, wg, wb);
  uint p2 = gpx(B(w1, 2), B(w1, 3), B(w2, 0), wr, wg, wb);
  uint p3 = gpx(B(w2, 1), B(w2, 2), B(w2, 3), wr, wg, wb);
  return p0 | (p1 << 8) | (p2 << 16) | (p3 << 24);
}
uint4 gray16(uint4 a, uint4 b, uint4 c, float wr, float wg, float wb) {
  return (uint4)(gray4(a.x, a.y, a.z, wr, wg, wb), gray4(a.w, b.x, b.y, wr, wg, wb), gray4(b.z, b.w, c.x, wr, wg, wb),
                 gray4(c.y, c.z, c.w, wr, wg, wb));
}
#ifndef WGC
#define WGC 160
#endif
#ifndef CPI
#define CPI 1
#endif
#ifndef RPI
#define RPI 1
#endif
#ifndef LEVEL
#define LEVEL 2
#endif
__kernel void gray_staged(const int width, const int height, __global const uchar* restrict src, const ulong src_offset,
                          const int src_pitch, __global uchar* restrict dst, const ulong dst_offset, const int dst_pitch,
                          const float wr, const float wg, const float wb) {
  const int cx = get_global_id(0);
  const int y = get_global_id(1);
  const int x0 = cx * 16;
  if (x0 >= width || y >= height) return;
#if LEVEL >= 3
  src += src_offset;
  dst += dst_offset;
  __global const uchar* s = src + (long)y * src_pitch + 3 * x0;
  __global uchar* d = dst + (long)y * dst_pitch + x0;
#else
  __global const uchar* s = src + (y * width + x0) * 3;
  __global uchar* d = dst + y * width + x0;
#endif
#if LEVEL >= 4
  const bool aligned = ((((uintptr_t)src | (uintptr_t)dst) % 16) == 0) && (src_pitch % 16) == 0 && (dst_pitch % 16) == 0;
#else
  const bool aligned = true;
#endif
#if LEVEL >= 5
  if (x0 + 16 > width) {
    for (int i = 0; i < 16; ++i) if (x0 + i < width) d[i] = gpx(s[3*i], s[3*i+1], s[3*i+2], wr, wg, wb);
    return;
  }
#endif
  if (aligned) {
    __global const uint4* p = (__global const uint4*)s;
    *(__global uint4*)d = gray16(p[0], p[1], p[2], wr, wg, wb);
  } else {
    *(__global uint4*)d = gray16(as_uint4(vload16(0, s)), as_uint4(vload16(1, s)), as_uint4(vload16(2, s)), wr, wg, wb);
  }
}
/* coalesced loads through local memory: a work-group converts WG consecutive chunks of one row (dense, aligned,
   chunks per row a multiple of WG) */
__kernel void gray_coalesced(const int chunks_per_row, __global const uint4* restrict src, __global uint4* restrict dst,
                             const float wr, const float wg, const float wb) {
  __local uint4 buf[3 * WGC];
  const int lid = get_local_id(0);
  const int chunk0 = get_group_id(0) * WGC + get_group_id(1) * chunks_per_row;
  __global const uint4* s = src + 3 * chunk0;
  buf[lid] = s[lid];
  buf[lid + WGC] = s[lid + WGC];
  buf[lid + 2 * WGC] = s[lid + 2 * WGC];
  barrier(CLK_LOCAL_MEM_FENCE);
  dst[chunk0 + lid] = gray16(buf[3 * lid], buf[3 * lid + 1], buf[3 * lid + 2], wr, wg, wb);
}
/* CPI chunks per item (interleaved by WG), RPI rows per item; loads first */
__kernel void gray_multi(const int chunks_per_row, const int height, __global const uint4* restrict src,
                         __global uint4* restrict dst, const float wr, const float wg, const float wb) {
  const int wgs = get_local_size(0);
  const int c0 = get_group_id(0) * wgs * CPI + get_local_id(0);
  const int y0 = get_global_id(1) * RPI;
  uint4 a[RPI][CPI], b[RPI][CPI], c[RPI][CPI];
#pragma unroll
  for (int r = 0; r < RPI; ++r)
#pragma unroll
    for (int k = 0; k < CPI; ++k) {
      const int ch = c0 + k * wgs;
      const long i = (long)(y0 + r) * chunks_per_row + ch;
      if (ch < chunks_per_row && y0 + r < height) { a[r][k] = src[3 * i]; b[r][k] = src[3 * i + 1]; c[r][k] = src[3 * i + 2]; }
    }
#pragma unroll
  for (int r = 0; r < RPI; ++r)
#pragma unroll
    for (int k = 0; k < CPI; ++k) {
      const int ch = c0 + k * wgs;
      const long i = (long)(y0 + r) * chunks_per_row + ch;
      if (ch < chunks_per_row && y0 + r < height) dst[i] = gray16(a[r][k], b[r][k], c[r][k], wr, wg, wb);
    }
}
__kernel void gray_packed(const int chunks, __global const uint4* restrict src, __global uint4* restrict dst,
                          const float wr, const float wg, const float wb) {
#if GSTRIDE
  for (int i = get_global_id(0); i < chunks; i += get_global_size(0) * GUNROLL) {
    uint4 a[GUNROLL], b[GUNROLL], c[GUNROLL];
#pragma unroll
    for (int u = 0; u < GUNROLL; ++u) {
      const int j = i + u * get_global_size(0);
      if (j < chunks) { a[u] = src[3 * j]; b[u] = src[3 * j + 1]; c[u] = src[3 * j + 2]; }
    }
#pragma unroll
    for (int u = 0; u < GUNROLL; ++u) {
      const int j = i + u * get_global_size(0);
      if (j < chunks) dst[j] = gray16(a[u], b[u], c[u], wr, wg, wb);
    }
  }
#else
  const int i = get_global_id(0);
  if (i < chunks) dst[i] = gray16(src[3 * i], src[3 * i + 1], src[3 * i + 2], wr, wg, wb);
#endif
}
)CLC";

int main(int argc, char** argv) {
  Env e;
  std::vector<cl::Platform> ps;
  cl::Platform::get(&ps);
  std::vector<cl::Device> ds;
  ps[0].getDevices(CL_DEVICE_TYPE_ALL, &ds);
  e.dev = ds[0];
  e.ctx = cl::Context(e.dev);
  e.q = cl::CommandQueue(e.ctx, e.dev, CL_QUEUE_PROFILING_ENABLE);
  e.dir = argv[1];
  e.nv = e.dev.getInfo<CL_DEVICE_VENDOR>().find("NVIDIA") != std::string::npos;
  const std::string filter = argc > 2 ? argv[2] : "";
  std::cout << e.dev.getInfo<CL_DEVICE_NAME>() << "\n";
  const std::string common = slurp(e.dir + "/common.clh");
  const std::string color = common + slurp(e.dir + "/color.cl");
  const std::string conv = common + slurp(e.dir + "/convolve.cl");
  const std::string extra = common + kExtra;

  cl::Program xp = build(e, extra, "", false);
  e.flush = cl::Buffer(e.ctx, CL_MEM_READ_WRITE, 256u << 20);
  e.flush_kernel = cl::Kernel(xp, "fill");
  e.flush_kernel.setArg(0, e.flush);

  const int W = 7680, H = 4320;
  if (std::getenv("NVEXP_FLOOR") != nullptr) {
    cl::Buffer a(e.ctx, CL_MEM_READ_WRITE, 1u << 30), b(e.ctx, CL_MEM_READ_WRITE, 1u << 30);
    e.q.enqueueFillBuffer(a, 1.0f, 0, 1u << 30);
    cl::Kernel k(xp, "empty");
    k.setArg(0, b);
    for (size_t items : {size_t(256), size_t(2073600), size_t(8294400)})
      report("empty kernel, " + std::to_string(items) + " items",
             time_kernel(e, k, cl::NDRange(items), cl::NDRange(256)), 1.0, 1.0);
    cl::Kernel c(xp, "copy4");
    c.setArg(0, a), c.setArg(1, b);
    for (size_t mib : {8, 16, 32, 48, 64, 96, 128, 256, 512}) {
      size_t bytes = mib << 20;
      report("copy float4 " + std::to_string(mib) + " MiB each way",
             time_kernel(e, c, cl::NDRange(bytes / 16), cl::NDRange(256)), 2.0 * bytes, 4250e9 / 1e9);
    }
    std::fflush(stdout);
    std::_Exit(0);
  }
  const size_t px = size_t(W) * H;
  // copy baselines
  cl::Buffer big_in(e.ctx, CL_MEM_READ_WRITE, 1u << 30), big_out(e.ctx, CL_MEM_READ_WRITE, 1u << 30);
  e.q.enqueueFillBuffer(big_in, 1.0f, 0, 1u << 30);
  double copy_gbs = 0;
  {
    cl::Kernel k(xp, "copy4");
    k.setArg(0, big_in);
    k.setArg(1, big_out);
    Result r = time_kernel(e, k, cl::NDRange((1u << 30) / 16), cl::NDRange(256));
    copy_gbs = 2.0 * (1u << 30) / (r.median_us * 1e3);
    report("copy float4 1 GiB", r, 2.0 * (1u << 30), copy_gbs);
  }
  for (size_t bytes : {px * 2, px * 4 * 2}) {  // copy of gray's 4 B/px (2 B/px read + 2 written) and float image
    cl::Kernel k(xp, "copy4");
    k.setArg(0, big_in);
    k.setArg(1, big_out);
    report("copy float4 " + std::to_string(bytes >> 20) + " MiB each way",
           time_kernel(e, k, cl::NDRange(bytes / 16), cl::NDRange(256)), 2.0 * bytes, copy_gbs);
    cl::Kernel s(xp, "copy4_stride");
    s.setArg(0, big_in);
    s.setArg(1, big_out);
    s.setArg(2, int(bytes / 16));
    for (int per_sm : {4, 8, 16, 32}) {
      report("copy float4 stride " + std::to_string(per_sm) + "x132x256 " + std::to_string(bytes >> 20) + " MiB",
             time_kernel(e, s, cl::NDRange(132 * per_sm * 256), cl::NDRange(256)), 2.0 * bytes, copy_gbs);
    }
  }

  // gray u8
  cl::Buffer rgb(e.ctx, CL_MEM_READ_WRITE, px * 3), gray(e.ctx, CL_MEM_READ_WRITE, px);
  {
    std::vector<unsigned char> h(px * 3);
    for (size_t i = 0; i < h.size(); ++i) h[i] = (unsigned char)(i * 2654435761u >> 24);
    e.q.enqueueWriteBuffer(rgb, CL_TRUE, 0, h.size(), h.data());
  }
  const double gray_bytes = 4.0 * px;
  std::vector<unsigned char> href(px);
  {
    std::vector<unsigned char> h(px * 3);
    e.q.enqueueReadBuffer(rgb, CL_TRUE, 0, h.size(), h.data());
    for (size_t i = 0; i < px; ++i)
      href[i] = (unsigned char)std::min(
          255.0f, std::max(0.0f, std::nearbyint(0.21f * h[3 * i] + 0.72f * h[3 * i + 1] + 0.07f * h[3 * i + 2])));
  }
  auto check_gray = [&]() {
    std::vector<unsigned char> got(px);
    e.q.enqueueReadBuffer(gray, CL_TRUE, 0, px, got.data());
    size_t bad = 0, off = 0;
    for (size_t i = 0; i < px; ++i) bad += std::abs(int(got[i]) - int(href[i])) > 1, off += got[i] != href[i];
    std::cout << "    check: " << bad << " pixels off by more than 1, " << off << " differ\n";
    e.q.enqueueFillBuffer(gray, (unsigned char)7, 0, px);
  };
  struct GrayCfg {
    int vec, wgx, wgy, wptx, wpty, unpack;
    std::string reg;
  };
  for (const GrayCfg& c : std::vector<GrayCfg>{{16, 32, 2, 1, 4, 0, ""}}) {
    std::string opts = "-DDTYPE=uchar -DVEC=" + std::to_string(c.vec) + " -DWPT_X=" + std::to_string(c.wptx) +
                       " -DWPT_Y=" + std::to_string(c.wpty) + " -DROUND_BY_ADD=0 -DUNPACK=" + std::to_string(c.unpack) +
                       " " + c.reg;
    std::string name = "gray vector " + opts + " wg " + std::to_string(c.wgx) + "x" + std::to_string(c.wgy);
    if (!want(name, filter)) continue;
    try {
      std::cout << name << "\n";
      cl::Program p = build(e, color, opts, true);
      cl::Kernel k(p, "color_rgb_to_gray_vector");
      int a = 0;
      k.setArg(a++, W), k.setArg(a++, H), k.setArg(a++, rgb), k.setArg(a++, cl_ulong(0)), k.setArg(a++, 3 * W);
      k.setArg(a++, gray), k.setArg(a++, cl_ulong(0)), k.setArg(a++, W), k.setArg(a++, 0.21f), k.setArg(a++, 0.72f),
          k.setArg(a++, 0.07f);
      auto up = [](size_t v, size_t m) { return (v + m - 1) / m * m; };
      size_t gx = up((W / c.vec + c.wptx - 1) / c.wptx, c.wgx), gy = up((H + c.wpty - 1) / c.wpty, c.wgy);
      std::cout << "    max wg " << k.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(e.dev) << "\n";
      report("  ", time_kernel(e, k, cl::NDRange(gx, gy), cl::NDRange(c.wgx, c.wgy)), gray_bytes, copy_gbs);
      check_gray();
    } catch (std::exception& ex) {
      std::cout << "    failed: " << ex.what() << "\n";
    }
  }
  for (int wgc : {96, 160, 240, 480}) {
    std::string opts = "-DWGC=" + std::to_string(wgc);
    std::string name = "gray coalesced " + opts;
    if (!want(name, filter)) continue;
    std::cout << name << "\n";
    cl::Program p = build(e, extra, opts, true);
    cl::Kernel k(p, "gray_coalesced");
    k.setArg(0, W / 16), k.setArg(1, rgb), k.setArg(2, gray), k.setArg(3, 0.21f), k.setArg(4, 0.72f),
        k.setArg(5, 0.07f);
    report("  ", time_kernel(e, k, cl::NDRange(W / 16, H), cl::NDRange(wgc, 1)), gray_bytes, copy_gbs);
    check_gray();
  }
  for (int cpi : {1, 2, 4}) {
    for (int rpi : {1, 2, 4}) {
      for (int wgx : {64, 128, 256}) {
        if (cpi * rpi > 4) continue;
        std::string opts = "-DCPI=" + std::to_string(cpi) + " -DRPI=" + std::to_string(rpi);
        std::string name = "gray multi " + opts + " wg " + std::to_string(wgx);
        if (!want(name, filter)) continue;
        std::cout << name << "\n";
        cl::Program p = build(e, extra, opts, true);
        cl::Kernel k(p, "gray_multi");
        k.setArg(0, W / 16), k.setArg(1, H), k.setArg(2, rgb), k.setArg(3, gray), k.setArg(4, 0.21f),
            k.setArg(5, 0.72f), k.setArg(6, 0.07f);
        size_t gx = (W / 16 / cpi + wgx - 1) / wgx * wgx, gy = (H + rpi - 1) / rpi;
        report("  ", time_kernel(e, k, cl::NDRange(gx, gy), cl::NDRange(wgx, 1)), gray_bytes, copy_gbs);
        check_gray();
      }
    }
  }
  for (int level : {5}) {
    for (int wgx : {64, 128, 256}) {
      for (int wgy : {1, 2}) {
        if (wgx * wgy > 256 || wgx * wgy < 128) continue;
        std::string opts = "-DLEVEL=" + std::to_string(level);
        std::string name = "gray staged " + opts + " wg " + std::to_string(wgx) + "x" + std::to_string(wgy);
        if (!want(name, filter)) continue;
        std::cout << name << "\n";
        cl::Program p = build(e, extra, opts, true);
        cl::Kernel k(p, "gray_staged");
        int a = 0;
        k.setArg(a++, W), k.setArg(a++, H), k.setArg(a++, rgb), k.setArg(a++, cl_ulong(0)), k.setArg(a++, 3 * W);
        k.setArg(a++, gray), k.setArg(a++, cl_ulong(0)), k.setArg(a++, W), k.setArg(a++, 0.21f), k.setArg(a++, 0.72f),
            k.setArg(a++, 0.07f);
        std::cout << "    max wg " << k.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(e.dev) << "\n";
        size_t gx = (W / 16 + wgx - 1) / wgx * wgx, gy = (H + wgy - 1) / wgy * wgy;
        report("  ", time_kernel(e, k, cl::NDRange(gx, gy), cl::NDRange(wgx, wgy)), gray_bytes, copy_gbs);
        check_gray();
      }
    }
  }
  struct PackedCfg {
    int stride, unroll, per_sm, wg;
    std::string reg;
  };
  for (const PackedCfg& c : std::vector<PackedCfg>{{0, 1, 0, 256, ""}}) {
    std::string opts = "-DGSTRIDE=" + std::to_string(c.stride) + " -DGUNROLL=" + std::to_string(c.unroll) + " " + c.reg;
    std::string name = "gray packed " + opts + " per_sm " + std::to_string(c.per_sm) + " wg " + std::to_string(c.wg);
    if (!want(name, filter)) continue;
    try {
      std::cout << name << "\n";
      cl::Program p = build(e, extra, opts, true);
      cl::Kernel k(p, "gray_packed");
      const int chunks = int(px / 16);
      k.setArg(0, chunks), k.setArg(1, rgb), k.setArg(2, gray), k.setArg(3, 0.21f), k.setArg(4, 0.72f),
          k.setArg(5, 0.07f);
      size_t g = c.stride ? size_t(132) * c.per_sm * c.wg : (chunks + c.wg - 1) / c.wg * size_t(c.wg);
      report("  ", time_kernel(e, k, cl::NDRange(g), cl::NDRange(c.wg)), gray_bytes, copy_gbs);
      check_gray();
    } catch (std::exception& ex) {
      std::cout << "    failed: " << ex.what() << "\n";
    }
  }

  if (std::getenv("NVEXP_GAUSS") == nullptr) {
    std::fflush(stdout);
    std::_Exit(0);
  }
  // Gaussian 9x9 float mirror
  cl::Buffer fin(e.ctx, CL_MEM_READ_WRITE, px * 4), fout(e.ctx, CL_MEM_READ_WRITE, px * 4);
  {
    std::vector<float> h(px);
    for (size_t i = 0; i < px; ++i) h[i] = float(i % 977) * 0.001f;
    e.q.enqueueWriteBuffer(fin, CL_TRUE, 0, px * 4, h.data());
  }
  std::vector<float> taps(9);
  {
    double s = 0;
    for (int i = 0; i < 9; ++i) s += taps[i] = std::exp(-(i - 4) * (i - 4) / (2 * 1.7 * 1.7));
    for (auto& t : taps) t /= float(s);
  }
  cl::Buffer tb(e.ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, size_t(9 * 4), taps.data());
  struct GaussCfg {
    int tx, ty, wpty, vec, local_in, steps, radius;
    std::string reg;
  };
  std::vector<GaussCfg> gcs;
  for (int prefetch : {0, 1}) {
    std::string p = "-DPREFETCH=" + std::to_string(prefetch);
    gcs.push_back({128, 32, 4, 4, 0, 1, 4, p});
    gcs.push_back({128, 32, 8, 4, 0, 1, 4, p});
    gcs.push_back({128, 16, 4, 4, 0, 1, 4, p});
    gcs.push_back({128, 32, 2, 4, 0, 1, 4, p});
    gcs.push_back({64, 32, 4, 4, 0, 1, 4, p});
    gcs.push_back({128, 64, 8, 4, 0, 1, 4, p});
    gcs.push_back({128, 32, 4, 4, 0, 1, 4, p + " -cl-nv-maxrregcount=128"});
    gcs.push_back({128, 16, 4, 4, 0, 1, 2, p});
    gcs.push_back({128, 32, 4, 4, 0, 1, 2, p});
  }
  std::vector<float> ref4, ref2;
  for (const GaussCfg& c : gcs) {
    std::string opts = "-DDTYPE=float -DCHANNELS=1 -DBORDER=2 -DRADIUS_X=" + std::to_string(c.radius) +
                       " -DRADIUS_Y=" + std::to_string(c.radius) +
                       " -DVARIANT=6 -DPAD=0 -DVEC=" + std::to_string(c.vec) + " -DTILE_X=" + std::to_string(c.tx) +
                       " -DTILE_Y=" + std::to_string(c.ty) + " -DWPT_Y=" + std::to_string(c.wpty) +
                       " -DUSE_LOCAL_INPUT=" + std::to_string(c.local_in) + " " + c.reg;
    std::string name = (c.radius == 4 ? "gauss " : "box ") + opts;
    if (!want(name, filter)) continue;
    try {
      std::cout << name << "\n";
      cl::Program p = build(e, conv, opts, true);
      cl::Kernel k(p, "convolve_separable_tiled");
      int a = 0;
      k.setArg(a++, W), k.setArg(a++, H), k.setArg(a++, fin), k.setArg(a++, cl_ulong(0)), k.setArg(a++, W);
      k.setArg(a++, fout), k.setArg(a++, cl_ulong(0)), k.setArg(a++, W), k.setArg(a++, tb), k.setArg(a++, tb);
      k.setArg(a++, c.radius), k.setArg(a++, c.radius);
      const int wgx = c.tx / c.vec, wgy = c.ty / c.wpty;
      std::cout << "    wg " << wgx << "x" << wgy << " max wg " << k.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(e.dev)
                << "\n";
      size_t gx = size_t((W + c.tx - 1) / c.tx) * wgx, gy = size_t((H + c.ty - 1) / c.ty) * wgy;
      report("  ", time_kernel(e, k, cl::NDRange(gx, gy), cl::NDRange(wgx, wgy)), 8.0 * px, copy_gbs);
      std::vector<float> got(px);
      e.q.enqueueReadBuffer(fout, CL_TRUE, 0, px * 4, got.data());
      std::vector<float>& ref = c.radius == 4 ? ref4 : ref2;
      if (ref.empty()) {
        ref = got;
      } else {
        double worst = 0;
        for (size_t i = 0; i < px; ++i) worst = std::max(worst, double(std::abs(got[i] - ref[i])));
        std::cout << "    max difference from the first config of this radius: " << worst << "\n";
      }
      e.q.enqueueFillBuffer(fout, -1.0f, 0, px * 4);
    } catch (std::exception& ex) {
      std::cout << "    failed: " << ex.what() << "\n";
    }
  }
  std::fflush(stdout);
  std::_Exit(0);
}
