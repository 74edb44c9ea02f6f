// The studio's page: HTML, CSS and JavaScript written for it (no CDN, no npm, no build step),
// kept as Swift string literals rather than package resources: a resource bundle has to sit
// next to the executable (`Bundle.module` stops the program when it is missing), and `strata`
// or a script's binary copied elsewhere — /usr/local/bin, a container image — would lose it.
// Compiled in, the page always comes with the server that serves it.
enum StudioAssets {
    /// The fixed set of files served besides `/`: path → (content type, text).
    static let files: [String: (type: String, text: String)] = [
        "/studio.css": ("text/css; charset=utf-8", css),
        "/studio.js": ("text/javascript; charset=utf-8", js),
    ]

    static let html = #"""
    <!doctype html>
    <html lang="en">
    <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <meta name="strata-token" content="{{TOKEN}}">
    <link rel="icon" href="data:,">
    <link rel="stylesheet" href="/studio.css">
    <title>Strata Studio</title>
    </head>
    <body>
    <header>
      <strong id="title">Strata Studio</strong>
      <span id="info"></span>
      <span class="grow"></span>
      <label>Zoom <select id="zoom">
        <option value="fit" selected>Fit</option><option value="0.25">25 %</option><option value="0.5">50 %</option>
        <option value="1">100 %</option><option value="2">200 %</option><option value="4">400 %</option><option value="8">800 %</option>
      </select></label>
      <label>Resolution <select id="res"><option value="1">Full</option><option value="0.5">Half</option><option value="0.25">Quarter</option></select></label>
      <label><input type="checkbox" id="guides"> Safe areas</label>
      <button id="sheet-open" type="button">Contact sheet</button>
      <a id="save" download="frame.png" href="#">Save frame as PNG</a>
    </header>
    <main>
      <section id="left">
        <div id="viewer">
          <div id="stage">
            <canvas id="canvas" width="16" height="9"></canvas>
            <div id="guide-action" class="guide" hidden></div>
            <div id="guide-title" class="guide" hidden></div>
            <div id="outline" hidden></div>
          </div>
          <div id="sheet" hidden><img id="sheet-img" alt="Contact sheet: click a frame to go to it"><button id="sheet-close" type="button">Close</button></div>
          <div id="overlay" hidden><pre id="overlay-text"></pre><button id="overlay-close" type="button">Dismiss</button></div>
        </div>
        <div id="transport">
          <button id="play" type="button" title="Play/pause (Space)">▶</button>
          <button id="prev" type="button" title="Previous frame (←, Shift: 10)">◀︎|</button>
          <button id="next" type="button" title="Next frame (→, Shift: 10)">|▶︎</button>
          <label><input type="checkbox" id="loop" checked> Loop</label>
          <button id="mark-in" type="button" title="Set the in point at the playhead (I)">In</button>
          <button id="mark-out" type="button" title="Set the out point at the playhead (O)">Out</button>
          <span id="range" title="Playback and the render's range (X clears)"></span>
          <input id="scrub" type="range" min="0" max="0" value="0" step="1">
          <input id="timecode" type="text" size="11" title="Seconds (1.5), frame (f45) or HH:MM:SS:FF; Enter to go">
          <span id="frameno"></span>
          <span id="fps" title="Frames painted per second while playing"></span>
        </div>
        <div id="timeline"></div>
      </section>
      <aside>
        <h2>Parameters</h2>
        <form id="params"></form>
        <div class="row" id="rows-box" hidden>
          <label>Data row <select id="rows-file"><option value="">CSV file…</option></select></label>
          <select id="rows-pick" hidden></select>
        </div>
        <div class="row"><button id="copy" type="button">Copy as --set flags</button></div>
        <textarea id="flags" rows="3" readonly></textarea>
        <h2>Layer</h2>
        <div id="layer-info">Click a layer's name in the timeline.</div>
        <h2>Render</h2>
        <form id="render">
          <label>File <input id="r-name" value="preview" size="14"></label>
          <select id="r-format"><option>mp4</option><option>gif</option><option>webm</option><option>mov</option><option>webp</option></select>
          <label>Scale <input id="r-scale" type="number" min="0.05" max="8" step="any" value="1"></label>
          <label><input type="checkbox" id="r-range"> In–out only</label>
          <button type="submit">Render</button>
        </form>
        <div id="jobs"></div>
      </aside>
    </main>
    <script src="/studio.js"></script>
    </body>
    </html>
    """#

    static let css = #"""
    * { box-sizing: border-box; }
    body { margin: 0; font: 13px/1.4 system-ui, sans-serif; background: #1e1f22; color: #ddd; height: 100vh; display: flex; flex-direction: column; }
    header { display: flex; gap: 12px; align-items: center; padding: 6px 10px; background: #2b2d31; border-bottom: 1px solid #111; }
    header a { color: #8ab4f8; }
    .grow { flex: 1; }
    main { flex: 1; display: flex; min-height: 0; }
    #left { flex: 1; display: flex; flex-direction: column; min-width: 0; }
    #viewer { flex: 1; position: relative; overflow: auto; background: #151618; display: flex; min-height: 200px; }
    #stage { position: relative; margin: auto; flex: none;
      background-color: #bbb;
      background-image: linear-gradient(45deg, #888 25%, transparent 25%), linear-gradient(-45deg, #888 25%, transparent 25%),
        linear-gradient(45deg, transparent 75%, #888 75%), linear-gradient(-45deg, transparent 75%, #888 75%);
      background-size: 16px 16px; background-position: 0 0, 0 8px, 8px -8px, -8px 0; }
    #canvas { display: block; width: 100%; height: 100%; }
    #canvas.pixelated { image-rendering: pixelated; }
    #sheet { position: absolute; inset: 0; background: rgba(10, 10, 12, .94); overflow: auto; padding: 12px; z-index: 2; }
    #sheet img { display: block; max-width: 100%; margin: 0 auto 8px; cursor: crosshair; }
    #outline { position: absolute; border: 2px solid #ff3b8d; pointer-events: none; box-shadow: 0 0 0 1px rgba(0,0,0,.6); }
    #layer-info { font: 11px/1.5 ui-monospace, monospace; color: #bbb; white-space: pre-wrap; }
    .guide { position: absolute; border: 1px dashed rgba(0, 255, 200, .8); pointer-events: none; }
    #guide-action { left: 3.5%; top: 3.5%; right: 3.5%; bottom: 3.5%; }
    #guide-title { left: 5%; top: 5%; right: 5%; bottom: 5%; border-color: rgba(255, 200, 0, .8); }
    #overlay { position: absolute; left: 16px; right: 16px; bottom: 16px; background: rgba(120, 0, 0, .92); color: #fff; padding: 10px; border-radius: 6px; max-height: 50%; overflow: auto; }
    #overlay.building { background: rgba(20, 50, 110, .92); }
    #overlay pre { margin: 0 0 8px; white-space: pre-wrap; font: 12px/1.4 ui-monospace, monospace; }
    #transport { display: flex; gap: 8px; align-items: center; padding: 6px 10px; background: #2b2d31; }
    #scrub { flex: 1; }
    #timeline { height: 190px; overflow: auto; background: #232428; border-top: 1px solid #111; position: relative; }
    .tl-row { display: flex; height: 20px; align-items: center; border-bottom: 1px solid #2e3035; }
    .tl-name { width: 150px; flex: none; padding: 0 6px; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; color: #aaa; }
    .tl-track { position: relative; flex: 1; height: 100%; }
    .tl-bar { position: absolute; top: 4px; height: 12px; background: #4c6ef5; opacity: .75; border-radius: 2px; }
    .tl-tick { position: absolute; top: 2px; width: 1px; height: 16px; background: #ffd43b; }
    .tl-marker { position: absolute; top: 0; height: 100%; border-left: 1px solid #ff6b6b; padding-left: 2px; font-size: 11px; color: #ff8787; white-space: nowrap; }
    .tl-row.selected { background: #31343b; }
    #playhead { position: absolute; top: 0; bottom: 0; width: 1px; background: #fff; pointer-events: none; }
    aside { width: 330px; flex: none; overflow: auto; padding: 6px 12px; background: #26272b; border-left: 1px solid #111; }
    aside h2 { font-size: 13px; text-transform: uppercase; letter-spacing: .05em; color: #999; margin: 12px 0 6px; }
    .param { margin-bottom: 8px; }
    .param label { display: block; color: #bbb; }
    .param input[type=text], .param input[type=number], .param select, .param textarea { width: 100%; background: #1b1c1f; color: #eee; border: 1px solid #444; padding: 3px; }
    .param .help { color: #888; font-size: 11px; }
    .param .err, .err { color: #ff8787; font-size: 12px; }
    #flags { width: 100%; background: #1b1c1f; color: #ccc; border: 1px solid #444; font: 11px ui-monospace, monospace; }
    .job { border: 1px solid #3a3c42; padding: 6px; margin: 6px 0; border-radius: 4px; }
    .job progress { width: 100%; }
    .job video, .job img { width: 100%; margin-top: 4px; }
    button { background: #3b3e45; color: #eee; border: 1px solid #555; border-radius: 3px; padding: 2px 8px; cursor: pointer; }
    input, select { background: #1b1c1f; color: #eee; border: 1px solid #444; }
    """#

    static let js = #"""
    'use strict';
    (() => {
    const $ = (id) => document.getElementById(id);
    const token = document.querySelector('meta[name="strata-token"]').content;
    const canvas = $('canvas'), ctx = canvas.getContext('2d');
    const state = { scene: null, frame: 0, playing: false, gen: 0, painted: -1, paintedGen: -1, paintedScale: 0, selected: null, in: 0, out: null };

    function scale() { return Number($('res').value); }
    // Uncompressed PNGs: the same pixels as strata still's, without the compression's cost.
    function frameURL(n, s, g) { return '/api/frame?frame=' + n + '&scale=' + s + '&compression=none&v=' + g; }
    function fps() { return state.scene ? state.scene.fps : 30; }
    function lastFrame() { return state.scene ? Math.max(0, state.scene.frameCount - 1) : 0; }
    function outFrame() { return state.out === null ? lastFrame() : Math.min(state.out, lastFrame()); }
    function showRange() {
      const whole = state.in === 0 && state.out === null;
      $('range').textContent = whole ? '' : 'in ' + state.in + ' – out ' + outFrame();
    }
    function setIn(n) { state.in = Math.min(n, outFrame()); showRange(); }
    function setOut(n) { state.out = Math.max(n, state.in); showRange(); }
    $('mark-in').addEventListener('click', () => setIn(state.frame));
    $('mark-out').addEventListener('click', () => setOut(state.frame));
    function pad(n, w) { return String(n).padStart(w || 2, '0'); }
    function timecode(n) {
      const f = Math.round(fps()), secs = Math.floor(n / fps() + 1e-9), ff = n - Math.round(secs * fps());
      return pad(Math.floor(secs / 3600)) + ':' + pad(Math.floor(secs / 60) % 60) + ':' + pad(secs % 60) + ':' + pad(Math.max(0, Math.min(f - 1, ff)));
    }

    function showError(message) {
      $('overlay').classList.remove('building');
      $('overlay-text').textContent = message;
      $('overlay').hidden = false;
    }
    // A Swift package's build (strata preview PACKAGE): its progress over the last good frame.
    function showBuild(text) {
      $('overlay').classList.add('building');
      $('overlay-text').textContent = text;
      $('overlay').hidden = false;
    }
    function hideError() { $('overlay').hidden = true; $('overlay').classList.remove('building'); }
    $('overlay-close').addEventListener('click', hideError);

    async function fetchBitmap(n, s, g) {
      const r = await fetch(frameURL(n, s, g));
      if (!r.ok) {
        let message = 'HTTP ' + r.status;
        try { message = (await r.json()).error; } catch (e) { /* not JSON */ }
        throw new Error(message);
      }
      return createImageBitmap(await r.blob());
    }

    function paint(bitmap, n, s, g) {
      if (canvas.width !== bitmap.width || canvas.height !== bitmap.height) {
        canvas.width = bitmap.width; canvas.height = bitmap.height;
      }
      ctx.clearRect(0, 0, canvas.width, canvas.height);
      ctx.drawImage(bitmap, 0, 0);
      bitmap.close();
      state.painted = n; state.paintedGen = g; state.paintedScale = s;
      document.body.dataset.painted = n + '@' + s + '#' + g;
      document.body.dataset.paintedAt = performance.now();
    }

    // Scrubbing: one request in flight; when it lands, the newest wanted frame is asked for next.
    let inFlight = false;
    async function requestFrame() {
      if (inFlight || state.playing) return;
      const n = state.frame, s = scale(), g = state.gen;
      if (n === state.painted && g === state.paintedGen && s === state.paintedScale) return;
      inFlight = true;
      try {
        const bitmap = await fetchBitmap(n, s, g);
        if (!state.playing) paint(bitmap, n, s, g); else bitmap.close();
      } catch (e) {
        showError(String(e.message || e));
      } finally {
        inFlight = false;
      }
      if (!state.playing && (state.frame !== n || state.gen !== g || scale() !== s)) requestFrame();
    }

    function seek(n) {
      state.frame = Math.max(0, Math.min(lastFrame(), Math.round(n)));
      updateTransport();
      requestFrame();
      inspect();
    }

    // The selected layer's presentation at the playhead: outlined on the frame, values listed.
    let inspecting = false;
    async function inspect() {
      if (!state.selected || !state.scene || inspecting || state.playing) return;
      inspecting = true;
      const name = state.selected, n = state.frame;
      try {
        const r = await fetch('/api/layer?name=' + encodeURIComponent(name) + '&t=' + (n / fps()));
        const j = await r.json();
        const o = $('outline');
        if (!r.ok) { $('layer-info').textContent = j.error; o.hidden = true; return; }
        if (j.frame) {
          const s = state.scene;
          o.style.left = (100 * j.frame[0] / s.width) + '%'; o.style.top = (100 * j.frame[1] / s.height) + '%';
          o.style.width = (100 * j.frame[2] / s.width) + '%'; o.style.height = (100 * j.frame[3] / s.height) + '%';
          o.hidden = false;
        } else { o.hidden = true; }
        const lines = [j.name + ' (' + j.type + ') at ' + Number(j.t).toFixed(3) + ' s'];
        for (const k of Object.keys(j.values).sort()) {
          const v = j.values[k];
          lines.push(k + ': ' + (Array.isArray(v) ? v.map((x) => +Number(x).toFixed(3)).join(', ') : (typeof v === 'number' ? +v.toFixed(4) : v)));
        }
        $('layer-info').textContent = lines.join('\n');
      } finally {
        inspecting = false;
      }
      if (state.frame !== n || state.selected !== name) inspect();
    }

    function updateTransport() {
      $('scrub').value = state.frame;
      $('timecode').value = timecode(state.frame);
      $('frameno').textContent = 'frame ' + state.frame + ' / ' + lastFrame() + '  (' + (state.frame / fps()).toFixed(3) + ' s)';
      $('save').href = '/api/frame?frame=' + state.frame + '&scale=1&v=' + state.gen;
      $('save').download = (state.scene ? state.scene.name : 'frame') + '-' + state.frame + '.png';
      const ph = $('playhead');
      if (ph && state.scene) ph.style.left = 'calc(150px + (100% - 150px) * ' + (state.frame / Math.max(1, state.scene.frameCount)) + ')';
    }

    // Playback at the scene's rate: frames prefetched a few ahead; a frame not ready when its
    // time has passed is dropped, never waited for.
    let play = null;
    function startPlayback() {
      if (!state.scene) return;
      if (state.frame >= outFrame() || state.frame < state.in) state.frame = state.in;
      state.playing = true;
      $('play').textContent = '❚❚';
      play = { start: performance.now(), first: state.frame, pending: new Map(), ready: new Map(), paints: [], s: scale(), g: state.gen };
      requestAnimationFrame(tick);
    }
    function stopPlayback() {
      state.playing = false;
      $('play').textContent = '▶';
      if (play) for (const b of play.ready.values()) b.close();
      play = null;
      requestFrame();
      inspect();
    }
    function tick(now) {
      if (!state.playing || !play) return;
      if (play.g !== state.gen || play.s !== scale()) {
        for (const b of play.ready.values()) b.close();
        play.ready.clear(); play.pending.clear(); play.g = state.gen; play.s = scale();
      }
      let due = play.first + Math.floor((now - play.start) / 1000 * fps());
      if (due > outFrame()) {
        if ($('loop').checked) { play.start = now; play.first = state.in; due = state.in;
          for (const b of play.ready.values()) b.close(); play.ready.clear(); }
        else { state.frame = outFrame(); updateTransport(); stopPlayback(); return; }
      }
      for (let k = due; k <= Math.min(outFrame(), due + 12) && play.pending.size < 4; k++) {
        if (play.pending.has(k) || play.ready.has(k) || k === state.painted && state.paintedGen === state.gen) continue;
        const p = play, g = state.gen;
        p.pending.set(k, fetchBitmap(k, p.s, g).then((b) => {
          p.pending.delete(k);
          if (play === p && p.g === g && k >= p.first) p.ready.set(k, b); else b.close();
        }, () => { p.pending.delete(k); }));
      }
      let best = -1;
      for (const k of play.ready.keys()) if (k <= due && k > best) best = k;
      if (best >= 0 && best !== state.painted) {
        paint(play.ready.get(best), best, play.s, play.g);
        play.ready.delete(best);
        state.frame = best;
        updateTransport();
        play.paints.push(now);
      }
      for (const [k, b] of play.ready) if (k < due) { b.close(); play.ready.delete(k); }
      while (play.paints.length && now - play.paints[0] > 1000) play.paints.shift();
      $('fps').textContent = play.paints.length + ' / ' + Math.round(fps()) + ' fps';
      requestAnimationFrame(tick);
    }
    $('play').addEventListener('click', () => state.playing ? stopPlayback() : startPlayback());
    $('prev').addEventListener('click', (e) => seek(state.frame - (e.shiftKey ? 10 : 1)));
    $('next').addEventListener('click', (e) => seek(state.frame + (e.shiftKey ? 10 : 1)));
    $('scrub').addEventListener('input', () => { if (state.playing) stopPlayback(); seek(Number($('scrub').value)); });
    $('timecode').addEventListener('keydown', (e) => {
      if (e.key !== 'Enter') return;
      const v = $('timecode').value.trim();
      let n = NaN;
      if (/^f\d+$/i.test(v)) n = Number(v.slice(1));
      else if (/^\d+(\.\d+)?$/.test(v)) n = Math.round(Number(v) * fps());
      else if (/^\d+:\d+:\d+:\d+$/.test(v)) { const p = v.split(':').map(Number); n = Math.round((p[0] * 3600 + p[1] * 60 + p[2]) * fps()) + p[3]; }
      if (Number.isNaN(n)) showError('timecode "' + v + '": expected seconds (1.5), a frame (f45) or HH:MM:SS:FF'); else seek(n);
    });
    document.addEventListener('keydown', (e) => {
      if (e.target instanceof HTMLInputElement || e.target instanceof HTMLTextAreaElement || e.target instanceof HTMLSelectElement) return;
      const step = e.shiftKey ? 10 : 1;
      if (e.key === 'ArrowLeft') { seek(state.frame - step); e.preventDefault(); }
      else if (e.key === 'ArrowRight') { seek(state.frame + step); e.preventDefault(); }
      else if (e.key === 'Home') { seek(0); e.preventDefault(); }
      else if (e.key === 'End') { seek(lastFrame()); e.preventDefault(); }
      else if (e.key === ' ') { state.playing ? stopPlayback() : startPlayback(); e.preventDefault(); }
      else if (e.key === 'i' || e.key === 'I') setIn(state.frame);
      else if (e.key === 'o' || e.key === 'O') setOut(state.frame);
      else if (e.key === 'x' || e.key === 'X') { state.in = 0; state.out = null; showRange(); }
    });

    // Zoom: fitted to the viewer, or a fixed percentage (pixel-exact from 100 %).
    function layout() {
      if (!state.scene) return;
      const v = $('viewer'), z = $('zoom').value;
      let k;
      if (z === 'fit') k = Math.min((v.clientWidth - 24) / state.scene.width, (v.clientHeight - 24) / state.scene.height);
      else k = Number(z);
      k = Math.max(0.05, k);
      $('stage').style.width = Math.round(state.scene.width * k) + 'px';
      $('stage').style.height = Math.round(state.scene.height * k) + 'px';
      canvas.classList.toggle('pixelated', k >= 1);
    }
    $('zoom').addEventListener('change', layout);
    $('res').addEventListener('change', () => requestFrame());
    window.addEventListener('resize', layout);
    $('guides').addEventListener('change', () => { $('guide-action').hidden = $('guide-title').hidden = !$('guides').checked; });

    // The contact sheet: 12 frames at even times; clicking one goes to it.
    $('sheet-open').addEventListener('click', () => {
      $('sheet-img').src = '/api/sheet?count=12&columns=4&reduction=4&scale=0.5&v=' + state.gen;
      $('sheet').hidden = false;
    });
    $('sheet-close').addEventListener('click', () => { $('sheet').hidden = true; });
    $('sheet-img').addEventListener('click', (e) => {
      const img = $('sheet-img'), box = img.getBoundingClientRect(), s = state.scene;
      const rows = Math.ceil(12 / 4);
      const col = Math.min(3, Math.floor((e.clientX - box.left) / box.width * 4));
      const row = Math.min(rows - 1, Math.floor((e.clientY - box.top) / box.height * rows));
      const i = row * 4 + col;
      seek(Math.min(lastFrame(), Math.floor(i * s.duration / 12 * s.fps + 1e-9)));
      $('sheet').hidden = true;
    });

    // The timeline: a row per named layer, bars for its animations, ticks for their keyframes.
    function buildTimeline() {
      const tl = $('timeline'), s = state.scene;
      tl.textContent = '';
      const pct = (t) => (100 * t / s.duration) + '%';
      if (s.markers.length) {
        const row = document.createElement('div'); row.className = 'tl-row';
        const name = document.createElement('div'); name.className = 'tl-name'; name.textContent = 'markers';
        const track = document.createElement('div'); track.className = 'tl-track';
        for (const m of s.markers) {
          const d = document.createElement('div'); d.className = 'tl-marker'; d.style.left = pct(m.time); d.textContent = m.name;
          d.title = m.name + ' at ' + m.time + ' s';
          track.appendChild(d);
        }
        row.append(name, track); tl.appendChild(row);
      }
      for (const r of s.timeline) {
        const row = document.createElement('div'); row.className = 'tl-row'; row.dataset.layer = r.layer;
        const name = document.createElement('div'); name.className = 'tl-name'; name.textContent = r.layer;
        name.style.paddingLeft = (6 + 8 * Math.max(0, r.depth - 1)) + 'px'; name.title = r.layer + ' (' + r.type + ')';
        const track = document.createElement('div'); track.className = 'tl-track';
        for (const a of r.animations) {
          const bar = document.createElement('div'); bar.className = 'tl-bar';
          bar.style.left = pct(a.begin); bar.style.width = pct(Math.max(0, a.end - a.begin));
          bar.title = (a.keyPath || a.kind) + ': ' + a.begin.toFixed(3) + '–' + a.end.toFixed(3) + ' s';
          track.appendChild(bar);
          for (const t of a.ticks) { const k = document.createElement('div'); k.className = 'tl-tick'; k.style.left = pct(t); track.appendChild(k); }
        }
        track.addEventListener('click', (e) => {
          const box = track.getBoundingClientRect();
          seek((e.clientX - box.left) / box.width * s.frameCount);
        });
        name.addEventListener('click', () => {
          for (const el of tl.querySelectorAll('.tl-row.selected')) el.classList.remove('selected');
          row.classList.add('selected');
          state.selected = r.layer;
          inspect();
        });
        row.append(name, track); tl.appendChild(row);
      }
      const ph = document.createElement('div'); ph.id = 'playhead'; tl.appendChild(ph);
    }

    // The parameters panel, from the JSON Schema of the template's values.
    function buildParameters() {
      const form = $('params'), s = state.scene;
      form.textContent = '';
      const schema = s.parameters.schema, values = s.parameters.values || {};
      if (!schema || !schema.properties || !Object.keys(schema.properties).length) {
        form.textContent = 'This target has no parameters.';
        updateFlags();
        return;
      }
      for (const name of Object.keys(schema.properties).sort()) {
        const p = schema.properties[name], value = values[name];
        const box = document.createElement('div'); box.className = 'param';
        const label = document.createElement('label'); label.textContent = name; label.htmlFor = 'p-' + name;
        let input, read;
        if (p.enum) {
          input = document.createElement('select');
          for (const v of p.enum) { const o = document.createElement('option'); o.textContent = v; input.appendChild(o); }
          input.value = value; read = () => input.value;
        } else if (p.type === 'boolean') {
          input = document.createElement('input'); input.type = 'checkbox'; input.checked = value === true || value === 'true';
          read = () => input.checked;
        } else if (p.type === 'number' || p.type === 'integer') {
          input = document.createElement('input'); input.type = 'number';
          if (p.minimum !== undefined) input.min = p.minimum;
          if (p.maximum !== undefined) input.max = p.maximum;
          input.step = p.type === 'integer' ? '1' : 'any';
          input.value = value === undefined ? '' : value;
          read = () => input.value === '' ? null : Number(input.value);
        } else if (p.anyOf) {
          input = document.createElement('input'); input.type = 'text'; input.value = value === undefined ? '' : (Array.isArray(value) ? JSON.stringify(value) : value);
          const picker = document.createElement('input'); picker.type = 'color';
          if (/^#[0-9a-f]{6}$/i.test(input.value)) picker.value = input.value;
          picker.addEventListener('input', () => { input.value = picker.value; });
          picker.addEventListener('change', () => send(name, read(), box));
          box.appendChild(picker);
          read = () => input.value;
        } else if (p.type === 'array') {
          input = document.createElement('textarea'); input.rows = 2; input.value = JSON.stringify(value === undefined ? [] : value);
          read = () => { try { return JSON.parse(input.value); } catch (e) { return input.value; } };
        } else {
          input = document.createElement('input'); input.type = 'text'; input.value = value === undefined ? '' : value;
          if (p.maxLength !== undefined) input.maxLength = p.maxLength;
          read = () => input.value;
          // A path parameter: the files of the template's folder its kind takes, to pick from.
          const kinds = { image: /\.(png|jpe?g|webp|gif|bmp|tiff?)$/i, video: /\.(mp4|mov|m4v|webm|mkv|gif)$/i, audio: /\.(wav|mp3|m4a|aac|flac|ogg|opus)$/i,
            csv: /\.csv$/i, json: /\.json$/i, captions: /\.(srt|vtt)$/i, file: /./ };
          if (p['x-kind'] && kinds[p['x-kind']]) {
            const list = document.createElement('datalist'); list.id = 'files-' + name;
            for (const f of (s.files || []).filter((f) => kinds[p['x-kind']].test(f))) { const o = document.createElement('option'); o.value = f; list.appendChild(o); }
            input.setAttribute('list', list.id);
            box.appendChild(list);
          }
        }
        input.id = 'p-' + name; input.name = name; input.dataset.param = name;
        input.addEventListener('change', () => send(name, read(), box));
        box.prepend(label);
        box.appendChild(input);
        if (p.description) { const h = document.createElement('div'); h.className = 'help'; h.textContent = p.description; box.appendChild(h); }
        const err = document.createElement('div'); err.className = 'err'; box.appendChild(err);
        form.appendChild(box);
      }
      updateFlags();
    }

    async function send(name, value, box) {
      const err = box.querySelector('.err');
      err.textContent = '';
      const body = {}; body[name] = value;
      const r = await fetch('/api/parameters', { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Strata-Token': token }, body: JSON.stringify(body) });
      const j = await r.json();
      if (!r.ok) { err.textContent = j.error; return; }
      state.scene.parameters.values = j.values;
      state.gen = j.generation;
      updateFlags();
      requestFrame();
    }

    // A row of a CSV file beside the template fills the parameters its columns name.
    function buildRows() {
      const csvs = (state.scene.files || []).filter((f) => /\.csv$/i.test(f));
      $('rows-box').hidden = !csvs.length || !state.scene.parameters.schema;
      const sel = $('rows-file');
      while (sel.options.length > 1) sel.remove(1);
      for (const f of csvs) { const o = document.createElement('option'); o.value = o.textContent = f; sel.appendChild(o); }
      $('rows-pick').hidden = true;
    }
    let rowData = null;
    $('rows-file').addEventListener('change', async () => {
      const file = $('rows-file').value, pick = $('rows-pick');
      pick.textContent = ''; pick.hidden = true; rowData = null;
      if (!file) return;
      const r = await fetch('/api/rows?file=' + encodeURIComponent(file));
      const j = await r.json();
      if (!r.ok) { showError(j.error); return; }
      rowData = j;
      const props = state.scene.parameters.schema.properties;
      const named = j.columns.filter((c) => props[c]);
      const head = document.createElement('option'); head.value = '';
      head.textContent = named.length ? j.count + ' rows: pick one' : 'no column names a parameter';
      pick.appendChild(head);
      j.rows.forEach((row, i) => {
        const o = document.createElement('option'); o.value = i;
        o.textContent = 'line ' + row.line + ': ' + named.slice(0, 3).map((c) => row.fields[c]).join(' · ');
        pick.appendChild(o);
      });
      pick.hidden = false;
    });
    $('rows-pick').addEventListener('change', async () => {
      const i = $('rows-pick').value;
      if (i === '' || !rowData) return;
      const props = state.scene.parameters.schema.properties, body = {};
      for (const [k, v] of Object.entries(rowData.rows[Number(i)].fields)) {
        const p = props[k];
        if (!p) continue;
        if (p.type === 'number' || p.type === 'integer') body[k] = v === '' ? null : Number(v);
        else if (p.type === 'boolean') body[k] = v === 'true';
        else if (p.type === 'array') { try { body[k] = JSON.parse(v); } catch (e) { body[k] = v.split(',').map((x) => x.trim()); } }
        else body[k] = v;
      }
      const r = await fetch('/api/parameters', { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Strata-Token': token }, body: JSON.stringify(body) });
      const j = await r.json();
      if (!r.ok) { showError('row ' + rowData.rows[Number(i)].line + ': ' + j.error); return; }
      state.gen = j.generation;
      state.scene.parameters.values = j.values;
      buildParameters();
      requestFrame();
    });

    function shellQuote(v) { return "'" + String(v).replace(/'/g, "'\\''") + "'"; }
    function updateFlags() {
      const values = (state.scene && state.scene.parameters.values) || {};
      $('flags').value = Object.keys(values).sort().map((k) => {
        const v = values[k];
        return '--set ' + k + '=' + shellQuote(typeof v === 'object' ? JSON.stringify(v) : v);
      }).join(' ');
    }
    $('copy').addEventListener('click', async () => {
      updateFlags();
      $('flags').select();
      try { await navigator.clipboard.writeText($('flags').value); } catch (e) { /* selected for copying by hand */ }
    });

    // The render queue.
    const jobs = new Map();
    $('render').addEventListener('submit', async (e) => {
      e.preventDefault();
      const body = { output: $('r-name').value + '.' + $('r-format').value, scale: Number($('r-scale').value) };
      if ($('r-range').checked) { body.from = state.in; body.to = outFrame(); }
      const r = await fetch('/api/render', { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Strata-Token': token }, body: JSON.stringify(body) });
      const j = await r.json();
      if (!r.ok) { showError('render: ' + j.error); return; }
      jobs.set(j.id, j); drawJobs(); pollJobs();
    });
    let polling = false;
    async function pollJobs() {
      if (polling) return;
      polling = true;
      while ([...jobs.values()].some((j) => j.state === 'queued' || j.state === 'running')) {
        await new Promise((r) => setTimeout(r, 400));
        for (const id of jobs.keys()) {
          const j = jobs.get(id);
          if (j.state !== 'queued' && j.state !== 'running') continue;
          const r = await fetch('/api/render/' + id);
          if (r.ok) jobs.set(id, await r.json());
        }
        drawJobs();
      }
      polling = false;
    }
    function drawJobs() {
      const list = $('jobs');
      for (const j of [...jobs.values()].reverse()) {
        let box = list.querySelector('[data-job="' + j.id + '"]');
        if (!box) { box = document.createElement('div'); box.className = 'job'; box.dataset.job = j.id; list.prepend(box); }
        if (box.dataset.state === 'done') continue;
        box.dataset.state = j.state;
        box.textContent = '';
        const head = document.createElement('div');
        head.textContent = j.output + ' — ' + j.state + (j.state === 'running' ? ' ' + j.framesDone + '/' + j.frameCount + ', ETA ' + Math.round(j.secondsRemaining) + ' s' : '');
        box.appendChild(head);
        if (j.state === 'queued' || j.state === 'running') {
          const p = document.createElement('progress'); p.max = 1; p.value = j.progress; box.appendChild(p);
          const c = document.createElement('button'); c.type = 'button'; c.textContent = 'Cancel';
          c.addEventListener('click', () => fetch('/api/render/' + j.id + '/cancel', { method: 'POST', headers: { 'X-Strata-Token': token } }));
          box.appendChild(c);
        } else if (j.state === 'done') {
          const isVideo = /\.(mp4|webm|mov)$/.test(j.output);
          const media = document.createElement(isVideo ? 'video' : 'img');
          media.src = j.file; if (isVideo) { media.controls = true; media.loop = true; }
          const a = document.createElement('a'); a.href = j.file; a.download = j.output; a.textContent = 'Download';
          box.append(media, a);
        } else if (j.error) {
          const e = document.createElement('div'); e.className = 'err'; e.textContent = j.error; box.appendChild(e);
        }
      }
    }

    async function loadScene() {
      const r = await fetch('/api/scene');
      const s = await r.json();
      if (!r.ok) { showError(s.error); return; }
      state.scene = s; state.gen = s.generation;
      $('title').textContent = s.name;
      $('info').textContent = s.width + '×' + s.height + ' · ' + s.fps + ' fps · ' + s.duration + ' s · ' + s.frameCount + ' frames';
      $('scrub').max = lastFrame();
      if (s.error) showError(s.error);
      state.frame = Math.min(state.frame, lastFrame());
      state.in = Math.min(state.in, lastFrame());
      showRange();
      layout(); buildTimeline(); buildParameters(); buildRows(); updateTransport(); requestFrame();
      if (state.selected) {
        const row = $('timeline').querySelector('.tl-row[data-layer="' + CSS.escape(state.selected) + '"]');
        if (row) { row.classList.add('selected'); inspect(); } else { state.selected = null; $('outline').hidden = true; }
      }
    }

    const events = new EventSource('/api/events');
    events.addEventListener('reload', () => { hideError(); loadScene(); });
    events.addEventListener('parameters', (e) => { if (JSON.parse(e.data).generation !== state.gen) loadScene(); });
    events.addEventListener('error', (e) => { if (e.data) showError(JSON.parse(e.data).message); });
    events.addEventListener('build', (e) => {
      const d = JSON.parse(e.data);
      if (d.state === 'started') showBuild('Building ' + d.product + '…');
      else if (d.state === 'progress' && !$('overlay').hidden && $('overlay').classList.contains('building')) showBuild('Building ' + d.product + '…\n' + d.line);
      else if (d.state === 'built') showBuild('Built ' + d.product + ' in ' + d.seconds.toFixed(1) + ' s; starting it…');
    });
    events.addEventListener('hello', (e) => { const d = JSON.parse(e.data); if (state.scene && d.generation !== state.gen) loadScene(); });

    loadScene();
    })();
    """#
}
