// gemv's tuning subject (one bucket's timing problem and a ragged verification problem, checked against the
// host reference shared with the tests) and its entry for `tilecl tune`.
#include <cmath>
#include <cstring>
#include <limits>

#include "checks.hpp"
#include "ops/gemv.hpp"
#include "ops/gemv_tuning.hpp"
#include "ops/tunable_ops.hpp"
#include "reference/gemv_reference.hpp"
#include "tilecl/error.hpp"
#include "tuning/scratch.hpp"

namespace tilecl::detail {
namespace {

// "MxN[:N|T][:row|col][:vV]" as a bucket: A is m x n in BLAS terms, V vectors (default 1).
std::string bucket_of_shape(const std::string& text) {
  const auto colon = text.find(':');
  const auto sizes = parse_dimensions(kGemvOp, text.substr(0, colon), 2);
  bool transposed = false, row_major = true;
  std::uint64_t vectors = 1;
  std::size_t at = colon;
  while (at != std::string::npos && at < text.size()) {
    const auto next = text.find(':', at + 1);
    const std::string word = text.substr(at + 1, next == std::string::npos ? std::string::npos : next - at - 1);
    at = next;
    if (word == "N" || word == "T") {
      transposed = word == "T";
    } else if (word == "row" || word == "col") {
      row_major = word == "row";
    } else if (word.size() > 1 && word[0] == 'v') {
      vectors = parse_size(kGemvOp, word.substr(1));
    } else {
      throw Error(kGemvOp, "shape", CL_INVALID_VALUE,
                  "'" + text + "': expected MxN[:N|T][:row|col][:vV], e.g. 4096x4096:T");
    }
  }
  if (sizes[0] == 0 || sizes[1] == 0 || vectors == 0 || vectors > kMaxGemvVectors)
    throw Error(kGemvOp, "shape", CL_INVALID_VALUE, "'" + text + "': sizes must be >= 1 and vectors 1..8");
  GemvProblem p;
  p.form = row_major != transposed ? GemvForm::Dots : GemvForm::Columns;
  p.rows = row_major ? sizes[0] : sizes[1];
  p.cols = row_major ? sizes[1] : sizes[0];
  p.vectors = vectors;
  return gemv_bucket(p);
}

// The tune-syntax shape of a bucket's timing problem (row-major A = R).
std::string shape_of(const GemvBucketShape& b) {
  return std::to_string(b.rows) + "x" + std::to_string(b.cols) + (b.form == GemvForm::Dots ? ":N" : ":T") +
         (b.vectors > 1 ? ":v" + std::to_string(b.vectors) : "");
}

template <typename T>
class GemvSubject : public TuningSubject {
 public:
  explicit GemvSubject(std::string bucket) : bucket_(std::move(bucket)), shape_(gemv_bucket_problem(bucket_)) {}

  TuningKey key() const override { return {kGemvOp, dtype_of<T>().name, bucket_}; }
  std::string family() const override { return "gemv"; }
  std::string timing_shape() const override { return shape_of(shape_); }
  SearchSpace search_space(const DeviceInfo& device) const override {
    return gemv_search_space(dtype_of<T>(), bucket_, device);
  }
  Config default_config(const DeviceInfo& device) const override {
    return gemv_default_config(dtype_of<T>(), bucket_, device);
  }
  BuildOptions build_options(const Config& config) const override {
    return gemv_build_options(dtype_of<T>(), config, shape_.form, shape_.vectors);
  }

  void prepare(const cl::CommandQueue& queue, std::uint64_t seed) override {
    std::mt19937_64 random(seed);
    queue_ = queue;
    const cl::Context context = queue.getInfo<CL_QUEUE_CONTEXT>();
    const std::vector<T> block = random_values<T>(65537, random);
    auto filled = [&](std::uint64_t count) { return upload(context, queue_, repeated_values(block, count)); };
    timing_ = problem(shape_.rows, shape_.cols);
    timing_r_ = filled(shape_.rows * shape_.cols);
    timing_x_ = filled(shape_.vectors * timing_.depth());
    timing_y_ = filled(shape_.vectors * timing_.length());
    prepare_verification(context, random);
  }

  std::vector<cl::Event> run(cl::CommandQueue& queue, const Config& config) override {
    GemvProblem p = timing_;
    p.r = &timing_r_, p.ldr = shape_.cols;
    p.x = &timing_x_, p.ldx = p.depth();
    p.y = &timing_y_, p.ldy = p.length();
    std::vector<cl::Event> events;
    enqueue_gemv<T>(queue_target(kGemvOp, queue), queue, p, 1, 0.5, nullptr, &config, &events);
    return events;
  }

  std::string verify(cl::CommandQueue& queue, const Config& config) override;

  double work() const override { return static_cast<double>(shape_.rows * shape_.cols * sizeof(T)); }
  const char* work_unit() const override { return "byte"; }

 private:
  // Ragged, with offsets, a padded leading dimension and y at step 2 (multiples of 16 where the configuration's
  // vector width must survive, so the program verified is the one timed).
  static constexpr std::uint64_t kShort = 131, kLong = 1031, kOffset = 16, kYOffset = 3;
  static constexpr double kAlpha = 0.75, kBeta = -0.5;

  GemvProblem problem(std::uint64_t rows, std::uint64_t cols) const {
    GemvProblem p;
    p.form = shape_.form, p.rows = rows, p.cols = cols, p.vectors = shape_.vectors;
    return p;
  }

  void prepare_verification(const cl::Context& context, std::mt19937_64& random);

  std::string bucket_;
  GemvBucketShape shape_;
  cl::CommandQueue queue_;
  GemvProblem timing_, verify_;
  cl::Buffer timing_r_, timing_x_, timing_y_, verify_r_, verify_x_, verify_y_;
  std::vector<T> r_values_, x_values_, y_values_;
  std::vector<bool> inside_;  // the elements of y the call writes
  std::vector<std::vector<double>> expected_, bounds_;
};

template <typename T>
void GemvSubject<T>::prepare_verification(const cl::Context& context, std::mt19937_64& random) {
  const bool dots = shape_.form == GemvForm::Dots;
  verify_ = problem(dots ? kShort : kLong, dots ? kLong : kShort);
  GemvProblem& p = verify_;
  p.r_offset = kOffset, p.ldr = round_up(p.cols, 16) + 16;
  p.x_offset = kOffset, p.ldx = round_up(p.depth(), 16) + 16;
  p.y_offset = kYOffset, p.incy = 2, p.ldy = 2 * p.length() + 5;
  r_values_ = random_values<T>(p.r_offset + p.rows * p.ldr, random);
  x_values_ = random_values<T>(p.x_offset + p.vectors * p.ldx, random);
  y_values_ = random_values<T>(p.y_offset + p.vectors * p.ldy, random);
  verify_r_ = upload(context, queue_, r_values_);
  verify_x_ = upload(context, queue_, x_values_);
  verify_y_ = cl::Buffer(context, CL_MEM_READ_WRITE, y_values_.size() * sizeof(T));
  p.r = &verify_r_, p.x = &verify_x_, p.y = &verify_y_;
  inside_.assign(y_values_.size(), false);
  for (std::uint64_t v = 0; v < p.vectors; ++v)
    for (std::uint64_t i = 0; i < p.length(); ++i) inside_[p.y_offset + v * p.ldy + i * 2] = true;
  const auto trans = dots ? reference::Transpose::No : reference::Transpose::Yes;
  for (double beta : {0.0, kBeta}) {
    std::vector<T> result = y_values_;
    std::vector<double> bound(result.size(), 0.0), magnitude;
    for (std::uint64_t v = 0; v < p.vectors; ++v) {
      T* y = result.data() + p.y_offset + v * p.ldy;
      reference::gemv(reference::Layout::RowMajor, trans, p.rows, p.cols, kAlpha, r_values_.data() + p.r_offset, p.ldr,
                      x_values_.data() + p.x_offset + v * p.ldx, 1, beta, y, 2, &magnitude);
      for (std::uint64_t i = 0; i < p.length(); ++i)
        bound[p.y_offset + v * p.ldy + i * 2] = reference::storage_tolerance<T>(p.depth(), magnitude[i], y[i * 2]);
    }
    expected_.emplace_back(result.begin(), result.end());
    bounds_.push_back(std::move(bound));
  }
}

template <typename T>
std::string GemvSubject<T>::verify(cl::CommandQueue& queue, const Config& config) {
  for (std::size_t pass = 0; pass < expected_.size(); ++pass) {
    const bool beta_zero = pass == 0;
    std::vector<T> start = y_values_;
    for (std::size_t i = 0; i < start.size(); ++i)
      if (beta_zero && inside_[i]) start[i] = static_cast<T>(std::numeric_limits<float>::quiet_NaN());
    queue.enqueueWriteBuffer(verify_y_, CL_TRUE, 0, start.size() * sizeof(T), start.data());
    const ComputeType<T> alpha = kAlpha, beta = beta_zero ? 0.0 : kBeta;
    enqueue_gemv<T>(queue_target(kGemvOp, queue), queue, verify_, alpha, beta, nullptr, &config).wait();
    const auto got = download<T>(queue, verify_y_, start.size());
    const std::string miss = compare_within_bounds(got, expected_[pass], bounds_[pass], "y");
    if (!miss.empty()) return miss + (beta_zero ? " (beta = 0 over NaN)" : "");
  }
  return {};
}

}  // namespace

std::unique_ptr<TuningSubject> make_gemv_subject(const std::string& dtype, const std::string& bucket) {
  if (dtype == "float") return std::make_unique<GemvSubject<float>>(bucket);
  if (dtype == "double") return std::make_unique<GemvSubject<double>>(bucket);
  if (dtype == "half") return std::make_unique<GemvSubject<half>>(bucket);
  throw Error(kGemvOp, "dtype", CL_INVALID_VALUE, "'" + dtype + "' is not float, double or half");
}

std::vector<TunableOp> gemv_tunable_ops() {
  TunableOp op;
  std::vector<std::string> shapes, names;
  for (const auto& bucket : gemv_buckets()) {
    shapes.push_back(shape_of(gemv_bucket_problem(bucket)));
    names.push_back(bucket);
  }
  std::string list;
  for (const auto& name : names) list += (list.empty() ? "" : ", ") + name;
  op.description = {kGemvOp,
                    "gemv",
                    {"float", "double", "half"},
                    "MxN[:N|T][:row|col][:vV] (A is m x n as in BLAS; transpose; layout; V vectors at once, 1..8, as "
                    "gemm with m or n <= 8 runs), e.g. 8192x8192:T; tuned per shape bucket: " +
                        list,
                    shapes};
  op.make_subject = [](const std::string& dtype, const std::string& shape) {
    return make_gemv_subject(dtype, bucket_of_shape(shape));
  };
  return {op};
}

}  // namespace tilecl::detail
