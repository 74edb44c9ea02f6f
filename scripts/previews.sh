#!/usr/bin/env bash
# Renders each built-in template, with its defaults, to a small looping GIF preview:
# docs/previews/<name>.gif at 12 frames a second, scaled so that its longer side is 480 pixels
# (0.25 for 1920×1080 and 1080×1920).
#
# and then the GIFs made by tapes in examples/tapes/ that the README shows (a tape runs its
# commands for real in a shell: strata-setup.tape runs `strata` from this checkout).
#
#   scripts/previews.sh                       # every template in Templates/, then the tapes
#   scripts/previews.sh countdown title-card  # some templates (no tapes)
#   scripts/previews.sh --tapes               # the tapes only
#   STRATA=.build/debug/strata scripts/previews.sh
#
# Uses ${STRATA:-.build/release/strata}: build it first with
#   swift build -c release --product strata
set -euo pipefail
cd "$(dirname "$0")/.."
STRATA=${STRATA:-.build/release/strata}
if [ ! -x "$STRATA" ]; then
  echo "error: $STRATA is not there: swift build -c release --product strata (or set STRATA)" >&2
  exit 1
fi
mkdir -p docs/previews

tapes=(strata-setup)
names=("$@")
if [ "${1:-}" = "--tapes" ]; then
  names=()
elif [ ${#names[@]} -gt 0 ]; then
  tapes=()
else
  for dir in Templates/*/; do
    name=$(basename "$dir")
    [ -f "$dir$name.yaml" ] && names+=("$name")
  done
fi

for name in "${names[@]}"; do
  template="Templates/$name/$name.yaml"
  # The canvas size from the template's `size: [W, H]` line; the longer side becomes 480 px.
  read -r width height < <(sed -nE 's/^size: *\[ *([0-9.]+) *, *([0-9.]+) *\].*/\1 \2/p' "$template")
  scale=$(python3 -c "print(round(480 / max($width, $height), 4))")
  "$STRATA" render "$template" -o "docs/previews/$name.gif" --scale "$scale" --fps 12 --quiet
  echo "docs/previews/$name.gif  ($(du -k "docs/previews/$name.gif" | cut -f1) kB, scale $scale)"
done

# Tapes: `strata` (this checkout's) first on PATH, the templates found by name.
export PATH="$(cd "$(dirname "$STRATA")" && pwd):$PATH"
export STRATA_TEMPLATES="$PWD/Templates"
for tape in "${tapes[@]}"; do
  "$STRATA" render "examples/tapes/$tape.tape" -o "docs/previews/$tape.gif" --quiet
  echo "docs/previews/$tape.gif  ($(du -k "docs/previews/$tape.gif" | cut -f1) kB, tape examples/tapes/$tape.tape)"
done
