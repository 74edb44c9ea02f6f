#!/usr/bin/env bash
# Terminal GIFs, quality per byte: for each example tape (examples/tapes/colors, git-graph, less),
# Strata's own GIF against FFmpeg's two-pass palette (palettegen → paletteuse) followed by
# `gifsicle -O3`, both made from the same frames: Strata's lossless PNG frames of the tape.
# Printed per tape: bytes, SSIM against the lossless frames (ffmpeg's ssim filter; the GIFs'
# variable frame delays put back on the frame grid with fps=), and wall times:
#   tape      running the tape alone (strata render … -o final.txt: no frames drawn)
#   strata    strata render … -o x.gif (the tape run again, frames drawn, quantised, encoded)
#   png       strata render … -o frames/ (the tape, frames drawn, written as PNG)
#   peer      ffmpeg palettegen + paletteuse + gifsicle -O3 on those PNGs (after `png`)
# so Strata's drawing + GIF encoding is about strata − tape, the peer's whole path png + peer.
# Then the wall time of a tape whose video is 15 s long (typing and sleeps), run and rendered to
# GIF. A tape runs its commands for real: these make and remove temporary folders only.
#
#   bash Benchmarks/terminal-gifs.sh            # needs .build/release/strata, ffmpeg, gifsicle
#   STRATA=.build/debug/strata bash Benchmarks/terminal-gifs.sh
#   KEEP=/tmp/tapes bash Benchmarks/terminal-gifs.sh   # keeps the GIFs and frames in that folder
#   TAPES="colors less" bash Benchmarks/terminal-gifs.sh  # only those tapes, no 15-s tape
set -euo pipefail
cd "$(dirname "$0")/.."
STRATA=${STRATA:-.build/release/strata}
for tool in "$STRATA" ffmpeg gifsicle python3; do
  command -v "$tool" > /dev/null || { echo "terminal-gifs.sh: $tool is not there" >&2; exit 1; }
done
if [ -n "${KEEP:-}" ]; then
  work=$KEEP; mkdir -p "$work"
else
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
fi

. Benchmarks/gif-peer.sh

printf '%-10s %9s %9s %6s %10s %10s %8s %8s %8s %8s %7s\n' tape strata_B peer_B ratio strataSSIM peerSSIM \
  tape_s strata_s png_s peer_s frames
for name in ${TAPES:-colors git-graph less}; do
  tape="examples/tapes/$name.tape"
  fps=$(sed -nE 's/^Set Framerate ([0-9.]+).*/\1/p' "$tape"); fps=${fps:-50}  # a tape's default Framerate (VHS's)
  t_tape=$(seconds "$STRATA" render "$tape" -o "$work/$name.txt" --quiet)
  t_strata=$(seconds "$STRATA" render "$tape" -o "$work/$name-strata.gif" --quiet)
  t_png=$(seconds "$STRATA" render "$tape" -o "$work/$name-frames/" --quiet)
  t_peer=$(seconds peer_gif "$work/$name-frames" "$fps" "$work/$name-peer.gif")
  frames=$(ls "$work/$name-frames" | wc -l)
  s=$(stat -c %s "$work/$name-strata.gif"); p=$(stat -c %s "$work/$name-peer.gif")
  printf '%-10s %9d %9d %6s %10s %10s %8s %8s %8s %8s %7d\n' "$name" "$s" "$p" \
    "$(python3 -c "print(f'{$s / $p:.3f}')")" \
    "$(ssim "$work/$name-strata.gif" "$work/$name-frames" "$fps")" "$(ssim "$work/$name-peer.gif" "$work/$name-frames" "$fps")" \
    "$t_tape" "$t_strata" "$t_png" "$t_peer" "$frames"
done

[ -z "${TAPES:-}" ] || exit 0
# A tape of 15 s of video: three commands typed, their output, sleeps.
cat > "$work/fifteen.tape" <<'TAPE'
Set Shell bash
Set Width 800
Set Height 400
Set TypingSpeed 50ms
Set CursorBlink false
Type "echo one"
Enter
Sleep 4.25s
Type "seq 1 5"
Enter
Sleep 4.25s
Type "printf '\e[32mdone\e[0m\n'"
Enter
Sleep 4.25s
TAPE
t15_tape=$(seconds "$STRATA" render "$work/fifteen.tape" -o "$work/fifteen.txt" --quiet)
t15=$(seconds "$STRATA" render "$work/fifteen.tape" -o "$work/fifteen.gif" --quiet)
length=$(ffprobe -v error -show_entries format=duration -of csv=p=0 "$work/fifteen.gif")
echo "15-s tape: video ${length} s, $(stat -c %s "$work/fifteen.gif") B; wall: tape run ${t15_tape} s, run + render to GIF ${t15} s"
