#!/usr/bin/env python3
"""Peers for StrataBench 'particles' (issue 49): the same sprites, drawn at 1920x1080 by
skia-python's Canvas.drawAtlas and by Blend2D blits (blend2d-python), single-threaded, from the
particles StrataBench wrote with --dump (position, scale, turn, colour of every particle of each
measured frame). The sprite is StrataBench's 32x32 soft dot; each particle is drawn centred on its
position, scaled and turned, its colour multiplying the sprite, added to the frame (plus) over
a black background, as Strata's additive emitter does.

Skia: one drawAtlas call a frame (RSXforms, per-sprite colours with BlendMode.kModulate, a kPlus
paint, bilinear sampling); its arguments are built before the clock starts.
Blend2D: blend2d-python has no per-blit colour, so each particle is blitted with its alpha as
the global alpha and the sprite pre-tinted to the particle's colour picked from 16 tints made
before the clock starts (the pixels' work is the same; the colour is approximate). Each blit is
five calls through Python (save, transform, alpha, blit, restore): the binding's own cost is
measured by the same calls with the clip set to an empty rectangle and printed beside it.

usage: particles_peers.py --particles FILE [--runs 3] [--lib skia|blend2d|both] [--save PREFIX]
Prints median ms/frame for each peer.
"""
import argparse
import math
import statistics
import struct
import time


def read_particles(path):
    with open(path, "rb") as f:
        data = f.read()
    n = len(data) // 4
    values = struct.unpack("<%df" % n, data)
    frames = []
    i = 1
    for _ in range(int(values[0])):
        count = int(values[i])
        i += 1
        frames.append([values[i + 9 * k:i + 9 * k + 9] for k in range(count)])
        i += 9 * count
    return frames


def dot_pixels(size=32):
    """StrataBench's benchDot: premultiplied grey levels a = f^2 * 255 (RGBA all equal)."""
    c = size / 2
    px = []
    for y in range(size):
        for x in range(size):
            dx, dy = x + 0.5 - c, y + 0.5 - c
            f = max(0.0, 1 - math.sqrt(dx * dx + dy * dy) / c)
            px.append(int(round(f * f * 255)))
    return px


def skia_peer(frames, runs, save):
    import skia
    import numpy as np
    px = dot_pixels()
    arr = np.array([[v, v, v, v] for v in px], dtype=np.uint8).reshape(32, 32, 4)
    sprite = skia.Image.fromarray(arr, colorType=skia.kRGBA_8888_ColorType, alphaType=skia.kPremul_AlphaType)
    surface = skia.Surface(1920, 1080)
    canvas = surface.getCanvas()
    tex = skia.Rect.MakeWH(32, 32)
    calls = []
    for parts in frames:
        xforms, texs, colors = [], [], []
        for (x, y, s, rot, r, g, b, a, size) in parts:
            k = s * size / 32
            xforms.append(skia.RSXform.MakeFromRadians(k, rot, x, y, 16, 16))
            texs.append(tex)
            colors.append(skia.Color4f(r, g, b, a).toColor())
        calls.append((xforms, texs, colors))
    paint = skia.Paint(BlendMode=skia.BlendMode.kPlus)
    sampling = skia.SamplingOptions(skia.FilterMode.kLinear)
    per_run = []
    for _ in range(runs):
        start = time.perf_counter()
        for (xforms, texs, colors) in calls:
            canvas.clear(skia.ColorBLACK)
            canvas.drawAtlas(sprite, xforms, texs, colors, skia.BlendMode.kModulate, sampling, None, paint)
            surface.flushAndSubmit()
        per_run.append((time.perf_counter() - start) / len(calls) * 1000)
    if save:
        surface.makeImageSnapshot().save(save + "-skia.png")
    return statistics.median(per_run), "skia-python %s drawAtlas" % skia.__version__


def blend2d_peer(frames, runs, save):
    import blend2d as B
    px = dot_pixels()
    # 16 tints (hue steps of the benchmark's colour range: r 1, g 0.4…0.8 straight, b 0.3).
    tints = []
    for i in range(16):
        g = 0.4 + 0.4 * i / 15
        im = B.BLImage(32, 32, B.BLFormat.PRGB32)
        c = B.BLContext(im)
        c.comp_op = B.BLCompOp.SRC_COPY
        for y in range(32):
            for x in range(32):
                v = px[y * 32 + x] / 255
                c.set_fill_style((1.0 * v, g * v, 0.3 * v, v))
                c.fill_rect(B.BLRect(x, y, 1, 1))
        c.flush()
        tints.append(im)
    img = B.BLImage(1920, 1080, B.BLFormat.PRGB32)
    ctx = B.BLContext(img)
    calls = []
    for parts in frames:
        ops = []
        for (x, y, s, rot, r, g, b, a, size) in parts:
            k = s * size / 32
            co, si = math.cos(rot) * k, math.sin(rot) * k
            m = B.Matrix2D(co, si, -si, co, x, y)
            t = tints[min(15, max(0, int(round((g - 0.4) / 0.4 * 15))))]
            ops.append((m, a, t))
        calls.append(ops)
    rect = B.BLRect(-16, -16, 32, 32)

    def run(clip_empty):
        start = time.perf_counter()
        for ops in calls:
            ctx.comp_op = B.BLCompOp.SRC_COPY
            ctx.set_fill_style((0.0, 0.0, 0.0, 1.0))
            ctx.fill_all()
            ctx.comp_op = B.BLCompOp.PLUS
            if clip_empty:
                ctx.save()
                ctx.clip_to_rect(B.BLRect(0, 0, 0, 0))
            for (m, a, t) in ops:
                ctx.save()
                ctx.transform(m)
                ctx.global_alpha = a
                ctx.blit_image(rect, t)
                ctx.restore()
            if clip_empty:
                ctx.restore()
            ctx.flush()
        return (time.perf_counter() - start) / len(calls) * 1000

    per_run = [run(False) for _ in range(runs)]
    overhead = statistics.median([run(True) for _ in range(runs)])
    if save:
        run(False)
        img.writeToFile(save + "-blend2d.png")
    import importlib.metadata as md
    ver = "blend2d-python %s (Blend2D %s) blits" % (md.version("blend2d-python"), ".".join(map(str, B.BL_VERSION)))
    return statistics.median(per_run), ver, overhead


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--particles", required=True)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--lib", default="both", choices=["skia", "blend2d", "both"])
    ap.add_argument("--save", default=None)
    args = ap.parse_args()
    frames = read_particles(args.particles)
    live = statistics.median(len(f) for f in frames)
    if args.lib in ("skia", "both"):
        ms, ver = skia_peer(frames, args.runs, args.save)
        print("particles live=%d additive 1920x1080 %s: %.1f ms/frame (%d frames, median of %d runs)"
              % (live, ver, ms, len(frames), args.runs))
    if args.lib in ("blend2d", "both"):
        ms, ver, overhead = blend2d_peer(frames, args.runs, args.save)
        print("particles live=%d additive 1920x1080 %s: %.1f ms/frame; the same calls with nothing drawn %.1f ms "
              "(Python binding), so %.1f ms drawing" % (live, ver, ms, overhead, ms - overhead))


if __name__ == "__main__":
    main()
