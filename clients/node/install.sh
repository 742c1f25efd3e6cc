#!/usr/bin/env bash
# Installs the TypeScript client's npm dependencies (clients/node/node_modules)
# from package-lock.json with `npm ci`, only when node_modules is missing or
# older than the lock file. Idempotent: a second run does nothing. Every
# package comes from the npm registry named in package-lock.json.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "${here}"

if ! command -v npm >/dev/null 2>&1 || ! command -v node >/dev/null 2>&1; then
  echo "clients/node/install.sh: node and npm are needed (Debian: apt-get install nodejs npm)" >&2
  exit 1
fi
node_major="$(node -p 'process.versions.node.split(".")[0]')"
if (( node_major < 20 )); then
  echo "clients/node/install.sh: node >= 20 is needed, found $(node --version)" >&2
  exit 1
fi

# npm writes node_modules/.package-lock.json at the end of every install, so
# its age is the age of the install.
stamp="node_modules/.package-lock.json"
if [[ -f "${stamp}" && ! "package-lock.json" -nt "${stamp}" ]]; then
  echo "clients/node: node_modules is up to date with package-lock.json (node $(node --version), npm $(npm --version)); nothing to do"
  exit 0
fi

if [[ -d node_modules ]]; then
  echo "clients/node: node_modules is older than package-lock.json; reinstalling with npm ci"
else
  echo "clients/node: no node_modules; installing with npm ci"
fi
npm ci --no-audit --no-fund
echo "clients/node: installed $(node -p 'Object.keys(require("./package-lock.json").packages).length - 1') packages (node $(node --version), npm $(npm --version))"
