#!/usr/bin/env bash
# Instruction counts per frame of a StrataBench scene under callgrind (stable on a shared, noisy
# machine, unlike wall-clock time). Collects inside measureScene only (scene setup left out) and
# runs twice, with 1 and 1 + N frames, so the figure is the cost of a steady-state frame (the
# first frame's warm-up — fonts, caches — cancels out). Prints instructions per frame and the
# heaviest functions a frame, each the difference of its cost in the two runs over N (so one-time
# costs such as the runtime's type lookups drop out): own instructions by default, with
# VIEW=inclusive those of its callees too; TOP=k rows (25).
#   bash Benchmarks/callgrind.sh motion|composite [N=2] [workers=1] [extra StrataBench args…]
# BIN=path profiles another build of StrataBench. Other benchmarks name the function to collect in: TOGGLE='*particlesBenchmark*' bash
# Benchmarks/callgrind.sh particles 2 1 --count 20000 (its scene set-up cancels out like the first frame).
# With TOGGLE, count at 1 worker: collection follows each thread's own calls, so with 2 workers the
# tiles the pool's other thread draws are not counted (a smaller, run-to-run varying figure).
#   bash Benchmarks/callgrind.sh motion-scene 2 1 --length 60   (the motion scene driven by a Scene's
#   animations: frames rendered with renderFrame inside measureSceneFrames; --length keeps the
#   scene 60 frames long whatever the number rendered)
set -eu
cd "$(dirname "$0")/.."
scene=${1:-motion}; n=${2:-2}; workers=${3:-1}; shift $(( $# < 3 ? $# : 3 ))
extra=("$@")
# Valgrind 3.19 cannot read the DWARF 5 debug info Swift writes: profile a copy without it (the
# symbol table stays, so functions are still named).
# A directory of its own: several builds may be profiled on one machine at once.
work=${CALLGRIND_DIR:-$(mktemp -d /tmp/strata-callgrind.XXXXXX)}
bin=$work/bench
objcopy --strip-debug "${BIN:-.build/release/StrataBench}" $bin
run() {
  valgrind --tool=callgrind --callgrind-out-file=$2 --collect-atstart=no --toggle-collect="${TOGGLE:-*measureScene*}" \
    $bin "$scene" --frames "$1" --runs 1 --workers "$workers" "${extra[@]}" >/dev/null 2>$work/log
  grep -E "^totals:" $2 | awk '{print $2}'
}
a=$(run 1 $work/$scene-1.out)
b=$(run $((n + 1)) $work/$scene.out)
echo "$scene: $(( (b - a) / n )) instructions/frame (callgrind, $workers worker(s), steady state over $n frames)"
inclusive=$([ "${VIEW:-self}" = inclusive ] && echo yes || echo no)
python3 "$(dirname "$0")/callgrind-diff.py" "$n" "${TOP:-25}" \
  <(callgrind_annotate --inclusive=$inclusive --threshold=100 $work/$scene-1.out 2>/dev/null) \
  <(callgrind_annotate --inclusive=$inclusive --threshold=100 $work/$scene.out 2>/dev/null)
