#!/usr/bin/env bash
# GIF: Strata's encoder against FFmpeg's two-pass palettegen/paletteuse on three clips rendered
# by Strata at 640×360, 30 fps, 3 s (a flat UI animation, a gradient-heavy title, a noisy video
# in a rounded, 3D-turned player layer; see GIFBenchmarkClips in Tests/StrataTests). Both get the
# very same frames: Strata in memory (its encode time is measured in process), FFmpeg as raw
# RGBA from a file. FFmpeg variants: dither sierra2_4a with a global palette, and the same with
# stats_mode=diff + diff_mode=rectangle. Reported: bytes, mean SSIM and PSNR of the decoded GIF
# (FFmpeg's GIF decoder) against the source frames (FFmpeg's ssim/psnr filters, RGB), encode time.
#
#   Benchmarks/media/gif_vs_ffmpeg.sh [WORKDIR]
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
DIR="${1:-$(mktemp -d)}"
mkdir -p "$DIR"
export PATH="/opt/swift/usr/bin:$PATH"
if [ -z "${SKIP_STRATA:-}" ]; then
  (cd "$ROOT" && STRATA_GIF_BENCH_DIR="$DIR" swift test -c release -Xswiftc -enable-testing ${SCRATCH_PATH:+--scratch-path "$SCRATCH_PATH"} \
    --filter GIFBenchmarkClips/testWriteGIFBenchmarkClips >&2)
fi
now() { python3 -c 'import time; print(time.monotonic())'; }
IN=(-f rawvideo -pix_fmt rgba -s 640x360 -r 30)
for clip in flat-ui gradient-title video-layer; do
  src="$DIR/$clip.rgba"
  t0=$(now)
  ffmpeg -v error -y "${IN[@]}" -i "$src" -vf "format=rgb24,palettegen" "$DIR/$clip.pal.png"
  ffmpeg -v error -y "${IN[@]}" -i "$src" -i "$DIR/$clip.pal.png" -lavfi "[0:v]format=rgb24[x];[x][1:v]paletteuse=dither=sierra2_4a" "$DIR/$clip.ffmpeg.gif"
  t1=$(now)
  ffmpeg -v error -y "${IN[@]}" -i "$src" -vf "format=rgb24,palettegen=stats_mode=diff" "$DIR/$clip.paldiff.png"
  ffmpeg -v error -y "${IN[@]}" -i "$src" -i "$DIR/$clip.paldiff.png" -lavfi "[0:v]format=rgb24[x];[x][1:v]paletteuse=dither=sierra2_4a:diff_mode=rectangle" "$DIR/$clip.ffmpeg-diff.gif"
  t2=$(now)
  python3 - "$DIR" "$clip" "$t0" "$t1" "$t2" <<'PY' >> "$DIR/ffmpeg_times.txt"
import sys
d, clip, t0, t1, t2 = sys.argv[1], sys.argv[2], *map(float, sys.argv[3:])
print(f"{clip}.ffmpeg {t1 - t0:.3f}")
print(f"{clip}.ffmpeg-diff {t2 - t1:.3f}")
PY
done

python3 - "$DIR" <<'PY'
import json, os, re, subprocess, sys
d = sys.argv[1]
strata = json.load(open(f"{d}/strata_times.json"))
ffmpeg_times = {}
for line in open(f"{d}/ffmpeg_times.txt"):
    k, v = line.split(); ffmpeg_times[k] = float(v)

def metrics(gif, src):
    # The GIF decoded to raw frames first (one per GIF frame, whatever its delay), so that both
    # inputs of ssim/psnr are plain 30 fps streams and frame n meets frame n.
    raw = gif + ".rgba"
    subprocess.run(["ffmpeg", "-v", "error", "-y", "-i", gif, "-fps_mode", "passthrough", "-f", "rawvideo",
                    "-pix_fmt", "rgba", raw], check=True)
    frames = os.path.getsize(raw) // (640 * 360 * 4)
    graph = "[0:v]format=gbrp[g];[1:v]format=gbrp[s];[g]split[g1][g2];[s]split[s1][s2];[g1][s1]ssim;[g2][s2]psnr"
    raw_in = ["-f", "rawvideo", "-pix_fmt", "rgba", "-s", "640x360", "-r", "30", "-i"]
    out = subprocess.run(["ffmpeg", "-hide_banner"] + raw_in + [raw] + raw_in + [src] + ["-lavfi", graph, "-f", "null", "-"],
                         capture_output=True, text=True).stderr
    os.remove(raw)
    ssim = float(re.search(r"SSIM .*All:([0-9.]+)", out).group(1))
    psnr = re.search(r"PSNR .*average:([0-9.inf]+)", out).group(1)
    return ssim, float(psnr), frames

print(f"{'clip':15} {'encoder':13} {'bytes':>9} {'SSIM':>9} {'PSNR dB':>8} {'time s':>7} {'frames':>6}")
for clip in ["flat-ui", "gradient-title", "video-layer"]:
    for enc in ["strata", "strata-size", "ffmpeg", "ffmpeg-diff"]:
        gif = f"{d}/{clip}.{enc}.gif"
        ssim, psnr, frames = metrics(gif, f"{d}/{clip}.rgba")
        t = strata["seconds"].get(f"{clip}.{enc}") or ffmpeg_times.get(f"{clip}.{enc}")
        print(f"{clip:15} {enc:13} {os.path.getsize(gif):9d} {ssim:9.6f} {psnr:8.2f} {t:7.2f} {frames:6d}")
PY
