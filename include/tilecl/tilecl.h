/* tilecl's C API: every op of the C++ API on plain OpenCL handles (cl_command_queue, cl_mem, cl_event), for C
 * programs and for other languages' bindings. Include <tilecl/tilecl.h>; link as for C++ (the CMake target
 * tilecl::tilecl, or `pkg-config --libs tilecl`, which names the C++ runtime a static tilecl needs).
 *
 * Semantics, units and errors are those of the C++ function of the same name (include/tilecl/<family>.hpp);
 * the type is in the suffix: _f32 float, _f64 double, _i32 int32_t, _u8 uint8_t, _f16 IEEE binary16 (tilecl::half)
 * and _bf16 bfloat16 (tilecl::bfloat16), the 16-bit floats stored as such and computed in float, their scalars
 * (alpha, beta) and reduced values float. Sizes, offsets, leading dimensions and pitches count elements, never
 * bytes.
 *
 * Every function returns a tilecl_status: CL_SUCCESS (0), or the negative OpenCL error code the C++ API's
 * tilecl::Error carries (CL_INVALID_VALUE, CL_INVALID_BUFFER_SIZE, CL_MEM_COPY_OVERLAP, ...), or
 * TILECL_ERROR_UNKNOWN for a failure that has no OpenCL code. A failed call enqueues nothing (validation comes
 * first) and leaves a message on the calling thread: tilecl_last_error_message(), e.g.
 *   "tilecl::axpy: y: buffer too small: elements [0, 200) of 4 bytes need 800 bytes, it holds 400
 *    [CL_INVALID_BUFFER_SIZE]".
 *
 * Ops that enqueue end with the OpenCL triple (num_events_in_wait_list, event_wait_list, event): the first
 * command waits for the listed events (a count of 0 with a NULL list: none); when `event` is not NULL it
 * receives the event of the last command enqueued, retained for the caller (release it with clReleaseEvent),
 * or NULL when the call enqueued nothing (a zero-sized problem) or failed. Ops do not wait, except
 * tilecl_reduce_value_* and tilecl_reduce_index_*, which return a value to the host.
 *
 * Thread-safe: any thread may call any function at any time, as in C++; the last error message is per thread.
 * The queue and buffers stay the caller's: tilecl retains what it keeps and releases it itself.
 */
#ifndef TILECL_TILECL_H
#define TILECL_TILECL_H

#include <stddef.h>

#if defined(__APPLE__)
#include <OpenCL/cl.h>
#else
#include <CL/cl.h>
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* CL_SUCCESS, a negative OpenCL error code, or TILECL_ERROR_UNKNOWN. */
typedef cl_int tilecl_status;
#define TILECL_ERROR_UNKNOWN (-9999) /* a failure without an OpenCL code (the message says what) */

/* The enumerations of include/tilecl/types.hpp, in the same order. */
typedef enum tilecl_layout { TILECL_ROW_MAJOR = 0, TILECL_COL_MAJOR = 1 } tilecl_layout;
typedef enum tilecl_transpose { TILECL_NO_TRANSPOSE = 0, TILECL_TRANSPOSE = 1 } tilecl_transpose;
typedef enum tilecl_math_mode { TILECL_MATH_STANDARD = 0, TILECL_MATH_TF32 = 1 } tilecl_math_mode;
typedef enum tilecl_reduce_op {
  TILECL_SUM = 0,
  TILECL_MIN = 1,
  TILECL_MAX = 2,
  TILECL_ARGMIN = 3,
  TILECL_ARGMAX = 4
} tilecl_reduce_op;
typedef enum tilecl_border {
  TILECL_BORDER_ZERO = 0,
  TILECL_BORDER_CLAMP = 1,
  TILECL_BORDER_MIRROR = 2,
  TILECL_BORDER_WRAP = 3,
  TILECL_BORDER_REFLECT = 4 /* OpenCV's BORDER_REFLECT: b a | a b c d | d c */
} tilecl_border;

/* --- Runtime -------------------------------------------------------------------------------------------- */

/* The library's version ("0.1.0"). */
const char* tilecl_version(void);
/* The symbolic name of a status ("CL_INVALID_VALUE", "TILECL_ERROR_UNKNOWN", "CL_UNKNOWN_ERROR(<n>)"). The
 * text stays valid until the calling thread calls tilecl_status_name again. */
const char* tilecl_status_name(tilecl_status status);
/* The message of the calling thread's most recent failed call, "" when its most recent call succeeded. Valid
 * until the thread's next tilecl call. */
const char* tilecl_last_error_message(void);

/* A device as tilecl::select_device picks it (include/tilecl/device.hpp): `platform` and `device` are each an
 * index or a name substring, and the device may be "gpu", "cpu" or "accelerator"; NULL or "" falls back to
 * TILECL_PLATFORM / TILECL_DEVICE, then to the first. The device (a root device: nothing to release) is written to
 * *chosen. */
tilecl_status tilecl_select_device(const char* platform, const char* device, cl_device_id* chosen);

/* Compiles and tunes `op` for `dtype` at `shape` on the queue's device ahead of the first call, as
 * tilecl::prepare does (include/tilecl/prepare.hpp): names and shape syntax as in `tilecl tune --help`
 * ("axpy", "float", "2^20"). The parameters chosen ("variant NAME=VALUE ...", then their origin in
 * parentheses) are written to `chosen` (NUL-terminated, cut to chosen_size bytes) when it is not NULL. */
tilecl_status tilecl_prepare(cl_command_queue queue, const char* op, const char* dtype, const char* shape, char* chosen,
                             size_t chosen_size);

/* --- Elementwise (tilecl/elementwise.hpp) -------------------------------------------------------------- */

/* c = a + b over n elements. */
tilecl_status tilecl_vector_add_f32(cl_command_queue queue, size_t n, cl_mem a, size_t a_offset, cl_mem b,
                                    size_t b_offset, cl_mem c, size_t c_offset, cl_uint num_events_in_wait_list,
                                    const cl_event* event_wait_list, cl_event* event);
tilecl_status tilecl_vector_add_f64(cl_command_queue queue, size_t n, cl_mem a, size_t a_offset, cl_mem b,
                                    size_t b_offset, cl_mem c, size_t c_offset, cl_uint num_events_in_wait_list,
                                    const cl_event* event_wait_list, cl_event* event);
/* y = alpha x + y over n elements. */
tilecl_status tilecl_axpy_f32(cl_command_queue queue, size_t n, float alpha, cl_mem x, size_t x_offset, cl_mem y,
                              size_t y_offset, cl_uint num_events_in_wait_list, const cl_event* event_wait_list,
                              cl_event* event);
tilecl_status tilecl_axpy_f64(cl_command_queue queue, size_t n, double alpha, cl_mem x, size_t x_offset, cl_mem y,
                              size_t y_offset, cl_uint num_events_in_wait_list, const cl_event* event_wait_list,
                              cl_event* event);
/* The same on IEEE binary16 elements (tilecl::half; no cl_khr_fp16 needed), with a float alpha: computed in float and
 * each result rounded once to half (to nearest even; beyond 65504: infinity); bounds in tilecl/elementwise.hpp. */
tilecl_status tilecl_vector_add_f16(cl_command_queue queue, size_t n, cl_mem a, size_t a_offset, cl_mem b,
                                    size_t b_offset, cl_mem c, size_t c_offset, cl_uint num_events_in_wait_list,
                                    const cl_event* event_wait_list, cl_event* event);
tilecl_status tilecl_axpy_f16(cl_command_queue queue, size_t n, float alpha, cl_mem x, size_t x_offset, cl_mem y,
                              size_t y_offset, cl_uint num_events_in_wait_list, const cl_event* event_wait_list,
                              cl_event* event);

/* --- Transpose (tilecl/transpose.hpp) ------------------------------------------------------------------ */

/* out = in^T, row-major: in is rows x cols (leading dimension ld_in), out cols x rows (ld_out). */
tilecl_status tilecl_transpose_f32(cl_command_queue queue, size_t rows, size_t cols, cl_mem in, size_t in_offset,
                                   size_t ld_in, cl_mem out, size_t out_offset, size_t ld_out,
                                   cl_uint num_events_in_wait_list, const cl_event* event_wait_list, cl_event* event);
tilecl_status tilecl_transpose_f64(cl_command_queue queue, size_t rows, size_t cols, cl_mem in, size_t in_offset,
                                   size_t ld_in, cl_mem out, size_t out_offset, size_t ld_out,
                                   cl_uint num_events_in_wait_list, const cl_event* event_wait_list, cl_event* event);
tilecl_status tilecl_transpose_i32(cl_command_queue queue, size_t rows, size_t cols, cl_mem in, size_t in_offset,
                                   size_t ld_in, cl_mem out, size_t out_offset, size_t ld_out,
                                   cl_uint num_events_in_wait_list, const cl_event* event_wait_list, cl_event* event);
tilecl_status tilecl_transpose_u8(cl_command_queue queue, size_t rows, size_t cols, cl_mem in, size_t in_offset,
                                  size_t ld_in, cl_mem out, size_t out_offset, size_t ld_out,
                                  cl_uint num_events_in_wait_list, const cl_event* event_wait_list, cl_event* event);
/* 16-bit floats, binary16 (f16) and bfloat16 (bf16): the bits are moved unchanged (the two are one kernel; both names
 * for symmetry with gemm). */
tilecl_status tilecl_transpose_f16(cl_command_queue queue, size_t rows, size_t cols, cl_mem in, size_t in_offset,
                                   size_t ld_in, cl_mem out, size_t out_offset, size_t ld_out,
                                   cl_uint num_events_in_wait_list, const cl_event* event_wait_list, cl_event* event);
tilecl_status tilecl_transpose_bf16(cl_command_queue queue, size_t rows, size_t cols, cl_mem in, size_t in_offset,
                                    size_t ld_in, cl_mem out, size_t out_offset, size_t ld_out,
                                    cl_uint num_events_in_wait_list, const cl_event* event_wait_list, cl_event* event);

/* --- Reduce (tilecl/reduce.hpp) ------------------------------------------------------------------------ */

/* The reduction of x[x_offset .. x_offset + n) into `result` at result_offset: one element of the type for
 * TILECL_SUM, MIN and MAX, one int32 index for TILECL_ARGMIN and ARGMAX. */
tilecl_status tilecl_reduce_f32(cl_command_queue queue, tilecl_reduce_op op, size_t n, cl_mem x, size_t x_offset,
                                cl_mem result, size_t result_offset, cl_uint num_events_in_wait_list,
                                const cl_event* event_wait_list, cl_event* event);
tilecl_status tilecl_reduce_f64(cl_command_queue queue, tilecl_reduce_op op, size_t n, cl_mem x, size_t x_offset,
                                cl_mem result, size_t result_offset, cl_uint num_events_in_wait_list,
                                const cl_event* event_wait_list, cl_event* event);
tilecl_status tilecl_reduce_i32(cl_command_queue queue, tilecl_reduce_op op, size_t n, cl_mem x, size_t x_offset,
                                cl_mem result, size_t result_offset, cl_uint num_events_in_wait_list,
                                const cl_event* event_wait_list, cl_event* event);
/* The Sum, Min or Max written to *value (waits for the result). */
tilecl_status tilecl_reduce_value_f32(cl_command_queue queue, tilecl_reduce_op op, size_t n, cl_mem x, size_t x_offset,
                                      float* value, cl_uint num_events_in_wait_list, const cl_event* event_wait_list);
tilecl_status tilecl_reduce_value_f64(cl_command_queue queue, tilecl_reduce_op op, size_t n, cl_mem x, size_t x_offset,
                                      double* value, cl_uint num_events_in_wait_list, const cl_event* event_wait_list);
tilecl_status tilecl_reduce_value_i32(cl_command_queue queue, tilecl_reduce_op op, size_t n, cl_mem x, size_t x_offset,
                                      cl_int* value, cl_uint num_events_in_wait_list, const cl_event* event_wait_list);
/* The index (relative to x_offset) of an ArgMin or ArgMax written to *index (waits for the result). */
tilecl_status tilecl_reduce_index_f32(cl_command_queue queue, tilecl_reduce_op op, size_t n, cl_mem x, size_t x_offset,
                                      size_t* index, cl_uint num_events_in_wait_list, const cl_event* event_wait_list);
tilecl_status tilecl_reduce_index_f64(cl_command_queue queue, tilecl_reduce_op op, size_t n, cl_mem x, size_t x_offset,
                                      size_t* index, cl_uint num_events_in_wait_list, const cl_event* event_wait_list);
tilecl_status tilecl_reduce_index_i32(cl_command_queue queue, tilecl_reduce_op op, size_t n, cl_mem x, size_t x_offset,
                                      size_t* index, cl_uint num_events_in_wait_list, const cl_event* event_wait_list);
/* x holds IEEE binary16 elements (tilecl::half), read as float and reduced in float: the Sum, Min or Max is one float
 * (written at `result` + result_offset floats, or to *value; a sum may exceed half's range), ArgMin and ArgMax an int32
 * index as above. */
tilecl_status tilecl_reduce_f16(cl_command_queue queue, tilecl_reduce_op op, size_t n, cl_mem x, size_t x_offset,
                                cl_mem result, size_t result_offset, cl_uint num_events_in_wait_list,
                                const cl_event* event_wait_list, cl_event* event);
tilecl_status tilecl_reduce_value_f16(cl_command_queue queue, tilecl_reduce_op op, size_t n, cl_mem x, size_t x_offset,
                                      float* value, cl_uint num_events_in_wait_list, const cl_event* event_wait_list);
tilecl_status tilecl_reduce_index_f16(cl_command_queue queue, tilecl_reduce_op op, size_t n, cl_mem x, size_t x_offset,
                                      size_t* index, cl_uint num_events_in_wait_list, const cl_event* event_wait_list);

/* --- GEMM (tilecl/gemm.hpp) ---------------------------------------------------------------------------- */

/* C = alpha op(A) op(B) + beta C in BLAS semantics and argument order. */
tilecl_status tilecl_gemm_f32(cl_command_queue queue, tilecl_layout layout, tilecl_transpose trans_a,
                              tilecl_transpose trans_b, size_t m, size_t n, size_t k, float alpha, cl_mem a,
                              size_t a_offset, size_t lda, cl_mem b, size_t b_offset, size_t ldb, float beta, cl_mem c,
                              size_t c_offset, size_t ldc, cl_uint num_events_in_wait_list,
                              const cl_event* event_wait_list, cl_event* event);
tilecl_status tilecl_gemm_f64(cl_command_queue queue, tilecl_layout layout, tilecl_transpose trans_a,
                              tilecl_transpose trans_b, size_t m, size_t n, size_t k, double alpha, cl_mem a,
                              size_t a_offset, size_t lda, cl_mem b, size_t b_offset, size_t ldb, double beta, cl_mem c,
                              size_t c_offset, size_t ldc, cl_uint num_events_in_wait_list,
                              const cl_event* event_wait_list, cl_event* event);

/* The same on 16-bit floats (tilecl::gemm<half>, gemm<bfloat16>): a, b and c hold IEEE binary16 (f16) or bfloat16
 * (bf16) elements (offsets and leading dimensions count them); alpha and beta are float, products are accumulated in
 * float and each result is rounded once to 16 bits. Tensor cores on NVIDIA GPUs of compute capability 8.0 and newer,
 * a portable kernel elsewhere; accuracy bounds in tilecl/gemm.hpp. */
tilecl_status tilecl_gemm_f16(cl_command_queue queue, tilecl_layout layout, tilecl_transpose trans_a,
                              tilecl_transpose trans_b, size_t m, size_t n, size_t k, float alpha, cl_mem a,
                              size_t a_offset, size_t lda, cl_mem b, size_t b_offset, size_t ldb, float beta, cl_mem c,
                              size_t c_offset, size_t ldc, cl_uint num_events_in_wait_list,
                              const cl_event* event_wait_list, cl_event* event);
tilecl_status tilecl_gemm_bf16(cl_command_queue queue, tilecl_layout layout, tilecl_transpose trans_a,
                               tilecl_transpose trans_b, size_t m, size_t n, size_t k, float alpha, cl_mem a,
                               size_t a_offset, size_t lda, cl_mem b, size_t b_offset, size_t ldb, float beta, cl_mem c,
                               size_t c_offset, size_t ldc, cl_uint num_events_in_wait_list,
                               const cl_event* event_wait_list, cl_event* event);
/* Float gemm in a math mode (tilecl::MathMode): TILECL_MATH_TF32 lets A and B be rounded to TF32 (tensor cores on
 * NVIDIA GPUs of compute capability 8.0 and newer; error bound in tilecl/gemm.hpp), TILECL_MATH_STANDARD is
 * tilecl_gemm_f32. Another value: CL_INVALID_VALUE. */
tilecl_status tilecl_gemm_f32_math(cl_command_queue queue, tilecl_math_mode mode, tilecl_layout layout,
                                   tilecl_transpose trans_a, tilecl_transpose trans_b, size_t m, size_t n, size_t k,
                                   float alpha, cl_mem a, size_t a_offset, size_t lda, cl_mem b, size_t b_offset,
                                   size_t ldb, float beta, cl_mem c, size_t c_offset, size_t ldc,
                                   cl_uint num_events_in_wait_list, const cl_event* event_wait_list, cl_event* event);

/* --- GEMV and batched GEMM (tilecl/gemv.hpp, tilecl/gemm_batched.hpp) ---------------------------------- */

/* y = alpha op(A) x + beta y in BLAS semantics and argument order; incx, incy non-zero, either sign. */
tilecl_status tilecl_gemv_f32(cl_command_queue queue, tilecl_layout layout, tilecl_transpose trans, size_t m, size_t n,
                              float alpha, cl_mem a, size_t a_offset, size_t lda, cl_mem x, size_t x_offset,
                              ptrdiff_t incx, float beta, cl_mem y, size_t y_offset, ptrdiff_t incy,
                              cl_uint num_events_in_wait_list, const cl_event* event_wait_list, cl_event* event);
tilecl_status tilecl_gemv_f64(cl_command_queue queue, tilecl_layout layout, tilecl_transpose trans, size_t m, size_t n,
                              double alpha, cl_mem a, size_t a_offset, size_t lda, cl_mem x, size_t x_offset,
                              ptrdiff_t incx, double beta, cl_mem y, size_t y_offset, ptrdiff_t incy,
                              cl_uint num_events_in_wait_list, const cl_event* event_wait_list, cl_event* event);
/* The same on IEEE binary16 elements (tilecl::half) with float alpha and beta: computed in float, y rounded once to
 * half; bound in tilecl/gemv.hpp. */
tilecl_status tilecl_gemv_f16(cl_command_queue queue, tilecl_layout layout, tilecl_transpose trans, size_t m, size_t n,
                              float alpha, cl_mem a, size_t a_offset, size_t lda, cl_mem x, size_t x_offset,
                              ptrdiff_t incx, float beta, cl_mem y, size_t y_offset, ptrdiff_t incy,
                              cl_uint num_events_in_wait_list, const cl_event* event_wait_list, cl_event* event);

/* C_i = alpha op(A_i) op(B_i) + beta C_i for i < batch_count, matrix i of A at a_offset + i * stride_a (likewise B
 * and C). */
tilecl_status tilecl_gemm_strided_batched_f32(cl_command_queue queue, tilecl_layout layout, tilecl_transpose trans_a,
                                              tilecl_transpose trans_b, size_t m, size_t n, size_t k, float alpha,
                                              cl_mem a, size_t a_offset, size_t lda, size_t stride_a, cl_mem b,
                                              size_t b_offset, size_t ldb, size_t stride_b, float beta, cl_mem c,
                                              size_t c_offset, size_t ldc, size_t stride_c, size_t batch_count,
                                              cl_uint num_events_in_wait_list, const cl_event* event_wait_list,
                                              cl_event* event);
tilecl_status tilecl_gemm_strided_batched_f64(cl_command_queue queue, tilecl_layout layout, tilecl_transpose trans_a,
                                              tilecl_transpose trans_b, size_t m, size_t n, size_t k, double alpha,
                                              cl_mem a, size_t a_offset, size_t lda, size_t stride_a, cl_mem b,
                                              size_t b_offset, size_t ldb, size_t stride_b, double beta, cl_mem c,
                                              size_t c_offset, size_t ldc, size_t stride_c, size_t batch_count,
                                              cl_uint num_events_in_wait_list, const cl_event* event_wait_list,
                                              cl_event* event);

/* C_i = alphas[i] op(A_i) op(B_i) + betas[i] C_i for i < batch_count, matrix i of A at a_offsets[i] (likewise B and
 * C). alphas, betas and the offsets are host arrays of batch_count entries (NULL only for an empty batch), copied
 * before the call returns. */
tilecl_status tilecl_gemm_batched_f32(cl_command_queue queue, tilecl_layout layout, tilecl_transpose trans_a,
                                      tilecl_transpose trans_b, size_t m, size_t n, size_t k, const float* alphas,
                                      cl_mem a, const size_t* a_offsets, size_t lda, cl_mem b, const size_t* b_offsets,
                                      size_t ldb, const float* betas, cl_mem c, const size_t* c_offsets, size_t ldc,
                                      size_t batch_count, cl_uint num_events_in_wait_list,
                                      const cl_event* event_wait_list, cl_event* event);
tilecl_status tilecl_gemm_batched_f64(cl_command_queue queue, tilecl_layout layout, tilecl_transpose trans_a,
                                      tilecl_transpose trans_b, size_t m, size_t n, size_t k, const double* alphas,
                                      cl_mem a, const size_t* a_offsets, size_t lda, cl_mem b, const size_t* b_offsets,
                                      size_t ldb, const double* betas, cl_mem c, const size_t* c_offsets, size_t ldc,
                                      size_t batch_count, cl_uint num_events_in_wait_list,
                                      const cl_event* event_wait_list, cl_event* event);

/* Both on IEEE binary16 (f16) matrices with float scalars: products and sums in float, each C element rounded once
 * to half; bound in tilecl/gemm_batched.hpp. */
tilecl_status tilecl_gemm_strided_batched_f16(cl_command_queue queue, tilecl_layout layout, tilecl_transpose trans_a,
                                              tilecl_transpose trans_b, size_t m, size_t n, size_t k, float alpha,
                                              cl_mem a, size_t a_offset, size_t lda, size_t stride_a, cl_mem b,
                                              size_t b_offset, size_t ldb, size_t stride_b, float beta, cl_mem c,
                                              size_t c_offset, size_t ldc, size_t stride_c, size_t batch_count,
                                              cl_uint num_events_in_wait_list, const cl_event* event_wait_list,
                                              cl_event* event);
tilecl_status tilecl_gemm_batched_f16(cl_command_queue queue, tilecl_layout layout, tilecl_transpose trans_a,
                                      tilecl_transpose trans_b, size_t m, size_t n, size_t k, const float* alphas,
                                      cl_mem a, const size_t* a_offsets, size_t lda, cl_mem b, const size_t* b_offsets,
                                      size_t ldb, const float* betas, cl_mem c, const size_t* c_offsets, size_t ldc,
                                      size_t batch_count, cl_uint num_events_in_wait_list,
                                      const cl_event* event_wait_list, cl_event* event);

/* --- Images (tilecl/color.hpp, tilecl/convolve.hpp) ---------------------------------------------------- */

/* gray = red R + green G + blue B (tilecl::GrayWeights; 0.21, 0.72, 0.07 are the C++ defaults). */
tilecl_status tilecl_rgb_to_gray_u8(cl_command_queue queue, size_t width, size_t height, cl_mem src, size_t src_offset,
                                    size_t src_pitch, cl_mem dst, size_t dst_offset, size_t dst_pitch, float red,
                                    float green, float blue, cl_uint num_events_in_wait_list,
                                    const cl_event* event_wait_list, cl_event* event);
tilecl_status tilecl_rgb_to_gray_f32(cl_command_queue queue, size_t width, size_t height, cl_mem src, size_t src_offset,
                                     size_t src_pitch, cl_mem dst, size_t dst_offset, size_t dst_pitch, float red,
                                     float green, float blue, cl_uint num_events_in_wait_list,
                                     const cl_event* event_wait_list, cl_event* event);

/* dst = src correlated with a filter_width x filter_height filter of floats at filter[filter_offset...]. */
tilecl_status tilecl_convolve2d_u8(cl_command_queue queue, size_t width, size_t height, size_t channels, cl_mem src,
                                   size_t src_offset, size_t src_pitch, cl_mem dst, size_t dst_offset, size_t dst_pitch,
                                   cl_mem filter, size_t filter_offset, size_t filter_width, size_t filter_height,
                                   tilecl_border border, cl_uint num_events_in_wait_list,
                                   const cl_event* event_wait_list, cl_event* event);
tilecl_status tilecl_convolve2d_f32(cl_command_queue queue, size_t width, size_t height, size_t channels, cl_mem src,
                                    size_t src_offset, size_t src_pitch, cl_mem dst, size_t dst_offset,
                                    size_t dst_pitch, cl_mem filter, size_t filter_offset, size_t filter_width,
                                    size_t filter_height, tilecl_border border, cl_uint num_events_in_wait_list,
                                    const cl_event* event_wait_list, cl_event* event);

/* dst = src correlated with column_filter(j) * row_filter(i) (float taps). */
tilecl_status tilecl_separable_filter_u8(cl_command_queue queue, size_t width, size_t height, size_t channels,
                                         cl_mem src, size_t src_offset, size_t src_pitch, cl_mem dst, size_t dst_offset,
                                         size_t dst_pitch, cl_mem row_filter, size_t row_filter_offset,
                                         size_t row_filter_length, cl_mem column_filter, size_t column_filter_offset,
                                         size_t column_filter_length, tilecl_border border,
                                         cl_uint num_events_in_wait_list, const cl_event* event_wait_list,
                                         cl_event* event);
tilecl_status tilecl_separable_filter_f32(cl_command_queue queue, size_t width, size_t height, size_t channels,
                                          cl_mem src, size_t src_offset, size_t src_pitch, cl_mem dst,
                                          size_t dst_offset, size_t dst_pitch, cl_mem row_filter,
                                          size_t row_filter_offset, size_t row_filter_length, cl_mem column_filter,
                                          size_t column_filter_offset, size_t column_filter_length,
                                          tilecl_border border, cl_uint num_events_in_wait_list,
                                          const cl_event* event_wait_list, cl_event* event);

/* Mean over the (2 radius_x + 1) x (2 radius_y + 1) neighbourhood. */
tilecl_status tilecl_box_blur_u8(cl_command_queue queue, size_t width, size_t height, size_t channels, cl_mem src,
                                 size_t src_offset, size_t src_pitch, cl_mem dst, size_t dst_offset, size_t dst_pitch,
                                 size_t radius_x, size_t radius_y, tilecl_border border,
                                 cl_uint num_events_in_wait_list, const cl_event* event_wait_list, cl_event* event);
tilecl_status tilecl_box_blur_f32(cl_command_queue queue, size_t width, size_t height, size_t channels, cl_mem src,
                                  size_t src_offset, size_t src_pitch, cl_mem dst, size_t dst_offset, size_t dst_pitch,
                                  size_t radius_x, size_t radius_y, tilecl_border border,
                                  cl_uint num_events_in_wait_list, const cl_event* event_wait_list, cl_event* event);

/* Gaussian blur with sigma > 0; radius TILECL_GAUSSIAN_RADIUS_AUTO takes ceil(3 sigma) (at least 1). */
#define TILECL_GAUSSIAN_RADIUS_AUTO ((size_t)-1)
tilecl_status tilecl_gaussian_blur_u8(cl_command_queue queue, size_t width, size_t height, size_t channels, cl_mem src,
                                      size_t src_offset, size_t src_pitch, cl_mem dst, size_t dst_offset,
                                      size_t dst_pitch, double sigma, tilecl_border border, size_t radius,
                                      cl_uint num_events_in_wait_list, const cl_event* event_wait_list,
                                      cl_event* event);
tilecl_status tilecl_gaussian_blur_f32(cl_command_queue queue, size_t width, size_t height, size_t channels, cl_mem src,
                                       size_t src_offset, size_t src_pitch, cl_mem dst, size_t dst_offset,
                                       size_t dst_pitch, double sigma, tilecl_border border, size_t radius,
                                       cl_uint num_events_in_wait_list, const cl_event* event_wait_list,
                                       cl_event* event);

#ifdef __cplusplus
}
#endif

#endif /* TILECL_TILECL_H */
