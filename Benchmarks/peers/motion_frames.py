#!/usr/bin/env python3
"""The standard motion scene (shared/bench/peers/scene.py) drawn by a peer library, frame after
frame, written to standard output as raw 1920x1080 BGRA: the drawing half of the pipeline a user
would build instead of Strata (a 2D library piped into FFmpeg). Benchmarks/export-race.sh runs it.

usage: motion_frames.py --lib blend2d|skia [--frames 120] [--peers DIR]
"""
import argparse
import os
import sys

sys.dont_write_bytecode = True


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lib", required=True, choices=["blend2d", "skia"])
    ap.add_argument("--frames", type=int, default=120)
    ap.add_argument("--peers", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../../shared/bench/peers"))
    a = ap.parse_args()
    sys.path.insert(0, os.path.abspath(a.peers))
    import raster_bench as RB

    frame, _, _, save, _ = RB.BACKENDS[a.lib]("motion")
    # The backends keep their target in the `save` closure (blend2d: `img`, skia: `surf`).
    cells = dict(zip(save.__code__.co_freevars, (c.cell_contents for c in save.__closure__)))
    out = sys.stdout.buffer
    if a.lib == "blend2d":
        img = cells["img"]
        for t in range(a.frames):
            frame(t)
            out.write(img.getDataAsNumPy().tobytes())  # PRGB32: B, G, R, A in memory (opaque frames)
    else:
        import skia
        surf = cells["surf"]
        info = skia.ImageInfo.Make(1920, 1080, skia.kBGRA_8888_ColorType, skia.kPremul_AlphaType)
        buf = bytearray(1920 * 1080 * 4)
        for t in range(a.frames):
            frame(t)
            surf.readPixels(info, buf, 1920 * 4, 0, 0)
            out.write(buf)
    out.flush()


if __name__ == "__main__":
    main()
