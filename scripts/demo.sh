#!/usr/bin/env bash
# Set-up plus the built-in demo: out/demo.mp4 and out/demo.gif.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
source scripts/env.sh
swift build -c release --product strata
mkdir -p out
.build/release/strata render -o out/demo.mp4
.build/release/strata render -o out/demo.gif --size 640x360
