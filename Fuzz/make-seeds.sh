#!/usr/bin/env bash
# Regenerates the seed corpora in Fuzz/Corpus from small synthetic media (made with the ffmpeg
# CLI, as the media tests make theirs) and the repository's own templates and data files. The
# seeds are committed; run this only to change them. Every seed stays small (a few KB).
set -euo pipefail
cd "$(dirname "$0")"
C=Corpus
mkdir -p $C/image $C/media $C/gif $C/template $C/expression $C/rows $C/captions
ff() { ffmpeg -v error -y "$@"; }

# Images: PNG (RGBA, palette, 16-bit grey), JPEG (4:2:0 and grey), WebP (lossy, lossless, alpha).
src="testsrc2=size=24x16:rate=1"
ff -f lavfi -i "$src" -frames:v 1 -vf format=rgba,geq=r='X*10':g='Y*14':b=90:a='X*10' $C/image/rgba.png
ff -f lavfi -i "$src" -frames:v 1 -pix_fmt pal8 $C/image/palette.png
ff -f lavfi -i "$src" -frames:v 1 -pix_fmt gray16be $C/image/gray16.png
ff -f lavfi -i "$src" -frames:v 1 -pix_fmt yuvj420p -q:v 5 $C/image/photo.jpg
ff -f lavfi -i "$src" -frames:v 1 -pix_fmt gray -q:v 5 $C/image/gray.jpg
ff -f lavfi -i "$src" -frames:v 1 -c:v libwebp -quality 50 $C/image/lossy.webp
ff -f lavfi -i "$src" -frames:v 1 -c:v libwebp -lossless 1 $C/image/lossless.webp
ff -f lavfi -i "$src" -frames:v 1 -vf format=yuva420p -c:v libwebp $C/image/alpha.webp
# A decompression bomb's header: an IHDR declaring 100 000 × 100 000 pixels and nothing else.
printf '\x89PNG\r\n\x1a\n\x00\x00\x00\x0dIHDR\x00\x01\x86\xa0\x00\x01\x86\xa0\x08\x06\x00\x00\x00\x00\x00\x00\x00' > $C/image/bomb-header.png

# Media: H.264 MP4, MOV rotated by its display matrix, VP9 + PCM in MKV, VP8 WebM, GIF, WAV, AAC in M4A, MPEG-4
# in MKV with audio, a truncated MP4 and an MJPEG AVI.
v="testsrc2=size=32x18:rate=5"
a="sine=frequency=440:sample_rate=8000:duration=0.6"
ff -f lavfi -i "$v" -t 0.6 -c:v libx264 -preset ultrafast -g 2 -pix_fmt yuv420p $C/media/h264.mp4
ff -i $C/media/h264.mp4 -c copy -metadata:s:v:0 rotate=270 $C/media/rotated.mov
ff -f lavfi -i "$v" -f lavfi -i "$a" -t 0.6 -c:v libvpx-vp9 -deadline realtime -c:a pcm_s16le $C/media/vp9.mkv
ff -f lavfi -i "$v" -t 0.6 -c:v libvpx -deadline realtime $C/media/vp8.webm
ff -f lavfi -i "$v" -t 0.6 $C/media/clip.gif
ff -f lavfi -i "$a" -ac 1 $C/media/tone.wav
ff -f lavfi -i "$a" -c:a aac -b:a 16k $C/media/tone.m4a
ff -f lavfi -i "$v" -f lavfi -i "$a" -t 0.6 -c:v mpeg4 -c:a pcm_u8 -vf setsar=2/1 $C/media/sar.mkv
ff -f lavfi -i "$v" -t 0.6 -c:v mjpeg $C/media/mjpeg.avi
head -c 1500 $C/media/h264.mp4 > $C/media/truncated.mp4

# GIF encoder options: the bytes are read as option values, a size, a rate and pixels.
printf '\x05\x00\x01\x02\x05\x80\x01\x00\x01\x05\x03\x00\x01\x05\x1e\x05\x01\x00\x01\x00\x08\x08\x00\x00\x1e\x00\x03' > $C/gif/defaults
printf '\x05\x03\x02\x01\x05\x10\x01\x01\x01\x05\x02\x01\x05\x0c\x05\x01\x01\x05\x04\x01\x05\x02\x10\x0c\x05\x3c\x05\x01\x01\x05\x04\x05\xff\x00\x40\x80\xc0\x10\x20' > $C/gif/global-keyframes
printf '\x05\x01\x00\x00\x05\x02\x00\x02\x01\x05\x03\x00\x00\x00\x03\x02\x05\x18\x05\x01\x00\x05\x00\xff\x00\x00\x7f' > $C/gif/transparent

# Templates: the gallery's and a few small documents.
for t in ../Templates/*/*.yaml; do cp "$t" "$C/template/$(basename "$t")"; done
cat > $C/template/small.json <<'JSON'
{"size": [64, 36], "duration": 1, "fps": 10,
 "parameters": [{"name": "title", "type": "text", "default": "Hi"}, {"name": "n", "type": "number", "default": 3}],
 "layers": [{"type": "text", "text": "{{ upper(title) }}", "frame": [0, 0, 64, 36]},
            {"type": "shape", "forEach": "{{ range(n) }}", "as": "i", "frame": ["{{ i * 10 }}", 0, 8, 8]}]}
JSON

# Hostile documents: large and non-finite numbers in every kind of value, format patterns with
# huge widths, and loops and repeats of a billion.
cat > $C/template/hostile-numbers.yaml <<'YAML'
size: [64, 36]
duration: 1
fps: 10
layers:
  - {type: layer, size: [1e300, 1e300], position: [32, 18], backgroundColor: red, shadowOpacity: 1, shadowRadius: 1e19, shadowOffset: [1e300, -1e300], cornerRadius: 1e300, borderWidth: 1e300}
  - {type: shape, path: {circle: [1e19, 1e19, 1e19]}, lineWidth: 1e300, lineDashPattern: [1e300, 1e-300], strokeColor: blue, transform: {scale: 1e19}}
  - {type: text, string: "{{format(1e300, '%.100f')}}", fontSize: 10000, transform: {matrix: [1e300, 0, 0, 0, 0, 1e300, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]}}
  - {type: gradient, size: [1e19, 1e-300], colors: [red, blue], locations: [0, 1e300], startPoint: [1e300, -1e300]}
YAML
cat > $C/template/hostile-nonfinite.yaml <<'YAML'
size: [64, 36]
duration: 1
layers:
  - {type: gradient, size: ["{{sqrt(-1)}}", "{{1e308 * 10}}"], colors: [red, blue], shadowRadius: "{{-1e308 * 10}}"}
YAML
cat > $C/template/hostile-format.yaml <<'YAML'
size: [64, 36]
duration: 1
parameters: [{name: pattern, type: string, default: "%.2147483647f"}]
layers:
  - {type: text, string: "{{format(3, pattern)}} {{format(3, '%2147483648.0f')}} {{format(3, '%999999999.0f')}}"}
YAML
cp ../examples/counting-chart/counting-chart.yaml "$C/template/counting-chart.yaml"
cat > $C/template/hostile-counters.yaml <<'YAML'
size: [64, 36]
duration: 2
layers:
  - {type: text, value: 1e308, format: {style: duration, decimals: 10}, animations: [{property: value, from: -1e308, to: 1e308, duration: 1, repeat: forever}]}
  - {type: text, value: 0, format: {style: currency, currency: XXX, locale: ar_EG, prefix: "≈", decimals: 10}, animations: [{property: value, to: 12345.678, duration: "1f", timing: {spring: {duration: 0.5, bounce: 0.9}}}]}
  - {type: text, string: "a b\nc", reveal: {by: scramble, seed: -123456789012345, characters: "e\u0301\u0301"}, animations: [{property: revealed, values: [0, 2, -1, 0.5], duration: 1}]}
  - {type: text, string: "", reveal: lines, revealed: 0.5}
YAML
cat > $C/template/hostile-loops.yaml <<'YAML'
size: [64, 36]
duration: 1
layers:
  - {type: layer, id: a, size: [8, 8], backgroundColor: red, animations: [{property: shadowRadius, from: 0, to: 1e300, repeat: 1e9, duration: 1e-300, timing: {steps: 1000000}}]}
timeline:
  - {type: loop, count: 1e9, steps: [{type: animate, target: a, property: opacity, to: 0.5, duration: 1e-6}]}
  - {type: loop, count: 1e300, steps: [{type: set, target: a, properties: {fontSize: 1e308}}]}
YAML

# Expressions: one per file, covering the operators and functions.
i=0
while IFS= read -r e; do printf '%s' "$e" > "$C/expression/e$i"; i=$((i + 1)); done <<'EXPR'
n * 2 + x / 4 - 1 % 3
s + " " + upper(s) + lower("A")
flag && !none || n >= 3 ? "yes" : "no"
items[1] + row.value + rows[0].value
format("%.2f", x)
round(x) + floor(2.7) + ceil(0.1) + abs(-3) + min(1, 2) + max(3, 4)
range(n)
join(items, ", ")
column(rows, "value")
rank(column(rows, "value"))
[1, 2, [3, "a"]]
len(s) + len(items)
(((n)))
"quote \" inside"
format(3, "%.2147483647f") + format(3, "%2147483648.0f") + format(big, "%999999999.0f")
format(huge, "%100.100f") + format(-huge, "[%+08.2x]") + format(big, "%d")
len(range(1e9)) + len(repeatEach(items, 1e9)) + len(holdKeyTimes(1e9, 0.5)) + len(pad(s, 1e9))
sqrt(-1) + 1e308 * 10 + round(big, 1e300) + substr(s, 1e19, -1e19) + slice(items, -big, big)
EXPR

# Rows: CSV (quotes, line breaks in quotes, CRLF) and JSON Lines.
cp ../Templates/bar-chart-race/data.csv $C/rows/data.csv
printf 'name,value,note\r\n"a, b",1,"line\nbreak"\r\nc,2.5,"say ""hi"""\r\n' > $C/rows/quoted.csv
printf 'id,zip\n1,007\n2,1e3\n' > $C/rows/numbers.csv
printf '{"name": "a", "value": 1}\n{"name": "b", "list": [1, 2, {"x": null}], "ok": true}\nnot json\n' > $C/rows/rows.jsonl

# Captions: SubRip and WebVTT.
cp ../Templates/social-clip/captions.srt $C/captions/captions.srt
printf 'WEBVTT\n\n00:01.000 --> 00:02.500 align:start\n<b>Hello</b> there\n\n01:00:02.000 --> 01:00:03.000\nsecond\ncue\n' > $C/captions/cues.vtt
printf '1\r\n00:00:00,000 --> 00:00:01,250\r\nCRLF line\r\n\r\n2\r\n00:00:01,250 --> 00:00:02,000\r\n<i>two</i>\r\n' > $C/captions/crlf.srt

find $C -type f -size +32k -print | sed 's/^/warning: large seed: /' >&2 || true
echo "seeds: $(find $C -type f | wc -l) files, $(du -sh $C | cut -f1)"

# Lottie: the test fixtures (small JSON files of each supported feature) and one .tgs.
mkdir -p $C/lottie
cp ../Tests/StrataLottieTests/Fixtures/*.json $C/lottie/
gzip -9 -n -c ../Tests/StrataLottieTests/Fixtures/repeater.json > $C/lottie/repeater.tgs

# Lottie expressions: the rigs of real files (RubberHose, joystick), paths, throw, lists.
mkdir -p $C/lottie-script
cat > $C/lottie-script/joystick <<'SEED'
function moClamp(a, b, c) { var h = []; for (var x = 0; x < a.length; x++) { h.push(Math.max(b, Math.min(c, a[x]))) } return h } moClamp(value, -1, 1)
SEED
cat > $C/lottie-script/lists <<'SEED'
var s = 'A::B'.split('::'); var l = [s[1], null, [1, 2]]; l[3] = thisComp.layer('Ctrl').effect('S')('Slider'); l[0] == 'B' && l[1] === null ? l[3] * loopOut('cycle') : wiggle(2, 3)
SEED
cat > $C/lottie-script/path <<'SEED'
var p = thisComp.layer('L').content('G').content('Path 1').path; add(p.pointOnPath(time % 1), p.normalOnPath(0.3)) + p.points()[1]
SEED
cat > $C/lottie-script/rubberhose <<'SEED'
var r = 0; if (thisLayer.hasParent) { r = parentTotal() } r
function parentTotal() { var v = 0; var c = 'thisLayer'; while (eval([c][0]).hasParent) { c += '.parent'; v += eval([c][0]).rotation; } return v; }
SEED
cat > $C/lottie-script/throw <<'SEED'
var $bm_rt; try { if (!thisLayer('ADBE Effect Parade')('Missing').active) { throw 'inactive'; } $bm_rt = 1 } catch (err) { $bm_rt = err == 'inactive' ? value : 0 }
SEED
cat > $C/lottie-script/nulls <<'SEED'
var p = thisProperty.points(); p[1] = fromCompToSurface(thisComp.layer('Ctrl').toComp([0, 0])); createPath(p, thisProperty.inTangents(), thisProperty.outTangents(), thisProperty.isClosed())
SEED
cat > $C/lottie-script/counter <<'SEED'
Math.round(thisComp.layer('Ctrl').effect('S')('Slider') * time).toString() + ' ' + text.sourceText
SEED
cat > $C/lottie-script/dropdown <<'SEED'
var r = thisComp.layer('Ctrl').sourceRectAtTime(time, true); switch (typeof r.width == 'number' ? Math.floor(time) % 3 : -1) { case 0: r.left; break; case 1: r.top + r.height; default: value }
SEED
