#!/usr/bin/env bash
# Installs what Strata needs on Debian 12 when it is missing (as root, without prompts).
# When not root and something is missing, prints the exact apt-get line and stops.
set -euo pipefail

PACKAGES=(libavcodec-dev libavformat-dev libavutil-dev libswscale-dev libswresample-dev libgif-dev
          libcairo2-dev libpango1.0-dev libvterm-dev zlib1g-dev fonts-dejavu-core fonts-wqy-microhei ffmpeg pkg-config webp)

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "Strata needs these Debian packages: ${missing[*]}" >&2
    echo "Run as root:  apt-get install -y ${missing[*]}" >&2
    exit 1
  fi
  echo "Installing: ${missing[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
fi

if ! command -v swift >/dev/null 2>&1; then
  if [ -x /opt/swift/usr/bin/swift ]; then
    echo "note: add /opt/swift/usr/bin to PATH (the scripts do this for themselves)" >&2
  else
    echo "Strata needs Swift 6.1 or later: none found on PATH or at /opt/swift" >&2
    exit 1
  fi
fi
