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

now() { python3 -c 'import time; print(time.monotonic())'; }
best_strata=0; best_ffmpeg=0
for run in $(seq 1 "$RUNS"); do
  t0=$(now)
  "$STRATA" render --size "$SIZE" --fps $FPS --duration "$SECONDS_LONG" --crf 18 --preset medium -o "$WORK/strata.mp4" > /dev/null
  t1=$(now)
  ffmpeg -v error -y -f rawvideo -pix_fmt rgba -s "$SIZE" -r $FPS -i "$WORK/frames.rgba" \
    -vf "scale=flags=bicubic+accurate_rnd+full_chroma_inp+bitexact:out_color_matrix=bt709:out_range=tv,format=yuv420p" \
    -c:v libx264 -preset medium -crf 18 -g $((2 * FPS)) -color_primaries bt709 -color_trc bt709 -colorspace bt709 \
    -color_range tv -movflags +faststart "$WORK/ffmpeg.mp4"
  t2=$(now)
  s=$(python3 -c "print($FRAMES / ($t1 - $t0))"); f=$(python3 -c "print($FRAMES / ($t2 - $t1))")
  printf 'run %d: strata %.1f frames/s, ffmpeg %.1f frames/s, ratio %.3f\n' "$run" "$s" "$f" "$(python3 -c "print($s / $f)")"
  best_strata=$(python3 -c "print(max($best_strata, $s))"); best_ffmpeg=$(python3 -c "print(max($best_ffmpeg, $f))")
done
printf 'best of %d: strata %.1f frames/s, ffmpeg %.1f frames/s, ratio %.3f (%s, %d frames, %s)\n' "$RUNS" \
  "$best_strata" "$best_ffmpeg" "$(python3 -c "print($best_strata / $best_ffmpeg)")" "$SIZE" "$FRAMES" "$(nproc) cores"
ls -l "$WORK"/*.mp4 | awk '{print $5, $9}'
if [ -n "${ENCODER_ONLY:-}" ]; then
  (cd "$ROOT" && swift build -c release --build-tests -Xswiftc -enable-testing >&2)
  BIN="$(cd "$ROOT" && swift build -c release --show-bin-path)"
  for run in $(seq 1 "$RUNS"); do
    STRATA_RAW_FRAMES="$WORK/frames.rgba" STRATA_RAW_SIZE="$SIZE" "$BIN/StrataPackageTests.xctest" \
      StrataMediaTests.EncoderThroughputProbe/testEncodeRawFrames 2>&1 | grep ENCODER-ONLY
  done
fi
