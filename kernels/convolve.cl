/* tilecl family "convolve": 2-D filters over row-major images with a border rule.
 *
 * out(x, y, c) = sum_{dy, dx} f(dy, dx) * in(x + dx - rx, y + dy - ry, c), dx in 0..2rx, dy in 0..2ry
 * This is correlation, as OpenCV's filter2D computes it (flip the filter for a true convolution). The filter
 * is (2ry + 1) x (2rx + 1) taps, row-major, in __constant memory (the host checks it fits in
 * CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE: 64 KiB allows 127 x 127). Separable filters use a row filter of
 * 2rx + 1 taps and a column filter of 2ry + 1 taps; the result equals the direct filter f(dy, dx) =
 * col(dy) * row(dx) under every border rule, because each rule maps x and y independently.
 * Images have CHANNELS interleaved channels (1, 3 or 4); every channel is filtered alike. Kernels work on
 * elements: a row has width * CHANNELS elements, and a horizontal tap steps CHANNELS elements.
 *
 * Arithmetic (build macros; the host picks them from the call's options):
 *   default            sums in float (the compiler may fuse multiply-adds); uchar results rounded to nearest
 *                      (ties to even) and saturated to 0..255; float results stored as they are.
 *   USE_FMA 1          (direct kernels) OpenCV 4.6's filter2D on 8-bit images, bit for bit: one float sum per
 *                      element, s = fma(x, f, s) over the taps in row-major order from s = 0; the result is
 *                      rint(s) saturated to 0..255 when |s| < 2^31, else 0 (cvRound's overflow value, packed).
 *   USE_FIXED_POINT 1, 2 (separable kernels, uchar) integer taps and sums, as OpenCV 4.6's GaussianBlur and blur
 *                      compute on 8-bit images: the row pass sums tap * pixel, the column pass sums tap *
 *                      row-pass value, and each sum s becomes a byte through the argument fixed_point =
 *                      (bias, multiplier, shift, float_end) and fixed_scale. With 1 the taps and sums are floats
 *                      holding integers: exact, because every product and partial sum stays below 2^24
 *                      (GaussianBlur's taps sum to 256 in each direction: sums below 255 * 256 * 256; blur up
 *                      to 256 taps: below 255 * 256), and as fast as the float arithmetic; with 2 (larger
 *                      blurs, whose sums may exceed 2^24) they are uints. With 1 the CPU kernels' interior
 *                      row passes sum in 16-bit integers (every row sum is below 255 * 256 < 2^16) and convert
 *                      each row sum to float once. The finish:
 *                        USE_FIXED_POINT 1: min(((s + bias) * multiplier) >> shift, 255) (uint, wrapping)
 *                          GaussianBlur: 8.8 fixed-point taps, bias 2^15, multiplier 1, shift 16;
 *                          blur up to 256 taps: taps 1, OpenCV's divScale and divDelta, shift 23;
 *                        USE_FIXED_POINT 2 (blur above 256 taps; multiplier = the tap count d, odd): elements
 *                          of a row before float_end: rint(float(s) * fixed_scale) (OpenCV's vector path), the
 *                          others s / d rounded to nearest (its scalar path in double; d odd: no ties).
 * The host computes every integer above; the kernels only apply them.
 *
 * Border rules (BORDER, a build macro): reads outside the image become
 *   0 Constant   border_value (an argument; the host passes 0 for tilecl::Border::Zero)
 *   1 Clamp      the nearest edge pixel                             a a a | a b c d | d d d
 *   2 Mirror     reflection without repeating the edge (reflect-101)  d c b | a b c d | c b a
 *   3 Wrap       the periodic continuation                          b c d | a b c d | a b c
 *   4 Reflect    reflection repeating the edge                      c b a | a b c d | d c b
 * Mirror, Wrap and Reflect are full periodic foldings (periods 2n - 2, n and 2n), so they stay correct when
 * the filter is larger than the image; an image of one pixel in a direction reads that pixel. BORDER is a
 * build macro, not an argument, because the naive and CPU kernels apply it on every tap of their edge paths,
 * where a run-time switch would cost a branch per tap; the interior paths do not depend on it.
 *
 * Filter size: RADIUS_X and RADIUS_Y are build macros. A value >= 0 fixes the radius at compile time: tap
 * loops unroll and the tiled kernels size their local tiles and register windows from it (the radius
 * arguments must then equal the macros). -1 is the generic path: the naive and vector kernels read the
 * radius from their arguments, and the tiled kernels are not compiled. The host passes both macros on every
 * build; their default (1, a 3 x 3 filter) only makes the file compile every kernel when no option is given.
 *
 * Programs: CONVOLVE_VARIANT selects the kernels a program holds (0: all, the default), so a program built for
 * one variant compiles only its own kernels -- the tiled ones unroll their tap loops and are slow to compile.
 *
 * Arguments shared by all kernels: width, height in pixels; *_pitch in elements of the buffer's type between
 * row starts (>= width * CHANNELS); *_offset in elements, added once at entry; border_value the Constant
 * rule's value (any float; uchar images: an integer 0..255); taps as floats, or as uints with
 * USE_FIXED_POINT 2. src and dst must not overlap. The host keeps every index below 2^31 except y * pitch,
 * which is formed in 64 bits.
 *
 * Kernels. VEC elements per work-item along x; "chunk" = VEC consecutive elements of a row.
 *   convolve_direct_naive(width, height, src, src_offset, src_pitch, dst, dst_offset, dst_pitch,
 *                         filter, radius_x, radius_y, border_value)
 *       One pixel (all channels) per work-item; every tap goes through the border rule. Reference variant.
 *       global = (round_up(width, lx), round_up(height, ly)); local launch-only, any size.
 *   convolve_direct_vector(same arguments)
 *       CPU form: one chunk in WPT_Y consecutive rows per work-item, VEC-wide float accumulators, no local
 *       memory. Chunks whose taps stay inside the row take unaligned vector loads with no checks; the others
 *       read their window through the border rule once per input row (with a build-time RADIUS_X as whole
 *       vectors in registers, each lane's element folded in vector arithmetic, where the window reaches at most
 *       one row beyond either end; else through private memory). With build-time radii and WPT_Y > 1,
 *       each of the WPT_Y + 2ry input rows is read once and multiplied into the 2ry + 1 output rows it belongs
 *       to, kept in a ring of registers (one load per tap and input row instead of one per tap and output
 *       row); otherwise the output rows are computed one after another.
 *       global = (round_up(ceil(width * CHANNELS / VEC), lx), round_up(ceil(height / WPT_Y), ly)); local
 *       launch-only.
 *   convolve_direct_tiled(same arguments)                       [only when RADIUS_X, RADIUS_Y >= 0]
 *       GPU form: a work-group computes TILE_X x TILE_Y pixels. It copies the input tile plus halo into local
 *       memory as float, one chunk per load (aligned vector loads without any check when the tile and its
 *       halo lie inside the image; else each chunk's row goes through the border rule, and only chunks that
 *       cross the left or right edge are gathered element by element), then each work-item computes one
 *       chunk in WPT_Y consecutive rows, reading each input row of its window once into registers.
 *       local = (WG_X, WG_Y) = (TILE_X * CHANNELS / VEC, TILE_Y / WPT_Y) (required work-group size);
 *       global = (ceil(width / TILE_X) * WG_X, ceil(height / TILE_Y) * WG_Y).
 *   convolve_rows_vector(width, height, src, src_offset, src_pitch, work, work_pitch, row_filter, radius_x,
 *                        border_value)
 *   convolve_cols_vector(width, height, work, work_pitch, dst, dst_offset, dst_pitch, row_filter, col_filter,
 *                        radius_x, radius_y, border_value, fixed_point, fixed_scale)
 *       Separable, two passes through a workspace owned by the host (floats, or uints with USE_FIXED_POINT 2):
 *       rows_vector filters every row of src into work, cols_vector filters the columns of work into dst
 *       (rows outside the image, under Constant, are the row filter applied to a row of border_value, which
 *       is why it takes the row filter). The workspace holds height rows of work_pitch elements,
 *       work_pitch >= width * CHANNELS (a multiple of VEC keeps its accesses aligned): 4 * height *
 *       work_pitch bytes. Geometry of both as convolve_direct_vector.
 *   convolve_separable_vector(width, height, src, src_offset, src_pitch, dst, dst_offset, dst_pitch,
 *                             row_filter, col_filter, radius_x, radius_y, border_value, fixed_point,
 *                             fixed_scale)
 *       CPU form of a fused separable pass, no workspace: one chunk in WPT_Y consecutive rows per work-item;
 *       it filters the WPT_Y + 2ry input rows along x once each. With a build-time RADIUS_Y the last 2ry + 1
 *       of them roll through registers and each output row is one column sum (so WPT_Y can be large: 32-64
 *       rows filter each input row 1.1-1.25 times); with a run-time radius each row pass is added to the
 *       WPT_Y column sums it belongs to. With a build-time radius, inner chunks (most work-items) take a loop
 *       of their own, without edge path or partial stores (rows beyond the image's top or bottom through the
 *       border rule, by row). global = (round_up(ceil(width * CHANNELS / VEC), lx),
 *       round_up(ceil(height / WPT_Y), ly)); local launch-only.
 *   convolve_separable_tiled(same arguments as convolve_separable_vector)  [only when RADIUS_X, RADIUS_Y >= 0]
 *       GPU form, fused: the row pass of TILE_Y + 2ry rows into a local tile, then the column pass from local
 *       memory into registers, WPT_Y rows of one chunk per work-item. The row pass reads each work-item's
 *       window (its chunk plus HALO elements on each side) straight from global memory with aligned vector
 *       loads (USE_LOCAL_INPUT 0: overlapping windows hit the cache; half the local memory; edges as in
 *       convolve_direct_tiled), or from an input tile staged in local memory first as in
 *       convolve_direct_tiled (USE_LOCAL_INPUT 1). With USE_PREFETCH 1 a work-item loads the windows of all
 *       its row-pass rows before filtering any, so that all its loads are in flight at once.
 *       Geometry as convolve_direct_tiled.
 *   convolve_separable_ring(same arguments as convolve_separable_vector)  [build-time radii; searched for uchar]
 *       GPU form for bytes, fused, registers only: one chunk in WPT_Y consecutive rows per work-item, the last
 *       2 RADIUS_Y + 1 row passes in a ring of registers, no local memory and no barrier. Inner chunks of strips
 *       inside the image take a fully unrolled path without any branch (every ring index a constant, the ring's
 *       moves renamings); a row's window (the chunk plus RADIUS_X pixels each side) is read as the aligned 32-bit
 *       words that hold it, shifted into place in pairs: any offset and pitch, and no byte loads (an unaligned
 *       uchar vector is loaded byte by byte on NVIDIA). Chunks within 3 bytes of a row's ends and the strips at the
 *       image's top and bottom take a rolled loop, the border rule applied once per window element. A tuning
 *       option, not a default (docs/notes/image.md: an interior-only prototype beat the tiled kernel on the H200;
 *       earlier forms of this kernel did not). Geometry as convolve_separable_vector.
 *   convolve_separable_words(same arguments as convolve_separable_vector)  [uchar, build-time radii, integer taps]
 *       GPU form for integer sums of bytes (USE_INTEGER_TAPS: the box in either arithmetic, OpenCV's GaussianBlur
 *       taps; little-endian devices): a work-group of WORDS_WG items owns a band of WPW * WORDS_WG 32-bit word
 *       columns and WPT_Y rows, and outputs all but WORDS_HALO = ceil(RADIUS_X * CHANNELS / 4) words at each
 *       end of it (bands overlap by 2 WORDS_HALO words). Phase 1: each item sums WPW word columns over the
 *       2 RADIUS_Y + 1 rows of each output row, bytes 0 and 2 and bytes 1 and 3 of a word as two 16-bit lanes of
 *       one 32-bit integer (every column sum is below 2^16: taps of 1 up to 257 rows, or GaussianBlur's taps
 *       summing to 256), into local memory. Phase 2: each item filters WPW output words along the row from those
 *       sums in 32-bit integers (with USE_PACKED_SUMS two outputs a lane pair) and finishes each sum: OpenCV's
 *       shift (USE_FIXED_POINT 1), or the rounded quotient by the tap count (USE_FIXED_POINT 0: the exact value
 *       the float arithmetic rounds; a box of an odd number of taps has no ties). Rows and columns outside the
 *       image go through the border rule as the words are loaded, in the work-groups that touch an edge.
 *       Any offset and pitch (unaligned images load and store bytes). Local memory 8 * WPT_Y * WPW * WORDS_WG
 *       bytes. local = (WORDS_WG, 1); global = (ceil(ceil(width * CHANNELS / 4) / (WPW * WORDS_WG - 2
 *       WORDS_HALO)) * WORDS_WG, ceil(height / WPT_Y)).
 *   Local memory of the tiled kernels, in bytes, with HALO = ceil(RADIUS_X * CHANNELS / VEC) * VEC:
 *       direct:    4 * (TILE_Y + 2 * RADIUS_Y) * (TILE_X * CHANNELS + 2 * HALO + PAD)
 *       separable: 4 * (TILE_Y + 2 * RADIUS_Y) * (TILE_X * CHANNELS + PAD), plus the direct figure when
 *                  USE_LOCAL_INPUT is 1
 *
 * Macros (all optional):
 *   DTYPE     element type of src and dst: float or uchar. Default float.
 *   CHANNELS  interleaved channels per pixel, 1, 3 or 4 (any positive value works). Default 1.
 *   BORDER    0 Constant, 1 Clamp, 2 Mirror, 3 Wrap, 4 Reflect. Default 1.
 *   RADIUS_X  horizontal radius fixed at build time (>= 0), or -1 for the radius argument. Default 1.
 *   RADIUS_Y  vertical radius, likewise. Default 1.
 *   CONVOLVE_VARIANT  the kernels compiled: 0 all, 1 convolve_direct_naive, 2 convolve_direct_vector,
 *             3 convolve_direct_tiled, 4 convolve_rows_vector + convolve_cols_vector, 5 convolve_separable_vector,
 *             6 convolve_separable_tiled, 7 convolve_separable_ring, 8 convolve_separable_words. Default 0.
 *   VEC       elements per work-item along x: 2, 4, 8 or 16. Default 4.
 *   TILE_X    tiled kernels: pixels per work-group along x; TILE_X * CHANNELS must be a multiple of VEC.
 *             Default 32.
 *   TILE_Y    tiled kernels: rows per work-group; a multiple of WPT_Y. Default 16.
 *   WPT_Y     rows per work-item (tiled kernels, convolve_direct_vector, convolve_separable_vector and _ring),
 *             >= 1. Default 4.
 *   PAD       tiled kernels: extra elements at the end of each local row, a multiple of VEC. Default 0.
 *   USE_LOCAL_INPUT  convolve_separable_tiled: 1 stages the input tile in local memory, 0 reads the row-pass
 *             windows from global memory. Default 0.
 *   USE_PREFETCH  convolve_separable_tiled: 1 loads every row-pass window of a work-item before filtering any
 *             (more registers, more loads in flight: the 9x9 Gaussian on float at 7680x4320 on an H200 went
 *             from 90.5 to 86.6 us, the 5x5 box from 83.1 to 71.8 us; on 3 and 4 channels it is slower: the
 *             host's GPU default sets it for one channel only), 0 loads and filters row by row.
 *             Default 0.
 *   USE_ROUND_BY_ADD  uchar with float sums: how results are rounded: 0 rint (one instruction on GPUs), 1
 *             clamp to 0..255 first, then add 2^23 and keep the low 8 bits of the sum's bit pattern (PoCL's
 *             rint is a long software sequence; on the H200 the tiled kernels ran 1-3% faster with it,
 *             2026-12-02). The same results: in 0..255 the addition rounds to an integer, to nearest with ties
 *             to even (OpenCL's default rounding mode; nothing is built with -cl-fast-relaxed-math, so it is
 *             not folded), 2^23 + k for k in 0..255 has k as its low 8 bits, and clamping before or after
 *             rounding to the nearest integer agrees at integer bounds. Default 0.
 *   USE_FMA   direct kernels, 0 or 1: OpenCV's filter2D arithmetic (above). Default 0.
 *   USE_FIXED_POINT  separable kernels with uchar: 0 float sums, 1 or 2 OpenCV's integer arithmetic with the
 *             shifting or the dividing finish (above). Default 0.
 *   USE_WINDOW  the CPU-shaped kernels with a build-time RADIUS_X, 0 or 1: how an interior chunk's row taps are
 *             read. 0: one unaligned vector load (and conversion) per tap; 1: the chunk's window is loaded and
 *             converted once, as whole vectors, and each tap's vector is a constant shuffle of two of them (a
 *             permute on CPUs). Chunks whose whole vectors would cross the row's end take the per-element path.
 *             Under PoCL on AVX-512 the shuffles cost more than the loads they save (9x9 Gaussian on bytes 1.1-1.3x,
 *             5x5 filter2D on floats 2x slower, 2026-12-01; staging the window in private memory and loading each
 *             tap from there was 2-2.5x slower): kept for the tuner and for other devices. Default 0.
 *   USE_SYMMETRIC  convolve_separable_vector, convolve_rows_vector and convolve_separable_words (its fixed-point
 *             taps: mirrored rows and elements added first), 0 or 1: 1 promises that the row filter
 *             and the column filter each read the same backwards (taps[d] == taps[2r - d]; the host sets it for
 *             the blurs' taps, checked bit for bit). An interior chunk's row pass then adds each pair of mirrored
 *             elements first (bytes: exactly, in 16 bits) and multiplies once (r + 1 products instead of 2r + 1),
 *             and the fused kernel's column sum likewise with a build-time RADIUS_Y. Float sums change order
 *             (within the float-sum bounds); integer sums (USE_FIXED_POINT) are exact either way. Not applied
 *             with USE_WINDOW 1 (the row pass; the column sum still is). Default 0.
 *   USE_UNIT_GAIN  uchar with float sums (ignored under USE_FMA and USE_FIXED_POINT), 0 or 1: 1 promises that
 *             every sum a result is rounded from lies in 0 .. 255.5. The host sets it for the blurs on bytes in
 *             the CPU-shaped separable programs when their tap words are non-negative and 255 * (row sum) *
 *             (column sum) * (1 + (n + 4) 2^-23) < 255.5, n the number of taps: elements and border values are
 *             0..255, and a float sum of n non-negative terms exceeds the exact one by less than that factor. The
 *             finish then skips the clamp to 0..255, which cannot change such a sum's rounded value: the same
 *             results. Default 0.
 *   USE_INTEGER_TAPS  convolve_separable_words (set by the host, not tuned): 1 every tap is 1 (box_blur: sums; the
 *             taps' arguments are not read), 2 the taps are integers held in floats, each direction summing to at
 *             most 256 (GaussianBlur's fixed point under USE_FIXED_POINT 1). Default 1. (The kernel reads and
 *             writes uchar whatever DTYPE is; the host builds it with DTYPE uchar.)
 *   WORDS_WG  convolve_separable_words: work-items per work-group (its required size). Default 128.
 *   WPW       convolve_separable_words: word columns per work-item in each phase. Default 1.
 *   USE_PACKED_SUMS  convolve_separable_words with USE_INTEGER_TAPS 1 and 255 * taps < 2^16, 0 or 1: 1 sums along
 *             the row two outputs per add (elements e and e + 2 of the column sums as two 16-bit lanes). Default 0.
 * Derived (not to be passed): WG_X = TILE_X * CHANNELS / VEC, WG_Y = TILE_Y / WPT_Y.
 */

#ifndef DTYPE
#define DTYPE float
#endif
#ifndef CHANNELS
#define CHANNELS 1
#endif
#ifndef BORDER
#define BORDER 1
#endif
#ifndef RADIUS_X
#define RADIUS_X 1
#endif
#ifndef RADIUS_Y
#define RADIUS_Y 1
#endif
#ifndef CONVOLVE_VARIANT
#define CONVOLVE_VARIANT 0
#endif
#ifndef VEC
#define VEC 4
#endif
#ifndef TILE_X
#define TILE_X 32
#endif
#ifndef TILE_Y
#define TILE_Y 16
#endif
#ifndef WPT_Y
#define WPT_Y 4
#endif
#ifndef PAD
#define PAD 0
#endif
#ifndef USE_PREFETCH
#define USE_PREFETCH 0
#endif
#ifndef USE_LOCAL_INPUT
#define USE_LOCAL_INPUT 0
#endif
#ifndef USE_ROUND_BY_ADD
#define USE_ROUND_BY_ADD 0
#endif
#ifndef USE_FMA
#define USE_FMA 0
#endif
#ifndef USE_FIXED_POINT
#define USE_FIXED_POINT 0
#endif
#ifndef USE_WINDOW
#define USE_WINDOW 0
#endif
#ifndef USE_SYMMETRIC
#define USE_SYMMETRIC 0
#endif
#ifndef USE_UNIT_GAIN
#define USE_UNIT_GAIN 0
#endif
#ifndef USE_INTEGER_TAPS
#define USE_INTEGER_TAPS 1
#endif
#ifndef WORDS_WG
#define WORDS_WG 128
#endif
#ifndef WPW
#define WPW 1
#endif
#ifndef USE_PACKED_SUMS
#define USE_PACKED_SUMS 0
#endif

#if BORDER < 0 || BORDER > 4
#error "convolve.cl: BORDER must be 0 (Constant), 1 (Clamp), 2 (Mirror), 3 (Wrap) or 4 (Reflect)"
#endif
#if VEC != 2 && VEC != 4 && VEC != 8 && VEC != 16
#error "convolve.cl: VEC must be 2, 4, 8 or 16"
#endif
#if CHANNELS < 1 || WPT_Y < 1
#error "convolve.cl: CHANNELS and WPT_Y must be at least 1"
#endif
#if CONVOLVE_VARIANT < 0 || CONVOLVE_VARIANT > 8
#error "convolve.cl: CONVOLVE_VARIANT must be 0 (every kernel) or 1..8"
#endif
#if WORDS_WG < 1 || WPW < 1
#error "convolve.cl: WORDS_WG and WPW must be at least 1"
#endif

/* Whether this program holds the kernels of variant v. */
#define CONV_HAS(v) (CONVOLVE_VARIANT == 0 || CONVOLVE_VARIANT == (v))

/* CONV_DTYPE_IS_UCHAR is 1 for uchar and 0 for float (any other spelling counts as float). */
#define CONV_DTYPE_KIND_float 0
#define CONV_DTYPE_KIND_uchar 1
#define CONV_DTYPE_IS_UCHAR TILECL_CAT(CONV_DTYPE_KIND_, DTYPE)

#if USE_FIXED_POINT && !CONV_DTYPE_IS_UCHAR
#error "convolve.cl: USE_FIXED_POINT needs DTYPE uchar"
#endif
#if USE_FIXED_POINT && (CONV_HAS(1) || CONV_HAS(2) || CONV_HAS(3))
#error "convolve.cl: USE_FIXED_POINT applies to the separable variants (CONVOLVE_VARIANT 4..8)"
#endif

#define CONV_FVEC TILECL_CAT(float, VEC)
#define CONV_DVEC TILECL_CAT(DTYPE, VEC)
#define CONV_IVEC TILECL_CAT(int, VEC)
#define CONV_UVEC TILECL_CAT(uint, VEC)
#define CONV_VLOAD TILECL_CAT(vload, VEC)
/* A chunk of VEC elements at any element address: what CONV_VLOAD(0, p) reads, through a vector type aligned
 * only to its element. PoCL 3.1 assembles vload16 of uchar from 4-byte pieces and shuffles; this is one
 * unaligned vector load (9x9 Gaussian on bytes 2.5 -> 1.8 ms, 2026-12-01). */
typedef CONV_DVEC conv_dvec_unaligned __attribute__((aligned(sizeof(DTYPE))));
#define CONV_LOADU(p) (*(__global const conv_dvec_unaligned*)(p))
#define CONV_VSTORE TILECL_CAT(vstore, VEC)
#define CONV_TO_FVEC TILECL_CAT(convert_float, VEC)
#define CONV_TO_UVEC TILECL_CAT(convert_uint, VEC)
#define CONV_TO_UCHAR_SAT TILECL_CAT(TILECL_CAT(convert_uchar, VEC), _sat)

/* The accumulator of the separable kernels (and their local tiles and workspace): float, or uint with
 * USE_FIXED_POINT 2; taps of the same type. The direct kernels always sum in float. */
#if USE_FIXED_POINT == 2
#define CONV_ACC uint
#define CONV_AVEC CONV_UVEC
#define CONV_TO_AVEC CONV_TO_UVEC
#else
#define CONV_ACC float
#define CONV_AVEC CONV_FVEC
#define CONV_TO_AVEC CONV_TO_FVEC
#endif

/* The interior row pass's sum (conv_row_inner): under USE_FIXED_POINT 1 16-bit integers -- exact, because the
 * host gives that mode only row filters of non-negative integer taps summing to at most 256 (GaussianBlur's
 * 8.8 fixed point, blur up to 256 taps), so every row sum is below 255 * 257 < 2^16, and unsigned 16-bit
 * arithmetic is exact modulo 2^16 whatever its partial sums do -- converted once to the accumulator type; else
 * the accumulator type. CONV_PAIR(a, b): a + b of two loaded chunks in the row-sum type (bytes widened to 16
 * bits first: exact; then to float when the row sum is a float). */
#if USE_FIXED_POINT == 1
#define CONV_RVEC TILECL_CAT(ushort, VEC)
#define CONV_TO_RVEC TILECL_CAT(convert_ushort, VEC)
#define CONV_ROW_TAP(t) ((ushort)(t))
#define CONV_RVEC_TO_AVEC(v) CONV_TO_AVEC(v)
#define CONV_PAIR(a, b) (CONV_TO_RVEC(a) + CONV_TO_RVEC(b))
#else
#define CONV_RVEC CONV_AVEC
#define CONV_TO_RVEC CONV_TO_AVEC
#define CONV_ROW_TAP(t) (t)
#define CONV_RVEC_TO_AVEC(v) (v)
#if CONV_DTYPE_IS_UCHAR
#define CONV_PAIR(a, b) CONV_TO_AVEC(TILECL_CAT(convert_ushort, VEC)(a) + TILECL_CAT(convert_ushort, VEC)(b))
#else
#define CONV_PAIR(a, b) ((a) + (b))
#endif
#endif

/* Float sums to DTYPE. */
#if CONV_DTYPE_IS_UCHAR && USE_FMA
/* OpenCV's filter2D: cvRound (to nearest even), then saturated; a sum beyond int (or NaN) gives 0. */
#define CONV_TO_DTYPE(x) convert_uchar(isless(fabs(x), 2147483648.0f) ? clamp(rint(x), 0.0f, 255.0f) : 0.0f)
#define CONV_TO_DVEC(x)          \
  TILECL_CAT(convert_uchar, VEC) \
  (select((CONV_FVEC)(0.0f), clamp(rint(x), 0.0f, 255.0f), isless(fabs(x), (CONV_FVEC)(2147483648.0f))))
#elif CONV_DTYPE_IS_UCHAR && USE_UNIT_GAIN && USE_ROUND_BY_ADD
/* Every sum lies in 0 .. 255.5 (USE_UNIT_GAIN): round to nearest even by adding 2^23, keep the low 8 bits; no
 * clamp (two vector instructions of the finish's four: 9x9 Gaussian on bytes 5-8% faster under PoCL). */
#define CONV_TO_DTYPE(x) convert_uchar(as_uint((x) + 8388608.0f) & 0xFFu)
#define CONV_TO_DVEC(x) TILECL_CAT(convert_uchar, VEC)(TILECL_CAT(as_uint, VEC)((x) + 8388608.0f))
#elif CONV_DTYPE_IS_UCHAR && USE_UNIT_GAIN
#define CONV_TO_DTYPE(x) convert_uchar(rint(x))
#define CONV_TO_DVEC(x) TILECL_CAT(convert_uchar, VEC)(rint(x))
#elif CONV_DTYPE_IS_UCHAR && USE_ROUND_BY_ADD
/* Saturate, then round to nearest even by adding 2^23; the byte is the sum's low 8 bits (see USE_ROUND_BY_ADD). */
#define CONV_TO_DTYPE(x) convert_uchar(as_uint(clamp((x), 0.0f, 255.0f) + 8388608.0f) & 0xFFu)
#define CONV_TO_DVEC(x)          \
  TILECL_CAT(convert_uchar, VEC) \
  (TILECL_CAT(as_uint, VEC)(clamp((x), 0.0f, 255.0f) + 8388608.0f) & (CONV_UVEC)(0xFFu))
#elif CONV_DTYPE_IS_UCHAR
/* Round to nearest even and saturate: the same results as convert_uchar_sat_rte for finite x, but rint, min,
 * max and a truncating conversion are single vector instructions on CPUs. */
#define CONV_TO_DTYPE(x) convert_uchar(clamp(rint(x), 0.0f, 255.0f))
#define CONV_TO_DVEC(x) TILECL_CAT(convert_uchar, VEC)(clamp(rint(x), 0.0f, 255.0f))
#else
#define CONV_TO_DTYPE(x) (x)
#define CONV_TO_DVEC(x) (x)
#endif

/* acc + f * x for the direct kernels: fused and in tap order under USE_FMA (scalar and vector forms). */
#if USE_FMA
#define CONV_MAC(acc, x, f) fma((x), (f), (acc))
#define CONV_MACV(acc, x, f) fma((x), (CONV_FVEC)(f), (acc))
#else
#define CONV_MAC(acc, x, f) ((acc) + (f) * (x))
#define CONV_MACV(acc, x, f) ((acc) + (f) * (x))
#endif

/* The interior row passes are inlined into their kernels: a call would save every live vector register around
 * it (all are caller-saved on x86-64), spilling the fused kernel's ring of row passes on each input row. */
#define CONV_INLINE inline __attribute__((always_inline))

/* Lane numbers 0 .. VEC - 1 as an int vector. */
#define CONV_LANES_2 (int2)(0, 1)
#define CONV_LANES_4 (int4)(0, 1, 2, 3)
#define CONV_LANES_8 (int8)(0, 1, 2, 3, 4, 5, 6, 7)
#define CONV_LANES_16 (int16)(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)
#define CONV_LANES TILECL_CAT(CONV_LANES_, VEC)

/* True when pointer p and every row start p + k * pitch are aligned for a whole chunk of *p's type. */
#define CONV_ALIGNED(p, pitch) (((uintptr_t)(p) % (VEC * sizeof(*(p)))) == 0 && ((pitch) % VEC) == 0)

/* Radii: the build-time value when given, else the kernel argument. */
#if RADIUS_X >= 0
#define CONV_RX RADIUS_X
#else
#define CONV_RX radius_x
#endif
#if RADIUS_Y >= 0
#define CONV_RY RADIUS_Y
#else
#define CONV_RY radius_y
#endif

/* Border rules 1..4: index i of a line of n pixels, folded into 0..n-1. (Constant is tested by the callers.) */
int conv_fold(int i, const int n) {
  if (i >= 0 && i < n) return i;
#if BORDER == 1
  return clamp(i, 0, n - 1);
#elif BORDER == 2
  if (n == 1) return 0;
  const int period = 2 * n - 2;
  i %= period;
  if (i < 0) i += period;
  return i < n ? i : period - i;
#elif BORDER == 4
  const int period = 2 * n;
  i %= period;
  if (i < 0) i += period;
  return i < n ? i : period - 1 - i;
#else
  i %= n;
  return i < 0 ? i + n : i;
#endif
}

/* Row index of input row y under the border rule; -1 when the row reads as border_value (Constant). */
int conv_row(const int y, const int height) {
#if BORDER == 0
  return (y >= 0 && y < height) ? y : -1;
#else
  return conv_fold(y, height);
#endif
}

/* Where element e (any integer) of a row of width pixels reads under the border rule: an element of the row, or
 * -1 for the Constant rule's border_value. */
int conv_element_offset(const int e, const int width) {
  const int p = e >= 0 ? e / CHANNELS : -((CHANNELS - 1 - e) / CHANNELS); /* floor(e / CHANNELS) */
  const int c = e - p * CHANNELS;
#if BORDER == 0
  return (p >= 0 && p < width) ? p * CHANNELS + c : -1;
#else
  return conv_fold(p, width) * CHANNELS + c;
#endif
}

/* Element e (any integer) of a row of width pixels under the border rule, as the accumulator type. */
CONV_ACC conv_load_element(__global const DTYPE* row, const int width, const int e, const CONV_ACC border) {
  const int offset = conv_element_offset(e, width);
  return offset >= 0 ? (CONV_ACC)row[offset] : border;
}

/* Up to VEC accumulator values at p: a whole chunk, or the first count elements and zeros. */
CONV_AVEC conv_load_acc(__global const CONV_ACC* p, const int count, const bool aligned) {
  if (count >= VEC) return aligned ? *(__global const CONV_AVEC*)p : CONV_VLOAD(0, p);
  CONV_ACC t[VEC];
  for (int i = 0; i < VEC; ++i) t[i] = i < count ? p[i] : (CONV_ACC)0;
  return CONV_VLOAD(0, t);
}

void conv_store_acc(__global CONV_ACC* p, const CONV_AVEC v, const int count, const bool aligned) {
  if (count >= VEC) {
    if (aligned) {
      *(__global CONV_AVEC*)p = v;
    } else {
      CONV_VSTORE(v, 0, p);
    }
    return;
  }
  CONV_ACC t[VEC];
  CONV_VSTORE(v, 0, t);
  for (int i = 0; i < VEC; ++i) {
    if (i < count) p[i] = t[i];
  }
}

/* Stores the first count (<= VEC, or all when >= VEC) elements of v at p. */
void conv_store_dvec(__global DTYPE* p, const CONV_DVEC v, const int count, const bool aligned) {
  if (count >= VEC) {
    if (aligned) {
      *(__global CONV_DVEC*)p = v;
    } else {
      *(__global conv_dvec_unaligned*)p = v;
    }
    return;
  }
  DTYPE t[VEC];
  CONV_VSTORE(v, 0, t);
  for (int i = 0; i < VEC; ++i) {
    if (i < count) p[i] = t[i];
  }
}

#if USE_FIXED_POINT == 1
/* The bytes of integer sums s (floats holding integers below 2^24) of the chunk at element e0 of a row (see
 * "Arithmetic" above). */
CONV_DVEC conv_finish(const CONV_AVEC s, const int e0, const uint4 fixed_point, const float fixed_scale) {
  return CONV_TO_UCHAR_SAT(((CONV_TO_UVEC(s) + fixed_point.x) * fixed_point.y) >> fixed_point.z);
}
#elif USE_FIXED_POINT == 2
/* shift = 0: the float path before float_end, the rounded division after it. (A build-time mode: PoCL turns a
 * run-time branch between the two into both, and the division is 16 scalar divisions per chunk.) */
CONV_DVEC conv_finish(const CONV_AVEC s, const int e0, const uint4 fixed_point, const float fixed_scale) {
  const uint d = fixed_point.y;
  const CONV_UVEC q = s / d;
  const CONV_UVEC exact = q - TILECL_CAT(as_uint, VEC)(2 * (s - q * d) > d); /* true is -1 */
  const CONV_UVEC scaled = TILECL_CAT(TILECL_CAT(convert_uint, VEC), _sat_rte)(CONV_TO_FVEC(s) * fixed_scale);
  const CONV_IVEC lanes = (CONV_IVEC)(e0) + CONV_LANES;
  return CONV_TO_UCHAR_SAT(select(exact, scaled, lanes < (CONV_IVEC)((int)fixed_point.w)));
}
#else
CONV_DVEC conv_finish(const CONV_AVEC s, const int e0, const uint4 fixed_point, const float fixed_scale) {
  return CONV_TO_DVEC(s);
}
#endif

/* Row filter of 2rx + 1 taps applied to the chunk at element e0 of one input row, added to acc with
 * CONV_MACV (direct kernels, float) -- in two functions: the interior one (every tap of every element inside
 * the row: one unaligned vector load per tap, no checks), and the edge one (each element through the border
 * rule). */
/* The radius in helper functions: a constant when it can be, and then the tap loop unrolls (PoCL keeps a loop of
 * 5 or 9 taps otherwise: half of its instructions are the loop's own). */
#if RADIUS_X >= 0
#define CONV_HELPER_RX(rx) RADIUS_X
#define CONV_UNROLL_TAPS _Pragma("unroll")
#else
#define CONV_HELPER_RX(rx) (rx)
#define CONV_UNROLL_TAPS
#endif

#if RADIUS_X >= 0
/* The window of a chunk's row taps (VEC + 2 RADIUS_X CHANNELS elements from element e0 - RADIUS_X CHANNELS) as
 * CONV_WINDOW vectors; the vector of tap dx (elements dx * CHANNELS ..) is one of them or a constant shuffle of two
 * neighbours. Interior chunks under USE_WINDOW load it from the row, edge chunks build it (conv_edge_vectors). */
#define CONV_WINDOW ((2 * RADIUS_X * CHANNELS + 2 * VEC - 1) / VEC)
#define CONV_TAP_VECTOR(w, dx)      \
  (((dx)*CHANNELS) % VEC == 0       \
       ? (w)[((dx)*CHANNELS) / VEC] \
       : shuffle2((w)[((dx)*CHANNELS) / VEC], (w)[((dx)*CHANNELS) / VEC + 1], CONV_SHIFT((dx)*CHANNELS % VEC)))
#define CONV_SHIFT(r) ((CONV_UVEC)(r) + TILECL_CAT(convert_uint, VEC)(CONV_LANES))
#endif

#if USE_WINDOW && RADIUS_X >= 0
/* Interior chunks under USE_WINDOW: the window is loaded and converted once, when all of it lies inside the row. */
#define CONV_INNER(e0, row_e) ((e0)-RADIUS_X * CHANNELS >= 0 && (e0)-RADIUS_X * CHANNELS + CONV_WINDOW * VEC <= (row_e))

CONV_INLINE CONV_FVEC conv_direct_row_inner(CONV_FVEC acc, __global const DTYPE* row, const int e0,
                                            __constant float* taps, const int rx) {
  __global const DTYPE* s = row + e0 - RADIUS_X * CHANNELS;
  CONV_FVEC w[CONV_WINDOW];
#pragma unroll
  for (int j = 0; j < CONV_WINDOW; ++j) w[j] = CONV_TO_FVEC(CONV_VLOAD(j, s));
#pragma unroll
  for (int dx = 0; dx <= 2 * RADIUS_X; ++dx) acc = CONV_MACV(acc, CONV_TAP_VECTOR(w, dx), taps[dx]);
  return acc;
}
#else
#define CONV_INNER(e0, row_e) ((e0)-CONV_RX * CHANNELS >= 0 && (e0) + VEC + CONV_RX * CHANNELS <= (row_e))

CONV_INLINE CONV_FVEC conv_direct_row_inner(CONV_FVEC acc, __global const DTYPE* row, const int e0,
                                            __constant float* taps, const int radius) {
  const int rx = CONV_HELPER_RX(radius);
  __global const DTYPE* s = row + e0 - rx * CHANNELS;
  CONV_UNROLL_TAPS
  for (int dx = 0; dx <= 2 * rx; ++dx) acc = CONV_MACV(acc, CONV_TO_FVEC(CONV_LOADU(s + dx * CHANNELS)), taps[dx]);
  return acc;
}
#endif

#if RADIUS_X >= 0
/* Edge chunks with a build-time radius: the chunk's window (VEC + 2 RADIUS_X CHANNELS elements) goes through the
 * border rule once per element into private memory, then each tap is a vector load from there -- instead of
 * the rule on every tap of every element (edge chunks took a sixth of a 9x9 Gaussian's time at 1920 wide). */
#define CONV_EDGE_WINDOW (VEC + 2 * RADIUS_X * CHANNELS)

/* The elements e0 - RADIUS_X CHANNELS .. of a row (null: a row of border values) through the border rule. The part
 * inside the row is one contiguous copy (a loop compilers vectorize; per element, the rule made the edge chunks of
 * narrow images 4-8x slower than the inner ones under PoCL), the rule applies to the elements beyond either end. */
CONV_INLINE void conv_edge_window(CONV_ACC* w, __global const DTYPE* row, const int width, const int e0,
                                  const CONV_ACC border) {
  const int lo = e0 - RADIUS_X * CHANNELS;
  if (!row) {
    for (int i = 0; i < CONV_EDGE_WINDOW; ++i) w[i] = border;
    return;
  }
  const int inside_from = min(max(-lo, 0), CONV_EDGE_WINDOW);
  const int inside_to = max(min(width * CHANNELS - lo, CONV_EDGE_WINDOW), inside_from);
  for (int i = 0; i < inside_from; ++i) w[i] = conv_load_element(row, width, lo + i, border);
  __global const DTYPE* from = row + lo;
  for (int i = inside_from; i < inside_to; ++i) w[i] = (CONV_ACC)from[i];
  for (int i = inside_to; i < CONV_EDGE_WINDOW; ++i) w[i] = conv_load_element(row, width, lo + i, border);
}

/* The same window as CONV_WINDOW vectors of the accumulator type, the tap vectors then coming from CONV_TAP_VECTOR
 * (conv_edge_vectors). Where the window reaches at most one row beyond either end (conv_edge_in_reach), it never
 * leaves the registers (conv_edge_lanes): a vector inside the row is one load, in the others each lane's element
 * is found through the border rule in vector arithmetic (one or two selects) and read on its own; else the window
 * goes through private memory (conv_edge_window). Taps read as unaligned vectors from a private window written
 * element by element wait on the writes they overlap: under PoCL that made an edge chunk cost several inner ones,
 * and a row of at most 2 (VEC + RADIUS_X CHANNELS) elements is all edge chunks. */

/* Pixels from floor((e0 - RADIUS_X CHANNELS) / CHANNELS) to that of the window's last vector's last lane: within
 * [-(width - 1), 2 width - 2], where every rule folds a pixel with one reflection or shift. */
CONV_INLINE bool conv_edge_in_reach(const int width, const int e0) {
#if BORDER == 0 || BORDER == 1
  return true;
#else
  const int first = e0 / CHANNELS - RADIUS_X; /* e0 >= 0 */
  const int last = (e0 - RADIUS_X * CHANNELS + CONV_WINDOW * VEC - 1) / CHANNELS;
  return width >= 2 && first >= -(width - 1) && last <= 2 * width - 2;
#endif
}

/* M(k) for every lane k of a VEC-wide vector, k as its component name (s0 .. sf). */
#define CONV_FOR_LANES_2(M) M(0) M(1)
#define CONV_FOR_LANES_4(M) CONV_FOR_LANES_2(M) M(2) M(3)
#define CONV_FOR_LANES_8(M) CONV_FOR_LANES_4(M) M(4) M(5) M(6) M(7)
#define CONV_FOR_LANES_16(M) CONV_FOR_LANES_8(M) M(8) M(9) M(a) M(b) M(c) M(d) M(e) M(f)
#define CONV_FOR_LANES TILECL_CAT(CONV_FOR_LANES_, VEC)

CONV_INLINE void conv_edge_lanes(CONV_AVEC* w, __global const DTYPE* row, const int width, const int e0,
                                 const CONV_ACC border) {
  const CONV_IVEC n = (CONV_IVEC)(width);
#pragma unroll
  for (int j = 0; j < CONV_WINDOW; ++j) {
    const int first = e0 - RADIUS_X * CHANNELS + j * VEC;
    if (first >= 0 && first + VEC <= width * CHANNELS) { /* a vector inside the row: one load */
      w[j] = CONV_TO_AVEC(CONV_LOADU(row + first));
      continue;
    }
    /* Element e >= -RADIUS_X CHANNELS; its pixel floor(e / CHANNELS) from a non-negative quotient. */
    const CONV_IVEC e = (CONV_IVEC)(first) + CONV_LANES;
    const CONV_IVEC p = (e + (RADIUS_X + 1) * CHANNELS) / CHANNELS - (RADIUS_X + 1);
#if BORDER == 0
    /* Lanes outside the row read its nearest element, then take the border value. */
    const CONV_IVEC outside = p < 0 || p >= n;
    const CONV_IVEC offset = clamp(e, (CONV_IVEC)(0), (CONV_IVEC)(width * CHANNELS - 1));
#else
    const CONV_IVEC c = e - p * CHANNELS;
#if BORDER == 1
    const CONV_IVEC folded = clamp(p, (CONV_IVEC)(0), n - 1);
#elif BORDER == 2
    const CONV_IVEC folded = select(select(p, 2 * n - 2 - p, p >= n), -p, p < 0);
#elif BORDER == 4
    const CONV_IVEC folded = select(select(p, 2 * n - 1 - p, p >= n), -p - 1, p < 0);
#else
    const CONV_IVEC folded = select(select(p, p - n, p >= n), p + n, p < 0);
#endif
    const CONV_IVEC offset = folded * CHANNELS + c;
#endif
    CONV_AVEC v;
#define CONV_EDGE_LANE(k) v.s##k = (CONV_ACC)row[offset.s##k];
    CONV_FOR_LANES(CONV_EDGE_LANE)
#undef CONV_EDGE_LANE
#if BORDER == 0
    v = select(v, (CONV_AVEC)(border), outside);
#endif
    w[j] = v;
  }
}

CONV_INLINE void conv_edge_vectors(CONV_AVEC* w, __global const DTYPE* row, const int width, const int e0,
                                   const CONV_ACC border) {
  if (row && conv_edge_in_reach(width, e0)) {
    conv_edge_lanes(w, row, width, e0, border);
    return;
  }
  CONV_ACC t[CONV_WINDOW * VEC];
  conv_edge_window(t, row, width, e0, border);
  for (int i = CONV_EDGE_WINDOW; i < CONV_WINDOW * VEC; ++i) t[i] = border; /* lanes no tap reads */
#pragma unroll
  for (int j = 0; j < CONV_WINDOW; ++j) w[j] = CONV_VLOAD(j, t);
}

/* (Direct kernels: CONV_ACC is float, USE_FIXED_POINT being refused with them.) Taps in order, as the interior. */
CONV_INLINE CONV_FVEC conv_direct_row_edge(CONV_FVEC acc, __global const DTYPE* row, const int width, const int e0,
                                           __constant float* taps, const int rx, const float border) {
  CONV_FVEC w[CONV_WINDOW];
  conv_edge_vectors(w, row, width, e0, border);
#pragma unroll
  for (int dx = 0; dx <= 2 * RADIUS_X; ++dx) acc = CONV_MACV(acc, CONV_TAP_VECTOR(w, dx), taps[dx]);
  return acc;
}
#else
CONV_INLINE CONV_FVEC conv_direct_row_edge(const CONV_FVEC acc, __global const DTYPE* row, const int width,
                                           const int e0, __constant float* taps, const int rx, const float border) {
  float t[VEC];
  CONV_VSTORE(acc, 0, t);
  for (int v = 0; v < VEC; ++v) {
    float a = t[v];
    for (int dx = 0; dx <= 2 * rx; ++dx)
      a = CONV_MAC(a, row ? conv_load_element(row, width, e0 + v + (dx - rx) * CHANNELS, border) : border, taps[dx]);
    t[v] = a;
  }
  return CONV_VLOAD(0, t);
}
#endif

/* The same for the separable kernels' row pass, from zero, in the accumulator type. */
#if USE_WINDOW && RADIUS_X >= 0
CONV_INLINE CONV_AVEC conv_row_inner(__global const DTYPE* row, const int e0, __constant CONV_ACC* taps, const int rx) {
  __global const DTYPE* s = row + e0 - RADIUS_X * CHANNELS;
  CONV_AVEC w[CONV_WINDOW];
#pragma unroll
  for (int j = 0; j < CONV_WINDOW; ++j) w[j] = CONV_TO_AVEC(CONV_VLOAD(j, s));
  CONV_AVEC acc = (CONV_ACC)0;
#pragma unroll
  for (int dx = 0; dx <= 2 * RADIUS_X; ++dx) acc += taps[dx] * CONV_TAP_VECTOR(w, dx);
  return acc;
}
#elif USE_SYMMETRIC
/* Symmetric row taps (taps[dx] == taps[2 rx - dx]): each pair of mirrored elements is added first (bytes: in
 * 16 bits, exactly), then multiplied once -- rx + 1 products instead of 2 rx + 1. The row sum is formed in
 * CONV_RVEC: 16-bit integers under USE_FIXED_POINT 1 (see CONV_RVEC), else the accumulator type. */
CONV_INLINE CONV_AVEC conv_row_inner(__global const DTYPE* row, const int e0, __constant CONV_ACC* taps,
                                     const int radius) {
  const int rx = CONV_HELPER_RX(radius);
  __global const DTYPE* s = row + e0 - rx * CHANNELS;
  CONV_RVEC acc = CONV_ROW_TAP(taps[rx]) * CONV_TO_RVEC(CONV_LOADU(s + rx * CHANNELS));
  CONV_UNROLL_TAPS
  for (int dx = 0; dx < rx; ++dx)
    acc += CONV_ROW_TAP(taps[dx]) * CONV_PAIR(CONV_LOADU(s + dx * CHANNELS), CONV_LOADU(s + (2 * rx - dx) * CHANNELS));
  return CONV_RVEC_TO_AVEC(acc);
}
#else
CONV_INLINE CONV_AVEC conv_row_inner(__global const DTYPE* row, const int e0, __constant CONV_ACC* taps,
                                     const int radius) {
  const int rx = CONV_HELPER_RX(radius);
  __global const DTYPE* s = row + e0 - rx * CHANNELS;
  CONV_RVEC acc = 0;
  CONV_UNROLL_TAPS
  for (int dx = 0; dx <= 2 * rx; ++dx) acc += CONV_ROW_TAP(taps[dx]) * CONV_TO_RVEC(CONV_LOADU(s + dx * CHANNELS));
  return CONV_RVEC_TO_AVEC(acc);
}
#endif

#if RADIUS_X >= 0
CONV_INLINE CONV_AVEC conv_row_edge(__global const DTYPE* row, const int width, const int e0, __constant CONV_ACC* taps,
                                    const int rx, const CONV_ACC border) {
  CONV_AVEC w[CONV_WINDOW];
  conv_edge_vectors(w, row, width, e0, border);
  CONV_AVEC acc = (CONV_ACC)0;
#pragma unroll
  for (int dx = 0; dx <= 2 * RADIUS_X; ++dx) acc += taps[dx] * CONV_TAP_VECTOR(w, dx);
  return acc;
}
#else
CONV_INLINE CONV_AVEC conv_row_edge(__global const DTYPE* row, const int width, const int e0, __constant CONV_ACC* taps,
                                    const int rx, const CONV_ACC border) {
  CONV_ACC t[VEC];
  for (int v = 0; v < VEC; ++v) {
    CONV_ACC a = 0;
    for (int dx = 0; dx <= 2 * rx; ++dx)
      a += taps[dx] * (row ? conv_load_element(row, width, e0 + v + (dx - rx) * CHANNELS, border) : border);
    t[v] = a;
  }
  return CONV_VLOAD(0, t);
}
#endif

/* The row pass of a whole row of border values (Constant): what conv_row_edge gives for it. */
CONV_ACC conv_constant_row(__constant CONV_ACC* taps, const int rx, const CONV_ACC border) {
  CONV_ACC a = 0;
  for (int dx = 0; dx <= 2 * rx; ++dx) a += taps[dx] * border;
  return a;
}

/* Row yy (-1: a row of border values) of src, or null. */
#define CONV_ROW_PTR(src, pitch, yy) ((yy) < 0 ? (__global const DTYPE*)0 : (src) + (long)(yy) * (pitch))

#define CONV_ROW_CHUNK(row, width, e0, inner, taps, rx, border) \
  ((inner) && (row) ? conv_row_inner((row), (e0), (taps), (rx)) \
                    : conv_row_edge((row), (width), (e0), (taps), (rx), (border)))

/* ---------------------------------------------------------------------------------------------------------
 * Direct filters
 * ------------------------------------------------------------------------------------------------------- */

#if CONV_HAS(1)
__kernel void convolve_direct_naive(const int width, const int height, __global const DTYPE* restrict src,
                                    const ulong src_offset, const int src_pitch, __global DTYPE* restrict dst,
                                    const ulong dst_offset, const int dst_pitch, __constant float* restrict filter,
                                    const int radius_x, const int radius_y, const float border_value) {
  const int x = get_global_id(0);
  const int y = get_global_id(1);
  if (x >= width || y >= height) return;
  src += src_offset;
  dst += dst_offset;
  const int rx = CONV_RX;
  const int ry = CONV_RY;
  float acc[CHANNELS];
#pragma unroll
  for (int c = 0; c < CHANNELS; ++c) acc[c] = 0.0f;
  for (int dy = 0; dy <= 2 * ry; ++dy) {
    const int yy = conv_row(y + dy - ry, height);
    __global const DTYPE* row = CONV_ROW_PTR(src, src_pitch, yy);
    for (int dx = 0; dx <= 2 * rx; ++dx) {
      const float f = filter[dy * (2 * rx + 1) + dx];
#pragma unroll
      for (int c = 0; c < CHANNELS; ++c) {
        const float v = row ? conv_load_element(row, width, (x + dx - rx) * CHANNELS + c, border_value) : border_value;
        acc[c] = CONV_MAC(acc[c], v, f);
      }
    }
  }
  __global DTYPE* out = dst + (long)y * dst_pitch + x * CHANNELS;
#pragma unroll
  for (int c = 0; c < CHANNELS; ++c) out[c] = CONV_TO_DTYPE(acc[c]);
}
#endif

#if CONV_HAS(2)
#if RADIUS_X >= 0 && RADIUS_Y >= 0
/* Tap vector dx of an interior chunk (s = the row at e0 - RADIUS_X CHANNELS): an unaligned load, or with
 * USE_WINDOW one of the window win's vectors or a shuffle of two. */
#if USE_WINDOW
#define CONV_DIRECT_TAP(s, win, dx) CONV_TAP_VECTOR(win, dx)
#else
#define CONV_DIRECT_TAP(s, win, dx) CONV_TO_FVEC(CONV_LOADU((s) + (dx)*CHANNELS))
#endif

/* Input row r of a strip of WPT_Y output rows from y0 (input row y0 - RADIUS_Y + r) added to the 2 RADIUS_Y + 1
 * output rows it belongs to: ring[j] is output row y0 + r - 2 RADIUS_Y + j, which takes this row with the filter's
 * row 2 RADIUS_Y - j. Each tap vector is read once and multiplied into every ring row; rows above y0 (j < 2 RADIUS_Y
 * - r) are not computed. Each output row receives its taps in row-major order, as the one-row path. Edge chunks
 * take their tap vectors from the border-ruled window win (conv_edge_vectors). */
CONV_INLINE void conv_direct_ring_row(CONV_FVEC* ring, __global const DTYPE* row, const int width, const int e0,
                                      const bool inner, __constant float* filter, const int r, const float border) {
  const bool interior = inner && row;
  __global const DTYPE* s = interior ? row + e0 - RADIUS_X * CHANNELS : row;
  CONV_FVEC win[CONV_WINDOW];
  if (!interior) {
    conv_edge_vectors(win, row, width, e0, border);
  } else {
#if USE_WINDOW
#pragma unroll
    for (int j = 0; j < CONV_WINDOW; ++j) win[j] = CONV_TO_FVEC(CONV_VLOAD(j, s));
#endif
  }
#pragma unroll
  for (int dx = 0; dx <= 2 * RADIUS_X; ++dx) {
    const CONV_FVEC v = interior ? CONV_DIRECT_TAP(s, win, dx) : CONV_TAP_VECTOR(win, dx);
#pragma unroll
    for (int j = 0; j <= 2 * RADIUS_Y; ++j)
      if (r + j >= 2 * RADIUS_Y) ring[j] = CONV_MACV(ring[j], v, filter[(2 * RADIUS_Y - j) * (2 * RADIUS_X + 1) + dx]);
  }
}
#endif

__kernel void convolve_direct_vector(const int width, const int height, __global const DTYPE* restrict src,
                                     const ulong src_offset, const int src_pitch, __global DTYPE* restrict dst,
                                     const ulong dst_offset, const int dst_pitch, __constant float* restrict filter,
                                     const int radius_x, const int radius_y, const float border_value) {
  const int row_e = width * CHANNELS;
  const int e0 = get_global_id(0) * VEC;
  const int y0 = get_global_id(1) * WPT_Y;
  if (e0 >= row_e || y0 >= height) return;
  src += src_offset;
  dst += dst_offset;
  const int rx = CONV_RX;
  const int ry = CONV_RY;
  const bool inner = CONV_INNER(e0, row_e);
  const bool aligned = CONV_ALIGNED(dst, dst_pitch);
#if RADIUS_X >= 0 && RADIUS_Y >= 0
  if (WPT_Y > 1) {
    /* A strip of rows with build-time radii: each input row is read once per work-item and added to the 2 RADIUS_Y
     * + 1 output rows of a ring of registers; the oldest is complete after each row. */
    const bool rows_inside = y0 - RADIUS_Y >= 0 && y0 + WPT_Y + RADIUS_Y <= height;
    CONV_FVEC ring[2 * RADIUS_Y + 1];
#pragma unroll
    for (int j = 0; j <= 2 * RADIUS_Y; ++j) ring[j] = 0.0f;
    for (int r = 0; r < WPT_Y + 2 * RADIUS_Y && y0 + r - 2 * RADIUS_Y < height; ++r) {
      const int yy = y0 - RADIUS_Y + r;
      conv_direct_ring_row(ring, CONV_ROW_PTR(src, src_pitch, rows_inside ? yy : conv_row(yy, height)), width, e0,
                           inner, filter, r, border_value);
      if (r >= 2 * RADIUS_Y)
        conv_store_dvec(dst + (long)(y0 + r - 2 * RADIUS_Y) * dst_pitch + e0, CONV_TO_DVEC(ring[0]), row_e - e0,
                        aligned);
#pragma unroll
      for (int j = 0; j < 2 * RADIUS_Y; ++j) ring[j] = ring[j + 1];
      ring[2 * RADIUS_Y] = 0.0f;
    }
    return;
  }
#endif
  /* One output row at a time (one row per work-item, or radii read at run time). */
  for (int y = y0; y < min(y0 + WPT_Y, height); ++y) {
    CONV_FVEC acc = 0.0f;
    for (int dy = 0; dy <= 2 * ry; ++dy) {
      __global const DTYPE* row = CONV_ROW_PTR(src, src_pitch, conv_row(y + dy - ry, height));
      __constant float* taps = filter + dy * (2 * rx + 1);
      /* USE_FMA: one chain of fused multiply-adds in tap order, as OpenCV; else each row's sum starts from 0 and
       * is added after, so that the rows' chains overlap (a 5x5 filter's 25 dependent multiply-adds per chunk
       * were bound by their latency). */
      const CONV_FVEC start = USE_FMA ? acc : (CONV_FVEC)(0.0f);
      const CONV_FVEC sum = inner && row ? conv_direct_row_inner(start, row, e0, taps, rx)
                                         : conv_direct_row_edge(start, row, width, e0, taps, rx, border_value);
      acc = USE_FMA ? sum : acc + sum;
    }
    conv_store_dvec(dst + (long)y * dst_pitch + e0, CONV_TO_DVEC(acc), row_e - e0, aligned);
  }
}
#endif

/* ---------------------------------------------------------------------------------------------------------
 * Separable filters
 * ------------------------------------------------------------------------------------------------------- */

#if CONV_HAS(4)
__kernel void convolve_rows_vector(const int width, const int height, __global const DTYPE* restrict src,
                                   const ulong src_offset, const int src_pitch, __global CONV_ACC* restrict work,
                                   const int work_pitch, __constant CONV_ACC* restrict row_filter, const int radius_x,
                                   const float border_value) {
  const int row_e = width * CHANNELS;
  const int e0 = get_global_id(0) * VEC;
  const int y = get_global_id(1);
  if (e0 >= row_e || y >= height) return;
  src += src_offset;
  const int rx = CONV_RX;
  const bool inner = CONV_INNER(e0, row_e);
  const CONV_AVEC acc =
      CONV_ROW_CHUNK(src + (long)y * src_pitch, width, e0, inner, row_filter, rx, (CONV_ACC)border_value);
  conv_store_acc(work + (long)y * work_pitch + e0, acc, row_e - e0, CONV_ALIGNED(work, work_pitch));
}

__kernel void convolve_cols_vector(const int width, const int height, __global const CONV_ACC* restrict work,
                                   const int work_pitch, __global DTYPE* restrict dst, const ulong dst_offset,
                                   const int dst_pitch, __constant CONV_ACC* restrict row_filter,
                                   __constant CONV_ACC* restrict col_filter, const int radius_x, const int radius_y,
                                   const float border_value, const uint4 fixed_point, const float fixed_scale) {
  const int row_e = width * CHANNELS;
  const int e0 = get_global_id(0) * VEC;
  const int y = get_global_id(1);
  if (e0 >= row_e || y >= height) return;
  dst += dst_offset;
  const int rx = CONV_RX;
  const int ry = CONV_RY;
  const bool aligned = CONV_ALIGNED(work, work_pitch);
  CONV_AVEC acc = (CONV_ACC)0;
  for (int dy = 0; dy <= 2 * ry; ++dy) {
    const int yy = conv_row(y + dy - ry, height);
    const CONV_AVEC m = yy < 0 ? (CONV_AVEC)(conv_constant_row(row_filter, rx, (CONV_ACC)border_value))
                               : conv_load_acc(work + (long)yy * work_pitch + e0, row_e - e0, aligned);
    acc += col_filter[dy] * m;
  }
  conv_store_dvec(dst + (long)y * dst_pitch + e0, conv_finish(acc, e0, fixed_point, fixed_scale), row_e - e0,
                  CONV_ALIGNED(dst, dst_pitch));
}

#endif

#if CONV_HAS(5)
/* The row pass of input row y (any integer: the border rule folds it) at the chunk e0; rows_inside: y needs no
 * folding. */
#define CONV_ROW_PASS(y)                                                                                    \
  CONV_ROW_CHUNK(CONV_ROW_PTR(src, src_pitch, rows_inside ? (y) : conv_row((y), height)), width, e0, inner, \
                 row_filter, rx, border)

#if RADIUS_Y >= 0
/* The column sum of the 2 RADIUS_Y + 1 row passes w[0 ..] (oldest first): mirrored pairs added first under
 * USE_SYMMETRIC. */
CONV_INLINE CONV_AVEC conv_column_sum(const CONV_AVEC* w, __constant CONV_ACC* col_filter) {
#if USE_SYMMETRIC
  CONV_AVEC acc = col_filter[RADIUS_Y] * w[RADIUS_Y];
#pragma unroll
  for (int j = 0; j < RADIUS_Y; ++j) acc += col_filter[j] * (w[j] + w[2 * RADIUS_Y - j]);
#else
  CONV_AVEC acc = (CONV_ACC)0;
#pragma unroll
  for (int j = 0; j <= 2 * RADIUS_Y; ++j) acc += col_filter[j] * w[j];
#endif
  return acc;
}
#endif

__kernel void convolve_separable_vector(const int width, const int height, __global const DTYPE* restrict src,
                                        const ulong src_offset, const int src_pitch, __global DTYPE* restrict dst,
                                        const ulong dst_offset, const int dst_pitch,
                                        __constant CONV_ACC* restrict row_filter,
                                        __constant CONV_ACC* restrict col_filter, const int radius_x,
                                        const int radius_y, const float border_value, const uint4 fixed_point,
                                        const float fixed_scale) {
  const int row_e = width * CHANNELS;
  const int e0 = get_global_id(0) * VEC;
  const int y0 = get_global_id(1) * WPT_Y;
  if (e0 >= row_e || y0 >= height) return;
  src += src_offset;
  dst += dst_offset;
  const int rx = CONV_RX;
  const int ry = CONV_RY;
  const CONV_ACC border = (CONV_ACC)border_value;
  const bool inner = CONV_INNER(e0, row_e);
  const bool rows_inside = y0 - ry >= 0 && y0 + WPT_Y + ry <= height; /* no row goes through the border rule */
  const bool aligned = CONV_ALIGNED(dst, dst_pitch);
#if RADIUS_Y >= 0
  /* A build-time radius: the 2 RADIUS_Y + 1 row-pass results an output row needs roll through registers, each
   * input row filtered once per work-item, one column sum per output row. */
  if (inner) {
    /* Most work-items: an inner chunk. No edge path, whole vectors stored: a loop of one row pass and (after the
     * first 2 RADIUS_Y + 1 rows) one column sum. The ring holds one row more than a column sum reads, and the
     * column sum of a row comes after the next row's pass: it reads row passes finished an iteration earlier, so
     * the out-of-order core overlaps it with the new pass (PoCL, 2026-12-07: 3-5% on the 9x9 Gaussian on bytes).
     * Rows beyond the image's top or bottom go through the border rule here too (a Constant one's row pass is
     * the border value's): images of few rows have no strip inside, and the general loop below cost them 1.5x
     * per pixel (PoCL, 1878x66x4 11x11 box on bytes, 2026-12-07). */
    const int rows_out = min(WPT_Y, height - y0);
    const CONV_ACC border_row = conv_constant_row(row_filter, rx, border);
    CONV_AVEC ring[2 * RADIUS_Y + 2];
#pragma unroll
    for (int j = 0; j < 2 * RADIUS_Y + 2; ++j) ring[j] = (CONV_ACC)0;
    __global const DTYPE* row = src + (long)(y0 - RADIUS_Y) * src_pitch;
    __global DTYPE* out = dst + (long)y0 * dst_pitch + e0;
    for (int r = 0; r <= rows_out + 2 * RADIUS_Y; ++r, row += src_pitch) {
#pragma unroll
      for (int j = 0; j <= 2 * RADIUS_Y; ++j) ring[j] = ring[j + 1];
      if (r < rows_out + 2 * RADIUS_Y) {
        __global const DTYPE* from =
            rows_inside ? row : CONV_ROW_PTR(src, src_pitch, conv_row(y0 - RADIUS_Y + r, height));
        ring[2 * RADIUS_Y + 1] = from ? conv_row_inner(from, e0, row_filter, rx) : (CONV_AVEC)(border_row);
      }
      if (r > 2 * RADIUS_Y) {
        const CONV_DVEC v = conv_finish(conv_column_sum(ring, col_filter), e0, fixed_point, fixed_scale);
        if (aligned) {
          *(__global CONV_DVEC*)out = v;
        } else {
          *(__global conv_dvec_unaligned*)out = v;
        }
        out += dst_pitch;
      }
    }
    return;
  }
  CONV_AVEC ring[2 * RADIUS_Y + 1];
#pragma unroll
  for (int j = 0; j <= 2 * RADIUS_Y; ++j) ring[j] = (CONV_ACC)0;
  /* One loop (one copy of the row pass with its edge path: PoCL's compile time grows with each): rows
   * y0 - RADIUS_Y .. first fill the ring, then each further row completes output row y0 + r - 2 RADIUS_Y. */
  for (int r = 0; r < WPT_Y + 2 * RADIUS_Y && y0 + r - 2 * RADIUS_Y < height; ++r) {
#pragma unroll
    for (int j = 0; j < 2 * RADIUS_Y; ++j) ring[j] = ring[j + 1];
    ring[2 * RADIUS_Y] = CONV_ROW_PASS(y0 - RADIUS_Y + r);
    if (r >= 2 * RADIUS_Y) {
      const int y = y0 + r - 2 * RADIUS_Y;
      conv_store_dvec(dst + (long)y * dst_pitch + e0,
                      conv_finish(conv_column_sum(ring, col_filter), e0, fixed_point, fixed_scale), row_e - e0,
                      aligned);
    }
  }
#else
  /* A run-time radius: each input row's row pass goes to the WPT_Y column sums it belongs to. */
  CONV_AVEC acc[WPT_Y];
#pragma unroll
  for (int k = 0; k < WPT_Y; ++k) acc[k] = (CONV_ACC)0;
  for (int r = 0; r < WPT_Y + 2 * ry; ++r) {
    const CONV_AVEC h = CONV_ROW_PASS(y0 + r - ry);
#pragma unroll
    for (int k = 0; k < WPT_Y; ++k) {
      const int dy = r - k;
      if (dy >= 0 && dy <= 2 * ry) acc[k] += col_filter[dy] * h;
    }
  }
#pragma unroll
  for (int k = 0; k < WPT_Y; ++k) {
    if (y0 + k < height)
      conv_store_dvec(dst + (long)(y0 + k) * dst_pitch + e0, conv_finish(acc[k], e0, fixed_point, fixed_scale),
                      row_e - e0, aligned);
  }
#endif
}

#endif

/* ---------------------------------------------------------------------------------------------------------
 * The GPU form for bytes: registers only, aligned 32-bit loads.
 * ------------------------------------------------------------------------------------------------------- */
#if CONVOLVE_VARIANT == 7 && !(RADIUS_X >= 0 && RADIUS_Y >= 0)
#error "convolve.cl: convolve_separable_ring (CONVOLVE_VARIANT 7) needs build-time radii"
#endif
#if CONV_HAS(7) && RADIUS_X >= 0 && RADIUS_Y >= 0
#define RING_ROWS (2 * RADIUS_Y + 1)               /* row-pass results a column sum reads */
#define RING_BYTES (VEC + 2 * RADIUS_X * CHANNELS) /* a chunk's row window, elements */
#define RING_WORDS ((RING_BYTES + 3) / 4)          /* aligned words that cover it when it starts aligned */
/* The chunk at e0 reads whole 32-bit words inside its row: its window plus up to 3 bytes each side. */
#define RING_INNER(e0, row_e) ((e0)-RADIUS_X * CHANNELS >= 3 && (e0) + VEC + RADIUS_X * CHANNELS + 3 <= (row_e))

/* The row filter over a chunk's window b (RING_BYTES elements), its VEC results into h. */
CONV_INLINE void conv_ring_taps(CONV_ACC* h, const CONV_ACC* b, __constant CONV_ACC* taps) {
#pragma unroll
  for (int i = 0; i < VEC; ++i) {
    CONV_ACC a = 0;
#pragma unroll
    for (int d = 0; d <= 2 * RADIUS_X; ++d) a += taps[d] * b[i + d * CHANNELS];
    h[i] = a;
  }
}

/* The row pass of an inner chunk at element e0 of a row into h. Bytes: it loads the aligned words that hold the
 * chunk's window (unaligned byte vectors are byte loads on some GPUs) and shifts each pair of words into place;
 * other types load element by element. */
CONV_INLINE void conv_ring_row(CONV_ACC* h, __global const DTYPE* row, const int e0, __constant CONV_ACC* taps) {
  CONV_ACC b[RING_BYTES];
#if CONV_DTYPE_IS_UCHAR
  __global const uchar* s = row + e0 - RADIUS_X * CHANNELS;
  const uint m = (uint)((uintptr_t)s & 3u);
  __global const uint* p = (__global const uint*)(s - m);
  uint w[RING_WORDS + 1];
#pragma unroll
  for (int k = 0; k < RING_WORDS; ++k) w[k] = p[k];
  w[RING_WORDS] = m + RING_BYTES > 4 * RING_WORDS ? p[RING_WORDS] : 0u;
#pragma unroll
  for (int k = 0; k < RING_WORDS; ++k) {
    const uint x = (uint)(upsample(w[k + 1], w[k]) >> (8 * m));
#pragma unroll
    for (int i = 0; i < 4; ++i) {
      if (4 * k + i < RING_BYTES) b[4 * k + i] = (CONV_ACC)((x >> (8 * i)) & 0xFFu);
    }
  }
#else
#pragma unroll
  for (int i = 0; i < RING_BYTES; ++i) b[i] = (CONV_ACC)row[e0 - RADIUS_X * CHANNELS + i];
#endif
  conv_ring_taps(h, b, taps);
}

/* The row pass of a chunk near a row's ends: its window's elements at offsets idx in the row (the border rule
 * applied once per work-item; -1: the border value). */
CONV_INLINE void conv_ring_edge_row(CONV_ACC* h, __global const DTYPE* row, const int* idx, __constant CONV_ACC* taps,
                                    const CONV_ACC border) {
  CONV_ACC b[RING_BYTES];
#pragma unroll
  for (int i = 0; i < RING_BYTES; ++i) b[i] = row && idx[i] >= 0 ? (CONV_ACC)row[idx[i]] : border;
  conv_ring_taps(h, b, taps);
}

/* Output row y0 + r - 2 RADIUS_Y from the ring (oldest row first), finished and stored. */
CONV_INLINE void conv_ring_column(CONV_ACC ring[RING_ROWS][VEC], __global DTYPE* dst, const int dst_pitch,
                                  const int row_e, const int e0, const int y, __constant CONV_ACC* col_filter,
                                  const bool aligned, const uint4 fixed_point, const float fixed_scale) {
  CONV_ACC acc[VEC];
#pragma unroll
  for (int i = 0; i < VEC; ++i) {
    CONV_ACC a = 0;
#pragma unroll
    for (int t = 0; t < RING_ROWS; ++t) a += col_filter[t] * ring[t][i];
    acc[i] = a;
  }
  conv_store_dvec(dst + (long)y * dst_pitch + e0, conv_finish(CONV_VLOAD(0, acc), e0, fixed_point, fixed_scale),
                  row_e - e0, aligned);
}

/* The ring moves up one row: slot t takes slot t + 1 (constant indices: registers are renamed, not copied, where
 * the row loop unrolls). */
#define CONV_RING_SHIFT(ring)                                                    \
  _Pragma("unroll") for (int t = 0; t < RING_ROWS - 1; ++t) {                    \
    _Pragma("unroll") for (int i = 0; i < VEC; ++i) ring[t][i] = ring[t + 1][i]; \
  }

__kernel void convolve_separable_ring(const int width, const int height, __global const DTYPE* restrict src,
                                      const ulong src_offset, const int src_pitch, __global DTYPE* restrict dst,
                                      const ulong dst_offset, const int dst_pitch,
                                      __constant CONV_ACC* restrict row_filter,
                                      __constant CONV_ACC* restrict col_filter, const int radius_x, const int radius_y,
                                      const float border_value, const uint4 fixed_point, const float fixed_scale) {
  const int row_e = width * CHANNELS;
  const int e0 = get_global_id(0) * VEC;
  const int y0 = get_global_id(1) * WPT_Y;
  if (e0 >= row_e || y0 >= height) return;
  src += src_offset;
  dst += dst_offset;
  const CONV_ACC border = (CONV_ACC)border_value;
  const bool aligned = CONV_ALIGNED(dst, dst_pitch);
  /* Input rows y0 - RADIUS_Y + r; once the ring holds 2 RADIUS_Y + 1 of them, each further row completes output
   * row y0 + r - 2 RADIUS_Y. */
  CONV_ACC ring[RING_ROWS][VEC];
  if (RING_INNER(e0, row_e) && y0 - RADIUS_Y >= 0 && y0 + WPT_Y + RADIUS_Y <= height) {
    /* Inside the image: fully unrolled, without a branch (the ring's moves become renamings, and the compiler can
     * issue later rows' loads early; run 9e's form, which guarded each row as the other chunks need, ran 4x slower
     * than the branch-free prototype on the H200). */
    __global const DTYPE* first = src + (long)(y0 - RADIUS_Y) * src_pitch;
#pragma unroll
    for (int r = 0; r < WPT_Y + 2 * RADIUS_Y; ++r) {
      CONV_RING_SHIFT(ring)
      conv_ring_row(ring[RING_ROWS - 1], first + (long)r * src_pitch, e0, row_filter);
      if (r >= 2 * RADIUS_Y)
        conv_ring_column(ring, dst, dst_pitch, row_e, e0, y0 + r - 2 * RADIUS_Y, col_filter, aligned, fixed_point,
                         fixed_scale);
    }
  } else {
    /* Chunks near the image's edges and in its last, partial strip (few): the border rule once per window element,
     * then one rolled copy of the loop, the ring moved by copies. (Folding every element of every row made these
     * work-items the kernel's critical path, run 9d.) */
    int idx[RING_BYTES];
#pragma unroll
    for (int i = 0; i < RING_BYTES; ++i) idx[i] = conv_element_offset(e0 - RADIUS_X * CHANNELS + i, width);
    const int rows = min(WPT_Y, height - y0) + 2 * RADIUS_Y;
#pragma unroll 1
    for (int r = 0; r < rows; ++r) {
      CONV_RING_SHIFT(ring)
      const int yy = conv_row(y0 - RADIUS_Y + r, height);
      conv_ring_edge_row(ring[RING_ROWS - 1], yy < 0 ? 0 : src + (long)yy * src_pitch, idx, row_filter, border);
      if (r >= 2 * RADIUS_Y)
        conv_ring_column(ring, dst, dst_pitch, row_e, e0, y0 + r - 2 * RADIUS_Y, col_filter, aligned, fixed_point,
                         fixed_scale);
    }
  }
}
#endif

/* ---------------------------------------------------------------------------------------------------------
 * The GPU form for integer sums of bytes: 32-bit words, two 16-bit lanes per add.
 * ------------------------------------------------------------------------------------------------------- */
#if CONVOLVE_VARIANT == 8 && !(CONV_DTYPE_IS_UCHAR && RADIUS_X >= 0 && RADIUS_Y >= 0 && USE_FIXED_POINT != 2 && \
                               (USE_INTEGER_TAPS == 1 || USE_INTEGER_TAPS == 2))
#error "convolve.cl: CONVOLVE_VARIANT 8 (words) needs uchar, build-time radii and USE_INTEGER_TAPS 1 or 2"
#endif
#if CONV_HAS(8) && RADIUS_X >= 0 && RADIUS_Y >= 0 && USE_FIXED_POINT != 2
#define WORDS_HALO ((RADIUS_X * CHANNELS + 3) / 4) /* words each side of a work-group's output */
#define WORDS_BAND (WPW * WORDS_WG)                /* word columns a work-group sums */
#define WORDS_OUT (WORDS_BAND - 2 * WORDS_HALO)    /* of which its output */
#define WORDS_ROWS (WPT_Y + 2 * RADIUS_Y)          /* input rows a work-group reads */
#define WORDS_TAPS ((2 * RADIUS_X + 1) * (2 * RADIUS_Y + 1))
#if WORDS_OUT < 1
#error "convolve.cl: convolve_separable_words needs WPW * WORDS_WG > 2 * ceil(RADIUS_X * CHANNELS / 4)"
#endif
#if USE_PACKED_SUMS && !(USE_INTEGER_TAPS == 1 && 255 * WORDS_TAPS < 65536)
#error "convolve.cl: USE_PACKED_SUMS needs taps of 1 (USE_INTEGER_TAPS 1) and 255 * taps < 2^16"
#endif
/* Bytes 0 and 2, and bytes 1 and 3, of a word as two 16-bit lanes. */
#define WORDS_LO(w) ((w)&0x00FF00FFu)
#define WORDS_HI(w) (((w) >> 8) & 0x00FF00FFu)
/* Column tap j (USE_INTEGER_TAPS 2: the host's integers, held in floats). */
#define WORDS_COL_TAP(j) ((uint)col_filter[j])
#define WORDS_ROW_TAP(k) ((uint)row_filter[k])

/* Word column wc (elements 4 wc .. 4 wc + 3) of input row y, little-endian, through the border rule: words
 * inside the row one 4-byte load (aligned or not), the others byte by byte. */
uint words_load(__global const uchar* src, const int src_pitch, const int width, const int height, const int wc,
                const int y, const uint border) {
  const int yy = conv_row(y, height);
  if (yy < 0) return border * 0x01010101u;
  __global const uchar* row = src + (long)yy * src_pitch;
  if (wc >= 0 && 4 * wc + 4 <= width * CHANNELS) return as_uint(vload4(0, row + 4 * wc));
  uint w = 0;
  for (int i = 0; i < 4; ++i) {
    const int offset = conv_element_offset(4 * wc + i, width);
    w |= (offset >= 0 ? (uint)row[offset] : border) << (8 * i);
  }
  return w;
}

/* The byte of an integer sum s. */
uint words_finish(const uint s, const uint4 fixed_point) {
#if USE_FIXED_POINT == 1
  return min(((s + fixed_point.x) * fixed_point.y) >> fixed_point.z, 255u);
#else
  /* s / WORDS_TAPS rounded to nearest (the tap count is odd: no ties): floor((2 s + d) / 2d) as a multiply-high by
   * floor(2^32 / 2d) + 1, exact for 2 s + d <= 511 d when 1022 d^2 < 2^32 (d <= 33 * 33 here). */
  return mul_hi(2 * s + WORDS_TAPS, (uint)(0xFFFFFFFFu / (2u * WORDS_TAPS)) + 1u);
#endif
}

__kernel __attribute__((reqd_work_group_size(WORDS_WG, 1, 1))) void convolve_separable_words(
    const int width, const int height, __global const uchar* restrict src, const ulong src_offset, const int src_pitch,
    __global uchar* restrict dst, const ulong dst_offset, const int dst_pitch, __constant CONV_ACC* restrict row_filter,
    __constant CONV_ACC* restrict col_filter, const int radius_x, const int radius_y, const float border_value,
    const uint4 fixed_point, const float fixed_scale) {
  __local uint sums_lo[WPT_Y][WORDS_BAND], sums_hi[WPT_Y][WORDS_BAND];
  src += src_offset;
  dst += dst_offset;
  const int lid = get_local_id(0);
  const int row_e = width * CHANNELS, row_words = (row_e + 3) / 4;
  const int band = (int)get_group_id(0) * WORDS_OUT - WORDS_HALO; /* the band's first word column */
  const int y0 = (int)get_group_id(1) * WPT_Y;
  const uint border = (uint)border_value;
  /* Work-groups whose band and rows lie inside the image, on a word-aligned image: plain word loads. */
  const bool inside = band >= 0 && band + WORDS_BAND <= row_e / 4 && y0 >= RADIUS_Y &&
                      y0 + WPT_Y + RADIUS_Y <= height && (src_offset & 3) == 0 && (src_pitch & 3) == 0;
  /* Phase 1: each word column's sums over the 2 RADIUS_Y + 1 rows of each output row, two lanes per word. */
#pragma unroll
  for (int q = 0; q < WPW; ++q) {
    const int col = lid + q * WORDS_WG, wc = band + col;
    uint w[WORDS_ROWS];
    if (inside) {
      __global const uint* p = (__global const uint*)(src + (long)(y0 - RADIUS_Y) * src_pitch) + wc;
#pragma unroll
      for (int r = 0; r < WORDS_ROWS; ++r) w[r] = p[(long)r * (src_pitch / 4)];
    } else {
      for (int r = 0; r < WORDS_ROWS; ++r)
        w[r] = words_load(src, src_pitch, width, height, wc, y0 - RADIUS_Y + r, border);
    }
#if USE_INTEGER_TAPS == 1
    /* Taps of 1: a running sum down the column. */
    uint lo = 0, hi = 0;
#pragma unroll
    for (int r = 0; r < 2 * RADIUS_Y; ++r) {
      lo += WORDS_LO(w[r]);
      hi += WORDS_HI(w[r]);
    }
#pragma unroll
    for (int r = 0; r < WPT_Y; ++r) {
      lo += WORDS_LO(w[r + 2 * RADIUS_Y]);
      hi += WORDS_HI(w[r + 2 * RADIUS_Y]);
      sums_lo[r][col] = lo;
      sums_hi[r][col] = hi;
      lo -= WORDS_LO(w[r]);
      hi -= WORDS_HI(w[r]);
    }
#else
#pragma unroll
    for (int r = 0; r < WPT_Y; ++r) {
#if USE_SYMMETRIC
      /* Mirrored rows added first: lanes up to 510 times a tap of at most 128 (two equal taps of a sum of 256). */
      uint lo = WORDS_COL_TAP(RADIUS_Y) * WORDS_LO(w[r + RADIUS_Y]);
      uint hi = WORDS_COL_TAP(RADIUS_Y) * WORDS_HI(w[r + RADIUS_Y]);
#pragma unroll
      for (int j = 0; j < RADIUS_Y; ++j) {
        const uint a = w[r + j], b = w[r + 2 * RADIUS_Y - j];
        lo += WORDS_COL_TAP(j) * (WORDS_LO(a) + WORDS_LO(b));
        hi += WORDS_COL_TAP(j) * (WORDS_HI(a) + WORDS_HI(b));
      }
#else
      uint lo = 0, hi = 0;
#pragma unroll
      for (int j = 0; j <= 2 * RADIUS_Y; ++j) {
        lo += WORDS_COL_TAP(j) * WORDS_LO(w[r + j]);
        hi += WORDS_COL_TAP(j) * WORDS_HI(w[r + j]);
      }
#endif
      sums_lo[r][col] = lo;
      sums_hi[r][col] = hi;
    }
#endif
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  /* Phase 2: along the rows, output words WORDS_HALO + lid WPW + m (m < WPW) of the band; each row's neighbourhood of
   * column sums read once for the item's WPW words. */
  const bool aligned = (dst_offset & 3) == 0 && (dst_pitch & 3) == 0;
  const int col0 = WORDS_HALO + lid * WPW, wc0 = band + col0;
  if (col0 >= WORDS_BAND - WORDS_HALO || wc0 >= row_words) return;
  __global uchar* out = dst + (long)y0 * dst_pitch + 4 * wc0;
  for (int r = 0; r < WPT_Y && y0 + r < height; ++r, out += dst_pitch) {
    uint lo[WPW + 2 * WORDS_HALO], hi[WPW + 2 * WORDS_HALO];
#pragma unroll
    for (int k = 0; k < WPW + 2 * WORDS_HALO; ++k) {
      const int c = min(col0 - WORDS_HALO + k, WORDS_BAND - 1); /* beyond the band: feeds no output */
      lo[k] = sums_lo[r][c];
      hi[k] = sums_hi[r][c];
    }
#pragma unroll
    for (int m = 0; m < WPW; ++m) {
      /* Element g of the neighbourhood (from word col0 - WORDS_HALO) is word g / 4's element g % 4; output word m's
       * element i reads elements i + k CHANNELS + WORDS_G0, k = 0 .. 2 RADIUS_X. */
#define WORDS_G0 (4 * m + 4 * WORDS_HALO - RADIUS_X * CHANNELS)
      uint s[4];
#if USE_PACKED_SUMS
      /* Two outputs an add: element sums g and g + 2 as two lanes; the upper lane of one word and the lower of the
       * next as a shuffle of 16-bit halves (a permute on GPUs; as shifts, LLVM makes a funnel shift of them, which
       * oclgrind 21.10 cannot run). */
#define WORDS_OF(g, q) (((g)&1) ? hi[q] : lo[q])
#define WORDS_STRADDLE(a, b) as_uint((ushort2)(as_ushort2(a).y, as_ushort2(b).x))
#define WORDS_PAIR(g) \
  (((g)&2) ? WORDS_STRADDLE(WORDS_OF(g, (g) >> 2), WORDS_OF(g, ((g) >> 2) + 1)) : WORDS_OF(g, (g) >> 2))
#pragma unroll
      for (int i = 0; i < 2; ++i) {
        uint a = 0;
#pragma unroll
        for (int k = 0; k <= 2 * RADIUS_X; ++k) a += WORDS_PAIR(i + k * CHANNELS + WORDS_G0);
        s[i] = a & 0xFFFFu;
        s[i + 2] = a >> 16;
      }
#else
      /* v[o]: the column sum of element 4 (wc0 + m) - RADIUS_X CHANNELS + o. */
      uint v[4 + 2 * RADIUS_X * CHANNELS];
#pragma unroll
      for (int o = 0; o < 4 + 2 * RADIUS_X * CHANNELS; ++o) {
        const int g = o + WORDS_G0;
        const uint packed = (g & 1) ? hi[g >> 2] : lo[g >> 2];
        v[o] = (g & 2) ? packed >> 16 : packed & 0xFFFFu;
      }
#if USE_INTEGER_TAPS == 1
      /* A running sum along each channel. */
#pragma unroll
      for (int i = 0; i < 4; ++i) {
        if (i < CHANNELS) {
          uint a = 0;
#pragma unroll
          for (int k = 0; k <= 2 * RADIUS_X; ++k) a += v[i + k * CHANNELS];
          s[i] = a;
        } else {
          s[i] = s[i - CHANNELS] + v[i + 2 * RADIUS_X * CHANNELS] - v[i - CHANNELS];
        }
      }
#else
#pragma unroll
      for (int i = 0; i < 4; ++i) {
#if USE_SYMMETRIC
        uint a = WORDS_ROW_TAP(RADIUS_X) * v[i + RADIUS_X * CHANNELS];
#pragma unroll
        for (int k = 0; k < RADIUS_X; ++k)
          a += WORDS_ROW_TAP(k) * (v[i + k * CHANNELS] + v[i + (2 * RADIUS_X - k) * CHANNELS]);
#else
        uint a = 0;
#pragma unroll
        for (int k = 0; k <= 2 * RADIUS_X; ++k) a += WORDS_ROW_TAP(k) * v[i + k * CHANNELS];
#endif
        s[i] = a;
      }
#endif
#endif
      const int wc = wc0 + m;
      if (col0 + m >= WORDS_BAND - WORDS_HALO || wc >= row_words) break;
      const uint word = words_finish(s[0], fixed_point) | words_finish(s[1], fixed_point) << 8 |
                        words_finish(s[2], fixed_point) << 16 | words_finish(s[3], fixed_point) << 24;
      if (aligned && 4 * wc + 4 <= row_e) {
        *(__global uint*)(out + 4 * m) = word;
      } else {
        for (int i = 0; i < 4; ++i)
          if (4 * wc + i < row_e) out[4 * m + i] = (uchar)(word >> (8 * i));
      }
#undef WORDS_G0
    }
  }
}
#endif

/* ---------------------------------------------------------------------------------------------------------
 * Tiled (local-memory) kernels: only with build-time radii.
 * ------------------------------------------------------------------------------------------------------- */
#if RADIUS_X >= 0 && RADIUS_Y >= 0 && (CONV_HAS(3) || CONV_HAS(6))

#define TILE_E (TILE_X * CHANNELS)                             /* tile width in elements */
#define HALO_E (((RADIUS_X * CHANNELS + VEC - 1) / VEC) * VEC) /* loaded halo each side */
#define IN_W (TILE_E + 2 * HALO_E)                             /* loaded row, elements */
#define IN_H (TILE_Y + 2 * RADIUS_Y)                           /* loaded rows */
#define IN_PITCH (IN_W + PAD)
#define MID_PITCH (TILE_E + PAD)
#define WG_X (TILE_E / VEC)
#define WG_Y (TILE_Y / WPT_Y)
#define WINDOW (VEC + 2 * HALO_E) /* elements a work-item reads from one local row */

#if TILE_E % VEC != 0
#error "convolve.cl: TILE_X * CHANNELS must be a multiple of VEC"
#endif
#if TILE_Y % WPT_Y != 0
#error "convolve.cl: TILE_Y must be a multiple of WPT_Y"
#endif
#if PAD % VEC != 0
#error "convolve.cl: PAD must be a multiple of VEC"
#endif

/* The chunk of VEC elements starting at element e of an input row (row index yy after the border rule, -1 for
 * a row of border values), in the accumulator type. Chunks inside the row take one vector load, the others go
 * element by element through the border rule: only the work-items at the left and right image edges take
 * that path. */
CONV_AVEC conv_load_chunk(__global const DTYPE* src, const int src_pitch, const int width, const int yy, const int e,
                          const bool aligned, const CONV_ACC border) {
  if (yy < 0) return (CONV_AVEC)(border);
  __global const DTYPE* row = src + (long)yy * src_pitch;
  if (e >= 0 && e + VEC <= width * CHANNELS) {
    return aligned ? CONV_TO_AVEC(*(__global const CONV_DVEC*)(row + e)) : CONV_TO_AVEC(CONV_VLOAD(0, row + e));
  }
  CONV_ACC t[VEC];
  for (int v = 0; v < VEC; ++v) t[v] = conv_load_element(row, width, e + v, border);
  return CONV_VLOAD(0, t);
}

/* Copies the input tile (rows y0 - RADIUS_Y .., elements x0 * CHANNELS - HALO_E ..) into local memory in the
 * accumulator type, one chunk per step. interior: the whole loaded region lies inside the image (no checks
 * at all); otherwise each chunk's row goes through the border rule and chunks that cross the left or right
 * edge are gathered element by element. aligned: src chunks are aligned. Constant trip counts, unrolled, so
 * that every load of a work-item is in flight at once. */
void conv_load_tile(__local CONV_ACC* tile, __global const DTYPE* src, const int src_pitch, const int width,
                    const int height, const int x0, const int y0, const bool interior, const bool aligned,
                    const CONV_ACC border) {
  const int lid = get_local_id(1) * WG_X + get_local_id(0);
  const int e_start = x0 * CHANNELS - HALO_E;
  const int y_start = y0 - RADIUS_Y;
  if (interior) {
#pragma unroll
    for (int k = 0; k < (IN_H * (IN_W / VEC) + WG_X * WG_Y - 1) / (WG_X * WG_Y); ++k) {
      const int i = lid + k * WG_X * WG_Y;
      if (i < IN_H * (IN_W / VEC)) {
        const int r = i / (IN_W / VEC);
        const int c = (i - r * (IN_W / VEC)) * VEC;
        __global const DTYPE* p = src + (long)(y_start + r) * src_pitch + e_start + c;
        *(__local CONV_AVEC*)(tile + r * IN_PITCH + c) =
            aligned ? CONV_TO_AVEC(*(__global const CONV_DVEC*)p) : CONV_TO_AVEC(CONV_VLOAD(0, p));
      }
    }
  } else {
#pragma unroll
    for (int k = 0; k < (IN_H * (IN_W / VEC) + WG_X * WG_Y - 1) / (WG_X * WG_Y); ++k) {
      const int i = lid + k * WG_X * WG_Y;
      if (i < IN_H * (IN_W / VEC)) {
        const int r = i / (IN_W / VEC);
        const int c = (i - r * (IN_W / VEC)) * VEC;
        *(__local CONV_AVEC*)(tile + r * IN_PITCH + c) =
            conv_load_chunk(src, src_pitch, width, conv_row(y_start + r, height), e_start + c, aligned, border);
      }
    }
  }
}

#define CONV_TILE_INTERIOR(x0, y0, row_e, height)                                                     \
  ((x0)*CHANNELS - HALO_E >= 0 && (x0)*CHANNELS + TILE_E + HALO_E <= (row_e) && (y0)-RADIUS_Y >= 0 && \
   (y0) + TILE_Y + RADIUS_Y <= (height))

#endif /* the tiled kernels' common part */

#if RADIUS_X >= 0 && RADIUS_Y >= 0 && CONV_HAS(3)
__kernel __attribute__((reqd_work_group_size(WG_X, WG_Y, 1))) void convolve_direct_tiled(
    const int width, const int height, __global const DTYPE* restrict src, const ulong src_offset, const int src_pitch,
    __global DTYPE* restrict dst, const ulong dst_offset, const int dst_pitch, __constant float* restrict filter,
    const int radius_x, const int radius_y, const float border_value) {
  __local CONV_FVEC tile_storage[IN_H * IN_PITCH / VEC];
  __local float* tile = (__local float*)tile_storage;
  src += src_offset;
  dst += dst_offset;
  const int lx = get_local_id(0);
  const int ly = get_local_id(1);
  const int x0 = get_group_id(0) * TILE_X;
  const int y0 = get_group_id(1) * TILE_Y;
  const int row_e = width * CHANNELS;
  conv_load_tile(tile, src, src_pitch, width, height, x0, y0, CONV_TILE_INTERIOR(x0, y0, row_e, height),
                 CONV_ALIGNED(src, src_pitch), border_value);
  barrier(CLK_LOCAL_MEM_FENCE);

  float acc[WPT_Y][VEC];
#pragma unroll
  for (int k = 0; k < WPT_Y; ++k) {
#pragma unroll
    for (int v = 0; v < VEC; ++v) acc[k][v] = 0.0f;
  }
  /* Input row r of this work-item's window feeds output row k through filter row dy = r - k: for each output,
   * the taps come in row-major order (what USE_FMA needs). */
  for (int r = 0; r < WPT_Y + 2 * RADIUS_Y; ++r) {
    /* The window of local row (ly * WPT_Y + r), read once into registers with aligned vector reads. */
    float w[WINDOW];
    __local const float* wp = tile + (ly * WPT_Y + r) * IN_PITCH + lx * VEC;
#pragma unroll
    for (int j = 0; j < WINDOW / VEC; ++j) CONV_VSTORE(*(__local const CONV_FVEC*)(wp + j * VEC), j, w);
#pragma unroll
    for (int k = 0; k < WPT_Y; ++k) {
      const int dy = r - k;
      if (dy >= 0 && dy <= 2 * RADIUS_Y) {
        __constant float* f = filter + dy * (2 * RADIUS_X + 1);
#pragma unroll
        for (int dx = 0; dx <= 2 * RADIUS_X; ++dx) {
          const float c = f[dx];
#pragma unroll
          for (int v = 0; v < VEC; ++v) acc[k][v] = CONV_MAC(acc[k][v], w[HALO_E + (dx - RADIUS_X) * CHANNELS + v], c);
        }
      }
    }
  }

  const int e = x0 * CHANNELS + lx * VEC;
  const bool aligned = CONV_ALIGNED(dst, dst_pitch);
#pragma unroll
  for (int k = 0; k < WPT_Y; ++k) {
    const int y = y0 + ly * WPT_Y + k;
    if (y < height && e < row_e) {
      conv_store_dvec(dst + (long)y * dst_pitch + e, CONV_TO_DVEC(CONV_VLOAD(0, acc[k])), row_e - e, aligned);
    }
  }
}
#endif

#if RADIUS_X >= 0 && RADIUS_Y >= 0 && CONV_HAS(6)
#define CONV_ROWS_PER_ITEM ((IN_H + WG_Y - 1) / WG_Y) /* row-pass rows per work-item (the last may be idle) */

/* The row filter over one window of WINDOW elements (the chunk and HALO_E elements each side), its VEC results
 * stored at out. */
void conv_filter_window(__local CONV_ACC* out, const CONV_ACC* w, __constant CONV_ACC* row_filter) {
  CONV_ACC a[VEC];
#pragma unroll
  for (int v = 0; v < VEC; ++v) a[v] = 0;
#pragma unroll
  for (int dx = 0; dx <= 2 * RADIUS_X; ++dx) {
    const CONV_ACC c = row_filter[dx];
#pragma unroll
    for (int v = 0; v < VEC; ++v) a[v] += c * w[HALO_E + (dx - RADIUS_X) * CHANNELS + v];
  }
  *(__local CONV_AVEC*)out = CONV_VLOAD(0, a);
}

/* Loads this work-item's window of row-pass row r (WINDOW elements from HALO_E left of its chunk) into w:
 * from the local input tile (USE_LOCAL_INPUT), else straight from global memory, where neighbouring
 * work-items read overlapping windows that the cache serves. */
#if USE_LOCAL_INPUT
#define CONV_LOAD_WINDOW(w, r) conv_window_local((w), tile + (r)*IN_PITCH + lx * VEC)
void conv_window_local(CONV_ACC* w, __local const CONV_ACC* wp) {
#pragma unroll
  for (int j = 0; j < WINDOW / VEC; ++j) CONV_VSTORE(*(__local const CONV_AVEC*)(wp + j * VEC), j, w);
}
#else
#define CONV_LOAD_WINDOW(w, r)                                                                                   \
  conv_window_global((w), src, src_pitch, width, height, y0 - RADIUS_Y + (r), x0 * CHANNELS + lx * VEC - HALO_E, \
                     interior, src_aligned, border)
void conv_window_global(CONV_ACC* w, __global const DTYPE* src, const int src_pitch, const int width, const int height,
                        const int y, const int e_start, const bool interior, const bool aligned,
                        const CONV_ACC border) {
  if (interior) {
    __global const DTYPE* wp = src + (long)y * src_pitch + e_start;
#pragma unroll
    for (int j = 0; j < WINDOW / VEC; ++j) {
      const CONV_AVEC v =
          aligned ? CONV_TO_AVEC(*(__global const CONV_DVEC*)(wp + j * VEC)) : CONV_TO_AVEC(CONV_VLOAD(j, wp));
      CONV_VSTORE(v, j, w);
    }
  } else {
    const int yy = conv_row(y, height);
#pragma unroll
    for (int j = 0; j < WINDOW / VEC; ++j)
      CONV_VSTORE(conv_load_chunk(src, src_pitch, width, yy, e_start + j * VEC, aligned, border), j, w);
  }
}
#endif

__kernel __attribute__((reqd_work_group_size(WG_X, WG_Y, 1))) void convolve_separable_tiled(
    const int width, const int height, __global const DTYPE* restrict src, const ulong src_offset, const int src_pitch,
    __global DTYPE* restrict dst, const ulong dst_offset, const int dst_pitch, __constant CONV_ACC* restrict row_filter,
    __constant CONV_ACC* restrict col_filter, const int radius_x, const int radius_y, const float border_value,
    const uint4 fixed_point, const float fixed_scale) {
#if USE_LOCAL_INPUT
  __local CONV_AVEC tile_storage[IN_H * IN_PITCH / VEC];
  __local CONV_ACC* tile = (__local CONV_ACC*)tile_storage;
#endif
  __local CONV_AVEC mid_storage[IN_H * MID_PITCH / VEC];
  __local CONV_ACC* mid = (__local CONV_ACC*)mid_storage;
  src += src_offset;
  dst += dst_offset;
  const int lx = get_local_id(0);
  const int ly = get_local_id(1);
  const int x0 = get_group_id(0) * TILE_X;
  const int y0 = get_group_id(1) * TILE_Y;
  const int row_e = width * CHANNELS;
  const CONV_ACC border = (CONV_ACC)border_value;
  const bool interior = CONV_TILE_INTERIOR(x0, y0, row_e, height);
  const bool src_aligned = CONV_ALIGNED(src, src_pitch);
#if USE_LOCAL_INPUT
  conv_load_tile(tile, src, src_pitch, width, height, x0, y0, interior, src_aligned, border);
  barrier(CLK_LOCAL_MEM_FENCE);
#endif

  /* Row pass: every row of the tile plus its vertical halo, this work-item's chunk. USE_PREFETCH 1 loads the
   * windows of all of a work-item's rows (constant trip count, unrolled) before it filters any. */
  CONV_ACC windows[CONV_ROWS_PER_ITEM][WINDOW];
#pragma unroll
  for (int k = 0; k < CONV_ROWS_PER_ITEM; ++k) {
    const int r = ly + k * WG_Y;
    if (r < IN_H) {
      CONV_LOAD_WINDOW(windows[k], r);
#if !USE_PREFETCH
      conv_filter_window(mid + r * MID_PITCH + lx * VEC, windows[k], row_filter);
#endif
    }
  }
#if USE_PREFETCH
#pragma unroll
  for (int k = 0; k < CONV_ROWS_PER_ITEM; ++k) {
    const int r = ly + k * WG_Y;
    if (r < IN_H) conv_filter_window(mid + r * MID_PITCH + lx * VEC, windows[k], row_filter);
  }
#endif
  barrier(CLK_LOCAL_MEM_FENCE);

  /* Column pass: WPT_Y output rows from WPT_Y + 2 * RADIUS_Y rows of the row pass. */
  CONV_AVEC acc[WPT_Y];
#pragma unroll
  for (int k = 0; k < WPT_Y; ++k) acc[k] = (CONV_ACC)0;
#pragma unroll
  for (int r = 0; r < WPT_Y + 2 * RADIUS_Y; ++r) {
    const CONV_AVEC m = *(__local const CONV_AVEC*)(mid + (ly * WPT_Y + r) * MID_PITCH + lx * VEC);
#pragma unroll
    for (int k = 0; k < WPT_Y; ++k) {
      const int dy = r - k;
      if (dy >= 0 && dy <= 2 * RADIUS_Y) acc[k] += col_filter[dy] * m;
    }
  }

  const int e = x0 * CHANNELS + lx * VEC;
  const bool aligned = CONV_ALIGNED(dst, dst_pitch);
#pragma unroll
  for (int k = 0; k < WPT_Y; ++k) {
    const int y = y0 + ly * WPT_Y + k;
    if (y < height && e < row_e)
      conv_store_dvec(dst + (long)y * dst_pitch + e, conv_finish(acc[k], e, fixed_point, fixed_scale), row_e - e,
                      aligned);
  }
}
#endif
