#!/usr/bin/env bash
# The whole export against the pipeline a user would build instead (issue 49 §3): the standard
# motion scene at 1920×1080, 60 fps, 120 frames, to H.264 (x264 veryfast, CRF 18, one keyframe).
#   strata   StrataBench motion-export: posing, drawing, RGB → YUV and x264 in one process
#   blend2d  Blend2D (blend2d-python) draws each frame, piped as raw BGRA into FFmpeg (swscale, x264)
#   skia     Skia (skia-python) likewise
#   x264     FFmpeg from the same frames already in YUV 4:2:0: the encoder's own CPU
# The four take turns within each round; medians over the rounds. Printed: wall seconds, frames a
# second and the throughput ratio to each pipeline, CPU seconds (user + system, of both processes
# of a pipeline), peak RSS (a pipeline's two processes added), and the CPU a frame beyond x264.
# Usage: bash Benchmarks/export-race.sh [rounds]     (default 3)
#        PEER_PYTHON=/path/to/venv/bin/python picks the Python with blend2d-python and skia-python
set -eu
cd "$(dirname "$0")/.."
source scripts/env.sh
rounds=${1:-3}
py=${PEER_PYTHON:-python3}
peers=../shared/bench/peers
if ! "$py" -c "import blend2d, skia, numpy" 2>/dev/null || [ ! -f "$peers/raster_bench.py" ]; then
  echo "skipped: the peers are not installed (bash $peers/setup.sh, or PEER_PYTHON=… with blend2d-python and skia-python)"
  exit 0
fi
touch Benchmarks/StrataBench/main.swift
swift build -c release --product StrataBench >/dev/null
bench=$PWD/.build/release/StrataBench
work=$(mktemp -d /tmp/strata-export-race.XXXXXX)
trap 'rm -rf "$work"' EXIT
frames=120
x264=(-c:v libx264 -preset veryfast -crf 18 -g 120 -color_primaries bt709 -color_trc bt709 -colorspace bt709 -color_range tv -movflags +faststart)
toYUV="scale=flags=bicubic+accurate_rnd+full_chroma_inp+bitexact:out_color_matrix=bt709:out_range=tv,format=yuv420p"
"$bench" motion-export --frames $frames --raw "$work/frames.rgba"
ffmpeg -v error -y -f rawvideo -pix_fmt rgba -s 1920x1080 -r 60 -i "$work/frames.rgba" -vf "$toYUV" -f rawvideo "$work/frames.yuv"
rm "$work/frames.rgba"

stamp() { date +%s.%N; }
# run CONFIG → appends "CONFIG wall cpu rssKiB" to $work/times
run() {
  local t0 t1
  case $1 in
    strata)
      t0=$(stamp)
      /usr/bin/time -o "$work/a" -f "%U %S %M" "$bench" motion-export --frames $frames -o "$work/strata.mp4" > /dev/null
      t1=$(stamp)
      echo "0 0 0" > "$work/b" ;;
    blend2d|skia)
      t0=$(stamp)
      /usr/bin/time -o "$work/a" -f "%U %S %M" "$py" Benchmarks/peers/motion_frames.py --lib "$1" --frames $frames --peers "$peers" 2>/dev/null \
        | /usr/bin/time -o "$work/b" -f "%U %S %M" ffmpeg -v error -y -f rawvideo -pix_fmt bgra -s 1920x1080 -r 60 -i - \
            -vf "$toYUV" "${x264[@]}" "$work/$1.mp4"
      t1=$(stamp) ;;
    x264)
      cat "$work/frames.yuv" > /dev/null
      t0=$(stamp)
      /usr/bin/time -o "$work/a" -f "%U %S %M" ffmpeg -v error -y -f rawvideo -pix_fmt yuv420p -s 1920x1080 -r 60 -i "$work/frames.yuv" \
        "${x264[@]}" "$work/x264.mp4"
      t1=$(stamp)
      echo "0 0 0" > "$work/b" ;;
  esac
  read -r au as am < "$work/a"; read -r bu bs bm < "$work/b"
  awk -v c="$1" -v t0="$t0" -v t1="$t1" -v au="$au" -v as="$as" -v am="$am" -v bu="$bu" -v bs="$bs" -v bm="$bm" \
    'BEGIN { printf "%s %.3f %.2f %d\n", c, t1 - t0, au + as + bu + bs, am + bm }' >> "$work/times"
}

echo "== export race: motion scene 1920x1080 60 fps, $frames frames, x264 veryfast CRF 18; $rounds rounds, $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg) =="
for r in $(seq 1 "$rounds"); do
  for c in strata blend2d skia x264; do run $c; done
  grep -E "^(strata|blend2d|skia|x264) " "$work/times" | tail -4 | tr '\n' ';' | sed "s/^/  round $r: /; s/;$/\n/"
done
for f in strata blend2d skia x264; do
  printf '  %-8s %s frames, ' "$f" "$(ffprobe -v error -count_frames -select_streams v -show_entries stream=nb_read_frames -of csv=p=0 "$work/$f.mp4")"
  stat -c '%s bytes' "$work/$f.mp4"
done
python3 - "$work/times" $frames <<'PY'
import statistics, sys
rows = {}
for line in open(sys.argv[1]):
    c, wall, cpu, rss = line.split()
    rows.setdefault(c, []).append((float(wall), float(cpu), int(rss)))
frames = int(sys.argv[2])
med = lambda c, i: statistics.median(r[i] for r in rows[c])
x264cpu = med("x264", 1)
for c, label in (("strata", "Strata export"), ("blend2d", "Blend2D | FFmpeg"), ("skia", "Skia | FFmpeg"), ("x264", "x264 alone (from YUV)")):
    wall, cpu, rss = med(c, 0), med(c, 1), med(c, 2)
    beyond = "" if c == "x264" else f", {(cpu - x264cpu) / frames * 1000:5.1f} ms CPU a frame beyond x264"
    print(f"  {label:24} {wall:6.2f} s {frames / wall:5.1f} frames/s  CPU {cpu:6.2f} s  peak RSS {rss / 1024:5.0f} MiB{beyond}")
for peer in ("blend2d", "skia"):
    within = statistics.median(p[0] / s[0] for s, p in zip(rows["strata"], rows[peer]))
    print(f"  throughput Strata ÷ {peer} pipeline: {med(peer, 0) / med('strata', 0):.2f} (medians; within rounds {within:.2f}), "
          f"peak RSS Strata ÷ {peer}: {med('strata', 2) / med(peer, 2):.2f}")
PY
