/* tilecl family "color": colour-space conversions of row-major images.
 *
 * gray = weight_r * R + weight_g * G + weight_b * B for every pixel of an interleaved RGB image (3 elements
 * per pixel, R first). The weights are run-time arguments (the op's default is 0.21, 0.72, 0.07), so one
 * program serves every weight set. The sum is formed in float; for uchar the result is rounded to nearest
 * (ties to even) and saturated to 0..255; for float it is stored as is.
 *
 * Kernels (same arguments for both, so the host can swap them freely):
 *   color_rgb_to_gray_naive(width, height, src, src_offset, src_pitch, dst, dst_offset, dst_pitch,
 *                           weight_r, weight_g, weight_b)
 *       One pixel per work-item. Reference variant; any device.
 *       global = (round_up(width, lx), round_up(height, ly)); local (lx, ly) launch-only, any size.
 *   color_rgb_to_gray_vector(same arguments)
 *       VEC consecutive pixels ("a chunk") per load: per chunk three VEC-wide loads (for uchar VEC = 16: three
 *       16-byte loads) and one VEC-wide store. A work-item does WPT_X chunks of each of WPT_Y consecutive rows.
 *       Its chunks are interleaved with those of the other work-items of its group (chunk
 *       group * WG * WPT_X + k * WG + local id, WG = get_local_size(0)), so that at every step neighbouring
 *       work-items touch neighbouring memory. When src and dst (after the offsets) are aligned to
 *       VEC * sizeof(DTYPE) bytes and both pitches are multiples of VEC, loads and stores go through vector
 *       pointers, which GPUs turn into single wide transactions; otherwise vloadn/vstoren (same results,
 *       narrower accesses). The check is made per work-item at run time, so no extra program is needed. The
 *       last chunk of a row, when it is partial, is done pixel by pixel.
 *       global = (round_up(ceil(ceil(width / VEC) / WPT_X), lx), round_up(ceil(height / WPT_Y), ly)); local
 *       (lx, ly) launch-only, any size (or none). The CPU form: the float shuffles are vector permutes there.
 *   color_rgb_to_gray_words(same arguments)         [bytes only; compiled when VEC is 4, 8 or 16]
 *       GPU form for bytes: one chunk of VEC pixels per work-item, read as 3 * VEC / 4 little-endian 32-bit
 *       words (three uint4 loads for VEC 16 when aligned as above, else vloadn), each byte taken out with a
 *       shift and a mask (4 pixels = 3 words: R0 G0 B0 R1 | G1 B1 R2 G2 | B2 R3 G3 B3), four results packed
 *       per word, one store. About 32 registers on NVIDIA against 55-64 for the vector kernel's shuffles
 *       of 48 floats; on an H200 gray uint8 at 7680x4320 went from 40.4 to 37.1 us, about the time of a copy
 *       of the same bytes (36.5 us). A partial chunk at a row's end is done pixel by pixel. Its buffers are
 *       uchar whatever DTYPE is (the file compiles every kernel with no options); it needs a little-endian
 *       device, which the host checks (CL_DEVICE_ENDIAN_LITTLE).
 *       global = (round_up(ceil(width / VEC), lx), round_up(height, ly)); local (lx, ly) launch-only.
 *
 * Arguments: width, height in pixels; src_pitch in elements of DTYPE between row starts (>= 3 * width);
 * dst_pitch in elements (>= width); offsets in elements, added once at entry. src and dst must not overlap.
 * The host guarantees every index below 2^31 except the row term y * pitch, which is formed in 64 bits.
 *
 * Macros (all optional):
 *   DTYPE  element type of src and dst: float or uchar. Default float.
 *   VEC    pixels per chunk: 2, 4, 8 or 16 in color_rgb_to_gray_vector, 4, 8 or 16 in color_rgb_to_gray_words.
 *          Default 16 for uchar, 4 for float (16-byte accesses either way).
 *   WPT_X  chunks of VEC pixels per work-item and row in color_rgb_to_gray_vector: 1 or more. Default 1.
 *   WPT_Y  rows per work-item in color_rgb_to_gray_vector: 1 or more. Default 1.
 *   ROUND_BY_ADD  bytes only (DTYPE uchar, and color_rgb_to_gray_words), how the sum is rounded: 0 rint
 *          (one instruction on GPUs), 1 clamp to 0..255 first, then add and subtract 2^23 (PoCL's rint is a
 *          long software sequence: gray uint8 at 7680x4320 went from 5.3 to 2.6 ms). The same results: in
 *          0..255 the addition rounds to an integer, to nearest with ties to even (OpenCL's default rounding
 *          mode; no -cl-fast-relaxed-math, so it is not folded), the subtraction is exact, and clamping before
 *          or after rounding to the nearest integer agrees at integer bounds. Default 0.
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

#ifndef WPT_X
#define WPT_X 1
#endif
#ifndef WPT_Y
#define WPT_Y 1
#endif

#if VEC != 2 && VEC != 4 && VEC != 8 && VEC != 16
#error "color.cl: VEC must be 2, 4, 8 or 16"
#endif
#ifndef ROUND_BY_ADD
#define ROUND_BY_ADD 0
#endif

#if WPT_X < 1 || WPT_Y < 1
#error "color.cl: WPT_X and WPT_Y must be at least 1"
#endif

#define COLOR_FVEC TILECL_CAT(float, VEC)
#define COLOR_DVEC TILECL_CAT(DTYPE, VEC)
#define COLOR_VLOAD TILECL_CAT(vload, VEC)
#define COLOR_VSTORE TILECL_CAT(vstore, VEC)
#define COLOR_TO_FVEC TILECL_CAT(convert_float, VEC)

/* A float sum to uchar, rounded as ROUND_BY_ADD says (whatever DTYPE is: color_rgb_to_gray_words always
 * writes bytes). */
#if ROUND_BY_ADD
/* Saturate, then round to nearest even by adding and subtracting 2^23 (see ROUND_BY_ADD): min, max, two adds
 * and a truncating conversion, all single vector instructions under PoCL. */
#define COLOR_TO_UCHAR(x) convert_uchar((clamp((x), 0.0f, 255.0f) + 8388608.0f) - 8388608.0f)
#define COLOR_TO_UCHARN(x) TILECL_CAT(convert_uchar, VEC)((clamp((x), 0.0f, 255.0f) + 8388608.0f) - 8388608.0f)
#else
/* Round to nearest even and saturate: the same results as convert_uchar_sat_rte for finite x, but rint, min,
 * max and a truncating conversion are single vector instructions on CPUs, where PoCL expands _sat_rte into
 * a long compare-and-select sequence. */
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

/* Channel k (0 red, 1 green, 2 blue) of VEC pixels held in three VEC-wide float vectors a, b, c (3 * VEC
 * consecutive elements, RGBRGB...): element e = 3 * i + k sits in vector e / VEC, lane e % VEC. Two constant
 * shuffles, the lanes from a and b first, then those from c: register permutes on CPUs, free on GPUs. On
 * floats, after converting the three vectors (as many conversions as converting the three channels): PoCL
 * expands shuffle2 of bytes lane by lane. (Not vector literals of swizzles: oclgrind's uninitialized-value
 * checker crashes on a literal from three vectors and misreports one built from halves.) */
#define COLOR_MASK TILECL_CAT(uint, VEC)
#define COLOR_FROM_AB(i, k) ((3 * (i) + (k)) < 2 * VEC ? (3 * (i) + (k)) : 0)
#define COLOR_FROM_TC(i, k) ((3 * (i) + (k)) < 2 * VEC ? (i) : (3 * (i) + (k)) - VEC)
#define COLOR_LANES2(M, k, o) M((o), k), M((o) + 1, k)
#define COLOR_LANES4(M, k, o) COLOR_LANES2(M, k, o), COLOR_LANES2(M, k, (o) + 2)
#define COLOR_LANES8(M, k, o) COLOR_LANES4(M, k, o), COLOR_LANES4(M, k, (o) + 4)
#define COLOR_LANES16(M, k, o) COLOR_LANES8(M, k, o), COLOR_LANES8(M, k, (o) + 8)
#define COLOR_LANES(M, k) TILECL_CAT(COLOR_LANES, VEC)(M, k, 0)
#define COLOR_CHANNEL(a, b, c, k) \
  shuffle2(shuffle2(a, b, (COLOR_MASK)(COLOR_LANES(COLOR_FROM_AB, k))), c, (COLOR_MASK)(COLOR_LANES(COLOR_FROM_TC, k)))

/* The weighted sum every kernel forms, channel values as floats, with the weights named wr, wg, wb. */
#define COLOR_SUM(r, g, b) (wr * (r) + wg * (g) + wb * (b))

DTYPE color_gray_pixel(__global const DTYPE* p, const float wr, const float wg, const float wb) {
  return COLOR_TO_DTYPE(COLOR_SUM((float)p[0], (float)p[1], (float)p[2]));
}

__kernel void color_rgb_to_gray_naive(const int width, const int height, __global const DTYPE* restrict src,
                                      const ulong src_offset, const int src_pitch, __global DTYPE* restrict dst,
                                      const ulong dst_offset, const int dst_pitch, const float weight_r,
                                      const float weight_g, const float weight_b) {
  const int x = get_global_id(0);
  const int y = get_global_id(1);
  if (x >= width || y >= height) return;
  src += src_offset;
  dst += dst_offset;
  dst[(long)y * dst_pitch + x] = color_gray_pixel(src + (long)y * src_pitch + 3 * x, weight_r, weight_g, weight_b);
}

__kernel void color_rgb_to_gray_vector(const int width, const int height, __global const DTYPE* restrict src,
                                       const ulong src_offset, const int src_pitch, __global DTYPE* restrict dst,
                                       const ulong dst_offset, const int dst_pitch, const float weight_r,
                                       const float weight_g, const float weight_b) {
  const int group_size = get_local_size(0);
  const int first_chunk = get_group_id(0) * group_size * WPT_X + get_local_id(0);
  const int y0 = get_global_id(1) * WPT_Y;
  if (first_chunk * VEC >= width || y0 >= height) return;
  src += src_offset;
  dst += dst_offset;
  /* Row starts and chunk starts (3 * x0 and x0 elements) keep the base alignment when the pitches are
   * multiples of VEC, so one test of the base pointers decides for every row. */
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
        __global const DTYPE* s = src_row + 3 * x0;
        __global DTYPE* d = dst_row + x0;
        if (x0 + VEC <= width) {
          COLOR_FVEC a, b, c;
          if (aligned) {
            a = COLOR_TO_FVEC(((__global const COLOR_DVEC*)s)[0]);
            b = COLOR_TO_FVEC(((__global const COLOR_DVEC*)s)[1]);
            c = COLOR_TO_FVEC(((__global const COLOR_DVEC*)s)[2]);
          } else {
            a = COLOR_TO_FVEC(COLOR_VLOAD(0, s));
            b = COLOR_TO_FVEC(COLOR_VLOAD(1, s));
            c = COLOR_TO_FVEC(COLOR_VLOAD(2, s));
          }
          /* De-interleave, then VEC-wide math. */
          const COLOR_FVEC red = COLOR_CHANNEL(a, b, c, 0);
          const COLOR_FVEC green = COLOR_CHANNEL(a, b, c, 1);
          const COLOR_FVEC blue = COLOR_CHANNEL(a, b, c, 2);
          const COLOR_DVEC out = COLOR_TO_DVEC(weight_r * red + weight_g * green + weight_b * blue);
          if (aligned) {
            *(__global COLOR_DVEC*)d = out;
          } else {
            COLOR_VSTORE(out, 0, d);
          }
        } else {
          for (int i = 0; i < VEC; ++i) {
            if (x0 + i < width) d[i] = color_gray_pixel(s + 3 * i, weight_r, weight_g, weight_b);
          }
        }
      }
    }
  }
}

#if VEC >= 4
/* VEC bytes as VEC / 4 words. */
#if VEC == 16
#define COLOR_WVEC uint4
#define COLOR_AS_WVEC as_uint4
#define COLOR_AS_DVEC as_uchar16
#elif VEC == 8
#define COLOR_WVEC uint2
#define COLOR_AS_WVEC as_uint2
#define COLOR_AS_DVEC as_uchar8
#else
#define COLOR_WVEC uint
#define COLOR_AS_WVEC as_uint
#define COLOR_AS_DVEC as_uchar4
#endif

/* Gray of the four pixels in three little-endian words (R0 G0 B0 R1 | G1 B1 R2 G2 | B2 R3 G3 B3), packed
 * into one word, pixel 0 in the low byte: the same sum and rounding as color_gray_pixel. */
#define COLOR_BYTE(w, i) ((float)(((w) >> (8 * (i))) & 0xffu))
#define COLOR_GRAY_OF(r, g, b) ((uint)COLOR_TO_UCHAR(COLOR_SUM((r), (g), (b))))
uint color_gray_of_words(const uint w0, const uint w1, const uint w2, const float wr, const float wg, const float wb) {
  const uint p0 = COLOR_GRAY_OF(COLOR_BYTE(w0, 0), COLOR_BYTE(w0, 1), COLOR_BYTE(w0, 2));
  const uint p1 = COLOR_GRAY_OF(COLOR_BYTE(w0, 3), COLOR_BYTE(w1, 0), COLOR_BYTE(w1, 1));
  const uint p2 = COLOR_GRAY_OF(COLOR_BYTE(w1, 2), COLOR_BYTE(w1, 3), COLOR_BYTE(w2, 0));
  const uint p3 = COLOR_GRAY_OF(COLOR_BYTE(w2, 1), COLOR_BYTE(w2, 2), COLOR_BYTE(w2, 3));
  return p0 | (p1 << 8) | (p2 << 16) | (p3 << 24);
}

/* The VEC gray bytes (as words) of a chunk whose 3 * VEC bytes are the words of a, then b, then c. */
COLOR_WVEC color_gray_chunk_words(const COLOR_WVEC a, const COLOR_WVEC b, const COLOR_WVEC c, const float wr,
                                  const float wg, const float wb) {
#if VEC == 16
  return (uint4)(color_gray_of_words(a.x, a.y, a.z, wr, wg, wb), color_gray_of_words(a.w, b.x, b.y, wr, wg, wb),
                 color_gray_of_words(b.z, b.w, c.x, wr, wg, wb), color_gray_of_words(c.y, c.z, c.w, wr, wg, wb));
#elif VEC == 8
  return (uint2)(color_gray_of_words(a.x, a.y, b.x, wr, wg, wb), color_gray_of_words(b.y, c.x, c.y, wr, wg, wb));
#else
  return color_gray_of_words(a, b, c, wr, wg, wb);
#endif
}

__kernel void color_rgb_to_gray_words(const int width, const int height, __global const uchar* restrict src,
                                      const ulong src_offset, const int src_pitch, __global uchar* restrict dst,
                                      const ulong dst_offset, const int dst_pitch, const float weight_r,
                                      const float weight_g, const float weight_b) {
  const int x0 = get_global_id(0) * VEC;
  const int y = get_global_id(1);
  if (x0 >= width || y >= height) return;
  src += src_offset;
  dst += dst_offset;
  __global const uchar* s = src + (long)y * src_pitch + 3 * x0;
  __global uchar* d = dst + (long)y * dst_pitch + x0;
  if (x0 + VEC > width) {
    const float wr = weight_r, wg = weight_g, wb = weight_b;
    for (int i = 0; i < VEC; ++i) {
      if (x0 + i < width) d[i] = COLOR_TO_UCHAR(COLOR_SUM((float)s[3 * i], (float)s[3 * i + 1], (float)s[3 * i + 2]));
    }
    return;
  }
  /* As in color_rgb_to_gray_vector: aligned bases and pitches keep every chunk aligned. */
  const bool aligned =
      ((((uintptr_t)src | (uintptr_t)dst) % VEC) == 0) && (src_pitch % VEC) == 0 && (dst_pitch % VEC) == 0;
  COLOR_WVEC a, b, c;
  if (aligned) {
    a = ((__global const COLOR_WVEC*)s)[0];
    b = ((__global const COLOR_WVEC*)s)[1];
    c = ((__global const COLOR_WVEC*)s)[2];
  } else {
    a = COLOR_AS_WVEC(COLOR_VLOAD(0, s)); /* vloadn of uchar pointers: VEC bytes */
    b = COLOR_AS_WVEC(COLOR_VLOAD(1, s));
    c = COLOR_AS_WVEC(COLOR_VLOAD(2, s));
  }
  const COLOR_WVEC out = color_gray_chunk_words(a, b, c, weight_r, weight_g, weight_b);
  if (aligned) {
    *(__global COLOR_WVEC*)d = out;
  } else {
    COLOR_VSTORE(COLOR_AS_DVEC(out), 0, d);
  }
}
#endif
