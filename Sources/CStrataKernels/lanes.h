// The lane types the kernels are written in. A file that instantiates the kernels defines
// LANES (16, 8 or 1) and SUFFIX before including this: `vf`, `vi`, `vu` are LANES floats, ints
// and unsigned ints; `vb`, `vh`, `vw` the bytes, 16-bit and 32-bit words of LANES pixels' four
// channels (pixel by pixel, R G B A), `vq` a pixel's four 16-bit channels as one 64-bit word
// (the sprite sampler's integers, span_kernel.h); and the helpers below are the only operations the kernels use besides
// + − × ÷ and comparisons. Every helper is lane-wise and exact (selects, not minps/maxps
// NaN rules; floor by truncation and correction), so one lane, eight and sixteen give the same
// bits.
#ifndef STRATA_LANES_H
#define STRATA_LANES_H

#include <stdint.h>
#include <string.h>

// Eight-lane helpers are always inlined in optimised builds, so no vector crosses a call. (Where
// one does, in the SSE2 build, clang warns that 32-byte vectors change the calling convention:
// harmless for these functions, all static to their file.)
#pragma clang diagnostic ignored "-Wpsabi"
#if defined(__OPTIMIZE__)
#define INLINE static inline __attribute__((always_inline))
#else
// Unoptimised (debug) builds call them instead: forced inlining there gave the span dispatcher
// FN(segment), with every specialised loop's locals unshared, a 5.3 MB stack frame — most of a
// thread's 8 MB, and more than threads with smaller stacks have.
#define INLINE static inline
#endif

#if LANES == 8
typedef float vf __attribute__((ext_vector_type(8)));
typedef int32_t vi __attribute__((ext_vector_type(8)));
typedef uint32_t vu __attribute__((ext_vector_type(8)));
#define IOTA ((vi){0, 1, 2, 3, 4, 5, 6, 7})
typedef uint8_t vb __attribute__((ext_vector_type(32)));
typedef uint16_t vh __attribute__((ext_vector_type(32)));
typedef uint32_t vw __attribute__((ext_vector_type(32)));
typedef uint64_t vq __attribute__((ext_vector_type(8)));
#elif LANES == 16
typedef float vf __attribute__((ext_vector_type(16)));
typedef int32_t vi __attribute__((ext_vector_type(16)));
typedef uint32_t vu __attribute__((ext_vector_type(16)));
#define IOTA ((vi){0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15})
typedef uint8_t vb __attribute__((ext_vector_type(64)));
typedef uint16_t vh __attribute__((ext_vector_type(64)));
typedef uint32_t vw __attribute__((ext_vector_type(64)));
typedef uint64_t vq __attribute__((ext_vector_type(16)));
#elif LANES == 1
typedef float vf __attribute__((ext_vector_type(1)));
typedef int32_t vi __attribute__((ext_vector_type(1)));
typedef uint32_t vu __attribute__((ext_vector_type(1)));
#define IOTA ((vi){0})
typedef uint8_t vb __attribute__((ext_vector_type(4)));
typedef uint16_t vh __attribute__((ext_vector_type(4)));
typedef uint32_t vw __attribute__((ext_vector_type(4)));
typedef uint64_t vq __attribute__((ext_vector_type(1)));
#else
#error "LANES must be 16, 8 or 1"
#endif

/// The span kernels' steps start on multiples of ALIGN pixels from the tile's left edge: LANES,
/// but eight for sixteen lanes, so that a segment's partial first and last steps cover no more
/// pixels outside it than eight-lane steps do (the last may reach STRATA_SPAN_TAIL floats past a
/// row) — or, where a loop says so (`fromFirst`, edge runs: span_kernel.h), at a run's first pixel,
/// reaching no further. The dither depends on x mod 8 only, and is taken for the step's start.
#define ALIGN (LANES > 8 ? 8 : LANES)
#define CAT2(a, b) a##b
#define CAT(a, b) CAT2(a, b)
/// A kernel's name in this instantiation.
#define FN(name) CAT(name, SUFFIX)

/// `m ? a : b` lane by lane (m: all ones or zero per lane).
#define SEL(m, a, b) ((m) ? (a) : (b))

INLINE vf FN(load)(const float *p) { vf v; memcpy(&v, p, sizeof v); return v; }
INLINE void FN(store)(float *p, vf v) { memcpy(p, &v, sizeof v); }
INLINE vf FN(minf)(vf a, vf b) { return SEL(a < b, a, b); }
INLINE vf FN(maxf)(vf a, vf b) { return SEL(a > b, a, b); }
INLINE vf FN(clampf)(vf v, float lo, float hi) { return FN(minf)(FN(maxf)(v, (vf)lo), (vf)hi); }
INLINE vf FN(absf)(vf v) { return (vf)((vu)v & 0x7fffffffu); }
INLINE vf FN(sqrtf)(vf v) { return __builtin_elementwise_sqrt(v); }
INLINE vf FN(tof)(vi v) { return __builtin_convertvector(v, vf); }
/// Whether any lane of a mask is set.
INLINE int FN(any)(vi m) { return __builtin_reduce_or(m) != 0; }
/// Whether every lane of a mask is set.
INLINE int FN(all)(vi m) { return __builtin_reduce_and(m) != 0; }
/// v rounded toward zero, for |v| < 2³¹.
INLINE vi FN(trunci)(vf v) { return __builtin_convertvector(v, vi); }
/// floor as an integer, for |v| < 2³¹ (callers clamp).
INLINE vi FN(floori)(vf v) {
    vi t = FN(trunci)(v);
    return t + (vi)(FN(tof)(t) > v);  // true lanes are −1
}

#endif
