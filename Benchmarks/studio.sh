#!/usr/bin/env bash
# Strata Studio's frame latency: `strata preview` (release build) for each template at its own
# size (1920×1080 for all but the terminal one), then GET /api/frame for N distinct frames spread
# over the scene in a shuffled order (never a cached frame), at scale 0.5 and 1.0, over one
# keep-alive connection as a page's fetch would; prints the median and p95 of request → last
# byte, per template and scale, for the PNG `strata still` writes (compression=default) and the
# page's uncompressed PNG of the same pixels (compression=none). (The page's paint adds the PNG
# decode and drawImage.)
# Usage: bash Benchmarks/studio.sh [frames per template and scale, default 40] [template …]
set -eu
cd "$(dirname "$0")/.."
source scripts/env.sh
n=${1:-40}
shift || true
templates=("$@")
[ ${#templates[@]} -gt 0 ] || templates=(title-card lower-third quote-card bar-chart-race countdown logo-reveal ken-burns social-clip)
if [ -z "${STRATA:-}" ]; then
  swift build -c release --product strata >/dev/null
  STRATA=$PWD/.build/release/strata
fi
work=$(mktemp -d /tmp/strata-studio-bench.XXXXXX)
pid=""
trap '[ -n "$pid" ] && kill -INT "$pid" 2>/dev/null; wait 2>/dev/null; rm -rf "$work"' EXIT

echo "GET /api/frame, $n distinct frames each, shuffled; $(nproc) cores; $(date -u +%F)"
printf "%-16s %-10s %5s %-12s %10s %10s %10s\n" template size scale compression "median ms" "p95 ms" "max ms"
for t in "${templates[@]}"; do
  "$STRATA" preview "Templates/$t" --port 0 --output-folder "$work/out" >"$work/log" 2>&1 &
  pid=$!
  url=""
  for _ in $(seq 1 300); do url=$(grep -o 'http://[^ ]*' "$work/log" | head -1 || true); [ -n "$url" ] && break; sleep 0.1; done
  [ -n "$url" ] || { echo "$t: the studio did not start: $(cat "$work/log")"; kill "$pid"; pid=""; continue; }
  python3 - "$url" "$n" "$t" <<'EOF'
import http.client, json, random, statistics, sys, time, urllib.parse
url, n, name = sys.argv[1], int(sys.argv[2]), sys.argv[3]
u = urllib.parse.urlparse(url)
c = http.client.HTTPConnection(u.hostname, u.port, timeout=120)
c.request("GET", "/api/scene"); scene = json.loads(c.getresponse().read())
count = scene["frameCount"]
for scale, compression in ((0.5, "none"), (0.5, "default"), (1.0, "none"), (1.0, "default")):
    frames = sorted({int(i * count / n) for i in range(n)})
    random.Random(7 if compression == "none" else 8).shuffle(frames)
    # One warm-up frame (the scene at this scale is made on the first request).
    c.request("GET", f"/api/frame?frame={(frames[0] + 1) % count}&scale={scale}"); c.getresponse().read()
    times = []
    for k in frames:
        t0 = time.perf_counter()
        c.request("GET", f"/api/frame?frame={k}&scale={scale}&compression={compression}")
        r = r0 = c.getresponse(); body = r.read()
        times.append((time.perf_counter() - t0) * 1000)
        assert r.status == 200, (r.status, body[:200])
    times.sort()
    p95 = times[min(len(times) - 1, int(round(0.95 * (len(times) - 1))))]
    size = f"{scene['width']:.0f}x{scene['height']:.0f}"
    print(f"{name:<16} {size:<10} {scale:5} {compression:<12} {statistics.median(times):10.1f} {p95:10.1f} {times[-1]:10.1f}")
EOF
  kill -INT "$pid"; wait "$pid" || true; pid=""
done
