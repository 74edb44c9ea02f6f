// Analytic coverage of polygons (the fills of paths and of stroke outlines) as sparse cells.
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

#define ONE 256

static inline int64_t floordiv(int64_t a, int64_t b) {
    int64_t q = a / b;
    return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
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
    s.q = floordiv(a0, s.d); s.r = a0 - s.q * s.d;
    s.sq = floordiv(step, s.d); s.sr = step - s.sq * s.d;
    return s;
}

static inline int64_t stepper_next(stepper *s) {
    const int64_t v = s->q;
    s->q += s->sq; s->r += s->sr;
    if (s->r >= s->d) { s->q++; s->r -= s->d; }
    return v;
}

static int grow(strata_cell_sink *s) {
    long cap = s->capacity ? s->capacity * 2 : 256;
    strata_cell *c = realloc(s->cells, (size_t)cap * sizeof *c);
    if (!c) return 0;
    s->cells = c;
    s->capacity = cap;
    return 1;
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

/// A piece inside pixel column `c` of row `ey`, from (fxa, ya) to (fxb, yb) (fx in 0…256).
static inline void piece(strata_cell_sink *s, int64_t c, int64_t ey, int64_t fxa, int64_t ya, int64_t fxb, int64_t yb) {
    int64_t dy = yb - ya;
    if (dy == 0) return;
    add(s, c, ey, (int32_t)dy, (int32_t)(dy * (fxa + fxb)));
}

/// The part of an edge inside row `ey`: x in fixed point, y as 0…256 within the row. Pieces are
/// added left to right whichever way the edge runs, so a row's cells arrive mostly in order and
/// sorting them is cheap; a crossing's y is computed from the edge's start either way, so the
/// cells are the same.
static void scanline(strata_cell_sink *s, int64_t ey, int64_t x1, int64_t y1, int64_t x2, int64_t y2) {
    if (y1 == y2) return;
    // The columns of the two ends (an end on a column boundary belongs to the column the edge
    // is inside of).
    const int64_t c1 = x2 >= x1 ? pixelOf(x1) : pixelOf(x1 - 1);
    const int64_t c2 = x2 > x1 ? pixelOf(x2 - 1) : (x2 < x1 ? pixelOf(x2) : c1);
    if (c1 == c2) {
        piece(s, c1, ey, x1 - c1 * ONE, y1, x2 - c1 * ONE, y2);
        return;
    }
    if (x2 > x1) {
        // y at the boundaries x = (c1 + 1)·256, (c1 + 2)·256, …:
        // y1 + rounddiv((x − x1)·(y2 − y1), x2 − x1).
        stepper st = stepper_make((c1 + 1) * ONE - x1, ONE, y2 - y1, x2 - x1);
        int64_t yl = y1 + stepper_next(&st);
        piece(s, c1, ey, x1 - c1 * ONE, y1, ONE, yl);
        for (int64_t c = c1 + 1; c < c2; c++) {
            const int64_t yr = y1 + stepper_next(&st);
            piece(s, c, ey, 0, yl, ONE, yr);
            yl = yr;
        }
        piece(s, c2, ey, 0, yl, x2 - c2 * ONE, y2);
    } else {
        // Leftwards: the same boundaries' y, visited from the left end, x = (c2 + 1)·256, ….
        stepper st = stepper_make((c2 + 1) * ONE - x1, ONE, y2 - y1, x2 - x1);
        int64_t yl = y1 + stepper_next(&st);
        piece(s, c2, ey, ONE, yl, x2 - c2 * ONE, y2);
        for (int64_t c = c2 + 1; c < c1; c++) {
            const int64_t yr = y1 + stepper_next(&st);
            piece(s, c, ey, ONE, yr, 0, yl);
            yl = yr;
        }
        piece(s, c1, ey, x1 - c1 * ONE, y1, 0, yl);
    }
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

/// Vertices snapped to the 1/256 grid (clamped far outside any frame), halves away from zero as
/// llround does, inline: the fraction left by truncating is exact.
static inline int64_t fixed(double v) {
    if (!(v > -1e7)) v = -1e7;
    if (v > 1e7) v = 1e7;
    const double s = v * ONE;
    int64_t i = (int64_t)s;
    const double f = s - (double)i;
    if (f >= 0.5) i++; else if (f <= -0.5) i--;
    return i;
}

void strata_cells_add_edge(strata_cell_sink *s, double x0, double y0, double x1, double y1) {
    int64_t X0 = fixed(x0), Y0 = fixed(y0), X1 = fixed(x1), Y1 = fixed(y1);
    if (Y0 == Y1) return;
    const int64_t H = (int64_t)s->height * ONE, W = (int64_t)s->width * ONE;
    // Clip to the rows of the frame (the parts above and below add nothing).
    if ((Y0 <= 0 && Y1 <= 0) || (Y0 >= H && Y1 >= H)) return;
    if (Y0 < 0 || Y1 < 0 || Y0 > H || Y1 > H) {
        int64_t ya = Y0 < Y1 ? Y0 : Y1, yb = Y0 < Y1 ? Y1 : Y0;
        int64_t ca = ya < 0 ? 0 : ya, cb = yb > H ? H : yb;
        int64_t xa = X0 + rounddiv((ca - Y0) * (X1 - X0), Y1 - Y0);
        int64_t xb = X0 + rounddiv((cb - Y0) * (X1 - X0), Y1 - Y0);
        if (Y0 < Y1) { X0 = xa; Y0 = ca; X1 = xb; Y1 = cb; } else { X0 = xb; Y0 = cb; X1 = xa; Y1 = ca; }
    }
    // Right of the frame: nothing. Left of it: only the cover counts, so that part becomes a
    // vertical edge in column −1.
    if (X0 >= W && X1 >= W) return;
    if (X0 <= 0 && X1 <= 0) { line(s, -ONE / 2, Y0, -ONE / 2, Y1); return; }
    if (X0 > W || X1 > W) {
        int64_t ym = Y0 + rounddiv((W - X0) * (Y1 - Y0), X1 - X0);
        if (X0 > W) { X0 = W; Y0 = ym; } else { X1 = W; Y1 = ym; }
    }
    if (X0 < 0 || X1 < 0) {
        int64_t ym = Y0 + rounddiv((0 - X0) * (Y1 - Y0), X1 - X0);
        if (X0 < 0) { line(s, -ONE / 2, Y0, -ONE / 2, ym); line(s, 0, ym, X1, Y1); }
        else { line(s, X0, Y0, 0, ym); line(s, -ONE / 2, ym, -ONE / 2, Y1); }
        return;
    }
    line(s, X0, Y0, X1, Y1);
}

long strata_cells_finish(strata_cell_sink *s, int32_t *rowStart, int32_t y0, int32_t y1) {
    strata_cell *sorted = malloc((size_t)(s->count > 0 ? s->count : 1) * sizeof *sorted);
    if (!sorted) {
        s->failed = 1; s->count = 0;
        for (int32_t r = 0; r <= y1 - y0; r++) rowStart[r] = 0;
        return 0;
    }
    const long out = strata_cells_finish_into(s, rowStart, y0, y1, sorted);
    free(sorted);
    return out;
}

/// Sorts n cells by x: merges neighbouring ascending runs pairwise, between `a` and `b`, until one
/// run is left; returns the buffer holding it. Equal x may end in either order (their sums do
/// not depend on it).
static const strata_cell *sort_row(strata_cell *a, strata_cell *b, long n) {
    if (n < 2) return a;
    for (;;) {
        long i = 0, o = 0, runs = 0;
        while (i < n) {
            long j = i + 1;
            while (j < n && a[j - 1].x <= a[j].x) j++;
            if (j == n) {
                if (runs == 0) return a;
                memcpy(b + o, a + i, (size_t)(n - i) * sizeof *a);
                break;
            }
            long k = j + 1;
            while (k < n && a[k - 1].x <= a[k].x) k++;
            long p = i, q = j;
            while (p < j && q < k) b[o++] = a[q].x < a[p].x ? a[q++] : a[p++];
            while (p < j) b[o++] = a[p++];
            while (q < k) b[o++] = a[q++];
            runs++;
            i = k;
        }
        strata_cell *t = a; a = b; b = t;
    }
}

long strata_cells_finish_into(strata_cell_sink *s, int32_t *rowStart, int32_t y0, int32_t y1, strata_cell *sorted) {
    const long n = s->count;
    const int32_t rows = y1 - y0;
    // Counting sort by row (cells are produced along the edges, rows interleaved), then a natural
    // merge sort by column within each row. Measured: qsort with a comparator took 13 % of a
    // motion frame, insertion sort 2 % (a stroke's two sides cross a row as runs in either order).
    for (int32_t r = 0; r <= rows; r++) rowStart[r] = 0;
    for (long i = 0; i < n; i++) rowStart[s->cells[i].y - y0 + 1]++;
    for (int32_t r = 0; r < rows; r++) rowStart[r + 1] += rowStart[r];
    // Scatter with rowStart[r] as row r's insertion point: afterwards it holds row r's end,
    // which is row r + 1's start, so shifting by one row restores the starts.
    for (long i = 0; i < n; i++) sorted[rowStart[s->cells[i].y - y0]++] = s->cells[i];
    for (int32_t r = rows; r > 0; r--) rowStart[r] = rowStart[r - 1];
    rowStart[0] = 0;
    // Sort each row by column, merge the cells of one pixel, and compact.
    long out = 0;
    for (int32_t r = 0; r < rows; r++) {
        const long a = rowStart[r], b = rowStart[r + 1];
        rowStart[r] = (int32_t)out;
        // The row's cells, in sorted[a ..< b], are runs ascending in x (one per edge piece);
        // s->cells[a ..< b] is free (the compacted rows before end at out ≤ a), so it serves as
        // the merge buffer.
        const strata_cell *row = sort_row(sorted + a, s->cells + a, b - a);
        // Compact forwards: when `row` is s->cells + a, a cell is read before its slot is written.
        for (long i = 0; i < b - a; i++) {
            if (out > rowStart[r] && s->cells[out - 1].x == row[i].x) {
                s->cells[out - 1].cover += row[i].cover; s->cells[out - 1].area += row[i].area;
            } else {
                s->cells[out++] = row[i];
            }
        }
    }
    rowStart[rows] = (int32_t)out;
    s->count = out;
    return out;
}

void strata_coverage_mask(const strata_cell *cells, long count, int evenOdd, int x0, int x1, float *mask,
                          int *first, int *end) {
    // The running cover of the cells left of x0.
    long i = 0;
    int64_t acc = 0;
    while (i < count && cells[i].x < x0) { acc += cells[i].cover; i++; }
    const int64_t unit = 2 * ONE * ONE;
    int a = acc != 0 ? x0 : (i < count ? cells[i].x : x1);
    if (a > x1) a = x1;
    int x = a;
#define COVER(v) do { \
        int64_t m = (v) < 0 ? -(v) : (v); \
        if (evenOdd) { m %= 2 * unit; if (m > unit) m = 2 * unit - m; } else if (m > unit) m = unit; \
        cv = (float)m / (float)unit; \
    } while (0)
    float cv;
    while (x < x1) {
        if (i < count && cells[i].x == x) {
            COVER(2 * ONE * (acc + cells[i].cover) - cells[i].area);
            mask[x - x0] = cv;
            acc += cells[i].cover;
            i++;
            x++;
            continue;
        }
        int next = i < count && cells[i].x < x1 ? cells[i].x : x1;
        if (acc == 0) {
            if (next == x1 || i >= count) break;
            for (; x < next; x++) mask[x - x0] = 0;
            continue;
        }
        COVER(2 * ONE * acc);
        for (; x < next; x++) mask[x - x0] = cv;
    }
#undef COVER
    *first = a; *end = x;
}
