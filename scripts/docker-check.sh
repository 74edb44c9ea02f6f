#!/usr/bin/env bash
# Builds the Docker image from the Dockerfile and runs it for real: renders into a bind-mounted
# folder as the image's non-root user (the built-in demo as MP4 and GIF; three chunks joined with
# `strata concat`; the lower-third template whole, in chunks, and as a two-shard batch), checks the files with ffprobe and ffmpeg, compares the container's bytes with
# the same renders made on this machine (reproducible output), reports the image size, and removes
# everything it built (images, base images it had to make, the daemon it started).
#
#   bash scripts/docker-check.sh            # STRATA_KEEP_IMAGES=1 keeps the images it built
#
# A Docker engine that answers is used as it is; otherwise Debian's docker.io is installed (as
# root) and dockerd started with overlay2 storage, no iptables and no bridge, and stopped at the
# end. Where no engine can start, it prints "skipped: …" and exits 0. With no image registry
# reachable, the base images are made by scripts/docker-offline-bases.sh.
set -uo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

say() { echo "docker-check: $*"; }
fail() { echo "docker-check: FAILED: $*" >&2; exit 1; }
skip() { echo "skipped: $*"; exit 0; }

image="strata-check:$$"
work=$(mktemp -d /var/tmp/strata-docker-check.XXXXXX)
started_pid=""
created_bases=""
cleanup() {
  status=$?
  if [ "${STRATA_KEEP_IMAGES:-0}" != 1 ] && [ -n "$(docker images -q "$image" 2>/dev/null)$(docker images -q "$image-build" 2>/dev/null)" ]; then
    # Removing the tags also removes their untagged parent layers (the build steps).
    docker rmi -f "$image" "$image-build" >/dev/null 2>&1 || true
    say "removed the image $image"
  fi
  if [ "${STRATA_KEEP_IMAGES:-0}" != 1 ] && [ -n "$created_bases" ]; then
    for tag in $created_bases; do docker rmi "$tag" >/dev/null 2>&1 || true; done
    say "removed the base images it made: $(echo $created_bases)"
  fi
  if [ -n "$started_pid" ]; then
    kill "$started_pid" 2>/dev/null
    for _ in $(seq 1 30); do kill -0 "$started_pid" 2>/dev/null || break; sleep 1; done
    say "stopped the dockerd it started (pid $started_pid)"
  fi
  rm -rf "$work"
  exit $status
}
trap cleanup EXIT

# --- An engine -------------------------------------------------------------------------------
if ! docker info >/dev/null 2>&1; then
  if ! command -v dockerd >/dev/null 2>&1; then
    if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
      say "installing Debian's docker.io"
      DEBIAN_FRONTEND=noninteractive apt-get install -y -qq docker.io >"$work/apt.log" 2>&1 \
        || skip "no Docker engine (docker.io could not be installed: $(tail -n 1 "$work/apt.log"))"
    else
      skip "no Docker engine (dockerd is not installed; as root: apt-get install -y docker.io)"
    fi
  fi
  command -v docker >/dev/null 2>&1 || skip "no Docker engine (no docker client)"
  say "starting dockerd (overlay2, no iptables, no bridge)"
  dockerd --storage-driver=overlay2 --iptables=false --bridge=none >"$work/dockerd.log" 2>&1 &
  started_pid=$!
  for _ in $(seq 1 30); do docker info >/dev/null 2>&1 && break; kill -0 "$started_pid" 2>/dev/null || break; sleep 1; done
  if ! docker info >/dev/null 2>&1; then
    reason=$(grep -m1 -iE "level=(fatal|error)" "$work/dockerd.log" | sed -E 's/.*msg="([^"]*)".*/\1/')
    kill "$started_pid" 2>/dev/null; started_pid=""
    skip "no Docker engine (dockerd did not start: ${reason:-no answer within 30 s})"
  fi
fi
driver=$(docker info -f '{{.Driver}}' 2>/dev/null)
[ "$driver" = vfs ] && skip "no usable Docker engine (it uses the vfs storage driver, which copies every layer whole)"
say "engine $(docker version -f '{{.Server.Version}}' 2>/dev/null), storage $driver"

# --- Base images and the image ------------------------------------------------------------------
build_tag=$(awk 'toupper($1)=="FROM" && toupper($3)=="AS" {print $2; exit}' Dockerfile)
runtime_tag=$(awk 'toupper($1)=="FROM" {tag=$2} END {print tag}' Dockerfile)
if ! docker image inspect "$build_tag" >/dev/null 2>&1 || ! docker image inspect "$runtime_tag" >/dev/null 2>&1; then
  say "making the base images locally ($build_tag, $runtime_tag): no registry is reachable"
  created_bases=$(bash scripts/docker-offline-bases.sh) || fail "scripts/docker-offline-bases.sh failed"
fi
# One snapshot of the tree (tracked and new files, not ignored ones) is the context of both builds,
# so that the build stage's layers are the tagged ones and go when the tag goes.
git ls-files -z --cached --others --exclude-standard | tar --null -T - -cf "$work/context.tar" 2>/dev/null \
  || fail "cannot pack the tree for docker build"
say "docker build --network host -t $image . ($(( $(stat -c %s "$work/context.tar") / 1000 )) kB of context)"
started=$(date +%s)
docker build --network host --target build -t "$image-build" - <"$work/context.tar" >"$work/build.log" 2>&1 \
  && docker build --network host -t "$image" - <"$work/context.tar" >>"$work/build.log" 2>&1 \
  || { tail -n 30 "$work/build.log" >&2; fail "docker build failed (the Dockerfile does not build the current tree)"; }
size=$(docker image inspect -f '{{.Size}}' "$image")
say "built in $(( $(date +%s) - started )) s; image size $(( size / 1000000 )) MB ($size bytes)"

user=$(docker run --rm --network none --entrypoint id "$image" -u)
group=$(docker run --rm --network none --entrypoint id "$image" -g)
[ "$user" != 0 ] || fail "the image runs as root"
missing=$(docker run --rm --network none --entrypoint sh "$image" -c 'ldd /usr/local/bin/strata | grep "not found"')
[ -z "$missing" ] || fail "the runtime image lacks libraries: $missing"
docker run --rm --network none --entrypoint sh "$image" -c 'test -d /opt/strata/Templates' || fail "no /opt/strata/Templates in the image"
say "runs as uid $user (not root); every library strata links is present; Templates/ at /opt/strata/Templates"

# --- Renders in the container, into a bind-mounted folder ----------------------------------------
box="$work/container"; mkdir -p "$box"; chown "$user:$group" "$box"
in_box() { docker run --rm --network none -v "$box:/work/out" "$image" "$@" >>"$work/run.log" 2>&1 \
             || { tail -n 5 "$work/run.log" >&2; fail "docker run $image $*"; }; }
# The same renders on this machine, with a release build of the same tree.
source scripts/env.sh
say "swift build -c release --product strata (the host's binary, to compare bytes)"
swift build -c release --product strata >"$work/host-build.log" 2>&1 || { tail -n 20 "$work/host-build.log" >&2; fail "host build failed"; }
host_strata="$root/.build/release/strata"
host="$work/host"; mkdir -p "$host"
on_host() { (cd "$host" && "$host_strata" "$@") >>"$work/run.log" 2>&1 || fail "host: strata $*"; }

renders=(
  "render --size 640x360 --duration 2 -o out/demo.mp4"
  "render --size 320x180 --duration 2 -o out/demo.gif"
  "render --size 640x360 --duration 2 --keyframe-interval 20 -o out/whole.mp4"
  "render --size 640x360 --duration 2 --keyframe-interval 20 --frames 0..19 -o out/chunk-0.mp4"
  "render --size 640x360 --duration 2 --keyframe-interval 20 --frames 20..39 -o out/chunk-20.mp4"
  "render --size 640x360 --duration 2 --keyframe-interval 20 --frames 40..59 -o out/chunk-40.mp4"
  "concat out/chunk-0.mp4 out/chunk-20.mp4 out/chunk-40.mp4 -o out/joined.mp4"
)

# Templates and batch: the image's own Templates/ (/opt/strata/Templates) in the container, the
# tree's on the host; a chunked template render, and a batch over two rows in two shards.
renders+=(
  "render lower-third --set duration=2 --scale 0.25 --keyframe-interval 30 -o out/template.mp4"
  "render lower-third --set duration=2 --scale 0.25 --keyframe-interval 30 --frames 0..29 -o out/tchunk-0.mp4"
  "render lower-third --set duration=2 --scale 0.25 --keyframe-interval 30 --frames 30..59 -o out/tchunk-1.mp4"
  "concat out/tchunk-0.mp4 out/tchunk-1.mp4 -o out/tjoined.mp4"
  "batch lower-third --data out/rows.csv --out out/batch --name {{id}}.mp4 --set duration=2 --scale 0.25 --shard 0/2"
  "batch lower-third --data out/rows.csv --out out/batch --name {{id}}.mp4 --set duration=2 --scale 0.25 --shard 1/2"
)
export STRATA_TEMPLATES="$root/Templates"   # the host's runs; the container finds its own

mkdir -p "$host/out"
for d in "$box" "$host/out"; do printf 'id,name,title\nada,Ada Lovelace,Analyst\ngrace,Grace Hopper,Rear admiral\n' >"$d/rows.csv"; done
chown "$user:$group" "$box/rows.csv"
for r in "${renders[@]}"; do
  # shellcheck disable=SC2086
  in_box $r
  # shellcheck disable=SC2086
  on_host $r
done
say "rendered in the container: $(cd "$box" && ls | tr '\n' ' ')"
# The README's recipe: any uid, with --user, into a folder that uid owns.
other="$work/other-user"; mkdir -p "$other"; chown 4321:4321 "$other"
docker run --rm --network none --user 4321:4321 -v "$other:/work/out" "$image" render --size 320x180 --duration 1 -o out/demo.mp4 \
  >"$work/other.log" 2>&1 || { cat "$work/other.log" >&2; fail "docker run --user 4321:4321 failed"; }
grep -qiE "error|warning" "$work/other.log" && { cat "$work/other.log" >&2; fail "docker run --user 4321:4321 printed errors"; }
[ "$(stat -c %u "$other/demo.mp4")" = 4321 ] || fail "the file written with --user 4321:4321 is not owned by 4321"
say "docker run --user 4321:4321 writes out/demo.mp4 as that user, quietly"

# --- Checks ----------------------------------------------------------------------------------
probe() { ffprobe -v error -count_frames -select_streams v:0 -show_entries "stream=codec_name,width,height,nb_read_frames:format=duration,nb_streams" -of default=nw=1 "$1" | tr '\n' ' '; }
expect() { # file, the ffprobe line must contain each of the rest
  local file=$1 line; shift; line=$(probe "$box/$file")
  for want in "$@"; do [[ "$line" == *"$want"* ]] || fail "$file: expected $want in: $line"; done
  say "$file: $line"
}
expect demo.mp4 codec_name=h264 width=640 height=360 nb_read_frames=60 nb_streams=1 duration=2.000000
expect demo.gif codec_name=gif width=320 height=180 nb_read_frames=60
expect joined.mp4 codec_name=h264 nb_read_frames=60 nb_streams=1 duration=2.000000
expect template.mp4 codec_name=h264 width=480 height=270 nb_read_frames=60 duration=2.000000
expect batch/ada.mp4 codec_name=h264 width=480 height=270 nb_read_frames=60
expect batch/grace.mp4 codec_name=h264 width=480 height=270 nb_read_frames=60
frames() { ffmpeg -v error -i "$1" -f framemd5 - | grep -v '^#'; }
[ "$(frames "$box/joined.mp4")" = "$(frames "$box/whole.mp4")" ] || fail "joined chunks decode differently from the whole render"
say "joined.mp4 decodes to the whole render's 60 frames (framemd5)"
[ "$(frames "$box/tjoined.mp4")" = "$(frames "$box/template.mp4")" ] || fail "joined template chunks decode differently from the whole template render"
say "tjoined.mp4 (template chunks) decodes to the whole template render's frames"

same=0
for f in demo.mp4 demo.gif whole.mp4 chunk-0.mp4 chunk-20.mp4 chunk-40.mp4 joined.mp4 \
         template.mp4 tchunk-0.mp4 tchunk-1.mp4 tjoined.mp4 batch/ada.mp4 batch/grace.mp4; do
  cmp -s "$box/$f" "$host/out/$f" || fail "$f differs between the container and this machine ($(stat -c %s "$box/$f") vs $(stat -c %s "$host/out/$f") bytes)"
  same=$((same + 1))
done
say "reproducible: all $same files are byte-identical to this machine's renders"
say "passed (image size $(( size / 1000000 )) MB)"
