/* gemm_batched.cl -- many matrix products of one shape in one launch:
 *
 *   C_b = alpha_b * op(A_b) * op(B_b) + beta_b * C_b      for b < batch,
 *
 * op(A_b) M x K, op(B_b) K x N, C_b M x N, all row-major (the host maps a ColMajor call as gemm does, by
 * solving C^T = op(B)^T op(A)^T: A and B swapped, their transposes swapped, M and N swapped).
 *
 * Where matrix b lives
 *   USE_OFFSETS 0 (strided): A_b starts at a_offset + b * stride_a (likewise B_b, C_b); alpha_b = alpha and
 *                 beta_b = beta.
 *   USE_OFFSETS 1: offsets[3 b], offsets[3 b + 1], offsets[3 b + 2] hold the element offsets of A_b, B_b,
 *                 C_b, and the 2 * batch DTYPE values after the 3 * batch offsets hold alpha_b and beta_b at
 *                 2 b and 2 b + 1 (a_offset, b_offset, c_offset, the strides, alpha and beta are then unused).
 *   Element (m, k) of op(A_b): TRANS_A 0 at A_b[m * lda + k], TRANS_A 1 at A_b[k * lda + m]; (k, n) of op(B_b):
 *   TRANS_B 0 at B_b[k * ldb + n], TRANS_B 1 at B_b[n * ldb + k]; (m, n) of C_b at C_b[m * ldc + n].
 *   beta_b == 0: C_b is not read (NaN in it does not reach the result). alpha_b == 0: A_b and B_b are not
 *   read and C_b = beta_b * C_b. K == 0: C_b = beta_b * C_b.
 *
 * Kernels (both take: M, N, K, alpha, A, a_offset, lda, stride_a, B, b_offset, ldb, stride_b, beta, C,
 * c_offset, ldc, stride_c, batch, offsets; M, N >= 1, batch >= 1; no C_b overlaps another C_b or any A_b,
 * B_b -- the host checks)
 *   gemm_batched_tiled  GPUs. A work-group is BT_WG_X x BT_WG_Y x MATS work-items (BT_WG_X = TILE_N / WPT_N,
 *                 BT_WG_Y = TILE_M / WPT_M, reqd_work_group_size); each of its MATS z-slices owns the tile
 *                 TILE_M x TILE_N of one matrix's C (the whole matrix when it fits: small matrices are computed
 *                 by one work-group, several per work-group when MATS > 1) and walks K in steps of TILE_K
 *                 through local tiles of op(A) (k-major) and op(B), PAD elements of padding per local row.
 *                 Work-item (tx, ty) computes WPT_M x WPT_N outputs: USE_LOCAL_VECTORS 0 at tile rows
 *                 ty + i * BT_WG_Y and columns tx + j * BT_WG_X (scalar local reads, neighbouring work-items on
 *                 neighbouring elements); 1 at rows ty * WPT_M + i and columns tx * WPT_N + j, read from local
 *                 memory LOCAL_VEC at a time (a quarter of the local reads for float). Global loads are
 *                 coalesced along the stored rows, in vectors of up to LOAD_VEC elements where the host vouches
 *                 for the alignment (ALIGN_*), and guarded (zero outside the matrix): any sizes, offsets,
 *                 strides and leading dimensions.
 *                 local (BT_WG_X, BT_WG_Y, MATS); global (ceil(M / TILE_M) * ceil(N / TILE_N) * BT_WG_X,
 *                 BT_WG_Y, G * MATS): group x is tile (x / tiles_n, x % tiles_n) of C, and G groups along z
 *                 (G <= 32768: CUDA-based drivers limit the grid's y and z extents) take matrices
 *                 (z + t * G) * MATS + lz for t = 0, 1, ...
 *   gemm_batched_cpu    CPUs (PoCL): no local memory, no barriers. Each work-item computes WPT_M rows x WPT_N
 *                 columns of one matrix with VEC-wide accumulators over the whole K (trip counts independent of
 *                 the work-item). Rows of B are read with unaligned vector loads (vloadn); a vector crossing N,
 *                 and every vector when TRANS_B = 1, is gathered with its columns clamped to N - 1 (never stored).
 *                 global (roundup(ceil(N / WPT_N), lx), roundup(ceil(M / WPT_M), ly), G), local (lx, ly, 1)
 *                 launch-only; group z handles matrices z, z + G, ...
 *
 * Macros (every one has a default)
 *   DTYPE        compute and accumulation type: float or double (float with HALF_STORAGE).      default float
 *   STORAGE      element type in memory; every access goes through BT_LOAD / BT_VLOADU / BT_STORE /
 *                BT_VSTOREU. DTYPE, or ushort with HALF_STORAGE = 1.                             default DTYPE
 *   HALF_STORAGE 0: A, B and C hold DTYPE. 1: they hold IEEE binary16 bits (STORAGE ushort, DTYPE float), read
 *                with vload_half / vload_halfn and written with vstore_half_rte / vstore_halfn_rte (OpenCL C
 *                1.2 core, no cl_khr_fp16): local tiles, products, sums, alpha and beta (the per-matrix scalars
 *                too) in float, each C element rounded once to half.                                default 0
 *   TRANS_A, TRANS_B  0/1: operand stored transposed (above).                                      default 0
 *   USE_OFFSETS  0/1: strided batch, or per-matrix offsets and scalars (above).                    default 0
 *   TILE_M, TILE_N   gemm_batched_tiled: the C tile of one matrix; multiples of WPT_M resp. WPT_N.  default 32
 *   TILE_K       gemm_batched_tiled: the K step, >= 1.                                             default 16
 *   WPT_M, WPT_N outputs per work-item along M and N (gemm_batched_cpu: WPT_N a multiple of VEC).  default 4
 *   MATS         gemm_batched_tiled: matrices per work-group (its z size), >= 1; BT_WG_X * BT_WG_Y * MATS <=
 *                max work-group size; MATS * TILE_K * (TILE_M + TILE_N + 2 * PAD) elements fit local
 *                memory.                                                                           default 1
 *   PAD          gemm_batched_tiled: local padding in elements, >= 0 (1 avoids bank conflicts on the
 *                stores of a transposed tile; with USE_LOCAL_VECTORS, TILE_M + PAD and TILE_N + PAD are
 *                multiples of LOCAL_VEC, e.g. 0 or 4).                                              default 1
 *   USE_LOCAL_VECTORS  0/1, gemm_batched_tiled: outputs owned in contiguous runs and read from local
 *                memory as vectors (WPT_M and WPT_N multiples of LOCAL_VEC), see above.            default 0
 *   LOCAL_VEC    width of those local reads: 16 bytes of DTYPE, so 4 for float, 2 for double (set by the
 *                host from the element size; 1, 2 or 4).                                           default 4
 *   VEC          gemm_batched_cpu: vector width 1, 2, 4, 8 or 16.                                   default 8
 *   LOAD_VEC     gemm_batched_tiled: the widest global access, in elements (1, 2, 4, 8): A and B are read
 *                along their stored rows, and C (with USE_LOCAL_VECTORS, not HALF_STORAGE) read and written
 *                along its rows, in aligned vectors of up to LOAD_VEC elements, each operand as wide as its
 *                ALIGN_* and the tile allow (BT_VEC_A, BT_VEC_B, BT_VEC_C below); a vector that would cross the
 *                matrix's edge is read element by element. (Scalar loads also cost registers: 155 against
 *                121 a work-item at 32 x 32 with 4 x 4 outputs on NVIDIA.)                       default 1
 *   ALIGN_A, ALIGN_B, ALIGN_C  what the host found true of the call: every stored row of A (B, C) of every
 *                matrix starts at a multiple of this many elements (1, 2, 4 or 8: it divides the leading
 *                dimension and every matrix's offset). Never tuned.                            default 1
 *   PREFETCH_C   gemm_batched_tiled: 1 reads the C elements a work-item updates (when beta != 0) before its
 *                K loop, so their latency overlaps the product instead of following it.         default 0
 *   DOUBLE_BUFFER  gemm_batched_tiled: 1 issues the global loads of the next K step before the products of
 *                the current one (their pieces wait in registers until the barrier); 0 loads each step after
 *                the previous one's products.                                                    default 0
 *   VARIANT      the kernels a program holds: 0 both, 1 gemm_batched_tiled, 2 gemm_batched_cpu (PoCL turns
 *                every kernel of a program into machine code when one is first launched; a program per
 *                variant halves that).                                                             default 0
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
#ifndef TRANS_A
#define TRANS_A 0
#endif
#ifndef TRANS_B
#define TRANS_B 0
#endif
#ifndef USE_OFFSETS
#define USE_OFFSETS 0
#endif
#ifndef TILE_M
#define TILE_M 32
#endif
#ifndef TILE_N
#define TILE_N 32
#endif
#ifndef TILE_K
#define TILE_K 16
#endif
#ifndef WPT_M
#define WPT_M 4
#endif
#ifndef WPT_N
#define WPT_N 4
#endif
#ifndef MATS
#define MATS 1
#endif
#ifndef PAD
#define PAD 1
#endif
#ifndef VEC
#define VEC 8
#endif
#ifndef USE_LOCAL_VECTORS
#define USE_LOCAL_VECTORS 0
#endif
#ifndef LOCAL_VEC
#define LOCAL_VEC 4
#endif
#ifndef LOAD_VEC
#define LOAD_VEC 1
#endif
#ifndef ALIGN_A
#define ALIGN_A 1
#endif
#ifndef ALIGN_B
#define ALIGN_B 1
#endif
#ifndef ALIGN_C
#define ALIGN_C 1
#endif
#ifndef PREFETCH_C
#define PREFETCH_C 0
#endif
#ifndef DOUBLE_BUFFER
#define DOUBLE_BUFFER 0
#endif

#ifndef VARIANT
#define VARIANT 0
#endif
#define BT_HAS(variant) (VARIANT == 0 || VARIANT == (variant))

/* The helpers hold their caller's accumulators: inline them, or the accumulators go to memory. */
#define BT_INLINE inline __attribute__((always_inline))
#define BT_AT_LEAST_1(x) ((x) > 0 ? (x) : 1)

/* Memory access: a scalar, VEC elements at any alignment, stores. */
#if HALF_STORAGE
#define BT_LOAD(pointer) vload_half(0, (const __global half*)(pointer))
#define BT_STORE(value, pointer) vstore_half_rte(value, 0, (__global half*)(pointer))
#else
#define BT_LOAD(pointer) ((DTYPE) * (pointer))
#define BT_STORE(value, pointer) (*(pointer) = (STORAGE)(value))
#endif
#if VEC == 1
#define VTYPE DTYPE
#define BT_VLOADU(pointer) BT_LOAD(pointer)
#define BT_VSTOREU(value, pointer) BT_STORE(value, pointer)
#else
#define VTYPE TILECL_CAT(DTYPE, VEC)
#if HALF_STORAGE
#define BT_VLOADU(pointer) TILECL_CAT(vload_half, VEC)(0, (const __global half*)(pointer))
#define BT_VSTOREU(value, pointer) TILECL_CAT(TILECL_CAT(vstore_half, VEC), _rte)(value, 0, (__global half*)(pointer))
#else
#define BT_VLOADU(pointer) TILECL_CAT(vload, VEC)(0, pointer)
#define BT_VSTOREU(value, pointer) TILECL_CAT(vstore, VEC)(value, 0, pointer)
#endif
#endif

/* Vectors assembled or taken apart element by element (edges, gathers). */
typedef union {
  VTYPE v;
  DTYPE s[VEC];
} bt_vec_t;

#if TRANS_A
#define BT_A_INDEX(m, k) ((k)*lda + (m))
#else
#define BT_A_INDEX(m, k) ((m)*lda + (k))
#endif
#if TRANS_B
#define BT_B_INDEX(k, n) ((n)*ldb + (k))
#else
#define BT_B_INDEX(k, n) ((k)*ldb + (n))
#endif

/* Where one matrix of the batch lives, and its scalars. */
typedef struct {
  ulong a, b, c;
  DTYPE alpha, beta;
} bt_matrix_t;

#define BT_BATCH_ARGUMENTS                                                                                      \
  const ulong a_offset, const ulong stride_a, const ulong b_offset, const ulong stride_b, const ulong c_offset, \
      const ulong stride_c, const DTYPE alpha, const DTYPE beta, const int batch,                               \
      const __global ulong *restrict offsets

BT_INLINE bt_matrix_t bt_matrix(const int index, BT_BATCH_ARGUMENTS) {
  bt_matrix_t matrix;
#if USE_OFFSETS
  matrix.a = offsets[3 * index];
  matrix.b = offsets[3 * index + 1];
  matrix.c = offsets[3 * index + 2];
  const __global DTYPE* scalars = (const __global DTYPE*)(offsets + 3 * batch);
  matrix.alpha = scalars[2 * index];
  matrix.beta = scalars[2 * index + 1];
#else
  matrix.a = a_offset + (ulong)index * stride_a;
  matrix.b = b_offset + (ulong)index * stride_b;
  matrix.c = c_offset + (ulong)index * stride_c;
  matrix.alpha = alpha;
  matrix.beta = beta;
#endif
  return matrix;
}

/* C = alpha * value + beta * C; C is not read when beta == 0. */
BT_INLINE void bt_store(__global STORAGE* c, const DTYPE value, const DTYPE alpha, const DTYPE beta) {
  if (beta == (DTYPE)0) {
    BT_STORE(alpha * value, c);
  } else {
    BT_STORE(alpha * value + beta * BT_LOAD(c), c);
  }
}

/* ---- gemm_batched_tiled ------------------------------------------------------------------------ */

#if BT_HAS(1)

#define BT_WG_X BT_AT_LEAST_1(TILE_N / WPT_N)
#define BT_WG_Y BT_AT_LEAST_1(TILE_M / WPT_M)
#define BT_THREADS (BT_WG_X * BT_WG_Y)

/* The tile row and column of a work-item's output (i, j). */
#if USE_LOCAL_VECTORS
#define BT_ROW(i) (ty * WPT_M + (i))
#define BT_COL(j) (tx * WPT_N + (j))
#else
#define BT_ROW(i) (ty + (i)*BT_WG_Y)
#define BT_COL(j) (tx + (j)*BT_WG_X)
#endif

#if LOCAL_VEC == 1
#define LVTYPE DTYPE
#else
#define LVTYPE TILECL_CAT(DTYPE, LOCAL_VEC)
#endif
typedef union {
  LVTYPE v;
  DTYPE s[LOCAL_VEC];
} bt_local_vec_t;

/* `count` values of one local row from `first`: LOCAL_VEC at a time with USE_LOCAL_VECTORS (first and the row
 * are aligned then), else `step` apart one by one. */
BT_INLINE void bt_read_local(const __local DTYPE* row, const int first, const int step, const int count,
                             DTYPE* values) {
#if USE_LOCAL_VECTORS
#pragma unroll
  for (int q = 0; q < count / LOCAL_VEC; ++q) {
    bt_local_vec_t u;
    u.v = *(const __local LVTYPE*)(row + first + q * LOCAL_VEC);
#pragma unroll
    for (int e = 0; e < LOCAL_VEC; ++e) values[q * LOCAL_VEC + e] = u.s[e];
  }
#else
#pragma unroll
  for (int i = 0; i < count; ++i) values[i] = row[first + i * step];
#endif
}

/* W elements from p, which is aligned to W elements (ALIGN_A etc.), into v[0..W-1]: one load
 * of a W-wide vector (BT_VT(W): DTYPE for 1), taken apart in private memory. */
#define BT_VT_1 DTYPE
#define BT_VT_2 TILECL_CAT(DTYPE, 2)
#define BT_VT_4 TILECL_CAT(DTYPE, 4)
#define BT_VT_8 TILECL_CAT(DTYPE, 8)
/* A pasting macro of its own: BT_VT_n expands TILECL_CAT, which may not appear inside its own expansion. */
#define BT_PASTE_IMPL(a, b) a##b
#define BT_PASTE(a, b) BT_PASTE_IMPL(a, b)
#define BT_VT(W) BT_PASTE(BT_VT_, W)
#if HALF_STORAGE
#define BT_HALF_LOAD_1(p) vload_half(0, (const __global half*)(p))
#define BT_HALF_LOAD_2(p) tilecl_vload_half2_aligned((const __global ushort*)(p))
#define BT_HALF_LOAD_4(p) tilecl_vload_half4_aligned((const __global ushort*)(p))
#define BT_HALF_LOAD_8(p) tilecl_vload_half8_aligned((const __global ushort*)(p))
#define BT_GLOAD_WIDE(W, p) BT_PASTE(BT_HALF_LOAD_, W)(p)
#else
#define BT_GLOAD_WIDE(W, p) (*(const __global BT_VT(W)*)(p))
#endif
#define BT_GLOAD_VEC(W, p, v)                                                       \
  do {                                                                              \
    const BT_VT(W) bt_w = BT_GLOAD_WIDE(W, p);                                      \
    for (int bt_q = 0; bt_q < (W); ++bt_q) (v)[bt_q] = ((const DTYPE*)&bt_w)[bt_q]; \
  } while (0)

/* W elements of a stored row from column c (row inside the matrix when `inside`, columns < cols): one vector
 * load when all W lie inside, else one by one, zero outside. */
#define BT_LOAD_PIECE(W, p, inside, c, cols, v)                                         \
  do {                                                                                  \
    if ((W) > 1 && (inside) && (c) + (W) <= (cols)) {                                   \
      BT_GLOAD_VEC(W, p, v);                                                            \
    } else {                                                                            \
      for (int bt_e = 0; bt_e < (W); ++bt_e)                                            \
        (v)[bt_e] = ((inside) && (c) + bt_e < (cols)) ? BT_LOAD((p) + bt_e) : (DTYPE)0; \
    }                                                                                   \
  } while (0)

/* One K step of a matrix's operands into local memory, in two halves (bt_fetch_tiles, bt_store_tiles) so that
 * DOUBLE_BUFFER can overlap the next step's loads with the current step's products. Each operand is read along
 * its stored rows in pieces of BT_VEC_A resp. BT_VEC_B elements, consecutive work-items on consecutive pieces of
 * a row; elements outside the matrix, and every element when `reads` is 0, are zero.
 * Remainders are written as e - q * d: LLVM turns a division and remainder pair into a `freeze`, which
 * oclgrind's uninitialized-value checker does not support. */
#if TRANS_A
#define BT_A_ROWS TILE_K /* stored rows of A's tile: k */
#define BT_A_COLS TILE_M /* along them: m */
#else
#define BT_A_ROWS TILE_M
#define BT_A_COLS TILE_K
#endif
#if TRANS_B
#define BT_B_ROWS TILE_N
#define BT_B_COLS TILE_K
#else
#define BT_B_ROWS TILE_K
#define BT_B_COLS TILE_N
#endif
/* The width of each operand's global accesses: the largest of 8, 4, 2 within LOAD_VEC and the operand's
 * alignment that divides the tile's extent along the stored rows (C: a work-item's run of columns). */
#define BT_WIDTH_OK(w, align, extent) (LOAD_VEC >= (w) && (align) >= (w) && (extent) % (w) == 0)
#if BT_WIDTH_OK(8, ALIGN_A, BT_A_COLS)
#define BT_VEC_A 8
#elif BT_WIDTH_OK(4, ALIGN_A, BT_A_COLS)
#define BT_VEC_A 4
#elif BT_WIDTH_OK(2, ALIGN_A, BT_A_COLS)
#define BT_VEC_A 2
#else
#define BT_VEC_A 1
#endif
#if BT_WIDTH_OK(8, ALIGN_B, BT_B_COLS)
#define BT_VEC_B 8
#elif BT_WIDTH_OK(4, ALIGN_B, BT_B_COLS)
#define BT_VEC_B 4
#elif BT_WIDTH_OK(2, ALIGN_B, BT_B_COLS)
#define BT_VEC_B 2
#else
#define BT_VEC_B 1
#endif
#if HALF_STORAGE || !USE_LOCAL_VECTORS
#define BT_VEC_C 1
#elif BT_WIDTH_OK(8, ALIGN_C, WPT_N)
#define BT_VEC_C 8
#elif BT_WIDTH_OK(4, ALIGN_C, WPT_N)
#define BT_VEC_C 4
#elif BT_WIDTH_OK(2, ALIGN_C, WPT_N)
#define BT_VEC_C 2
#else
#define BT_VEC_C 1
#endif
#define BT_PIECES_A (BT_A_ROWS * (BT_A_COLS / BT_VEC_A))
#define BT_PIECES_B (BT_B_ROWS * (BT_B_COLS / BT_VEC_B))
#define BT_LOADS_A ((BT_PIECES_A + BT_THREADS - 1) / BT_THREADS)
#define BT_LOADS_B ((BT_PIECES_B + BT_THREADS - 1) / BT_THREADS)

/* The pieces of one K step a work-item reads: piece l of A is A's piece lid + l * BT_THREADS (likewise B). */
typedef struct {
  DTYPE a[BT_LOADS_A][BT_VEC_A], b[BT_LOADS_B][BT_VEC_B];
} bt_pieces_t;

/* Global memory to registers: the work-item's pieces of the K step at k0. */
BT_INLINE void bt_fetch_tiles(const __global STORAGE* a, const __global STORAGE* b, const int lda, const int ldb,
                              const int M, const int N, const int K, const int m0, const int n0, const int k0,
                              const int lid, const int reads, bt_pieces_t* pieces) {
#pragma unroll
  for (int l = 0; l < BT_LOADS_A; ++l) {
    const int e = lid + l * BT_THREADS;
    if (e < BT_PIECES_A) {
      const int rr = e / (BT_A_COLS / BT_VEC_A), cc = (e - rr * (BT_A_COLS / BT_VEC_A)) * BT_VEC_A;
#if TRANS_A
      const int r = k0 + rr, c = m0 + cc, rows = K, cols = M;
#else
      const int r = m0 + rr, c = k0 + cc, rows = M, cols = K;
#endif
      BT_LOAD_PIECE(BT_VEC_A, a + r * lda + c, reads && r < rows, c, cols, pieces->a[l]);
    }
  }
#pragma unroll
  for (int l = 0; l < BT_LOADS_B; ++l) {
    const int e = lid + l * BT_THREADS;
    if (e < BT_PIECES_B) {
      const int rr = e / (BT_B_COLS / BT_VEC_B), cc = (e - rr * (BT_B_COLS / BT_VEC_B)) * BT_VEC_B;
#if TRANS_B
      const int r = n0 + rr, c = k0 + cc, rows = N, cols = K;
#else
      const int r = k0 + rr, c = n0 + cc, rows = K, cols = N;
#endif
      BT_LOAD_PIECE(BT_VEC_B, b + r * ldb + c, reads && r < rows, c, cols, pieces->b[l]);
    }
  }
}

/* Registers to local memory: op(A) k-major (a_tile[k][m]) and op(B) (b_tile[k][n]). */
BT_INLINE void bt_store_tiles(const int lid, const bt_pieces_t* pieces, __local DTYPE (*a_tile)[TILE_M + PAD],
                              __local DTYPE (*b_tile)[TILE_N + PAD]) {
#pragma unroll
  for (int l = 0; l < BT_LOADS_A; ++l) {
    const int e = lid + l * BT_THREADS;
    if (e < BT_PIECES_A) {
      const int rr = e / (BT_A_COLS / BT_VEC_A), cc = (e - rr * (BT_A_COLS / BT_VEC_A)) * BT_VEC_A;
#pragma unroll
      for (int q = 0; q < BT_VEC_A; ++q) {
#if TRANS_A
        a_tile[rr][cc + q] = pieces->a[l][q];
#else
        a_tile[cc + q][rr] = pieces->a[l][q];
#endif
      }
    }
  }
#pragma unroll
  for (int l = 0; l < BT_LOADS_B; ++l) {
    const int e = lid + l * BT_THREADS;
    if (e < BT_PIECES_B) {
      const int rr = e / (BT_B_COLS / BT_VEC_B), cc = (e - rr * (BT_B_COLS / BT_VEC_B)) * BT_VEC_B;
#pragma unroll
      for (int q = 0; q < BT_VEC_B; ++q) {
#if TRANS_B
        b_tile[cc + q][rr] = pieces->b[l][q];
#else
        b_tile[rr][cc + q] = pieces->b[l][q];
#endif
      }
    }
  }
}

/* The old values of the C elements a work-item updates (beta != 0), or its stores. With BT_VEC_C > 1 (contiguous
 * outputs, USE_LOCAL_VECTORS) a run of BT_VEC_C columns inside the matrix is one aligned access. */

BT_INLINE void bt_read_c(const __global STORAGE* c, const int ldc, const int M, const int N, const int m0, const int n0,
                         const int ty, const int tx, DTYPE (*old)[WPT_N]) {
#pragma unroll
  for (int i = 0; i < WPT_M; ++i) {
    const int m = m0 + BT_ROW(i);
#pragma unroll
    for (int j = 0; j < WPT_N; j += BT_VEC_C) {
      const int n = n0 + BT_COL(j);
      BT_LOAD_PIECE(BT_VEC_C, c + m * ldc + n, m < M, n, N, (&old[i][j]));
    }
  }
}

BT_INLINE void bt_write_c(__global STORAGE* c, const int ldc, const int M, const int N, const int m0, const int n0,
                          const int ty, const int tx, DTYPE (*acc)[WPT_N], DTYPE (*old)[WPT_N], const DTYPE alpha,
                          const DTYPE beta) {
#pragma unroll
  for (int i = 0; i < WPT_M; ++i) {
    const int m = m0 + BT_ROW(i);
    if (m >= M) continue;
#pragma unroll
    for (int j = 0; j < WPT_N; j += BT_VEC_C) {
      const int n = n0 + BT_COL(j);
      DTYPE value[BT_VEC_C];
#pragma unroll
      for (int q = 0; q < BT_VEC_C; ++q)
        value[q] = beta == (DTYPE)0 ? alpha * acc[i][j + q] : alpha * acc[i][j + q] + beta * old[i][j + q];
#if BT_VEC_C > 1
      if (n + BT_VEC_C <= N) {
        *(__global BT_VT(BT_VEC_C)*)(c + m * ldc + n) = TILECL_CAT(vload, BT_VEC_C)(0, value);
        continue;
      }
#endif
#pragma unroll
      for (int q = 0; q < BT_VEC_C; ++q)
        if (n + q < N) BT_STORE(value[q], c + m * ldc + n + q);
    }
  }
}

__kernel __attribute__((reqd_work_group_size(BT_WG_X, BT_WG_Y, MATS))) void gemm_batched_tiled(
    const int M, const int N, const int K, const DTYPE alpha, const __global STORAGE* restrict A, const ulong a_offset,
    const int lda, const ulong stride_a, const __global STORAGE* restrict B, const ulong b_offset, const int ldb,
    const ulong stride_b, const DTYPE beta, __global STORAGE* C, const ulong c_offset, const int ldc,
    const ulong stride_c, const int batch, const __global ulong* restrict offsets) {
  /* 16-byte aligned: with USE_LOCAL_VECTORS rows are read as vectors. */
  __local DTYPE a_tiles[MATS][TILE_K][TILE_M + PAD] __attribute__((aligned(16)));
  __local DTYPE b_tiles[MATS][TILE_K][TILE_N + PAD] __attribute__((aligned(16)));
  const int tx = (int)get_local_id(0), ty = (int)get_local_id(1), tz = (int)get_local_id(2);
  const int lid = ty * BT_WG_X + tx;
  const int tiles_n = (N + TILE_N - 1) / TILE_N, tile = (int)get_group_id(0);
  const int tile_m = tile / tiles_n;
  const int n0 = (tile - tile_m * tiles_n) * TILE_N, m0 = tile_m * TILE_M;
  const int step = (int)get_num_groups(2) * MATS;
  /* Every work-item of the group runs the same iterations (barriers inside); a z-slice past the batch loads
   * zeros and stores nothing. */
  for (int first = (int)get_group_id(2) * MATS; first < batch; first += step) {
    const int index = first + tz, live = index < batch;
    const bt_matrix_t matrix = bt_matrix(min(index, batch - 1), a_offset, stride_a, b_offset, stride_b, c_offset,
                                         stride_c, alpha, beta, batch, offsets);
    const int reads = live && matrix.alpha != (DTYPE)0;
    __global STORAGE* c = C + matrix.c;
    DTYPE acc[WPT_M][WPT_N], old[WPT_M][WPT_N];
#pragma unroll
    for (int i = 0; i < WPT_M; ++i) {
#pragma unroll
      for (int j = 0; j < WPT_N; ++j) acc[i][j] = 0, old[i][j] = 0;
    }
#if PREFETCH_C
    if (live && matrix.beta != (DTYPE)0) bt_read_c(c, ldc, M, N, m0, n0, ty, tx, old);
#endif
    bt_pieces_t pieces;
#if DOUBLE_BUFFER
    if (K > 0) bt_fetch_tiles(A + matrix.a, B + matrix.b, lda, ldb, M, N, K, m0, n0, 0, lid, reads, &pieces);
#endif
    for (int k0 = 0; k0 < K; k0 += TILE_K) {
#if DOUBLE_BUFFER
      bt_store_tiles(lid, &pieces, a_tiles[tz], b_tiles[tz]);
      barrier(CLK_LOCAL_MEM_FENCE);
      /* The next step's loads are in flight while this one's products run. */
      if (k0 + TILE_K < K)
        bt_fetch_tiles(A + matrix.a, B + matrix.b, lda, ldb, M, N, K, m0, n0, k0 + TILE_K, lid, reads, &pieces);
#else
      bt_fetch_tiles(A + matrix.a, B + matrix.b, lda, ldb, M, N, K, m0, n0, k0, lid, reads, &pieces);
      bt_store_tiles(lid, &pieces, a_tiles[tz], b_tiles[tz]);
      barrier(CLK_LOCAL_MEM_FENCE);
#endif
#pragma unroll
      for (int kk = 0; kk < TILE_K; ++kk) {
        DTYPE a[WPT_M], b[WPT_N];
        bt_read_local(a_tiles[tz][kk], BT_ROW(0), BT_WG_Y, WPT_M, a);
        bt_read_local(b_tiles[tz][kk], BT_COL(0), BT_WG_X, WPT_N, b);
#pragma unroll
        for (int i = 0; i < WPT_M; ++i) {
#pragma unroll
          for (int j = 0; j < WPT_N; ++j) acc[i][j] = TILECL_MAD(a[i], b[j], acc[i][j]);
        }
      }
      barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (!live) continue;
#if !PREFETCH_C
    if (matrix.beta != (DTYPE)0) bt_read_c(c, ldc, M, N, m0, n0, ty, tx, old);
#endif
    bt_write_c(c, ldc, M, N, m0, n0, ty, tx, acc, old, matrix.alpha, matrix.beta);
  }
}

#endif /* BT_HAS(1) */

/* ---- gemm_batched_cpu -------------------------------------------------------------------------- */

#if BT_HAS(2)

#define BT_CPU_VN BT_AT_LEAST_1(WPT_N / VEC)

/* VEC elements of row k of op(B) from column n: one load, or gathered with columns clamped to N - 1. */
BT_INLINE VTYPE bt_b_vector(const __global STORAGE* b, const int ldb, const int k, const int n, const int N) {
#if TRANS_B == 0
  if (n + VEC <= N) return BT_VLOADU(b + BT_B_INDEX(k, n));
#endif
  bt_vec_t u;
#pragma unroll
  for (int e = 0; e < VEC; ++e) u.s[e] = BT_LOAD(b + BT_B_INDEX(k, min(n + e, N - 1)));
  return u.v;
}

/* Row m of C from column n: alpha * value + beta * C for the columns below N. */
BT_INLINE void bt_store_vector(__global STORAGE* c, const int n, const int N, const VTYPE value, const DTYPE alpha,
                               const DTYPE beta) {
  if (n + VEC <= N) {
    if (beta == (DTYPE)0) {
      BT_VSTOREU(alpha * value, c + n);
    } else {
      BT_VSTOREU(alpha * value + beta * BT_VLOADU(c + n), c + n);
    }
    return;
  }
  bt_vec_t u;
  u.v = value;
#pragma unroll
  for (int e = 0; e < VEC; ++e) {
    if (n + e < N) bt_store(c + n + e, u.s[e], alpha, beta);
  }
}

__kernel void gemm_batched_cpu(const int M, const int N, const int K, const DTYPE alpha,
                               const __global STORAGE* restrict A, const ulong a_offset, const int lda,
                               const ulong stride_a, const __global STORAGE* restrict B, const ulong b_offset,
                               const int ldb, const ulong stride_b, const DTYPE beta, __global STORAGE* C,
                               const ulong c_offset, const int ldc, const ulong stride_c, const int batch,
                               const __global ulong* restrict offsets) {
  const int n0 = (int)get_global_id(0) * WPT_N, m0 = (int)get_global_id(1) * WPT_M;
  if (m0 >= M || n0 >= N) return;
  for (int index = (int)get_group_id(2); index < batch; index += (int)get_num_groups(2)) {
    const bt_matrix_t matrix =
        bt_matrix(index, a_offset, stride_a, b_offset, stride_b, c_offset, stride_c, alpha, beta, batch, offsets);
    VTYPE acc[WPT_M][BT_CPU_VN];
#pragma unroll
    for (int i = 0; i < WPT_M; ++i) {
#pragma unroll
      for (int j = 0; j < BT_CPU_VN; ++j) acc[i][j] = (VTYPE)0;
    }
    /* alpha == 0 reads neither A nor B. Rows past M repeat the last row; they are never stored. */
    const int depth = matrix.alpha != (DTYPE)0 ? K : 0;
    const __global STORAGE* a = A + matrix.a;
    const __global STORAGE* b = B + matrix.b;
    for (int k = 0; k < depth; ++k) {
      VTYPE bv[BT_CPU_VN];
#pragma unroll
      for (int j = 0; j < BT_CPU_VN; ++j) bv[j] = bt_b_vector(b, ldb, k, n0 + j * VEC, N);
#pragma unroll
      for (int i = 0; i < WPT_M; ++i) {
        const VTYPE av = (VTYPE)BT_LOAD(a + BT_A_INDEX(min(m0 + i, M - 1), k));
#pragma unroll
        for (int j = 0; j < BT_CPU_VN; ++j) acc[i][j] = TILECL_MAD(av, bv[j], acc[i][j]);
      }
    }
    __global STORAGE* c = C + matrix.c;
#pragma unroll
    for (int i = 0; i < WPT_M; ++i) {
      if (m0 + i >= M) break;
#pragma unroll
      for (int j = 0; j < BT_CPU_VN; ++j)
        bt_store_vector(c + (m0 + i) * ldc, n0 + j * VEC, N, acc[i][j], matrix.alpha, matrix.beta);
    }
  }
}

#endif /* BT_HAS(2) */
