#!/usr/bin/env python3
"""Strata Studio's playback rate in headless Chromium: loads the page, picks half resolution,
presses play with loop on and counts the frames the page paints (changes of
document.body.dataset.painted, sampled every animation frame) over SECONDS after a one-second
warm-up. Prints one line: frames painted per second, the scene's rate, and the share of due
frames painted. Called by Benchmarks/studio-playback.sh with:

    studio-playback.py DEVTOOLS_PORT STUDIO_URL NAME SECONDS RESOLUTION"""
import importlib.util
import json
import os
import sys
import time
import urllib.request

here = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("studio_check", os.path.join(here, "..", "scripts", "studio-check.py"))
studio_check = importlib.util.module_from_spec(spec)
spec.loader.exec_module(studio_check)

COUNT = """
new Promise((resolve) => {
  const seconds = %s;
  let last = document.body.dataset.painted, paints = 0, start = null, first = null, lastFrame = null;
  function step(now) {
    const p = document.body.dataset.painted;
    if (start === null) start = now;
    if (p !== last) {
      last = p;
      if (now - start >= 1000) { paints++; const n = parseInt(p); if (first === null) first = n; lastFrame = n; }
    }
    if (now - start < 1000 + seconds * 1000) requestAnimationFrame(step);
    else resolve(JSON.stringify({paints, first, last: lastFrame, shown: document.getElementById('fps').textContent}));
  }
  requestAnimationFrame(step);
})
"""


def main():
    devtools_port, url, name, seconds, resolution = sys.argv[1:6]
    targets = json.load(urllib.request.urlopen(f"http://127.0.0.1:{devtools_port}/json/list"))
    page = next(t for t in targets if t.get("type") == "page")
    dt = studio_check.DevTools(page["webSocketDebuggerUrl"])
    for domain in ("Runtime", "Page"):
        dt.call(f"{domain}.enable")
    dt.call("Emulation.setDeviceMetricsOverride", width=1440, height=900, deviceScaleFactor=1, mobile=False)
    dt.call("Page.navigate", url=url)
    dt.wait_for("document.body && document.body.dataset.painted && document.body.dataset.painted.startsWith('0@')", 60, "the first frame")
    fps = dt.evaluate("fetch('/api/scene').then((r) => r.json()).then((s) => s.fps)")
    dt.evaluate(f"document.getElementById('res').value = '{resolution}'; document.getElementById('res').dispatchEvent(new Event('change')); "
                "document.getElementById('loop').checked = true; true")
    dt.wait_for(f"document.body.dataset.painted === '0@{resolution}#0'", 60, "frame 0 at the resolution")
    dt.evaluate("document.getElementById('play').click(); true")
    result = json.loads(dt.evaluate(COUNT % float(seconds)))
    dt.evaluate("document.getElementById('play').click(); true")
    rate = result["paints"] / float(seconds)
    print(f"{name:<16} {resolution:>5} {fps:6.0f} {rate:9.1f} {100 * rate / fps:7.0f} %   (page shows {result['shown']!r})")


if __name__ == "__main__":
    main()
