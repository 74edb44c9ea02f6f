// Inner loops of the GIF encoder (StrataMedia's GIFEncoder) written in C: the LZW coder with
// per-pixel alternatives and the "held against the display" differencing pass. Swift kept bounds,
// uniqueness and exclusivity checks in them (measured with callgrind, 10 frames of rlottie's
// gears.json at 1080p: the LZW loop alone was 30 % of the export's instructions, with a
// uniqueness check and a dynamic exclusivity check for nearly every code). Both give exactly
// the results of the Swift code they replace (GIFLZWTests, GIFHeldKernelTests compare them with
// reference implementations written in the tests).
//
// A target of its own rather than part of CStrataKernels: only StrataMedia uses it, and the
// compositor's kernels (and everything built on them) need not be rebuilt when it changes.
#ifndef STRATA_GIF_H
#define STRATA_GIF_H

#include <stdint.h>
#include <stdbool.h>

/// Slots of an LZW coder's string table (open-addressed; 64 KB).
enum { STRATA_LZW_TABLE_ENTRIES = 8192 };

/// Bytes `strata_gif_lzw_encode` may write for `count` pixels: at most one code (12 bits) a
/// pixel plus the clear and end codes and a clear each time the table fills, in sub-blocks of
/// 255 bytes behind a length byte.
static inline long strata_gif_lzw_capacity(long count) {
    long codes = count + 3 + count / 64;
    long bytes = (codes * 12 + 7) / 8 + 1;
    return bytes + bytes / 255 + 2;
}

/// What `strata_gif_lzw_encode` wrote.
typedef struct {
    /// Bytes of sub-blocks in `out` (each its length, then its bytes; no terminating block).
    long bytes;
    /// Positions written to `took`.
    long took;
    /// Whether the table filled up.
    int32_t filledTable;
    /// The table's generation after the image (hand it to the next call).
    uint32_t generation;
} strata_lzw_result;

/// GIF's variable-width LZW of `count` ≥ 1 indices (each below 1 << minimumCodeSize, 2…8), where
/// pixel p may be written as `alternatives[p]` instead when that is ≥ 0 (`alternatives` NULL:
/// none): greedy, the alternative tried first when it repeats the last pixel written. A clear
/// code first; when the table fills, a clear (`clearsWhenFull`) or the full table kept. `table`
/// holds STRATA_LZW_TABLE_ENTRIES slots tagged with `generation` (zeros to start with; a clear
/// moves to the next generation; past 2³² − 1 the table is wiped and it starts at 1). `out` holds
/// strata_gif_lzw_capacity(count) bytes, `took` (the positions written with their alternative,
/// increasing) `count` entries when there are alternatives.
strata_lzw_result strata_gif_lzw_encode(const uint8_t *indices, const int16_t *alternatives, long count,
                                        int32_t minimumCodeSize, int32_t clearsWhenFull, uint64_t *table,
                                        uint32_t generation, uint8_t *out, int32_t *took);

/// A palette as the GIF encoder's PaletteMapper looks colours up: exact colours first (a 2²⁴-bit
/// set and an open-addressed table of `tableSlots` slots, a power of two, hashed by
/// (packed · 0x9E3779B1) >> (32 − log2 slots)), else the nearest colour cached per 128³ cell
/// (−1: not yet; `search` finds a cell's colour, which is then stored).
typedef struct {
    const uint64_t *bits;
    const uint32_t *tableKeys;
    const uint8_t *tableValues;
    int32_t tableShift;
    int32_t tableMask;
    int16_t *cache;
    /// Packed RGB (r << 16 | g << 8 | b) of each index.
    const uint32_t *colors;
    void *context;
    /// The nearest palette index for the cell (r >> 1, g >> 1, b >> 1).
    int32_t (*search)(void *context, int32_t ri, int32_t gi, int32_t bi);
} strata_gif_palette;

/// The palette index of 8-bit RGB (r, g, b): its exact index when it is a palette colour, else
/// the nearest colour of its cell.
int32_t strata_gif_palette_index(strata_gif_palette *palette, uint32_t r, uint32_t g, uint32_t b);

/// Maps `count` pixels of packed RGB bytes (3 a pixel) to palette indices with
/// strata_gif_palette_index (no dithering); pixels flagged in `transparent` (NULL: none) get
/// `transparentIndex`.
void strata_gif_map_nearest(const uint8_t *rgb, const _Bool *transparent, long count, uint8_t transparentIndex,
                            strata_gif_palette *palette, uint8_t *out);

/// Floyd–Steinberg onto the palette, as PaletteMapper.mapFloydSteinberg: rows in serpentine
/// order; a pixel flagged in `transparent` (NULL: none) gets `transparentIndex`, a pixel that is a
/// palette colour its exact index (no error taken or passed on); the others their colour plus the
/// error diffused to them, clamped to 0…255, mapped to the nearest colour of its cell (no exact
/// lookup), `strength` times the error passed on: 7/16 ahead, 3/16 behind-below, 5/16 below,
/// 1/16 ahead-below, in single precision in that order (no fused operations).
void strata_gif_map_diffused(const uint8_t *rgb, const _Bool *transparent, long w, long h, uint8_t transparentIndex,
                             float strength, strata_gif_palette *palette, uint8_t *out);

/// The encoder's differencing of gradient content against what the screen shows: for each pixel
/// of a `width`×`height` frame (premultiplied RGBA bytes `rgba`; `shown`: the packed RGB each
/// pixel shows, UINT32_MAX for nothing), held (mask 1) while the colour shown is within `slack`
/// (squared distance) of the palette's colour for the source, changed (0) otherwise or when
/// nothing is shown. `answers` keeps each pixel's last question (source bits 32–55, shown bits
/// 0–31) and answer (bit 63), and answers a repeated question without a lookup. Writes the
/// bounding box of the changed pixels to `bounds` (min x, min y, max x, max y) and returns
/// whether there is one.
/// `vector`: eight pixels at a time with AVX2 where the CPU has it (the same results as one at a
/// time, which 0 asks for; see strata_gif_has_avx2). `threads` 2: the lower half of the rows (of
/// frames at least 64 rows high) on a second thread, the same results (the palette's cache is
/// filled with relaxed atomics, and `search` must be safe to call from two threads at once).
int32_t strata_gif_held_against_display(const uint8_t *rgba, const uint32_t *shown, uint64_t *answers, _Bool *mask,
                                        long width, long height, int32_t slack, strata_gif_palette *palette,
                                        long bounds[4], int32_t vector, int32_t threads);

/// Tolerance differencing: each pixel of a `width`×`height` frame (RGBA bytes) unchanged (mask 1)
/// when no colour channel of `current` differs from `reference` by more than `tolerance` (< 0:
/// every pixel changed); the bounding box of the changed ones to `bounds` (as above), and whether
/// there is one. `vector`: eight equal pixels at a time with AVX2 where the CPU has it.
int32_t strata_gif_changed_rect(const uint8_t *reference, const uint8_t *current, _Bool *mask, long width, long height,
                                int32_t tolerance, long bounds[4], int32_t vector);

/// In the `w`×`h` rectangle at (x0, y0) of a frame `stride` pixels wide, with `indices` (w·h, one
/// a rectangle pixel): pixels whose index is not `transparentIndex` and whose colour
/// (`colors[index]`, packed RGB) the screen shows already (`displayed`, packed RGB a frame pixel)
/// get that index as their alternative and `transparentIndex` as their index. Returns whether any did.
int32_t strata_gif_mark_same_on_screen(uint8_t *indices, int16_t *alternatives, long w, long h, const uint32_t *displayed,
                                       long stride, long x0, long y0, const uint32_t *colors, uint8_t transparentIndex);

/// The bounding box (min x, min y, max x, max y) of the `w`×`h` indices that are not `value`;
/// returns whether there is one.
int32_t strata_gif_bounds_other_than(const uint8_t *indices, long w, long h, uint8_t value, long bounds[4]);

/// Pixels of the rectangle (as above) without an alternative (< 0), written `transparentIndex`
/// and unchanged (`unchanged`, a flag a frame pixel) get their own colour's palette index
/// (strata_gif_palette_index of the RGBA frame pixel) as alternative. Returns whether any did.
int32_t strata_gif_own_colour_alternatives(const uint8_t *indices, int16_t *alternatives, long w, long h,
                                           const _Bool *unchanged, const uint8_t *rgba, long stride, long x0, long y0,
                                           uint8_t transparentIndex, strata_gif_palette *palette);

/// What the screen shows after the rectangle's `indices` are drawn: `displayed` (packed RGB a
/// frame pixel) takes `colors[index]` where the index is below `colorCount` and not
/// `transparentIndex`.
void strata_gif_update_displayed(const uint8_t *indices, long w, long h, uint32_t *displayed, long stride, long x0, long y0,
                                 const uint32_t *colors, long colorCount, long transparentIndex);

/// Copies the RGBA words of the rectangle's pixels not flagged `unchanged` from `source` to
/// `reference` (whole frames, `stride` pixels wide).
void strata_gif_update_reference(uint32_t *reference, const uint32_t *source, const _Bool *unchanged, long w, long h,
                                  long stride, long x0, long y0);

/// Colour statistics of RGBA pixels (as over black: the RGB bytes) from `p` to `n`, by runs of
/// one colour: each run adds its length and its length times each channel to its bin of the
/// two-level 128³ histogram (`slots`: a 64³ table of cells, each its slot or −1; `bins`: 8 bins
/// of 4 counts a slot) and, with `runColors` (non-NULL), is appended to `runColors` and
/// `runLengths` (packed RGB, length). Stops at a pixel whose cell has no slot (`*status` 1), when
/// the runs hold `runCapacity` (2), or at `n` (0); returns the position reached. `vector`: runs
/// found eight pixels at a time with AVX2 where the CPU has it (the same runs).
long strata_gif_statistics_runs(const uint8_t *rgba, long p, long n, const int32_t *slots, long *bins,
                                uint32_t *runColors, long *runLengths, long runCapacity, long *runCount,
                                int32_t *status, int32_t vector);

/// Runs of one colour (packed RGB, ignoring alpha) among the pixels of `current` from `p` to `n`
/// whose RGBA word differs from `previous`'s (NULL: every pixel), runs running on across
/// unchanged pixels: the run in progress is (`*pendingColor`, `*pendingLength`); a run that ends
/// is appended to `runColors`/`runLengths`. Stops when they hold `runCapacity`; returns the
/// position reached. `vector`: eight pixels at a time with AVX2 where the CPU has it (the same runs).
long strata_gif_changed_runs(const uint32_t *current, const uint32_t *previous, long p, long n, uint32_t *pendingColor,
                             long *pendingLength, uint32_t *runColors, long *runLengths, long runCapacity,
                             long *runCount, int32_t vector);

/// The squared error (levels², summed over the channels, added up in double precision pixel by
/// pixel) of the nearest colours of each cell (no exact lookup) for the `count` packed RGB pixels
/// not flagged in `transparent` (NULL: none); `*counted` the pixels added.
double strata_gif_squared_error(const uint8_t *rgb, const _Bool *transparent, long count, strata_gif_palette *palette,
                                long *counted);

/// The differencing cut of the `w`×`h` rectangle at (x0, y0) of an RGBA frame `stride` pixels
/// wide: pixels flagged in `unchanged` (a flag a frame pixel) are flagged in `transparent`, the
/// others' RGB bytes go to `rgb` (3 a pixel). Returns whether any pixel was flagged.
int32_t strata_gif_cut_region(const uint8_t *rgba, const _Bool *unchanged, long stride, long x0, long y0, long w, long h,
                              uint8_t *rgb, _Bool *transparent);

/// Flags in `used` (256 flags) each index among the `count` indices.
void strata_gif_mark_used(const uint8_t *indices, long count, _Bool *used);

/// Whether this CPU runs the AVX2 paths.
int32_t strata_gif_has_avx2(void);

#endif
