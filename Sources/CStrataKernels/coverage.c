// Analytic coverage of polygons as sparse cells: glyph outlines' masks (GlyphCache), and the
// reference the strips of shape layers (strips.c) are held to (StripTests).
//
// Vertices are snapped to 1/256 pixel. Each edge is split at pixel rows and columns; every piece
// inside a pixel adds its height `dy` to the pixel's `cover` and `dy·(fx₁ + fx₂)` to its `area`
// (fx: the piece's ends across the pixel, 0…256). Along a row, with `acc` the sum of the covers
// of the pixels to the left, a pixel holding cells is covered by
//     (2·256·(acc + cover) − area) / (2·256·256)
// and the pixels up to the next cell by (acc + cover) / 256 — the signed area, which the fill
// rule turns into coverage (nonzero: |a| clamped to 1; even-odd: folded). The sums are integers,
// so the result does not depend on the order edges are added, on tiles or on threads. Crossing
// points are computed once and shared by the two pieces they join, so each edge's pieces add up
// to its height exactly and every row's covers sum to zero for closed outlines (exactly 0
// outside, exactly 1 inside).
#include <stdlib.h>
#include <string.h>
#include "strata_kernels.h"
#include "coverage_math.h"

static int grow(strata_cell_sink *s) {
    return grow_buffer((void **)&s->cells, &s->capacity, s->capacity + 1, sizeof *s->cells, 256);
}

static inline void add(strata_cell_sink *s, int64_t x, int64_t y, int32_t cover, int32_t area) {
    if (y < 0 || y >= s->height || x >= s->width) return;
    if (x < 0) { x = -1; area = 0; }  // only its cover matters (pixels to the right)
    if (s->count > 0) {
        strata_cell *last = &s->cells[s->count - 1];
        if (last->x == x && last->y == y) { last->cover += cover; last->area += area; return; }
    }
    if (s->count == s->capacity && !grow(s)) { s->failed = 1; return; }
    s->cells[s->count++] = (strata_cell){ (int32_t)x, (int32_t)y, cover, area };
}

/// Makes room for `n` more cells; false when an allocation failed.
static inline int reserve(strata_cell_sink *s, long n) {
    while (s->count + n > s->capacity) if (!grow(s)) return 0;
    return 1;
}

/// A piece inside pixel column `c` of row `ey`, from (fxa, ya) to (fxb, yb) (fx in 0…256).
/// `checked`: through `add`, which drops cells outside the frame, merges one into the last cell
/// when it is the same pixel, and grows the buffer (`fresh` unused). Unchecked (scanline's fast
/// path): the pixel lies in the frame and room was reserved; `*fresh` is set until the call's
/// first cell, the only one that can be the last cell's pixel (the columns of one call's pieces
/// increase).
static inline __attribute__((always_inline)) void piece(strata_cell_sink *s, int64_t c, int64_t ey, int64_t fxa, int64_t ya,
                                                       int64_t fxb, int64_t yb, const int checked, int *fresh) {
    const int64_t dy = yb - ya;
    if (dy == 0) return;
    const int32_t cover = (int32_t)dy, area = (int32_t)(dy * (fxa + fxb));
    if (checked) { add(s, c, ey, cover, area); return; }
    if (*fresh) {
        *fresh = 0;
        if (s->count > 0) {
            strata_cell *last = &s->cells[s->count - 1];
            if (last->x == c && last->y == ey) { last->cover += cover; last->area += area; return; }
        }
    }
    s->cells[s->count++] = (strata_cell){ (int32_t)c, (int32_t)ey, cover, area };
}

/// The part of an edge inside row `ey` crossing columns c1 … c2, their pieces added left to
/// right (see scanline); `checked` as for piece.
static inline __attribute__((always_inline)) void columns(strata_cell_sink *s, int64_t ey, int64_t x1, int64_t y1, int64_t x2,
                                                         int64_t y2, int64_t c1, int64_t c2, const int checked) {
    int fresh = 1;
    if (x2 > x1) {
        // y at the boundaries x = (c1 + 1)·256, (c1 + 2)·256, …:
        // y1 + rounddiv((x − x1)·(y2 − y1), x2 − x1).
        if (c2 == c1 + 1) {
            // One boundary (the common case: edges steeper than 45° cross at most one a row):
            // its y alone, one division where the stepper's set-up takes two. The same value.
            const int64_t yl = y1 + rounddiv(((c1 + 1) * ONE - x1) * (y2 - y1), x2 - x1);
            piece(s, c1, ey, x1 - c1 * ONE, y1, ONE, yl, checked, &fresh);
            piece(s, c2, ey, 0, yl, x2 - c2 * ONE, y2, checked, &fresh);
            return;
        }
        stepper st = stepper_make((c1 + 1) * ONE - x1, ONE, y2 - y1, x2 - x1);
        int64_t yl = y1 + stepper_next(&st);
        piece(s, c1, ey, x1 - c1 * ONE, y1, ONE, yl, checked, &fresh);
        for (int64_t c = c1 + 1; c < c2; c++) {
            const int64_t yr = y1 + stepper_next(&st);
            piece(s, c, ey, 0, yl, ONE, yr, checked, &fresh);
            yl = yr;
        }
        piece(s, c2, ey, 0, yl, x2 - c2 * ONE, y2, checked, &fresh);
    } else {
        // Leftwards: the same boundaries' y, visited from the left end, x = (c2 + 1)·256, ….
        if (c1 == c2 + 1) {
            const int64_t yl = y1 + rounddiv(((c2 + 1) * ONE - x1) * (y2 - y1), x2 - x1);
            piece(s, c2, ey, ONE, yl, x2 - c2 * ONE, y2, checked, &fresh);
            piece(s, c1, ey, x1 - c1 * ONE, y1, 0, yl, checked, &fresh);
            return;
        }
        stepper st = stepper_make((c2 + 1) * ONE - x1, ONE, y2 - y1, x2 - x1);
        int64_t yl = y1 + stepper_next(&st);
        piece(s, c2, ey, ONE, yl, x2 - c2 * ONE, y2, checked, &fresh);
        for (int64_t c = c2 + 1; c < c1; c++) {
            const int64_t yr = y1 + stepper_next(&st);
            piece(s, c, ey, ONE, yr, 0, yl, checked, &fresh);
            yl = yr;
        }
        piece(s, c1, ey, x1 - c1 * ONE, y1, 0, yl, checked, &fresh);
    }
}

/// The part of an edge inside row `ey` (a row of the frame: `line` calls only those): x in
/// fixed point, y as 0…256 within the row. Pieces are added left to right whichever way the
/// edge runs (the masks take a row's cells in any order); a crossing's y is computed from the
/// edge's start either way, so the cells are the same.
static void scanline(strata_cell_sink *s, int64_t ey, int64_t x1, int64_t y1, int64_t x2, int64_t y2) {
    if (y1 == y2) return;
    // The columns of the two ends (an end on a column boundary belongs to the column the edge
    // is inside of).
    const int64_t c1 = x2 >= x1 ? pixelOf(x1) : pixelOf(x1 - 1);
    const int64_t c2 = x2 > x1 ? pixelOf(x2 - 1) : (x2 < x1 ? pixelOf(x2) : c1);
    if (c1 == c2) {
        piece(s, c1, ey, x1 - c1 * ONE, y1, x2 - c1 * ONE, y2, 1, NULL);
        return;
    }
    // Edges are clipped to the frame's columns (only vertical ones reach column −1), so the
    // checks of `add` come down to room for the cells, made once.
    const int64_t lo = c1 < c2 ? c1 : c2, hi = c1 < c2 ? c2 : c1;
    if (lo >= 0 && hi < s->width && reserve(s, hi - lo + 1))
        columns(s, ey, x1, y1, x2, y2, c1, c2, 0);
    else
        columns(s, ey, x1, y1, x2, y2, c1, c2, 1);
}

/// An edge in fixed point, already inside x ∈ [0, width·256] or wholly left of it.
static void line(strata_cell_sink *s, int64_t x1, int64_t y1, int64_t x2, int64_t y2) {
    if (y1 == y2) return;
    int64_t r = y2 > y1 ? pixelOf(y1) : pixelOf(y1 - 1);
    const int64_t last = y2 > y1 ? pixelOf(y2 - 1) : pixelOf(y2);
    // Rows outside the frame get no cells: skip straight to the first row inside.
    int64_t xa = x1, ya = y1;
    if (y2 > y1) {
        stepper st = stepper_make((r + 1) * ONE - y1, ONE, x2 - x1, y2 - y1);
        for (; r < last; r++) {
            int64_t yb = (r + 1) * ONE;
            int64_t xb = x1 + stepper_next(&st);
            if (r >= 0 && r < s->height) scanline(s, r, xa, ya - r * ONE, xb, ONE);
            xa = xb; ya = yb;
        }
    } else {
        stepper st = stepper_make(r * ONE - y1, -ONE, x2 - x1, y2 - y1);
        for (; r > last; r--) {
            int64_t yb = r * ONE;
            int64_t xb = x1 + stepper_next(&st);
            if (r >= 0 && r < s->height) scanline(s, r, xa, ya - r * ONE, xb, 0);
            xa = xb; ya = yb;
        }
    }
    if (r >= 0 && r < s->height) scanline(s, r, xa, ya - r * ONE, x2, y2 - r * ONE);
}

static void emit_line(void *ctx, int64_t x1, int64_t y1, int64_t x2, int64_t y2) {
    line((strata_cell_sink *)ctx, x1, y1, x2, y2);
}

void strata_cells_add_edge(strata_cell_sink *s, double x0, double y0, double x1, double y1) {
    clip_edge(s->width, s->height, x0, y0, x1, y1, emit_line, s);
}

long strata_cells_finish(strata_cell_sink *s, int32_t *rowStart, int32_t y0, int32_t y1) {
    strata_cell *spare = NULL;
    long capacity = 0;
    const long n = strata_cells_finish_into(s, rowStart, y0, y1, &spare, &capacity);
    free(spare);
    return n;
}

long strata_cells_finish_into(strata_cell_sink *s, int32_t *rowStart, int32_t y0, int32_t y1, strata_cell **spare,
                              long *spareCapacity) {
    const long n = s->count;
    const int32_t rows = y1 - y0;
    for (int32_t r = 0; r <= rows; r++) rowStart[r] = 0;
    if (*spareCapacity < n) {
        // Grown to a power of two, so that a frame's shapes of varying size settle on a few sizes.
        long capacity = 256;
        while (capacity < n) capacity *= 2;
        free(*spare);
        *spare = malloc((size_t)capacity * sizeof **spare);
        *spareCapacity = *spare ? capacity : 0;
        if (!*spare) { s->failed = 1; s->count = 0; return 0; }
    }
    // A counting sort by row: cells are produced along the edges, rows interleaved. Within a row
    // they stay in the order they were added (strata_coverage_mask takes them in any order).
    for (long i = 0; i < n; i++) rowStart[s->cells[i].y - y0 + 1]++;
    for (int32_t r = 0; r < rows; r++) rowStart[r + 1] += rowStart[r];
    // Scatter with rowStart[r] as row r's insertion point: afterwards it holds row r's end,
    // which is row r + 1's start, so shifting by one row restores the starts.
    strata_cell *out = *spare;
    const long outCapacity = *spareCapacity;
    for (long i = 0; i < n; i++) out[rowStart[s->cells[i].y - y0]++] = s->cells[i];
    for (int32_t r = rows; r > 0; r--) rowStart[r] = rowStart[r - 1];
    rowStart[0] = 0;
    // The grouped cells become the sink's; its former buffer becomes the spare.
    *spare = s->cells; *spareCapacity = s->capacity;
    s->cells = out; s->capacity = outCapacity;
    return n;
}

/// strata_coverage_mask over at most STRATA_COVERAGE_CHUNK columns. `d` holds x1 − x0 + 1
/// zeros and is left so.
static void coverage_window(const strata_cell *cells, long count, int evenOdd, int x0, int x1, float *mask,
                            int *first, int *end, int64_t *d) {
    // Along the row, pixel x is covered by (2·256·S(x) − A(x)) / (2·256·256), S the covers of
    // the cells up to and including x, A the areas of those at x. Each cell adds 2·256·cover −
    // area to d[x] and area to d[x + 1], so that the running sum of d is that numerator; the
    // cells left of x0 add their cover to the sum's start.
    int64_t left = 0, total = 0;
    int lo = x1, hi = x0 - 1;
    for (long i = 0; i < count; i++) {
        const int x = cells[i].x;
        if (x < x0) { left += cells[i].cover; continue; }
        if (x >= x1) continue;
        const int64_t cover = cells[i].cover, area = cells[i].area;
        total += cover;
        d[x - x0] += 2 * ONE * cover - area;
        d[x - x0 + 1] += area;
        lo = x < lo ? x : lo; hi = x > hi ? x : hi;
    }
    total += left;
    // Coverage starts at x0 when cells on the left leave a cover, else at the first cell; it
    // ends at x1 when the cover does not return to zero, else after the last cell.
    const int a = left != 0 ? x0 : lo;
    const int e = total != 0 ? x1 : (hi + 1 > a ? hi + 1 : a);
    *first = a; *end = e;
    const int64_t unit = 2 * ONE * ONE;
    int64_t sum = 2 * ONE * left;
    float *out = mask - x0;
    int64_t *dd = d - x0;
    if (evenOdd) {
        for (int x = a; x < e; x++) {
            sum += dd[x]; dd[x] = 0;
            int64_t m = sum < 0 ? -sum : sum;
            m %= 2 * unit;
            if (m > unit) m = 2 * unit - m;
            out[x] = (float)m / (float)unit;
        }
    } else {
        for (int x = a; x < e; x++) {
            sum += dd[x]; dd[x] = 0;
            int64_t m = sum < 0 ? -sum : sum;
            if (m > unit) m = unit;
            out[x] = (float)m / (float)unit;
        }
    }
    // The slot after the last column holds its area (or nothing when no cell is there).
    dd[e] = 0;
}

void strata_coverage_mask_with(const strata_cell *cells, long count, int evenOdd, int x0, int x1, float *mask,
                               int *first, int *end, int64_t *zeros) {
    int a = x1, e = x1;
    for (int w0 = x0; w0 < x1; w0 += STRATA_COVERAGE_CHUNK) {
        const int w1 = x1 - w0 < STRATA_COVERAGE_CHUNK ? x1 : w0 + STRATA_COVERAGE_CHUNK;
        int f, g;
        coverage_window(cells, count, evenOdd, w0, w1, mask + (w0 - x0), &f, &g, zeros);
        if (f >= g) continue;
        // Windows between covered ones that hold no coverage are zero.
        if (a == x1) a = f; else for (int x = e; x < f; x++) mask[x - x0] = 0;
        e = g;
    }
    *first = a; *end = e;
}

void strata_coverage_mask(const strata_cell *cells, long count, int evenOdd, int x0, int x1, float *mask,
                          int *first, int *end) {
    int64_t zeros[STRATA_COVERAGE_CHUNK + 1];
    strata_coverage_clear(zeros, x0, x1);
    strata_coverage_mask_with(cells, count, evenOdd, x0, x1, mask, first, end, zeros);
}
