#include "ops/gemm/problem.hpp"

#include <algorithm>

#include "tilecl/error.hpp"
#include "tuning/op_registry.hpp"

namespace tilecl::detail::gemm {

KernelProblem row_major(const Call& call) {
  const bool ta = call.trans_a == Transpose::Yes, tb = call.trans_b == Transpose::Yes;
  if (call.layout == Layout::RowMajor) return {call.m, call.n, call.k, ta, tb, false, call.a, call.b, call.c};
  return {call.n, call.m, call.k, tb, ta, false, call.b, call.a, call.c};
}

KernelProblem transposed(const KernelProblem& p) {
  return {p.n, p.m, p.k, !p.trans_b, !p.trans_a, !p.trans_c, p.b, p.a, p.c};
}

KernelProblem oriented(const KernelProblem& p, const std::string& variant) {
  bool flip = false;
  if (variant == "skinny_m") flip = p.n < p.m || (p.n == p.m && p.trans_b && !p.trans_a);
  if (variant == "skinny_n") flip = p.m < p.n || (p.m == p.n && p.trans_a && !p.trans_b);
  return flip ? transposed(p) : p;
}

namespace {

// Elements a stored rows x cols matrix spans from its offset.
std::uint64_t span(Layout layout, std::uint64_t rows, std::uint64_t cols, std::uint64_t ld, const char* name) {
  if (rows == 0 || cols == 0) return 0;
  const std::uint64_t lines = layout == Layout::RowMajor ? rows : cols,
                      length = layout == Layout::RowMajor ? cols : rows;
  return checked_add(kOp, name, checked_multiply(kOp, name, lines - 1, ld), length);
}

struct Stored {
  const char* name;
  const char* ld_name;
  const Operand* operand;
  std::uint64_t rows, cols;
};

// The leading dimension covers the stored matrix; returns the elements it spans.
std::uint64_t checked_span(const Call& call, const Stored& s) {
  const bool row_major = call.layout == Layout::RowMajor;
  const std::uint64_t minimum = std::max<std::uint64_t>(1, row_major ? s.cols : s.rows);
  if (s.operand->ld < minimum)
    throw Error(kOp, s.ld_name, CL_INVALID_VALUE,
                std::to_string(s.operand->ld) + " is less than the " + (row_major ? "columns" : "rows") + " (" +
                    std::to_string(minimum) + ") of the stored " + std::to_string(s.rows) + " x " +
                    std::to_string(s.cols) + " " + (row_major ? "row-major" : "column-major") + " matrix " + s.name);
  check_kernel_extent(kOp, s.ld_name, s.operand->ld);
  const std::uint64_t elements = span(call.layout, s.rows, s.cols, s.operand->ld, s.name);
  check_kernel_extent(kOp, s.name, elements);
  return elements;
}

}  // namespace

void check_enums(const Call& call) {
  check_enum(kOp, "layout", call.layout);
  check_enum(kOp, "trans_a", call.trans_a);
  check_enum(kOp, "trans_b", call.trans_b);
}

void validate(const QueueTarget& target, const DTypeInfo& dtype, const Call& call) {
  check_dtype_supported(kOp, dtype, *target.info);
  check_kernel_extent(kOp, "m", call.m);
  check_kernel_extent(kOp, "n", call.n);
  check_kernel_extent(kOp, "k", call.k);
  const bool ta = call.trans_a == Transpose::Yes, tb = call.trans_b == Transpose::Yes;
  const Stored matrices[] = {{"a", "lda", &call.a, ta ? call.k : call.m, ta ? call.m : call.k},
                             {"b", "ldb", &call.b, tb ? call.n : call.k, tb ? call.k : call.n},
                             {"c", "ldc", &call.c, call.m, call.n}};
  std::uint64_t spans[3];
  for (int i = 0; i < 3; ++i) spans[i] = checked_span(call, matrices[i]);
  // Then the buffers (k == 0: A and B are not read, so not checked).
  for (int i = 0; i < 3; ++i)
    if (spans[i] > 0)
      check_buffer(kOp, matrices[i].name, *matrices[i].operand->buffer, target.context, matrices[i].operand->offset,
                   spans[i], dtype.size);
  // C must not overlap A or B (the kernels read A and B while C is written).
  check_no_overlap(kOp, "a", *call.a.buffer, call.a.offset, spans[0], "c", *call.c.buffer, call.c.offset, spans[2],
                   dtype.size);
  check_no_overlap(kOp, "b", *call.b.buffer, call.b.offset, spans[1], "c", *call.c.buffer, call.c.offset, spans[2],
                   dtype.size);
}

namespace {

// One ":word" of a gemm shape applied to the call: a layout, the transposes, or a leading dimension.
void apply_shape_word(const std::string& text, const std::string& word, Call& call) {
  if (word == "row" || word == "col") {
    call.layout = word == "row" ? Layout::RowMajor : Layout::ColMajor;
    return;
  }
  if (word.size() == 2 && (word[0] == 'N' || word[0] == 'T') && (word[1] == 'N' || word[1] == 'T')) {
    call.trans_a = word[0] == 'T' ? Transpose::Yes : Transpose::No;
    call.trans_b = word[1] == 'T' ? Transpose::Yes : Transpose::No;
    return;
  }
  const bool leading = word.size() > 4 && word.compare(0, 2, "ld") == 0 && word[3] == '=' &&
                       (word[2] == 'a' || word[2] == 'b' || word[2] == 'c');
  if (!leading)
    throw Error(kOp, "shape", CL_INVALID_VALUE,
                "'" + text + "': expected MxNxK[:NN|NT|TN|TT][:row|col][:lda=N][:ldb=N][:ldc=N], e.g. 1x4096x4096:NT");
  Operand& operand = word[2] == 'a' ? call.a : word[2] == 'b' ? call.b : call.c;
  operand.ld = parse_size(kOp, word.substr(4));
  if (operand.ld == 0) throw Error(kOp, "shape", CL_INVALID_VALUE, "'" + text + "': a leading dimension is >= 1");
}

}  // namespace

Call parse_shape(const std::string& text) {
  std::string dims = text, rest;
  const auto colon = text.find(':');
  if (colon != std::string::npos) dims = text.substr(0, colon), rest = text.substr(colon);
  const auto sizes = parse_dimensions(kOp, dims, 3);
  Call call{Layout::RowMajor, Transpose::No, Transpose::No, sizes[0], sizes[1], sizes[2], {}, {}, {}};
  std::size_t at = 0;
  while (at < rest.size()) {
    const auto next = rest.find(':', at + 1);
    apply_shape_word(text, rest.substr(at + 1, next == std::string::npos ? std::string::npos : next - at - 1), call);
    at = next == std::string::npos ? rest.size() : next;
  }
  return call;
}

KernelProblem timed_problem(KernelProblem p, bool cpu, double gpu_multiply_adds) {
  const double most = cpu ? gpu_multiply_adds / 16 : gpu_multiply_adds;
  while (static_cast<double>(p.m) * static_cast<double>(p.n) * static_cast<double>(p.k) > most) {
    std::uint64_t& longest = p.m >= p.n && p.m >= p.k ? p.m : (p.n >= p.k ? p.n : p.k);
    longest = (longest + 1) / 2;
  }
  return p;
}

}  // namespace tilecl::detail::gemm
