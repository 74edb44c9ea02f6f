#!/usr/bin/env bash
# Instruction counts per frame of a StrataBench scene under callgrind (stable on a shared, noisy
# machine, unlike wall-clock time). Collects inside measureScene only (scene setup left out) and
# runs twice, with 1 and 1 + N frames, so the figure is the cost of a steady-state frame (the
# first frame's warm-up — fonts, caches — cancels out). Prints instructions per frame and the
# heaviest functions of the longer run (inclusive).
#   bash Benchmarks/callgrind.sh motion|composite [N=2] [workers=1] [extra StrataBench args…]
set -eu
cd "$(dirname "$0")/.."
scene=${1:-motion}; n=${2:-2}; workers=${3:-1}; shift $(( $# < 3 ? $# : 3 ))
extra=("$@")
# Valgrind 3.19 cannot read the DWARF 5 debug info Swift writes: profile a copy without it (the
# symbol table stays, so functions are still named).
bin=/tmp/strata-callgrind-bench
objcopy --strip-debug .build/release/StrataBench $bin
run() {
  valgrind --tool=callgrind --callgrind-out-file=$2 --collect-atstart=no --toggle-collect='*measureScene*' \
    $bin "$scene" --frames "$1" --runs 1 --workers "$workers" "${extra[@]}" >/dev/null 2>/tmp/strata-callgrind.log
  grep -E "^totals:" $2 | awk '{print $2}'
}
a=$(run 1 /tmp/strata-callgrind-$scene-1.out)
b=$(run $((n + 1)) /tmp/strata-callgrind-$scene.out)
echo "$scene: $(( (b - a) / n )) instructions/frame (callgrind, $workers worker(s), steady state over $n frames)"
callgrind_annotate --inclusive=yes /tmp/strata-callgrind-$scene.out 2>/dev/null | grep -E "^ *[0-9,]+ +\(" | head -${TOP:-25} | cut -c1-170
