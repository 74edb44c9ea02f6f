// RGBA8 → BT.709 limited-range YUV 4:2:0 (what the video encoder takes), for the pixels of a
// tile: each lane converts one 2×2 block — four luma samples and the chroma of the block's mean
// colour (chroma sited at the block's centre). Premultiplied colour is used as is (the frame
// composited over black, as the encoder's RGB0 input was). Integer fixed point with 16
// fractional bits, rounding to nearest: the same bytes for one lane and eight. Included once per
// instantiation (see lanes.h).
#include "lanes.h"
#include "strata_kernels.h"

// 219/255 · (Kr, Kg, Kb) and 224/255 · the Cb, Cr rows of BT.709 (Kr 0.2126, Kb 0.0722), × 2¹⁶;
// each chroma row sums to zero so greys give 128 exactly.
enum { YR = 11966, YG = 40254, YB = 4064, CBR = -6596, CBG = -22188, CBB = 28784, CRR = 28784, CRG = -26145, CRB = -2639 };

INLINE vi FN(lumaOf)(vi r, vi g, vi b) { return (YR * r + YG * g + YB * b + (16 << 16) + (1 << 15)) >> 16; }

void FN(strata_rgba_to_yuv420)(const uint32_t *rgba, long stride, int width, int height, uint8_t *yPlane, long yStride,
                               uint8_t *uPlane, uint8_t *vPlane, long cStride) {
    for (int row = 0; row + 1 < height; row += 2) {
        const uint32_t *p0 = rgba + (long)row * stride, *p1 = p0 + stride;
        uint8_t *y0 = yPlane + (long)row * yStride, *y1 = y0 + yStride;
        uint8_t *u = uPlane + (long)(row / 2) * cStride, *v = vPlane + (long)(row / 2) * cStride;
        int x = 0;
        for (; x + 2 * LANES <= width; x += 2 * LANES) {
            vu a0, b0, a1, b1;  // left and right pixel of each block, top and bottom row
#if LANES == 8
            typedef uint32_t vu16 __attribute__((ext_vector_type(16)));
            vu16 t, s;
            memcpy(&t, p0 + x, sizeof t); memcpy(&s, p1 + x, sizeof s);
            a0 = __builtin_shufflevector(t, t, 0, 2, 4, 6, 8, 10, 12, 14);
            b0 = __builtin_shufflevector(t, t, 1, 3, 5, 7, 9, 11, 13, 15);
            a1 = __builtin_shufflevector(s, s, 0, 2, 4, 6, 8, 10, 12, 14);
            b1 = __builtin_shufflevector(s, s, 1, 3, 5, 7, 9, 11, 13, 15);
#else
            a0 = p0[x]; b0 = p0[x + 1]; a1 = p1[x]; b1 = p1[x + 1];
#endif
#define CH(w, s) ((vi)(((w) >> (s)) & 0xffu))
            vi ya0 = FN(lumaOf)(CH(a0, 0), CH(a0, 8), CH(a0, 16)), yb0 = FN(lumaOf)(CH(b0, 0), CH(b0, 8), CH(b0, 16));
            vi ya1 = FN(lumaOf)(CH(a1, 0), CH(a1, 8), CH(a1, 16)), yb1 = FN(lumaOf)(CH(b1, 0), CH(b1, 8), CH(b1, 16));
            vi sr = CH(a0, 0) + CH(b0, 0) + CH(a1, 0) + CH(b1, 0);
            vi sg = CH(a0, 8) + CH(b0, 8) + CH(a1, 8) + CH(b1, 8);
            vi sb = CH(a0, 16) + CH(b0, 16) + CH(a1, 16) + CH(b1, 16);
#undef CH
            // The block's sums are 4× its mean: two more fractional bits.
            vi cb = (CBR * sr + CBG * sg + CBB * sb + (128 << 18) + (1 << 17)) >> 18;
            vi cr = (CRR * sr + CRG * sg + CRB * sb + (128 << 18) + (1 << 17)) >> 18;
#if LANES == 8
            typedef uint8_t vb8 __attribute__((ext_vector_type(8)));
            typedef uint8_t vb16 __attribute__((ext_vector_type(16)));
            vb8 e0 = __builtin_convertvector(ya0, vb8), o0 = __builtin_convertvector(yb0, vb8);
            vb8 e1 = __builtin_convertvector(ya1, vb8), o1 = __builtin_convertvector(yb1, vb8);
            vb16 r0 = __builtin_shufflevector(e0, o0, 0, 8, 1, 9, 2, 10, 3, 11, 4, 12, 5, 13, 6, 14, 7, 15);
            vb16 r1 = __builtin_shufflevector(e1, o1, 0, 8, 1, 9, 2, 10, 3, 11, 4, 12, 5, 13, 6, 14, 7, 15);
            memcpy(y0 + x, &r0, 16); memcpy(y1 + x, &r1, 16);
            vb8 ub = __builtin_convertvector(cb, vb8), vb = __builtin_convertvector(cr, vb8);
            memcpy(u + x / 2, &ub, 8); memcpy(v + x / 2, &vb, 8);
#else
            y0[x] = (uint8_t)ya0[0]; y0[x + 1] = (uint8_t)yb0[0]; y1[x] = (uint8_t)ya1[0]; y1[x + 1] = (uint8_t)yb1[0];
            u[x / 2] = (uint8_t)cb[0]; v[x / 2] = (uint8_t)cr[0];
#endif
        }
#if LANES == 8
        // The last blocks of the row, one at a time (the same arithmetic).
        for (; x + 1 < width; x += 2) {
            const uint32_t q[4] = { p0[x], p0[x + 1], p1[x], p1[x + 1] };
            int sr = 0, sg = 0, sb = 0;
            for (int k = 0; k < 4; k++) {
                const int r = q[k] & 0xff, g = (q[k] >> 8) & 0xff, b = (q[k] >> 16) & 0xff;
                const uint8_t l = (uint8_t)((YR * r + YG * g + YB * b + (16 << 16) + (1 << 15)) >> 16);
                (k < 2 ? y0 : y1)[x + (k & 1)] = l;
                sr += r; sg += g; sb += b;
            }
            u[x / 2] = (uint8_t)((CBR * sr + CBG * sg + CBB * sb + (128 << 18) + (1 << 17)) >> 18);
            v[x / 2] = (uint8_t)((CRR * sr + CRG * sg + CRB * sb + (128 << 18) + (1 << 17)) >> 18);
        }
#endif
    }
}
