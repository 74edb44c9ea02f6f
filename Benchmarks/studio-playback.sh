#!/usr/bin/env bash
# Strata Studio's playback in a real browser: for each template, `strata preview` (release
# build) and Debian's headless Chromium playing the page at half resolution (loop on); prints
# the frames painted per second against the scene's rate (Benchmarks/studio-playback.py counts
# the paints over SECONDS after a warm-up second). Prints "skipped: …" where Chromium is missing.
# Usage: bash Benchmarks/studio-playback.sh [seconds, default 6] [resolution, default 0.5] [template …]
set -u
cd "$(dirname "$0")/.."
source scripts/env.sh
seconds=${1:-6}
resolution=${2:-0.5}
shift 2 2>/dev/null || shift $#
templates=("$@")
[ ${#templates[@]} -gt 0 ] || templates=(title-card lower-third quote-card bar-chart-race countdown logo-reveal ken-burns social-clip)
CHROME="$(command -v chromium || command -v chromium-browser || true)"
[ -n "$CHROME" ] || { echo "skipped: chromium is not installed"; exit 0; }
command -v python3 >/dev/null || { echo "skipped: python3 is not installed"; exit 0; }
if [ -z "${STRATA:-}" ]; then
  swift build -c release --product strata >/dev/null || exit 1
  STRATA=$PWD/.build/release/strata
fi
work=$(mktemp -d /tmp/strata-studio-playback.XXXXXX)
pid=""; chrome_pid=""
trap '[ -n "$pid" ] && kill -INT "$pid" 2>/dev/null; [ -n "$chrome_pid" ] && kill "$chrome_pid" 2>/dev/null; wait 2>/dev/null; rm -rf "$work"' EXIT

devtools=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$CHROME" --headless=new --no-sandbox --disable-gpu --mute-audio --hide-scrollbars --window-size=1440,900 \
  --remote-debugging-port="$devtools" --user-data-dir="$work/profile" --no-first-run --no-default-browser-check \
  about:blank >"$work/chrome.log" 2>&1 &
chrome_pid=$!
for _ in $(seq 1 100); do
  python3 -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:$devtools/json/version')" 2>/dev/null && break
  sleep 0.2
done

echo "Studio playback in headless Chromium, ${seconds} s each after 1 s of warm-up; $(nproc) cores; $(date -u +%F)"
printf "%-16s %5s %6s %9s %9s\n" template scale "fps" "painted/s" "of due"
for t in "${templates[@]}"; do
  "$STRATA" preview "Templates/$t" --port 0 --output-folder "$work/out" >"$work/log" 2>&1 &
  pid=$!
  url=""
  for _ in $(seq 1 300); do url=$(grep -o 'http://[^ ]*' "$work/log" | head -1 || true); [ -n "$url" ] && break; sleep 0.1; done
  [ -n "$url" ] || { echo "$t: the studio did not start: $(cat "$work/log")"; kill "$pid"; pid=""; continue; }
  python3 Benchmarks/studio-playback.py "$devtools" "$url" "$t" "$seconds" "$resolution" || echo "$t: FAILED"
  kill -INT "$pid"; wait "$pid" 2>/dev/null; pid=""
done
