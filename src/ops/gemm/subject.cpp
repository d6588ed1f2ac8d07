#include "ops/gemm/subject.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "ops/gemm.hpp"
#include "ops/gemm/gemv_variant.hpp"
#include "ops/gemm/plan.hpp"
#include "ops/gemm/shapes.hpp"
#include "ops/gemm/variants.hpp"
#include "reference/gemm_reference.hpp"
#include "tuning/scratch.hpp"

namespace tilecl::detail::gemm {
namespace {

// The first-use budget when TILECL_TUNE_BUDGET_MS is not set: room to compile and time the model's few best
// tilings (a compile takes 0.1-0.5 s on GPUs); the disk cache makes it once per device.
constexpr double kFirstUseBudgetMs = 1500;
constexpr std::size_t kFirstUseCandidates = 4;

reference::Transpose ref(bool trans) { return trans ? reference::Transpose::Yes : reference::Transpose::No; }

template <typename T>
class GemmSubject : public TuningSubject {
 public:
  explicit GemmSubject(const KernelProblem& problem) : problem_(problem), timed_(timed_problem(problem, false)) {}

  TuningKey key() const override { return {kOp, dtype_of<T>().name, class_name(problem_)}; }
  std::string family() const override { return kFamily; }
  std::string timing_shape() const override {
    std::string sizes = std::to_string(timed_.m) + "x" + std::to_string(timed_.n) + "x" + std::to_string(timed_.k);
    if (!timed_.trans_a && !timed_.trans_b) return sizes;
    return sizes + ":" + (timed_.trans_a ? "T" : "N") + (timed_.trans_b ? "T" : "N");
  }
  SearchSpace search_space(const DeviceInfo& /*device*/) const override {
    return space_for(dtype_of<T>(), problem_);  // with the gemv variant wherever m or n is 1..8
  }
  Config default_config(const DeviceInfo& device) const override {
    return gemm::default_config(dtype_of<T>(), problem_, device);
  }
  BuildOptions build_options(const Config& config) const override {
    if (config.variant == "gemv") return gemv_options(dtype_of<T>(), config, timed_);
    return main_options(dtype_of<T>(), config, make_plan(config, timed_));
  }
  std::vector<Config> first_use_candidates(const DeviceInfo& device) const override {
    std::vector<Config> ranked = ranked_configs(dtype_of<T>(), problem_, device);
    ranked.resize(std::min(ranked.size(), kFirstUseCandidates));
    return ranked;
  }
  double first_use_budget_ms(double /*default_ms*/) const override { return kFirstUseBudgetMs; }

  void prepare(const cl::CommandQueue& queue, std::uint64_t seed) override {
    queue_ = queue;
    const cl::Context context = queue.getInfo<CL_QUEUE_CONTEXT>();
    timed_ = timed_problem(problem_, queue.getInfo<CL_QUEUE_DEVICE>().getInfo<CL_DEVICE_TYPE>() == CL_DEVICE_TYPE_CPU);
    std::mt19937_64 random(seed);
    const std::vector<T> block = random_values<T>(65537, random);
    timing_a_ = upload_repeated(context, queue_, block, timed_.m * timed_.k);
    timing_b_ = upload_repeated(context, queue_, block, timed_.k * timed_.n);
    timing_c_ = upload_repeated(context, queue_, block, timed_.m * timed_.n);
    prepare_verification(context, random);
  }

  std::vector<cl::Event> run(cl::CommandQueue& queue, const Config& config) override {
    const KernelProblem& p = timed_;
    return gemm_with_events<T>(config, queue, Layout::RowMajor, trans(p.trans_a), trans(p.trans_b), p.m, p.n, p.k, T(1),
                               timing_a_, 0, p.trans_a ? p.m : p.k, timing_b_, 0, p.trans_b ? p.k : p.n, T(0.5),
                               timing_c_, 0, p.n);
  }

  std::string verify(cl::CommandQueue& queue, const Config& config) override {
    for (std::size_t pass = 0; pass < 2; ++pass) {
      const bool beta_zero = pass == 0;
      std::vector<T> start = verify_c_values_;
      if (beta_zero)
        for (std::size_t i = 0; i < start.size(); ++i)
          if (inside_[i]) start[i] = std::numeric_limits<T>::quiet_NaN();
      queue.enqueueWriteBuffer(verify_c_, CL_TRUE, 0, start.size() * sizeof(T), start.data());
      const Shape& s = verify_;
      gemm_with<T>(config, queue, Layout::RowMajor, trans(s.trans_a), trans(s.trans_b), s.m, s.n, s.k, T(kAlpha),
                   verify_a_, kOffset, s.lda, verify_b_, kOffset, s.ldb, T(beta_zero ? 0.0 : kBeta), verify_c_, kOffset,
                   s.ldc)
          .wait();
      const std::string difference = compare(download<T>(queue, verify_c_, start.size()), pass);
      if (!difference.empty()) return difference + (beta_zero ? " (beta = 0 over NaN)" : "");
    }
    return {};
  }

  double work() const override { return 2.0 * static_cast<double>(timed_.m) * timed_.n * timed_.k; }
  const char* work_unit() const override { return "flop"; }

 private:
  static constexpr std::uint64_t kVerifyK = 517;  // splits into several slices of 16, 32 or 128
  static constexpr std::uint64_t kOffset = 3;
  static constexpr double kAlpha = 0.75, kBeta = -0.5;

  struct Shape {
    std::uint64_t m, n, k, lda, ldb, ldc;
    bool trans_a, trans_b;
  };

  static Transpose trans(bool yes) { return yes ? Transpose::Yes : Transpose::No; }

  // A ragged problem (no dimension a multiple of any tile or vector width) with the class's transposes, offsets
  // and leading dimensions that break vector alignment. Elements outside the matrix must come back unchanged.
  void prepare_verification(const cl::Context& context, std::mt19937_64& random) {
    const std::string category = category_of(problem_).name;
    Shape s{133, 129, kVerifyK, 0, 0, 0, problem_.trans_a, problem_.trans_b};
    if (std::min(problem_.m, problem_.n) <= 32) (problem_.m <= problem_.n ? s.m : s.n) = 3;
    s.lda = (s.trans_a ? s.m : s.k) + 3;
    s.ldb = (s.trans_b ? s.k : s.n) + 5;
    s.ldc = s.n + 2;
    verify_ = s;
    const auto a = random_values<T>(kOffset + (s.trans_a ? s.k : s.m) * s.lda, random);
    const auto b = random_values<T>(kOffset + (s.trans_b ? s.n : s.k) * s.ldb, random);
    verify_c_values_ = random_values<T>(kOffset + s.m * s.ldc, random);
    verify_a_ = upload(context, queue_, a);
    verify_b_ = upload(context, queue_, b);
    verify_c_ = cl::Buffer(context, CL_MEM_READ_WRITE, verify_c_values_.size() * sizeof(T));
    inside_.assign(verify_c_values_.size(), false);
    for (std::uint64_t i = 0; i < s.m; ++i)
      for (std::uint64_t j = 0; j < s.n; ++j) inside_[kOffset + i * s.ldc + j] = true;
    for (double beta : {0.0, kBeta}) {
      std::vector<T> c = verify_c_values_;
      std::vector<double> magnitude;
      reference::gemm(reference::Layout::RowMajor, ref(s.trans_a), ref(s.trans_b), s.m, s.n, s.k, kAlpha,
                      a.data() + kOffset, s.lda, b.data() + kOffset, s.ldb, beta, c.data() + kOffset, s.ldc,
                      &magnitude);
      std::vector<double> bound(c.size(), 0.0);
      for (std::size_t i = 0; i < magnitude.size(); ++i)
        bound[kOffset + i] = reference::gemm_tolerance<T>(s.k, magnitude[i]);
      expected_.emplace_back(c.begin(), c.end());
      bounds_.push_back(std::move(bound));
    }
  }

  std::string compare(const std::vector<T>& got, std::size_t pass) const {
    for (std::size_t i = 0; i < got.size(); ++i) {
      const double want = expected_[pass][i];
      if (!(std::abs(static_cast<double>(got[i]) - want) <= bounds_[pass][i]))
        return "element " + std::to_string(i) + " is " + std::to_string(got[i]) + ", expected " + std::to_string(want);
    }
    return {};
  }

  KernelProblem problem_, timed_;
  cl::CommandQueue queue_;
  cl::Buffer timing_a_, timing_b_, timing_c_;
  cl::Buffer verify_a_, verify_b_, verify_c_;
  Shape verify_{};
  std::vector<T> verify_c_values_;
  std::vector<bool> inside_;
  std::vector<std::vector<double>> expected_, bounds_;
};

}  // namespace

std::unique_ptr<TuningSubject> make_subject(const DTypeInfo& dtype, const KernelProblem& problem) {
  if (dtype.size == 8) return std::make_unique<GemmSubject<double>>(problem);
  return std::make_unique<GemmSubject<float>>(problem);
}

}  // namespace tilecl::detail::gemm
