#!/usr/bin/env bash
# Batch throughput: the lower-third template at 1920×1080, 5 s (150 frames) per video, H.264
# (x264 medium, CRF 18), N rows. Strata's batch with its defaults (one job per core, each with a
# single-threaded encoder looking 20 frames ahead), with --jobs 1, and with the settings batches
# had before (--jobs 1, 4 encoder threads, medium's lookahead of 40). The peer in the same run:
# FFmpeg alone making the same kind of video (a plate sliding in with two lines of text, drawbox +
# drawtext filters) with the same x264 settings (preset, CRF, keyframe interval, lookahead; the
# script checks that the two files' x264 option strings differ only in threads), one video after
# another with FFmpeg's own thread count, and two at a time with one thread each. Configurations
# take turns (A/B/A/B) for `rounds` rounds; the medians are reported, with videos per minute, CPU
# seconds (user + system, steadier than wall time on a busy machine), peak RSS (GNU time's maximum
# resident set of the largest process) and the ratio to the sequential peer.
# Usage: bash Benchmarks/batch.sh [rows] [rounds]   (default 4 rows, 3 rounds)
set -eu
cd "$(dirname "$0")/.."
source scripts/env.sh
rows=${1:-4}
rounds=${2:-3}
swift build -c release --product strata >/dev/null
strata=$PWD/.build/release/strata
work=$(mktemp -d /tmp/strata-batch-bench.XXXXXX)
trap 'rm -rf "$work"' EXIT

{
  echo "name,title"
  for i in $(seq 1 "$rows"); do echo "Person number $i,Title of person $i at the company"; done
} > "$work/rows.csv"

font=/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf
bold=/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf
# One peer video: row $1, x264 threads $2 (0: FFmpeg's choice), into folder $3.
cat > "$work/peer1.sh" <<SCRIPT
i=\$1
ffmpeg -v error -y -f lavfi -i "color=c=black:s=1920x1080:r=30:d=5" -vf \\
"drawbox=x='96-120*max(0,1-t/0.7)':y=834:w=760:h=150:color=0x0D1117@0.8:t=fill,\\
drawbox=x='124-120*max(0,1-t/0.7)':y=834:w=14:h=150:color=0xFF5A36:t=fill,\\
drawtext=fontfile=$bold:text='Person number \$i':fontsize=64:fontcolor=white:x='166-120*max(0,1-t/0.7)':y=852,\\
drawtext=fontfile=$font:text='Title of person \$i at the company':fontsize=38:fontcolor=0xC9D1D9:x='166-120*max(0,1-t/0.7)':y=930" \\
  -c:v libx264 -preset medium -crf 18 -pix_fmt yuv420p -g 60 -x264-params rc-lookahead=20 -threads \$2 "\$3/peer\$i.mp4"
SCRIPT

configs=(strata strata-jobs1 strata-old peer peer-2x1)
declare -A label=(
  [strata]="strata batch (defaults: --jobs auto)"
  [strata-jobs1]="strata batch --jobs 1"
  [strata-old]="strata, old settings (jobs 1, 4 thr, la 40)"
  [peer]="peer: ffmpeg one after another"
  [peer-2x1]="peer: ffmpeg 2 at a time, 1 thread"
)
run() { # config → runs it once into $work/out-$config
  local out=$work/out-$1
  rm -rf "$out"; mkdir -p "$out"
  case $1 in
    strata) "$strata" batch Templates/lower-third --data "$work/rows.csv" --out "$out" --name '{{row}}.mp4' --quiet ;;
    strata-jobs1) "$strata" batch Templates/lower-third --data "$work/rows.csv" --out "$out" --name '{{row}}.mp4' --quiet --jobs 1 ;;
    strata-old) "$strata" batch Templates/lower-third --data "$work/rows.csv" --out "$out" --name '{{row}}.mp4' --quiet \
                  --jobs 1 --encoder-threads 4 --lookahead 40 ;;
    peer) for i in $(seq 1 "$rows"); do bash "$work/peer1.sh" "$i" 0 "$out"; done ;;
    peer-2x1) seq 1 "$rows" | xargs -P 2 -I{} bash "$work/peer1.sh" {} 1 "$out" ;;
  esac
}
export -f run; export work strata rows

echo "== batch: lower-third 1920x1080, 5 s, x264 medium CRF 18 keyint 60 lookahead 20, $rows videos, $rounds rounds, $(nproc) cores =="
for r in $(seq 1 "$rounds"); do
  for c in "${configs[@]}"; do
    /usr/bin/time -f "%e %U %S %M" -o "$work/time" bash -c "run $c" >/dev/null 2>"$work/err" || { cat "$work/err"; exit 1; }
    echo "$c $(cat "$work/time")" >> "$work/times"
  done
done

opts() { strings "$1" | grep -o 'options: .*' | head -n 1 | tr ' ' '\n' | grep -v '^threads='; }
if [ "$(opts "$work/out-strata/1.mp4")" != "$(opts "$work/out-peer/peer1.mp4")" ]; then
  echo "x264 settings differ (besides threads):"; diff <(opts "$work/out-strata/1.mp4") <(opts "$work/out-peer/peer1.mp4") || true
else
  echo "x264 settings: the same for Strata and the peer apart from threads"
fi
frames=$(ffprobe -v error -count_frames -select_streams v -show_entries stream=nb_read_frames -of csv=p=0 "$work/out-strata/1.mp4")
echo "(each video: $frames frames; medians of $rounds rounds)"
median() { sort -n | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
peerWall=$(awk '$1 == "peer" { print $2 }' "$work/times" | median)
for c in "${configs[@]}"; do
  wall=$(awk -v c="$c" '$1 == c { print $2 }' "$work/times" | median)
  cpu=$(awk -v c="$c" '$1 == c { print $3 + $4 }' "$work/times" | median)
  kb=$(awk -v c="$c" '$1 == c { print $5 }' "$work/times" | median)
  jobs=1; [ "$c" = strata ] && jobs=$(( $(nproc) < rows ? $(nproc) : rows ))
  awk -v l="${label[$c]}" -v s="$wall" -v cpu="$cpu" -v kb="$kb" -v n="$rows" -v p="$peerWall" -v j="$jobs" \
    'BEGIN { printf "%-46s %6.1f s %5.2f videos/min (%.2fx peer)  CPU %5.2f s/video  peak RSS %4.0f MiB (%.0f a job)\n", l, s, n * 60 / s, p / s, cpu / n, kb / 1024, kb / 1024 / j }'
done
