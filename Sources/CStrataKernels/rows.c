// Which pixels of a row an item touches: the C twins of ScreenQuad.span and
// InteriorRuns.columns (TileRasterizer.swift), the same double-precision arithmetic step for step,
// so that the row driver of the span kernel skips and fast-paths exactly the pixels the Swift
// code would (their tests check the Swift versions; FastPathTests checks the frames).
#pragma STDC FP_CONTRACT OFF
#include <math.h>
#include "strata_kernels.h"

static inline double dmin(double a, double b) { return a < b ? a : b; }
static inline double dmax(double a, double b) { return a > b ? a : b; }

int strata_quad_span(const strata_quad *q, int y, int *lo, int *hi) {
    const double top = (double)y - 1, bottom = (double)y + 2;
    double minX = INFINITY, maxX = -INFINITY;
    for (int i = 0; i < 4; i++) {
        int j = (i + 1) & 3;
        double x0 = q->xs[i], y0 = q->ys[i], x1 = q->xs[j], y1 = q->ys[j];
        if (y0 > y1) { double t = x0; x0 = x1; x1 = t; t = y0; y0 = y1; y1 = t; }
        if (y1 < top || y0 > bottom) continue;
        // Clip the edge to the band [top, bottom] and take its x extent.
        const double dy = y1 - y0;
        const double ta = dy > 0 ? dmax(0, (top - y0) / dy) : 0, tb = dy > 0 ? dmin(1, (bottom - y0) / dy) : 1;
        const double xa = x0 + (x1 - x0) * ta, xb = x0 + (x1 - x0) * tb;
        minX = dmin(minX, dmin(xa, xb)); maxX = dmax(maxX, dmax(xa, xb));
    }
    if (!(minX <= maxX)) return 0;
    long a = (long)floor(minX) - 1, b = (long)ceil(maxX) + 1;
    if (a < *lo) a = *lo;
    if (b > *hi) b = *hi;
    if (a >= b) return 0;
    *lo = (int)a; *hi = (int)b;
    return 1;
}

/// The X interval where |k·X + b| ≤ a·(g·X + h) (InteriorRuns.slab).
static int slab(double k, double b, double a, double g, double h, double *outLo, double *outHi) {
    double lo = -INFINITY, hi = INFINITY;
    const double c1 = k - a * g, d1 = a * h - b, c2 = -k - a * g, d2 = a * h + b;
    if (c1 > 0) hi = dmin(hi, d1 / c1); else if (c1 < 0) lo = dmax(lo, d1 / c1); else if (d1 < 0) return 0;
    if (c2 > 0) hi = dmin(hi, d2 / c2); else if (c2 < 0) lo = dmax(lo, d2 / c2); else if (d2 < 0) return 0;
    if (!(lo <= hi)) return 0;
    *outLo = lo; *outHi = hi;
    return 1;
}

/// The pixels of the row within lo ..< hi inside one slab, one pixel in from its ends
/// (InteriorRuns.run).
static int run(const strata_interior *r, double ku, double bu, double kv, double bv, double a, double b, double h,
               int lo, int hi, int *x0, int *x1) {
    double ua, ub, va, vb;
    if (!(a > 0 && b > 0)) return 0;
    if (!slab(ku, bu, a, r->m[2], h, &ua, &ub) || !slab(kv, bv, b, r->m[2], h, &va, &vb)) return 0;
    const double xlo = dmax(ua, va), xhi = dmin(ub, vb);
    if (!(isfinite(xlo) || xlo < 0) || !(isfinite(xhi) || xhi > 0)) return 0;
    const long first = xlo < -1e15 ? lo : (long)ceil(dmax(-1e15, xlo - 0.5)) + 1;
    const long last = xhi > 1e15 ? hi - 1 : (long)floor(dmin(1e15, xhi - 0.5)) - 1;
    const long s = first > lo ? first : lo, e = last + 1 < hi ? last + 1 : hi;
    if (s >= e) return 0;
    *x0 = (int)s; *x1 = (int)e;
    return 1;
}

int strata_interior_columns(const strata_interior *r, int y, int lo, int hi, int *x0, int *x1) {
    const double Y = (double)y + 0.5;
    const double *m = r->m;
    const double h = Y * m[5] + m[8];
    const double ku = m[0] - r->cu * m[2], bu = Y * m[3] + m[6] - r->cu * h;
    const double kv = m[1] - r->cv * m[2], bv = Y * m[4] + m[7] - r->cv * h;
    int f0, f1, g0, g1;
    const int first = run(r, ku, bu, kv, bv, r->a1, r->b1, h, lo, hi, &f0, &f1);
    const int second = run(r, ku, bu, kv, bv, r->a2, r->b2, h, lo, hi, &g0, &g1);
    if (!first && !second) return 0;
    if (first && (!second || !(g1 - g0 > f1 - f0))) { *x0 = f0; *x1 = f1; return 1; }
    *x0 = g0; *x1 = g1;
    return 1;
}
