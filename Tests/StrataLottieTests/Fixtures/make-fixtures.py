#!/usr/bin/env python3
# Writes the Lottie test files next to this script. Each is small and exercises one feature;
# the expected pixels are worked out from the spec's formulas in LottieRenderTests.swift.
# Run again after editing (the JSON files are committed).
import json, os

HERE = os.path.dirname(os.path.abspath(__file__))
LIN = {"o": {"x": [0], "y": [0]}, "i": {"x": [1], "y": [1]}}

def fixed(v): return {"a": 0, "k": v}
def anim(*kfs): return {"a": 1, "k": list(kfs)}
def kf(t, s, **extra):
    d = {"t": t, "s": s if isinstance(s, list) else [s]}
    d.update(extra)
    return d
def prop(v): return v if isinstance(v, dict) else fixed(list(v) if isinstance(v, tuple) else v)
def ks(p=(0, 0), a=(0, 0), s=(100, 100), r=0, o=100, **over):
    d = {"a": prop(a), "p": prop(p), "s": prop(s), "r": prop(r), "o": prop(o)}
    d.update(over)
    return d
def tr(**over):
    d = ks(**over); d["ty"] = "tr"; return d
def group(*items, transform=None):
    return {"ty": "gr", "it": list(items) + [transform or tr()]}
def rect(p, s, r=0): return {"ty": "rc", "p": fixed(list(p)), "s": fixed(list(s)), "r": fixed(r)}
def ellipse(p, s): return {"ty": "el", "p": fixed(list(p)), "s": fixed(list(s))}
def fill(c, o=100, r=1): return {"ty": "fl", "c": fixed(list(c)), "o": fixed(o), "r": r}
def stroke(c, w, lc=1, lj=1, o=100, d=None):
    s = {"ty": "st", "c": fixed(list(c)), "w": fixed(w), "o": fixed(o), "lc": lc, "lj": lj, "ml": 4}
    if d: s["d"] = d
    return s
def path(points, closed=False):
    return {"ty": "sh", "ks": fixed({"c": closed, "v": [list(p) for p in points], "i": [[0, 0]] * len(points), "o": [[0, 0]] * len(points)})}
def shape_layer(ind, shapes, ip=0, op=20, k=None, st=0, **extra):
    d = {"ty": 4, "ind": ind, "nm": f"layer {ind}", "ip": ip, "op": op, "st": st, "sr": 1, "ks": k or ks(), "shapes": list(shapes)}
    d.update(extra)
    return d
def doc(layers, w=100, h=100, fr=10, ip=0, op=20, **extra):
    d = {"v": "5.7.0", "fr": fr, "ip": ip, "op": op, "w": w, "h": h, "nm": "fixture", "ddd": 0, "assets": [], "layers": layers}
    d.update(extra)
    return d

RED, GREEN, BLUE, BLACK, WHITE = (1, 0, 0), (0, 1, 0), (0, 0, 1), (0, 0, 0), (1, 1, 1)
files = {}

# Static shapes: rectangle, rounded rectangle, ellipse, star, stroke.
files["shapes"] = doc([
    shape_layer(1, [group(ellipse((75, 25), (30, 30)), fill(BLUE))]),
    shape_layer(2, [group(rect((25, 25), (30, 30)), fill(RED))]),
    shape_layer(3, [group(rect((25, 75), (30, 30), r=10), fill(GREEN))]),
    shape_layer(4, [group({"ty": "sr", "sy": 2, "p": fixed([75, 75]), "pt": fixed(4), "or": fixed(15), "os": fixed(0), "r": fixed(0)}, fill(BLACK))]),
    shape_layer(5, [group(path([(0, 50), (100, 50)]), stroke(BLACK, 4))]),
])

# Keyframes: linear position, a hold, an eased opacity, rotation and scale.
files["keyframes"] = doc([
    shape_layer(1, [group(rect((0, 0), (10, 10)), fill(RED))],
                k=ks(p=anim(kf(0, [10, 50], **LIN), kf(10, [90, 50], h=1), kf(15, [50, 20])))),
    shape_layer(2, [group(rect((50, 90), (20, 20)), fill(BLUE))],
                k=ks(o=anim(kf(0, 0, o={"x": [0.42], "y": [0]}, i={"x": [0.58], "y": [1]}), kf(10, 100)))),
])

# Transform order: anchor, scale, rotation, position (a 20×10 bar scaled ×2 in x, turned 90°).
files["transform"] = doc([
    shape_layer(1, [group(rect((10, 5), (20, 10)), fill(RED))], k=ks(p=(50, 50), a=(10, 5), s=(200, 100), r=90)),
])

# Precomposition with start time, time stretch, time remap; in/out points; parenting.
inner = [shape_layer(1, [group(rect((0, 0), (10, 10)), fill(RED))], ip=0, op=100,
                     k=ks(p=anim(kf(0, [10, 5], **LIN), kf(10, [90, 5]))))]
files["precomp"] = doc([
    {"ty": 0, "ind": 1, "nm": "shifted", "refId": "comp1", "w": 100, "h": 10, "ip": 5, "op": 20, "st": 5, "sr": 1, "ks": ks(p=(0, 0))},
    {"ty": 0, "ind": 2, "nm": "stretched", "refId": "comp1", "w": 100, "h": 10, "ip": 0, "op": 20, "st": 0, "sr": 2, "ks": ks(p=(0, 20))},
    {"ty": 0, "ind": 3, "nm": "remapped", "refId": "comp1", "w": 100, "h": 10, "ip": 0, "op": 20, "st": 0, "sr": 1, "ks": ks(p=(0, 40)),
     "tm": anim(kf(0, 1, **LIN), kf(20, 0))},
    shape_layer(4, [group(rect((0, 0), (10, 10)), fill(BLUE))], ip=4, op=8, k=ks(p=(50, 70))),
    {"ty": 3, "ind": 5, "nm": "parent", "ip": 0, "op": 20, "st": 0, "sr": 1, "ks": ks(p=anim(kf(0, [20, 90], **LIN), kf(10, [80, 90])))},
    shape_layer(6, [group(rect((0, 0), (10, 10)), fill(GREEN))], k=ks(p=(0, 0)), parent=5),
    # A start time does not shift a layer's own keyframes (only a precomposition's content).
    shape_layer(7, [group(rect((0, 0), (6, 6)), fill(BLUE))], st=10,
                k=ks(p=anim(kf(0, [10, 60], **LIN), kf(10, [90, 60])))),
], assets=[{"id": "comp1", "layers": inner}])

# Masks (add, subtract, inverted) and an alpha track matte.
def mask(points, mode="a", inv=False, o=100):
    return {"mode": mode, "inv": inv, "o": fixed(o), "pt": fixed({"c": True, "v": [list(p) for p in points], "i": [[0, 0]] * len(points), "o": [[0, 0]] * len(points)})}
def square(x0, y0, x1, y1): return [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]
def solid(ind, color, **extra):
    d = {"ty": 1, "ind": ind, "nm": f"solid {ind}", "sc": color, "sw": 100, "sh": 50, "ip": 0, "op": 20, "st": 0, "sr": 1, "ks": ks()}
    d.update(extra)
    return d
files["masks"] = doc([
    solid(1, "#ff0000", masksProperties=[mask(square(10, 10, 90, 40)), mask(square(40, 0, 60, 50), mode="s")]),
    shape_layer(2, [group(rect((25, 75), (50, 50)), fill(BLACK))], td=1),
    solid(3, "#0000ff", tt=1, ks=ks(p=(0, 50))),
    solid(4, "#00ff00", ks=ks(p=(50, 50)), masksProperties=[mask(square(10, 10, 40, 40), inv=True)]),
])

# Mask expansion (`x`), each mask a square drawn clockwise on a 100 × 100 solid: red, the square
# 30…70 grown by 10 (to 20…80, its corners rounded with radius 10 about the old corners); blue at
# x 100, the square 120…180 × 20…80 shrunk by 10 (to 130…170 × 30…70); green at y 100, the square
# 30…70 × 130…170 grown from 0 to 20 over frames 0…10 (10 at frame 5); black at (100, 100), the
# square 130…170 shrunk by 30, past its half width (nothing left).
def expanded(points, x):
    m = mask(points)
    m["x"] = x if isinstance(x, dict) else fixed(x)
    return m
files["mask-expansion"] = doc([
    solid(1, "#ff0000", sh=100, masksProperties=[expanded(square(30, 30, 70, 70), 10)]),
    solid(2, "#0000ff", sh=100, ks=ks(p=(100, 0)), masksProperties=[expanded(square(20, 20, 80, 80), -10)]),
    solid(3, "#00ff00", sh=100, ks=ks(p=(0, 100)), masksProperties=[expanded(square(30, 30, 70, 70), anim(kf(0, [0], **LIN), kf(10, [20])))]),
    solid(4, "#000000", sh=100, ks=ks(p=(100, 100)), masksProperties=[expanded(square(30, 30, 70, 70), -30)]),
], w=200, h=200)

# Lighten and darken masks at 50 % after a mask at 50 % (drawn region by region): red, add the
# square 10…50 then lighten 30…70, ½ everywhere either covers (max(½, ½) where both do); blue at
# x 100, subtract 10…50 then darken 30…70, ½ in the second square (min(½, ½) where both are,
# min(1, ½) outside the first), nothing elsewhere.
files["mask-opacity"] = doc([
    solid(1, "#ff0000", sh=100, masksProperties=[mask(square(10, 10, 50, 50), o=50), mask(square(30, 30, 70, 70), mode="l", o=50)]),
    solid(2, "#0000ff", sh=100, ks=ks(p=(100, 0)), masksProperties=[mask(square(10, 10, 50, 50), mode="s", o=50),
                                                                    mask(square(30, 30, 70, 70), mode="d", o=50)]),
], w=200, h=100)

# Mask modes combined in order: add then difference (XOR); add, subtract, add again (a union
# with everything before it), darken (an intersection); subtract first, then lighten (a union).
files["mask-modes"] = doc([
    solid(1, "#ff0000", masksProperties=[mask(square(10, 10, 50, 40)), mask(square(30, 0, 70, 50), mode="f")]),
    solid(2, "#0000ff", ks=ks(p=(0, 50)), masksProperties=[mask(square(10, 10, 90, 40)), mask(square(40, 0, 60, 50), mode="s"),
                                                           mask(square(45, 20, 55, 30)), mask(square(0, 0, 70, 50), mode="d")]),
    solid(3, "#00ff00", ks=ks(p=(0, 100)), masksProperties=[mask(square(0, 0, 50, 50), mode="s"), mask(square(20, 10, 30, 40), mode="l")]),
], h=150)

# Mask feather (`f`, pixels; After Effects' feather, which exporters write), each mask a square on
# a 100 × 100 solid, its alpha the square's blurred by a Gaussian of σ = 0.3 f (the 5…95 % ramp
# about f wide, half inside the edge, half outside): red, 30…70 feathered 10; blue at x 100,
# 120…180 × 20…80 feathered 20; green at y 100, 30…70 × 130…170 inverted, feathered 10; black at
# (100, 100), the feather animated from 0 to 20 over frames 0…10; red at x 200, 210…290 × 10…90
# minus 240…260 × 10…90 feathered 10; blue at (200, 100), 30…70 grown by 10, at 50 %, feathered 10.
def feathered(points, f, mode="a", inv=False, o=100, x=None):
    m = mask(points, mode=mode, inv=inv, o=o)
    m["f"] = f if isinstance(f, dict) else fixed([f, f])
    if x is not None: m["x"] = fixed(x)
    return m
files["mask-feather"] = doc([
    solid(1, "#ff0000", sh=100, masksProperties=[feathered(square(30, 30, 70, 70), 10)]),
    solid(2, "#0000ff", sh=100, ks=ks(p=(100, 0)), masksProperties=[feathered(square(20, 20, 80, 80), 20)]),
    solid(3, "#00ff00", sh=100, ks=ks(p=(0, 100)), masksProperties=[feathered(square(30, 30, 70, 70), 10, inv=True)]),
    solid(4, "#000000", sh=100, ks=ks(p=(100, 100)),
          masksProperties=[feathered(square(30, 30, 70, 70), anim(kf(0, [0, 0], **LIN), kf(10, [20, 20])))]),
    solid(5, "#ff0000", sh=100, ks=ks(p=(200, 0)), masksProperties=[mask(square(10, 10, 90, 90)),
                                                                    feathered(square(40, 10, 60, 90), 10, mode="s")]),
    solid(6, "#0000ff", sh=100, ks=ks(p=(200, 100)), masksProperties=[feathered(square(30, 30, 70, 70), 10, o=50, x=10)]),
], w=300, h=200)

# Gradient fill (linear, black → white across x) and trim paths.
files["gradient-trim"] = doc([
    shape_layer(1, [group(rect((50, 25), (100, 50)),
                          {"ty": "gf", "t": 1, "s": fixed([0, 0]), "e": fixed([100, 0]), "o": fixed(100), "r": 1,
                           "g": {"p": 2, "k": fixed([0, 0, 0, 0, 1, 1, 1, 1])}})]),
    shape_layer(2, [group(path([(0, 75), (100, 75)]), stroke(RED, 6)),
                    {"ty": "tm", "s": fixed(0), "e": anim(kf(0, 0, **LIN), kf(10, 100)), "o": fixed(0), "m": 1}]),
])

# Features Strata reports and does not render.
files["unsupported"] = doc([
    {"ty": 5, "ind": 1, "nm": "title", "ip": 0, "op": 20, "st": 0, "sr": 1, "ks": ks(p=(10, 90)),
     "t": {"d": {"k": [{"t": 0, "s": {"t": "Hi", "f": "Inter-Bold", "s": 12, "j": 0, "fc": [0, 0, 0]}}]},
           "a": [{"s": {"t": 0, "s": fixed(0), "e": fixed(50)}, "a": {"o": fixed(0), "sk": fixed(20)}}]}},
    shape_layer(2, [group(rect((50, 50), (20, 20)), fill(RED), {"ty": "tw", "a": fixed(30), "c": fixed([0, 0])})], ef=[{"ty": 5}], bm=17),
    shape_layer(3, [group(rect((50, 50), (20, 20)), fill(RED))], tt=3),
    shape_layer(4, [group(rect((50, 50), (20, 20)), fill(RED))],
                k=ks(r={"a": 0, "k": 0, "x": "comp('Other').layer(1).transform.rotation"})),
], markers=[{"cm": "intro", "tm": 0, "dr": 10}, {"cm": "outro", "tm": 10, "dr": 10}],
   fonts={"list": [{"fName": "Inter-Bold", "fFamily": "Inter"}]})

# An embedded PNG (2×1: red, blue) shown 20 times larger, and a solid under a skewed square.
def png(width, height, rows):
    import struct, zlib, base64
    def chunk(kind, data):
        c = struct.pack(">I", len(data)) + kind + data
        return c + struct.pack(">I", zlib.crc32(kind + data) & 0xffffffff)
    raw = b"".join(b"\x00" + bytes(row) for row in rows)
    data = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)) + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b"")
    return "data:image/png;base64," + base64.b64encode(data).decode()
files["image"] = doc([
    {"ty": 2, "ind": 1, "nm": "picture", "refId": "img", "ip": 0, "op": 20, "st": 0, "sr": 1, "ks": ks(p=(10, 10), s=(2000, 2000))},
    shape_layer(2, [group(rect((0, 0), (20, 20)), fill(GREEN))], k=ks(p=(50, 75), sk=fixed(20), sa=fixed(0))),
], assets=[{"id": "img", "w": 2, "h": 1, "u": "", "p": png(2, 1, [[255, 0, 0, 255, 0, 0, 255, 255]]), "e": 1}])

# Track mattes over four quarters: alpha inverted (a square's outside), luma (a grey square
# 50 % → half strength), luma inverted (white hides), and a matte that ends at frame 10.
def quarter(ind, x, y, color, **extra):
    d = {"ty": 1, "ind": ind, "nm": f"solid {ind}", "sc": color, "sw": 50, "sh": 50, "ip": 0, "op": 20, "st": 0, "sr": 1, "ks": ks(p=(x, y))}
    d.update(extra)
    return d
files["mattes"] = doc([
    shape_layer(1, [group(rect((25, 25), (20, 20)), fill(BLACK))], td=1),
    quarter(2, 0, 0, "#ff0000", tt=2),
    shape_layer(3, [group(rect((75, 25), (20, 20)), fill((0.5, 0.5, 0.5)))], td=1),
    quarter(4, 50, 0, "#0000ff", tt=3),
    shape_layer(5, [group(rect((25, 75), (20, 20)), fill(WHITE))], td=1),
    quarter(6, 0, 50, "#00ff00", tt=4),
    shape_layer(7, [group(rect((75, 75), (50, 50)), fill(WHITE))], td=1, op=10),
    quarter(8, 50, 50, "#ff0000", tt=3),
])

# A repeater: three copies of a red square, each 30 points right of the one before, opacity
# 100 % → 50 %; one of a path filled after the repeater (copies of geometry, each 20 further
# down); a gradient stroke (white → black across x), 10 wide.
files["repeater"] = doc([
    shape_layer(1, [group(rect((10, 10), (10, 10)), fill(RED)),
                    {"ty": "rp", "c": fixed(3), "o": fixed(0), "m": 1,
                     "tr": {"ty": "tr", "p": fixed([30, 0]), "a": fixed([0, 0]), "s": fixed([100, 100]), "r": fixed(0), "so": fixed(100), "eo": fixed(50)}}]),
    shape_layer(2, [group(rect((10, 40), (10, 10)),
                          {"ty": "rp", "c": fixed(2), "o": fixed(1), "m": 1,
                           "tr": {"ty": "tr", "p": fixed([0, 20]), "a": fixed([0, 0]), "s": fixed([100, 100]), "r": fixed(0), "so": fixed(100), "eo": fixed(100)}},
                          fill(BLUE))]),
    # Four copies turned 90° about the anchor (50, 30): a square at (50, 10) goes round to
    # (70, 30), (50, 50), (30, 30).
    shape_layer(4, [group(rect((50, 10), (6, 6)), fill(GREEN)),
                    {"ty": "rp", "c": fixed(4), "o": fixed(0), "m": 1,
                     "tr": {"ty": "tr", "p": fixed([0, 0]), "a": fixed([50, 30]), "s": fixed([100, 100]), "r": fixed(90), "so": fixed(100), "eo": fixed(100)}}]),
    shape_layer(3, [group(path([(0, 90), (100, 90)]),
                          {"ty": "gs", "t": 1, "s": fixed([0, 0]), "e": fixed([100, 0]), "o": fixed(100), "w": fixed(10), "lc": 1, "lj": 1, "ml": 4,
                           "g": {"p": 2, "k": fixed([0, 1, 1, 1, 1, 0, 0, 0])}})]),
])

# Loop expressions: x 10 → 30 over frames 0…4, looped out as cycle, pingpong and offset; a
# loopIn(cycle) of x 10 → 30 over frames 10…14; valueAtTime(0) (the first keyframe's value at every frame).
def looped(ind, y, expression, t0=0):
    p = anim(kf(t0, [10, y], **LIN), kf(t0 + 4, [30, y]))
    p["x"] = expression
    return shape_layer(ind, [group(rect((0, 0), (4, 4)), fill(RED))], k=ks(p=p))
files["loops"] = doc([
    looped(1, 10, "loopOut('cycle')"),
    looped(2, 30, 'var $bm_rt;\n$bm_rt = loopOut("pingpong");'),
    looped(3, 50, "loopOut('offset', 0)"),
    looped(4, 70, "loopIn('cycle')", t0=10),
    looped(5, 90, "valueAtTime(0)"),
])

# Arithmetic expressions: x = value + [time × 100, 0]; opacity |sin(π·time)| × 100; a seeded
# wiggle; and one Strata reports (a reference to a layer that does not exist).
def scripted(ind, k, key, expression):
    k[key]["x"] = expression
    return shape_layer(ind, [group(rect((0, 0), (4, 4)), fill(RED))], k=k)
files["expressions"] = doc([
    scripted(1, ks(p=(0, 10)), "p", "var $bm_rt;\n$bm_rt = value + [time * 100, 0];"),
    scripted(2, ks(p=(50, 30)), "o", "Math.abs(Math.sin(time * Math.PI)) * 100"),
    scripted(3, ks(p=(50, 50)), "p", "wiggle(2, 10)"),
    scripted(4, ks(p=(50, 70)), "p", "thisComp.layer('a').transform.position"),
    scripted(5, ks(p=(50, 90)), "r", "time * 90"),
])

# The expression language (values checked in LottieExpressionTests): a control layer "Ctrl"
# (rotation 0 → 90 over frames 0…10, position (20, 30), scale (50, 200), opacity 80, a slider
# 0 → 100 over frames 0…10) and layers whose properties read it, their own keyframes, time and
# their index; loops with keyframe counts and continue; conditionals; a reference cycle.
def expr(v, source):
    p = prop(v) if not isinstance(v, dict) else dict(v)
    p["x"] = source
    return p
def square_layer(ind, name, k, **extra):
    return shape_layer(ind, [group(rect((0, 0), (4, 4)), fill(RED))], k=k, nm=name, **extra)
def slider(name, value):
    return {"ty": 5, "nm": name, "mn": "ADBE Slider Control", "ix": 1, "en": 1,
            "ef": [{"ty": 0, "nm": "Slider", "mn": "ADBE Slider Control-0001", "ix": 1, "v": value}]}
X_0_4 = anim(kf(0, [10, 50], **LIN), kf(4, [30, 50]))
files["expression-language"] = doc([
    {"ty": 3, "ind": 1, "nm": "Ctrl", "ip": 0, "op": 20, "st": 0, "sr": 1,
     "ks": ks(p=(20, 30), s=(50, 200), o=80, r=anim(kf(0, 0, **LIN), kf(10, 90))),
     "ef": [slider("Slider Control", anim(kf(0, 0, **LIN), kf(10, 100)))]},
    square_layer(2, "follows", ks(p=(50, 10), r=expr(0, 'thisComp.layer("Ctrl").transform.rotation * 2'))),
    square_layer(3, "variables", ks(r=expr(5, "var a = time*10; a + value[0]"))),
    square_layer(4, "continue", ks(p=expr(X_0_4, "loopOut('continue')"))),
    square_layer(5, "index", ks(o=expr(100, "index * 10"))),
    square_layer(6, "linear", ks(o=expr(100, "linear(time, 0, 1, 0, 100)"))),
    square_layer(7, "held", ks(p=expr(anim(kf(0, [10, 70], **LIN), kf(10, [90, 70])), "valueAtTime(0)"))),
    square_layer(8, "last two", ks(p=expr(anim(kf(0, [0, 0], **LIN), kf(4, [40, 0], **LIN), kf(8, [20, 0])), "loopOut('cycle', 1)"))),
    square_layer(9, "loopIn pingpong", ks(p=expr(anim(kf(10, [10, 0], **LIN), kf(14, [30, 0])), "loopIn('pingpong')"))),
    square_layer(10, "loopIn offset", ks(p=expr(anim(kf(10, [10, 0], **LIN), kf(14, [30, 0])), "loopIn('offset')"))),
    square_layer(11, "loopIn continue", ks(p=expr(anim(kf(10, [10, 0], **LIN), kf(14, [30, 0])), "loopIn('continue')"))),
    square_layer(12, "conditional", ks(r=expr(0, """
        var t = time;
        if (t < 1) { 10 } else if (t >= 1 && !(t > 1.5)) { 20 } else { t > 1.85 ? 40 : 30 }"""))),
    square_layer(13, "slider", ks(o=expr(100, 'var s = thisComp.layer("Ctrl").effect("Slider Control")("Slider");\n$bm_rt = s;'))),
    square_layer(14, "A", ks(r=expr(0, 'thisComp.layer("B").transform.rotation'))),
    square_layer(15, "B", ks(r=expr(0, 'thisComp.layer("A").transform.rotation + 1'))),
    square_layer(16, "random", ks(r=expr(0, "seedRandom(3, true); random(10, 20)"))),
    square_layer(17, "bodymovin", ks(r=expr(1, "var $bm_rt;\n$bm_rt = $bm_sum($bm_mul(time, 10), value);"))),
    square_layer(18, "frames", ks(r=expr(0, "timeToFrames(framesToTime(7)) * 2 + thisComp.frameDuration * 100"))),
    square_layer(19, "vector", ks(p=expr((0, 0), 'var c = thisComp.layer(1).transform; [length([3, 4]), c.scale[1] + c.position[0] + c.opacity]'))),
    square_layer(20, "ease", ks(o=expr(100, "ease(time, 0, 2, 0, 100)"))),
    square_layer(21, "duration", ks(p=expr(anim(kf(0, [0, 0], **LIN), kf(4, [40, 0], **LIN), kf(8, [20, 0])), "loopOutDuration('pingpong', 0.4)"))),
    square_layer(22, "wrong type", ks(r=expr(0, "time > 1 ? 'late' : 0"))),
    shape_layer(23, [group(path([(0, 95), (100, 95)]), stroke(BLUE, 2)),
                     {"ty": "tm", "s": fixed(0), "e": expr(100, "time * 50"), "o": fixed(0), "m": 1}], nm="trimmed"),
    # A group's transform: the square moves right 10 a second from (80, 30).
    shape_layer(24, [group(rect((0, 0), (4, 4)), fill(GREEN), transform=tr(p=expr((80, 30), "value + [time * 10, 0]")))], nm="group"),
    # A time remap looped: 0 → 0.4 s over frames 0…4, cycled, of a precomposition whose blue
    # square moves x 0 → 40 over its frames 0…4 (at y 85).
    {"ty": 0, "ind": 25, "nm": "remapped", "refId": "moving", "w": 100, "h": 100, "ip": 0, "op": 20, "st": 0, "sr": 1, "ks": ks(),
     "tm": expr(anim(kf(0, 0, **LIN), kf(4, 0.4)), "loopOut('cycle')")},
    # A repeater whose copies go from 1 to 3 at 1 s, each 20 right of the one before (its step
    # is 5 in the keyframes, 20 by its expression) (y 60).
    shape_layer(26, [group(rect((10, 60), (4, 4)), fill(GREEN)),
                     {"ty": "rp", "c": expr(1, "time >= 1 ? 3 : 1"), "o": fixed(0), "m": 1,
                      "tr": {"ty": "tr", "p": expr((5, 0), "[20, 0]"), "a": fixed([0, 0]), "s": fixed([100, 100]), "r": fixed(0),
                             "so": fixed(100), "eo": fixed(100)}}],
                nm="repeated"),
    # A group's transform whose paths an outer group's fill draws: down 10 a second from (60, 50).
    shape_layer(27, [group(group(rect((0, 0), (4, 4)), transform=tr(p=expr((60, 50), "value + [0, time * 10]"))), fill(BLUE))],
                nm="outer style"),
    # A gradient black → white whose colours' expression makes both stops blue (a square at (90, 90)).
    shape_layer(28, [group(rect((90, 90), (10, 10)),
                           {"ty": "gf", "t": 1, "s": fixed([85, 0]), "e": fixed([95, 0]), "o": fixed(100), "r": 1,
                            "g": {"p": 2, "k": expr([0, 0, 0, 0, 1, 1, 1, 1], "[0, 0, 0, 1, 1, 0, 0, 1]")}})], nm="gradient"),
    # The "inertial bounce" many files carry: x 10 → 50 over frames 0…10, then a decaying wobble.
    square_layer(29, "bounce", ks(p=expr(anim(kf(0, [10, 40], **LIN), kf(10, [50, 40])), """amp = .05;
freq = 4.0;
decay = 8.0;
n = 0;
if (numKeys > 0) {
  n = nearestKey(time).index;
  if (key(n).time > time) { n--; }
}
if (n == 0) { t = 0; } else { t = time - key(n).time; }
if (n > 0 && t < 1) {
  v = velocityAtTime(key(n).time - thisComp.frameDuration / 10);
  value + v * amp * Math.sin(freq * t * 2 * Math.PI) / Math.exp(decay * t);
} else { value; }"""))),
    # Auto-orient along a position's expression: a 28 × 4 bar moving up and right at 45° from (40, 60).
    shape_layer(30, [group(rect((0, 0), (28, 4)), fill(RED))], k=ks(p=expr((40, 60), "value + [time * 20, -time * 20]")),
                ao=1, nm="oriented"),
], assets=[{"id": "moving", "layers": [
    shape_layer(1, [group(rect((0, 0), (4, 4)), fill(BLUE))], op=100, k=ks(p=anim(kf(0, [0, 85], **LIN), kf(4, [40, 85]))))]}])

# Text layers (DejaVu Sans, installed with the text stack): "II" left-justified with its
# baseline at (10, 30); the same with tracking 500 (half an em between the letters) at (10, 60);
# "A\rB" centred on x = 75 with 30-pt lines from y = 30; "II" right-justified at (90, 90); a
# box text "AB" right-aligned in the box x 50…90 with its top at y 66.
def text_layer(ind, name, p, text, j=0, tr=0, lh=24, fc=RED, **doc_extra):
    d = {"t": text, "f": "DejaVuSans", "s": 20, "j": j, "tr": tr, "lh": lh, "ls": 0, "fc": list(fc)}
    d.update(doc_extra)
    return {"ty": 5, "ind": ind, "nm": name, "ip": 0, "op": 20, "st": 0, "sr": 1, "ks": ks(p=p),
            "t": {"d": {"k": [{"t": 0, "s": d}]}, "p": {}, "m": {"g": 1, "a": fixed([0, 0])}, "a": []}}
files["text"] = doc([
    text_layer(1, "Left", (10, 30), "II"),
    text_layer(2, "Tracked", (10, 60), "II", tr=500),
    text_layer(3, "Lines", (75, 30), "A\rB", j=2, lh=30, fc=BLUE),
    text_layer(4, "Right", (90, 90), "II", j=1, fc=GREEN),
], fonts={"list": [{"fName": "DejaVuSans", "fFamily": "DejaVu Sans", "fStyle": "Book", "ascent": 75}]})

# Text animators (DejaVu Sans 40, "IIIII": five stems 11.8 pt apart, each one character):
# "Typewriter" at (10, 50), red, opacity 0 on the characters from the selector's start, which
# runs 0 → 100 % over frames 0…10 (one character a frame pair: at frame 4 the first two show);
# "Slide" at (10, 110), green, moved down 40 on characters 1 and 2 (index units, start 1, end 3);
# "Sweep" at (110, 50), red towards blue by a ramp-up over the five characters (factors
# 0.1, 0.3, 0.5, 0.7, 0.9); "Turn" at (150, 180), one "I" turned 0 → 90° over frames 0…10
# about the middle of its advance on the baseline.
def animated_text(ind, name, p, text, animators, fc=RED, size=40):
    d = {"t": text, "f": "DejaVuSans", "s": size, "j": 0, "tr": 0, "lh": size * 1.2, "ls": 0, "fc": list(fc)}
    return {"ty": 5, "ind": ind, "nm": name, "ip": 0, "op": 20, "st": 0, "sr": 1, "ks": ks(p=p),
            "t": {"d": {"k": [{"t": 0, "s": d}]}, "p": {}, "m": {"g": 1, "a": fixed([0, 0])}, "a": animators}}
def selector(**over):
    d = {"t": 0, "xe": fixed(0), "ne": fixed(0), "a": fixed(100), "b": 1, "rn": 0, "sh": 1, "r": 1,
         "s": fixed(0), "e": fixed(100), "o": fixed(0)}
    d.update(over)
    return d
files["text-animators"] = doc([
    animated_text(1, "Typewriter", (10, 50), "IIIII",
                  [{"nm": "reveal", "s": selector(s=anim(kf(0, 0, **LIN), kf(10, 100))), "a": {"o": fixed(0)}}]),
    animated_text(2, "Slide", (10, 110), "IIIII",
                  [{"nm": "drop", "s": selector(r=2, s=fixed(1), e=fixed(3)), "a": {"p": fixed([0, 40])}}], fc=GREEN),
    animated_text(3, "Sweep", (110, 50), "IIIII",
                  [{"nm": "sweep", "s": selector(r=2, s=fixed(0), e=fixed(5), sh=2), "a": {"fc": fixed([0, 0, 1])}}]),
    animated_text(4, "Turn", (150, 180), "I",
                  [{"nm": "turn", "s": selector(), "a": {"r": anim(kf(0, 0, **LIN), kf(10, 90))}}], fc=BLUE),
], w=200, h=200, fonts={"list": [{"fName": "DejaVuSans", "fFamily": "DejaVu Sans", "fStyle": "Book", "ascent": 75}]})

# The same typewriter, slide and sweep with the "I" also embedded as a glyph (`chars`: DejaVu
# Sans's stem, 201…385 units of 2048 across, 1493 high, advance 604, in the font's 100-unit
# em; a group of paths only, as exporters write glyphs), for ThorVG, which applies text animators
# only to embedded glyphs. Strata draws these glyphs too: the stems 3.93…7.52 pt into each 11.8-pt
# advance at size 40.
def em(u): return round(u / 2048 * 100, 3)
I_GLYPH = {"ch": "I", "fFamily": "DejaVu Sans", "size": 40, "style": "Book", "w": em(604),
           "data": {"shapes": [{"ty": "gr", "it": [
               {"ty": "sh", "ks": fixed({"c": True, "v": [[em(201), 0], [em(385), 0], [em(385), -em(1493)], [em(201), -em(1493)]],
                                         "i": [[0, 0]] * 4, "o": [[0, 0]] * 4})}]}]}}
files["text-animators-glyphs"] = dict(files["text-animators"], layers=files["text-animators"]["layers"][:3], chars=[I_GLYPH])

# Text drawn from embedded glyphs only ("Blocks", a family no system has): "I" a stem 10…30 ×
# −70…0 em units with an advance of 40; "L" the same stem and a foot 10…60 × −20…0, advance 70; a
# space of advance 25 with no outline. At size 40 (0.4 pt a unit) "I" is ink 4…12 × −28…0 in a
# 16-pt advance and a space 10 pt. "Left": red "IL" at (10, 40); "Tracked": red "II" at (10, 90),
# tracking 250 (10 pt), so the second stem 26 pt after the first; "Centred": blue "I I" over
# "II" centred on x = 150, baselines 40 and 90 (line height 50); "Box": green "II II" in a box
# 40 wide at (10, 100), right-justified, wrapped at the space into "II" and "II", the first
# baseline one ascent (75 % of 40) below the box's top, the second 40 below it; "Outline": a blue
# "I" at (150, 150) with a red stroke 4 wide over its fill.
def glyph(ch, w, *rects):
    return {"ch": ch, "fFamily": "Blocks", "size": 40, "style": "Regular", "w": w,
            "data": {"shapes": [{"ty": "gr", "it": [
                {"ty": "sh", "ks": fixed({"c": True, "v": [[x0, y1], [x1, y1], [x1, y0], [x0, y0]], "i": [[0, 0]] * 4, "o": [[0, 0]] * 4})}
                for (x0, y0, x1, y1) in rects]}]} if rects else {}}
def glyph_text(ind, name, p, text, fc=RED, **doc_extra):
    layer = text_layer(ind, name, p, text, fc=fc, **doc_extra)
    layer["t"]["d"]["k"][0]["s"].update(f="Blocks-Regular", s=40)
    return layer
files["text-glyphs"] = doc([
    glyph_text(1, "Left", (10, 40), "IL"),
    glyph_text(2, "Tracked", (10, 90), "II", tr=250),
    glyph_text(3, "Centred", (150, 40), "I I\rII", j=2, lh=50, fc=BLUE),
    glyph_text(4, "Box", (10, 100), "II II", j=1, lh=40, fc=GREEN, ps=[0, 0], sz=[40, 80]),
    glyph_text(5, "Outline", (150, 150), "I", fc=BLUE, sc=list(RED), sw=4, of=True),
], w=200, h=200, fonts={"list": [{"fName": "Blocks-Regular", "fFamily": "Blocks", "fStyle": "Regular", "ascent": 75}]},
   chars=[glyph("I", 40, (10, -70, 30, 0)), glyph("L", 70, (10, -70, 30, 0), (10, -20, 60, 0)), glyph(" ", 25)])

# Text on a path (the "Blocks" glyphs: "I" ink 4…12 × −28…0 from its origin, advance 16), each
# along an open mask path of mode none (not a mask), the layers at the origin: "Straight" "II"
# on (10, 40) → (190, 40) from a first margin animated 20 → 60 over frames 0…10; "Corner" "II"
# perpendicular on (10, 100) → (100, 100) → (100, 190) from margin 80, the second "I" turned down
# the vertical; "Reversed" "II" centred and perpendicular on (10, 160) → (190, 160) reversed
# (upside down, right to left); "Forced" "II" force-aligned on (10, 70) → (190, 70) from margin 10.
def open_mask(points):
    return {"mode": "n", "inv": False, "o": fixed(100),
            "pt": fixed({"c": False, "v": [list(p) for p in points], "i": [[0, 0]] * len(points), "o": [[0, 0]] * len(points)})}
def path_text(ind, name, text, points, f, p=0, a=0, r=0, fc=RED, j=0):
    layer = glyph_text(ind, name, (0, 0), text, fc=fc, j=j)
    layer["masksProperties"] = [open_mask(points)]
    layer["t"]["p"] = {"m": 0, "f": prop(f), "l": fixed(0), "p": fixed(p), "a": fixed(a), "r": fixed(r)}
    return layer
files["text-path"] = doc([
    path_text(1, "Straight", "II", [(10, 40), (190, 40)], anim(kf(0, 20, **LIN), kf(10, 60))),
    path_text(2, "Corner", "II", [(10, 100), (100, 100), (100, 190)], 80, p=1, fc=GREEN),
    path_text(3, "Reversed", "II", [(10, 160), (190, 160)], 0, p=1, r=1, fc=BLUE, j=2),
    path_text(4, "Forced", "II", [(10, 70), (190, 70)], 10, a=1, fc=BLACK),
], w=200, h=200, fonts=files["text-glyphs"]["fonts"], chars=files["text-glyphs"]["chars"])

# 3D layers without a camera: a square turned 60° about y (fixed) and one turned about x (0 → 90°
# over frames 0…10, linear), each seen from 1 024 points in front of its plane as rlottie and
# ThorVG draw them (the near side larger).
files["tilt"] = doc([
    shape_layer(1, [group(rect((0, 0), (40, 40)), fill(RED))], k=ks(p=(50, 30), ry=fixed(60)), ddd=1),
    shape_layer(2, [group(rect((0, 0), (40, 40)), fill(BLUE))], k=ks(p=(50, 75), rx=anim(kf(0, 0, **LIN), kf(10, 90))), ddd=1),
], ddd=1)

# 3D layers in depth, no camera (each seen from 1 024 points in front of its x/y position):
# a red 50-square at z −512 (nearer: twice as large), a green 60-square at z 0 and a blue
# 50-square at z 512 (separated position; farther: 2/3 as large). Listed blue, green, red, so in
# list order blue would be on top and red at the bottom; painted far to near, red is on top.
# A 2D black 20-square at (20, 140), listed first, stays above them all (a 2D layer keeps its
# place in the list).
files["depth"] = doc([
    shape_layer(0, [group(rect((20, 140), (20, 20)), fill(BLACK))]),
    shape_layer(1, [group(rect((0, 0), (50, 50)), fill(BLUE))],
                k=ks(p={"s": True, "x": fixed(140), "y": fixed(100), "z": fixed(512)}), ddd=1),
    shape_layer(2, [group(rect((0, 0), (60, 60)), fill(GREEN))], k=ks(p=(100, 100, 0)), ddd=1),
    shape_layer(3, [group(rect((0, 0), (50, 50)), fill(RED))], k=ks(p=(60, 100, -512)), ddd=1),
], w=200, h=200, ddd=1)

# A z given by an expression on the whole position of a 3D layer: the red 50-square of "depth"
# at (60, 100) with `p` [60, 100, 0] keyframed and the expression [60, 100, -512], so twice as
# large (x 10…110); a 2D copy with the same expression stays as it is.
files["depth-expression"] = doc([
    shape_layer(1, [group(rect((0, 0), (50, 50)), fill(RED))],
                k=ks(p={"a": 0, "k": [60, 100, 0], "x": "[60, 100, -512]"}), ddd=1),
    shape_layer(2, [group(rect((0, 0), (20, 20)), fill(BLUE))],
                k=ks(p={"a": 0, "k": [160, 40, 0], "x": "[160, 40, -512]"})),
], w=200, h=200, ddd=1)

# A 3D rig without a camera: a 3D null at (100, 100, −512) with two 3D children, a red 20-square
# at (20, 0, 0) from it and a blue one at (−40, 0, 512) (world z 0), listed red, blue. The eye is
# 1 024 in front of the null's place: red twice as large about (100, 100), 120…160; blue as it
# is, 50…70. A green 3D 40-square at (60, 100, −256) without a parent, listed last, is 4/3 as
# large about its own place (33.33…86.67): nearer than blue, so over it.
files["depth-parent"] = doc([
    {"ty": 3, "ind": 1, "nm": "rig", "ddd": 1, "ip": 0, "op": 20, "st": 0, "sr": 1, "ks": ks(p=(100, 100, -512))},
    shape_layer(2, [group(rect((0, 0), (20, 20)), fill(RED))], k=ks(p=(20, 0, 0)), ddd=1, parent=1),
    shape_layer(3, [group(rect((0, 0), (20, 20)), fill(BLUE))], k=ks(p=(-40, 0, 512)), ddd=1, parent=1),
    shape_layer(4, [group(rect((0, 0), (40, 40)), fill(GREEN))], k=ks(p=(60, 100, -256)), ddd=1),
], w=200, h=200, ddd=1)

# Orientation (`or`): a red 40-square turned [0, 90, 0] (edge-on: nothing drawn), a blue one
# turned [0, 60, 0] (as tilt.json's ry 60), a green one tilted rx 60 then oriented [0, 0, 90]
# (the orientation applies after the rotations: the tilted square is turned on the screen).
files["orientation"] = doc([
    shape_layer(1, [group(rect((0, 0), (40, 40)), fill(RED))], k=ks(p=(25, 30), **{"or": fixed([0, 90, 0])}), ddd=1),
    shape_layer(2, [group(rect((0, 0), (40, 40)), fill(BLUE))], k=ks(p=(75, 30), **{"or": fixed([0, 60, 0])}), ddd=1),
    shape_layer(3, [group(rect((0, 0), (40, 40)), fill(GREEN))], k=ks(p=(50, 75), rx=fixed(60), **{"or": fixed([0, 0, 90])}), ddd=1),
], ddd=1)

# A two-node camera (zoom 1 024) at After Effects' default place for a 200 × 200 composition,
# (100, 100, −1 024) looking at (100, 100, 0), which moves 50 to the right (point of interest
# too) at frame 10 (hold keyframes). A red 40-square turned ry 60 at the centre; a green 3D
# 20-square at (150, 160); a 2D blue 20-square at (30, 30), which the camera does not see.
def camera(ind, pe, p, a=None, **extra):
    k = {"p": prop(p), "or": fixed([0, 0, 0]), "rx": fixed(0), "ry": fixed(0), "rz": fixed(0), "o": fixed(100)}
    if a is not None: k["a"] = prop(a)
    d = {"ty": 13, "ind": ind, "nm": "camera", "ddd": 1, "ip": 0, "op": 20, "st": 0, "sr": 1, "ks": k, "pe": prop(pe)}
    d.update(extra)
    return d
files["camera"] = doc([
    camera(1, 1024, anim(kf(0, [100, 100, -1024], h=1), kf(10, [150, 100, -1024])), a=anim(kf(0, [100, 100, 0], h=1), kf(10, [150, 100, 0]))),
    shape_layer(2, [group(rect((0, 0), (40, 40)), fill(RED))], k=ks(p=(100, 100, 0), ry=fixed(60)), ddd=1),
    shape_layer(3, [group(rect((0, 0), (20, 20)), fill(GREEN))], k=ks(p=(150, 160, 0)), ddd=1),
    shape_layer(4, [group(rect((0, 0), (20, 20)), fill(BLUE))], k=ks(p=(30, 30))),
], w=200, h=200, ddd=1)

# A path morphing from a curved diamond (handles of 22) to a square without handles, over frames
# 0…10 linearly, as a shape and as a mask: the two keyframes' contours differ in kind (curves,
# lines), and every vertex and handle still moves halfway by frame 5.
def bez(v, i, o): return {"c": True, "v": v, "i": i, "o": o}
ROUND = bez([[50, 10], [10, 50], [50, 90], [90, 50]], [[22, 0], [0, -22], [-22, 0], [0, 22]], [[-22, 0], [0, 22], [22, 0], [0, -22]])
SQUARE = bez([[10, 10], [10, 90], [90, 90], [90, 10]], [[0, 0]] * 4, [[0, 0]] * 4)
MORPH = anim(kf(0, [ROUND], **LIN), kf(10, [SQUARE]))
files["morph"] = doc([
    shape_layer(1, [group({"ty": "sh", "ks": MORPH}, fill(RED))]),
    {"ty": 1, "ind": 2, "nm": "masked", "sc": "#0000ff", "sw": 100, "sh": 100, "ip": 0, "op": 20, "st": 0, "sr": 1,
     "ks": ks(p=(100, 0)), "hasMask": True, "masksProperties": [{"mode": "a", "inv": False, "o": fixed(100), "pt": MORPH}]},
], w=200)

# Auto-orient: a 28 × 4 bar centred on its layer's position, which moves in a straight line
# from (20, 80) to (80, 20) over frames 0…10 (linear): turned −45° to face along the path,
# before, during and after the motion (the layer stays at (80, 20) after frame 10).
files["auto-orient"] = doc([
    shape_layer(1, [group(rect((0, 0), (28, 4)), fill(RED))],
                k=ks(p=anim(kf(0, [20, 80], **LIN), kf(10, [80, 20]))), ao=1),
])

# Path modifiers, each changing the paths above it in its group and in the groups nested there.
# Rounded corners (radius 10 on a 40 × 40 square: the corners become quarter circles of radius
# 10; a triangle in a nested group above the fill, the modifier below the fill; a radius
# animated 0 → 20 over frames 0…10; a radius of 100, clamped to half of each side: a circle).
files["rounded-corners"] = doc([
    shape_layer(1, [group(rect((25, 25), (40, 40)), fill(RED), {"ty": "rd", "r": fixed(10)})]),
    shape_layer(2, [group(group(path([(55, 45), (95, 45), (75, 5)], closed=True)), fill(BLUE), {"ty": "rd", "r": fixed(8)})]),
    shape_layer(3, [group(rect((25, 75), (40, 40)), fill(GREEN), {"ty": "rd", "r": anim(kf(0, 0, **LIN), kf(10, 20))})]),
    shape_layer(4, [group(rect((75, 75), (40, 40)), fill(BLACK), {"ty": "rd", "r": fixed(100)})]),
])

# Pucker/bloat on 30 × 30 squares: −50 % (the corners twice as far out as they were pulled
# in by +50 %, the edges bowed in) and +50 % (corners halfway to the centre, edges bulging out).
files["pucker-bloat"] = doc([
    shape_layer(1, [group(rect((25, 50), (30, 30)), {"ty": "pb", "a": fixed(-50)}, fill(RED))]),
    shape_layer(2, [group(rect((75, 50), (30, 30)), {"ty": "pb", "a": fixed(50)}, fill(BLUE))]),
])

# Zig-zag on 40 × 40 squares: one ridge a segment, size 10, corner points (each corner moves
# 10 in along its bisector, each mid-edge 10 out); two ridges, size 5, smooth points.
files["zig-zag"] = doc([
    shape_layer(1, [group(rect((30, 30), (40, 40)), {"ty": "zz", "s": fixed(10), "r": fixed(1), "pt": fixed(1)}, fill(RED))]),
    shape_layer(2, [group(rect((70, 72), (30, 30)), {"ty": "zz", "s": fixed(5), "r": fixed(2), "pt": fixed(2)}, fill(BLUE))]),
])

# Offset path: 30 × 30 squares grown by 8 with miter, round and bevel joins; a circle of
# radius 20 shrunk by 10.
def offset(a, lj): return {"ty": "op", "a": fixed(a), "lj": lj, "ml": fixed(4)}
files["offset-path"] = doc([
    shape_layer(1, [group(rect((25, 25), (30, 30)), offset(8, 1), fill(RED))]),
    shape_layer(2, [group(rect((75, 25), (30, 30)), offset(8, 2), fill(BLUE))]),
    shape_layer(3, [group(rect((25, 75), (30, 30)), offset(8, 3), fill(GREEN))]),
    shape_layer(4, [group(ellipse((75, 75), (40, 40)), offset(-10, 2), fill(BLACK))]),
])

# Trim paths individually (m 2, the spec's sequential mode): two 80-long lines, the second in a
# nested group, trimmed as one 160 long, end animated 0 → 100 % over frames 0…10 (at frame 5
# the first line is whole and the second not begun); the same two lines trimmed simultaneously
# (m 1) to 50 %: the first half of each.
# Layer blend modes (bm) over an orange layer (0.8, 0.4, 0.2): multiply and screen of grey 0.5 in
# the top half, hue of red in the bottom half.
ORANGE = (0.8, 0.4, 0.2)
files["blend-modes"] = doc([
    shape_layer(1, [group(rect((25, 25), (50, 50)), fill((0.5, 0.5, 0.5)))], bm=1),
    shape_layer(2, [group(rect((75, 25), (50, 50)), fill((0.5, 0.5, 0.5)))], bm=2),
    shape_layer(3, [group(rect((50, 75), (100, 50)), fill(RED))], bm=12),
    shape_layer(4, [group(rect((50, 50), (100, 100)), fill(ORANGE))]),
])

# Radial gradients with a highlight (black → white, radius 40, axes through pixel centres): on
# the left the highlight length animates 50 → −50 % over frames 0…10 at angle 0 (the focus moves
# from (70.5, 50.5) to (30.5, 50.5)); on the right it is 50 % at 90° (the focus below the centre,
# at (150.5, 70.5)).
def radial(s, e, h, a):
    return {"ty": "gf", "t": 2, "s": fixed(list(s)), "e": fixed(list(e)), "h": prop(h), "a": prop(a), "o": fixed(100),
            "r": 1, "g": {"p": 2, "k": fixed([0, 0, 0, 0, 1, 1, 1, 1])}}
files["gradient-highlight"] = doc([
    shape_layer(1, [group(rect((50, 50), (100, 100)), radial((50.5, 50.5), (90.5, 50.5), anim(kf(0, 50, **LIN), kf(10, -50)), 0))]),
    shape_layer(2, [group(rect((150, 50), (100, 100)), radial((150.5, 50.5), (190.5, 50.5), 50, 90))]),
], w=200)

# Animated dashes on 10-wide butt-capped lines across the frame: at y 50 the dash length
# animates 10 → 30 over frames 0…10 (gap 10); at y 80 the pattern is 10, 10 and the offset
# animates 0 → 10; at y 20 the dash length is an expression, 10 + 40·time (time in seconds, 10
# frames a second: 30 at frame 5), gap 10.
def dashes(*entries): return [{"n": n, "nm": n, "v": v} for n, v in entries]
files["dash-animation"] = doc([
    shape_layer(1, [group(path([(0, 50), (100, 50)]), stroke(BLACK, 10, d=dashes(("d", anim(kf(0, 10, **LIN), kf(10, 30))), ("g", fixed(10)), ("o", fixed(0)))))]),
    shape_layer(2, [group(path([(0, 80), (100, 80)]), stroke(BLUE, 10, d=dashes(("d", fixed(10)), ("g", fixed(10)), ("o", anim(kf(0, 0, **LIN), kf(10, 10))))))]),
    shape_layer(3, [group(path([(0, 20), (100, 20)]), stroke(RED, 10, d=dashes(("d", expr(10, "10 + time * 40")), ("g", fixed(10)))))]),
])

def trim(s, e, m): return {"ty": "tm", "s": prop(s), "e": prop(e), "o": fixed(0), "m": m}
files["trim-individually"] = doc([
    shape_layer(1, [group(path([(10, 10), (90, 10)]), group(path([(10, 30), (90, 30)])), stroke(RED, 6),
                          trim(0, anim(kf(0, 0, **LIN), kf(10, 100)), 2))]),
    shape_layer(2, [group(path([(10, 60), (90, 60)]), group(path([(10, 80), (90, 80)])), stroke(BLUE, 6), trim(0, 50, 1))]),
])

# Merge paths (mm 2 add, 3 subtract, 4 intersect, 5 exclude intersections), one a quadrant of
# 200 × 200: a 24-square A centred (−5, −5) from the quadrant's centre and a circle B of radius 12
# centred (5, 5), merged, stroked black 4 wide and filled red (the stroke above the fill): the
# stroke follows the merged outline only.
def merge(mode): return {"ty": "mm", "mm": mode}
files["merge-paths"] = doc([
    shape_layer(i + 1, [group(rect((cx - 5, cy - 5), (24, 24)), ellipse((cx + 5, cy + 5), (24, 24)), merge(mode),
                              stroke(BLACK, 4), fill(RED))])
    for i, (mode, cx, cy) in enumerate([(2, 50, 50), (3, 150, 50), (4, 50, 150), (5, 150, 150)])
], w=200, h=200)

# An animated merge: the 40-square [30, 70]² intersected with a circle of radius 15 in a group
# that moves it from (30, 50) at frame 0 to (70, 50) at frame 10; stroked black 2 wide, filled red.
files["merge-paths-animated"] = doc([
    shape_layer(1, [group(rect((50, 50), (40, 40)),
                          group(ellipse((0, 0), (30, 30)), transform=tr(p=anim(kf(0, [30, 50], **LIN), kf(10, [70, 50])))),
                          merge(4), stroke(BLACK, 2), fill(RED))]),
])

# Layer effects (ef) over a white solid, each in a quarter: Fill (blue over a red square,
# opacity 0 → 1 over frames 0…10), Tint (grey 0.4, black → black, white → (1, 0.6, 0), 50 %),
# Tritone (greys 0.2 and 0.8: shadows blue, midtones red, highlights yellow), Drop Shadow (blue,
# opacity 153 of 255, 135°, distance 10√2: 10 right and 10 down, softness 0).
def effect(ty, name, *values):
    return {"ty": ty, "nm": name, "np": len(values) + 2, "ix": 1, "en": 1,
            "ef": [{"ty": kind, "nm": label, "ix": i + 1, "v": prop(v)} for i, (kind, label, v) in enumerate(values)]}
def fill_effect(color, opacity, mask=0):
    return effect(21, "Fill", (10, "Fill Mask", mask), (7, "All Masks", 0), (2, "Color", list(color) + [1]), (7, "Invert", 0),
                  (0, "Horizontal Feather", 0), (0, "Vertical Feather", 0), (0, "Opacity", opacity))
def tint_effect(black, white, amount):
    return effect(20, "Tint", (2, "Map Black To", list(black) + [1]), (2, "Map White To", list(white) + [1]), (0, "Amount to Tint", amount))
def tritone_effect(high, mid, low, blend):
    return effect(23, "Tritone", (2, "Highlights", list(high) + [1]), (2, "Midtones", list(mid) + [1]), (2, "Shadows", list(low) + [1]),
                  (0, "Blend With Original", blend))
def shadow_effect(color, opacity, direction, distance, softness, only=0):
    return effect(25, "Drop Shadow", (2, "Shadow Color", list(color) + [1]), (0, "Opacity", opacity), (0, "Direction", direction),
                  (0, "Distance", distance), (0, "Softness", softness), (7, "Shadow Only", only))
def blur_effect(blurriness, dimensions=1, repeat=0):
    return effect(29, "Gaussian Blur", (0, "Blurriness", blurriness), (7, "Blur Dimensions", dimensions), (7, "Repeat Edge Pixels", repeat))
def white_background(ind, w=100, h=100):
    return {"ty": 1, "ind": ind, "nm": "white", "sc": "#ffffff", "sw": w, "sh": h, "ip": 0, "op": 20, "st": 0, "sr": 1, "ks": ks()}
files["effects"] = doc([
    shape_layer(1, [group(rect((25, 25), (30, 30)), fill(RED))], ef=[fill_effect(BLUE, anim(kf(0, 0, **LIN), kf(10, 1)))]),
    shape_layer(2, [group(rect((75, 25), (30, 30)), fill((0.4, 0.4, 0.4)))], ef=[tint_effect(BLACK, (1, 0.6, 0), 50)]),
    shape_layer(3, [group(rect((15, 75), (20, 30)), fill((0.2, 0.2, 0.2))), group(rect((35, 75), (20, 30)), fill((0.8, 0.8, 0.8)))],
                ef=[tritone_effect((1, 1, 0), RED, BLUE, 0)]),
    shape_layer(4, [group(rect((70, 70), (20, 20)), fill(RED))], ef=[shadow_effect(BLUE, 153, 135, 10 * 2 ** 0.5, 0)]),
    white_background(5),
])

# Blurs over a white solid, 300 × 100, each of a red 40 × 40 square: Gaussian Blur (blurriness
# 0 → 20 over frames 0…10, then → 100 at frame 19: σ = 0.3 × blurriness, 30 px at frame 19,
# drawn by box passes), the same horizontally only (dimensions 2,
# blurriness 20), and a Drop Shadow (black, opacity 255, distance 0, softness 20: σ 6) beneath it.
files["effect-blur"] = doc([
    shape_layer(1, [group(rect((50, 50), (40, 40)), fill(RED))], ef=[blur_effect(anim(kf(0, 0, **LIN), kf(10, 20, **LIN), kf(19, 100)))]),
    shape_layer(2, [group(rect((150, 50), (40, 40)), fill(RED))], ef=[blur_effect(20, dimensions=2)]),
    shape_layer(3, [group(rect((250, 50), (40, 40)), fill(RED))], ef=[shadow_effect(BLACK, 255, 90, 0, 20)]),
    white_background(4, 300, 100),
], w=300)

# Stroke effect: the layer's first mask (mode none, a square 20…80 drawn clockwise from the
# top left) stroked red, brush size 2 (4 wide), end 0 → 100 % over frames 0…10 (half the
# perimeter at frame 5: the top and right sides), over a blue square, over white.
def stroke_effect(path, color, size, opacity, start, end, style=1, hardness=100, spacing=15):
    return effect(22, "Stroke", (10, "Path", path), (7, "All Masks", 0), (7, "Stroke Sequentially", 0),
                  (2, "Color", list(color) + [1]), (0, "Brush Size", size), (0, "Brush Hardness", hardness),
                  (0, "Opacity", opacity), (0, "Start", start), (0, "End", end), (0, "Spacing", spacing), (7, "Paint Style", style))
files["effect-stroke"] = doc([
    shape_layer(1, [group(rect((50, 50), (40, 40)), fill(BLUE))], masksProperties=[mask(square(20, 20, 80, 80), mode="n")],
                ef=[stroke_effect(1, RED, 2, 1, 0, anim(kf(0, 0, **LIN), kf(10, 100)))]),
    white_background(2),
])

# The Transform effect (ADBE Geometry2, which Bodymovin writes as a custom effect, type 5)
# over a white solid, its matrix a layer transform's: −anchor, scale, skew along the skew axis,
# rotation, position. "moved": a red 10 × 10 square at (20, 20), anchor (20, 20), position
# (20, 20) → (70, 20) over frames 0…10, scale width 200 (uniform off), then a Fill (black)
# after it; "sheared": a green 20 × 20 square at (25, 70), skew 45 about axis 0 (a horizontal
# shear, x − y about the anchor); "turned": a blue 20 × 20 square at (75, 70) turned 45°,
# uniform scale on with height 50 (the width's 100 unused), opacity 50; "controlled": a
# yellow 6 × 6 square at (50, 45) placed by a pseudo effect "Mover" (a group, a point "Where"
# (50, 35) → (50, 55) over frames 0…10 and a slider "Size" 100 → 200, read by name, match name
# and index) through expressions on the Transform's position and scale height.
def geometry(anchor, position, uniform=1, height=100, width=100, skew=0, axis=0, rotation=0, opacity=100,
             comp_shutter=1, shutter=0, name="Transform"):
    params = [(3, "Anchor Point", anchor), (3, "Position", position), (7, "Uniform Scale", uniform),
              (0, "Scale Height", height), (0, "Scale Width", width), (0, "Skew", skew), (0, "Skew Axis", axis),
              (0, "Rotation", rotation), (0, "Opacity", opacity), (7, "Use Composition’s Shutter Angle", comp_shutter),
              (0, "Shutter Angle", shutter), (7, "Sampling", 1)]
    return {"ty": 5, "nm": name, "np": len(params) + 2, "mn": "ADBE Geometry2", "ix": 1, "en": 1,
            "ef": [{"ty": kind, "nm": label, "mn": "ADBE Geometry2-%04d" % (i + 1), "ix": i + 1, "v": prop(v)}
                   for i, (kind, label, v) in enumerate(params)]}
def pseudo(name, match, *values):
    return {"ty": 5, "nm": name, "np": len(values) + 2, "mn": match, "ix": 1, "en": 1,
            "ef": [{"ty": kind, "nm": label, "mn": "%s-%04d" % (match, i + 1), "ix": i + 1, "v": prop(v) if kind != 6 else 0}
                   for i, (kind, label, v) in enumerate(values)]}
YELLOW = (1, 1, 0)
files["effect-transform"] = doc([
    shape_layer(1, [group(rect((20, 20), (10, 10)), fill(RED))], nm="moved",
                ef=[geometry((20, 20), anim(kf(0, [20, 20], **LIN), kf(10, [70, 20])), uniform=0, width=200),
                    fill_effect(BLACK, 1)]),
    shape_layer(2, [group(rect((25, 70), (20, 20)), fill(GREEN))], nm="sheared", ef=[geometry((25, 70), (25, 70), skew=45)]),
    shape_layer(3, [group(rect((75, 70), (20, 20)), fill(BLUE))], nm="turned",
                ef=[geometry((75, 70), (75, 70), uniform=1, height=50, width=100, rotation=45, opacity=50)]),
    shape_layer(4, [group(rect((50, 45), (6, 6)), fill(YELLOW))], nm="controlled",
                ef=[pseudo("Mover", "Pseudo/Mover", (6, "Place", 0), (3, "Where", anim(kf(0, [50, 35], **LIN), kf(10, [50, 55]))),
                           (0, "Size", anim(kf(0, 100, **LIN), kf(10, 200))), (6, "", 0)),
                    geometry((50, 45), expr((0, 0), "var $bm_rt;\n$bm_rt = effect('Mover')('Where');"),
                             height=expr(100, "effect('Mover')('Pseudo/Mover-0003') + effect(1)(3) - thisLayer.effect('Mover')('Size')"))]),
    white_background(5),
])

# Gradient Ramp (ADBE Ramp, a custom effect, type 5) over a white solid: its colour at each
# pixel's centre, the layer's alpha kept. "linear": a circle of diameter 40 at (25, 25), blue at
# (5, 25) to yellow at (45, 25); "radial": a 40 × 40 square at (75, 25), red at its centre to
# green 20 away; "blended": a grey (0.4) square at (25, 75), black at (25, 55) to white at
# (25, 95) → (25, 75) over frames 0…10, blend with original 50 %; "turned": a 40 × 40 square at
# the layer's origin, the layer at (75, 75) turned 90°, black at (−20, 0) to white at (20, 0) in
# the layer's coordinates (down the screen).
def ramp(start, start_color, end, end_color, shape=1, scatter=0, blend=0, name="Gradient Ramp"):
    params = [(3, "Start of Ramp", start), (2, "Start Color", list(start_color) + [1]), (3, "End of Ramp", end),
              (2, "End Color", list(end_color) + [1]), (7, "Ramp Shape", shape), (0, "Ramp Scatter", scatter),
              (0, "Blend With Original", blend), (6, "", 0), (7, "GPU Rendering", 1)]
    return {"ty": 5, "nm": name, "np": len(params) + 2, "mn": "ADBE Ramp", "ix": 1, "en": 1,
            "ef": [{"ty": kind, "nm": label, "mn": "ADBE Ramp-%04d" % (i + 1), "ix": i + 1, "v": prop(v) if kind != 6 else 0}
                   for i, (kind, label, v) in enumerate(params)]}
files["effect-ramp"] = doc([
    shape_layer(1, [group(ellipse((25, 25), (40, 40)), fill(RED))], nm="linear", ef=[ramp((5, 25), BLUE, (45, 25), YELLOW)]),
    shape_layer(2, [group(rect((75, 25), (40, 40)), fill(BLUE))], nm="radial", ef=[ramp((75, 25), RED, (95, 25), GREEN, shape=2)]),
    shape_layer(3, [group(rect((25, 75), (40, 40)), fill((0.4, 0.4, 0.4)))], nm="blended",
                ef=[ramp((25, 55), BLACK, anim(kf(0, [25, 95], **LIN), kf(10, [25, 75])), WHITE, blend=50)]),
    shape_layer(4, [group(rect((0, 0), (40, 40)), fill(RED))], k=ks(p=(75, 75), r=90), nm="turned",
                ef=[ramp((-20, 0), BLACK, (20, 0), WHITE)]),
    white_background(5),
])

# Expressions as rigs write them (values and pixels checked in LottieExpressionTests): "sum", a
# square at x = 1 + 2 + … + n for n = frame (a function with a loop); "follower", a square at
# the point half the time (s) of the way along "line"'s path (10, 60) → (90, 60); "chained", a
# square at x = 10 + 3 × the sum of its parents' indices (found by eval of 'thisLayer.parent…'
# in a loop: Mid 5 + Root 6).
files["expression-rig"] = doc([
    square_layer(1, "sum", ks(p=expr((0, 20), """
        function sum(n) { var s = 0; for (var i = 1; i <= n; i++) { s += i } return s }
        [sum(Math.floor(time * 10 + 0.5)), 20]"""))),
    shape_layer(2, [group({"ty": "sh", "nm": "Path 1", "ks": fixed({"c": False, "v": [[10, 60], [90, 60]], "i": [[0, 0], [0, 0]], "o": [[0, 0], [0, 0]]})},
                          stroke(BLUE, 2))], nm="line"),
    shape_layer(3, [group(rect((0, 0), (4, 4)), fill(GREEN))], nm="follower",
                k=ks(p=expr((0, 0), "thisComp.layer('line').content(1).content('Path 1').path.pointOnPath(time / 2)"))),
    square_layer(4, "chained", ks(p=expr((0, 80), """
        var n = 0, c = 'thisLayer';
        while (eval([c][0]).hasParent) { c += '.parent'; n += eval(c).index }
        [10 + n * 3, 80]""")), parent=5),
    {"ty": 3, "ind": 5, "nm": "Mid", "parent": 6, "ip": 0, "op": 20, "st": 0, "sr": 1, "ks": ks()},
    {"ty": 3, "ind": 6, "nm": "Root", "ip": 0, "op": 20, "st": 0, "sr": 1, "ks": ks()},
])

for name, d in files.items():
    with open(os.path.join(HERE, name + ".json"), "w") as f:
        json.dump(d, f, separators=(",", ":"))
        f.write("\n")
print("wrote", len(files), "fixtures")
