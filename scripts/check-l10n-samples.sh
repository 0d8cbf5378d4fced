#!/usr/bin/env bash
# Development check (not a test): every string table in ../shared/l10n-samples loads, and every key resolves
# in every language it has, with sample arguments (unfold --check-strings). Run from anywhere after a build.
# Fails when a file does not load; prints what the resolutions reported (a lint finding is not a failure:
# xcstrings-tool's MissingArgument.xcstrings is broken on purpose).
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
samples="${1:-$root/../shared/l10n-samples}"
unfold="$root/.build/debug/unfold"
[ -x "$unfold" ] || { echo "build first: swift build" >&2; exit 2; }
status=0
for folder in "$samples"/*/; do
  for path in $(find "$folder" -name '*.strings' -o -name '*.stringsdict' -o -name '*.xcstrings' | sort); do
    printf '%s: ' "${path#$samples/}"
    output=$("$unfold" --check-strings --strings "$path" 2>&1)
    if grep -q '^unfold: ' <<<"$output"; then status=1; fi
    printf '%s\n' "$output" | sed -n '$p'
    printf '%s\n' "$output" | sed '$d' | sed 's/^/    /'

  done
done
exit $status
