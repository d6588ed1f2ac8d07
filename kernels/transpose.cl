/* tilecl transpose family: out = in^T for row-major matrices.
 *
 * in is rows x cols with leading dimension ld_in (>= cols); out is cols x rows with leading dimension ld_out
 * (>= rows): out[c * ld_out + r] = in[r * ld_in + c]. Offsets are element offsets added to the pointers once.
 * The kernels only move bits, so every type of one size shares a program (the host may build float and int
 * once, as DTYPE=uint). The host checks that in and out do not overlap.
 *
 * Common arguments (all kernels):
 *   int rows, int cols, __global const DTYPE* in, ulong in_offset, int ld_in,
 *   __global DTYPE* out, ulong out_offset, int ld_out
 * Preconditions for all kernels: rows, cols >= 1; ld_in >= cols; ld_out >= rows; extents < 2^31 each
 * (products are formed in size_t). Any alignment is accepted: the vector paths check at run time that the
 * offsets and leading dimensions are multiples of VEC and otherwise use element-aligned vloadn/vstoren.
 *
 * Kernels (g = global size, l = local size; round(a, b) = a rounded up to a multiple of b):
 *   transpose_naive   one element per work-item; work-item (x, y) moves in[y][x].
 *                     g = (round(cols, lx), round(rows, ly)); l = (lx, ly) is launch-only, any values.
 *                     Build macros used: DTYPE.
 *   transpose_tiled   TILE x TILE tile per work-group through local memory [TILE][TILE + PAD];
 *                     work-group (TILE / VEC, WG_Y); each work-item moves VEC consecutive elements in each of
 *                     TILE / WG_Y rows, with VEC-wide global loads and stores. PAD = 0 is the classic
 *                     tiled kernel, PAD = 1 removes the local-memory bank conflicts of the column reads.
 *                     Full tiles (and aligned data) take a path without bounds checks.
 *                     g = (ceil(cols / TILE) * TILE / VEC, ceil(rows / TILE) * WG_Y); l = (TILE / VEC, WG_Y)
 *                     (fixed: reqd_work_group_size). Local memory: TILE * (TILE + PAD) * sizeof(DTYPE).
 *                     Build macros: DTYPE, TILE, WG_Y, PAD, VEC.
 *   transpose_block   no local memory: each work-item moves a VEC x VEC block in registers (VEC vector loads
 *                     of a row each, an in-register transpose, VEC vector stores). CPU-friendly (PoCL: 8 x 8
 *                     floats), and also a candidate on GPUs (4 x 4 floats = 16-byte accesses; uchar16 for
 *                     bytes). Blocks that cross the edge take a bounds-checked scalar path.
 *                     g = (round(ceil(cols / VEC), lx), round(ceil(rows / VEC), ly)); l = (lx, ly) launch-only.
 *                     Build macros: DTYPE, VEC, USE_SHUFFLE.
 *
 * Macros (every one has a default, so the file compiles with no options):
 *   DTYPE  element type: float (default), double, int, uint, uchar, ... (any scalar type).
 *   TILE   tiled: edge of the square work-group tile, default 32; a multiple of VEC and of WG_Y.
 *   WG_Y   tiled: work-group rows, default 8; divides TILE; (TILE / VEC) * WG_Y <= max work-group size.
 *   PAD    tiled: local-memory row padding in elements, default 1; 0, 1, 2, ...
 *   VEC    tiled: width of the global accesses; block: edge of the register block. 1, 2, 4, 8 or 16;
 *          default 4 (16-byte accesses for float). VEC * sizeof(DTYPE) = 16 suits GPUs; VEC = 8 or 16 with
 *          float suits CPUs (block).
 *   USE_SHUFFLE  block: 1 (default) transposes the register block with vector shuffles, 0 element by element
 *          through a private array. Same result; on PoCL 1 is 2.2x faster for uchar, equal for float.
 *
 * Launch-only parameters: the local size (lx, ly) of transpose_naive and transpose_block (WG_X, WG_Y in the
 * host's search space). Everything else is a build parameter. The host (src/ops/transpose.cpp) offers
 * transpose_tiled as two variants, "tiled" (PAD = 0) and "padded" (PAD >= 1), transposes matrices taller
 * than 32768 work-groups in bands of rows, and copies a single contiguous row or column with
 * clEnqueueCopyBuffer. Any rows x cols (1 x n, n x 1, primes) is correct with every kernel.
 */

#ifndef DTYPE
#define DTYPE float
#endif
#ifndef TILE
#define TILE 32
#endif
#ifndef WG_Y
#define WG_Y 8
#endif
#ifndef PAD
#define PAD 1
#endif
#ifndef VEC
#define VEC 4
#endif
#ifndef USE_SHUFFLE
#define USE_SHUFFLE 1
#endif

#if VEC != 1 && VEC != 2 && VEC != 4 && VEC != 8 && VEC != 16
#error "VEC must be 1, 2, 4, 8 or 16"
#endif
#if TILE % VEC != 0 || TILE % WG_Y != 0
#error "TILE must be a multiple of VEC and of WG_Y"
#endif

#if VEC == 1
#define TRANSPOSE_VTYPE DTYPE
#define TRANSPOSE_VLOAD(p) (*(p))
#define TRANSPOSE_VSTORE(v, p) (*(p) = (v))
#else
#define TRANSPOSE_VTYPE TILECL_CAT(DTYPE, VEC)
#define TRANSPOSE_VLOAD(p) TILECL_CAT(vload, VEC)(0, p)
#define TRANSPOSE_VSTORE(v, p) TILECL_CAT(vstore, VEC)(v, 0, p)
#endif

/* Loads VEC elements at p: one vector access when the data is VEC-aligned, element accesses otherwise. */
TRANSPOSE_VTYPE transpose_load(__global const DTYPE* p, bool aligned) {
  return aligned ? *(__global const TRANSPOSE_VTYPE*)p : TRANSPOSE_VLOAD(p);
}

void transpose_store(TRANSPOSE_VTYPE v, __global DTYPE* p, bool aligned) {
  if (aligned) {
    *(__global TRANSPOSE_VTYPE*)p = v;
  } else {
    TRANSPOSE_VSTORE(v, p);
  }
}

/* True when every row start of in and out is VEC-aligned (buffers themselves are aligned far beyond that). */
bool transpose_aligned(ulong in_offset, int ld_in, ulong out_offset, int ld_out) {
  return ((in_offset | out_offset | (ulong)ld_in | (ulong)ld_out) & (ulong)(VEC - 1)) == 0;
}

/* Moves the VEC x VEC block at in (row stride ld_in) transposed to out (row stride ld_out).
 * USE_SHUFFLE = 1: log2(VEC) rounds of r'[m] = (r[2m].even, r[2m+1].even), r'[VEC/2 + m] = (r[2m].odd,
 * r[2m+1].odd); each round moves the low bit of the column index into the row index, so after log2(VEC)
 * rounds element (i, j) sits at (j, i). These are constant two-vector shuffles (unpack/permute instructions
 * on CPUs; byte permutes for uchar). USE_SHUFFLE = 0: element-wise through a private array. */
void transpose_block_move(__global const DTYPE* in, int ld_in, __global DTYPE* out, int ld_out, bool aligned) {
#if USE_SHUFFLE && VEC > 1
  TRANSPOSE_VTYPE r[VEC], t[VEC];
#pragma unroll
  for (int i = 0; i < VEC; ++i) r[i] = transpose_load(in + (size_t)i * ld_in, aligned);
#pragma unroll
  for (int round = 1; round < VEC; round <<= 1) {
#pragma unroll
    for (int m = 0; m < VEC / 2; ++m) {
      t[m] = (TRANSPOSE_VTYPE)(r[2 * m].even, r[2 * m + 1].even);
      t[VEC / 2 + m] = (TRANSPOSE_VTYPE)(r[2 * m].odd, r[2 * m + 1].odd);
    }
#pragma unroll
    for (int i = 0; i < VEC; ++i) r[i] = t[i];
  }
#pragma unroll
  for (int j = 0; j < VEC; ++j) transpose_store(r[j], out + (size_t)j * ld_out, aligned);
#else
  DTYPE block[VEC][VEC];
#pragma unroll
  for (int i = 0; i < VEC; ++i) TRANSPOSE_VSTORE(transpose_load(in + (size_t)i * ld_in, aligned), block[i]);
#pragma unroll
  for (int j = 0; j < VEC; ++j) {
    DTYPE column[VEC];
#pragma unroll
    for (int i = 0; i < VEC; ++i) column[i] = block[i][j];
    transpose_store(TRANSPOSE_VLOAD(column), out + (size_t)j * ld_out, aligned);
  }
#endif
}

__kernel void transpose_naive(int rows, int cols, __global const DTYPE* in, ulong in_offset, int ld_in,
                              __global DTYPE* out, ulong out_offset, int ld_out) {
  const size_t c = get_global_id(0);
  const size_t r = get_global_id(1);
  if (r < (size_t)rows && c < (size_t)cols) {
    out[out_offset + c * ld_out + r] = in[in_offset + r * ld_in + c];
  }
}

__kernel __attribute__((reqd_work_group_size(TILE / VEC, WG_Y, 1))) void transpose_tiled(int rows, int cols,
                                                                                         __global const DTYPE* in,
                                                                                         ulong in_offset, int ld_in,
                                                                                         __global DTYPE* out,
                                                                                         ulong out_offset, int ld_out) {
  __local DTYPE tile[TILE][TILE + PAD];
  in += in_offset;
  out += out_offset;
  const int lx = get_local_id(0);
  const int ly = get_local_id(1);
  const int c0 = get_group_id(0) * TILE;
  const int r0 = get_group_id(1) * TILE;
  const int x = lx * VEC;
  /* Edge tests are written as differences: r0 + TILE may exceed 2^31 - 1 in the last tile row. */
  const bool full = TILE <= rows - r0 && TILE <= cols - c0 && transpose_aligned(in_offset, ld_in, out_offset, ld_out);

  if (full) {
#pragma unroll
    for (int i = 0; i < TILE / WG_Y; ++i) {
      const int y = ly + i * WG_Y;
      DTYPE lanes[VEC];
      TRANSPOSE_VSTORE(*(__global const TRANSPOSE_VTYPE*)(in + (size_t)(r0 + y) * ld_in + c0 + x), lanes);
#pragma unroll
      for (int k = 0; k < VEC; ++k) tile[y][x + k] = lanes[k];
    }
  } else {
    for (int i = 0; i < TILE / WG_Y; ++i) {
      const int y = ly + i * WG_Y;
#pragma unroll
      for (int k = 0; k < VEC; ++k) {
        if (y < rows - r0 && x + k < cols - c0) tile[y][x + k] = in[(size_t)(r0 + y) * ld_in + c0 + x + k];
      }
    }
  }
  barrier(CLK_LOCAL_MEM_FENCE);

  /* Output tile: out rows c0 + j, out columns r0 + x .. r0 + x + VEC - 1, taken from tile column j. */
  if (full) {
#pragma unroll
    for (int i = 0; i < TILE / WG_Y; ++i) {
      const int j = ly + i * WG_Y;
      DTYPE lanes[VEC];
#pragma unroll
      for (int k = 0; k < VEC; ++k) lanes[k] = tile[x + k][j];
      *(__global TRANSPOSE_VTYPE*)(out + (size_t)(c0 + j) * ld_out + r0 + x) = TRANSPOSE_VLOAD(lanes);
    }
  } else {
    for (int i = 0; i < TILE / WG_Y; ++i) {
      const int j = ly + i * WG_Y;
#pragma unroll
      for (int k = 0; k < VEC; ++k) {
        if (x + k < rows - r0 && j < cols - c0) out[(size_t)(c0 + j) * ld_out + r0 + x + k] = tile[x + k][j];
      }
    }
  }
}

__kernel void transpose_block(int rows, int cols, __global const DTYPE* in, ulong in_offset, int ld_in,
                              __global DTYPE* out, ulong out_offset, int ld_out) {
  /* 64-bit until the bounds test: the global size may reach past 2^31 - 1. */
  if (get_global_id(1) * VEC >= (size_t)rows || get_global_id(0) * VEC >= (size_t)cols) return;
  const int c0 = (int)(get_global_id(0) * VEC);
  const int r0 = (int)(get_global_id(1) * VEC);
  in += in_offset;
  out += out_offset;

  if (VEC <= rows - r0 && VEC <= cols - c0) {
    /* One uniform branch; each call is specialised on the constant, so the aligned path has plain vector
     * accesses only. */
    if (transpose_aligned(in_offset, ld_in, out_offset, ld_out)) {
      transpose_block_move(in + (size_t)r0 * ld_in + c0, ld_in, out + (size_t)c0 * ld_out + r0, ld_out, true);
    } else {
      transpose_block_move(in + (size_t)r0 * ld_in + c0, ld_in, out + (size_t)c0 * ld_out + r0, ld_out, false);
    }
  } else {
    const int nr = min(VEC, rows - r0);
    const int nc = min(VEC, cols - c0);
    for (int i = 0; i < nr; ++i) {
      for (int j = 0; j < nc; ++j) out[(size_t)(c0 + j) * ld_out + r0 + i] = in[(size_t)(r0 + i) * ld_in + c0 + j];
    }
  }
}
