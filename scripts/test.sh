#!/usr/bin/env bash
# Set-up plus the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
source scripts/env.sh
swift build --build-tests
log=$(mktemp)
# The tests' temporary files (scratch folders, rendered media, the processes they start) go to
# one folder of this run, removed afterwards whatever the outcome: a test that fails, or is
# killed, leaves nothing behind in /tmp.
scratch=$(mktemp -d "${TMPDIR:-/tmp}/strata-test-run.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
status=0
TMPDIR=$scratch swift test --skip-build --disable-swift-testing 2>&1 | tee "$log" || status=$?
# One plain closing line from XCTest's summary: "N passed, N failed, N skipped".
summary=$(grep -E "Executed [0-9]+ tests?, with" "$log" | tail -n 1 || true)
rm -f "$log"
if [ -n "$summary" ]; then
  total=$(echo "$summary" | sed -E 's/.*Executed ([0-9]+) tests?.*/\1/')
  failed=$(echo "$summary" | sed -E 's/.* ([0-9]+) failures?.*/\1/')
  skipped=$(echo "$summary" | grep -oE '[0-9]+ tests? skipped' | grep -oE '^[0-9]+' || echo 0)
  echo "tests: $((total - failed - skipped)) passed, $failed failed, $skipped skipped"
fi
exit $status
