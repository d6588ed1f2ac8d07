// Batched gemm's tuning subjects (a bucket's timing batch and a ragged verification batch checked against the
// host reference shared with the tests) and their entries for `tilecl tune`.
#include <limits>

#include "ops/gemm_batched_parts.hpp"
#include "ops/tunable_ops.hpp"
#include "reference/gemm_reference.hpp"
#include "tilecl/error.hpp"
#include "tuning/scratch.hpp"

namespace tilecl::detail {
namespace {

const char* op_name(bool per_matrix) { return per_matrix ? "gemm_batched" : "gemm_strided_batched"; }

// "BxMxNxK[:NN|NT|TN|TT][:row|col]" (transposes and layout are accepted; the bucket depends on m and n only).
std::string bucket_of_shape(const std::string& op, const std::string& text) {
  const auto colon = text.find(':');
  const auto sizes = parse_dimensions(op, text.substr(0, colon), 4);
  std::size_t at = colon;
  while (at != std::string::npos && at < text.size()) {
    const auto next = text.find(':', at + 1);
    const std::string word = text.substr(at + 1, next == std::string::npos ? std::string::npos : next - at - 1);
    at = next;
    const bool transposes =
        word.size() == 2 && (word[0] == 'N' || word[0] == 'T') && (word[1] == 'N' || word[1] == 'T');
    if (!transposes && word != "row" && word != "col")
      throw Error(op, "shape", CL_INVALID_VALUE, "'" + text + "': expected BxMxNxK[:NN|NT|TN|TT][:row|col]");
  }
  if (sizes[0] == 0 || sizes[1] == 0 || sizes[2] == 0)
    throw Error(op, "shape", CL_INVALID_VALUE, "'" + text + "' has no matrices");
  return gemm_batched_bucket(sizes[1], sizes[2]);
}

// One batch of stored row-major NN matrices, either strided or at listed offsets, with its scalars.
template <typename T>
struct Batch {
  std::uint64_t batch = 0, m = 0, n = 0, k = 0, lda = 0, ldb = 0, ldc = 0;
  std::vector<std::size_t> a_offsets, b_offsets, c_offsets;
  std::vector<ComputeType<T>> alphas, betas;  // float for tilecl::half
  cl::Buffer a, b, c;

  BatchedCall<T> call(bool per_matrix) {
    BatchedCall<T> result;
    result.m = m, result.n = n, result.k = k, result.batch = batch;
    result.a = &a, result.b = &b, result.c = &c;
    result.lda = lda, result.ldb = ldb, result.ldc = ldc;
    if (per_matrix) {
      result.a_offsets = &a_offsets, result.b_offsets = &b_offsets, result.c_offsets = &c_offsets;
      result.alphas = &alphas, result.betas = &betas;
    } else {  // the layout below is regular: the first two offsets give the strides
      result.a_offset = a_offsets[0], result.b_offset = b_offsets[0], result.c_offset = c_offsets[0];
      result.stride_a = batch > 1 ? a_offsets[1] - a_offsets[0] : 0;
      result.stride_b = batch > 1 ? b_offsets[1] - b_offsets[0] : 0;
      result.stride_c = batch > 1 ? c_offsets[1] - c_offsets[0] : 0;
      result.alpha = alphas[0], result.beta = betas[0];
    }
    return result;
  }
};

// Matrices `gap` elements apart after `first`: the offsets of a regular layout.
std::vector<std::size_t> regular_offsets(std::uint64_t batch, std::uint64_t first, std::uint64_t span,
                                         std::uint64_t gap) {
  std::vector<std::size_t> offsets(batch);
  for (std::uint64_t i = 0; i < batch; ++i) offsets[i] = first + i * (span + gap);
  return offsets;
}

template <typename T>
class GemmBatchedSubject : public TuningSubject {
 public:
  GemmBatchedSubject(std::string bucket, bool per_matrix)
      : bucket_(std::move(bucket)), shape_(gemm_batched_bucket_shape(bucket_)), per_matrix_(per_matrix) {}

  TuningKey key() const override { return {op_name(per_matrix_), dtype_of<T>().name, bucket_}; }
  std::string family() const override { return "gemm_batched"; }
  std::string timing_shape() const override {
    return std::to_string(shape_.batch) + "x" + std::to_string(shape_.m) + "x" + std::to_string(shape_.n) + "x" +
           std::to_string(shape_.k);
  }
  SearchSpace search_space(const DeviceInfo& device) const override {
    return gemm_batched_search_space(dtype_of<T>(), bucket_, device);
  }
  Config default_config(const DeviceInfo& device) const override {
    return gemm_batched_default_config(dtype_of<T>(), bucket_, device);
  }
  BuildOptions build_options(const Config& config) const override {
    // The timing batch's program: packed matrices (leading dimensions and offsets multiples of the bucket's sides).
    const OperandAlignment packed{common_alignment({shape_.k, shape_.m * shape_.k}),
                                  common_alignment({shape_.n, shape_.k * shape_.n}),
                                  common_alignment({shape_.n, shape_.m * shape_.n})};
    return gemm_batched_build_options(dtype_of<T>(), config, false, false, per_matrix_, packed);
  }

  void prepare(const cl::CommandQueue& queue, std::uint64_t seed) override {
    std::mt19937_64 random(seed);
    queue_ = queue;
    const cl::Context context = queue.getInfo<CL_QUEUE_CONTEXT>();
    fill(timing_, context, shape_.batch, shape_.m, shape_.n, shape_.k, 0, 0, random, nullptr);
    const auto& v = verification_shape();
    fill(verify_, context, 3, v.m, v.n, v.k, 3, 5, random, &verify_values_);
    prepare_expected();
  }

  std::vector<cl::Event> run(cl::CommandQueue& queue, const Config& config) override {
    std::vector<cl::Event> events;
    run_gemm_batched<T>(&config, queue, timing_.call(per_matrix_), nullptr, &events);
    return events;
  }

  std::string verify(cl::CommandQueue& queue, const Config& config) override;

  double work() const override { return 2.0 * static_cast<double>(shape_.batch * shape_.m * shape_.n * shape_.k); }
  const char* work_unit() const override { return "flop"; }

 private:
  // Host copies of the verification operands (C before the call).
  struct Values {
    std::vector<T> a, b, c;
  };

  // Ragged sides below the bucket's largest, k no multiple of any K step.
  BatchedBucketShape verification_shape() const {
    const std::uint64_t side = shape_.max_side == 0 ? 137 : shape_.max_side;
    return {bucket_.c_str(), side, 3, side - side / 4, side - 1, 37};
  }

  void fill(Batch<T>& batch, const cl::Context& context, std::uint64_t count, std::uint64_t m, std::uint64_t n,
            std::uint64_t k, std::uint64_t pad, std::uint64_t gap, std::mt19937_64& random, Values* values);
  void prepare_expected();

  std::string bucket_;
  BatchedBucketShape shape_;
  bool per_matrix_;
  cl::CommandQueue queue_;
  Batch<T> timing_, verify_;
  Values verify_values_;
  std::vector<bool> inside_;
  std::vector<std::vector<double>> expected_, bounds_;
};

// Matrices with leading dimensions `pad` beyond the minimum and `gap` elements between them; scalars 1 and 0.5
// for timing, per-matrix ones for verification (values != nullptr).
template <typename T>
void GemmBatchedSubject<T>::fill(Batch<T>& batch, const cl::Context& context, std::uint64_t count, std::uint64_t m,
                                 std::uint64_t n, std::uint64_t k, std::uint64_t pad, std::uint64_t gap,
                                 std::mt19937_64& random, Values* values) {
  batch.batch = count, batch.m = m, batch.n = n, batch.k = k;
  batch.lda = k + pad, batch.ldb = n + pad, batch.ldc = n + pad;
  const std::uint64_t span_a = (m - 1) * batch.lda + k, span_b = (k - 1) * batch.ldb + n;
  const std::uint64_t span_c = (m - 1) * batch.ldc + n;
  batch.a_offsets = regular_offsets(count, gap, span_a, gap);
  batch.b_offsets = regular_offsets(count, gap, span_b, gap);
  batch.c_offsets = regular_offsets(count, gap, span_c, gap);
  using Scalar = ComputeType<T>;
  for (std::uint64_t i = 0; i < count; ++i) {
    batch.alphas.push_back(values != nullptr ? Scalar(0.75 - 0.5 * static_cast<double>(i)) : Scalar(1));
    batch.betas.push_back(values != nullptr ? Scalar(-0.5 + 0.25 * static_cast<double>(i)) : Scalar(0.5));
  }
  const std::uint64_t size_a = gap + count * (span_a + gap), size_b = gap + count * (span_b + gap);
  const std::uint64_t size_c = gap + count * (span_c + gap);
  // Timing operands: a random block repeated (the values do not change the timing).
  const std::vector<T> block = random_values<T>(values != nullptr ? size_a + size_b + size_c : 65537, random);
  std::vector<T> a = repeated_values(block, size_a), b = repeated_values(block, size_b, size_a);
  std::vector<T> c = repeated_values(block, size_c, size_a + size_b);
  batch.a = upload(context, queue_, a);
  batch.b = upload(context, queue_, b);
  batch.c = upload(context, queue_, c);
  if (values != nullptr) *values = {std::move(a), std::move(b), std::move(c)};
}

// Two passes: every beta 0 over NaN in C, then the per-matrix betas (strided: the first matrix's scalars for
// all). Elements of C outside the matrices must come back unchanged.
template <typename T>
void GemmBatchedSubject<T>::prepare_expected() {
  const Batch<T>& v = verify_;
  inside_.assign(verify_values_.c.size(), false);
  for (std::uint64_t i = 0; i < v.batch; ++i)
    for (std::uint64_t r = 0; r < v.m; ++r)
      for (std::uint64_t j = 0; j < v.n; ++j) inside_[v.c_offsets[i] + r * v.ldc + j] = true;
  for (int pass = 0; pass < 2; ++pass) {
    std::vector<T> result = verify_values_.c;
    std::vector<double> bound(result.size(), 0.0), magnitude;
    for (std::uint64_t i = 0; i < v.batch; ++i) {
      const std::uint64_t s = per_matrix_ ? i : 0;
      const double beta = pass == 0 ? 0.0 : static_cast<double>(v.betas[s]);
      reference::gemm(reference::Layout::RowMajor, reference::Transpose::No, reference::Transpose::No, v.m, v.n, v.k,
                      static_cast<double>(v.alphas[s]), verify_values_.a.data() + v.a_offsets[i], v.lda,
                      verify_values_.b.data() + v.b_offsets[i], v.ldb, beta, result.data() + v.c_offsets[i], v.ldc,
                      &magnitude);
      for (std::uint64_t at = 0; at < magnitude.size(); ++at)
        bound[v.c_offsets[i] + at] = reference::storage_tolerance<T>(v.k, magnitude[at], result[v.c_offsets[i] + at]);
    }
    expected_.emplace_back(result.begin(), result.end());
    bounds_.push_back(std::move(bound));
  }
}

template <typename T>
std::string GemmBatchedSubject<T>::verify(cl::CommandQueue& queue, const Config& config) {
  for (std::size_t pass = 0; pass < expected_.size(); ++pass) {
    const bool beta_zero = pass == 0;
    std::vector<T> start = verify_values_.c;
    for (std::size_t i = 0; i < start.size(); ++i)
      if (beta_zero && inside_[i]) start[i] = static_cast<T>(std::numeric_limits<float>::quiet_NaN());
    queue.enqueueWriteBuffer(verify_.c, CL_TRUE, 0, start.size() * sizeof(T), start.data());
    Batch<T> batch = verify_;
    if (beta_zero) batch.betas.assign(batch.betas.size(), ComputeType<T>(0));
    run_gemm_batched<T>(&config, queue, batch.call(per_matrix_), nullptr).wait();
    const auto got = download<T>(queue, verify_.c, start.size());
    const std::string miss = compare_within_bounds(got, expected_[pass], bounds_[pass], "C");
    if (!miss.empty()) return miss + (beta_zero ? " (beta = 0 over NaN)" : "");
  }
  return {};
}

TunableOp tunable_op(bool per_matrix) {
  TunableOp op;
  std::vector<std::string> shapes;
  std::string names;
  for (const auto& bucket : gemm_batched_buckets()) {
    const auto& s = gemm_batched_bucket_shape(bucket);
    shapes.push_back(std::to_string(s.batch) + "x" + std::to_string(s.m) + "x" + std::to_string(s.n) + "x" +
                     std::to_string(s.k));
    names += (names.empty() ? "" : ", ") + bucket;
  }
  op.description = {op_name(per_matrix),
                    "gemm_batched",
                    {"float", "double", "half"},
                    "BxMxNxK[:NN|NT|TN|TT][:row|col] (batch_count, then m, n, k as in BLAS), e.g. 4096x32x32x32; "
                    "tuned per shape bucket of max(m, n): " +
                        names,
                    shapes};
  op.make_subject = [per_matrix](const std::string& dtype, const std::string& shape) {
    return make_gemm_batched_subject(dtype, bucket_of_shape(op_name(per_matrix), shape), per_matrix);
  };
  return op;
}

}  // namespace

std::unique_ptr<TuningSubject> make_gemm_batched_subject(const std::string& dtype, const std::string& bucket,
                                                         bool per_matrix) {
  if (dtype == "float") return std::make_unique<GemmBatchedSubject<float>>(bucket, per_matrix);
  if (dtype == "double") return std::make_unique<GemmBatchedSubject<double>>(bucket, per_matrix);
  if (dtype == "half") return std::make_unique<GemmBatchedSubject<half>>(bucket, per_matrix);
  throw Error(op_name(per_matrix), "dtype", CL_INVALID_VALUE, "'" + dtype + "' is not float, double or half");
}

std::vector<TunableOp> gemm_batched_tunable_ops() { return {tunable_op(false), tunable_op(true)}; }

}  // namespace tilecl::detail
