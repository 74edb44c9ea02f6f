#!/usr/bin/env bash
# Batch throughput: the lower-third template at 1920×1080, 5 s (150 frames) per video, H.264
# (x264 medium, CRF 18: Strata's defaults), N rows, with --jobs 1 and --jobs 2; videos per minute
# and peak RSS (GNU time's maximum resident set). The peer in the same run: FFmpeg alone making
# the same kind of video (a plate sliding in with two lines of text, drawbox + drawtext filters,
# the same encoder and settings), one video after another — what a filter-graph pipeline costs.
# Usage: bash Benchmarks/batch.sh [rows]   (default 4)
set -eu
cd "$(dirname "$0")/.."
source scripts/env.sh
rows=${1:-4}
swift build -c release --product strata >/dev/null
strata=$PWD/.build/release/strata
work=$(mktemp -d /tmp/strata-batch-bench.XXXXXX)
trap 'rm -rf "$work"' EXIT

{
  echo "id,name,title"
  for i in $(seq 1 "$rows"); do echo "v$i,Person number $i,Title of person $i at the company"; done
} > "$work/rows.csv"

measure() { # label, command…  → "label: S s, V videos/min, peak RSS M MiB"
  local label=$1; shift
  /usr/bin/time -f "%e %M" -o "$work/time" "$@" >/dev/null 2>"$work/err" || { cat "$work/err"; exit 1; }
  read -r secs kb < "$work/time"
  awk -v l="$label" -v s="$secs" -v kb="$kb" -v n="$rows" \
    'BEGIN { printf "%-34s %6.1f s  %5.2f videos/min  peak RSS %4.0f MiB\n", l, s, n * 60 / s, kb / 1024 }'
}

echo "== batch: lower-third 1920x1080, 5 s, x264 medium CRF 18, $rows videos =="
for jobs in 1 2; do
  rm -rf "$work/out"
  measure "strata batch --jobs $jobs" "$strata" batch Templates/lower-third --data "$work/rows.csv" \
    --out "$work/out" --name '{{id}}.mp4' --jobs $jobs --quiet
done
frames=$(ffprobe -v error -count_frames -select_streams v -show_entries stream=nb_read_frames -of csv=p=0 "$work/out/v1.mp4")
echo "(each video: $frames frames)"

font=/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf
bold=/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf
cat > "$work/peer.sh" <<SCRIPT
for i in \$(seq 1 $rows); do
  ffmpeg -v error -y -f lavfi -i "color=c=black:s=1920x1080:r=30:d=5" -vf \\
"drawbox=x='96-120*max(0,1-t/0.7)':y=834:w=760:h=150:color=0x0D1117@0.8:t=fill,\\
drawbox=x='124-120*max(0,1-t/0.7)':y=834:w=14:h=150:color=0xFF5A36:t=fill,\\
drawtext=fontfile=$bold:text='Person number \$i':fontsize=64:fontcolor=white:x='166-120*max(0,1-t/0.7)':y=852,\\
drawtext=fontfile=$font:text='Title of person \$i at the company':fontsize=38:fontcolor=0xC9D1D9:x='166-120*max(0,1-t/0.7)':y=930" \\
    -c:v libx264 -preset medium -crf 18 -pix_fmt yuv420p "$work/peer\$i.mp4"
done
SCRIPT
measure "peer: ffmpeg drawbox+drawtext" bash "$work/peer.sh"
