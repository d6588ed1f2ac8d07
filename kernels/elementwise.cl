/* elementwise.cl -- vector operations, one output element from the same index of each input.
 *
 * Kernels
 *   elementwise_add_naive     c[i] = a[i] + b[i], one element per work-item. Global size >= n.
 *   elementwise_add_vector    the same, VEC elements at a time, WPT vectors per work-item.
 *   elementwise_axpy_naive    y[i] = alpha * x[i] + y[i], one element per work-item. Global size >= n.
 *   elementwise_axpy_vector   the same, VEC elements at a time, WPT vectors per work-item.
 * Every kernel checks bounds, so any n works; the vector kernels finish a partial last vector element by
 * element. Offsets are in elements and need no alignment (vloadn/vstoren only need element alignment).
 * With HALF_STORAGE = 1 the elements are IEEE binary16 bits (DTYPE ushort), read with vload_half / vload_halfn,
 * computed in float (alpha is a float) and rounded once to nearest even by vstore_half_rte / vstore_halfn_rte:
 * OpenCL C 1.2 core built-ins, so no cl_khr_fp16 is needed.
 *
 * Geometry of the vector kernels (the host derives it; WG_X is a launch parameter, not a macro):
 *   vectors = ceil(n / VEC), items = ceil(vectors / WPT), global = items rounded up to WG_X.
 *
 * Macros (every one has a default, so the file compiles with no options)
 *   DTYPE        element type: float or double; ushort with HALF_STORAGE = 1.       default float
 *   HALF_STORAGE 0: DTYPE is stored and computed. 1: half storage as above (DTYPE must be ushort). default 0
 *   VEC          elements per vector access: 1, 2, 4, 8 or 16.                     default 4
 *   WPT          vectors handled by one work-item: 1 or more.                      default 4
 *   USE_STRIDED  1: work-item i handles vectors i, i + items, i + 2 items, ... so neighbouring work-items
 *                touch neighbouring addresses at every step (coalesced; what GPUs want).
 *                0: work-item i handles WPT consecutive vectors (what CPUs under PoCL want: each work-item
 *                streams one contiguous block, and PoCL vectorizes across work-items).  default 1
 */

#ifndef DTYPE
#define DTYPE float
#endif
#ifndef VEC
#define VEC 4
#endif
#ifndef WPT
#define WPT 4
#endif
#ifndef USE_STRIDED
#define USE_STRIDED 1
#endif
#ifndef HALF_STORAGE
#define HALF_STORAGE 0
#endif

/* CTYPE: the arithmetic type (of alpha too). LOAD1 / STORE1: element `index` of pointer; LOADV / STOREV: vector
 * `index` (elements index * VEC ...). */
#if HALF_STORAGE
#define CTYPE float
#define LOAD1(index, pointer) vload_half(index, (__global const half*)(pointer))
#define STORE1(value, index, pointer) vstore_half_rte(value, index, (__global half*)(pointer))
#if VEC == 1
#define LOADV(index, pointer) LOAD1(index, pointer)
#define STOREV(value, index, pointer) STORE1(value, index, pointer)
#else
#define LOADV(index, pointer) TILECL_CAT(vload_half, VEC)(index, (__global const half*)(pointer))
#define STOREV(value, index, pointer) \
  TILECL_CAT(TILECL_CAT(vstore_half, VEC), _rte)(value, index, (__global half*)(pointer))
#endif
#else
#define CTYPE DTYPE
#define LOAD1(index, pointer) ((pointer)[index])
#define STORE1(value, index, pointer) ((pointer)[index] = (value))
#if VEC == 1
#define LOADV(index, pointer) LOAD1(index, pointer)
#define STOREV(value, index, pointer) STORE1(value, index, pointer)
#else
#define LOADV(index, pointer) TILECL_CAT(vload, VEC)(index, pointer)
#define STOREV(value, index, pointer) TILECL_CAT(vstore, VEC)(value, index, pointer)
#endif
#endif

/* The index of the w-th vector of this work-item. */
int vector_index(const int w) {
#if USE_STRIDED
  return (int)get_global_id(0) + w * (int)get_global_size(0);
#else
  return (int)get_global_id(0) * WPT + w;
#endif
}

__kernel void elementwise_add_naive(const int n, __global const DTYPE* a, const ulong a_offset, __global const DTYPE* b,
                                    const ulong b_offset, __global DTYPE* c, const ulong c_offset) {
  const int i = (int)get_global_id(0);
  if (i < n) STORE1(LOAD1(a_offset + i, a) + LOAD1(b_offset + i, b), c_offset + i, c);
}

__kernel void elementwise_add_vector(const int n, __global const DTYPE* a, const ulong a_offset,
                                     __global const DTYPE* b, const ulong b_offset, __global DTYPE* c,
                                     const ulong c_offset) {
  a += a_offset;
  b += b_offset;
  c += c_offset;
#pragma unroll
  for (int w = 0; w < WPT; ++w) {
    const int v = vector_index(w);
    const int first = v * VEC;
    if (first + VEC <= n) {
      STOREV(LOADV(v, a) + LOADV(v, b), v, c);
    } else {
      for (int i = first; i < n; ++i) STORE1(LOAD1(i, a) + LOAD1(i, b), i, c);
    }
  }
}

__kernel void elementwise_axpy_naive(const int n, const CTYPE alpha, __global const DTYPE* x, const ulong x_offset,
                                     __global DTYPE* y, const ulong y_offset) {
  const int i = (int)get_global_id(0);
  if (i < n) STORE1(alpha * LOAD1(x_offset + i, x) + LOAD1(y_offset + i, y), y_offset + i, y);
}

__kernel void elementwise_axpy_vector(const int n, const CTYPE alpha, __global const DTYPE* x, const ulong x_offset,
                                      __global DTYPE* y, const ulong y_offset) {
  x += x_offset;
  y += y_offset;
#pragma unroll
  for (int w = 0; w < WPT; ++w) {
    const int v = vector_index(w);
    const int first = v * VEC;
    if (first + VEC <= n) {
      STOREV(alpha * LOADV(v, x) + LOADV(v, y), v, y);
    } else {
      for (int i = first; i < n; ++i) STORE1(alpha * LOAD1(i, x) + LOAD1(i, y), i, y);
    }
  }
}
