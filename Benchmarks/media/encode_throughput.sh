#!/usr/bin/env bash
# Render+encode throughput of `strata render` against FFmpeg alone encoding the same frames with
# the same settings, measured in one run. Strata renders the built-in demo and encodes it
# (libx264, CRF 18, preset medium, yuv420p, BT.709, a keyframe every 2 s) with rendering and
# encoding running concurrently. The peer is `ffmpeg` reading the very same frames as raw RGBA
# from a file (kept in the page cache) and doing the same RGB→BT.709 conversion (bicubic,
# accurate rounding, full chroma input, bit-exact: what Strata's encoder asks of swscale) and
# the same libx264 encode. Ratio = Strata frames/s ÷ FFmpeg frames/s (goal ≥ 0.9).
#
#   Benchmarks/media/encode_throughput.sh [WIDTHxHEIGHT] [SECONDS] [RUNS]
#   STRATA=/path/to/release/strata Benchmarks/media/encode_throughput.sh 1280x720 5 3
#   ENCODER_ONLY=1 …   also times Strata's encoder stage alone on the same raw frames
#                      (EncoderThroughputProbe, a release test build), to separate the encoder
#                      from the renderer.
set -euo pipefail
SIZE="${1:-1280x720}"; SECONDS_LONG="${2:-5}"; RUNS="${3:-3}"; FPS=30
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
export PATH="/opt/swift/usr/bin:$PATH"
if [ -z "${STRATA:-}" ]; then
  (cd "$ROOT" && swift build -c release --product strata >&2)
  STRATA="$(cd "$ROOT" && swift build -c release --show-bin-path)/strata"
fi
WORK="$(mktemp -d)"; trap 'rm -rf "$WORK"' EXIT
FRAMES=$(python3 -c "print(round($SECONDS_LONG * $FPS))")

# The frames, once, as raw RGBA for the peer (not timed).
"$STRATA" render --size "$SIZE" --fps $FPS --duration "$SECONDS_LONG" -o "$WORK/png" > /dev/null
ffmpeg -v error -framerate $FPS -i "$WORK/png/frame_%05d.png" -f rawvideo -pix_fmt rgba "$WORK/frames.rgba"
rm -rf "$WORK/png"
cat "$WORK/frames.rgba" > /dev/null

# Runs a command; prints its wall-clock seconds and CPU seconds (user + system, children included).
timed() {
  python3 - "$@" <<'PY'
import resource, subprocess, sys, time
t = time.monotonic()
subprocess.run(sys.argv[1:], check=True, stdout=subprocess.DEVNULL)
wall = time.monotonic() - t
r = resource.getrusage(resource.RUSAGE_CHILDREN)
print(wall, r.ru_utime + r.ru_stime)
PY
}
strata_cmd=("$STRATA" render --size "$SIZE" --fps $FPS --duration "$SECONDS_LONG" --crf 18 --preset medium -o "$WORK/strata.mp4")
ffmpeg_cmd=(ffmpeg -v error -y -f rawvideo -pix_fmt rgba -s "$SIZE" -r $FPS -i "$WORK/frames.rgba"
  -vf "scale=flags=bicubic+accurate_rnd+full_chroma_inp+bitexact:out_color_matrix=bt709:out_range=tv,format=yuv420p"
  -c:v libx264 -preset medium -crf 18 -g $((2 * FPS)) -color_primaries bt709 -color_trc bt709 -colorspace bt709
  -color_range tv -movflags +faststart "$WORK/ffmpeg.mp4")
results=""
for run in $(seq 1 "$RUNS"); do
  read -r sw sc < <(timed "${strata_cmd[@]}")
  read -r fw fc < <(timed "${ffmpeg_cmd[@]}")
  printf 'run %d: strata %.1f frames/s (%.2f CPU s), ffmpeg %.1f frames/s (%.2f CPU s), ratio %.3f\n' "$run" \
    "$(python3 -c "print($FRAMES / $sw)")" "$sc" "$(python3 -c "print($FRAMES / $fw)")" "$fc" "$(python3 -c "print($fw / $sw)")"
  results="$results($sw,$sc,$fw,$fc),"
done
# On a shared machine both programs' speeds drift between runs (±25 % here); the runs are
# interleaved, so the median of the per-run ratios is the steadier figure. Best-of pairs each
# program's fastest run. CPU seconds show the work each does, whatever the machine's load.
python3 - <<PY
import statistics
r = [$results]
n = $FRAMES
print("median of %d per-run ratios: %.3f" % (len(r), statistics.median(fw / sw for sw, _, fw, _ in r)))
bs, bf = min(x[0] for x in r), min(x[2] for x in r)
print("best of %d: strata %.1f frames/s, ffmpeg %.1f frames/s, ratio %.3f ($SIZE, %d frames, $(nproc) cores)" % (len(r), n / bs, n / bf, bf / bs, n))
print("median CPU seconds: strata %.2f, ffmpeg %.2f (strata's rendering: %.1f ms of CPU a frame)" % (
    statistics.median(x[1] for x in r), statistics.median(x[3] for x in r),
    1000 * (statistics.median(x[1] for x in r) - statistics.median(x[3] for x in r)) / n))
PY
ls -l "$WORK"/*.mp4 | awk '{print $5, $9}'
if [ -n "${ENCODER_ONLY:-}" ]; then
  (cd "$ROOT" && swift build -c release --build-tests -Xswiftc -enable-testing >&2)
  BIN="$(cd "$ROOT" && swift build -c release --show-bin-path)"
  for run in $(seq 1 "$RUNS"); do
    STRATA_RAW_FRAMES="$WORK/frames.rgba" STRATA_RAW_SIZE="$SIZE" "$BIN/StrataPackageTests.xctest" \
      StrataMediaTests.EncoderThroughputProbe/testEncodeRawFrames 2>&1 | grep ENCODER-ONLY
  done
fi
