#!/usr/bin/env bash
# Documentation GIFs, quality per byte and wall time: the built-in demo and three templates
# (lower-third, title-card, countdown) at 640 px wide, Strata's own GIF against FFmpeg's two-pass
# palette (palettegen stats_mode=full → paletteuse sierra2_4a) followed by `gifsicle -O3`, made
# from Strata's lossless PNG frames of the same render. Printed per scene: bytes, SSIM of each GIF
# against the lossless frames (ffmpeg's ssim filter, RGB, the GIF's variable delays put back on
# the frame grid), and wall times:
#   strata   strata render … -o x.gif          (frames drawn, quantised, encoded)
#   png      strata render … -o frames/        (frames drawn, written as PNG)
#   peer     palettegen + paletteuse + gifsicle -O3 on those PNGs
# so Strata's whole path is `strata`, the peer's `png + peer`. Every scene is composited over
# black (--background black) so the lossless frames are what a GIF can show.
#
#   bash Benchmarks/doc-gifs.sh            # needs .build/release/strata, ffmpeg, gifsicle
#   STRATA=.build/debug/strata bash Benchmarks/doc-gifs.sh   (bytes and SSIM only mean anything)
#   KEEP=/tmp/docs bash Benchmarks/doc-gifs.sh       # keeps the GIFs and frames in that folder
#   SCENES="demo title-card" bash Benchmarks/doc-gifs.sh   # only those scenes
set -euo pipefail
cd "$(dirname "$0")/.."
STRATA=${STRATA:-.build/release/strata}
for tool in "$STRATA" ffmpeg gifsicle python3; do
  command -v "$tool" > /dev/null || { echo "doc-gifs.sh: $tool is not there" >&2; exit 1; }
done
if [ -n "${KEEP:-}" ]; then
  work=$KEEP; mkdir -p "$work"
else
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
fi

. Benchmarks/gif-peer.sh

printf '%-12s %9s %9s %6s %10s %10s %8s %8s %8s %7s\n' scene strata_B peer_B ratio strataSSIM peerSSIM \
  strata_s png_s peer_s frames
# name | arguments placing a 640-px-wide render
scenes=(
  "demo|--size 640x360 --background black"
  "lower-third|Templates/lower-third --scale 0.3333333 --background black"
  "title-card|Templates/title-card --scale 0.3333333 --background black"
  "countdown|Templates/countdown --scale 0.3333333 --background black"
)
for entry in "${scenes[@]}"; do
  name=${entry%%|*}
  [ -z "${SCENES:-}" ] || [[ " $SCENES " == *" $name "* ]] || continue
  read -r -a args <<< "${entry#*|}"
  fps=30
  t_strata=$(seconds "$STRATA" render "${args[@]}" -o "$work/$name.gif" --quiet)
  t_png=$(seconds "$STRATA" render "${args[@]}" -o "$work/$name-frames/" --quiet)
  t_peer=$(seconds peer_gif "$work/$name-frames" "$fps" "$work/$name-peer.gif")
  frames=$(ls "$work/$name-frames" | wc -l)
  s=$(stat -c %s "$work/$name.gif"); p=$(stat -c %s "$work/$name-peer.gif")
  printf '%-12s %9d %9d %6s %10s %10s %8s %8s %8s %7d\n' "$name" "$s" "$p" \
    "$(python3 -c "print(f'{$s / $p:.2f}')")" \
    "$(ssim "$work/$name.gif" "$work/$name-frames" "$fps")" "$(ssim "$work/$name-peer.gif" "$work/$name-frames" "$fps")" \
    "$t_strata" "$t_png" "$t_peer" "$frames"
done
