// Inner loops of the compositor written in C, where Swift does not generate vector code for
// them (measured: the RGBA8 store took 40 instructions a pixel in Swift's SIMD types; the
// per-pixel image shader 75 cycles a pixel).
//
// Every kernel exists four times, compiled from one source (span_kernel.h, store_kernel.h):
// with AVX-512 (sixteen lanes for the span kernels, eight for the store and YUV kernels), eight
// lanes with AVX2, eight lanes with baseline SSE2, and one lane (the scalar path). Lanes never
// talk to each other and every operation is a plain IEEE single-precision operation (no
// contraction into FMA, no reciprocal estimates), so all give the same bytes; the tests render
// scenes through each the CPU runs and compare them.
//
// Tiles are planar: four planes (R, G, B, A) of premultiplied floats, `stride` floats a row
// (a multiple of 8), `plane` floats apart, with STRATA_SPAN_TAIL floats after the last plane.
#ifndef STRATA_KERNELS_H
#define STRATA_KERNELS_H

#include <stdint.h>

/// Which instantiation of the kernels runs.
typedef enum {
    STRATA_LANES_SCALAR = 0,
    STRATA_LANES_SSE2 = 1,
    STRATA_LANES_AVX2 = 2,
    /// AVX-512: span kernels of sixteen lanes in 512-bit registers; the store and YUV kernels
    /// are AVX2's code compiled for AVX-512VL (32 registers, mask registers).
    STRATA_LANES_AVX512 = 3,
    /// AVX-512 CPUs' span kernels of eight lanes: AVX2's code compiled for AVX-512VL, which
    /// keeps more of a sprite's step in registers (AVX2's sixteen spilled to the stack) and
    /// selects with mask registers. For items too narrow for sixteen lanes (SpanKernel.narrowItem);
    /// the other kernels take STRATA_LANES_AVX512's. Never strata_best_lanes().
    STRATA_LANES_AVX512_8 = 4,
} strata_lanes;

/// Floats a tile's planes and a mask row must hold past their end. The span kernels' steps start
/// on multiples of 8 pixels of a row and the widest take 16, so a row's last step may reach 8
/// floats past its `stride` (past the last plane, for its last row); the lanes beyond the row
/// are read and left as they were.
enum { STRATA_SPAN_TAIL = 8 };

/// Floats a glyph mask holds past its last row, and strata_draw_glyphs' `scratch` past `stride`:
/// a mask row is added into the gathered row a whole step at a time, the last step reading up to
/// 15 floats past the row and writing back, unchanged, the scratch floats past its end.
enum { STRATA_GLYPH_TAIL = 16 };

/// The widest instantiation this CPU runs.
strata_lanes strata_best_lanes(void);

/// Converts `count` premultiplied RGBA float pixels (0…1, 4 floats each) to RGBA8 words:
/// alpha clamped to 0…1, colour clamped to 0…alpha, each channel floor(255·v + ½).
void strata_store_rgba8(const float *src, uint32_t *dst, long count);

/// The same conversion from planar rows: `count` pixels read at `r[i], g[i], b[i], a[i]`.
void strata_store_planar_rgba8(const float *r, const float *g, const float *b, const float *a, uint32_t *dst,
                               long count, strata_lanes lanes);

/// strata_store_planar_rgba8 for `height` rows of a tile's planes (row y's red at
/// `planes + y·stride`, green, blue and alpha `plane`, 2·`plane` and 3·`plane` floats further),
/// `width` pixels each, into rows `dstStride` words apart: one call a tile.
void strata_store_planar_tile(const float *planes, long stride, long plane, long width, long height, uint32_t *dst,
                              long dstStride, strata_lanes lanes);

/// Screen → layer plane: u = (X·m0 + Y·m3 + m6) / w, v = (X·m1 + Y·m4 + m7) / w,
/// w = X·m2 + Y·m5 + m8 at the pixel centre (X, Y) = (x + ½, y + ½); w = 1 when affine.
typedef struct {
    double m[9];
    int32_t affine;
    /// Affine maps that rotate and scale uniformly (possibly mirrored): a pixel spans the same
    /// local distance in every direction.
    int32_t similar;
    /// Affine maps: local units per pixel along u and v (|∇u|, |∇v|).
    float gu, gv;
} strata_map;

/// A rounded rectangle: centre, half extents and corner radii (top-left, top-right,
/// bottom-left, bottom-right in y-down layer coordinates).
typedef struct {
    float cu, cv, hw, hh;
    float r[4];
} strata_rrect;

/// The most ancestor clips an item may have here (items with more take the Swift path).
#define STRATA_MAX_CLIPS 8

/// An ancestor's clip: a rounded rectangle in its own plane.
typedef struct {
    strata_map map;
    strata_rrect shape;
    int32_t antialiased;
} strata_clip;

/// How an item's own coverage is found.
typedef enum {
    /// Coverage 1 (a mask row supplies it, or nothing limits it).
    STRATA_COVER_NONE = 0,
    /// Inside `shape`.
    STRATA_COVER_RRECT = 1,
    /// Inside `shape` and outside `inner` (a border).
    STRATA_COVER_RING = 2,
    /// Inside the image cell, inside `shape` (the destination) and, with `hasClip`, `inner`.
    STRATA_COVER_IMAGE = 3,
} strata_cover_kind;

/// What colour an item paints.
typedef enum {
    STRATA_PAINT_SOLID = 0,
    STRATA_PAINT_AXIAL = 1,
    STRATA_PAINT_RADIAL = 2,
    STRATA_PAINT_IMAGE = 3,
} strata_paint_kind;

/// A sampled image: RGBA8 texels (R in the low byte) placed by `x = sx0 + u·sxScale`,
/// `y = sy0 + v·syScale` in texel units, edges clamped.
typedef struct {
    const uint32_t *texels;
    int32_t width, height;
    float sx0, sxScale, sy0, syScale;
} strata_sampler;

/// One draw item as the span kernel sees it.
typedef struct {
    strata_map map;
    int32_t antialiased;
    strata_cover_kind cover;
    strata_rrect shape;
    /// The ring's hole, or the image's clip (with `hasClip`).
    strata_rrect inner;
    int32_t hasClip;
    /// Image cell bounds in layer units (u0, u1, v0, v1), half-open; ±infinity without a cell.
    float cell[4];
    const strata_clip *clips;
    int32_t clipCount;

    strata_paint_kind paint;
    /// Solid colour, premultiplied.
    float color[4];
    /// Gradient: start point, axis (dx, dy) and 1 / |axis|² (axial) or radii (radial).
    float gsx, gsy, gdx, gdy, gInvLen2, grx, gry;
    /// Radial gradient with a focal point (`gFocal` 1): the focus relative to the centre in units
    /// of the radii, and gfx² + gfy² − 1 (GradientPaint.focalParameter).
    int32_t gFocal;
    float gfx, gfy, gfa;
    /// Gradient stops (ascending) and their straight-alpha colours (4 floats each).
    int32_t stopCount;
    const float *stops;
    const float *stopColors;
    /// Gradient and image: the layer opacity.
    float opacity;
    /// Image: the sampler, nearest or bilinear, the next mipmap level and its weight, a tint.
    strata_sampler image;
    int32_t nearest;
    strata_sampler blendImage;
    float blendWeight;
    int32_t hasTint;
    float tint[4];
    /// Image: every sampled colour multiplied by this premultiplied colour, component by
    /// component, after the tint (a particle's colour; ImagePlacement.modulate).
    int32_t hasModulate;
    float modulate[4];
    /// Image: added to the pixels, each component saturating at 1, instead of blended
    /// source-over (an additive emitter's particles; ItemBlendMode.additive).
    int32_t additive;
    /// Image: a sprite (a particle's image; ImagePlacement.sprite): bilinear weights in steps of
    /// 1/256 and the texels interpolated in integers, rows drawn in one run each. Set only for
    /// images without clips (the item's or its ancestors'), tint, crossfade or nearest sampling,
    /// on an affine map.
    int32_t sprite;
    /// A sprite's image with a border of one texel around it repeating its edge texels
    /// ((width + 2) × (height + 2) words), or null: where given, the sprite rows read each
    /// pair of neighbouring texels as one 64-bit load, clamping once (the same texels as the
    /// edge clamps of `image`).
    const uint32_t *spriteTexels;
    /// Take the general code even where a specialised one holds (coverage of rectangles sampled
    /// through affine and similar maps, two-stop ramps between their stops): the same bytes;
    /// tests compare the two.
    int32_t general;
} strata_item;

/// What a span call does with its pixels.
typedef enum {
    /// Coverage from the item's shape, clips and mask; shade; blend source-over.
    STRATA_SPAN_FULL = 0,
    /// Pixels well inside the shape: its coverage is exactly 1 (clips and mask still apply).
    STRATA_SPAN_INTERIOR = 1,
    /// Interior pixels of an opaque solid colour without clips: stored.
    STRATA_SPAN_STORE = 2,
    /// Interior pixels of an opaque paint without clips: the shade replaces the pixel.
    STRATA_SPAN_REPLACE = 3,
} strata_span_mode;

/// Draws pixels `x0 ..< x1` of row `y` of a planar tile whose top-left pixel is
/// (tileX, tileY). `mask`, when given, holds a coverage per tile column (indexed by x − tileX,
/// `stride` floats, 0…1, then STRATA_SPAN_TAIL more), multiplied in.
void strata_draw_span(const strata_item *item, float *tile, long stride, long plane, int tileX, int tileY,
                      int y, int x0, int x1, strata_span_mode mode, const float *mask, strata_lanes lanes);

/// A convex screen quadrilateral (ScreenQuad): rows are drawn only between its edges.
typedef struct {
    double xs[4], ys[4];
} strata_quad;

/// The interior of a rounded rectangle seen through an item's map (InteriorRuns): per row, the
/// pixels whose coverage is exactly 1.
typedef struct {
    double m[9];
    double cu, cv, a1, b1, a2, b2;
    /// Affine maps: the corner discs (centres (±du, ±dv) from (cu, cv), radius rho; rho 0 when
    /// the run is the longer slab's).
    double du, dv, rho;
} strata_interior;

/// The columns of row `y` within `lo ..< hi` the quad may touch (ScreenQuad.span); false when
/// none.
int strata_quad_span(const strata_quad *q, int y, int *lo, int *hi);

/// The interior run of row `y` within `lo ..< hi` (InteriorRuns.columns); false when empty.
int strata_interior_columns(const strata_interior *r, int y, int lo, int hi, int *x0, int *x1);


/// The rows of an item within a tile: the region, the outline, and the interior run, whose
/// pixels are drawn with `interiorMode` (or not at all when they are a ring's `hole`).
typedef struct {
    int32_t x0, y0, x1, y1;
    int32_t hasOutline;
    strata_quad outline;
    int32_t hasInterior;
    strata_interior interior;
    int32_t hole;
    strata_span_mode interiorMode;
} strata_rows;

/// A quad's edges and an affine interior's slab ends as linear functions of the row, prepared
/// once per item and tile so each row costs a few multiply-adds (see rows.c).
typedef struct {
    int32_t edgeCount;
    // Edges with y0 ≤ y1: x = ex0 + slope·(y − ey0) (horizontal edges: x from ex0 to ex1).
    double ex0[4], ex1[4], ey0[4], ey1[4], slope[4];
    int32_t affineInterior;
    // Per slab (2) and axis (u, v): the X interval as lo0 + loY·Y ..< hi0 + hiY·Y; `kind` 1 when
    // bounded, 2 when every X qualifies, 0 when none.
    double lo0[4], loY[4], hi0[4], hiY[4];
    int32_t kind[4];
    double a1, b1, a2, b2;
    // The corner discs (rho > 0): disc i meets row Y in centre ± half with centre = c0[i] + cY·Y,
    // half = √(aRho2 − e²) / a, e = e0[i] + eY·Y (see rows.c).
    int32_t discs;
    double c0[4], e0[4], cY, eY, aRho2, invA;
} strata_row_setup;

void strata_prepare_rows(const strata_rows *rows, strata_row_setup *setup);
int strata_quad_span_fast(const strata_row_setup *s, int y, int *lo, int *hi);
int strata_interior_columns_fast(const strata_row_setup *s, const strata_interior *r, int y, int lo, int hi, int *x0, int *x1);

/// Per row of `rows` (the item's whole bounds): the columns the outline may touch and the
/// interior run within them, as four integers (x0, x1, interior x0, interior x1; an empty row
/// has x0 ≥ x1, a row without interior run equal interior ends). Computed once per item and
/// frame, and clipped to each tile's columns by `strata_draw_rows`.
void strata_item_row_spans(const strata_rows *rows, int32_t *spans);

/// strata_item_row_spans with the instantiation of `lanes` (AVX-512 or AVX2: eight rows at a time
/// for rounded items; otherwise row by row), which the CPU must have. The same spans either way.
void strata_item_row_spans_with(const strata_rows *rows, int32_t *spans, strata_lanes lanes);

/// Draws an item over a region of a tile, row by row (one call per item and tile). `spans`,
/// when given, are the item's row spans (from `strata_item_row_spans`, rows from `spansY0`).
void strata_draw_rows(const strata_item *item, float *tile, long stride, long plane, int tileX, int tileY,
                      const strata_rows *rows, const int32_t *spans, int spansY0, strata_lanes lanes);

/// Draws a fill (`fill`: cover STRATA_COVER_RRECT, a solid or gradient paint) and then its
/// layer's border (`border`: cover STRATA_COVER_RING whose outer edge is the fill's shape, same
/// map and clips) over a region of a tile, in one pass: the same bytes as `strata_draw_rows` of
/// one and then of the other. Rows and spans as there, one set for each item.
void strata_draw_rows_bordered(const strata_item *fill, const strata_item *border, float *tile, long stride, long plane,
                               int tileX, int tileY, const strata_rows *fillRows, const int32_t *fillSpans, int fillSpansY0,
                               const strata_rows *borderRows, const int32_t *borderSpans, int borderSpansY0,
                               strata_lanes lanes);

// MARK: Coverage of polygons (coverage.c)

/// A pixel's share of a polygon's edges (see coverage.c): `cover` is the height the edges
/// cross inside the pixel, `area` the sum of height × (left + right end across the pixel), in
/// 1/256 pixel units.
typedef struct {
    int32_t x, y, cover, area;
} strata_cell;

/// Where the cells of a polygon are collected, for a frame of `width × height` pixels: cells of
/// rows outside the frame and of columns right of it are dropped, those left of it are folded
/// into column −1 (only their cover matters).
typedef struct {
    strata_cell *cells;
    long count, capacity;
    int32_t width, height;
    int32_t failed;  // an allocation failed: the cells are incomplete
} strata_cell_sink;

/// Adds an edge (screen pixels, y down; the direction gives the winding sign).
void strata_cells_add_edge(strata_cell_sink *sink, double x0, double y0, double x1, double y1);

/// Groups the cells by row (within a row they keep the order they were added in, and a pixel
/// may hold several); fills `rowStart` (rows y0…y1, `y1 − y0 + 1` entries: the cells of row y
/// are rowStart[y − y0] ..< rowStart[y − y0 + 1]). Returns the number of cells.
long strata_cells_finish(strata_cell_sink *sink, int32_t *rowStart, int32_t y0, int32_t y1);

/// `strata_cells_finish` into the caller's spare buffer (`*spareCapacity` cells; replaced by a
/// large enough one when smaller than the sink's count): the grouped cells are written there and
/// the buffers swap, so afterwards the sink holds them and `*spare` is the sink's former buffer.
/// Allocates nothing when the spare is large enough.
long strata_cells_finish_into(strata_cell_sink *sink, int32_t *rowStart, int32_t y0, int32_t y1, strata_cell **spare,
                              long *spareCapacity);

/// The coverage of pixels x0 ..< x1 of one row from its cells (in any order), written to
/// mask[x − x0] for x in first ..< end (outside that range it is 0).
void strata_coverage_mask(const strata_cell *cells, long count, int evenOdd, int x0, int x1, float *mask,
                          int *first, int *end);

/// Columns strata_coverage_mask sums at a time.
#define STRATA_COVERAGE_CHUNK 256

/// strata_coverage_mask with the caller's scratch: `zeros` holds STRATA_COVERAGE_CHUNK + 1 zeros
/// (the first min(x1 − x0, STRATA_COVERAGE_CHUNK) + 1 are used) and is left so, for the next row.
void strata_coverage_mask_with(const strata_cell *cells, long count, int evenOdd, int x0, int x1, float *mask,
                               int *first, int *end, int64_t *zeros);

/// Zeroes the slots strata_coverage_mask_with uses for columns x0 ..< x1.
static inline void strata_coverage_clear(int64_t *zeros, int x0, int x1) {
    const int used = x1 - x0 < STRATA_COVERAGE_CHUNK ? (x1 > x0 ? x1 - x0 : 0) : STRATA_COVERAGE_CHUNK;
    for (int i = 0; i <= used; i++) zeros[i] = 0;
}

// MARK: Coverage of polygons as strips (strips.c)

/// An edge snapped to 1/256 pixel and clipped as for cells (coverage.c), relative to a region.
typedef struct {
    int32_t x1, y1, x2, y2;
} strata_edge;

/// Where a polygon's edges are collected, for a region of `width × height` pixels.
typedef struct {
    strata_edge *edges;
    long count, capacity;
    int32_t width, height;
    int32_t failed;  // an allocation failed: the edges are incomplete
} strata_edge_sink;

/// Adds an edge (region pixels, y down; the direction gives the winding sign).
void strata_edges_add(strata_edge_sink *sink, double x0, double y0, double x1, double y1);

/// Pixels x0 ..< x1 of a row: with `alpha` ≥ 0 their coverages are alpha[alpha ..< alpha + x1 − x0]
/// of the strip sink's values; otherwise each has coverage `value`.
typedef struct {
    int32_t x0, x1;
    int32_t alpha;
    float value;
} strata_strip;

/// A polygon's strips (row by row, left to right) and their explicit coverages; buffers grown
/// with realloc and owned by the caller. The explicit coverages start after
/// STRATA_STRIP_ALPHA_PAD zeros and are followed by at least as many, so that a kernel may read a
/// strip's values a step of lanes at a time from a few values before its first to a few after its
/// last (strata_strips_row_single).
enum { STRATA_STRIP_ALPHA_PAD = 16 };

typedef struct {
    strata_strip *strips;
    long count, capacity;
    float *alpha;
    long alphaCount, alphaCapacity;
} strata_strip_sink;

/// A worker's buffers for strata_strips_build (zero-initialise; free with strata_strip_scratch_free).
typedef struct {
    int64_t *acc;  // a band's rows (strips.c's `band`)
    long accCapacity;
    int32_t *order;
    long orderCapacity;
    int32_t *active;
    long activeCapacity;
    int32_t *bandStart;
    long bandCapacity;
} strata_strip_scratch;

void strata_strip_scratch_free(strata_strip_scratch *scratch);

/// The strips of the polygon `edges` (nonzero or even-odd), the same coverage as its cells give.
/// `rowTable` (3·height + 1 entries) receives per row the first strip (height + 1 entries: row r's
/// strips are rowStart[r] ..< rowStart[r + 1]), then the first covered column (height entries;
/// the width for an empty row) and the column after the last (height entries; 0 when empty).
/// Returns 0 when an allocation failed (then there are no strips).
int strata_strips_build(const strata_edge_sink *edges, int evenOdd, strata_strip_sink *out, int32_t *rowTable,
                        strata_strip_scratch *scratch);

/// The coverage of columns x0 ..< x1 of row `row` from its strips, written to mask[x − x0] for x in
/// first ..< end (0 between strips; outside that range nothing is written).
static inline void strata_strips_row_mask(const strata_strip *strips, const float *alpha, const int32_t *rowStart,
                                          int32_t row, int x0, int x1, float *mask, int *first, int *end) {
    int a = x1, e = x1;
    for (long i = rowStart[row]; i < rowStart[row + 1]; i++) {
        const strata_strip *s = &strips[i];
        if (s->x0 >= x1) break;
        const int sa = s->x0 > x0 ? s->x0 : x0, sb = s->x1 < x1 ? s->x1 : x1;
        if (sa >= sb) continue;
        if (a == x1) a = sa; else for (int x = e; x < sa; x++) mask[x - x0] = 0;
        if (s->alpha >= 0) {
            const float *v = alpha + s->alpha + (sa - s->x0);
            for (int x = sa; x < sb; x++) mask[x - x0] = v[x - sa];
        } else {
            for (int x = sa; x < sb; x++) mask[x - x0] = s->value;
        }
        e = sb;
    }
    *first = a; *end = e;
}

/// When exactly one strip of row `row` meets columns x0 ..< x1 and it holds explicit values, the
/// columns it covers there (first ..< end) and where their values are: column x's is
/// alpha[*offset + x]. Returns 0 otherwise (strata_strips_row_mask then gathers the row).
static inline int strata_strips_row_single(const strata_strip *strips, const int32_t *rowStart, int32_t row, int x0, int x1,
                                           long *offset, int *first, int *end) {
    const strata_strip *only = 0;
    for (long i = rowStart[row]; i < rowStart[row + 1]; i++) {
        const strata_strip *s = &strips[i];
        if (s->x0 >= x1) break;
        if (s->x1 <= x0 || s->x1 <= s->x0) continue;
        if (only) return 0;
        only = s;
    }
    if (!only || only->alpha < 0) return 0;
    *first = only->x0 > x0 ? only->x0 : x0;
    *end = only->x1 < x1 ? only->x1 : x1;
    *offset = (long)only->alpha - only->x0;
    return 1;
}

/// Draws a polygon's strips with the item's paint and clips over pixels x0 ..< x1, y0 ..< y1 of a
/// tile (`scratch` holds `stride` + STRATA_SPAN_TAIL floats): the strips are relative to
/// (covX, covY), rows covY ..< covY + rows, `rowTable` as strata_strips_build fills it.
void strata_draw_strips(const strata_item *item, float *tile, long stride, long plane, int tileX, int tileY,
                        const strata_strip *strips, const float *alpha, const int32_t *rowTable, int32_t covX, int32_t covY,
                        int32_t rows, int x0, int y0, int x1, int y1, float *scratch, strata_lanes lanes);

// MARK: Video

/// Converts `width × height` RGBA8 pixels (`stride` pixels a row; both sizes even) to BT.709
/// limited-range YUV 4:2:0: luma of every pixel, chroma of each 2×2 block's mean colour.
void strata_rgba_to_yuv420(const uint32_t *rgba, long stride, int width, int height, uint8_t *y, long yStride,
                           uint8_t *u, uint8_t *v, long cStride, strata_lanes lanes);

// MARK: Glyphs

/// A glyph's coverage mask placed on the screen: `w × h` floats (0…1) row by row, top-left pixel
/// at (x, y).
typedef struct {
    int32_t x, y, w, h;
    const float *mask;
} strata_glyph;

/// Draws glyph masks, one after the other (each blended over the ones before, as glyphs are
/// composited one by one), with the item's paint and clips over pixels x0 ..< x1, y0 ..< y1 of
/// a tile. `scratch` holds `stride` + STRATA_GLYPH_TAIL floats; each mask is followed by
/// STRATA_GLYPH_TAIL readable floats.
void strata_draw_glyphs(const strata_item *item, float *tile, long stride, long plane, int tileX, int tileY,
                        const strata_glyph *glyphs, long count, int x0, int y0, int x1, int y1, float *scratch,
                        strata_lanes lanes);

/// Asks for the cache lines of `bytes` bytes from `p` on (a hint: nothing happens where `p` is not
/// readable). The tiles read their items in an order the prefetchers cannot follow (a tile's
/// particles lie anywhere in the list).
static inline void strata_prefetch(const void *p, long bytes) {
    for (long o = 0; o < bytes; o += 64) __builtin_prefetch((const char *)p + o);
}

#endif
