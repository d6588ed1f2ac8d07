/* gemm.cl -- general matrix multiply: C = alpha * op(A) * op(B) + beta * C.
 *
 * Conventions shared by every kernel
 *   - Row-major only. The host maps a ColMajor call to RowMajor by solving C^T = op(B)^T op(A)^T: swap
 *     A and B (with their offsets and leading dimensions), swap TRANS_A and TRANS_B, swap M and N.
 *   - op(A) is M x K, op(B) is K x N, C is M x N. TRANS_A = 0: A is stored M x K, element (m, k) at
 *     A[m * lda + k]; TRANS_A = 1: A is stored K x M, (m, k) at A[k * lda + m]. TRANS_B likewise:
 *     0: B stored K x N, (k, n) at B[k * ldb + n]; 1: B stored N x K, (k, n) at B[n * ldb + k].
 *     TRANS_C = 0: (m, n) at C[m * ldc + n]; TRANS_C = 1: at C[n * ldc + m]. TRANS_C lets the host solve a
 *     transposed problem into the caller's C (used to bring a skinny problem to the orientation a skinny
 *     kernel wants; see the notes); the big kernels normally run with TRANS_C = 0.
 *   - Transposes are build macros, so each (TRANS_A, TRANS_B, TRANS_C) is its own program.
 *   - Offsets are element offsets added once to the pointers; leading dimensions may exceed the rows.
 *   - beta == 0: C is never read (a C full of NaN gives a clean result). K == 0: C = beta * C.
 *     alpha == 0 is not special-cased here: the host launches with K = 0 so that A and B are not read.
 *   - Arguments common to the gemm kernels, in this order:
 *       M, N, K, alpha, A, a_offset, lda, B, b_offset, ldb, beta, C, c_offset, ldc
 *     and for the kernels that can split K over work-groups (regblock, skinny_m, skinny_n):
 *       k_slice          K elements per slice (multiple of TILE_K for regblock, of VEC for the skinny ones)
 *       c_slice_stride   elements between the outputs of two slices.
 *     With one slice (k_slice >= K) the kernel writes alpha * sum + beta * C. With S slices the host sets
 *     alpha = 1, beta = 0 and points C at a workspace of S slices; gemm_splitk_reduce then forms the result.
 *
 * Vector-load preconditions ("VP" below). Where a kernel loads VEC elements of a stored row at once it
 * casts to a vector pointer (GPUs only emit wide loads for aligned pointers), so for that operand:
 *   - its leading dimension and its offset are multiples of VEC, and
 *   - its extent along the vector direction is a multiple of VEC. If that extent is M or N, rounding it up
 *     to VEC and reading the extra elements must stay inside the buffer (their values never reach C).
 *     If that extent is K, K must be a multiple of VEC (values beyond K would reach C).
 *   Otherwise the host copies the operand with gemm_pack into a zero-padded workspace (every dimension
 *   rounded up to VEC; when K is rounded, both operands are packed and the padded K is passed).
 *   VEC = 1 never has preconditions.
 *
 * Kernels
 *   gemm_naive       one output per work-item; reference and fallback. Any sizes.
 *                    global = (roundup(N, lx), roundup(M, ly)), local (lx, ly) free: launch-only.
 *   gemm_tiled       TILE x TILE tiles of op(A) and op(B) in local memory (PAD columns of padding), one output
 *                    per work-item, two barriers per K step. Bounds checked: any sizes, no VP.
 *                    local = (TILE, TILE), global = (roundup(N, TILE), roundup(M, TILE)).
 *   gemm_regblock    the fast GPU kernel. Work-group tile TILE_M x TILE_N, K step TILE_K; each work-item
 *                    computes WPT_M x WPT_N outputs in registers. Local memory holds A transposed
 *                    (TILE_K x TILE_M) and B (TILE_K x TILE_N), read as VEC-wide vectors; global loads
 *                    are VEC wide. Neighbouring work-items own neighbouring vectors of the tile, so local
 *                    reads and C stores are contiguous across them. USE_DOUBLE_BUFFER: two local tiles, the next tile
 *                    goes global -> registers before the math and registers -> local after it, one barrier
 *                    per step. USE_PREFETCH (single buffer): the next tile is loaded into registers during
 *                    the math, two barriers per step. Neither: load, barrier, math, barrier.
 *                    Ragged M and N: loads clamp to the last row/column (results not stored); ragged K:
 *                    loads beyond K read as zero. C is written with bounds checks (vector stores where
 *                    the tile is whole and C is VEC aligned). With USE_ALIGNED_A (B) = 1 it needs VP for A
 *                    along K (TRANS_A = 0) or M (TRANS_A = 1), for B along N (TRANS_B = 0) or K (TRANS_B =
 *                    1); with 0, that operand has no precondition (element loads).
 *                    Work-group size is derived, not a macro: RB_WG_X = TILE_N / WPT_N, RB_WG_Y = TILE_M /
 *                    WPT_M (reqd_work_group_size). local = (RB_WG_X, RB_WG_Y, 1), global = (ceil(N /
 *                    TILE_N) * RB_WG_X, ceil(M / TILE_M) * RB_WG_Y, S) for S K-slices (launch-only).
 *                    Work-item (tx, ty) owns tile rows (i * RB_WG_Y + ty) * VEC + e and columns
 *                    (j * RB_WG_X + tx) * VEC + e.
 *   gemm_cpu         CPU-friendly (PoCL): no local memory, no barriers unless K_BLOCK; each work-item computes
 *                    WPT_M rows x WPT_N contiguous columns with VEC-wide accumulators over the whole K loop
 *                    (the trip count does not depend on the id). Unaligned vector loads (vloadn): no VP, any
 *                    sizes. With K_BLOCK > 0, K runs in blocks with a barrier after each: PoCL runs the
 *                    work-items of a group one after another between barriers, so the group's work-items
 *                    (one column of them: the same columns of B) read each block of B from the L1 cache.
 *                    B is read either in place (TRANS_B = 0: rows of B, whole vectors; the vector that
 *                    crosses N and every vector of TRANS_B = 1 are gathered, slowly) or, with
 *                    USE_PACKED_B, from k-major panels written by gemm_pack_panels (the fast path on CPUs:
 *                    one contiguous stream per work-item, no cache-set aliasing at power-of-two ldb, and
 *                    TRANS_B is absorbed by the packing).
 *                    global = (roundup(ceil(N / WPT_N), lx), roundup(ceil(M / WPT_M), ly)); local (lx, ly)
 *                    launch-only (PoCL: lx * ly a multiple of 8, or NULL).
 *   gemm_skinny_m    small M (GEMV-like rows, M <= a few WPT_M): each work-item owns VEC columns and WPT_M
 *                    rows and sums a strided share of K; the WG_Y shares of a work-group are added in
 *                    local memory. B is read once, VEC wide and coalesced when TRANS_B = 0 (VP for B
 *                    along N); TRANS_B = 1 gathers (correct, slow: the host prefers gemm_skinny_n on the
 *                    transposed problem). A is read as scalars (cached).
 *                    local = (WG_X, WG_Y, 1) (build: reqd_work_group_size), global = (ceil(N / (WG_X *
 *                    VEC)) * WG_X, WG_Y * S, ceil(M / WPT_M)).
 *   gemm_skinny_n    small N (GEMV-like columns): each output is a dot product; work-items along dimension
 *                    0 read VEC-wide consecutive pieces of a row of A (TRANS_A = 0, VP along K) and of B
 *                    (TRANS_B = 1, VP along K); the other orientations gather. Each work-item covers
 *                    WPT_M rows x WPT_N columns; the WG_X partial sums are added in local memory.
 *                    local = (WG_X, WG_Y, 1) (build), global = (WG_X * S, ceil(M / (WG_Y * WPT_M)) * WG_Y,
 *                    ceil(N / WPT_N)).
 *   gemm_splitk_reduce   C = alpha * sum_s W_s + beta * C over a stored rows x cols matrix (the host passes
 *                    the stored extents, so TRANS_C plays no part). Arguments: rows, cols, slices, W,
 *                    w_offset, ldw, w_slice_stride, alpha, beta, C, c_offset, ldc. One element per work-item;
 *                    global = (roundup(cols, lx), roundup(rows, ly)), local launch-only.
 *   gemm_pack        copies a rows x cols matrix (transposed on the fly when transpose != 0) into a
 *                    rows_dst x cols_dst destination, zero-filling the padding. Arguments: rows, cols, src,
 *                    src_offset, lds, transpose, rows_dst, cols_dst, dst, dst_offset, ldd; with transpose,
 *                    dst(r, c) = src[c * lds + r]. One element per work-item;
 *                    global = (roundup(cols_dst, lx), roundup(rows_dst, ly)), local launch-only.
 *   gemm_pack_panels op(B) (K x N) into k-major panels of `panel` columns for gemm_cpu with USE_PACKED_B:
 *                    (k, p * panel + j) at dst[p * panel_stride + k * panel + j], zero past N. Arguments:
 *                    rows (= K), cols (= N), src, src_offset, lds, transpose (= TRANS_B), panel (= WPT_N),
 *                    panel_stride (>= K * panel; passed to gemm_cpu as ldb), dst, dst_offset.
 *                    global = (roundup(panel, lx), roundup(K, ly), ceil(N / panel)), local launch-only.
 *
 * C must not overlap A or B (the host checks). Every gemm kernel needs M, N >= 1 (the host returns early on
 * an empty C); K may be 0.
 *
 * Macros (every one has a default; a program is built for one kernel's configuration, but the other
 * kernels of the file still compile with any values, so derived sizes are clamped to at least 1 and the
 * host, not the preprocessor, checks the constraints of the kernel it launches)
 *   DTYPE              element type: float or double.                                        default float
 *   TRANS_A, TRANS_B   0/1: operand stored transposed (see above).                            default 0
 *   TRANS_C            0/1: C stored transposed (see above).                                  default 0
 *   TILE               gemm_tiled: square tile and work-group side; TILE * TILE <= max
 *                      work-group size.                                                       default 16
 *   PAD                local-memory padding in elements added to each local row: gemm_tiled
 *                      (0 or 1 typical), gemm_regblock (rounded up to a multiple of VEC there so
 *                      vector reads stay aligned; 0 or VEC typical).                           default 1
 *   TILE_M, TILE_N     gemm_regblock work-group tile; multiples of WPT_M resp. WPT_N.       default 64, 64
 *   TILE_K             gemm_regblock K step; multiple of VEC.                                 default 16
 *   WPT_M, WPT_N       outputs per work-item along M and N: gemm_regblock (multiples of VEC),
 *                      gemm_cpu (WPT_N a multiple of VEC), gemm_skinny_m (WPT_M rows; WPT_N
 *                      unused), gemm_skinny_n (WPT_M rows, WPT_N columns).                   default 4, 4
 *   VEC                vector width 1, 2, 4, 8 or 16 (double too). regblock: also the width of
 *                      local reads. Constraints for regblock: (TILE_M * TILE_K) and
 *                      (TILE_N * TILE_K) are multiples of VEC * WG_X * WG_Y.                     default 4
 *   USE_DOUBLE_BUFFER  0/1, gemm_regblock: two local tiles, one barrier per K step. Local memory:
 *                      (1 + USE_DOUBLE_BUFFER) * TILE_K * (TILE_M + TILE_N + 2 * pad) elements. default 0
 *   USE_PREFETCH       0/1, gemm_regblock with one buffer: register prefetch of the next tile. default 1
 *   WARP_N             gemm_regblock: 0 keeps work-item (lid0, lid1) at grid place (tx, ty); 4, 8 or 16
 *                      rearranges each 32 consecutive work-items (a warp on NVIDIA) into WARP_N x
 *                      (32 / WARP_N) places, so a warp reads fewer distinct local vectors of A and B per
 *                      step. Needs RB_WG_X % WARP_N == 0, RB_WG_Y % (32 / WARP_N) == 0 and a work-group
 *                      size that is a multiple of 32.                                             default 0
 *   USE_ALIGNED_A,     0/1, gemm_regblock: 1 (default) reads the operand with aligned VEC-wide loads and
 *   USE_ALIGNED_B      needs VP for it; 0 reads it VEC elements at a time, any offset, leading dimension
 *                      and size (along K, elements past K read as zero), so a ragged operand needs no
 *                      gemm_pack launch. Local memory and the math are the same either way.   default 1, 1
 *   USE_PACKED_B       0/1, gemm_cpu: B is op(B) in k-major panels of WPT_N columns (gemm_pack_panels),
 *                      ldb is the panel stride; TRANS_B is then ignored.                       default 0
 *   K_BLOCK            gemm_cpu: 0, or the K steps between barriers (any positive value; every work-item of
 *                      the launch, those past M or N included, reaches each barrier).           default 0
 *   WG_X, WG_Y         gemm_skinny_m / gemm_skinny_n work-group size (their local arrays depend
 *                      on it). WG_X * WG_Y <= max work-group size.                         default 32, 8
 *   GEMM_VARIANT       which main kernel the program contains: GEMM_ALL, GEMM_NAIVE, GEMM_TILED,
 *                      GEMM_REGBLOCK, GEMM_CPU, GEMM_SKINNY_M, GEMM_SKINNY_N, or GEMM_HELPERS (none).
 *                      The helpers gemm_splitk_reduce, gemm_pack and gemm_pack_panels are in GEMM_ALL and
 *                      GEMM_HELPERS programs only (they depend on DTYPE alone; the runtime builds one
 *                      GEMM_HELPERS program per element type). Only saves compile time (a regblock
 *                      program compiles 2-3x faster without the other unrolled kernels).   default GEMM_ALL
 */

#ifndef DTYPE
#define DTYPE float
#endif
#ifndef TRANS_A
#define TRANS_A 0
#endif
#ifndef TRANS_B
#define TRANS_B 0
#endif
#ifndef TRANS_C
#define TRANS_C 0
#endif
#ifndef TILE
#define TILE 16
#endif
#ifndef PAD
#define PAD 1
#endif
#ifndef TILE_M
#define TILE_M 64
#endif
#ifndef TILE_N
#define TILE_N 64
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
#ifndef VEC
#define VEC 4
#endif
#ifndef USE_DOUBLE_BUFFER
#define USE_DOUBLE_BUFFER 0
#endif
#ifndef USE_PREFETCH
#define USE_PREFETCH 1
#endif
#ifndef WARP_N
#define WARP_N 0
#endif
#ifndef K_BLOCK
#define K_BLOCK 0
#endif
#ifndef USE_PACKED_B
#define USE_PACKED_B 0
#endif
#ifndef USE_ALIGNED_A
#define USE_ALIGNED_A 1
#endif
#ifndef USE_ALIGNED_B
#define USE_ALIGNED_B 1
#endif
#ifndef WG_X
#define WG_X 32
#endif
#define GEMM_ALL 0
#define GEMM_NAIVE 1
#define GEMM_TILED 2
#define GEMM_REGBLOCK 3
#define GEMM_CPU 4
#define GEMM_SKINNY_M 5
#define GEMM_SKINNY_N 6
#define GEMM_HELPERS 7
#ifndef GEMM_VARIANT
#define GEMM_VARIANT GEMM_ALL
#endif
#define GEMM_HAS(variant) (GEMM_VARIANT == GEMM_ALL || GEMM_VARIANT == (variant))
#ifndef WG_Y
#define WG_Y 8
#endif

/* ---- helpers ------------------------------------------------------------------------------------ */

/* The helpers hold the accumulators of their caller: they must be inlined, or the accumulators go to
 * memory. Compilers weigh plain `inline` against code size (the unrolled tile product is large). */
#define GEMM_INLINE inline __attribute__((always_inline))

#define GEMM_AT_LEAST_1(x) ((x) > 0 ? (x) : 1)

#if VEC == 1
#define VTYPE DTYPE
#define GEMM_VLOADU(pointer) (*(pointer))
#define GEMM_VSTOREU(value, pointer) (*(pointer) = (value))
#else
#define VTYPE TILECL_CAT(DTYPE, VEC)
#define GEMM_VLOADU(pointer) TILECL_CAT(vload, VEC)(0, pointer)
#define GEMM_VSTOREU(value, pointer) TILECL_CAT(vstore, VEC)(value, 0, pointer)
#endif

/* Aligned vector access (VP holds): one wide load/store. */
#define GEMM_VLOAD(pointer) (*(const __global VTYPE*)(pointer))
#define GEMM_VSTORE(value, pointer) (*(__global VTYPE*)(pointer) = (value))

/* Element e of a vector register. e is a compile-time constant after unrolling, so the selects fold to a
 * plain register; no private array (and no union) is involved on the hot paths. */
#if VEC == 1
#define GEMM_VELEM(v, e) (v)
#elif VEC == 2
#define GEMM_VELEM(v, e) ((e) == 0 ? (v).s0 : (v).s1)
#elif VEC == 4
#define GEMM_VELEM(v, e) ((e) < 2 ? ((e) == 0 ? (v).s0 : (v).s1) : ((e) == 2 ? (v).s2 : (v).s3))
#elif VEC == 8
#define GEMM_VELEM4(v, e) ((e) < 2 ? ((e) == 0 ? (v).s0 : (v).s1) : ((e) == 2 ? (v).s2 : (v).s3))
#define GEMM_VELEM(v, e) ((e) < 4 ? GEMM_VELEM4((v).lo, (e)) : GEMM_VELEM4((v).hi, (e)-4))
#elif VEC == 16
#define GEMM_VELEM4(v, e) ((e) < 2 ? ((e) == 0 ? (v).s0 : (v).s1) : ((e) == 2 ? (v).s2 : (v).s3))
#define GEMM_VELEM8(v, e) ((e) < 4 ? GEMM_VELEM4((v).lo, (e)) : GEMM_VELEM4((v).hi, (e)-4))
#define GEMM_VELEM(v, e) ((e) < 8 ? GEMM_VELEM8((v).lo, (e)) : GEMM_VELEM8((v).hi, (e)-8))
#endif

/* Gathers build vectors through this union (slow paths only). */
typedef union {
  VTYPE v;
  DTYPE s[VEC];
} gemm_vec_t;

/* Index of element (m, k) of A, (k, n) of B, (m, n) of C in their stored layout. */
#if TRANS_A
#define GEMM_A_INDEX(m, k) ((k)*lda + (m))
#else
#define GEMM_A_INDEX(m, k) ((m)*lda + (k))
#endif
#if TRANS_B
#define GEMM_B_INDEX(k, n) ((n)*ldb + (k))
#else
#define GEMM_B_INDEX(k, n) ((k)*ldb + (n))
#endif
#if TRANS_C
#define GEMM_C_INDEX(m, n) ((n)*ldc + (m))
#else
#define GEMM_C_INDEX(m, n) ((m)*ldc + (n))
#endif

/* C[index] = alpha * value + beta * C[index]; C is not read when beta == 0. */
GEMM_INLINE void gemm_store(__global DTYPE* c, const DTYPE value, const DTYPE alpha, const DTYPE beta) {
  if (beta == (DTYPE)0) {
    *c = alpha * value;
  } else {
    *c = alpha * value + beta * *c;
  }
}

/* The VEC outputs (m, n .. n + VEC - 1). vector_ok: C + index is VEC aligned and TRANS_C == 0. */
GEMM_INLINE void gemm_store_vector(__global DTYPE* C, const int ldc, const int M, const int N, const int m, const int n,
                                   const VTYPE value, const DTYPE alpha, const DTYPE beta, const int vector_ok) {
  if (m >= M) return;
#if TRANS_C == 0
  if (vector_ok && n + VEC <= N) {
    __global DTYPE* c = C + GEMM_C_INDEX(m, n);
    if (beta == (DTYPE)0) {
      GEMM_VSTORE(alpha * value, c);
    } else {
      GEMM_VSTORE(alpha * value + beta * GEMM_VLOAD(c), c);
    }
    return;
  }
#endif
#pragma unroll
  for (int e = 0; e < VEC; ++e) {
    if (n + e < N) gemm_store(C + GEMM_C_INDEX(m, n + e), GEMM_VELEM(value, e), alpha, beta);
  }
}

/* ---- gemm_naive --------------------------------------------------------------------------------- */

#if GEMM_HAS(GEMM_NAIVE)

__kernel void gemm_naive(const int M, const int N, const int K, const DTYPE alpha, const __global DTYPE* restrict A,
                         const ulong a_offset, const int lda, const __global DTYPE* restrict B, const ulong b_offset,
                         const int ldb, const DTYPE beta, __global DTYPE* C, const ulong c_offset, const int ldc) {
  const int n = (int)get_global_id(0);
  const int m = (int)get_global_id(1);
  if (m >= M || n >= N) return;
  A += a_offset;
  B += b_offset;
  C += c_offset;
  DTYPE acc = 0;
  for (int k = 0; k < K; ++k) acc = TILECL_MAD(A[GEMM_A_INDEX(m, k)], B[GEMM_B_INDEX(k, n)], acc);
  gemm_store(C + GEMM_C_INDEX(m, n), acc, alpha, beta);
}

#endif /* GEMM_HAS(GEMM_NAIVE) */

/* ---- gemm_tiled --------------------------------------------------------------------------------- */

#if GEMM_HAS(GEMM_TILED)

__kernel __attribute__((reqd_work_group_size(TILE, TILE, 1))) void gemm_tiled(
    const int M, const int N, const int K, const DTYPE alpha, const __global DTYPE* restrict A, const ulong a_offset,
    const int lda, const __global DTYPE* restrict B, const ulong b_offset, const int ldb, const DTYPE beta,
    __global DTYPE* C, const ulong c_offset, const int ldc) {
  __local DTYPE a_tile[TILE][TILE + PAD]; /* a_tile[m][k] */
  __local DTYPE b_tile[TILE][TILE + PAD]; /* b_tile[k][n] */
  const int tx = (int)get_local_id(0);
  const int ty = (int)get_local_id(1);
  const int n0 = (int)get_group_id(0) * TILE;
  const int m0 = (int)get_group_id(1) * TILE;
  A += a_offset;
  B += b_offset;
  C += c_offset;
  DTYPE acc = 0;
  for (int k0 = 0; k0 < K; k0 += TILE) {
    /* Neighbouring work-items (tx) read neighbouring addresses of the stored matrix. */
#if TRANS_A == 0
    {
      const int m = m0 + ty, k = k0 + tx;
      a_tile[ty][tx] = (m < M && k < K) ? A[GEMM_A_INDEX(m, k)] : (DTYPE)0;
    }
#else
    {
      const int m = m0 + tx, k = k0 + ty;
      a_tile[tx][ty] = (m < M && k < K) ? A[GEMM_A_INDEX(m, k)] : (DTYPE)0;
    }
#endif
#if TRANS_B == 0
    {
      const int k = k0 + ty, n = n0 + tx;
      b_tile[ty][tx] = (k < K && n < N) ? B[GEMM_B_INDEX(k, n)] : (DTYPE)0;
    }
#else
    {
      const int k = k0 + tx, n = n0 + ty;
      b_tile[tx][ty] = (k < K && n < N) ? B[GEMM_B_INDEX(k, n)] : (DTYPE)0;
    }
#endif
    barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll
    for (int kk = 0; kk < TILE; ++kk) acc = TILECL_MAD(a_tile[ty][kk], b_tile[kk][tx], acc);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  const int m = m0 + ty, n = n0 + tx;
  if (m < M && n < N) gemm_store(C + GEMM_C_INDEX(m, n), acc, alpha, beta);
}

#endif /* GEMM_HAS(GEMM_TILED) */

/* ---- gemm_regblock ------------------------------------------------------------------------------ */

#if GEMM_HAS(GEMM_REGBLOCK)

#define RB_WG_X GEMM_AT_LEAST_1(TILE_N / WPT_N)
#define RB_WG_Y GEMM_AT_LEAST_1(TILE_M / WPT_M)
#define RB_THREADS (RB_WG_X * RB_WG_Y)
#define RB_VM GEMM_AT_LEAST_1(WPT_M / VEC) /* vectors per work-item along M */
#define RB_VN GEMM_AT_LEAST_1(WPT_N / VEC) /* vectors per work-item along N */
#define RB_PAD (((PAD) + VEC - 1) / VEC * VEC)
#define RB_A_STRIDE (TILE_M + RB_PAD) /* elements per k row of the local A tile (A^T) */
#define RB_B_STRIDE (TILE_N + RB_PAD)
#define RB_A_SIZE (TILE_K * RB_A_STRIDE)
#define RB_B_SIZE (TILE_K * RB_B_STRIDE)
#define RB_LOADS_A GEMM_AT_LEAST_1(TILE_M* TILE_K / (VEC * RB_THREADS))
#define RB_LOADS_B GEMM_AT_LEAST_1(TILE_N* TILE_K / (VEC * RB_THREADS))
#if USE_DOUBLE_BUFFER
#define RB_BUFFERS 2
#else
#define RB_BUFFERS 1
#endif
/* Vectors per stored row of a tile: along K when the operand is loaded along K, else along M / N. */
#if TRANS_A == 0
#define RB_A_ROW_VECTORS GEMM_AT_LEAST_1(TILE_K / VEC)
#else
#define RB_A_ROW_VECTORS GEMM_AT_LEAST_1(TILE_M / VEC)
#endif
#if TRANS_B == 0
#define RB_B_ROW_VECTORS GEMM_AT_LEAST_1(TILE_N / VEC)
#else
#define RB_B_ROW_VECTORS GEMM_AT_LEAST_1(TILE_K / VEC)
#endif

/* Per-work-item load plan, fixed for the whole K loop: for load l, the offset from the tile's first
 * element in global memory, the destination in local memory, and the k of the load within the tile
 * (for the ragged-K guard). */
typedef struct {
  int global_a[RB_LOADS_A];
  int local_a[RB_LOADS_A];
  int k_a[RB_LOADS_A];
  int global_b[RB_LOADS_B];
  int local_b[RB_LOADS_B];
  int k_b[RB_LOADS_B];
#if !USE_ALIGNED_A && TRANS_A
  int valid_a[RB_LOADS_A]; /* elements of the vector inside M (element loads along M) */
#endif
#if !USE_ALIGNED_B && !TRANS_B
  int valid_b[RB_LOADS_B]; /* elements of the vector inside N (element loads along N) */
#endif
} rb_plan_t;

/* Element loads for an operand that misses the vector-load preconditions (USE_ALIGNED_A/B = 0): VEC elements
 * from p, any alignment. Along K, elements at or past k_left read as zero (they would reach C); along M or N,
 * elements past the `valid` ones repeat the last valid one (they feed only outputs that are never stored). */
GEMM_INLINE VTYPE rb_elements_along_k(const __global DTYPE* p, const int k, const int k_left) {
  DTYPE lanes[VEC];
#pragma unroll
  for (int e = 0; e < VEC; ++e) lanes[e] = k + e < k_left ? p[e] : (DTYPE)0;
  return GEMM_VLOADU(lanes);
}
GEMM_INLINE VTYPE rb_elements_clamped(const __global DTYPE* p, const int valid) {
  DTYPE lanes[VEC];
#pragma unroll
  for (int e = 0; e < VEC; ++e) lanes[e] = p[min(e, valid - 1)];
  return GEMM_VLOADU(lanes);
}

/* Global -> registers, one tile. k_left = valid K elements left from the tile's start. */
GEMM_INLINE void rb_load(const __global DTYPE* a_tile, const __global DTYPE* b_tile, const rb_plan_t* plan,
                         const int k_left, VTYPE* ra, VTYPE* rb) {
#pragma unroll
  for (int l = 0; l < RB_LOADS_A; ++l) {
#if USE_ALIGNED_A
    ra[l] = plan->k_a[l] < k_left ? GEMM_VLOAD(a_tile + plan->global_a[l]) : (VTYPE)0;
#elif TRANS_A == 0
    ra[l] = rb_elements_along_k(a_tile + plan->global_a[l], plan->k_a[l], k_left);
#else
    ra[l] = plan->k_a[l] < k_left ? rb_elements_clamped(a_tile + plan->global_a[l], plan->valid_a[l]) : (VTYPE)0;
#endif
  }
#pragma unroll
  for (int l = 0; l < RB_LOADS_B; ++l) {
#if USE_ALIGNED_B
    rb[l] = plan->k_b[l] < k_left ? GEMM_VLOAD(b_tile + plan->global_b[l]) : (VTYPE)0;
#elif TRANS_B
    rb[l] = rb_elements_along_k(b_tile + plan->global_b[l], plan->k_b[l], k_left);
#else
    rb[l] = plan->k_b[l] < k_left ? rb_elements_clamped(b_tile + plan->global_b[l], plan->valid_b[l]) : (VTYPE)0;
#endif
  }
}

/* Registers -> local tile (buffer `buffer`). A goes in transposed (k rows of M); B as k rows of N. */
GEMM_INLINE void rb_store(__local VTYPE* a_local, __local VTYPE* b_local, const int buffer, const rb_plan_t* plan,
                          const VTYPE* ra, const VTYPE* rb) {
  const int a_base = buffer * (RB_A_SIZE / VEC), b_base = buffer * (RB_B_SIZE / VEC);
#pragma unroll
  for (int l = 0; l < RB_LOADS_A; ++l) {
#if TRANS_A == 0
    __local DTYPE* a_scalar = (__local DTYPE*)a_local;
#pragma unroll
    for (int e = 0; e < VEC; ++e) a_scalar[a_base * VEC + plan->local_a[l] + e * RB_A_STRIDE] = GEMM_VELEM(ra[l], e);
#else
    a_local[a_base + plan->local_a[l]] = ra[l];
#endif
  }
#pragma unroll
  for (int l = 0; l < RB_LOADS_B; ++l) {
#if TRANS_B == 0
    b_local[b_base + plan->local_b[l]] = rb[l];
#else
    __local DTYPE* b_scalar = (__local DTYPE*)b_local;
#pragma unroll
    for (int e = 0; e < VEC; ++e) b_scalar[b_base * VEC + plan->local_b[l] + e * RB_B_STRIDE] = GEMM_VELEM(rb[l], e);
#endif
  }
}

/* acc += the A^T rows times the B rows of local buffer `buffer`. */
GEMM_INLINE void rb_multiply(const __local VTYPE* a_local, const __local VTYPE* b_local, const int buffer, const int tx,
                             const int ty, VTYPE acc[WPT_M][RB_VN]) {
  const int a_base = buffer * (RB_A_SIZE / VEC) + ty, b_base = buffer * (RB_B_SIZE / VEC) + tx;
#pragma unroll
  for (int kk = 0; kk < TILE_K; ++kk) {
    VTYPE a[RB_VM], b[RB_VN];
#pragma unroll
    for (int i = 0; i < RB_VM; ++i) a[i] = a_local[a_base + kk * (RB_A_STRIDE / VEC) + i * RB_WG_Y];
#pragma unroll
    for (int j = 0; j < RB_VN; ++j) b[j] = b_local[b_base + kk * (RB_B_STRIDE / VEC) + j * RB_WG_X];
#pragma unroll
    for (int i = 0; i < RB_VM; ++i) {
#pragma unroll
      for (int e = 0; e < VEC; ++e) {
#pragma unroll
        for (int j = 0; j < RB_VN; ++j) {
          acc[i * VEC + e][j] = TILECL_MAD((VTYPE)(GEMM_VELEM(a[i], e)), b[j], acc[i * VEC + e][j]);
        }
      }
    }
  }
}

__kernel __attribute__((reqd_work_group_size(RB_WG_X, RB_WG_Y, 1))) void gemm_regblock(
    const int M, const int N, const int K, const DTYPE alpha, const __global DTYPE* restrict A, const ulong a_offset,
    const int lda, const __global DTYPE* restrict B, const ulong b_offset, const int ldb, const DTYPE beta,
    __global DTYPE* C, const ulong c_offset, const int ldc, const int k_slice, const ulong c_slice_stride) {
  __local VTYPE a_local[RB_BUFFERS * RB_A_SIZE / VEC];
  __local VTYPE b_local[RB_BUFFERS * RB_B_SIZE / VEC];
  const int tid = (int)get_local_id(1) * RB_WG_X + (int)get_local_id(0);
  /* (tx, ty): the work-item's place in the grid of output vectors. Loads use tid only. */
#if WARP_N > 0
  /* Each group of 32 consecutive work-items covers WARP_N x (32 / WARP_N) work-items of that grid, so it
   * reads fewer distinct local vectors per step than two full rows of RB_WG_X would. */
  const int warp = tid / 32, lane = tid - warp * 32; /* x - (x / d) * d, not x % d: see the load plan */
  const int warp_row = warp / (RB_WG_X / WARP_N), warp_col = warp - warp_row * (RB_WG_X / WARP_N);
  const int lane_row = lane / WARP_N, lane_col = lane - lane_row * WARP_N;
  const int tx = warp_col * WARP_N + lane_col;
  const int ty = warp_row * (32 / WARP_N) + lane_row;
#else
  const int tx = (int)get_local_id(0);
  const int ty = (int)get_local_id(1);
#endif
  const int n0 = (int)get_group_id(0) * TILE_N;
  const int m0 = (int)get_group_id(1) * TILE_M;
  const int k_begin = (int)get_group_id(2) * k_slice;
  const int k_end = min(K, k_begin + k_slice);
  const int tiles = k_end > k_begin ? (k_end - k_begin + TILE_K - 1) / TILE_K : 0;
  const ulong c_start = c_offset + get_group_id(2) * c_slice_stride;
  const int c_vector_ok = TRANS_C == 0 && ((ldc | (int)(c_start & 0xffff)) & (VEC - 1)) == 0;
  C += c_start;

  /* Load plan. Rows (columns) past M (N) are clamped to the last valid vector: they only feed outputs
   * that are never stored. */
  rb_plan_t plan;
#pragma unroll
  for (int l = 0; l < RB_LOADS_A; ++l) {
    const int v = tid + l * RB_THREADS;
    /* c = v - r * X rather than v % X: same code, and oclgrind's uninitialized-value checker cannot
     * follow the `freeze` that LLVM emits for a div/rem pair. */
    const int r = v / RB_A_ROW_VECTORS, c = v - r * RB_A_ROW_VECTORS;
#if TRANS_A == 0 /* r: m within the tile, c: k vector */
    plan.global_a[l] = min(m0 + r, M - 1) * lda + c * VEC;
    plan.local_a[l] = c * VEC * RB_A_STRIDE + r; /* scalar index */
    plan.k_a[l] = c * VEC;
#else /* r: k within the tile, c: m vector */
#if USE_ALIGNED_A
    plan.global_a[l] = r * lda + min(m0 / VEC + c, (M + VEC - 1) / VEC - 1) * VEC;
#else
    const int m_first = min(m0 + c * VEC, M - 1);
    plan.global_a[l] = r * lda + m_first;
    plan.valid_a[l] = M - m_first;
#endif
    plan.local_a[l] = r * (RB_A_STRIDE / VEC) + c; /* vector index */
    plan.k_a[l] = r;
#endif
  }
#pragma unroll
  for (int l = 0; l < RB_LOADS_B; ++l) {
    const int v = tid + l * RB_THREADS;
    const int r = v / RB_B_ROW_VECTORS, c = v - r * RB_B_ROW_VECTORS;
#if TRANS_B == 0 /* r: k within the tile, c: n vector */
#if USE_ALIGNED_B
    plan.global_b[l] = r * ldb + min(n0 / VEC + c, (N + VEC - 1) / VEC - 1) * VEC;
#else
    const int n_first = min(n0 + c * VEC, N - 1);
    plan.global_b[l] = r * ldb + n_first;
    plan.valid_b[l] = N - n_first;
#endif
    plan.local_b[l] = r * (RB_B_STRIDE / VEC) + c; /* vector index */
    plan.k_b[l] = r;
#else /* r: n within the tile, c: k vector */
    plan.global_b[l] = min(n0 + r, N - 1) * ldb + c * VEC;
    plan.local_b[l] = c * VEC * RB_B_STRIDE + r; /* scalar index */
    plan.k_b[l] = c * VEC;
#endif
  }
  const __global DTYPE* a_tile = A + a_offset + (TRANS_A ? (long)k_begin * lda : k_begin);
  const __global DTYPE* b_tile = B + b_offset + (TRANS_B ? k_begin : (long)k_begin * ldb);
  const int a_step = TRANS_A ? TILE_K * lda : TILE_K;
  const int b_step = TRANS_B ? TILE_K : TILE_K * ldb;

  VTYPE acc[WPT_M][RB_VN];
#pragma unroll
  for (int i = 0; i < WPT_M; ++i) {
#pragma unroll
    for (int j = 0; j < RB_VN; ++j) acc[i][j] = (VTYPE)0;
  }
  VTYPE ra[RB_LOADS_A], rb[RB_LOADS_B];

#if USE_DOUBLE_BUFFER
  if (tiles > 0) {
    rb_load(a_tile, b_tile, &plan, k_end - k_begin, ra, rb);
    rb_store(a_local, b_local, 0, &plan, ra, rb);
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int t = 0; t < tiles; ++t) {
    const int current = t & 1;
    const int more = t + 1 < tiles;
    if (more) {
      a_tile += a_step;
      b_tile += b_step;
      rb_load(a_tile, b_tile, &plan, k_end - k_begin - (t + 1) * TILE_K, ra, rb);
    }
    rb_multiply(a_local, b_local, current, tx, ty, acc);
    if (more) rb_store(a_local, b_local, 1 - current, &plan, ra, rb);
    /* One barrier: the buffer written above is not the one being read, and a work-item can only come
     * back to overwrite this one after every work-item has passed this barrier. */
    barrier(CLK_LOCAL_MEM_FENCE);
  }
#elif USE_PREFETCH
  if (tiles > 0) rb_load(a_tile, b_tile, &plan, k_end - k_begin, ra, rb);
  for (int t = 0; t < tiles; ++t) {
    rb_store(a_local, b_local, 0, &plan, ra, rb);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (t + 1 < tiles) {
      a_tile += a_step;
      b_tile += b_step;
      rb_load(a_tile, b_tile, &plan, k_end - k_begin - (t + 1) * TILE_K, ra, rb);
    }
    rb_multiply(a_local, b_local, 0, tx, ty, acc);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
#else
  for (int t = 0; t < tiles; ++t) {
    rb_load(a_tile, b_tile, &plan, k_end - k_begin - t * TILE_K, ra, rb);
    rb_store(a_local, b_local, 0, &plan, ra, rb);
    a_tile += a_step;
    b_tile += b_step;
    barrier(CLK_LOCAL_MEM_FENCE);
    rb_multiply(a_local, b_local, 0, tx, ty, acc);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
#endif

#pragma unroll
  for (int i = 0; i < RB_VM; ++i) {
#pragma unroll
    for (int e = 0; e < VEC; ++e) {
      const int m = m0 + (i * RB_WG_Y + ty) * VEC + e;
#pragma unroll
      for (int j = 0; j < RB_VN; ++j) {
        const int n = n0 + (j * RB_WG_X + tx) * VEC;
        gemm_store_vector(C, ldc, M, N, m, n, acc[i * VEC + e][j], alpha, beta, c_vector_ok);
      }
    }
  }
}

#endif /* GEMM_HAS(GEMM_REGBLOCK) */

/* ---- gemm_cpu ----------------------------------------------------------------------------------- */

#if GEMM_HAS(GEMM_CPU)

#define CPU_VN GEMM_AT_LEAST_1(WPT_N / VEC)

/* Vector j of row k of this work-item's columns. With USE_PACKED_B the panel holds op(B) k-major and
 * zero-padded, so every vector is whole; otherwise a vector that crosses N is gathered with the column
 * clamped to N - 1 (those columns are never stored). */
#if USE_PACKED_B
#define CPU_B_VECTOR(k, j) GEMM_VLOADU(b_panel + (k)*WPT_N + (j)*VEC)
#elif TRANS_B == 0
#define CPU_B_VECTOR(k, j) \
  (whole[j] ? GEMM_VLOADU(B + GEMM_B_INDEX(k, n0 + (j)*VEC)) : cpu_gather_b(B, ldb, k, n0 + (j)*VEC, N))
#else
#define CPU_B_VECTOR(k, j) cpu_gather_b(B, ldb, k, n0 + (j)*VEC, N)
#endif

GEMM_INLINE VTYPE cpu_gather_b(const __global DTYPE* B, const int ldb, const int k, const int n, const int N) {
  gemm_vec_t u;
#pragma unroll
  for (int e = 0; e < VEC; ++e) u.s[e] = B[GEMM_B_INDEX(k, min(n + e, N - 1))];
  return u.v;
}

__kernel void gemm_cpu(const int M, const int N, const int K, const DTYPE alpha, const __global DTYPE* restrict A,
                       const ulong a_offset, const int lda, const __global DTYPE* restrict B, const ulong b_offset,
                       const int ldb, const DTYPE beta, __global DTYPE* C, const ulong c_offset, const int ldc) {
  const int n0 = (int)get_global_id(0) * WPT_N;
  const int m0 = (int)get_global_id(1) * WPT_M;
#if K_BLOCK == 0
  if (m0 >= M || n0 >= N) return;
#endif
  A += a_offset;
  B += b_offset;
  C += c_offset;
#if USE_PACKED_B
  /* (with K_BLOCK, a work-item past N reads the last panel and stores nothing) */
  const __global DTYPE* b_panel = B + (long)min((int)get_global_id(0), (N - 1) / WPT_N) * ldb;
#else
  int whole[CPU_VN];
#pragma unroll
  for (int j = 0; j < CPU_VN; ++j) whole[j] = n0 + (j + 1) * VEC <= N;
#endif
  /* Rows past M repeat the last row; their results are not stored. */
  const __global DTYPE* a_row[WPT_M];
#pragma unroll
  for (int i = 0; i < WPT_M; ++i) a_row[i] = A + GEMM_A_INDEX(min(m0 + i, M - 1), 0);
  VTYPE acc[WPT_M][CPU_VN];
#pragma unroll
  for (int i = 0; i < WPT_M; ++i) {
#pragma unroll
    for (int j = 0; j < CPU_VN; ++j) acc[i][j] = (VTYPE)0;
  }
#if K_BLOCK > 0
  /* K in blocks with a barrier between them: PoCL runs a work-group's work-items one after another between
   * barriers, so each block of the B vectors the group shares stays in the L1 cache while all of them use it
   * (with no barrier, each work-item streams the whole of K from L2 in turn). Every work-item takes part. */
  for (int kb = 0; kb < K; kb += K_BLOCK) {
    const int k_end = min(K, kb + K_BLOCK);
    for (int k = kb; k < k_end; ++k) {
#else
  {
    for (int k = 0; k < K; ++k) {
#endif
      VTYPE b[CPU_VN];
#pragma unroll
      for (int j = 0; j < CPU_VN; ++j) b[j] = CPU_B_VECTOR(k, j);
#pragma unroll
      for (int i = 0; i < WPT_M; ++i) {
        const VTYPE a = (VTYPE)(a_row[i][TRANS_A ? k * lda : k]);
#pragma unroll
        for (int j = 0; j < CPU_VN; ++j) acc[i][j] = TILECL_MAD(a, b[j], acc[i][j]);
      }
    }
#if K_BLOCK > 0
    barrier(CLK_LOCAL_MEM_FENCE);
#endif
  }
#if K_BLOCK > 0
  if (m0 >= M || n0 >= N) return;
#endif
#pragma unroll
  for (int i = 0; i < WPT_M; ++i) {
    const int m = m0 + i;
    if (m >= M) break;
#pragma unroll
    for (int j = 0; j < CPU_VN; ++j) {
      const int n = n0 + j * VEC;
#if TRANS_C == 0
      if (n + VEC <= N) {
        __global DTYPE* c = C + GEMM_C_INDEX(m, n);
        if (beta == (DTYPE)0) {
          GEMM_VSTOREU(alpha * acc[i][j], c);
        } else {
          GEMM_VSTOREU(alpha * acc[i][j] + beta * GEMM_VLOADU(c), c);
        }
        continue;
      }
#endif
#pragma unroll
      for (int e = 0; e < VEC; ++e) {
        if (n + e < N) gemm_store(C + GEMM_C_INDEX(m, n + e), GEMM_VELEM(acc[i][j], e), alpha, beta);
      }
    }
  }
}

#endif /* GEMM_HAS(GEMM_CPU) */

/* ---- gemm_skinny_m ------------------------------------------------------------------------------ */

#if GEMM_HAS(GEMM_SKINNY_M)

__kernel __attribute__((reqd_work_group_size(WG_X, WG_Y, 1))) void gemm_skinny_m(
    const int M, const int N, const int K, const DTYPE alpha, const __global DTYPE* restrict A, const ulong a_offset,
    const int lda, const __global DTYPE* restrict B, const ulong b_offset, const int ldb, const DTYPE beta,
    __global DTYPE* C, const ulong c_offset, const int ldc, const int k_slice, const ulong c_slice_stride) {
  __local VTYPE partial[WG_Y][WG_X];
  const int lx = (int)get_local_id(0);
  const int ly = (int)get_local_id(1);
  const int n = (int)get_global_id(0) * VEC;
  const int m0 = (int)get_group_id(2) * WPT_M;
  const int k_begin = (int)get_group_id(1) * k_slice;
  const int k_end = min(K, k_begin + k_slice);
  const ulong c_start = c_offset + get_group_id(1) * c_slice_stride;
  const int c_vector_ok = TRANS_C == 0 && ((ldc | (int)(c_start & 0xffff)) & (VEC - 1)) == 0;
  A += a_offset;
  B += b_offset;
  C += c_start;
  int row[WPT_M];
#pragma unroll
  for (int i = 0; i < WPT_M; ++i) row[i] = min(m0 + i, M - 1);
#if TRANS_B == 0
  const int n_load = min(n, ((N + VEC - 1) / VEC - 1) * VEC);
#endif
  VTYPE acc[WPT_M];
#pragma unroll
  for (int i = 0; i < WPT_M; ++i) acc[i] = (VTYPE)0;
  for (int k = k_begin + ly; k < k_end; k += WG_Y) {
#if TRANS_B == 0
    const VTYPE b = GEMM_VLOAD(B + GEMM_B_INDEX(k, n_load));
#else
    gemm_vec_t u;
#pragma unroll
    for (int e = 0; e < VEC; ++e) u.s[e] = B[GEMM_B_INDEX(k, min(n + e, N - 1))];
    const VTYPE b = u.v;
#endif
#pragma unroll
    for (int i = 0; i < WPT_M; ++i) acc[i] = TILECL_MAD((VTYPE)(A[GEMM_A_INDEX(row[i], k)]), b, acc[i]);
  }
#pragma unroll
  for (int i = 0; i < WPT_M; ++i) {
    partial[ly][lx] = acc[i];
    barrier(CLK_LOCAL_MEM_FENCE);
    if (ly == 0) {
      VTYPE sum = partial[0][lx];
      for (int y = 1; y < WG_Y; ++y) sum += partial[y][lx];
      gemm_store_vector(C, ldc, M, N, m0 + i, n, sum, alpha, beta, c_vector_ok);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}

#endif /* GEMM_HAS(GEMM_SKINNY_M) */

/* ---- gemm_skinny_n ------------------------------------------------------------------------------ */

#if GEMM_HAS(GEMM_SKINNY_N)

__kernel __attribute__((reqd_work_group_size(WG_X, WG_Y, 1))) void gemm_skinny_n(
    const int M, const int N, const int K, const DTYPE alpha, const __global DTYPE* restrict A, const ulong a_offset,
    const int lda, const __global DTYPE* restrict B, const ulong b_offset, const int ldb, const DTYPE beta,
    __global DTYPE* C, const ulong c_offset, const int ldc, const int k_slice, const ulong c_slice_stride) {
  __local DTYPE partial[WG_Y][WG_X];
  const int lx = (int)get_local_id(0);
  const int ly = (int)get_local_id(1);
  const int m0 = ((int)get_group_id(1) * WG_Y + ly) * WPT_M;
  const int n0 = (int)get_group_id(2) * WPT_N;
  const int k_begin = (int)get_group_id(0) * k_slice;
  const int k_end = min(K, k_begin + k_slice);
  A += a_offset;
  B += b_offset;
  C += c_offset + get_group_id(0) * c_slice_stride;
  int row[WPT_M], col[WPT_N];
#pragma unroll
  for (int i = 0; i < WPT_M; ++i) row[i] = min(m0 + i, M - 1);
#pragma unroll
  for (int j = 0; j < WPT_N; ++j) col[j] = min(n0 + j, N - 1);
  VTYPE acc[WPT_M][WPT_N];
#pragma unroll
  for (int i = 0; i < WPT_M; ++i) {
#pragma unroll
    for (int j = 0; j < WPT_N; ++j) acc[i][j] = (VTYPE)0;
  }
  for (int k = k_begin + lx * VEC; k < k_end; k += WG_X * VEC) {
    VTYPE a[WPT_M], b[WPT_N];
#pragma unroll
    for (int i = 0; i < WPT_M; ++i) {
#if TRANS_A == 0
      a[i] = GEMM_VLOAD(A + GEMM_A_INDEX(row[i], k));
#else
      gemm_vec_t u;
#pragma unroll
      for (int e = 0; e < VEC; ++e) u.s[e] = k + e < k_end ? A[GEMM_A_INDEX(row[i], k + e)] : (DTYPE)0;
      a[i] = u.v;
#endif
    }
#pragma unroll
    for (int j = 0; j < WPT_N; ++j) {
#if TRANS_B == 1
      b[j] = GEMM_VLOAD(B + GEMM_B_INDEX(k, col[j]));
#else
      gemm_vec_t u;
#pragma unroll
      for (int e = 0; e < VEC; ++e) u.s[e] = k + e < k_end ? B[GEMM_B_INDEX(k + e, col[j])] : (DTYPE)0;
      b[j] = u.v;
#endif
    }
#pragma unroll
    for (int i = 0; i < WPT_M; ++i) {
#pragma unroll
      for (int j = 0; j < WPT_N; ++j) acc[i][j] = TILECL_MAD(a[i], b[j], acc[i][j]);
    }
  }
#pragma unroll
  for (int i = 0; i < WPT_M; ++i) {
#pragma unroll
    for (int j = 0; j < WPT_N; ++j) {
      DTYPE sum = GEMM_VELEM(acc[i][j], 0);
#pragma unroll
      for (int e = 1; e < VEC; ++e) sum += GEMM_VELEM(acc[i][j], e);
      partial[ly][lx] = sum;
      barrier(CLK_LOCAL_MEM_FENCE);
      if (lx == 0) {
        for (int x = 1; x < WG_X; ++x) sum += partial[ly][x];
        const int m = m0 + i, n = n0 + j;
        if (m < M && n < N) gemm_store(C + GEMM_C_INDEX(m, n), sum, alpha, beta);
      }
      barrier(CLK_LOCAL_MEM_FENCE);
    }
  }
}

#endif /* GEMM_HAS(GEMM_SKINNY_N) */

/* ---- helpers: gemm_splitk_reduce, gemm_pack, gemm_pack_panels ---------------------------------- */

#if GEMM_HAS(GEMM_HELPERS)

/* ---- gemm_splitk_reduce ------------------------------------------------------------------------- */

__kernel void gemm_splitk_reduce(const int rows, const int cols, const int slices, const __global DTYPE* restrict W,
                                 const ulong w_offset, const int ldw, const ulong w_slice_stride, const DTYPE alpha,
                                 const DTYPE beta, __global DTYPE* C, const ulong c_offset, const int ldc) {
  const int c = (int)get_global_id(0);
  const int r = (int)get_global_id(1);
  if (r >= rows || c >= cols) return;
  const __global DTYPE* w = W + w_offset + (long)r * ldw + c;
  DTYPE sum = 0;
  for (int s = 0; s < slices; ++s) sum += w[s * w_slice_stride];
  gemm_store(C + c_offset + (long)r * ldc + c, sum, alpha, beta);
}

/* ---- gemm_pack ---------------------------------------------------------------------------------- */

__kernel void gemm_pack(const int rows, const int cols, const __global DTYPE* restrict src, const ulong src_offset,
                        const int lds, const int transpose, const int rows_dst, const int cols_dst,
                        __global DTYPE* restrict dst, const ulong dst_offset, const int ldd) {
  const int c = (int)get_global_id(0);
  const int r = (int)get_global_id(1);
  if (r >= rows_dst || c >= cols_dst) return;
  src += src_offset;
  DTYPE value = 0;
  if (r < rows && c < cols) value = transpose ? src[(long)c * lds + r] : src[(long)r * lds + c];
  dst[dst_offset + (long)r * ldd + c] = value;
}

/* ---- gemm_pack_panels --------------------------------------------------------------------------- */

/* op(B) (rows x cols; (r, c) at src[r * lds + c], or src[c * lds + r] with transpose) into panels of
 * `panel` columns: element (r, p * panel + j) at dst[p * panel_stride + r * panel + j], zero where
 * p * panel + j >= cols. One element per work-item, the panel a grid dimension, so neighbouring work-items
 * touch neighbouring addresses with no division (PoCL then vectorizes across them; 2x faster than a flat
 * column index divided by the panel width): global = (roundup(panel, lx), roundup(rows, ly),
 * ceil(cols / panel)). */
__kernel void gemm_pack_panels(const int rows, const int cols, const __global DTYPE* restrict src,
                               const ulong src_offset, const int lds, const int transpose, const int panel,
                               const int panel_stride, __global DTYPE* restrict dst, const ulong dst_offset) {
  const int j = (int)get_global_id(0);
  const int r = (int)get_global_id(1);
  const int p = (int)get_global_id(2);
  if (j >= panel || r >= rows) return;
  const int c = p * panel + j;
  src += src_offset;
  DTYPE value = 0;
  if (c < cols) value = transpose ? src[(long)c * lds + r] : src[(long)r * lds + c];
  dst[dst_offset + (long)p * panel_stride + (long)r * panel + j] = value;
}

#endif /* GEMM_HAS(GEMM_HELPERS) */
