#!/usr/bin/env bash
# Starts the local infrastructure (PostgreSQL, Redis, Kafka) without Docker
# and writes $LOCAL_DIR/infra.env (default .local/infra.env):
#
#   export DATABASE_URL=postgres://USER:PASS@HOST:PORT/postgres   (server URL)
#   export REDIS_URL=redis://HOST:PORT
#   export KAFKA_BROKERS=HOST:PORT[,HOST:PORT...]   (every node of a cluster)
#
# Usage: bash scripts/infra/up.sh        then: source .local/infra.env
#
# Each piece reuses what is already there: a reachable DATABASE_URL /
# REDIS_URL / KAFKA_BROKERS given in the environment, or the private instance
# started by a previous run ("already running"). See postgres.sh, redis.sh and
# kafka.sh for the settings (ports, timeouts, ...) that env vars override;
# KAFKA_NODES=3 starts a three-node Kafka cluster instead of one node (the
# variable reaches kafka.sh from the environment, as it does through
# `npm run up`, `npm run infra:up` and `npm test`).
#
# The three pieces start concurrently: they share nothing but apt-get, which
# ensure_apt_package serialises with a lock when a package must be installed.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=scripts/lib/common.sh
source "$HERE/../lib/common.sh"
PIECE=infra

PIECES=(postgres redis kafka)

mkdir -p -- "$LOCAL_DIR" "$LOG_DIR" "$RUN_DIR"
t0="$(now_s)"
tmp="$(mktemp -d "$RUN_DIR/up.XXXXXX")"
declare -A job=()

cleanup() { rm -rf -- "$tmp"; }
on_signal() {
  local p
  for p in "${job[@]}"; do kill -TERM "$p" 2>/dev/null || true; done
  cleanup
  exit 130
}
trap cleanup EXIT
trap on_signal INT TERM

for piece in "${PIECES[@]}"; do
  bash "$HERE/$piece.sh" up >"$tmp/$piece.env" &
  job[$piece]=$!
done

failed=()
for piece in "${PIECES[@]}"; do
  if ! wait "${job[$piece]}"; then
    failed+=("$piece")
  fi
done

if ((${#failed[@]} > 0)); then
  rm -f -- "$INFRA_ENV_FILE"
  die "could not start: ${failed[*]}" \
    "See the error messages above and the logs in $LOG_DIR; the pieces that did start keep running and are reused by the next run"
fi

{
  echo "# Written by scripts/infra/up.sh on $(date '+%F %T'). Source it: . $INFRA_ENV_FILE"
  for piece in "${PIECES[@]}"; do
    grep '^export ' "$tmp/$piece.env"
  done
} >"$tmp/infra.env"

for var in DATABASE_URL REDIS_URL KAFKA_BROKERS; do
  grep -q "^export $var=" "$tmp/infra.env" ||
    die "no $var was produced (internal error)" "Run the piece scripts in scripts/infra/ one by one with up to see what happens"
done
mv -f -- "$tmp/infra.env" "$INFRA_ENV_FILE"

log "ready in $(elapsed_since "$t0")s; wrote $INFRA_ENV_FILE:"
sed -n 's/^export /    /p' "$INFRA_ENV_FILE" >&2
