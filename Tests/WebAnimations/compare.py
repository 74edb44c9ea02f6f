#!/usr/bin/env python3
"""Samples the timing configurations of cases.json as Web Animations in headless Chromium.

Each case becomes `element.animate()` on an absolutely positioned div whose own `left` is -1px,
with the Core Animation timing mapped onto Web Animations:

  delay      = beginTime * speed - timeOffset        (CA local time = (t - beginTime)*speed + timeOffset)
  currentTime at scene time t = t * speed            (the animation is paused and sought)
  duration   = CA duration; iterations = active duration / duration (autoreverses: alternate, each
               half is one iteration); fill = CA fill mode; easing = CA timingFunction;
  keyframes  = values at keyTimes (or evenly), each with its interval's timing function; discrete
               mode = steps(1, jump-end) per interval; additive = composite "add".

For every sample time it records getComputedTiming().progress (null when the effect has no
effect) and the computed `left` in px, and writes chromium_results.json beside this script.
WebAnimationsComparisonTests.swift (StrataCoreTests) compares Strata with that file; run this
script again to refresh it:

    python3 Tests/WebAnimations/compare.py [--chromium /usr/bin/chromium]

Exits 0 after writing the file, 2 when Chromium is not installed (apt-get install -y chromium).
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))

PAGE = r"""<!doctype html>
<html><body>
<div id="stage" style="position:relative"></div>
<pre id="out"></pre>
<script>
const CASES = __CASES__;
function easing(tf) {
  if (!tf) return 'linear';
  if (Array.isArray(tf)) return 'cubic-bezier(' + tf.join(',') + ')';
  return 'steps(' + tf.steps + ', jump-' + tf.position + ')';
}
function animate(el, spec) {
  const d = spec.duration;
  const speed = spec.speed ?? 1;
  const cycle = spec.autoreverses ? 2 * d : d;
  const active = (spec.repeatDuration ?? 0) > 0 ? spec.repeatDuration
               : ((spec.repeatCount ?? 0) > 0 ? spec.repeatCount * cycle : cycle);
  const n = spec.values.length;
  const discrete = spec.calculationMode === 'discrete';
  const times = spec.keyTimes ?? (discrete ? [...Array(n + 1).keys()].map(i => i / n)
                                           : [...Array(n).keys()].map(i => i / (n - 1)));
  const frames = spec.values.map((v, i) => ({
    left: v + 'px', offset: times[i],
    easing: discrete ? 'steps(1, jump-end)' : easing(spec.timingFunctions ? spec.timingFunctions[i] : null)
  }));
  if (discrete) frames.push({left: spec.values[n - 1] + 'px', offset: 1});
  const fill = {removed: 'none', forwards: 'forwards', backwards: 'backwards', both: 'both'}[spec.fill ?? 'removed'];
  const a = el.animate(frames, {
    duration: d * 1000, delay: ((spec.beginTime ?? 0) * speed - (spec.timeOffset ?? 0)) * 1000,
    iterations: active / d, direction: spec.autoreverses ? 'alternate' : 'normal', fill,
    easing: easing(spec.timingFunction), composite: spec.additive ? 'add' : 'replace'
  });
  a.pause();
  return {a, speed};
}
const results = [];
for (const spec of CASES) {
  const el = document.createElement('div');
  el.style.cssText = 'position:absolute; top:0; left:-1px; width:1px; height:1px';
  document.getElementById('stage').appendChild(el);
  const anims = [spec, ...(spec.stack ?? [])].map(s => animate(el, s));
  const samples = [];
  for (const t of spec.times) {
    for (const {a, speed} of anims) a.currentTime = t * speed * 1000;
    const p = anims[0].a.effect.getComputedTiming().progress;
    samples.push({t, progress: p, left: parseFloat(getComputedStyle(el).left)});
  }
  results.push({name: spec.name, samples});
}
document.getElementById('out').textContent = JSON.stringify(results);
</script>
</body></html>
"""


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--chromium", default=shutil.which("chromium") or shutil.which("chromium-browser")
                        or shutil.which("google-chrome"))
    args = parser.parse_args()
    if not args.chromium:
        print("chromium not found: install it (apt-get install -y chromium) to refresh chromium_results.json",
              file=sys.stderr)
        return 2
    with open(os.path.join(HERE, "cases.json")) as f:
        cases = json.load(f)["cases"]
    with tempfile.TemporaryDirectory() as tmp:
        page = os.path.join(tmp, "compare.html")
        with open(page, "w") as f:
            f.write(PAGE.replace("__CASES__", json.dumps(cases)))
        out = subprocess.run([args.chromium, "--headless", "--no-sandbox", "--disable-gpu",
                              "--user-data-dir=" + os.path.join(tmp, "profile"),
                              "--virtual-time-budget=2000", "--dump-dom", "file://" + page],
                             capture_output=True, text=True, timeout=120)
    m = re.search(r'<pre id="out">(.*?)</pre>', out.stdout, re.S)
    if not m or not m.group(1).strip():
        print("no results from chromium:\n" + out.stderr[-2000:], file=sys.stderr)
        return 1
    results = json.loads(m.group(1).replace("&quot;", '"').replace("&amp;", "&"))
    version = subprocess.run([args.chromium, "--version"], capture_output=True, text=True).stdout.strip()
    with open(os.path.join(HERE, "chromium_results.json"), "w") as f:
        json.dump({"chromium": version, "cases": results}, f, indent=1)
        f.write("\n")
    print(f"{version}: {sum(len(r['samples']) for r in results)} samples of {len(results)} cases "
          f"written to Tests/WebAnimations/chromium_results.json")
    return 0


if __name__ == "__main__":
    sys.exit(main())
