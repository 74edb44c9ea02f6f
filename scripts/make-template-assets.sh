#!/usr/bin/env bash
# Makes the sample assets of the built-in templates (Templates/<name>/…): the bar-chart race's
# CSV, the logo, the social clip's video and captions, the Ken Burns screenshot. The outputs are
# committed, so a clean clone renders every template without running this; run it again only to
# change them. Needs python3 with Pillow (python3-pil) and ffmpeg with libx264; every file is
# made from fixed numbers (no randomness), each well under 200 kB.
#
#   scripts/make-template-assets.sh          # writes into Templates/
set -euo pipefail
cd "$(dirname "$0")/.."
T=Templates

python3 -c 'import PIL' 2>/dev/null || { echo "error: python3 with Pillow is needed (apt-get install python3-pil)" >&2; exit 1; }
command -v ffmpeg >/dev/null || { echo "error: ffmpeg is needed" >&2; exit 1; }

# --- bar-chart-race/data.csv: 8 (made-up) fruits over 10 years, with overtakes -------------------
python3 - "$T/bar-chart-race/data.csv" <<'PY'
import sys
# name, value in 2015, growth per year (fraction), a one-off jump (year, factor)
fruits = [
    ("Apples",      820, 0.015, None),
    ("Bananas",     640, 0.060, None),
    ("Mangoes",     310, 0.160, (2019, 1.10)),
    ("Oranges",     700, -0.010, None),
    ("Grapes",      450, 0.045, (2021, 1.18)),
    ("Pears",       380, 0.010, None),
    ("Blueberries", 120, 0.300, None),
    ("Kiwis",       260, 0.070, (2018, 0.85)),
]
years = range(2015, 2025)
with open(sys.argv[1], "w") as f:
    f.write("year,name,value\n")
    for name, v0, growth, jump in fruits:
        v = float(v0)
        for y in years:
            if y > years[0]:
                v *= 1 + growth
                if jump and jump[0] == y:
                    v *= jump[1]
            f.write(f"{y},{name},{round(v)}\n")
PY

# --- logo-reveal/logo.png: three stacked "strata" (pills) on a transparent square -------------
python3 - "$T/logo-reveal/logo.png" <<'PY'
import sys
from PIL import Image, ImageDraw
S, K = 480, 4                      # output size, supersampling factor (smooth edges)
img = Image.new("RGBA", (S * K, S * K), (0, 0, 0, 0))
d = ImageDraw.Draw(img)
for x0, y, x1, colour in [(120, 92, 420, (255, 90, 54, 255)), (60, 204, 400, (255, 176, 59, 255)),
                          (100, 316, 440, (46, 196, 182, 255))]:
    d.rounded_rectangle([x0 * K, y * K, x1 * K, (y + 72) * K], radius=36 * K, fill=colour)
img = img.resize((S, S), Image.LANCZOS)
img.save(sys.argv[1], optimize=True)
PY

# --- social-clip/clip.mp4 (720×1280, 6 s) and captions.srt --------------------------------------
ffmpeg -loglevel error -y \
    -f lavfi -i "gradients=s=720x1280:r=24:d=6:speed=0.03:c0=0x1f3b73:c1=0xff5a36:c2=0x2ec4b6:nb_colors=3:seed=7" \
    -f lavfi -i "testsrc=s=400x300:r=24:d=6" \
    -filter_complex "[1]format=yuv420p[t];[0][t]overlay=x=160:y=300+200*sin(t*1.2),format=yuv420p" \
    -c:v libx264 -preset slow -crf 33 -g 48 -bf 0 -threads 1 -movflags +faststart \
    -map_metadata -1 -fflags +bitexact -flags:v +bitexact "$T/social-clip/clip.mp4"
cat > "$T/social-clip/captions.srt" <<'SRT'
1
00:00:00,300 --> 00:00:01,700
This is a social clip

2
00:00:02,000 --> 00:00:03,400
made from a template

3
00:00:03,800 --> 00:00:05,600
captions come from an SRT file
SRT

# --- ken-burns/screenshot.png: a made-up dashboard, 1600×1000 ----------------------------------
python3 - "$T/ken-burns/screenshot.png" <<'PY'
import sys, math
from PIL import Image, ImageDraw, ImageFont
W, H = 1600, 1000
F = "/usr/share/fonts/truetype/dejavu/"
def font(bold, size): return ImageFont.truetype(F + ("DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"), size)
img = Image.new("RGB", (W, H), (244, 246, 250))
d = ImageDraw.Draw(img)
# Top bar and sidebar.
d.rectangle([0, 0, W, 64], fill=(255, 255, 255)); d.line([0, 64, W, 64], fill=(226, 230, 236), width=2)
d.text((28, 18), "Orbit", font=font(True, 26), fill=(20, 24, 32))
d.rounded_rectangle([W - 360, 14, W - 80, 50], radius=18, fill=(240, 242, 246))
d.text((W - 340, 22), "Search reports", font=font(False, 18), fill=(140, 148, 160))
d.ellipse([W - 60, 14, W - 24, 50], fill=(255, 90, 54))
d.rectangle([0, 66, 240, H], fill=(22, 27, 38))
for i, item in enumerate(["Overview", "Reports", "Customers", "Products", "Settings"]):
    y = 110 + i * 56
    if i == 0: d.rounded_rectangle([14, y - 12, 226, y + 34], radius=10, fill=(46, 56, 76))
    d.text((40, y), item, font=font(i == 0, 20), fill=(235, 238, 244) if i == 0 else (150, 160, 178))
# Title and four KPI cards.
d.text((280, 96), "Weekly overview", font=font(True, 34), fill=(20, 24, 32))
d.text((280, 142), "All regions · last 7 days", font=font(False, 18), fill=(120, 128, 140))
kpis = [("Visitors", "48,210", "+12.4%"), ("Sign-ups", "3,902", "+8.1%"), ("Revenue", "$91.3k", "+5.7%"), ("Churn", "1.9%", "−0.3%")]
for i, (label, value, delta) in enumerate(kpis):
    x = 280 + i * 322
    d.rounded_rectangle([x, 190, x + 298, 320], radius=14, fill=(255, 255, 255))
    d.text((x + 24, 212), label, font=font(False, 18), fill=(120, 128, 140))
    d.text((x + 24, 240), value, font=font(True, 40), fill=(20, 24, 32))
    d.text((x + 200, 258), delta, font=font(True, 18), fill=(30, 160, 110))
# Line chart.
d.rounded_rectangle([280, 344, 1080, 740], radius=14, fill=(255, 255, 255))
d.text((304, 364), "Visitors per day", font=font(True, 22), fill=(20, 24, 32))
for k in range(5):
    y = 430 + k * 70
    d.line([310, y, 1050, y], fill=(236, 239, 244), width=2)
pts = [(320 + i * 36, 650 - 180 * (0.5 + 0.35 * math.sin(i / 3.2) + 0.012 * i)) for i in range(21)]
d.polygon(pts + [(pts[-1][0], 710), (pts[0][0], 710)], fill=(255, 226, 218))
d.line(pts, fill=(255, 90, 54), width=5, joint="curve")
# Bar chart.
d.rounded_rectangle([1104, 344, 1568, 740], radius=14, fill=(255, 255, 255))
d.text((1128, 364), "Sign-ups by channel", font=font(True, 22), fill=(20, 24, 32))
for i, (name, v, c) in enumerate([("Search", 0.9, (46, 196, 182)), ("Social", 0.7, (255, 176, 59)),
                                  ("Email", 0.45, (255, 90, 54)), ("Direct", 0.3, (90, 110, 200))]):
    y = 424 + i * 74
    d.text((1128, y + 8), name, font=font(False, 18), fill=(90, 98, 110))
    d.rounded_rectangle([1230, y, 1230 + int(300 * v), y + 40], radius=8, fill=c)
# Table.
d.rounded_rectangle([280, 764, 1568, 972], radius=14, fill=(255, 255, 255))
for j, h in enumerate(["Customer", "Plan", "Seats", "Since"]):
    d.text((304 + j * 310, 784), h, font=font(True, 18), fill=(120, 128, 140))
rows = [("Northwind", "Team", "42", "2021"), ("Acme Labs", "Business", "180", "2019"), ("Blue Fern", "Starter", "7", "2024")]
for i, row in enumerate(rows):
    y = 830 + i * 44
    d.line([300, y - 10, 1548, y - 10], fill=(236, 239, 244), width=2)
    for j, cell in enumerate(row):
        d.text((304 + j * 310, y), cell, font=font(j == 0, 20), fill=(30, 36, 48))
img.save(sys.argv[1], optimize=True)
PY

ls -l "$T"/bar-chart-race/data.csv "$T"/logo-reveal/logo.png "$T"/social-clip/clip.mp4 "$T"/social-clip/captions.srt "$T"/ken-burns/screenshot.png
