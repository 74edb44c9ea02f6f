#!/usr/bin/env bash
# Strata Studio in a real browser: starts `strata preview Templates/lower-third` on a free port,
# opens the page in Debian's headless Chromium and drives it over the DevTools protocol
# (scripts/studio-check.py, standard-library Python): the page loads with no console errors,
# scrubbing paints exactly the PNG `strata still` writes (canvas pixels read back), keys step
# frames, the timeline lists the layers, a parameter edit re-renders, playback shows its rate,
# the render queue's MP4 plays in a <video>, an edit of the template on disk is painted. Saves a screenshot to docs/images/studio.png (or
# $STUDIO_SCREENSHOT). Installs chromium when missing (as root); prints "skipped: …" and exits
# 0 where it cannot run a browser.
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT="$(pwd)"
source scripts/env.sh

CHROME="$(command -v chromium || command -v chromium-browser || true)"
if [ -z "$CHROME" ]; then
  if [ "$(id -u)" -eq 0 ]; then
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium >&2 \
      || { echo "skipped: chromium could not be installed"; exit 0; }
    CHROME="$(command -v chromium)"
  else
    echo "skipped: chromium is not installed (as root: apt-get install -y chromium)"; exit 0
  fi
fi
timeout 60 "$CHROME" --headless --no-sandbox --no-zygote --disable-gpu --dump-dom about:blank >/dev/null 2>&1 \
  || { echo "skipped: headless chromium does not start here"; exit 0; }
command -v python3 >/dev/null || { echo "skipped: python3 is not installed"; exit 0; }

if [ -z "${STRATA:-}" ]; then
  swift build --product strata >&2 || exit 1
  STRATA="$(swift build --show-bin-path)/strata"
fi
SCREENSHOT="${STUDIO_SCREENSHOT:-$ROOT/docs/images/studio.png}"
WORK="$(mktemp -d)"
# A copy, so that the check can edit it on disk (hot reload).
cp -r "$ROOT/Templates/lower-third" "$WORK/lower-third"
TEMPLATE="$WORK/lower-third"
cleanup() {
  [ -n "${CHROME_PID:-}" ] && kill "$CHROME_PID" 2>/dev/null && wait "$CHROME_PID" 2>/dev/null
  [ -n "${STUDIO_PID:-}" ] && kill -INT "$STUDIO_PID" 2>/dev/null && wait "$STUDIO_PID" 2>/dev/null
  rm -rf "$WORK"
}
trap cleanup EXIT

"$STRATA" still "$TEMPLATE" --time 1 --scale 0.5 -o "$WORK/expected-30.png" >/dev/null || exit 1
"$STRATA" still "$TEMPLATE" --time 1 --scale 0.5 --set 'accent=#00FF00' -o "$WORK/expected-green-30.png" >/dev/null || exit 1

"$STRATA" preview "$TEMPLATE" --port 0 --output-folder "$WORK/out" >"$WORK/studio.log" 2>&1 &
STUDIO_PID=$!
URL=""
for _ in $(seq 1 100); do
  URL="$(grep -o 'http://[^ ]*' "$WORK/studio.log" | head -1)"
  [ -n "$URL" ] && break
  sleep 0.1
done
[ -n "$URL" ] || { echo "FAIL: strata preview printed no address"; cat "$WORK/studio.log"; exit 1; }
echo "studio at $URL"

DEVTOOLS_PORT="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
"$CHROME" --headless=new --no-sandbox --disable-gpu --mute-audio --hide-scrollbars --window-size=1440,900 \
  --remote-debugging-port="$DEVTOOLS_PORT" --user-data-dir="$WORK/profile" --no-first-run --no-default-browser-check \
  --autoplay-policy=no-user-gesture-required about:blank >"$WORK/chrome.log" 2>&1 &
CHROME_PID=$!
for _ in $(seq 1 100); do
  python3 -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:$DEVTOOLS_PORT/json/version')" 2>/dev/null && break
  sleep 0.2
done

mkdir -p "$(dirname "$SCREENSHOT")"
python3 scripts/studio-check.py "$DEVTOOLS_PORT" "$URL" "$WORK" "$SCREENSHOT" "$TEMPLATE/lower-third.yaml"
status=$?
# Ctrl-C stops the studio and leaves nothing but the finished render in its output folder.
kill -INT "$STUDIO_PID"; wait "$STUDIO_PID"; code=$?; STUDIO_PID=""
if [ "$code" -ne 0 ] || ! grep -q "Strata Studio stopped" "$WORK/studio.log"; then
  echo "FAIL: strata preview did not stop cleanly on SIGINT (status $code)"; status=1
else
  echo "ok   Ctrl-C stops the studio (status 0); output folder: $(ls "$WORK/out" | tr '\n' ' ')"
fi
exit $status
