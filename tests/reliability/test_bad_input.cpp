// The bad-input catalogue: every public op that takes buffers, called with one wrong argument at a time. Each
// row must raise tilecl::Error -- not another exception, not a crash, not silence -- whose message names the op,
// the argument and the OpenCL status. The catalogue prints its size and asserts a minimum, so it only grows.
//
// Policy (documented in the public headers): a zero-sized problem is a no-op that returns a null event and
// touches no buffer, so its buffers may be null or small; arguments that are wrong whatever the size (enum
// values, filter sizes, channels, sigma, weights) are still refused. reduce's Sum of nothing is the exception:
// it writes 0, because its result is defined.
#include <doctest/doctest.h>

#include <boost/compute/container/vector.hpp>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <functional>
#include <iostream>
#include <limits>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <typeinfo>
#include <vector>

#include "dtype.hpp"
#include "launch.hpp"
#include "support/fixture.hpp"
#include "support/guarded_buffer.hpp"
#include "tilecl/boost_compute.hpp"
#include "tilecl/tilecl.hpp"

using namespace tilecl;
using tilecl::test::device;

namespace {

constexpr std::size_t kBufferBytes = 64 * 1024;
constexpr std::size_t kHuge = std::numeric_limits<std::size_t>::max();
constexpr std::size_t kPast32Bits = std::size_t{1} << 31;  // the first extent the kernels cannot index
const std::string kTooSmall = "CL_INVALID_BUFFER_SIZE";
const std::string kInvalidValue = "CL_INVALID_VALUE";
const std::string kOverlap = "CL_MEM_COPY_OVERLAP";

// What the rows share: valid buffers of the test device's context, and the same kinds of objects made wrong.
struct Objects {
  cl::CommandQueue queue = device().queue;
  cl::CommandQueue null_queue;
  cl::Buffer null_buffer;
  cl::Context other_context{device().device};
  cl::Buffer input{device().context, CL_MEM_READ_WRITE, kBufferBytes};
  cl::Buffer output{device().context, CL_MEM_READ_WRITE, kBufferBytes};
  cl::Buffer taps = test::to_device(std::vector<float>(81, 1.0f / 81));
  cl::Buffer foreign{other_context, CL_MEM_READ_WRITE, kBufferBytes};
  // Two sub-buffers of `input` whose byte ranges [0, 4096) and [2048, 6144) overlap.
  cl::Buffer low_half, high_half;
  std::vector<cl::Event> null_event_wait{cl::Event()};
  std::vector<cl::Event> foreign_event_wait;
  std::vector<cl::Event> failed_event_wait;
  // Outputs a kernel may not write: created CL_MEM_READ_ONLY, and a sub-buffer of such a buffer.
  cl::Buffer read_only{device().context, CL_MEM_READ_ONLY, kBufferBytes};
  cl::Buffer read_only_part;

  Objects() {
    cl_buffer_region low{0, 4096}, high{2048, 4096};
    low_half = input.createSubBuffer(CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &low);
    high_half = input.createSubBuffer(CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &high);
    cl::UserEvent event(other_context);
    event.setStatus(CL_COMPLETE);
    foreign_event_wait.push_back(event);
    cl::UserEvent failed(device().context);
    failed.setStatus(-5);  // any negative status is a failure
    failed_event_wait.push_back(failed);
    cl_buffer_region part{0, kBufferBytes / 2};
    read_only_part = read_only.createSubBuffer(0, CL_BUFFER_CREATE_TYPE_REGION, &part);  // inherits CL_MEM_READ_ONLY
  }
};

// Never destroyed, like the fixture's device: OpenCL objects must not outlive the driver at exit.
Objects& objects() {
  static Objects& instance = *new Objects;
  return instance;
}

// Makes the test device look as if it lacked cl_khr_fp64 for the scope of the object (the ops read the same
// cached DeviceInfo), so the refusal of double is exercised through every public op on devices that have fp64.
class WithoutFp64 {
 public:
  WithoutFp64() : info_(const_cast<DeviceInfo&>(device_info(device().device))), had_(info_.fp64) { info_.fp64 = false; }
  ~WithoutFp64() { info_.fp64 = had_; }
  WithoutFp64(const WithoutFp64&) = delete;
  WithoutFp64& operator=(const WithoutFp64&) = delete;

 private:
  DeviceInfo& info_;
  bool had_;
};

// ---- the catalogue --------------------------------------------------------------------------------------

struct BadInput {
  std::string entry;     // the public function called ("gemm", "compute::axpy")
  std::string op;        // the op its message must name ("tilecl::<op>: ")
  std::string label;     // what is wrong
  std::string argument;  // the argument the message must name
  std::string status;    // the OpenCL status it must carry, by name
  std::function<void()> call;
  bool without_fp64 = false;
};

class Catalogue {
 public:
  // A row that calls `valid` (a call object whose defaults make a valid call) after `mutate` made it wrong.
  template <typename Call, typename Mutate>
  void add(const std::string& label, const std::string& argument, const std::string& status, const Call& valid,
           Mutate mutate) {
    Call call = valid;
    mutate(call);
    rows_.push_back({call.entry(), call.op(), label, argument, status, [call]() mutable { call.run(); }, false});
  }
  // The same, run as if the device had no fp64.
  template <typename Call, typename Mutate>
  void add_without_fp64(const std::string& label, const Call& valid, Mutate mutate) {
    add(label, "dtype", "CL_INVALID_DEVICE", valid, mutate);
    rows_.back().without_fp64 = true;
  }
  // Rows every op gets: a null queue, wait lists with a null event, an event of another context, a failed event
  // (PoCL never runs a command enqueued after its dependency failed: a host wait would block forever).
  template <typename Call>
  void add_queue_rows(const Call& valid) {
    add("null queue", "queue", "CL_INVALID_COMMAND_QUEUE", valid, [](Call& c) { c.queue = &objects().null_queue; });
    add("wait list holds a null event", "wait", "CL_INVALID_EVENT_WAIT_LIST", valid,
        [](Call& c) { c.wait = &objects().null_event_wait; });
    add("wait list holds an event of another context", "wait", "CL_INVALID_CONTEXT", valid,
        [](Call& c) { c.wait = &objects().foreign_event_wait; });
    add("wait list holds a failed event", "wait", "CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST", valid,
        [](Call& c) { c.wait = &objects().failed_event_wait; });
  }
  // Rows every output gets: created CL_MEM_READ_ONLY, directly or as a sub-buffer of such a buffer.
  template <typename Call, typename Field>
  void add_output_rows(const Call& valid, const std::string& name, Field field) {
    add_operand_row(name + " created CL_MEM_READ_ONLY", "CL_INVALID_OPERATION", valid, name, field,
                    &objects().read_only);
    add_operand_row(name + " is a sub-buffer of a CL_MEM_READ_ONLY buffer", "CL_INVALID_OPERATION", valid, name, field,
                    &objects().read_only_part);
  }
  // Rows every buffer operand gets (`field` points at the Call member holding it): null, of another context.
  template <typename Call, typename Field>
  void add_buffer_rows(const Call& valid, const std::string& name, Field field) {
    add_operand_row(name + " is a null buffer", "CL_INVALID_MEM_OBJECT", valid, name, field, &objects().null_buffer);
    add_operand_row(name + " belongs to another context than the queue", "CL_INVALID_CONTEXT", valid, name, field,
                    &objects().foreign);
  }
  // A row whose operand `field` (named `name`) is `replacement`.
  template <typename Call, typename Field>
  void add_operand_row(const std::string& label, const std::string& status, const Call& valid, const std::string& name,
                       Field field, cl::Buffer* replacement) {
    add(label, name, status, valid, [field, replacement](Call& c) { c.*field = replacement; });
  }

  const std::vector<BadInput>& rows() const { return rows_; }

 private:
  std::vector<BadInput> rows_;
};

// ---- valid calls, one per public op ---------------------------------------------------------------------
// Each holds every argument of its op, defaults making a small valid call on `objects()`.

struct CallBase {
  cl::CommandQueue* queue = &objects().queue;
  const std::vector<cl::Event>* wait = nullptr;
};

template <typename T>
struct VectorAddCall : CallBase {
  std::size_t n = 64;
  const cl::Buffer* a = &objects().input;
  std::size_t a_offset = 0;
  const cl::Buffer* b = &objects().input;
  std::size_t b_offset = 64;
  cl::Buffer* c = &objects().output;
  std::size_t c_offset = 0;
  std::string entry() const { return "vector_add"; }
  std::string op() const { return "vector_add"; }
  void run() { vector_add<T>(*queue, n, *a, a_offset, *b, b_offset, *c, c_offset, wait); }
};

template <typename T>
struct AxpyCall : CallBase {
  std::size_t n = 64;
  T alpha = T(2);
  const cl::Buffer* x = &objects().input;
  std::size_t x_offset = 0;
  cl::Buffer* y = &objects().output;
  std::size_t y_offset = 0;
  std::string entry() const { return "axpy"; }
  std::string op() const { return "axpy"; }
  void run() { axpy<T>(*queue, n, alpha, *x, x_offset, *y, y_offset, wait); }
};

template <typename T>
struct TransposeCall : CallBase {
  std::size_t rows = 8, cols = 12;
  const cl::Buffer* in = &objects().input;
  std::size_t in_offset = 0, ld_in = 12;
  cl::Buffer* out = &objects().output;
  std::size_t out_offset = 0, ld_out = 8;
  std::string entry() const { return "transpose"; }
  std::string op() const { return "transpose"; }
  void run() { transpose<T>(*queue, rows, cols, *in, in_offset, ld_in, *out, out_offset, ld_out, wait); }
};

template <typename T>
struct ReduceCall : CallBase {
  ReduceOp reduce_op = ReduceOp::Sum;
  std::size_t n = 64;
  const cl::Buffer* x = &objects().input;
  std::size_t x_offset = 0;
  cl::Buffer* result = &objects().output;
  std::size_t result_offset = 0;
  std::string entry() const { return "reduce"; }
  std::string op() const { return "reduce"; }
  void run() { reduce<T>(*queue, reduce_op, n, *x, x_offset, *result, result_offset, wait); }
};

template <typename T>
struct ReduceValueCall : CallBase {
  ReduceOp reduce_op = ReduceOp::Max;
  std::size_t n = 64;
  const cl::Buffer* x = &objects().input;
  std::size_t x_offset = 0;
  std::string entry() const { return "reduce_value"; }
  std::string op() const { return "reduce_value"; }
  void run() { reduce_value<T>(*queue, reduce_op, n, *x, x_offset, wait); }
};

template <typename T>
struct ReduceIndexCall : CallBase {
  ReduceOp reduce_op = ReduceOp::ArgMin;
  std::size_t n = 64;
  const cl::Buffer* x = &objects().input;
  std::size_t x_offset = 0;
  std::string entry() const { return "reduce_index"; }
  std::string op() const { return "reduce_index"; }
  void run() { reduce_index<T>(*queue, reduce_op, n, *x, x_offset, wait); }
};

template <typename T>
struct GemmCall : CallBase {
  Layout layout = Layout::RowMajor;
  Transpose trans_a = Transpose::No, trans_b = Transpose::No;
  std::size_t m = 8, n = 8, k = 8;
  T alpha = T(1), beta = T(0);
  const cl::Buffer* a = &objects().input;
  std::size_t a_offset = 0, lda = 8;
  const cl::Buffer* b = &objects().input;
  std::size_t b_offset = 64, ldb = 8;
  cl::Buffer* c = &objects().output;
  std::size_t c_offset = 0, ldc = 8;
  std::string entry() const { return "gemm"; }
  std::string op() const { return "gemm"; }
  void run() {
    gemm<T>(*queue, layout, trans_a, trans_b, m, n, k, alpha, *a, a_offset, lda, *b, b_offset, ldb, beta, *c, c_offset,
            ldc, wait);
  }
};

template <typename T>
struct GrayCall : CallBase {
  std::size_t width = 8, height = 4;
  const cl::Buffer* src = &objects().input;
  std::size_t src_offset = 0, src_pitch = 24;
  cl::Buffer* dst = &objects().output;
  std::size_t dst_offset = 0, dst_pitch = 8;
  GrayWeights weights;
  std::string entry() const { return "rgb_to_gray"; }
  std::string op() const { return "rgb_to_gray"; }
  void run() {
    rgb_to_gray<T>(*queue, width, height, *src, src_offset, src_pitch, *dst, dst_offset, dst_pitch, weights, wait);
  }
};

// What the four filters share: the images, the channels and the border.
struct ImageCallBase : CallBase {
  std::size_t width = 8, height = 4, channels = 1;
  const cl::Buffer* src = &objects().input;
  std::size_t src_offset = 0, src_pitch = 8;
  cl::Buffer* dst = &objects().output;
  std::size_t dst_offset = 0, dst_pitch = 8;
  Border border = Border::Clamp;
};

template <typename T>
struct Convolve2dCall : ImageCallBase {
  using Element = T;
  const cl::Buffer* filter = &objects().taps;
  std::size_t filter_offset = 0, filter_width = 3, filter_height = 3;
  std::string entry() const { return "convolve2d"; }
  std::string op() const { return "convolve2d"; }
  void run() {
    convolve2d<T>(*queue, width, height, channels, *src, src_offset, src_pitch, *dst, dst_offset, dst_pitch, *filter,
                  filter_offset, filter_width, filter_height, border, wait);
  }
};

template <typename T>
struct SeparableCall : ImageCallBase {
  using Element = T;
  const cl::Buffer* row_filter = &objects().taps;
  std::size_t row_filter_offset = 0, row_filter_length = 3;
  const cl::Buffer* column_filter = &objects().taps;
  std::size_t column_filter_offset = 3, column_filter_length = 5;
  std::string entry() const { return "separable_filter"; }
  std::string op() const { return "separable_filter"; }
  void run() {
    separable_filter<T>(*queue, width, height, channels, *src, src_offset, src_pitch, *dst, dst_offset, dst_pitch,
                        *row_filter, row_filter_offset, row_filter_length, *column_filter, column_filter_offset,
                        column_filter_length, border, wait);
  }
};

template <typename T>
struct BoxCall : ImageCallBase {
  using Element = T;
  std::size_t radius_x = 1, radius_y = 2;
  std::string entry() const { return "box_blur"; }
  std::string op() const { return "box_blur"; }
  void run() {
    box_blur<T>(*queue, width, height, channels, *src, src_offset, src_pitch, *dst, dst_offset, dst_pitch, radius_x,
                radius_y, border, wait);
  }
};

template <typename T>
struct GaussianCall : ImageCallBase {
  using Element = T;
  double sigma = 1.0;
  std::optional<std::size_t> radius;
  std::string entry() const { return "gaussian_blur"; }
  std::string op() const { return "gaussian_blur"; }
  void run() {
    gaussian_blur<T>(*queue, width, height, channels, *src, src_offset, src_pitch, *dst, dst_offset, dst_pitch, sigma,
                     border, radius, wait);
  }
};

// ---- rows, op by op -------------------------------------------------------------------------------------

void add_elementwise_rows(Catalogue& cat) {
  const VectorAddCall<float> add;
  using Add = VectorAddCall<float>;
  cat.add_queue_rows(add);
  cat.add_buffer_rows(add, "a", &Add::a);
  cat.add_buffer_rows(add, "b", &Add::b);
  cat.add_buffer_rows(add, "c", &Add::c);
  cat.add_output_rows(add, "c", &Add::c);
  const std::size_t floats = kBufferBytes / sizeof(float);
  cat.add("a too small for offset + n", "a", kTooSmall, add, [=](Add& c) { c.a_offset = floats - 63; });
  cat.add("b too small for offset + n", "b", kTooSmall, add, [=](Add& c) { c.b_offset = floats - 1; });
  cat.add("c too small for offset + n", "c", kTooSmall, add, [=](Add& c) { c.c_offset = floats - 32; });
  cat.add("offset + n overflows 64 bits", "a", kInvalidValue, add, [](Add& c) { c.a_offset = kHuge - 10; });
  cat.add("n * sizeof(float) overflows 64 bits", "a", kInvalidValue, add, [](Add& c) { c.n = kHuge / 2; });
  cat.add("c overlaps a by part", "c", kOverlap, add, [](Add& c) { c.c = &objects().input, c.c_offset = 10; });
  cat.add("c overlaps b by part", "c", kOverlap, add, [](Add& c) { c.c = &objects().input, c.c_offset = 100; });
  cat.add("c and a are sub-buffers overlapping by part", "c", kOverlap, add,
          [](Add& c) { c.a = &objects().low_half, c.a_offset = 500, c.c = &objects().high_half, c.c_offset = 0; });
  cat.add_without_fp64("double on a device without fp64", VectorAddCall<double>(), [](VectorAddCall<double>&) {});

  const AxpyCall<float> axpy;
  using Axpy = AxpyCall<float>;
  cat.add_queue_rows(axpy);
  cat.add_buffer_rows(axpy, "x", &Axpy::x);
  cat.add_buffer_rows(axpy, "y", &Axpy::y);
  cat.add_output_rows(axpy, "y", &Axpy::y);
  cat.add("x too small for offset + n", "x", kTooSmall, axpy, [=](Axpy& c) { c.x_offset = floats - 1; });
  cat.add("y too small for offset + n", "y", kTooSmall, axpy, [=](Axpy& c) { c.y_offset = floats; });
  cat.add("offset + n overflows 64 bits", "y", kInvalidValue, axpy, [](Axpy& c) { c.y_offset = kHuge; });
  cat.add("n * sizeof(float) overflows 64 bits", "x", kInvalidValue, axpy, [](Axpy& c) { c.n = kHuge / 4 + 1; });
  cat.add("y overlaps x by part", "y", kOverlap, axpy, [](Axpy& c) { c.y = &objects().input, c.y_offset = 1; });
  cat.add_without_fp64("double on a device without fp64", AxpyCall<double>(), [](AxpyCall<double>&) {});
}

void add_transpose_rows(Catalogue& cat) {
  const TransposeCall<float> valid;
  using Call = TransposeCall<float>;
  cat.add_queue_rows(valid);
  cat.add_buffer_rows(valid, "in", &Call::in);
  cat.add_buffer_rows(valid, "out", &Call::out);
  cat.add_output_rows(valid, "out", &Call::out);
  const std::size_t floats = kBufferBytes / sizeof(float);
  cat.add("in too small for offset + extent", "in", kTooSmall, valid, [=](Call& c) { c.in_offset = floats - 90; });
  cat.add("out too small for offset + extent", "out", kTooSmall, valid, [=](Call& c) { c.out_offset = floats - 95; });
  cat.add("in too small for its leading dimension", "in", kTooSmall, valid, [](Call& c) { c.ld_in = 10000; });
  cat.add("out too small for its leading dimension", "out", kTooSmall, valid, [](Call& c) { c.ld_out = 10000; });
  cat.add("ld_in below cols", "ld_in", kInvalidValue, valid, [](Call& c) { c.ld_in = 11; });
  cat.add("ld_out below rows", "ld_out", kInvalidValue, valid, [](Call& c) { c.ld_out = 7; });
  cat.add("rows beyond 32-bit indexing", "rows", kInvalidValue, valid, [](Call& c) { c.rows = kPast32Bits; });
  cat.add("cols beyond 32-bit indexing", "cols", kInvalidValue, valid,
          [](Call& c) { c.cols = kHuge, c.ld_in = kHuge; });
  cat.add("ld_in beyond 32-bit indexing", "ld_in", kInvalidValue, valid, [](Call& c) { c.ld_in = kPast32Bits; });
  cat.add("offset + extent overflows 64 bits", "out", kInvalidValue, valid, [](Call& c) { c.out_offset = kHuge - 50; });
  cat.add("rows * ld_in * sizeof(double) overflows 64 bits", "in", kInvalidValue, TransposeCall<double>(),
          [](TransposeCall<double>& c) { c.rows = c.cols = c.ld_in = c.ld_out = kPast32Bits - 1; });
  cat.add("in place (out is in)", "out", kOverlap, valid, [](Call& c) { c.out = &objects().input; });
  cat.add("out overlaps the end of in", "out", kOverlap, valid,
          [](Call& c) { c.out = &objects().input, c.out_offset = 7 * 12 + 11; });
  cat.add("in and out are sub-buffers overlapping by part", "out", kOverlap, valid, [](Call& c) {
    c.in = &objects().low_half, c.in_offset = 600, c.out = &objects().high_half, c.out_offset = 0;
  });
}

void add_reduce_rows(Catalogue& cat) {
  const ReduceCall<float> valid;
  using Call = ReduceCall<float>;
  cat.add_queue_rows(valid);
  cat.add_buffer_rows(valid, "x", &Call::x);
  cat.add_buffer_rows(valid, "result", &Call::result);
  cat.add_output_rows(valid, "result", &Call::result);
  const std::size_t floats = kBufferBytes / sizeof(float);
  cat.add("x too small for offset + n", "x", kTooSmall, valid, [=](Call& c) { c.x_offset = floats - 63; });
  cat.add("result offset past the end", "result", kTooSmall, valid, [=](Call& c) { c.result_offset = floats; });
  cat.add("argmin result (int32) offset past the end", "result", kTooSmall, valid,
          [=](Call& c) { c.reduce_op = ReduceOp::ArgMin, c.result_offset = floats; });
  cat.add("n beyond 32-bit indexing", "n", kInvalidValue, valid, [](Call& c) { c.n = kPast32Bits; });
  cat.add("x offset + n overflows 64 bits", "x", kInvalidValue, valid, [](Call& c) { c.x_offset = kHuge - 3; });
  cat.add("result offset overflows 64 bits", "result", kInvalidValue, valid, [](Call& c) { c.result_offset = kHuge; });
  cat.add("ReduceOp out of range", "op", kInvalidValue, valid, [](Call& c) { c.reduce_op = static_cast<ReduceOp>(9); });
  cat.add("negative ReduceOp", "op", kInvalidValue, valid, [](Call& c) { c.reduce_op = static_cast<ReduceOp>(-1); });
  cat.add("ReduceOp out of range with n = 0", "op", kInvalidValue, valid,
          [](Call& c) { c.reduce_op = static_cast<ReduceOp>(5), c.n = 0; });
  cat.add("min of no elements", "n", kInvalidValue, valid, [](Call& c) { c.reduce_op = ReduceOp::Min, c.n = 0; });
  cat.add("result inside x", "result", kOverlap, valid,
          [](Call& c) { c.result = &objects().input, c.result_offset = 5; });
  cat.add("result and x are sub-buffers overlapping", "result", kOverlap, valid, [](Call& c) {
    c.x = &objects().low_half, c.x_offset = 600, c.result = &objects().high_half, c.result_offset = 100;
  });
  cat.add_without_fp64("double on a device without fp64", ReduceCall<double>(), [](ReduceCall<double>&) {});

  const ReduceValueCall<float> value;
  using Value = ReduceValueCall<float>;
  cat.add_queue_rows(value);
  cat.add_buffer_rows(value, "x", &Value::x);
  cat.add("x too small for offset + n", "x", kTooSmall, value, [=](Value& c) { c.x_offset = floats - 1; });
  cat.add("n beyond 32-bit indexing", "n", kInvalidValue, value, [](Value& c) { c.n = kHuge; });
  cat.add("an index op (argmax)", "op", kInvalidValue, value, [](Value& c) { c.reduce_op = ReduceOp::ArgMax; });
  cat.add("ReduceOp out of range", "op", kInvalidValue, value,
          [](Value& c) { c.reduce_op = static_cast<ReduceOp>(77); });
  cat.add("max of no elements", "n", kInvalidValue, value, [](Value& c) { c.n = 0; });
  cat.add_without_fp64("double on a device without fp64", ReduceValueCall<double>(), [](ReduceValueCall<double>&) {});

  const ReduceIndexCall<std::int32_t> index;
  using Index = ReduceIndexCall<std::int32_t>;
  cat.add_queue_rows(index);
  cat.add_buffer_rows(index, "x", &Index::x);
  cat.add("x too small for offset + n", "x", kTooSmall, index, [](Index& c) { c.n = kBufferBytes; });
  cat.add("a value op (sum)", "op", kInvalidValue, index, [](Index& c) { c.reduce_op = ReduceOp::Sum; });
  cat.add("ReduceOp out of range", "op", kInvalidValue, index,
          [](Index& c) { c.reduce_op = static_cast<ReduceOp>(5); });
  cat.add("argmin of no elements", "n", kInvalidValue, index, [](Index& c) { c.n = 0; });
  cat.add_without_fp64("double on a device without fp64", ReduceIndexCall<double>(), [](ReduceIndexCall<double>&) {});
}

void add_gemm_rows(Catalogue& cat) {
  const GemmCall<float> valid;
  using Call = GemmCall<float>;
  cat.add_queue_rows(valid);
  cat.add_buffer_rows(valid, "a", &Call::a);
  cat.add_buffer_rows(valid, "b", &Call::b);
  cat.add_buffer_rows(valid, "c", &Call::c);
  cat.add_output_rows(valid, "c", &Call::c);
  const std::size_t floats = kBufferBytes / sizeof(float);
  cat.add("a too small for offset + extent", "a", kTooSmall, valid, [=](Call& c) { c.a_offset = floats - 60; });
  cat.add("b too small for offset + extent", "b", kTooSmall, valid, [=](Call& c) { c.b_offset = floats - 1; });
  cat.add("c too small for offset + extent", "c", kTooSmall, valid, [=](Call& c) { c.c_offset = floats - 63; });
  cat.add("c too small for its leading dimension", "c", kTooSmall, valid, [](Call& c) { c.ldc = 4096; });
  cat.add("lda below k (row-major)", "lda", kInvalidValue, valid, [](Call& c) { c.k = 9; });
  cat.add("lda below m (row-major, A transposed)", "lda", kInvalidValue, valid,
          [](Call& c) { c.trans_a = Transpose::Yes, c.m = 9, c.ldc = 9; });
  cat.add("ldb below n (row-major)", "ldb", kInvalidValue, valid, [](Call& c) { c.ldb = 7; });
  cat.add("ldb below k (row-major, B transposed)", "ldb", kInvalidValue, valid,
          [](Call& c) { c.trans_b = Transpose::Yes, c.k = 9, c.lda = 9; });
  cat.add("ldc below n (row-major)", "ldc", kInvalidValue, valid, [](Call& c) { c.ldc = 7; });
  cat.add("ldc below m (column-major)", "ldc", kInvalidValue, valid,
          [](Call& c) { c.layout = Layout::ColMajor, c.m = 9, c.lda = 9; });
  cat.add("lda of 0 with k = 0", "lda", kInvalidValue, valid, [](Call& c) { c.k = 0, c.lda = 0; });
  cat.add("m beyond 32-bit indexing", "m", kInvalidValue, valid, [](Call& c) { c.m = kPast32Bits; });
  cat.add("k beyond 32-bit indexing", "k", kInvalidValue, valid, [](Call& c) { c.k = kHuge; });
  cat.add("A's span beyond 32-bit indexing", "a", kInvalidValue, valid,
          [](Call& c) { c.lda = kPast32Bits - 1, c.m = 2; });
  cat.add("offset + extent overflows 64 bits", "b", kInvalidValue, valid, [](Call& c) { c.b_offset = kHuge - 1; });
  cat.add("Layout out of range", "layout", kInvalidValue, valid, [](Call& c) { c.layout = static_cast<Layout>(2); });
  cat.add("trans_a out of range", "trans_a", kInvalidValue, valid,
          [](Call& c) { c.trans_a = static_cast<Transpose>(7); });
  cat.add("trans_b out of range", "trans_b", kInvalidValue, valid,
          [](Call& c) { c.trans_b = static_cast<Transpose>(-3); });
  cat.add("Layout out of range with m = 0", "layout", kInvalidValue, valid,
          [](Call& c) { c.layout = static_cast<Layout>(5), c.m = 0; });
  cat.add("c overlaps a", "c", kOverlap, valid, [](Call& c) { c.c = &objects().input, c.c_offset = 63; });
  cat.add("c overlaps b", "c", kOverlap, valid, [](Call& c) { c.c = &objects().input, c.c_offset = 100; });
  cat.add("c and a are sub-buffers overlapping by part", "c", kOverlap, valid,
          [](Call& c) { c.a = &objects().low_half, c.a_offset = 600, c.c = &objects().high_half, c.c_offset = 100; });
  cat.add_without_fp64("double on a device without fp64", GemmCall<double>(), [](GemmCall<double>&) {});
  cat.add_without_fp64("double with transposes on a device without fp64", GemmCall<double>(),
                       [](GemmCall<double>& c) { c.trans_a = c.trans_b = Transpose::Yes; });
}

void add_color_rows(Catalogue& cat) {
  const GrayCall<float> valid;
  using Call = GrayCall<float>;
  cat.add_queue_rows(valid);
  cat.add_buffer_rows(valid, "src", &Call::src);
  cat.add_buffer_rows(valid, "dst", &Call::dst);
  cat.add_output_rows(valid, "dst", &Call::dst);
  const std::size_t floats = kBufferBytes / sizeof(float);
  cat.add("src too small for offset + image", "src", kTooSmall, valid, [=](Call& c) { c.src_offset = floats - 90; });
  cat.add("dst too small for offset + image", "dst", kTooSmall, valid, [=](Call& c) { c.dst_offset = floats - 31; });
  cat.add("dst too small for its pitch", "dst", kTooSmall, valid, [](Call& c) { c.dst_pitch = 8000; });
  cat.add("src_pitch below 3 * width", "src_pitch", kInvalidValue, valid, [](Call& c) { c.src_pitch = 23; });
  cat.add("dst_pitch below width", "dst_pitch", kInvalidValue, valid, [](Call& c) { c.dst_pitch = 7; });
  cat.add("width * 3 overflows 64 bits", "width", kInvalidValue, valid, [](Call& c) { c.width = kHuge / 2; });
  cat.add("height beyond 32-bit indexing", "height", kInvalidValue, valid, [](Call& c) { c.height = kPast32Bits; });
  cat.add("offset + image overflows 64 bits", "src", kInvalidValue, valid, [](Call& c) { c.src_offset = kHuge; });
  cat.add("in place (dst is src)", "dst", kOverlap, valid, [](Call& c) { c.dst = &objects().input; });
  cat.add("NaN weight", "weights", kInvalidValue, valid, [](Call& c) { c.weights.green = std::nanf(""); });
  cat.add("infinite weight with width = 0", "weights", kInvalidValue, valid,
          [](Call& c) { c.weights.red = INFINITY, c.width = 0; });
}

// Rows every filter gets, on its images, channels and border.
template <typename Call>
void add_image_rows(Catalogue& cat, const Call& valid) {
  cat.add_queue_rows(valid);
  cat.add_buffer_rows(valid, "src", &Call::src);
  cat.add_buffer_rows(valid, "dst", &Call::dst);
  cat.add_output_rows(valid, "dst", &Call::dst);
  const std::size_t elements = kBufferBytes / sizeof(typename Call::Element);
  cat.add("src too small for offset + image", "src", kTooSmall, valid, [=](Call& c) { c.src_offset = elements - 31; });
  cat.add("dst too small for offset + image", "dst", kTooSmall, valid, [=](Call& c) { c.dst_offset = elements - 1; });
  cat.add("src too small for its pitch", "src", kTooSmall, valid, [=](Call& c) { c.src_pitch = elements / 2; });
  cat.add("src_pitch below a row", "src_pitch", kInvalidValue, valid, [](Call& c) { c.src_pitch = 7; });
  cat.add("dst_pitch below a row of 3 channels", "dst_pitch", kInvalidValue, valid,
          [](Call& c) { c.channels = 3, c.src_pitch = 24; });
  cat.add("width * channels overflows 64 bits", "width", kInvalidValue, valid,
          [](Call& c) { c.width = kHuge / 2, c.channels = 3; });
  cat.add("height beyond 32-bit indexing", "height", kInvalidValue, valid, [](Call& c) { c.height = kPast32Bits; });
  cat.add("dst offset + image overflows 64 bits", "dst", kInvalidValue, valid, [](Call& c) { c.dst_offset = kHuge; });
  cat.add("2 channels", "channels", kInvalidValue, valid, [](Call& c) { c.channels = 2; });
  cat.add("0 channels with width = 0", "channels", kInvalidValue, valid, [](Call& c) { c.channels = 0, c.width = 0; });
  cat.add("Border out of range", "border", kInvalidValue, valid, [](Call& c) { c.border = static_cast<Border>(9); });
  cat.add("negative Border with height = 0", "border", kInvalidValue, valid,
          [](Call& c) { c.border = static_cast<Border>(-1), c.height = 0; });
  cat.add("in place (dst is src)", "dst", kOverlap, valid, [](Call& c) { c.dst = &objects().input; });
  cat.add("dst overlaps the end of src", "dst", kOverlap, valid,
          [](Call& c) { c.dst = &objects().input, c.dst_offset = 31; });
  // src from parent byte 2060, dst from byte 2048: both span 32 elements, so they overlap for any element size.
  cat.add("src and dst are sub-buffers overlapping by part", "dst", kOverlap, valid, [](Call& c) {
    c.src = &objects().low_half, c.src_offset = 2060 / sizeof(typename Call::Element), c.dst = &objects().high_half,
    c.dst_offset = 0;
  });
}

void add_filter_rows(Catalogue& cat) {
  const Convolve2dCall<float> direct;
  using Direct = Convolve2dCall<float>;
  add_image_rows(cat, direct);
  add_image_rows(cat, Convolve2dCall<std::uint8_t>());
  cat.add_buffer_rows(direct, "filter", &Direct::filter);
  cat.add("filter too short for offset + taps", "filter", kTooSmall, direct, [](Direct& c) { c.filter_offset = 73; });
  cat.add("filter offset overflows 64 bits", "filter", kInvalidValue, direct,
          [](Direct& c) { c.filter_offset = kHuge; });
  cat.add("even filter_width", "filter_width", kInvalidValue, direct, [](Direct& c) { c.filter_width = 4; });
  cat.add("even filter_height", "filter_height", kInvalidValue, direct, [](Direct& c) { c.filter_height = 2; });
  cat.add("zero filter_width", "filter_width", kInvalidValue, direct, [](Direct& c) { c.filter_width = 0; });
  cat.add("zero filter_height with width = 0", "filter_height", kInvalidValue, direct,
          [](Direct& c) { c.filter_height = 0, c.width = 0; });
  cat.add("filter_width beyond any radius", "filter_width", kInvalidValue, direct,
          [](Direct& c) { c.filter_width = kHuge; });
  cat.add("filter larger than constant memory", "filter_width", kInvalidValue, direct,
          [](Direct& c) { c.filter_width = 4001, c.filter_height = 4001; });
  cat.add("filter taps overlap dst", "dst", kOverlap, direct,
          [](Direct& c) { c.filter = &objects().output, c.filter_offset = 20; });

  const SeparableCall<float> separable;
  using Separable = SeparableCall<float>;
  add_image_rows(cat, separable);
  cat.add_buffer_rows(separable, "row_filter", &Separable::row_filter);
  cat.add_buffer_rows(separable, "column_filter", &Separable::column_filter);
  cat.add("row_filter too short for offset + taps", "row_filter", kTooSmall, separable,
          [](Separable& c) { c.row_filter_offset = 80; });
  cat.add("column_filter too short for offset + taps", "column_filter", kTooSmall, separable,
          [](Separable& c) { c.column_filter_offset = 77; });
  cat.add("even row_filter_length", "row_filter_length", kInvalidValue, separable,
          [](Separable& c) { c.row_filter_length = 6; });
  cat.add("zero column_filter_length", "column_filter_length", kInvalidValue, separable,
          [](Separable& c) { c.column_filter_length = 0; });
  cat.add("column_filter taps overlap dst", "dst", kOverlap, separable,
          [](Separable& c) { c.column_filter = &objects().output, c.column_filter_offset = 0; });

  const BoxCall<float> box;
  using Box = BoxCall<float>;
  add_image_rows(cat, box);
  cat.add("radius_x beyond the supported", "radius_x", kInvalidValue, box, [](Box& c) { c.radius_x = kHuge / 2; });
  cat.add("radius_y beyond the supported", "radius_y", kInvalidValue, box, [](Box& c) { c.radius_y = 1 << 20; });

  const GaussianCall<float> gaussian;
  using Gaussian = GaussianCall<float>;
  add_image_rows(cat, gaussian);
  cat.add("zero sigma", "sigma", kInvalidValue, gaussian, [](Gaussian& c) { c.sigma = 0; });
  cat.add("negative sigma", "sigma", kInvalidValue, gaussian, [](Gaussian& c) { c.sigma = -1; });
  cat.add("NaN sigma", "sigma", kInvalidValue, gaussian, [](Gaussian& c) { c.sigma = std::nan(""); });
  cat.add("infinite sigma", "sigma", kInvalidValue, gaussian, [](Gaussian& c) { c.sigma = INFINITY; });
  cat.add("sigma whose radius is beyond the supported", "sigma", kInvalidValue, gaussian,
          [](Gaussian& c) { c.sigma = 1e6; });
  cat.add("radius beyond the supported", "radius", kInvalidValue, gaussian, [](Gaussian& c) { c.radius = kHuge; });
}

// ---- BLAS breadth: gemv, gemm_strided_batched, gemm_batched --------------------------------------------

template <typename T>
struct GemvCall : CallBase {
  Layout layout = Layout::RowMajor;
  Transpose trans = Transpose::No;
  std::size_t m = 8, n = 8;
  T alpha = T(1), beta = T(0);
  const cl::Buffer* a = &objects().input;
  std::size_t a_offset = 0, lda = 8;
  const cl::Buffer* x = &objects().input;
  std::size_t x_offset = 64;
  std::ptrdiff_t incx = 1;
  cl::Buffer* y = &objects().output;
  std::size_t y_offset = 0;
  std::ptrdiff_t incy = 1;
  std::string entry() const { return "gemv"; }
  std::string op() const { return "gemv"; }
  void run() {
    gemv<T>(*queue, layout, trans, m, n, alpha, *a, a_offset, lda, *x, x_offset, incx, beta, *y, y_offset, incy, wait);
  }
};

// Three 4 x 4 x 4 products: A matrices at 0, 16, 32 and B at 64, 80, 96 of `input`, C at 0, 16, 32 of `output`.
template <typename T>
struct StridedBatchedCall : CallBase {
  Layout layout = Layout::RowMajor;
  Transpose trans_a = Transpose::No, trans_b = Transpose::No;
  std::size_t m = 4, n = 4, k = 4, batch = 3;
  detail::ComputeType<T> alpha = 1, beta = 0;  // float for tilecl::half
  const cl::Buffer* a = &objects().input;
  std::size_t a_offset = 0, lda = 4, stride_a = 16;
  const cl::Buffer* b = &objects().input;
  std::size_t b_offset = 64, ldb = 4, stride_b = 16;
  cl::Buffer* c = &objects().output;
  std::size_t c_offset = 0, ldc = 4, stride_c = 16;
  std::string entry() const { return "gemm_strided_batched"; }
  std::string op() const { return "gemm_strided_batched"; }
  void run() {
    gemm_strided_batched<T>(*queue, layout, trans_a, trans_b, m, n, k, alpha, *a, a_offset, lda, stride_a, *b, b_offset,
                            ldb, stride_b, beta, *c, c_offset, ldc, stride_c, batch, wait);
  }
};

// The same three products through per-matrix offsets and scalars.
template <typename T>
struct BatchedCall : CallBase {
  Layout layout = Layout::RowMajor;
  Transpose trans_a = Transpose::No, trans_b = Transpose::No;
  std::size_t m = 4, n = 4, k = 4;
  std::vector<detail::ComputeType<T>> alphas{1, 2, 0}, betas{0, 1, 0};
  const cl::Buffer* a = &objects().input;
  std::vector<std::size_t> a_offsets{0, 16, 32};
  std::size_t lda = 4;
  const cl::Buffer* b = &objects().input;
  std::vector<std::size_t> b_offsets{64, 80, 96};
  std::size_t ldb = 4;
  cl::Buffer* c = &objects().output;
  std::vector<std::size_t> c_offsets{0, 16, 32};
  std::size_t ldc = 4;
  std::string entry() const { return "gemm_batched"; }
  std::string op() const { return "gemm_batched"; }
  void run() {
    gemm_batched<T>(*queue, layout, trans_a, trans_b, m, n, k, alphas, *a, a_offsets, lda, *b, b_offsets, ldb, betas,
                    *c, c_offsets, ldc, wait);
  }
};

void add_gemv_rows(Catalogue& cat) {
  const GemvCall<float> valid;
  using Call = GemvCall<float>;
  cat.add_queue_rows(valid);
  cat.add_buffer_rows(valid, "a", &Call::a);
  cat.add_buffer_rows(valid, "x", &Call::x);
  cat.add_buffer_rows(valid, "y", &Call::y);
  const std::size_t floats = kBufferBytes / sizeof(float);
  const auto past = static_cast<std::ptrdiff_t>(kPast32Bits);
  cat.add("a too small for offset + extent", "a", kTooSmall, valid, [=](Call& c) { c.a_offset = floats - 60; });
  cat.add("x too small for offset + n", "x", kTooSmall, valid, [=](Call& c) { c.x_offset = floats - 7; });
  cat.add("y too small for its increment", "y", kTooSmall, valid, [](Call& c) { c.incy = 10000; });
  cat.add("x too small for a negative increment", "x", kTooSmall, valid, [](Call& c) { c.incx = -5000; });
  cat.add("lda below n (row-major)", "lda", kInvalidValue, valid, [](Call& c) { c.lda = 7; });
  cat.add("lda below m (column-major)", "lda", kInvalidValue, valid,
          [](Call& c) { c.layout = Layout::ColMajor, c.m = 9; });
  cat.add("incx of 0", "incx", kInvalidValue, valid, [](Call& c) { c.incx = 0; });
  cat.add("incy of 0 with m = 0", "incy", kInvalidValue, valid, [](Call& c) { c.incy = 0, c.m = 0; });
  cat.add("m beyond 32-bit indexing", "m", kInvalidValue, valid, [](Call& c) { c.m = kPast32Bits; });
  cat.add("incx beyond 32-bit indexing", "incx", kInvalidValue, valid, [=](Call& c) { c.incx = -past; });
  cat.add("x's span beyond 32-bit indexing", "x", kInvalidValue, valid, [=](Call& c) { c.incx = past - 1; });
  cat.add("offset + extent overflows 64 bits", "y", kInvalidValue, valid, [](Call& c) { c.y_offset = kHuge - 2; });
  cat.add("Layout out of range with m = 0", "layout", kInvalidValue, valid,
          [](Call& c) { c.layout = static_cast<Layout>(3), c.m = 0; });
  cat.add("trans out of range", "trans", kInvalidValue, valid, [](Call& c) { c.trans = static_cast<Transpose>(2); });
  cat.add("y overlaps a", "y", kOverlap, valid, [](Call& c) { c.y = &objects().input, c.y_offset = 10; });
  cat.add("y overlaps x", "y", kOverlap, valid, [](Call& c) { c.y = &objects().input, c.y_offset = 66; });
  cat.add("y and a are sub-buffers overlapping by part", "y", kOverlap, valid,
          [](Call& c) { c.a = &objects().low_half, c.a_offset = 600, c.y = &objects().high_half, c.y_offset = 100; });
  cat.add_without_fp64("double on a device without fp64", GemvCall<double>(), [](GemvCall<double>&) {});
}

void add_batched_rows(Catalogue& cat) {
  const StridedBatchedCall<float> strided;
  using Strided = StridedBatchedCall<float>;
  cat.add_queue_rows(strided);
  cat.add_buffer_rows(strided, "a", &Strided::a);
  cat.add_buffer_rows(strided, "b", &Strided::b);
  cat.add_buffer_rows(strided, "c", &Strided::c);
  const std::size_t floats = kBufferBytes / sizeof(float);
  cat.add("a too small for offset + extent", "a", kTooSmall, strided, [=](Strided& c) { c.a_offset = floats - 40; });
  cat.add("c too small for the last matrix", "c", kTooSmall, strided, [](Strided& c) { c.stride_c = 9000; });
  cat.add("b's last matrix overflows 64 bits", "b", kInvalidValue, strided, [](Strided& c) { c.stride_b = kHuge / 2; });
  cat.add("batch_count beyond 32-bit indexing", "batch_count", kInvalidValue, strided,
          [](Strided& c) { c.batch = kPast32Bits; });
  cat.add("k beyond 32-bit indexing", "k", kInvalidValue, strided, [](Strided& c) { c.k = kHuge; });
  cat.add("ldc below n (row-major)", "ldc", kInvalidValue, strided, [](Strided& c) { c.ldc = 3; });
  cat.add("lda below m (row-major, A transposed)", "lda", kInvalidValue, strided,
          [](Strided& c) { c.trans_a = Transpose::Yes, c.m = 5, c.ldc = 5; });
  cat.add("C matrices closer than their span", "c", kOverlap, strided, [](Strided& c) { c.stride_c = 8; });
  cat.add("every C matrix the same (stride_c = 0)", "c", kOverlap, strided, [](Strided& c) { c.stride_c = 0; });
  cat.add("interleaved C matrices sharing a column", "c", kOverlap, strided,
          [](Strided& c) { c.ldc = 8, c.stride_c = 3; });
  cat.add("a C matrix overlaps an A matrix", "c", kOverlap, strided,
          [](Strided& c) { c.c = &objects().input, c.c_offset = 40; });
  cat.add("a C matrix overlaps a B matrix", "c", kOverlap, strided,
          [](Strided& c) { c.c = &objects().input, c.c_offset = 100; });
  cat.add("Layout out of range with batch_count = 0", "layout", kInvalidValue, strided,
          [](Strided& c) { c.layout = static_cast<Layout>(2), c.batch = 0; });
  cat.add("trans_b out of range", "trans_b", kInvalidValue, strided,
          [](Strided& c) { c.trans_b = static_cast<Transpose>(4); });
  cat.add_without_fp64("double on a device without fp64", StridedBatchedCall<double>(),
                       [](StridedBatchedCall<double>&) {});

  const BatchedCall<float> listed;
  using Listed = BatchedCall<float>;
  cat.add_queue_rows(listed);
  cat.add_buffer_rows(listed, "a", &Listed::a);
  cat.add_buffer_rows(listed, "c", &Listed::c);
  cat.add("betas shorter than alphas", "betas", kInvalidValue, listed, [](Listed& c) { c.betas.pop_back(); });
  cat.add("c_offsets longer than alphas, with m = 0", "c_offsets", kInvalidValue, listed,
          [](Listed& c) { c.c_offsets.push_back(48), c.m = 0; });
  cat.add("one A matrix past the end of a", "a", kTooSmall, listed, [=](Listed& c) { c.a_offsets[1] = floats - 5; });
  cat.add("one B offset + extent overflows 64 bits", "b", kInvalidValue, listed,
          [](Listed& c) { c.b_offsets[2] = kHuge - 3; });
  cat.add("two C matrices at one offset", "c", kOverlap, listed, [](Listed& c) { c.c_offsets = {0, 32, 0}; });
  cat.add("C matrices overlapping by part", "c", kOverlap, listed, [](Listed& c) { c.c_offsets = {0, 10, 32}; });
  cat.add("a C matrix overlaps a B matrix", "c", kOverlap, listed, [](Listed& c) {
    c.c = &objects().input, c.c_offsets = {200, 300, 90};
  });
  cat.add("ldb below n (column-major, B transposed)", "ldb", kInvalidValue, listed,
          [](Listed& c) { c.layout = Layout::ColMajor, c.trans_b = Transpose::Yes, c.n = 5, c.ldc = 5; });
  cat.add("trans_a out of range with an empty batch", "trans_a", kInvalidValue, listed, [](Listed& c) {
    c.trans_a = static_cast<Transpose>(9), c.alphas.clear(), c.betas.clear(), c.a_offsets.clear();
    c.b_offsets.clear(), c.c_offsets.clear();
  });
  cat.add_without_fp64("double on a device without fp64", BatchedCall<double>(), [](BatchedCall<double>&) {});

  // tilecl::half: extents count 2-byte elements.
  const std::size_t halves = kBufferBytes / sizeof(half);
  cat.add("half: c too small for the last matrix", "c", kTooSmall, StridedBatchedCall<half>(),
          [=](StridedBatchedCall<half>& c) { c.c_offset = halves - 40; });
  cat.add("half: C matrices closer than their span", "c", kOverlap, StridedBatchedCall<half>(),
          [](StridedBatchedCall<half>& c) { c.stride_c = 8; });
  cat.add("half: one A matrix past the end of a", "a", kTooSmall, BatchedCall<half>(),
          [=](BatchedCall<half>& c) { c.a_offsets[1] = halves - 5; });
}

// ---- Boost.Compute interop ------------------------------------------------------------------------------

struct BoostObjects {
  boost::compute::context context{device().context()};
  boost::compute::context other_context{objects().other_context()};
  boost::compute::command_queue queue{context, boost::compute::device(device().device())};
  boost::compute::vector<float> x{64, context}, y{64, context}, shorter{63, context}, foreign{64, other_context};
  boost::compute::vector<float> empty{context};
};

BoostObjects& boost_objects() {
  static BoostObjects& instance = *new BoostObjects;
  return instance;
}

// An interop call: `run` calls the tilecl::compute function on boost_objects().
struct InteropCall {
  std::string name;  // the function, without its namespace
  std::string error_op;
  std::function<void(BoostObjects&)> body;
  std::string entry() const { return "compute::" + name; }
  std::string op() const { return error_op; }
  void run() { body(boost_objects()); }
};

void add_interop_rows(Catalogue& cat) {
  auto row = [&](const std::string& function, const std::string& op, const std::string& label,
                 const std::string& argument, const std::string& status, std::function<void(BoostObjects&)> body) {
    cat.add(label, argument, status, InteropCall{function, op, std::move(body)}, [](InteropCall&) {});
  };
  row("axpy", "axpy", "vectors of different sizes", "y", kInvalidValue,
      [](BoostObjects& o) { compute::axpy(o.queue, 2.0f, o.x, o.shorter); });
  row("axpy", "axpy", "x of another context than the queue", "x", "CL_INVALID_CONTEXT",
      [](BoostObjects& o) { compute::axpy(o.queue, 2.0f, o.foreign, o.y); });
  row("vector_add", "vector_add", "b shorter than a", "b", kInvalidValue,
      [](BoostObjects& o) { compute::vector_add(o.queue, o.x, o.shorter, o.y); });
  row("vector_add", "vector_add", "c shorter than a", "c", kInvalidValue,
      [](BoostObjects& o) { compute::vector_add(o.queue, o.x, o.y, o.shorter); });
  row("vector_add", "vector_add", "c of another context than the queue", "c", "CL_INVALID_CONTEXT",
      [](BoostObjects& o) { compute::vector_add(o.queue, o.x, o.y, o.foreign); });
  row("reduce_value", "reduce_value", "an index op (argmin)", "op", kInvalidValue,
      [](BoostObjects& o) { compute::reduce_value(o.queue, ReduceOp::ArgMin, o.x); });
  row("reduce_value", "reduce_value", "min of an empty vector", "n", kInvalidValue,
      [](BoostObjects& o) { compute::reduce_value(o.queue, ReduceOp::Min, o.empty); });
  row("reduce_index", "reduce_index", "a value op (max)", "op", kInvalidValue,
      [](BoostObjects& o) { compute::reduce_index(o.queue, ReduceOp::Max, o.x); });
  row("reduce_index", "reduce_index", "x of another context than the queue", "x", "CL_INVALID_CONTEXT",
      [](BoostObjects& o) { compute::reduce_index(o.queue, ReduceOp::ArgMax, o.foreign); });
  row("transpose", "transpose", "in holds fewer than rows x cols", "in", kTooSmall,
      [](BoostObjects& o) { compute::transpose(o.queue, 8, 8, o.shorter, o.y); });
  row("transpose", "transpose", "out holds fewer than rows x cols", "out", kTooSmall,
      [](BoostObjects& o) { compute::transpose(o.queue, 8, 8, o.x, o.shorter); });
  row("transpose", "transpose", "rows x cols overflows 64 bits", "in", kInvalidValue,
      [](BoostObjects& o) { compute::transpose(o.queue, std::size_t{1} << 33, std::size_t{1} << 31, o.x, o.y); });
  row("transpose", "transpose", "in place (out is in)", "out", kOverlap,
      [](BoostObjects& o) { compute::transpose(o.queue, 8, 8, o.x, o.x); });
}

const std::vector<BadInput>& catalogue() {
  static const std::vector<BadInput> rows = [] {
    Catalogue cat;
    add_elementwise_rows(cat);
    add_transpose_rows(cat);
    add_reduce_rows(cat);
    add_gemm_rows(cat);
    add_color_rows(cat);
    add_filter_rows(cat);
    add_gemv_rows(cat);
    add_batched_rows(cat);
    add_interop_rows(cat);
    return cat.rows();
  }();
  return rows;
}

// Empty when the row behaves, else what went wrong.
std::string misbehaviour(const BadInput& row) {
  try {
    if (row.without_fp64) {
      WithoutFp64 scope;
      row.call();
    } else {
      row.call();
    }
  } catch (const Error& error) {
    const std::string what = error.what();
    const std::string prefix = "tilecl::" + row.op + ": " + row.argument + ": ";
    const std::string suffix = "[" + row.status + "]";
    if (error.op() != row.op) return "names op '" + error.op() + "': " + what;
    if (error.argument() != row.argument) return "names argument '" + error.argument() + "': " + what;
    if (error.status_name() != row.status) return "carries " + error.status_name() + ": " + what;
    if (what.rfind(prefix, 0) != 0) return "message does not start with '" + prefix + "': " + what;
    if (what.size() < suffix.size() || what.compare(what.size() - suffix.size(), suffix.size(), suffix) != 0)
      return "message does not end with '" + suffix + "': " + what;
    return {};
  } catch (const std::exception& error) {
    return std::string("threw ") + typeid(error).name() + " instead of tilecl::Error: " + error.what();
  } catch (...) {
    return "threw something that is not a std::exception";
  }
  return "returned without an error";
}

// The catalogue's size when this test was last extended: deleting rows fails the test.
constexpr std::size_t kMinimumRows = 330;
constexpr std::size_t kMinimumEntries = 17;

}  // namespace

TEST_SUITE("reliability.bad_input") {
  TEST_CASE("bad input: every row of the catalogue raises tilecl::Error naming the op, the argument and the status") {
    const auto& rows = catalogue();
    std::set<std::string> entries;
    for (const auto& row : rows) entries.insert(row.entry);
    std::cout << "bad-input catalogue: " << rows.size() << " cases over " << entries.size() << " ops" << std::endl;
    CHECK(rows.size() >= kMinimumRows);
    CHECK(entries.size() >= kMinimumEntries);
    std::size_t failures = 0;
    for (const auto& row : rows) {
      const std::string wrong = misbehaviour(row);
      if (!wrong.empty()) ++failures;
      CHECK_MESSAGE(wrong.empty(), row.entry << ": " << row.label << ": " << wrong);
    }
    CHECK_MESSAGE(failures == 0, failures << " of " << rows.size() << " rows misbehave");
    // No row left anything half-enqueued behind.
    CHECK_NOTHROW(device().queue.finish());
  }
}

namespace {

// A zero-sized call: given a poisoned output, returns the event of the op, called with null inputs where the
// op takes them (nothing is read, so nothing is checked).
struct ZeroSized {
  std::string label;
  std::function<cl::Event(cl::Buffer& out, std::size_t out_offset)> call;
};

std::vector<ZeroSized> zero_sized_calls() {
  cl::CommandQueue& q = objects().queue;
  const cl::Buffer& none = objects().null_buffer;
  const cl::Buffer& taps = objects().taps;
  return {
      {"vector_add n = 0, null a and b",
       [&](cl::Buffer& out, std::size_t at) { return vector_add<float>(q, 0, none, 0, none, 0, out, at); }},
      {"vector_add n = 0, every buffer null",
       [&](cl::Buffer&, std::size_t) {
         cl::Buffer null_out;
         return vector_add<float>(q, 0, none, 0, none, 0, null_out, 0);
       }},
      {"axpy n = 0, null x, offsets past the end",
       [&](cl::Buffer& out, std::size_t) { return axpy<float>(q, 0, 2.0f, none, kHuge, out, kHuge); }},
      {"transpose rows = 0, null in",
       [&](cl::Buffer& out, std::size_t at) { return transpose<float>(q, 0, 5, none, 0, 5, out, at, 0); }},
      {"transpose cols = 0, null in, leading dimensions 0",
       [&](cl::Buffer& out, std::size_t at) { return transpose<float>(q, 5, 0, none, 0, 0, out, at, 0); }},
      {"gemm m = 0, null a and b",
       [&](cl::Buffer& out, std::size_t at) {
         return gemm<float>(q, Layout::RowMajor, Transpose::No, Transpose::No, 0, 4, 4, 1.0f, none, 0, 4, none, 0, 4,
                            0.0f, out, at, 4);
       }},
      {"gemm n = 0 (column-major, transposed), null a and b",
       [&](cl::Buffer& out, std::size_t at) {
         return gemm<float>(q, Layout::ColMajor, Transpose::Yes, Transpose::Yes, 4, 0, 4, 1.0f, none, 0, 4, none, 0, 4,
                            0.0f, out, at, 4);
       }},
      {"rgb_to_gray width = 0, null src",
       [&](cl::Buffer& out, std::size_t at) { return rgb_to_gray<float>(q, 0, 4, none, 0, 0, out, at, 0); }},
      {"rgb_to_gray height = 0, null src",
       [&](cl::Buffer& out, std::size_t at) { return rgb_to_gray<float>(q, 4, 0, none, 0, 12, out, at, 4); }},
      {"convolve2d width = 0, null src and filter",
       [&](cl::Buffer& out, std::size_t at) {
         return convolve2d<float>(q, 0, 4, 1, none, 0, 0, out, at, 0, none, 0, 3, 3, Border::Zero);
       }},
      {"convolve2d height = 0, 3 channels",
       [&](cl::Buffer& out, std::size_t at) {
         return convolve2d<float>(q, 4, 0, 3, none, 0, 12, out, at, 12, taps, 0, 5, 1, Border::Wrap);
       }},
      {"separable_filter width = 0, null filters",
       [&](cl::Buffer& out, std::size_t at) {
         return separable_filter<float>(q, 0, 4, 1, none, 0, 0, out, at, 0, none, 0, 3, none, 0, 3, Border::Mirror);
       }},
      {"box_blur height = 0, null src",
       [&](cl::Buffer& out, std::size_t at) {
         return box_blur<float>(q, 4, 0, 1, none, 0, 4, out, at, 4, 2, 2, Border::Clamp);
       }},
      {"gaussian_blur width = 0, null src",
       [&](cl::Buffer& out, std::size_t at) {
         return gaussian_blur<float>(q, 0, 0, 3, none, 0, 0, out, at, 0, 1.5, Border::Clamp);
       }},
  };
}

}  // namespace

TEST_SUITE("reliability.bad_input") {
  TEST_CASE("bad input: zero-sized calls are no-ops: a null event, no error, the poisoned output untouched") {
    const auto calls = zero_sized_calls();
    std::cout << "zero-size no-op cases: " << calls.size() << std::endl;
    for (const auto& zero : calls) {
      CAPTURE(zero.label);
      test::GuardedBuffer<float> out(32);
      cl::Event event;
      try {
        event = zero.call(out.buffer(), out.offset());
      } catch (const std::exception& error) {
        FAIL_CHECK("threw: " << error.what());
        continue;
      }
      CHECK(event() == nullptr);
      device().queue.finish();
      std::size_t written = 0;
      for (float value : out.read()) written += test::is_poison(value) ? 0 : 1;
      CHECK_MESSAGE(written == 0, written << " elements of the output were written");
      out.check_guards(zero.label);
    }
  }

  TEST_CASE("bad input: the sum of nothing writes 0 into the result and nothing around it") {
    test::GuardedBuffer<float> result(3);
    cl::Event event =
        reduce<float>(device().queue, ReduceOp::Sum, 0, objects().null_buffer, 0, result.buffer(), result.offset() + 1);
    REQUIRE(event() != nullptr);
    event.wait();
    const auto got = result.read();
    CHECK(test::is_poison(got[0]));
    CHECK(got[1] == 0.0f);
    CHECK(test::is_poison(got[2]));
    result.check_guards("sum of nothing");
    CHECK(reduce_value<float>(device().queue, ReduceOp::Sum, 0, objects().null_buffer, 0) == 0.0f);
  }

  TEST_CASE("bad input: Boost.Compute interop on empty vectors enqueues nothing") {
    auto& o = boost_objects();
    CHECK(compute::axpy(o.queue, 2.0f, o.empty, o.empty).get() == nullptr);
    CHECK(compute::vector_add(o.queue, o.empty, o.empty, o.empty).get() == nullptr);
    CHECK(compute::transpose(o.queue, 0, 0, o.empty, o.empty).get() == nullptr);
    CHECK(compute::reduce_value(o.queue, ReduceOp::Sum, o.empty) == 0.0f);
  }

  TEST_CASE("bad input: in place is allowed where documented, also through sub-buffers of the same bytes") {
    // 256 floats: the sub-buffer below starts 2 KiB into the buffer, aligned for any device.
    const std::size_t n = 256;
    auto random = test::random_engine("bad-input-in-place");
    auto values = test::random_vector<float>(2 * n, random);
    test::GuardedBuffer<float> buffer(values, n);
    // axpy: y = 2 y + y through the same buffer, offset and extent.
    axpy<float>(device().queue, n, 2.0f, buffer.buffer(), buffer.offset(), buffer.buffer(), buffer.offset()).wait();
    // vector_add: c = a + b with c a sub-buffer spelling the same bytes as a.
    const std::size_t base = buffer.offset() * sizeof(float);
    cl_buffer_region region{base + n * sizeof(float), n * sizeof(float)};
    cl::Buffer upper = buffer.buffer().createSubBuffer(CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &region);
    vector_add<float>(device().queue, n, buffer.buffer(), buffer.offset() + n, buffer.buffer(), buffer.offset(), upper,
                      0)
        .wait();
    std::vector<double> want(2 * n);
    for (std::size_t i = 0; i < n; ++i) {
      want[i] = 3.0 * values[i];
      want[n + i] = static_cast<double>(values[n + i]) + want[i];
    }
    test::check_all_close(buffer.read(), want, 1e-6, "in place");
    buffer.check_guards("in place");
  }

  TEST_CASE("bad input: transpose of double needs no fp64 (the kernels move bits)") {
    WithoutFp64 scope;
    const std::vector<double> in{1, 2, 3, 4, 5, 6};
    cl::Buffer in_buffer = test::to_device(in);
    test::GuardedBuffer<double> out(6);
    transpose<double>(device().queue, 2, 3, in_buffer, 0, 3, out.buffer(), out.offset(), 2).wait();
    CHECK(out.read() == std::vector<double>{1, 4, 2, 5, 3, 6});
    out.check_guards("transpose of double");
  }
}

namespace {

// Zero-sized BLAS-breadth calls: no-ops on null inputs (the poisoned output must stay untouched).
std::vector<ZeroSized> blas_zero_sized_calls() {
  cl::CommandQueue& q = objects().queue;
  const cl::Buffer& none = objects().null_buffer;
  return {
      {"gemv m = 0, null a and x",
       [&](cl::Buffer& out, std::size_t at) {
         return gemv<float>(q, Layout::RowMajor, Transpose::No, 0, 4, 1.0f, none, 0, 4, none, 0, 1, 0.0f, out, at, 1);
       }},
      {"gemv n = 0 (column-major, transposed), negative increments",
       [&](cl::Buffer& out, std::size_t at) {
         return gemv<float>(q, Layout::ColMajor, Transpose::Yes, 4, 0, 1.0f, none, 0, 4, none, 0, -1, 2.0f, out, at,
                            -3);
       }},
      {"gemm_strided_batched batch_count = 0, null a and b",
       [&](cl::Buffer& out, std::size_t at) {
         return gemm_strided_batched<float>(q, Layout::RowMajor, Transpose::No, Transpose::No, 4, 4, 4, 1.0f, none, 0,
                                            4, 16, none, 0, 4, 16, 0.0f, out, at, 4, 16, 0);
       }},
      {"gemm_strided_batched n = 0, stride_c = 0",
       [&](cl::Buffer& out, std::size_t at) {
         return gemm_strided_batched<float>(q, Layout::ColMajor, Transpose::Yes, Transpose::No, 4, 0, 4, 1.0f, none, 0,
                                            4, 0, none, 0, 4, 0, 0.0f, out, at, 4, 0, 5);
       }},
      {"gemm_batched of no matrices",
       [&](cl::Buffer& out, std::size_t) {
         const std::vector<float> no_scalars;
         const std::vector<std::size_t> no_offsets;
         return gemm_batched<float>(q, Layout::RowMajor, Transpose::No, Transpose::No, 4, 4, 4, no_scalars, none,
                                    no_offsets, 4, none, no_offsets, 4, no_scalars, out, no_offsets, 4);
       }},
  };
}

// A marker command waiting for a user event, on a queue of its own (a command that never runs must not hold up the
// fixture's queue).
struct GatedMarker {
  cl::CommandQueue queue{device().context, device().device};
  cl::UserEvent gate{device().context};
  std::vector<cl::Event> wait{gate};
  cl::Event marker;
  void enqueue() { queue.enqueueMarkerWithWaitList(&wait, &marker); }
};

// What `wait_for()` did, run in a thread of its own: "returned", "tilecl::Error <argument> <status>", another
// exception, or "still blocked after 10 s" (then the thread is left behind, holding only shared state).
std::string outcome_of(std::function<void()> wait_for) {
  struct Outcome {
    std::mutex mutex;
    std::string text;
  };
  auto outcome = std::make_shared<Outcome>();
  std::thread waiter([outcome, wait_for = std::move(wait_for)] {
    std::string text = "returned";
    try {
      wait_for();
    } catch (const Error& error) {
      text = "tilecl::Error " + error.argument() + " " + error.status_name();
    } catch (const std::exception& error) {
      text = std::string("threw ") + typeid(error).name() + ": " + error.what();
    }
    std::lock_guard<std::mutex> lock(outcome->mutex);
    outcome->text = text;
  });
  for (int i = 0; i < 200; ++i) {
    {
      std::lock_guard<std::mutex> lock(outcome->mutex);
      if (!outcome->text.empty()) break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  std::lock_guard<std::mutex> lock(outcome->mutex);
  if (outcome->text.empty()) {
    waiter.detach();
    return "still blocked after 10 s";
  }
  waiter.join();
  return outcome->text;
}

const std::string kFailedInWaitList = "tilecl::Error wait CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST";

}  // namespace

TEST_SUITE("reliability.bad_input") {
  TEST_CASE("bad input: a host wait returns once the call's commands complete") {
    auto gated = std::make_shared<GatedMarker>();
    gated->enqueue();
    std::thread opener([gated] {
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
      gated->gate.setStatus(CL_COMPLETE);
    });
    CHECK(outcome_of([gated] { detail::wait_on_host("reduce_value", gated->marker, &gated->wait); }) == "returned");
    opener.join();
  }

  TEST_CASE("bad input: a host wait raises tilecl::Error when a wait-list event fails while it waits") {
    auto gated = std::make_shared<GatedMarker>();
    gated->enqueue();
    std::thread failer([gated] {
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
      gated->gate.setStatus(-5);
    });
    CHECK(outcome_of([gated] { detail::wait_on_host("reduce_value", gated->marker, &gated->wait); }) ==
          kFailedInWaitList);
    failer.join();
  }

  TEST_CASE("bad input: a host wait raises tilecl::Error when the event failed before the commands were enqueued") {
    // The window between the op's wait-list check and its enqueue: PoCL never runs the commands then.
    auto gated = std::make_shared<GatedMarker>();
    gated->gate.setStatus(-5);
    gated->enqueue();
    CHECK(outcome_of([gated] { detail::wait_on_host("reduce_index", gated->marker, &gated->wait); }) ==
          kFailedInWaitList);
  }

  // src/ops/reduce.cpp waits with detail::wait_on_host() rather than cl::Event::wait(): PoCL propagates the failure,
  // and clWaitForEvents' CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST would escape as a raw cl::Error.
  TEST_CASE(
      "bad input: reduce_value and reduce_index raise tilecl::Error when a wait-list event fails during the call") {
    test::ScopedEnv tune("TILECL_TUNE", "off");
    auto random = test::random_engine("failed-during-call");
    const std::size_t n = 100000;
    cl::Buffer x = test::to_device(test::random_vector<float>(n, random));
    cl::CommandQueue queue(device().context, device().device);
    for (const bool index : {false, true}) {
      CAPTURE(index);
      cl::UserEvent gate(device().context);
      const std::vector<cl::Event> wait{gate};
      std::thread failer([gate]() mutable {
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
        gate.setStatus(-5);
      });
      const std::string outcome = outcome_of([=]() mutable {
        if (index)
          reduce_index<float>(queue, ReduceOp::ArgMax, n, x, 0, &wait);
        else
          reduce_value<float>(queue, ReduceOp::Sum, n, x, 0, &wait);
      });
      failer.join();
      CHECK(outcome == kFailedInWaitList);
    }
  }

  TEST_CASE("bad input: zero-sized gemv and batched gemm calls are no-ops that leave the output untouched") {
    for (const auto& zero : blas_zero_sized_calls()) {
      CAPTURE(zero.label);
      test::GuardedBuffer<float> out(32);
      cl::Event event;
      CHECK_NOTHROW(event = zero.call(out.buffer(), out.offset()));
      CHECK(event() == nullptr);
      device().queue.finish();
      std::size_t written = 0;
      for (float value : out.read()) written += test::is_poison(value) ? 0 : 1;
      CHECK_MESSAGE(written == 0, written << " elements of the output were written");
      out.check_guards(zero.label);
    }
  }
}
