#!/usr/bin/env python3
# The heaviest functions a frame from two callgrind runs of the same program, one with more
# frames than the other: each function's cost in the longer run less its cost in the shorter,
# over the extra frames (so one-time costs such as start-up and the first frame's warm-up drop
# out). Reads `callgrind_annotate` output of both runs. Used by callgrind.sh and
# callgrind-render.sh.
#   python3 callgrind-diff.py EXTRA_FRAMES TOP SHORTER.txt LONGER.txt [--skip-cycles]
# --skip-cycles leaves out recursive functions' cycles ('2), which count their callees more than
# once in an inclusive view.
import re
import sys

n, top = int(sys.argv[1]), int(sys.argv[2])
skip_cycles = "--skip-cycles" in sys.argv[5:]


def costs(path):
    # Lines "  1,234 (12.3%)  file:function [object]": the cost by function, summed over objects.
    out = {}
    for line in open(path):
        m = re.match(r"\s*([0-9,]+)\s+\([ 0-9.]+%\)\s+(\S.*?)(?: \[.*\])?$", line)
        if m and ":" in m.group(2):
            out[m.group(2)] = out.get(m.group(2), 0) + int(m.group(1).replace(",", ""))
    return out


one, more = costs(sys.argv[3]), costs(sys.argv[4])
rows = sorted(((more[k] - one.get(k, 0)) / n, k) for k in more if not (skip_cycles and "'" in k))
for per_frame, name in reversed(rows[-top:]):
    print(f"{per_frame / 1e6:9.3f} M  {name[:150]}")
