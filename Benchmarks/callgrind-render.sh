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
python3 - "$((n - 1))" "${TOP:-30}" \
  <(callgrind_annotate --inclusive=$inclusive --threshold=100 "$work/one.out" 2>/dev/null) \
  <(callgrind_annotate --inclusive=$inclusive --threshold=100 "$work/more.out" 2>/dev/null) <<'PY'
import re, sys
n, top = int(sys.argv[1]), int(sys.argv[2])
def costs(path):
    out = {}
    for line in open(path):
        m = re.match(r"\s*([0-9,]+)\s+\([ 0-9.]+%\)\s+(\S.*?)(?: \[.*\])?$", line)
        if m and ":" in m.group(2):
            out[m.group(2)] = out.get(m.group(2), 0) + int(m.group(1).replace(",", ""))
    return out
one, more = costs(sys.argv[3]), costs(sys.argv[4])
# Recursive functions' cycles ('2) count their callees more than once: left out.
rows = sorted(((more[k] - one.get(k, 0)) / n, k) for k in more if "'" not in k)
for per_frame, name in reversed(rows[-top:]):
    print(f"{per_frame / 1e6:9.3f} M  {name[:150]}")
PY
