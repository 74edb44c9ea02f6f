#!/usr/bin/env bash
# Runs the test suite under a sanitizer (optional, heavy: the build and the run take several
# times as long as the normal ones).
#
#   bash scripts/sanitize.sh address [FILTER]   AddressSanitizer (+ LeakSanitizer), into .build-asan
#   bash scripts/sanitize.sh thread  [FILTER]   ThreadSanitizer, into .build-tsan
#
# FILTER is passed to `swift test --filter` (a class, "Class/testName", or a regular
# expression); without it the whole suite runs (about 7 minutes under ThreadSanitizer on 2 cores,
# after a build of as long). Mutex sections reach TSan through `withCheckedLock`. A report fails the run
# (halt_on_error), and the sanitizer's report names the test. Builds and runs at the lowest CPU
# priority. Prints "skipped: …" and exits 0 where the toolchain cannot build with the sanitizer.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh

kind=${1:-address}
filter=${2:-}
case $kind in
  address) scratch=.build-asan ;;
  thread) scratch=.build-tsan ;;
  *) echo "usage: bash scripts/sanitize.sh address|thread [FILTER]" >&2; exit 2 ;;
esac

if ! command -v swift >/dev/null 2>&1; then
  echo "skipped: no swift toolchain on PATH"
  exit 0
fi
toolchain=$(dirname "$(dirname "$(readlink -f "$(command -v swift)")")")
runtime=$([ "$kind" = address ] && echo asan || echo tsan)
if ! find "$toolchain/lib" -name "libclang_rt.${runtime}*" 2>/dev/null | grep -q .; then
  echo "skipped: this Swift toolchain has no ${kind} sanitizer runtime (libclang_rt.${runtime})"
  exit 0
fi

bash scripts/setup.sh
reuse_fetched_dependencies "$scratch"

# The C targets at -O1: unoptimised, clang passes the AVX-512 kernels' 64-byte vectors to their
# helpers on the stack, and under a sanitizer the stack pointer there is not always 64-byte aligned
# (an aligned store of the argument faults). Optimised, the helpers are inlined (lanes.h).
cflags=(-Xcc -O1)
echo "building the tests with -sanitize=$kind into $scratch …"
build_with_sanitizer "$scratch/build.log" "unsupported option.*sanitize|sanitizer.*not supported" \
  "the tests with -sanitize=$kind" \
  swift build --build-tests --sanitize "$kind" --scratch-path "$scratch" "${cflags[@]}"

# Sanitizer reports stop the test process; the suppressions cover system libraries only. Reports
# go to files in $reports (one per process): the CLI tests run the sanitized `strata` binary, and
# a report there would otherwise only show as an unexpected exit status.
reports=$(mktemp -d)
trap 'rm -rf "$reports"' EXIT
export ASAN_OPTIONS=${ASAN_OPTIONS:-halt_on_error=1:detect_leaks=1:detect_stack_use_after_return=0:log_path=$reports/report}
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$PWD/scripts/sanitize-suppressions/lsan.txt:print_suppressions=0}
export TSAN_OPTIONS=${TSAN_OPTIONS:-halt_on_error=1:second_deadlock_stack=1:log_path=$reports/report:suppressions=$PWD/scripts/sanitize-suppressions/tsan.txt}
args=(--skip-build --disable-swift-testing --sanitize "$kind" --scratch-path "$scratch" "${cflags[@]}")
[ -n "$filter" ] && args+=(--filter "$filter")
echo "running the tests under -sanitize=$kind${filter:+ (filter: $filter)} …"
out=$(mktemp)
status=0
nice -n 19 swift test "${args[@]}" 2>&1 | tee "$out" || status=$?
summary=$(grep -E "Executed [0-9]+ tests?, with" "$out" | tail -n 1 || true)
# The reports of every process (the test runner's and the CLI's), shown and counted with the output.
for f in "$reports"/report*; do
  [ -f "$f" ] || continue
  echo "── sanitizer report of process ${f##*.} ──"
  cat "$f"
  cat "$f" >> "$out"
done
# Errors and data races fail the run, and so does a direct leak that no suppression covers. An
# indirect leak is memory reachable only from a suppressed one (XCTest's and Foundation's objects
# behind a weak-reference side table): counted, not failed on.
errors=$(grep -cE "^==[0-9]+==ERROR: (AddressSanitizer|ThreadSanitizer)|^WARNING: ThreadSanitizer" "$out" || true)
direct=$(grep -cE "^Direct leak of" "$out" || true)
indirect=$(grep -cE "^Indirect leak of" "$out" || true)
failures=$(echo "$summary" | sed -nE 's/.* ([0-9]+) failures?.*/\1/p')
rm -f "$out"
echo "sanitize $kind: ${summary:-no XCTest summary}; errors: $errors, direct leaks: $direct, indirect leaks: $indirect"
if [ -n "$summary" ] && [ "${failures:-1}" -eq 0 ] && [ "$errors" -eq 0 ] && [ "$direct" -eq 0 ]; then
  status=0    # (LeakSanitizer's exit code for indirect leaks alone)
else
  status=1
fi
exit $status
