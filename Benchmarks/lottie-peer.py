#!/usr/bin/env python3
"""The peers of Benchmarks/lottie-speed.sh: a Lottie file's frames drawn by ThorVG (thorvg-python)
or rlottie (rlottie-python) into a W×H canvas, the animation fitted into it (aspect ratio kept,
centred), as `strata render --size WxH` does.

  lottie-peer.py time   thorvg|rlottie FILE W H FRAMES [THREADS]
      prints "MS" — milliseconds per frame of drawing alone (the file loaded, each frame drawn
      into its buffer and nothing else; the best of 3 passes over the frames)
  lottie-peer.py frames thorvg|rlottie FILE W H FRAMES [THREADS]
      writes every frame to standard output as raw video (ThorVG: rgba; rlottie: bgra; both
      premultiplied, which over black is what an opaque video shows), for `ffmpeg -f rawvideo`

ThorVG draws with THREADS worker threads (default 2: the machine's cores); rlottie on one.
"""
import os, sys, time


def fitted(path, w, h):
    import json
    doc = json.load(open(path))
    s = min(w / doc["w"], h / doc["h"])
    fw, fh = round(doc["w"] * s), round(doc["h"] * s)
    return fw, fh, (w - fw) // 2, (h - fh) // 2


class ThorVG:
    pixel_format = "rgba"

    def __init__(self, path, w, h, threads):
        import thorvg_python as tvg
        self.engine = tvg.Engine()
        self.engine.init(threads)
        self.canvas = tvg.SwCanvas(self.engine)
        self.canvas.set_target(w, h)   # ABGR8888: bytes R, G, B, A, premultiplied
        self.anim = tvg.LottieAnimation(self.engine)
        pic = self.anim.get_picture()
        pic.load(os.path.abspath(path))
        fw, fh, x, y = fitted(path, w, h)
        pic.set_size(fw, fh)
        pic.translate(x, y)
        self.canvas.add(pic)

    def draw(self, frame):
        self.anim.set_frame(frame)
        self.canvas.update()
        self.canvas.draw(True)
        self.canvas.sync()

    def pixels(self):
        return memoryview(self.canvas.buffer_arr).cast("B")


class Rlottie:
    pixel_format = "bgra"

    def __init__(self, path, w, h, threads):
        from rlottie_python import LottieAnimation
        self.anim = LottieAnimation.from_file(path)
        self.w, self.h = w, h
        self.fw, self.fh, self.x, self.y = fitted(path, w, h)
        self.frame = None

    def draw(self, frame):
        self.frame = self.anim.lottie_animation_render(frame_num=frame, width=self.fw, height=self.fh)

    def pixels(self):
        # rlottie draws into a buffer of the fitted size; the bars around it are added here (a
        # copy per frame, part of the pipeline's cost, not of the drawing's).
        if (self.fw, self.fh) == (self.w, self.h):
            return self.frame
        out = bytearray(self.w * self.h * 4)
        row, stride = self.fw * 4, self.w * 4
        for r in range(self.fh):
            o = (self.y + r) * stride + self.x * 4
            out[o:o + row] = self.frame[r * row:(r + 1) * row]
        return out


def main():
    mode, lib, path = sys.argv[1], sys.argv[2], sys.argv[3]
    w, h, frames = int(sys.argv[4]), int(sys.argv[5]), int(sys.argv[6])
    threads = int(sys.argv[7]) if len(sys.argv) > 7 else 2
    peer = {"thorvg": ThorVG, "rlottie": Rlottie}[lib](path, w, h, threads)
    if mode == "format":
        print(peer.pixel_format)
    elif mode == "time":
        best = float("inf")
        for _ in range(3):
            start = time.perf_counter()
            for f in range(frames):
                peer.draw(f)
            best = min(best, (time.perf_counter() - start) * 1000 / frames)
        print(f"{best:.2f}")
    elif mode == "frames":
        out = sys.stdout.buffer
        for f in range(frames):
            peer.draw(f)
            out.write(peer.pixels())
        out.flush()
    else:
        sys.exit(f"unknown mode {mode}")


main()
