#!/usr/bin/env bash
# npm run bench — figures for the hot paths (initialize, verify, event → webhook) on this machine.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$HERE/lib/common.sh"
source "$HERE/lib/node.sh"
PIECE=bench
ensure_node_deps
bash "$HERE/infra/up.sh"
# shellcheck disable=SC1090
source "$INFRA_ENV_FILE"
build_all
cd "$ROOT" && node scripts/ts-run.js tests/bench/main.ts
