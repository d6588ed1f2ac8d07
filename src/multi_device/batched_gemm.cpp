// tilecl::gemm_strided_batched on a DeviceSet: whole products in shares over the devices. A device uploads a
// group of products (A, B and, when beta != 0, C packed one after the other; an operand of stride 0 once), runs
// them, downloads the C group, with two slots of groups in flight.
#include <algorithm>

#include "multi_device/gemm_problem.hpp"
#include "multi_device/pipeline.hpp"
#include "multi_device/shares.hpp"
#include "tilecl/error.hpp"
#include "tilecl/gemm.hpp"
#include "tilecl/gemm_batched.hpp"
#include "tilecl/multi_device.hpp"

namespace tilecl {

namespace detail {

// The products of one group on a device: matrix i of each operand at element i * stride of its buffer (stride
// 0: one matrix shared by every product). Small products run as one tilecl::gemm_strided_batched launch (the
// batched kernels own whole small matrices); products of at least kLargeProduct multiply-adds run one by one
// through tilecl::gemm, whose tilings are made for large matrices (and have no 2^31-element span limit).
struct StridedMatrices {
  cl::Buffer* buffer;
  std::size_t stride;
};
struct DeviceBatch {
  StridedMatrices a, b, c;
};

template <typename T>
Events enqueue_batch_products(cl::CommandQueue& queue, const DeviceGemmForm& form, std::size_t m, std::size_t n,
                              std::size_t k, T alpha, T beta, const MatrixStorage& a, const MatrixStorage& b,
                              const MatrixStorage& c, const DeviceBatch& batch, std::size_t count, const Events& wait) {
  constexpr double kLargeProduct = 512.0 * 512.0 * 512.0;
  if (static_cast<double>(m) * static_cast<double>(n) * static_cast<double>(k) < kLargeProduct)
    return {gemm_strided_batched<T>(queue, form.layout, form.trans_a, form.trans_b, m, n, k, alpha, *batch.a.buffer, 0,
                                    a.ld, batch.a.stride, *batch.b.buffer, 0, b.ld, batch.b.stride, beta,
                                    *batch.c.buffer, 0, c.ld, batch.c.stride, count, &wait)};
  Events done;
  for (std::size_t i = 0; i < count; ++i)
    done.push_back(gemm<T>(queue, form.layout, form.trans_a, form.trans_b, m, n, k, alpha, *batch.a.buffer,
                           i * batch.a.stride, a.ld, *batch.b.buffer, i * batch.b.stride, b.ld, beta, *batch.c.buffer,
                           i * batch.c.stride, c.ld, &wait));
  return done;
}

// Element strides between consecutive matrices of A, B and C. Outside the anonymous namespace: the exported
// template's lambda captures one.
struct BatchStrides {
  std::size_t a, b, c;
};

namespace {

// One operand's products on the device: packed storage (memory rows `rows` apart), or one shared matrix.
struct PackedOperand {
  MatrixStorage storage;  // of product 0
  std::size_t rows = 0;   // memory rows per product
  std::size_t host_stride = 0;
  bool shared = false;

  std::size_t elements() const { return rows * storage.ld; }
  MatrixStorage at(std::size_t product) const {
    MatrixStorage s = storage;
    s.base_row = shared ? 0 : product * rows;
    return s;
  }
};

PackedOperand packed(const MatrixStorage& host, std::size_t rows, std::size_t cols, std::size_t host_stride,
                     bool may_share) {
  PackedOperand operand;
  operand.storage.transposed = host.transposed;
  operand.storage.ld = std::max<std::size_t>(host.transposed ? rows : cols, 1);
  operand.rows = host.transposed ? cols : rows;
  operand.host_stride = host_stride;
  operand.shared = may_share && host_stride == 0;
  return operand;
}

// One operand of every product of a group on the device, packed one after the other, or one shared matrix.
template <typename T>
struct DeviceOperand {
  PackedOperand layout;
  const T* host = nullptr;
  MatrixStorage host_storage;
  Block block;                      // the whole logical matrix
  std::vector<cl::Buffer> buffers;  // one per slot, or one when shared
};

template <typename T>
class BatchProducts final : public PieceWork {
 public:
  BatchProducts(const GemmProblem<T>& problem, const BatchStrides& strides, IndexRange products,
                const cl::Context& context, std::size_t pieces)
      : p_(problem), groups_(cut_evenly(products, pieces)) {
    for (const auto& group : groups_) group_size_ = std::max(group_size_, group.size());
    k_ = p_.reads_ab() ? p_.k : 0;
    a_ = operand(context, p_.a, p_.a_storage, p_.m, p_.k, strides.a, p_.reads_ab());
    b_ = operand(context, p_.b, p_.b_storage, p_.k, p_.n, strides.b, p_.reads_ab());
    c_.layout = packed(p_.c_storage, p_.m, p_.n, strides.c, false);
    c_.host = p_.c;
    c_.host_storage = p_.c_storage;
    c_.block = {0, 0, p_.m, p_.n};
    for (std::size_t slot = 0; slot < slots(); ++slot)
      c_.buffers.push_back(device_buffer(context, group_size_ * c_.layout.elements(), sizeof(T)));
    form_ = device_gemm_form(a_.layout.storage, b_.layout.storage, c_.layout.storage);
  }

  std::size_t pieces() const override { return groups_.size(); }
  std::size_t slots() const override { return std::min<std::size_t>(2, groups_.size()); }

  Events upload(std::size_t piece, cl::CommandQueue& queue, const Events& wait) override {
    Events done;
    for (std::size_t i = 0; i < groups_[piece].size(); ++i) {
      const std::size_t product = groups_[piece].begin + i;
      if (p_.reads_ab()) {
        upload(queue, a_, piece, product, i, wait, done);
        upload(queue, b_, piece, product, i, wait, done);
      }
      if (p_.reads_c()) upload(queue, c_, piece, product, i, wait, done);
    }
    return done;
  }

  Events compute(std::size_t piece, cl::CommandQueue& queue, const Events& wait) override {
    Events after = wait;
    after.insert(after.end(), shared_uploads_.begin(), shared_uploads_.end());
    const std::size_t slot = piece % slots();
    const DeviceBatch batch{
        {&buffer(a_, slot), stride(a_)}, {&buffer(b_, slot), stride(b_)}, {&c_.buffers[slot], stride(c_)}};
    return enqueue_batch_products<T>(queue, form_, p_.m, p_.n, k_, p_.alpha, p_.beta, a_.layout.storage,
                                     b_.layout.storage, c_.layout.storage, batch, groups_[piece].size(), after);
  }

  Events download(std::size_t piece, cl::CommandQueue& queue, const Events& computed) override {
    Events done;
    const std::size_t slot = piece % slots();
    for (std::size_t i = 0; i < groups_[piece].size(); ++i)
      read_block(queue, c_.buffers[slot], c_.layout.at(i), 0, 0,
                 p_.c + (groups_[piece].begin + i) * c_.layout.host_stride, c_.host_storage, c_.block, sizeof(T),
                 computed, done);
    return done;
  }

 private:
  DeviceOperand<T> operand(const cl::Context& context, const T* host, const MatrixStorage& host_storage,
                           std::size_t rows, std::size_t cols, std::size_t host_stride, bool read) const {
    DeviceOperand<T> result;
    result.layout = packed(host_storage, rows, cols, host_stride, true);
    result.host = host;
    result.host_storage = host_storage;
    result.block = {0, 0, rows, cols};
    const std::size_t copies = result.layout.shared ? 1 : slots();
    const std::size_t elements = read ? (result.layout.shared ? 1 : group_size_) * result.layout.elements() : 0;
    for (std::size_t i = 0; i < copies; ++i) result.buffers.push_back(device_buffer(context, elements, sizeof(T)));
    return result;
  }

  // Product `product`, number `index` of its group, into the slot's buffer; a shared matrix once, with piece 0.
  void upload(cl::CommandQueue& queue, DeviceOperand<T>& operand, std::size_t piece, std::size_t product,
              std::size_t index, const Events& wait, Events& done) {
    if (operand.layout.shared) {
      if (piece == 0 && index == 0)
        write_block(queue, operand.buffers[0], operand.layout.at(0), 0, 0, operand.host, operand.host_storage,
                    operand.block, sizeof(T), wait, shared_uploads_);
      return;
    }
    write_block(queue, buffer(operand, piece % slots()), operand.layout.at(index), 0, 0,
                operand.host + product * operand.layout.host_stride, operand.host_storage, operand.block, sizeof(T),
                wait, done);
  }

  static cl::Buffer& buffer(DeviceOperand<T>& operand, std::size_t slot) {
    return operand.buffers[operand.layout.shared ? 0 : slot];
  }
  static std::size_t stride(const DeviceOperand<T>& operand) {
    return operand.layout.shared ? 0 : operand.layout.elements();
  }

  GemmProblem<T> p_;
  std::vector<IndexRange> groups_;
  std::size_t group_size_ = 0;
  std::size_t k_ = 0;
  DeviceOperand<T> a_, b_, c_;
  DeviceGemmForm form_{};
  Events shared_uploads_;  // a shared A or B, uploaded once with the first piece
};

// The spans of all matrices of an operand, first element of the first to last element of the last.
std::size_t batch_span(std::size_t matrix_span, std::size_t stride, std::size_t count) {
  return matrix_span == 0 ? 0 : (count - 1) * stride + matrix_span;
}

template <typename T>
void validate_batch(const char* op, const GemmProblem<T>& p, const BatchStrides& strides, std::size_t count) {
  const std::size_t c_span = storage_span(p.c_storage, p.m, p.n);
  if (count > 1 && strides.c < c_span)
    throw Error(op, "stride_c", CL_MEM_COPY_OVERLAP,
                "the C matrices overlap: stride " + std::to_string(strides.c) + " is below a matrix's span of " +
                    std::to_string(c_span) + " elements (interleaved C matrices need the single-device op)");
  if (!p.reads_ab()) return;
  const std::size_t all_c = batch_span(c_span, strides.c, count);
  if (host_ranges_overlap<T>(p.c, all_c, p.a, batch_span(storage_span(p.a_storage, p.m, p.k), strides.a, count)))
    throw Error(op, "c", CL_MEM_COPY_OVERLAP, "the C matrices overlap the A matrices");
  if (host_ranges_overlap<T>(p.c, all_c, p.b, batch_span(storage_span(p.b_storage, p.k, p.n), strides.b, count)))
    throw Error(op, "c", CL_MEM_COPY_OVERLAP, "the C matrices overlap the B matrices");
}

}  // namespace
}  // namespace detail

template <typename T>
void gemm_strided_batched(DeviceSet& devices, Layout layout, Transpose trans_a, Transpose trans_b, std::size_t m,
                          std::size_t n, std::size_t k, T alpha, const T* a, std::size_t lda, std::size_t stride_a,
                          const T* b, std::size_t ldb, std::size_t stride_b, T beta, T* c, std::size_t ldc,
                          std::size_t stride_c, std::size_t batch_count) {
  constexpr const char* op = "gemm_strided_batched";
  const auto problem = detail::gemm_problem(layout, trans_a, trans_b, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
  detail::validate_gemm(op, devices, layout, trans_a, trans_b, problem, m == 0 || n == 0 || batch_count == 0);
  if (m == 0 || n == 0 || batch_count == 0) return;
  const detail::BatchStrides strides{stride_a, stride_b, stride_c};
  detail::validate_batch(op, problem, strides, batch_count);
  const auto shares = detail::split_by_weights(batch_count, devices.weights());
  detail::run_on_devices(op, devices, shares, [&](DeviceSet::Entry& entry, detail::IndexRange products) {
    detail::BatchProducts<T> work(problem, strides, products, entry.context, devices.pieces_per_device());
    detail::run_pieces(entry, work);
  });
}

// Pointer types as templates, so that the macro's T stays inside angle brackets.
template <typename U>
using PointerTo = U*;

#define TILECL_INSTANTIATE(T)                                                                                       \
  template void gemm_strided_batched<T>(DeviceSet&, Layout, Transpose, Transpose, std::size_t, std::size_t,         \
                                        std::size_t, T, PointerTo<const T>, std::size_t, std::size_t,               \
                                        PointerTo<const T>, std::size_t, std::size_t, T, PointerTo<T>, std::size_t, \
                                        std::size_t, std::size_t);
TILECL_INSTANTIATE(float)
TILECL_INSTANTIATE(double)
#undef TILECL_INSTANTIATE

}  // namespace tilecl
