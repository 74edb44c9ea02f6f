#!/usr/bin/env bash
# Instructions a frame of `strata render FILE` under callgrind (stable on a busy machine, unlike
# wall time): frames A..A+N-1 and frame A alone, both at 1920×1080 with --hash-frames and one
# worker; the difference over N-1 is a steady frame's cost (parsing, compiling and the first
# frame's warm-up cancel out). Prints it and the heaviest functions a frame, each the
# difference of its cost in the two runs (inclusive of callees; VIEW=self for their own), TOP=k
# rows (30).
#   bash Benchmarks/callgrind-render.sh FILE [A=10] [N=10]   (BIN=path: another build of strata)
# docs/lottie.md (Speed) quotes it for confetti.json and gears.json.
set -eu
file=$1; a=${2:-10}; n=${3:-10}
work=${CALLGRIND_DIR:-$(mktemp -d /tmp/strata-callgrind-render.XXXXXX)}
# Valgrind 3.19 cannot read the DWARF 5 debug info Swift writes: a copy without it.
objcopy --strip-debug "${BIN:-.build/release/strata}" "$work/strata"
run() {
  valgrind --tool=callgrind --callgrind-out-file="$work/$1.out" "$work/strata" render "$file" --size 1920x1080 \
    --hash-frames --frames "$2" --workers 1 >/dev/null 2>"$work/$1.log"
  grep -E "^totals:" "$work/$1.out" | awk '{print $2}'
}
one=$(run one "$a..$a"); more=$(run more "$a..$((a + n - 1))")
echo "$(basename "$file"): $(( (more - one) / (n - 1) )) instructions/frame (callgrind, 1 worker, frames $a..$((a + n - 1)) less $a alone)"
inclusive=$([ "${VIEW:-inclusive}" = self ] && echo no || echo yes)
python3 "$(dirname "$0")/callgrind-diff.py" "$((n - 1))" "${TOP:-30}" \
  <(callgrind_annotate --inclusive=$inclusive --threshold=100 "$work/one.out" 2>/dev/null) \
  <(callgrind_annotate --inclusive=$inclusive --threshold=100 "$work/more.out" 2>/dev/null) --skip-cycles
