#!/usr/bin/env bash
# Validates Lottie files against lottie-spec 1.0's JSON Schema (PyPI's lottie-specs, in the venv
# under .build-lottie that lottie-check.sh uses) and checks that Strata reads each valid one.
#   scripts/lottie-schema.sh                 the test fixtures (Tests/StrataLottieTests/Fixtures)
#   scripts/lottie-schema.sh a.json …        your files
# Prints "skipped: …" and exits 0 when the packages cannot be installed.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=.build-lottie/venv
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c 'import lottie_specs, jsonschema' 2>/dev/null; then
    [ -x "$venv/bin/python" ] || python3 -m venv "$venv" >/dev/null 2>&1 || { echo "skipped: python3 -m venv is not available"; exit 0; }
    "$venv/bin/pip" install -q lottie-specs jsonschema >/dev/null 2>&1 \
        || { echo "skipped: lottie-specs / jsonschema could not be installed"; exit 0; }
fi
[ -x .build/release/strata ] && strata=.build/release/strata || { source scripts/env.sh; swift build --product strata >/dev/null; strata=.build/debug/strata; }
if [ $# -eq 0 ]; then set -- Tests/StrataLottieTests/Fixtures/*.json; fi
exec "$venv/bin/python" scripts/lottie-schema.py "$strata" "$@"
