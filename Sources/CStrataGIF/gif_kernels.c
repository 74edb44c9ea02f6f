// The GIF encoder's inner loops (see include/strata_gif.h).
#include <string.h>
#include "strata_gif.h"

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

static inline uint32_t next_generation(uint32_t generation, uint32_t *table) {
    if (generation + 1 < (1u << 20)) return generation + 1;
    memset(table, 0, sizeof(uint32_t) * STRATA_LZW_TABLE_ENTRIES);
    return 1;
}

strata_lzw_result strata_gif_lzw_encode(const uint8_t *indices, const int16_t *alternatives, long count,
                                        int32_t minimumCodeSize, int32_t clearsWhenFull, uint32_t *table,
                                        uint32_t generation, uint8_t *out, int32_t *took) {
    const uint32_t clear = 1u << minimumCodeSize, end = clear + 1;
    uint32_t next = end + 1, limit;
    int width = minimumCodeSize + 1;
    limit = 1u << width;
    bit_writer w = { out, 0, -1, 0, 0 };
    long tookCount = 0;
    int filled = 0;
    uint32_t g = next_generation(generation, table);

    // Writes a code at the current width, then widens when the codes made so far no longer fit
    // (after the write: a decoder adds each entry one code later than the encoder).
#define PUT(code) do { write_code(&w, (code), width); if (next >= limit && width < 12) { width++; limit <<= 1; } } while (0)

    PUT(clear);
    uint32_t current = indices[0];
    int32_t lastSymbol = (int32_t)current;
    for (long p = 1; p < count; p++) {
        int32_t primary = indices[p];
        int32_t alternative = alternatives ? alternatives[p] : -1;
        // The alternative first when it repeats the last pixel written (a run goes on).
        int swapped = 0;
        if (alternative >= 0 && alternative == lastSymbol) {
            int32_t t = primary; primary = alternative; alternative = t;
            swapped = 1;
        }
        uint32_t entry = table[current << 8 | (uint32_t)primary];
        if (entry >> 12 == g) {
            current = entry & 0xFFF;
            if (swapped) took[tookCount++] = (int32_t)p;
            lastSymbol = primary;
            continue;
        }
        if (alternative >= 0) {
            entry = table[current << 8 | (uint32_t)alternative];
            if (entry >> 12 == g) {
                current = entry & 0xFFF;
                if (!swapped) took[tookCount++] = (int32_t)p;
                lastSymbol = alternative;
                continue;
            }
        }
        if (swapped) took[tookCount++] = (int32_t)p;
        lastSymbol = primary;
        PUT(current);
        if (next >= 4095) {
            filled = 1;
            if (clearsWhenFull) {
                PUT(clear);
                next = end + 1;
                width = minimumCodeSize + 1;
                limit = 1u << width;
                g = next_generation(g, table);
            }
        } else {
            table[current << 8 | (uint32_t)primary] = g << 12 | next;
            next++;
        }
        current = (uint32_t)primary;
    }
    PUT(current);
    PUT(end);
#undef PUT
    if (w.count > 0) emit_byte(&w, (uint8_t)w.accumulator);
    strata_lzw_result result = { w.pos, tookCount, filled, g };
    return result;
}

// MARK: - Palette lookups

int32_t strata_gif_palette_index(strata_gif_palette *palette, uint32_t r, uint32_t g, uint32_t b) {
    uint32_t packed = r << 16 | g << 8 | b;
    if ((palette->bits[packed >> 6] >> (packed & 63)) & 1) {
        uint32_t s = (packed * 0x9E3779B1u) >> palette->tableShift;
        for (;;) {
            uint32_t key = palette->tableKeys[s];
            if (key == packed) return palette->tableValues[s];
            if (key == UINT32_MAX) break;
            s = (s + 1) & (uint32_t)palette->tableMask;
        }
    }
    uint32_t cell = (r >> 1) << 14 | (g >> 1) << 7 | (b >> 1);
    int32_t cached = palette->cache[cell];
    if (cached >= 0) return cached;
    int32_t found = palette->search(palette->context, (int32_t)(r >> 1), (int32_t)(g >> 1), (int32_t)(b >> 1));
    palette->cache[cell] = (int16_t)found;
    return found;
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

int32_t strata_gif_held_against_display(const uint8_t *rgba, const uint32_t *shown, uint64_t *answers, _Bool *mask,
                                        long width, long height, int32_t slack, strata_gif_palette *palette,
                                        long bounds[4], int32_t vector) {
    long minX = width, maxX = -1, minY = height, maxY = -1;
    int wide = vector && strata_gif_has_avx2();
    for (long y = 0; y < height; y++) {
        long first = -1, last = -1;
        long row = y * width;
        long x = 0;
        while (x < width) {
            long p = row + x;
#if defined(__x86_64__)
            if (wide && x + 8 <= width && eight_held_again(rgba, shown, answers, p)) {
                memset(mask + p, 1, 8);
                x += 8;
                continue;
            }
#endif
            uint32_t word;
            memcpy(&word, rgba + p * 4, 4);
            int held = held_pixel(word, shown[p], answers + p, slack, palette);
            mask[p] = held;
            if (!held) {
                if (first < 0) first = x;
                last = x;
            }
            x++;
        }
        if (first >= 0) {
            if (first < minX) minX = first;
            if (last > maxX) maxX = last;
            if (y < minY) minY = y;
            maxY = y;
        }
    }
    bounds[0] = minX; bounds[1] = minY; bounds[2] = maxX; bounds[3] = maxY;
    return maxX >= 0;
}
