// tilecl::gemm on a DeviceSet: rows of C (or columns, through the transposed problem) in shares over the
// devices. A device holds the whole B, uploaded in column chunks so that the first products start before the
// last chunk arrived, and two slots of A rows and C rows; each piece (a chunk of its rows) is one tilecl::gemm
// per column chunk of B, and each result block is downloaded as soon as it is computed.
#include <algorithm>

#include "multi_device/gemm_problem.hpp"
#include "multi_device/pipeline.hpp"
#include "multi_device/shares.hpp"
#include "tilecl/gemm.hpp"
#include "tilecl/multi_device.hpp"

namespace tilecl {

namespace detail {

namespace {

template <typename T>
class GemmRows final : public PieceWork {
 public:
  GemmRows(const GemmProblem<T>& problem, IndexRange rows, const cl::Context& context, std::size_t pieces)
      : p_(problem), chunks_(cut_evenly(rows, pieces)), columns_(cut_evenly({0, problem.n}, pieces)) {
    for (const auto& chunk : chunks_) chunk_rows_ = std::max(chunk_rows_, chunk.size());
    const std::size_t k = std::max<std::size_t>(p_.k, 1);
    a_storage_ = {p_.a_storage.transposed ? chunk_rows_ : k, p_.a_storage.transposed, 0};
    b_storage_ = {p_.b_storage.transposed ? k : p_.n, p_.b_storage.transposed, 0};
    c_storage_ = {p_.c_storage.transposed ? chunk_rows_ : p_.n, p_.c_storage.transposed, 0};
    form_ = device_gemm_form(a_storage_, b_storage_, c_storage_);
    k_ = p_.reads_ab() ? p_.k : 0;  // alpha == 0: C = beta * C, as k == 0 computes it, without A and B on the device
    b_ = device_buffer(context, p_.reads_ab() ? p_.k * p_.n : 0, sizeof(T));
    for (std::size_t slot = 0; slot < slots(); ++slot) {
      a_.push_back(device_buffer(context, p_.reads_ab() ? chunk_rows_ * p_.k : 0, sizeof(T)));
      c_.push_back(device_buffer(context, chunk_rows_ * p_.n, sizeof(T)));
    }
  }

  std::size_t pieces() const override { return chunks_.size(); }
  std::size_t slots() const override { return std::min<std::size_t>(2, chunks_.size()); }

  Events upload(std::size_t piece, cl::CommandQueue& queue, const Events& wait) override {
    const IndexRange rows = chunks_[piece];
    const std::size_t slot = piece % slots();
    Events done;
    if (p_.reads_ab())
      write_block(queue, a_[slot], a_storage_, 0, 0, p_.a, p_.a_storage, {rows.begin, 0, rows.size(), p_.k}, sizeof(T),
                  wait, done);
    if (p_.reads_c())
      write_block(queue, c_[slot], c_storage_, 0, 0, p_.c, p_.c_storage, {rows.begin, 0, rows.size(), p_.n}, sizeof(T),
                  wait, done);
    if (piece == 0 && p_.reads_ab()) upload_b(queue, wait);
    return done;
  }

  Events compute(std::size_t piece, cl::CommandQueue& queue, const Events& wait) override {
    const std::size_t rows = chunks_[piece].size(), slot = piece % slots();
    Events done;
    for (std::size_t j = 0; j < columns_.size(); ++j) {
      Events after = wait;
      if (j < b_chunks_.size()) after.insert(after.end(), b_chunks_[j].begin(), b_chunks_[j].end());
      const IndexRange cols = columns_[j];
      done.push_back(gemm<T>(queue, form_.layout, form_.trans_a, form_.trans_b, rows, cols.size(), k_, p_.alpha,
                             a_[slot], 0, a_storage_.ld, b_, b_storage_.offset_of(0, cols.begin), b_storage_.ld,
                             p_.beta, c_[slot], c_storage_.offset_of(0, cols.begin), c_storage_.ld, &after));
    }
    return done;
  }

  Events download(std::size_t piece, cl::CommandQueue& queue, const Events& computed) override {
    const IndexRange rows = chunks_[piece];
    const std::size_t slot = piece % slots();
    Events done;
    for (std::size_t j = 0; j < columns_.size(); ++j) {
      const IndexRange cols = columns_[j];
      read_block(queue, c_[slot], c_storage_, 0, cols.begin, p_.c, p_.c_storage,
                 {rows.begin, cols.begin, rows.size(), cols.size()}, sizeof(T), {computed[j]}, done);
    }
    return done;
  }

 private:
  // B in column chunks, each with its own event: the first products wait for their chunk only.
  void upload_b(cl::CommandQueue& queue, const Events& wait) {
    for (const IndexRange cols : columns_) {
      b_chunks_.emplace_back();
      write_block(queue, b_, b_storage_, 0, cols.begin, p_.b, p_.b_storage, {0, cols.begin, p_.k, cols.size()},
                  sizeof(T), wait, b_chunks_.back());
    }
  }

  GemmProblem<T> p_;
  std::vector<IndexRange> chunks_;   // this device's rows of C, piece by piece
  std::vector<IndexRange> columns_;  // the columns of C (and B) in chunks
  std::size_t chunk_rows_ = 0;
  std::size_t k_ = 0;
  MatrixStorage a_storage_, b_storage_, c_storage_;
  DeviceGemmForm form_{};
  cl::Buffer b_;
  std::vector<cl::Buffer> a_, c_;  // per slot
  std::vector<Events> b_chunks_;   // upload events of B's column chunks
};

}  // namespace

template <typename T>
void split_gemm_rows(const char* op, DeviceSet& devices, const GemmProblem<T>& problem) {
  const auto shares = split_by_weights(problem.m, devices.weights());
  run_on_devices(op, devices, shares, [&](DeviceSet::Entry& entry, IndexRange rows) {
    GemmRows<T> work(problem, rows, entry.context, devices.pieces_per_device());
    run_pieces(entry, work);
  });
}

}  // namespace detail

template <typename T>
void gemm(DeviceSet& devices, Layout layout, Transpose trans_a, Transpose trans_b, std::size_t m, std::size_t n,
          std::size_t k, T alpha, const T* a, std::size_t lda, const T* b, std::size_t ldb, T beta, T* c,
          std::size_t ldc) {
  const auto problem = detail::gemm_problem(layout, trans_a, trans_b, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
  detail::validate_gemm("gemm", devices, layout, trans_a, trans_b, problem, m == 0 || n == 0);
  if (m == 0 || n == 0) return;
  // Split the longer side of C, so that every device gets work for as long as there is some.
  detail::split_gemm_rows("gemm", devices, n > m ? problem.transposed() : problem);
}

template void gemm<float>(DeviceSet&, Layout, Transpose, Transpose, std::size_t, std::size_t, std::size_t, float,
                          const float*, std::size_t, const float*, std::size_t, float, float*, std::size_t);
template void gemm<double>(DeviceSet&, Layout, Transpose, Transpose, std::size_t, std::size_t, std::size_t, double,
                           const double*, std::size_t, const double*, std::size_t, double, double*, std::size_t);

}  // namespace tilecl
