#!/usr/bin/env python3
"""Peer for StrataBench 'images': 100 images (10 sprites of 200x150) drawn with per-frame
rotate/scale/alpha at 1920x1080 by skia-python, single-threaded. Same poses as
Benchmarks/StrataBench/LayerBenchmarks.swift imagePose(). Prints median ms/frame.

usage: images_skia.py [--frames 60] [--runs 3] [--save out.png]
"""
import argparse, math, statistics, time
import skia


def sprite(i):
    s = skia.Surface(200, 150)
    c = s.getCanvas()
    c.clear(skia.ColorTRANSPARENT)
    h = i / 10
    col1 = skia.Color4f(0.9 - h * 0.6, 0.3 + h * 0.5, 0.5, 1)
    col2 = skia.Color4f(0.2, 0.4, 0.9 - h * 0.5, 1)
    paint = skia.Paint(AntiAlias=True, Shader=skia.GradientShader.MakeLinear(
        [skia.Point(0, 0), skia.Point(200, 150)], [col1.toColor(), col2.toColor()]))
    c.drawRRect(skia.RRect.MakeRectXY(skia.Rect.MakeWH(200, 150), 18, 18), paint)
    c.drawCircle(145, 75, 45, skia.Paint(AntiAlias=True, Color4f=skia.Color4f(1, 0.9, 0.3, 0.9)))
    return s.makeImageSnapshot()


def pose(i, t):
    col, row = i % 10, i // 10
    return (96 + col * 192, 54 + row * 108, 0.03 * t + i * 0.37,
            0.8 + 0.3 * math.sin(0.05 * t + i), 0.55 + 0.4 * math.sin(0.04 * t + i * 0.5))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--frames", type=int, default=60)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--save")
    a = ap.parse_args()
    sprites = [sprite(i) for i in range(10)]
    surface = skia.Surface(1920, 1080)
    canvas = surface.getCanvas()
    sampling = skia.SamplingOptions(skia.FilterMode.kLinear)
    times = []
    for _ in range(a.runs):
        t0 = time.perf_counter()
        for t in range(a.frames):
            canvas.clear(skia.ColorWHITE)
            for i in range(100):
                x, y, ang, sc, al = pose(i, t)
                canvas.save()
                canvas.translate(x, y)
                canvas.rotate(math.degrees(ang))
                canvas.scale(sc, sc)
                paint = skia.Paint(AntiAlias=True, Alphaf=al)
                canvas.drawImage(sprites[i % 10], -100, -75, sampling, paint)
                canvas.restore()
            surface.flushAndSubmit()
        times.append((time.perf_counter() - t0) / a.frames * 1000)
    m = statistics.median(times)
    print("images skia-python 1920x1080: %.1f ms/frame (%.1f fps), runs min %.1f max %.1f ms" % (m, 1000 / m, min(times), max(times)))
    if a.save:
        surface.makeImageSnapshot().save(a.save)


if __name__ == "__main__":
    main()
