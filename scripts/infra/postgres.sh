#!/usr/bin/env bash
# Local PostgreSQL for development and tests (no Docker).
#
#   bash scripts/infra/postgres.sh up|down|status
#
# `up` prints `export DATABASE_URL=...` on stdout (messages go to stderr).
# DATABASE_URL is a *server* URL (database "postgres"); every service creates
# and uses its own database on that server.
#
# - If DATABASE_URL is set and reachable, it is used as is and nothing starts.
# - Otherwise a private instance is run with pg_ctl (never the Debian system
#   cluster, systemd or pg_ctlcluster):
#     127.0.0.1:$PG_PORT (default 55432), superuser $PG_USER/$PG_PASSWORD
#     (default payments/payments), data in $LOCAL_DIR/postgres/data,
#     log in $LOCAL_DIR/logs/postgres.log.
#
# Settings (env): PG_PORT, PG_USER, PG_PASSWORD, PG_MAX_CONNECTIONS,
#   PG_START_TIMEOUT (s, default 60), PG_STOP_TIMEOUT (s, default 60),
#   PG_BIN (directory holding initdb/pg_ctl), LOCAL_DIR, DATABASE_URL.
set -euo pipefail

# shellcheck source=scripts/lib/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"
PIECE=postgres
PIECE_LOG="$LOG_DIR/postgres.log"

PG_HOST=127.0.0.1
PG_PORT="${PG_PORT:-55432}"
PG_USER="${PG_USER:-payments}"
PG_PASSWORD="${PG_PASSWORD:-payments}"
PG_MAX_CONNECTIONS="${PG_MAX_CONNECTIONS:-200}"
PG_START_TIMEOUT="${PG_START_TIMEOUT:-60}"
PG_STOP_TIMEOUT="${PG_STOP_TIMEOUT:-60}"
PG_BASE="$LOCAL_DIR/postgres"
PG_DATA_LINK="$PG_BASE/data" # the data dir itself, or a symlink to it (see resolve_data_dir)
# The OS user that runs the server: PostgreSQL refuses to run as root.
if [[ "$(id -u)" -eq 0 ]]; then PG_OS_USER=postgres; else PG_OS_USER="$(id -un)"; fi

private_url() { # private_url [port]
  printf 'postgres://%s:%s@%s:%s/postgres\n' \
    "$(urlencode "$PG_USER")" "$(urlencode "$PG_PASSWORD")" "$PG_HOST" "${1:-$PG_PORT}"
}

# Runs a command as the OS user owning the cluster, from "/" (the caller's cwd
# may not be accessible to that user). Extra fds (locks) are never inherited.
as_pg() {
  if [[ "$(id -u)" -eq 0 ]]; then
    (cd / && exec runuser -u "$PG_OS_USER" -- "$@" 9>&-)
  else
    (cd / && exec "$@" 9>&-)
  fi
}

# ---------------------------------------------------------------- binaries

# shellcheck source=scripts/infra/postgres/binaries.sh
source "$(dirname "${BASH_SOURCE[0]}")/postgres/binaries.sh"

# ---------------------------------------------------------------- data dir

# Where the cluster lives. Normally $LOCAL_DIR/postgres/data. When running
# as root, the server runs as the `postgres` user, which must be able to reach
# the data directory; if the repository sits below a directory that other
# users cannot traverse (e.g. /root, or a 0700 home), we cannot fix that
# without loosening permissions on directories we do not own. In that case the
# cluster goes to /var/tmp/payments-pg-<hash of ROOT>/data instead (/var/tmp
# survives reboots, unlike /tmp, and the hash keeps several checkouts apart),
# and $LOCAL_DIR/postgres/data becomes a symlink to it, so every script (and
# any human) still finds it at the usual place. Deleting .local therefore
# does not delete such a relocated cluster: remove /var/tmp/payments-pg-* too.
resolve_data_dir() { # resolve_data_dir [create]: sets PG_DATA (real path) and PG_RUNTIME
  if [[ -L "$PG_DATA_LINK" ]]; then
    PG_DATA="$(readlink -- "$PG_DATA_LINK")"
  elif [[ -d "$PG_DATA_LINK" ]]; then
    PG_DATA="$PG_DATA_LINK"
  else
    PG_DATA="$PG_DATA_LINK"
    if [[ "${1:-}" == create && "$(id -u)" -eq 0 ]]; then
      mkdir -p -- "$PG_BASE"
      if ! { chown "$PG_OS_USER:" "$PG_BASE" 2>/dev/null && as_pg test -w "$PG_BASE" -a -x "$PG_BASE"; }; then
        local alt
        alt="/var/tmp/payments-pg-$(root_hash)"
        log "user '$PG_OS_USER' cannot reach $PG_BASE (a parent directory is not traversable); keeping the cluster in $alt/data (symlinked from $PG_DATA_LINK)"
        mkdir -p -- "$alt"
        chmod 0755 "$alt"
        chown "$PG_OS_USER:" "$alt"
        ln -sfn -- "$alt/data" "$PG_DATA_LINK"
        PG_DATA="$alt/data"
      fi
    fi
  fi
  PG_RUNTIME="$(dirname -- "$PG_DATA")/run"
}

# Postmaster pid if our cluster is running (from postmaster.pid).
running_pid() {
  [[ -n "${PG_DATA:-}" ]] || return 1
  pidfile_read "$PG_DATA/postmaster.pid"
}

# Port our running cluster listens on (line 4 of postmaster.pid).
running_port() { sed -n 4p -- "$PG_DATA/postmaster.pid" 2>/dev/null | tr -dc '0-9'; }

# ---------------------------------------------------------------- checks

# url_reachable <url>: can log in and run a query (falls back to pg_isready,
# then to a plain TCP check when client tools are not installed).
url_reachable() {
  local url="$1" psql isready hp
  if psql="$(pg_tool psql)"; then
    PGCONNECT_TIMEOUT=3 "$psql" "$url" -X -q -t -A -c 'select 1' >/dev/null 2>&1
  elif isready="$(pg_tool pg_isready)"; then
    "$isready" -q -t 3 -d "$url" >/dev/null 2>&1
  else
    hp="$(url_host_port "$url" 5432)" || return 1
    # shellcheck disable=SC2086
    port_open $hp
  fi
}

# server_ready <port>: our server accepts connections (no login attempted).
server_ready() {
  local isready
  if isready="$(pg_tool pg_isready)"; then
    "$isready" -q -t 2 -h "$PG_HOST" -p "$1" >/dev/null 2>&1
  else
    port_open "$PG_HOST" "$1"
  fi
}

# check_login <port>: the configured superuser can log in and run a query.
check_login() {
  url_reachable "$(private_url "$1")" && return 0
  # The server may still be finishing recovery: give it a few more tries.
  for _ in 1 2 3 4 5 6 7 8 9 10; do
    sleep 0.5
    url_reachable "$(private_url "$1")" && return 0
  done
  die "the private PostgreSQL on $PG_HOST:$1 accepts connections but login as '$PG_USER' with PG_PASSWORD fails" \
    "Use the PG_USER/PG_PASSWORD the cluster was created with (default payments/payments), or run down and remove $PG_DATA_LINK to re-create it"
}

# ---------------------------------------------------------------- commands

cmd_up() {
  mkdir -p -- "$LOG_DIR" "$RUN_DIR"

  if [[ -n "${DATABASE_URL:-}" ]]; then
    if url_reachable "$DATABASE_URL"; then
      resolve_data_dir
      if [[ "$DATABASE_URL" == "$(private_url)" ]] && running_pid >/dev/null; then
        log "already running (private instance) at $PG_HOST:$PG_PORT"
      else
        log "using DATABASE_URL from the environment (reachable); not starting a private instance"
      fi
      print_export DATABASE_URL "$DATABASE_URL"
      return 0
    fi
    if [[ "$DATABASE_URL" != "$(private_url)" ]]; then
      warn "DATABASE_URL is set but not reachable ($(url_host_port "$DATABASE_URL" 5432 | tr " " : || echo "$DATABASE_URL")); starting a private instance instead"
    fi
  fi

  lock_piece postgres
  resolve_data_dir create

  local pid port
  if pid="$(running_pid)"; then
    port="$(running_port)"
    port="${port:-$PG_PORT}"
    [[ "$port" == "$PG_PORT" ]] || warn "the running instance listens on $port, not PG_PORT=$PG_PORT (run down first to change the port)"
    wait_for "PostgreSQL (pid $pid) to accept connections on $PG_HOST:$port" "$PG_START_TIMEOUT" server_ready "$port"
    check_login "$port"
    log "already running (pid $pid) on $PG_HOST:$port"
    print_export DATABASE_URL "$(private_url "$port")"
    return 0
  fi

  ensure_port_free "$PG_HOST" "$PG_PORT" PG_PORT

  local version=""
  [[ -f "$PG_DATA/PG_VERSION" ]] && version="$(cat -- "$PG_DATA/PG_VERSION")"
  ensure_pg_bin "$version"

  if [[ "$(id -u)" -eq 0 ]] && ! id -u "$PG_OS_USER" >/dev/null 2>&1; then
    log "creating system user '$PG_OS_USER' (PostgreSQL refuses to run as root)"
    useradd --system --user-group --no-create-home --home-dir /nonexistent \
      --shell /usr/sbin/nologin "$PG_OS_USER"
  fi

  local t0
  t0="$(now_s)"
  mkdir -p -- "$(dirname -- "$PG_DATA")" "$PG_RUNTIME"
  if [[ "$(id -u)" -eq 0 ]]; then
    chown "$PG_OS_USER:" "$(dirname -- "$PG_DATA")" "$PG_RUNTIME"
  fi
  chmod 0700 "$PG_RUNTIME"

  if [[ ! -f "$PG_DATA/PG_VERSION" ]]; then
    log "initialising a new cluster in $PG_DATA (superuser '$PG_USER') ..."
    # Password file readable only by the cluster owner, removed right after.
    local pwfile="$PG_RUNTIME/initdb.pw"
    (umask 077 && printf '%s\n' "$PG_PASSWORD" >"$pwfile")
    if [[ "$(id -u)" -eq 0 ]]; then chown "$PG_OS_USER:" "$pwfile"; fi
    if ! as_pg "$PG_BIN/initdb" -D "$PG_DATA" -U "$PG_USER" --pwfile="$pwfile" \
      --auth-host=scram-sha-256 --auth-local=scram-sha-256 \
      -E UTF8 --locale=C >>"$PIECE_LOG" 2>&1; then
      rm -f -- "$pwfile"
      show_log_tail "$PIECE_LOG" 20
      die "initdb failed for $PG_DATA (log: $PIECE_LOG)" \
        "Fix the cause above; if the directory is half-initialised remove $PG_DATA_LINK and re-run"
    fi
    rm -f -- "$pwfile"
    # Our settings live in an included file rewritten at every start (this
    # avoids shell-quoting paths in `pg_ctl -o "-c ..."`).
    printf "\n# Local development settings (scripts/infra/postgres.sh)\ninclude_if_exists = 'payments-local.conf'\n" \
      | as_pg tee -a "$PG_DATA/postgresql.conf" >/dev/null
  fi

  # Unix sockets are limited to ~107 bytes of path; fall back to TCP only.
  local socket_dir="$PG_RUNTIME"
  if ((${#socket_dir} > 90)); then
    warn "socket directory path too long ($socket_dir); unix socket disabled, TCP only"
    socket_dir=""
  fi
  {
    echo "# Rewritten by scripts/infra/postgres.sh at every start. Do not edit."
    echo "listen_addresses = '$PG_HOST'"
    echo "port = $PG_PORT"
    echo "unix_socket_directories = '${socket_dir//\'/\'\'}'"
    echo "max_connections = $PG_MAX_CONNECTIONS"
    # What each statement costs, as most production servers have it (the bench reports statements
    # per payment from it); skipped where the server was built without the contrib modules.
    if [ -f "$("$PG_BIN/pg_config" --pkglibdir 2>/dev/null || echo "$PG_BIN/../lib")/pg_stat_statements.so" ]; then
      echo "shared_preload_libraries = 'pg_stat_statements'"
    fi
  } | as_pg tee "$PG_DATA/payments-local.conf" >/dev/null

  log "starting PostgreSQL ($("$PG_BIN/postgres" --version | sed 's/^postgres (PostgreSQL) //')) on $PG_HOST:$PG_PORT (log: $PIECE_LOG) ..."
  # No `-l`: the server writes to pg_ctl's stdout, i.e. our log file, which is
  # opened here (by us) and inherited, so it works even when the server user
  # cannot reach $LOCAL_DIR/logs. pg_ctl puts the server in its own session.
  echo "---- $(date '+%F %T') pg_ctl start ----" >>"$PIECE_LOG"
  if ! as_pg "$PG_BIN/pg_ctl" start -D "$PG_DATA" -w -t "$PG_START_TIMEOUT" >>"$PIECE_LOG" 2>&1 </dev/null; then
    show_log_tail "$PIECE_LOG" 20
    die "PostgreSQL did not start within ${PG_START_TIMEOUT}s on $PG_HOST:$PG_PORT (log: $PIECE_LOG)" \
      "See the log lines above"
  fi
  pid="$(running_pid)" || {
    show_log_tail "$PIECE_LOG" 20
    die "pg_ctl reported success but no postmaster is running (log: $PIECE_LOG)" "See the log lines above"
  }
  wait_for "PostgreSQL to accept connections on $PG_HOST:$PG_PORT" "$PG_START_TIMEOUT" server_ready "$PG_PORT"
  check_login "$PG_PORT"
  log "ready (pid $pid) on $PG_HOST:$PG_PORT in $(elapsed_since "$t0")s"
  print_export DATABASE_URL "$(private_url)"
}

cmd_down() {
  lock_piece postgres
  resolve_data_dir
  local pid
  if ! pid="$(running_pid)"; then
    log "not running (nothing to stop)"
    return 0
  fi
  local version=""
  [[ -f "$PG_DATA/PG_VERSION" ]] && version="$(cat -- "$PG_DATA/PG_VERSION")"
  ensure_pg_bin "$version"
  log "stopping (pid $pid) ..."
  if ! as_pg "$PG_BIN/pg_ctl" stop -D "$PG_DATA" -m fast -w -t "$PG_STOP_TIMEOUT" >>"$PIECE_LOG" 2>&1 </dev/null; then
    show_log_tail "$PIECE_LOG" 20
    die "PostgreSQL (pid $pid) did not stop within ${PG_STOP_TIMEOUT}s (log: $PIECE_LOG)" \
      "Try again, or run: pg_ctl stop -D $PG_DATA -m immediate (as user $PG_OS_USER)"
  fi
  log "stopped"
}

cmd_status() {
  resolve_data_dir 2>/dev/null || true
  local pid port
  if pid="$(running_pid)"; then
    port="$(running_port)"
    echo "postgres: running (pid $pid) $(private_url "${port:-$PG_PORT}") data=$PG_DATA"
    return 0
  fi
  if [[ -n "${DATABASE_URL:-}" && "$DATABASE_URL" != "$(private_url)" ]] && url_reachable "$DATABASE_URL"; then
    echo "postgres: external, reachable (DATABASE_URL from the environment)"
    return 0
  fi
  echo "postgres: stopped"
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
