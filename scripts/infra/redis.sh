#!/usr/bin/env bash
# Local Redis for development and tests (no Docker).
#
#   bash scripts/infra/redis.sh up|down|status
#
# `up` prints `export REDIS_URL=...` on stdout (messages go to stderr).
#
# - If REDIS_URL is set and answers PING, it is used as is and nothing starts.
# - Otherwise a private redis-server runs on 127.0.0.1:$REDIS_PORT (default
#   56379), daemonized, with its config, data (AOF) in $LOCAL_DIR/redis, log
#   in $LOCAL_DIR/logs/redis.log and pid file in $LOCAL_DIR/run/redis.pid.
#   Settings required by BullMQ: appendonly (jobs survive a restart) and
#   maxmemory-policy noeviction.
#
# Settings (env): REDIS_PORT, REDIS_START_TIMEOUT (s, default 30),
#   REDIS_STOP_TIMEOUT (s, default 30), LOCAL_DIR, REDIS_URL.
set -euo pipefail

# shellcheck source=scripts/lib/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"
PIECE=redis
PIECE_LOG="$LOG_DIR/redis.log"

REDIS_HOST=127.0.0.1
REDIS_PORT="${REDIS_PORT:-56379}"
REDIS_START_TIMEOUT="${REDIS_START_TIMEOUT:-30}"
REDIS_STOP_TIMEOUT="${REDIS_STOP_TIMEOUT:-30}"
REDIS_DIR="$LOCAL_DIR/redis"
REDIS_CONF="$REDIS_DIR/redis.conf"
REDIS_PIDFILE="$RUN_DIR/redis.pid"

private_url() { printf 'redis://%s:%s\n' "$REDIS_HOST" "${1:-$REDIS_PORT}"; }

# Port of the running private server: the one written in its config file.
conf_port() { awk '$1 == "port" { print $2 }' "$REDIS_CONF" 2>/dev/null | tail -n 1; }

# Pid of our private redis-server, if running.
running_pid() {
  local pid
  pid="$(pidfile_read "$REDIS_PIDFILE")" || return 1
  pid_cmdline_has "$pid" redis-server || return 1
  printf '%s\n' "$pid"
}

# url_pong <url>: PING answered with PONG. Without redis-cli, a raw RESP PING
# over bash's /dev/tcp (a NOAUTH reply also proves a Redis server answers).
url_pong() {
  local url="$1" reply hp
  if command -v redis-cli >/dev/null 2>&1; then
    reply="$(timeout 3 redis-cli -u "$url" --no-auth-warning ping 2>/dev/null || true)"
    [[ "$reply" == PONG ]]
  else
    hp="$(url_host_port "$url" 6379)" || return 1
    # shellcheck disable=SC2086
    reply="$(timeout 3 bash -c 'exec 3<>"/dev/tcp/$0/$1" && printf "PING\r\n" >&3 && head -c 7 <&3' $hp 2>/dev/null || true)"
    [[ "$reply" == "+PONG"* || "$reply" == "-NOAUTH"* ]]
  fi
}

local_pong() { # local_pong <port>
  local reply
  reply="$(timeout 3 redis-cli -h "$REDIS_HOST" -p "$1" ping 2>/dev/null || true)"
  [[ "$reply" == PONG ]]
}

# Used while waiting: fail fast if the server process went away.
started_and_pong() { # started_and_pong <port>
  local pid
  if pid="$(running_pid)"; then
    local_pong "$1"
    return
  fi
  # The pid file is written shortly after daemonizing; before that, or if the
  # server died while starting, there is none. Give it a couple of seconds.
  if (($(date +%s) - START_EPOCH > 3)) && ! local_pong "$1"; then
    show_log_tail "$PIECE_LOG" 20
    die "redis-server exited while starting (no live pid in $REDIS_PIDFILE)" "See the log lines above ($PIECE_LOG)"
  fi
  return 1
}

cmd_up() {
  mkdir -p -- "$LOG_DIR" "$RUN_DIR"

  if [[ -n "${REDIS_URL:-}" ]]; then
    if url_pong "$REDIS_URL"; then
      if [[ "$REDIS_URL" == "$(private_url)" ]] && running_pid >/dev/null; then
        log "already running (private instance) at $REDIS_HOST:$REDIS_PORT"
      else
        log "using REDIS_URL from the environment (answers PING); not starting a private instance"
      fi
      print_export REDIS_URL "$REDIS_URL"
      return 0
    fi
    if [[ "$REDIS_URL" != "$(private_url)" ]]; then
      warn "REDIS_URL is set but does not answer PING ($(url_host_port "$REDIS_URL" 6379 | tr " " : || echo "$REDIS_URL")); starting a private instance instead"
    fi
  fi

  lock_piece redis

  if ! command -v redis-server >/dev/null 2>&1 || ! command -v redis-cli >/dev/null 2>&1; then
    ensure_apt_package redis-server redis-server
    if ! command -v redis-server >/dev/null 2>&1 || ! command -v redis-cli >/dev/null 2>&1; then
      die "redis-server/redis-cli still not found after installing redis-server" "Check your PATH"
    fi
  fi

  local pid port
  if pid="$(running_pid)"; then
    port="$(conf_port)"
    port="${port:-$REDIS_PORT}"
    [[ "$port" == "$REDIS_PORT" ]] || warn "the running instance listens on $port, not REDIS_PORT=$REDIS_PORT (run down first to change the port)"
    START_EPOCH=$(date +%s)
    wait_for "redis-server (pid $pid) to answer PING on $REDIS_HOST:$port" "$REDIS_START_TIMEOUT" started_and_pong "$port"
    log "already running (pid $pid) on $REDIS_HOST:$port"
    print_export REDIS_URL "$(private_url "$port")"
    return 0
  fi

  ensure_port_free "$REDIS_HOST" "$REDIS_PORT" REDIS_PORT

  local t0
  t0="$(now_s)"
  mkdir -p -- "$REDIS_DIR"
  pidfile_remove "$REDIS_PIDFILE"
  # A config file (rather than command-line flags) keeps paths with spaces
  # safe and documents the running configuration. Rewritten at every start.
  cat >"$REDIS_CONF" <<EOF
# Rewritten by scripts/infra/redis.sh at every start. Do not edit.
bind $REDIS_HOST
port $REDIS_PORT
protected-mode yes
daemonize yes
pidfile "$REDIS_PIDFILE"
logfile "$PIECE_LOG"
loglevel notice
dir "$REDIS_DIR"
# BullMQ: jobs must survive a restart -> append-only file, fsync every second.
appendonly yes
appendfsync everysec
# No RDB snapshots (the AOF is the persistence).
save ""
# BullMQ requirement: never evict keys.
maxmemory-policy noeviction
EOF

  log "starting redis-server ($(redis-server --version | awk '{ print $3 }' | sed 's/^v=//')) on $REDIS_HOST:$REDIS_PORT (log: $PIECE_LOG) ..."
  echo "---- $(date '+%F %T') starting redis-server ----" >>"$PIECE_LOG"
  if ! (cd "$REDIS_DIR" && exec redis-server "$REDIS_CONF" 9>&- </dev/null >>"$PIECE_LOG" 2>&1); then
    show_log_tail "$PIECE_LOG" 20
    die "redis-server failed to start on $REDIS_HOST:$REDIS_PORT (log: $PIECE_LOG)" "See the log lines above"
  fi
  START_EPOCH=$(date +%s)
  wait_for "redis-server to answer PING on $REDIS_HOST:$REDIS_PORT" "$REDIS_START_TIMEOUT" started_and_pong "$REDIS_PORT"
  pid="$(running_pid)"
  log "ready (pid $pid) on $REDIS_HOST:$REDIS_PORT in $(elapsed_since "$t0")s"
  print_export REDIS_URL "$(private_url)"
}

cmd_down() {
  lock_piece redis
  local pid port
  if ! pid="$(running_pid)"; then
    log "not running (nothing to stop)"
    pidfile_remove "$REDIS_PIDFILE"
    return 0
  fi
  port="$(conf_port)"
  port="${port:-$REDIS_PORT}"
  log "stopping (pid $pid) ..."
  # SHUTDOWN flushes and fsyncs the append-only file; with `save ""` no RDB
  # snapshot is written. Fall back to SIGTERM (same clean path) if needed.
  if ! timeout 10 redis-cli -h "$REDIS_HOST" -p "$port" shutdown >/dev/null 2>&1; then
    kill -TERM "$pid" 2>/dev/null || true
  fi
  if ! wait_pid_exit "$pid" "$REDIS_STOP_TIMEOUT"; then
    show_log_tail "$PIECE_LOG" 20
    die "redis-server (pid $pid) did not stop within ${REDIS_STOP_TIMEOUT}s" \
      "Look at $PIECE_LOG; as a last resort: kill -9 $pid"
  fi
  pidfile_remove "$REDIS_PIDFILE"
  log "stopped"
}

cmd_status() {
  local pid port
  if pid="$(running_pid)"; then
    port="$(conf_port)"
    echo "redis: running (pid $pid) $(private_url "${port:-$REDIS_PORT}") data=$REDIS_DIR"
    return 0
  fi
  if [[ -n "${REDIS_URL:-}" && "$REDIS_URL" != "$(private_url)" ]] && url_pong "$REDIS_URL"; then
    echo "redis: external, answers PING (REDIS_URL from the environment)"
    return 0
  fi
  echo "redis: stopped"
  return 3
}

case "${1:-}" in
  up) cmd_up ;;
  down) cmd_down ;;
  status) cmd_status ;;
  *)
    echo "usage: $0 up|down|status" >&2
    exit 2
    ;;
esac
