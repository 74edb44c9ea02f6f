#!/usr/bin/env bash
# Lottie speed (issue 46): Strata against ThorVG (thorvg-python) and rlottie (rlottie-python),
# each Lottie fitted into a 1920×1080 canvas, in the same run on the same machine:
#   render  ms/frame of drawing alone. Strata: `strata render F --size WxH --hash-frames` (no
#           output; each frame also gets its 64-bit digest, ≈ 0.5 ms at 1080p), timed with all its
#           frames and with the first alone (each the fastest of three runs), the difference over
#           the other frames (start-up, parsing and compiling cancel out). Peers:
#           Benchmarks/lottie-peer.py, timed in process, the best of three passes over the frames.
#   mp4     Lottie → MP4, x264 preset veryfast, CRF 18, yuv420p, a keyframe every 2 s: Strata's
#           `strata render F -o x.mp4 --preset veryfast`, the peers' frames piped as raw video into
#           `ffmpeg -c:v libx264` with the same settings.
#   gif     Lottie → GIF: `strata render F -o x.gif`, the peers' frames piped into ffmpeg's
#           palettegen + paletteuse (one pass, split: ffmpeg holds every frame until the palette
#           is made).
# Whole commands, wall time and peak RSS (/usr/bin/time -f "%e %M"); a peer's pipeline counts the
# peaks of both of its processes added together (they run side by side). Each round runs the
# configurations in a rotated order (A/B alternation over rounds); the figures are medians over
# rounds. Ratios: "×" is Strata's throughput over the peer's (> 1: Strata faster), "mem" Strata's
# peak over the peer's (< 1: Strata smaller). TOTAL adds the medians over the files.
#   bash Benchmarks/lottie-speed.sh                       the test fixtures
#   bash Benchmarks/lottie-speed.sh /path/to/resource/*.json   a local corpus (never commit it)
# Environment: ROUNDS (3), SIZE (1920x1080), MODES ("render mp4 gif"), PEERS ("thorvg rlottie"),
# STRATA (default .build/release/strata, built with `swift build -c release --product strata`).
# Prints "skipped: …" and exits 0 when the peers cannot be installed.
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${ROUNDS:-3}; size=${SIZE:-1920x1080}; modes=${MODES:-render mp4 gif}; peers=${PEERS:-thorvg rlottie}
w=${size%x*}; h=${size#*x}
venv=.build-lottie/venv
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c 'import thorvg_python, rlottie_python' 2>/dev/null; then
    python3 -m venv "$venv" >/dev/null 2>&1 || { echo "skipped: python3 -m venv is not available"; exit 0; }
    "$venv/bin/pip" install -q thorvg-python rlottie-python numpy pillow >/dev/null 2>&1 \
        || { echo "skipped: thorvg-python / rlottie-python could not be installed"; exit 0; }
fi
command -v ffmpeg >/dev/null || { echo "skipped: ffmpeg is not installed"; exit 0; }
[ -x /usr/bin/time ] || { echo "skipped: /usr/bin/time (GNU time) is not installed"; exit 0; }
strata=${STRATA:-.build/release/strata}
if [ ! -x "$strata" ]; then
    source scripts/env.sh
    swift build -c release --product strata >/dev/null
fi
py=$venv/bin/python
peer=Benchmarks/lottie-peer.py
if [ $# -eq 0 ]; then set -- Tests/StrataLottieTests/Fixtures/*.json; fi
tmp=$(mktemp -d /tmp/strata-lottie-speed.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
results=$tmp/results   # lines: file config mode seconds-or-ms peak-KiB frames

# "SECONDS KIB" of a command (its output discarded): the wall time from the clock (GNU time's
# %e has 10 ms steps, too coarse for short files), the peak RSS from GNU time.
timed() {
    local start end
    start=$(date +%s%N)
    /usr/bin/time -f "%M" -o "$tmp/time" "$@" >/dev/null 2>"$tmp/err" || { echo "failed: $* ($(tail -c 300 "$tmp/err"))" >&2; return 1; }
    end=$(date +%s%N)
    echo "$(python3 -c "print(f'{($end - $start) / 1e9:.3f}')") $(tail -1 "$tmp/time")"
}

# "SECONDS KIB" of a peer's frames piped into ffmpeg with the arguments after the first four.
piped() {
    local lib=$1 file=$2 frames=$3 fps=$4; shift 4
    local format
    format=$("$py" "$peer" format "$lib" "$file" "$w" "$h" 0)
    local start end
    start=$(date +%s%N)
    /usr/bin/time -f "%M" -o "$tmp/rss1" "$py" "$peer" frames "$lib" "$file" "$w" "$h" "$frames" 2>"$tmp/err1" |
        /usr/bin/time -f "%M" -o "$tmp/rss2" ffmpeg -hide_banner -loglevel error -y -f rawvideo -pix_fmt "$format" \
            -s "${w}x${h}" -framerate "$fps" -i - "$@" 2>"$tmp/err2" || { echo "failed: $lib $file ($(tail -c 300 "$tmp/err1" "$tmp/err2"))" >&2; return 1; }
    end=$(date +%s%N)
    echo "$(python3 -c "print(f'{($end - $start) / 1e9:.3f}')") $(( $(tail -1 "$tmp/rss1") + $(tail -1 "$tmp/rss2") ))"
}

# One measurement: prints "VALUE KIB" (seconds, or ms/frame for render).
measure() {
    local config=$1 mode=$2 file=$3 frames=$4 fps=$5 peak
    local gop
    gop=$(python3 -c "print(max(1, round(2 * $fps)))")
    case "$config/$mode" in
        strata/render)
            # Each of the two the fastest of three runs (the difference of two short wall times
            # is otherwise mostly noise on a short file).
            local all=() one=() t
            for _ in 1 2 3; do
                t=$(timed "$strata" render "$file" --size "$size" --hash-frames); all+=("${t% *}"); peak=${t#* }
                t=$(timed "$strata" render "$file" --size "$size" --hash-frames --frames 0..0); one+=("${t% *}")
            done
            python3 -c "import sys; a, b = sys.argv[1].split(), sys.argv[2].split()
print(f'{max(0.0, min(map(float, a)) - min(map(float, b))) * 1000 / max(1, $frames - 1):.2f} $peak')" "${all[*]}" "${one[*]}" ;;
        strata/mp4) timed "$strata" render "$file" --size "$size" -o "$tmp/s.mp4" --preset veryfast --crf 18 ;;
        strata/gif) timed "$strata" render "$file" --size "$size" -o "$tmp/s.gif" ;;
        */render) echo "$("$py" "$peer" time "$config" "$file" "$w" "$h" "$frames") 0" ;;
        */mp4) piped "$config" "$file" "$frames" "$fps" -c:v libx264 -preset veryfast -crf 18 -pix_fmt yuv420p -g "$gop" "$tmp/p.mp4" ;;
        */gif) piped "$config" "$file" "$frames" "$fps" -filter_complex "[0:v]split[a][b];[a]palettegen[p];[b][p]paletteuse" "$tmp/p.gif" ;;
    esac
}

configs=(strata $peers)
echo "Lottie speed, $size, $(nproc) cores, $rounds rounds, $(date -u '+%Y-%m-%d %H:%M UTC'), load average $(cut -d' ' -f1-3 /proc/loadavg)"
for file in "$@"; do
    # The frames Strata renders (its scene's count, which a fractional out point rounds), counted
    # from a tiny render's digests; every configuration renders that many.
    frames=$("$strata" render "$file" --scale 0.05 --hash-frames 2>/dev/null | wc -l)
    fps=$(python3 -c "import json; print(json.load(open('$file'))['fr'])")
    [ "$frames" -gt 1 ] || { echo "$(basename "$file"): strata rendered no frames, skipped" >&2; continue; }
    for mode in $modes; do
        for r in $(seq 0 $((rounds - 1))); do
            # Round r starts with configuration r (mod their count): each goes first in turn.
            n=${#configs[@]}
            for k in $(seq 0 $((n - 1))); do
                config=${configs[$(( (r + k) % n ))]}
                if out=$(measure "$config" "$mode" "$file" "$frames" "$fps"); then
                    echo "$(basename "$file") $config $mode $out $frames" >> "$results"
                fi
            done
        done
    done
done
python3 - "$results" "$peers" "$modes" <<'PY'
import collections, statistics, sys
rows = [l.split() for l in open(sys.argv[1])]
peers, modes = sys.argv[2].split(), sys.argv[3].split()
runs = collections.defaultdict(list)
frames, files = {}, []
for f, config, mode, value, kib, n in rows:
    runs[f, config, mode].append((float(value), int(kib)))
    frames[f] = int(n)
    if f not in files: files.append(f)
def med(f, config, mode):
    r = runs.get((f, config, mode))
    return (statistics.median(v for v, _ in r), statistics.median(k for _, k in r)) if r else None
for mode in modes:
    unit = "ms/frame (drawing alone)" if mode == "render" else "s, MiB peak"
    print(f"\n{mode}: {unit}")
    head = f"{'file':<28} {'frames':>6} {'Strata':>14}" + "".join(f" {p:>14} {'×':>6} {'mem':>5}" for p in peers)
    print(head)
    total = collections.defaultdict(lambda: [0.0, 0, 0])   # config → [time sum, peak max, frames]
    for f in files:
        s = med(f, "strata", mode)
        if s is None: continue
        cell = lambda m: f"{m[0]:.2f}" if mode == "render" else f"{m[0]:.2f} {m[1] / 1024:.0f}"
        line = f"{f[:28]:<28} {frames[f]:>6} {cell(s):>14}"
        ok = True
        for p in peers:
            m = med(f, p, mode)
            if m is None:
                line += f" {'failed':>14} {'':>6} {'':>5}"; ok = False; continue
            speed = m[0] / s[0] if s[0] > 0 else float("inf")
            mem = f"{s[1] / m[1]:.2f}" if mode != "render" and m[1] else ""
            line += f" {cell(m):>14} {speed:>6.2f} {mem:>5}"
        print(line)
        if not ok: continue
        for c in ["strata"] + peers:
            m = med(f, c, mode)
            t = total[c]
            t[0] += m[0] * (frames[f] if mode == "render" else 1); t[1] = max(t[1], m[1]); t[2] += frames[f]
    if total:
        s = total["strata"]
        scale = (lambda t: t[0] / t[2]) if mode == "render" else (lambda t: t[0])
        cell = lambda t: f"{scale(t):.2f}" if mode == "render" else f"{t[0]:.2f} {t[1] / 1024:.0f}"
        line = f"{'TOTAL (max peak)':<28} {s[2]:>6} {cell(s):>14}"
        for p in peers:
            t = total[p]
            mem = f"{s[1] / t[1]:.2f}" if mode != "render" and t[1] else ""
            line += f" {cell(t):>14} {scale(t) / scale(s):>6.2f} {mem:>5}"
        print(line)
PY
