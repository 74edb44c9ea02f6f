#!/usr/bin/env python3
"""Cross-checks Strata's Lottie frames against ThorVG and rlottie (run by lottie-check.sh).

For every Lottie file given, renders every frame with Strata (`strata render FILE -o DIR/`, PNGs),
ThorVG (thorvg-python) and rlottie (rlottie-python), composites each over white and prints the
mean SSIM (luma, 7×7 windows) of Strata against each, and of ThorVG against rlottie (how much the
two references agree with each other), plus the worst frame.
"""
import ctypes, json, os, subprocess, sys, tempfile
import numpy as np
from PIL import Image

def over_white(rgba_premultiplied):
    a = rgba_premultiplied[..., 3:4].astype(np.float64) / 255
    return rgba_premultiplied[..., :3].astype(np.float64) + (1 - a) * 255

def luma(rgb):
    return rgb @ np.array([0.2126, 0.7152, 0.0722])

def box(x, k=7):
    # Mean over k×k windows (valid region) by summed-area tables.
    c = np.cumsum(np.cumsum(np.pad(x, ((1, 0), (1, 0))), 0), 1)
    return (c[k:, k:] - c[:-k, k:] - c[k:, :-k] + c[:-k, :-k]) / (k * k)

def ssim(a, b):
    a, b = luma(a), luma(b)
    c1, c2 = (0.01 * 255) ** 2, (0.03 * 255) ** 2
    ma, mb = box(a), box(b)
    va, vb, cov = box(a * a) - ma * ma, box(b * b) - mb * mb, box(a * b) - ma * mb
    s = ((2 * ma * mb + c1) * (2 * cov + c2)) / ((ma * ma + mb * mb + c1) * (va + vb + c2))
    return float(s.mean())

def strata_frames(strata, path, folder, indexes, scale):
    subprocess.run([strata, "render", path, "-o", folder + "/", "--scale", str(scale)], check=True, capture_output=True, timeout=600)
    out = []
    for i in indexes:
        im = np.asarray(Image.open(os.path.join(folder, f"frame_{i:05d}.png")).convert("RGBA")).astype(np.float64)
        a = im[..., 3:4] / 255
        out.append(im[..., :3] * a + (1 - a) * 255)   # PNGs are unpremultiplied
    return out

def thorvg_frames(path, w, h, frames):
    import thorvg_python as tvg
    engine = tvg.Engine()
    engine.init(1)
    # Text layers: ThorVG draws them only in fonts loaded into it, each known by its file's name
    # ("DejaVuSans" for DejaVuSans.ttf), which a document's font name ("f") must match.
    for font in filter(None, os.environ.get("LOTTIE_CHECK_FONTS", "").split(":")):
        tvg.Text(engine).font_load(font)
    canvas = tvg.SwCanvas(engine)
    canvas.set_target(w, h)   # ABGR8888: bytes R, G, B, A, premultiplied
    anim = tvg.LottieAnimation(engine)
    pic = anim.get_picture()
    pic.load(os.path.abspath(path))
    pic.set_size(w, h)
    canvas.add(pic)
    out = []
    for f in frames:
        anim.set_frame(f)
        canvas.update(); canvas.draw(True); canvas.sync()
        buf = np.frombuffer(bytes(canvas.buffer_arr), dtype=np.uint8).reshape(h, w, 4)
        out.append(over_white(buf))
    return out

def rlottie_frames(path, w, h, frames):
    from rlottie_python import LottieAnimation
    anim = LottieAnimation.from_file(path)
    out = []
    for f in frames:
        buf = np.frombuffer(anim.lottie_animation_render(frame_num=int(f), width=w, height=h), dtype=np.uint8).reshape(h, w, 4)
        out.append(over_white(buf[..., [2, 1, 0, 3]]))   # BGRA premultiplied
    return out

def main():
    # Each file is checked in a child process: ThorVG or rlottie crashing on a file (it
    # happens) is reported for that file and the run goes on.
    if sys.argv[1] != "--one":
        strata, files = sys.argv[1], sys.argv[2:]
        print(f"{'file':<28} {'frames':>6} {'Strata~ThorVG':>14} {'Strata~rlottie':>15} {'ThorVG~rlottie':>15}  worst (Strata~ThorVG)", flush=True)
        worse = []
        for path in files:
            r = subprocess.run([sys.executable, __file__, "--one", strata, path], capture_output=True, text=True)
            if r.returncode < 0:
                print(f"{os.path.basename(path)[:28]:<28} a reference renderer crashed (signal {-r.returncode})", flush=True)
            else:
                line = r.stdout.rstrip("\n")
                print(line or f"{os.path.basename(path)[:28]:<28} failed: {r.stderr.strip()[-100:]}", flush=True)
                # Strata further from each reference than the two are from each other, by more
                # than WORSE_MARGIN (default 0.001) on both: the files a conformance note must explain.
                fields = line.split()
                try:
                    st, sr, tr = (float(x) for x in fields[-6:-3])
                except (ValueError, IndexError):
                    continue
                margin = float(os.environ.get("LOTTIE_CHECK_WORSE_MARGIN", "0.001"))
                if st < tr - margin and sr < tr - margin:
                    worse.append(f"{os.path.basename(path)} ({st:.4f}, {sr:.4f} against their {tr:.4f})")
        if len(files) > 1:
            print(f"worse than both references by more than the margin: {len(worse)}" + "".join(f"\n  {w}" for w in worse))
        return
    strata, files = sys.argv[2], sys.argv[3:]
    # Large files are compared at most LOTTIE_CHECK_SIZE pixels on their longer side, at
    # LOTTIE_CHECK_SAMPLES frames spread evenly (0: every frame).
    size = int(os.environ.get("LOTTIE_CHECK_SIZE", "256"))
    samples = int(os.environ.get("LOTTIE_CHECK_SAMPLES", "0"))
    for path in files:
        name = os.path.basename(path)[:28]
        try:
            doc = json.load(open(path))
            w0, h0, ip, op = doc["w"], doc["h"], doc["ip"], doc["op"]
        except Exception as e:
            print(f"{name:<28} unreadable: {e}")
            continue
        scale = min(1.0, size / max(w0, h0))
        w, h = round(w0 * scale), round(h0 * scale)
        count = int(op - ip)
        indexes = list(range(count)) if samples <= 0 or samples >= count else [round(i * (count - 1) / (samples - 1)) for i in range(samples)]
        frames = [ip + i for i in indexes]
        with tempfile.TemporaryDirectory() as tmp:
            try:
                s = strata_frames(strata, path, tmp, indexes, scale)
            except subprocess.CalledProcessError as e:
                print(f"{name:<28} strata failed: {e.stderr.decode().strip().splitlines()[-1][:100]}")
                continue
            except subprocess.TimeoutExpired:
                print(f"{name:<28} strata timed out")
                continue
        if s[0].shape[:2] != (h, w):
            h, w = s[0].shape[:2]
        # ThorVG's and rlottie's frame numbers count from the in point.
        t = thorvg_frames(path, w, h, indexes)
        r = rlottie_frames(path, w, h, indexes)
        st = [ssim(a, b) for a, b in zip(s, t)]
        sr = [ssim(a, b) for a, b in zip(s, r)]
        tr = [ssim(a, b) for a, b in zip(t, r)]
        worst = int(np.argmin(st))
        print(f"{name:<28} {len(frames):>6} {np.mean(st):>14.4f} {np.mean(sr):>15.4f} {np.mean(tr):>15.4f}  frame {frames[worst]}: {st[worst]:.4f}")

main()
