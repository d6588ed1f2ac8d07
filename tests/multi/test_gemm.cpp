#include <doctest/doctest.h>

#include <cmath>
#include <limits>

#include "multi/multi_support.hpp"
#include "reference/gemm_reference.hpp"
#include "support/fixture.hpp"
#include "tilecl/error.hpp"
#include "tilecl/gemm.hpp"
#include "tilecl/multi_device.hpp"
#include "tilecl/tuning.hpp"

using namespace tilecl;
namespace multi = tilecl::test::multi;

namespace {

constexpr double kSentinel = 4321.0;

struct Shape {
  Layout layout = Layout::RowMajor;
  Transpose trans_a = Transpose::No, trans_b = Transpose::No;
  std::size_t m = 1, n = 1, k = 1;
  double alpha = 1.0, beta = 0.0;
  std::size_t ld_extra = 0;

  std::string describe() const {
    return std::string(layout == Layout::RowMajor ? "row " : "col ") + (trans_a == Transpose::Yes ? "T" : "N") +
           (trans_b == Transpose::Yes ? "T " : "N ") + std::to_string(m) + "x" + std::to_string(n) + "x" +
           std::to_string(k) + " alpha " + std::to_string(alpha) + " beta " + std::to_string(beta) + " ld+" +
           std::to_string(ld_extra);
  }
};

reference::Layout ref(Layout layout) {
  return layout == Layout::RowMajor ? reference::Layout::RowMajor : reference::Layout::ColMajor;
}
reference::Transpose ref(Transpose trans) {
  return trans == Transpose::Yes ? reference::Transpose::Yes : reference::Transpose::No;
}

// One problem's host operands: random values in the matrices, the sentinel in padding and guards.
template <typename T>
struct Operands {
  Shape s;
  std::size_t lda, ldb, ldc;
  multi::GuardedHost<T> a, b, c;
  std::vector<T> c_start;

  static std::size_t ld(const Shape& s, reference::Extent e) {
    return reference::min_ld(ref(s.layout), e) + s.ld_extra;
  }
  static std::size_t count(const Shape& s, reference::Extent e) {
    return reference::required_elements(ref(s.layout), e, ld(s, e));
  }
  explicit Operands(const Shape& shape)
      : s(shape),
        lda(ld(s, reference::stored_extent(ref(s.trans_a), s.m, s.k))),
        ldb(ld(s, reference::stored_extent(ref(s.trans_b), s.k, s.n))),
        ldc(ld(s, {s.m, s.n})),
        a(count(s, reference::stored_extent(ref(s.trans_a), s.m, s.k)), T(kSentinel)),
        b(count(s, reference::stored_extent(ref(s.trans_b), s.k, s.n)), T(kSentinel)),
        c(count(s, {s.m, s.n}), T(kSentinel)) {
    auto random = test::random_engine("multi gemm " + s.describe());
    fill(a, reference::stored_extent(ref(s.trans_a), s.m, s.k), lda, random);
    fill(b, reference::stored_extent(ref(s.trans_b), s.k, s.n), ldb, random);
    fill(c, {s.m, s.n}, ldc, random);
    c_start.assign(c.data(), c.data() + c.size());
  }

  void fill(multi::GuardedHost<T>& x, reference::Extent e, std::size_t ld, std::mt19937_64& random) {
    const auto values = test::random_vector<T>(e.rows * e.cols, random);
    for (std::size_t r = 0; r < e.rows; ++r)
      for (std::size_t j = 0; j < e.cols; ++j)
        x[reference::matrix_index(ref(s.layout), r, j, ld)] = values[r * e.cols + j];
  }

  bool in_c(std::size_t i) const {
    const std::size_t major = i / ldc, minor = i % ldc;
    return s.layout == Layout::RowMajor ? major < s.m && minor < s.n : major < s.n && minor < s.m;
  }
};

template <typename T>
void run_multi(DeviceSet& set, Operands<T>& o) {
  const Shape& s = o.s;
  gemm<T>(set, s.layout, s.trans_a, s.trans_b, s.m, s.n, s.k, T(s.alpha), o.a.data(), o.lda, o.b.data(), o.ldb,
          T(s.beta), o.c.data(), o.ldc);
}

// The single-device call on `queue` with the operands' starting values; returns C as it ends.
template <typename T>
std::vector<T> run_single(cl::CommandQueue& queue, const Operands<T>& o) {
  const Shape& s = o.s;
  const auto context = queue.getInfo<CL_QUEUE_CONTEXT>();
  const auto buffer = [&](const T* data, std::size_t count) {
    return cl::Buffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, std::max<std::size_t>(count, 1) * sizeof(T),
                      const_cast<T*>(data));
  };
  cl::Buffer a = buffer(o.a.data(), o.a.size()), b = buffer(o.b.data(), o.b.size());
  cl::Buffer c = buffer(o.c_start.data(), o.c_start.size());
  gemm<T>(queue, s.layout, s.trans_a, s.trans_b, s.m, s.n, s.k, T(s.alpha), a, 0, o.lda, b, 0, o.ldb, T(s.beta), c, 0,
          o.ldc)
      .wait();
  std::vector<T> result(o.c_start.size());
  if (!result.empty()) queue.enqueueReadBuffer(c, CL_TRUE, 0, result.size() * sizeof(T), result.data());
  return result;
}

// C against the host reference (within the rounding bound of a k-term sum), the padding and guards untouched,
// and, when given, against the single-device result: equal bit for bit (`identical`) or within the bound.
template <typename T>
void check_result(const Operands<T>& o, const std::vector<T>* single, bool identical) {
  const Shape& s = o.s;
  std::vector<T> want = o.c_start;
  std::vector<double> magnitude;
  reference::gemm(ref(s.layout), ref(s.trans_a), ref(s.trans_b), s.m, s.n, s.k, s.alpha, o.a.data(), o.lda, o.b.data(),
                  o.ldb, s.beta, want.data(), o.ldc, &magnitude);
  std::size_t bad = 0;
  for (std::size_t i = 0; i < want.size(); ++i) {
    const double got = o.c[i];
    bool ok = o.in_c(i) ? std::abs(got - double(want[i])) <=
                              reference::gemm_tolerance<T>(s.k, magnitude[i]) +
                                  2 * std::numeric_limits<T>::epsilon() * std::abs(double(want[i]))
                        : o.c[i] == T(kSentinel);
    if (ok && single != nullptr && o.in_c(i))
      ok = identical
               ? (*single)[i] == o.c[i]
               : std::abs(got - double((*single)[i])) <= 2 * reference::gemm_tolerance<T>(s.k, magnitude[i]) +
                                                             4 * std::numeric_limits<T>::epsilon() * std::abs(got);
    if (!ok && bad++ < 5)
      FAIL_CHECK("C element " << i << " is " << got << ", reference " << want[i]
                              << (single ? ", single device " + std::to_string((*single)[i]) : std::string()));
  }
  CHECK_MESSAGE(bad == 0, bad << " of " << want.size() << " elements of C are wrong");
  o.c.check_guards("C");
  o.a.check_guards("A (read only)");
}

template <typename T>
void check_gemm(DeviceSet& set, const Shape& s, cl::CommandQueue* single_queue = nullptr, bool identical = false) {
  CAPTURE(s.describe());
  Operands<T> o(s);
  std::vector<T> single;
  if (single_queue != nullptr) single = run_single(*single_queue, o);
  run_multi(set, o);
  check_result(o, single_queue ? &single : nullptr, identical);
}

// The base shape in the eight (layout, trans_a, trans_b) combinations: bit 2, 1, 0 of the index.
std::vector<Shape> every_orientation(const Shape& base) {
  std::vector<Shape> all(8, base);
  for (int i = 0; i < 8; ++i) {
    all[i].layout = i & 4 ? Layout::ColMajor : Layout::RowMajor;
    all[i].trans_a = i & 2 ? Transpose::Yes : Transpose::No;
    all[i].trans_b = i & 1 ? Transpose::Yes : Transpose::No;
  }
  return all;
}

}  // namespace

TEST_SUITE("multi.gemm") {
  TEST_CASE("multi gemm: every orientation on 2 and 3 devices, one context and own contexts, equals the reference") {
    // Tall (rows split) and wide (columns split), ragged everywhere, padded leading dimensions.
    const Shape tall{Layout::RowMajor, Transpose::No, Transpose::No, 37, 11, 13, 1.5, 0.0, 3};
    const Shape wide{Layout::RowMajor, Transpose::No, Transpose::No, 7, 41, 5, -0.5, 2.0, 0};
    {
      const auto chosen = multi::alike(2);
      CAPTURE(multi::describe(chosen, true));
      DeviceSet set(multi::queues(chosen, true), {{}, 2});
      for (const Shape& s : every_orientation(tall)) check_gemm<float>(set, s);
      for (const Shape& s : every_orientation(wide)) check_gemm<float>(set, s);
    }
    // Three devices, one of another driver (its own programs, so fewer orientations), each context its own.
    const auto chosen = multi::devices(3);
    CAPTURE(multi::describe(chosen, false));
    DeviceSet set(multi::queues(chosen, false), {{}, 3});
    check_gemm<float>(set, tall);
    check_gemm<float>(set, every_orientation(wide)[5]);
  }

  TEST_CASE("multi gemm: awkward shapes -- one row per device, more devices than rows, k = 0, alpha = 0") {
    const auto chosen = multi::alike(3);
    DeviceSet set(multi::queues(chosen, false), {{}, 2});
    const Shape shapes[] = {
        {Layout::RowMajor, Transpose::No, Transpose::No, 3, 3, 4, 1.0, 0.0, 0},     // one row each
        {Layout::ColMajor, Transpose::Yes, Transpose::No, 1, 2, 9, 1.0, 1.0, 1},    // fewer rows than devices
        {Layout::RowMajor, Transpose::No, Transpose::Yes, 2, 1, 17, 2.0, -1.0, 0},  // one column
        {Layout::RowMajor, Transpose::No, Transpose::No, 1, 1, 1, 1.0, 0.0, 0},
        {Layout::ColMajor, Transpose::No, Transpose::No, 19, 23, 0, 1.0, 3.0, 2},   // k = 0: C = beta C
        {Layout::RowMajor, Transpose::Yes, Transpose::Yes, 13, 5, 7, 0.0, 0.5, 1},  // alpha = 0
        {Layout::RowMajor, Transpose::No, Transpose::No, 97, 3, 29, 1.0, 0.0, 0},   // pieces of uneven rows
    };
    for (const Shape& s : shapes) check_gemm<float>(set, s, &set.queue(0));
  }

  TEST_CASE("multi gemm: double, uneven weights and one piece per device") {
    const auto chosen = multi::alike(2);
    const auto shapes = every_orientation({Layout::RowMajor, Transpose::No, Transpose::No, 29, 17, 31, 1.0, 0.5, 1});
    for (std::size_t pieces : {1, 3}) {
      CAPTURE(pieces);
      DeviceSet set(multi::queues(chosen, false), {{3.0, 1.0}, pieces});
      check_gemm<double>(set, shapes[pieces == 1 ? 0 : 6]);
    }
  }

  TEST_CASE("multi gemm: several queues on one device") {
    const cl::Device d = multi::devices(1)[0];
    cl::Context context(d);
    DeviceSet set({cl::CommandQueue(context, d), cl::CommandQueue(context, d), cl::CommandQueue(context, d)});
    check_gemm<float>(set, {Layout::RowMajor, Transpose::No, Transpose::No, 50, 20, 30, 1.0, 1.0, 0}, &set.queue(0));
  }

  TEST_CASE("multi gemm: bit-identical to the single-device call when every piece runs its configuration") {
    // Both devices alike, each piece the single call's configuration (an override for the device's fingerprint):
    // every element is the same dot product in the same order.
    const auto chosen = multi::alike(2);
    DeviceSet set(multi::queues(chosen, false));
    const Shape s{Layout::RowMajor, Transpose::No, Transpose::Yes, 45, 18, 33, 1.0, 0.0, 0};
    const auto choice = tuning::parameters_for(set.queue(0), "gemm", "float", "45x18x33");
    tuning::override_parameters(chosen[0], "gemm", "float", choice.parameters);
    tuning::override_parameters(chosen[1], "gemm", "float", choice.parameters);
    check_gemm<float>(set, s, &set.queue(0), true);
    tuning::clear();
  }

  TEST_CASE("multi gemm: devices tuned differently (an override on one fingerprint) agree within the bound") {
    const auto chosen = multi::devices(3);
    DeviceSet set(multi::queues(chosen, false));
    const auto other = chosen.back();  // another driver where the platform has one: its own fingerprint
    tuning::override_parameters(other, "gemm", "float", tuning::Parameters::parse("naive WG_X=8 WG_Y=8"));
    MESSAGE("override on " << other.getInfo<CL_DEVICE_NAME>() << ": naive");
    check_gemm<float>(set, {Layout::ColMajor, Transpose::Yes, Transpose::No, 61, 14, 40, 1.0, 1.0, 0}, &set.queue(0));
    tuning::clear();
  }

  TEST_CASE("multi gemm_strided_batched: products spread over devices, shared operands, gaps between matrices") {
    const auto chosen = multi::alike(3);
    DeviceSet set(multi::queues(chosen, true), {{1.0, 2.0, 1.0}, 2});
    for (std::size_t batch : {1, 2, 7})
      for (std::size_t shared : {0, 1, 2}) {  // none, A shared (stride 0), B shared
        const Shape s{Layout::ColMajor, Transpose::No, Transpose::Yes, 9, 6, 5, 1.25, 0.5, 1};
        CAPTURE(batch);
        CAPTURE(shared);
        std::vector<Operands<float>> each;
        for (std::size_t i = 0; i < batch; ++i) {
          Shape si = s;
          si.alpha = s.alpha;
          each.emplace_back(si);
        }
        // One host array per operand holding every product, stride = span + 3 (a gap of sentinels).
        const std::size_t sa = each[0].a.size() + 3, sb = each[0].b.size() + 3, sc = each[0].c.size() + 3;
        multi::GuardedHost<float> a(sa * batch, float(kSentinel)), b(sb * batch, float(kSentinel)),
            c(sc * batch, float(kSentinel));
        for (std::size_t i = 0; i < batch; ++i) {
          if (shared == 1) each[i].a = each[0].a;
          if (shared == 2) each[i].b = each[0].b;
          std::copy(each[i].a.data(), each[i].a.data() + each[i].a.size(), a.data() + i * sa);
          std::copy(each[i].b.data(), each[i].b.data() + each[i].b.size(), b.data() + i * sb);
          std::copy(each[i].c.data(), each[i].c.data() + each[i].c.size(), c.data() + i * sc);
        }
        gemm_strided_batched<float>(set, s.layout, s.trans_a, s.trans_b, s.m, s.n, s.k, float(s.alpha), a.data(),
                                    each[0].lda, shared == 1 ? 0 : sa, b.data(), each[0].ldb, shared == 2 ? 0 : sb,
                                    float(s.beta), c.data(), each[0].ldc, sc, batch);
        for (std::size_t i = 0; i < batch; ++i) {
          std::copy(c.data() + i * sc, c.data() + i * sc + each[i].c.size(), each[i].c.data());
          check_result<float>(each[i], nullptr, false);
          for (std::size_t g = each[i].c.size(); g < sc && i + 1 < batch; ++g)
            CHECK_MESSAGE(c[i * sc + g] == float(kSentinel), "gap after C " << i << " was written");
        }
        c.check_guards("C batch");
      }
  }

  TEST_CASE("multi gemm: bad arguments raise tilecl::Error naming the argument, before any work") {
    const auto chosen = multi::devices(2);
    DeviceSet set(multi::queues(chosen, false));
    std::vector<float> a(64, 1.0f), b(64, 1.0f), c(64, 0.0f);
    const auto expect = multi::expect_error;
    const auto L = Layout::RowMajor;
    const auto N = Transpose::No;
    expect([&] { gemm<float>(set, L, N, N, 4, 4, 4, 1.f, a.data(), 3, b.data(), 4, 0.f, c.data(), 4); }, "lda",
           CL_INVALID_VALUE);
    expect([&] { gemm<float>(set, L, N, N, 4, 4, 4, 1.f, a.data(), 4, b.data(), 4, 0.f, c.data(), 2); }, "ldc",
           CL_INVALID_VALUE);
    expect([&] { gemm<float>(set, L, N, N, 4, 4, 4, 1.f, nullptr, 4, b.data(), 4, 0.f, c.data(), 4); }, "a",
           CL_INVALID_VALUE);
    expect([&] { gemm<float>(set, L, N, N, 4, 4, 4, 1.f, a.data(), 4, b.data(), 4, 0.f, nullptr, 4); }, "c",
           CL_INVALID_VALUE);
    expect([&] { gemm<float>(set, L, N, N, 4, 4, 4, 1.f, a.data(), 4, b.data(), 4, 0.f, a.data() + 8, 4); }, "c",
           CL_MEM_COPY_OVERLAP);
    expect(
        [&] {
          gemm<float>(set, static_cast<Layout>(7), N, N, 4, 4, 4, 1.f, a.data(), 4, b.data(), 4, 0.f, c.data(), 4);
        },
        "layout", CL_INVALID_VALUE);
    expect(
        [&] {
          gemm<float>(set, L, static_cast<Transpose>(5), N, 0, 0, 0, 1.f, a.data(), 4, b.data(), 4, 0.f, c.data(), 4);
        },
        "trans_a", CL_INVALID_VALUE);
    expect(
        [&] {
          gemm_strided_batched<float>(set, L, N, N, 4, 4, 4, 1.f, a.data(), 4, 16, b.data(), 4, 16, 0.f, c.data(), 4, 8,
                                      2);
        },
        "stride_c", CL_MEM_COPY_OVERLAP);
    // Nothing to do: no pointer is read, nothing is written.
    gemm<float>(set, L, N, N, 0, 4, 4, 1.f, nullptr, 4, nullptr, 4, 0.f, nullptr, 4);
    gemm_strided_batched<float>(set, L, N, N, 4, 4, 4, 1.f, nullptr, 4, 16, nullptr, 4, 16, 0.f, nullptr, 4, 16, 0);
    CHECK(c == std::vector<float>(64, 0.0f));
  }
}
