#!/usr/bin/env bash
# Strata's benchmarks side by side with the peers of shared/bench in one run.
# Needs the peers installed (bash ../shared/bench/peers/setup.sh). Usage: bash Benchmarks/run.sh [frames]
# ONLY=NAME runs one section: standard, layers3, demo, export, batch or layers (issue 11's
# replicator, particles and tiled layer), e.g. ONLY=layers bash Benchmarks/run.sh.
set -u
only=${ONLY:-}
want() { [ -z "$only" ] || [ "$only" = "$1" ]; }
cd "$(dirname "$0")/.."
source scripts/env.sh
frames=${1:-30}
peers=../shared/bench/peers
swift build -c release --product StrataBench >/dev/null || exit 1
swift build -c release --product strata >/dev/null || exit 1
bench=.build/release/StrataBench
if want standard; then
echo "== standard scenes, 1920x1080, $frames frames (median ms/frame) =="
$bench composite --frames "$frames" --runs 3 --workers 1
$bench composite --frames "$frames" --runs 3 --workers 2
for lib in cairo skia blend2d; do python3 $peers/raster_bench.py --lib $lib --scene composite --frames "$frames" --runs 3; done
$bench motion --frames "$frames" --runs 3 --workers 1
$bench motion --frames "$frames" --runs 3 --workers 2
for lib in cairo skia blend2d; do python3 $peers/raster_bench.py --lib $lib --scene motion --frames "$frames" --runs 3; done
fi
if want layers3; then
echo "== layer scenes (issue 3) =="
for w in 1 2; do
  $bench images --frames "$frames" --workers $w
  $bench shadows --frames "$frames" --workers $w
  $bench cubes --frames "$frames" --workers $w
done
python3 Benchmarks/peers/images_skia.py --frames "$frames"
fi
if want demo; then
echo "== demo: render-only and render+encode (x264 medium, CRF 18) =="
for size in 1280x720 1920x1080; do
  $bench demo --size $size --frames 120
  $bench demo --size $size --frames 120 --encode /tmp/strata-bench-demo.mp4
done
fi
if want export; then
echo "== export memory (720p, 5 s vs 20 s) =="
$bench export --size 1280x720 --seconds 5 -o /tmp/strata-bench-5.mp4
$bench export --size 1280x720 --seconds 20 -o /tmp/strata-bench-20.mp4
fi
if want batch; then
echo "== batch throughput (issue 13) =="
bash Benchmarks/batch.sh 4
fi
if want layers; then
echo "== replicator, particles, tiled layer (issue 11), 1920x1080 =="
for w in 1 2; do
  $bench particles --count 5000 --frames "$frames" --workers $w
  $bench particles --count 20000 --frames "$frames" --workers $w
  $bench particles --count 20000 --additive 0 --frames "$frames" --workers $w
  $bench replicator --instances 1000 --frames "$frames" --workers $w
done
# Peak RSS is per process: one zoom per run.
$bench tiledzoom --size 1920x1080 --fps 30 --seconds 10 --workers 2
$bench tiledzoom --size 1920x1080 --fps 30 --seconds 10 --workers 2 --cache-mb 64
fi
