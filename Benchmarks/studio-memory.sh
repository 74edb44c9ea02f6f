#!/usr/bin/env bash
# Whether a studio left running stays flat: `strata preview` (release) on a template, then for
# SECONDS (default 120) frames asked for in random order at half and full size as the page asks
# (compression=none), a parameter changed every 50 requests and the template's file touched
# (a hot reload) every 200; prints the server's resident memory (VmRSS) every 10 s.
# Usage: bash Benchmarks/studio-memory.sh [seconds] [template]
set -eu
cd "$(dirname "$0")/.."
source scripts/env.sh
seconds=${1:-120}
template=${2:-lower-third}
if [ -z "${STRATA:-}" ]; then
  swift build -c release --product strata >/dev/null
  STRATA=$PWD/.build/release/strata
fi
work=$(mktemp -d /tmp/strata-studio-memory.XXXXXX)
pid=""
trap '[ -n "$pid" ] && kill -INT "$pid" 2>/dev/null; wait 2>/dev/null; rm -rf "$work"' EXIT
cp -r "Templates/$template" "$work/$template"
"$STRATA" preview "$work/$template" --port 0 --output-folder "$work/out" >"$work/log" 2>&1 &
pid=$!
url=""
for _ in $(seq 1 300); do url=$(grep -o 'http://[^ ]*' "$work/log" | head -1 || true); [ -n "$url" ] && break; sleep 0.1; done
[ -n "$url" ] || { echo "the studio did not start: $(cat "$work/log")"; exit 1; }
python3 - "$url" "$seconds" "$pid" "$work/$template/$template.yaml" <<'EOF'
import http.client, json, os, random, re, sys, time, urllib.parse
url, seconds, pid, yaml = sys.argv[1], float(sys.argv[2]), sys.argv[3], sys.argv[4]
u = urllib.parse.urlparse(url)
c = http.client.HTTPConnection(u.hostname, u.port, timeout=120)
c.request("GET", "/"); page = c.getresponse().read().decode()
token = re.search(r'name="strata-token" content="([0-9a-f]+)"', page).group(1)
c.request("GET", "/api/scene"); count = json.loads(c.getresponse().read())["frameCount"]
def rss():
    with open(f"/proc/{pid}/status") as f:
        return next(int(l.split()[1]) // 1024 for l in f if l.startswith("VmRSS"))
rng = random.Random(1)
start = next_sample = time.time()
requests = 0
while time.time() - start < seconds:
    if time.time() >= next_sample:
        print(f"{time.time() - start:6.0f} s  {requests:6d} requests  RSS {rss():5d} MiB", flush=True)
        next_sample += 10
    scale = rng.choice((0.5, 1.0))
    c.request("GET", f"/api/frame?frame={rng.randrange(count)}&scale={scale}&compression=none")
    r = c.getresponse(); r.read()
    assert r.status == 200, r.status
    requests += 1
    if requests % 50 == 0:
        body = json.dumps({"name": f"Person {requests}"}).encode()
        c.request("POST", "/api/parameters", body=body, headers={"Content-Type": "application/json", "X-Strata-Token": token})
        r = c.getresponse(); r.read()
        assert r.status == 200, r.status
    if requests % 200 == 0:
        os.utime(yaml)
print(f"{time.time() - start:6.0f} s  {requests:6d} requests  RSS {rss():5d} MiB")
EOF
