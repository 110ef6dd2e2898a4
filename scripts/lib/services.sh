# shellcheck shell=bash
# Starting, checking and stopping the four service processes (used by up.sh and down.sh).
# Each service gets its own RPC/HTTP ports from the variables below; everything else in the
# caller's environment (SANDBOX_SETTLE_MS, WEBHOOK_*, LOG_LEVEL, …) passes through unchanged.

APPS=(transaction-service split-ledger-service webhook-dispatcher gateway)

GATEWAY_PORT="${GATEWAY_PORT:-3000}"
TRANSACTION_RPC_PORT="${TRANSACTION_RPC_PORT:-4001}"
TRANSACTION_HTTP_PORT="${TRANSACTION_HTTP_PORT:-4101}"
LEDGER_RPC_PORT="${LEDGER_RPC_PORT:-4002}"
LEDGER_HTTP_PORT="${LEDGER_HTTP_PORT:-4102}"
WEBHOOK_RPC_PORT="${WEBHOOK_RPC_PORT:-4003}"
WEBHOOK_HTTP_PORT="${WEBHOOK_HTTP_PORT:-4103}"

app_http_port() {
  case "$1" in
    gateway) echo "$GATEWAY_PORT" ;;
    transaction-service) echo "$TRANSACTION_HTTP_PORT" ;;
    split-ledger-service) echo "$LEDGER_HTTP_PORT" ;;
    webhook-dispatcher) echo "$WEBHOOK_HTTP_PORT" ;;
  esac
}

app_rpc_port() {
  case "$1" in
    transaction-service) echo "$TRANSACTION_RPC_PORT" ;;
    split-ledger-service) echo "$LEDGER_RPC_PORT" ;;
    webhook-dispatcher) echo "$WEBHOOK_RPC_PORT" ;;
  esac
}

app_pidfile() { echo "$RUN_DIR/$1.pid"; }

http_ok() { # http_ok <url>: 2xx within 2 s
  node -e 'fetch(process.argv[1],{signal:AbortSignal.timeout(2000)}).then(r=>process.exit(r.ok?0:1),()=>process.exit(1))' "$1"
}

# start_app <app>: starts it in the background unless our instance is already running.
start_app() {
  local app="$1" pidfile pid port
  pidfile="$(app_pidfile "$app")"
  port="$(app_http_port "$app")"
  if pid="$(pidfile_read "$pidfile")" && pid_cmdline_has "$pid" "dist/apps/$app/"; then
    log "$app already running (pid $pid, http port $port)"
    return 0
  fi
  if port_open 127.0.0.1 "$port"; then
    die "port $port, wanted by $app, is used by another program" "Stop it, or choose other ports (see README, Configuration)"
  fi
  local -a env_args=() unset_args=(-u DATABASE_NAME -u RPC_PORT -u HTTP_PORT)
  # The provider-credentials keys reach transaction-service only (it alone encrypts and decrypts).
  [[ "$app" == transaction-service ]] || unset_args+=(-u PROVIDER_CREDENTIALS_KEY -u PROVIDER_CREDENTIALS_OLD_KEYS)
  if [[ "$app" != gateway ]]; then
    env_args=(RPC_PORT="$(app_rpc_port "$app")" HTTP_PORT="$port")
  else
    env_args=(
      GATEWAY_PORT="$GATEWAY_PORT"
      TRANSACTION_SERVICE_ADDRS="127.0.0.1:$TRANSACTION_RPC_PORT"
      SPLIT_LEDGER_SERVICE_ADDRS="127.0.0.1:$LEDGER_RPC_PORT"
      WEBHOOK_DISPATCHER_ADDRS="127.0.0.1:$WEBHOOK_RPC_PORT"
    )
  fi
  # DATABASE_NAME, RPC_PORT and HTTP_PORT differ per service: never inherit one shared value.
  (
    cd "$ROOT"
    exec env "${unset_args[@]}" "${env_args[@]}" \
      setsid nohup node "dist/apps/$app/src/main.js" >>"$LOG_DIR/$app.log" 2>&1 9>&- </dev/null
  ) &
  pidfile_write "$pidfile" "$!"
  log "$app starting (pid $!, log $LOG_DIR/$app.log)"
}

# wait_ready <app> <timeout_s>: until /health/ready answers 200, or the process died.
wait_ready() {
  local app="$1" timeout="$2" pid url
  url="http://127.0.0.1:$(app_http_port "$app")/health/ready"
  PIECE_LOG="$LOG_DIR/$app.log"
  _ready_or_dead() {
    if ! pidfile_read "$(app_pidfile "$app")" >/dev/null; then
      show_log_tail "$PIECE_LOG" 15
      die "$app exited during startup" "Its log is $PIECE_LOG; the first 'error:' or 'fatal' line says why"
    fi
    http_ok "$url"
  }
  wait_for "$app to be ready ($url)" "$timeout" _ready_or_dead
}

# stop_app <app>: SIGTERM (graceful: in-flight work finishes, offsets commit), then SIGKILL after 30 s.
stop_app() {
  local app="$1" pidfile pid
  pidfile="$(app_pidfile "$app")"
  if pid="$(pidfile_read "$pidfile")" && pid_cmdline_has "$pid" "dist/apps/$app/"; then
    kill -TERM "$pid" 2>/dev/null || true
    if ! wait_pid_exit "$pid" 30; then
      warn "$app did not stop within 30 s; killing it"
      kill -KILL "$pid" 2>/dev/null || true
    fi
    log "$app stopped"
  fi
  pidfile_remove "$pidfile"
}
