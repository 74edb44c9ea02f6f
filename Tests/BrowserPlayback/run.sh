#!/usr/bin/env bash
# Outputs play in a real browser: renders the built-in demo to MP4 (H.264) and WebM (VP9) with
# the strata CLI, loads both in headless Chromium (<video>), seeks into two frames, reads a grid
# of decoded pixels from a canvas and compares them with the same frames rendered by
# `strata still` (check.py). Exit status 0 when every frame matches.
#
#   Tests/BrowserPlayback/run.sh            # builds strata (debug) first
#   STRATA=/path/to/strata Tests/BrowserPlayback/run.sh
#
# Needs chromium (apt-get install -y chromium), ffmpeg and python3.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
export PATH="/opt/swift/usr/bin:$PATH"

if [ -z "${STRATA:-}" ]; then
  SCRATCH=(); [ -n "${SCRATCH_PATH:-}" ] && SCRATCH=(--scratch-path "$SCRATCH_PATH")
  (cd "$ROOT" && swift build --product strata "${SCRATCH[@]}" >&2)
  STRATA="$(cd "$ROOT" && swift build --show-bin-path "${SCRATCH[@]}")/strata"
fi
CHROME="$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)"
[ -n "$CHROME" ] || { echo "chromium is not installed (apt-get install -y chromium)" >&2; exit 2; }

WORK="$(mktemp -d)"
cleanup() {
  [ -n "${CHROME_PID:-}" ] && kill "$CHROME_PID" 2>/dev/null && wait "$CHROME_PID" 2>/dev/null || true
  [ -n "${SERVER_PID:-}" ] && kill "$SERVER_PID" 2>/dev/null || true
  chmod -R u+w "$WORK" 2>/dev/null; rm -rf "$WORK" 2>/dev/null || true
}
trap cleanup EXIT

FPS=30
FRAMES=(15 45)
SIZE=640x360
"$STRATA" render --size "$SIZE" --fps "$FPS" --duration 2 -o "$WORK/clip.mp4" > /dev/null
"$STRATA" render --size "$SIZE" --fps "$FPS" --duration 2 -o "$WORK/clip.webm" > /dev/null
TIMES=()
for k in "${FRAMES[@]}"; do
  "$STRATA" still --size "$SIZE" --fps "$FPS" --duration 2 --time "$(python3 -c "print($k / $FPS)")" -o "$WORK/still_$k.png" > /dev/null
  # Seek to the middle of frame k's interval, so any correct player shows frame k.
  TIMES+=("$(python3 -c "print(($k + 0.5) / $FPS)")")
done
cp "$HERE/page.html" "$WORK/"

PORT="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
(cd "$WORK" && RESULT="$WORK/result.json" exec python3 "$HERE/server.py" "$PORT") &
SERVER_PID=$!
sleep 0.5
URL="http://127.0.0.1:$PORT/page.html?videos=clip.mp4,clip.webm&fps=$FPS&times=$(IFS=,; echo "${TIMES[*]}")"
"$CHROME" --headless=new --no-sandbox --disable-gpu --mute-audio --autoplay-policy=no-user-gesture-required \
  --disable-background-media-suspend --disable-renderer-backgrounding --disable-background-timer-throttling --user-data-dir="$WORK/profile" "$URL" > /dev/null 2>&1 &
CHROME_PID=$!
for _ in $(seq 1 120); do
  [ -s "$WORK/result.json" ] && break
  sleep 0.5
done
[ -s "$WORK/result.json" ] || { echo "FAIL: no result from the browser within 60 s" >&2; exit 1; }
python3 "$HERE/check.py" "$WORK/result.json" "$WORK" "$FPS" "${FRAMES[@]}"
