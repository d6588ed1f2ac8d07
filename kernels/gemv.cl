/* gemv.cl -- matrix-vector products (BLAS level 2) for one or several vectors at once:
 *
 *   y_v = alpha * op(R) * x_v + beta * y_v        for v < NUM_VECTORS,
 *
 * over a stored row-major matrix R of rows x cols, element (r, c) at R[r * ldr + c]. The host
 * (src/ops/gemv.cpp) maps every call to one of two forms: BLAS gemv in either layout and transpose, and gemm
 * calls with one side of 1..8 (the vectors are then the rows or columns of the small operand).
 *
 *   gemv_dots     y_v[r] = alpha * sum_c R[r, c] x_v[c] + beta * y_v[r]   for r < rows: each output is a dot
 *                 product along a stored row (the reduced dimension is contiguous in memory).
 *   gemv_columns  y_v[c] = alpha * sum_r R[r, c] x_v[r] + beta * y_v[c]   for c < cols: each output sums down
 *                 a column; neighbouring work-items read neighbouring columns of a row.
 * Below, "length" is the output length (rows for dots, cols for columns) and "depth" the reduced dimension.
 *
 * Vectors
 *   x_v  contiguous: element i at X[x_offset + v * ldx + i] (the host gathers strided vectors first, with
 *        gemv_gather). gemv_dots loads it VEC wide, so there x_offset and ldx are multiples of VEC.
 *   y_v  element i at Y[y_offset + v * ldy + i * incy]; incy != 0 and may be negative (the host then points
 *        y_offset at element 0, the highest address). beta == 0: y is not read, so NaN in y does not reach
 *        the result.
 *
 * Slices: the depth may be split over work-groups (short outputs against a long depth). A kernel sums the
 * depth range [s * k_slice, min(depth, (s + 1) * k_slice)) for slice s; k_slice is a multiple of VEC. With
 * k_slice >= depth (one slice) it writes y as above; otherwise it writes the raw sums to
 * W[w_offset + s * w_stride + v * length + i] and gemv_reduce forms y from them.
 *
 * Kernels and geometry
 *   gemv_dots     local (WG_X, WG_Y, 1) (reqd_work_group_size); global (ceil(rows / (WG_Y * WPT)) * WG_X,
 *                 WG_Y * S) for S slices. Work-item (tx, ty) of group (g, s) owns rows (g * WG_Y + ty) * WPT + i
 *                 (i < WPT) and reads their vectors tx, tx + WG_X, ... (VEC elements each) of slice s; the
 *                 WG_X partial sums are added in local memory (none with WG_X == 1: the CPU form). R is loaded
 *                 VEC wide: r_offset and ldr are multiples of VEC (the host lowers VEC otherwise). A row's
 *                 elements past its last whole vector are added as scalars.
 *   gemv_columns  local (WG_X, WG_Y, 1) (reqd_work_group_size); global (ceil(cols / (VEC * WPT * WG_X)) *
 *                 WG_X, WG_Y * S). Work-item (tx, ty) of group (g, s) owns columns (g * WG_X + tx) * VEC * WPT
 *                 + [0, VEC * WPT) and sums rows ty, ty + WG_Y, ... of slice s, UNROLL rows per step; the
 *                 WG_Y partial sums are added in local memory (none with WG_Y == 1: the CPU form). Whole
 *                 vectors are loaded VEC wide (r_offset and ldr multiples of VEC); a vector that crosses cols
 *                 is gathered with its columns clamped to cols - 1 (those results are never stored).
 *   gemv_reduce   y_v[i] = alpha * sum_s W[w_offset + s * w_stride + v * length + i] + beta * y_v[i]. Arguments:
 *                 length, slices (0: y = beta * y without reading W), W, w_offset, w_stride, alpha, beta, Y,
 *                 y_offset, ldy, incy. global (length rounded up to the local size, NUM_VECTORS), local free.
 *   gemv_gather   D[d_offset + v * ldd + i] = X[x_offset + v * ldx + i * incx] for i < length (incx may be
 *                 negative; x_offset then points at element 0). Arguments: length, X, x_offset, ldx, incx, D,
 *                 d_offset, ldd. global (length rounded up to the local size, NUM_VECTORS), local free.
 * gemv_dots and gemv_columns take: rows, cols, alpha, R, r_offset, ldr, X, x_offset, ldx, beta, Y, y_offset,
 * ldy, incy, k_slice, W, w_offset, w_stride. They need rows, cols >= 1; Y must not overlap R or X.
 *
 * Macros (every one has a default)
 *   DTYPE        compute and accumulation type: float or double.                                default float
 *   STORAGE      element type in memory. Every access goes through GEMV_LOAD / GEMV_VLOAD / GEMV_STORE: DTYPE,
 *                or ushort with HALF_STORAGE = 1.                                              default DTYPE
 *   HALF_STORAGE 0: R, X and Y hold DTYPE. 1: they hold IEEE binary16 bits (STORAGE ushort, DTYPE float), read
 *                with vload_half / vload_halfn and written with vstore_half_rte (OpenCL C 1.2 core, no
 *                cl_khr_fp16): products, sums, alpha and beta in float, y rounded once to half. The partials W
 *                stay DTYPE; gemv_gather moves the 16-bit bits.                                      default 0
 *   NUM_VECTORS  vectors per call, 1..8 (accumulators are kept for each).                        default 1
 *   VEC          vector width of the matrix loads: 1, 2, 4, 8 or 16.                                default 4
 *   WG_X, WG_Y   work-group size (local arrays depend on it); powers of two; WG_X * WG_Y <= max work-group
 *                size. gemv_dots reduces over WG_X, gemv_columns over WG_Y.                    default 32, 8
 *   WPT          outputs per work-item, >= 1: rows (gemv_dots) or vectors of VEC columns
 *                (gemv_columns).                                                                     default 1
 *   UNROLL       loads in flight per work-item: vectors per row and step (gemv_dots), rows per step
 *                (gemv_columns); >= 1.                                                               default 4
 *   FORM         the main kernel a program holds beside the helpers: 0 both, 1 gemv_dots, 2 gemv_columns
 *                (PoCL turns every kernel of a program into machine code; a program serves one form).
 *                                                                                                    default 0
 */

#ifndef DTYPE
#define DTYPE float
#endif
#ifndef STORAGE
#define STORAGE DTYPE
#endif
#ifndef HALF_STORAGE
#define HALF_STORAGE 0
#endif
#ifndef NUM_VECTORS
#define NUM_VECTORS 1
#endif
#ifndef VEC
#define VEC 4
#endif
#ifndef WG_X
#define WG_X 32
#endif
#ifndef WG_Y
#define WG_Y 8
#endif
#ifndef WPT
#define WPT 1
#endif
#ifndef UNROLL
#define UNROLL 4
#endif
#ifndef FORM
#define FORM 0
#endif

/* The helpers hold their caller's accumulators: inline them, or the accumulators go to memory. */
#define GEMV_INLINE inline __attribute__((always_inline))

#if VEC == 1
#define VTYPE DTYPE
#else
#define VTYPE TILECL_CAT(DTYPE, VEC)
#endif

/* Memory access: a scalar, an aligned vector of VEC elements, a scalar store. */
#if HALF_STORAGE
#define GEMV_LOAD(pointer) vload_half(0, (const __global half*)(pointer))
#if VEC == 1
#define GEMV_VLOAD(pointer) GEMV_LOAD(pointer)
#else
#define GEMV_VLOAD(pointer) TILECL_CAT(TILECL_CAT(tilecl_vload_half, VEC), _aligned)((const __global ushort*)(pointer))
#endif
#define GEMV_STORE(value, pointer) vstore_half_rte(value, 0, (__global half*)(pointer))
#else
#define GEMV_LOAD(pointer) ((DTYPE) * (pointer))
#define GEMV_VLOAD(pointer) (*(const __global VTYPE*)(pointer))
#define GEMV_STORE(value, pointer) (*(pointer) = (STORAGE)(value))
#endif

/* Gathered vectors (the one crossing the end of a row) are built through this union. */
typedef union {
  VTYPE v;
  DTYPE s[VEC];
} gemv_vec_t;

/* The sum of a vector's elements (through the union: oclgrind's uninitialized-value checker does not follow
 * swizzles of partial vectors). */
GEMV_INLINE DTYPE gemv_vector_sum(const VTYPE value) {
  gemv_vec_t u;
  u.v = value;
  DTYPE total = 0;
#pragma unroll
  for (int e = 0; e < VEC; ++e) total += u.s[e];
  return total;
}

/* y = alpha * sum + beta * y; y is not read when beta == 0. */
GEMV_INLINE void gemv_store(__global STORAGE* y, const DTYPE sum, const DTYPE alpha, const DTYPE beta) {
  if (beta == (DTYPE)0) {
    GEMV_STORE(alpha * sum, y);
  } else {
    GEMV_STORE(alpha * sum + beta * GEMV_LOAD(y), y);
  }
}

/* Output i of vector v: into y (one slice) or into slice `slice` of the partial sums. */
GEMV_INLINE void gemv_emit(const int i, const int v, const int length, const DTYPE sum, const int one_slice,
                           const DTYPE alpha, const DTYPE beta, __global STORAGE* Y, const ulong y_offset,
                           const int ldy, const int incy, const int slice, __global DTYPE* W, const ulong w_offset,
                           const int w_stride) {
  if (one_slice) {
    gemv_store(Y + y_offset + (v * ldy + i * incy), sum, alpha, beta);
  } else {
    W[w_offset + (slice * w_stride + v * length + i)] = sum;
  }
}

/* ---- gemv_dots ---------------------------------------------------------------------------------- */

#if FORM == 0 || FORM == 1

__kernel __attribute__((reqd_work_group_size(WG_X, WG_Y, 1))) void gemv_dots(
    const int rows, const int cols, const DTYPE alpha, const __global STORAGE* restrict R, const ulong r_offset,
    const int ldr, const __global STORAGE* restrict X, const ulong x_offset, const int ldx, const DTYPE beta,
    __global STORAGE* Y, const ulong y_offset, const int ldy, const int incy, const int k_slice, __global DTYPE* W,
    const ulong w_offset, const int w_stride) {
  const int tx = (int)get_local_id(0), ty = (int)get_local_id(1);
  const int slice = (int)get_group_id(1);
  const int r0 = ((int)get_group_id(0) * WG_Y + ty) * WPT;
  const int begin = slice * k_slice, end = min(cols, begin + k_slice);
  const int vector_end = begin + (end - begin) / VEC * VEC;
  R += r_offset;
  X += x_offset;
  /* Rows past the last repeat it: their sums are never stored. */
  const __global STORAGE* row[WPT];
#pragma unroll
  for (int i = 0; i < WPT; ++i) row[i] = R + min(r0 + i, rows - 1) * ldr;

  VTYPE acc[WPT][NUM_VECTORS];
#pragma unroll
  for (int i = 0; i < WPT; ++i) {
#pragma unroll
    for (int v = 0; v < NUM_VECTORS; ++v) acc[i][v] = (VTYPE)0;
  }
  const int step = WG_X * VEC;
  int c = begin + tx * VEC;
  for (; c + (UNROLL - 1) * step + VEC <= vector_end; c += UNROLL * step) {
    VTYPE a[UNROLL][WPT];
#pragma unroll
    for (int u = 0; u < UNROLL; ++u) {
#pragma unroll
      for (int i = 0; i < WPT; ++i) a[u][i] = GEMV_VLOAD(row[i] + c + u * step);
    }
#pragma unroll
    for (int u = 0; u < UNROLL; ++u) {
#pragma unroll
      for (int v = 0; v < NUM_VECTORS; ++v) {
        const VTYPE x = GEMV_VLOAD(X + v * ldx + c + u * step);
#pragma unroll
        for (int i = 0; i < WPT; ++i) acc[i][v] = TILECL_MAD(a[u][i], x, acc[i][v]);
      }
    }
  }
  for (; c + VEC <= vector_end; c += step) {
#pragma unroll
    for (int v = 0; v < NUM_VECTORS; ++v) {
      const VTYPE x = GEMV_VLOAD(X + v * ldx + c);
#pragma unroll
      for (int i = 0; i < WPT; ++i) acc[i][v] = TILECL_MAD(GEMV_VLOAD(row[i] + c), x, acc[i][v]);
    }
  }
  DTYPE sum[WPT][NUM_VECTORS];
#pragma unroll
  for (int i = 0; i < WPT; ++i) {
#pragma unroll
    for (int v = 0; v < NUM_VECTORS; ++v) sum[i][v] = gemv_vector_sum(acc[i][v]);
  }
  for (int t = vector_end + tx; t < end; t += WG_X) {
#pragma unroll
    for (int v = 0; v < NUM_VECTORS; ++v) {
      const DTYPE x = GEMV_LOAD(X + v * ldx + t);
#pragma unroll
      for (int i = 0; i < WPT; ++i) sum[i][v] = TILECL_MAD(GEMV_LOAD(row[i] + t), x, sum[i][v]);
    }
  }

#if WG_X > 1
  /* The WG_X work-items of a row group add their sums: a tree over tx. */
  __local DTYPE partial[WG_Y][WPT * NUM_VECTORS][WG_X];
#pragma unroll
  for (int i = 0; i < WPT; ++i) {
#pragma unroll
    for (int v = 0; v < NUM_VECTORS; ++v) partial[ty][i * NUM_VECTORS + v][tx] = sum[i][v];
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int width = WG_X / 2; width > 0; width /= 2) {
    if (tx < width) {
#pragma unroll
      for (int q = 0; q < WPT * NUM_VECTORS; ++q) partial[ty][q][tx] += partial[ty][q][tx + width];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (tx != 0) return;
#pragma unroll
  for (int i = 0; i < WPT; ++i) {
#pragma unroll
    for (int v = 0; v < NUM_VECTORS; ++v) sum[i][v] = partial[ty][i * NUM_VECTORS + v][0];
  }
#endif
  const int one_slice = k_slice >= cols;
#pragma unroll
  for (int i = 0; i < WPT; ++i) {
    if (r0 + i >= rows) break;
#pragma unroll
    for (int v = 0; v < NUM_VECTORS; ++v)
      gemv_emit(r0 + i, v, rows, sum[i][v], one_slice, alpha, beta, Y, y_offset, ldy, incy, slice, W, w_offset,
                w_stride);
  }
}

#endif /* FORM 1 */

/* ---- gemv_columns ------------------------------------------------------------------------------- */

#if FORM == 0 || FORM == 2

/* Vector j of this work-item's columns in one row: whole, or gathered with the columns clamped. */
GEMV_INLINE VTYPE gemv_row_vector(const __global STORAGE* row, const int c, const int cols) {
  if (c + VEC <= cols) return GEMV_VLOAD(row + c);
  gemv_vec_t u;
#pragma unroll
  for (int e = 0; e < VEC; ++e) u.s[e] = GEMV_LOAD(row + min(c + e, cols - 1));
  return u.v;
}

__kernel __attribute__((reqd_work_group_size(WG_X, WG_Y, 1))) void gemv_columns(
    const int rows, const int cols, const DTYPE alpha, const __global STORAGE* restrict R, const ulong r_offset,
    const int ldr, const __global STORAGE* restrict X, const ulong x_offset, const int ldx, const DTYPE beta,
    __global STORAGE* Y, const ulong y_offset, const int ldy, const int incy, const int k_slice, __global DTYPE* W,
    const ulong w_offset, const int w_stride) {
  const int ty = (int)get_local_id(1);
  const int slice = (int)get_group_id(1);
  const int c0 = (int)get_global_id(0) * (VEC * WPT);
  const int begin = slice * k_slice, end = min(rows, begin + k_slice);
  R += r_offset;
  X += x_offset;
  VTYPE acc[WPT][NUM_VECTORS];
#pragma unroll
  for (int j = 0; j < WPT; ++j) {
#pragma unroll
    for (int v = 0; v < NUM_VECTORS; ++v) acc[j][v] = (VTYPE)0;
  }
  int r = begin + ty;
  for (; r + (UNROLL - 1) * WG_Y < end; r += UNROLL * WG_Y) {
    VTYPE a[UNROLL][WPT];
#pragma unroll
    for (int u = 0; u < UNROLL; ++u) {
#pragma unroll
      for (int j = 0; j < WPT; ++j) a[u][j] = gemv_row_vector(R + (r + u * WG_Y) * ldr, c0 + j * VEC, cols);
    }
#pragma unroll
    for (int u = 0; u < UNROLL; ++u) {
#pragma unroll
      for (int v = 0; v < NUM_VECTORS; ++v) {
        const VTYPE x = (VTYPE)GEMV_LOAD(X + v * ldx + r + u * WG_Y);
#pragma unroll
        for (int j = 0; j < WPT; ++j) acc[j][v] = TILECL_MAD(a[u][j], x, acc[j][v]);
      }
    }
  }
  for (; r < end; r += WG_Y) {
#pragma unroll
    for (int v = 0; v < NUM_VECTORS; ++v) {
      const VTYPE x = (VTYPE)GEMV_LOAD(X + v * ldx + r);
#pragma unroll
      for (int j = 0; j < WPT; ++j)
        acc[j][v] = TILECL_MAD(gemv_row_vector(R + r * ldr, c0 + j * VEC, cols), x, acc[j][v]);
    }
  }

#if WG_Y > 1
  /* The WG_Y work-items of a column group add their sums: a tree over ty. */
  const int tx = (int)get_local_id(0);
  __local VTYPE partial[WG_Y][WG_X][WPT * NUM_VECTORS];
#pragma unroll
  for (int j = 0; j < WPT; ++j) {
#pragma unroll
    for (int v = 0; v < NUM_VECTORS; ++v) partial[ty][tx][j * NUM_VECTORS + v] = acc[j][v];
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int height = WG_Y / 2; height > 0; height /= 2) {
    if (ty < height) {
#pragma unroll
      for (int q = 0; q < WPT * NUM_VECTORS; ++q) partial[ty][tx][q] += partial[ty + height][tx][q];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (ty != 0) return;
#pragma unroll
  for (int j = 0; j < WPT; ++j) {
#pragma unroll
    for (int v = 0; v < NUM_VECTORS; ++v) acc[j][v] = partial[0][tx][j * NUM_VECTORS + v];
  }
#endif
  const int one_slice = k_slice >= rows;
#pragma unroll
  for (int j = 0; j < WPT; ++j) {
#pragma unroll
    for (int v = 0; v < NUM_VECTORS; ++v) {
      gemv_vec_t u;
      u.v = acc[j][v];
#pragma unroll
      for (int e = 0; e < VEC; ++e) {
        const int c = c0 + j * VEC + e;
        if (c < cols)
          gemv_emit(c, v, cols, u.s[e], one_slice, alpha, beta, Y, y_offset, ldy, incy, slice, W, w_offset, w_stride);
      }
    }
  }
}

#endif /* FORM 2 */

/* ---- helpers ------------------------------------------------------------------------------------ */

__kernel void gemv_reduce(const int length, const int slices, const __global DTYPE* restrict W, const ulong w_offset,
                          const int w_stride, const DTYPE alpha, const DTYPE beta, __global STORAGE* Y,
                          const ulong y_offset, const int ldy, const int incy) {
  const int i = (int)get_global_id(0), v = (int)get_global_id(1);
  if (i >= length) return;
  DTYPE sum = 0;
  for (int s = 0; s < slices; ++s) sum += W[w_offset + (s * w_stride + v * length + i)];
  gemv_store(Y + y_offset + (v * ldy + i * incy), sum, alpha, beta);
}

__kernel void gemv_gather(const int length, const __global STORAGE* restrict X, const ulong x_offset, const int ldx,
                          const int incx, __global STORAGE* restrict D, const ulong d_offset, const int ldd) {
  const int i = (int)get_global_id(0), v = (int)get_global_id(1);
  if (i >= length) return;
  D[d_offset + (v * ldd + i)] = X[x_offset + (v * ldx + i * incx)];
}
