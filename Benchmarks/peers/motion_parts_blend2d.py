#!/usr/bin/env python3
"""Blend2D peer for `StrataBench motion --part P`: the standard motion scene of
shared/bench/peers/scene.py drawn by Blend2D (single-threaded), all of it or the white background
with one kind of its content, so that each kind's cost can be compared with Strata's in the same
run (Benchmarks/run.sh, ONLY=parts). The drawing follows the scene's definition: a 2 px stroke
centred on each rectangle's edge, 4 px round-capped strokes of the curves, DejaVu Sans 24 px text.

usage: motion_parts_blend2d.py --part all|background|rects|curves|text [--frames 30] [--runs 3]
Prints the median ms/frame over the runs.
"""
import argparse
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "shared", "bench", "peers"))
import scene as S  # noqa: E402

PARTS = ("all", "background", "rects", "curves", "text")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--part", choices=PARTS, default="all")
    ap.add_argument("--frames", type=int, default=30)
    ap.add_argument("--runs", type=int, default=3)
    a = ap.parse_args()
    import blend2d as B

    def bgra(c):  # blend2d-python reads colour tuples as (b, g, r, a)
        return (c[2], c[1], c[0], c[3])

    image = B.BLImage(S.W, S.H, B.BLFormat.PRGB32)
    ctx = B.BLContext(image)
    rects, curves = S.make_motion_scene()
    wants = lambda kind: a.part in ("all", kind)  # noqa: E731
    shapes = []
    for r in rects if wants("rects") else []:
        path = B.BLPath()
        path.add_round_rect(B.BLRect(-r.w / 2, -r.h / 2, r.w, r.h), S.CORNER)
        fill = B.create_linear_gradient(-r.w / 2, -r.h / 2, r.w / 2, r.h / 2)
        fill.add_stop(0.0, bgra(r.c1))
        fill.add_stop(1.0, bgra(r.c2))
        shapes.append((r, path, fill, bgra(r.stroke)))
    font = B.BLFont.create_new(B.BLFontFace.create_from_file(S.FONT_PATH), S.FONT_PX)

    def draw(t):
        ctx.comp_op = B.BLCompOp.SRC_COPY
        ctx.set_fill_style((1.0, 1.0, 1.0, 1.0))
        ctx.fill_all()
        ctx.comp_op = B.BLCompOp.SRC_OVER
        ctx.stroke_width = 2.0
        for r, path, fill, stroke in shapes:
            ctx.save()
            ctx.translate(r.cx, r.cy)
            ctx.rotate(S.rect_angle(r, t))
            ctx.set_fill_style(fill)
            ctx.fill_path(path)
            ctx.set_stroke_style(stroke)
            ctx.stroke_path(path)
            ctx.restore()
        ctx.stroke_width = 4.0
        ctx.set_stroke_caps(B.BLStrokeCap.CAP_ROUND)
        for curve, colour in curves if wants("curves") else []:
            x0, y0, x1, y1, x2, y2, x3, y3 = S.curve_points(curve, t)
            path = B.BLPath()
            path.move_to(x0, y0)
            path.cubic_to(x1, y1, x2, y2, x3, y3)
            ctx.set_stroke_style(bgra(colour))
            ctx.stroke_path(path)
        ctx.set_fill_style(bgra(S.TEXT_RGBA))
        for x, y, line in S.text_lines(t) if wants("text") else []:
            ctx.fill_text(B.BLPoint(x, y), font, line)
        ctx.flush()

    draw(0)  # warm-up: glyph cache, first touch of the image
    per_run = []
    for _ in range(a.runs):
        start = time.perf_counter()
        for t in range(a.frames):
            draw(t)
        per_run.append((time.perf_counter() - start) / a.frames * 1000)
    print("blend2d motion (%s) median %.2f ms/frame (runs %s)" % (a.part, statistics.median(per_run),
                                                              " ".join("%.2f" % v for v in per_run)))


if __name__ == "__main__":
    main()
