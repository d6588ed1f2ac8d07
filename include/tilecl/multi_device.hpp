// Ops split over several OpenCL devices: a DeviceSet of command queues, and GEMM, batched GEMM and the image
// filters on host memory, each device computing a part of the result with the single-device op.
//
// How a call runs (docs/ARCHITECTURE.md, "Several devices"):
// - Operands live in host memory, like cuBLASXt's: the call uploads each device's part, runs the single-device
//   op (tilecl::gemm, tilecl::gaussian_blur, ...) on that device's queue and downloads the results, then
//   returns once every result is in host memory. Host staging is the one path that works for queues of any
//   contexts and platforms (OpenCL 1.2 has no copies between contexts), and a problem never has to fit one
//   device whole.
// - The work is cut along rows of the result (GEMM: rows of C, or columns when C is wider than tall, each
//   device receiving its rows of op(A) -- or columns of op(B) -- and the whole other operand; batched GEMM:
//   whole products; images: bands of rows plus the halo rows the filter reads, as the border rule gives them,
//   over all frames of a batch), in shares proportional to the devices' weights. A device whose share is
//   empty (more devices than rows) gets nothing.
// - Each device's share is cut again into `pieces_per_device` pieces that go through three queues of the
//   device (uploads, the caller's queue for compute, downloads) with events between them, so the upload of
//   one piece overlaps the compute of the previous one and the download of the one before; device buffers
//   are double-buffered and allocated per call.
// - Each device is tuned on its own, through the ordinary per-device tuning (its fingerprint and database):
//   nothing here chooses kernels.
//
// Results (tested in tests/multi/ on 2 and 3 PoCL devices):
// - Image filters: each output pixel is computed by the single-device op from the same input values (the halo
//   rows are copies of the rows the border rule reads), so the result is bit-identical to the single-device
//   call's when each band's call runs the same configuration as the single-device call (an override, or one
//   tuned configuration for both shapes); otherwise each value lies within the single-device op's own bound
//   of the exact result (float: the rounding of the sum of products; uint8: the same, then rounding, so at
//   most 1 apart).
// - GEMM: each element is one dot product over all of k computed by tilecl::gemm on one device, so it lies
//   within the single-device call's bound; bit-identical to it when the pieces run the configuration the
//   single-device call would and that configuration does not split k differently.
//
// Errors: tilecl::Error, raised before anything is enqueued for bad arguments (argument names as in the
// single-device op; "devices" for the set); a failure on a device while the call runs (allocation, enqueue)
// waits for the transfers already enqueued to finish, then raises tilecl::Error naming the device.
// Thread-safety: a DeviceSet may be used by several threads at once; each call has its own device buffers.
#pragma once

#include <CL/opencl.hpp>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "tilecl/types.hpp"

namespace tilecl {

struct DeviceSetOptions {
  // Relative throughput of each queue's device: its share of the work is proportional to its weight. Empty:
  // equal shares. Otherwise one finite, positive weight per queue.
  std::vector<double> weights;
  // Pieces each device's share is cut into, so that transfers overlap compute (1: upload, compute, download
  // in turn). At least 1.
  std::size_t pieces_per_device = 2;
};

// A set of devices, each used through one command queue (the caller's; compute runs there). Queues may share a
// context or not, and name the same device more than once (several queues on one device). The set adds an
// in-order upload and download queue per entry, in the entry's context and device. Copies of a DeviceSet share
// its queues.
class DeviceSet {
 public:
  // Throws tilecl::Error (argument "devices"): no queue (CL_INVALID_VALUE), a null queue
  // (CL_INVALID_COMMAND_QUEUE), weights not one finite positive value per queue or pieces_per_device 0
  // (CL_INVALID_VALUE).
  explicit DeviceSet(std::vector<cl::CommandQueue> queues, DeviceSetOptions options = {});

  std::size_t size() const noexcept;
  // The compute queue of entry `index` (as given), and its upload and download queues.
  cl::CommandQueue& queue(std::size_t index) const;
  cl::CommandQueue& upload_queue(std::size_t index) const;
  cl::CommandQueue& download_queue(std::size_t index) const;
  const std::vector<double>& weights() const noexcept;
  std::size_t pieces_per_device() const noexcept;

  // One queue's compute, upload and download queues, context and device (src/multi_device/entry.hpp).
  struct Entry;
  Entry& entry(std::size_t index) const;

 private:
  std::vector<std::shared_ptr<Entry>> entries_;
  std::vector<double> weights_;
  std::size_t pieces_per_device_;
};

// C = alpha * op(A) * op(B) + beta * C in BLAS semantics and argument order, as tilecl::gemm (gemm.hpp), on
// host matrices (no offsets: pass the pointer to the first element). T: float or double (every device must
// support it: tilecl::Error CL_INVALID_DEVICE, argument "dtype", otherwise). beta == 0 does not read C; m or
// n == 0 does nothing; C must not overlap A or B (CL_MEM_COPY_OVERLAP). Null pointers of matrices that are
// read raise CL_INVALID_VALUE. Blocks until C is complete.
template <typename T>
void gemm(DeviceSet& devices, Layout layout, Transpose trans_a, Transpose trans_b, std::size_t m, std::size_t n,
          std::size_t k, T alpha, const T* a, std::size_t lda, const T* b, std::size_t ldb, T beta, T* c,
          std::size_t ldc);

// C_i = alpha * op(A_i) * op(B_i) + beta * C_i for i < batch_count, matrix i at a + i * stride_a (likewise b,
// c), in the argument order of tilecl::gemm_strided_batched. Strides of A and B may be 0 (one matrix shared by
// every product); the C matrices must not share an element. Each device computes a range of whole products.
// Each device runs its group of products as one tilecl::gemm_strided_batched launch (products of 512^3
// multiply-adds and more: one tilecl::gemm each; src/multi_device/batched_gemm.cpp).
template <typename T>
void gemm_strided_batched(DeviceSet& devices, Layout layout, Transpose trans_a, Transpose trans_b, std::size_t m,
                          std::size_t n, std::size_t k, T alpha, const T* a, std::size_t lda, std::size_t stride_a,
                          const T* b, std::size_t ldb, std::size_t stride_b, T beta, T* c, std::size_t ldc,
                          std::size_t stride_c, std::size_t batch_count);

// Frames of an image batch in host memory: frame f of src starts at src + f * src_stride (elements), of dst
// at dst + f * dst_stride. A stride of 0 means packed frames: height * pitch. The frames must not overlap
// each other in dst, nor dst overlap src (CL_MEM_COPY_OVERLAP).
struct FrameBatch {
  std::size_t count = 1;
  std::size_t src_stride = 0;
  std::size_t dst_stride = 0;
};

// The image filters of convolve.hpp on host images (same conventions: T std::uint8_t or float, `channels` 1 or
// 3, pitches in elements, odd filter sizes, every border rule; Border::Constant reads 0), over a batch of frames; the
// filter taps are host vectors (row-major, filter_width * filter_height taps for convolve2d). width, height or
// frames.count 0 does nothing (the other arguments are still checked). Blocks until dst is complete.
template <typename T>
void convolve2d(DeviceSet& devices, std::size_t width, std::size_t height, std::size_t channels, const T* src,
                std::size_t src_pitch, T* dst, std::size_t dst_pitch, const std::vector<float>& filter,
                std::size_t filter_width, std::size_t filter_height, Border border, const FrameBatch& frames = {});

template <typename T>
void separable_filter(DeviceSet& devices, std::size_t width, std::size_t height, std::size_t channels, const T* src,
                      std::size_t src_pitch, T* dst, std::size_t dst_pitch, const std::vector<float>& row_filter,
                      const std::vector<float>& column_filter, Border border, const FrameBatch& frames = {});

template <typename T>
void box_blur(DeviceSet& devices, std::size_t width, std::size_t height, std::size_t channels, const T* src,
              std::size_t src_pitch, T* dst, std::size_t dst_pitch, std::size_t radius_x, std::size_t radius_y,
              Border border, const FrameBatch& frames = {});

// radius: as tilecl::gaussian_blur, ceil(3 sigma) (at least 1) when not given.
template <typename T>
void gaussian_blur(DeviceSet& devices, std::size_t width, std::size_t height, std::size_t channels, const T* src,
                   std::size_t src_pitch, T* dst, std::size_t dst_pitch, double sigma, Border border,
                   std::optional<std::size_t> radius = std::nullopt, const FrameBatch& frames = {});

}  // namespace tilecl
