#!/usr/bin/env bash
# Installs the strata command system-wide from this checkout:
#
#   scripts/install.sh [PREFIX]        # default PREFIX: /usr/local
#
#   PREFIX/bin/strata                                  the release build
#   PREFIX/share/strata/Templates/                     the ready templates (found by name from any folder)
#   PREFIX/share/strata/checkout                       this checkout's path (`strata new` depends on it)
#   PREFIX/share/bash-completion/completions/strata    shell completions (ArgumentParser's)
#   PREFIX/share/zsh/site-functions/_strata
#   PREFIX/share/fish/vendor_completions.d/strata.fish
#   PREFIX/share/man/man1/strata.1                     the man page (from the command's own help)
#
# Files are added or updated, never removed: templates of your own in PREFIX/share/strata/Templates
# stay. SWIFT_BUILD_FLAGS adds flags to the build (the Dockerfile passes --static-swift-stdlib);
# STRATA_BINARY=path installs that executable instead of building one.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
PREFIX=${1:-/usr/local}
case "$PREFIX" in /*) ;; *) PREFIX="$PWD/$PREFIX" ;; esac

if [ -n "${STRATA_BINARY:-}" ]; then
  binary=$STRATA_BINARY
else
  # shellcheck disable=SC2086
  swift build -c release --product strata ${SWIFT_BUILD_FLAGS:-}
  # shellcheck disable=SC2086
  binary="$(swift build -c release --show-bin-path ${SWIFT_BUILD_FLAGS:-})/strata"
fi

share="$PREFIX/share"
install -d "$PREFIX/bin" "$share/strata/Templates" "$share/bash-completion/completions" \
  "$share/zsh/site-functions" "$share/fish/vendor_completions.d" "$share/man/man1"
install -m 755 "$binary" "$PREFIX/bin/strata"
cp -R Templates/. "$share/strata/Templates/"
pwd > "$share/strata/checkout"

strata="$PREFIX/bin/strata"
"$strata" --generate-completion-script bash > "$share/bash-completion/completions/strata"
"$strata" --generate-completion-script zsh > "$share/zsh/site-functions/_strata"
"$strata" --generate-completion-script fish > "$share/fish/vendor_completions.d/strata.fish"
if command -v python3 >/dev/null 2>&1; then
  "$strata" --experimental-dump-help | python3 scripts/manpage.py > "$share/man/man1/strata.1.tmp"
  mv "$share/man/man1/strata.1.tmp" "$share/man/man1/strata.1"
else
  echo "note: no python3, so no man page (scripts/manpage.py writes it from strata's own help)" >&2
fi

echo "installed strata into $PREFIX:"
echo "  $PREFIX/bin/strata, $share/strata/Templates ($(find "$share/strata/Templates" -mindepth 1 -maxdepth 1 -type d | wc -l) templates),"
echo "  completions for bash, zsh and fish, man page $share/man/man1/strata.1"
case ":$PATH:" in *":$PREFIX/bin:"*) ;; *) echo "add it to PATH: export PATH=\"$PREFIX/bin:\$PATH\"" ;; esac
