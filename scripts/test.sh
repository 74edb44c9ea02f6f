#!/usr/bin/env bash
# Set-up plus the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
source scripts/env.sh
swift build --build-tests
swift test --skip-build
