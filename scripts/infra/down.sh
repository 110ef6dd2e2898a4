#!/usr/bin/env bash
# Stops the local infrastructure started by scripts/infra/up.sh: only the
# private PostgreSQL / Redis / Kafka instances these scripts started (found
# through their pid files); external services given via DATABASE_URL,
# REDIS_URL or KAFKA_BROKERS are never touched. Data is kept in $LOCAL_DIR.
#
# Usage: bash scripts/infra/down.sh
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=scripts/lib/common.sh
source "$HERE/../lib/common.sh"
PIECE=infra

PIECES=(postgres redis kafka)
t0="$(now_s)"
declare -A job=()

# Stopped concurrently (Kafka's clean shutdown takes a few seconds).
for piece in "${PIECES[@]}"; do
  bash "$HERE/$piece.sh" down &
  job[$piece]=$!
done

failed=()
for piece in "${PIECES[@]}"; do
  if ! wait "${job[$piece]}"; then
    failed+=("$piece")
  fi
done

if ((${#failed[@]} > 0)); then
  die "could not stop: ${failed[*]}" "See the error messages above and the logs in $LOG_DIR"
fi

# The endpoints it lists are gone (or were external): do not let anyone
# source stale values. up.sh writes it again.
rm -f -- "$INFRA_ENV_FILE"
log "stopped in $(elapsed_since "$t0")s"
