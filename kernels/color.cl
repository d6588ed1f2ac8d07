/* tilecl family "color": colour-space conversions of row-major images.
 *
 * gray = weight_0 * e0 + weight_1 * e1 + weight_2 * e2 for every pixel of an interleaved image of SRC_CHANNELS
 * elements per pixel (3: RGB or BGR; 4: RGBA or BGRA, the fourth element ignored), e0..e2 its first three
 * elements. The host orders the weights to match the channel order (for BGR, weight_0 is blue's), so one
 * program serves every order and every weight set.
 *
 * Arithmetic:
 *   default            the sum is formed in float; uchar results are rounded to nearest (ties to even) and
 *                      saturated to 0..255, float results stored as they are.
 *   USE_FIXED_POINT 1  (uchar) OpenCV 4.6's cvtColor to gray, bit for bit: the weights are integers of 15
 *                      fractional bits (passed as floats, exactly), gray = (w0 e0 + w1 e1 + w2 e2 + 2^14) >> 15
 *                      in uint, saturated to 0..255 (OpenCV's weights sum to 2^15: never above 255).
 *
 * Kernels (same arguments for all, so the host can swap them freely):
 *   color_rgb_to_gray_naive(width, height, src, src_offset, src_pitch, dst, dst_offset, dst_pitch,
 *                           weight_0, weight_1, weight_2)
 *       One pixel per work-item. Reference variant; any device.
 *       global = (round_up(width, lx), round_up(height, ly)); local (lx, ly) launch-only, any size.
 *   color_rgb_to_gray_vector(same arguments)
 *       VEC consecutive pixels ("a chunk") per load: per chunk SRC_CHANNELS VEC-wide loads (for uchar VEC = 16:
 *       16-byte loads) and one VEC-wide store. A work-item does WPT_X chunks of each of WPT_Y consecutive rows.
 *       Its chunks are interleaved with those of the other work-items of its group (chunk
 *       group * WG * WPT_X + k * WG + local id, WG = get_local_size(0)), so that at every step neighbouring
 *       work-items touch neighbouring memory. When src and dst (after the offsets) are aligned to
 *       VEC * sizeof(DTYPE) bytes and both pitches are multiples of VEC, loads and stores go through vector
 *       pointers, which GPUs turn into single wide transactions; otherwise vloadn/vstoren (same results,
 *       narrower accesses). The check is made per work-item at run time, so no extra program is needed. The
 *       last chunk of a row, when it is partial, is done pixel by pixel. The channels are separated with
 *       constant shuffles of the converted vectors (floats, or uints with USE_FIXED_POINT); four-channel bytes
 *       on a little-endian device are read as VEC 32-bit words instead (one load), each element a shift and a
 *       mask away (see color_gray_chunk).
 *       global = (round_up(ceil(ceil(width / VEC) / WPT_X), lx), round_up(ceil(height / WPT_Y), ly)); local
 *       (lx, ly) launch-only, any size (or none). The CPU form: the shuffles are vector permutes there.
 *   color_rgb_to_gray_words(same arguments)         [bytes only; compiled when VEC is 4, 8 or 16]
 *       GPU form for bytes: one chunk of VEC pixels per work-item, read as SRC_CHANNELS * VEC / 4 little-endian
 *       32-bit words (16-byte loads for VEC 16 when aligned as above; otherwise the aligned 32-bit words that
 *       hold the chunk, one more when it starts off a 4-byte boundary, funnel-shifted into place -- the last chunk
 *       of a row uses vloadn, as the extra word could lie past the buffer), each byte taken out with a shift and
 *       a mask (3 channels: 4 pixels = 3 words, R0 G0 B0 R1 | G1 B1 R2 G2 | B2 R3 G3 B3; 4 channels: a pixel per
 *       word), four results packed per word, one store (unaligned: the bytes up to the first 4-byte boundary,
 *       aligned words, the bytes after; never a byte outside the chunk). About 32 registers on NVIDIA against
 *       55-64 for the vector kernel's shuffles of 48 floats; on an H200 gray uint8 at 7680x4320 went from
 *       40.4 to 37.1 us, about the time of a copy of the same bytes (36.5 us). A partial chunk at a row's end
 *       is done pixel by pixel. Its buffers are uchar whatever DTYPE is (the file compiles every kernel with
 *       no options); it needs a little-endian device, which the host checks (CL_DEVICE_ENDIAN_LITTLE).
 *       global = (round_up(ceil(width / VEC), lx), round_up(height, ly)); local (lx, ly) launch-only.
 *
 * Arguments: width, height in pixels; src_pitch in elements of DTYPE between row starts (>= SRC_CHANNELS *
 * width); dst_pitch in elements (>= width); offsets in elements, added once at entry. src and dst must not
 * overlap. The host guarantees every index below 2^31 except the row term y * pitch, which is formed in 64 bits.
 *
 * Macros (all optional):
 *   DTYPE  element type of src and dst: float or uchar. Default float.
 *   SRC_CHANNELS  elements per source pixel: 3 or 4. Default 3.
 *   VEC    pixels per chunk: 2, 4, 8 or 16 in color_rgb_to_gray_vector, 4, 8 or 16 in color_rgb_to_gray_words.
 *          Default 16 for uchar, 4 for float (16-byte accesses either way).
 *   WPT_X  chunks of VEC pixels per work-item and row in color_rgb_to_gray_vector: 1 or more. Default 1.
 *   WPT_Y  rows per work-item in color_rgb_to_gray_vector: 1 or more. Default 1.
 *   USE_ROUND_BY_ADD  bytes with float sums (DTYPE uchar, and color_rgb_to_gray_words), how the sum is rounded:
 *          0 rint (one instruction on GPUs), 1 clamp to 0..255 first, then add and subtract 2^23 (PoCL's rint is
 *          a long software sequence: gray uint8 at 7680x4320 went from 5.3 to 2.6 ms). The same results: in
 *          0..255 the addition rounds to an integer, to nearest with ties to even (OpenCL's default rounding
 *          mode; no -cl-fast-relaxed-math, so it is not folded), the subtraction is exact, and clamping before
 *          or after rounding to the nearest integer agrees at integer bounds. Default 0.
 *   USE_FIXED_POINT  0 or 1: OpenCV's integer arithmetic (above); bytes only. Default 0.
 */

#ifndef DTYPE
#define DTYPE float
#endif

/* DTYPE_IS_UCHAR is 1 for uchar and 0 for float (any other spelling counts as float). */
#define COLOR_DTYPE_KIND_float 0
#define COLOR_DTYPE_KIND_uchar 1
#define DTYPE_IS_UCHAR TILECL_CAT(COLOR_DTYPE_KIND_, DTYPE)

#ifndef VEC
#if DTYPE_IS_UCHAR
#define VEC 16
#else
#define VEC 4
#endif
#endif

#ifndef SRC_CHANNELS
#define SRC_CHANNELS 3
#endif
#ifndef WPT_X
#define WPT_X 1
#endif
#ifndef WPT_Y
#define WPT_Y 1
#endif
#ifndef USE_ROUND_BY_ADD
#define USE_ROUND_BY_ADD 0
#endif
#ifndef USE_FIXED_POINT
#define USE_FIXED_POINT 0
#endif

#if VEC != 2 && VEC != 4 && VEC != 8 && VEC != 16
#error "color.cl: VEC must be 2, 4, 8 or 16"
#endif
#if SRC_CHANNELS != 3 && SRC_CHANNELS != 4
#error "color.cl: SRC_CHANNELS must be 3 or 4"
#endif
#if WPT_X < 1 || WPT_Y < 1
#error "color.cl: WPT_X and WPT_Y must be at least 1"
#endif

#define COLOR_FVEC TILECL_CAT(float, VEC)
#define COLOR_DVEC TILECL_CAT(DTYPE, VEC)
#define COLOR_VLOAD TILECL_CAT(vload, VEC)
#define COLOR_VSTORE TILECL_CAT(vstore, VEC)
/* VEC elements at any element address. Bytes through a vector type aligned to one byte: one unaligned access on
 * CPUs, where PoCL 3.1 assembles vload16 / vstore16 of uchar from 4-byte pieces and shuffles (gray of a 1920x1080
 * byte image with rows off 16-byte alignment took 1.8-2.2x the time of aligned ones). Floats keep vloadn. */
#if DTYPE_IS_UCHAR
typedef COLOR_DVEC color_dvec_unaligned __attribute__((aligned(1)));
#define COLOR_LOADU(j, p) (((__global const color_dvec_unaligned*)(p))[j])
#define COLOR_STOREU(v, p) (*(__global color_dvec_unaligned*)(p) = (v))
#else
#define COLOR_LOADU(j, p) COLOR_VLOAD(j, p)
#define COLOR_STOREU(v, p) COLOR_VSTORE(v, 0, p)
#endif

/* The type sums are formed in: float, or uint with USE_FIXED_POINT; W(x) converts a weight argument to it. */
#if USE_FIXED_POINT
#define COLOR_SUM_T uint
#define COLOR_W(x) ((uint)(x))
#else
#define COLOR_SUM_T float
#define COLOR_W(x) (x)
#endif
#define COLOR_SVEC TILECL_CAT(COLOR_SUM_T, VEC)
#define COLOR_TO_SVEC TILECL_CAT(convert_, COLOR_SVEC)

/* A sum (float, or the fixed-point uint) to uchar: what every bytes result goes through. */
#if USE_FIXED_POINT
#define COLOR_TO_UCHAR(x) convert_uchar_sat(((x) + 16384u) >> 15)
#define COLOR_TO_UCHARN(x) TILECL_CAT(TILECL_CAT(convert_uchar, VEC), _sat)(((x) + 16384u) >> 15)
#elif USE_ROUND_BY_ADD
/* Saturate, then round to nearest even by adding and subtracting 2^23 (see USE_ROUND_BY_ADD). */
#define COLOR_TO_UCHAR(x) convert_uchar((clamp((x), 0.0f, 255.0f) + 8388608.0f) - 8388608.0f)
#define COLOR_TO_UCHARN(x) TILECL_CAT(convert_uchar, VEC)((clamp((x), 0.0f, 255.0f) + 8388608.0f) - 8388608.0f)
#else
/* Round to nearest even and saturate: the same results as convert_uchar_sat_rte for finite x, but rint, min,
 * max and a truncating conversion are single vector instructions on CPUs. */
#define COLOR_TO_UCHAR(x) convert_uchar(clamp(rint(x), 0.0f, 255.0f))
#define COLOR_TO_UCHARN(x) TILECL_CAT(convert_uchar, VEC)(clamp(rint(x), 0.0f, 255.0f))
#endif
#if DTYPE_IS_UCHAR
#define COLOR_TO_DTYPE(x) COLOR_TO_UCHAR(x)
#define COLOR_TO_DVEC(x) COLOR_TO_UCHARN(x)
#else
#define COLOR_TO_DTYPE(x) (x)
#define COLOR_TO_DVEC(x) (x)
#endif

#if USE_FIXED_POINT && !DTYPE_IS_UCHAR
#error "color.cl: USE_FIXED_POINT needs DTYPE uchar"
#endif

/* The weighted sum every kernel forms, with the weights named w0, w1, w2 (in the sum's type). */
#define COLOR_SUM(a, b, c) (w0 * (a) + w1 * (b) + w2 * (c))

/* Element k (0..2) of VEC pixels held in SRC_CHANNELS VEC-wide vectors a, b, c (, d) (SRC_CHANNELS * VEC
 * consecutive elements): element e = SRC_CHANNELS * i + k sits in vector e / VEC, lane e % VEC. Constant
 * shuffles of converted vectors: register permutes on CPUs, free on GPUs (PoCL expands shuffle2 of bytes lane
 * by lane, hence the conversion first). Not vector literals of swizzles: oclgrind's uninitialized-value
 * checker crashes on a literal from three vectors and misreports one built from halves. */
#define COLOR_MASK TILECL_CAT(uint, VEC)
#define COLOR_LANES2(M, k, o) M((o), k), M((o) + 1, k)
#define COLOR_LANES4(M, k, o) COLOR_LANES2(M, k, o), COLOR_LANES2(M, k, (o) + 2)
#define COLOR_LANES8(M, k, o) COLOR_LANES4(M, k, o), COLOR_LANES4(M, k, (o) + 4)
#define COLOR_LANES16(M, k, o) COLOR_LANES8(M, k, o), COLOR_LANES8(M, k, (o) + 8)
#define COLOR_LANES(M, k) (COLOR_MASK)(TILECL_CAT(COLOR_LANES, VEC)(M, k, 0))
#if SRC_CHANNELS == 3
/* Lanes from a and b first, then those from c. */
#define COLOR_FROM_AB(i, k) ((3 * (i) + (k)) < 2 * VEC ? (3 * (i) + (k)) : 0)
#define COLOR_FROM_TC(i, k) ((3 * (i) + (k)) < 2 * VEC ? (i) : (3 * (i) + (k)) - VEC)
#define COLOR_CHANNEL(a, b, c, d, k) \
  shuffle2(shuffle2(a, b, COLOR_LANES(COLOR_FROM_AB, k)), c, COLOR_LANES(COLOR_FROM_TC, k))
#else
/* Pixels 0 .. VEC/2 - 1 from a and b, the others from c and d, then the two halves joined. */
#define COLOR_FROM_LO(i, k) ((i) < VEC / 2 ? 4 * (i) + (k) : 0)
#define COLOR_FROM_HI(i, k) ((i) < VEC / 2 ? 0 : 4 * (i) + (k)-2 * VEC)
#define COLOR_JOIN(i, k) ((i) < VEC / 2 ? (i) : VEC + (i))
#define COLOR_CHANNEL(a, b, c, d, k)                                                                     \
  shuffle2(shuffle2(a, b, COLOR_LANES(COLOR_FROM_LO, k)), shuffle2(c, d, COLOR_LANES(COLOR_FROM_HI, k)), \
           COLOR_LANES(COLOR_JOIN, k))
#endif

DTYPE color_gray_pixel(__global const DTYPE* p, const COLOR_SUM_T w0, const COLOR_SUM_T w1, const COLOR_SUM_T w2) {
  return COLOR_TO_DTYPE(COLOR_SUM((COLOR_SUM_T)p[0], (COLOR_SUM_T)p[1], (COLOR_SUM_T)p[2]));
}

__kernel void color_rgb_to_gray_naive(const int width, const int height, __global const DTYPE* restrict src,
                                      const ulong src_offset, const int src_pitch, __global DTYPE* restrict dst,
                                      const ulong dst_offset, const int dst_pitch, const float weight_0,
                                      const float weight_1, const float weight_2) {
  const int x = get_global_id(0);
  const int y = get_global_id(1);
  if (x >= width || y >= height) return;
  src += src_offset;
  dst += dst_offset;
  dst[(long)y * dst_pitch + x] = color_gray_pixel(src + (long)y * src_pitch + SRC_CHANNELS * x, COLOR_W(weight_0),
                                                  COLOR_W(weight_1), COLOR_W(weight_2));
}

/* Inlined into its kernel: a call saves every live vector register around it. */
#define COLOR_INLINE inline __attribute__((always_inline))

#if SRC_CHANNELS == 4 && DTYPE_IS_UCHAR && defined(__ENDIAN_LITTLE__)
/* Four-channel bytes on a little-endian device (OpenCL C defines __ENDIAN_LITTLE__ there): a pixel is one 32-bit
 * word, its elements e0, e1, e2 the word's low three bytes, taken out with shifts and masks -- one load of VEC
 * words instead of four byte vectors, their conversions and twelve shuffles (gray uint8 RGBA at 7680x4320 under
 * PoCL: see docs/notes/image.md). The same sum, so the same results. aligned: s is 4-byte aligned (a vload of
 * words); otherwise a vector type aligned to bytes. */
#define COLOR_WVEC TILECL_CAT(uint, VEC)
typedef COLOR_WVEC color_words_unaligned __attribute__((aligned(1)));

COLOR_INLINE COLOR_DVEC color_gray_chunk(__global const DTYPE* s, const bool aligned, const COLOR_SUM_T w0,
                                         const COLOR_SUM_T w1, const COLOR_SUM_T w2) {
  const COLOR_WVEC px = aligned ? COLOR_VLOAD(0, (__global const uint*)s) : *(__global const color_words_unaligned*)s;
  const COLOR_WVEC byte = (COLOR_WVEC)(0xffu);
  return COLOR_TO_DVEC(
      COLOR_SUM(COLOR_TO_SVEC(px & byte), COLOR_TO_SVEC((px >> 8) & byte), COLOR_TO_SVEC((px >> 16) & byte)));
}
#else
/* The gray chunk of VEC whole pixels at s (aligned: through vector pointers). */
COLOR_INLINE COLOR_DVEC color_gray_chunk(__global const DTYPE* s, const bool aligned, const COLOR_SUM_T w0,
                                         const COLOR_SUM_T w1, const COLOR_SUM_T w2) {
  COLOR_SVEC v[4];
#pragma unroll
  for (int j = 0; j < SRC_CHANNELS; ++j)
    v[j] = COLOR_TO_SVEC(aligned ? ((__global const COLOR_DVEC*)s)[j] : COLOR_LOADU(j, s));
#if SRC_CHANNELS == 3
  v[3] = v[2]; /* unused by the three-channel shuffles */
#endif
  const COLOR_SVEC e0 = COLOR_CHANNEL(v[0], v[1], v[2], v[3], 0);
  const COLOR_SVEC e1 = COLOR_CHANNEL(v[0], v[1], v[2], v[3], 1);
  const COLOR_SVEC e2 = COLOR_CHANNEL(v[0], v[1], v[2], v[3], 2);
  return COLOR_TO_DVEC(COLOR_SUM(e0, e1, e2));
}
#endif

__kernel void color_rgb_to_gray_vector(const int width, const int height, __global const DTYPE* restrict src,
                                       const ulong src_offset, const int src_pitch, __global DTYPE* restrict dst,
                                       const ulong dst_offset, const int dst_pitch, const float weight_0,
                                       const float weight_1, const float weight_2) {
  const int group_size = get_local_size(0);
  const int first_chunk = get_group_id(0) * group_size * WPT_X + get_local_id(0);
  const int y0 = get_global_id(1) * WPT_Y;
  if (first_chunk * VEC >= width || y0 >= height) return;
  src += src_offset;
  dst += dst_offset;
  const COLOR_SUM_T w0 = COLOR_W(weight_0), w1 = COLOR_W(weight_1), w2 = COLOR_W(weight_2);
  /* Row starts and chunk starts (SRC_CHANNELS * x0 and x0 elements) keep the base alignment when the pitches
   * are multiples of VEC, so one test of the base pointers decides for every row. */
  const bool aligned = ((((uintptr_t)src | (uintptr_t)dst) % (VEC * sizeof(DTYPE))) == 0) && (src_pitch % VEC) == 0 &&
                       (dst_pitch % VEC) == 0;
#pragma unroll
  for (int r = 0; r < WPT_Y; ++r) {
    const int y = y0 + r;
    if (y < height) {
      __global const DTYPE* src_row = src + (long)y * src_pitch;
      __global DTYPE* dst_row = dst + (long)y * dst_pitch;
#pragma unroll
      for (int k = 0; k < WPT_X; ++k) {
        const int x0 = (first_chunk + k * group_size) * VEC;
        if (x0 >= width) break;
        __global const DTYPE* s = src_row + SRC_CHANNELS * x0;
        __global DTYPE* d = dst_row + x0;
        if (x0 + VEC <= width) {
          const COLOR_DVEC out = color_gray_chunk(s, aligned, w0, w1, w2);
          if (aligned) {
            *(__global COLOR_DVEC*)d = out;
          } else {
            COLOR_STOREU(out, d);
          }
        } else {
          for (int i = 0; i < VEC; ++i) {
            if (x0 + i < width) d[i] = color_gray_pixel(s + SRC_CHANNELS * i, w0, w1, w2);
          }
        }
      }
    }
  }
}

#if VEC >= 4
/* VEC bytes as VEC / 4 words. */
#if VEC == 16
#define COLOR_WORDS uint4
#define COLOR_AS_WORDS as_uint4
#define COLOR_AS_DVEC as_uchar16
#elif VEC == 8
#define COLOR_WORDS uint2
#define COLOR_AS_WORDS as_uint2
#define COLOR_AS_DVEC as_uchar8
#else
#define COLOR_WORDS uint
#define COLOR_AS_WORDS as_uint
#define COLOR_AS_DVEC as_uchar4
#endif

/* Gray of four pixels from little-endian words, packed into one word, pixel 0 in the low byte: the same sum
 * and rounding as color_gray_pixel. */
#define COLOR_BYTE(w, i) ((COLOR_SUM_T)(((w) >> (8 * (i))) & 0xffu))
#define COLOR_GRAY_OF(a, b, c) ((uint)COLOR_TO_UCHAR(COLOR_SUM((a), (b), (c))))
#if SRC_CHANNELS == 3
/* Four pixels in three words: R0 G0 B0 R1 | G1 B1 R2 G2 | B2 R3 G3 B3. */
uint color_gray_of_words(const uint x, const uint y, const uint z, const COLOR_SUM_T w0, const COLOR_SUM_T w1,
                         const COLOR_SUM_T w2) {
  const uint p0 = COLOR_GRAY_OF(COLOR_BYTE(x, 0), COLOR_BYTE(x, 1), COLOR_BYTE(x, 2));
  const uint p1 = COLOR_GRAY_OF(COLOR_BYTE(x, 3), COLOR_BYTE(y, 0), COLOR_BYTE(y, 1));
  const uint p2 = COLOR_GRAY_OF(COLOR_BYTE(y, 2), COLOR_BYTE(y, 3), COLOR_BYTE(z, 0));
  const uint p3 = COLOR_GRAY_OF(COLOR_BYTE(z, 1), COLOR_BYTE(z, 2), COLOR_BYTE(z, 3));
  return p0 | (p1 << 8) | (p2 << 16) | (p3 << 24);
}
#else
/* Four pixels in four words, one each. */
#define COLOR_GRAY_OF_WORD(x) COLOR_GRAY_OF(COLOR_BYTE(x, 0), COLOR_BYTE(x, 1), COLOR_BYTE(x, 2))
uint color_gray_of_words(const uint x, const uint y, const uint z, const uint t, const COLOR_SUM_T w0,
                         const COLOR_SUM_T w1, const COLOR_SUM_T w2) {
  return COLOR_GRAY_OF_WORD(x) | (COLOR_GRAY_OF_WORD(y) << 8) | (COLOR_GRAY_OF_WORD(z) << 16) |
         (COLOR_GRAY_OF_WORD(t) << 24);
}
#endif

/* A chunk's source bytes as COLOR_CHUNK_WORDS little-endian words; COLOR_WORDS_AT(w, j) the j-th VEC bytes. */
#define COLOR_CHUNK_WORDS (SRC_CHANNELS * VEC / 4)
#if VEC == 16
#define COLOR_WORDS_AT(w, j) ((uint4)((w)[4 * (j)], (w)[4 * (j) + 1], (w)[4 * (j) + 2], (w)[4 * (j) + 3]))
#elif VEC == 8
#define COLOR_WORDS_AT(w, j) ((uint2)((w)[2 * (j)], (w)[2 * (j) + 1]))
#else
#define COLOR_WORDS_AT(w, j) ((w)[j])
#endif

/* The COLOR_CHUNK_WORDS words of bytes p[0 ..] where p is `skew` (0..3) bytes past a 4-byte boundary: aligned
 * 32-bit loads (one more when skewed; the caller guarantees its bytes and the skew bytes before p are in the
 * buffer), each pair funnel-shifted into place. NVIDIA loads an unaligned uchar vector byte by byte. */
COLOR_INLINE void color_load_words(__global const uchar* p, const uint skew, uint* words) {
  __global const uint* a = (__global const uint*)(p - skew);
  if (skew == 0) {
#pragma unroll
    for (int i = 0; i < COLOR_CHUNK_WORDS; ++i) words[i] = a[i];
    return;
  }
  const uint shift = 8u * skew;
  uint low = a[0];
#pragma unroll
  for (int i = 0; i < COLOR_CHUNK_WORDS; ++i) {
    const uint high = a[i + 1];
    words[i] = (low >> shift) | (high << (32u - shift));
    low = high;
  }
}

/* Stores the VEC bytes of `out` at d, any alignment: the bytes before d's first 4-byte boundary one by one, then
 * aligned words (each pair of out's words funnel-shifted), then the bytes after the last one. Only the chunk's own
 * bytes are written. */
COLOR_INLINE void color_store_words(__global uchar* d, const COLOR_WORDS out) {
  uint o[VEC / 4];
#if VEC == 16
  vstore4(out, 0, o);
#elif VEC == 8
  vstore2(out, 0, o);
#else
  o[0] = out;
#endif
  const uint head = (4u - (uint)((uintptr_t)d & 3u)) & 3u;
  if (head == 0) {
#pragma unroll
    for (int i = 0; i < VEC / 4; ++i) ((__global uint*)d)[i] = o[i];
    return;
  }
  for (uint i = 0; i < head; ++i) d[i] = (uchar)(o[0] >> (8u * i));
  __global uint* a = (__global uint*)(d + head);
  const uint shift = 8u * head;
#pragma unroll
  for (int i = 0; i + 1 < VEC / 4; ++i) a[i] = (o[i] >> shift) | (o[i + 1] << (32u - shift));
  for (uint i = head; i < 4u; ++i) d[VEC - 4 + i] = (uchar)(o[VEC / 4 - 1] >> (8u * i));
}

/* The VEC gray bytes (as words) of a chunk whose SRC_CHANNELS * VEC bytes are the words of v[0], v[1], ... */
COLOR_WORDS color_gray_chunk_words(const COLOR_WORDS* v, const COLOR_SUM_T w0, const COLOR_SUM_T w1,
                                   const COLOR_SUM_T w2) {
#if SRC_CHANNELS == 3 && VEC == 16
  return (uint4)(color_gray_of_words(v[0].x, v[0].y, v[0].z, w0, w1, w2),
                 color_gray_of_words(v[0].w, v[1].x, v[1].y, w0, w1, w2),
                 color_gray_of_words(v[1].z, v[1].w, v[2].x, w0, w1, w2),
                 color_gray_of_words(v[2].y, v[2].z, v[2].w, w0, w1, w2));
#elif SRC_CHANNELS == 3 && VEC == 8
  return (uint2)(color_gray_of_words(v[0].x, v[0].y, v[1].x, w0, w1, w2),
                 color_gray_of_words(v[1].y, v[2].x, v[2].y, w0, w1, w2));
#elif SRC_CHANNELS == 3
  return color_gray_of_words(v[0], v[1], v[2], w0, w1, w2);
#elif VEC == 16
  return (uint4)(color_gray_of_words(v[0].x, v[0].y, v[0].z, v[0].w, w0, w1, w2),
                 color_gray_of_words(v[1].x, v[1].y, v[1].z, v[1].w, w0, w1, w2),
                 color_gray_of_words(v[2].x, v[2].y, v[2].z, v[2].w, w0, w1, w2),
                 color_gray_of_words(v[3].x, v[3].y, v[3].z, v[3].w, w0, w1, w2));
#elif VEC == 8
  return (uint2)(color_gray_of_words(v[0].x, v[0].y, v[1].x, v[1].y, w0, w1, w2),
                 color_gray_of_words(v[2].x, v[2].y, v[3].x, v[3].y, w0, w1, w2));
#else
  return color_gray_of_words(v[0], v[1], v[2], v[3], w0, w1, w2);
#endif
}

__kernel void color_rgb_to_gray_words(const int width, const int height, __global const uchar* restrict src,
                                      const ulong src_offset, const int src_pitch, __global uchar* restrict dst,
                                      const ulong dst_offset, const int dst_pitch, const float weight_0,
                                      const float weight_1, const float weight_2) {
  const int x0 = get_global_id(0) * VEC;
  const int y = get_global_id(1);
  if (x0 >= width || y >= height) return;
  src += src_offset;
  dst += dst_offset;
  const COLOR_SUM_T w0 = COLOR_W(weight_0), w1 = COLOR_W(weight_1), w2 = COLOR_W(weight_2);
  __global const uchar* s = src + (long)y * src_pitch + SRC_CHANNELS * x0;
  __global uchar* d = dst + (long)y * dst_pitch + x0;
  if (x0 + VEC > width) {
    for (int i = 0; i < VEC; ++i) {
      if (x0 + i < width) {
        __global const uchar* p = s + SRC_CHANNELS * i;
        d[i] = COLOR_TO_UCHAR(COLOR_SUM((COLOR_SUM_T)p[0], (COLOR_SUM_T)p[1], (COLOR_SUM_T)p[2]));
      }
    }
    return;
  }
  /* As in color_rgb_to_gray_vector: aligned bases and pitches keep every chunk aligned. */
  const bool aligned =
      ((((uintptr_t)src | (uintptr_t)dst) % VEC) == 0) && (src_pitch % VEC) == 0 && (dst_pitch % VEC) == 0;
  COLOR_WORDS v[SRC_CHANNELS];
  const uint skew = (uint)((uintptr_t)s & 3u);
  /* Off 16-byte boundaries, the chunk is read from the aligned 32-bit words that hold it when the row has a pixel
   * after it (the last word's spare bytes lie in that pixel) and the buffer has the bytes before it. */
  if (!aligned && x0 + VEC < width &&
      src_offset + (ulong)y * (ulong)src_pitch + (ulong)(SRC_CHANNELS * x0) >= (ulong)skew) {
    uint words[COLOR_CHUNK_WORDS];
    color_load_words(s, skew, words);
#pragma unroll
    for (int j = 0; j < SRC_CHANNELS; ++j) v[j] = COLOR_WORDS_AT(words, j);
  } else {
#pragma unroll
    for (int j = 0; j < SRC_CHANNELS; ++j)
      v[j] = aligned ? ((__global const COLOR_WORDS*)s)[j] : COLOR_AS_WORDS(COLOR_VLOAD(j, s)); /* VEC bytes */
  }
  const COLOR_WORDS out = color_gray_chunk_words(v, w0, w1, w2);
  if (aligned) {
    *(__global COLOR_WORDS*)d = out;
  } else {
    color_store_words(d, out);
  }
}
#endif
