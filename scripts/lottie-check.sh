#!/usr/bin/env bash
# Cross-checks Strata's Lottie rendering against ThorVG and rlottie (both from PyPI, in a venv
# under .build-lottie): SSIM per file, Strata against each, and the two against each other.
#   scripts/lottie-check.sh                      the test fixtures (Tests/StrataLottieTests/Fixtures)
#   scripts/lottie-check.sh a.json b.json …      your files (e.g. a local corpus; never commit them)
# Prints "skipped: …" and exits 0 when the packages cannot be installed.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=.build-lottie/venv
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c 'import thorvg_python, rlottie_python, numpy, PIL' 2>/dev/null; then
    python3 -m venv "$venv" >/dev/null 2>&1 || { echo "skipped: python3 -m venv is not available"; exit 0; }
    "$venv/bin/pip" install -q thorvg-python rlottie-python numpy pillow >/dev/null 2>&1 \
        || { echo "skipped: thorvg-python / rlottie-python could not be installed"; exit 0; }
fi
[ -x .build/release/strata ] && strata=.build/release/strata || { source scripts/env.sh; swift build --product strata >/dev/null; strata=.build/debug/strata; }
if [ $# -eq 0 ]; then set -- Tests/StrataLottieTests/Fixtures/*.json; fi
exec "$venv/bin/python" scripts/lottie-check.py "$strata" "$@"
