/* elementwise.cl -- vector operations, one output element from the same index of each input.
 *
 * Kernels
 *   elementwise_add_naive     c[i] = a[i] + b[i], one element per work-item. Global size >= n.
 *   elementwise_add_vector    the same, VEC elements at a time, WPT vectors per work-item.
 *   elementwise_axpy_naive    y[i] = alpha * x[i] + y[i], one element per work-item. Global size >= n.
 *   elementwise_axpy_vector   the same, VEC elements at a time, WPT vectors per work-item.
 * Every kernel checks bounds, so any n works; the vector kernels finish a partial last vector element by
 * element. Offsets are in elements and need no alignment (vloadn/vstoren only need element alignment).
 *
 * Geometry of the vector kernels (the host derives it; WG_X is a launch parameter, not a macro):
 *   vectors = ceil(n / VEC), items = ceil(vectors / WPT), global = items rounded up to WG_X.
 *
 * Macros (every one has a default, so the file compiles with no options)
 *   DTYPE        element type: float or double.                                   default float
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

#if VEC == 1
#define VTYPE DTYPE
#define LOADV(index, pointer) ((pointer)[index])
#define STOREV(value, index, pointer) ((pointer)[index] = (value))
#else
#define VTYPE TILECL_CAT(DTYPE, VEC)
#define LOADV(index, pointer) TILECL_CAT(vload, VEC)(index, pointer)
#define STOREV(value, index, pointer) TILECL_CAT(vstore, VEC)(value, index, pointer)
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
  if (i < n) c[c_offset + i] = a[a_offset + i] + b[b_offset + i];
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
      for (int i = first; i < n; ++i) c[i] = a[i] + b[i];
    }
  }
}

__kernel void elementwise_axpy_naive(const int n, const DTYPE alpha, __global const DTYPE* x, const ulong x_offset,
                                     __global DTYPE* y, const ulong y_offset) {
  const int i = (int)get_global_id(0);
  if (i < n) y[y_offset + i] = alpha * x[x_offset + i] + y[y_offset + i];
}

__kernel void elementwise_axpy_vector(const int n, const DTYPE alpha, __global const DTYPE* x, const ulong x_offset,
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
      for (int i = first; i < n; ++i) y[i] = alpha * x[i] + y[i];
    }
  }
}
