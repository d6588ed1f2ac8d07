/* tilecl reduce family: sum, min, max, argmin, argmax of x[x_offset .. x_offset + n).
 *
 * A reduction runs as passes enqueued back to back, with no host round trip (OpenCL 1.2 has no float
 * atomics, so partial results go through a workspace):
 *   pass 1  one of reduce_interleaved | reduce_sequential | reduce_vector | reduce_chunked reads x and writes
 *           P1 partials (value, and index for argmin/argmax) into the workspace;
 *   pass 2+ reduce_partials reduces partials: with `groups` work-groups over spans of `span` partials it writes
 *           `groups` new partials; the last pass runs one work-group over all remaining partials and writes
 *           the result (value for sum/min/max, int index for argmin/argmax) at the caller's offset.
 * n = 0: the host writes the sum's identity (0) itself (a buffer fill); reduce_partials with count = 0 would
 * write the identity too.
 *
 * Semantics (identical in every kernel and every pass, whatever the order of the tree):
 *   sum      floating point: each work-item accumulates its elements in VEC independent lanes (sequential per
 *            lane), then lanes, work-items and partials are combined pairwise in a tree. int: the sum wraps
 *            modulo 2^32 (computed in uint, no undefined overflow).
 *   min/max  NaN propagates: any NaN in the input gives NaN. -0.0 and +0.0 compare equal (either may come back).
 *   argmin/argmax  the index of the FIRST NaN if there is one, else the index of the FIRST extreme element.
 *            Pairs (value, index) travel through every pass; ties are broken by the smaller index, so the
 *            result does not depend on the combination order. Indices are int: n < 2^31.
 *   Empty lanes hold the identity: 0 for sum, +INF / INT_MAX (min), -INF / INT_MIN (max), index INT_MAX.
 *
 * Pass-1 kernels: (int n, __global const DTYPE* x, ulong x_offset,
 *                  __global DTYPE* part_value, ulong part_value_offset, __global int* part_index,
 *                  ulong part_index_offset)
 *   Partial p goes to part_value[part_value_offset + p] and, for argmin/argmax only, its index to
 *   part_index[part_index_offset + p]; for sum/min/max part_index is not touched (any buffer will do).
 *   Preconditions: 1 <= n <= 2^31 - 1 (indices and sizes are int; global ids are compared as size_t).
 *
 *   reduce_interleaved  classic baseline: one element per work-item, local-memory tree with interleaved
 *                       addressing (lid % (2s) == 0: divergent, bank conflicts). P1 = ceil(n / WG_X).
 *                       g = P1 * WG_X, l = WG_X (fixed). Build: DTYPE, REDUCE_OP, WG_X.
 *   reduce_sequential   baseline: one element per work-item, tree with sequential addressing (lid < s).
 *                       P1 = ceil(n / WG_X); g = P1 * WG_X, l = WG_X (fixed). Build: DTYPE, REDUCE_OP, WG_X.
 *   reduce_vector       GPU: a grid-stride loop of VEC-wide aligned loads, WPT loads in flight per iteration,
 *                       VEC lane accumulators; then a tree over the work-group with a barrier at every level
 *                       (or sub-group reductions when USE_SUBGROUPS = 1). Misaligned x_offset is handled by
 *                       a scalar head and tail. P1 = groups; g = groups * WG_X, l = WG_X (fixed); `groups` is
 *                       launch-only (any value >= 1; the host uses GROUPS_PER_CU x compute units, and at
 *                       least enough that no lane adds more than 4096 elements, for the accuracy of sums).
 *                       Build: DTYPE, REDUCE_OP, WG_X, VEC, WPT, USE_SUBGROUPS.
 *   reduce_chunked      CPU: work-item i reduces the contiguous chunk [i * CHUNK, (i + 1) * CHUNK) with
 *                       CHUNK = WPT * VEC, VEC-wide (unaligned) loads and VEC lane accumulators, no local
 *                       memory, a loop of constant trip count (PoCL keeps it vectorized). Writes one partial
 *                       per work-item: P1 = ceil(n / CHUNK); g = P1 rounded up to lx, l = lx (launch-only, any,
 *                       or null; multiples of 8 suit PoCL; WG_X in the host's search space).
 *                       Build: DTYPE, REDUCE_OP, VEC, WPT, and WG_PARTIALS for the later passes (the host: 64).
 *
 * reduce_partials (int count, int span, __global const DTYPE* in_value, ulong in_value_offset,
 *                  __global const int* in_index, ulong in_index_offset, __global DTYPE* out_value,
 *                  ulong out_value_offset, __global int* out_index, ulong out_index_offset)
 *   Work-group k reduces partials [k * span, min(count, (k + 1) * span)) and writes out_value[out_value_offset
 *   + k] (and out_index[out_index_offset + k] for argmin/argmax). in_index/out_index are only touched for
 *   argmin/argmax. g = groups * WG_PARTIALS, l = WG_PARTIALS (fixed). For the last pass: groups = 1,
 *   span = count.
 *   Build: DTYPE, REDUCE_OP, WG_PARTIALS (defaults to WG_X: the program's tree size).
 *
 * Half storage (HALF_STORAGE = 1): x holds IEEE binary16 bits (DTYPE ushort), read with vload_half / vload_halfn
 * (OpenCL C 1.2 core: no cl_khr_fp16 needed) and reduced in float, exactly as float input would be from there on:
 * the partials (part_value, in_value, out_value) and the result are float. Everything above that says DTYPE for
 * a partial or the result means float then.
 *
 * Macros (every one has a default, so the file compiles with no options):
 *   DTYPE          element type: float (default), double, int; ushort with HALF_STORAGE = 1.
 *   HALF_STORAGE   0 (default): x holds DTYPE. 1: x holds half bits, reduced in float (above); DTYPE must be ushort.
 *   REDUCE_OP      0 sum (default), 1 min, 2 max, 3 argmin, 4 argmax (or the names REDUCE_OP_SUM, ...).
 *   WG_X           work-group size of the tree kernels (interleaved, sequential, vector, and reduce_partials
 *                  unless WG_PARTIALS is set): a power of two, default 256, at most the device's maximum.
 *   VEC            vector width of the loads (vector, chunked): 1, 2, 4, 8, 16; default 4 (16 bytes of float).
 *   WPT            vector: loads in flight per loop iteration, default 4 (1..16);
 *                  chunked: vectors per work-item, so CHUNK = WPT * VEC elements (default 4 here; 256-1024
 *                  suits CPUs).
 *   WG_PARTIALS    work-group size of reduce_partials: a power of two, default WG_X. Programs whose pass 1 is
 *                  reduce_chunked (which has no tree, so its local size is launch-only) set it on its own.
 *   USE_SUBGROUPS  0 (default) or 1: reduce_vector and reduce_partials finish with cl_khr_subgroups
 *                  reductions. Set it only after checking that the device lists cl_khr_subgroups.
 */

#ifndef DTYPE
#define DTYPE float
#endif
#ifndef HALF_STORAGE
#define HALF_STORAGE 0
#endif
#define REDUCE_OP_SUM 0
#define REDUCE_OP_MIN 1
#define REDUCE_OP_MAX 2
#define REDUCE_OP_ARGMIN 3
#define REDUCE_OP_ARGMAX 4
#ifndef REDUCE_OP
#define REDUCE_OP REDUCE_OP_SUM
#endif
#ifndef WG_X
#define WG_X 256
#endif
#ifndef VEC
#define VEC 4
#endif
#ifndef WPT
#define WPT 4
#endif
#ifndef WG_PARTIALS
#define WG_PARTIALS WG_X
#endif
#ifndef USE_SUBGROUPS
#define USE_SUBGROUPS 0
#endif

#if REDUCE_OP < REDUCE_OP_SUM || REDUCE_OP > REDUCE_OP_ARGMAX
#error "REDUCE_OP must be 0 (sum), 1 (min), 2 (max), 3 (argmin) or 4 (argmax)"
#endif
#if VEC != 1 && VEC != 2 && VEC != 4 && VEC != 8 && VEC != 16
#error "VEC must be 1, 2, 4, 8 or 16"
#endif
#if (WG_X & (WG_X - 1)) != 0 || WG_X < 1 || (WG_PARTIALS & (WG_PARTIALS - 1)) != 0 || WG_PARTIALS < 1
#error "WG_X and WG_PARTIALS must be powers of two"
#endif
#if USE_SUBGROUPS
#pragma OPENCL EXTENSION cl_khr_subgroups : enable
#endif

/* ---- Derived values --------------------------------------------------------------------------------- */

#define REDUCE_ARG (REDUCE_OP == REDUCE_OP_ARGMIN || REDUCE_OP == REDUCE_OP_ARGMAX)
/* reduce_chunked: independent accumulators per work-item (instruction-level parallelism on CPUs). */
#define REDUCE_CHAINS (WPT < 4 ? WPT : 4)
#define REDUCE_WANT_MAX (REDUCE_OP == REDUCE_OP_MAX || REDUCE_OP == REDUCE_OP_ARGMAX)

/* Integer element types, recognised by name (TILECL_CAT(REDUCE_IS_INT_, DTYPE) is 0 for any other type). */
#define REDUCE_IS_INT_int 1
#define REDUCE_IS_INT_uint 1
#define REDUCE_IS_INT TILECL_CAT(REDUCE_IS_INT_, DTYPE)

/* REDUCE_PART: the type of partials and of the result (float for half storage, else DTYPE).
 * Accumulator: integer sums run in uint so that they wrap modulo 2^32 without undefined overflow; half in float. */
#if HALF_STORAGE
#define REDUCE_PART float
#else
#define REDUCE_PART DTYPE
#endif
#if HALF_STORAGE
#define REDUCE_ACC float
#define REDUCE_TO_ACC(v) (v)
#define REDUCE_TO_ACC1(v) (v)
#define REDUCE_FROM_ACC(a) (a)
#elif REDUCE_IS_INT && REDUCE_OP == REDUCE_OP_SUM
#define REDUCE_ACC uint
#define REDUCE_TO_ACC(v) TILECL_CAT(as_, REDUCE_ACCV)(v)
#define REDUCE_TO_ACC1(v) as_uint(v)
#define REDUCE_FROM_ACC(a) as_int(a)
#else
#define REDUCE_ACC DTYPE
#define REDUCE_TO_ACC(v) (v)
#define REDUCE_TO_ACC1(v) (v)
#define REDUCE_FROM_ACC(a) (a)
#endif

/* What the loads below give: DTYPE (vectors of it), or float for half storage. */
#define REDUCE_ELEMENT_0 DTYPE
#define REDUCE_ELEMENT_1 float
/* Loads of x: REDUCE_LOAD1(p, i) element i, converted to the accumulator; REDUCE_LOADV(p, i) the i-th VEC-aligned
 * vector after p; REDUCE_LOADU(p) VEC elements at p (element-aligned). */
#if HALF_STORAGE
#define REDUCE_LOAD1(p, i) vload_half(i, (__global const half*)(p))
#if VEC == 1
#define REDUCE_LOADV(p, i) REDUCE_LOAD1(p, i)
#define REDUCE_LOADU(p) REDUCE_LOAD1(p, 0)
#else
/* Aligned vectors through one wide load (common.clh); element-aligned ones through vload_halfN. */
#define REDUCE_LOADV(p, i) \
  TILECL_CAT(TILECL_CAT(tilecl_vload_half, VEC), _aligned)((__global const ushort*)(p) + (size_t)(i)*VEC)
#define REDUCE_LOADU(p) TILECL_CAT(vload_half, VEC)(0, (__global const half*)(p))
#endif
#else
#define REDUCE_LOAD1(p, i) REDUCE_TO_ACC1((p)[i])
#define REDUCE_LOADV(p, i) (((__global const REDUCE_VTYPE*)(p))[i])
#define REDUCE_LOADU(p) REDUCE_VLOAD(p)
#endif

#if VEC == 1
#define REDUCE_VTYPE TILECL_CAT(REDUCE_ELEMENT_, HALF_STORAGE)
#define REDUCE_ACCV REDUCE_ACC
#define REDUCE_INDEXV int
#define REDUCE_VLOAD(p) (*(p))
#define REDUCE_VSTORE(v, p) (*(p) = (v))
#define REDUCE_MASK_TO_INT(m) (m)
#else
#define REDUCE_VTYPE TILECL_CAT(TILECL_CAT(REDUCE_ELEMENT_, HALF_STORAGE), VEC)
#define REDUCE_ACCV TILECL_CAT(REDUCE_ACC, VEC)
#define REDUCE_INDEXV TILECL_CAT(int, VEC)
#define REDUCE_VLOAD(p) TILECL_CAT(vload, VEC)(0, p)
#define REDUCE_VSTORE(v, p) TILECL_CAT(vstore, VEC)(v, 0, p)
#define REDUCE_MASK_TO_INT(m) TILECL_CAT(convert_int, VEC)(m)
#endif

#if REDUCE_OP == REDUCE_OP_SUM
#define REDUCE_IDENTITY ((REDUCE_ACC)0)
#elif REDUCE_IS_INT
#define REDUCE_IDENTITY (REDUCE_WANT_MAX ? (REDUCE_ACC)INT_MIN : (REDUCE_ACC)INT_MAX)
#else
#define REDUCE_IDENTITY (REDUCE_WANT_MAX ? -(REDUCE_ACC)INFINITY : (REDUCE_ACC)INFINITY)
#endif
#define REDUCE_NO_INDEX INT_MAX

/* ---- The operation ------------------------------------------------------------------------------------
 * Written with operators only, so that one expression serves scalars and vectors (a vector comparison
 * gives -1/0 lanes, ?: with a vector condition selects per lane). x != x is the NaN test (never true for
 * integers, where the compiler drops it).
 * REDUCE_BETTER(b, a): b is strictly preferable to a (more extreme, or NaN against a number). */
#if REDUCE_WANT_MAX
#define REDUCE_BETTER(b, a) (((b) > (a)) | (((b) != (b)) & ((a) == (a))))
#else
#define REDUCE_BETTER(b, a) (((b) < (a)) | (((b) != (b)) & ((a) == (a))))
#endif
#define REDUCE_SAME(b, a) (((b) == (a)) | (((b) != (b)) & ((a) != (a))))

#if REDUCE_OP == REDUCE_OP_SUM
#define REDUCE_COMBINE(a, b) ((a) + (b))
#define REDUCE_COMBINE_VEC(a, b) ((a) + (b))
#else
/* min/max: NaN wins against a number, so it propagates. */
#define REDUCE_COMBINE(a, b) (REDUCE_BETTER(b, a) ? (b) : (a))
#if VEC == 1
#define REDUCE_COMBINE_VEC(a, b) REDUCE_COMBINE(a, b)
#else
#define REDUCE_COMBINE_VEC(a, b) select((a), (b), REDUCE_BETTER(b, a))
#endif
#endif

/* Combines (value, index) pair b into pair a, with the first index winning ties (scalars). */
#define REDUCE_PAIR(av, ai, bv, bi)                                                      \
  do {                                                                                   \
    const REDUCE_ACC pair_bv_ = (bv);                                                    \
    const int pair_bi_ = (bi);                                                           \
    if (REDUCE_BETTER(pair_bv_, av) || (REDUCE_SAME(pair_bv_, av) && pair_bi_ < (ai))) { \
      (av) = pair_bv_;                                                                   \
      (ai) = pair_bi_;                                                                   \
    }                                                                                    \
  } while (0)

/* Folds element value v (index i) into a scalar accumulator. */
#if REDUCE_ARG
#define REDUCE_FOLD(a, ai, v, i) REDUCE_PAIR(a, ai, v, i)
#else
#define REDUCE_FOLD(a, ai, v, i) ((a) = REDUCE_COMBINE(a, v))
#endif

/* Folds vector w (lane k holds element index i0 + k) into lane accumulators acc / acc_index. Within a lane
 * indices only grow, so a strict comparison keeps the first extreme; a lane that still holds no index takes
 * the element even when it equals the identity (all +INF for argmin). The index is updated first (from the
 * old acc); its mask is converted to int lanes because a double comparison gives long lanes. */
#if REDUCE_ARG
#define REDUCE_FOLD_VEC(acc, acc_index, w, i0)                                                         \
  do {                                                                                                 \
    const REDUCE_ACCV fold_w_ = (w);                                                                   \
    (acc_index) = (REDUCE_MASK_TO_INT(REDUCE_BETTER(fold_w_, acc)) | ((acc_index) == REDUCE_NO_INDEX)) \
                      ? (REDUCE_INDEXV)(i0) + reduce_lane_ids()                                        \
                      : (acc_index);                                                                   \
    (acc) = REDUCE_BETTER(fold_w_, acc) ? fold_w_ : (acc);                                             \
  } while (0)
#else
#define REDUCE_FOLD_VEC(acc, acc_index, w, i0) ((acc) = REDUCE_COMBINE_VEC(acc, w))
#endif

REDUCE_INDEXV reduce_lane_ids(void) {
  int ids[VEC];
#pragma unroll
  for (int k = 0; k < VEC; ++k) ids[k] = k;
  return REDUCE_VLOAD(ids);
}

/* Combines the VEC lanes of an accumulator pairwise into (*value, *index). */
void reduce_lanes(REDUCE_ACCV acc, REDUCE_INDEXV acc_index, REDUCE_ACC* value, int* index) {
  REDUCE_ACC v[VEC];
  int id[VEC];
  REDUCE_VSTORE(acc, v);
  REDUCE_VSTORE(acc_index, id);
#pragma unroll
  for (int s = VEC / 2; s > 0; s >>= 1) {
#pragma unroll
    for (int k = 0; k < s; ++k) REDUCE_FOLD(v[k], id[k], v[k + s], id[k + s]);
  }
  *value = v[0];
  *index = id[0];
}

/* ---- Work-group reduction -------------------------------------------------------------------------------
 * Every work-item brings (a, ai); on return work-item 0 holds the work-group's result. The tree keeps each
 * work-item's running value in a register and separates every level with a barrier (no lock-step warps). */

#if USE_SUBGROUPS
void reduce_sub_group(REDUCE_ACC* a, int* ai) {
#if REDUCE_OP == REDUCE_OP_SUM
  *a = sub_group_reduce_add(*a);
#elif REDUCE_IS_INT
#if REDUCE_ARG
  const REDUCE_ACC m = REDUCE_WANT_MAX ? sub_group_reduce_max(*a) : sub_group_reduce_min(*a);
  *ai = sub_group_reduce_min(*a == m ? *ai : REDUCE_NO_INDEX);
  *a = m;
#else
  *a = REDUCE_WANT_MAX ? sub_group_reduce_max(*a) : sub_group_reduce_min(*a);
#endif
#else
  /* Floating min/max: the built-ins ignore NaN, so NaN is handled first (it propagates / its first index). */
  if (sub_group_any(*a != *a)) {
#if REDUCE_ARG
    *ai = sub_group_reduce_min(*a != *a ? *ai : REDUCE_NO_INDEX);
#endif
    *a = (REDUCE_ACC)NAN;
  } else {
    const REDUCE_ACC m = REDUCE_WANT_MAX ? sub_group_reduce_max(*a) : sub_group_reduce_min(*a);
#if REDUCE_ARG
    *ai = sub_group_reduce_min(*a == m ? *ai : REDUCE_NO_INDEX);
#endif
    *a = m;
  }
#endif
}
#endif

void reduce_work_group(REDUCE_ACC* a, int* ai, __local REDUCE_ACC* lv, __local int* li, const int size) {
  const int lid = get_local_id(0);
#if USE_SUBGROUPS
  reduce_sub_group(a, ai);
  const uint sg = get_sub_group_id();
  if (get_sub_group_local_id() == 0) {
    lv[sg] = *a;
#if REDUCE_ARG
    li[sg] = *ai;
#endif
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (sg == 0) {
    REDUCE_ACC b = REDUCE_IDENTITY;
    int bi = REDUCE_NO_INDEX;
    for (uint i = get_sub_group_local_id(); i < get_num_sub_groups(); i += get_sub_group_size()) {
#if REDUCE_ARG
      REDUCE_FOLD(b, bi, lv[i], li[i]);
#else
      REDUCE_FOLD(b, bi, lv[i], 0);
#endif
    }
    reduce_sub_group(&b, &bi);
    *a = b;
    *ai = bi;
  }
#else
  lv[lid] = *a;
#if REDUCE_ARG
  li[lid] = *ai;
#endif
  barrier(CLK_LOCAL_MEM_FENCE);
  /* `size` is a constant at every call (WG_X or WG_PARTIALS); the compiler unrolls after inlining if it pays. */
  for (int s = size / 2; s > 0; s >>= 1) {
    if (lid < s) {
#if REDUCE_ARG
      REDUCE_PAIR(*a, *ai, lv[lid + s], li[lid + s]);
      li[lid] = *ai;
#else
      *a = REDUCE_COMBINE(*a, lv[lid + s]);
#endif
      lv[lid] = *a;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
#endif
}

void reduce_write_partial(REDUCE_ACC a, int ai, __global REDUCE_PART* part_value, ulong part_value_offset,
                          __global int* part_index, ulong part_index_offset, int p) {
  part_value[part_value_offset + p] = REDUCE_FROM_ACC(a);
#if REDUCE_ARG
  part_index[part_index_offset + p] = ai;
#endif
}

/* ---- Pass-1 kernels ---------------------------------------------------------------------------------- */

__kernel __attribute__((reqd_work_group_size(WG_X, 1, 1))) void reduce_interleaved(
    int n, __global const DTYPE* x, ulong x_offset, __global REDUCE_PART* part_value, ulong part_value_offset,
    __global int* part_index, ulong part_index_offset) {
  __local REDUCE_ACC lv[WG_X];
  __local int li[REDUCE_ARG ? WG_X : 1];
  x += x_offset;
  const int lid = get_local_id(0);
  const size_t i = get_global_id(0); /* the global size may exceed 2^31 - 1 by up to WG_X - 1 */
  lv[lid] = i < (size_t)n ? REDUCE_LOAD1(x, i) : REDUCE_IDENTITY;
#if REDUCE_ARG
  li[lid] = i < (size_t)n ? (int)i : REDUCE_NO_INDEX;
#endif
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int s = 1; s < WG_X; s <<= 1) {
    if (lid % (2 * s) == 0) {
#if REDUCE_ARG
      REDUCE_PAIR(lv[lid], li[lid], lv[lid + s], li[lid + s]);
#else
      lv[lid] = REDUCE_COMBINE(lv[lid], lv[lid + s]);
#endif
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0) {
    reduce_write_partial(lv[0], REDUCE_ARG ? li[0] : 0, part_value, part_value_offset, part_index, part_index_offset,
                         get_group_id(0));
  }
}

__kernel __attribute__((reqd_work_group_size(WG_X, 1, 1))) void reduce_sequential(
    int n, __global const DTYPE* x, ulong x_offset, __global REDUCE_PART* part_value, ulong part_value_offset,
    __global int* part_index, ulong part_index_offset) {
  __local REDUCE_ACC lv[WG_X];
  __local int li[REDUCE_ARG ? WG_X : 1];
  x += x_offset;
  const int lid = get_local_id(0);
  const size_t i = get_global_id(0); /* the global size may exceed 2^31 - 1 by up to WG_X - 1 */
  lv[lid] = i < (size_t)n ? REDUCE_LOAD1(x, i) : REDUCE_IDENTITY;
#if REDUCE_ARG
  li[lid] = i < (size_t)n ? (int)i : REDUCE_NO_INDEX;
#endif
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int s = WG_X / 2; s > 0; s >>= 1) {
    if (lid < s) {
#if REDUCE_ARG
      REDUCE_PAIR(lv[lid], li[lid], lv[lid + s], li[lid + s]);
#else
      lv[lid] = REDUCE_COMBINE(lv[lid], lv[lid + s]);
#endif
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0) {
    reduce_write_partial(lv[0], REDUCE_ARG ? li[0] : 0, part_value, part_value_offset, part_index, part_index_offset,
                         get_group_id(0));
  }
}

__kernel __attribute__((reqd_work_group_size(WG_X, 1, 1))) void reduce_vector(
    int n, __global const DTYPE* x, ulong x_offset, __global REDUCE_PART* part_value, ulong part_value_offset,
    __global int* part_index, ulong part_index_offset) {
  __local REDUCE_ACC lv[WG_X];
  __local int li[REDUCE_ARG ? WG_X : 1];
  x += x_offset;
  const uint gid = get_global_id(0);
  const uint gsize = get_global_size(0);
  /* Elements before the first VEC-aligned address (buffers themselves are aligned), then nv aligned vectors,
   * then the tail. */
  const int head = (int)min((ulong)n, (ulong)((VEC - x_offset % VEC) % VEC));
  const uint nv = (uint)(n - head) / VEC;
  const int tail = head + (int)(nv * VEC);
  __global const DTYPE* xv = x + head;

  REDUCE_ACCV acc = (REDUCE_ACCV)(REDUCE_IDENTITY);
  REDUCE_INDEXV acc_index = (REDUCE_INDEXV)(REDUCE_NO_INDEX);
  uint v = gid;
  for (; v + (WPT - 1) * gsize < nv; v += WPT * gsize) {
    REDUCE_VTYPE w[WPT];
#pragma unroll
    for (int k = 0; k < WPT; ++k) w[k] = REDUCE_LOADV(xv, v + k * gsize);
#pragma unroll
    for (int k = 0; k < WPT; ++k)
      REDUCE_FOLD_VEC(acc, acc_index, REDUCE_TO_ACC(w[k]), head + (int)((v + k * gsize) * VEC));
  }
  for (; v < nv; v += gsize) REDUCE_FOLD_VEC(acc, acc_index, REDUCE_TO_ACC(REDUCE_LOADV(xv, v)), head + (int)(v * VEC));

  REDUCE_ACC a;
  int ai;
  reduce_lanes(acc, acc_index, &a, &ai);
  if (gid < (uint)head) REDUCE_FOLD(a, ai, REDUCE_LOAD1(x, gid), (int)gid);
  if (gid < (uint)(n - tail)) REDUCE_FOLD(a, ai, REDUCE_LOAD1(x, tail + gid), tail + (int)gid);

  reduce_work_group(&a, &ai, lv, li, WG_X);
  if (get_local_id(0) == 0) {
    reduce_write_partial(a, ai, part_value, part_value_offset, part_index, part_index_offset, get_group_id(0));
  }
}

__kernel void reduce_chunked(int n, __global const DTYPE* x, ulong x_offset, __global REDUCE_PART* part_value,
                             ulong part_value_offset, __global int* part_index, ulong part_index_offset) {
  const int chunk = WPT * VEC;
  const int p = get_global_id(0);
  if ((long)p * chunk >= n) return;
  const int start = p * chunk;
  x += x_offset + start;

  REDUCE_ACC a;
  int ai;
  if (start + chunk <= n) {
    /* REDUCE_CHAINS independent accumulators: a compare-and-select chain is several cycles long. Each
     * accumulator sees growing indices, so the first-index rule still holds when they are combined. */
    REDUCE_ACCV acc[REDUCE_CHAINS];
    REDUCE_INDEXV acc_index[REDUCE_CHAINS];
#pragma unroll
    for (int c = 0; c < REDUCE_CHAINS; ++c) {
      acc[c] = (REDUCE_ACCV)(REDUCE_IDENTITY);
      acc_index[c] = (REDUCE_INDEXV)(REDUCE_NO_INDEX);
    }
    int k = 0;
    for (; k + REDUCE_CHAINS <= WPT; k += REDUCE_CHAINS) {
#pragma unroll
      for (int c = 0; c < REDUCE_CHAINS; ++c) {
        REDUCE_FOLD_VEC(acc[c], acc_index[c], REDUCE_TO_ACC(REDUCE_LOADU(x + (k + c) * VEC)), start + (k + c) * VEC);
      }
    }
    for (; k < WPT; ++k) {
      REDUCE_FOLD_VEC(acc[0], acc_index[0], REDUCE_TO_ACC(REDUCE_LOADU(x + k * VEC)), start + k * VEC);
    }
    reduce_lanes(acc[0], acc_index[0], &a, &ai);
#pragma unroll
    for (int c = 1; c < REDUCE_CHAINS; ++c) {
      REDUCE_ACC b;
      int bi;
      reduce_lanes(acc[c], acc_index[c], &b, &bi);
      REDUCE_FOLD(a, ai, b, bi);
    }
  } else {
    a = REDUCE_IDENTITY;
    ai = REDUCE_NO_INDEX;
    for (int i = 0; i < n - start; ++i) REDUCE_FOLD(a, ai, REDUCE_LOAD1(x, i), start + i);
  }
  reduce_write_partial(a, ai, part_value, part_value_offset, part_index, part_index_offset, p);
}

/* ---- Later passes --------------------------------------------------------------------------------------- */

__kernel __attribute__((reqd_work_group_size(WG_PARTIALS, 1, 1))) void reduce_partials(
    int count, int span, __global const REDUCE_PART* in_value, ulong in_value_offset, __global const int* in_index,
    ulong in_index_offset, __global REDUCE_PART* out_value, ulong out_value_offset, __global int* out_index,
    ulong out_index_offset) {
  __local REDUCE_ACC lv[WG_PARTIALS];
  __local int li[REDUCE_ARG ? WG_PARTIALS : 1];
  in_value += in_value_offset;
#if REDUCE_ARG
  in_index += in_index_offset;
#endif
  const int begin = get_group_id(0) * span;
  const int end = min(count, begin + span);
  REDUCE_ACC a = REDUCE_IDENTITY;
  int ai = REDUCE_NO_INDEX;
  for (int i = begin + (int)get_local_id(0); i < end; i += WG_PARTIALS) {
#if REDUCE_ARG
    REDUCE_FOLD(a, ai, in_value[i], in_index[i]);
#else
    REDUCE_FOLD(a, ai, REDUCE_TO_ACC1(in_value[i]), 0);
#endif
  }
  reduce_work_group(&a, &ai, lv, li, WG_PARTIALS);
  if (get_local_id(0) == 0) {
    reduce_write_partial(a, ai, out_value, out_value_offset, out_index, out_index_offset, get_group_id(0));
  }
}
