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

/// A band's rows, one after the other in one buffer (zeros between shapes): a row's accumulator
/// (`slots` int64: slot x + 1 is pixel x, slot 0 is column −1, where the edges left of the region
/// go), a bit a slot for the pixels pieces fell in (`words` uint64), and the first and last slot
/// that may hold a piece (two int32 in one more word; lo > hi: none). One row pointer reaches all
/// three (four pointers a row were more than the edge loops had registers for).
typedef struct {
    int64_t *rows;
    long stride, slots, words;  // stride = slots + words + 1
    int32_t width;
} band;

static inline int64_t *band_acc(const band *b, long i) { return b->rows + i * b->stride; }
static inline uint64_t *band_bits(const band *b, long i) { return (uint64_t *)(b->rows + i * b->stride + b->slots); }
static inline int32_t *band_range(const band *b, long i) { return (int32_t *)(b->rows + i * b->stride + b->slots + b->words); }

/// The rows r0 ..< r1 of a vertical edge in column −1 (x = −½: clip_edge's part of an edge left
/// of the region), which adds only its cover, to slot 0 (coverage.c's `add` for x < 0).
static void edge_rows_left(const band *b, const strata_edge *e, int r0, int r1) {
    const int64_t y1 = e->y1, y2 = e->y2, top = y1 < y2 ? y1 : y2, bottom = y1 < y2 ? y2 : y1, sign = y2 > y1 ? 1 : -1;
    const int64_t first = pixelOf(top), last = pixelOf(bottom - 1);
    const int64_t ra = first > r0 ? first : r0, rb = last < r1 - 1 ? last : r1 - 1;
    for (int64_t r = ra; r <= rb; r++) {
        const int64_t ya = top > r * ONE ? top : r * ONE, yb = bottom < (r + 1) * ONE ? bottom : (r + 1) * ONE;
        const long i = (long)(r - r0);
        int32_t *range = band_range(b, i);
        band_acc(b, i)[0] += 2 * ONE * sign * (yb - ya);
        band_bits(b, i)[0] |= 1;
        if (range[0] > 0) range[0] = 0;
        if (range[1] < 0) range[1] = 0;
    }
}

/// A band row: its accumulator, moved from row to row, and where its bits and range lie from it
/// (in int64).
typedef struct {
    int64_t *restrict acc;
    long bits, range;
} row_ptrs;

/// A piece of height dy ≠ 0 in column c (0 ≤ c < width) whose ends lie fxa and fxb across it
/// (`fx` their sum): its cover and area (coverage.c's `piece`), in its slot and the next, and its
/// slot's bit.
static inline __attribute__((always_inline)) void add_piece(row_ptrs r, int64_t c, int64_t fx, int64_t dy) {
    const int32_t cover = (int32_t)dy, area = (int32_t)(dy * fx);
    const long slot = c + 1;
    r.acc[slot] += 2 * ONE * (int64_t)cover - area;
    r.acc[slot + 1] += area;
    ((uint64_t *)(r.acc + r.bits))[slot >> 6] |= (uint64_t)1 << (slot & 63);
}

/// The part of an edge inside a band row (x in fixed point, y as 0…256 within the row), split at
/// column boundaries as coverage.c's `scanline` and `columns` split it, for an edge whose columns
/// lie in 0 ..< width (every edge clip_edge makes but the vertical ones in column −1, which
/// edge_rows_left takes): no piece falls outside the row's slots, so none is tested for it. The
/// row's range is stored whether or not it moves (as branches, these were missed often).
static inline __attribute__((always_inline)) void scan_inside(row_ptrs r, int64_t x1, int64_t y1, int64_t x2, int64_t y2) {
    if (x2 > x1) {
        const int64_t c1 = pixelOf(x1), c2 = pixelOf(x2 - 1);
        int32_t *range = (int32_t *)(r.acc + r.range);
        range[0] = (int32_t)(c1 + 1) < range[0] ? (int32_t)(c1 + 1) : range[0];
        range[1] = (int32_t)(c2 + 1) > range[1] ? (int32_t)(c2 + 1) : range[1];
        const int64_t fa = x1 - c1 * ONE;
        if (c1 == c2) { add_piece(r, c1, fa + (x2 - c1 * ONE), y2 - y1); return; }
        if (c2 == c1 + 1) {
            const int64_t yl = y1 + rounddiv((ONE - fa) * (y2 - y1), x2 - x1);
            if (yl != y1) add_piece(r, c1, fa + ONE, yl - y1);
            if (y2 != yl) add_piece(r, c2, x2 - c2 * ONE, y2 - yl);
            return;
        }
        stepper st = stepper_make(ONE - fa, ONE, y2 - y1, x2 - x1);
        int64_t yl = y1 + stepper_next(&st);
        if (yl != y1) add_piece(r, c1, fa + ONE, yl - y1);
        for (int64_t c = c1 + 1; c < c2; c++) {
            const int64_t yr = y1 + stepper_next(&st);
            if (yr != yl) add_piece(r, c, ONE, yr - yl);
            yl = yr;
        }
        if (y2 != yl) add_piece(r, c2, x2 - c2 * ONE, y2 - yl);
    } else if (x2 < x1) {
        const int64_t c1 = pixelOf(x1 - 1), c2 = pixelOf(x2);
        int32_t *range = (int32_t *)(r.acc + r.range);
        range[0] = (int32_t)(c2 + 1) < range[0] ? (int32_t)(c2 + 1) : range[0];
        range[1] = (int32_t)(c1 + 1) > range[1] ? (int32_t)(c1 + 1) : range[1];
        const int64_t fa = x1 - c1 * ONE;
        if (c1 == c2) { add_piece(r, c1, fa + (x2 - c1 * ONE), y2 - y1); return; }
        const int64_t fb = x2 - c2 * ONE;
        if (c1 == c2 + 1) {
            const int64_t yl = y1 + rounddiv(((c2 + 1) * ONE - x1) * (y2 - y1), x2 - x1);
            if (y2 != yl) add_piece(r, c2, ONE + fb, y2 - yl);
            if (yl != y1) add_piece(r, c1, fa, yl - y1);
            return;
        }
        stepper st = stepper_make((c2 + 1) * ONE - x1, ONE, y2 - y1, x2 - x1);
        int64_t yl = y1 + stepper_next(&st);
        if (y2 != yl) add_piece(r, c2, ONE + fb, y2 - yl);
        for (int64_t c = c2 + 1; c < c1; c++) {
            const int64_t yr = y1 + stepper_next(&st);
            if (yl != yr) add_piece(r, c, ONE, yl - yr);
            yl = yr;
        }
        if (yl != y1) add_piece(r, c1, fa, yl - y1);
    } else {
        const int64_t c = pixelOf(x1);
        int32_t *range = (int32_t *)(r.acc + r.range);
        range[0] = (int32_t)(c + 1) < range[0] ? (int32_t)(c + 1) : range[0];
        range[1] = (int32_t)(c + 1) > range[1] ? (int32_t)(c + 1) : range[1];
        add_piece(r, c, 2 * (x1 - c * ONE), y2 - y1);
    }
}

/// The rows r0 ..< r1 of a downward edge (dy > 0) inside the region's columns (coverage.c's
/// `line`, restricted to those rows), one row pointer moved from row to row: the rows the edge
/// leaves through their bottom (their crossings stepped, so that an edge within one row needs no
/// stepper and its two divisions), then its last row, if in this band.
static __attribute__((noinline)) void edge_rows_down(const band *b, const strata_edge *e, int r0, int r1) {
    const int64_t x1 = e->x1, y1 = e->y1, x2 = e->x2, y2 = e->y2, dx = x2 - x1, dy = y2 - y1;
    const int64_t first = pixelOf(y1), last = pixelOf(y2 - 1);
    const int64_t ra = first > r0 ? first : r0, rb = last < r1 - 1 ? last : r1 - 1;
    if (ra > rb) return;
    int64_t xa = x1, ya = y1 - ra * ONE;
    if (ra > first) { xa = x1 + rounddiv((ra * ONE - y1) * dx, dy); ya = 0; }
    const long i = (long)(ra - r0), stride = b->stride;
    row_ptrs r = { band_acc(b, i), b->slots, b->slots + b->words };
    int64_t row = ra;
    if (row < last) {
        stepper st = stepper_make((ra + 1) * ONE - y1, ONE, dx, dy);
        for (const int64_t end = rb < last ? rb : last - 1; row <= end; row++) {
            const int64_t xb = x1 + stepper_next(&st);
            scan_inside(r, xa, ya, xb, ONE);
            xa = xb; ya = 0;
            r.acc += stride;
        }
    }
    if (row <= rb) scan_inside(r, xa, ya, x2, y2 - row * ONE);
}

/// edge_rows_down for an upward edge (dy < 0): the rows it leaves through their top.
static __attribute__((noinline)) void edge_rows_up(const band *b, const strata_edge *e, int r0, int r1) {
    const int64_t x1 = e->x1, y1 = e->y1, x2 = e->x2, y2 = e->y2, dx = x2 - x1, dy = y2 - y1;
    const int64_t first = pixelOf(y1 - 1), last = pixelOf(y2);
    const int64_t ra = first < r1 - 1 ? first : r1 - 1, rb = last > r0 ? last : r0;
    if (ra < rb) return;
    int64_t xa = x1, ya = y1 - ra * ONE;
    if (ra < first) { xa = x1 + rounddiv(((ra + 1) * ONE - y1) * dx, dy); ya = ONE; }
    const long i = (long)(ra - r0), stride = b->stride;
    row_ptrs r = { band_acc(b, i), b->slots, b->slots + b->words };
    int64_t row = ra;
    if (row > last) {
        stepper st = stepper_make(ra * ONE - y1, -ONE, dx, dy);
        for (const int64_t end = rb > last ? rb : last + 1; row >= end; row--) {
            const int64_t xb = x1 + stepper_next(&st);
            scan_inside(r, xa, ya, xb, 0);
            xa = xb; ya = ONE;
            r.acc -= stride;
        }
    }
    if (row >= rb) scan_inside(r, xa, ya, x2, y2 - row * ONE);
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

/// Slots s ..< n of a row into coverages at out[0 ..< n − s]: each slot's value added to the running
/// sum and cleared. Returns the sum. Nonzero: |sum| clamped to the unit, in floats — exact, since a
/// sum below 2²⁴ converts exactly and one above clamps either way — the same bits as coverage_of.
static inline __attribute__((always_inline)) int64_t sweep_values(int64_t *restrict acc, long s, long n, int64_t sum,
                                                                  int evenOdd, float *restrict out) {
    if (evenOdd) {
        for (long k = s; k < n; k++) { sum += acc[k]; acc[k] = 0; *out++ = coverage_of(sum, 1); }
    } else {
        const float unit = 2 * ONE * ONE;
        // (Two slots a turn: measured against one, four and eight, the fewest instructions.)
#pragma clang loop unroll_count(2)
        for (long k = s; k < n; k++) {
            sum += acc[k];
            acc[k] = 0;
            float f = __builtin_fabsf((float)sum);
            f = f < unit ? f : unit;
            *out++ = f * (1.0f / unit);
        }
    }
    return sum;
}

/// One row's strips from its accumulator and bits (both left zeroed), slots lo ..< n (the range
/// that may hold pieces, lo < n). Slot s is pixel s − 1. The sink has room for the row.
static inline __attribute__((always_inline)) void sweep_row(int64_t *restrict acc, uint64_t *restrict bits, long lo, long n,
                                                           long width, int evenOdd, strata_strip_sink *o) {
    float *restrict alpha = o->alpha;
    strata_strip *restrict strips = o->strips;
    long alphaCount = o->alphaCount, count = o->count;
    int64_t sum = 0;
    long open = -1;       // the explicit strip being built (index), or −1
    long gap = 0;         // the pixel where the current constant run starts
    if (n - lo <= DENSE_SPAN) {
        // Few slots between the first piece and the last (a stroke crossing the row once): one
        // explicit strip over all of them, without following the bits run by run. The coverage
        // is the same; a gap the bit walk would have made a strip of one value holds that value
        // explicitly here.
        long s = lo;
        if (s == 0) { sum += acc[0]; acc[0] = 0; s = 1; }
        if (n > s) {
            strips[count++] = (strata_strip){ (int32_t)(s - 1), (int32_t)(n - 1), (int32_t)alphaCount, 0 };
            sum = sweep_values(acc, s, n, sum, evenOdd, alpha + alphaCount);
            alphaCount += n - s;
        }
        sum += acc[n]; acc[n] = 0;
        gap = n - 1;
        // The pieces' bits lie in one word or two.
        bits[lo >> 6] = 0; bits[(n - 1) >> 6] = 0;
    } else {
        long p = next_bit(bits, lo, n, 1);
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
            sum = sweep_values(acc, s, q, sum, evenOdd, alpha + alphaCount);
            alphaCount += q - s;
            // The slot after the run holds its areas: the constant from there on.
            sum += acc[q]; acc[q] = 0;
            gap = q - 1 > start ? q - 1 : start;
            p = next_bit(bits, q, n, 1);
        }
        if (open >= 0) strips[open].x1 = (int32_t)gap;
        const long first = lo >> 6, last = (n - 1) >> 6;
        for (long w = first; w <= last; w++) bits[w] = 0;
    }
    const float constant = coverage_of(sum, evenOdd);
    if (constant != 0 && gap < width) strips[count++] = (strata_strip){ (int32_t)gap, (int32_t)width, -1, constant };
    o->alphaCount = alphaCount; o->count = count;
}

/// The strips of a band's rows r0 ..< r1 (band rows 0 ..< r1 − r0), their entries in the row table,
/// the rows' accumulators and bits left zeroed. Returns 0 when an allocation failed (the caller
/// then clears the band, part of which may be left).
static int sweep_band(const band *b, int r0, int r1, int evenOdd, strata_strip_sink *o, int32_t *rowStart, int32_t *rowLo,
                      int32_t *rowHi) {
    const long width = b->width, rows = r1 - r0;
    for (long i = 0; i < rows; i++) {
        int32_t *range = band_range(b, i);
        const long lo = range[0], n = (long)range[1] + 1;
        range[0] = INT32_MAX; range[1] = -1;
        const long start = o->count;
        rowStart[r0 + i] = (int32_t)start;
        // A row without pieces has a sum of 0 throughout: no strips. A row's strips hold at most
        // its width of values (then the padding's zeros), and a strip a run and a gap.
        if (lo < n) {
            if (!reserve_alpha(o, width + STRATA_STRIP_ALPHA_PAD) || !reserve_strips(o, width + 4)) return 0;
            sweep_row(band_acc(b, i), band_bits(b, i), lo, n, width, evenOdd, o);
        }
        const long end = o->count;
        rowLo[r0 + i] = start < end ? o->strips[start].x0 : (int32_t)width;
        rowHi[r0 + i] = start < end ? o->strips[end - 1].x1 : 0;
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
    free(s->acc); free(s->order); free(s->active); free(s->bandStart);
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
    const long stride = slots + words + 1;
    if (!ensure((void **)&scratch->acc, &scratch->accCapacity, BAND * stride, sizeof(int64_t), 1)
        || !ensure((void **)&scratch->order, &scratch->orderCapacity, count > 0 ? count : 1, sizeof(int32_t), 0)
        || !ensure((void **)&scratch->active, &scratch->activeCapacity, count > 0 ? count : 1, sizeof(int32_t), 0)
        || !ensure((void **)&scratch->bandStart, &scratch->bandCapacity, bands + 1, sizeof(int32_t), 0)) {
        return 0;
    }
    // The edges by the band of their first row (a counting sort).
    int32_t *bandStart = scratch->bandStart, *order = scratch->order, *active = scratch->active;
    for (long i = 0; i <= bands; i++) bandStart[i] = 0;
    const int64_t W = (int64_t)width * ONE, H = (int64_t)height * ONE;
    for (long i = 0; i < count; i++) {
        const strata_edge *e = &edges->edges[i];
        // The edges clip_edge makes: within the region's rows, not horizontal, and either within
        // columns 0 … width (edge_rows_down, edge_rows_up) or on the line x = −½ left of them (edge_rows_left).
        // Any other would reach outside the accumulator: no coverage instead.
        // (Negative values compare as large unsigned ones.)
        const int64_t top = e->y1 < e->y2 ? e->y1 : e->y2, bottom = e->y1 < e->y2 ? e->y2 : e->y1;
        const int inside = ((uint64_t)e->x1 <= (uint64_t)W) & ((uint64_t)e->x2 <= (uint64_t)W);
        const int left = (e->x1 == -ONE / 2) & (e->x2 == -ONE / 2);
        if (!((inside | left) & ((uint64_t)top < (uint64_t)bottom) & ((uint64_t)bottom <= (uint64_t)H))) {
            out->alphaCount = 0;
            return 0;
        }
        bandStart[pixelOf(top) / BAND + 1]++;
    }
    for (long i = 0; i < bands; i++) bandStart[i + 1] += bandStart[i];
    for (long i = 0; i < count; i++) {
        const strata_edge *e = &edges->edges[i];
        const int64_t top = pixelOf(e->y1 < e->y2 ? e->y1 : e->y2);
        order[bandStart[top / BAND]++] = (int32_t)i;
    }
    for (long i = bands; i > 0; i--) bandStart[i] = bandStart[i - 1];
    bandStart[0] = 0;
    band b = { scratch->acc, stride, slots, words, width };
    for (int i = 0; i < BAND; i++) { band_range(&b, i)[0] = INT32_MAX; band_range(&b, i)[1] = -1; }
    long activeCount = 0;
    for (long k = 0; k < bands; k++) {
        const int r0 = (int)(k * BAND), r1 = r0 + BAND < height ? r0 + BAND : height;
        for (long i = bandStart[k]; i < bandStart[k + 1]; i++) active[activeCount++] = order[i];
        long kept = 0;
        for (long i = 0; i < activeCount; i++) {
            const strata_edge *e = &edges->edges[active[i]];
            if (e->x1 < 0) edge_rows_left(&b, e, r0, r1);
            else if (e->y2 > e->y1) edge_rows_down(&b, e, r0, r1);
            else edge_rows_up(&b, e, r0, r1);
            const int64_t bottom = pixelOf((e->y1 > e->y2 ? e->y1 : e->y2) - 1);
            // Kept for the next band when it reaches it: written either way and counted, not
            // branched on (which edges end in a band follows no pattern).
            active[kept] = active[i];
            kept += bottom >= r1;
        }
        activeCount = kept;
        if (!sweep_band(&b, r0, r1, evenOdd, out, rowStart, rowLo, rowHi)) {
            // Leave the band's rows zeroed for the next shape.
            memset(scratch->acc, 0, (size_t)(BAND * stride) * sizeof(int64_t));
            out->count = 0; out->alphaCount = 0;
            return 0;
        }
    }
    // The rows' ranges back to zeros: the next shape's rows may lie elsewhere in the buffer.
    for (int i = 0; i < BAND; i++) band_range(&b, i)[0] = band_range(&b, i)[1] = 0;
    rowStart[height] = (int32_t)out->count;
    // The padding after the values (each row reserved room for it).
    memset(out->alpha + out->alphaCount, 0, STRATA_STRIP_ALPHA_PAD * sizeof *out->alpha);
    return 1;
}
