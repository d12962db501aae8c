#!/usr/bin/env bash
# Re-fetch the flag pictures of the Pyramids and Flags goal cards from the `flag-icons` npm
# package (MIT licence, https://github.com/lipis/flag-icons) and vendor only what the deck
# needs: one 4x3 SVG per card (named by the card's ISO 3166 alpha-2 code, the `iso2` field
# of static/data/flags-cards.json) and the package's LICENSE, into static/data/flags/.
#
# Usage: scripts/fetch_flag_images.sh [VERSION]   (default: the pinned version below)
# Needs npm (it runs `npm pack` in a temporary folder; nothing is installed) and python3.
set -euo pipefail
cd "$(dirname "$0")/.."

VERSION="${1:-7.5.0}"
STATIC=src/pyramids/server/static
CARDS="$STATIC/data/flags-cards.json"
OUT="$STATIC/data/flags"

command -v npm >/dev/null || { echo "fetch_flag_images: npm is needed" >&2; exit 2; }
[ -f "$CARDS" ] || { echo "fetch_flag_images: $CARDS is missing (run scripts/build_flags_deck.py)" >&2; exit 2; }

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
(cd "$tmp" && npm pack --silent "flag-icons@$VERSION" >/dev/null && tar xzf flag-icons-*.tgz)
pkg="$tmp/package"
got="$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["version"])' "$pkg/package.json")"

codes="$(python3 -c 'import json,sys; print(" ".join(sorted(c["iso2"] for c in json.load(open(sys.argv[1]))["cards"])))' "$CARDS")"
rm -rf "$OUT"
mkdir -p "$OUT"
n=0
for code in $codes; do
    src="$pkg/flags/4x3/$code.svg"
    [ -f "$src" ] || { echo "fetch_flag_images: flag-icons $got has no 4x3/$code.svg" >&2; exit 1; }
    cp "$src" "$OUT/$code.svg"
    n=$((n + 1))
done
cp "$pkg/LICENSE" "$OUT/LICENSE"
cat >"$OUT/SOURCE.md" <<TXT
# Flag pictures

$n SVG files (4x3) from the \`flag-icons\` npm package, version $got
(https://github.com/lipis/flag-icons), MIT licence: see LICENSE beside this file.
Re-fetched by \`scripts/fetch_flag_images.sh\`; do not edit by hand.
TXT
echo "fetch_flag_images: flag-icons $got: $n flags and its LICENSE in $OUT"
