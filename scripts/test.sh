#!/usr/bin/env bash
# Set-up plus the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
source scripts/env.sh
# Strata's own code builds without warnings: a warning in a file of this package (Swift or C) fails
# the run, as -warnings-as-errors would. The flag itself cannot be scoped to our targets from the
# command line (-Xswiftc reaches Yams and ArgumentParser too, and switching flags rebuilds
# everything), so the build's output is read instead. SwiftPM's own "prohibited flag(s): -pthread"
# (from pangocairo's pkg-config Cflags, dropped by SwiftPM) names no file of ours and is not
# counted. A file compiled in an earlier build prints nothing: CI builds from clean.
build_log=$(mktemp)
swift build --build-tests 2>&1 | tee "$build_log"
own_warnings=$(grep -E "^$PWD/(Sources|Tests|examples|Benchmarks)/[^:]+:[0-9]+:[0-9]+: warning:" "$build_log" | sort -u || true)
rm -f "$build_log"
if [ -n "$own_warnings" ]; then
  echo "$own_warnings" >&2
  echo "the build warns (above): Strata's own targets build with warnings as errors" >&2
  exit 1
fi
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
