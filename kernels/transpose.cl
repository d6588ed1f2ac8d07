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
 * (products are formed in size_t). Any alignment is accepted: transpose_block checks at run time that the
 * offsets and leading dimensions are multiples of VEC and otherwise uses element-aligned vloadn/vstoren;
 * transpose_tiled aligns its accesses itself (below). Buffers are aligned to CL_DEVICE_MEM_BASE_ADDR_ALIGN
 * (at least 128 bytes), so an element offset that is a multiple of VEC is VEC-aligned.
 *
 * Kernels (g = global size, l = local size; round(a, b) = a rounded up to a multiple of b):
 *   transpose_naive   one element per work-item; work-item (x, y) moves in[y][x].
 *                     g = (round(cols, lx), round(rows, ly)); l = (lx, ly) is launch-only, any values.
 *                     Build macros used: DTYPE.
 *   transpose_tiled   TILE x TILE tile per work-group through local memory [TILE][TILE + PAD];
 *                     work-group (TILE / VEC, WG_Y); each work-item moves VEC consecutive elements in each of
 *                     TILE / WG_Y rows. PAD = 0 is the classic tiled kernel, PAD = 1 removes the
 *                     local-memory bank conflicts of the column reads. Interior tiles use VEC-wide aligned
 *                     global accesses whatever the offsets and leading dimensions ("windows": a row that
 *                     starts s elements past a VEC boundary is read as the aligned vectors around it, and
 *                     written as whole aligned vectors plus element stores for the partial vectors at its
 *                     two ends), without bounds checks; so a ragged or misaligned matrix runs as fast as an
 *                     aligned one. Reads of an interior tile may touch up to VEC - 1 elements past a tile
 *                     row (inside a later row or past VEC spare columns) or before it (inside the previous
 *                     row), never outside the matrix's rows; writes touch exactly the output elements.
 *                     Edge tiles (and a first tile that starts inside a vector) take element accesses with
 *                     bounds checks, consecutive work-items on consecutive elements.
 *                     g = (ceil(cols / TILE) * TILE / VEC, ceil(rows / TILE) * WG_Y); l = (TILE / VEC, WG_Y)
 *                     (fixed: reqd_work_group_size). Local memory: TILE * (TILE + PAD) * sizeof(DTYPE).
 *                     Build macros: DTYPE, TILE, WG_Y, PAD, VEC.
 *   transpose_shifted transpose_tiled's tile, with each output row's piece shifted to start on a SECTOR-element
 *                     boundary (the work-group also holds the SECTOR input rows before its tile), so that no memory
 *                     sector of the output is written in parts by two work-groups. Same geometry as
 *                     transpose_tiled. Local memory: (TILE + SECTOR) * (TILE + PAD) * sizeof(DTYPE).
 *                     Build macros: DTYPE, TILE, WG_Y, PAD, VEC, SECTOR.
 *   transpose_bytes   bytes only (DTYPE uchar): transpose_shifted's whole-sector output pieces, with 4 x 4 byte
 *                     blocks transposed in registers so that local memory moves words, not single bytes.
 *                     Misaligned rows are read as the aligned words around them (one funnel shift on
 *                     little-endian devices); interior tiles take no per-row checks. SECTOR 4 aligns the output
 *                     pieces to words only (4 extra input rows per tile). Slower than transpose_tiled on the GPUs
 *                     measured (docs/notes/transpose.md): a tuning option.
 *                     Work-group (TILE / 4, WG_Y); g = (ceil(cols / TILE) * TILE / 4, ceil(rows / TILE) * WG_Y).
 *                     Local memory: TILE * ((TILE + SECTOR) / 4 + PAD) words. Build macros: DTYPE, TILE, WG_Y,
 *                     PAD (in words here), SECTOR (bytes, a multiple of 4).
 *   transpose_block   no local memory: each work-item moves a VEC x VEC block in registers (VEC vector loads
 *                     of a row each, an in-register transpose, VEC vector stores). CPU-friendly (PoCL: 8 x 8
 *                     floats), and also a candidate on GPUs (4 x 4 floats = 16-byte accesses; uchar16 for
 *                     bytes). Blocks that cross the edge take a bounds-checked scalar path.
 *                     g = (round(ceil(cols / VEC), lx), round(ceil(rows / VEC), ly)); l = (lx, ly) launch-only.
 *                     Build macros: DTYPE, VEC, USE_SHUFFLE.
 *
 * Macros (every one has a default, so the file compiles with no options):
 *   DTYPE  element type: an unsigned integer type of the element's size, uint (default), uchar, ushort or
 *          ulong. The kernels move bits, so the host passes uint for float and int32, ulong for double,
 *          ushort for half and bfloat16 (no cl_khr_fp16 needed) and uchar for bytes (unsigned:
 *          transpose_block's 16-wide shuffles take a mask of DTYPE's type).
 *   TILE   tiled: edge of the square work-group tile, default 32; a multiple of VEC and of WG_Y.
 *   WG_Y   tiled: work-group rows, default 8; divides TILE; (TILE / VEC) * WG_Y <= max work-group size.
 *   PAD    tiled: local-memory row padding in elements, default 1; 0, 1, 2, ...
 *   VEC    tiled: width of the global accesses; block: edge of the register block. 1, 2, 4, 8 or 16;
 *          default 4 (16-byte accesses for float). VEC * sizeof(DTYPE) = 16 suits GPUs; VEC = 8 or 16 with
 *          float suits CPUs (block).
 *   SECTOR shifted: elements per memory sector the output pieces align to, default 8 (32 bytes of 4-byte
 *          elements); a multiple of VEC dividing TILE.
 *   USE_SHUFFLE  block: 1 (default) transposes the register block with vector shuffles (.even/.odd), 2 with
 *          shuffle2 (for oclgrind, see TRANSPOSE_EVENS), 0 element by element through a private array. Same
 *          result; on PoCL 1 is 2.2x faster than 0 for uchar, equal for float, and 2 is much slower.
 *
 * Launch-only parameters: the local size (lx, ly) of transpose_naive and transpose_block (WG_X, WG_Y in the
 * host's search space). Everything else is a build parameter. The host (src/ops/transpose.cpp) offers
 * transpose_tiled as two variants, "tiled" (PAD = 0) and "padded" (PAD >= 1), transposes matrices taller
 * than 32768 work-groups in bands of rows, and copies a single contiguous row or column with
 * clEnqueueCopyBuffer. Any rows x cols (1 x n, n x 1, primes) is correct with every kernel.
 */

#ifndef DTYPE
#define DTYPE uint
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
#ifndef SECTOR
#define SECTOR 8
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

/* The even (odd) elements of a followed by those of b. USE_SHUFFLE = 1: .even/.odd concatenations, what PoCL
 * turns into its fastest permutes (2.2x faster than element moves for 16 bytes). USE_SHUFFLE = 2: shuffle2 with
 * constant masks (of DTYPE's own unsigned type, hence DTYPE must be unsigned), the same values: oclgrind 21.10
 * reports a false "uninitialized value written" for the concatenation of two 16-element vectors' .even/.odd
 * (reproduced with a one-line kernel on fully written input; 2-, 4- and 8-element vectors are tracked right), while
 * it tracks shuffle2; PoCL, however, runs shuffle2 as a function call, 80x slower. The oclgrind test runs 2. */
#if USE_SHUFFLE == 2 && VEC == 16
#define TRANSPOSE_EVENS(a, b) \
  shuffle2(a, b, (TRANSPOSE_VTYPE)(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30))
#define TRANSPOSE_ODDS(a, b) \
  shuffle2(a, b, (TRANSPOSE_VTYPE)(1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31))
#elif USE_SHUFFLE == 2 && VEC == 8
#define TRANSPOSE_EVENS(a, b) shuffle2(a, b, (TRANSPOSE_VTYPE)(0, 2, 4, 6, 8, 10, 12, 14))
#define TRANSPOSE_ODDS(a, b) shuffle2(a, b, (TRANSPOSE_VTYPE)(1, 3, 5, 7, 9, 11, 13, 15))
#elif USE_SHUFFLE == 2 && VEC == 4
#define TRANSPOSE_EVENS(a, b) shuffle2(a, b, (TRANSPOSE_VTYPE)(0, 2, 4, 6))
#define TRANSPOSE_ODDS(a, b) shuffle2(a, b, (TRANSPOSE_VTYPE)(1, 3, 5, 7))
#else
#define TRANSPOSE_EVENS(a, b) (TRANSPOSE_VTYPE)((a).even, (b).even)
#define TRANSPOSE_ODDS(a, b) (TRANSPOSE_VTYPE)((a).odd, (b).odd)
#endif

/* Unaligned vectors of bytes: through a vector type aligned only to its element, one unaligned vector access on
 * CPUs, where PoCL 3.1 assembles vload16 / vstore16 of uchar from 4-byte pieces and shuffles (a ragged 3695x3476
 * byte transpose took 3x the time of a 3696x3472 one; 2.3-2.8x faster so). Other types keep vloadn / vstoren: PoCL
 * ran float8 through such a type 15% slower than through vload8, and half the same. Compilers that cannot access
 * such a type at once split it into element accesses, as vloadn does. */
#define TRANSPOSE_KIND_uchar 1
#if TILECL_CAT(TRANSPOSE_KIND_, DTYPE) && VEC > 1
typedef TRANSPOSE_VTYPE transpose_vtype_unaligned __attribute__((aligned(1)));
#define TRANSPOSE_LOADU(p) (*(__global const transpose_vtype_unaligned*)(p))
#define TRANSPOSE_STOREU(v, p) (*(__global transpose_vtype_unaligned*)(p) = (v))
#else
#define TRANSPOSE_LOADU(p) TRANSPOSE_VLOAD(p)
#define TRANSPOSE_STOREU(v, p) TRANSPOSE_VSTORE(v, p)
#endif

/* Loads VEC elements at p: an aligned vector access when the data is VEC-aligned, an unaligned one otherwise. */
TRANSPOSE_VTYPE transpose_load(__global const DTYPE* p, bool aligned) {
  return aligned ? *(__global const TRANSPOSE_VTYPE*)p : TRANSPOSE_LOADU(p);
}

void transpose_store(TRANSPOSE_VTYPE v, __global DTYPE* p, bool aligned) {
  if (aligned) {
    *(__global TRANSPOSE_VTYPE*)p = v;
  } else {
    TRANSPOSE_STOREU(v, p);
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
#if USE_SHUFFLE > 0 && VEC > 1
  TRANSPOSE_VTYPE r[VEC], t[VEC];
#pragma unroll
  for (int i = 0; i < VEC; ++i) r[i] = transpose_load(in + (size_t)i * ld_in, aligned);
#pragma unroll
  for (int round = 1; round < VEC; round <<= 1) {
#pragma unroll
    for (int m = 0; m < VEC / 2; ++m) {
      t[m] = TRANSPOSE_EVENS(r[2 * m], r[2 * m + 1]);
      t[VEC / 2 + m] = TRANSPOSE_ODDS(r[2 * m], r[2 * m + 1]);
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

/* Whether every global access of the tile may use the aligned windows below: the tile is whole, the windows of
 * its rows stay inside the matrix's rows (an extra vector past the tile's right edge is read only where a later
 * row, or VEC spare columns, follow), and the first tile does not start inside a vector that precedes the
 * matrix. Uniform across the work-group. */
bool transpose_interior(int rows, int cols, int r0, int c0, ulong in_offset) {
  const bool whole = TILE <= rows - r0 && TILE <= cols - c0;
  const bool extra_inside = TILE < rows - r0 || TILE + VEC <= cols - c0;
  const bool start_inside = r0 > 0 || c0 > 0 || (in_offset & (ulong)(VEC - 1)) == 0;
  return whole && extra_inside && start_inside;
}

/* Row y of the tile through an aligned window: the row starts `skew` elements past a VEC boundary, so the
 * work-item at x loads the aligned vector covering tile columns [x * VEC - skew, x * VEC - skew + VEC) and keeps
 * the columns inside [0, TILE); the last work-item also loads the vector after, for the skew columns left. */
void transpose_load_window(__local DTYPE (*tile)[TILE + PAD], int y, __global const DTYPE* row, int skew, int x) {
  __global const TRANSPOSE_VTYPE* window = (__global const TRANSPOSE_VTYPE*)(row - skew);
  const int first = x * VEC - skew;
  DTYPE lanes[VEC];
  TRANSPOSE_VSTORE(window[x], lanes);
#pragma unroll
  for (int k = 0; k < VEC; ++k) {
    if (first + k >= 0) tile[y][first + k] = lanes[k];
  }
  if (skew > 0 && x == TILE / VEC - 1) {
    TRANSPOSE_VSTORE(window[x + 1], lanes);
#pragma unroll
    for (int k = 0; k < VEC; ++k) {
      if (k < skew) tile[y][TILE - skew + k] = lanes[k];
    }
  }
}

/* Output row j (tile column j) through an aligned window: whole vectors where they lie inside the row's TILE
 * elements, element stores for the partial vectors at both ends. */
void transpose_store_window(__local DTYPE (*tile)[TILE + PAD], int j, __global DTYPE* row, int skew, int x) {
  __global TRANSPOSE_VTYPE* window = (__global TRANSPOSE_VTYPE*)(row - skew);
  const int first = x * VEC - skew;
  DTYPE lanes[VEC];
  if (first >= 0) {
#pragma unroll
    for (int k = 0; k < VEC; ++k) lanes[k] = tile[first + k][j];
    window[x] = TRANSPOSE_VLOAD(lanes);
  } else {
#pragma unroll
    for (int k = 0; k < VEC; ++k) {
      if (first + k >= 0) row[first + k] = tile[first + k][j];
    }
  }
  if (skew > 0 && x == TILE / VEC - 1) {
#pragma unroll
    for (int k = 0; k < VEC; ++k) {
      if (k < skew) row[TILE - skew + k] = tile[TILE - skew + k][j];
    }
  }
}

/* Edge tiles: element accesses, bounds checked, consecutive work-items on consecutive elements. */
void transpose_load_edge(__local DTYPE (*tile)[TILE + PAD], int rows_left, int cols_left, __global const DTYPE* in,
                         int ld_in, int lx, int ly) {
  for (int i = 0; i < TILE / WG_Y; ++i) {
    const int y = ly + i * WG_Y;
#pragma unroll
    for (int k = 0; k < VEC; ++k) {
      const int c = lx + k * (TILE / VEC);
      if (y < rows_left && c < cols_left) tile[y][c] = in[(size_t)y * ld_in + c];
    }
  }
}

void transpose_store_edge(__local DTYPE (*tile)[TILE + PAD], int rows_left, int cols_left, __global DTYPE* out,
                          int ld_out, int lx, int ly) {
  for (int i = 0; i < TILE / WG_Y; ++i) {
    const int j = ly + i * WG_Y;
#pragma unroll
    for (int k = 0; k < VEC; ++k) {
      const int r = lx + k * (TILE / VEC);
      if (r < rows_left && j < cols_left) out[(size_t)j * ld_out + r] = tile[r][j];
    }
  }
}

__kernel __attribute__((reqd_work_group_size(TILE / VEC, WG_Y, 1))) void transpose_tiled(int rows, int cols,
                                                                                         __global const DTYPE* in,
                                                                                         ulong in_offset, int ld_in,
                                                                                         __global DTYPE* out,
                                                                                         ulong out_offset, int ld_out) {
  __local DTYPE tile[TILE][TILE + PAD];
  const int lx = get_local_id(0);
  const int ly = get_local_id(1);
  const int c0 = get_group_id(0) * TILE;
  const int r0 = get_group_id(1) * TILE;
  /* Offsets of the tile's first element in and out (64-bit: the matrices may span more than 2^31 elements). */
  const ulong in_first = in_offset + (ulong)r0 * (ulong)ld_in + (ulong)c0;
  const ulong out_first = out_offset + (ulong)c0 * (ulong)ld_out + (ulong)r0;
  /* Edge tests are written as differences: r0 + TILE may exceed 2^31 - 1 in the last tile row. */
  if (transpose_interior(rows, cols, r0, c0, in_offset)) {
#pragma unroll
    for (int i = 0; i < TILE / WG_Y; ++i) {
      const int y = ly + i * WG_Y;
      const ulong first = in_first + (ulong)y * (ulong)ld_in;
      transpose_load_window(tile, y, in + first, (int)(first & (ulong)(VEC - 1)), lx);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll
    for (int i = 0; i < TILE / WG_Y; ++i) {
      const int j = ly + i * WG_Y;
      const ulong first = out_first + (ulong)j * (ulong)ld_out;
      transpose_store_window(tile, j, out + first, (int)(first & (ulong)(VEC - 1)), lx);
    }
  } else {
    transpose_load_edge(tile, rows - r0, cols - c0, in + in_first, ld_in, lx, ly);
    barrier(CLK_LOCAL_MEM_FENCE);
    transpose_store_edge(tile, rows - r0, cols - c0, out + out_first, ld_out, lx, ly);
  }
}

/* transpose_shifted: the local tile of transpose_tiled, but each output row's piece is shifted so that it starts on
 * a SECTOR-element boundary: no two work-groups write parts of one memory sector, which a GPU with ECC memory
 * writes back as a read-modify-write when the parts arrive apart. Work-group (x, y) holds input rows [r0 - SECTOR,
 * r0 + TILE) of columns [c0, c0 + TILE) and writes, of output row c0 + j, the elements [r0 - s, r0 + TILE - s) with
 * s = (out_offset + (c0 + j) * ld_out + r0) % SECTOR; the first tile row starts at 0 and the last ends at rows. */
#define SHIFTED_ROWS (TILE + SECTOR)

/* Loads input row `r` of the tile's columns into local row y: aligned windows where every vector read stays inside
 * the matrix's rows, element loads otherwise. */
void transpose_shifted_load(__local DTYPE (*tile)[TILE + PAD], int y, int r, int rows, int cols, int c0,
                            __global const DTYPE* in, ulong in_offset, int ld_in, int lx) {
  const ulong first = in_offset + (ulong)r * (ulong)ld_in + (ulong)c0;
  const int skew = (int)(first & (ulong)(VEC - 1));
  const bool whole = TILE <= cols - c0;
  const bool extra_inside = r + 1 < rows || TILE + VEC <= cols - c0;
  const bool start_inside = r > 0 || c0 > 0 || skew == 0;
  if (whole && extra_inside && start_inside) {
    transpose_load_window(tile, y, in + first, skew, lx);
    return;
  }
#pragma unroll
  for (int k = 0; k < VEC; ++k) {
    const int c = lx + k * (TILE / VEC);
    if (c < cols - c0) tile[y][c] = in[first + c];
  }
}

/* Writes output row c0 + j's piece [start, end) (input rows) from local column j, top = input row of local row 0:
 * whole aligned vectors inside the piece, element stores for a partial vector at either end. */
void transpose_shifted_store(__local DTYPE (*tile)[TILE + PAD], int j, int top, int start, int end, __global DTYPE* out,
                             ulong row_first, int lx) {
  const ulong aligned_first = (row_first + (ulong)start) & ~(ulong)(VEC - 1);
  for (ulong v = aligned_first + (ulong)lx * VEC; v < row_first + (ulong)end; v += TILE) {
    const int p = (int)(v - row_first); /* input row of the vector's first element (may be below start) */
    if (p >= start && p + VEC <= end) {
      DTYPE lanes[VEC];
#pragma unroll
      for (int k = 0; k < VEC; ++k) lanes[k] = tile[p + k - top][j];
      *(__global TRANSPOSE_VTYPE*)(out + v) = TRANSPOSE_VLOAD(lanes);
    } else {
#pragma unroll
      for (int k = 0; k < VEC; ++k) {
        if (p + k >= start && p + k < end) out[v + k] = tile[p + k - top][j];
      }
    }
  }
}

__kernel __attribute__((reqd_work_group_size(TILE / VEC, WG_Y, 1))) void transpose_shifted(
    int rows, int cols, __global const DTYPE* in, ulong in_offset, int ld_in, __global DTYPE* out, ulong out_offset,
    int ld_out) {
  __local DTYPE tile[SHIFTED_ROWS][TILE + PAD];
  const int lx = get_local_id(0);
  const int ly = get_local_id(1);
  const int c0 = get_group_id(0) * TILE;
  const int r0 = get_group_id(1) * TILE;
  const int top = r0 - SECTOR; /* input row of local row 0 */
  /* When every output row starts on a sector boundary, no piece is shifted: the SECTOR rows before the tile are
   * not needed. */
  const int first_row = ((out_offset | (ulong)ld_out) & (ulong)(SECTOR - 1)) == 0 ? SECTOR : 0;
  for (int y = first_row + ly; y < SHIFTED_ROWS; y += WG_Y) {
    const int r = top + y;
    if (r >= 0 && r < rows) transpose_shifted_load(tile, y, r, rows, cols, c0, in, in_offset, ld_in, lx);
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  const bool last = TILE >= rows - r0;
  for (int j = ly; j < TILE && j < cols - c0; j += WG_Y) {
    const ulong row_first = out_offset + (ulong)(c0 + j) * (ulong)ld_out;
    const int shift = (int)((row_first + (ulong)r0) % SECTOR);
    const int start = max(0, r0 - shift);
    const int end = last ? rows : r0 + TILE - shift;
    transpose_shifted_store(tile, j, top, start, end, out, row_first, lx);
  }
}

/* transpose_bytes: bytes (DTYPE uchar) through 4 x 4 blocks, with transpose_shifted's whole-sector output pieces.
 * Work-item (x, y) reads, for its 4-row blocks a = y, y + WG_Y, ..., the 4-byte word x of each of the block's 4
 * input rows (misaligned rows: the two aligned words around it, shuffled), transposes the 4 x 4 bytes in registers
 * and stores one word per input column into the local tile lt[column][block]; the output pass then writes whole
 * aligned words of each output row, each taken from two neighbouring local words. Local memory traffic is one word
 * per 4 bytes each way (transpose_tiled moves single bytes). Bytes are handled as uchar4 vectors, so the result
 * does not depend on the device's byte order. Macros: TILE (bytes, a multiple of SECTOR), WG_Y, PAD (words),
 * SECTOR (bytes, a multiple of 4). Work-group (TILE / 4, WG_Y). Compiled only when TILE >= 4: a program built for
 * another variant with a smaller tile (say tiled TILE=1) would otherwise fail on a work-group size of 0. */
#if TILE >= 4
#define BYTES_BLOCKS ((TILE + SECTOR) / 4)

/* Bytes [shift, shift + 4) of the 8 bytes low, high (shift 0..3). On little-endian devices one funnel shift of the
 * two words (byte i of a uchar4 is bits 8i..8i+7 of its uint there); elsewhere a shuffle with a run-time mask, which
 * NVIDIA's compiler turns into byte-by-byte selects. */
uchar4 bytes_window(uchar4 low, uchar4 high, int shift) {
#ifdef __ENDIAN_LITTLE__
  return as_uchar4((uint)(upsample(as_uint(high), as_uint(low)) >> (8 * shift)));
#else
  const uchar4 mask = (uchar4)(shift, shift + 1, shift + 2, shift + 3);
  return shift == 0 ? low : shuffle2(low, high, mask);
#endif
}

/* The 4 bytes at in + first through the aligned words around them, without checks: the caller knows that the word
 * before and the word after stay inside the matrix's rows. */
uchar4 bytes_window_at(__global const uchar* in, ulong first) {
  const int skew = (int)(first & 3);
  __global const uint* words = (__global const uint*)(in + (first - (ulong)skew));
  const uint low = words[0];
  return bytes_window(as_uchar4(low), as_uchar4(skew > 0 ? words[1] : low), skew);
}

/* The 4 bytes of input row r from byte column c0 + 4x: aligned words where reading them stays inside the matrix's
 * rows, single bytes (zero past the row) otherwise. */
uchar4 bytes_load(__global const uchar* in, ulong in_offset, int ld_in, int rows, int cols, int r, int c0, int x) {
  if (r < 0 || r >= rows) return (uchar4)(0);
  const ulong first = in_offset + (ulong)r * (ulong)ld_in + (ulong)c0 + 4 * (ulong)x;
  const bool whole = TILE <= cols - c0;
  const bool extra_inside = r + 1 < rows || TILE + 4 <= cols - c0;
  const bool start_inside = r > 0 || c0 > 0 || (in_offset & 3) == 0;
  if (whole && extra_inside && start_inside) return bytes_window_at(in, first);
  uchar lanes[4];
#pragma unroll
  for (int e = 0; e < 4; ++e) lanes[e] = c0 + 4 * x + e < cols ? in[first + e] : (uchar)0;
  return vload4(0, lanes);
}

/* Writes output row c0 + j's piece [start, end) (input rows) from local column j (lt row j), top = input row of
 * local byte row 0: whole aligned words inside the piece, single bytes at a partial word at either end. */
void bytes_store(__local uchar4 (*lt)[BYTES_BLOCKS + PAD], int j, int top, int start, int end, __global uchar* out,
                 ulong row_first, int x) {
  const ulong aligned_first = (row_first + (ulong)start) & ~(ulong)3;
  for (ulong k = aligned_first + 4 * (ulong)x; k < row_first + (ulong)end; k += TILE) {
    const int p = (int)((long)k - (long)row_first); /* input row of the word's first byte (>= start - 3) */
    const int local_row = p - top;
    const int shift = local_row & 3;
    const uchar4 low = lt[j][local_row >> 2];
    const uchar4 word = bytes_window(low, shift > 0 ? lt[j][(local_row >> 2) + 1] : low, shift);
    if (p >= start && p + 4 <= end) {
      *(__global uchar4*)(out + k) = word;
    } else {
      uchar lanes[4];
      vstore4(word, 0, lanes);
#pragma unroll
      for (int e = 0; e < 4; ++e) {
        if (p + e >= start && p + e < end) out[k + e] = lanes[e];
      }
    }
  }
}

__kernel __attribute__((reqd_work_group_size(TILE / 4, WG_Y, 1))) void transpose_bytes(int rows, int cols,
                                                                                       __global const uchar* in,
                                                                                       ulong in_offset, int ld_in,
                                                                                       __global uchar* out,
                                                                                       ulong out_offset, int ld_out) {
  __local uchar4 lt[TILE][BYTES_BLOCKS + PAD];
  const int x = get_local_id(0);
  const int y = get_local_id(1);
  const int c0 = get_group_id(0) * TILE;
  const int r0 = get_group_id(1) * TILE;
  const int top = r0 - SECTOR;
  /* Aligned outputs shift no piece: the blocks before the tile are not needed. */
  const int first_block = ((out_offset | (ulong)ld_out) & (ulong)(SECTOR - 1)) == 0 ? SECTOR / 4 : 0;
  /* Interior: every row the group reads lies inside the matrix, with its windows' extra words (as bytes_load's
   * test, once for the whole group). */
  const int first_row = top + 4 * first_block;
  const bool interior = first_row >= 0 && TILE <= rows - r0 && TILE <= cols - c0 &&
                        (TILE < rows - r0 || TILE + 4 <= cols - c0) &&
                        (first_row > 0 || c0 > 0 || (in_offset & 3) == 0);
  for (int a = first_block + y; a < BYTES_BLOCKS; a += WG_Y) {
    const int r = top + 4 * a;
    uchar4 v0, v1, v2, v3;
    if (interior) {
      const ulong first = in_offset + (ulong)r * (ulong)ld_in + (ulong)c0 + 4 * (ulong)x;
      v0 = bytes_window_at(in, first);
      v1 = bytes_window_at(in, first + (ulong)ld_in);
      v2 = bytes_window_at(in, first + 2 * (ulong)ld_in);
      v3 = bytes_window_at(in, first + 3 * (ulong)ld_in);
    } else {
      v0 = bytes_load(in, in_offset, ld_in, rows, cols, r, c0, x);
      v1 = bytes_load(in, in_offset, ld_in, rows, cols, r + 1, c0, x);
      v2 = bytes_load(in, in_offset, ld_in, rows, cols, r + 2, c0, x);
      v3 = bytes_load(in, in_offset, ld_in, rows, cols, r + 3, c0, x);
    }
    /* The 4 x 4 transpose as two rounds of two-vector shuffles (a vector built from single components of four
     * vectors crashes oclgrind 21.10's uninitialized-value checker; these compile to the same byte permutes). */
    const uchar4 low01 = shuffle2(v0, v1, (uchar4)(0, 4, 1, 5)), low23 = shuffle2(v2, v3, (uchar4)(0, 4, 1, 5));
    const uchar4 high01 = shuffle2(v0, v1, (uchar4)(2, 6, 3, 7)), high23 = shuffle2(v2, v3, (uchar4)(2, 6, 3, 7));
    lt[4 * x][a] = shuffle2(low01, low23, (uchar4)(0, 1, 4, 5));
    lt[4 * x + 1][a] = shuffle2(low01, low23, (uchar4)(2, 3, 6, 7));
    lt[4 * x + 2][a] = shuffle2(high01, high23, (uchar4)(0, 1, 4, 5));
    lt[4 * x + 3][a] = shuffle2(high01, high23, (uchar4)(2, 3, 6, 7));
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  const bool last = TILE >= rows - r0;
  for (int j = y; j < TILE && j < cols - c0; j += WG_Y) {
    const ulong row_first = out_offset + (ulong)(c0 + j) * (ulong)ld_out;
    const int shift = (int)((row_first + (ulong)r0) % SECTOR);
    const int start = max(0, r0 - shift);
    const int end = last ? rows : r0 + TILE - shift;
    bytes_store(lt, j, top, start, end, out, row_first, x);
  }
}
#endif /* TILE >= 4: transpose_bytes */

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
