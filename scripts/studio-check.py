#!/usr/bin/env python3
"""Drives Strata Studio's page in headless Chromium over the DevTools protocol (a WebSocket
client written here on the standard library: no pip package) and checks what a person would
see. Called by scripts/studio-check.sh with:

    studio-check.py DEVTOOLS_PORT STUDIO_URL WORK_DIR SCREENSHOT_PATH TEMPLATE_FILE

WORK_DIR holds the stills `strata still` wrote: expected-30.png (frame 30, scale 0.5) and
expected-green-30.png (the same with --set accent=#00FF00). Exit status 0 when every check
passes; each check prints a line."""
import base64
import json
import os
import socket
import struct
import sys
import time
import urllib.request


class DevTools:
    """A minimal WebSocket (RFC 6455) client for one DevTools target."""

    def __init__(self, ws_url):
        rest = ws_url[len("ws://"):]
        hostport, path = rest.split("/", 1)
        host, port = hostport.split(":")
        self.sock = socket.create_connection((host, int(port)), timeout=60)
        key = base64.b64encode(os.urandom(16)).decode()
        request = (f"GET /{path} HTTP/1.1\r\nHost: {hostport}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                   f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n")
        self.sock.sendall(request.encode())
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = self.sock.recv(4096)
            if not chunk:
                raise RuntimeError("DevTools closed the WebSocket handshake")
            head += chunk
        head, self.buffer = head.split(b"\r\n\r\n", 1)
        if b" 101 " not in head.split(b"\r\n")[0]:
            raise RuntimeError("DevTools refused the WebSocket: " + head.decode(errors="replace"))
        self.next_id = 0
        self.events = []

    def _read(self, n):
        while len(self.buffer) < n:
            chunk = self.sock.recv(1 << 20)
            if not chunk:
                raise RuntimeError("DevTools closed the WebSocket")
            self.buffer += chunk
        data, self.buffer = self.buffer[:n], self.buffer[n:]
        return data

    def _frame(self):
        b0, b1 = self._read(2)
        length = b1 & 0x7F
        if length == 126:
            length = struct.unpack(">H", self._read(2))[0]
        elif length == 127:
            length = struct.unpack(">Q", self._read(8))[0]
        return b0 & 0x80, b0 & 0x0F, self._read(length)

    def _message(self):
        parts = []
        while True:
            fin, opcode, payload = self._frame()
            if opcode == 9:  # ping
                self._send(payload, opcode=10)
                continue
            if opcode == 8:
                raise RuntimeError("DevTools closed the WebSocket")
            parts.append(payload)
            if fin:
                return json.loads(b"".join(parts))

    def _send(self, payload, opcode=1):
        mask = os.urandom(4)
        header = bytes([0x80 | opcode])
        n = len(payload)
        if n < 126:
            header += bytes([0x80 | n])
        elif n < 65536:
            header += bytes([0x80 | 126]) + struct.pack(">H", n)
        else:
            header += bytes([0x80 | 127]) + struct.pack(">Q", n)
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        self.sock.sendall(header + mask + masked)

    def call(self, method, **params):
        self.next_id += 1
        ident = self.next_id
        self._send(json.dumps({"id": ident, "method": method, "params": params}).encode())
        while True:
            message = self._message()
            if message.get("id") == ident:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return message.get("result", {})
            self.events.append(message)

    def evaluate(self, expression, await_promise=True):
        if "const " in expression and not expression.lstrip().startswith("("):
            expression = "{ " + expression + " }"  # each snippet's names in a block of its own
        result = self.call("Runtime.evaluate", expression=expression, awaitPromise=await_promise, returnByValue=True)
        if "exceptionDetails" in result:
            raise RuntimeError(f"page script failed: {result['exceptionDetails']}")
        return result["result"].get("value")

    def wait_for(self, expression, timeout, what):
        deadline = time.time() + timeout
        while time.time() < deadline:
            value = self.evaluate(expression)
            if value:
                return value
            time.sleep(0.1)
        raise RuntimeError(f"timed out after {timeout} s waiting for {what}")

    def console_errors(self):
        errors = []
        for e in self.events:
            method, params = e.get("method"), e.get("params", {})
            if method == "Runtime.exceptionThrown":
                errors.append(params["exceptionDetails"].get("text", "exception") + " " +
                              str(params["exceptionDetails"].get("exception", {}).get("description", "")))
            elif method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
                errors.append(" ".join(str(a.get("value", a.get("description", ""))) for a in params.get("args", [])))
            elif method == "Log.entryAdded" and params["entry"].get("level") == "error":
                errors.append(params["entry"].get("text", "") + " " + params["entry"].get("url", ""))
        return errors


# Compares the page's canvas with a PNG (decoded by the same browser): the number of bytes of
# RGBA that differ, and the sizes.
COMPARE = """
(async () => {
  const bytes = Uint8Array.from(atob(%s), (c) => c.charCodeAt(0));
  const bitmap = await createImageBitmap(new Blob([bytes], {type: 'image/png'}));
  const c = new OffscreenCanvas(bitmap.width, bitmap.height);
  const x = c.getContext('2d');
  x.drawImage(bitmap, 0, 0);
  const want = x.getImageData(0, 0, bitmap.width, bitmap.height).data;
  const canvas = document.getElementById('canvas');
  const got = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
  let diff = 0;
  if (got.length === want.length) { for (let i = 0; i < got.length; i++) if (got[i] !== want[i]) diff++; }
  return JSON.stringify({diff, size: [canvas.width, canvas.height], want: [bitmap.width, bitmap.height]});
})()
"""


def main():
    devtools_port, url, work, screenshot, template_file = sys.argv[1:6]
    targets = json.load(urllib.request.urlopen(f"http://127.0.0.1:{devtools_port}/json/list"))
    page = next(t for t in targets if t.get("type") == "page")
    dt = DevTools(page["webSocketDebuggerUrl"])
    for domain in ("Runtime", "Log", "Page"):
        dt.call(f"{domain}.enable")
    dt.call("Emulation.setDeviceMetricsOverride", width=1440, height=900, deviceScaleFactor=1, mobile=False)
    failures = []

    def check(ok, line):
        print(("ok   " if ok else "FAIL ") + line)
        if not ok:
            failures.append(line)

    started = time.time()
    dt.call("Page.navigate", url=url)
    dt.wait_for("document.body && document.body.dataset.painted === '0@1#0'", 60, "the first frame painted")
    check(True, f"the page loads and paints frame 0 ({time.time() - started:.1f} s)")

    layers = dt.evaluate("[...document.querySelectorAll('.tl-row[data-layer]')].map((r) => r.dataset.layer)")
    check("plate" in layers, f"the timeline lists the layers: {layers}")
    params = dt.evaluate("[...document.querySelectorAll('[data-param]')].map((e) => e.name + ':' + e.type)")
    check("accent:text" in params and "duration:number" in params, f"the parameters panel: {params}")
    limits = dt.evaluate("[document.getElementById('p-duration').min, document.getElementById('p-duration').max].join('..')")
    check(limits == "2..60", f"the duration field has the template's limits ({limits})")

    # Scrub to frame 30 at half resolution: the canvas shows `strata still --time 1 --scale 0.5`.
    dt.evaluate("document.getElementById('res').value = '0.5'; document.getElementById('res').dispatchEvent(new Event('change')); "
                "const s = document.getElementById('scrub'); s.value = 30; s.dispatchEvent(new Event('input')); true")
    t0 = time.time()
    dt.wait_for("document.body.dataset.painted === '30@0.5#0'", 30, "frame 30 painted")
    scrub_ms = (time.time() - t0) * 1000
    with open(os.path.join(work, "expected-30.png"), "rb") as f:
        expected = base64.b64encode(f.read()).decode()
    result = json.loads(dt.evaluate(COMPARE % json.dumps(expected)))
    check(result["diff"] == 0 and result["size"] == result["want"],
          f"scrubbing to frame 30 paints strata still's frame: {result['diff']} differing bytes, canvas {result['size']} vs {result['want']} ({scrub_ms:.0f} ms)")

    # Scrub latency as the page sees it: input event → frame painted, 20 distinct frames.
    latencies = []
    for k in range(20):
        frame = 31 + k * 5
        dt.evaluate(f"window.scrubStart = performance.now(); const s = document.getElementById('scrub'); s.value = {frame}; s.dispatchEvent(new Event('input')); true")
        dt.wait_for(f"document.body.dataset.painted === '{frame}@0.5#0'", 30, f"frame {frame} painted")
        latencies.append(dt.evaluate("Number(document.body.dataset.paintedAt) - window.scrubStart"))
    latencies.sort()
    print(f"ok   scrub at half size, input event → drawImage done: median {latencies[10]:.0f} ms, p95 {latencies[18]:.0f} ms, max {latencies[-1]:.0f} ms (20 frames)")
    dt.evaluate("const s = document.getElementById('scrub'); s.value = 30; s.dispatchEvent(new Event('input')); true")
    dt.wait_for("document.body.dataset.painted === '30@0.5#0'", 30, "frame 30 painted again")

    # Keys: → steps a frame, Shift+← ten back.
    for key, code, modifiers in (("ArrowRight", 39, 0), ("ArrowLeft", 37, 8)):
        dt.call("Input.dispatchKeyEvent", type="rawKeyDown", key=key, code=key, windowsVirtualKeyCode=code, modifiers=modifiers)
        dt.call("Input.dispatchKeyEvent", type="keyUp", key=key, code=key, windowsVirtualKeyCode=code, modifiers=modifiers)
    dt.wait_for("document.body.dataset.painted === '21@0.5#0'", 30, "frame 21 after → and Shift+←")
    check(True, "→ and Shift+← step to frame 21")

    # A parameter edit re-renders: the canvas shows the still with --set accent=#00FF00.
    dt.evaluate("const a = document.getElementById('p-accent'); a.value = '#00FF00'; a.dispatchEvent(new Event('change')); "
                "const s = document.getElementById('scrub'); s.value = 30; s.dispatchEvent(new Event('input')); true")
    dt.wait_for("document.body.dataset.painted === '30@0.5#1'", 30, "frame 30 repainted with the new accent")
    with open(os.path.join(work, "expected-green-30.png"), "rb") as f:
        expected = base64.b64encode(f.read()).decode()
    result = json.loads(dt.evaluate(COMPARE % json.dumps(expected)))
    check(result["diff"] == 0, f"a parameter edit re-renders: {result['diff']} bytes differ from strata still --set accent=#00FF00")
    flags = dt.evaluate("document.getElementById('flags').value")
    check("--set accent='#00FF00'" in flags, "copy-as --set flags holds the new value")

    # Play for two seconds: frames advance, the achieved rate is shown.
    dt.evaluate("document.getElementById('play').click(); true")
    time.sleep(2.0)
    shown = dt.evaluate("document.getElementById('fps').textContent")
    dt.evaluate("document.getElementById('play').click(); true")
    check("/ 30 fps" in shown, f"playback shows the achieved rate: {shown}")

    # In/out: I and O at frames 10 and 19, playback loops inside them.
    dt.evaluate("const s = document.getElementById('scrub'); s.value = 10; s.dispatchEvent(new Event('input')); true")
    dt.wait_for("document.body.dataset.painted.startsWith('10@')", 30, "frame 10")
    for key, code, frame in (("i", 73, 10), ("o", 79, 19)):
        if key == "o":
            dt.evaluate("const s = document.getElementById('scrub'); s.value = 19; s.dispatchEvent(new Event('input')); true")
            dt.wait_for("document.body.dataset.painted.startsWith('19@')", 30, "frame 19")
        dt.call("Input.dispatchKeyEvent", type="keyDown", key=key, code="Key" + key.upper(), text=key, windowsVirtualKeyCode=code)
        dt.call("Input.dispatchKeyEvent", type="keyUp", key=key, code="Key" + key.upper(), windowsVirtualKeyCode=code)
    shown_range = dt.evaluate("document.getElementById('range').textContent")
    dt.evaluate("window.seen = new Set(); window.spy = new MutationObserver(() => window.seen.add(parseInt(document.body.dataset.painted))); "
                "window.spy.observe(document.body, {attributes: true, attributeFilter: ['data-painted']}); document.getElementById('play').click(); true")
    time.sleep(1.5)
    seen = dt.evaluate("document.getElementById('play').click(); window.spy.disconnect(); [...window.seen].sort((a, b) => a - b)")
    check(shown_range == "in 10 – out 19" and seen and min(seen) >= 10 and max(seen) <= 19 and len(seen) > 3,
          f"I/O set the range ({shown_range!r}); playback stays inside it: painted {seen}")
    dt.call("Input.dispatchKeyEvent", type="keyDown", key="x", code="KeyX", text="x", windowsVirtualKeyCode=88)
    dt.call("Input.dispatchKeyEvent", type="keyUp", key="x", code="KeyX", windowsVirtualKeyCode=88)

    # The render queue makes an MP4 that plays in a <video>.
    dt.evaluate("document.getElementById('r-name').value = 'studio-check'; document.getElementById('r-format').value = 'mp4'; "
                "document.getElementById('r-scale').value = '0.25'; document.getElementById('render').requestSubmit(); true")
    dt.wait_for("(() => { const v = document.querySelector('.job video'); return v && v.readyState >= 2 && v.videoWidth > 0; })()",
                180, "the rendered MP4 playing in a <video>")
    size = dt.evaluate("(() => { const v = document.querySelector('.job video'); return v.videoWidth + 'x' + v.videoHeight + ', ' + v.duration + ' s'; })()")
    check(size.startswith("480x270"), f"the render queue's MP4 plays in a <video> ({size})")

    # The contact sheet: 12 frames; clicking the sixth (row 2, column 2) goes to frame 62.
    dt.evaluate("document.getElementById('sheet-open').click(); true")
    dt.wait_for("(() => { const i = document.getElementById('sheet-img'); return i.complete && i.naturalWidth > 0; })()", 60, "the contact sheet")
    box = dt.evaluate("(() => { const b = document.getElementById('sheet-img').getBoundingClientRect(); return [b.left, b.top, b.width, b.height]; })()")
    x, y = box[0] + box[2] * 1.5 / 4, box[1] + box[3] * 1.5 / 3
    for kind in ("mousePressed", "mouseReleased"):
        dt.call("Input.dispatchMouseEvent", type=kind, x=x, y=y, button="left", clickCount=1)
    dt.wait_for("document.body.dataset.painted.startsWith('62@')", 30, "frame 62 from the contact sheet")
    check(True, "the contact sheet opens, and clicking its sixth frame goes to frame 62")

    # Clicking a layer's name outlines it on the frame and lists its presentation values (at
    # frame 45, where the plate has slid in: opacity 1).
    dt.evaluate("const s = document.getElementById('scrub'); s.value = 45; s.dispatchEvent(new Event('input')); true")
    dt.wait_for("document.body.dataset.painted.startsWith('45@')", 30, "frame 45")
    dt.evaluate("document.querySelector('.tl-row[data-layer=\\'plate\\'] .tl-name').click(); true")
    info = dt.wait_for("(() => { const t = document.getElementById('layer-info').textContent; return t.startsWith('plate') && t.includes('1.500 s') ? t : ''; })()", 30, "the layer's values at frame 45")
    outlined = dt.evaluate("!document.getElementById('outline').hidden && document.getElementById('outline').style.left")
    check(bool(outlined) and "opacity: 1" in info, f"clicking the layer 'plate' outlines it (left {outlined}) and lists its values")

    # Hot reload: the template edited on disk (the name's font size) is painted, playhead kept.
    before = dt.evaluate("document.body.dataset.painted")
    with open(template_file) as f:
        text = f.read()
    assert "fontSize: 64" in text
    t0 = time.time()
    with open(template_file, "w") as f:
        f.write(text.replace("fontSize: 64", "fontSize: 80"))
    while time.time() - t0 < 30:
        now = dt.evaluate("document.body.dataset.painted")
        if now != before and now.split("#")[1] != before.split("#")[1]:
            break
        time.sleep(0.01)
    edit_ms = (time.time() - t0) * 1000
    check(now.split("@")[0] == before.split("@")[0] and now != before,
          f"a template edit on disk is painted in {edit_ms:.0f} ms, the playhead kept ({before} → {now})")

    # A screenshot for the README: a later frame at full resolution, guides on, a row selected.
    dt.evaluate("document.getElementById('res').value = '1'; document.getElementById('res').dispatchEvent(new Event('change')); "
                "document.getElementById('guides').click(); "
                "const s = document.getElementById('scrub'); s.value = 45; s.dispatchEvent(new Event('input')); true")
    dt.wait_for("document.body.dataset.painted.startsWith('45@1#')", 60, "frame 45 at full size")
    time.sleep(0.3)
    shot = dt.call("Page.captureScreenshot", format="png")["data"]
    with open(screenshot, "wb") as f:
        f.write(base64.b64decode(shot))
    print(f"ok   screenshot: {screenshot}")

    errors = dt.console_errors()
    check(not errors, f"no console errors ({len(errors)}: {errors[:3]})")
    return 1 if failures else 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except Exception as e:  # noqa: BLE001 - a failed check says why
        print(f"FAIL {e}")
        sys.exit(1)
