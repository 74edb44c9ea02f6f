// The span kernel: one row segment of one draw item, LANES pixels a step. Per lane it maps the
// pixel centre into the item's plane, takes the coverage of the item's shape (rounded
// rectangle, ring or image destination; the same formulas as TileRasterizer.coverage), of its
// ancestors' clips and of a mask row, shades (solid, axial or radial gradient with the Bayer
// dither, bilinear or nearest image), and blends source-over into the planar tile. Included
// once per instantiation (see lanes.h); the arithmetic never depends on LANES.
#include "lanes.h"
#include "strata_kernels.h"

#ifndef STRATA_GATHER
INLINE vu FN(gather)(const uint32_t *base, vi idx) {
    vu out;
    for (int i = 0; i < LANES; i++) out[i] = base[idx[i]];
    return out;
}
#define STRATA_GATHER FN(gather)
#endif

#ifndef STRATA_GATHER_PAIR
/// The texels at `idx` and at `idx + 1` (neighbours in a row).
INLINE void FN(gatherPair)(const uint32_t *base, vi idx, vu *a, vu *b) {
    *a = STRATA_GATHER(base, idx);
    *b = STRATA_GATHER(base, idx + 1);
}
#define STRATA_GATHER_PAIR FN(gatherPair)
#endif

/// A plane map evaluated along one row: per-lane local coordinates and derivatives.
typedef struct {
    float m0, m1, m2, m3, m4, m5;
    float a, b, w;  // the row's constant parts of the numerators and of w
    float gu, gv, igu, igv;
    int affine, similar;
} FN(rowmap);

/// A row's maps: the item's and its clips'.
typedef struct {
    FN(rowmap) item;
    FN(rowmap) clips[STRATA_MAX_CLIPS];
    int clipCount;
    // An affine item map's axial gradient parameter along the row, t = t1·X + t0 (t1 for the draw
    // call, FN(prepareMaps); t0 for the row, FN(prepareRow)):
    // two operations a step instead of the six of FN(shade)'s formula from the local point. (Here,
    // not in FN(rowmap): two more floats there cost the image loops 2 % more instructions.)
    float t0, t1;
} FN(rowmaps);

typedef struct {
    vf u, v, dudx, dudy, dvdx, dvdy, gu, gv;
    vf igu, igv;  // 1 / gu, 1 / gv (1 where those are 0)
    vi ok;  // in front of the eye
    vf t;  // an axial gradient's parameter along an affine row, when the step set it (FN(shade))
} FN(sample);

/// The parts of a map that do not depend on the row.
INLINE FN(rowmap) FN(prepare)(const strata_map *p) {
    FN(rowmap) r;
    const double *m = p->m;
    r.m0 = (float)m[0]; r.m1 = (float)m[1]; r.m2 = (float)m[2];
    r.m3 = (float)m[3]; r.m4 = (float)m[4]; r.m5 = (float)m[5];
    r.a = r.b = r.w = 0;
    r.gu = p->gu; r.gv = p->gv;
    r.igu = p->gu > 0 ? 1.0f / p->gu : 1.0f; r.igv = p->gv > 0 ? 1.0f / p->gv : 1.0f;
    r.affine = p->affine; r.similar = p->similar;
    return r;
}

/// The row's constant parts of the numerators and of w, at the pixel centres' Y.
INLINE void FN(moveToRow)(FN(rowmap) *r, const strata_map *p, double Y) {
    const double *m = p->m;
    r->a = (float)(Y * m[3] + m[6]);
    r->b = (float)(Y * m[4] + m[7]);
    r->w = (float)(Y * m[5] + m[8]);
}

/// FN(map) of an affine map: every lane is in front of the eye.
INLINE FN(sample) FN(mapAffine)(const FN(rowmap) *r, vf X) {
    FN(sample) s;
    s.u = (vf)r->m0 * X + r->a; s.v = (vf)r->m1 * X + r->b;
    s.dudx = r->m0; s.dudy = r->m3; s.dvdx = r->m1; s.dvdy = r->m4;
    s.gu = r->gu; s.gv = r->gv; s.igu = r->igu; s.igv = r->igv;
    s.ok = (vi)-1;
    return s;
}

INLINE FN(sample) FN(map)(const FN(rowmap) *r, vf X) {
    if (r->affine) return FN(mapAffine)(r, X);
    FN(sample) s;
    vf a = (vf)r->m0 * X + r->a, b = (vf)r->m1 * X + r->b;
    vf w = (vf)r->m2 * X + r->w;
    s.ok = w > 0;
    vf iw = 1.0f / SEL(s.ok, w, (vf)1.0f);
    s.u = a * iw; s.v = b * iw;
    s.dudx = ((vf)r->m0 - s.u * r->m2) * iw; s.dudy = ((vf)r->m3 - s.u * r->m5) * iw;
    s.dvdx = ((vf)r->m1 - s.v * r->m2) * iw; s.dvdy = ((vf)r->m4 - s.v * r->m5) * iw;
    s.gu = FN(sqrtf)(s.dudx * s.dudx + s.dudy * s.dudy);
    s.gv = FN(sqrtf)(s.dvdx * s.dvdx + s.dvdy * s.dvdy);
    s.igu = 1.0f / SEL(s.gu > 0, s.gu, (vf)1.0f); s.igv = 1.0f / SEL(s.gv > 0, s.gv, (vf)1.0f);
    return s;
}

/// Overlap of a one-pixel interval centred at `a` with [−h, h], in pixels (g: units a pixel,
/// ig its reciprocal: a multiply where TileRasterizer.boxCoverage divides).
INLINE vf FN(box)(vf a, vf h, vf g, vf ig) {
    vi pos = g > 0;
    vf ap = a * ig, hp = h * ig;
    vf c = FN(minf)(ap + 0.5f, hp) - FN(maxf)(ap - 0.5f, -hp);
    return SEL(pos, FN(clampf)(c, 0.0f, 1.0f), SEL(a <= h, (vf)1.0f, (vf)0.0f));
}

/// A rounded rectangle's numbers as lanes (see FN(itemLanes)). Where the map it is sampled
/// through is affine, every sample has the same pixel sizes (gu, gv), so the numbers FN(rrect)
/// derives from them and from the rectangle are made here once (`fixed`): the same operations
/// on the same floats, so the same bits.
typedef struct {
    vf cu, cv, hw, hh;
    vf r[4];
    int empty;  // not both half sizes positive
    int fixed;  // the map is affine: the numbers below hold
    int uniform;  // the four radii are equal (r[0])
    int fits;  // gu < hw and gv < hh
    int positive;  // gu > 0 and gv > 0
    vf hu, hv;  // 0.5·gu, 0.5·gv
    vf pu, pv;  // hw·igu, hh·igv: FN(box)'s half sizes in pixels
    vf ku, kv;  // hw − r[0], hh − r[0] (uniform radii)
} FN(rrectLanes);

/// `general`: leave `fixed` off (strata_item.general).
INLINE void FN(rrectLanesOf)(const strata_rrect *s, const FN(rowmap) *map, int general, FN(rrectLanes) *l) {
    l->cu = s->cu; l->cv = s->cv; l->hw = s->hw; l->hh = s->hh;
    for (int i = 0; i < 4; i++) l->r[i] = s->r[i];
    l->empty = !(s->hw > 0 && s->hh > 0);
    l->fixed = map->affine && !general;
    if (!l->fixed) return;
    const float gu = map->gu, gv = map->gv;
    l->uniform = s->r[0] == s->r[1] && s->r[0] == s->r[2] && s->r[0] == s->r[3];
    l->fits = gu < s->hw && gv < s->hh;
    l->positive = gu > 0 && gv > 0;
    l->hu = 0.5f * gu; l->hv = 0.5f * gv;
    l->pu = s->hw * map->igu; l->pv = s->hh * map->igv;
    l->ku = s->hw - s->r[0]; l->kv = s->hh - s->r[0];
}

/// FN(box) with the half size in pixels `hp` (h·ig) given and g > 0.
INLINE vf FN(boxPositive)(vf a, vf hp, vf ig) {
    vf ap = a * ig;
    vf c = FN(minf)(ap + 0.5f, hp) - FN(maxf)(ap - 0.5f, -hp);
    return FN(clampf)(c, 0.0f, 1.0f);
}

/// The end of FN(rrect) once the straight edges' coverage and the corner pixels are known: where
/// `corner` holds, the coverage of the corner's disc (centre at ku, kv from the centre in sizes,
/// radius r). `positive`: gu > 0 is known for every lane.
INLINE vf FN(rrectCorners)(vf straight, vi corner, vf ax, vf ay, vf ku, vf kv, vf r, vi left, vi top, const FN(sample) *p,
                           int aa, int similar, int positive) {
    // Most calls have no corner pixel at all.
    if (!FN(any)(corner)) return straight;
    vf qx = ax - ku, qy = ay - kv;
    vf len = FN(sqrtf)(qx * qx + qy * qy);
    vf dist = len - r;
    vf inner = SEL(dist <= 0, (vf)1.0f, (vf)0.0f);
    vf round;
    if (!aa) {
        round = inner;
    } else if (similar) {
        // A rotation and uniform scale: every direction has gu local units a pixel.
        vf soft = FN(clampf)(0.5f - dist * p->igu, 0.0f, 1.0f);
        round = SEL(len > 0, positive ? soft : SEL(p->gu > 0, soft, inner), (vf)1.0f);
    } else {
        vi haveLen = len > 0;
        vf l = SEL(haveLen, len, (vf)1.0f);
        vf nu = SEL(left, -qx, qx) / l, nv = SEL(top, -qy, qy) / l;
        vf gx = nu * p->dudx + nv * p->dvdx, gy = nu * p->dudy + nv * p->dvdy;
        vf g = FN(sqrtf)(gx * gx + gy * gy);
        vi haveG = g > 0;
        vf soft = FN(clampf)(0.5f - dist / SEL(haveG, g, (vf)1.0f), 0.0f, 1.0f);
        round = SEL(haveLen, SEL(haveG, soft, inner), (vf)1.0f);
    }
    return SEL(corner, round, straight);
}

/// FN(rrect) for a sample of an affine map (`s->fixed`), given the sample's offsets from the
/// centre (px, py) and their sizes (ax, ay): the numbers that depend only on the rectangle and
/// the map come from `s`.
INLINE vf FN(rrectFixed)(const FN(rrectLanes) *s, const FN(sample) *p, vf px, vf py, vf ax, vf ay, int aa, int similar) {
    const vf hw = s->hw, hh = s->hh;
    vi left = px < 0, top = py < 0;
    vf r, ku, kv;
    vi corner;
    if (s->uniform) {
        r = s->r[0]; ku = s->ku; kv = s->kv;
        if (!(s->r[0][0] > 0)) corner = (vi)0;
        else corner = (ax > ku) & (ay > kv);
    } else {
        r = SEL(top, SEL(left, s->r[0], s->r[1]), SEL(left, s->r[2], s->r[3]));
        ku = hw - r; kv = hh - r;
        corner = (r > 0) & (ax > ku) & (ay > kv);
    }
    vf straight;
    if (!aa) {
        straight = SEL((ax <= hw) & (ay <= hh), (vf)1.0f, (vf)0.0f);
    } else {
        vi inside = s->fits ? (ax + s->hu <= hw) & (ay + s->hv <= hh) : (vi)0;
        vf boxes = s->positive ? FN(boxPositive)(ax, s->pu, p->igu) * FN(boxPositive)(ay, s->pv, p->igv)
                               : FN(box)(ax, hw, p->gu, p->igu) * FN(box)(ay, hh, p->gv, p->igv);
        straight = SEL(inside, (vf)1.0f, boxes);
    }
    return FN(rrectCorners)(straight, corner, ax, ay, ku, kv, r, left, top, p, aa, similar, s->positive);
}

/// Whether FN(rrectSimple) holds for `s`: a rectangle with four equal radii, sampled through an
/// affine map whose pixel sizes are positive and smaller than its half sizes.
INLINE int FN(rrectIsSimple)(const FN(rrectLanes) *s) {
    return s->fixed && !s->empty && s->uniform && s->positive && s->fits;
}

/// FN(rrect) for a rectangle of which FN(rrectIsSimple) holds, antialiased, through a similar
/// map, from the sample's distances to its centre (|u − cu|, |v − cv|): nothing left to test per
/// step but whether it has corners, so that the steps (a fused fill and border step takes two)
/// keep to registers and straight-line code. The same operations on the same floats as FN(rrect).
INLINE vf FN(rrectSimple)(const FN(rrectLanes) *s, const FN(sample) *p, vf ax, vf ay) {
    const vf hw = s->hw, hh = s->hh;
    vi inside = (ax + s->hu <= hw) & (ay + s->hv <= hh);
    vf straight = SEL(inside, (vf)1.0f, FN(boxPositive)(ax, s->pu, p->igu) * FN(boxPositive)(ay, s->pv, p->igv));
    if (!(s->r[0][0] > 0)) return straight;
    vi corner = (ax > s->ku) & (ay > s->kv);
    // (left and top are read only through maps that are not similar.)
    return FN(rrectCorners)(straight, corner, ax, ay, s->ku, s->kv, s->r[0], (vi)0, (vi)0, p, 1, 1, 1);
}

/// FN(rrectSimple) from the sample itself.
INLINE vf FN(rrectSimpleAt)(const FN(rrectLanes) *s, const FN(sample) *p) {
    return FN(rrectSimple)(s, p, FN(absf)(p->u - s->cu), FN(absf)(p->v - s->cv));
}

/// Fraction of each pixel inside a rounded rectangle (TileRasterizer.coverage, lane-wise).
INLINE vf FN(rrect)(const FN(rrectLanes) *s, const FN(sample) *p, int aa, int similar) {
    if (s->empty) return (vf)0.0f;
    const vf hw = s->hw, hh = s->hh;
    vf px = p->u - s->cu, py = p->v - s->cv;
    vf ax = FN(absf)(px), ay = FN(absf)(py);
    if (s->fixed) return FN(rrectFixed)(s, p, px, py, ax, ay, aa, similar);
    vi left = px < 0, top = py < 0;
    vf r = SEL(top, SEL(left, s->r[0], s->r[1]), SEL(left, s->r[2], s->r[3]));
    const vf ku = hw - r, kv = hh - r;
    vi corner = (r > 0) & (ax > ku) & (ay > kv);
    vf straight;
    if (!aa) {
        straight = SEL((ax <= hw) & (ay <= hh), (vf)1.0f, (vf)0.0f);
    } else {
        vi inside = (ax + 0.5f * p->gu <= hw) & (ay + 0.5f * p->gv <= hh) & (p->gu < hw) & (p->gv < hh);
        straight = SEL(inside, (vf)1.0f, FN(box)(ax, hw, p->gu, p->igu) * FN(box)(ay, hh, p->gv, p->igv));
    }
    return FN(rrectCorners)(straight, corner, ax, ay, ku, kv, r, left, top, p, aa, similar, 0);
}

/// The item's own coverage (without clips and mask); `shape` and `inner` are its rectangles as
/// lanes, `cover` and `aa` its cover kind and antialiasing.
INLINE vf FN(cover)(const strata_item *it, const FN(rrectLanes) *shape, const FN(rrectLanes) *inner, const int cover,
                    const int aa, const FN(sample) *p, int similar) {
    switch (cover) {
    case STRATA_COVER_NONE:
        return (vf)1.0f;
    case STRATA_COVER_RRECT:
        return FN(rrect)(shape, p, aa, similar);
    case STRATA_COVER_RING: {
        vf c = FN(rrect)(shape, p, aa, similar);
        vf hole = FN(rrect)(inner, p, aa, similar);
        return SEL(c == 0, (vf)0.0f, c * (1.0f - hole));
    }
    case STRATA_COVER_IMAGE: {
        vi inCell = (p->u >= it->cell[0]) & (p->u < it->cell[1]) & (p->v >= it->cell[2]) & (p->v < it->cell[3]);
        vf c = FN(rrect)(shape, p, aa, similar);
        if (it->hasClip) c = SEL(c > 0, c * FN(rrect)(inner, p, aa, similar), c);
        return SEL(inCell, c, (vf)0.0f);
    }
    }
    return (vf)0.0f;
}

/// FN(cover) for an item whose rectangles FN(itemLanes).simple says are FN(rrectIsSimple).
INLINE vf FN(coverSimple)(const strata_item *it, const FN(rrectLanes) *shape, const FN(rrectLanes) *inner, const int cover,
                          const FN(sample) *p) {
    switch (cover) {
    case STRATA_COVER_RRECT:
        return FN(rrectSimpleAt)(shape, p);
    case STRATA_COVER_RING: {
        vf c = FN(rrectSimpleAt)(shape, p);
        vf hole = FN(rrectSimpleAt)(inner, p);
        return SEL(c == 0, (vf)0.0f, c * (1.0f - hole));
    }
    case STRATA_COVER_IMAGE: {
        vi inCell = (p->u >= it->cell[0]) & (p->u < it->cell[1]) & (p->v >= it->cell[2]) & (p->v < it->cell[3]);
        vf c = FN(rrectSimpleAt)(shape, p);
        if (it->hasClip) c = SEL(c > 0, c * FN(rrectSimpleAt)(inner, p), c);
        return SEL(inCell, c, (vf)0.0f);
    }
    }
    return (vf)0.0f;
}

/// Column and row indices clamped to the image.
INLINE vi FN(clampIndex)(vi v, int n) { return SEL(v < 0, (vi)0, SEL(v > n - 1, (vi)(n - 1), v)); }

/// Channel `shift` of RGBA8 words as floats 0…255.
INLINE vf FN(channel)(vu t, int shift) { return FN(tof)((vi)((t >> shift) & 0xffu)); }

/// A sampler's placement and size as lanes (see FN(itemLanes)).
typedef struct {
    vf sx0, sxScale, sy0, syScale;
    vi width;
} FN(samplerLanes);

INLINE void FN(samplerLanesOf)(const strata_sampler *s, FN(samplerLanes) *l) {
    l->sx0 = s->sx0; l->sxScale = s->sxScale; l->sy0 = s->sy0; l->syScale = s->syScale;
    l->width = s->width;
}

/// Where a sample lies in texel units: `x = sx0 + u·sxScale`, `y = sy0 + v·syScale`.
INLINE void FN(texelPosition)(const FN(samplerLanes) *s, vf u, vf v, vf *x, vf *y) {
    *x = s->sx0 + u * s->sxScale;
    *y = s->sy0 + v * s->syScale;
}

/// The texel `ahead` device rows below a sample: an offset in texels, the same for every pixel
/// of an affine map. Its loads are started early (prefetched) because the texels of a rotated
/// row lie on scattered lines, which the hardware prefetcher does not follow. Measured: the
/// image gathers waited on memory for half of the composite scene's time.
typedef struct {
    long delta;  // texel index offset
    int on;  // prefetching is on
} FN(prefetch);

INLINE FN(prefetch) FN(prefetchAhead)(const strata_sampler *s, const FN(rowmap) *rm, int rows) {
    FN(prefetch) p = { 0, 0 };
    if (!rm->affine || s->height < 2) return p;
    float dx = (float)rows * rm->m3 * s->sxScale, dy = (float)rows * rm->m4 * s->syScale;
    if (!(dx > -65536.0f && dx < 65536.0f && dy > -65536.0f && dy < 65536.0f)) return p;
    const long ix = (long)(dx + (dx < 0 ? -0.5f : 0.5f)), iy = (long)(dy + (dy < 0 ? -0.5f : 0.5f));
    p.delta = iy * s->width + ix;
    p.on = 1;
    return p;
}

/// Prefetches the lines `pf.delta` texels on from the first, the middle and the last lane's
/// top-left texel, and the lines one texel row below those. (Measured by alternating runs on AMD
/// Zen 3: the middle lane's made the composite frame 3 % faster with one worker and 6 % with two;
/// two more lanes' or the last lane's alone, 2 % slower; 16 rows ahead, 5 % slower.) A prefetch
/// never faults, so the addresses are not clamped to the image (near its edges some lie outside
/// it and fetch nothing of use); they are computed as integers, not as pointers past the texels.
INLINE void FN(prefetchTexels)(const strata_sampler *s, const FN(prefetch) *pf, vi index) {
    const uintptr_t base = (uintptr_t)s->texels, row = (uintptr_t)s->width * sizeof *s->texels;
    const long lanes[3] = { index[0], index[LANES / 2], index[LANES - 1] };
    for (int i = 0; i < (LANES > 1 ? 3 : 1); i++) {
        const uintptr_t at = base + (uintptr_t)(lanes[i] + pf->delta) * sizeof *s->texels;
        __builtin_prefetch((const void *)at);
        __builtin_prefetch((const void *)(at + row));
    }
}

#ifndef STRATA_INSIDE_KINDS
#define STRATA_INSIDE_KINDS
/// Where an image loop's bilinear footprints lie: maybe outside the image (its indices clamped),
/// inside it (INSIDE_ANY), or inside an image drawn without crossfade or tint (INSIDE_PLAIN, whose
/// loop tests neither at every step). Inside, sampling is bilinear (nearest is never inside).
enum { INSIDE_NO = 0, INSIDE_ANY = 1, INSIDE_PLAIN = 2 };
#endif

/// Whether every bilinear footprint of the pixels `xa ... xb` of a row lies inside the image, so
/// that clamping the texel indices would change none of them. Along a row of an affine map
/// the texel position is a chain of correctly rounded monotonic operations of x (the same ones
/// the loop runs), so its extremes are at the two ends. `sl`: the sampler's lanes (FN(itemLanes)).
INLINE int FN(footprintsInside)(const strata_sampler *s, const FN(samplerLanes) *sl, const FN(rowmap) *rm, int xa, int xb) {
    if (!rm->affine) return 0;
    const float right = (float)(s->width - 1), bottom = (float)(s->height - 1);
    const int ends[2] = { xa, xb };
    for (int i = 0; i < 2; i++) {
        const vf X = FN(tof)((vi)ends[i]) + 0.5f;
        const FN(sample) p = FN(map)(rm, X);
        vf x, y;
        FN(texelPosition)(sl, p.u, p.v, &x, &y);
        const vf fx = x - 0.5f, fy = y - 0.5f;
        // Each lane holds the same value; NaN fails every comparison.
        if (!((fx[0] >= 0) & (fx[0] < right) & (fy[0] >= 0) & (fy[0] < bottom))) return 0;
    }
    return 1;
}

/// ImageSampler.sample, lane-wise: premultiplied colour 0…1. The four texel words are fetched
/// first and then interpolated one channel at a time (all sixteen channels at once spilled
/// registers: 2× slower). `inside`: footprintsInside holds for these lanes, so the clamps,
/// which would change nothing, are left out. `pf`: the lines to prefetch, or null.
INLINE void FN(sampleImage)(const strata_sampler *s, const FN(samplerLanes) *sl, int nearest, const int inside,
                            const FN(prefetch) *pf, vf u, vf v, vf *r, vf *g, vf *b, vf *a) {
    vf x, y;
    FN(texelPosition)(sl, u, v, &x, &y);
    const float k = 1.0f / 255.0f;
    const int h = s->height;
    const vi w = sl->width;
    if (nearest) {
        vi cx = FN(clampIndex)(FN(floori)(FN(clampf)(x, -1e9f, 1e9f)), s->width);
        vi cy = FN(clampIndex)(FN(floori)(FN(clampf)(y, -1e9f, 1e9f)), h);
        if (pf && pf->on) FN(prefetchTexels)(s, pf, cy * w + cx);
        vu t = STRATA_GATHER(s->texels, cy * w + cx);
        *r = FN(channel)(t, 0) * k; *g = FN(channel)(t, 8) * k; *b = FN(channel)(t, 16) * k; *a = FN(channel)(t, 24) * k;
        return;
    }
    vf fx = x - 0.5f, fy = y - 0.5f;
    if (!inside) { fx = FN(clampf)(fx, -1e9f, 1e9f); fy = FN(clampf)(fy, -1e9f, 1e9f); }
    // Inside, fx and fy are at least 0, where truncation is the floor.
    vi x0 = inside ? FN(trunci)(fx) : FN(floori)(fx), y0 = inside ? FN(trunci)(fy) : FN(floori)(fy);
    vf tx = fx - FN(tof)(x0), ty = fy - FN(tof)(y0);
    vi cx0 = x0, cx1 = x0 + 1, row0 = y0 * w, row1 = (y0 + 1) * w;
    if (!inside) {
        cx0 = FN(clampIndex)(x0, s->width); cx1 = FN(clampIndex)(x0 + 1, s->width);
        row0 = FN(clampIndex)(y0, h) * w; row1 = FN(clampIndex)(y0 + 1, h) * w;
    }
    if (pf && pf->on) FN(prefetchTexels)(s, pf, row0 + cx0);
    vu ta, tb, tc, td;
    if (inside) {
        // cx1 = cx0 + 1: each pair of neighbours is one load.
        STRATA_GATHER_PAIR(s->texels, row0 + cx0, &ta, &tb);
        STRATA_GATHER_PAIR(s->texels, row1 + cx0, &tc, &td);
    } else {
        ta = STRATA_GATHER(s->texels, row0 + cx0); tb = STRATA_GATHER(s->texels, row0 + cx1);
        tc = STRATA_GATHER(s->texels, row1 + cx0); td = STRATA_GATHER(s->texels, row1 + cx1);
    }
#define LERP2(SHIFT, OUT) do { \
        vf A = FN(channel)(ta, SHIFT), B = FN(channel)(tb, SHIFT), C = FN(channel)(tc, SHIFT), D = FN(channel)(td, SHIFT); \
        vf top = A + (B - A) * tx, bottom = C + (D - C) * tx; \
        OUT = (top + (bottom - top) * ty) * k; \
    } while (0)
    LERP2(0, *r);
    LERP2(8, *g);
    LERP2(16, *b);
    LERP2(24, *a);
#undef LERP2
}

/// The high 16 bits of each product of two 16-bit words (pmulhuw): `a·b >> 16`.
INLINE vh FN(mulhi16)(vh a, vh b) {
    return __builtin_convertvector((__builtin_convertvector(a, vw) * __builtin_convertvector(b, vw)) >> 16, vh);
}

/// A weight 0…256 a lane as the 16-bit words of its pixel's four channels: the low half of
/// each 32-bit lane, four times (one shuffle).
#if LANES == 8
#define STRATA_SPREAD16(h) __builtin_shufflevector(h, h, 0, 0, 0, 0, 2, 2, 2, 2, 4, 4, 4, 4, 6, 6, 6, 6, 8, 8, 8, 8, 10, 10, 10, 10, 12, 12, 12, 12, 14, 14, 14, 14)
#elif LANES == 16
#define STRATA_SPREAD16(h) __builtin_shufflevector(h, h, 0, 0, 0, 0, 2, 2, 2, 2, 4, 4, 4, 4, 6, 6, 6, 6, 8, 8, 8, 8, 10, 10, 10, 10, 12, 12, 12, 12, 14, 14, 14, 14, 16, 16, 16, 16, 18, 18, 18, 18, 20, 20, 20, 20, 22, 22, 22, 22, 24, 24, 24, 24, 26, 26, 26, 26, 28, 28, 28, 28, 30, 30, 30, 30)
#else
#define STRATA_SPREAD16(h) __builtin_shufflevector(h, h, 0, 0, 0, 0)
#endif
INLINE vh FN(spread16)(vi w) {
    typedef uint16_t halves __attribute__((ext_vector_type(2 * LANES)));
    const halves h = (halves)w;
    return STRATA_SPREAD16(h);
}
#undef STRATA_SPREAD16

/// The bilinear mix of texels ta (top left), tb, tc, td (bottom right) with weights wx, wy in
/// 0…256 (of 256), all four channels of a pixel at once in 16-bit integers: each row
/// `A·(256 − wx) + B·wx` (at most 255·256, exact), then the rows `top − (top·wy·256 >> 16) +
/// (bottom·wy·256 >> 16)` (bottom itself for wy = 256), 255·256 times the colour within 2⁻¹⁵
/// of it — exactly where the four texels are equal. Exact integers: every instantiation gives
/// the same values. Premultiplied, in units of 1/(255·256): 0…65280, as floats (the caller
/// folds the division into its colour, FN(spriteRowsOf): four divisions a step were a tenth of
/// a particle's pixel time). ImageSampler.spriteSample divides by 65280.
INLINE void FN(spriteLerp)(vu ta, vu tb, vu tc, vu td, vi wx, vi wy, vf *r, vf *g, vf *b, vf *a) {
    const vh WX = FN(spread16)(wx), IX = 256 - WX, WY = FN(spread16)(wy), WY8 = WY << 8;
    const vh A = __builtin_convertvector((vb)ta, vh), B = __builtin_convertvector((vb)tb, vh);
    const vh C = __builtin_convertvector((vb)tc, vh), D = __builtin_convertvector((vb)td, vh);
    const vh top = A * IX + B * WX, bottom = C * IX + D * WX;
    const vq mix = (vq)SEL(WY == 256, bottom, top - FN(mulhi16)(top, WY8) + FN(mulhi16)(bottom, WY8));
    *r = FN(tof)((vi)__builtin_convertvector(mix & 0xffffu, vu));
    *g = FN(tof)((vi)__builtin_convertvector((mix >> 16) & 0xffffu, vu));
    *b = FN(tof)((vi)__builtin_convertvector((mix >> 32) & 0xffffu, vu));
    *a = FN(tof)((vi)__builtin_convertvector(mix >> 48, vu));
}

/// A sprite's sampler as lanes and plain values, copied once per draw call so that the steps
/// keep them in registers (read through the item, they were loaded again after every store).
typedef struct {
    vf sx0, sxScale, sy0, syScale;
    vi width, lastX, lastY;
    const uint32_t *texels;
    vi paddedWidth;  // width + 2 (strata_item.spriteTexels)
    const uint32_t *padded;
} FN(spriteLanes);

INLINE FN(spriteLanes) FN(spriteLanesOf)(const strata_sampler *s, const uint32_t *padded) {
    FN(spriteLanes) l;
    l.sx0 = s->sx0; l.sxScale = s->sxScale; l.sy0 = s->sy0; l.syScale = s->syScale;
    l.width = s->width; l.lastX = s->width - 1; l.lastY = s->height - 1;
    l.texels = s->texels;
    l.paddedWidth = s->width + 2;
    l.padded = padded;
    return l;
}

/// Indices clamped to 0 … last.
INLINE vi FN(clampIndexTo)(vi v, vi last) { return SEL(v < 0, (vi)0, SEL(v > last, last, v)); }

/// A sprite's sample (strata_item.sprite): the texel position and the clamped footprint of
/// FN(sampleImage)'s bilinear case, the fractions rounded to weights in 1/256 steps and the
/// texels mixed by FN(spriteLerp) (0…65280 for 0…1). Measured against FN(sampleImage) on the particles benchmark:
/// the channel-by-channel float interpolation was most of a particle's pixel work.
INLINE void FN(spriteSample)(const FN(spriteLanes) *s, vf u, vf v, vf *r, vf *g, vf *b, vf *a) {
    const vf x = s->sx0 + u * s->sxScale, y = s->sy0 + v * s->syScale;
    const vf fx = FN(clampf)(x - 0.5f, -1e9f, 1e9f), fy = FN(clampf)(y - 0.5f, -1e9f, 1e9f);
    const vi x0 = FN(floori)(fx), y0 = FN(floori)(fy);
    // fx − x0 lies in [0, 1): the weights in 0…256.
    const vi wx = FN(trunci)((fx - FN(tof)(x0)) * 256.0f + 0.5f), wy = FN(trunci)((fy - FN(tof)(y0)) * 256.0f + 0.5f);
    const vi cx0 = FN(clampIndexTo)(x0, s->lastX), cx1 = FN(clampIndexTo)(x0 + 1, s->lastX);
    const vi row0 = FN(clampIndexTo)(y0, s->lastY) * s->width, row1 = FN(clampIndexTo)(y0 + 1, s->lastY) * s->width;
    const vu ta = STRATA_GATHER(s->texels, row0 + cx0), tb = STRATA_GATHER(s->texels, row0 + cx1);
    const vu tc = STRATA_GATHER(s->texels, row1 + cx0), td = STRATA_GATHER(s->texels, row1 + cx1);
    FN(spriteLerp)(ta, tb, tc, td, wx, wy, r, g, b, a);
}

/// FN(spriteSample) from the image with its border (strata_item.spriteTexels): the footprint's
/// corner clamped to −1 … last once, and each row's two texels one 64-bit load. The same texels:
/// with c = clamp(x0, −1, last), border texels c + 1 and c + 2 are the image's clamp(x0) and
/// clamp(x0 + 1) for every x0 (both the edge texel when x0 < −1 or x0 > last); likewise rows.
INLINE void FN(spriteSamplePadded)(const FN(spriteLanes) *s, vf u, vf v, vf *r, vf *g, vf *b, vf *a) {
    const vf x = s->sx0 + u * s->sxScale, y = s->sy0 + v * s->syScale;
    const vf fx = FN(clampf)(x - 0.5f, -1e9f, 1e9f), fy = FN(clampf)(y - 0.5f, -1e9f, 1e9f);
    const vi x0 = FN(floori)(fx), y0 = FN(floori)(fy);
    const vi wx = FN(trunci)((fx - FN(tof)(x0)) * 256.0f + 0.5f), wy = FN(trunci)((fy - FN(tof)(y0)) * 256.0f + 0.5f);
    const vi cx = SEL(x0 < -1, (vi)-1, SEL(x0 > s->lastX, s->lastX, x0)) + 1;
    const vi cy = SEL(y0 < -1, (vi)-1, SEL(y0 > s->lastY, s->lastY, y0)) + 1;
    const vi i = cy * s->paddedWidth + cx;
    vu ta, tb, tc, td;
    STRATA_GATHER_PAIR(s->padded, i, &ta, &tb);
    STRATA_GATHER_PAIR(s->padded, i + s->paddedWidth, &tc, &td);
    FN(spriteLerp)(ta, tb, tc, td, wx, wy, r, g, b, a);
}

/// A gradient's constants as lanes, read from the item once per draw call (per item and tile):
/// read through the item, they were loaded again after every store to the tile, broadcast, and
/// the two-stop ramp's colour differences computed again, at every step.
typedef struct {
    vf sx, sy, dx, dy, invLen2, rx, ry;  // start point, axis and 1 / |axis|², radii
    int focal;  // radial with a focal point (fx, fy) in units of the radii, fa = fx² + fy² − 1
    vf fx, fy, fa;
    vf opacity;
    int ramp;  // a strata_ramp_kind
    int between;  // steps test whether all their lanes lie between two stops (not strata_item.general)
    vf lo, hi, span;  // two stops: their locations and hi − lo
    vf first[4], diff[4], last[4];  // two stops: the colours at lo and at hi, and hi's minus lo's
} FN(gradient);

#ifndef STRATA_RAMP_KINDS
#define STRATA_RAMP_KINDS
/// How a ramp's interpolation factor is found: any number of stops, or two stops (the common
/// case) over a span of exactly 1 (the default locations 0 and 1, where the quotient is the
/// difference itself and the division is left out: the same bits), over another span, or at one
/// location (factor 1). Decided once per draw call; the steps branch on a constant.
/// RAMP_UNIT_BETWEEN is RAMP_UNIT with its stops at 0 and 1 and FN(gradient).between known to
/// hold, a kind only the callers of FN(loop) and FN(loopBordered) name (`fixedRamp`), never
/// stored: a loop given it tests neither the kind nor that flag per step.
/// RAMP_UNIT_BETWEEN_FLAT is RAMP_UNIT_BETWEEN with both stops of one alpha (as gradients between
/// two colours of one opacity are): the alpha is the first stop's, not interpolated, which is
/// the value interpolating gives (its difference is 0), so the bytes are the same.
/// RAMP_UNIT_INSIDE and RAMP_UNIT_INSIDE_FLAT are those two with every lane of the steps known to
/// lie strictly between the stops (FN(loop) finds it for a whole segment): the steps do not test it.
typedef enum {
    RAMP_STOPS, RAMP_UNIT, RAMP_SPAN, RAMP_POINT, RAMP_UNIT_BETWEEN, RAMP_UNIT_BETWEEN_FLAT, RAMP_UNIT_INSIDE, RAMP_UNIT_INSIDE_FLAT
} strata_ramp_kind;
/// FN(loop)'s and FN(loopBordered)'s `fixedRamp` when the kind is the gradient's own (read per call).
enum { RAMP_OF_ITEM = -1 };
#endif

INLINE void FN(gradientOf)(const strata_item *it, FN(gradient) *g) {
    g->ramp = RAMP_STOPS;
    g->between = !it->general;
    if (it->paint != STRATA_PAINT_AXIAL && it->paint != STRATA_PAINT_RADIAL) return;  // the rest is not read
    g->sx = it->gsx; g->sy = it->gsy; g->dx = it->gdx; g->dy = it->gdy; g->invLen2 = it->gInvLen2;
    g->rx = it->grx; g->ry = it->gry;
    g->focal = it->paint == STRATA_PAINT_RADIAL && it->gFocal;
    g->fx = it->gfx; g->fy = it->gfy; g->fa = it->gfa;
    g->opacity = it->opacity;
    if (it->stopCount == 2) {
        const float *c = it->stopColors;
        const float lo = it->stops[0], hi = it->stops[1], span = hi - lo;
        g->ramp = !(hi > lo) ? RAMP_POINT : span == 1.0f ? RAMP_UNIT : RAMP_SPAN;
        g->lo = lo; g->hi = hi; g->span = span;
        for (int i = 0; i < 4; i++) { g->first[i] = c[i]; g->last[i] = c[4 + i]; g->diff[i] = c[4 + i] - c[i]; }
    }
}

/// An item's constants as lanes, made once per draw call (per item and tile) and read by every
/// step: its gradient, its rectangles and its clips' rectangles, cover kind and antialiasing.
typedef struct {
    FN(gradient) gradient;
    FN(rrectLanes) shape, inner;
    FN(rrectLanes) clips[STRATA_MAX_CLIPS];
    int cover, aa;
    FN(samplerLanes) image, blendImage;
    vf blendWeight, opacity, tint[4], modulate[4];
    // An image's samplers and flags: read through the item, they were loaded again at every step.
    strata_sampler sampler, blendSampler;
    int nearest, blend, tinted, modulated;
    // A fill drawn with its layer's border over it (FN(strata_draw_rows_bordered)): the border's
    // inner edge and colour.
    FN(rrectLanes) border;
    vf borderColor[4];
    // The fill's shape and the border's hole share their centre and both are FN(rrectIsSimple),
    // antialiased, through a similar map: the fused steps take FN(rrectSimple).
    int simplePair;
    // The item's cover is a rectangle, ring or image whose rectangles are FN(rrectIsSimple),
    // antialiased, through a similar map: FN(loop)'s full steps take FN(coverSimple).
    int simple;
} FN(itemLanes);

INLINE void FN(itemLanesOf)(const strata_item *it, const FN(rowmaps) *maps, FN(itemLanes) *l) {
    // Only what the item's paint and cover read (an item drawn through a mask row, as glyphs
    // and shapes are, needs none of it).
    FN(gradientOf)(it, &l->gradient);
    if (it->paint == STRATA_PAINT_IMAGE) {
        FN(samplerLanesOf)(&it->image, &l->image);
        FN(samplerLanesOf)(&it->blendImage, &l->blendImage);
        l->blendWeight = it->blendWeight; l->opacity = it->opacity;
        for (int i = 0; i < 4; i++) { l->tint[i] = it->tint[i]; l->modulate[i] = it->modulate[i]; }
        l->sampler = it->image; l->blendSampler = it->blendImage;
        l->nearest = it->nearest; l->blend = it->blendWeight > 0; l->tinted = it->hasTint; l->modulated = it->hasModulate;
    }
    if (it->cover != STRATA_COVER_NONE) {
        FN(rrectLanesOf)(&it->shape, &maps->item, it->general, &l->shape);
        FN(rrectLanesOf)(&it->inner, &maps->item, it->general, &l->inner);
    }
    const int clips = it->clipCount < STRATA_MAX_CLIPS ? it->clipCount : STRATA_MAX_CLIPS;
    for (int c = 0; c < clips; c++) FN(rrectLanesOf)(&it->clips[c].shape, &maps->clips[c], it->general, &l->clips[c]);
    l->cover = it->cover;
    l->aa = it->antialiased;
    l->simplePair = 0;
    l->simple = 0;
    if (l->aa && maps->item.similar && it->cover != STRATA_COVER_NONE && FN(rrectIsSimple)(&l->shape)) {
        switch (it->cover) {
        case STRATA_COVER_RRECT: l->simple = 1; break;
        case STRATA_COVER_RING: l->simple = FN(rrectIsSimple)(&l->inner); break;
        case STRATA_COVER_IMAGE: l->simple = !it->hasClip || FN(rrectIsSimple)(&l->inner); break;
        case STRATA_COVER_NONE: break;   // excluded above
        }
    }
}

/// The gradient's premultiplied colour at parameter t (GradientPaint.color(at:)): the colour
/// of the first stop up to it, of the last from it on, interpolated in between.
INLINE void FN(ramp)(const strata_item *it, const FN(gradient) *gr, const int kind, vf t, vf *r, vf *g, vf *b, vf *a) {
    const int known = kind == RAMP_UNIT_INSIDE || kind == RAMP_UNIT_INSIDE_FLAT;
    const int flat = kind == RAMP_UNIT_BETWEEN_FLAT || kind == RAMP_UNIT_INSIDE_FLAT;
    const int between = known || kind == RAMP_UNIT_BETWEEN || kind == RAMP_UNIT_BETWEEN_FLAT;
    const int ramp = between ? RAMP_UNIT : kind;
    vf cr, cg, cb, ca;
    if (known || (between && FN(all)((t > 0.0f) & (t < 1.0f)))) {
        // The stops are at 0 and 1 (the kind is chosen so): the branch below with lo 0, whose
        // t − lo is t itself for t > 0, and with the two bounds constants, not lanes in registers.
        const vf *c0 = gr->first, *d = gr->diff;
        cr = c0[0] + d[0] * t; cg = c0[1] + d[1] * t; cb = c0[2] + d[2] * t;
        ca = flat ? c0[3] : c0[3] + d[3] * t;
    } else if ((ramp == RAMP_UNIT || ramp == RAMP_SPAN) && (between || gr->between) &&
        FN(all)((t > gr->lo) & (t < gr->hi))) {
        // Every lane strictly between the two stops (most steps; NaN is not): t − lo is at most
        // hi − lo, rounded, so the clamp and the selects below would change nothing.
        const vf lo = gr->lo;
        const vf *c0 = gr->first, *d = gr->diff;
        vf f = ramp == RAMP_UNIT ? t - lo : (t - lo) / gr->span;
        cr = c0[0] + d[0] * f; cg = c0[1] + d[1] * f; cb = c0[2] + d[2] * f; ca = c0[3] + d[3] * f;
    } else if (ramp != RAMP_STOPS) {
        // The common two-stop ramp: one interval (measured: half the instructions of the loop).
        const vf lo = gr->lo, hi = gr->hi;
        const vf *c0 = gr->first, *d = gr->diff, *c1 = gr->last;
        vf f = ramp == RAMP_POINT ? (vf)1.0f : FN(clampf)(ramp == RAMP_UNIT ? t - lo : (t - lo) / gr->span, 0.0f, 1.0f);
        vi beyond = t >= hi;
        cr = SEL(beyond, c1[0], c0[0] + d[0] * f);
        cg = SEL(beyond, c1[1], c0[1] + d[1] * f);
        cb = SEL(beyond, c1[2], c0[2] + d[2] * f);
        ca = SEL(beyond, c1[3], c0[3] + d[3] * f);
        vi before = t <= lo;
        cr = SEL(before, c0[0], cr); cg = SEL(before, c0[1], cg); cb = SEL(before, c0[2], cb); ca = SEL(before, c0[3], ca);
    } else {
        const int n = it->stopCount;
        const float *s = it->stops, *c = it->stopColors;
        cr = c[0]; cg = c[1]; cb = c[2]; ca = c[3];
        if (n > 1) {
            for (int i = 1; i < n; i++) {
                const float lo = s[i - 1], hi = s[i];
                vi in = (t > lo) & (t <= hi);
                vf f = hi > lo ? (t - lo) / (hi - lo) : (vf)1.0f;
                const float *p = c + 4 * (i - 1), *q = c + 4 * i;
                cr = SEL(in, p[0] + (q[0] - p[0]) * f, cr);
                cg = SEL(in, p[1] + (q[1] - p[1]) * f, cg);
                cb = SEL(in, p[2] + (q[2] - p[2]) * f, cb);
                ca = SEL(in, p[3] + (q[3] - p[3]) * f, ca);
            }
            const float *last = c + 4 * (n - 1);
            vi beyond = t >= s[n - 1], before = t <= s[0];
            cr = SEL(before, (vf)c[0], SEL(beyond, (vf)last[0], cr));
            cg = SEL(before, (vf)c[1], SEL(beyond, (vf)last[1], cg));
            cb = SEL(before, (vf)c[2], SEL(beyond, (vf)last[2], cb));
            ca = SEL(before, (vf)c[3], SEL(beyond, (vf)last[3], ca));
        }
    }
    vf alpha = ca * gr->opacity;
    *r = cr * alpha; *g = cg * alpha; *b = cb * alpha; *a = alpha;
}

#ifndef STRATA_DITHER_TABLE
#define STRATA_DITHER_TABLE
// GradientPaint.dither: an 8×8 Bayer matrix entry in (−½, ½) from the pixel position, over 255
// (as FN(shade) adds it). Index a = (x ^ y) mod 8, b = y mod 8.
#define STRATA_BAYER(a, b) \
    ((((a) & 1) << 5) | (((b) & 1) << 4) | (((a) & 2) << 2) | (((b) & 2) << 1) | (((a) & 4) >> 1) | (((b) & 4) >> 2))
#define STRATA_DITHER(x, y) ((((float)STRATA_BAYER(((x) ^ (y)) & 7, (y) & 7) + 0.5f) / 64.0f - 0.5f) / 255.0f)
#define STRATA_DITHER_LANES(x, y) { STRATA_DITHER(x, y), STRATA_DITHER((x) + 1, y), STRATA_DITHER((x) + 2, y), \
    STRATA_DITHER((x) + 3, y), STRATA_DITHER((x) + 4, y), STRATA_DITHER((x) + 5, y), STRATA_DITHER((x) + 6, y), \
    STRATA_DITHER((x) + 7, y) }
#define STRATA_DITHER_ROWS(x) { STRATA_DITHER_LANES(x, 0), STRATA_DITHER_LANES(x, 1), STRATA_DITHER_LANES(x, 2), \
    STRATA_DITHER_LANES(x, 3), STRATA_DITHER_LANES(x, 4), STRATA_DITHER_LANES(x, 5), STRATA_DITHER_LANES(x, 6), \
    STRATA_DITHER_LANES(x, 7) }
/// The dither of pixels x … x + 7 of row y at [x mod 8][y mod 8] (folded by the compiler; every
/// operation is exact but the division by 255, which rounds as it would at run time). A lookup
/// where computing it cost about 30 instructions a span.
static const float strata_dither_table[8][8][8] = {
    STRATA_DITHER_ROWS(0), STRATA_DITHER_ROWS(1), STRATA_DITHER_ROWS(2), STRATA_DITHER_ROWS(3),
    STRATA_DITHER_ROWS(4), STRATA_DITHER_ROWS(5), STRATA_DITHER_ROWS(6), STRATA_DITHER_ROWS(7),
};
#endif

/// The gradient dither (over 255) of the LANES pixels from (x, y) on (x a multiple of 8: sixteen
/// lanes hold the eight values twice).
#if LANES == 16
INLINE vf FN(dither)(int x, int y) {
    typedef float half __attribute__((ext_vector_type(8)));
    half h;
    memcpy(&h, strata_dither_table[x & 7][y & 7], sizeof h);
    return __builtin_shufflevector(h, h, 0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7);
}
#else
INLINE vf FN(dither)(int x, int y) { return FN(load)(strata_dither_table[x & 7][y & 7]); }
#endif

/// The paint's premultiplied colour at the lanes' samples. `dither`: FN(dither)'s (over 255); `inside` and
/// `pf`: FN(sampleImage)'s (`inside` INSIDE_PLAIN: an image without crossfade or tint, bilinear).
INLINE void FN(shade)(const strata_item *it, const FN(itemLanes) *il, const int ramp, const int paint, const int inside,
                      const FN(prefetch) *pf, const FN(sample) *p, const int alongRow, vf dither, vf *r, vf *g, vf *b, vf *a) {
    const FN(gradient) *gr = &il->gradient;
    switch (paint) {
    case STRATA_PAINT_SOLID:
        *r = it->color[0]; *g = it->color[1]; *b = it->color[2]; *a = it->color[3];
        return;
    case STRATA_PAINT_AXIAL:
    case STRATA_PAINT_RADIAL: {
        vf t;
        if (paint == STRATA_PAINT_AXIAL) {
            // On an affine map, along the row (set by the step: the same value at a pixel whatever
            // the step or tile).
            t = alongRow ? p->t : ((p->u - gr->sx) * gr->dx + (p->v - gr->sy) * gr->dy) * gr->invLen2;
        } else {
            vf nx = (p->u - gr->sx) / gr->rx, ny = (p->v - gr->sy) / gr->ry;
            if (gr->focal) {
                // The two-point conical parameter (GradientPaint.focalParameter): the
                // non-negative root c / (b + √(b² − a·c)) of a·t² − 2b·t + c = 0.
                vf qx = nx - gr->fx, qy = ny - gr->fy;
                vf b = -(qx * gr->fx + qy * gr->fy), c = qx * qx + qy * qy;
                vf den = b + FN(sqrtf)(b * b - gr->fa * c);
                t = SEL(den > 0, c / den, (vf)0.0f);
            } else {
                t = FN(sqrtf)(nx * nx + ny * ny);
            }
        }
        FN(ramp)(it, gr, ramp, t, r, g, b, a);
        vf d = dither * *a;
        *r += d; *g += d; *b += d;
        return;
    }
    case STRATA_PAINT_IMAGE: {
        const int plain = inside == INSIDE_PLAIN;
        FN(sampleImage)(&il->sampler, &il->image, plain ? 0 : il->nearest, inside, pf, p->u, p->v, r, g, b, a);
        if (!plain && il->blend) {
            vf lr, lg, lb, la;
            const vf bw = il->blendWeight;
            FN(sampleImage)(&il->blendSampler, &il->blendImage, il->nearest, inside, 0, p->u, p->v, &lr, &lg, &lb, &la);
            *r += (lr - *r) * bw; *g += (lg - *g) * bw; *b += (lb - *b) * bw; *a += (la - *a) * bw;
        }
        if (!plain && il->tinted) {
            vf w = *a;
            *r = il->tint[0] * w; *g = il->tint[1] * w; *b = il->tint[2] * w; *a = il->tint[3] * w;
        }
        if (!plain && il->modulated) {
            *r = *r * il->modulate[0]; *g = *g * il->modulate[1]; *b = *b * il->modulate[2]; *a = *a * il->modulate[3];
        }
        const vf o = il->opacity;
        *r = *r * o; *g = *g * o; *b = *b * o; *a = *a * o;
        return;
    }
    }
}

/// The item's and its clips' maps, once per draw call (FN(prepareRow) then moves them to a row).
INLINE void FN(prepareMaps)(FN(rowmaps) *m, const strata_item *it) {
    m->item = FN(prepare)(&it->map);
    m->clipCount = it->clipCount < STRATA_MAX_CLIPS ? it->clipCount : STRATA_MAX_CLIPS;
    for (int k = 0; k < m->clipCount; k++) m->clips[k] = FN(prepare)(&it->clips[k].map);
    m->t0 = m->t1 = 0;
    // The axial parameter's step along a row of an affine map (FN(prepareRow)): the map's m0 and m1
    // are every row's.
    if (it->paint == STRATA_PAINT_AXIAL && m->item.affine) {
        m->t1 = (float)(((double)m->item.m0 * it->gdx + (double)m->item.m1 * it->gdy) * it->gInvLen2);
    }
}

/// What a draw call makes once for all its rows: the maps and the item's lanes.
INLINE void FN(prepareDraw)(const strata_item *it, FN(rowmaps) *maps, FN(itemLanes) *il) {
    FN(prepareMaps)(maps, it);
    FN(itemLanesOf)(it, maps, il);
}

INLINE void FN(prepareRow)(FN(rowmaps) *m, const strata_item *it, int y) {
    const double Y = (double)y + 0.5;
    FN(moveToRow)(&m->item, &it->map, Y);
    if (it->paint == STRATA_PAINT_AXIAL && m->item.affine) {
        // ((u − sx)·dx + (v − sy)·dy)·invLen2 with u = m0·X + a and v = m1·X + b, gathered by X.
        // (t1, the same for every row, is FN(prepareMaps)'s.)
        const FN(rowmap) *r = &m->item;
        m->t0 = (float)((((double)r->a - it->gsx) * it->gdx + ((double)r->b - it->gsy) * it->gdy) * it->gInvLen2);
    }
    for (int k = 0; k < m->clipCount; k++) FN(moveToRow)(&m->clips[k], &it->clips[k].map, Y);
}

/// One step of FN(loop): pixels k ..< k + LANES of the tile's row (R, G, B, A). `whole`: every
/// lane lies in the segment and the map is affine, so without coverage, clips or mask every
/// lane is live and the selects fold away. `simple`: the item's coverage is FN(coverSimple)'s
/// (FN(itemLanes).simple).
INLINE void FN(step)(const strata_item *restrict it, const FN(rowmap) *restrict rm, const FN(itemLanes) *restrict il,
                     const int ramp, const int cover, const int aa, const FN(rowmaps) *restrict maps, float *restrict R, float *restrict G,
                     float *restrict B, float *restrict A, int k, int lx0, int lx1, int tileX, int y, const float *restrict mask,
                     vf X, vf dither, const FN(prefetch) *pf, const int full, const int replace, const int paint, const int clipped,
                     const int masked, const int inside, const int whole, const int simple) {
    const int clipCount = clipped ? maps->clipCount : 0;
    // Mapping is needed for coverage, clips and any paint but a solid colour.
    const int mapped = full || paint != STRATA_PAINT_SOLID;
    vi lx = IOTA + k;
    vi live = whole ? (vi)-1 : (lx >= lx0) & (lx < lx1);
    FN(sample) p;
    if (mapped) {
        // (A simple item's map is affine: FN(map) would give the same sample, every lane ok.)
        if (whole || simple) {
            p = FN(mapAffine)(rm, X);
        } else {
            p = FN(map)(rm, X);
            live = live & p.ok;
        }
    }
    vf cov = !full ? (vf)1.0f
           : simple ? FN(coverSimple)(it, &il->shape, &il->inner, cover, &p) : FN(cover)(it, &il->shape, &il->inner, cover, aa, &p, rm->similar);
    for (int c = 0; c < clipCount; c++) {
        FN(sample) q = FN(map)(&maps->clips[c], X);
        vf cc = FN(rrect)(&il->clips[c], &q, it->clips[c].antialiased, maps->clips[c].similar);
        cov = SEL(q.ok, cov * cc, (vf)0.0f);
    }
    if (masked) cov = cov * FN(load)(mask + k);
    if (full || clipped || masked) {
        live = live & (cov > 0);
        if (!FN(any)(live)) return;
    }
    vf sr, sg, sb, sa;
    if (paint == STRATA_PAINT_SOLID) {
        sr = it->color[0]; sg = it->color[1]; sb = it->color[2]; sa = it->color[3];
    } else {
        if (LANES == 1) dither = FN(dither)(tileX + k, y);
        const int alongRow = paint == STRATA_PAINT_AXIAL && (whole || simple || rm->affine);
        if (alongRow) p.t = (vf)maps->t1 * X + maps->t0;
        FN(shade)(it, il, ramp, paint, inside, pf, &p, alongRow, dither, &sr, &sg, &sb, &sa);
    }
    vf dr = FN(load)(R + k), dg = FN(load)(G + k), db = FN(load)(B + k), da = FN(load)(A + k);
    if (replace) {
        FN(store)(R + k, SEL(live, sr, dr));
        FN(store)(G + k, SEL(live, sg, dg));
        FN(store)(B + k, SEL(live, sb, db));
        FN(store)(A + k, SEL(live, sa, da));
        return;
    }
    if (full || clipped || masked) { sr = sr * cov; sg = sg * cov; sb = sb * cov; sa = sa * cov; }
    if (paint == STRATA_PAINT_IMAGE && it->additive) {
        // AdditiveBlend.swift's `min(s + d, 1)` per component (a lane over 1 takes 1).
        const vf nr = sr + dr, ng = sg + dg, nb = sb + db, na = sa + da;
        FN(store)(R + k, SEL(live, SEL(nr > 1.0f, (vf)1.0f, nr), dr));
        FN(store)(G + k, SEL(live, SEL(ng > 1.0f, (vf)1.0f, ng), dg));
        FN(store)(B + k, SEL(live, SEL(nb > 1.0f, (vf)1.0f, nb), db));
        FN(store)(A + k, SEL(live, SEL(na > 1.0f, (vf)1.0f, na), da));
        return;
    }
    vf keep = 1.0f - sa;
    FN(store)(R + k, SEL(live, sr + dr * keep, dr));
    FN(store)(G + k, SEL(live, sg + dg * keep, dg));
    FN(store)(B + k, SEL(live, sb + db * keep, db));
    FN(store)(A + k, SEL(live, sa + da * keep, da));
}

/// One step of a fill (`it`, cover STRATA_COVER_RRECT) and its layer's border over it, fused:
/// the border's outer edge is the fill's shape (SpanKernel.isBorder checks), so both
/// coverages share that shape's distance, and each pixel is loaded and stored once. Each
/// coverage and blend is FN(step)'s arithmetic for the fill and then for the border, so the
/// bytes are those of drawing the two items one after the other. `simple`: both rectangles are
/// FN(rrectSimple)'s, around one centre (FN(itemLanes).simplePair).
INLINE void FN(stepBordered)(const strata_item *restrict it, const FN(rowmap) *restrict rm, const FN(itemLanes) *restrict il,
                             const int ramp, const int aa, const FN(rowmaps) *restrict maps, float *restrict R, float *restrict G,
                             float *restrict B, float *restrict A, int k, int lx0, int lx1, int tileX, int y, vf X, vf dither,
                             const int paint, const int clipped, const int whole, const int simple) {
    const int clipCount = clipped ? maps->clipCount : 0;
    vi lx = IOTA + k;
    vi live = whole ? (vi)-1 : (lx >= lx0) & (lx < lx1);
    FN(sample) p;
    if (whole || simple) {
        p = FN(mapAffine)(rm, X);
    } else {
        p = FN(map)(rm, X);
        live = live & p.ok;
    }
    // FN(cover)'s STRATA_COVER_RRECT for the fill and STRATA_COVER_RING for the border.
    vf c, hole;
    if (simple) {
        // One centre: the offsets are those FN(rrect) computes for each.
        const vf ax = FN(absf)(p.u - il->shape.cu), ay = FN(absf)(p.v - il->shape.cv);
        c = FN(rrectSimple)(&il->shape, &p, ax, ay);
        hole = FN(rrectSimple)(&il->border, &p, ax, ay);
    } else {
        c = FN(rrect)(&il->shape, &p, aa, rm->similar);
        hole = FN(rrect)(&il->border, &p, aa, rm->similar);
    }
    vf fillCov = c, borderCov = SEL(c == 0, (vf)0.0f, c * (1.0f - hole));
    for (int n = 0; n < clipCount; n++) {
        FN(sample) q = FN(map)(&maps->clips[n], X);
        vf cc = FN(rrect)(&il->clips[n], &q, it->clips[n].antialiased, maps->clips[n].similar);
        fillCov = SEL(q.ok, fillCov * cc, (vf)0.0f);
        borderCov = SEL(q.ok, borderCov * cc, (vf)0.0f);
    }
    vi fillLive = live & (fillCov > 0), borderLive = live & (borderCov > 0);
    if (!FN(any)(fillLive | borderLive)) return;
    vf dr = FN(load)(R + k), dg = FN(load)(G + k), db = FN(load)(B + k), da = FN(load)(A + k);
    // Past the test above some lane has fill coverage (the border's needs the fill's, clips
    // multiplying both). Whether some lane has the border's is not tested: a step inside the
    // hole has none, one beside it some, in no order a branch predictor follows, and the
    // selects leave such lanes as they were.
    {
        vf sr, sg, sb, sa;
        if (paint == STRATA_PAINT_SOLID) {
            sr = it->color[0]; sg = it->color[1]; sb = it->color[2]; sa = it->color[3];
        } else {
            if (LANES == 1) dither = FN(dither)(tileX + k, y);
            const int alongRow = paint == STRATA_PAINT_AXIAL && (whole || simple || rm->affine);
            if (alongRow) p.t = (vf)maps->t1 * X + maps->t0;
            FN(shade)(it, il, ramp, paint, 0, 0, &p, alongRow, dither, &sr, &sg, &sb, &sa);
        }
        if (paint == STRATA_PAINT_SOLID || (paint == STRATA_PAINT_AXIAL && (whole || simple || rm->affine))) {
            // The colour is finite in every lane (a constant, or an axial ramp's along the row), so
            // a lane left alone may take coverage 0 instead of a select: s = 0 and keep = 1 give
            // d·1 + 0, d itself (as FN(solidMaskedRow) says).
            const vf fc = SEL(fillLive, fillCov, (vf)0.0f);
            sr = sr * fc; sg = sg * fc; sb = sb * fc; sa = sa * fc;
            const vf keep = 1.0f - sa;
            dr = sr + dr * keep; dg = sg + dg * keep; db = sb + db * keep; da = sa + da * keep;
        } else {
            // (A lane past the map's domain may shade to NaN, which coverage 0 would not cancel.)
            sr = sr * fillCov; sg = sg * fillCov; sb = sb * fillCov; sa = sa * fillCov;
            const vf keep = 1.0f - sa;
            dr = SEL(fillLive, sr + dr * keep, dr);
            dg = SEL(fillLive, sg + dg * keep, dg);
            db = SEL(fillLive, sb + db * keep, db);
            da = SEL(fillLive, sa + da * keep, da);
        }
    }
    {
        // The border's colour is a constant: coverage 0 where it is not drawn, as above.
        const vf bc = SEL(borderLive, borderCov, (vf)0.0f);
        const vf br = il->borderColor[0] * bc, bg = il->borderColor[1] * bc;
        const vf bb = il->borderColor[2] * bc, ba = il->borderColor[3] * bc;
        const vf keep = 1.0f - ba;
        dr = br + dr * keep; dg = bg + dg * keep; db = bb + db * keep; da = ba + da * keep;
    }
    FN(store)(R + k, dr); FN(store)(G + k, dg); FN(store)(B + k, db); FN(store)(A + k, da);
}

/// FN(loop)'s whole steps from k while k ≤ wb, for the interior of an axial gradient on an affine
/// map whose lanes all lie strictly between its stops at 0 and 1 (RAMP_UNIT_INSIDE, or
/// RAMP_UNIT_INSIDE_FLAT when `flat`), without coverage, clips or mask: FN(step)'s arithmetic for
/// such a step, operation for operation (the same bytes), with the row's constants — the
/// parameter's coefficients, the colours and, for one alpha, the alpha, the dither's share of it
/// and the destination's weight — made once, where the steps had loaded or made them at every
/// step. Then the segment's last, partial step (pixels k ..< lx1, fewer than LANES), the same
/// arithmetic with the lanes past lx1 left as they were, as FN(step) leaves them: with the row's
/// constants at hand rather than loaded again for a step of its own. Returns the first k left;
/// moves X along. (LANES > 1: the dither is the row's for every step.)
INLINE int FN(axialInside)(const FN(gradient) *restrict gr, const FN(rowmaps) *restrict maps, float *restrict R,
                           float *restrict G, float *restrict B, float *restrict A, int k, int wb, int lx1, vf *X, vf dither,
                           const int flat) {
    const vf t1 = maps->t1, t0 = maps->t0, opacity = gr->opacity;
    const vf c0 = gr->first[0], c1 = gr->first[1], c2 = gr->first[2], c3 = gr->first[3];
    const vf d0 = gr->diff[0], d1 = gr->diff[1], d2 = gr->diff[2], d3 = gr->diff[3];
    const vf flatAlpha = c3 * opacity, flatShare = dither * flatAlpha, flatKeep = 1.0f - flatAlpha;
    vf x = *X;
    for (; k <= wb; k += LANES, x += (float)LANES) {
        const vf t = t1 * x + t0;
        const vf a = flat ? flatAlpha : (c3 + d3 * t) * opacity;
        const vf share = flat ? flatShare : dither * a, keep = flat ? flatKeep : 1.0f - a;
        const vf r = (c0 + d0 * t) * a + share, g = (c1 + d1 * t) * a + share, b = (c2 + d2 * t) * a + share;
        FN(store)(R + k, r + FN(load)(R + k) * keep);
        FN(store)(G + k, g + FN(load)(G + k) * keep);
        FN(store)(B + k, b + FN(load)(B + k) * keep);
        FN(store)(A + k, a + FN(load)(A + k) * keep);
    }
    // (Written out as the loop's step with a lane mask: one helper for both, taking the row's
    // constants, cost 2.6 M instructions a motion frame in spilled registers.)
    if (k < lx1) {
        const vi live = IOTA + k < lx1;
        const vf t = t1 * x + t0;
        const vf a = flat ? flatAlpha : (c3 + d3 * t) * opacity;
        const vf share = flat ? flatShare : dither * a, keep = flat ? flatKeep : 1.0f - a;
        const vf r = (c0 + d0 * t) * a + share, g = (c1 + d1 * t) * a + share, b = (c2 + d2 * t) * a + share;
        const vf dr = FN(load)(R + k), dg = FN(load)(G + k), db = FN(load)(B + k), da = FN(load)(A + k);
        FN(store)(R + k, SEL(live, r + dr * keep, dr));
        FN(store)(G + k, SEL(live, g + dg * keep, dg));
        FN(store)(B + k, SEL(live, b + db * keep, db));
        FN(store)(A + k, SEL(live, a + da * keep, da));
        k += LANES;
        x += (float)LANES;
    }
    *X = x;
    return k;
}

/// The loop over one segment, specialised by the compiler for each combination of the constant
/// flags below (the dispatcher FN(segment) passes literals): a solid interior without clips maps
/// no coordinates, a segment without clips or mask has no clip loop, and so on. Measured: one
/// generic loop testing the flags per step cost 2–3× the instructions of the specialised ones.
/// `inside`: whether an image's bilinear footprints all lie inside it (FN(footprintsInside)), and
/// whether it is plain (STRATA_INSIDE_KINDS). `fromFirst`: the steps start at the segment's first
/// pixel instead of on multiples of ALIGN (FN(loopBordered) says why the bytes are the same and
/// when it pays): full segments (edges) but an image's, masked ones and plain interiors do. An
/// image's never do: FN(imageStepsInside) checks the footprints of the aligned steps' lanes, and
/// its edges took more instructions so (composite: +0.7 M a frame).
INLINE void FN(loop)(const strata_item *restrict it, const FN(itemLanes) *restrict il, const FN(rowmaps) *restrict maps,
                     float *restrict tile, long stride,
                     long plane, int tileX, int tileY, int y, int x0, int x1, const float *restrict mask,
                     const int full, const int replace, const int paint, const int clipped, const int masked,
                     const int inside, const int simple, const int fixedRamp, const int fromFirst) {
    float *row = tile + (long)(y - tileY) * stride;
    float *R = row, *G = row + plane, *B = row + 2 * plane, *A = row + 3 * plane;
    const int lx0 = x0 - tileX, lx1 = x1 - tileX;
    // The first step's first pixel.
    const int k0 = fromFirst ? lx0 : lx0 & ~(ALIGN - 1);
    // The dither of a lane depends on x mod 8 only (FN(dither) from any x).
    vf dither = 0;
    if (paint == STRATA_PAINT_AXIAL || paint == STRATA_PAINT_RADIAL) dither = FN(dither)(tileX + k0, y);
    enum { AHEAD = 8 };  // device rows
    FN(prefetch) pf = { 0, 0 };
    if (paint == STRATA_PAINT_IMAGE) pf = FN(prefetchAhead)(&it->image, &maps->item, AHEAD);
    // Steps wholly inside the segment (from wa on, up to wb: k + LANES ≤ lx1) take the variant
    // without lane masks when the map is affine; the segment's first and last steps may be partial.
    const int wa = maps->item.affine ? (fromFirst ? lx0 : (lx0 + ALIGN - 1) & ~(ALIGN - 1)) : lx1;
    const int wb = lx1 - LANES;  // whole steps: k ≤ wb
    // The item's map in a local, so that the steps keep it in registers.
    const FN(rowmap) rm = maps->item;
    const int ramp = fixedRamp == RAMP_OF_ITEM ? il->gradient.ramp : fixedRamp, cover = il->cover, aa = il->aa;
#define STEP(WHOLE) FN(step)(it, &rm, il, ramp, cover, aa, maps, R, G, B, A, k, lx0, lx1, tileX, y, mask, X, dither, &pf, full, replace, paint, \
                             clipped, masked, inside, WHOLE, simple)
    // The lanes' pixel centres, stepped (exact: integers and halves below 2^24).
    vf X = FN(tof)(IOTA + (tileX + k0)) + 0.5f;
    // An axial ramp between stops at 0 and 1 on an affine map: t = t1·X + t0 (FN(step)) rises or
    // falls along the row, rounded or not, so when the first lane of the first step and the last
    // lane of the last step lie strictly between the stops, every lane does: the steps take the
    // kind that does not test it (the colours are those the test would have chosen).
    if ((fixedRamp == RAMP_UNIT_BETWEEN || fixedRamp == RAMP_UNIT_BETWEEN_FLAT) && paint == STRATA_PAINT_AXIAL && rm.affine) {
        const int kLast = k0 + (lx1 - 1 - k0) / LANES * LANES;
        const float ta = maps->t1 * ((float)(tileX + k0) + 0.5f) + maps->t0;
        const float tb = maps->t1 * ((float)(tileX + kLast + LANES - 1) + 0.5f) + maps->t0;
        if (ta > 0.0f && ta < 1.0f && tb > 0.0f && tb < 1.0f) {
#define STEP_KNOWN(WHOLE) FN(step)(it, &rm, il, fixedRamp == RAMP_UNIT_BETWEEN ? RAMP_UNIT_INSIDE : RAMP_UNIT_INSIDE_FLAT, cover, aa, \
                                   maps, R, G, B, A, k, lx0, lx1, tileX, y, mask, X, dither, &pf, full, replace, paint, clipped, \
                                   masked, inside, WHOLE, simple)
            int k = k0;
            for (; k < lx1 && k < wa; k += LANES, X += (float)LANES) STEP_KNOWN(0);
            if (LANES > 1 && !full && !replace && !clipped && !masked) {
                k = FN(axialInside)(&il->gradient, maps, R, G, B, A, k, wb, lx1, &X, dither, fixedRamp == RAMP_UNIT_BETWEEN_FLAT);
            } else {
                for (; k <= wb; k += LANES, X += (float)LANES) STEP_KNOWN(1);
            }
            for (; k < lx1; k += LANES, X += (float)LANES) STEP_KNOWN(0);
#undef STEP_KNOWN
            return;
        }
    }
    // An image's interior run whose footprints lie inside it: its ends are aligned (FN(alignInterior)),
    // so on an affine map every step is whole — one loop without the test per step.
    if (paint == STRATA_PAINT_IMAGE && inside != INSIDE_NO && wa == k0 && (lx1 - k0) % LANES == 0) {
        for (int k = k0; k < lx1; k += LANES, X += (float)LANES) STEP(1);
        return;
    }
    for (int k = k0; k < lx1; k += LANES, X += (float)LANES) {
        if (k >= wa && k <= wb) STEP(1); else STEP(0);
    }
#undef STEP
}

/// FN(loop) for a fill with its border over it: FN(stepBordered)'s steps. (A loop of its own, not
/// a flag of FN(loop): unoptimised builds inline every step variant into every loop, and the
/// dispatcher's stack frame would double.)
///
/// The steps start at the run's first pixel, not on a multiple of ALIGN: every lane's arithmetic
/// depends on its pixel alone (its centre, the row's map, the dither of x mod 8), so the bytes do
/// not depend on where a step starts, and a run of n pixels — an edge a few pixels wide — takes
/// ⌈n / LANES⌉ of these costly steps rather than the one or two more that aligned steps over the
/// same pixels often need.
INLINE void FN(loopBordered)(const strata_item *restrict it, const FN(itemLanes) *restrict il, const FN(rowmaps) *restrict maps,
                             float *restrict tile, long stride, long plane, int tileX, int tileY, int y, int x0, int x1,
                             const int paint, const int clipped, const int simple, const int fixedRamp) {
    float *row = tile + (long)(y - tileY) * stride;
    float *R = row, *G = row + plane, *B = row + 2 * plane, *A = row + 3 * plane;
    const int lx0 = x0 - tileX, lx1 = x1 - tileX;
    vf dither = 0;
    if (paint == STRATA_PAINT_AXIAL || paint == STRATA_PAINT_RADIAL) dither = FN(dither)(tileX + lx0, y);
    const int wa = maps->item.affine ? lx0 : lx1;
    const int wb = lx1 - LANES;  // whole steps: k ≤ wb
    const FN(rowmap) rm = maps->item;
    const int ramp = fixedRamp == RAMP_OF_ITEM ? il->gradient.ramp : fixedRamp, aa = il->aa;
    const int k0 = lx0;
    vf X = FN(tof)(IOTA + (tileX + k0)) + 0.5f;
    for (int k = k0; k < lx1; k += LANES, X += (float)LANES) {
        if (k >= wa && k <= wb) FN(stepBordered)(it, &rm, il, ramp, aa, maps, R, G, B, A, k, lx0, lx1, tileX, y, X, dither, paint, clipped, 1, simple);
        else FN(stepBordered)(it, &rm, il, ramp, aa, maps, R, G, B, A, k, lx0, lx1, tileX, y, X, dither, paint, clipped, 0, simple);
    }
}

/// An opaque solid colour stored over pixels x0 ..< x1 of a row.
INLINE void FN(storeLoop)(const strata_item *restrict it, float *restrict tile, long stride, long plane, int tileX, int tileY,
                          int y, int x0, int x1) {
    float *row = tile + (long)(y - tileY) * stride;
    float *R = row, *G = row + plane, *B = row + 2 * plane, *A = row + 3 * plane;
    const int lx0 = x0 - tileX, lx1 = x1 - tileX;
    const vf cr = it->color[0], cg = it->color[1], cb = it->color[2], ca = it->color[3];
    int k = lx0;
    for (; k < lx1 && (k & (LANES - 1)); k++) { R[k] = it->color[0]; G[k] = it->color[1]; B[k] = it->color[2]; A[k] = it->color[3]; }
    for (; k + LANES <= lx1; k += LANES) { FN(store)(R + k, cr); FN(store)(G + k, cg); FN(store)(B + k, cb); FN(store)(A + k, ca); }
    for (; k < lx1; k++) { R[k] = it->color[0]; G[k] = it->color[1]; B[k] = it->color[2]; A[k] = it->color[3]; }
}

#define LOOP(FULL, REPLACE, PAINT, CLIPPED, MASKED, INSIDE, SIMPLE) \
    FN(loop)(it, il, maps, tile, stride, plane, tileX, tileY, y, x0, x1, mask, FULL, REPLACE, PAINT, CLIPPED, MASKED, INSIDE, SIMPLE, \
             RAMP_OF_ITEM, (FULL) && (PAINT) != STRATA_PAINT_IMAGE)
#define LOOP_PAINTS_SIMPLE(FULL, REPLACE, CLIPPED, MASKED, SIMPLE) \
    switch (it->paint) { \
    case STRATA_PAINT_SOLID: LOOP(FULL, REPLACE, STRATA_PAINT_SOLID, CLIPPED, MASKED, 0, SIMPLE); break; \
    case STRATA_PAINT_AXIAL: LOOP(FULL, REPLACE, STRATA_PAINT_AXIAL, CLIPPED, MASKED, 0, SIMPLE); break; \
    case STRATA_PAINT_RADIAL: LOOP(FULL, REPLACE, STRATA_PAINT_RADIAL, CLIPPED, MASKED, 0, SIMPLE); break; \
    case STRATA_PAINT_IMAGE: \
        if (!(FULL) && FN(imageStepsInside)(il, &maps->item, tileX, x0, x1)) { \
            if (il->blend || il->tinted || il->modulated) LOOP(FULL, REPLACE, STRATA_PAINT_IMAGE, CLIPPED, MASKED, INSIDE_ANY, SIMPLE); \
            else LOOP(FULL, REPLACE, STRATA_PAINT_IMAGE, CLIPPED, MASKED, INSIDE_PLAIN, SIMPLE); \
        } else \
            LOOP(FULL, REPLACE, STRATA_PAINT_IMAGE, CLIPPED, MASKED, INSIDE_NO, SIMPLE); \
        break; \
    }
/// Full segments (coverage per pixel) of a simple item (FN(itemLanes).simple) take FN(coverSimple).
#define LOOP_PAINTS(FULL, REPLACE, CLIPPED, MASKED) \
    if ((FULL) && il->simple) { LOOP_PAINTS_SIMPLE(FULL, REPLACE, CLIPPED, MASKED, 1) } \
    else { LOOP_PAINTS_SIMPLE(FULL, REPLACE, CLIPPED, MASKED, 0) }

/// Whether the bilinear footprints of every lane of FN(loop)'s steps over pixels `x0 ..< x1`
/// (from the first step's first pixel to the last step's last, steps starting on multiples of
/// ALIGN from the tile's left edge) lie inside the item's images. Only interiors ask: a full
/// segment's steps reach past the shape's edge, usually past the image's.
INLINE int FN(imageStepsInside)(const FN(itemLanes) *il, const FN(rowmap) *rm, int tileX, int x0, int x1) {
    if (il->nearest) return 0;
    const int xa = tileX + ((x0 - tileX) & ~(ALIGN - 1));
    const int last = xa + (x1 - xa + LANES - 1) / LANES * LANES - 1;
    if (!FN(footprintsInside)(&il->sampler, &il->image, rm, xa, last)) return 0;
    return !il->blend || FN(footprintsInside)(&il->blendSampler, &il->blendImage, rm, xa, last);
}

/// Pixels x0 ..< x1 of row y: picks the specialised loop.
static void FN(segment)(const strata_item *it, const FN(itemLanes) *il, const FN(rowmaps) *maps, float *tile, long stride, long plane,
                        int tileX, int tileY, int y, int x0, int x1, strata_span_mode mode, const float *mask) {
    if (x1 <= x0) return;
    if (mode == STRATA_SPAN_STORE) { FN(storeLoop)(it, tile, stride, plane, tileX, tileY, y, x0, x1); return; }
    const int clipped = maps->clipCount > 0, masked = mask != 0;
    if (mode == STRATA_SPAN_FULL) {
        if (clipped) { LOOP_PAINTS(1, 0, 1, masked) } else if (masked) { LOOP_PAINTS(1, 0, 0, 1) } else { LOOP_PAINTS(1, 0, 0, 0) }
    } else if (mode == STRATA_SPAN_REPLACE) {
        LOOP_PAINTS(0, 1, 0, 0)
    } else if (clipped) {
        if (masked) { LOOP_PAINTS(0, 0, 1, 1) } else { LOOP_PAINTS(0, 0, 1, 0) }
    } else if (masked) {
        LOOP_PAINTS(0, 0, 0, 1)
    } else {
        LOOP_PAINTS(0, 0, 0, 0)
    }
}

/// `BODY(PAINT, CLIPPED, SIMPLE, RAMP)` for a fill with its border over it (`it`, `il`, `clipped`
/// in scope), its variant chosen: the paint (an image's, never fused, as solid), its clips,
/// whether both rectangles are simple around one centre, and the ramp's kind: UNIT when it is
/// known to be RAMP_UNIT_BETWEEN (a simple gradient's two stops at 0 and 1), FLAT when it is
/// RAMP_UNIT_BETWEEN_FLAT (those stops of one alpha too), ANY when the loops read the item's own.
#define BORDERED_GRADIENT(BODY, PAINT) \
    if (clipped) { BODY(PAINT, 1, 0, ANY) } \
    else if (il->simplePair && il->gradient.ramp == RAMP_UNIT && il->gradient.between && it->stops[0] == 0.0f) { \
        if (it->stopColors[3] == it->stopColors[7]) { BODY(PAINT, 0, 1, FLAT) } else { BODY(PAINT, 0, 1, UNIT) } } \
    else if (il->simplePair) { BODY(PAINT, 0, 1, ANY) } \
    else { BODY(PAINT, 0, 0, ANY) }
#define BORDERED_VARIANTS(BODY) \
    switch (it->paint) { \
    case STRATA_PAINT_AXIAL: BORDERED_GRADIENT(BODY, STRATA_PAINT_AXIAL) break; \
    case STRATA_PAINT_RADIAL: BORDERED_GRADIENT(BODY, STRATA_PAINT_RADIAL) break; \
    default: \
        if (clipped) { BODY(STRATA_PAINT_SOLID, 1, 0, ANY) } else if (il->simplePair) { BODY(STRATA_PAINT_SOLID, 0, 1, ANY) } \
        else { BODY(STRATA_PAINT_SOLID, 0, 0, ANY) } \
        break; \
    }
#define STRATA_RAMP_UNIT RAMP_UNIT_BETWEEN
#define STRATA_RAMP_FLAT RAMP_UNIT_BETWEEN_FLAT
#define STRATA_RAMP_ANY RAMP_OF_ITEM

#undef LOOP
#undef LOOP_PAINTS
#undef LOOP_PAINTS_SIMPLE

void FN(strata_draw_span)(const strata_item *it, float *tile, long stride, long plane, int tileX, int tileY,
                          int y, int x0, int x1, strata_span_mode mode, const float *mask) {
    if (x1 <= x0) return;
    FN(rowmaps) maps;
    FN(itemLanes) il;
    FN(prepareDraw)(it, &maps, &il);
    FN(prepareRow)(&maps, it, y);
    FN(segment)(it, &il, &maps, tile, stride, plane, tileX, tileY, y, x0, x1, mode, mask);
}

/// Row y's columns of an item within its region (y0 ≤ y < y1): the pixels its outline may touch
/// (sx0 ..< sx1) and its interior run (ia ..< ib, empty when none), from the spans computed for
/// the frame when given, else from `setup`. False when the row has none.
INLINE int FN(rowColumns)(const strata_rows *rows, const strata_row_setup *setup, const int32_t *spans, int spansY0, int y,
                          int *sx0, int *sx1, int *ia, int *ib) {
    int a = rows->x0, b = rows->x1;
    if (spans) {
        // The item's spans of this row, clipped to the tile's columns.
        const int32_t *o = spans + 4 * (long)(y - spansY0);
        a = o[0] > a ? o[0] : a; b = o[1] < b ? o[1] : b;
        if (a >= b) return 0;
        *ia = o[2] > a ? o[2] : a; *ib = o[3] < b ? o[3] : b;
    } else {
        if (rows->hasOutline && !strata_quad_span_fast(setup, y, &a, &b)) return 0;
        if (a >= b) return 0;
        if (!(rows->hasInterior && strata_interior_columns_fast(setup, &rows->interior, y, a, b, ia, ib))) { *ia = a; *ib = a; }
    }
    *sx0 = a; *sx1 = b;
    return 1;
}

/// Blended interiors start and end on a multiple of ALIGN pixels (tile-relative, where the loops'
/// steps start): the pixels cut off go to the full path's steps next to them, which compute them
/// anyway, and give the same bytes there (coverage exactly 1 in a run). Saves the step each
/// boundary would otherwise take twice.
INLINE void FN(alignInterior)(int tileX, int *ia, int *ib) {
    *ia = tileX + ((*ia - tileX + ALIGN - 1) & ~(ALIGN - 1));
    *ib = tileX + ((*ib - tileX) & ~(ALIGN - 1));
}

/// A sprite's outline edges, four lanes of doubles (one an edge, as strata_prepare_rows orders
/// them: y0 ≤ y1), for FN(spriteSpan).
typedef double FN(vd4) __attribute__((ext_vector_type(4)));
typedef int64_t FN(vl4) __attribute__((ext_vector_type(4)));
typedef struct {
    FN(vd4) ex0, ex1, ey0, ey1, slope;
    FN(vl4) sloped;  // y1 > y0
} FN(spriteEdges);

INLINE FN(spriteEdges) FN(spriteEdgesOf)(const strata_quad *q) {
    FN(spriteEdges) e;
    for (int i = 0; i < 4; i++) {
        const int j = (i + 1) & 3;
        double x0 = q->xs[i], y0 = q->ys[i], x1 = q->xs[j], y1 = q->ys[j];
        if (y0 > y1) { double t = x0; x0 = x1; x1 = t; t = y0; y0 = y1; y1 = t; }
        e.ex0[i] = x0; e.ex1[i] = x1; e.ey0[i] = y0; e.ey1[i] = y1;
        e.slope[i] = y1 > y0 ? (x1 - x0) / (y1 - y0) : 0;
        e.sloped[i] = y1 > y0 ? -1 : 0;
    }
    return e;
}

/// The columns of row y within lo ..< hi the outline may touch: strata_quad_span_fast's
/// formula (rows y − 1 … y + 2 of each edge, one pixel of margin) with the four edges in lanes,
/// a few operations a row where the edge-by-edge loop took some sixty instructions. Only which
/// pixels a step visits depends on it (those outside the outline have coverage 0 and are left
/// as they are), not their bytes. False when the row has none.
INLINE int FN(spriteSpan)(const FN(spriteEdges) *e, int y, int *lo, int *hi) {
    typedef FN(vd4) vd4;
    typedef FN(vl4) vl4;
    const vd4 top = (double)y - 1, bottom = (double)y + 2;
    const vl4 meets = (vl4)(!(e->ey1 < top) & !(e->ey0 > bottom));
    const vd4 ya = SEL(e->ey0 > top, e->ey0, top), yb = SEL(e->ey1 < bottom, e->ey1, bottom);
    const vd4 xa = SEL(e->sloped, e->ex0 + e->slope * (ya - e->ey0), e->ex0);
    const vd4 xb = SEL(e->sloped, e->ex0 + e->slope * (yb - e->ey0), e->ex1);
    const vd4 mn = SEL(meets, SEL(xa < xb, xa, xb), (vd4)__builtin_inf()), mx = SEL(meets, SEL(xa > xb, xa, xb), (vd4)-__builtin_inf());
    const double m01 = mn[0] < mn[1] ? mn[0] : mn[1], m23 = mn[2] < mn[3] ? mn[2] : mn[3];
    const double n01 = mx[0] > mx[1] ? mx[0] : mx[1], n23 = mx[2] > mx[3] ? mx[2] : mx[3];
    const double minX = m01 < m23 ? m01 : m23, maxX = n01 > n23 ? n01 : n23;
    if (!(minX <= maxX)) return 0;
    const double fa = __builtin_floor(minX > -1e15 ? minX : -1e15), fb = __builtin_ceil(maxX < 1e15 ? maxX : 1e15);
    const long a = (long)fa - 1, b = (long)fb + 1;
    const int l = a < *lo ? *lo : (int)a, h = b > *hi ? *hi : (int)b;
    if (l >= h) return 0;
    *lo = l; *hi = h;
    return 1;
}

/// A sprite's rows (strata_item.sprite): each row one run over the outline's columns, from its
/// first pixel, without the split into edges and interior — a particle's rows are a few steps
/// long, and the split made one or two more of them. Each step: the item's coverage (its
/// destination's: a sprite has no cell or clip), FN(spriteSample), times the colour with the
/// opacity over 65280 (one product made per draw call; the sample is in units of 1/65280) and
/// the coverage, added saturating or blended source-over. `simple`, `additive`: constant flags
/// (FN(spriteRows)).
INLINE void FN(spriteRowsOf)(const strata_item *restrict it, const FN(itemLanes) *restrict il, FN(rowmaps) *restrict maps,
                             float *restrict tile, long stride, long plane, int tileX, int tileY, const strata_rows *rows,
                             const strata_row_setup *setup, const int32_t *spans, int spansY0,
                             const int simple, const int additive, const int padded) {
    const FN(spriteLanes) sl = FN(spriteLanesOf)(&il->sampler, it->spriteTexels);
    const FN(rrectLanes) shape = il->shape;
    const int aa = il->aa;
    vf color[4];
    for (int c = 0; c < 4; c++) color[c] = (il->modulated ? it->modulate[c] * it->opacity : it->opacity) / 65280.0f;
    // Without spans computed for the frame (a sprite has none: SpanKernel.rowSpanCount), the
    // columns come from the outline row by row.
    const int own = !spans && rows->hasOutline;
    FN(spriteEdges) edges;
    if (own) edges = FN(spriteEdgesOf)(&rows->outline);
    for (int y = rows->y0; y < rows->y1; y++) {
        int sx0 = rows->x0, sx1 = rows->x1, ia, ib;
        if (own) {
            if (!FN(spriteSpan)(&edges, y, &sx0, &sx1)) continue;
        } else if (!FN(rowColumns)(rows, setup, spans, spansY0, y, &sx0, &sx1, &ia, &ib)) {
            continue;
        }
        FN(prepareRow)(maps, it, y);
        const FN(rowmap) rm = maps->item;
        float *row = tile + (long)(y - tileY) * stride;
        float *R = row, *G = row + plane, *B = row + 2 * plane, *A = row + 3 * plane;
        const int lx0 = sx0 - tileX, lx1 = sx1 - tileX;
        // From the first pixel, reaching at most LANES − 1 past the run (STRATA_SPAN_TAIL); sixteen
        // lanes start on multiples of ALIGN, as FN(loop)'s steps do.
        const int k0 = LANES > 8 ? lx0 & ~(ALIGN - 1) : lx0;
        vf X = FN(tof)(IOTA + (tileX + k0)) + 0.5f;
        for (int k = k0; k < lx1; k += LANES, X += (float)LANES) {
            const vi lx = IOTA + k;
            const FN(sample) p = FN(mapAffine)(&rm, X);
            vf cov = simple ? FN(rrectSimpleAt)(&shape, &p) : FN(rrect)(&shape, &p, aa, rm.similar);
            cov = SEL((lx >= lx0) & (lx < lx1), cov, (vf)0.0f);
            const vi live = cov > 0;
            if (!FN(any)(live)) continue;
            vf sr, sg, sb, sa;
            if (padded) FN(spriteSamplePadded)(&sl, p.u, p.v, &sr, &sg, &sb, &sa);
            else FN(spriteSample)(&sl, p.u, p.v, &sr, &sg, &sb, &sa);
            sr = sr * color[0] * cov; sg = sg * color[1] * cov; sb = sb * color[2] * cov; sa = sa * color[3] * cov;
            const vf dr = FN(load)(R + k), dg = FN(load)(G + k), db = FN(load)(B + k), da = FN(load)(A + k);
            if (additive) {
                const vf nr = sr + dr, ng = sg + dg, nb = sb + db, na = sa + da;
                FN(store)(R + k, SEL(live, SEL(nr > 1.0f, (vf)1.0f, nr), dr));
                FN(store)(G + k, SEL(live, SEL(ng > 1.0f, (vf)1.0f, ng), dg));
                FN(store)(B + k, SEL(live, SEL(nb > 1.0f, (vf)1.0f, nb), db));
                FN(store)(A + k, SEL(live, SEL(na > 1.0f, (vf)1.0f, na), da));
            } else {
                const vf keep = 1.0f - sa;
                FN(store)(R + k, SEL(live, sr + dr * keep, dr));
                FN(store)(G + k, SEL(live, sg + dg * keep, dg));
                FN(store)(B + k, SEL(live, sb + db * keep, db));
                FN(store)(A + k, SEL(live, sa + da * keep, da));
            }
        }
    }
}

/// FN(spriteRowsOf) with its flags as constants (one specialised loop each).
static void FN(spriteRows)(const strata_item *it, const FN(itemLanes) *il, FN(rowmaps) *maps, float *tile, long stride, long plane,
                           int tileX, int tileY, const strata_rows *rows, const strata_row_setup *setup, const int32_t *spans,
                           int spansY0) {
#define SPRITE(SIMPLE, ADDITIVE, PADDED) \
    FN(spriteRowsOf)(it, il, maps, tile, stride, plane, tileX, tileY, rows, setup, spans, spansY0, SIMPLE, ADDITIVE, PADDED)
    if (it->spriteTexels) {
        if (il->simple) { if (it->additive) SPRITE(1, 1, 1); else SPRITE(1, 0, 1); }
        else { if (it->additive) SPRITE(0, 1, 1); else SPRITE(0, 0, 1); }
    } else {
        if (il->simple) { if (it->additive) SPRITE(1, 1, 0); else SPRITE(1, 0, 0); }
        else { if (it->additive) SPRITE(0, 1, 0); else SPRITE(0, 0, 0); }
    }
#undef SPRITE
}

/// Whether FN(spriteRows) draws `it` (what strata_item.sprite promises, checked).
INLINE int FN(drawsSprite)(const strata_item *it, const FN(itemLanes) *il, const FN(rowmaps) *maps, const strata_rows *rows) {
    return it->sprite && it->paint == STRATA_PAINT_IMAGE && it->cover == STRATA_COVER_IMAGE && !it->hasClip && maps->clipCount == 0
        && maps->item.affine && !rows->hole && !il->nearest && !il->blend && !il->tinted
        && it->cell[0] == -__builtin_inff() && it->cell[1] == __builtin_inff() && it->cell[2] == -__builtin_inff() && it->cell[3] == __builtin_inff();
}

/// Whether `it` is a sprite FN(spriteRows) draws, from the item alone (FN(drawsSprite) before
/// anything is prepared: the map's affinity is the item's).
INLINE int FN(isPlainSprite)(const strata_item *it, const strata_rows *rows) {
    return it->sprite && it->paint == STRATA_PAINT_IMAGE && it->cover == STRATA_COVER_IMAGE && !it->hasClip && it->clipCount == 0
        && it->map.affine && !rows->hole && !it->nearest && !(it->blendWeight > 0) && !it->hasTint
        && it->cell[0] == -__builtin_inff() && it->cell[1] == __builtin_inff() && it->cell[2] == -__builtin_inff() && it->cell[3] == __builtin_inff();
}

void FN(strata_draw_rows)(const strata_item *it, float *tile, long stride, long plane, int tileX, int tileY,
                          const strata_rows *rows, const int32_t *spans, int spansY0) {
    FN(rowmaps) maps;
    FN(itemLanes) il;
    if (FN(isPlainSprite)(it, rows)) {
        // Only what a sprite's rows read (FN(spriteRowsOf)): its map, sampler and rectangle, the
        // same values FN(prepareDraw) makes. (All of it — a gradient's lanes, the clips', the
        // second sampler's — is made at one draw call per particle and tile: 4.7 M of a 20 000
        // particle frame's 530 M instructions.)
        maps.item = FN(prepare)(&it->map);
        maps.clipCount = 0;
        maps.t0 = maps.t1 = 0;
        il.sampler = it->image;
        FN(rrectLanesOf)(&it->shape, &maps.item, it->general, &il.shape);
        il.aa = it->antialiased;
        il.modulated = it->hasModulate;
        il.nearest = 0; il.blend = 0; il.tinted = 0;
        il.simple = il.aa && maps.item.similar && FN(rrectIsSimple)(&il.shape);
        strata_row_setup setup;
        if (!spans && !rows->hasOutline) strata_prepare_rows(rows, &setup);
        FN(spriteRows)(it, &il, &maps, tile, stride, plane, tileX, tileY, rows, &setup, spans, spansY0);
        return;
    }
    FN(prepareDraw)(it, &maps, &il);
    strata_row_setup setup;
    if (FN(drawsSprite)(it, &il, &maps, rows)) {
        // (Without spans it finds its columns itself, from the outline.)
        if (!spans && !rows->hasOutline) strata_prepare_rows(rows, &setup);
        FN(spriteRows)(it, &il, &maps, tile, stride, plane, tileX, tileY, rows, &setup, spans, spansY0);
        return;
    }
    if (!spans) strata_prepare_rows(rows, &setup);
    for (int y = rows->y0; y < rows->y1; y++) {
        int sx0, sx1, ia, ib;
        if (!FN(rowColumns)(rows, &setup, spans, spansY0, y, &sx0, &sx1, &ia, &ib)) continue;
        FN(prepareRow)(&maps, it, y);
        if (ia < ib && rows->interiorMode == STRATA_SPAN_INTERIOR && !rows->hole) FN(alignInterior)(tileX, &ia, &ib);
        if (ia >= ib) {
            FN(segment)(it, &il, &maps, tile, stride, plane, tileX, tileY, y, sx0, sx1, STRATA_SPAN_FULL, 0);
            continue;
        }
        // (Empty edge runs are not called for: a fill's rows inside the tile's columns, such as
        // a background's, have none.)
        if (sx0 < ia) FN(segment)(it, &il, &maps, tile, stride, plane, tileX, tileY, y, sx0, ia, STRATA_SPAN_FULL, 0);
        if (!rows->hole) FN(segment)(it, &il, &maps, tile, stride, plane, tileX, tileY, y, ia, ib, rows->interiorMode, 0);
        if (ib < sx1) FN(segment)(it, &il, &maps, tile, stride, plane, tileX, tileY, y, ib, sx1, STRATA_SPAN_FULL, 0);
    }
}

/// Rows of a fill with its border over it (FN(stepBordered)) in one variant of the item (paint,
/// clips, simple pair): per row the fused steps over the fill's and the border's edges, and the
/// fill's interior within the border's hole, where the fill's coverage is exactly 1 and the
/// border's 0 — the fill alone, as FN(strata_draw_rows) draws interiors, in `mode` (FN(segment)'s
/// loop for the paint when plain). The variant is chosen once for all the rows (measured: choosing
/// it for each row was 1.8 M instructions of a motion frame).
INLINE void FN(borderedRows)(const strata_item *fill, const FN(itemLanes) *il, FN(rowmaps) *maps, float *tile, long stride,
                             long plane, int tileX, int tileY, const strata_rows *fillRows, const strata_row_setup *fillSetup,
                             const int32_t *fillSpans, int fillSpansY0, const strata_rows *borderRows,
                             const strata_row_setup *borderSetup, const int32_t *borderSpans, int borderSpansY0,
                             const int paint, const int clipped, const int simple, const int fixedRamp) {
    const strata_span_mode mode = fillRows->interiorMode;
    // The interior without clips is FN(segment)'s INTERIOR loop for the paint; other interiors
    // (replaced, clipped, an image's) go through FN(segment).
    const int plain = mode == STRATA_SPAN_INTERIOR && !clipped &&
                      (fill->paint == STRATA_PAINT_SOLID || fill->paint == STRATA_PAINT_AXIAL || fill->paint == STRATA_PAINT_RADIAL);
    const int y0 = fillRows->y0 < borderRows->y0 ? fillRows->y0 : borderRows->y0;
    const int y1 = fillRows->y1 > borderRows->y1 ? fillRows->y1 : borderRows->y1;
    for (int y = y0; y < y1; y++) {
        int fx0, fx1, fa, fb, bx0, bx1, ha, hb;
        const int fillRow = y >= fillRows->y0 && y < fillRows->y1 &&
                            FN(rowColumns)(fillRows, fillSetup, fillSpans, fillSpansY0, y, &fx0, &fx1, &fa, &fb);
        const int borderRow = y >= borderRows->y0 && y < borderRows->y1 &&
                              FN(rowColumns)(borderRows, borderSetup, borderSpans, borderSpansY0, y, &bx0, &bx1, &ha, &hb);
        if (!fillRow && !borderRow) continue;
        if (!fillRow) { fx0 = fx1 = fa = fb = bx0; }
        if (!borderRow) { bx0 = bx1 = fx0; ha = INT32_MIN; hb = INT32_MAX; }
        const int ux0 = fx0 < bx0 ? fx0 : bx0, ux1 = fx1 > bx1 ? fx1 : bx1;
        FN(prepareRow)(maps, fill, y);
        int ma = fa > ha ? fa : ha, mb = fb < hb ? fb : hb;
        // A plain interior's steps start at its first pixel as the edges' do (FN(loopBordered)):
        // each run takes the fewest steps, the interior's cheap last one partial. Others keep
        // the aligned ends FN(segment)'s loops expect.
        if (ma < mb && mode == STRATA_SPAN_INTERIOR && !plain) FN(alignInterior)(tileX, &ma, &mb);
        if (plain && ma < mb && (mb - ma) % LANES != 0) {
            // The interior's last step would be partial: its r pixels go to an edge run instead
            // when that takes no more steps for them (its own last step has room), so the row
            // makes one step fewer. (Inside the hole, the fused step gives them the bytes the
            // interior's would: the fill's coverage is exactly 1 there and the border's 0.)
            const int r = (mb - ma) % LANES, left = ma - ux0, right = ux1 - mb;
            if (left > 0 && (left + r + LANES - 1) / LANES == (left + LANES - 1) / LANES) ma += r;
            else if (right > 0 && (right + r + LANES - 1) / LANES == (right + LANES - 1) / LANES) mb -= r;
        }
        if (ma >= mb) {
            if (ux0 < ux1) {
                FN(loopBordered)(fill, il, maps, tile, stride, plane, tileX, tileY, y, ux0, ux1, paint, clipped, simple, fixedRamp);
            }
            continue;
        }
        if (ux0 < ma) {
            FN(loopBordered)(fill, il, maps, tile, stride, plane, tileX, tileY, y, ux0, ma, paint, clipped, simple, fixedRamp);
        }
        if (plain) FN(loop)(fill, il, maps, tile, stride, plane, tileX, tileY, y, ma, mb, 0, 0, 0, paint, 0, 0, 0, 0, fixedRamp, 1);
        else FN(segment)(fill, il, maps, tile, stride, plane, tileX, tileY, y, ma, mb, mode, 0);
        if (mb < ux1) {
            FN(loopBordered)(fill, il, maps, tile, stride, plane, tileX, tileY, y, mb, ux1, paint, clipped, simple, fixedRamp);
        }
    }
}

/// FN(borderedRows) of each variant, a function of its own (inlined together into one, their
/// loops were allocated registers worse: more instructions than choosing the variant per row).
#define BORDERED_ROWS_FN(PAINT, CLIPPED, SIMPLE, RAMP) \
    static __attribute__((noinline)) void FN(borderedRows_##PAINT##_##CLIPPED##_##SIMPLE##_##RAMP)( \
        const strata_item *fill, const FN(itemLanes) *il, FN(rowmaps) *maps, float *tile, long stride, long plane, int tileX, \
        int tileY, const strata_rows *fillRows, const strata_row_setup *fillSetup, const int32_t *fillSpans, int fillSpansY0, \
        const strata_rows *borderRows, const strata_row_setup *borderSetup, const int32_t *borderSpans, int borderSpansY0) { \
        FN(borderedRows)(fill, il, maps, tile, stride, plane, tileX, tileY, fillRows, fillSetup, fillSpans, fillSpansY0, borderRows, \
                         borderSetup, borderSpans, borderSpansY0, PAINT, CLIPPED, SIMPLE, STRATA_RAMP_##RAMP); \
    }
/// The variants BORDERED_GRADIENT chooses among for a gradient paint.
#define BORDERED_GRADIENT_ROWS_FNS(PAINT) \
    BORDERED_ROWS_FN(PAINT, 0, 0, ANY) \
    BORDERED_ROWS_FN(PAINT, 0, 1, ANY) \
    BORDERED_ROWS_FN(PAINT, 0, 1, UNIT) \
    BORDERED_ROWS_FN(PAINT, 0, 1, FLAT) \
    BORDERED_ROWS_FN(PAINT, 1, 0, ANY)
BORDERED_ROWS_FN(STRATA_PAINT_SOLID, 0, 0, ANY)
BORDERED_ROWS_FN(STRATA_PAINT_SOLID, 0, 1, ANY)
BORDERED_ROWS_FN(STRATA_PAINT_SOLID, 1, 0, ANY)
BORDERED_GRADIENT_ROWS_FNS(STRATA_PAINT_AXIAL)
BORDERED_GRADIENT_ROWS_FNS(STRATA_PAINT_RADIAL)
#undef BORDERED_GRADIENT_ROWS_FNS
#undef BORDERED_ROWS_FN

void FN(strata_draw_rows_bordered)(const strata_item *fill, const strata_item *border, float *tile, long stride, long plane,
                                   int tileX, int tileY, const strata_rows *fillRows, const int32_t *fillSpans, int fillSpansY0,
                                   const strata_rows *borderRows, const int32_t *borderSpans, int borderSpansY0) {
    FN(rowmaps) maps;
    FN(itemLanes) lanes;
    FN(prepareDraw)(fill, &maps, &lanes);
    FN(rrectLanesOf)(&border->inner, &maps.item, fill->general, &lanes.border);
    for (int i = 0; i < 4; i++) lanes.borderColor[i] = border->color[i];
    lanes.simplePair = lanes.aa && maps.item.similar && FN(rrectIsSimple)(&lanes.shape) && FN(rrectIsSimple)(&lanes.border) &&
                       memcmp(&fill->shape.cu, &border->inner.cu, sizeof fill->shape.cu) == 0 &&
                       memcmp(&fill->shape.cv, &border->inner.cv, sizeof fill->shape.cv) == 0;
    strata_row_setup fillSetup, borderSetup;
    if (!fillSpans) strata_prepare_rows(fillRows, &fillSetup);
    if (!borderSpans) strata_prepare_rows(borderRows, &borderSetup);
    // (BORDERED_VARIANTS reads `it`, `il` and `clipped`.)
    const strata_item *it = fill;
    const FN(itemLanes) *il = &lanes;
    const int clipped = maps.clipCount > 0;
#define BORDERED_ROWS(PAINT, CLIPPED, SIMPLE, RAMP) \
    FN(borderedRows_##PAINT##_##CLIPPED##_##SIMPLE##_##RAMP)(fill, il, &maps, tile, stride, plane, tileX, tileY, fillRows, &fillSetup, fillSpans, \
                                                     fillSpansY0, borderRows, &borderSetup, borderSpans, borderSpansY0);
    BORDERED_VARIANTS(BORDERED_ROWS)
#undef BORDERED_ROWS
}
#undef BORDERED_VARIANTS
#undef BORDERED_GRADIENT
#undef STRATA_RAMP_UNIT
#undef STRATA_RAMP_FLAT
#undef STRATA_RAMP_ANY

/// FN(loop)'s steps for a solid colour through a mask and nothing else (no clips, coverage or map)
/// over pixels x0 ..< x1 of row y: FN(step)'s arithmetic for them, operation for operation (the
/// same bytes; a whole step's lanes are the segment's, so one test of the lanes serves every step),
/// without the map, dither and step bounds FN(loop) sets up for each row of a shape or of glyphs.
INLINE void FN(solidMaskedRow)(const vf colour[4], float *restrict tile, long stride, long plane, int tileX, int tileY, int y,
                               int x0, int x1, const float *restrict mask) {
    float *row = tile + (long)(y - tileY) * stride;
    float *R = row, *G = row + plane, *B = row + 2 * plane, *A = row + 3 * plane;
    const int lx0 = x0 - tileX, lx1 = x1 - tileX;
    const vf cr = colour[0], cg = colour[1], cb = colour[2], ca = colour[3];
    // From the first pixel, as FN(loopBordered)'s steps (a stroke's rows are runs of a few pixels),
    // so only the last step has lanes past the run. A lane whose coverage is 0 (or past the run,
    // where it is made 0) is blended too, without a select: s = 0 and keep = 1 give d·1 + 0, d
    // itself (a NaN or ±∞ stays what it was; a −0 would turn +0, the same byte and the same
    // value to every later blend).
    for (int k = lx0; k < lx1; k += LANES) {
        const vi lx = IOTA + k;
        const vf cov = (vf)1.0f * FN(load)(mask + k);
        const vi live = (lx < lx1) & (cov > 0);
        if (!FN(any)(live)) continue;
        const vf c = SEL(live, cov, (vf)0.0f);
        const vf sr = cr * c, sg = cg * c, sb = cb * c, sa = ca * c, keep = 1.0f - sa;
        FN(store)(R + k, sr + FN(load)(R + k) * keep);
        FN(store)(G + k, sg + FN(load)(G + k) * keep);
        FN(store)(B + k, sb + FN(load)(B + k) * keep);
        FN(store)(A + k, sa + FN(load)(A + k) * keep);
    }
}

/// FN(segment) through a mask for an item of one solid colour (`solid` 1, or 2 when clipped; 0: the
/// item's paint is another, FN(segment) decides): the loop FN(segment) would pick, without its
/// dispatch and call for each row of a shape or of glyphs.
INLINE void FN(maskedSegment)(const strata_item *it, const FN(itemLanes) *il, const FN(rowmaps) *maps, float *tile, long stride,
                              long plane, int tileX, int tileY, int y, int x0, int x1, const float *mask, const int solid,
                              const vf colour[4]) {
    if (x1 <= x0) return;
    if (solid == 0) {
        FN(segment)(it, il, maps, tile, stride, plane, tileX, tileY, y, x0, x1, STRATA_SPAN_INTERIOR, mask);
    } else if (solid == 1 && !it->general) {
        // (The general code takes FN(loop)'s steps: the tests compare the two.)
        FN(solidMaskedRow)(colour, tile, stride, plane, tileX, tileY, y, x0, x1, mask);
    } else {
        FN(loop)(it, il, maps, tile, stride, plane, tileX, tileY, y, x0, x1, mask, 0, 0, STRATA_PAINT_SOLID, solid == 2, 1, 0, 0, RAMP_OF_ITEM, 1);
    }
}

/// The `solid` argument of FN(maskedSegment) for an item.
INLINE int FN(solidKind)(const strata_item *it, const FN(rowmaps) *maps) {
    return it->paint != STRATA_PAINT_SOLID ? 0 : maps->clipCount > 0 ? 2 : 1;
}

/// FN(prepareRow) before FN(maskedSegment) draws row y: a solid colour without clips (`solid` 1)
/// maps no coordinates, and its rows need none.
INLINE void FN(prepareMaskedRow)(FN(rowmaps) *maps, const strata_item *it, int y, const int solid) {
    if (solid != 1) FN(prepareRow)(maps, it, y);
}

/// FN(strata_draw_strips)'s rows, `solid` as FN(maskedSegment)'s.
INLINE void FN(stripRows)(const strata_item *it, const FN(itemLanes) *il, FN(rowmaps) *maps, float *tile, long stride, long plane,
                          int tileX, int tileY, const strata_strip *strips, const float *alpha, const int32_t *rowTable,
                          int32_t covX, int32_t covY, int32_t rows, int x0, int y0, int x1, int y1, float *scratch,
                          const int solid) {
    const int ya = y0 > covY ? y0 : covY, yb = y1 < covY + rows ? y1 : covY + rows;
    const int32_t *rowLo = rowTable + rows + 1, *rowHi = rowLo + rows;
    // The item's colour as lanes, once (FN(solidMaskedRow); the tile's stores could alias the item).
    const vf colour[4] = { it->color[0], it->color[1], it->color[2], it->color[3] };
    const int cx0 = x0 - covX, cx1 = x1 - covX;
    for (int y = ya; y < yb; y++) {
        // Rows whose coverage lies left or right of these pixels (a shape crossing several tiles
        // meets most of their rows elsewhere) would give an empty mask: passed over in a loop of
        // their own.
        while (y < yb && (rowHi[y - covY] <= cx0 || rowLo[y - covY] >= cx1)) y++;
        if (y == yb) break;
        const int r = y - covY;
        int first, end;
        long offset;
        const float *mask = scratch;
        if (strata_strips_row_single(strips, rowTable, r, x0 - covX, x1 - covX, &offset, &first, &end)) {
            // The strip's values are the mask as they lie (mask[x − tileX] is column x's): no copy.
            // The steps read up to LANES − 1 values either side of them, which the sink's padding
            // (STRATA_STRIP_ALPHA_PAD) holds, and leave those lanes out. (Integer arithmetic: the
            // base itself may lie outside the values.)
            mask = (const float *)((uintptr_t)alpha + (uintptr_t)(offset + tileX - covX) * sizeof *alpha);
        } else {
            strata_strips_row_mask(strips, alpha, rowTable, r, x0 - covX, x1 - covX, scratch + (x0 - tileX), &first, &end);
        }
        if (first >= end) continue;
        FN(prepareMaskedRow)(maps, it, y, solid);
        FN(maskedSegment)(it, il, maps, tile, stride, plane, tileX, tileY, y, first + covX, end + covX, mask, solid, colour);
    }
}

void FN(strata_draw_strips)(const strata_item *it, float *tile, long stride, long plane, int tileX, int tileY,
                            const strata_strip *strips, const float *alpha, const int32_t *rowTable, int32_t covX, int32_t covY,
                            int32_t rows, int x0, int y0, int x1, int y1, float *scratch) {
    FN(rowmaps) maps;
    FN(itemLanes) il;
    FN(prepareDraw)(it, &maps, &il);
#define ROWS(SOLID) FN(stripRows)(it, &il, &maps, tile, stride, plane, tileX, tileY, strips, alpha, rowTable, covX, covY, rows, \
                                  x0, y0, x1, y1, scratch, SOLID)
    switch (FN(solidKind)(it, &maps)) {
    case 1: ROWS(1); break;
    case 2: ROWS(2); break;
    default: ROWS(0); break;
    }
#undef ROWS
}

/// to[i] += from[i] for i < n: a glyph's mask row into the row being gathered (separate arrays, so
/// LANES at a time; the sums are the scalar ones). The last, partial step is a whole one whose
/// lanes past n keep `to`'s values: it reads up to LANES − 1 floats past both rows and writes
/// those of `to` back as they were (STRATA_GLYPH_TAIL: the masks and the scratch row have them).
/// A step a glyph row instead of up to seven scalar additions, glyphs being a few pixels wide.
INLINE void FN(addRow)(float *restrict to, const float *restrict from, int n) {
    int i = 0;
    for (; i + LANES <= n; i += LANES) FN(store)(to + i, FN(load)(to + i) + FN(load)(from + i));
    if (i < n) {
        const vf t = FN(load)(to + i);
        FN(store)(to + i, SEL(IOTA < n - i, t + FN(load)(from + i), t));
    }
}

/// FN(strata_draw_glyphs) for glyphs `sel[0 ..< n]` (each meeting the pixels x0 ..< x1), rows
/// ya ..< yb. Row by row, the glyphs' mask rows are gathered into one mask (`scratch`,
/// tile-relative) over the columns ga ..< gb and drawn by one segment, instead of one segment a
/// glyph row, each with its set-up. A glyph joins the mask unless it has coverage at a pixel
/// where the mask already has some: there the glyphs must be blended one after the other, so the
/// mask is drawn first. Elsewhere one of the two is 0 at every pixel, and a pixel of coverage 0
/// is left alone, so each pixel meets the same blends in the same order as glyph by glyph.
INLINE void FN(glyphRows)(const strata_item *it, const FN(itemLanes) *il, FN(rowmaps) *maps, float *tile, long stride,
                          long plane, int tileX, int tileY, const strata_glyph *const *sel, int n, int x0, int x1, int ya,
                          int yb, float *scratch, const int solid) {
    // The item's colour as lanes, once (FN(solidMaskedRow); the tile's stores could alias the item).
    const vf colour[4] = { it->color[0], it->color[1], it->color[2], it->color[3] };
    for (int y = ya; y < yb; y++) {
        int ga = 0, gb = 0, prepared = 0;
        for (int g = 0; g < n; g++) {
            const strata_glyph *gl = sel[g];
            if (y < gl->y || y >= gl->y + gl->h) continue;
            const int gx0 = gl->x > x0 ? gl->x : x0, gx1 = gl->x + gl->w < x1 ? gl->x + gl->w : x1;
            const float *row = gl->mask + (long)(y - gl->y) * gl->w;
            const int rx = gl->x;  // row[x − rx] and scratch[x − tileX] are pixel x's
            if (ga < gb) {
                const int oa = gx0 > ga ? gx0 : ga, ob = gx1 < gb ? gx1 : gb;
                int clash = 0;
                for (int x = oa; x < ob && !clash; x++) clash = scratch[x - tileX] != 0 && row[x - rx] != 0;
                if (clash) {
                    if (!prepared) { FN(prepareMaskedRow)(maps, it, y, solid); prepared = 1; }
                    FN(maskedSegment)(it, il, maps, tile, stride, plane, tileX, tileY, y, ga, gb, scratch, solid, colour);
                    ga = gb = 0;
                }
            }
            if (ga == gb) {
                memcpy(scratch + (gx0 - tileX), row + (gx0 - rx), (size_t)(gx1 - gx0) * sizeof *row);
                ga = gx0; gb = gx1;
                continue;
            }
            // Columns new to the mask start at 0; the glyph's coverage goes where it has some.
            const int na = gx0 < ga ? gx0 : ga, nb = gx1 > gb ? gx1 : gb;
            for (int x = na; x < ga; x++) scratch[x - tileX] = 0;
            // Columns gb ..< nb a step at a time: those past nb are not the mask's (STRATA_GLYPH_TAIL
            // room), and a later glyph clears them again before it uses them.
            for (int x = gb; x < nb; x += LANES) FN(store)(scratch + (x - tileX), (vf)0.0f);
            // At every pixel here one of the two is 0 (no clash, and the new columns were just
            // cleared), so their sum is the one with coverage, exactly (a −0 left for +0 gives
            // coverage 0 all the same): added, not chosen by a branch a pixel, which pixels have
            // coverage following no pattern (the AVX2 and SSE2 code branched, and callgrind's
            // branch simulation missed about one pixel in four).
            FN(addRow)(scratch + (gx0 - tileX), row + (gx0 - rx), gx1 - gx0);
            ga = na; gb = nb;
        }
        if (ga < gb) {
            if (!prepared) FN(prepareMaskedRow)(maps, it, y, solid);
            FN(maskedSegment)(it, il, maps, tile, stride, plane, tileX, tileY, y, ga, gb, scratch, solid, colour);
        }
    }
}

void FN(strata_draw_glyphs)(const strata_item *it, float *tile, long stride, long plane, int tileX, int tileY,
                            const strata_glyph *glyphs, long count, int x0, int y0, int x1, int y1, float *scratch) {
    FN(rowmaps) maps;
    FN(itemLanes) il;
    FN(prepareDraw)(it, &maps, &il);
    // The glyphs meeting these pixels, in their order, up to a chunk at a time (a later chunk's
    // glyphs are drawn after an earlier one's, as they would be one by one).
    enum { CHUNK = 256 };
    const strata_glyph *sel[CHUNK];
    for (long g = 0; g < count;) {
        int n = 0, ya = y1, yb = y0;
        for (; g < count && n < CHUNK; g++) {
            const strata_glyph *gl = &glyphs[g];
            const int gy0 = gl->y > y0 ? gl->y : y0, gy1 = gl->y + gl->h < y1 ? gl->y + gl->h : y1;
            if (gy0 >= gy1 || gl->x >= x1 || gl->x + gl->w <= x0) continue;
            sel[n++] = gl;
            ya = gy0 < ya ? gy0 : ya; yb = gy1 > yb ? gy1 : yb;
        }
        switch (FN(solidKind)(it, &maps)) {
        case 1: FN(glyphRows)(it, &il, &maps, tile, stride, plane, tileX, tileY, sel, n, x0, x1, ya, yb, scratch, 1); break;
        case 2: FN(glyphRows)(it, &il, &maps, tile, stride, plane, tileX, tileY, sel, n, x0, x1, ya, yb, scratch, 2); break;
        default: FN(glyphRows)(it, &il, &maps, tile, stride, plane, tileX, tileY, sel, n, x0, x1, ya, yb, scratch, 0); break;
        }
    }
}
