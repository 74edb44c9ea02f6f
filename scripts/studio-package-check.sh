#!/usr/bin/env bash
# `strata preview PACKAGE`'s page in headless Chromium, in seconds: the package's build is a
# stand-in `swift` (STRATA_SWIFT) that fails with a compile error when the source holds
# "oops" and otherwise "links" a script running `strata preview` of the template its source
# names, as StudioSupervisorTests does. scripts/studio-package-check.py checks the build overlay,
# the error with file:line, the kept frame and the new scene. Prints "skipped: …" and exits 0
# where Chromium or python3 is missing. (scripts/studio-swift-check.sh does a real package.)
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT="$(pwd)"
source scripts/env.sh
CHROME="$(command -v chromium || command -v chromium-browser || true)"
[ -n "$CHROME" ] || { echo "skipped: chromium is not installed"; exit 0; }
command -v python3 >/dev/null || { echo "skipped: python3 is not installed"; exit 0; }
if [ -z "${STRATA:-}" ]; then
  swift build --product strata >&2 || exit 1
  STRATA="$(swift build --show-bin-path)/strata"
fi
WORK="$(mktemp -d /tmp/strata-studio-package.XXXXXX)"
cleanup() {
  [ -n "${CHROME_PID:-}" ] && kill "$CHROME_PID" 2>/dev/null && wait "$CHROME_PID" 2>/dev/null
  [ -n "${STUDIO_PID:-}" ] && kill -INT "$STUDIO_PID" 2>/dev/null && wait "$STUDIO_PID" 2>/dev/null
  rm -rf "$WORK"
}
trap cleanup EXIT
cp -r "$ROOT/Templates/lower-third" "$WORK/a"
cp -r "$ROOT/Templates/lower-third" "$WORK/b"
sed -i 's/default: Ada Lovelace/default: Grace Hopper/' "$WORK/b/lower-third.yaml"
mkdir -p "$WORK/pkg/Sources/Fake"
echo '// swift-tools-version: 6.0' > "$WORK/pkg/Package.swift"
echo "// template: $WORK/a/lower-third.yaml" > "$WORK/pkg/Sources/Fake/main.swift"
cat > "$WORK/swift" <<FAKE
#!/bin/sh
pkg=""; prev=""
for a in "\$@"; do [ "\$prev" = "--package-path" ] && pkg="\$a"; prev="\$a"; done
bin="\$pkg/.build/debug"
case " \$* " in *" --show-bin-path "*) echo "\$bin"; exit 0;; esac
src="\$pkg/Sources/Fake/main.swift"
echo "[1/2] Compiling Fake main.swift"
sleep 0.5
if grep -q oops "\$src"; then echo "\$src:3:7: error: cannot find 'oops' in scope"; exit 1; fi
template=\$(sed -n 's|^// template: ||p' "\$src")
mkdir -p "\$bin"
printf '#!/bin/sh\nshift\nexec "%s" preview "%s" "\$@"\n' "$STRATA" "\$template" > "\$bin/Fake.new"
chmod +x "\$bin/Fake.new" && mv "\$bin/Fake.new" "\$bin/Fake"
echo "[2/2] Linking Fake"
FAKE
chmod +x "$WORK/swift"

STRATA_SWIFT="$WORK/swift" "$STRATA" preview "$WORK/pkg" --product Fake --port 0 --output-folder "$WORK/out" >"$WORK/studio.log" 2>"$WORK/studio.err" &
STUDIO_PID=$!
URL=""
for _ in $(seq 1 300); do
  URL="$(grep -o 'http://[^ ]*' "$WORK/studio.log" | head -1)"
  [ -n "$URL" ] && break
  sleep 0.1
done
[ -n "$URL" ] || { echo "FAIL: strata preview printed no address"; cat "$WORK/studio.err"; exit 1; }
echo "studio at $URL"
DEVTOOLS_PORT="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
"$CHROME" --headless=new --no-sandbox --disable-gpu --mute-audio --hide-scrollbars --window-size=1440,900 \
  --remote-debugging-port="$DEVTOOLS_PORT" --user-data-dir="$WORK/profile" --no-first-run --no-default-browser-check \
  about:blank >"$WORK/chrome.log" 2>&1 &
CHROME_PID=$!
for _ in $(seq 1 100); do
  python3 -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:$DEVTOOLS_PORT/json/version')" 2>/dev/null && break
  sleep 0.2
done
python3 scripts/studio-package-check.py "$DEVTOOLS_PORT" "$URL" "$WORK/pkg/Sources/Fake/main.swift" "$WORK/b/lower-third.yaml"
status=$?
CHILD="$(pgrep -P "$STUDIO_PID" || true)"
kill -INT "$STUDIO_PID"; wait "$STUDIO_PID"; code=$?; STUDIO_PID=""
sleep 0.3
if [ "$code" -eq 0 ] && { [ -z "$CHILD" ] || ! kill -0 $CHILD 2>/dev/null; }; then
  echo "ok   Ctrl-C stops strata and the script's process (status 0)"
else
  echo "FAIL: status $code; still running: $CHILD"; status=1
fi
exit $status
