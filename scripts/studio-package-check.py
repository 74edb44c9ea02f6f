#!/usr/bin/env python3
"""The page of `strata preview PACKAGE` in headless Chromium (scripts/studio-package-check.sh
runs it with a stand-in `swift`): a save with a compile error shows the build's progress, then
the error with its file:line in the overlay while the canvas keeps the last good frame; a good
save hides the overlay and paints the new scene at the same playhead. Arguments:

    studio-package-check.py DEVTOOLS_PORT STUDIO_URL MAIN_SWIFT TEMPLATE_B"""
import importlib.util
import json
import os
import sys
import time
import urllib.request

here = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("studio_check", os.path.join(here, "studio-check.py"))
studio_check = importlib.util.module_from_spec(spec)
spec.loader.exec_module(studio_check)


def main():
    devtools_port, url, main_swift, template_b = sys.argv[1:5]
    page = next(t for t in json.load(urllib.request.urlopen(f"http://127.0.0.1:{devtools_port}/json/list")) if t.get("type") == "page")
    dt = studio_check.DevTools(page["webSocketDebuggerUrl"])
    for domain in ("Runtime", "Log", "Page"):
        dt.call(f"{domain}.enable")
    failures = []

    def check(ok, line):
        print(("ok   " if ok else "FAIL ") + line)
        if not ok:
            failures.append(line)

    dt.call("Page.navigate", url=url)
    dt.wait_for("document.body && document.body.dataset.painted === '0@1#0'", 60, "the first frame")
    dt.evaluate("document.getElementById('res').value = '0.25'; document.getElementById('res').dispatchEvent(new Event('change')); "
                "const s = document.getElementById('scrub'); s.value = 30; s.dispatchEvent(new Event('input')); true")
    dt.wait_for("document.body.dataset.painted === '30@0.25#0'", 60, "frame 30")
    pixels = "(() => { const c = document.getElementById('canvas'); return Array.from(c.getContext('2d').getImageData(0, 0, c.width, c.height).data.filter((_, i) => i % 97 === 0)).join(','); })()"
    before = dt.evaluate(pixels)

    source = open(main_swift).read()
    with open(main_swift, "w") as f:
        f.write(source + "let x = oops()\n")
    dt.wait_for("document.getElementById('overlay').classList.contains('building') && !document.getElementById('overlay').hidden", 20, "the build overlay")
    check(True, "saving a source shows the build in the overlay: " + repr(dt.evaluate("document.getElementById('overlay-text').textContent")[:60]))
    dt.wait_for("!document.getElementById('overlay').classList.contains('building') && !document.getElementById('overlay').hidden", 30, "the error overlay")
    text = dt.evaluate("document.getElementById('overlay-text').textContent")
    check("Sources/Fake/main.swift:3:7: error: cannot find 'oops' in scope" in text, f"the compile error with file:line:col in the overlay: {text.splitlines()[1:2]}")
    check(dt.evaluate(pixels) == before and dt.evaluate("document.body.dataset.painted") == "30@0.25#0", "the last good frame stays on the canvas")

    with open(main_swift, "w") as f:
        f.write(f"// template: {template_b}\n")
    started = time.time()
    dt.wait_for("document.body.dataset.painted.startsWith('30@0.25#') && document.body.dataset.painted !== '30@0.25#0'", 30, "the new scene")
    check(dt.evaluate("document.getElementById('overlay').hidden") and dt.evaluate(pixels) != before,
          f"a good save: the overlay goes, the new scene is painted at the same frame ({dt.evaluate('document.body.dataset.painted')}, {time.time() - started:.1f} s)")
    errors = dt.console_errors()
    check(not errors, f"no console errors ({len(errors)}: {errors[:3]})")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
