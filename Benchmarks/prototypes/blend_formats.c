// Prototype (not part of the build): how fast a gradient interior blends over a 128 × 128 tile in
// the renderer's format — four float planes, sixteen lanes a step, as the span kernel's interior
// steps do it (ramp, opacity, premultiplication, source-over) — and in 8-bit RGBA pixels widened
// to 16-bit lanes (eight pixels a 512-bit register), the format Blend2D's pipelines work in.
// Measured at stop 29 of issue 14 to test whether the number format is what separates the two.
//   clang -O2 -march=x86-64-v4 Benchmarks/prototypes/blend_formats.c -o /tmp/blend_formats && /tmp/blend_formats
// (needs an AVX-512BW CPU).
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <immintrin.h>
enum { W = 128, H = 128 };
typedef float vf __attribute__((ext_vector_type(16)));
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec * 1e-9; }
static float R[W * H], G[W * H], B[W * H], A[W * H];
static uint32_t P[W * H];
__attribute__((noinline)) void float_row(float *r, float *g, float *b, float *a, int n, float u0, float gx, const float *c0, const float *dc, float op) {
    for (int k = 0; k < n; k += 16) {
        vf X = (vf){0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15} + (float)k;
        vf t = X * gx + u0;
        t = t < 0 ? (vf)0 : t; t = t > 1 ? (vf)1 : t;
        vf ca = (c0[3] + dc[3] * t) * op;
        vf cr = (c0[0] + dc[0] * t) * ca, cg = (c0[1] + dc[1] * t) * ca, cb = (c0[2] + dc[2] * t) * ca;
        vf keep = 1.0f - ca;
        vf dr, dg, db, da;
        memcpy(&dr, r + k, 64); memcpy(&dg, g + k, 64); memcpy(&db, b + k, 64); memcpy(&da, a + k, 64);
        dr = cr + dr * keep; dg = cg + dg * keep; db = cb + db * keep; da = ca + da * keep;
        memcpy(r + k, &dr, 64); memcpy(g + k, &dg, 64); memcpy(b + k, &db, 64); memcpy(a + k, &da, 64);
    }
}
__attribute__((noinline)) void u8_row(uint32_t *p, int n, int t0, int dt, const uint16_t *c0, const int16_t *dc, int op) {
    // 8 pixels a step: 32 16-bit lanes (RGBA x 8); t in 0..256 fixed point.
    __m512i lane = _mm512_set_epi16(7,7,7,7,6,6,6,6,5,5,5,5,4,4,4,4,3,3,3,3,2,2,2,2,1,1,1,1,0,0,0,0);
    __m512i tv = _mm512_add_epi16(_mm512_set1_epi16((short)t0), _mm512_mullo_epi16(lane, _mm512_set1_epi16((short)dt)));
    const __m512i step = _mm512_set1_epi16((short)(8 * dt));
    __m512i cbase = _mm512_set1_epi64((long long)((uint64_t)c0[0] | (uint64_t)c0[1] << 16 | (uint64_t)c0[2] << 32 | (uint64_t)c0[3] << 48));
    __m512i dcv = _mm512_set1_epi64((long long)((uint64_t)(uint16_t)dc[0] | (uint64_t)(uint16_t)dc[1] << 16 | (uint64_t)(uint16_t)dc[2] << 32 | (uint64_t)(uint16_t)dc[3] << 48));
    const __m512i zero = _mm512_setzero_si512(), t256 = _mm512_set1_epi16(256), r128 = _mm512_set1_epi16(128);
    const __m512i opv = _mm512_set1_epi16((short)op), c255 = _mm512_set1_epi16(255);
    // alpha lane broadcast within each pixel: bytes 6,7 of each 8-byte group
    const __m512i abcast = _mm512_set_epi8(15,14,15,14,15,14,15,14, 7,6,7,6,7,6,7,6, 15,14,15,14,15,14,15,14, 7,6,7,6,7,6,7,6,
                                           15,14,15,14,15,14,15,14, 7,6,7,6,7,6,7,6, 15,14,15,14,15,14,15,14, 7,6,7,6,7,6,7,6);
    const __mmask32 alphaLanes = 0x88888888u;
    for (int k = 0; k < n; k += 8) {
        __m512i t = _mm512_min_epi16(_mm512_max_epi16(tv, zero), t256);
        __m512i col = _mm512_add_epi16(cbase, _mm512_srai_epi16(_mm512_mullo_epi16(dcv, t), 8));
        __m512i al = _mm512_shuffle_epi8(col, abcast);
        al = _mm512_srli_epi16(_mm512_add_epi16(_mm512_mullo_epi16(al, opv), r128), 8);
        __m512i pm = _mm512_srli_epi16(_mm512_add_epi16(_mm512_mullo_epi16(col, al), r128), 8);
        pm = _mm512_mask_mov_epi16(pm, alphaLanes, al);
        __m256i src8 = _mm256_loadu_si256((const __m256i *)(p + k));
        __m512i d = _mm512_cvtepu8_epi16(src8);
        __m512i keep = _mm512_sub_epi16(c255, al);
        __m512i out = _mm512_add_epi16(pm, _mm512_srli_epi16(_mm512_add_epi16(_mm512_mullo_epi16(d, keep), r128), 8));
        _mm256_storeu_si256((__m256i *)(p + k), _mm512_cvtepi16_epi8(out));
        tv = _mm512_add_epi16(tv, step);
    }
}
int main(void) {
    const float c0[4] = {0.2f, 0.4f, 0.6f, 1}, dc[4] = {0.5f, -0.2f, 0.1f, 0};
    const uint16_t c08[4] = {51, 102, 153, 255}; const int16_t dc8[4] = {127, -51, 25, 0};
    for (int i = 0; i < W * H; i++) { R[i] = G[i] = B[i] = A[i] = 1; P[i] = 0xffffffff; }
    const int reps = 4000;
    double t0 = now();
    for (int r = 0; r < reps; r++) for (int y = 0; y < H; y++) float_row(R + y * W, G + y * W, B + y * W, A + y * W, W, 0.001f * y, 0.007f, c0, dc, 0.85f);
    double t1 = now();
    for (int r = 0; r < reps; r++) for (int y = 0; y < H; y++) u8_row(P + y * W, W, y, 2, c08, dc8, 218);
    double t2 = now();
    double px = (double)reps * W * H;
    printf("float planes: %.3f ns/px   8-bit in 16-bit lanes: %.3f ns/px   ratio %.2f   (checksums %f %u)\n", (t1 - t0) / px * 1e9, (t2 - t1) / px * 1e9, (t1 - t0) / (t2 - t1), R[77] + G[99], P[1234]);
}
