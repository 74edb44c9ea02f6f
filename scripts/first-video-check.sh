#!/usr/bin/env bash
# Does what the README's "first video in five minutes" says, from a clean folder, and checks the
# video: installs strata into a temporary prefix (scripts/install.sh), runs `strata templates`
# from another folder, `strata new my-video`, builds the project in release mode (timed: cold,
# then again after a one-line change), renders it with one command and checks the MP4 with
# ffprobe (1280×720, 90 frames) and a GIF. Prints "skipped: …" and exits 0 where it cannot run.
#
#   bash scripts/first-video-check.sh            # dsl project
#   KIND=coreanimation bash scripts/first-video-check.sh
#   DEBUG_BUILD=1 bash scripts/first-video-check.sh   # also times a cold debug build
#   TEST=1 …                                     # also runs the project's tests (swift test)
#   KEEP=1 …                                     # keep the temporary folder
#
# Network-free: the new project depends on this checkout by path, and Strata's own dependencies
# are resolved from the git repositories this checkout's build already fetched
# (.build/repositories), set as SwiftPM mirrors of their URLs in the new project only. Without
# them it needs the network (and skips when github.com does not answer).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
checkout=$PWD
KIND=${KIND:-dsl}

skip() { echo "skipped: $*"; exit 0; }
command -v swift >/dev/null 2>&1 || skip "no Swift toolchain on PATH or at /opt/swift"
command -v ffprobe >/dev/null 2>&1 || skip "ffprobe is not installed (apt-get install ffmpeg)"
command -v python3 >/dev/null 2>&1 || skip "python3 is not installed (the man page is made with it)"
pkg-config --exists libavformat pangocairo 2>/dev/null || skip "Strata's libraries are missing (bash scripts/setup.sh installs them)"

work=$(mktemp -d "${TMPDIR:-/tmp}/strata-first-video.XXXXXX")
cleanup() { if [ -z "${KEEP:-}" ]; then rm -rf "$work"; else echo "kept $work"; fi; }
trap cleanup EXIT
log=$work/log
load() { cut -d' ' -f1-3 /proc/loadavg; }
seconds() { python3 -c "import time; print(f'{time.time() - $1:.1f}')"; }
now() { python3 -c "import time; print(time.time())"; }
echo "machine: $(nproc) cores, load average $(load) at the start"

# 1. Install into a temporary prefix.
t=$(now)
bash scripts/install.sh "$work/prefix" >"$log" 2>&1 || { tail -n 30 "$log"; echo "scripts/install.sh failed" >&2; exit 1; }
echo "install.sh (release build of strata in this checkout, incremental if built before): $(seconds "$t") s"
export PATH="$work/prefix/bin:$PATH"
for f in bin/strata share/strata/Templates/lower-third/lower-third.yaml share/strata/checkout \
         share/bash-completion/completions/strata share/zsh/site-functions/_strata \
         share/fish/vendor_completions.d/strata.fish share/man/man1/strata.1; do
  [ -s "$work/prefix/$f" ] || { echo "install.sh did not write $f" >&2; exit 1; }
done
if command -v man >/dev/null 2>&1; then
  MANWIDTH=100 man -l "$work/prefix/share/man/man1/strata.1" 2>/dev/null | grep -q "strata render" \
    || { echo "the man page does not read as one" >&2; exit 1; }
fi

# 2. From a folder with no Templates/ in it, the installed templates are found by name.
mkdir -p "$work/videos"
cd "$work/videos"
(unset STRATA_TEMPLATES; strata templates) >"$log" 2>&1 || { cat "$log"; exit 1; }
grep -q "^lower-third " "$log" || { cat "$log"; echo "strata templates does not list the installed templates" >&2; exit 1; }
(unset STRATA_TEMPLATES; strata still lower-third --time 2 -o lower-third.png) >"$log" 2>&1 || { cat "$log"; exit 1; }

# 3. strata new, with Strata by path (the checkout install.sh recorded).
strata new my-video --template "$KIND" >"$log" 2>&1 || { cat "$log"; exit 1; }
grep -q "package: \"$(basename "$checkout" | tr '[:upper:]' '[:lower:]')\"" my-video/Package.swift \
  || { cat my-video/Package.swift; echo "Package.swift does not depend on this checkout" >&2; exit 1; }
if strata new my-video >"$log" 2>&1; then echo "strata new wrote into a non-empty folder" >&2; exit 1; fi
cd my-video

# Strata's dependencies from the repositories this checkout fetched, when it has them.
mirrors=0
for repo in "$checkout"/.build/repositories/*/; do
  [ -d "$repo" ] || continue
  url=$(git -C "$repo" config --get remote.origin.url 2>/dev/null || true)
  [ -n "$url" ] || continue
  swift package config set-mirror --original "$url" --mirror "file://${repo%/}" >/dev/null
  mirrors=$((mirrors + 1))
done
if [ "$mirrors" -eq 0 ] && ! timeout 20 git ls-remote https://github.com/apple/swift-argument-parser >/dev/null 2>&1; then
  skip "this checkout has fetched no dependencies (.build/repositories) and github.com does not answer"
fi

# 4. The first release build, cold, then after a one-line change.
echo "load average before the cold build: $(load)"
t=$(now)
swift build -c release >"$log" 2>&1 || { tail -n 40 "$log"; echo "the project's release build failed" >&2; exit 1; }
cold=$(seconds "$t")
compiled=$(grep -c "Compiling" "$log" || true)
built_extras=$(grep -E "Compiling (example-|StrataBench|StrataTests|StrataCoreTests)" "$log" || true)
[ -z "$built_extras" ] || { echo "$built_extras"; echo "building the project built Strata's examples or tests" >&2; exit 1; }
echo "swift build -c release (cold, $compiled compile steps): $cold s; load average after: $(load)"
sed -i 's/Made with Strata/Made with Strata!/' "Sources/my-video/MyVideo.swift" || true
touch "Sources/my-video/MyVideo.swift"
t=$(now)
swift build -c release >"$log" 2>&1 || { tail -n 40 "$log"; exit 1; }
echo "swift build -c release (incremental, the script changed): $(seconds "$t") s"

# 5. One command builds (nothing left to do) and renders.
t=$(now)
swift run -c release my-video -o out/my-video.mp4 >"$log" 2>&1 || { tail -n 40 "$log"; echo "rendering failed" >&2; exit 1; }
echo "swift run -c release my-video -o out/my-video.mp4: $(seconds "$t") s"
probe=$(ffprobe -v error -count_frames -select_streams v:0 \
  -show_entries stream=width,height,nb_read_frames,codec_name -of csv=p=0 out/my-video.mp4)
[ "$probe" = "h264,1280,720,90" ] || { echo "unexpected video: $probe (expected h264,1280,720,90)" >&2; exit 1; }
echo "out/my-video.mp4: $probe (codec, width, height, frames)"
# The GIF as the project's README makes it (Core Animation code keeps its own frame rate).
if [ "$KIND" = coreanimation ]; then gif_options=(--scale 0.5); gif_frames=90; else gif_options=(--fps 15 --scale 0.5); gif_frames=45; fi
grep -q -- "-o out/my-video.gif ${gif_options[*]}" README.md || { echo "README.md makes the GIF otherwise" >&2; exit 1; }
swift run -c release my-video -o out/my-video.gif "${gif_options[@]}" >"$log" 2>&1 || { tail -n 20 "$log"; exit 1; }
# A frame that shows no change adds no image to a GIF (the one before it is shown longer), so the
# GIF holds at most that many images and lasts the video's 3 seconds.
gif=$(ffprobe -v error -count_frames -show_entries stream=width,height,nb_read_frames -of csv=p=0 out/my-video.gif)
gif_seconds=$(ffprobe -v error -show_entries format=duration -of csv=p=0 out/my-video.gif)
IFS=, read -r gif_w gif_h gif_images <<< "$gif"
if [ "$gif_w,$gif_h" != "640,360" ] || [ "$gif_images" -lt 2 ] || [ "$gif_images" -gt "$gif_frames" ] \
   || ! awk -v s="$gif_seconds" 'BEGIN { exit !(s > 2.95 && s < 3.05) }'; then
  echo "unexpected GIF: $gif, $gif_seconds s (expected 640×360, at most $gif_frames images, 3 s)" >&2; exit 1
fi
echo "out/my-video.gif: ${gif_w}×${gif_h}, $gif_images images of at most $gif_frames frames, $gif_seconds s"

if [ -n "${DEBUG_BUILD:-}" ]; then
  t=$(now)
  swift build >"$log" 2>&1 || { tail -n 40 "$log"; exit 1; }
  echo "swift build (debug, cold): $(seconds "$t") s; load average after: $(load)"
  t=$(now)
  swift run my-video -o out/debug.mp4 >"$log" 2>&1 || { tail -n 20 "$log"; exit 1; }
  echo "swift run my-video -o out/debug.mp4 (debug build, the README's first command): $(seconds "$t") s"
  probe=$(ffprobe -v error -count_frames -select_streams v:0 -show_entries stream=width,height,nb_read_frames -of csv=p=0 out/debug.mp4)
  [ "$probe" = "1280,720,90" ] || { echo "unexpected video from the debug build: $probe" >&2; exit 1; }
fi
if [ -n "${TEST:-}" ]; then
  t=$(now)
  swift test >"$log" 2>&1 || { tail -n 40 "$log"; echo "the project's tests failed" >&2; exit 1; }
  echo "swift test (debug build and the project's tests): $(seconds "$t") s"
fi

echo "first-video check passed ($KIND project)"
