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

write_config() {
  mkdir -p -- "$KAFKA_DIR" "$KAFKA_DATA"
  cat >"$KAFKA_LOG4J" <<'EOF'
# Written by scripts/infra/kafka.sh. Everything goes to stdout, which is
# redirected to $LOCAL_DIR/logs/kafka.log (so JVM errors end up there too).
log4j.rootLogger=INFO, stdout
log4j.appender.stdout=org.apache.log4j.ConsoleAppender
log4j.appender.stdout.layout=org.apache.log4j.PatternLayout
log4j.appender.stdout.layout.ConversionPattern=[%d] %p %m (%c)%n
log4j.logger.kafka=INFO
log4j.logger.org.apache.kafka=INFO
log4j.logger.kafka.request.logger=WARN
log4j.logger.kafka.network.RequestChannel$=WARN
log4j.logger.state.change.logger=WARN
log4j.logger.kafka.authorizer.logger=WARN
EOF

  local listeners="PLAINTEXT://$KAFKA_HOST:$KAFKA_PORT,CONTROLLER://$KAFKA_HOST:$KAFKA_CONTROLLER_PORT"
  local advertised="PLAINTEXT://$KAFKA_HOST:$KAFKA_PORT"
  local protocols="PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT"
  if [[ -n "$KAFKA_SASL_SSL_PORT" ]]; then
    listeners+=",SASL_SSL://$KAFKA_HOST:$KAFKA_SASL_SSL_PORT"
    advertised+=",SASL_SSL://$KAFKA_HOST:$KAFKA_SASL_SSL_PORT"
    protocols+=",SASL_SSL:SASL_SSL"
  fi
  cat >"$KAFKA_PROPS" <<EOF
# Rewritten by scripts/infra/kafka.sh at every start. Do not edit.
# Single-node KRaft: this process is both broker and controller.
process.roles=broker,controller
node.id=1
controller.quorum.voters=1@$KAFKA_HOST:$KAFKA_CONTROLLER_PORT
listeners=$listeners
advertised.listeners=$advertised
controller.listener.names=CONTROLLER
listener.security.protocol.map=$protocols
inter.broker.listener.name=PLAINTEXT

log.dirs=$KAFKA_DATA
num.partitions=6
log.retention.hours=168

# Services create their topics explicitly.
auto.create.topics.enable=false

# Single node: replication factor 1 for the internal topics. Few partitions
# for the internal topics make the first consumer-group join / first
# transaction much faster.
offsets.topic.replication.factor=1
offsets.topic.num.partitions=6
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
transaction.state.log.num.partitions=6

# Fast consumer-group joins in development and tests.
group.initial.rebalance.delay.ms=0
group.min.session.timeout.ms=1000
EOF
  if [[ -n "$KAFKA_SASL_SSL_PORT" ]]; then
    cat >>"$KAFKA_PROPS" <<EOF

# SASL_SSL listener (KAFKA_SASL_SSL_PORT): TLS with the local CA, SCRAM or PLAIN.
sasl.enabled.mechanisms=SCRAM-SHA-256,SCRAM-SHA-512,PLAIN
listener.name.sasl_ssl.scram-sha-256.sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required;
listener.name.sasl_ssl.scram-sha-512.sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required;
listener.name.sasl_ssl.plain.sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required user_$KAFKA_SASL_USERNAME="$KAFKA_SASL_PASSWORD";
ssl.keystore.type=PKCS12
ssl.keystore.location=$KAFKA_TLS/broker.p12
ssl.keystore.password=$KAFKA_TLS_STOREPASS
ssl.key.password=$KAFKA_TLS_STOREPASS
ssl.client.auth=none
EOF
  fi
}

# A CA and a broker certificate for 127.0.0.1/localhost, made once.
ensure_tls() {
  [[ -n "$KAFKA_SASL_SSL_PORT" ]] || return 0
  [[ -s "$KAFKA_TLS/broker.p12" && -s "$KAFKA_TLS/ca.pem" ]] && return 0
  command -v openssl >/dev/null 2>&1 || die "openssl not found (needed for the SASL_SSL listener)" "apt-get install -y openssl"
  mkdir -p -- "$KAFKA_TLS"
  chmod 700 "$KAFKA_TLS"
  log "making a local CA and broker certificate in $KAFKA_TLS ..."
  (
    cd "$KAFKA_TLS"
    openssl req -x509 -newkey rsa:2048 -nodes -days 3650 -subj "/CN=payments local Kafka CA" -keyout ca.key -out ca.pem
    openssl req -newkey rsa:2048 -nodes -subj "/CN=localhost" -keyout broker.key -out broker.csr
    printf 'subjectAltName=IP:127.0.0.1,DNS:localhost\nbasicConstraints=CA:FALSE\n' >broker.ext
    openssl x509 -req -in broker.csr -CA ca.pem -CAkey ca.key -CAcreateserial -days 3650 -extfile broker.ext -out broker.pem
    openssl pkcs12 -export -in broker.pem -inkey broker.key -certfile ca.pem -name broker -passout "pass:$KAFKA_TLS_STOREPASS" -out broker.p12
  ) >>"$PIECE_LOG" 2>&1 || die "making the broker certificate failed" "See $PIECE_LOG"
}

# Sets the SCRAM credentials of KAFKA_SASL_USERNAME (idempotent: runs after every start).
ensure_scram_user() {
  [[ -n "$KAFKA_SASL_SSL_PORT" ]] || return 0
  local mech
  for mech in SCRAM-SHA-256 SCRAM-SHA-512; do
    kafka_tool kafka.admin.ConfigCommand --bootstrap-server "$KAFKA_HOST:$KAFKA_PORT" --alter \
      --add-config "$mech=[iterations=4096,password=$KAFKA_SASL_PASSWORD]" \
      --entity-type users --entity-name "$KAFKA_SASL_USERNAME" >>"$PIECE_LOG" 2>&1 ||
      die "setting the $mech credentials of $KAFKA_SASL_USERNAME failed" "See $PIECE_LOG"
  done
}

print_sasl_exports() {
  [[ -n "$KAFKA_SASL_SSL_PORT" ]] || return 0
  print_export KAFKA_SASL_SSL_BROKERS "$KAFKA_HOST:$KAFKA_SASL_SSL_PORT"
  print_export KAFKA_SASL_SSL_CA_FILE "$KAFKA_TLS/ca.pem"
}

ensure_formatted() {
  [[ -f "$KAFKA_DATA/meta.properties" ]] && return 0
  local id=""
  if [[ -s "$KAFKA_CLUSTER_ID_FILE" ]]; then
    id="$(tr -d '[:space:]' <"$KAFKA_CLUSTER_ID_FILE")"
  else
    id="$(kafka_tool kafka.tools.StorageTool random-uuid 2>>"$PIECE_LOG" | tail -n 1 | tr -d '[:space:]')"
    [[ "$id" =~ ^[A-Za-z0-9_-]{22}$ ]] ||
      die "could not generate a cluster id with kafka.tools.StorageTool random-uuid (got '$id')" "Look at $PIECE_LOG"
    printf '%s\n' "$id" >"$KAFKA_CLUSTER_ID_FILE"
  fi
  log "formatting storage in $KAFKA_DATA (cluster id $id) ..."
  echo "---- $(date '+%F %T') kafka.tools.StorageTool format ----" >>"$PIECE_LOG"
  if ! kafka_tool kafka.tools.StorageTool format -t "$id" -c "$KAFKA_PROPS" >>"$PIECE_LOG" 2>&1; then
    show_log_tail "$PIECE_LOG" 20
    die "formatting the Kafka storage in $KAFKA_DATA failed (log: $PIECE_LOG)" \
      "See the log lines above; to start from scratch remove $KAFKA_DIR"
  fi
}

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
