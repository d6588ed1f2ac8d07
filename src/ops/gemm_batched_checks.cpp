// Validation of batched gemm: sizes and leading dimensions as gemm, every matrix inside its buffer, no two C
// matrices sharing an element, no C matrix sharing a byte with an A or B matrix.
#include <algorithm>

#include "ops/gemm_batched_parts.hpp"
#include "tilecl/error.hpp"

namespace tilecl::detail {
namespace {

// One operand of every matrix of the batch: where each starts, and how it is stored.
struct Stored {
  const char* name;
  const char* ld_name;
  const cl::Buffer* buffer;
  std::uint64_t ld, rows, cols, span;
};

template <typename T>
std::uint64_t start_of(const BatchedCall<T>& call, char which, std::uint64_t i) {
  if (call.per_matrix()) {
    const auto& offsets = which == 'a' ? *call.a_offsets : which == 'b' ? *call.b_offsets : *call.c_offsets;
    return offsets[i];
  }
  if (which == 'a') return call.a_offset + i * call.stride_a;
  if (which == 'b') return call.b_offset + i * call.stride_b;
  return call.c_offset + i * call.stride_c;
}

// The matrix that reaches furthest into its buffer must end inside it (then all do); offsets are checked for
// 64-bit overflow one by one.
template <typename T>
void check_extents(const std::string& op, const QueueTarget& target, const BatchedCall<T>& call, char which,
                   const Stored& s) {
  std::uint64_t furthest = 0, furthest_end = 0;
  if (call.per_matrix()) {
    for (std::uint64_t i = 0; i < call.batch; ++i) {
      const std::uint64_t end = checked_add(op, s.name, start_of(call, which, i), s.span);
      if (end >= furthest_end) furthest = i, furthest_end = end;
    }
  } else {
    const std::uint64_t stride = which == 'a' ? call.stride_a : which == 'b' ? call.stride_b : call.stride_c;
    const std::uint64_t first = which == 'a' ? call.a_offset : which == 'b' ? call.b_offset : call.c_offset;
    checked_add(op, s.name, checked_add(op, s.name, first, checked_multiply(op, s.name, call.batch - 1, stride)),
                s.span);
    furthest = call.batch - 1;
  }
  check_buffer(op, s.name, *s.buffer, target.context, start_of(call, which, furthest), s.span, sizeof(T));
}

// Whether two copies of a stored matrix (lines of `length` elements, `ld` apart, ld >= length) that start
// `distance` elements apart share an element: distance = line difference * ld + column difference, with the
// column difference in (-length, length) -- so the line difference is distance / ld or one more.
bool copies_share_element(std::uint64_t distance, std::uint64_t lines, std::uint64_t length, std::uint64_t ld) {
  const std::uint64_t line = distance / ld, rest = distance % ld;
  if (line < lines && rest < length) return true;
  return rest != 0 && line + 1 < lines && ld - rest < length;
}

void throw_c_overlap(const std::string& op, std::uint64_t first, std::uint64_t second) {
  throw Error(op, "c", CL_MEM_COPY_OVERLAP,
              "two C matrices (at offsets " + std::to_string(first) + " and " + std::to_string(second) +
                  ") share elements: the outputs of a batch must be distinct");
}

// Strided: the distances between C matrices are the multiples of the stride below the span (stride 0: every
// matrix is the same one). Per-matrix: each pair closer than the span, in order of offset.
template <typename T>
void check_c_matrices_disjoint(const std::string& op, const BatchedCall<T>& call, const Stored& c) {
  const bool row_major = call.layout == Layout::RowMajor;
  const std::uint64_t lines = row_major ? c.rows : c.cols, length = row_major ? c.cols : c.rows;
  if (!call.per_matrix()) {
    for (std::uint64_t t = 1; t < call.batch && t * call.stride_c < c.span; ++t)
      if (copies_share_element(t * call.stride_c, lines, length, c.ld))
        throw_c_overlap(op, call.c_offset, call.c_offset + t * call.stride_c);
    return;
  }
  std::vector<std::uint64_t> starts(call.c_offsets->begin(), call.c_offsets->end());
  if (!std::is_sorted(starts.begin(), starts.end())) std::sort(starts.begin(), starts.end());
  for (std::size_t i = 0; i < starts.size(); ++i)
    for (std::size_t j = i + 1; j < starts.size() && starts[j] - starts[i] < c.span; ++j)
      if (copies_share_element(starts[j] - starts[i], lines, length, c.ld)) throw_c_overlap(op, starts[i], starts[j]);
}

// Byte ranges [begin, end) in the allocation both buffers belong to.
struct Range {
  std::uint64_t begin, end;
  bool operator<(const Range& other) const { return begin < other.begin; }
};

template <typename T>
std::vector<Range> ranges_of(const BatchedCall<T>& call, char which, const Stored& s, std::uint64_t base) {
  std::vector<Range> ranges(call.batch);
  for (std::uint64_t i = 0; i < call.batch; ++i) {
    const std::uint64_t begin = base + start_of(call, which, i) * sizeof(T);
    ranges[i] = {begin, begin + s.span * sizeof(T)};
  }
  return ranges;
}

// No C matrix shares a byte of its span with any matrix of `input` (sorted sweep: an input range overlaps
// [begin, end) when it starts before `end` and the furthest end among those is past `begin`).
template <typename T>
void check_c_apart_from(const std::string& op, const BatchedCall<T>& call, char which, const Stored& input,
                        const Stored& c) {
  if (input.span == 0) return;
  const auto [input_root, input_base] = buffer_origin(*input.buffer);
  const auto [c_root, c_base] = buffer_origin(*c.buffer);
  if (input_root != c_root) return;
  std::vector<Range> inputs = ranges_of(call, which, input, input_base);
  if (!std::is_sorted(inputs.begin(), inputs.end())) std::sort(inputs.begin(), inputs.end());
  std::vector<std::uint64_t> furthest_end(inputs.size());
  for (std::size_t i = 0; i < inputs.size(); ++i)
    furthest_end[i] = std::max(inputs[i].end, i > 0 ? furthest_end[i - 1] : 0);
  for (const Range& out : ranges_of(call, 'c', c, c_base)) {
    const auto before = std::lower_bound(inputs.begin(), inputs.end(), Range{out.end, out.end});
    const auto count = static_cast<std::size_t>(before - inputs.begin());
    if (count > 0 && furthest_end[count - 1] > out.begin)
      throw Error(op, "c", CL_MEM_COPY_OVERLAP,
                  std::string("a C matrix overlaps ") + (which == 'a' ? "an A" : "a B") + " matrix in the same buffer");
  }
}

}  // namespace

std::uint64_t batched_span(const std::string& op, const char* name, Layout layout, std::uint64_t rows,
                           std::uint64_t cols, std::uint64_t ld) {
  if (rows == 0 || cols == 0) return 0;
  const bool row_major = layout == Layout::RowMajor;
  return checked_add(op, name, checked_multiply(op, name, (row_major ? rows : cols) - 1, ld), row_major ? cols : rows);
}

template <typename T>
void validate_batched(const QueueTarget& target, const BatchedCall<T>& call) {
  const std::string op = batched_op_name(call);
  check_dtype_supported(op, dtype_of<T>(), *target.info);
  check_kernel_extent(op, "m", call.m);
  check_kernel_extent(op, "n", call.n);
  check_kernel_extent(op, "k", call.k);
  check_kernel_extent(op, "batch_count", call.batch);
  const bool ta = call.trans_a == Transpose::Yes, tb = call.trans_b == Transpose::Yes;
  Stored matrices[] = {{"a", "lda", call.a, call.lda, ta ? call.k : call.m, ta ? call.m : call.k, 0},
                       {"b", "ldb", call.b, call.ldb, tb ? call.n : call.k, tb ? call.k : call.n, 0},
                       {"c", "ldc", call.c, call.ldc, call.m, call.n, 0}};
  const bool row_major = call.layout == Layout::RowMajor;
  for (Stored& s : matrices) {
    const std::uint64_t minimum = std::max<std::uint64_t>(1, row_major ? s.cols : s.rows);
    if (s.ld < minimum)
      throw Error(op, s.ld_name, CL_INVALID_VALUE,
                  std::to_string(s.ld) + " is less than the " + (row_major ? "columns" : "rows") + " (" +
                      std::to_string(minimum) + ") of each stored " + std::to_string(s.rows) + " x " +
                      std::to_string(s.cols) + " matrix " + s.name);
    check_kernel_extent(op, s.ld_name, s.ld);
    s.span = batched_span(op, s.name, call.layout, s.rows, s.cols, s.ld);
    check_kernel_extent(op, s.name, s.span);
  }
  // k == 0: A and B are not read, so their buffers are not checked (as gemm).
  for (const Stored& s : matrices)
    if (s.span > 0) check_extents(op, target, call, s.name[0], s);
  check_c_matrices_disjoint(op, call, matrices[2]);
  check_c_apart_from(op, call, 'a', matrices[0], matrices[2]);
  check_c_apart_from(op, call, 'b', matrices[1], matrices[2]);
}

template void validate_batched<float>(const QueueTarget&, const BatchedCall<float>&);
template void validate_batched<double>(const QueueTarget&, const BatchedCall<double>&);
template void validate_batched<half>(const QueueTarget&, const BatchedCall<half>&);

}  // namespace tilecl::detail
