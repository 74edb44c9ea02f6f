// The GIF encoder's inner loops (see include/strata_gif.h).
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "strata_gif.h"

// Floating point exactly as written (Floyd–Steinberg must give Swift's bytes).
#pragma STDC FP_CONTRACT OFF

#if defined(__x86_64__)
#include <immintrin.h>
#endif

// MARK: - LZW

typedef struct {
    uint8_t *out;
    long pos;
    /// Where the current sub-block's length byte is (-1: none yet).
    long blockStart;
    uint64_t accumulator;
    int count;
} bit_writer;

static inline void emit_byte(bit_writer *w, uint8_t byte) {
    if (w->blockStart < 0 || w->out[w->blockStart] == 255) {
        w->blockStart = w->pos++;
        w->out[w->blockStart] = 0;
    }
    w->out[w->pos++] = byte;
    w->out[w->blockStart]++;
}

static inline void write_code(bit_writer *w, uint32_t code, int bits) {
    w->accumulator |= (uint64_t)code << w->count;
    w->count += bits;
    while (w->count >= 8) {
        emit_byte(w, (uint8_t)w->accumulator);
        w->accumulator >>= 8;
        w->count -= 8;
    }
}

static inline uint32_t next_generation(uint32_t generation, uint64_t *table) {
    if (generation + 1 != 0) return generation + 1;
    memset(table, 0, sizeof(uint64_t) * STRATA_LZW_TABLE_ENTRIES);
    return 1;
}

// The string table: (prefix code << 8 | index) → code, open-addressed (a multiplicative hash,
// linear probing) in STRATA_LZW_TABLE_ENTRIES slots, each generation << 32 | key << 12 | code; a
// slot of another generation is empty, so a clear is a generation step. At most 3 837 strings
// a generation in 8 192 slots. (A direct table of 4096 × 256 slots, 4 MB a coder, cost fewer
// instructions but missed the caches: perf put it at 30 % of confetti.json's GIF export.)
static inline uint32_t slot_of(uint32_t key) { return (key * 0x9E3779B1u) >> (32 - 13); }

/// The code of `key`'s string, or -1.
static inline int32_t table_find(const uint64_t *table, uint32_t key, uint32_t g) {
    for (uint32_t s = slot_of(key);; s = (s + 1) & (STRATA_LZW_TABLE_ENTRIES - 1)) {
        uint64_t e = table[s];
        if ((uint32_t)(e >> 32) != g) return -1;
        if (((uint32_t)e >> 12) == key) return (int32_t)(e & 0xFFF);
    }
}

static inline void table_insert(uint64_t *table, uint32_t key, uint32_t code, uint32_t g) {
    uint32_t s = slot_of(key);
    while ((uint32_t)(table[s] >> 32) == g) s = (s + 1) & (STRATA_LZW_TABLE_ENTRIES - 1);
    table[s] = (uint64_t)g << 32 | key << 12 | code;
}

/// The coder's state outside its matching loop (codes are written at misses only).
typedef struct {
    bit_writer writer;
    uint64_t *table;
    uint32_t generation, next, limit, clear, end;
    int width, minimumCodeSize, clearsWhenFull, filled;
} lzw_state;

/// Writes a code at the current width, then widens when the codes made so far no longer fit
/// (after the write: a decoder adds each entry one code later than the encoder).
static inline void put_code(lzw_state *s, uint32_t code) {
    write_code(&s->writer, code, s->width);
    if (s->next >= s->limit && s->width < 12) { s->width++; s->limit <<= 1; }
}

/// The string `current` cannot go on with `symbol`: its code is written and the string plus
/// `symbol` becomes a code (or, the table full, a clear or nothing). Returns the generation.
/// Out of line, so that the matching loops keep their state in registers.
__attribute__((noinline))
static uint32_t lzw_miss(lzw_state *s, uint32_t current, uint32_t symbol) {
    put_code(s, current);
    if (s->next >= 4095) {
        s->filled = 1;
        if (s->clearsWhenFull) {
            put_code(s, s->clear);
            s->next = s->end + 1;
            s->width = s->minimumCodeSize + 1;
            s->limit = 1u << s->width;
            s->generation = next_generation(s->generation, s->table);
        }
    } else {
        table_insert(s->table, current << 8 | symbol, s->next, s->generation);
        s->next++;
    }
    return s->generation;
}

strata_lzw_result strata_gif_lzw_encode(const uint8_t *indices, const int16_t *alternatives, long count,
                                        int32_t minimumCodeSize, int32_t clearsWhenFull, uint64_t *table,
                                        uint32_t generation, uint8_t *out, int32_t *took) {
    lzw_state s;
    s.writer = (bit_writer){ out, 0, -1, 0, 0 };
    s.table = table;
    s.clear = 1u << minimumCodeSize;
    s.end = s.clear + 1;
    s.next = s.end + 1;
    s.minimumCodeSize = minimumCodeSize;
    s.width = minimumCodeSize + 1;
    s.limit = 1u << s.width;
    s.clearsWhenFull = clearsWhenFull;
    s.filled = 0;
    s.generation = next_generation(generation, table);
    uint32_t g = s.generation;
    long tookCount = 0;

    put_code(&s, s.clear);
    uint32_t current = indices[0];
    long p = 1;
    if (!alternatives) {
        while (p < count) {
            uint32_t symbol = indices[p];
            int32_t code = table_find(table, current << 8 | symbol, g);
            if (code >= 0) {
                current = (uint32_t)code;
            } else {
                g = lzw_miss(&s, current, symbol);
                current = symbol;
            }
            p++;
        }
    } else {
        int32_t lastSymbol = (int32_t)current;
        while (p < count) {
            int32_t primary = indices[p];
            int32_t alternative = alternatives[p];
            if (alternative < 0) {
                int32_t code = table_find(table, current << 8 | (uint32_t)primary, g);
                if (code >= 0) {
                    current = (uint32_t)code;
                } else {
                    g = lzw_miss(&s, current, (uint32_t)primary);
                    current = (uint32_t)primary;
                }
                lastSymbol = primary;
                p++;
                continue;
            }
            // The alternative first when it repeats the last pixel written (a run goes on).
            int swapped = 0;
            if (alternative == lastSymbol) {
                int32_t t = primary; primary = alternative; alternative = t;
                swapped = 1;
            }
            int32_t code = table_find(table, current << 8 | (uint32_t)primary, g);
            if (code >= 0) {
                current = (uint32_t)code;
                if (swapped) took[tookCount++] = (int32_t)p;
                lastSymbol = primary;
                p++;
                continue;
            }
            code = table_find(table, current << 8 | (uint32_t)alternative, g);
            if (code >= 0) {
                current = (uint32_t)code;
                if (!swapped) took[tookCount++] = (int32_t)p;
                lastSymbol = alternative;
                p++;
                continue;
            }
            if (swapped) took[tookCount++] = (int32_t)p;
            lastSymbol = primary;
            g = lzw_miss(&s, current, (uint32_t)primary);
            current = (uint32_t)primary;
            p++;
        }
    }
    put_code(&s, current);
    put_code(&s, s.end);
    if (s.writer.count > 0) emit_byte(&s.writer, (uint8_t)s.writer.accumulator);
    strata_lzw_result result = { s.writer.pos, tookCount, s.filled, s.generation };
    return result;
}

// MARK: - Palette lookups

/// The nearest colour of the cache cell (ri, gi, bi), searched and stored the first time.
static inline int32_t nearest_cached(strata_gif_palette *palette, uint32_t ri, uint32_t gi, uint32_t bi) {
    uint32_t cell = ri << 14 | gi << 7 | bi;
    // Relaxed atomics: two threads may fill the cache at once (strata_gif_held_against_display
    // with two threads), each storing the same value for a cell.
    int32_t cached = __atomic_load_n(&palette->cache[cell], __ATOMIC_RELAXED);
    if (cached >= 0) return cached;
    int32_t found = palette->search(palette->context, (int32_t)ri, (int32_t)gi, (int32_t)bi);
    __atomic_store_n(&palette->cache[cell], (int16_t)found, __ATOMIC_RELAXED);
    return found;
}

/// The (first) index of a packed colour that is in the palette, else -1.
static inline int32_t exact_index(strata_gif_palette *palette, uint32_t packed) {
    if ((palette->bits[packed >> 6] >> (packed & 63)) & 1) {
        uint32_t s = (packed * 0x9E3779B1u) >> palette->tableShift;
        for (;;) {
            uint32_t key = palette->tableKeys[s];
            if (key == packed) return palette->tableValues[s];
            if (key == UINT32_MAX) break;
            s = (s + 1) & (uint32_t)palette->tableMask;
        }
    }
    return -1;
}

int32_t strata_gif_palette_index(strata_gif_palette *palette, uint32_t r, uint32_t g, uint32_t b) {
    int32_t exact = exact_index(palette, r << 16 | g << 8 | b);
    return exact >= 0 ? exact : nearest_cached(palette, r >> 1, g >> 1, b >> 1);
}

void strata_gif_map_nearest(const uint8_t *rgb, const _Bool *transparent, long count, uint8_t transparentIndex,
                            strata_gif_palette *palette, uint8_t *out) {
    // Runs of one colour look it up once (the lookup depends on the colour alone).
    uint32_t lastPacked = UINT32_MAX;
    uint8_t lastIndex = 0;
    for (long p = 0; p < count; p++) {
        if (transparent && transparent[p]) { out[p] = transparentIndex; continue; }
        uint32_t r = rgb[p * 3], g = rgb[p * 3 + 1], b = rgb[p * 3 + 2];
        uint32_t packed = r << 16 | g << 8 | b;
        if (packed != lastPacked) {
            lastPacked = packed;
            lastIndex = (uint8_t)strata_gif_palette_index(palette, r, g, b);
        }
        out[p] = lastIndex;
    }
}

void strata_gif_map_diffused(const uint8_t *rgb, const _Bool *transparent, long w, long h, uint8_t transparentIndex,
                             float strength, strata_gif_palette *palette, uint8_t *out) {
    const float k = strength;
    // Error rows with one pixel of padding on each side, 3 floats a pixel.
    long rowFloats = (w + 2) * 3;
    float *rows = calloc((size_t)(2 * rowFloats), sizeof(float));
    if (!rows) abort();
    float *cur = rows, *nxt = rows + rowFloats;
    // Exact indices remembered for the last colour (runs of one colour).
    uint32_t lastPacked = UINT32_MAX;
    int32_t lastExact = -1;
    for (long y = 0; y < h; y++) {
        int forward = y % 2 == 0;
        long step = forward ? 3 : -3;
        memset(nxt, 0, sizeof(float) * (size_t)rowFloats);
        for (long s = 0; s < w; s++) {
            long x = forward ? s : w - 1 - s;
            long p = y * w + x;
            long e = (x + 1) * 3;
            if (transparent && transparent[p]) { out[p] = transparentIndex; continue; }
            uint32_t sr = rgb[p * 3], sg = rgb[p * 3 + 1], sb = rgb[p * 3 + 2];
            uint32_t packed = sr << 16 | sg << 8 | sb;
            if (packed != lastPacked) {
                lastPacked = packed;
                lastExact = exact_index(palette, packed);
            }
            if (lastExact >= 0) { out[p] = (uint8_t)lastExact; continue; }
            float r = (float)sr + cur[e], g = (float)sg + cur[e + 1], b = (float)sb + cur[e + 2];
            r = r >= 0.0f ? r : 0.0f; g = g >= 0.0f ? g : 0.0f; b = b >= 0.0f ? b : 0.0f;
            r = r < 255.0f ? r : 255.0f; g = g < 255.0f ? g : 255.0f; b = b < 255.0f ? b : 255.0f;
            int32_t index = nearest_cached(palette, (uint32_t)(int32_t)r >> 1, (uint32_t)(int32_t)g >> 1, (uint32_t)(int32_t)b >> 1);
            out[p] = (uint8_t)index;
            uint32_t c = palette->colors[index];
            float er = (r - (float)(c >> 16)) * k, eg = (g - (float)((c >> 8) & 0xFF)) * k, eb = (b - (float)(c & 0xFF)) * k;
            cur[e + step] += er * 0.4375f;
            cur[e + step + 1] += eg * 0.4375f;
            cur[e + step + 2] += eb * 0.4375f;
            nxt[e - step] += er * 0.1875f;
            nxt[e - step + 1] += eg * 0.1875f;
            nxt[e - step + 2] += eb * 0.1875f;
            nxt[e] += er * 0.3125f;
            nxt[e + 1] += eg * 0.3125f;
            nxt[e + 2] += eb * 0.3125f;
            nxt[e + step] += er * 0.0625f;
            nxt[e + step + 1] += eg * 0.0625f;
            nxt[e + step + 2] += eb * 0.0625f;
        }
        float *t = cur; cur = nxt; nxt = t;
    }
    free(rows);
}

// MARK: - Rectangles of the pixels a pass marks

/// The smallest rectangle holding what a pass marks, grown a row (or a band's rectangle) at a
/// time; empty while maxX < 0.
typedef struct { long minX, minY, maxX, maxY; } gif_box;

static inline gif_box gif_box_empty(long width, long height) { return (gif_box){ width, height, -1, -1 }; }

/// Adds columns first…last of row y (nothing when first < 0).
static inline void gif_box_add_row(gif_box *b, long first, long last, long y) {
    if (first < 0) return;
    if (first < b->minX) b->minX = first;
    if (last > b->maxX) b->maxX = last;
    if (y < b->minY) b->minY = y;
    if (y > b->maxY) b->maxY = y;
}

/// Writes the rectangle as {minX, minY, maxX, maxY}; whether anything was marked.
static inline int32_t gif_box_write(gif_box b, long bounds[4]) {
    bounds[0] = b.minX; bounds[1] = b.minY; bounds[2] = b.maxX; bounds[3] = b.maxY;
    return b.maxX >= 0;
}

// MARK: - Held against the display

static const uint64_t held_bit = (uint64_t)1 << 63;

/// One pixel: whether it is held (its answer kept in `answers`).
static inline int held_pixel(uint32_t word, uint32_t d, uint64_t *answer, int32_t slack, strata_gif_palette *palette) {
    if (d == UINT32_MAX) return 0;
    uint32_t r = word & 0xFF, g = (word >> 8) & 0xFF, b = (word >> 16) & 0xFF;
    uint64_t question = (uint64_t)r << 48 | (uint64_t)g << 40 | (uint64_t)b << 32 | d;
    if ((*answer & ~held_bit) == question) return (int)(*answer >> 63);
    uint32_t c = palette->colors[strata_gif_palette_index(palette, r, g, b)];
    int32_t sr = (int32_t)r, sg = (int32_t)g, sb = (int32_t)b;
    int32_t dr = (int32_t)(d >> 16) - sr, dg = (int32_t)((d >> 8) & 0xFF) - sg, db = (int32_t)(d & 0xFF) - sb;
    int32_t nr = (int32_t)(c >> 16) - sr, ng = (int32_t)((c >> 8) & 0xFF) - sg, nb = (int32_t)(c & 0xFF) - sb;
    int held = dr * dr + dg * dg + db * db <= nr * nr + ng * ng + nb * nb + slack;
    *answer = question | (held ? held_bit : 0);
    return held;
}

#if defined(__x86_64__)
/// Whether the eight pixels at p ask the questions they asked last, were held and show something.
__attribute__((target("avx2")))
static inline int eight_held_again(const uint8_t *rgba, const uint32_t *shown, const uint64_t *answers, long p) {
    __m256i words = _mm256_loadu_si256((const __m256i *)(rgba + p * 4));
    __m256i d = _mm256_loadu_si256((const __m256i *)(shown + p));
    __m256i byte = _mm256_set1_epi32(0xFF);
    // Packed RGB from the little-endian RGBA words.
    __m256i packed = _mm256_or_si256(_mm256_or_si256(_mm256_slli_epi32(_mm256_and_si256(words, byte), 16),
                                                     _mm256_and_si256(words, _mm256_set1_epi32(0xFF00))),
                                     _mm256_and_si256(_mm256_srli_epi32(words, 16), byte));
    // 64-bit questions packed << 32 | shown: pixels 0, 1, 4, 5 and 2, 3, 6, 7.
    __m256i low = _mm256_unpacklo_epi32(d, packed), high = _mm256_unpackhi_epi32(d, packed);
    __m256i a0 = _mm256_loadu_si256((const __m256i *)(answers + p));
    __m256i a1 = _mm256_loadu_si256((const __m256i *)(answers + p + 4));
    __m256i answersLow = _mm256_permute2x128_si256(a0, a1, 0x20), answersHigh = _mm256_permute2x128_si256(a0, a1, 0x31);
    __m256i question = _mm256_set1_epi64x((long long)~held_bit);
    __m256i same = _mm256_and_si256(_mm256_cmpeq_epi64(_mm256_and_si256(answersLow, question), low),
                                    _mm256_cmpeq_epi64(_mm256_and_si256(answersHigh, question), high));
    int heldAll = _mm256_movemask_pd(_mm256_castsi256_pd(_mm256_and_si256(a0, a1))) == 0xF;
    int nothing = _mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(d, _mm256_set1_epi32(-1))));
    return _mm256_movemask_pd(_mm256_castsi256_pd(same)) == 0xF && heldAll && nothing == 0;
}
#endif

int32_t strata_gif_has_avx2(void) {
#if defined(__x86_64__)
    static int known = -1;
    if (known < 0) known = __builtin_cpu_supports("avx2") ? 1 : 0;
    return known;
#else
    return 0;
#endif
}

/// The rows of strata_gif_held_against_display; `wide` (a constant where it is inlined): eight
/// static pixels at a time.
static inline __attribute__((always_inline))
int32_t held_rows(const uint8_t *rgba, const uint32_t *shown, uint64_t *answers, _Bool *mask, long width, long height,
                  int32_t slack, strata_gif_palette *palette, long bounds[4], int wide) {
    gif_box box = gif_box_empty(width, height);
    for (long y = 0; y < height; y++) {
        long first = -1, last = -1;
        long row = y * width;
        long x = 0;
        while (x < width) {
            long p = row + x;
            // Eight at a time: all held again at once, else each on its own (the same answers).
            long step = 1;
#if defined(__x86_64__)
            if (wide && x + 8 <= width) {
                if (eight_held_again(rgba, shown, answers, p)) {
                    memset(mask + p, 1, 8);
                    x += 8;
                    continue;
                }
                step = 8;
            }
#endif
            for (long k = 0; k < step; k++) {
                uint32_t word;
                memcpy(&word, rgba + (p + k) * 4, 4);
                int held = held_pixel(word, shown[p + k], answers + p + k, slack, palette);
                mask[p + k] = held;
                if (!held) {
                    if (first < 0) first = x + k;
                    last = x + k;
                }
            }
            x += step;
        }
        gif_box_add_row(&box, first, last, y);
    }
    return gif_box_write(box, bounds);
}

#if defined(__x86_64__)
__attribute__((target("avx2")))
static int32_t held_rows_avx2(const uint8_t *rgba, const uint32_t *shown, uint64_t *answers, _Bool *mask, long width,
                              long height, int32_t slack, strata_gif_palette *palette, long bounds[4]) {
    return held_rows(rgba, shown, answers, mask, width, height, slack, palette, bounds, 1);
}
#endif

/// One band of rows of strata_gif_held_against_display.
typedef struct {
    const uint8_t *rgba;
    const uint32_t *shown;
    uint64_t *answers;
    _Bool *mask;
    long width, height;
    int32_t slack, vector;
    strata_gif_palette *palette;
    long bounds[4];
    int32_t any;
} held_band;

static void *held_band_run(void *argument) {
    held_band *b = argument;
#if defined(__x86_64__)
    if (b->vector && strata_gif_has_avx2()) {
        b->any = held_rows_avx2(b->rgba, b->shown, b->answers, b->mask, b->width, b->height, b->slack, b->palette, b->bounds);
        return NULL;
    }
#endif
    b->any = held_rows(b->rgba, b->shown, b->answers, b->mask, b->width, b->height, b->slack, b->palette, b->bounds, 0);
    return NULL;
}

int32_t strata_gif_held_against_display(const uint8_t *rgba, const uint32_t *shown, uint64_t *answers, _Bool *mask,
                                        long width, long height, int32_t slack, strata_gif_palette *palette,
                                        long bounds[4], int32_t vector, int32_t threads) {
    // The rows in one band, or two (the second on a thread of its own): each pixel's answer is
    // its own, so the bands give the same masks and answers; their rectangles are joined.
    long split = threads > 1 && height >= 64 ? height / 2 : height;
    held_band bands[2] = {
        { rgba, shown, answers, mask, width, split, slack, vector, palette, { 0 }, 0 },
        { rgba + split * width * 4, shown + split * width, answers + split * width, mask + split * width, width,
          height - split, slack, vector, palette, { 0 }, 0 },
    };
    pthread_t second;
    int spawned = split < height && pthread_create(&second, NULL, held_band_run, &bands[1]) == 0;
    held_band_run(&bands[0]);
    if (split < height) {
        if (spawned) pthread_join(second, NULL); else held_band_run(&bands[1]);
        if (bands[1].any) { bands[1].bounds[1] += split; bands[1].bounds[3] += split; }
    }
    gif_box box = gif_box_empty(width, height);
    for (int i = 0; i < 2; i++) {
        if (!bands[i].any) continue;
        gif_box_add_row(&box, bands[i].bounds[0], bands[i].bounds[2], bands[i].bounds[1]);
        gif_box_add_row(&box, bands[i].bounds[0], bands[i].bounds[2], bands[i].bounds[3]);
    }
    return gif_box_write(box, bounds);
}

// MARK: - Tolerance differencing and the rectangle's passes

#if defined(__x86_64__)
/// Whether the eight pixels at byte offset i have equal RGB bytes in a and b.
__attribute__((target("avx2")))
static inline int eight_equal_rgb(const uint8_t *a, const uint8_t *b, long i) {
    __m256i x = _mm256_xor_si256(_mm256_loadu_si256((const __m256i *)(a + i)), _mm256_loadu_si256((const __m256i *)(b + i)));
    return _mm256_testz_si256(x, _mm256_set1_epi32(0x00FFFFFF));
}
#endif

static inline int32_t iabs(int32_t v) { return v < 0 ? -v : v; }

static inline __attribute__((always_inline))
int32_t changed_rows(const uint8_t *reference, const uint8_t *current, _Bool *mask, long width, long height,
                     int32_t tolerance, long bounds[4], int wide) {
    gif_box box = gif_box_empty(width, height);
    for (long y = 0; y < height; y++) {
        long first = -1, last = -1;
        long row = y * width;
        long x = 0;
        while (x < width) {
            long i = (row + x) * 4;
            // Eight at a time: all equal at once, else each on its own (the same flags).
            long step = 1;
#if defined(__x86_64__)
            if (wide && x + 8 <= width) {
                if (eight_equal_rgb(reference, current, i)) {
                    memset(mask + row + x, 1, 8);
                    x += 8;
                    continue;
                }
                step = 8;
            }
#endif
            for (long k = 0; k < step; k++, i += 4) {
                int same;
                if (tolerance < 0) {
                    same = 0;
                } else if (reference[i] == current[i] && reference[i + 1] == current[i + 1] && reference[i + 2] == current[i + 2]) {
                    same = 1;
                } else {
                    same = iabs((int32_t)reference[i] - current[i]) <= tolerance
                        && iabs((int32_t)reference[i + 1] - current[i + 1]) <= tolerance
                        && iabs((int32_t)reference[i + 2] - current[i + 2]) <= tolerance;
                }
                mask[row + x + k] = same;
                if (!same) {
                    if (first < 0) first = x + k;
                    last = x + k;
                }
            }
            x += step;
        }
        gif_box_add_row(&box, first, last, y);
    }
    return gif_box_write(box, bounds);
}

#if defined(__x86_64__)
__attribute__((target("avx2")))
static int32_t changed_rows_avx2(const uint8_t *reference, const uint8_t *current, _Bool *mask, long width, long height,
                                 int32_t tolerance, long bounds[4]) {
    return changed_rows(reference, current, mask, width, height, tolerance, bounds, 1);
}
#endif

int32_t strata_gif_changed_rect(const uint8_t *reference, const uint8_t *current, _Bool *mask, long width, long height,
                                int32_t tolerance, long bounds[4], int32_t vector) {
#if defined(__x86_64__)
    if (vector && tolerance >= 0 && strata_gif_has_avx2())
        return changed_rows_avx2(reference, current, mask, width, height, tolerance, bounds);
#endif
    return changed_rows(reference, current, mask, width, height, tolerance, bounds, 0);
}

int32_t strata_gif_mark_same_on_screen(uint8_t *indices, int16_t *alternatives, long w, long h, const uint32_t *displayed,
                                       long stride, long x0, long y0, const uint32_t *colors, uint8_t transparentIndex) {
    int32_t any = 0;
    for (long row = 0; row < h; row++) {
        const uint32_t *shown = displayed + (y0 + row) * stride + x0;
        uint8_t *line = indices + row * w;
        int16_t *alts = alternatives + row * w;
        for (long column = 0; column < w; column++) {
            uint8_t i = line[column];
            if (i == transparentIndex || shown[column] != colors[i]) continue;
            alts[column] = i;
            line[column] = transparentIndex;
            any = 1;
        }
    }
    return any;
}

int32_t strata_gif_bounds_other_than(const uint8_t *indices, long w, long h, uint8_t value, long bounds[4]) {
    gif_box box = gif_box_empty(w, h);
    for (long row = 0; row < h; row++) {
        const uint8_t *line = indices + row * w;
        long first = -1, last = -1;
        for (long column = 0; column < w; column++) {
            if (line[column] == value) continue;
            if (first < 0) first = column;
            last = column;
        }
        gif_box_add_row(&box, first, last, row);
    }
    return gif_box_write(box, bounds);
}

int32_t strata_gif_own_colour_alternatives(const uint8_t *indices, int16_t *alternatives, long w, long h,
                                           const _Bool *unchanged, const uint8_t *rgba, long stride, long x0, long y0,
                                           uint8_t transparentIndex, strata_gif_palette *palette) {
    int32_t any = 0;
    // The index depends on the colour alone: runs of one colour look it up once.
    uint32_t lastPacked = UINT32_MAX;
    int32_t lastIndex = 0;
    for (long row = 0; row < h; row++) {
        long frameRow = (y0 + row) * stride + x0;
        for (long column = 0; column < w; column++) {
            long p = row * w + column;
            if (alternatives[p] >= 0 || indices[p] != transparentIndex || !unchanged[frameRow + column]) continue;
            const uint8_t *s = rgba + (frameRow + column) * 4;
            uint32_t packed = (uint32_t)s[0] << 16 | (uint32_t)s[1] << 8 | s[2];
            if (packed != lastPacked) {
                lastPacked = packed;
                lastIndex = strata_gif_palette_index(palette, s[0], s[1], s[2]);
            }
            alternatives[p] = (int16_t)lastIndex;
            any = 1;
        }
    }
    return any;
}

void strata_gif_update_displayed(const uint8_t *indices, long w, long h, uint32_t *displayed, long stride, long x0, long y0,
                                 const uint32_t *colors, long colorCount, long transparentIndex) {
    for (long row = 0; row < h; row++) {
        const uint8_t *line = indices + row * w;
        uint32_t *shown = displayed + (y0 + row) * stride + x0;
        for (long column = 0; column < w; column++) {
            long i = line[column];
            if (i == transparentIndex || i >= colorCount) continue;
            shown[column] = colors[i];
        }
    }
}

void strata_gif_update_reference(uint32_t *reference, const uint32_t *source, const _Bool *unchanged, long w, long h,
                                 long stride, long x0, long y0) {
    for (long row = 0; row < h; row++) {
        long start = (y0 + row) * stride + x0;
        for (long column = 0; column < w; column++) {
            if (!unchanged[start + column]) reference[start + column] = source[start + column];
        }
    }
}

// MARK: - Colour statistics

#if defined(__x86_64__)
/// Moves q on eight pixels at a time while all eight have the RGB `word`.
__attribute__((target("avx2")))
static inline long run_on_avx2(const uint32_t *words, long q, long n, uint32_t word) {
    __m256i first = _mm256_set1_epi32((int)word), rgb = _mm256_set1_epi32(0x00FFFFFF);
    while (q + 8 <= n) {
        __m256i next = _mm256_and_si256(_mm256_loadu_si256((const __m256i *)(words + q)), rgb);
        if (_mm256_movemask_epi8(_mm256_cmpeq_epi32(next, first)) != -1) break;
        q += 8;
    }
    return q;
}
#endif

static inline __attribute__((always_inline))
long statistics_runs(const uint8_t *rgba, long p, long n, const int32_t *slots, long *bins, uint32_t *runColors,
                     long *runLengths, long runCapacity, long *runCount, int32_t *status, int wide) {
    const uint32_t *words = (const uint32_t *)(const void *)rgba;
    long runs = *runCount;
    while (p < n) {
        uint32_t word = words[p] & 0x00FFFFFF;
        uint32_t packed = (word & 0xFF) << 16 | (word & 0xFF00) | (word >> 16 & 0xFF);
        long cell = (long)(packed >> 18) << 12 | (long)(packed >> 10 & 0x3F) << 6 | (long)(packed >> 2 & 0x3F);
        int32_t slot = slots[cell];
        if (slot < 0) { *status = 1; *runCount = runs; return p; }
        if (runColors && runs == runCapacity) { *status = 2; *runCount = runs; return p; }
        long q = p + 1;
#if defined(__x86_64__)
        if (wide) q = run_on_avx2(words, q, n, word);
#endif
        while (q < n && (words[q] & 0x00FFFFFF) == word) q++;
        long length = q - p;
        long r = packed >> 16, g = packed >> 8 & 0xFF, b = packed & 0xFF;
        long *bin = bins + ((long)slot * 8 + ((r & 2) << 1 | (g & 2) | (b & 2) >> 1)) * 4;
        bin[0] += length;
        bin[1] += r * length;
        bin[2] += g * length;
        bin[3] += b * length;
        if (runColors) {
            runColors[runs] = packed;
            runLengths[runs] = length;
            runs++;
        }
        p = q;
    }
    *status = 0;
    *runCount = runs;
    return p;
}

#if defined(__x86_64__)
__attribute__((target("avx2")))
static long statistics_runs_avx2(const uint8_t *rgba, long p, long n, const int32_t *slots, long *bins,
                                 uint32_t *runColors, long *runLengths, long runCapacity, long *runCount, int32_t *status) {
    return statistics_runs(rgba, p, n, slots, bins, runColors, runLengths, runCapacity, runCount, status, 1);
}
#endif

long strata_gif_statistics_runs(const uint8_t *rgba, long p, long n, const int32_t *slots, long *bins,
                                uint32_t *runColors, long *runLengths, long runCapacity, long *runCount,
                                int32_t *status, int32_t vector) {
#if defined(__x86_64__)
    if (vector && strata_gif_has_avx2())
        return statistics_runs_avx2(rgba, p, n, slots, bins, runColors, runLengths, runCapacity, runCount, status);
#endif
    return statistics_runs(rgba, p, n, slots, bins, runColors, runLengths, runCapacity, runCount, status, 0);
}

#if defined(__x86_64__)
/// 1 when the eight pixels at p all equal `previous`'s, 2 when all differ from it and have the RGB
/// `word`, else 0.
__attribute__((target("avx2")))
static inline int eight_changed_kind(const uint32_t *current, const uint32_t *previous, long p, uint32_t word) {
    __m256i now = _mm256_loadu_si256((const __m256i *)(current + p));
    if (previous) {
        __m256i before = _mm256_loadu_si256((const __m256i *)(previous + p));
        int equal = _mm256_movemask_epi8(_mm256_cmpeq_epi32(now, before));
        if (equal == -1) return 1;
        if (equal != 0) return 0;
    }
    __m256i rgb = _mm256_and_si256(now, _mm256_set1_epi32(0x00FFFFFF));
    return _mm256_movemask_epi8(_mm256_cmpeq_epi32(rgb, _mm256_set1_epi32((int)word))) == -1 ? 2 : 0;
}
#endif

static inline __attribute__((always_inline))
long changed_runs(const uint32_t *current, const uint32_t *previous, long p, long n, uint32_t *pendingColor,
                  long *pendingLength, uint32_t *runColors, long *runLengths, long runCapacity, long *runCount, int wide) {
    uint32_t color = *pendingColor;
    long length = *pendingLength;
    long runs = *runCount;
    // The pending colour as the RGB bytes of a word (for the eight-at-a-time test).
    uint32_t word = (color >> 16 & 0xFF) | (color & 0xFF00) | (color & 0xFF) << 16;
    while (p < n) {
#if defined(__x86_64__)
        if (wide && p + 8 <= n && color != UINT32_MAX) {
            int kind = eight_changed_kind(current, previous, p, word);
            if (kind == 1) { p += 8; continue; }
            if (kind == 2) { length += 8; p += 8; continue; }
        }
#endif
        uint32_t now = current[p];
        if (previous && now == previous[p]) { p++; continue; }
        uint32_t packed = (now & 0xFF) << 16 | (now & 0xFF00) | (now >> 16 & 0xFF);
        if (packed != color) {
            if (length > 0) {
                if (runs == runCapacity) break;
                runColors[runs] = color;
                runLengths[runs] = length;
                runs++;
            }
            color = packed;
            word = now & 0x00FFFFFF;
            length = 0;
        }
        length++;
        p++;
    }
    *pendingColor = color;
    *pendingLength = length;
    *runCount = runs;
    return p;
}

#if defined(__x86_64__)
__attribute__((target("avx2")))
static long changed_runs_avx2(const uint32_t *current, const uint32_t *previous, long p, long n, uint32_t *pendingColor,
                              long *pendingLength, uint32_t *runColors, long *runLengths, long runCapacity, long *runCount) {
    return changed_runs(current, previous, p, n, pendingColor, pendingLength, runColors, runLengths, runCapacity, runCount, 1);
}
#endif

long strata_gif_changed_runs(const uint32_t *current, const uint32_t *previous, long p, long n, uint32_t *pendingColor,
                             long *pendingLength, uint32_t *runColors, long *runLengths, long runCapacity,
                             long *runCount, int32_t vector) {
#if defined(__x86_64__)
    if (vector && strata_gif_has_avx2())
        return changed_runs_avx2(current, previous, p, n, pendingColor, pendingLength, runColors, runLengths, runCapacity, runCount);
#endif
    return changed_runs(current, previous, p, n, pendingColor, pendingLength, runColors, runLengths, runCapacity, runCount, 0);
}

// MARK: - The rest of a frame's passes

double strata_gif_squared_error(const uint8_t *rgb, const _Bool *transparent, long count, strata_gif_palette *palette,
                                long *counted) {
    double squared = 0;
    long n = 0;
    // The error of the last colour is remembered (runs of one colour look it up once).
    uint32_t lastPacked = UINT32_MAX;
    float lastError = 0;
    for (long p = 0; p < count; p++) {
        if (transparent && transparent[p]) continue;
        uint32_t sr = rgb[p * 3], sg = rgb[p * 3 + 1], sb = rgb[p * 3 + 2];
        uint32_t packed = sr << 16 | sg << 8 | sb;
        if (packed != lastPacked) {
            uint32_t c = palette->colors[nearest_cached(palette, sr >> 1, sg >> 1, sb >> 1)];
            float dr = (float)sr - (float)(c >> 16), dg = (float)sg - (float)((c >> 8) & 0xFF), db = (float)sb - (float)(c & 0xFF);
            lastPacked = packed;
            lastError = dr * dr + dg * dg + db * db;
        }
        squared += (double)lastError;
        n++;
    }
    *counted = n;
    return squared;
}

int32_t strata_gif_cut_region(const uint8_t *rgba, const _Bool *unchanged, long stride, long x0, long y0, long w, long h,
                              uint8_t *rgb, _Bool *transparent) {
    int32_t any = 0;
    for (long row = 0; row < h; row++) {
        long s = (y0 + row) * stride + x0, d = row * w;
        for (long column = 0; column < w; column++, s++, d++) {
            if (unchanged[s]) {
                transparent[d] = 1;
                any = 1;
            } else {
                rgb[d * 3] = rgba[s * 4];
                rgb[d * 3 + 1] = rgba[s * 4 + 1];
                rgb[d * 3 + 2] = rgba[s * 4 + 2];
            }
        }
    }
    return any;
}

void strata_gif_mark_used(const uint8_t *indices, long count, _Bool *used) {
    for (long p = 0; p < count; p++) used[indices[p]] = 1;
}
