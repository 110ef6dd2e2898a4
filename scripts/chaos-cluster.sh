#!/usr/bin/env bash
# npm run chaos:cluster — the chaos tests on a three-node Kafka cluster (tests/chaos-cluster/):
#   dependencies → PostgreSQL, Redis and a three-node KRaft cluster (scripts/infra with
#   KAFKA_NODES=3) → build → Jest's chaos-cluster project, which `npm test` does not run.
# Under steady load the leader of the busiest partition and then the active controller are
# killed and started again; then two of three nodes stop (the outbox keeps its events until they
# are back). Takes about ten minutes; the figures go to .local/chaos-cluster-result.json.
# A single-node Kafka on the same ports must be stopped first (npm run infra:down).
# Extra arguments go to Jest.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=scripts/lib/common.sh
source "$HERE/lib/common.sh"
source "$HERE/lib/node.sh"
PIECE=chaos-cluster
export KAFKA_NODES=3

ensure_node_deps
bash "$HERE/infra/up.sh"
# shellcheck disable=SC1090
source "$INFRA_ENV_FILE"
build_all

cd "$ROOT"
CHAOS_CLUSTER=1 npx jest --ci --runInBand --selectProjects chaos-cluster "$@"
