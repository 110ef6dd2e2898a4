#!/usr/bin/env bash
# Runs a command with the project's Node.js first on PATH (installed under .cache/ when the
# system one is another major version), e.g.:
#   bash scripts/with-node.sh npx jest --selectProjects unit libs/money
#   bash scripts/with-node.sh node --version
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=scripts/lib/common.sh
source "$HERE/lib/common.sh"
source "$HERE/lib/node.sh"
PIECE=node
[[ $# -gt 0 ]] || die "usage: bash scripts/with-node.sh <command> [args...]" "For example: bash scripts/with-node.sh node --version"
ensure_node
exec "$@"
