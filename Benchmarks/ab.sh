#!/usr/bin/env bash
# Wall time of two variants of StrataBench side by side on a noisy, shared machine: runs A and B
# alternately, `pairs` times, once A first and once B first (a steady drift in the host's load
# then favours neither), and prints for each order the median of B's time over A's. Instruction
# counts (callgrind.sh) are stable but can mislead where memory latency rules: prefetching fewer
# texel lines took 3 % fewer instructions and 2 % more time. A variant is a binary, optionally
# followed by StrataBench arguments or environment assignments (VAR=value) of its own:
#   bash Benchmarks/ab.sh "/tmp/old-bench" ".build/release/StrataBench" motion 2 [pairs=8]
#   bash Benchmarks/ab.sh ".build/release/StrataBench --tile 128" ".build/release/StrataBench --tile 160" composite 1
# Keep a copy of the binary before a change (cp .build/release/StrataBench /tmp/old-bench).
set -euo pipefail
if [ $# -lt 4 ]; then
  echo "usage: bash Benchmarks/ab.sh \"VARIANT_A\" \"VARIANT_B\" motion|composite|… WORKERS [PAIRS]" >&2
  exit 2
fi
a=$1; b=$2; scene=$3; workers=$4; pairs=${5:-8}
# One run of a variant: its ms/frame (the first figure StrataBench prints).
run() {
  local words=($1) envs=() bin="" args=()
  for w in "${words[@]}"; do
    if [ -z "$bin" ] && [[ $w == *=* ]]; then envs+=("$w")
    elif [ -z "$bin" ]; then bin=$w
    else args+=("$w"); fi
  done
  [ -x "$bin" ] || { echo "ab.sh: not an executable: $bin" >&2; exit 2; }
  local out
  out=$(env "${envs[@]}" "$bin" "$scene" --frames 30 --runs 3 --workers "$workers" "${args[@]}" 2>&1) || {
    echo "ab.sh: $bin failed: $out" >&2; exit 1; }
  echo "$out" | grep -o '[0-9.]* ms/frame' | head -1 | cut -d' ' -f1
}
# Both variants' binaries checked before any run.
for v in "$a" "$b"; do
  for w in $v; do
    [[ $w == *=* ]] && continue
    [ -x "$w" ] || { echo "ab.sh: not an executable: $w (in \"$v\")" >&2; exit 2; }
    break
  done
done
for order in "A first" "B first"; do
  for _ in $(seq 1 "$pairs"); do
    if [ "$order" = "A first" ]; then ta=$(run "$a"); tb=$(run "$b"); else tb=$(run "$b"); ta=$(run "$a"); fi
    echo "$ta $tb"
  done | python3 -c "
import statistics, sys
pairs = [tuple(map(float, l.split())) for l in sys.stdin if len(l.split()) == 2]
if not pairs: sys.exit(1)
ratios = [b / a for a, b in pairs]
print(f'$order: A {statistics.median(p[0] for p in pairs):.2f} ms, B {statistics.median(p[1] for p in pairs):.2f} ms, '
      f'B/A median {statistics.median(ratios):.3f} (pairs: {\" \".join(f\"{r:.2f}\" for r in ratios)})')"
done
