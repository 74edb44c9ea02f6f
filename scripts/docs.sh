#!/usr/bin/env bash
# Builds the documentation site — the DocC catalog Sources/Strata/Strata.docc (articles) and the
# doc comments of the Strata module's public symbols — into .build-docs/site (git-ignored), as a
# static site (open .build-docs/site/index.html through any web server; DocC pages need one).
# Fails when DocC warns (an unresolved link, a malformed doc comment, …).
#
#   bash scripts/docs.sh                     # the DocC plugin when it resolves, else symbol graphs + docc
#   DOCS_VIA=symbolgraph bash scripts/docs.sh   # skip the plugin: reuse .build's debug build (fast when
#                                            # the tests were built: swift build --build-tests)
#   DOCS_VIA=plugin bash scripts/docs.sh     # the plugin only (fails if it cannot be resolved)
#
# The plugin (swiftlang/swift-docc-plugin) is a package dependency only when STRATA_DOCC=1, so
# that packages depending on Strata never fetch it; it builds in its own scratch folder,
# .build-docs, with the dependencies copied from .build. Without the plugin, `swift package
# dump-symbol-graph` extracts the symbol graphs from .build's debug build and the toolchain's
# docc converts them. Prints "skipped: …" and exits 0 where there is no Swift or no docc.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
command -v swift >/dev/null 2>&1 || { echo "skipped: no Swift toolchain on PATH or at /opt/swift"; exit 0; }
DOCC=$(command -v docc 2>/dev/null || true)
[ -n "$DOCC" ] || DOCC="$(dirname "$(command -v swift)")/docc"
VIA=${DOCS_VIA:-auto}
out=.build-docs/site
log=.build-docs/docs.log
mkdir -p .build-docs

warnings_in() { grep -cE "^(warning|error):|: (warning|error):" "$1" || true; }

if [ "$VIA" != symbolgraph ]; then
  reuse_fetched_dependencies .build-docs
  # SwiftPM writes the plugin's pins into ./Package.resolved whatever the scratch folder: keep the
  # file as it was, so that the normal build does not resolve again.
  if [ -f Package.resolved ]; then cp Package.resolved .build-docs/Package.resolved.saved; fi
  restore_resolved() {
    if [ -f .build-docs/Package.resolved.saved ]; then mv .build-docs/Package.resolved.saved Package.resolved
    else rm -f Package.resolved; fi
  }
  trap restore_resolved EXIT
  if STRATA_DOCC=1 swift package --scratch-path .build-docs resolve >"$log" 2>&1 \
     && STRATA_DOCC=1 swift package --scratch-path .build-docs plugin --list 2>/dev/null | grep -q generate-documentation; then
    rm -rf "$out.tmp"
    status=0
    STRATA_DOCC=1 swift package --scratch-path .build-docs --allow-writing-to-directory "$out.tmp" \
      generate-documentation --target Strata --warnings-as-errors --transform-for-static-hosting \
      --output-path "$out.tmp" >"$log" 2>&1 || status=$?
    # DocC's own diagnostics come after "Building documentation" (the compiler's before it are
    # not the documentation's); with --warnings-as-errors any of them fails the build.
    sed -n '/^Building documentation/,$p' "$log" > "$log.docc"
    count=$(warnings_in "$log.docc")
    if [ "$status" -ne 0 ] || [ "$count" -ne 0 ]; then
      grep -E "warning|error" "$log.docc" | tail -n 40 >&2
      echo "the documentation build failed ($count documentation warnings or errors; full log: $log)" >&2
      exit 1
    fi
    rm -rf "$out" && mv "$out.tmp" "$out"
    echo "documentation (DocC plugin): $out, 0 documentation warnings"
    exit 0
  fi
  if [ "$VIA" = plugin ]; then
    tail -n 20 "$log" >&2
    echo "the DocC plugin could not be resolved (log: $log)" >&2
    exit 1
  fi
  echo "note: the DocC plugin could not be resolved (no network?); using symbol graphs and the toolchain's docc"
fi

[ -x "$DOCC" ] || { echo "skipped: no docc in the toolchain ($(dirname "$(command -v swift)"))"; exit 0; }
graphs=.build-docs/symbol-graphs
rm -rf "$graphs" && mkdir -p "$graphs"
swift package dump-symbol-graph --minimum-access-level public >"$log" 2>&1 || { tail -n 30 "$log" >&2; exit 1; }
source_dir=$(sed -nE 's/.*Files written to (.*)$/\1/p' "$log" | tail -n 1)
[ -n "$source_dir" ] || source_dir=$(find .build -type d -name symbolgraph | head -n 1)
# The Strata module's graphs only (its extensions of re-exported types included).
cp "$source_dir"/Strata.symbols.json "$source_dir"/Strata@*.symbols.json "$graphs"/ 2>/dev/null || true
[ -s "$graphs/Strata.symbols.json" ] || { echo "no symbol graph for Strata in $source_dir" >&2; exit 1; }
rm -rf "$out.tmp"
status=0
"$DOCC" convert Sources/Strata/Strata.docc --fallback-display-name Strata --fallback-bundle-identifier org.strata.Strata \
  --additional-symbol-graph-dir "$graphs" --transform-for-static-hosting --warnings-as-errors \
  --output-path "$out.tmp" >"$log" 2>&1 || status=$?
count=$(warnings_in "$log")
if [ "$status" -ne 0 ] || [ "$count" -ne 0 ]; then
  grep -E "warning|error" "$log" | tail -n 40 >&2
  echo "the documentation build failed ($count warnings or errors; full log: $log)" >&2
  exit 1
fi
rm -rf "$out" && mv "$out.tmp" "$out"
echo "documentation (symbol graphs + docc): $out, 0 warnings"
