/* gemm_mma.cl -- C = alpha * op(A) * op(B) + beta * C on 16-bit floats (half, bfloat16) and on floats in TF32
 * mode, accumulated in float: on NVIDIA tensor cores through inline PTX (mma.sync, ldmatrix, cp.async), or by a
 * portable kernel on any device.
 *
 * Conventions (as gemm.cl)
 *   - Row-major: op(A) is M x K, op(B) K x N, C M x N at C[m * ldc + n]. The host maps a ColMajor call to this by
 *     solving C^T = op(B)^T op(A)^T. TRANS_A = 0: A stored M x K, (m, k) at A[m * lda + k]; 1: stored K x M, at
 *     A[k * lda + m]. TRANS_B = 0: B stored K x N, (k, n) at B[k * ldb + n]; 1: stored N x K, at B[n * ldb + k].
 *   - Offsets are element offsets added once to the pointers; leading dimensions may exceed the stored columns.
 *   - Arguments of the two gemm kernels: M, N, K, alpha, A, a_offset, lda, B, b_offset, ldb, beta, C, c_offset,
 *     ldc; alpha and beta are float whatever the storage.
 *   - Products are accumulated in float. beta == 0: C is never read (NaN in C does not reach the result). K == 0:
 *     C = beta * C (the host passes K = 0 when alpha == 0, so A and B are not read).
 *   - Element storage (MMA_TYPE): A, B and C hold 16-bit floats as ushort (MMA_F16: IEEE binary16, MMA_BF16:
 *     bfloat16), or floats as uint bits (MMA_TF32). Results are rounded to the storage format to nearest, ties to
 *     even (overflow to infinity). In TF32 mode the tensor-core kernel rounds every element of A and B to TF32
 *     (8-bit exponent, 10-bit mantissa; to nearest, ties away from zero) before its products; the portable kernel
 *     multiplies the floats unrounded.
 *   - M, N >= 1 (the host returns early on an empty C); K >= 0. Every size is handled (no tile-multiple rule).
 *
 * Kernels
 *   gemm_mma_sync      the tensor-core kernel. A work-group of WARPS_M x WARPS_N warps (32 work-items each, 1-D,
 *                      reqd_work_group_size) computes a TILE_M x TILE_N tile of C; each warp a (TILE_M / WARPS_M) x
 *                      (TILE_N / WARPS_N) piece of it as m16n8 tiles of mma.sync (m16n8k16 for f16 and bf16,
 *                      m16n8k8 for tf32) with float accumulators in registers. K advances TILE_K at a time through
 *                      STAGES local-memory buffers filled by cp.async (16 bytes per copy, bytes beyond the matrix
 *                      zero-filled): the copies of the next STAGES - 1 K tiles are in flight while one is computed,
 *                      one barrier per K tile; for 16-bit formats the fragments of the next K step are loaded into
 *                      a second register set while the current step's mmas run. Tiles lie in local memory as stored
 *                      in global memory (rows of 16-byte chunks), each chunk's place XOR-swizzled by its row so that
 *                      ldmatrix (and, for tf32 operands stored K-major, plain 32-bit reads) meet no bank conflicts;
 *                      ldmatrix.trans turns K-major 16-bit operands into fragments. Work-groups walk the tiles
 *                      of C in groups of GROUP_M tile rows (L2 reuse). C is written through local memory (the
 *                      stage buffers, once K is done): each warp stages one m16 row of its accumulators at a time
 *                      and stores it as 16-byte vectors of C (element by element at C's ragged edges), or, when
 *                      ldc or c_offset is not a multiple of 16 bytes' worth of elements, element by element with
 *                      consecutive lanes on consecutive elements; tilings whose staging would not fit store from
 *                      the registers.
 *                      Needs: lda, ldb, a_offset and b_offset multiples of 16 bytes' worth of elements (8 for 16-bit,
 *                      4 for tf32) and 16-byte aligned buffers, for the operands it copies 16 bytes at a time; the
 *                      host packs an operand that misses this (gemm_mma_pack), or has the kernel read it in place
 *                      (A_IN_PLACE, B_IN_PLACE: element loads into registers while the previous K tile is
 *                      computed, written to the stage buffer after the barrier that frees it; no pack launch).
 *                      USE_PTX = 1 needs an NVIDIA GPU of compute capability 8.0 or newer; USE_PTX
 *                      = 0 emulates each warp-level instruction with local memory and barriers (same fragments,
 *                      same swizzle, same pipeline code), so every device, PoCL and oclgrind included, runs and
 *                      checks the kernel's indexing.
 *                      local = (32 * WARPS_M * WARPS_N), global = (ceil(M / TILE_M) * ceil(N / TILE_N) * local,
 *                      SPLIT_K). With SPLIT_K > 1 the work-groups of dimension 1 take consecutive shares of the K
 *                      tiles (ceil(K tiles / SPLIT_K) each; the last ones may have none) and store their raw float
 *                      sums, not C: C's arguments then name a workspace of SPLIT_K M x N float matrices, dense, the
 *                      first at C + c_offset (STORAGE elements; a float boundary), ldc ignored; gemm_mma_split_sum
 *                      finishes the product.
 *   gemm_mma_split_sum (with gemm_mma_sync) C = encode(alpha * (S_0 + ... + S_{slices-1}) + beta * C) from the partial
 * sums of gemm_mma_sync (C not read when beta == 0). Arguments: M, N, S (float), s_offset (floats), slices, alpha,
 * beta, C, c_offset, ldc. One element per work-item; global = (roundup(N, lx), roundup(M, ly)), local launch-only.
 *   gemm_mma_portable  any device: each work-item computes WPT_M rows x WPT_N columns of C from elements read
 *                      one at a time (any alignment, any sizes), decoded to float; no local memory, no barriers.
 *                      global = (roundup(ceil(N / WPT_N), lx), roundup(ceil(M / WPT_M), ly)), local (lx, ly)
 *                      launch-only.
 *   gemm_mma_widen     (GEMM_MMA_VIA_FLOAT) decodes a rows x cols stored matrix to floats in a rows x cols_dst one
 *                      (cols_dst >= cols; the extra columns are zeros). Arguments: rows, cols, src, src_offset, lds,
 *                      cols_dst, dst (float), dst_offset. One element per work-item; global = (roundup(cols_dst,
 *                      lx), roundup(rows, ly)), local launch-only.
 *   gemm_mma_narrow    (GEMM_MMA_VIA_FLOAT) C = encode(S + beta * C) for an M x N float matrix S = alpha * op(A)
 *                      op(B) that float gemm computed from the widened operands (C not read when beta == 0).
 *                      Arguments: M, N, S (float), s_offset, lds, beta, C, c_offset, ldc. One element per
 *                      work-item; global = (roundup(N, lx), roundup(M, ly)), local launch-only. Together: the
 *                      "via_float" variant, which brings the float gemm's tuned kernels to devices without tensor
 *                      cores; the result is rounded to the storage format once, as in the other kernels.
 *   gemm_mma_pack      copies a rows x cols stored matrix into a rows x cols_dst one (cols_dst: cols rounded up
 *                      to a 16-byte multiple), zero-filling the extra columns, so gemm_mma_sync can read it with
 *                      aligned 16-byte copies. Arguments: rows, cols, src, src_offset, lds, cols_dst, dst,
 *                      dst_offset. One element per work-item; global = (roundup(cols_dst, lx), roundup(rows, ly)),
 *                      local launch-only. In every program.
 *
 * C must not overlap A or B (the host checks).
 *
 * Macros (each with a default; the host sets every one; derived values below them)
 *   MMA_TYPE          element format: MMA_F16, MMA_BF16 or MMA_TF32.                          default MMA_F16
 *   TRANS_A, TRANS_B  0/1: operand stored transposed (see above).                                   default 0
 *   USE_PTX           0/1: gemm_mma_sync runs the PTX instructions (1; NVIDIA, compute capability >= 8.0) or
 *                     emulates them (0). The host sets it from the device, not from the configuration. default 0
 *   TILE_M, TILE_N    gemm_mma_sync work-group tile: TILE_M a multiple of 16 * WARPS_M, TILE_N of 16 * WARPS_N;
 *                     for tf32 operands stored K-major, the stored rows (TILE_M, TILE_N) at least 32.
 *                                                                                          default 64, 64
 *   TILE_K            gemm_mma_sync K step: a multiple of 16 (16-bit) or 8 (tf32); TILE_K * (TILE_M + TILE_N)
 *                     * element size * STAGES bytes of local memory.                                default 32
 *   WARPS_M, WARPS_N  gemm_mma_sync warps along M and N. (TILE_M * TILE_K) and (TILE_N * TILE_K) must be
 *                     multiples of 32 * WARPS_M * WARPS_N * (16-byte chunk in elements).       default 2, 2
 *   STAGES            gemm_mma_sync local-memory buffers (2: double buffering; 3 or 4: deeper pipeline). default 3
 *   SPLIT_K           gemm_mma_sync: K shares computed by separate work-groups (1: none, C written directly; 2 to 16:
 *                     partial sums to a workspace, gemm_mma_split_sum adds them). For products with fewer tiles
 *                     than compute units and a long K.                                                default 1
 *   A_IN_PLACE,       gemm_mma_sync: 0/1, the operand is read in place element by element (any leading dimension
 *   B_IN_PLACE        and offset) instead of in 16-byte copies (which need them multiples of 16 bytes). For small
 *                     products, where packing the operand first would cost a launch of its own.       default 0
 *   WPT_M, WPT_N      gemm_mma_portable outputs per work-item along M and N (1 to 16).          default 4, 4
 *   K_STEP            gemm_mma_portable: K elements whose loads are issued together before their multiply-adds
 *                     (1 to 16; the last K % K_STEP one at a time).                                default 4
 *   GEMM_MMA_VARIANT  which kernels the program holds: GEMM_MMA_ALL, GEMM_MMA_SYNC, GEMM_MMA_PORTABLE or
 *                     GEMM_MMA_VIA_FLOAT (widen and narrow; gemm_mma_pack is in all).        default GEMM_MMA_ALL
 *   Derived: STORAGE (ushort or uint), ELEMENT_BYTES, CHUNK (elements per 16 bytes), MMA_K (16 or 8),
 *   MMA_INSTRUCTION (the mma.sync of the format), THREADS,
 *   FRAG_M x FRAG_N (m16n8 tiles per warp), A_ROWS x A_CHUNKS and B_ROWS x B_CHUNKS (stored tiles in 16-byte
 *   chunks), GROUP_M = 8, FRAGMENT_SETS (2 for 16-bit formats, 1 for tf32), WARP_COLUMNS, ROW_CHUNKS and
 *   STAGING_ROW (staged epilogue), EPILOGUE_STAGED (1 when the staging fits the stage buffers).
 */

#define MMA_F16 0
#define MMA_BF16 1
#define MMA_TF32 2
#ifndef MMA_TYPE
#define MMA_TYPE MMA_F16
#endif
#ifndef TRANS_A
#define TRANS_A 0
#endif
#ifndef TRANS_B
#define TRANS_B 0
#endif
#ifndef USE_PTX
#define USE_PTX 0
#endif
#ifndef TILE_M
#define TILE_M 64
#endif
#ifndef TILE_N
#define TILE_N 64
#endif
#ifndef TILE_K
#define TILE_K 32
#endif
#ifndef WARPS_M
#define WARPS_M 2
#endif
#ifndef WARPS_N
#define WARPS_N 2
#endif
#ifndef STAGES
#define STAGES 3
#endif
#ifndef SPLIT_K
#define SPLIT_K 1
#endif
#ifndef A_IN_PLACE
#define A_IN_PLACE 0
#endif
#ifndef B_IN_PLACE
#define B_IN_PLACE 0
#endif
#ifndef WPT_M
#define WPT_M 4
#endif
#ifndef WPT_N
#define WPT_N 4
#endif
#ifndef K_STEP
#define K_STEP 4
#endif
#define GEMM_MMA_ALL 0
#define GEMM_MMA_SYNC 1
#define GEMM_MMA_PORTABLE 2
#define GEMM_MMA_VIA_FLOAT 3
#ifndef GEMM_MMA_VARIANT
#define GEMM_MMA_VARIANT GEMM_MMA_ALL
#endif

#if MMA_TYPE == MMA_TF32
#define STORAGE uint
#define ELEMENT_BYTES 4
#define MMA_K 8
#define MMA_INSTRUCTION "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32"
#else
#define STORAGE ushort
#define ELEMENT_BYTES 2
#define MMA_K 16
#if MMA_TYPE == MMA_BF16
#define MMA_INSTRUCTION "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32"
#else
#define MMA_INSTRUCTION "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32"
#endif
#endif
#define CHUNK (16 / ELEMENT_BYTES)
/* Every helper is inlined: fragments and accumulators must stay in registers, indexed by constants. */
#define ALWAYS_INLINE static inline __attribute__((always_inline))

/* ---- Conversions between float and the storage formats (bit manipulation: no cl_khr_fp16 needed) ---------- */

/* IEEE binary16 bits -> float, exact. */
ALWAYS_INLINE float half_bits_to_float(uint bits) {
  const uint sign = (bits & 0x8000u) << 16, magnitude = bits & 0x7fffu;
  float value = as_float((magnitude << 13) + 0x38000000u);      /* normal: exponent rebased from 15 to 127 */
  if (magnitude < 0x0400u) value = (float)magnitude * 0x1p-24f; /* zero and subnormals: exact products */
  if (magnitude >= 0x7c00u) value = as_float(0x7f800000u | (magnitude & 0x03ffu) << 13); /* inf, NaN */
  return as_float(as_uint(value) | sign);
}

/* float -> binary16 bits, to nearest, ties to even; 65520 and above -> infinity; NaN stays NaN. */
ALWAYS_INLINE uint float_to_half_bits(float value) {
  const uint bits = as_uint(value), sign = (bits >> 16) & 0x8000u, magnitude = bits & 0x7fffffffu;
  if (magnitude > 0x7f800000u) return sign | 0x7e00u;
  if (magnitude >= 0x477ff000u) return sign | 0x7c00u;
  if (magnitude < 0x38800000u) return sign | (uint)rint(as_float(magnitude) * 0x1p24f); /* subnormal, exact scale */
  const uint rebased = magnitude - 0x38000000u;
  return sign | ((rebased + 0x0fffu + ((rebased >> 13) & 1u)) >> 13);
}

/* float -> bfloat16 bits, to nearest, ties to even; NaN stays NaN. */
ALWAYS_INLINE uint float_to_bfloat16_bits(float value) {
  const uint bits = as_uint(value);
  if ((bits & 0x7fffffffu) > 0x7f800000u) return (bits >> 16) | 0x0040u;
  return (bits + 0x7fffu + ((bits >> 16) & 1u)) >> 16;
}

/* float bits -> TF32 (low 13 mantissa bits zero), to nearest, ties away from zero, as cvt.rna.tf32.f32. */
ALWAYS_INLINE uint tf32_round_bits(uint bits) {
  if ((bits & 0x7fffffffu) >= 0x7f800000u) return bits; /* inf, NaN */
  return (bits + 0x1000u) & 0xffffe000u;
}

ALWAYS_INLINE float decode(uint bits) {
#if MMA_TYPE == MMA_F16
  return half_bits_to_float(bits);
#elif MMA_TYPE == MMA_BF16
  return as_float(bits << 16);
#else
  return as_float(bits);
#endif
}

ALWAYS_INLINE STORAGE encode(float value) {
#if MMA_TYPE == MMA_F16
  return (STORAGE)float_to_half_bits(value);
#elif MMA_TYPE == MMA_BF16
  return (STORAGE)float_to_bfloat16_bits(value);
#else
  return as_uint(value);
#endif
}

/* alpha * sum + beta * C, C not read when beta == 0. */
ALWAYS_INLINE STORAGE scaled_output(float sum, float alpha, float beta, const __global STORAGE* c) {
  return encode(beta == 0.0f ? alpha * sum : alpha * sum + beta * decode(*c));
}

/* ---- gemm_mma_pack ------------------------------------------------------------------------------------------ */

__kernel void gemm_mma_pack(const int rows, const int cols, const __global STORAGE* restrict src,
                            const ulong src_offset, const int lds, const int cols_dst, __global STORAGE* restrict dst,
                            const ulong dst_offset) {
  const int c = (int)get_global_id(0), r = (int)get_global_id(1);
  if (r >= rows || c >= cols_dst) return;
  dst[dst_offset + (long)r * cols_dst + c] = c < cols ? src[src_offset + (long)r * lds + c] : (STORAGE)0;
}

/* ---- gemm_mma_widen, gemm_mma_narrow: the float gemm's kernels on 16-bit storage ------------------------------ */

#if GEMM_MMA_VARIANT == GEMM_MMA_ALL || GEMM_MMA_VARIANT == GEMM_MMA_VIA_FLOAT

__kernel void gemm_mma_widen(const int rows, const int cols, const __global STORAGE* restrict src,
                             const ulong src_offset, const int lds, const int cols_dst, __global float* restrict dst,
                             const ulong dst_offset) {
  const int c = (int)get_global_id(0), r = (int)get_global_id(1);
  if (r >= rows || c >= cols_dst) return;
  dst[dst_offset + (long)r * cols_dst + c] = c < cols ? decode(src[src_offset + (long)r * lds + c]) : 0.0f;
}

__kernel void gemm_mma_narrow(const int M, const int N, const __global float* restrict S, const ulong s_offset,
                              const int lds, const float beta, __global STORAGE* restrict C, const ulong c_offset,
                              const int ldc) {
  const int n = (int)get_global_id(0), m = (int)get_global_id(1);
  if (m >= M || n >= N) return;
  const float sum = S[s_offset + (long)m * lds + n];
  __global STORAGE* c = C + c_offset + (long)m * ldc + n;
  *c = encode(beta == 0.0f ? sum : sum + beta * decode(*c));
}

#endif

/* ---- gemm_mma_portable -------------------------------------------------------------------------------------- */

#if GEMM_MMA_VARIANT == GEMM_MMA_ALL || GEMM_MMA_VARIANT == GEMM_MMA_PORTABLE

#define A_AT(m, k) (TRANS_A ? (long)(k)*lda + (m) : (long)(m)*lda + (k))
#define B_AT(k, n) (TRANS_B ? (long)(n)*ldb + (k) : (long)(k)*ldb + (n))

/* acc += decode(a) decode(b)^T: one K step of a work-item's WPT_M x WPT_N block. */
ALWAYS_INLINE void portable_step(float acc[WPT_M][WPT_N], const STORAGE a[WPT_M], const STORAGE b[WPT_N]) {
  float fa[WPT_M], fb[WPT_N];
#pragma unroll
  for (int i = 0; i < WPT_M; ++i) fa[i] = decode(a[i]);
#pragma unroll
  for (int j = 0; j < WPT_N; ++j) fb[j] = decode(b[j]);
#pragma unroll
  for (int i = 0; i < WPT_M; ++i)
#pragma unroll
    for (int j = 0; j < WPT_N; ++j) acc[i][j] += fa[i] * fb[j];
}

__kernel void gemm_mma_portable(const int M, const int N, const int K, const float alpha,
                                const __global STORAGE* restrict A, const ulong a_offset, const int lda,
                                const __global STORAGE* restrict B, const ulong b_offset, const int ldb,
                                const float beta, __global STORAGE* C, const ulong c_offset, const int ldc) {
  const int col0 = (int)get_global_id(0) * WPT_N, row0 = (int)get_global_id(1) * WPT_M;
  if (col0 >= N || row0 >= M) return;
  A += a_offset;
  B += b_offset;
  C += c_offset;
  /* Rows and columns past the matrix read its last one (their results are not stored). */
  int rows[WPT_M], cols[WPT_N];
  float acc[WPT_M][WPT_N];
#pragma unroll
  for (int i = 0; i < WPT_M; ++i) rows[i] = min(row0 + i, M - 1);
#pragma unroll
  for (int j = 0; j < WPT_N; ++j) cols[j] = min(col0 + j, N - 1);
#pragma unroll
  for (int i = 0; i < WPT_M; ++i)
#pragma unroll
    for (int j = 0; j < WPT_N; ++j) acc[i][j] = 0.0f;
  /* K in steps of K_STEP with every load of a step issued before its multiply-adds: a few dozen loads in
   * flight per work-item instead of WPT_M + WPT_N. Small products have few work-items, each a long chain of
   * dependent steps, and were bound by the latency of one step's loads (H100: 128 x 120 x 85 took 25 us of kernel
   * time, 2026-12-06). Then the last K % K_STEP one at a time. */
  int k = 0;
  for (; k + K_STEP <= K; k += K_STEP) {
    STORAGE a[K_STEP][WPT_M], b[K_STEP][WPT_N];
#pragma unroll
    for (int s = 0; s < K_STEP; ++s) {
#pragma unroll
      for (int i = 0; i < WPT_M; ++i) a[s][i] = A[A_AT(rows[i], k + s)];
#pragma unroll
      for (int j = 0; j < WPT_N; ++j) b[s][j] = B[B_AT(k + s, cols[j])];
    }
#pragma unroll
    for (int s = 0; s < K_STEP; ++s) portable_step(acc, a[s], b[s]);
  }
  for (; k < K; ++k) {
    STORAGE a[WPT_M], b[WPT_N];
#pragma unroll
    for (int i = 0; i < WPT_M; ++i) a[i] = A[A_AT(rows[i], k)];
#pragma unroll
    for (int j = 0; j < WPT_N; ++j) b[j] = B[B_AT(k, cols[j])];
    portable_step(acc, a, b);
  }
#pragma unroll
  for (int i = 0; i < WPT_M; ++i)
#pragma unroll
    for (int j = 0; j < WPT_N; ++j)
      if (row0 + i < M && col0 + j < N) {
        __global STORAGE* c = C + (long)(row0 + i) * ldc + col0 + j;
        *c = scaled_output(acc[i][j], alpha, beta, c);
      }
}

#endif

/* ---- gemm_mma_sync ------------------------------------------------------------------------------------------ */

#if GEMM_MMA_VARIANT == GEMM_MMA_ALL || GEMM_MMA_VARIANT == GEMM_MMA_SYNC

#define THREADS (32 * WARPS_M * WARPS_N)
#define FRAG_M (TILE_M / WARPS_M / 16)
#define FRAG_N (TILE_N / WARPS_N / 8)
#define K_STEPS (TILE_K / MMA_K)
#define GROUP_M 8
#if TRANS_A
#define A_ROWS TILE_K
#define A_CHUNKS (TILE_M / CHUNK)
#else
#define A_ROWS TILE_M
#define A_CHUNKS (TILE_K / CHUNK)
#endif
#if TRANS_B
#define B_ROWS TILE_N
#define B_CHUNKS (TILE_K / CHUNK)
#else
#define B_ROWS TILE_K
#define B_CHUNKS (TILE_N / CHUNK)
#endif
/* tf32 operands stored K-major are read as single words (ldmatrix.trans moves 16-bit elements only). */
#define A_WORD_READS (MMA_TYPE == MMA_TF32 && TRANS_A)
#define B_WORD_READS (MMA_TYPE == MMA_TF32 && !TRANS_B)
#define A_STAGE_WORDS (A_ROWS * A_CHUNKS * 4)
#define B_STAGE_WORDS (B_ROWS * B_CHUNKS * 4)
#define STAGE_WORDS (A_STAGE_WORDS + B_STAGE_WORDS)
#define WARP_COLUMNS (TILE_N / WARPS_N)
#define ROW_CHUNKS (WARP_COLUMNS / CHUNK) /* 16-byte chunks of C in a warp's row */
#define STAGING_ROW (WARP_COLUMNS + 8)    /* floats per staged row */
/* The staged epilogue overlays the stage buffers; a tiling whose staging would not fit them stores directly. */
#define EPILOGUE_STAGED (THREADS / 32 * 16 * STAGING_ROW <= STAGES * STAGE_WORDS && 16 * ROW_CHUNKS % 32 == 0)
/* Register sets of fragments: 2 (the next K step's loads overlap this step's mmas) for 16-bit formats; 1 for tf32,
 * whose operand rounding needs registers of its own (on the H200, two sets spilled and ran 10-25% slower). */
#if MMA_TYPE == MMA_TF32
#define FRAGMENT_SETS 1
#else
#define FRAGMENT_SETS 2
#endif
#define EXCHANGE_WORDS 6 /* per work-item, for the emulated warp instructions */
/* x % d beside its quotient q = x / d. Emulated, x - q * d: LLVM turns a division and remainder pair into a `freeze`,
 * which oclgrind's uninitialized-value checker does not support (it aborts the kernel's checking and computes garbage
 * from there on). With the PTX, the remainder operator, which NVIDIA's compiler has always been given. */
#if USE_PTX
#define REMAINDER(x, q, d) ((x) % (d))
#else
#define REMAINDER(x, q, d) ((x) - (q) * (d))
#endif

/* The XOR of the 16-byte chunks of `row` in a stored tile with `chunks` chunks per row. Fragment reads take 8
 * consecutive rows at one chunk (ldmatrix: one 16-byte row each) or, for word reads, 4 consecutive rows at two
 * chunks: either way the XOR puts them in distinct banks. Copies write whole rows (a permutation of the chunks
 * within each group of 8), so they meet no conflicts either. */
ALWAYS_INLINE int chunk_swizzle(int row, int chunks, int word_reads) {
  if (word_reads) return (2 * row) & 7;
  if (chunks >= 8) return row & 7;
  return (row / (8 / chunks)) % chunks;
}

/* The local word of the first element of chunk `chunk` of row `row`. */
ALWAYS_INLINE int tile_word(int row, int chunk, int chunks, int word_reads) {
  return (row * chunks + (chunk ^ chunk_swizzle(row, chunks, word_reads))) * 4;
}

#if USE_PTX
ALWAYS_INLINE uint local_address(__local const uint* pointer) { return (uint)(ulong)pointer; }
#endif

/* The CHUNK elements (`elements` of them, zeros after) from `source` as 4 words. */
ALWAYS_INLINE uint4 load_chunk(const __global STORAGE* source, int elements) {
  uint words[4] = {0u, 0u, 0u, 0u};
#pragma unroll
  for (int e = 0; e < CHUNK; ++e)
    if (e < elements) words[e * ELEMENT_BYTES / 4] |= (uint)source[e] << (8 * ((e * ELEMENT_BYTES) % 4));
  return (uint4)(words[0], words[1], words[2], words[3]);
}

/* Copies 16 bytes (`bytes` of them from `source`, zeros after) to local memory: cp.async, or a plain copy. */
ALWAYS_INLINE void copy_chunk(__local uint* target, const __global STORAGE* source, int bytes) {
#if USE_PTX
  __asm__ volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" ::"r"(local_address(target)), "l"((ulong)source),
                   "r"(bytes));
#else
  *(__local uint4*)target = load_chunk(source, bytes / ELEMENT_BYTES);
#endif
}

ALWAYS_INLINE void commit_copies(void) {
#if USE_PTX
  __asm__ volatile("cp.async.commit_group;");
#endif
}

/* Waits until the copies of the first committed group have landed, with STAGES committed (this thread's). */
ALWAYS_INLINE void wait_first_copies(void) {
#if USE_PTX
#if STAGES <= 1
  __asm__ volatile("cp.async.wait_group 0;");
#elif STAGES == 2
  __asm__ volatile("cp.async.wait_group 1;");
#elif STAGES == 3
  __asm__ volatile("cp.async.wait_group 2;");
#elif STAGES == 4
  __asm__ volatile("cp.async.wait_group 3;");
#else
  __asm__ volatile("cp.async.wait_group 4;");
#endif
#endif
}

/* Waits until the copies of all but the last STAGES - 2 committed groups have landed (this thread's). */
ALWAYS_INLINE void wait_copies(void) {
#if USE_PTX
#if STAGES <= 2
  __asm__ volatile("cp.async.wait_group 0;");
#elif STAGES == 3
  __asm__ volatile("cp.async.wait_group 1;");
#elif STAGES == 4
  __asm__ volatile("cp.async.wait_group 2;");
#else
  __asm__ volatile("cp.async.wait_group 3;");
#endif
#endif
}

/* Copy `i` of this work-item in a stored tile of rows x chunks 16-byte chunks: its row r and chunk c. When the chunks
 * of a row divide THREADS, each pass moves whole rows, so the chunk is the same in every pass and the row advances by
 * a constant (fewer live registers). */
ALWAYS_INLINE void tile_copy_place(int i, int chunks, int thread, int* r, int* c) {
  const int first_row = thread / chunks, passes_rows = THREADS / chunks;
  const int whole = THREADS % chunks == 0;
  const int index = thread + i * THREADS;
  *r = whole ? first_row + i * passes_rows : index / chunks;
  *c = whole ? REMAINDER(thread, first_row, chunks) : REMAINDER(index, *r, chunks);
}

/* The elements of chunk c of stored row r that exist (rows_valid rows of cols_valid elements). */
ALWAYS_INLINE int chunk_elements(int r, int c, int rows_valid, int cols_valid) {
  return r < rows_valid ? clamp(cols_valid - c * CHUNK, 0, CHUNK) : 0;
}

/* Copies one stored tile (rows x chunks) whose first element is `source` into `target`: stored row r exists when
 * r < rows_valid, and cols_valid elements of each row exist. */
ALWAYS_INLINE void copy_tile(__local uint* target, const __global STORAGE* source, int ld, int rows_valid,
                             int cols_valid, int rows, int chunks, int word_reads, int thread) {
#pragma unroll
  for (int i = 0; i < rows * chunks / THREADS; ++i) {
    int r, c;
    tile_copy_place(i, chunks, thread, &r, &c);
    const int elements = chunk_elements(r, c, rows_valid, cols_valid);
    copy_chunk(target + tile_word(r, c, chunks, word_reads), elements > 0 ? source + (long)r * ld + c * CHUNK : source,
               elements * ELEMENT_BYTES);
  }
}

/* ---- Operands read in place (A_IN_PLACE, B_IN_PLACE): rows on any element boundary, so no 16-byte copies. Each
 * work-item loads its chunks of a K tile element by element into registers (`held`, fetch_tile) while the tile before
 * it is computed, and writes them to their stage buffer after the barrier that frees it (deposit_tile). */

ALWAYS_INLINE void fetch_tile(uint4* held, const __global STORAGE* source, int ld, int rows_valid, int cols_valid,
                              int rows, int chunks, int thread) {
#pragma unroll
  for (int i = 0; i < rows * chunks / THREADS; ++i) {
    int r, c;
    tile_copy_place(i, chunks, thread, &r, &c);
    const int elements = chunk_elements(r, c, rows_valid, cols_valid);
    held[i] = load_chunk(elements > 0 ? source + (long)r * ld + c * CHUNK : source, elements);
  }
}

ALWAYS_INLINE void deposit_tile(__local uint* target, const uint4* held, int rows, int chunks, int word_reads,
                                int thread) {
#pragma unroll
  for (int i = 0; i < rows * chunks / THREADS; ++i) {
    int r, c;
    tile_copy_place(i, chunks, thread, &r, &c);
    *(__local uint4*)(target + tile_word(r, c, chunks, word_reads)) = held[i];
  }
}

#define A_HELD (A_IN_PLACE ? A_ROWS * A_CHUNKS / THREADS : 1)
#define B_HELD (B_IN_PLACE ? B_ROWS * B_CHUNKS / THREADS : 1)

/* K tile kt of A and B: the first element of each operand's stored tile and its valid rows and columns. */
#define A_TILE_ARGS(kt)                                                                                       \
  (TRANS_A ? A + (long)((kt)*TILE_K) * lda + bm * TILE_M : A + (long)(bm * TILE_M) * lda + (kt)*TILE_K), lda, \
      (TRANS_A ? K - (kt)*TILE_K : M - bm * TILE_M), (TRANS_A ? M - bm * TILE_M : K - (kt)*TILE_K)
#define B_TILE_ARGS(kt)                                                                                       \
  (TRANS_B ? B + (long)(bn * TILE_N) * ldb + (kt)*TILE_K : B + (long)((kt)*TILE_K) * ldb + bn * TILE_N), ldb, \
      (TRANS_B ? N - bn * TILE_N : K - (kt)*TILE_K), (TRANS_B ? K - (kt)*TILE_K : N - bn * TILE_N)

/* Starts the copies of K tile `kt` into stage buffer `stage` for the operands read 16 bytes at a time. */
ALWAYS_INLINE void copy_stage(__local uint* stage, const __global STORAGE* A, int lda, const __global STORAGE* B,
                              int ldb, int M, int N, int K, int bm, int bn, int kt, int thread) {
#if !A_IN_PLACE
  copy_tile(stage, A_TILE_ARGS(kt), A_ROWS, A_CHUNKS, A_WORD_READS, thread);
#endif
#if !B_IN_PLACE
  copy_tile(stage + A_STAGE_WORDS, B_TILE_ARGS(kt), B_ROWS, B_CHUNKS, B_WORD_READS, thread);
#endif
}

/* Loads K tile `kt` of the operands read in place into registers. */
ALWAYS_INLINE void fetch_stage(uint4 held_a[A_HELD], uint4 held_b[B_HELD], const __global STORAGE* A, int lda,
                               const __global STORAGE* B, int ldb, int M, int N, int K, int bm, int bn, int kt,
                               int thread) {
#if A_IN_PLACE
  fetch_tile(held_a, A_TILE_ARGS(kt), A_ROWS, A_CHUNKS, thread);
#endif
#if B_IN_PLACE
  fetch_tile(held_b, B_TILE_ARGS(kt), B_ROWS, B_CHUNKS, thread);
#endif
}

/* Writes the registers fetch_stage filled into stage buffer `stage`. */
ALWAYS_INLINE void deposit_stage(__local uint* stage, const uint4 held_a[A_HELD], const uint4 held_b[B_HELD],
                                 int thread) {
#if A_IN_PLACE
  deposit_tile(stage, held_a, A_ROWS, A_CHUNKS, A_WORD_READS, thread);
#endif
#if B_IN_PLACE
  deposit_tile(stage + A_STAGE_WORDS, held_b, B_ROWS, B_CHUNKS, B_WORD_READS, thread);
#endif
}

/* ldmatrix .x4: lane l names (a local word offset into `tile`) row l % 8 of 8x8 matrix l / 8 of 16-bit elements
 * (8 x 4 words). Lane l receives in out[j], of matrix j: the word l % 4 of row l / 4 (trans = 0), or the elements
 * (row 2 (l % 4), column l / 4) and (row 2 (l % 4) + 1, column l / 4) in its low and high half (trans = 1). */
ALWAYS_INLINE void load_matrices(uint out[4], __local uint* tile, int word, int trans, __local uint* exchange,
                                 int lane) {
#if USE_PTX
  const uint address = local_address(tile + word);
  if (trans)
    __asm__ volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];"
                     : "=r"(out[0]), "=r"(out[1]), "=r"(out[2]), "=r"(out[3])
                     : "r"(address));
  else
    __asm__ volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
                     : "=r"(out[0]), "=r"(out[1]), "=r"(out[2]), "=r"(out[3])
                     : "r"(address));
#else
  exchange[lane] = (uint)word;
  barrier(CLK_LOCAL_MEM_FENCE);
  const int group = lane / 4, thread_in_group = lane - 4 * group;
  for (int j = 0; j < 4; ++j) {
    if (trans) { /* column `group` of rows 2 thread_in_group and 2 thread_in_group + 1 */
      const int word = group / 2, shift = 16 * (group - 2 * word);
      const uint low = tile[exchange[j * 8 + 2 * thread_in_group] + word] >> shift;
      const uint high = tile[exchange[j * 8 + 2 * thread_in_group + 1] + word] >> shift;
      out[j] = (low & 0xffffu) | (high << 16);
    } else {
      out[j] = tile[exchange[j * 8 + group] + thread_in_group];
    }
  }
  barrier(CLK_LOCAL_MEM_FENCE);
#endif
}

#if !USE_PTX
/* The emulated mma's view of the exchanged fragments, as PTX lays them out over the warp's lanes (word 0-3: A,
 * 4-5: B). Element k_in (< MMA_K / 2) along K of register `word` held by the four lanes from first_lane on: two
 * elements per lane for 16-bit formats, one for tf32. */
ALWAYS_INLINE float fragment_element(__local const uint* exchange, int first_lane, int k_in, int word) {
#if MMA_TYPE == MMA_TF32
  return as_float(exchange[(first_lane + k_in) * EXCHANGE_WORDS + word]);
#else
  const int pair = k_in / 2;
  const uint bits = exchange[(first_lane + pair) * EXCHANGE_WORDS + word];
  return decode((bits >> (16 * (k_in - 2 * pair))) & 0xffffu);
#endif
}
/* Element (row, k) of the 16 x MMA_K A. */
ALWAYS_INLINE float fragment_a(__local const uint* exchange, int row, int k) {
  const int row_half = row / 8, k_half = k / (MMA_K / 2);
  return fragment_element(exchange, 4 * (row - 8 * row_half), k - (MMA_K / 2) * k_half, row_half + 2 * k_half);
}
/* Element (k, col) of the MMA_K x 8 B. */
ALWAYS_INLINE float fragment_b(__local const uint* exchange, int k, int col) {
  const int k_half = k / (MMA_K / 2);
  return fragment_element(exchange, 4 * col, k - (MMA_K / 2) * k_half, 4 + k_half);
}
#endif

/* d += a * b for one m16n8 tile (mma.sync m16n8k16, or m16n8k8 for tf32): a 4 words, b 2 words, d 4 floats in
 * PTX's fragment layouts (d[i]: row lane / 4 + 8 (i / 2), column 2 (lane % 4) + i % 2). */
ALWAYS_INLINE void mma(float d[4], const uint a[4], const uint b[2], __local uint* exchange, int lane) {
#if USE_PTX
  __asm__(MMA_INSTRUCTION " {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%10, %11, %12, %13};"
          : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
          : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "f"(d[0]), "f"(d[1]), "f"(d[2]),
            "f"(d[3]));
#else
  for (int r = 0; r < 4; ++r) exchange[lane * EXCHANGE_WORDS + r] = a[r];
  exchange[lane * EXCHANGE_WORDS + 4] = b[0];
  exchange[lane * EXCHANGE_WORDS + 5] = b[1];
  barrier(CLK_LOCAL_MEM_FENCE);
  const int group = lane / 4, thread_in_group = lane - 4 * group;
  for (int h = 0; h < 2; ++h)
    for (int e = 0; e < 2; ++e) {
      const int row = group + 8 * h, col = 2 * thread_in_group + e;
      float sum = d[2 * h + e];
      for (int k = 0; k < MMA_K; ++k) sum += fragment_a(exchange, row, k) * fragment_b(exchange, k, col);
      d[2 * h + e] = sum;
    }
  barrier(CLK_LOCAL_MEM_FENCE);
#endif
}

/* A tf32 operand word as the tensor cores take it: rounded to TF32 (cvt.rna), so that each operand is within half
 * a TF32 unit of the float. 16-bit operands pass unchanged. */
ALWAYS_INLINE uint operand_word(uint bits) {
#if MMA_TYPE == MMA_TF32
#if USE_PTX
  uint rounded;
  __asm__("cvt.rna.tf32.f32 %0, %1;" : "=r"(rounded) : "f"(as_float(bits)));
  return rounded;
#else
  return tf32_round_bits(bits);
#endif
#else
  return bits;
#endif
}

/* The local word of element `column` of stored row `row` of a tile with `chunks` chunks per row read by words. */
ALWAYS_INLINE int element_word(int row, int column, int chunks) {
  const int chunk = column / CHUNK;
  return tile_word(row, chunk, chunks, 1) + REMAINDER(column, chunk, CHUNK);
}

/* The A fragment of the m16 tile whose first row is tile row m0, at K step ks of the stage's A tile. */
ALWAYS_INLINE void load_a_fragment(uint a[4], __local uint* tile, int m0, int ks, __local uint* exchange, int lane) {
#if A_WORD_READS
  const int g = lane / 4, k = ks * MMA_K + REMAINDER(lane, g, 4);
  a[0] = tile[element_word(k, m0 + g, A_CHUNKS)];
  a[1] = tile[element_word(k, m0 + g + 8, A_CHUNKS)];
  a[2] = tile[element_word(k + 4, m0 + g, A_CHUNKS)];
  a[3] = tile[element_word(k + 4, m0 + g + 8, A_CHUNKS)];
#else
  /* Lane l names row r of matrix j = 2 j_high + j_low. */
  const int j = lane / 8, r = REMAINDER(lane, j, 8), j_high = j / 2, j_low = REMAINDER(j, j_high, 2);
#if TRANS_A /* 16-bit, rows along K: matrix j covers k 8 j_high.., m 8 j_low.. */
  load_matrices(a, tile, tile_word(ks * 16 + j_high * 8 + r, m0 / CHUNK + j_low, A_CHUNKS, 0), 1, exchange, lane);
#else       /* rows along M: matrix j covers m 8 j_low.., k chunk 2 ks + j_high */
  load_matrices(a, tile, tile_word(m0 + j_low * 8 + r, 2 * ks + j_high, A_CHUNKS, 0), 0, exchange, lane);
#endif
#endif
#pragma unroll
  for (int r = 0; r < 4; ++r) a[r] = operand_word(a[r]);
}

/* The B fragments of the two n8 tiles whose first column is tile column n0 (b0: n0, b1: n0 + 8), at K step ks. */
ALWAYS_INLINE void load_b_fragments(uint b0[2], uint b1[2], __local uint* tile, int n0, int ks, __local uint* exchange,
                                    int lane) {
#if B_WORD_READS
  const int g = lane / 4, k = ks * MMA_K + REMAINDER(lane, g, 4);
  b0[0] = tile[element_word(k, n0 + g, B_CHUNKS)];
  b0[1] = tile[element_word(k + 4, n0 + g, B_CHUNKS)];
  b1[0] = tile[element_word(k, n0 + 8 + g, B_CHUNKS)];
  b1[1] = tile[element_word(k + 4, n0 + 8 + g, B_CHUNKS)];
#else
  uint words[4];
  /* Lane l names row r of matrix j = 2 j_high + j_low. */
  const int j = lane / 8, r = REMAINDER(lane, j, 8), j_high = j / 2, j_low = REMAINDER(j, j_high, 2);
#if TRANS_B /* rows along N: matrix j covers n 8 j_high.., k chunk 2 ks + j_low */
  load_matrices(words, tile, tile_word(n0 + j_high * 8 + r, 2 * ks + j_low, B_CHUNKS, 0), 0, exchange, lane);
#else       /* 16-bit, rows along K: matrix j covers k 8 j_low.., n 8 j_high.. */
  load_matrices(words, tile, tile_word(ks * 16 + j_low * 8 + r, n0 / CHUNK + j_high, B_CHUNKS, 0), 1, exchange, lane);
#endif
  b0[0] = words[0];
  b0[1] = words[1];
  b1[0] = words[2];
  b1[1] = words[3];
#endif
#pragma unroll
  for (int r = 0; r < 2; ++r) {
    b0[r] = operand_word(b0[r]);
    b1[r] = operand_word(b1[r]);
  }
}

/* The fragments of K step ks of a stage for the warp's tile: a[i] for its m16 tile i, b[j] for its n8 tile j. Emulated,
 * the loops stay loops: unrolled, every emulated instruction's barriers would make PoCL compile a region of its own. */
ALWAYS_INLINE void load_fragments(uint a[FRAG_M][4], uint b[FRAG_N][2], __local uint* stage, int warp_m, int warp_n,
                                  int ks, __local uint* exchange, int lane) {
#if USE_PTX
#pragma unroll
#else
#pragma nounroll
#endif
  for (int i = 0; i < FRAG_M; ++i)
    load_a_fragment(a[i], stage, warp_m * (TILE_M / WARPS_M) + 16 * i, ks, exchange, lane);
#if USE_PTX
#pragma unroll
#else
#pragma nounroll
#endif
  for (int p = 0; p < FRAG_N / 2; ++p)
    load_b_fragments(b[2 * p], b[2 * p + 1], stage + A_STAGE_WORDS, warp_n * (TILE_N / WARPS_N) + 16 * p, ks, exchange,
                     lane);
}

/* The products of one K step into the warp's accumulators. */
ALWAYS_INLINE void mma_step(float acc[FRAG_M][FRAG_N][4], uint a[FRAG_M][4], uint b[FRAG_N][2], __local uint* exchange,
                            int lane) {
#if USE_PTX
#pragma unroll
#else
#pragma nounroll
#endif
  for (int i = 0; i < FRAG_M; ++i)
#if USE_PTX
#pragma unroll
#else
#pragma nounroll
#endif
    for (int jj = 0; jj < FRAG_N; ++jj) {
      const int j = i % 2 ? FRAG_N - 1 - jj : jj; /* serpentine: neighbouring mmas share an operand */
      mma(acc[i][j], a[i], b[j], exchange, lane);
    }
}

/* The work-group's tile of C: tiles taken in groups of GROUP_M tile rows, column by column within a group. */
ALWAYS_INLINE int2 block_tile(int M, int N) {
  const int tiles_m = (M + TILE_M - 1) / TILE_M, tiles_n = (N + TILE_N - 1) / TILE_N;
  const int id = (int)get_group_id(0), per_group = GROUP_M * tiles_n, group = id / per_group;
  const int first_m = group * GROUP_M, rows = min(tiles_m - first_m, GROUP_M), within = REMAINDER(id, group, per_group);
  const int column = within / rows;
  return (int2)(first_m + REMAINDER(within, column, rows), column);
}

/* C = alpha * acc + beta * C for the accumulators (columns col, col + 1 of row `row`). */
ALWAYS_INLINE void store_pair(__global STORAGE* C, int ldc, int M, int N, int row, int col, float first, float second,
                              float alpha, float beta) {
  if (row >= M || col >= N) return;
  __global STORAGE* c = C + (long)row * ldc + col;
  c[0] = scaled_output(first, alpha, beta, c);
  if (col + 1 < N) c[1] = scaled_output(second, alpha, beta, c + 1);
}

/* The raw sums of columns col, col + 1 of row `row` into a dense M x N float matrix (SPLIT_K > 1). */
ALWAYS_INLINE void store_sums(__global float* sums, int M, int N, int row, int col, float first, float second) {
  if (row >= M || col >= N) return;
  __global float* s = sums + (long)row * N + col;
  s[0] = first;
  if (col + 1 < N) s[1] = second;
}

/* ---- Staged epilogue: each warp writes one m16 row of its accumulators at a time to local memory (floats, rows
 * of WARP_COLUMNS padded by 8 so that the lanes' float2 writes meet no bank conflicts), then stores those 16 rows
 * of C as 16-byte vectors, CHUNK elements per lane and step, consecutive lanes on consecutive chunks. */

/* Waits for every copy of this work-item (the last commit groups are empty, but cp.async's ordering is per group). */
ALWAYS_INLINE void wait_all_copies(void) {
#if USE_PTX
  __asm__ volatile("cp.async.wait_all;");
#endif
}

/* The m16 row of accumulators acc_row[FRAG_N][4] into the warp's staging rows 0-15. */
ALWAYS_INLINE void stage_accumulators(__local float* staging, float acc_row[FRAG_N][4], int lane) {
  const int group = lane / 4, column = 2 * REMAINDER(lane, group, 4);
#pragma unroll
  for (int j = 0; j < FRAG_N; ++j)
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      __local float* target = staging + (group + 8 * h) * STAGING_ROW + 8 * j + column;
      /* Emulated, two stores: oclgrind 21.10 takes the float2 built here for an uninitialized value (PoCL and the
       * H200 compute the same values right). */
#if USE_PTX
      *(__local float2*)target = (float2)(acc_row[j][2 * h], acc_row[j][2 * h + 1]);
#else
      target[0] = acc_row[j][2 * h];
      target[1] = acc_row[j][2 * h + 1];
#endif
    }
}

#if ELEMENT_BYTES == 2
/* Two floats as 16-bit elements in one word (low: first), rounded as encode() does: with the PTX, one cvt.rn of the
 * pair (ties to even, overflow to infinity; a NaN may come out with another payload). */
ALWAYS_INLINE uint encode_pair(float first, float second) {
#if USE_PTX && MMA_TYPE == MMA_F16
  uint pair;
  __asm__("cvt.rn.f16x2.f32 %0, %1, %2;" : "=r"(pair) : "f"(second), "f"(first));
  return pair;
#elif USE_PTX && MMA_TYPE == MMA_BF16
  uint pair;
  __asm__("cvt.rn.bf16x2.f32 %0, %1, %2;" : "=r"(pair) : "f"(second), "f"(first));
  return pair;
#else
  return (uint)encode(first) | ((uint)encode(second) << 16);
#endif
}
#endif

/* CHUNK encoded elements as 4 words: alpha * v + beta * (the CHUNK elements of `old`, C's words; unread when
 * beta == 0). */
ALWAYS_INLINE uint4 encode_chunk(const float v[CHUNK], float alpha, float beta, uint4 old) {
  float out[CHUNK];
  if (beta == 0.0f) {
#pragma unroll
    for (int e = 0; e < CHUNK; ++e) out[e] = alpha * v[e];
  } else {
    const uint words[4] = {old.x, old.y, old.z, old.w};
#if USE_PTX && MMA_TYPE == MMA_F16
    /* Both halves of a word by cvt (exact; the bit-level decode costs registers the staged epilogue lacks). */
#pragma unroll
    for (int w = 0; w < 4; ++w) {
      float low, high;
      __asm__("{ .reg .b16 l, h; mov.b32 {l, h}, %2; cvt.f32.f16 %0, l; cvt.f32.f16 %1, h; }"
              : "=f"(low), "=f"(high)
              : "r"(words[w]));
      out[2 * w] = alpha * v[2 * w] + beta * low;
      out[2 * w + 1] = alpha * v[2 * w + 1] + beta * high;
    }
#else
#pragma unroll
    for (int e = 0; e < CHUNK; ++e) {
#if ELEMENT_BYTES == 2
      const uint bits = (words[e / 2] >> (16 * (e % 2))) & 0xffffu;
#else
      const uint bits = words[e];
#endif
      out[e] = alpha * v[e] + beta * decode(bits);
    }
#endif
  }
  uint packed[4];
#pragma unroll
  for (int w = 0; w < 4; ++w) {
#if ELEMENT_BYTES == 2
    packed[w] = encode_pair(out[2 * w], out[2 * w + 1]);
#else
    packed[w] = (uint)encode(out[w]);
#endif
  }
  return (uint4)(packed[0], packed[1], packed[2], packed[3]);
}

#define LANE_CHUNKS (16 * ROW_CHUNKS / 32) /* 16-byte chunks of C per lane in a warp's 16 rows */

/* Whether chunk q of this lane (in the warp's 16 rows from row0, columns from col0) lies wholly inside C, so that
 * it is stored as one vector (C's rows on 16-byte boundaries: store_elements otherwise). */
ALWAYS_INLINE bool vector_chunk(int M, int N, int row0, int col0, int lane, int q, int* row, int* col, int* r,
                                int* chunk) {
  const int index = lane + 32 * q;
  *r = index / ROW_CHUNKS;
  *chunk = REMAINDER(index, *r, ROW_CHUNKS);
  *row = row0 + *r;
  *col = col0 + *chunk * CHUNK;
  return *row < M && *col + CHUNK <= N;
}

/* With beta != 0, the words of C under this lane's vector chunks, all loads issued at once, before the barrier that
 * precedes their use (one after the other, a C-bound call waited out each load's latency in turn). */
ALWAYS_INLINE void load_c_chunks(uint4 old[LANE_CHUNKS], const __global STORAGE* C, int ldc, int M, int N, int row0,
                                 int col0, float beta, int lane) {
#pragma unroll
  for (int q = 0; q < LANE_CHUNKS; ++q) {
    int row, col, r, chunk;
    old[q] = (uint4)(0u);
    if (beta != 0.0f && vector_chunk(M, N, row0, col0, lane, q, &row, &col, &r, &chunk))
      old[q] = *(const __global uint4*)(C + (long)row * ldc + col);
  }
}

/* The warp's 16 staged rows into C rows row0.., columns col0.., C's rows on 16-byte boundaries: whole chunks as one
 * 16-byte store (C's old words in `old`), the chunks at C's ragged edges element by element. */
ALWAYS_INLINE void store_rows(__global STORAGE* C, int ldc, int M, int N, int row0, int col0,
                              __local const float* staging, const uint4 old[LANE_CHUNKS], float alpha, float beta,
                              int lane) {
#pragma unroll
  for (int q = 0; q < LANE_CHUNKS; ++q) {
    int row, col, r, chunk;
    const bool whole = vector_chunk(M, N, row0, col0, lane, q, &row, &col, &r, &chunk);
    if (row < M && col < N) {
      __local const float* source = staging + r * STAGING_ROW + chunk * CHUNK;
      __global STORAGE* c = C + (long)row * ldc + col;
      if (whole) {
        float v[CHUNK];
#pragma unroll
        for (int e = 0; e < CHUNK; ++e) v[e] = source[e];
        *(__global uint4*)c = encode_chunk(v, alpha, beta, old[q]);
      } else {
        for (int e = 0; e < min(CHUNK, N - col); ++e) c[e] = scaled_output(source[e], alpha, beta, c + e);
      }
    }
  }
}

#define LANE_ELEMENTS (WARP_COLUMNS / 2) /* elements of C per lane in a warp's 16 rows (WARP_COLUMNS >= 16) */

/* The warp's 16 staged rows into C element by element, for C's rows off 16-byte boundaries: consecutive lanes on
 * consecutive elements of a row (each store instruction writes whole runs of C), C's old elements loaded 8 at a time
 * before their stores. */
ALWAYS_INLINE void store_elements(__global STORAGE* C, int ldc, int M, int N, int row0, int col0,
                                  __local const float* staging, float alpha, float beta, int lane) {
#pragma unroll
  for (int q0 = 0; q0 < LANE_ELEMENTS; q0 += 8) {
    float old[8];
#pragma unroll
    for (int q = 0; q < 8; ++q) {
      const int index = lane + 32 * (q0 + q), r = index / WARP_COLUMNS, column = index % WARP_COLUMNS;
      const int row = row0 + r, col = col0 + column;
      old[q] = beta != 0.0f && row < M && col < N ? decode(C[(long)row * ldc + col]) : 0.0f;
    }
#pragma unroll
    for (int q = 0; q < 8; ++q) {
      const int index = lane + 32 * (q0 + q), r = index / WARP_COLUMNS, column = index % WARP_COLUMNS;
      const int row = row0 + r, col = col0 + column;
      const float value = alpha * staging[r * STAGING_ROW + column];
      if (row < M && col < N) C[(long)row * ldc + col] = encode(beta == 0.0f ? value : value + beta * old[q]);
    }
  }
}

__kernel __attribute__((reqd_work_group_size(THREADS, 1, 1))) void gemm_mma_sync(
    const int M, const int N, const int K, const float alpha, const __global STORAGE* restrict A, const ulong a_offset,
    const int lda, const __global STORAGE* restrict B, const ulong b_offset, const int ldb, const float beta,
    __global STORAGE* C, const ulong c_offset, const int ldc) {
  __local uint4 buffers[STAGES * STAGE_WORDS / 4];
  __local uint* stages = (__local uint*)buffers;
  const int thread = (int)get_local_id(0), warp = thread / 32, lane = REMAINDER(thread, warp, 32);
  const int warp_m = warp / WARPS_N, warp_n = REMAINDER(warp, warp_m, WARPS_N);
#if USE_PTX
  __local uint* exchange = stages; /* unused */
#else
  __local uint exchange_words[THREADS * EXCHANGE_WORDS];
  __local uint* exchange = exchange_words + warp * 32 * EXCHANGE_WORDS;
#endif
  const int2 tile = block_tile(M, N);
  A += a_offset;
  B += b_offset;
  C += c_offset;

  float acc[FRAG_M][FRAG_N][4];
#pragma unroll
  for (int i = 0; i < FRAG_M; ++i)
#pragma unroll
    for (int j = 0; j < FRAG_N; ++j)
#pragma unroll
      for (int e = 0; e < 4; ++e) acc[i][j][e] = 0.0f;

  /* The pipeline: all STAGES buffers are filled first. Each K step of tile kt issues its mmas; with two fragment sets
   * (FRAGMENT_SETS), the fragments of the next step are loaded into the other set right after, so the loads overlap
   * the products. At the last step of a tile, after its mmas: wait until tile kt + 1 has landed, one barrier (every
   * warp has also loaded its last fragments of tile kt), and refill tile kt's buffer with tile kt + STAGES. */
  const int all_k_tiles = (K + TILE_K - 1) / TILE_K;
#if SPLIT_K > 1
  /* This work-group's share of the K tiles: kt_first .. kt_first + k_tiles - 1 (none for the last shares when the
   * tiles run out first: its sums stay 0). */
  const int share = (all_k_tiles + SPLIT_K - 1) / SPLIT_K, slice = (int)get_group_id(1);
  const int kt_first = slice * share < all_k_tiles ? slice * share : all_k_tiles;
  const int k_tiles = all_k_tiles - kt_first < share ? all_k_tiles - kt_first : share;
#else
  const int kt_first = 0, k_tiles = all_k_tiles;
#endif
#if A_IN_PLACE || B_IN_PLACE
  uint4 held_a[A_HELD], held_b[B_HELD];
#endif
#pragma unroll
  for (int s = 0; s < STAGES; ++s) {
    if (s < k_tiles) {
      copy_stage(stages + s * STAGE_WORDS, A, lda, B, ldb, M, N, K, tile.x, tile.y, kt_first + s, thread);
#if A_IN_PLACE || B_IN_PLACE
      fetch_stage(held_a, held_b, A, lda, B, ldb, M, N, K, tile.x, tile.y, kt_first + s, thread);
      deposit_stage(stages + s * STAGE_WORDS, held_a, held_b, thread);
#endif
    }
    commit_copies();
  }
  wait_first_copies();
  barrier(CLK_LOCAL_MEM_FENCE); /* tile 0 is in */
  uint a[FRAGMENT_SETS][FRAG_M][4], b[FRAGMENT_SETS][FRAG_N][2];
#if FRAGMENT_SETS == 2
  if (k_tiles > 0) load_fragments(a[0], b[0], stages, warp_m, warp_n, 0, exchange, lane);
#endif
  for (int kt = 0; kt < k_tiles; ++kt) {
    __local uint* current = stages + (kt % STAGES) * STAGE_WORDS;
#if A_IN_PLACE || B_IN_PLACE
    /* Tile kt + STAGES's loads in flight while tile kt is computed. */
    if (kt + STAGES < k_tiles)
      fetch_stage(held_a, held_b, A, lda, B, ldb, M, N, K, tile.x, tile.y, kt_first + kt + STAGES, thread);
#endif
#if USE_PTX
#pragma unroll
#else
#pragma nounroll
#endif
    for (int ks = 0; ks < K_STEPS; ++ks) {
#if FRAGMENT_SETS == 2
      mma_step(acc, a[ks % 2], b[ks % 2], exchange, lane);
      if (ks + 1 < K_STEPS)
        load_fragments(a[(ks + 1) % 2], b[(ks + 1) % 2], current, warp_m, warp_n, ks + 1, exchange, lane);
#else
      load_fragments(a[0], b[0], current, warp_m, warp_n, ks, exchange, lane);
      mma_step(acc, a[0], b[0], exchange, lane);
#endif
    }
    wait_copies();
    barrier(CLK_LOCAL_MEM_FENCE); /* tile kt + 1 is in; every warp is done with tile kt's buffer */
    if (kt + STAGES < k_tiles) {
      copy_stage(current, A, lda, B, ldb, M, N, K, tile.x, tile.y, kt_first + kt + STAGES, thread);
#if A_IN_PLACE || B_IN_PLACE
      deposit_stage(current, held_a, held_b, thread);
#endif
    }
    commit_copies();
#if FRAGMENT_SETS == 2
    if (kt + 1 < k_tiles)
      load_fragments(a[K_STEPS % 2], b[K_STEPS % 2], stages + ((kt + 1) % STAGES) * STAGE_WORDS, warp_m, warp_n, 0,
                     exchange, lane);
#if K_STEPS % 2
      /* An odd number of steps left tile kt + 1's first fragments in set 1; the steps start from set 0. */
#pragma unroll
    for (int i = 0; i < FRAG_M; ++i)
#pragma unroll
      for (int r = 0; r < 4; ++r) a[0][i][r] = a[1][i][r];
#pragma unroll
    for (int j = 0; j < FRAG_N; ++j)
#pragma unroll
      for (int r = 0; r < 2; ++r) b[0][j][r] = b[1][j][r];
#endif
#endif
  }

#if SPLIT_K > 1 || !EPILOGUE_STAGED
  /* From the registers: C = alpha * acc + beta * C, or with K shares the raw sums into this share's M x N float
   * matrix of the workspace. */
#if SPLIT_K > 1
  __global float* sums = (__global float*)C + (long)get_group_id(1) * M * N;
#endif
  const int group = lane / 4;
  const int row0 = tile.x * TILE_M + warp_m * (TILE_M / WARPS_M) + group;
  const int col0 = tile.y * TILE_N + warp_n * (TILE_N / WARPS_N) + 2 * REMAINDER(lane, group, 4);
#pragma unroll
  for (int i = 0; i < FRAG_M; ++i)
#pragma unroll
    for (int j = 0; j < FRAG_N; ++j)
#pragma unroll
      for (int h = 0; h < 2; ++h) {
#if SPLIT_K > 1
        store_sums(sums, M, N, row0 + 16 * i + 8 * h, col0 + 8 * j, acc[i][j][2 * h], acc[i][j][2 * h + 1]);
#else
        store_pair(C, ldc, M, N, row0 + 16 * i + 8 * h, col0 + 8 * j, acc[i][j][2 * h], acc[i][j][2 * h + 1], alpha,
                   beta);
#endif
      }
#else
  __local float* staging = (__local float*)stages + warp * 16 * STAGING_ROW;
  wait_all_copies();
  barrier(CLK_LOCAL_MEM_FENCE); /* every warp is done with the stage buffers the staging area overlays */
  const int row0 = tile.x * TILE_M + warp_m * (TILE_M / WARPS_M), col0 = tile.y * TILE_N + warp_n * WARP_COLUMNS;
  const bool vectors = REMAINDER(ldc, ldc / CHUNK, CHUNK) == 0 && c_offset % CHUNK == 0;
#pragma unroll
  for (int i = 0; i < FRAG_M; ++i) {
    stage_accumulators(staging, acc[i], lane);
    uint4 old[LANE_CHUNKS]; /* loaded once acc[i]'s registers are free */
    if (vectors) load_c_chunks(old, C, ldc, M, N, row0 + 16 * i, col0, beta, lane);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (vectors)
      store_rows(C, ldc, M, N, row0 + 16 * i, col0, staging, old, alpha, beta, lane);
    else
      store_elements(C, ldc, M, N, row0 + 16 * i, col0, staging, alpha, beta, lane);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
#endif
}

/* In every tensor-core program (unused where SPLIT_K is 1): every kernel exists under the default macros. */
__kernel void gemm_mma_split_sum(const int M, const int N, const __global float* restrict S, const ulong s_offset,
                                 const int slices, const float alpha, const float beta, __global STORAGE* restrict C,
                                 const ulong c_offset, const int ldc) {
  const int n = (int)get_global_id(0), m = (int)get_global_id(1);
  if (m >= M || n >= N) return;
  const __global float* s = S + s_offset + (long)m * N + n;
  float sum = 0.0f;
  for (int slice = 0; slice < slices; ++slice) sum += s[(long)slice * M * N];
  __global STORAGE* c = C + c_offset + (long)m * ldc + n;
  *c = scaled_output(sum, alpha, beta, c);
}

#endif
