/* The C API (include/tilecl/tilecl.h) from a C program, built as C99 and as C11 (tests/c_api/CMakeLists.txt):
 * every function on random data at awkward sizes and offsets, checked against host references written here,
 * outputs between guard regions that must stay untouched; zero sizes, wait lists, status codes and the
 * per-thread error message. Prints one line per check that fails and a summary; exits 1 on any failure. */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tilecl/tilecl.h>

static int failures = 0;
static int checks = 0;

#define CHECK(condition, ...)                                  \
  do {                                                         \
    ++checks;                                                  \
    if (!(condition)) {                                        \
      ++failures;                                              \
      printf("FAIL %s:%d: %s: ", __FILE__, __LINE__, #condition); \
      printf(__VA_ARGS__);                                     \
      printf("\n");                                            \
    }                                                          \
  } while (0)

/* The status is CL_SUCCESS; else prints the thread's last error message. */
#define CHECK_OK(call)                                                                                   \
  do {                                                                                                   \
    tilecl_status status_ = (call);                                                                      \
    CHECK(status_ == CL_SUCCESS, "%s: %s", tilecl_status_name(status_), tilecl_last_error_message()); \
  } while (0)

static cl_context context;
static cl_command_queue queue;
static cl_device_id device;

/* --- Random data (a 64-bit LCG; TILECL_TEST_SEED reproduces a run) --------------------------------------- */

static uint64_t state = 88172645463325252ull;

static double uniform(void) { /* [0, 1) */
  state = state * 6364136223846793005ull + 1442695040888963407ull;
  return (double)(state >> 11) / 9007199254740992.0;
}
static float random_float(void) { return (float)(2.0 * uniform() - 1.0); }

/* --- Buffers with guard regions ------------------------------------------------------------------------ */

enum { GUARD = 64 }; /* elements before and after every output */

/* A device buffer of `guard + count + guard` elements of `size` bytes holding `host` in the middle and the
 * byte pattern 0x5a in the guards (and in the middle when host is NULL). */
static cl_mem upload(const void* host, size_t count, size_t size) {
  size_t total = (count + 2 * GUARD) * size;
  unsigned char* bytes = malloc(total);
  cl_int status;
  cl_mem buffer;
  memset(bytes, 0x5a, total);
  if (host != NULL) memcpy(bytes + GUARD * size, host, count * size);
  buffer = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, total, bytes, &status);
  if (status != CL_SUCCESS) {
    printf("clCreateBuffer failed: %d\n", status);
    exit(1);
  }
  free(bytes);
  return buffer;
}

/* Reads the middle into `host` and checks both guards still hold 0x5a. */
static void download(cl_mem buffer, void* host, size_t count, size_t size, const char* what) {
  size_t total = (count + 2 * GUARD) * size, i, damaged = 0;
  unsigned char* bytes = malloc(total);
  clEnqueueReadBuffer(queue, buffer, CL_TRUE, 0, total, bytes, 0, NULL, NULL);
  for (i = 0; i < GUARD * size; ++i) damaged += (bytes[i] != 0x5a) + (bytes[total - 1 - i] != 0x5a);
  CHECK(damaged == 0, "%s: %zu guard bytes overwritten", what, damaged);
  memcpy(host, bytes + GUARD * size, count * size);
  free(bytes);
}

static void check_close(const float* got, const double* want, size_t count, double tolerance, const char* what) {
  size_t i, bad = 0, first = 0;
  for (i = 0; i < count; ++i) {
    if (!(fabs(got[i] - want[i]) <= tolerance * (fabs(want[i]) > 1 ? fabs(want[i]) : 1))) {
      if (bad++ == 0) first = i;
    }
  }
  CHECK(bad == 0, "%s: %zu of %zu elements differ, first at %zu: %g, expected %g", what, bad, count, first,
        bad ? got[first] : 0.0, bad ? want[first] : 0.0);
}

static unsigned char* random_bytes(size_t count) {
  unsigned char* bytes = malloc(count > 0 ? count : 1);
  size_t i;
  for (i = 0; i < count; ++i) bytes[i] = (unsigned char)(uniform() * 256);
  return bytes;
}

static double* new_doubles(size_t count) { return calloc(count > 0 ? count : 1, sizeof(double)); }
static float* random_floats(size_t count) {
  float* values = malloc((count > 0 ? count : 1) * sizeof(float));
  size_t i;
  for (i = 0; i < count; ++i) values[i] = random_float();
  return values;
}

/* --- Elementwise ------------------------------------------------------------------------------------- */

static void test_axpy(size_t n, size_t x_offset, size_t y_offset) {
  float* x = random_floats(n + x_offset);
  float* y = random_floats(n + y_offset);
  float* got = malloc((n + y_offset + 1) * sizeof(float));
  double* want = new_doubles(n + y_offset);
  cl_mem x_buffer = upload(x, n + x_offset, sizeof(float)), y_buffer = upload(y, n + y_offset, sizeof(float));
  cl_event done = NULL;
  size_t i;
  char what[64];
  for (i = 0; i < n + y_offset; ++i) want[i] = i < y_offset ? y[i] : 0.75 * x[x_offset + i - y_offset] + y[i];
  /* Offsets count elements; the guards shift every element by GUARD. */
  CHECK_OK(tilecl_axpy_f32(queue, n, 0.75f, x_buffer, GUARD + x_offset, y_buffer, GUARD + y_offset, 0, NULL, &done));
  CHECK((n == 0) == (done == NULL), "axpy n=%zu: event %p", n, (void*)done);
  if (done != NULL) clReleaseEvent(done);
  download(y_buffer, got, n + y_offset, sizeof(float), "axpy");
  sprintf(what, "axpy n=%zu", n);
  check_close(got, want, n + y_offset, 1e-6, what);
  clReleaseMemObject(x_buffer);
  clReleaseMemObject(y_buffer);
  free(x), free(y), free(got), free(want);
}

static void test_vector_add(size_t n) {
  float* a = random_floats(n);
  float* b = random_floats(n);
  float* got = malloc((n + 1) * sizeof(float));
  double* want = new_doubles(n);
  cl_mem a_buffer = upload(a, n, sizeof(float)), b_buffer = upload(b, n, sizeof(float)),
         c_buffer = upload(NULL, n, sizeof(float));
  size_t i;
  for (i = 0; i < n; ++i) want[i] = (double)a[i] + b[i];
  CHECK_OK(tilecl_vector_add_f32(queue, n, a_buffer, GUARD, b_buffer, GUARD, c_buffer, GUARD, 0, NULL, NULL));
  download(c_buffer, got, n, sizeof(float), "vector_add");
  check_close(got, want, n, 1e-6, "vector_add");
  clReleaseMemObject(a_buffer), clReleaseMemObject(b_buffer), clReleaseMemObject(c_buffer);
  free(a), free(b), free(got), free(want);
}

/* The device has fp64: vector_add_f64 adds; else it is refused with CL_INVALID_DEVICE. */
static void test_double(int fp64) {
  double a[3] = {1.25, -2.5, 1e300}, b[3] = {0.125, 4.0, 1e300}, c[3];
  cl_mem a_buffer = upload(a, 3, sizeof(double)), b_buffer = upload(b, 3, sizeof(double)),
         c_buffer = upload(NULL, 3, sizeof(double));
  tilecl_status status = tilecl_vector_add_f64(queue, 3, a_buffer, GUARD, b_buffer, GUARD, c_buffer, GUARD, 0, NULL,
                                               NULL);
  if (fp64) {
    CHECK(status == CL_SUCCESS, "vector_add_f64: %s", tilecl_last_error_message());
    download(c_buffer, c, 3, sizeof(double), "vector_add_f64");
    CHECK(c[0] == 1.375 && c[1] == 1.5 && c[2] == 2e300, "vector_add_f64: %g %g %g", c[0], c[1], c[2]);
  } else {
    CHECK(status == CL_INVALID_DEVICE, "vector_add_f64 without fp64: %s", tilecl_status_name(status));
  }
  clReleaseMemObject(a_buffer), clReleaseMemObject(b_buffer), clReleaseMemObject(c_buffer);
}

/* --- Transpose --------------------------------------------------------------------------------------- */

static void test_transpose_u8(size_t rows, size_t cols) {
  size_t ld_in = cols + 3, ld_out = rows + 5, r, c, bad = 0;
  size_t in_count = rows * ld_in, out_count = cols * ld_out;
  unsigned char* in = random_bytes(in_count);
  unsigned char* out = malloc(out_count);
  cl_mem in_buffer = upload(in, in_count, 1), out_buffer = upload(NULL, out_count, 1);
  CHECK_OK(tilecl_transpose_u8(queue, rows, cols, in_buffer, GUARD, ld_in, out_buffer, GUARD, ld_out, 0, NULL, NULL));
  download(out_buffer, out, out_count, 1, "transpose_u8");
  for (c = 0; c < cols; ++c)
    for (r = 0; r < ld_out; ++r) bad += out[c * ld_out + r] != (r < rows ? in[r * ld_in + c] : 0x5a);
  CHECK(bad == 0, "transpose_u8 %zux%zu: %zu elements differ (padding included)", rows, cols, bad);
  clReleaseMemObject(in_buffer), clReleaseMemObject(out_buffer);
  free(in), free(out);
}

static void test_transpose_i32(size_t rows, size_t cols) {
  size_t i, r, c, bad = 0, count = rows * cols;
  cl_int* in = malloc(count * sizeof(cl_int));
  cl_int* out = malloc(count * sizeof(cl_int));
  cl_mem in_buffer, out_buffer;
  for (i = 0; i < count; ++i) in[i] = (cl_int)(uniform() * 4e9 - 2e9);
  in_buffer = upload(in, count, sizeof(cl_int));
  out_buffer = upload(NULL, count, sizeof(cl_int));
  CHECK_OK(tilecl_transpose_i32(queue, rows, cols, in_buffer, GUARD, cols, out_buffer, GUARD, rows, 0, NULL, NULL));
  download(out_buffer, out, count, sizeof(cl_int), "transpose_i32");
  for (r = 0; r < rows; ++r)
    for (c = 0; c < cols; ++c) bad += out[c * rows + r] != in[r * cols + c];
  CHECK(bad == 0, "transpose_i32 %zux%zu: %zu elements differ", rows, cols, bad);
  clReleaseMemObject(in_buffer), clReleaseMemObject(out_buffer);
  free(in), free(out);
}

/* --- Reduce ------------------------------------------------------------------------------------------ */

static void test_reduce(size_t n) {
  float* x = random_floats(n);
  double sum = 0, max = -2;
  size_t i, argmax = 0, index = 12345;
  float value = 0, device_max[1];
  cl_int ints[5] = {7, -3, 9, 9, -11}, int_sum = 0;
  cl_mem x_buffer = upload(x, n, sizeof(float)), result = upload(NULL, 1, sizeof(float)),
         int_buffer = upload(ints, 5, sizeof(cl_int));
  for (i = 0; i < n; ++i) {
    sum += x[i];
    if (x[i] > max) max = x[i], argmax = i;
  }
  CHECK_OK(tilecl_reduce_value_f32(queue, TILECL_SUM, n, x_buffer, GUARD, &value, 0, NULL));
  CHECK(fabs(value - sum) <= 1e-5 * (double)n, "reduce_value sum n=%zu: %g, expected %g", n, value, sum);
  CHECK_OK(tilecl_reduce_index_f32(queue, TILECL_ARGMAX, n, x_buffer, GUARD, &index, 0, NULL));
  CHECK(index == argmax, "reduce_index argmax n=%zu: %zu, expected %zu", n, index, argmax);
  CHECK_OK(tilecl_reduce_f32(queue, TILECL_MAX, n, x_buffer, GUARD, result, GUARD, 0, NULL, NULL));
  download(result, device_max, 1, sizeof(float), "reduce max");
  CHECK(device_max[0] == (float)max, "reduce max n=%zu: %g, expected %g", n, device_max[0], max);
  CHECK_OK(tilecl_reduce_value_i32(queue, TILECL_SUM, 5, int_buffer, GUARD, &int_sum, 0, NULL));
  CHECK(int_sum == 11, "reduce_value_i32 sum: %d, expected 11", int_sum);
  CHECK_OK(tilecl_reduce_index_i32(queue, TILECL_ARGMIN, 5, int_buffer, GUARD, &index, 0, NULL));
  CHECK(index == 4, "reduce_index_i32 argmin: %zu, expected 4", index);
  clReleaseMemObject(x_buffer), clReleaseMemObject(result), clReleaseMemObject(int_buffer);
  free(x);
}

/* --- GEMM -------------------------------------------------------------------------------------------- */

/* C = alpha A^T B + beta C, row-major, A stored k x m (lda = m + 2), B k x n (ldb = n + 1), C m x n. */
static void test_gemm(size_t m, size_t n, size_t k) {
  size_t lda = m + 2, ldb = n + 1, ldc = n + 3, i, j, p;
  float* a = random_floats(k * lda);
  float* b = random_floats(k * ldb);
  float* c = random_floats(m * ldc);
  float* got = malloc(m * ldc * sizeof(float));
  double* want = new_doubles(m * ldc);
  cl_mem a_buffer = upload(a, k * lda, sizeof(float)), b_buffer = upload(b, k * ldb, sizeof(float)),
         c_buffer = upload(c, m * ldc, sizeof(float));
  for (i = 0; i < m; ++i) {
    for (j = 0; j < ldc; ++j) {
      double total = 0;
      if (j >= n) {
        want[i * ldc + j] = c[i * ldc + j];
        continue;
      }
      for (p = 0; p < k; ++p) total += (double)a[p * lda + i] * b[p * ldb + j];
      want[i * ldc + j] = 1.5 * total - 0.5 * c[i * ldc + j];
    }
  }
  CHECK_OK(tilecl_gemm_f32(queue, TILECL_ROW_MAJOR, TILECL_TRANSPOSE, TILECL_NO_TRANSPOSE, m, n, k, 1.5f, a_buffer,
                           GUARD, lda, b_buffer, GUARD, ldb, -0.5f, c_buffer, GUARD, ldc, 0, NULL, NULL));
  download(c_buffer, got, m * ldc, sizeof(float), "gemm");
  check_close(got, want, m * ldc, 1e-5 * (double)k, "gemm");
  clReleaseMemObject(a_buffer), clReleaseMemObject(b_buffer), clReleaseMemObject(c_buffer);
  free(a), free(b), free(c), free(got), free(want);
}

/* 16-bit storage: values k / 8 for integers |k| <= 16 (exact in half and bfloat16), encoded and decoded here. */
static uint16_t exact_half_bits(float x) { /* x a multiple of 2^-3 with |x| <= 2 */
  uint32_t bits;
  memcpy(&bits, &x, sizeof bits);
  if ((bits & 0x7fffffffu) == 0) return (uint16_t)(bits >> 16);
  return (uint16_t)(((bits >> 16) & 0x8000u) | ((((bits >> 23) & 0xffu) - 112u) << 10) | ((bits >> 13) & 0x3ffu));
}
static float half_bits_value(uint16_t h) { /* finite values */
  int exponent = (h >> 10) & 0x1f;
  double magnitude = exponent == 0 ? ldexp(h & 0x3ff, -24) : ldexp(1024 + (h & 0x3ff), exponent - 25);
  return (float)((h & 0x8000u) ? -magnitude : magnitude);
}
static uint16_t exact_bfloat16_bits(float x) {
  uint32_t bits;
  memcpy(&bits, &x, sizeof bits);
  return (uint16_t)(bits >> 16);
}
static float bfloat16_bits_value(uint16_t b) {
  uint32_t bits = (uint32_t)b << 16;
  float x;
  memcpy(&x, &bits, sizeof x);
  return x;
}

/* C = alpha A B^T + beta C on 16-bit elements (bf16 selects bfloat16, else half), column-major, A m x k (lda = m + 1),
 * B n x k (ldb = n), C m x n (ldc = m + 2): the result of tilecl_gemm_f16 / _bf16 within the 16-bit rounding and
 * float accumulation. */
static void test_gemm_16bit(size_t m, size_t n, size_t k, int bf16) {
  size_t lda = m + 1, ldb = n, ldc = m + 2, i, j, p;
  float* values = malloc((k * lda + k * ldb + n * ldc + 1) * sizeof(float));
  uint16_t* bits = malloc((k * lda + k * ldb + n * ldc + 1) * sizeof(uint16_t));
  uint16_t* got = malloc((n * ldc + 1) * sizeof(uint16_t));
  double* want = new_doubles(n * ldc);
  float* got_values = malloc((n * ldc + 1) * sizeof(float));
  const size_t b_at = k * lda, c_at = k * lda + k * ldb, total = k * lda + k * ldb + n * ldc;
  cl_mem a_buffer, b_buffer, c_buffer;
  for (i = 0; i < total; ++i) {
    values[i] = (float)((int)(uniform() * 33) - 16) / 8.0f;
    bits[i] = bf16 ? exact_bfloat16_bits(values[i]) : exact_half_bits(values[i]);
  }
  a_buffer = upload(bits, k * lda, 2), b_buffer = upload(bits + b_at, k * ldb, 2),
  c_buffer = upload(bits + c_at, n * ldc, 2);
  for (j = 0; j < n; ++j)
    for (i = 0; i < ldc; ++i) {
      double sum = 0;
      if (i >= m) {
        want[j * ldc + i] = values[c_at + j * ldc + i];
        continue;
      }
      for (p = 0; p < k; ++p) sum += (double)values[p * lda + i] * values[b_at + p * ldb + j];
      want[j * ldc + i] = 0.5 * sum - 1.5 * values[c_at + j * ldc + i];
    }
  CHECK_OK((bf16 ? tilecl_gemm_bf16 : tilecl_gemm_f16)(queue, TILECL_COL_MAJOR, TILECL_NO_TRANSPOSE, TILECL_TRANSPOSE,
                                                      m, n, k, 0.5f, a_buffer, GUARD, lda, b_buffer, GUARD, ldb,
                                                      -1.5f, c_buffer, GUARD, ldc, 0, NULL, NULL));
  download(c_buffer, got, n * ldc, 2, bf16 ? "gemm_bf16" : "gemm_f16");
  for (i = 0; i < n * ldc; ++i) got_values[i] = bf16 ? bfloat16_bits_value(got[i]) : half_bits_value(got[i]);
  /* one rounding to 16 bits (2^-8 or 2^-11 of the result) on sums of products bounded by 4 k + 6 */
  check_close(got_values, want, n * ldc, bf16 ? 1.0 / 128 : 1.0 / 1024, bf16 ? "gemm_bf16" : "gemm_f16");
  clReleaseMemObject(a_buffer), clReleaseMemObject(b_buffer), clReleaseMemObject(c_buffer);
  free(values), free(bits), free(got), free(want), free(got_values);
}

/* --- 16-bit elementwise, transpose, reduce and gemv -------------------------------------------------------- */

/* Random halves k / 1024 for integers |k| < 2048: normal (or zero) and exact, so sums and products of them need
 * rounding back to half. */
static void random_halves(uint16_t* bits, float* values, size_t count) {
  size_t i;
  for (i = 0; i < count; ++i) {
    values[i] = (float)((int)(uniform() * 4095) - 2047) / 1024.0f;
    bits[i] = exact_half_bits(values[i]);
  }
}

/* Each 16-bit result within one rounding to half (2^-11 of the exact value, 2^-25 absolute below half's normal range)
 * plus `accumulation` x magnitude[i] (the float arithmetic before it; magnitude NULL: none). */
static void check_halves(const uint16_t* got, const double* want, const double* magnitude, double accumulation,
                         size_t count, const char* what) {
  size_t i, bad = 0, first = 0;
  for (i = 0; i < count; ++i) {
    double bound = ldexp(fabs(want[i]), -11) + ldexp(1.0, -25) + (magnitude ? accumulation * magnitude[i] : 0.0);
    if (!(fabs(half_bits_value(got[i]) - want[i]) <= bound) && bad++ == 0) first = i;
  }
  CHECK(bad == 0, "%s: %zu of %zu elements differ, first at %zu: %g, expected %g", what, bad, count, first,
        bad ? half_bits_value(got[first]) : 0.0, bad ? want[first] : 0.0);
}

/* vector_add_f16 and axpy_f16 (alpha 0.75) at element offsets, and a sum past 65504 that must give infinity. */
static void test_elementwise_f16(size_t n, size_t offset) {
  uint16_t* a = malloc((n + offset + 1) * sizeof(uint16_t));
  uint16_t* b = malloc((n + offset + 1) * sizeof(uint16_t));
  uint16_t* got = malloc((n + offset + 1) * sizeof(uint16_t));
  float* a_values = malloc((n + offset + 1) * sizeof(float));
  float* b_values = malloc((n + offset + 1) * sizeof(float));
  double* want = new_doubles(n);
  cl_mem a_buffer, b_buffer, c_buffer;
  size_t i;
  random_halves(a, a_values, n + offset), random_halves(b, b_values, n + offset);
  if (n > 0) a[offset] = b[offset] = exact_half_bits(60000.0f), a_values[offset] = b_values[offset] = 60000.0f;
  a_buffer = upload(a, n + offset, 2), b_buffer = upload(b, n + offset, 2), c_buffer = upload(NULL, n, 2);
  CHECK_OK(tilecl_vector_add_f16(queue, n, a_buffer, GUARD + offset, b_buffer, GUARD + offset, c_buffer, GUARD, 0,
                                 NULL, NULL));
  download(c_buffer, got, n, 2, "vector_add_f16");
  for (i = 0; i < n; ++i) want[i] = (double)a_values[offset + i] + b_values[offset + i];
  if (n > 0) CHECK(got[0] == 0x7c00u, "vector_add_f16: 60000 + 60000 gave bits %04x, not infinity", got[0]);
  if (n > 1) check_halves(got + 1, want + 1, NULL, 0.0, n - 1, "vector_add_f16");
  CHECK_OK(tilecl_axpy_f16(queue, n, 0.75f, a_buffer, GUARD + offset, b_buffer, GUARD + offset, 0, NULL, NULL));
  download(b_buffer, got, n + offset, 2, "axpy_f16");
  for (i = 0; i < n; ++i) want[i] = 0.75 * a_values[offset + i] + b_values[offset + i];
  CHECK(memcmp(got, b, offset * 2) == 0, "axpy_f16 wrote before its offset");
  if (n > 0) CHECK(got[offset] == 0x7c00u, "axpy_f16: 0.75 * 60000 + 60000 gave bits %04x", got[offset]);
  if (n > 1) check_halves(got + offset + 1, want + 1, NULL, 0.0, n - 1, "axpy_f16");
  clReleaseMemObject(a_buffer), clReleaseMemObject(b_buffer), clReleaseMemObject(c_buffer);
  free(a), free(b), free(got), free(a_values), free(b_values), free(want);
}

/* transpose_f16 and _bf16 move any 16 bits (NaN and infinity patterns included) unchanged: in rows x cols with
 * ld_in = cols + 3, out with ld_out = rows + 1, the padding untouched. */
static void test_transpose_16bit(size_t rows, size_t cols, int bf16) {
  size_t ld_in = cols + 3, ld_out = rows + 1, r, c, bad = 0;
  uint16_t* in = malloc(rows * ld_in * sizeof(uint16_t));
  uint16_t* out = malloc(cols * ld_out * sizeof(uint16_t));
  uint16_t* got = malloc(cols * ld_out * sizeof(uint16_t));
  cl_mem in_buffer, out_buffer;
  for (r = 0; r < rows * ld_in; ++r) in[r] = (uint16_t)(uniform() * 65536);
  for (r = 0; r < cols * ld_out; ++r) out[r] = 0x5a5a;
  in_buffer = upload(in, rows * ld_in, 2), out_buffer = upload(out, cols * ld_out, 2);
  CHECK_OK((bf16 ? tilecl_transpose_bf16 : tilecl_transpose_f16)(queue, rows, cols, in_buffer, GUARD, ld_in,
                                                                out_buffer, GUARD, ld_out, 0, NULL, NULL));
  download(out_buffer, got, cols * ld_out, 2, bf16 ? "transpose_bf16" : "transpose_f16");
  for (r = 0; r < rows; ++r)
    for (c = 0; c < cols; ++c) out[c * ld_out + r] = in[r * ld_in + c];
  for (r = 0; r < cols * ld_out; ++r) bad += got[r] != out[r];
  CHECK(bad == 0, "transpose_%s %zux%zu: %zu elements differ (padding included)", bf16 ? "bf16" : "f16", rows, cols,
        bad);
  clReleaseMemObject(in_buffer), clReleaseMemObject(out_buffer);
  free(in), free(out), free(got);
}

/* reduce_f16: the sum within float summation's bound (n + 2) 2^-24 sum |x|, min, max and argmax exact, into a float
 * result buffer at an offset and to the host. */
static void test_reduce_f16(size_t n) {
  uint16_t* x = malloc(n * sizeof(uint16_t));
  float* values = malloc(n * sizeof(float));
  float value, device_min[3];
  double sum = 0, absolute = 0, max = -10, min = 10;
  size_t i, index, argmax = 0;
  cl_mem x_buffer, result = upload(NULL, 3, sizeof(float));
  random_halves(x, values, n);
  for (i = 0; i < n; ++i) {
    sum += values[i], absolute += fabs(values[i]);
    if (values[i] > max) max = values[i], argmax = i;
    if (values[i] < min) min = values[i];
  }
  x_buffer = upload(x, n, 2);
  CHECK_OK(tilecl_reduce_value_f16(queue, TILECL_SUM, n, x_buffer, GUARD, &value, 0, NULL));
  CHECK(fabs(value - sum) <= (double)(n + 2) * ldexp(absolute, -24), "reduce_value_f16 sum n=%zu: %.9g, expected %.9g",
        n, value, sum);
  CHECK_OK(tilecl_reduce_value_f16(queue, TILECL_MAX, n, x_buffer, GUARD, &value, 0, NULL));
  CHECK(value == (float)max, "reduce_value_f16 max n=%zu: %g, expected %g", n, value, max);
  CHECK_OK(tilecl_reduce_index_f16(queue, TILECL_ARGMAX, n, x_buffer, GUARD, &index, 0, NULL));
  CHECK(index == argmax, "reduce_index_f16 argmax n=%zu: %zu, expected %zu", n, index, argmax);
  CHECK_OK(tilecl_reduce_f16(queue, TILECL_MIN, n, x_buffer, GUARD, result, GUARD + 2, 0, NULL, NULL));
  download(result, device_min, 3, sizeof(float), "reduce_f16 min");
  CHECK(device_min[2] == (float)min, "reduce_f16 min n=%zu: %g, expected %g", n, device_min[2], min);
  clReleaseMemObject(x_buffer), clReleaseMemObject(result);
  free(x), free(values);
}

/* gemv_f16: y = 0.75 A x - 0.5 y, row-major A m x n (lda = n + 2), x at step 2, y contiguous at an offset; each y
 * within gemv.hpp's bound (n + 2) 2^-24 magnitude plus the rounding to half. */
static void test_gemv_f16(size_t m, size_t n) {
  size_t lda = n + 2, x_span = 2 * (n - 1) + 1, i, j;
  uint16_t* a = malloc(m * lda * sizeof(uint16_t));
  uint16_t* x = malloc(x_span * sizeof(uint16_t));
  uint16_t* y = malloc((m + 1) * sizeof(uint16_t));
  float* a_values = malloc(m * lda * sizeof(float));
  float* x_values = malloc(x_span * sizeof(float));
  float* y_values = malloc((m + 1) * sizeof(float));
  double* want = new_doubles(m);
  double* magnitude = new_doubles(m);
  cl_mem a_buffer, x_buffer, y_buffer;
  random_halves(a, a_values, m * lda), random_halves(x, x_values, x_span), random_halves(y, y_values, m + 1);
  for (i = 0; i < m; ++i) {
    double total = 0, size = 0;
    for (j = 0; j < n; ++j) {
      total += (double)a_values[i * lda + j] * x_values[2 * j];
      size += fabs((double)a_values[i * lda + j] * x_values[2 * j]);
    }
    want[i] = 0.75 * total - 0.5 * y_values[1 + i];
    magnitude[i] = 0.75 * size + 0.5 * fabs(y_values[1 + i]);
  }
  a_buffer = upload(a, m * lda, 2), x_buffer = upload(x, x_span, 2), y_buffer = upload(y, m + 1, 2);
  CHECK_OK(tilecl_gemv_f16(queue, TILECL_ROW_MAJOR, TILECL_NO_TRANSPOSE, m, n, 0.75f, a_buffer, GUARD, lda, x_buffer,
                           GUARD, 2, -0.5f, y_buffer, GUARD + 1, 1, 0, NULL, NULL));
  download(y_buffer, y, m + 1, 2, "gemv_f16");
  check_halves(y + 1, want, magnitude, (double)(n + 2) * ldexp(1.0, -24) * (1 + ldexp(1.0, -11)), m, "gemv_f16");
  clReleaseMemObject(a_buffer), clReleaseMemObject(x_buffer), clReleaseMemObject(y_buffer);
  free(a), free(x), free(y), free(a_values), free(x_values), free(y_values), free(want), free(magnitude);
}

/* Float gemm in TF32 mode: within TF32's bound (2^-10 + 2 (k + 5) 2^-24 of the magnitude, here below k + 1); a mode
 * outside the enumeration is CL_INVALID_VALUE. */
static void test_gemm_tf32(size_t m, size_t n, size_t k) {
  size_t i, j, p;
  float* a = random_floats(m * k);
  float* b = random_floats(k * n);
  float* got = malloc(m * n * sizeof(float));
  double* want = new_doubles(m * n);
  cl_mem a_buffer = upload(a, m * k, sizeof(float)), b_buffer = upload(b, k * n, sizeof(float)),
         c_buffer = upload(NULL, m * n, sizeof(float));
  for (i = 0; i < m; ++i)
    for (j = 0; j < n; ++j) {
      double total = 0;
      for (p = 0; p < k; ++p) total += (double)a[i * k + p] * b[p * n + j];
      want[i * n + j] = total;
    }
  CHECK_OK(tilecl_gemm_f32_math(queue, TILECL_MATH_TF32, TILECL_ROW_MAJOR, TILECL_NO_TRANSPOSE, TILECL_NO_TRANSPOSE,
                                m, n, k, 1.0f, a_buffer, GUARD, k, b_buffer, GUARD, n, 0.0f, c_buffer, GUARD, n, 0,
                                NULL, NULL));
  download(c_buffer, got, m * n, sizeof(float), "gemm_f32_math");
  check_close(got, want, m * n, (1.0 / 1024 + 2.0 * (double)(k + 5) / 16777216.0) * (double)(k + 1),
              "gemm_f32_math");
  CHECK(tilecl_gemm_f32_math(queue, (tilecl_math_mode)7, TILECL_ROW_MAJOR, TILECL_NO_TRANSPOSE, TILECL_NO_TRANSPOSE,
                             m, n, k, 1.0f, a_buffer, GUARD, k, b_buffer, GUARD, n, 0.0f, c_buffer, GUARD, n, 0, NULL,
                             NULL) == CL_INVALID_VALUE,
        "a bad math mode was accepted");
  clReleaseMemObject(a_buffer), clReleaseMemObject(b_buffer), clReleaseMemObject(c_buffer);
  free(a), free(b), free(got), free(want);
}

static int contains(const char* text, const char* part);

/* y = alpha A^T x + beta y: column-major A m x n (lda = m + 1), x of m elements at step -2 (BLAS: walked from the
 * far end), y of n elements at step 3; elements of y between the steps stay unchanged. */
static void test_gemv(size_t m, size_t n) {
  size_t lda = m + 1, x_span = 2 * (m - 1) + 1, y_span = 3 * (n - 1) + 1, i, r;
  float* a = random_floats(n * lda);
  float* x = random_floats(x_span);
  float* y = random_floats(y_span);
  float* got = malloc(y_span * sizeof(float));
  double* want = new_doubles(y_span);
  cl_mem a_buffer = upload(a, n * lda, sizeof(float)), x_buffer = upload(x, x_span, sizeof(float)),
         y_buffer = upload(y, y_span, sizeof(float));
  for (i = 0; i < y_span; ++i) want[i] = y[i];
  for (i = 0; i < n; ++i) {
    double total = 0;
    for (r = 0; r < m; ++r) total += (double)a[i * lda + r] * x[(m - 1 - r) * 2];
    want[3 * i] = 0.75 * total + 2.0 * y[3 * i];
  }
  CHECK_OK(tilecl_gemv_f32(queue, TILECL_COL_MAJOR, TILECL_TRANSPOSE, m, n, 0.75f, a_buffer, GUARD, lda, x_buffer,
                           GUARD, -2, 2.0f, y_buffer, GUARD, 3, 0, NULL, NULL));
  download(y_buffer, got, y_span, sizeof(float), "gemv");
  check_close(got, want, y_span, 1e-5 * (double)m, "gemv");
  clReleaseMemObject(a_buffer), clReleaseMemObject(x_buffer), clReleaseMemObject(y_buffer);
  free(a), free(x), free(y), free(got), free(want);
}

/* The reference of C_i = alpha A_i B_i + beta C_i, row-major, dense m x k, k x n and m x n matrices at the given
 * offsets in a, b and c (want holds c's elements on entry). */
static void reference_product(size_t m, size_t n, size_t k, double alpha, const float* a, const float* b,
                              double beta, double* want) {
  size_t i, j, p;
  for (i = 0; i < m; ++i)
    for (j = 0; j < n; ++j) {
      double total = 0;
      for (p = 0; p < k; ++p) total += (double)a[i * k + p] * b[p * n + j];
      want[i * n + j] = alpha * total + beta * want[i * n + j];
    }
}

/* batch products of dense row-major matrices, strided (B shared: stride 0) and then with per-matrix offsets
 * (in reverse order) and scalars. */
static void test_batched(size_t m, size_t n, size_t k, size_t batch) {
  size_t a_count = batch * m * k, c_count = batch * m * n, i;
  float* a = random_floats(a_count);
  float* b = random_floats(k * n);
  float* c = random_floats(c_count);
  float* got = malloc(c_count * sizeof(float));
  double* want = new_doubles(c_count);
  size_t* a_offsets = malloc(batch * sizeof(size_t));
  size_t* b_offsets = malloc(batch * sizeof(size_t));
  size_t* c_offsets = malloc(batch * sizeof(size_t));
  float* alphas = malloc(batch * sizeof(float));
  float* betas = malloc(batch * sizeof(float));
  cl_mem a_buffer = upload(a, a_count, sizeof(float)), b_buffer = upload(b, k * n, sizeof(float)),
         c_buffer = upload(c, c_count, sizeof(float));
  tilecl_status status;
  for (i = 0; i < c_count; ++i) want[i] = c[i];
  for (i = 0; i < batch; ++i) reference_product(m, n, k, -1.5, a + i * m * k, b, 0.5, want + i * m * n);
  CHECK_OK(tilecl_gemm_strided_batched_f32(queue, TILECL_ROW_MAJOR, TILECL_NO_TRANSPOSE, TILECL_NO_TRANSPOSE, m, n, k,
                                           -1.5f, a_buffer, GUARD, k, m * k, b_buffer, GUARD, n, 0, 0.5f, c_buffer,
                                           GUARD, n, m * n, batch, 0, NULL, NULL));
  download(c_buffer, got, c_count, sizeof(float), "gemm_strided_batched");
  check_close(got, want, c_count, 1e-5 * (double)k, "gemm_strided_batched");

  for (i = 0; i < batch; ++i) {
    a_offsets[i] = GUARD + (batch - 1 - i) * m * k, b_offsets[i] = GUARD, c_offsets[i] = GUARD + i * m * n;
    alphas[i] = (float)i - 1.0f, betas[i] = i % 2 ? 0.0f : 1.25f;
    reference_product(m, n, k, alphas[i], a + (batch - 1 - i) * m * k, b, betas[i], want + i * m * n);
  }
  CHECK_OK(tilecl_gemm_batched_f32(queue, TILECL_ROW_MAJOR, TILECL_NO_TRANSPOSE, TILECL_NO_TRANSPOSE, m, n, k, alphas,
                                   a_buffer, a_offsets, k, b_buffer, b_offsets, n, betas, c_buffer, c_offsets, n, batch,
                                   0, NULL, NULL));
  download(c_buffer, got, c_count, sizeof(float), "gemm_batched");
  check_close(got, want, c_count, 1e-5 * (double)k, "gemm_batched");
  status = tilecl_gemm_batched_f32(queue, TILECL_ROW_MAJOR, TILECL_NO_TRANSPOSE, TILECL_NO_TRANSPOSE, m, n, k, alphas,
                                   a_buffer, NULL, k, b_buffer, b_offsets, n, betas, c_buffer, c_offsets, n, batch, 0,
                                   NULL, NULL);
  CHECK(status == CL_INVALID_VALUE && contains(tilecl_last_error_message(), "a_offsets"), "NULL a_offsets: %s",
        tilecl_last_error_message());
  clReleaseMemObject(a_buffer), clReleaseMemObject(b_buffer), clReleaseMemObject(c_buffer);
  free(a), free(b), free(c), free(got), free(want), free(a_offsets), free(b_offsets), free(c_offsets);
  free(alphas), free(betas);
}

/* gemm_strided_batched_f16 and gemm_batched_f16 (per-matrix float scalars, A listed backwards, B shared): each
 * result within one rounding to half plus the float sums' bound. */
static void test_batched_f16(size_t m, size_t n, size_t k, size_t batch) {
  size_t a_count = batch * m * k, c_count = batch * m * n, i;
  float *a = malloc(a_count * sizeof(float)), *b = malloc(k * n * sizeof(float)), *c = malloc(c_count * sizeof(float));
  uint16_t *a_bits = malloc(a_count * 2), *b_bits = malloc(k * n * 2), *c_bits = malloc(c_count * 2);
  uint16_t* got = malloc(c_count * 2);
  double *want = new_doubles(c_count), *magnitude = new_doubles(c_count);
  size_t *a_offsets = malloc(batch * sizeof(size_t)), *b_offsets = malloc(batch * sizeof(size_t)),
         *c_offsets = malloc(batch * sizeof(size_t));
  float *alphas = malloc(batch * sizeof(float)), *betas = malloc(batch * sizeof(float));
  cl_mem a_buffer, b_buffer, c_buffer;
  random_halves(a_bits, a, a_count), random_halves(b_bits, b, k * n), random_halves(c_bits, c, c_count);
  a_buffer = upload(a_bits, a_count, 2), b_buffer = upload(b_bits, k * n, 2), c_buffer = upload(c_bits, c_count, 2);
  for (i = 0; i < c_count; ++i) want[i] = c[i], magnitude[i] = 6.0 * (double)k + 1.0;
  for (i = 0; i < batch; ++i) reference_product(m, n, k, -1.5, a + i * m * k, b, 0.5, want + i * m * n);
  CHECK_OK(tilecl_gemm_strided_batched_f16(queue, TILECL_ROW_MAJOR, TILECL_NO_TRANSPOSE, TILECL_NO_TRANSPOSE, m, n, k,
                                           -1.5f, a_buffer, GUARD, k, m * k, b_buffer, GUARD, n, 0, 0.5f, c_buffer,
                                           GUARD, n, m * n, batch, 0, NULL, NULL));
  download(c_buffer, got, c_count, 2, "gemm_strided_batched_f16");
  /* |a|, |b|, |c| < 2: |alpha| sum |a b| + |beta c| < 6 k + 1; the float sums err by (k + 2) 2^-24 of it */
  check_halves(got, want, magnitude, ldexp((double)k + 2.0, -24), c_count, "gemm_strided_batched_f16");

  for (i = 0; i < c_count; ++i) want[i] = half_bits_value(got[i]);
  for (i = 0; i < batch; ++i) {
    a_offsets[i] = GUARD + (batch - 1 - i) * m * k, b_offsets[i] = GUARD, c_offsets[i] = GUARD + i * m * n;
    alphas[i] = 0.5f * (float)i - 1.0f, betas[i] = i % 2 ? 0.0f : 1.25f;
    reference_product(m, n, k, alphas[i], a + (batch - 1 - i) * m * k, b, betas[i], want + i * m * n);
  }
  CHECK_OK(tilecl_gemm_batched_f16(queue, TILECL_ROW_MAJOR, TILECL_NO_TRANSPOSE, TILECL_NO_TRANSPOSE, m, n, k, alphas,
                                   a_buffer, a_offsets, k, b_buffer, b_offsets, n, betas, c_buffer, c_offsets, n, batch,
                                   0, NULL, NULL));
  download(c_buffer, got, c_count, 2, "gemm_batched_f16");
  for (i = 0; i < c_count; ++i) magnitude[i] = 4.0 * (double)k + 1.25 * (6.0 * (double)k + 1.0); /* |alpha| <= 1 */
  check_halves(got, want, magnitude, ldexp((double)k + 2.0, -24), c_count, "gemm_batched_f16");
  clReleaseMemObject(a_buffer), clReleaseMemObject(b_buffer), clReleaseMemObject(c_buffer);
  free(a), free(b), free(c), free(a_bits), free(b_bits), free(c_bits), free(got), free(want), free(magnitude);
  free(a_offsets), free(b_offsets), free(c_offsets), free(alphas), free(betas);
}

/* --- Images ------------------------------------------------------------------------------------------ */

/* The index a border rule reads for position i of an axis of n (tilecl::Border), or -1 for a zero. */
static long border_index(long i, long n, tilecl_border border) {
  if (i >= 0 && i < n) return i;
  switch (border) {
    case TILECL_BORDER_CLAMP:
      return i < 0 ? 0 : n - 1;
    case TILECL_BORDER_WRAP:
      return ((i % n) + n) % n;
    case TILECL_BORDER_MIRROR: {
      long period = 2 * (n - 1);
      if (n == 1) return 0;
      i = ((i % period) + period) % period;
      return i < n ? i : period - i;
    }
    default:
      return -1;
  }
}

/* dst = src correlated with a fw x fh filter, `channels` interleaved, dense rows. */
static void reference_filter(const float* src, double* dst, long width, long height, long channels, const float* f,
                             long fw, long fh, tilecl_border border) {
  long x, y, ch, i, j;
  for (y = 0; y < height; ++y)
    for (x = 0; x < width; ++x)
      for (ch = 0; ch < channels; ++ch) {
        double total = 0;
        for (j = 0; j < fh; ++j)
          for (i = 0; i < fw; ++i) {
            long sx = border_index(x + i - fw / 2, width, border), sy = border_index(y + j - fh / 2, height, border);
            if (sx >= 0 && sy >= 0) total += (double)f[j * fw + i] * src[(sy * width + sx) * channels + ch];
          }
        dst[(y * width + x) * channels + ch] = total;
      }
}

static void test_convolve2d(long width, long height, long channels, tilecl_border border) {
  size_t count = (size_t)(width * height * channels);
  float filter[15];
  float* src = random_floats(count);
  float* got = malloc(count * sizeof(float));
  double* want = new_doubles(count);
  cl_mem src_buffer, dst_buffer, filter_buffer;
  size_t i;
  for (i = 0; i < 15; ++i) filter[i] = random_float();
  src_buffer = upload(src, count, sizeof(float));
  dst_buffer = upload(NULL, count, sizeof(float));
  filter_buffer = upload(filter, 15, sizeof(float));
  reference_filter(src, want, width, height, channels, filter, 5, 3, border);
  CHECK_OK(tilecl_convolve2d_f32(queue, (size_t)width, (size_t)height, (size_t)channels, src_buffer, GUARD,
                                 (size_t)(width * channels), dst_buffer, GUARD, (size_t)(width * channels),
                                 filter_buffer, GUARD, 5, 3, border, 0, NULL, NULL));
  download(dst_buffer, got, count, sizeof(float), "convolve2d");
  check_close(got, want, count, 1e-5, "convolve2d");
  clReleaseMemObject(src_buffer), clReleaseMemObject(dst_buffer), clReleaseMemObject(filter_buffer);
  free(src), free(got), free(want);
}

/* Separable (u8), box (f32) and Gaussian (f32) blurs, each against reference_filter with the equivalent 2-D
 * filter; u8 results may differ by one where the float sum rounds differently. */
static void test_blurs(long width, long height, tilecl_border border) {
  size_t count = (size_t)(width * height), i, bad = 0;
  float row[5], column[3], outer[15], box[9], gauss[81], taps[9], norm = 0;
  float* src = random_floats(count);
  unsigned char* bytes = random_bytes(count);
  unsigned char* got_bytes = malloc(count);
  float* byte_values = malloc(count * sizeof(float));
  float* got = malloc(count * sizeof(float));
  double* want = new_doubles(count);
  cl_mem byte_buffer, byte_out, src_buffer, dst_buffer, row_buffer, column_buffer;
  long d, j;
  for (i = 0; i < 5; ++i) row[i] = (float)uniform() * 0.4f;
  for (i = 0; i < 3; ++i) column[i] = (float)uniform() * 0.6f;
  for (j = 0; j < 3; ++j)
    for (d = 0; d < 5; ++d) outer[j * 5 + d] = column[j] * row[d];
  for (i = 0; i < count; ++i) byte_values[i] = bytes[i];
  byte_buffer = upload(bytes, count, 1), byte_out = upload(NULL, count, 1);
  row_buffer = upload(row, 5, sizeof(float)), column_buffer = upload(column, 3, sizeof(float));
  CHECK_OK(tilecl_separable_filter_u8(queue, (size_t)width, (size_t)height, 1, byte_buffer, GUARD, (size_t)width,
                                      byte_out, GUARD, (size_t)width, row_buffer, GUARD, 5, column_buffer, GUARD, 3,
                                      border, 0, NULL, NULL));
  download(byte_out, got_bytes, count, 1, "separable_filter_u8");
  reference_filter(byte_values, want, width, height, 1, outer, 5, 3, border);
  for (i = 0; i < count; ++i) {
    double expected = want[i] < 0 ? 0 : want[i] > 255 ? 255 : want[i];
    bad += fabs(got_bytes[i] - expected) > 0.5 + 1e-3;
  }
  CHECK(bad == 0, "separable_filter_u8 %ldx%ld: %zu pixels off by more than rounding", width, height, bad);

  src_buffer = upload(src, count, sizeof(float)), dst_buffer = upload(NULL, count, sizeof(float));
  for (i = 0; i < 9; ++i) box[i] = 1.0f / 9;
  CHECK_OK(tilecl_box_blur_f32(queue, (size_t)width, (size_t)height, 1, src_buffer, GUARD, (size_t)width, dst_buffer,
                               GUARD, (size_t)width, 1, 1, border, 0, NULL, NULL));
  download(dst_buffer, got, count, sizeof(float), "box_blur");
  reference_filter(src, want, width, height, 1, box, 3, 3, border);
  check_close(got, want, count, 1e-5, "box_blur");

  /* sigma 1.2: the default radius is ceil(3 sigma) = 4, so 9 taps. */
  for (d = -4; d <= 4; ++d) taps[d + 4] = (float)exp(-(double)(d * d) / (2 * 1.2 * 1.2)), norm += taps[d + 4];
  for (j = 0; j < 9; ++j)
    for (d = 0; d < 9; ++d) gauss[j * 9 + d] = taps[j] / norm * taps[d] / norm;
  CHECK_OK(tilecl_gaussian_blur_f32(queue, (size_t)width, (size_t)height, 1, src_buffer, GUARD, (size_t)width,
                                    dst_buffer, GUARD, (size_t)width, 1.2, border, TILECL_GAUSSIAN_RADIUS_AUTO, 0, NULL,
                                    NULL));
  download(dst_buffer, got, count, sizeof(float), "gaussian_blur");
  reference_filter(src, want, width, height, 1, gauss, 9, 9, border);
  check_close(got, want, count, 1e-5, "gaussian_blur");
  clReleaseMemObject(byte_buffer), clReleaseMemObject(byte_out), clReleaseMemObject(src_buffer);
  clReleaseMemObject(dst_buffer), clReleaseMemObject(row_buffer), clReleaseMemObject(column_buffer);
  free(src), free(bytes), free(got_bytes), free(byte_values), free(got), free(want);
}

static void test_rgb_to_gray(size_t width, size_t height) {
  size_t src_pitch = 3 * width + 2, dst_pitch = width + 1, x, y, bad = 0;
  size_t src_count = height * src_pitch, dst_count = height * dst_pitch;
  unsigned char* rgb = random_bytes(src_count);
  unsigned char* gray = malloc(dst_count);
  cl_mem src_buffer = upload(rgb, src_count, 1), dst_buffer = upload(NULL, dst_count, 1);
  CHECK_OK(tilecl_rgb_to_gray_u8(queue, width, height, src_buffer, GUARD, src_pitch, dst_buffer, GUARD, dst_pitch,
                                 0.3f, 0.6f, 0.1f, 0, NULL, NULL));
  download(dst_buffer, gray, dst_count, 1, "rgb_to_gray");
  for (y = 0; y < height; ++y)
    for (x = 0; x < dst_pitch; ++x) {
      const unsigned char* p = rgb + y * src_pitch + 3 * x;
      double want = x < width ? 0.3 * p[0] + 0.6 * p[1] + 0.1 * p[2] : 0x5a;
      bad += fabs(gray[y * dst_pitch + x] - want) > 0.5 + 1e-3;
    }
  CHECK(bad == 0, "rgb_to_gray_u8 %zux%zu: %zu pixels differ (padding included)", width, height, bad);
  clReleaseMemObject(src_buffer), clReleaseMemObject(dst_buffer);
  free(rgb), free(gray);
}

/* --- Events, errors, threads, prepare ---------------------------------------------------------------- */

/* The op waits for a user event of the wait list: nothing happens before it completes. */
static void test_wait_list(void) {
  float x[4] = {1, 2, 3, 4}, y[4] = {10, 20, 30, 40}, got[4];
  cl_int status;
  cl_event gate = clCreateUserEvent(context, &status), done = NULL;
  cl_int state = CL_QUEUED;
  cl_mem x_buffer = upload(x, 4, sizeof(float)), y_buffer = upload(y, 4, sizeof(float));
  CHECK_OK(tilecl_axpy_f32(queue, 4, 2.0f, x_buffer, GUARD, y_buffer, GUARD, 1, &gate, &done));
  CHECK(done != NULL, "axpy behind a user event returned no event");
  if (done == NULL) return;
  clFlush(queue);
  clGetEventInfo(done, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(state), &state, NULL);
  CHECK(state != CL_COMPLETE, "axpy ran before the event it waits for completed");
  clSetUserEventStatus(gate, CL_COMPLETE);
  clWaitForEvents(1, &done);
  download(y_buffer, got, 4, sizeof(float), "axpy behind a user event");
  CHECK(got[0] == 12 && got[3] == 48, "axpy behind a user event: %g .. %g", got[0], got[3]);
  clReleaseEvent(done), clReleaseEvent(gate);
  clReleaseMemObject(x_buffer), clReleaseMemObject(y_buffer);
}

static int contains(const char* text, const char* part) { return strstr(text, part) != NULL; }

static void test_errors(void) {
  cl_mem small = upload(NULL, 10, sizeof(float));
  cl_event done = (cl_event)&done; /* a dangling value the call must overwrite with NULL */
  float value;
  tilecl_status status =
      tilecl_axpy_f32(queue, 1000, 1.0f, small, 0, small, GUARD + 10, 0, NULL, &done);
  CHECK(status == CL_INVALID_BUFFER_SIZE, "too small a buffer: %s", tilecl_status_name(status));
  CHECK(done == NULL, "a failed call left an event");
  CHECK(contains(tilecl_last_error_message(), "tilecl::axpy: x:") &&
            contains(tilecl_last_error_message(), "[CL_INVALID_BUFFER_SIZE]"),
        "message: %s", tilecl_last_error_message());
  CHECK(strcmp(tilecl_status_name(CL_INVALID_BUFFER_SIZE), "CL_INVALID_BUFFER_SIZE") == 0, "status name");
  CHECK(strcmp(tilecl_status_name(TILECL_ERROR_UNKNOWN), "TILECL_ERROR_UNKNOWN") == 0, "unknown status name");
  CHECK(strcmp(tilecl_status_name(-1001), "CL_PLATFORM_NOT_FOUND_KHR") == 0, "-1001: %s", tilecl_status_name(-1001));

  status = tilecl_axpy_f16(queue, 1000, 1.0f, small, 0, small, GUARD + 10, 0, NULL, NULL);
  CHECK(status == CL_INVALID_BUFFER_SIZE && contains(tilecl_last_error_message(), "of 2 bytes"),
        "too small a buffer of halves: %s", tilecl_last_error_message());
  status = tilecl_axpy_f32(queue, 1, 1.0f, small, GUARD, small, GUARD + 1, 2, NULL, NULL);
  CHECK(status == CL_INVALID_EVENT_WAIT_LIST, "count without a list: %s", tilecl_status_name(status));
  status = tilecl_box_blur_f32(queue, 2, 2, 1, small, GUARD, 2, small, GUARD + 4, 2, 1, 1, (tilecl_border)7, 0,
                               NULL, NULL);
  CHECK(status == CL_INVALID_VALUE && contains(tilecl_last_error_message(), "border"), "border 7: %s",
        tilecl_last_error_message());
  status = tilecl_reduce_value_f32(queue, TILECL_SUM, 4, small, GUARD, NULL, 0, NULL);
  CHECK(status == CL_INVALID_VALUE && contains(tilecl_last_error_message(), "value"), "NULL value: %s",
        tilecl_last_error_message());
  status = tilecl_reduce_value_f32(queue, TILECL_ARGMAX, 4, small, GUARD, &value, 0, NULL);
  CHECK(status == CL_INVALID_VALUE, "reduce_value of ArgMax: %s", tilecl_status_name(status));

  /* Zero sizes: success, nothing enqueued, no event, null buffers accepted. */
  done = (cl_event)&done;
  CHECK_OK(tilecl_transpose_f32(queue, 0, 5, NULL, 0, 5, NULL, 0, 1, 0, NULL, &done));
  CHECK(done == NULL, "a zero-sized transpose returned an event");
  CHECK(tilecl_last_error_message()[0] == '\0', "a success left the message '%s'", tilecl_last_error_message());
  clReleaseMemObject(small);
}

static void* fail_in_thread(void* result) {
  tilecl_axpy_f32(queue, 1, 1.0f, NULL, 0, NULL, 0, 0, NULL, NULL);
  *(int*)result = contains(tilecl_last_error_message(), "tilecl::axpy");
  return NULL;
}

/* Each thread has its own last message: a failure in another thread leaves this one's untouched. */
static void test_thread_messages(void) {
  pthread_t thread;
  int other_saw_its_error = 0;
  CHECK_OK(tilecl_transpose_f32(queue, 0, 0, NULL, 0, 1, NULL, 0, 1, 0, NULL, NULL));
  pthread_create(&thread, NULL, fail_in_thread, &other_saw_its_error);
  pthread_join(thread, NULL);
  CHECK(other_saw_its_error, "the failing thread does not see its message");
  CHECK(tilecl_last_error_message()[0] == '\0', "another thread's failure reached this thread: %s",
        tilecl_last_error_message());
}

static void test_prepare(void) {
  char chosen[256];
  tilecl_status status;
  CHECK_OK(tilecl_prepare(queue, "axpy", "float", "2^12", chosen, sizeof(chosen)));
  CHECK(strlen(chosen) > 3 && chosen[strlen(chosen) - 1] == ')', "prepare chose '%s'", chosen);
  CHECK_OK(tilecl_prepare(queue, "axpy", "float", "2^12", chosen, 4));
  CHECK(strlen(chosen) == 3, "a 4-byte buffer holds '%s'", chosen);
  status = tilecl_prepare(queue, "frobnicate", "float", "2^12", chosen, sizeof(chosen));
  CHECK(status == CL_INVALID_VALUE && contains(tilecl_last_error_message(), "axpy") && chosen[0] == '\0',
        "unknown op: %s", tilecl_last_error_message());
}

int main(void) {
  const char* seed = getenv("TILECL_TEST_SEED");
  char extensions[4096] = "";
  cl_int status;
  state ^= seed != NULL ? strtoull(seed, NULL, 10) : 20261201ull;
  CHECK_OK(tilecl_select_device(NULL, NULL, &device));
  if (failures) return 1;
  context = clCreateContext(NULL, 1, &device, NULL, NULL, &status);
#if CL_TARGET_OPENCL_VERSION >= 200
  queue = clCreateCommandQueueWithProperties(context, device, NULL, &status);
#else
  queue = clCreateCommandQueue(context, device, 0, &status);
#endif
  clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS, sizeof(extensions) - 1, extensions, NULL);
  printf("tilecl %s C API test (C %ld), seed %s\n", tilecl_version(), (long)__STDC_VERSION__,
         seed != NULL ? seed : "20261201");

  test_axpy(0, 0, 0), test_axpy(1, 0, 0), test_axpy(997, 3, 1), test_axpy(65537, 0, 5);
  test_vector_add(4099);
  test_double(contains(extensions, "cl_khr_fp64"));
  test_transpose_u8(37, 53), test_transpose_u8(1, 129);
  test_transpose_i32(64, 31);
  test_reduce(1), test_reduce(100003);
  test_gemm(37, 29, 41), test_gemm(1, 67, 3);
  test_gemm_16bit(23, 19, 37, 0), test_gemm_16bit(23, 19, 37, 1), test_gemm_16bit(1, 1, 1, 0);
  test_gemm_tf32(29, 31, 43);
  test_elementwise_f16(1, 0), test_elementwise_f16(4099, 3);
  test_transpose_16bit(37, 53, 0), test_transpose_16bit(1, 67, 1), test_transpose_16bit(67, 1, 0);
  test_reduce_f16(1), test_reduce_f16(100003);
  test_gemv_f16(29, 37), test_gemv_f16(1, 1);
  test_gemv(29, 37);
  test_batched(5, 7, 6, 3);
  test_batched_f16(5, 7, 6, 3), test_batched_f16(1, 1, 1, 1);
  /* One border each (every border is a program of its own, slow to build on a CPU; ops.convolve tests them all,
   * and the enumerations' values are checked where they are converted). */
  test_convolve2d(23, 17, 3, TILECL_BORDER_MIRROR), test_convolve2d(4, 2, 3, TILECL_BORDER_MIRROR);
  test_blurs(41, 13, TILECL_BORDER_CLAMP), test_blurs(7, 3, TILECL_BORDER_CLAMP);
  test_rgb_to_gray(31, 17);
  test_wait_list();
  test_errors();
  test_thread_messages();
  test_prepare();

  clReleaseCommandQueue(queue);
  clReleaseContext(context);
  printf("%d checks, %d failed\n", checks, failures);
  return failures == 0 ? 0 : 1;
}
