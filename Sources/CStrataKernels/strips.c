// Analytic coverage of polygons as strips: the coverage of coverage.c's cells, found without
// collecting cells. The edges (snapped and clipped as for cells) are scan-converted band by
// band — BAND rows at a time — into a dense accumulator of the band's pixels, in which each
// piece of an edge inside a pixel adds 2·256·dy − area to its pixel and its area to the next
// one (coverage.c's header: the running sum of these along the row is the coverage's
// numerator), and sets the pixel's bit. The sweep of each row then follows the bits: a run of
// marked pixels becomes coverage values, the pixels up to the next run take the constant the
// sum holds there. The output per row is a list of strips, each either explicit values or one
// value over a run of pixels.
//
// The pieces are those of coverage.c, to the bit: an edge's crossings of row and column
// boundaries are the same rounded quotients, computed from the edge's start (a band that begins
// inside an edge finds its entry point with the quotient the row stepper would have reached), and
// the sums are integers, so the coverage does not depend on the order of edges, on the bands or
// on threads. StripTests compares the two.
#include <stdlib.h>
#include <string.h>
#include "strata_kernels.h"
#include "coverage_math.h"

enum { BAND = 16, MERGE_GAP = 16, DENSE_SPAN = 32 };

// MARK: Edges

static void emit_edge(void *ctx, int64_t x1, int64_t y1, int64_t x2, int64_t y2) {
    strata_edge_sink *s = ctx;
    if (s->count == s->capacity && !grow_buffer((void **)&s->edges, &s->capacity, s->count + 1, sizeof *s->edges, 256)) {
        s->failed = 1;
        return;
    }
    s->edges[s->count++] = (strata_edge){ (int32_t)x1, (int32_t)y1, (int32_t)x2, (int32_t)y2 };
}

void strata_edges_add(strata_edge_sink *s, double x0, double y0, double x1, double y1) {
    clip_edge(s->width, s->height, x0, y0, x1, y1, emit_edge, s);
}

// MARK: Accumulation

/// A band's accumulator: `slots` int64 a row (slot x + 1 is pixel x; slot 0 is column −1, where
/// the edges left of the region go), a bit a slot for the pixels pieces fell in, and per row the
/// first and last slot that may hold a piece (lo > hi: none).
typedef struct {
    int64_t *acc;
    uint64_t *bits;
    int32_t *lo, *hi;
    long slots, words;
    int32_t width;
} band;

/// One band row's accumulator and bits, and the region's width.
typedef struct {
    int64_t *restrict acc;
    uint64_t *restrict bits;
    int64_t width;
} row_sink;

/// A piece inside pixel column `c`, 0 ≤ c < width, of height dy ≠ 0.
static inline __attribute__((always_inline)) void put_inside(row_sink r, int64_t c, int64_t fxa, int64_t fxb, int64_t dy) {
    const int32_t cover = (int32_t)dy, area = (int32_t)(dy * (fxa + fxb));
    const long slot = c + 1;
    r.acc[slot] += 2 * ONE * (int64_t)cover - area;
    r.acc[slot + 1] += area;
    r.bits[slot >> 6] |= (uint64_t)1 << (slot & 63);
}

/// A piece inside pixel column `c` (as coverage.c's `piece` and `add`: right of the region
/// dropped, left of it only its cover, in column −1).
static inline __attribute__((always_inline)) void put(row_sink r, int64_t c, int64_t fxa, int64_t ya, int64_t fxb,
                                                    int64_t yb) {
    const int64_t dy = yb - ya;
    if (dy == 0 || c >= r.width) return;
    if (c < 0) {
        r.acc[0] += 2 * ONE * dy;
        r.bits[0] |= 1;
        return;
    }
    put_inside(r, c, fxa, fxb, dy);
}

/// put() for a piece of an edge that crosses a column boundary within its row: such an edge lies
/// in the region's columns (clip_edge moved the parts left of it to column −1, where they cross
/// none, and dropped the parts right of it), so only a piece without height is left out.
static inline __attribute__((always_inline)) void put_crossing(row_sink r, int64_t c, int64_t fxa, int64_t ya, int64_t fxb,
                                                             int64_t yb) {
    const int64_t dy = yb - ya;
    if (dy != 0) put_inside(r, c, fxa, fxb, dy);
}

/// The part of an edge inside band row `row`: x in fixed point, y as 0…256 within the row, split
/// at column boundaries as coverage.c's `scanline` and `columns` split it.
static inline __attribute__((always_inline)) void scan(const band *b, int row, int64_t x1, int64_t y1, int64_t x2, int64_t y2) {
    if (y1 == y2) return;
    const row_sink r = { b->acc + (long)row * b->slots, b->bits + (long)row * b->words, b->width };
    const int64_t c1 = x2 >= x1 ? pixelOf(x1) : pixelOf(x1 - 1);
    const int64_t c2 = x2 > x1 ? pixelOf(x2 - 1) : (x2 < x1 ? pixelOf(x2) : c1);
    // The slots the pieces may fall in (columns −1 … width − 1).
    int64_t sl = (c1 < c2 ? c1 : c2) + 1, sh = (c1 < c2 ? c2 : c1) + 1;
    if (sl < 0) sl = 0;
    if (sh > b->width) sh = b->width;
    // (Stored whether or not they move: as branches, these were missed often.)
    const int32_t lo = b->lo[row], hi = b->hi[row];
    b->lo[row] = sl < lo ? (int32_t)sl : lo;
    b->hi[row] = sh > hi ? (int32_t)sh : hi;
    if (c1 == c2) { put(r, c1, x1 - c1 * ONE, y1, x2 - c1 * ONE, y2); return; }
    if (x2 > x1) {
        if (c2 == c1 + 1) {
            const int64_t yl = y1 + rounddiv(((c1 + 1) * ONE - x1) * (y2 - y1), x2 - x1);
            put_crossing(r, c1, x1 - c1 * ONE, y1, ONE, yl);
            put_crossing(r, c2, 0, yl, x2 - c2 * ONE, y2);
            return;
        }
        stepper st = stepper_make((c1 + 1) * ONE - x1, ONE, y2 - y1, x2 - x1);
        int64_t yl = y1 + stepper_next(&st);
        put_crossing(r, c1, x1 - c1 * ONE, y1, ONE, yl);
        for (int64_t c = c1 + 1; c < c2; c++) {
            const int64_t yr = y1 + stepper_next(&st);
            put_crossing(r, c, 0, yl, ONE, yr);
            yl = yr;
        }
        put_crossing(r, c2, 0, yl, x2 - c2 * ONE, y2);
    } else {
        if (c1 == c2 + 1) {
            const int64_t yl = y1 + rounddiv(((c2 + 1) * ONE - x1) * (y2 - y1), x2 - x1);
            put_crossing(r, c2, ONE, yl, x2 - c2 * ONE, y2);
            put_crossing(r, c1, x1 - c1 * ONE, y1, 0, yl);
            return;
        }
        stepper st = stepper_make((c2 + 1) * ONE - x1, ONE, y2 - y1, x2 - x1);
        int64_t yl = y1 + stepper_next(&st);
        put_crossing(r, c2, ONE, yl, x2 - c2 * ONE, y2);
        for (int64_t c = c2 + 1; c < c1; c++) {
            const int64_t yr = y1 + stepper_next(&st);
            put_crossing(r, c, ONE, yr, 0, yl);
            yl = yr;
        }
        put_crossing(r, c1, x1 - c1 * ONE, y1, 0, yl);
    }
}

/// The rows r0 ..< r1 of an edge (coverage.c's `line`, restricted to those rows).
static void edge_rows(const band *b, const strata_edge *e, int r0, int r1) {
    const int64_t x1 = e->x1, y1 = e->y1, x2 = e->x2, y2 = e->y2, dx = x2 - x1, dy = y2 - y1;
    if (dy > 0) {
        const int64_t first = pixelOf(y1), last = pixelOf(y2 - 1);
        const int64_t ra = first > r0 ? first : r0, rb = last < r1 - 1 ? last : r1 - 1;
        if (ra > rb) return;
        int64_t xa = x1, ya = y1;
        if (ra > first) { xa = x1 + rounddiv((ra * ONE - y1) * dx, dy); ya = ra * ONE; }
        // The rows the edge leaves through their bottom (their crossings stepped: an edge within
        // one row needs no stepper, and its two divisions), then its last row, if in this band.
        int64_t r = ra;
        if (r < last) {
            stepper st = stepper_make((ra + 1) * ONE - y1, ONE, dx, dy);
            for (const int64_t end = rb < last ? rb : last - 1; r <= end; r++) {
                const int64_t yb = (r + 1) * ONE, xb = x1 + stepper_next(&st);
                scan(b, (int)(r - r0), xa, ya - r * ONE, xb, yb - r * ONE);
                xa = xb; ya = yb;
            }
        }
        if (r <= rb) scan(b, (int)(r - r0), xa, ya - r * ONE, x2, y2 - r * ONE);
    } else {
        const int64_t first = pixelOf(y1 - 1), last = pixelOf(y2);
        const int64_t ra = first < r1 - 1 ? first : r1 - 1, rb = last > r0 ? last : r0;
        if (ra < rb) return;
        int64_t xa = x1, ya = y1;
        if (ra < first) { xa = x1 + rounddiv(((ra + 1) * ONE - y1) * dx, dy); ya = (ra + 1) * ONE; }
        // As above, upward: the rows the edge leaves through their top, then its last row.
        int64_t r = ra;
        if (r > last) {
            stepper st = stepper_make(ra * ONE - y1, -ONE, dx, dy);
            for (const int64_t end = rb > last ? rb : last + 1; r >= end; r--) {
                const int64_t yb = r * ONE, xb = x1 + stepper_next(&st);
                scan(b, (int)(r - r0), xa, ya - r * ONE, xb, yb - r * ONE);
                xa = xb; ya = yb;
            }
        }
        if (r >= rb) scan(b, (int)(r - r0), xa, ya - r * ONE, x2, y2 - r * ONE);
    }
}

// MARK: Sweep

/// The coverage a sum gives (coverage.c's `coverage_window`, the same operations).
static inline float coverage_of(int64_t sum, int evenOdd) {
    const int64_t unit = 2 * ONE * ONE;
    int64_t m = sum < 0 ? -sum : sum;
    if (evenOdd) {
        m %= 2 * unit;
        if (m > unit) m = 2 * unit - m;
    } else if (m > unit) {
        m = unit;
    }
    return (float)m / (float)unit;
}

/// The first slot at or after `p` (below `n`) whose bit is `set`, or `n`.
static inline long next_bit(const uint64_t *bits, long p, long n, int set) {
    while (p < n) {
        uint64_t w = bits[p >> 6];
        if (!set) w = ~w;
        w >>= (p & 63);
        if (w) { p += __builtin_ctzll(w); return p < n ? p : n; }
        p = (p | 63) + 1;
    }
    return n;
}

static int reserve_strips(strata_strip_sink *o, long n) {
    return grow_buffer((void **)&o->strips, &o->capacity, o->count + n, sizeof *o->strips, 256);
}

static int reserve_alpha(strata_strip_sink *o, long n) {
    return grow_buffer((void **)&o->alpha, &o->alphaCapacity, o->alphaCount + n, sizeof *o->alpha, 1024);
}

/// One row's strips from its accumulator and bits (both left zeroed). Slot s is pixel s − 1.
static int sweep_row(const band *b, int row, int evenOdd, strata_strip_sink *o) {
    int64_t *restrict acc = b->acc + (long)row * b->slots;
    uint64_t *restrict bits = b->bits + (long)row * b->words;
    const long lo = b->lo[row], n = (long)b->hi[row] + 1;  // the slots that may hold pieces: lo ..< n
    const long width = b->width;
    b->lo[row] = INT32_MAX; b->hi[row] = -1;
    // A row's strips hold at most its width of values (then the padding's zeros), and a strip a run
    // and a gap.
    if (!reserve_alpha(o, width + STRATA_STRIP_ALPHA_PAD) || !reserve_strips(o, width + 4)) return 0;
    float *restrict alpha = o->alpha;
    strata_strip *restrict strips = o->strips;
    long alphaCount = o->alphaCount, count = o->count;
    int64_t sum = 0;
    long open = -1;       // the explicit strip being built (index), or −1
    long gap = 0;         // the pixel where the current constant run starts
    long p = n;
    if (lo < n && n - lo <= DENSE_SPAN) {
        // Few slots between the first piece and the last (a stroke crossing the row once): one
        // explicit strip over all of them, without following the bits run by run. The coverage
        // is the same; a gap the bit walk would have made a strip of one value holds that value
        // explicitly here.
        long s = lo;
        if (s == 0) { sum += acc[0]; acc[0] = 0; s = 1; }
        if (n > s) {
            strips[count++] = (strata_strip){ (int32_t)(s - 1), (int32_t)(n - 1), (int32_t)alphaCount, 0 };
            if (evenOdd) {
                for (; s < n; s++) { sum += acc[s]; acc[s] = 0; alpha[alphaCount++] = coverage_of(sum, 1); }
            } else {
                for (; s < n; s++) { sum += acc[s]; acc[s] = 0; alpha[alphaCount++] = coverage_of(sum, 0); }
            }
        }
        sum += acc[n]; acc[n] = 0;
        gap = n - 1;
    } else if (lo < n) {
        p = next_bit(bits, lo, n, 1);
    }
    while (p < n) {
        const long q = next_bit(bits, p, n, 0);
        // Pixels gap ..< start hold the constant `sum` gives.
        const long start = p - 1 < 0 ? 0 : p - 1;
        const float constant = coverage_of(sum, evenOdd);
        if (open >= 0 && start - gap <= MERGE_GAP) {
            for (long x = gap; x < start; x++) alpha[alphaCount++] = constant;
        } else {
            if (open >= 0) { strips[open].x1 = (int32_t)gap; open = -1; }
            if (constant != 0 && start > gap) strips[count++] = (strata_strip){ (int32_t)gap, (int32_t)start, -1, constant };
        }
        if (open < 0 && q - 1 > start) {
            open = count++;
            strips[open] = (strata_strip){ (int32_t)start, 0, (int32_t)alphaCount, 0 };
        }
        // Column −1 (slot 0) adds to the sum; it is not a pixel of the region.
        long s = p;
        if (s == 0) { sum += acc[0]; acc[0] = 0; s = 1; }
        if (evenOdd) {
            for (; s < q; s++) { sum += acc[s]; acc[s] = 0; alpha[alphaCount++] = coverage_of(sum, 1); }
        } else {
            for (; s < q; s++) { sum += acc[s]; acc[s] = 0; alpha[alphaCount++] = coverage_of(sum, 0); }
        }
        // The slot after the run holds its areas: the constant from there on.
        sum += acc[q]; acc[q] = 0;
        gap = q - 1 > start ? q - 1 : start;
        p = next_bit(bits, q, n, 1);
    }
    if (open >= 0) strips[open].x1 = (int32_t)gap;
    const float constant = coverage_of(sum, evenOdd);
    if (constant != 0 && gap < width) strips[count++] = (strata_strip){ (int32_t)gap, (int32_t)width, -1, constant };
    o->alphaCount = alphaCount; o->count = count;
    // A row's pieces span a word or two: the first cleared here, any others by the loop (which
    // the compiler makes a call to memset, a cost a row when it was the only clearing).
    if (lo < n) {
        const long first = lo >> 6, last = (n - 1) >> 6;
        bits[first] = 0;
        for (long w = first + 1; w <= last; w++) bits[w] = 0;
    }
    return 1;
}

// MARK: Build

static int ensure(void **buf, long *capacity, long n, size_t size, int zeroed) {
    if (*capacity >= n) return 1;
    free(*buf);
    *buf = zeroed ? calloc((size_t)n, size) : malloc((size_t)n * size);
    *capacity = *buf ? n : 0;
    return *buf != NULL;
}

void strata_strip_scratch_free(strata_strip_scratch *s) {
    free(s->acc); free(s->bits); free(s->order); free(s->active); free(s->bandStart); free(s->range);
    memset(s, 0, sizeof *s);
}

int strata_strips_build(const strata_edge_sink *edges, int evenOdd, strata_strip_sink *out, int32_t *rowTable,
                        strata_strip_scratch *scratch) {
    const int width = edges->width, height = edges->height;
    out->count = 0; out->alphaCount = 0;
    int32_t *rowStart = rowTable, *rowLo = rowTable + height + 1, *rowHi = rowLo + height;
    const long slots = (long)width + 2, words = (slots + 63) / 64, bands = (height + BAND - 1) / BAND;
    const long count = edges->count;
    // The padding before the values (and room for the one after them).
    if (!reserve_alpha(out, 2 * STRATA_STRIP_ALPHA_PAD)) return 0;
    memset(out->alpha, 0, STRATA_STRIP_ALPHA_PAD * sizeof *out->alpha);
    out->alphaCount = STRATA_STRIP_ALPHA_PAD;
    if (!ensure((void **)&scratch->acc, &scratch->accCapacity, BAND * slots, sizeof(int64_t), 1)
        || !ensure((void **)&scratch->bits, &scratch->bitsCapacity, BAND * words, sizeof(uint64_t), 1)
        || !ensure((void **)&scratch->order, &scratch->orderCapacity, count > 0 ? count : 1, sizeof(int32_t), 0)
        || !ensure((void **)&scratch->active, &scratch->activeCapacity, count > 0 ? count : 1, sizeof(int32_t), 0)
        || !ensure((void **)&scratch->bandStart, &scratch->bandCapacity, bands + 1, sizeof(int32_t), 0)
        || !ensure((void **)&scratch->range, &scratch->rangeCapacity, 2 * BAND, sizeof(int32_t), 0)) {
        return 0;
    }
    band b = { scratch->acc, scratch->bits, scratch->range, scratch->range + BAND, slots, words, width };
    for (int i = 0; i < BAND; i++) { b.lo[i] = INT32_MAX; b.hi[i] = -1; }
    // The edges by the band of their first row (a counting sort).
    int32_t *bandStart = scratch->bandStart, *order = scratch->order, *active = scratch->active;
    for (long i = 0; i <= bands; i++) bandStart[i] = 0;
    for (long i = 0; i < count; i++) {
        const strata_edge *e = &edges->edges[i];
        const int64_t top = pixelOf(e->y1 < e->y2 ? e->y1 : e->y2);
        bandStart[top / BAND + 1]++;
    }
    for (long i = 0; i < bands; i++) bandStart[i + 1] += bandStart[i];
    for (long i = 0; i < count; i++) {
        const strata_edge *e = &edges->edges[i];
        const int64_t top = pixelOf(e->y1 < e->y2 ? e->y1 : e->y2);
        order[bandStart[top / BAND]++] = (int32_t)i;
    }
    for (long i = bands; i > 0; i--) bandStart[i] = bandStart[i - 1];
    bandStart[0] = 0;
    long activeCount = 0;
    for (long k = 0; k < bands; k++) {
        const int r0 = (int)(k * BAND), r1 = r0 + BAND < height ? r0 + BAND : height;
        for (long i = bandStart[k]; i < bandStart[k + 1]; i++) active[activeCount++] = order[i];
        long kept = 0;
        for (long i = 0; i < activeCount; i++) {
            const strata_edge *e = &edges->edges[active[i]];
            edge_rows(&b, e, r0, r1);
            const int64_t bottom = pixelOf((e->y1 > e->y2 ? e->y1 : e->y2) - 1);
            // Kept for the next band when it reaches it: written either way and counted, not
            // branched on (which edges end in a band follows no pattern).
            active[kept] = active[i];
            kept += bottom >= r1;
        }
        activeCount = kept;
        for (int r = r0; r < r1; r++) {
            rowStart[r] = (int32_t)out->count;
            if (!sweep_row(&b, r - r0, evenOdd, out)) {
                // Leave the accumulator zeroed for the next shape.
                memset(scratch->acc, 0, (size_t)(BAND * slots) * sizeof(int64_t));
                memset(scratch->bits, 0, (size_t)(BAND * words) * sizeof(uint64_t));
                out->count = 0; out->alphaCount = 0;
                return 0;
            }
            const long s = rowStart[r], e = out->count;
            rowLo[r] = s < e ? out->strips[s].x0 : width;
            rowHi[r] = s < e ? out->strips[e - 1].x1 : 0;
        }
    }
    rowStart[height] = (int32_t)out->count;
    // The padding after the values (each row reserved room for it).
    memset(out->alpha + out->alphaCount, 0, STRATA_STRIP_ALPHA_PAD * sizeof *out->alpha);
    return 1;
}
