#!/usr/bin/env bash
# Local Apache Kafka 3.9.1 broker for development and tests (no Docker):
# a single KRaft node (broker + controller in one JVM).
#
#   bash scripts/infra/kafka.sh up|down|status
#
# `up` prints `export KAFKA_BROKERS=...` on stdout (messages go to stderr).
#
# - If KAFKA_BROKERS is set and its first host:port accepts TCP, it is used as
#   is and nothing starts.
# - Otherwise the broker jars are fetched once from Maven Central with
#   scripts/infra/kafka/pom.xml into $CACHE_DIR/kafka-3.9.1/libs, the storage
#   is formatted once, and `kafka.Kafka` runs in the background:
#     PLAINTEXT 127.0.0.1:$KAFKA_PORT (default 59092),
#     CONTROLLER 127.0.0.1:$KAFKA_CONTROLLER_PORT (default 59093),
#     config/data in $LOCAL_DIR/kafka, log in $LOCAL_DIR/logs/kafka.log,
#     pid file in $LOCAL_DIR/run/kafka.pid.
#   Topics are NOT auto-created: services create theirs explicitly.
# - With KAFKA_SASL_SSL_PORT set, the broker also listens for SASL_SSL on
#   127.0.0.1:$KAFKA_SASL_SSL_PORT (as managed Kafka offerings do): a
#   self-signed CA and broker certificate are made once in $LOCAL_DIR/kafka/tls
#   (openssl), and the SCRAM-SHA-256/512 user $KAFKA_SASL_USERNAME with
#   $KAFKA_SASL_PASSWORD is (re)set after every start. `up` then also prints
#   KAFKA_SASL_SSL_BROKERS and KAFKA_SASL_SSL_CA_FILE.
#
# Settings (env): KAFKA_PORT, KAFKA_CONTROLLER_PORT, KAFKA_SASL_SSL_PORT (empty:
#   no SASL_SSL listener), KAFKA_SASL_USERNAME (default payments),
#   KAFKA_SASL_PASSWORD (default payments-local-only), KAFKA_HEAP_OPTS
#   (default "-Xms256m -Xmx512m"), KAFKA_START_TIMEOUT (s, default 90),
#   KAFKA_STOP_TIMEOUT (s, default 30), LOCAL_DIR, CACHE_DIR, KAFKA_BROKERS.
set -euo pipefail

# shellcheck source=scripts/lib/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"
PIECE=kafka
PIECE_LOG="$LOG_DIR/kafka.log"

KAFKA_VERSION=3.9.1 # must match scripts/infra/kafka/pom.xml
KAFKA_HOST=127.0.0.1
KAFKA_PORT="${KAFKA_PORT:-59092}"
KAFKA_CONTROLLER_PORT="${KAFKA_CONTROLLER_PORT:-59093}"
KAFKA_SASL_SSL_PORT="${KAFKA_SASL_SSL_PORT:-}"
KAFKA_SASL_USERNAME="${KAFKA_SASL_USERNAME:-payments}"
KAFKA_SASL_PASSWORD="${KAFKA_SASL_PASSWORD:-payments-local-only}"
KAFKA_HEAP_OPTS="${KAFKA_HEAP_OPTS:--Xms256m -Xmx512m}"
KAFKA_START_TIMEOUT="${KAFKA_START_TIMEOUT:-90}"
KAFKA_STOP_TIMEOUT="${KAFKA_STOP_TIMEOUT:-30}"

KAFKA_POM="$ROOT/scripts/infra/kafka/pom.xml"
KAFKA_LIBS="$CACHE_DIR/kafka-$KAFKA_VERSION/libs"
KAFKA_MAIN_JAR="$KAFKA_LIBS/kafka_2.13-$KAFKA_VERSION.jar"
KAFKA_DIR="$LOCAL_DIR/kafka"
KAFKA_DATA="$KAFKA_DIR/data"
KAFKA_PROPS="$KAFKA_DIR/server.properties"
KAFKA_LOG4J="$KAFKA_DIR/log4j.properties"
KAFKA_CLUSTER_ID_FILE="$KAFKA_DIR/cluster.id"
KAFKA_PIDFILE="$RUN_DIR/kafka.pid"
KAFKA_TLS="$KAFKA_DIR/tls"
KAFKA_TLS_STOREPASS=local-only-keystore
FETCH_LOG="$LOG_DIR/kafka-fetch.log"

private_brokers() { printf '%s:%s\n' "$KAFKA_HOST" "${1:-$KAFKA_PORT}"; }

# PLAINTEXT port of the running broker, from its (unchanged) config file.
props_port() {
  sed -n 's#^listeners=PLAINTEXT://[^,]*:\([0-9]*\),.*#\1#p' "$KAFKA_PROPS" 2>/dev/null | tail -n 1
}

# Pid of our broker, if running. The command line must mention our config
# file, so a recycled pid or another broker is never mistaken for ours.
running_pid() {
  local pid
  if pid="$(pidfile_read "$KAFKA_PIDFILE")" && pid_cmdline_has "$pid" "kafka.Kafka $KAFKA_PROPS"; then
    printf '%s\n' "$pid"
    return 0
  fi
  # Pid file lost but our broker still running (e.g. .local/run was wiped):
  # recognise it by its exact command line and re-record it.
  if command -v pgrep >/dev/null 2>&1 &&
    pid="$(pgrep -f -- "kafka.Kafka $KAFKA_PROPS" 2>/dev/null | head -n 1)" && [[ -n "$pid" ]]; then
    pidfile_write "$KAFKA_PIDFILE" "$pid"
    printf '%s\n' "$pid"
    return 0
  fi
  return 1
}

# ---------------------------------------------------------------- java + jars

# shellcheck source=scripts/infra/kafka/install.sh
source "$(dirname "${BASH_SOURCE[0]}")/kafka/install.sh"

# ---------------------------------------------------------------- config

# shellcheck source=scripts/infra/kafka/broker-config.sh
source "$(dirname "${BASH_SOURCE[0]}")/kafka/broker-config.sh"

# ---------------------------------------------------------------- readiness

# Ready = our process is alive, it logged "Kafka Server started" (written once
# the broker has registered and unfenced itself, i.e. it serves requests) and
# the PLAINTEXT port accepts TCP. Dies at once if the process exits.
broker_ready() { # broker_ready <pid> <port>
  local pid="$1" port="$2"
  if ! pid_alive "$pid"; then
    show_log_tail "$PIECE_LOG" 20
    pidfile_remove "$KAFKA_PIDFILE"
    die "the Kafka broker (pid $pid) exited while starting" "See the log lines above ($PIECE_LOG)"
  fi
  grep -q 'Kafka Server started' -- "$PIECE_LOG" 2>/dev/null && port_open "$KAFKA_HOST" "$port"
}

wait_ready() { # wait_ready <pid> <port>
  wait_for "the Kafka broker (pid $1) to log 'Kafka Server started' and accept TCP on $KAFKA_HOST:$2" \
    "$KAFKA_START_TIMEOUT" broker_ready "$1" "$2"
}

# ---------------------------------------------------------------- commands

cmd_up() {
  mkdir -p -- "$LOG_DIR" "$RUN_DIR"

  if [[ -n "${KAFKA_BROKERS:-}" ]]; then
    local first="${KAFKA_BROKERS%%,*}" host port
    first="${first#*://}"
    host="${first%:*}"
    port="${first##*:}"
    if [[ -n "$host" && "$port" =~ ^[0-9]+$ ]] && port_open "$host" "$port"; then
      if [[ "$KAFKA_BROKERS" == "$(private_brokers)" ]] && running_pid >/dev/null; then
        log "already running (private broker) at $KAFKA_BROKERS"
      else
        log "using KAFKA_BROKERS from the environment ($first accepts TCP); not starting a private broker"
      fi
      print_export KAFKA_BROKERS "$KAFKA_BROKERS"
      return 0
    fi
    if [[ "$KAFKA_BROKERS" != "$(private_brokers)" ]]; then
      warn "KAFKA_BROKERS is set but $first does not accept TCP; starting a private broker instead"
    fi
  fi

  lock_piece kafka

  local pid port
  if pid="$(running_pid)"; then
    port="$(props_port)"
    port="${port:-$KAFKA_PORT}"
    [[ "$port" == "$KAFKA_PORT" ]] || warn "the running broker listens on $port, not KAFKA_PORT=$KAFKA_PORT (run down first to change the port)"
    wait_ready "$pid" "$port"
    log "already running (pid $pid) on $KAFKA_HOST:$port"
    print_export KAFKA_BROKERS "$(private_brokers "$port")"
    print_sasl_exports
    return 0
  fi

  ensure_port_free "$KAFKA_HOST" "$KAFKA_PORT" KAFKA_PORT
  ensure_port_free "$KAFKA_HOST" "$KAFKA_CONTROLLER_PORT" KAFKA_CONTROLLER_PORT
  [[ -z "$KAFKA_SASL_SSL_PORT" ]] || ensure_port_free "$KAFKA_HOST" "$KAFKA_SASL_SSL_PORT" KAFKA_SASL_SSL_PORT
  ensure_java
  ensure_jars

  local t0
  t0="$(now_s)"
  # Fresh log per start (the previous one is kept as kafka.log.1) so that the
  # readiness check only sees this run's "Kafka Server started".
  if [[ -f "$PIECE_LOG" ]]; then mv -f -- "$PIECE_LOG" "$PIECE_LOG.1"; fi
  ensure_tls
  write_config
  ensure_formatted

  log "starting Kafka $KAFKA_VERSION (KRaft, node 1) on $KAFKA_HOST:$KAFKA_PORT (log: $PIECE_LOG) ..."
  # setsid: own session, so Ctrl-C in the terminal that ran `up` does not kill
  # it; nohup: survives the terminal closing; fd 9 (our lock) is not inherited.
  # (In a non-interactive script the background child is not a process-group
  # leader, so setsid does not fork and $! is the JVM's pid.)
  # shellcheck disable=SC2086
  setsid nohup java $KAFKA_HEAP_OPTS -XX:+UseG1GC -XX:MaxGCPauseMillis=20 \
    -XX:InitiatingHeapOccupancyPercent=35 -XX:+ExplicitGCInvokesConcurrent \
    -Djava.awt.headless=true -Dlog4j.configuration="file:$KAFKA_LOG4J" \
    -cp "$KAFKA_LIBS/*" kafka.Kafka "$KAFKA_PROPS" \
    </dev/null >>"$PIECE_LOG" 2>&1 9>&- &
  pid=$!
  pidfile_write "$KAFKA_PIDFILE" "$pid"

  wait_ready "$pid" "$KAFKA_PORT"
  # Sanity check that the recorded pid really is the JVM (see comment above).
  pid_cmdline_has "$pid" "kafka.Kafka $KAFKA_PROPS" || pid="$(running_pid)" ||
    die "the broker answers but its pid could not be recorded" "Run: bash scripts/infra/kafka.sh status"
  ensure_scram_user
  log "ready (pid $pid) on $KAFKA_HOST:$KAFKA_PORT${KAFKA_SASL_SSL_PORT:+ (SASL_SSL on $KAFKA_SASL_SSL_PORT)} in $(elapsed_since "$t0")s"
  print_export KAFKA_BROKERS "$(private_brokers)"
  print_sasl_exports
}

cmd_down() {
  lock_piece kafka
  local pid
  if ! pid="$(running_pid)"; then
    log "not running (nothing to stop)"
    pidfile_remove "$KAFKA_PIDFILE"
    return 0
  fi
  local t0
  t0="$(now_s)"
  log "stopping (pid $pid, SIGTERM; up to ${KAFKA_STOP_TIMEOUT}s) ..."
  kill -TERM "$pid" 2>/dev/null || true
  if ! wait_pid_exit "$pid" "$KAFKA_STOP_TIMEOUT"; then
    warn "broker (pid $pid) still running after ${KAFKA_STOP_TIMEOUT}s; sending SIGKILL"
    kill -KILL "$pid" 2>/dev/null || true
    wait_pid_exit "$pid" 10 || die "the Kafka broker (pid $pid) survived SIGKILL" "Check the process with: ps -fp $pid"
  fi
  pidfile_remove "$KAFKA_PIDFILE"
  log "stopped in $(elapsed_since "$t0")s"
}

cmd_status() {
  local pid port
  if pid="$(running_pid)"; then
    port="$(props_port)"
    port="${port:-$KAFKA_PORT}"
    if port_open "$KAFKA_HOST" "$port"; then
      echo "kafka: running (pid $pid) $(private_brokers "$port") data=$KAFKA_DATA"
    else
      echo "kafka: starting (pid $pid) $(private_brokers "$port") - port not open yet"
    fi
    return 0
  fi
  if [[ -n "${KAFKA_BROKERS:-}" && "$KAFKA_BROKERS" != "$(private_brokers)" ]]; then
    local first="${KAFKA_BROKERS%%,*}"
    first="${first#*://}"
    if port_open "${first%:*}" "${first##*:}"; then
      echo "kafka: external, accepts TCP (KAFKA_BROKERS from the environment)"
      return 0
    fi
  fi
  echo "kafka: stopped"
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
