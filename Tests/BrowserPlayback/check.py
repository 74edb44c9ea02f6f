# Compares what headless Chromium decoded (result.json from page.html) with the frames Strata
# rendered itself (PNG stills): per sample point and channel, the mean absolute difference must
# stay within the tolerance of lossy 4:2:0 coding, which a wrong colour matrix (BT.601 vs the
# BT.709 the files are tagged with), a wrong range or a frame off by one would exceed.
# Usage: check.py RESULT.json WORKDIR FPS FRAME… (stills are WORKDIR/still_FRAME.png)
import json
import subprocess
import sys

MEAN_TOLERANCE = 6.0   # levels, averaged over all points and channels of a frame
POINT_TOLERANCE = 32   # levels, any single channel of any point

result_path, work, fps = sys.argv[1], sys.argv[2], float(sys.argv[3])
frames = [int(k) for k in sys.argv[4:]]
data = json.load(open(result_path))
if "error" in data:
    sys.exit(f"FAIL: the browser reported: {data['error']}")
print(f"browser: {data['userAgent']}")


def still(k):
    raw = subprocess.run(["ffmpeg", "-v", "error", "-i", f"{work}/still_{k}.png", "-f", "rawvideo",
                          "-pix_fmt", "rgba", "-"], check=True, capture_output=True).stdout
    return raw


failed = False
for video in data["results"]:
    print(f"{video['src']}: {video['width']}x{video['height']}, duration {video['duration']:.3f} s")
    for frame, k in zip(video["frames"], frames):
        expected = still(k)
        width = video["width"]
        diffs = []
        for p in frame["points"]:
            i = (p["y"] * width + p["x"]) * 4
            diffs += [abs(p["rgba"][c] - expected[i + c]) for c in range(3)]
        mean, worst = sum(diffs) / len(diffs), max(diffs)
        # The presented frame's timestamp (requestVideoFrameCallback), when the browser gives one.
        media_time = frame.get("mediaTime")
        right_frame = media_time is None or abs(media_time - k / fps) < 0.5 / fps
        ok = mean <= MEAN_TOLERANCE and worst <= POINT_TOLERANCE and right_frame
        failed |= not ok
        shown = "?" if media_time is None else f"{media_time:.4f}"
        print(f"  seek {frame['t']:.4f} s -> frame at {shown} s (expected frame {k} at {k / fps:.4f} s): "
              f"mean |Δ| {mean:.2f}, max |Δ| {worst} over {len(frame['points'])} points -> {'ok' if ok else 'FAIL'}")
sys.exit(1 if failed else 0)
