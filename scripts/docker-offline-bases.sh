#!/usr/bin/env bash
# Makes the two base images the Dockerfile names, for a Docker engine that reaches no image
# registry (as here: only Debian's package archive is reachable):
#   debian:bookworm-slim  debootstrap (minbase) from Debian's archive, slimmed as the official
#                         image is (no docs, man pages or locales; apt lists removed), imported
#                         with `docker import`;
#   swift:6.3-bookworm    (the tag of the Dockerfile's build stage) that image plus the packages
#                         the official Swift image installs, the Swift toolchain installed on this
#                         machine ($SWIFT_TOOLCHAIN, default /opt/swift), and the machine's local
#                         git mirror of Swift packages with the same `url.*.insteadOf` settings, so
#                         `swift package resolve` inside the build reaches no network.
# With a registry, `docker pull debian:bookworm-slim swift:6.3-bookworm` replaces this script.
# An image that already exists is kept (FORCE=1 makes it again). Prints the tags it created, one a
# line, on standard output (docker-check.sh removes those afterwards); progress goes to stderr.
set -euo pipefail
cd "$(dirname "$0")/.."

SWIFT_TOOLCHAIN=${SWIFT_TOOLCHAIN:-/opt/swift}
DEBIAN_MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
FORCE=${FORCE:-0}
say() { echo "docker-offline-bases: $*" >&2; }

docker info >/dev/null 2>&1 || { say "no Docker engine answers (start dockerd first)"; exit 1; }

# The tags, as the Dockerfile spells them.
build_tag=$(awk 'toupper($1)=="FROM" && toupper($3)=="AS" {print $2; exit}' Dockerfile)
runtime_tag=$(awk 'toupper($1)=="FROM" {tag=$2} END {print tag}' Dockerfile)
[ -n "$build_tag" ] && [ -n "$runtime_tag" ] || { say "cannot read the FROM lines of Dockerfile"; exit 1; }

exists() { docker image inspect "$1" >/dev/null 2>&1; }
work=$(mktemp -d /var/tmp/strata-bases.XXXXXX)
container=""
cleanup() {
  [ -n "$container" ] && docker rm -f "$container" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT

# --- debian:bookworm-slim -------------------------------------------------------------------
if [ "$FORCE" = 1 ] || ! exists "$runtime_tag"; then
  command -v debootstrap >/dev/null || {
    [ "$(id -u)" -eq 0 ] || { say "debootstrap is missing: apt-get install -y debootstrap"; exit 1; }
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >&2
  }
  rootfs="$work/rootfs"
  say "debootstrap bookworm (minbase) from $DEBIAN_MIRROR"
  debootstrap --variant=minbase bookworm "$rootfs" "$DEBIAN_MIRROR" >"$work/debootstrap.log" 2>&1 \
    || { tail -n 20 "$work/debootstrap.log" >&2; say "debootstrap failed"; exit 1; }
  # What the official slim image changes: dpkg leaves out docs, man pages and translations;
  # apt keeps no package files or lists; no services start inside a build.
  cat >"$rootfs/etc/dpkg/dpkg.cfg.d/docker" <<'EOF'
path-exclude /usr/share/doc/*
path-include /usr/share/doc/*/copyright
path-exclude /usr/share/groff/*
path-exclude /usr/share/info/*
path-exclude /usr/share/linda/*
path-exclude /usr/share/lintian/*
path-exclude /usr/share/locale/*
path-exclude /usr/share/man/*
EOF
  cat >"$rootfs/etc/apt/apt.conf.d/docker-clean" <<'EOF'
DPkg::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
APT::Update::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
Dir::Cache::pkgcache "";
Dir::Cache::srcpkgcache "";
EOF
  echo 'Acquire::Languages "none";' >"$rootfs/etc/apt/apt.conf.d/docker-no-languages"
  printf 'Acquire::GzipIndexes "true";\nAcquire::CompressionTypes::Order:: "gz";\n' >"$rootfs/etc/apt/apt.conf.d/docker-gzip-indexes"
  printf 'Apt::AutoRemove::SuggestsImportant "false";\n' >"$rootfs/etc/apt/apt.conf.d/docker-autoremove-suggests"
  printf '#!/bin/sh\nexit 101\n' >"$rootfs/usr/sbin/policy-rc.d" && chmod 755 "$rootfs/usr/sbin/policy-rc.d"
  rm -f "$rootfs/etc/apt/sources.list"
  cat >"$rootfs/etc/apt/sources.list.d/debian.sources" <<EOF
Types: deb
URIs: $DEBIAN_MIRROR
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb
URIs: ${DEBIAN_MIRROR%/debian}/debian-security
Suites: bookworm-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
  rm -rf "$rootfs"/usr/share/doc/*/[!c]* "$rootfs"/usr/share/man/* "$rootfs"/usr/share/info/* "$rootfs"/usr/share/locale/* \
         "$rootfs"/var/lib/apt/lists/* "$rootfs"/var/cache/apt/*.bin "$rootfs"/var/cache/apt/archives/*.deb \
         "$rootfs"/var/log/*.log "$rootfs"/var/log/apt/* "$rootfs"/etc/hostname "$rootfs"/etc/resolv.conf \
         "$rootfs"/etc/machine-id "$rootfs"/var/lib/dbus/machine-id 2>/dev/null || true
  : >"$rootfs/etc/machine-id"
  say "importing $runtime_tag"
  tar --numeric-owner -C "$rootfs" -c . | docker import --change 'CMD ["bash"]' - "$runtime_tag" >/dev/null
  rm -rf "$rootfs"
  echo "$runtime_tag"
fi

# --- swift:X-bookworm -----------------------------------------------------------------------
if [ "$FORCE" = 1 ] || ! exists "$build_tag"; then
  [ -x "$SWIFT_TOOLCHAIN/usr/bin/swift" ] || { say "no Swift toolchain at $SWIFT_TOOLCHAIN (set SWIFT_TOOLCHAIN)"; exit 1; }
  have=$("$SWIFT_TOOLCHAIN/usr/bin/swift" --version 2>/dev/null | sed -nE 's/.*Swift version ([0-9]+\.[0-9]+).*/\1/p' | head -n 1)
  want=$(echo "$build_tag" | sed -nE 's/^swift:([0-9]+\.[0-9]+).*/\1/p')
  if [ -n "$want" ] && [ "$have" != "$want" ]; then
    say "warning: the toolchain at $SWIFT_TOOLCHAIN is Swift $have, tagged $build_tag"
  fi
  # The packages of the official Swift image for Debian 12 (swift-docker), libncurses6 among them.
  mkdir -p "$work/deps"
  cat >"$work/deps/Dockerfile" <<EOF
FROM $runtime_tag
RUN export DEBIAN_FRONTEND=noninteractive DEBCONF_NONINTERACTIVE_SEEN=true && apt-get -q update && \\
    apt-get -q install -y binutils-gold curl gpg libicu-dev libcurl4-openssl-dev libedit-dev libsqlite3-dev \\
      libncurses-dev libncurses6 libpython3-dev libxml2-dev pkg-config uuid-dev tzdata git gcc libstdc++-12-dev \\
    && rm -r /var/lib/apt/lists/*
EOF
  say "installing the Swift image's packages"
  docker build --network host -q -t strata-offline/swift-deps:tmp "$work/deps" >/dev/null
  # The toolchain goes in as the official image has it (usr/ merged into /usr); the package
  # mirror at the same paths, with the same git redirects.
  mounts=(-v "$SWIFT_TOOLCHAIN:/toolchain:ro")
  setup="cp -a /toolchain/usr/. /usr/"
  declare -A copied=()
  while read -r key value; do
    [ -n "$key" ] || continue
    mirror=${key#url.}; mirror=${mirror%.insteadof}
    [ -d "$mirror" ] || continue
    if [ -z "${copied[$mirror]:-}" ]; then
      copied[$mirror]=/mirror${#copied[@]}
      mounts+=(-v "$mirror:${copied[$mirror]}:ro")
      setup="$setup && mkdir -p '$mirror' && cp -a ${copied[$mirror]}/. '$mirror'"
    fi
    setup="$setup && git config --system --add 'url.$mirror.insteadOf' '$value'"
  done < <(git config --get-regexp '^url\..*\.insteadof$' || true)
  setup="$setup && swift --version"
  container="strata-offline-swift-$$"
  say "copying the toolchain into $build_tag"
  docker run --name "$container" --network none "${mounts[@]}" strata-offline/swift-deps:tmp sh -c "$setup" >&2
  docker commit --change 'CMD ["/bin/bash"]' "$container" "$build_tag" >/dev/null
  docker rm "$container" >/dev/null; container=""
  docker rmi strata-offline/swift-deps:tmp >/dev/null
  echo "$build_tag"
fi
