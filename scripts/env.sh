# Sourced by the scripts: puts Swift on PATH when it lives at /opt/swift.
if ! command -v swift >/dev/null 2>&1 && [ -x /opt/swift/usr/bin/swift ]; then
  export PATH="/opt/swift/usr/bin:$PATH"
fi

# Copies the dependencies the main build already fetched into another scratch folder (a
# sanitizer's or the fuzzers'), so that its build needs no network.
reuse_fetched_dependencies() {
  mkdir -p "$1"
  for d in checkouts repositories; do
    if [ -d ".build/$d" ] && [ ! -e "$1/$d" ]; then cp -a ".build/$d" "$1/$d"; fi
  done
}

# Runs a sanitized build — the command after the first three arguments — at the lowest CPU
# priority with its output in LOG. If it fails: where LOG matches the pattern UNSUPPORTED (the
# toolchain lacks that sanitizer) prints "skipped: …" and exits 0; otherwise shows the end of
# LOG and exits 1. WHAT names what is built, for both messages.
build_with_sanitizer() {
  local log=$1 unsupported=$2 what=$3
  shift 3
  if ! nice -n 19 "$@" >"$log" 2>&1; then
    if grep -qiE "$unsupported" "$log"; then
      echo "skipped: this toolchain cannot build $what (see $log)"
      exit 0
    fi
    tail -n 30 "$log" >&2
    echo "the build of $what failed (full log: $log)" >&2
    exit 1
  fi
}
