// The tuning subject of half / bfloat16 / TF32 gemm: one shape class, timed at the first call's own shape (scaled
// down when huge) with the class's transposes, verified at two ragged shapes against a double-precision reference
// within the format's error bound (ops/gemm/mma_accuracy.hpp): one whose offsets and leading dimensions make the
// tensor-core kernel pack its operands, and one it reads in place, there with beta = 0 over NaN.
#include <algorithm>
#include <cmath>
#include <limits>

#include "ops/gemm/mma.hpp"
#include "ops/gemm/mma_accuracy.hpp"
#include "ops/gemm/mma_plan.hpp"
#include "ops/gemm/mma_shapes.hpp"
#include "ops/gemm/shapes.hpp"
#include "reference/gemm_reference.hpp"
#include "tuning/scratch.hpp"

namespace tilecl::detail::gemm::mma {
namespace {

// Room to compile and time the model's best tilings: a tensor-core program takes about a second to build.
constexpr double kFirstUseBudgetMs = 4000;
constexpr std::size_t kFirstUseCandidates = 4;
// The timed shape's size cap on GPUs (CPUs: 2^29, as float gemm): 2^36 multiply-adds is 4096^3, half a millisecond on
// an H200's tensor cores. Smaller, the tilings' tile counts no longer fill many waves of work-groups and the timing
// favours the big tiles (at 2048^3 128 x 256 ran one wave, 128 x 128 two; at 8192^3 128 x 128 is 15% faster).
constexpr double kTimedMultiplyAdds = 0x1p36;

Transpose trans(bool yes) { return yes ? Transpose::Yes : Transpose::No; }

reference::Transpose ref(bool yes) { return yes ? reference::Transpose::Yes : reference::Transpose::No; }

// The key's packing part: which operands the call makes the tensor-core kernel pack. It splits a class because
// packing costs a launch per operand: timed on aligned operands, the tensor-core kernel won small classes whose
// calls then packed and ran 2-2.5x slower than float gemm (H100, half 128 x 120 x 85 and 16 x 3248 x 32 with
// padded leading dimensions, bench/results/nvidia-h100/session12/run1).
std::string packing_of(const FormatInfo& format, const KernelProblem& p) {
  const char* names[] = {"", ":pack-a", ":pack-b", ":pack-ab"};
  return names[packed_operands(format, p)];
}

// A timing leading dimension with the call's packing: the stored columns rounded up to 16 bytes, one more element
// when the call's operand is packed.
std::uint64_t timing_ld(const FormatInfo& format, std::uint64_t cols, bool packed) {
  return round_up(std::max<std::uint64_t>(cols, 1), static_cast<std::uint64_t>(format.chunk)) + (packed ? 1 : 0);
}

// Values uniform in [-1, 1), stored in T.
template <typename T>
std::vector<T> random_stored(std::size_t count, std::mt19937_64& random) {
  std::uniform_real_distribution<float> distribution(-1.0f, 1.0f);
  std::vector<T> values(count);
  for (auto& value : values) value = T(distribution(random));
  return values;
}

template <typename T>
std::vector<double> widened(const std::vector<T>& values) {
  return std::vector<double>(values.begin(), values.end());
}

// One verification run: a ragged problem with its operands and the expected C with its error bounds.
struct Check {
  std::uint64_t m, n, k, lda, ldb, ldc, offset;
  double beta;
  cl::Buffer a, b, c;
  std::vector<double> start, expected, bound;  // C before the call (NaN inside C when beta == 0) and after
};

template <typename T>
class MmaSubject : public TuningSubject {
 public:
  MmaSubject(const FormatInfo& format, const KernelProblem& problem)
      : format_(format), problem_(problem), timed_(timed_problem(problem, false, kTimedMultiplyAdds)) {}

  TuningKey key() const override {
    return {"gemm_mma", format_.dtype->name, class_name(problem_) + packing_of(format_, problem_)};
  }
  std::string family() const override { return "gemm_mma"; }
  std::string timing_shape() const override {
    std::string sizes = std::to_string(timed_.m) + "x" + std::to_string(timed_.n) + "x" + std::to_string(timed_.k);
    if (!timed_.trans_a && !timed_.trans_b) return sizes;
    return sizes + ":" + (timed_.trans_a ? "T" : "N") + (timed_.trans_b ? "T" : "N");
  }
  SearchSpace search_space(const DeviceInfo& /*device*/) const override { return variants_for(format_.format).space; }
  Config default_config(const DeviceInfo& device) const override {
    return ranked_configs(format_, problem_, device).front();
  }
  BuildOptions build_options(const Config& config) const override {
    const bool ptx = device_ != nullptr && uses_ptx(*device_);  // before prepare(): as for a device without it
    return main_options(format_, config, make_plan(format_, config, timed_, ptx));
  }
  std::vector<Config> first_use_candidates(const DeviceInfo& device) const override {
    std::vector<Config> ranked = ranked_configs(format_, problem_, device);
    if (ranked.size() > kFirstUseCandidates) ranked.erase(ranked.begin() + kFirstUseCandidates - 1, ranked.end() - 1);
    return ranked;  // the model's best, and the last (the portable fallback)
  }
  double first_use_budget_ms(double /*default_ms*/) const override { return kFirstUseBudgetMs; }

  void prepare(const cl::CommandQueue& queue, std::uint64_t seed) override {
    queue_ = queue;
    const cl::Device device = queue.getInfo<CL_QUEUE_DEVICE>();
    device_ = &device_info(device);
    const cl::Context context = queue.getInfo<CL_QUEUE_CONTEXT>();
    timed_ = timed_problem(problem_, device_->is_cpu(), device_->is_cpu() ? 0x1p33 : kTimedMultiplyAdds);
    std::mt19937_64 random(seed);
    const std::vector<T> block = random_stored<T>(65537, random);
    const unsigned packed = packed_operands(format_, problem_);
    timing_lda_ = timing_ld(format_, timed_.trans_a ? timed_.m : timed_.k, (packed & 1u) != 0);
    timing_ldb_ = timing_ld(format_, timed_.trans_b ? timed_.k : timed_.n, (packed & 2u) != 0);
    timing_a_ = upload_repeated(context, queue_, block, (timed_.trans_a ? timed_.k : timed_.m) * timing_lda_);
    timing_b_ = upload_repeated(context, queue_, block, (timed_.trans_b ? timed_.n : timed_.k) * timing_ldb_);
    timing_c_ = upload_repeated(context, queue_, block, timed_.m * timed_.n);
    checks_.clear();
    checks_.push_back(make_check(context, random, 3, -0.5));  // odd offsets and leading dimensions: packed
    checks_.push_back(make_check(context, random, 0, 0.0));   // aligned: read in place; beta = 0 over NaN
  }

  std::vector<cl::Event> run(cl::CommandQueue& queue, const Config& config) override {
    const KernelProblem& p = timed_;
    std::vector<cl::Event> events;
    gemm_mma_with<T>(config, queue, Layout::RowMajor, trans(p.trans_a), trans(p.trans_b), p.m, p.n, p.k, 1.0f,
                     timing_a_, 0, timing_lda_, timing_b_, 0, timing_ldb_, 0.5f, timing_c_, 0, p.n, nullptr, &events);
    return events;
  }

  std::string verify(cl::CommandQueue& queue, const Config& config) override {
    for (Check& check : checks_) {
      std::vector<T> start(check.start.size());
      for (std::size_t i = 0; i < start.size(); ++i) start[i] = T(static_cast<float>(check.start[i]));
      queue.enqueueWriteBuffer(check.c, CL_TRUE, 0, start.size() * sizeof(T), start.data());
      gemm_mma_with<T>(config, queue, Layout::RowMajor, trans(problem_.trans_a), trans(problem_.trans_b), check.m,
                       check.n, check.k, static_cast<float>(kAlpha), check.a, check.offset, check.lda, check.b,
                       check.offset, check.ldb, static_cast<float>(check.beta), check.c, check.offset, check.ldc)
          .wait();
      const std::vector<T> got = download<T>(queue, check.c, start.size());
      for (std::size_t i = 0; i < got.size(); ++i) {
        const double value = static_cast<float>(got[i]);
        if (!(std::abs(value - check.expected[i]) <= check.bound[i]))
          return "element " + std::to_string(i) + " is " + std::to_string(value) + ", expected " +
                 std::to_string(check.expected[i]) + (check.beta == 0 ? " (beta = 0 over NaN)" : "");
      }
    }
    return {};
  }

  double work() const override { return 2.0 * static_cast<double>(timed_.m) * timed_.n * timed_.k; }
  const char* work_unit() const override { return "flop"; }

 private:
  static constexpr double kAlpha = 0.75;

  // A ragged problem (no size a multiple of a tile or of 16 bytes) with the class's transposes: `offset` 3 makes
  // every operand's rows start off 16-byte boundaries, 0 with leading dimensions rounded to 16 keeps them aligned.
  Check make_check(const cl::Context& context, std::mt19937_64& random, std::uint64_t offset, double beta) {
    const bool ta = problem_.trans_a, tb = problem_.trans_b;
    Check check{133, 129, 517, 0, 0, 0, offset, beta, {}, {}, {}, {}, {}, {}};
    if (std::min(problem_.m, problem_.n) <= 32) (problem_.m <= problem_.n ? check.m : check.n) = 3;
    auto ld = [offset](std::uint64_t cols, std::uint64_t extra) { return offset ? cols + extra : round_up(cols, 16); };
    check.lda = ld(ta ? check.m : check.k, 3);
    check.ldb = ld(tb ? check.k : check.n, 5);
    check.ldc = ld(check.n, 2);
    const auto a = random_stored<T>(offset + (ta ? check.k : check.m) * check.lda, random);
    const auto b = random_stored<T>(offset + (tb ? check.n : check.k) * check.ldb, random);
    const auto c = random_stored<T>(offset + check.m * check.ldc, random);
    check.a = upload(context, queue_, a);
    check.b = upload(context, queue_, b);
    check.c = cl::Buffer(context, CL_MEM_READ_WRITE, c.size() * sizeof(T));
    check.start = widened(c);
    check.expected = check.start;
    std::vector<double> magnitude;
    const std::vector<double> wa = widened(a), wb = widened(b);
    reference::gemm(reference::Layout::RowMajor, ref(ta), ref(tb), check.m, check.n, check.k, kAlpha,
                    wa.data() + offset, check.lda, wb.data() + offset, check.ldb, beta, check.expected.data() + offset,
                    check.ldc, &magnitude);
    check.bound.assign(c.size(), 0.0);  // outside C: unchanged, bit for bit
    for (std::uint64_t i = 0; i < check.m; ++i)
      for (std::uint64_t j = 0; j < check.n; ++j) {
        const std::uint64_t at = i * check.ldc + j;
        check.bound[offset + at] = error_bound(format_.format, check.k, magnitude[at], check.expected[offset + at]);
        if (beta == 0) check.start[offset + at] = std::numeric_limits<double>::quiet_NaN();
      }
    return check;
  }

  const FormatInfo& format_;
  KernelProblem problem_, timed_;
  const DeviceInfo* device_ = nullptr;
  cl::CommandQueue queue_;
  cl::Buffer timing_a_, timing_b_, timing_c_;
  std::uint64_t timing_lda_ = 1, timing_ldb_ = 1;  // the call's packing (packing_of)
  std::vector<Check> checks_;
};

}  // namespace

std::unique_ptr<TuningSubject> make_subject(const FormatInfo& format, const KernelProblem& problem) {
  switch (format.format) {
    case Format::F16:
      return std::make_unique<MmaSubject<half>>(format, problem);
    case Format::BF16:
      return std::make_unique<MmaSubject<bfloat16>>(format, problem);
    case Format::TF32:
      break;
  }
  return std::make_unique<MmaSubject<float>>(format, problem);
}

}  // namespace tilecl::detail::gemm::mma
