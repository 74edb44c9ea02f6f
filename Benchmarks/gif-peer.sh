# Shared by Benchmarks/terminal-gifs.sh and Benchmarks/doc-gifs.sh (sourced, not run): timing, SSIM
# of a GIF against lossless PNG frames, and the peer pipeline both race against.

# Seconds (2 decimals) that "$@" takes, its output discarded.
seconds() {
  local start end
  start=$(date +%s.%N)
  "$@" > /dev/null 2>&1
  end=$(date +%s.%N)
  python3 -c "print(f'{$end - $start:.2f}')"
}

# The mean SSIM (All) of GIF $1 against the PNG frames in folder $2, at $3 frames per second (the
# GIF's variable delays put back on the frame grid with fps=).
ssim() {
  ffmpeg -hide_banner -nostats -i "$1" -framerate "$3" -i "$2/frame_%05d.png" \
    -lavfi "[0:v]fps=$3,format=rgb24[a];[1:v]format=rgb24[b];[a][b]ssim=shortest=1" -f null - 2>&1 |
    sed -nE 's/.*SSIM .* All:([0-9.]+).*/\1/p'
}

# The peer: FFmpeg's two-pass palette (palettegen stats_mode=full → paletteuse sierra2_4a) then
# `gifsicle -O3`, from the PNG frames in folder $1 at $2 fps, into GIF $3 (scratch files beside it).
peer_gif() {
  local frames=$1 fps=$2 out=$3
  ffmpeg -hide_banner -loglevel error -y -framerate "$fps" -i "$frames/frame_%05d.png" \
    -vf palettegen=stats_mode=full "$out.palette.png" &&
  ffmpeg -hide_banner -loglevel error -y -framerate "$fps" -i "$frames/frame_%05d.png" -i "$out.palette.png" \
    -lavfi paletteuse=dither=sierra2_4a "$out.ffmpeg.gif" &&
  gifsicle -O3 "$out.ffmpeg.gif" -o "$out"
}
