// Fixed-point geometry shared by the two scan converters of polygon edges: the cells of
// coverage.c and the strips of strips.c. Both split an edge at the same pixel boundaries with
// the same rounded crossings, so they give the same coverage.
#ifndef STRATA_COVERAGE_MATH_H
#define STRATA_COVERAGE_MATH_H
#include <stdint.h>

#include <stdlib.h>

#define ONE 256

/// Grows a realloc'd buffer of `*capacity` elements of `size` bytes, doubling from `initial`,
/// until it holds `needed`; 0 when an allocation failed (the buffer is left as it was).
static inline int grow_buffer(void **buffer, long *capacity, long needed, size_t size, long initial) {
    long cap = *capacity;
    if (cap >= needed) return 1;
    while (cap < needed) cap = cap ? cap * 2 : initial;
    void *b = realloc(*buffer, (size_t)cap * size);
    if (!b) return 0;
    *buffer = b;
    *capacity = cap;
    return 1;
}

/// a / b rounded down, for b > 0 (every caller's divisor is: rounddiv makes its own positive and
/// the steppers' is twice a positive one). C's quotient rounds toward zero and its remainder takes
/// a's sign, so a negative remainder means one less.
static inline int64_t floordiv(int64_t a, int64_t b) {
    const int64_t q = a / b, r = a % b;
    return q - (r < 0);
}

/// floordiv(a, b) and the remainder 0 ≤ a − q·b < b, for b > 0, from one division.
static inline void floordivmod(int64_t a, int64_t b, int64_t *q, int64_t *r) {
    const int64_t q0 = a / b, r0 = a % b, below = r0 < 0;
    *q = q0 - below;
    *r = r0 + (below ? b : 0);
}

/// a / 256 rounded down, the pixel a fixed-point coordinate lies in: an arithmetic shift.
_Static_assert(ONE == 256 && (-1 >> 1) == -1, "pixelOf shifts by 8 and needs arithmetic shifts of signed integers");
static inline int64_t pixelOf(int64_t a) { return a >> 8; }

/// n / d rounded to nearest, halves up (d ≠ 0).
static inline int64_t rounddiv(int64_t n, int64_t d) {
    if (d < 0) { n = -n; d = -d; }
    return floordiv(2 * n + d, 2 * d);
}

/// The values rounddiv((base + k·unit)·num, den) for k = 0, 1, 2, … one after the other, with a
/// quotient and remainder stepped instead of a division each (a 64-bit division per crossed
/// pixel was most of the time spent collecting cells).
typedef struct { int64_t q, r, sq, sr, d; } stepper;

static inline stepper stepper_make(int64_t base, int64_t unit, int64_t num, int64_t den) {
    if (den < 0) { den = -den; num = -num; }
    stepper s;
    s.d = 2 * den;
    const int64_t a0 = 2 * base * num + den, step = 2 * unit * num;
    floordivmod(a0, s.d, &s.q, &s.r);
    floordivmod(step, s.d, &s.sq, &s.sr);
    return s;
}

static inline int64_t stepper_next(stepper *s) {
    const int64_t v = s->q;
    s->q += s->sq; s->r += s->sr;
    if (s->r >= s->d) { s->q++; s->r -= s->d; }
    return v;
}

/// Vertices snapped to the 1/256 grid (clamped far outside any frame), halves away from zero as
/// llround does, inline: the fraction left by truncating is exact. (The rounding is added, not
/// branched on: which way a vertex rounds is not predictable, and the branches' misses were most
/// of the time spent adding edges.)
static inline int64_t fixed(double v) {
    if (!(v > -1e7)) v = -1e7;
    if (v > 1e7) v = 1e7;
    const double s = v * ONE;
    const int64_t i = (int64_t)s;
    const double f = s - (double)i;
    return i + (int64_t)(f >= 0.5) - (int64_t)(f <= -0.5);
}

/// Snaps an edge to the grid and clips it to rows 0 ..< height and columns ..< width, as both
/// converters need it: the parts above, below and right of the frame add nothing, and a part left
/// of it only its cover, so it becomes a vertical edge in column −1 (x = −½). Calls
/// `emit(ctx, x1, y1, x2, y2)` for each resulting edge (at most two), none of them horizontal.
typedef void (*strata_emit_edge)(void *ctx, int64_t x1, int64_t y1, int64_t x2, int64_t y2);

static inline __attribute__((always_inline)) void clip_edge(int64_t width, int64_t height, double x0, double y0, double x1,
                                                           double y1, strata_emit_edge emit, void *ctx) {
    int64_t X0 = fixed(x0), Y0 = fixed(y0), X1 = fixed(x1), Y1 = fixed(y1);
    if (Y0 == Y1) return;
    const int64_t H = height * ONE, W = width * ONE;
    // Clip to the rows of the frame (the parts above and below add nothing).
    if ((Y0 <= 0 && Y1 <= 0) || (Y0 >= H && Y1 >= H)) return;
    if (Y0 < 0 || Y1 < 0 || Y0 > H || Y1 > H) {
        int64_t ya = Y0 < Y1 ? Y0 : Y1, yb = Y0 < Y1 ? Y1 : Y0;
        int64_t ca = ya < 0 ? 0 : ya, cb = yb > H ? H : yb;
        int64_t xa = X0 + rounddiv((ca - Y0) * (X1 - X0), Y1 - Y0);
        int64_t xb = X0 + rounddiv((cb - Y0) * (X1 - X0), Y1 - Y0);
        if (Y0 < Y1) { X0 = xa; Y0 = ca; X1 = xb; Y1 = cb; } else { X0 = xb; Y0 = cb; X1 = xa; Y1 = ca; }
    }
    if (Y0 == Y1) return;
    // Right of the frame: nothing. Left of it: only the cover counts, so that part becomes a
    // vertical edge in column −1.
    if (X0 >= W && X1 >= W) return;
    if (X0 <= 0 && X1 <= 0) { emit(ctx, -ONE / 2, Y0, -ONE / 2, Y1); return; }
    if (X0 > W || X1 > W) {
        int64_t ym = Y0 + rounddiv((W - X0) * (Y1 - Y0), X1 - X0);
        if (X0 > W) { X0 = W; Y0 = ym; } else { X1 = W; Y1 = ym; }
    }
    if (X0 < 0 || X1 < 0) {
        int64_t ym = Y0 + rounddiv((0 - X0) * (Y1 - Y0), X1 - X0);
        if (X0 < 0) { if (Y0 != ym) emit(ctx, -ONE / 2, Y0, -ONE / 2, ym); if (ym != Y1) emit(ctx, 0, ym, X1, Y1); }
        else { if (Y0 != ym) emit(ctx, X0, Y0, 0, ym); if (ym != Y1) emit(ctx, -ONE / 2, ym, -ONE / 2, Y1); }
        return;
    }
    if (Y0 != Y1) emit(ctx, X0, Y0, X1, Y1);
}

#endif
