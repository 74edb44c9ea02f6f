// Which pixels of a row an item touches: the C twins of ScreenQuad.span and
// InteriorRuns.columns (TileRasterizer.swift), the same double-precision arithmetic step for step,
// so that the row driver of the span kernel skips and fast-paths exactly the pixels the Swift
// code would (their tests check the Swift versions; FastPathTests checks the frames).
#pragma STDC FP_CONTRACT OFF
#include <math.h>
#include "strata_kernels.h"

static inline double dmin(double a, double b) { return a < b ? a : b; }
static inline double dmax(double a, double b) { return a > b ? a : b; }
/// floor and ceil as integers for |v| ≤ 1e15, without a libm call (as floor/ceil exactly).
static inline long ifloor(double v) { long t = (long)v; return (double)t > v ? t - 1 : t; }
static inline long iceil(double v) { long t = (long)v; return (double)t < v ? t + 1 : t; }

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

/// The pixels within lo ..< hi whose centres lie in [xlo, xhi], one pixel in from its ends
/// (InteriorRuns.inward).
static inline int inward(double xlo, double xhi, int lo, int hi, int *x0, int *x1) {
    if (!(isfinite(xlo) || xlo < 0) || !(isfinite(xhi) || xhi > 0)) return 0;
    // Clamped on both sides: an end far right (or left) of any frame rounds to an empty run, not
    // to a conversion out of range.
    const long first = xlo < -1e15 ? lo : iceil(dmin(1e15, dmax(-1e15, xlo - 0.5))) + 1;
    const long last = xhi > 1e15 ? hi - 1 : ifloor(dmax(-1e15, dmin(1e15, xhi - 0.5))) - 1;
    const long s = first > lo ? first : lo, e = last + 1 < hi ? last + 1 : hi;
    if (s >= e) return 0;
    *x0 = (int)s; *x1 = (int)e;
    return 1;
}

/// The pixels of the row within lo ..< hi inside one slab, one pixel in from its ends
/// (InteriorRuns.run).
static int run(const strata_interior *r, double ku, double bu, double kv, double bv, double a, double b, double h,
               int lo, int hi, int *x0, int *x1) {
    double ua, ub, va, vb;
    if (!(a > 0 && b > 0)) return 0;
    if (!slab(ku, bu, a, r->m[2], h, &ua, &ub) || !slab(kv, bv, b, r->m[2], h, &va, &vb)) return 0;
    return inward(dmax(ua, va), dmin(ub, vb), lo, hi, x0, x1);
}

/// The X interval where (ku·X + bu)² + (kv·X + bv)² ≤ rho² (InteriorRuns.disc).
static int disc(double ku, double bu, double kv, double bv, double rho, double *outLo, double *outHi) {
    const double a = ku * ku + kv * kv, b = ku * bu + kv * bv, c = bu * bu + bv * bv - rho * rho;
    if (!(a > 0)) return 0;
    const double d = b * b - a * c;
    if (!(d >= 0)) return 0;
    const double root = sqrt(d);
    *outLo = (-b - root) / a; *outHi = (-b + root) / a;
    return 1;
}

/// The corner discs' centres: (su·du, sv·dv) from the shape's centre.
static const double discSigns[4][2] = { { 1, 1 }, { -1, 1 }, { 1, -1 }, { -1, -1 } };

/// The run of a rounded interior (rho > 0, affine): the span of its slabs' and discs' intervals
/// along the row (InteriorRuns.columns).
static int roundedRun(double ku, double bu, double kv, double bv, const double slabs[4], double du, double dv, double rho,
                      int lo, int hi, int *x0, int *x1) {
    double xlo = INFINITY, xhi = -INFINITY;
    for (int i = 0; i < 2; i++) {
        double ua, ub, va, vb;
        const double a = slabs[2 * i], b = slabs[2 * i + 1];
        if (!(a > 0 && b > 0) || !slab(ku, bu, a, 0, 1, &ua, &ub) || !slab(kv, bv, b, 0, 1, &va, &vb)) continue;
        const double l = dmax(ua, va), u = dmin(ub, vb);
        if (l <= u) { xlo = dmin(xlo, l); xhi = dmax(xhi, u); }
    }
    for (int i = 0; i < 4; i++) {
        double l, u;
        if (disc(ku, bu - discSigns[i][0] * du, kv, bv - discSigns[i][1] * dv, rho, &l, &u)) { xlo = dmin(xlo, l); xhi = dmax(xhi, u); }
    }
    return inward(xlo, xhi, lo, hi, x0, x1);
}

int strata_interior_columns(const strata_interior *r, int y, int lo, int hi, int *x0, int *x1) {
    const double Y = (double)y + 0.5;
    const double *m = r->m;
    const double h = Y * m[5] + m[8];
    const double ku = m[0] - r->cu * m[2], bu = Y * m[3] + m[6] - r->cu * h;
    const double kv = m[1] - r->cv * m[2], bv = Y * m[4] + m[7] - r->cv * h;
    if (r->rho > 0) {
        const double slabs[4] = { r->a1, r->b1, r->a2, r->b2 };
        return roundedRun(ku, bu, kv, bv, slabs, r->du, r->dv, r->rho, lo, hi, x0, x1);
    }
    int f0, f1, g0, g1;
    const int first = run(r, ku, bu, kv, bv, r->a1, r->b1, h, lo, hi, &f0, &f1);
    const int second = run(r, ku, bu, kv, bv, r->a2, r->b2, h, lo, hi, &g0, &g1);
    if (!first && !second) return 0;
    if (first && (!second || !(g1 - g0 > f1 - f0))) { *x0 = f0; *x1 = f1; return 1; }
    *x0 = g0; *x1 = g1;
    return 1;
}

// MARK: Prepared once per item and tile

void strata_prepare_rows(const strata_rows *rows, strata_row_setup *s) {
    s->edgeCount = 0;
    if (rows->hasOutline) {
        const strata_quad *q = &rows->outline;
        for (int i = 0; i < 4; i++) {
            int j = (i + 1) & 3;
            double x0 = q->xs[i], y0 = q->ys[i], x1 = q->xs[j], y1 = q->ys[j];
            if (y0 > y1) { double t = x0; x0 = x1; x1 = t; t = y0; y0 = y1; y1 = t; }
            const int k = s->edgeCount++;
            s->ex0[k] = x0; s->ex1[k] = x1; s->ey0[k] = y0; s->ey1[k] = y1;
            s->slope[k] = y1 > y0 ? (x1 - x0) / (y1 - y0) : 0;
        }
    }
    s->affineInterior = 0;
    if (rows->hasInterior) {
        const strata_interior *r = &rows->interior;
        const double *m = r->m;
        if (m[2] == 0 && m[5] == 0 && m[8] == 1) {
            s->affineInterior = 1;
            s->a1 = r->a1; s->b1 = r->b1; s->a2 = r->a2; s->b2 = r->b2;
            s->discs = 0;
            const double ku = m[0], kv = m[1], a = ku * ku + kv * kv;
            if (r->rho > 0 && a > 0) {
                // Along row Y, u − cu − su·du = ku·X + bu and v − cv − sv·dv = kv·X + bv, with bu, bv
                // linear in Y. (ku·X + bu)² + (kv·X + bv)² ≤ rho² holds for X = (−b ± √(b² − a·c)) / a
                // between its roots, b = ku·bu + kv·bv, c = bu² + bv² − rho², and
                // b² − a·c = a·rho² − (ku·bv − kv·bu)² (Lagrange's identity).
                s->discs = 1;
                s->invA = 1 / a;
                s->aRho2 = a * r->rho * r->rho;
                s->cY = -(ku * m[3] + kv * m[4]) / a;
                s->eY = ku * m[4] - kv * m[3];
                for (int i = 0; i < 4; i++) {
                    const double bu0 = m[6] - r->cu - discSigns[i][0] * r->du, bv0 = m[7] - r->cv - discSigns[i][1] * r->dv;
                    s->c0[i] = -(ku * bu0 + kv * bv0) / a;
                    s->e0[i] = ku * bv0 - kv * bu0;
                }
            }
            const double half[4] = { r->a1, r->b1, r->a2, r->b2 };
            for (int i = 0; i < 4; i++) {
                // Axis u for i even, v for i odd: |k·X + b(Y)| ≤ a with b = bY·Y + b0.
                const int v = i & 1;
                const double k = v ? m[1] : m[0];
                const double bY = v ? m[4] : m[3], b0 = v ? m[7] - r->cv : m[6] - r->cu;
                const double a = half[i];
                if (!(a > 0)) { s->kind[i] = 0; continue; }
                if (k == 0) { s->kind[i] = 2; s->lo0[i] = b0; s->loY[i] = bY; s->hi0[i] = a; continue; }
                s->kind[i] = 1;
                // X = (±a − b) / k.
                const double p0 = (-a - b0) / k, pY = -bY / k, q0 = (a - b0) / k;
                if (k > 0) { s->lo0[i] = p0; s->hi0[i] = q0; } else { s->lo0[i] = q0; s->hi0[i] = p0; }
                s->loY[i] = pY; s->hiY[i] = pY;
            }
        }
    }
}

/// (The bodies are inline so that strata_item_row_spans, which calls them for every row of
/// every item, pays no call for them.)
static inline int quadSpanFast(const strata_row_setup *s, int y, int *lo, int *hi) {
    const double top = (double)y - 1, bottom = (double)y + 2;
    double minX = INFINITY, maxX = -INFINITY;
    for (int k = 0; k < s->edgeCount; k++) {
        const double y0 = s->ey0[k], y1 = s->ey1[k];
        if (y1 < top || y0 > bottom) continue;
        double xa, xb;
        if (y1 > y0) {
            const double ya = y0 > top ? y0 : top, yb = y1 < bottom ? y1 : bottom;
            xa = s->ex0[k] + s->slope[k] * (ya - y0);
            xb = s->ex0[k] + s->slope[k] * (yb - y0);
        } else {
            xa = s->ex0[k]; xb = s->ex1[k];
        }
        minX = dmin(minX, dmin(xa, xb)); maxX = dmax(maxX, dmax(xa, xb));
    }
    if (!(minX <= maxX)) return 0;
    long a = ifloor(dmax(-1e15, minX)) - 1, b = iceil(dmin(1e15, maxX)) + 1;
    if (a < *lo) a = *lo;
    if (b > *hi) b = *hi;
    if (a >= b) return 0;
    *lo = (int)a; *hi = (int)b;
    return 1;
}

/// One slab's X interval (both axes) of row Y; false when empty.
static inline int fastSlab(const strata_row_setup *s, int slabIndex, double Y, double *outLo, double *outHi) {
    double xlo = -INFINITY, xhi = INFINITY;
    for (int axis = 0; axis < 2; axis++) {
        const int i = 2 * slabIndex + axis;
        switch (s->kind[i]) {
        case 0: return 0;
        case 2: {
            const double b = s->lo0[i] + s->loY[i] * Y;
            if (!(b <= s->hi0[i] && -b <= s->hi0[i])) return 0;
            break;
        }
        default:
            xlo = dmax(xlo, s->lo0[i] + s->loY[i] * Y);
            xhi = dmin(xhi, s->hi0[i] + s->hiY[i] * Y);
        }
    }
    if (!(xlo <= xhi)) return 0;
    *outLo = xlo; *outHi = xhi;
    return 1;
}

/// One slab's run (both axes) of row Y, one pixel in from its ends (as `run`).
static inline int fastRun(const strata_row_setup *s, int slabIndex, double Y, int lo, int hi, int *x0, int *x1) {
    double xlo, xhi;
    if (!fastSlab(s, slabIndex, Y, &xlo, &xhi)) return 0;
    const long first = xlo < -1e15 ? lo : iceil(dmax(-1e15, xlo - 0.5)) + 1;
    const long last = xhi > 1e15 ? hi - 1 : ifloor(dmin(1e15, xhi - 0.5)) - 1;
    const long a = first > lo ? first : lo, e = last + 1 < hi ? last + 1 : hi;
    if (a >= e) return 0;
    *x0 = (int)a; *x1 = (int)e;
    return 1;
}

static inline __attribute__((always_inline)) int interiorColumnsFast(const strata_row_setup *s, const strata_interior *r, int y, int lo, int hi, int *x0, int *x1) {
    if (!s->affineInterior) return strata_interior_columns(r, y, lo, hi, x0, x1);
    const double Y = (double)y + 0.5;
    if (s->discs) {
        // The span of the slabs' and the discs' intervals (roundedRun, with the row's terms
        // prepared).
        double xlo = INFINITY, xhi = -INFINITY, l, u;
        for (int i = 0; i < 2; i++) {
            if (fastSlab(s, i, Y, &l, &u)) { xlo = dmin(xlo, l); xhi = dmax(xhi, u); }
        }
        for (int i = 0; i < 4; i++) {
            const double e = s->e0[i] + s->eY * Y, d = s->aRho2 - e * e;
            if (!(d >= 0)) continue;
            const double centre = s->c0[i] + s->cY * Y, half = sqrt(d) * s->invA;
            xlo = dmin(xlo, centre - half); xhi = dmax(xhi, centre + half);
        }
        return inward(xlo, xhi, lo, hi, x0, x1);
    }
    int f0, f1, g0, g1;
    const int first = fastRun(s, 0, Y, lo, hi, &f0, &f1);
    const int second = fastRun(s, 1, Y, lo, hi, &g0, &g1);
    if (!first && !second) return 0;
    if (first && (!second || !(g1 - g0 > f1 - f0))) { *x0 = f0; *x1 = f1; return 1; }
    *x0 = g0; *x1 = g1;
    return 1;
}

int strata_quad_span_fast(const strata_row_setup *s, int y, int *lo, int *hi) { return quadSpanFast(s, y, lo, hi); }

int strata_interior_columns_fast(const strata_row_setup *s, const strata_interior *r, int y, int lo, int hi, int *x0, int *x1) {
    return interiorColumnsFast(s, r, y, lo, hi, x0, x1);
}

// MARK: Eight rows at a time

// The spans of an item with an outline and an affine interior (most layers' borders, fills and
// images, with corner discs or square corners) are found for eight rows at once: quadSpanFast
// and interiorColumnsFast's affine branches with every branch a select, in lanes of doubles, so
// that the rows' square roots and conversions overlap (one row at a time, each waited on a chain
// of them). Every lane computes its row's values with the same operations in the same order, so
// the spans are those of the row-by-row code (RowSpanTests compares them). The whole numbers
// (pixel columns) stay doubles — exact below 2⁵³, and these lie within ±(10¹⁵ + 2) — floored and
// ceiled in place, so no lane converts to a 64-bit integer (which CPUs without AVX-512 do one
// lane at a time: such code was slower than the row-by-row code).
enum { ROWS = 8 };
typedef double vd __attribute__((ext_vector_type(ROWS)));
typedef int64_t vl __attribute__((ext_vector_type(ROWS)));
#define VSEL(m, a, b) ((m) ? (a) : (b))
// The helpers below are always inlined, so no vector crosses a call (and clang's warning that
// 64-byte vectors change the calling convention does not apply). They carry no target of their
// own: each instantiation below compiles them for its own.
#pragma clang diagnostic ignored "-Wpsabi"
#define VINLINE static inline __attribute__((always_inline))

VINLINE vd vmin(vd a, vd b) { return VSEL(a < b, a, b); }
VINLINE vd vmax(vd a, vd b) { return VSEL(a > b, a, b); }
/// floor and ceil lane by lane (ifloor and iceil, as doubles), for values clamped to ±1e15.
VINLINE vd vfloor(vd v) { return __builtin_elementwise_floor(v); }
VINLINE vd vceil(vd v) { return __builtin_elementwise_ceil(v); }

/// The outline's columns of rows y ..< y + ROWS (quadSpanFast, lane by lane): *sx0 ..< *sx1 within
/// the item's columns, and whether the row has any.
VINLINE vl outlineSpans(const strata_row_setup *s, const strata_rows *rows, vd yi, vd *sx0, vd *sx1) {
    const vd top = yi - 1, bottom = yi + 2;
    vd minX = INFINITY, maxX = -INFINITY;
    for (int k = 0; k < s->edgeCount; k++) {
        const double y0 = s->ey0[k], y1 = s->ey1[k];
        const vl meets = (vl)(!((vd)y1 < top) & !((vd)y0 > bottom));
        vd xa, xb;
        if (y1 > y0) {
            const vd ya = VSEL((vd)y0 > top, (vd)y0, top), yb = VSEL((vd)y1 < bottom, (vd)y1, bottom);
            xa = s->ex0[k] + s->slope[k] * (ya - y0);
            xb = s->ex0[k] + s->slope[k] * (yb - y0);
        } else {
            xa = s->ex0[k]; xb = s->ex1[k];
        }
        minX = VSEL(meets, vmin(minX, vmin(xa, xb)), minX);
        maxX = VSEL(meets, vmax(maxX, vmax(xa, xb)), maxX);
    }
    const vl spanned = (vl)(minX <= maxX);
    // Clamped on both sides (only the side that matters is, row by row): a lane with no span
    // floors a finite value, and the clamps change no span (rows->x0 and x1 lie within ±1e15).
    vd a = vfloor(vmin((vd)1e15, vmax((vd)-1e15, minX))) - 1, b = vceil(vmax((vd)-1e15, vmin((vd)1e15, maxX))) + 1;
    a = VSEL(a < (vd)rows->x0, (vd)rows->x0, a);
    b = VSEL(b > (vd)rows->x1, (vd)rows->x1, b);
    *sx0 = a; *sx1 = b;
    return spanned & (vl)(a < b);
}

/// One slab's interval of X (both axes) in each lane's row Y (fastSlab): valid lanes and the ends.
VINLINE vl slabSpans(const strata_row_setup *s, int slab, vd Y, vd *lo, vd *hi) {
    vd l = -INFINITY, u = INFINITY;
    vl valid = (vl)-1;
    for (int axis = 0; axis < 2; axis++) {
        const int j = 2 * slab + axis;
        switch (s->kind[j]) {
        case 0: valid = (vl)0; break;
        case 2: {
            const vd b = s->lo0[j] + s->loY[j] * Y;
            valid &= (vl)((b <= s->hi0[j]) & (-b <= s->hi0[j]));
            break;
        }
        default:
            l = vmax(l, s->lo0[j] + s->loY[j] * Y);
            u = vmin(u, s->hi0[j] + s->hiY[j] * Y);
        }
    }
    *lo = l; *hi = u;
    return valid & (vl)(l <= u);
}

/// The pixels within sx0 ..< sx1 whose centres lie in [xlo, xhi], one pixel in from its ends
/// (`inward` and fastRun's run, lane by lane; an end past ±1e15 is the row's): *a ..< *e, and
/// whether there are any. Lanes without an interval pass finite stand-ins, which their callers
/// leave out.
VINLINE vl inwardRun(vd xlo, vd xhi, vd sx0, vd sx1, vd *a, vd *e) {
    const vd first = VSEL((vl)(xlo < -1e15), sx0, vceil(vmin((vd)1e15, vmax((vd)-1e15, xlo - 0.5))) + 1);
    const vd last = VSEL((vl)(xhi > 1e15), sx1 - 1, vfloor(vmax((vd)-1e15, vmin((vd)1e15, xhi - 0.5))) - 1);
    *a = VSEL(first > sx0, first, sx0);
    *e = VSEL(last + 1 < sx1, last + 1, sx1);
    return (vl)(*a < *e);
}

/// The rows' spans into `out`: the outline's columns, and the interior run (ia ..< ib) where `inner`.
VINLINE void storeSpans(const strata_rows *rows, int y, vl outlined, vd sx0, vd sx1, vl inner, vd ia, vd ib, int32_t *out) {
    for (int i = 0; i < ROWS && y + i < rows->y1; i++) {
        int32_t *o = out + 4 * i;
        if (!outlined[i]) { o[0] = 0; o[1] = 0; o[2] = 0; o[3] = 0; continue; }
        // Whole numbers within the row's columns: exact as int32.
        o[0] = (int32_t)sx0[i]; o[1] = (int32_t)sx1[i];
        o[2] = inner[i] ? (int32_t)ia[i] : (int32_t)sx0[i];
        o[3] = inner[i] ? (int32_t)ib[i] : (int32_t)sx0[i];
    }
}

/// The interior runs of rounded rows (s->discs): the span of the slabs' and the discs'
/// intervals, one pixel in (interiorColumnsFast's rounded branch).
VINLINE vl roundedInterior(const strata_row_setup *s, vd Y, vd sx0, vd sx1, vd *ia, vd *ib) {
    vd xlo = INFINITY, xhi = -INFINITY;
    for (int i = 0; i < 2; i++) {
        vd l, u;
        const vl valid = slabSpans(s, i, Y, &l, &u);
        xlo = VSEL(valid, vmin(xlo, l), xlo);
        xhi = VSEL(valid, vmax(xhi, u), xhi);
    }
    for (int i = 0; i < 4; i++) {
        const vd e = s->e0[i] + s->eY * Y, d = s->aRho2 - e * e;
        const vl meets = (vl)(d >= 0);
        const vd centre = s->c0[i] + s->cY * Y, half = __builtin_elementwise_sqrt(VSEL(meets, d, (vd)0)) * s->invA;
        xlo = VSEL(meets, vmin(xlo, centre - half), xlo);
        xhi = VSEL(meets, vmax(xhi, centre + half), xhi);
    }
    // inward(xlo, xhi, sx0, sx1).
    const vl bounded = (vl)((xlo > -INFINITY & xlo < INFINITY) | (xlo < 0)) & (vl)((xhi > -INFINITY & xhi < INFINITY) | (xhi > 0));
    return bounded & inwardRun(VSEL(bounded, xlo, (vd)0), VSEL(bounded, xhi, (vd)0), sx0, sx1, ia, ib);
}

/// One slab's run of the rows (fastRun, lane by lane).
VINLINE vl slabRun(const strata_row_setup *s, int slab, vd Y, vd sx0, vd sx1, vd *a, vd *e) {
    vd xlo, xhi;
    const vl valid = slabSpans(s, slab, Y, &xlo, &xhi);
    return valid & inwardRun(VSEL(valid, xlo, (vd)0), VSEL(valid, xhi, (vd)0), sx0, sx1, a, e);
}

/// The interior runs of rows with square corners (no discs): the longer of the two slabs' runs
/// (interiorColumnsFast's other affine branch).
VINLINE vl squareInterior(const strata_row_setup *s, vd Y, vd sx0, vd sx1, vd *ia, vd *ib) {
    vd f0, f1, g0, g1;
    const vl first = slabRun(s, 0, Y, sx0, sx1, &f0, &f1), second = slabRun(s, 1, Y, sx0, sx1, &g0, &g1);
    const vl takeFirst = first & (~second | ~(vl)(g1 - g0 > f1 - f0));
    *ia = VSEL(takeFirst, f0, g0); *ib = VSEL(takeFirst, f1, g1);
    return first | second;
}

/// Rows y ..< y + ROWS of an item with an outline and an affine interior (s->edgeCount > 0,
/// s->affineInterior).
VINLINE void affineRowSpans(const strata_row_setup *s, const strata_rows *rows, int y, int32_t *out) {
    vd yi;
    for (int i = 0; i < ROWS; i++) yi[i] = (double)(y + i);
    vd sx0, sx1, ia, ib;
    const vl outlined = outlineSpans(s, rows, yi, &sx0, &sx1);
    const vd Y = yi + 0.5;
    const vl inner = s->discs ? roundedInterior(s, Y, sx0, sx1, &ia, &ib) : squareInterior(s, Y, sx0, sx1, &ia, &ib);
    storeSpans(rows, y, outlined, sx0, sx1, inner, ia, ib, out);
}

/// The rows of such an item, eight at a time, in 512-bit registers (eight doubles each)...
__attribute__((target("avx2,avx512f,avx512vl,avx512bw,avx512dq")))
static void affineItemSpans512(const strata_row_setup *s, const strata_rows *rows, int32_t *spans) {
    for (int y = rows->y0; y < rows->y1; y += ROWS) affineRowSpans(s, rows, y, spans + 4 * (long)(y - rows->y0));
}

/// ... or in pairs of 256-bit ones. Measured on AMD Zen 3 (AVX2), against the row-by-row code: the
/// motion frame's spans 7.9 → 3.2 M instructions, the frame 15.2 → 14.5 ms.
__attribute__((target("avx2")))
static void affineItemSpans256(const strata_row_setup *s, const strata_rows *rows, int32_t *spans) {
    for (int y = rows->y0; y < rows->y1; y += ROWS) affineRowSpans(s, rows, y, spans + 4 * (long)(y - rows->y0));
}

void strata_item_row_spans(const strata_rows *rows, int32_t *spans) {
    strata_item_row_spans_with(rows, spans, strata_best_lanes());
}

void strata_item_row_spans_with(const strata_rows *rows, int32_t *spans, strata_lanes lanes) {
    strata_row_setup setup;
    strata_prepare_rows(rows, &setup);
    int y = rows->y0;
    if (rows->hasOutline && rows->hasInterior && setup.affineInterior) {
        if (lanes == STRATA_LANES_AVX512 || lanes == STRATA_LANES_AVX512_8) { affineItemSpans512(&setup, rows, spans); return; }
        if (lanes == STRATA_LANES_AVX2) { affineItemSpans256(&setup, rows, spans); return; }
    }
    for (; y < rows->y1; y++) {
        int32_t *o = spans + 4 * (long)(y - rows->y0);
        int sx0 = rows->x0, sx1 = rows->x1, ia = 0, ib = 0;
        if ((rows->hasOutline && !quadSpanFast(&setup, y, &sx0, &sx1)) || sx0 >= sx1) {
            o[0] = 0; o[1] = 0; o[2] = 0; o[3] = 0;
            continue;
        }
        if (!rows->hasInterior || !interiorColumnsFast(&setup, &rows->interior, y, sx0, sx1, &ia, &ib)) { ia = sx0; ib = sx0; }
        o[0] = sx0; o[1] = sx1; o[2] = ia; o[3] = ib;
    }
}
