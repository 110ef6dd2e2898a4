#!/usr/bin/env bash
# npm test — the whole suite against real infrastructure:
#   dependencies → PostgreSQL, Redis, Kafka (started if not reachable) → build → Jest:
#   unit (no I/O), deploy (rendered k8s overlays), medium (stores and transports in process against
#   real stores), integration (real stores, service processes),
#   e2e (whole stack over HTTP), chaos (crashes and server restarts under load), fuzz
#   (schemathesis against the whole stack; installs it under .cache/ from PyPI). Node.js is the
#   project's version (.node-version, scripts/lib/node.sh).
# Extra arguments go to Jest, e.g. `npm test -- --selectProjects unit`.
# Writes .local/test-results.json and ends with the line `tests: N passed, N failed`.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=scripts/lib/common.sh
source "$HERE/lib/common.sh"
source "$HERE/lib/node.sh"
PIECE=test
mkdir -p -- "$LOCAL_DIR" "$LOG_DIR"
RESULTS="$LOCAL_DIR/test-results.json"
rm -f -- "$RESULTS"

ensure_node_deps
bash "$HERE/infra/up.sh"
# shellcheck disable=SC1090
source "$INFRA_ENV_FILE"
build_all

cd "$ROOT"
log "type-checking tests and linting"
npx tsc -p tsconfig.json || die "type errors (tests included)" "Fix the errors above"
npx prettier --check . || die "files not formatted" "Run npm run format (Prettier) and commit the result"
npx eslint . || die "lint errors" "Fix the errors above (npx eslint . --fix handles many)"
set +e
# One file at a time: integration and e2e files each start their own service processes, and the
# machine this runs on has two cores.
npx jest --ci --runInBand --json --outputFile="$RESULTS" "$@"
status=$?
set -e
node "$HERE/ci/summary.js" "$RESULTS"
exit "$status"
