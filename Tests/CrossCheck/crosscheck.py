#!/usr/bin/env python3
"""Independent cross-check of Strata's CAShapeLayer strokes and fills against Skia.

Strata rasterises shapes with its own stroker and coverage rasteriser; this script draws the same scenes with skia-python (a
different rasteriser, stroker and arc-length trim: SkTrimPathEffect trims over the whole
path's length, as Core Animation's strokeStart/strokeEnd do) and reports how close the two
are, per scene: mean absolute difference per channel (0-255), PSNR over RGB, the largest
channel difference, and the share of pixels differing by more than 32 levels (edges where
the two antialiasers disagree).

Usage (from the package root):
    pip install skia-python            # once
    python3 Tests/CrossCheck/crosscheck.py [--out DIR] [--scratch-path .build-shape]

It writes DIR/scenes.json, runs the Swift test ShapeLayerTests/testCrossCheckExport (which
renders every scene with Strata into DIR/strata_<name>.png), renders DIR/skia_<name>.png,
writes DIR/diff_<name>.png and DIR/report.json, and prints a table. Exit status 1 when a scene
falls below the PSNR floor (--min-psnr, default 25 dB), 0 otherwise.
"""
import argparse
import json
import math
import os
import subprocess
import sys

import numpy as np
import skia
from PIL import Image

K = 0.5522847498307936  # cubic Bézier circle constant, as Core Graphics uses


def circle(cx, cy, r):
    """A full circle from angle 0 (rightmost point), clockwise on a y-down screen, as
    CGPath(ellipseIn:) and UIBezierPath(arcCenter:...clockwise: true) build it."""
    k = K * r
    return [["M", cx + r, cy],
            ["C", cx + r, cy + k, cx + k, cy + r, cx, cy + r],
            ["C", cx - k, cy + r, cx - r, cy + k, cx - r, cy],
            ["C", cx - r, cy - k, cx - k, cy - r, cx, cy - r],
            ["C", cx + k, cy - r, cx + r, cy - k, cx + r, cy],
            ["Z"]]


def stick_figure(dx=0.0, dy=0.0):
    p = circle(150, 100, 25)[:-1]  # the seeds' arc is an open full circle
    p += [["M", 150, 125], ["L", 150, 175], ["L", 125, 225],
          ["M", 150, 175], ["L", 175, 225], ["M", 100, 150], ["L", 200, 150]]
    return [[c[0]] + [v + (dx if i % 2 == 0 else dy) for i, v in enumerate(c[1:])] for c in p]


def star(cx, cy, r):
    pts = []
    for i in range(5):
        a = -math.pi / 2 + i * 4 * math.pi / 5
        pts.append((cx + r * math.cos(a), cy + r * math.sin(a)))
    return [["M", *pts[0]]] + [["L", *p] for p in pts[1:]] + [["Z"]]


RED, BLACK, BLUE = [1, 0, 0, 1], [0, 0, 0, 1], [0.2, 0.4, 0.8, 1]


def shape(path, fill=None, stroke=None, width=1.0, **kw):
    d = {"path": path, "fill": fill, "stroke": stroke, "lineWidth": width}
    d.update(kw)
    return d


def scenes():
    out = []
    out.append({"name": "stick_figure", "width": 300, "height": 260, "shapes": [
        shape(stick_figure(), stroke=RED, width=5, lineCap="round", lineJoin="round")]})
    caps = []
    for i, cap in enumerate(["butt", "round", "square"]):
        y = 30 + i * 40
        caps.append(shape([["M", 30, y], ["L", 130, y]], stroke=BLUE, width=20, lineCap=cap))
    for i, join in enumerate(["miter", "round", "bevel"]):
        x = 180 + i * 60
        caps.append(shape([["M", x, 60], ["L", x + 20, 20], ["L", x + 40, 60]], stroke=[0.8, 0.3, 0.1, 1], width=14, lineJoin=join))
    for i, limit in enumerate([10, 2]):
        x = 200 + i * 80
        caps.append(shape([["M", x, 200], ["L", x + 20, 120], ["L", x + 40, 200]], stroke=[0.3, 0.6, 0.2, 1], width=10, miterLimit=limit))
    caps.append(shape([["M", 40, 150], ["L", 90, 150], ["L", 90, 200], ["L", 40, 200], ["Z"]], stroke=BLACK, width=10))
    out.append({"name": "caps_joins", "width": 360, "height": 220, "shapes": caps})
    out.append({"name": "fill_rules", "width": 240, "height": 120, "shapes": [
        shape(star(60, 62, 55), fill=[0.9, 0.6, 0.1, 1], stroke=BLACK, width=2),
        shape(star(180, 62, 55), fill=[0.9, 0.6, 0.1, 1], stroke=BLACK, width=2, fillRule="evenOdd")]})
    dashes = []
    for i, phase in enumerate([0, 5, 10]):
        y = 20 + i * 20
        dashes.append(shape([["M", 20, y], ["L", 240, y]], stroke=BLACK, width=6, dash=[20, 10], phase=phase))
    dashes.append(shape(circle(70, 130, 50), stroke=[0.8, 0.1, 0.4, 1], width=6, dash=[14, 8], lineCap="round"))
    dashes.append(shape([["M", 140, 180], ["C", 160, 60, 220, 220, 240, 90]], stroke=BLUE, width=4, dash=[12, 4], phase=3))
    out.append({"name": "dashes", "width": 260, "height": 200, "shapes": dashes})
    trims = []
    for i, end in enumerate([0.3, 0.7, 1.0]):
        trims.append(shape(stick_figure(i * 140 - 80, -70), stroke=RED, width=5, lineCap="round", lineJoin="round", strokeEnd=end))
    trims.append(shape(circle(490, 90, 50), stroke=[0.1, 0.6, 0.3, 1], width=10, lineCap="round", strokeStart=0.2, strokeEnd=0.85))
    trims.append(shape([["M", 440, 200], ["C", 470, 140, 510, 260, 540, 200]], stroke=BLUE, width=8, lineCap="round", strokeStart=0.25, strokeEnd=0.9))
    out.append({"name": "stroke_start_end", "width": 560, "height": 280, "shapes": trims})
    curves = [
        shape([["M", 20, 100], ["C", 60, 0, 140, 200, 180, 100]], stroke=BLACK, width=8),
        shape([["M", 200, 40], ["Q", 300, 180, 380, 40]], stroke=RED, width=3),
        shape(circle(290, 130, 30), fill=[0.2, 0.6, 0.9, 0.7], stroke=[0, 0, 0, 0.5], width=6),
    ]
    out.append({"name": "curves", "width": 400, "height": 200, "shapes": curves})
    return out


def skia_path(cmds):
    p = skia.Path()
    for c in cmds:
        op, v = c[0], c[1:]
        if op == "M":
            p.moveTo(*v)
        elif op == "L":
            p.lineTo(*v)
        elif op == "Q":
            p.quadTo(*v)
        elif op == "C":
            p.cubicTo(*v)
        elif op == "Z":
            p.close()
    return p


def color(c):
    return skia.Color4f(c[0], c[1], c[2], c[3])


def render_skia(scene):
    surface = skia.Surface(scene["width"], scene["height"])
    canvas = surface.getCanvas()
    canvas.clear(skia.ColorWHITE)
    caps = {"butt": skia.Paint.kButt_Cap, "round": skia.Paint.kRound_Cap, "square": skia.Paint.kSquare_Cap}
    joins = {"miter": skia.Paint.kMiter_Join, "round": skia.Paint.kRound_Join, "bevel": skia.Paint.kBevel_Join}
    for s in scene["shapes"]:
        path = skia_path(s["path"])
        if s.get("fillRule") == "evenOdd":
            path.setFillType(skia.PathFillType.kEvenOdd)
        if s.get("fill"):
            paint = skia.Paint(AntiAlias=True, Color4f=color(s["fill"]), Style=skia.Paint.kFill_Style)
            canvas.drawPath(path, paint)
        if s.get("stroke"):
            paint = skia.Paint(AntiAlias=True, Color4f=color(s["stroke"]), Style=skia.Paint.kStroke_Style,
                               StrokeWidth=s.get("lineWidth", 1), StrokeCap=caps[s.get("lineCap", "butt")],
                               StrokeJoin=joins[s.get("lineJoin", "miter")], StrokeMiter=s.get("miterLimit", 10))
            start, end = s.get("strokeStart", 0), s.get("strokeEnd", 1)
            if s.get("dash"):
                paint.setPathEffect(skia.DashPathEffect.Make(s["dash"], s.get("phase", 0)))
            elif start > 0 or end < 1:
                paint.setPathEffect(skia.TrimPathEffect.Make(start, end))
            canvas.drawPath(path, paint)
    return np.array(surface.makeImageSnapshot().toarray(colorType=skia.kRGBA_8888_ColorType))


def compare(a, b):
    a = a.astype(np.int32)
    b = b.astype(np.int32)
    d = np.abs(a[..., :3] - b[..., :3])
    mse = float(np.mean(d.astype(np.float64) ** 2))
    psnr = float("inf") if mse == 0 else 10 * math.log10(255 * 255 / mse)
    per_pixel = d.max(axis=2)
    return {"meanAbsDiff": round(float(d.mean()), 3), "psnr": round(psnr, 2), "maxDiff": int(d.max()),
            "pixelsOver32": round(float((per_pixel > 32).mean() * 100), 3)}, per_pixel


def main():
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=os.path.join(root, "Tests", "CrossCheck", "out"))
    ap.add_argument("--scratch-path", default=".build-shape")
    ap.add_argument("--skip-swift", action="store_true", help="reuse strata_*.png already in --out")
    ap.add_argument("--min-psnr", type=float, default=25.0)
    args = ap.parse_args()
    out = os.path.abspath(args.out)
    os.makedirs(out, exist_ok=True)
    sc = scenes()
    with open(os.path.join(out, "scenes.json"), "w") as f:
        json.dump(sc, f, indent=1)
    if not args.skip_swift:
        env = dict(os.environ, STRATA_CROSSCHECK_DIR=out)
        cmd = ["swift", "test", "--scratch-path", args.scratch_path,
               "--filter", "StrataRenderTests.ShapeLayerTests/testCrossCheckExport"]
        r = subprocess.run(cmd, cwd=root, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if r.returncode != 0:
            sys.stdout.write(r.stdout[-4000:])
            sys.exit("the Swift export failed")
    report = {}
    failed = False
    print(f"{'scene':<18} {'mean |Δ|':>9} {'PSNR dB':>8} {'max Δ':>6} {'% px >32':>9}")
    for s in sc:
        strata = np.array(Image.open(os.path.join(out, f"strata_{s['name']}.png")).convert("RGBA"))
        sk = render_skia(s)
        Image.fromarray(sk).save(os.path.join(out, f"skia_{s['name']}.png"))
        m, per_pixel = compare(strata, sk)
        diff = np.clip(per_pixel * 4, 0, 255).astype(np.uint8)
        Image.fromarray(255 - diff).save(os.path.join(out, f"diff_{s['name']}.png"))
        report[s["name"]] = m
        failed |= m["psnr"] < args.min_psnr
        print(f"{s['name']:<18} {m['meanAbsDiff']:>9.3f} {m['psnr']:>8.2f} {m['maxDiff']:>6} {m['pixelsOver32']:>9.3f}")
    with open(os.path.join(out, "report.json"), "w") as f:
        json.dump(report, f, indent=1)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
