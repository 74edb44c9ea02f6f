#!/usr/bin/env bash
# Fuzzes Strata's input parsers and decoders with libFuzzer (optional, heavy).
#
#   bash scripts/fuzz.sh                  every target, 60 s each
#   bash scripts/fuzz.sh TARGET [SECONDS]  one target (image, media, gif, template, expression,
#                                          rows, captions, lottie, lottie-script; "all" for every one)
#
# The targets (Fuzz/, a package of its own) are built with -sanitize=fuzzer,address into
# .build-fuzz, so the normal build is untouched. (SwiftPM's `--sanitize fuzzer` instruments C
# and links libFuzzer but leaves Swift code without coverage counters, so swiftc gets the flag
# too; -parse-as-library keeps Swift from emitting a `main` that would clash with libFuzzer's.) Each run starts from the committed seed corpus
# Fuzz/Corpus/TARGET (read only); new inputs go to .build-fuzz/corpus/TARGET, and a crash, leak,
# hang (over FUZZ_TIMEOUT s, default 10) or out-of-memory input (over FUZZ_RSS_MB, default
# 2048) to .build-fuzz/findings/TARGET. The run's closing "#N DONE" line gives the executions.
# Runs at the lowest CPU priority, one target at a time. Prints "skipped: …" and exits 0 where
# the toolchain cannot build fuzzers (no libFuzzer runtime, not Linux).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh

TARGETS=(image media gif template expression rows captions lottie lottie-script)
target=${1:-all}
seconds=${2:-60}
timeout=${FUZZ_TIMEOUT:-10}
rss=${FUZZ_RSS_MB:-2048}

if [ "$target" != all ] && [[ ! " ${TARGETS[*]} " =~ " $target " ]]; then
  echo "unknown fuzz target \"$target\" (targets: ${TARGETS[*]}, all)" >&2
  exit 2
fi
if ! [[ "$seconds" =~ ^[0-9]+$ ]] || [ "$seconds" -lt 1 ]; then
  echo "SECONDS must be a whole number of seconds ≥ 1, not \"$seconds\"" >&2
  exit 2
fi

if [ "$(uname -s)" != Linux ]; then
  echo "skipped: fuzzing is set up for Linux only"
  exit 0
fi
if ! command -v swift >/dev/null 2>&1; then
  echo "skipped: no swift toolchain on PATH"
  exit 0
fi
toolchain=$(dirname "$(dirname "$(readlink -f "$(command -v swift)")")")
if ! find "$toolchain/lib" -name 'libclang_rt.fuzzer*.a' 2>/dev/null | grep -q .; then
  echo "skipped: this Swift toolchain has no libFuzzer runtime (libclang_rt.fuzzer)"
  exit 0
fi

reuse_fetched_dependencies .build-fuzz
[ -f Package.resolved ] && [ ! -f Fuzz/Package.resolved ] && cp Package.resolved Fuzz/Package.resolved

# SwiftPM does not notice a file added to or removed from the main package when it is only a
# path dependency (the Fuzz package's), and then fails on a missing symbol: when the list of
# source files changed since the last fuzz build, its build plan is dropped (objects are kept).
sources=$(find Sources Fuzz/Sources -type f \( -name '*.swift' -o -name '*.c' -o -name '*.h' \) | LC_ALL=C sort | md5sum | cut -d' ' -f1)
if [ "$(cat .build-fuzz/sources.md5 2>/dev/null)" != "$sources" ]; then
  rm -f .build-fuzz/build.db .build-fuzz/release.yaml .build-fuzz/*/release/description.json
fi

echo "building the fuzz targets (release, -sanitize=fuzzer,address) into .build-fuzz …"
build_with_sanitizer .build-fuzz/build.log "unsupported option.*sanitize|sanitizer.*not supported|cannot find.*fuzzer" \
  "libFuzzer targets" \
  swift build --package-path Fuzz --scratch-path .build-fuzz -c release \
  --sanitize fuzzer --sanitize address -Xswiftc -sanitize=fuzzer,address \
  -Xswiftc -enable-testing -Xswiftc -parse-as-library --product StrataFuzz
echo "$sources" > .build-fuzz/sources.md5
binary=$(swift build --package-path Fuzz --scratch-path .build-fuzz -c release --show-bin-path)/StrataFuzz

run() {
  local name=$1
  local corpus=.build-fuzz/corpus/$name findings=.build-fuzz/findings/$name
  mkdir -p "$corpus" "$findings"
  echo "== $name: ${seconds} s"
  local status
  # New inputs go to the first folder; the committed seeds are only read.
  set +e
  # Swift's own crash backtracer would fight ASan's handler for a trap; libFuzzer reports it.
  SWIFT_BACKTRACE=enable=no STRATA_FUZZ_TARGET=$name ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1} \
    LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$PWD/scripts/sanitize-suppressions/lsan.txt:print_suppressions=0} \
    nice -n 19 "$binary" -max_total_time="$seconds" -timeout="$timeout" -rss_limit_mb="$rss" \
    -max_len="$(max_len "$name")" -print_final_stats=1 -artifact_prefix="$findings/" $(dict "$name") \
    "$corpus" "Fuzz/Corpus/$name" 2>&1 | tee ".build-fuzz/$name.log" | grep -E "^#[0-9]+[[:space:]]+(INITED|DONE)|ERROR|SUMMARY|Test unit written"
  status=${PIPESTATUS[0]}
  set -e
  if ls "$findings" | grep -q .; then
    echo "$name: findings in $findings: $(ls "$findings" | tr '\n' ' ')"
    return 1
  fi
  return "$status"
}

# Names the parsers look for (functions, schema keys, cue syntax), where a target has them.
dict() {
  [ -f "Fuzz/Dictionaries/$1.dict" ] && echo "-dict=Fuzz/Dictionaries/$1.dict"
  return 0
}

# Inputs larger than the seeds need are rarely useful; media files are larger.
max_len() {
  case $1 in
    media) echo 262144 ;;
    image) echo 131072 ;;
    *) echo 16384 ;;
  esac
}

failed=()
if [ "$target" = all ]; then
  for t in "${TARGETS[@]}"; do run "$t" || failed+=("$t"); done
else
  run "$target" || failed+=("$target")
fi
if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzzing found problems in: ${failed[*]}" >&2
  exit 1
fi
echo "fuzzing: no findings"
