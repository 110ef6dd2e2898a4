#!/usr/bin/env bash
# Local Apache Kafka 3.9.1 for development and tests (no Docker): one KRaft
# node by default, or a cluster of KAFKA_NODES nodes. Every node is broker and
# controller in one JVM (process.roles=broker,controller).
#
#   bash scripts/infra/kafka.sh up|down|status
#   bash scripts/infra/kafka.sh stop <node>|kill <node>|controller   (drills on a cluster)
#
# `up` prints `export KAFKA_BROKERS=...` on stdout (messages go to stderr).
#
# - If KAFKA_BROKERS is set and its first host:port accepts TCP, it is used as
#   is and nothing starts.
# - Otherwise the broker jars are fetched once from Maven Central with
#   scripts/infra/kafka/pom.xml into $CACHE_DIR/kafka-3.9.1/libs, the storage
#   is formatted once, and `kafka.Kafka` runs in the background.
#   One node (KAFKA_NODES=1, the default):
#     PLAINTEXT 127.0.0.1:$KAFKA_PORT (default 59092),
#     CONTROLLER 127.0.0.1:$KAFKA_CONTROLLER_PORT (default 59093),
#     config/data in $LOCAL_DIR/kafka, log in $LOCAL_DIR/logs/kafka.log,
#     pid file in $LOCAL_DIR/run/kafka.pid.
#   A cluster (KAFKA_NODES=3, or any number from 2 to 9): node i (1..N) has
#     node.id i, PLAINTEXT on KAFKA_PORT + KAFKA_NODE_PORT_STEP*(i-1),
#     CONTROLLER on KAFKA_CONTROLLER_PORT + KAFKA_NODE_PORT_STEP*(i-1)
#     (step default 10: 59092/59093, 59102/59103, 59112/59113),
#     config/data in $LOCAL_DIR/kafka-cluster/node-i, log in
#     $LOCAL_DIR/logs/kafka-i.log, pid file in $LOCAL_DIR/run/kafka-i.pid;
#     controller.quorum.voters lists every node and all are formatted with
#     one cluster id ($LOCAL_DIR/kafka-cluster/cluster.id). With three nodes or
#     more, the internal topics (consumer offsets, transaction state) and new
#     topics get replication factor 3 and min.insync.replicas=2, so one node
#     may be down without refusing writes. `up` prints every node:
#     `export KAFKA_BROKERS=127.0.0.1:p1,127.0.0.1:p2,127.0.0.1:p3`.
#     `down` and `status` cover every node, and `down` also stops a node
#     left from the other layout (a single node or a cluster).
#     `stop <i>` stops node i cleanly, `kill <i>` with SIGKILL; `up` starts
#     whichever nodes are missing. `controller` prints the node id of the
#     active controller (the __cluster_metadata quorum leader, read from the
#     quorum-state file of each node).
#   Topics are NOT auto-created: services create theirs explicitly.
# - With KAFKA_SASL_SSL_PORT set, every node also listens for SASL_SSL on
#   127.0.0.1:$KAFKA_SASL_SSL_PORT (+ the step per node, as for the other
#   ports), as managed Kafka offerings do: a self-signed CA and broker
#   certificate are made once in $LOCAL_DIR/kafka/tls (a cluster:
#   $LOCAL_DIR/kafka-cluster/tls, openssl), and the SCRAM-SHA-256/512 user
#   $KAFKA_SASL_USERNAME with $KAFKA_SASL_PASSWORD is (re)set after every
#   start. `up` then also prints KAFKA_SASL_SSL_BROKERS and
#   KAFKA_SASL_SSL_CA_FILE.
#
# Settings (env): KAFKA_NODES (default 1), KAFKA_PORT, KAFKA_CONTROLLER_PORT,
#   KAFKA_NODE_PORT_STEP (default 10), KAFKA_SASL_SSL_PORT (empty: no SASL_SSL
#   listener), KAFKA_SASL_USERNAME (default payments),
#   KAFKA_SASL_PASSWORD (default payments-local-only), KAFKA_HEAP_OPTS
#   (default "-Xms256m -Xmx512m" per node), KAFKA_START_TIMEOUT (s, default
#   90), KAFKA_STOP_TIMEOUT (s, default 30), LOCAL_DIR, CACHE_DIR, KAFKA_BROKERS.
set -euo pipefail

# shellcheck source=scripts/lib/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"
PIECE=kafka

KAFKA_VERSION=3.9.1 # must match scripts/infra/kafka/pom.xml
KAFKA_HOST=127.0.0.1
KAFKA_NODES="${KAFKA_NODES:-1}"
KAFKA_PORT="${KAFKA_PORT:-59092}"
KAFKA_CONTROLLER_PORT="${KAFKA_CONTROLLER_PORT:-59093}"
KAFKA_NODE_PORT_STEP="${KAFKA_NODE_PORT_STEP:-10}"
KAFKA_SASL_SSL_PORT="${KAFKA_SASL_SSL_PORT:-}"
KAFKA_SASL_USERNAME="${KAFKA_SASL_USERNAME:-payments}"
KAFKA_SASL_PASSWORD="${KAFKA_SASL_PASSWORD:-payments-local-only}"
KAFKA_HEAP_OPTS="${KAFKA_HEAP_OPTS:--Xms256m -Xmx512m}"
KAFKA_START_TIMEOUT="${KAFKA_START_TIMEOUT:-90}"
KAFKA_STOP_TIMEOUT="${KAFKA_STOP_TIMEOUT:-30}"

[[ "$KAFKA_NODES" =~ ^[1-9]$ ]] || die "KAFKA_NODES must be a number from 1 to 9 (got '$KAFKA_NODES')" "Use KAFKA_NODES=1 (one node) or KAFKA_NODES=3 (a cluster)"
[[ "$KAFKA_NODE_PORT_STEP" =~ ^[1-9][0-9]*$ ]] || die "KAFKA_NODE_PORT_STEP must be a positive number (got '$KAFKA_NODE_PORT_STEP')"

KAFKA_POM="$ROOT/scripts/infra/kafka/pom.xml"
KAFKA_LIBS="$CACHE_DIR/kafka-$KAFKA_VERSION/libs"
KAFKA_MAIN_JAR="$KAFKA_LIBS/kafka_2.13-$KAFKA_VERSION.jar"
KAFKA_TLS_STOREPASS=local-only-keystore
FETCH_LOG="$LOG_DIR/kafka-fetch.log"

# layout <nodes>: the folders shared by the nodes of one layout (1: the single
# node of earlier versions, kept where it was; more: a cluster).
layout() {
  if (($1 == 1)); then
    KAFKA_DIR="$LOCAL_DIR/kafka"
  else
    KAFKA_DIR="$LOCAL_DIR/kafka-cluster"
  fi
  KAFKA_LOG4J="$KAFKA_DIR/log4j.properties"
  KAFKA_CLUSTER_ID_FILE="$KAFKA_DIR/cluster.id"
  KAFKA_TLS="$KAFKA_DIR/tls"
  LAYOUT_NODES="$1"
}

# select_node <i>: selects node i of the current layout (sets NODE_* and PIECE_LOG).
select_node() {
  local i="$1" off=$(((${1} - 1) * KAFKA_NODE_PORT_STEP))
  NODE_ID="$i"
  NODE_PORT=$((KAFKA_PORT + off))
  NODE_CONTROLLER_PORT=$((KAFKA_CONTROLLER_PORT + off))
  NODE_SASL_SSL_PORT=""
  [[ -z "$KAFKA_SASL_SSL_PORT" ]] || NODE_SASL_SSL_PORT=$((KAFKA_SASL_SSL_PORT + off))
  if ((LAYOUT_NODES == 1)); then
    NODE_DIR="$KAFKA_DIR"
    PIECE_LOG="$LOG_DIR/kafka.log"
    NODE_PIDFILE="$RUN_DIR/kafka.pid"
    NODE_NAME="the Kafka broker"
  else
    NODE_DIR="$KAFKA_DIR/node-$i"
    PIECE_LOG="$LOG_DIR/kafka-$i.log"
    NODE_PIDFILE="$RUN_DIR/kafka-$i.pid"
    NODE_NAME="Kafka node $i"
  fi
  NODE_DATA="$NODE_DIR/data"
  NODE_PROPS="$NODE_DIR/server.properties"
}

# host:port of every node of the current layout, comma-separated.
all_brokers() {
  local i list=()
  for ((i = 1; i <= LAYOUT_NODES; i++)); do list+=("$KAFKA_HOST:$((KAFKA_PORT + (i - 1) * KAFKA_NODE_PORT_STEP))"); done
  (IFS=,; printf '%s\n' "${list[*]}")
}

# controller.quorum.voters: id@host:controller-port of every node.
quorum_voters() {
  local i list=()
  for ((i = 1; i <= LAYOUT_NODES; i++)); do list+=("$i@$KAFKA_HOST:$((KAFKA_CONTROLLER_PORT + (i - 1) * KAFKA_NODE_PORT_STEP))"); done
  (IFS=,; printf '%s\n' "${list[*]}")
}

layout "$KAFKA_NODES"
select_node 1

# PLAINTEXT port of the selected node's running broker, from its (unchanged) config file.
props_port() {
  sed -n 's#^listeners=PLAINTEXT://[^,]*:\([0-9]*\),.*#\1#p' "$NODE_PROPS" 2>/dev/null | tail -n 1
}

# Pid of the selected node, if running. The command line must mention its config
# file, so a recycled pid or another broker is never mistaken for ours.
running_pid() {
  local pid
  if pid="$(pidfile_read "$NODE_PIDFILE")" && pid_cmdline_has "$pid" "kafka.Kafka $NODE_PROPS"; then
    printf '%s\n' "$pid"
    return 0
  fi
  # Pid file lost but the node still running (e.g. .local/run was wiped):
  # recognise it by its exact command line and re-record it.
  if command -v pgrep >/dev/null 2>&1 &&
    pid="$(pgrep -f -- "kafka.Kafka $NODE_PROPS\$" 2>/dev/null | head -n 1)" && [[ -n "$pid" ]]; then
    pidfile_write "$NODE_PIDFILE" "$pid"
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

# Ready = the node's process is alive, it logged "Kafka Server started" (written
# once the broker has registered and unfenced itself, i.e. it serves requests)
# and its PLAINTEXT port accepts TCP. Dies at once if the process exits.
broker_ready() { # broker_ready <pid> (node selected)
  local pid="$1"
  if ! pid_alive "$pid"; then
    show_log_tail "$PIECE_LOG" 20
    pidfile_remove "$NODE_PIDFILE"
    die "$NODE_NAME (pid $pid) exited while starting" "See the log lines above ($PIECE_LOG)"
  fi
  grep -q 'Kafka Server started' -- "$PIECE_LOG" 2>/dev/null && port_open "$KAFKA_HOST" "$NODE_PORT"
}

wait_ready() { # wait_ready <pid> (node selected)
  wait_for "$NODE_NAME (pid $1) to log 'Kafka Server started' and accept TCP on $KAFKA_HOST:$NODE_PORT" \
    "$KAFKA_START_TIMEOUT" broker_ready "$1"
}

# Starts the selected node in the background; sets STARTED_PID.
start_node() {
  # Fresh log per start (the previous one is kept as .1) so that the
  # readiness check only sees this run's "Kafka Server started".
  if [[ -f "$PIECE_LOG" ]]; then mv -f -- "$PIECE_LOG" "$PIECE_LOG.1"; fi
  write_config
  ensure_formatted
  log "starting Kafka $KAFKA_VERSION (KRaft, node $NODE_ID of $LAYOUT_NODES) on $KAFKA_HOST:$NODE_PORT (log: $PIECE_LOG) ..."
  # setsid: own session, so Ctrl-C in the terminal that ran `up` does not kill
  # it; nohup: survives the terminal closing; fd 9 (our lock) is not inherited.
  # (In a non-interactive script the background child is not a process-group
  # leader, so setsid does not fork and $! is the JVM's pid.)
  # shellcheck disable=SC2086
  setsid nohup java $KAFKA_HEAP_OPTS -XX:+UseG1GC -XX:MaxGCPauseMillis=20 \
    -XX:InitiatingHeapOccupancyPercent=35 -XX:+ExplicitGCInvokesConcurrent \
    -Djava.awt.headless=true -Dlog4j.configuration="file:$KAFKA_LOG4J" \
    -cp "$KAFKA_LIBS/*" kafka.Kafka "$NODE_PROPS" \
    </dev/null >>"$PIECE_LOG" 2>&1 9>&- &
  STARTED_PID=$!
  pidfile_write "$NODE_PIDFILE" "$STARTED_PID"
}

# Stops the selected node if it runs (SIGTERM, then SIGKILL after KAFKA_STOP_TIMEOUT).
stop_node() {
  local pid t0
  if ! pid="$(running_pid)"; then
    pidfile_remove "$NODE_PIDFILE"
    return 1
  fi
  t0="$(now_s)"
  log "stopping $NODE_NAME (pid $pid, SIGTERM; up to ${KAFKA_STOP_TIMEOUT}s) ..."
  kill -TERM "$pid" 2>/dev/null || true
  if ! wait_pid_exit "$pid" "$KAFKA_STOP_TIMEOUT"; then
    warn "$NODE_NAME (pid $pid) still running after ${KAFKA_STOP_TIMEOUT}s; sending SIGKILL"
    kill -KILL "$pid" 2>/dev/null || true
    wait_pid_exit "$pid" 10 || die "$NODE_NAME (pid $pid) survived SIGKILL" "Check the process with: ps -fp $pid"
  fi
  pidfile_remove "$NODE_PIDFILE"
  log "$NODE_NAME stopped in $(elapsed_since "$t0")s"
}

# ---------------------------------------------------------------- commands

cmd_up() {
  mkdir -p -- "$LOG_DIR" "$RUN_DIR"
  local mine
  mine="$(all_brokers)"

  # KAFKA_BROKERS naming our own nodes goes on below: the running ones are
  # reused and missing ones started (a cluster node that was stopped comes back).
  if [[ -n "${KAFKA_BROKERS:-}" && "$KAFKA_BROKERS" != "$mine" ]]; then
    local first="${KAFKA_BROKERS%%,*}" host port
    first="${first#*://}"
    host="${first%:*}"
    port="${first##*:}"
    if [[ -n "$host" && "$port" =~ ^[0-9]+$ ]] && port_open "$host" "$port"; then
      log "using KAFKA_BROKERS from the environment ($first accepts TCP); not starting a private broker"
      print_export KAFKA_BROKERS "$KAFKA_BROKERS"
      return 0
    fi
    warn "KAFKA_BROKERS is set but $first does not accept TCP; starting a private broker instead"
  fi

  lock_piece kafka

  local i pid port t0 started=() running=0
  t0="$(now_s)"
  # Nodes already running are reused (a cluster missing a node gets it back).
  for ((i = 1; i <= LAYOUT_NODES; i++)); do
    select_node "$i"
    if pid="$(running_pid)"; then
      port="$(props_port)"
      [[ "${port:-$NODE_PORT}" == "$NODE_PORT" ]] ||
        warn "$NODE_NAME listens on $port, not $NODE_PORT (run down first to change the ports)"
      running=$((running + 1))
    else
      ensure_port_free "$KAFKA_HOST" "$NODE_PORT" KAFKA_PORT
      ensure_port_free "$KAFKA_HOST" "$NODE_CONTROLLER_PORT" KAFKA_CONTROLLER_PORT
      [[ -z "$NODE_SASL_SSL_PORT" ]] || ensure_port_free "$KAFKA_HOST" "$NODE_SASL_SSL_PORT" KAFKA_SASL_SSL_PORT
    fi
  done

  if ((running < LAYOUT_NODES)); then
    ensure_java
    ensure_jars
    ensure_tls
    # All missing nodes start before any is waited for: a cluster node only
    # finishes starting once a majority of the controller quorum is up.
    for ((i = 1; i <= LAYOUT_NODES; i++)); do
      select_node "$i"
      if ! running_pid >/dev/null; then
        start_node
        started+=("$i:$STARTED_PID")
      fi
    done
  fi

  local entry
  for ((i = 1; i <= LAYOUT_NODES; i++)); do
    select_node "$i"
    pid=""
    for entry in "${started[@]}"; do [[ "${entry%%:*}" == "$i" ]] && pid="${entry#*:}"; done
    if [[ -n "$pid" ]]; then
      wait_ready "$pid"
      # Sanity check that the recorded pid really is the JVM (see start_node).
      pid_cmdline_has "$pid" "kafka.Kafka $NODE_PROPS" || pid="$(running_pid)" ||
        die "$NODE_NAME answers but its pid could not be recorded" "Run: bash scripts/infra/kafka.sh status"
      log "$NODE_NAME ready (pid $pid) on $KAFKA_HOST:$NODE_PORT${NODE_SASL_SSL_PORT:+ (SASL_SSL on $NODE_SASL_SSL_PORT)}"
    else
      pid="$(running_pid)" || die "$NODE_NAME stopped while the others started" "See $PIECE_LOG"
      wait_ready "$pid"
      log "$NODE_NAME already running (pid $pid) on $KAFKA_HOST:$NODE_PORT"
    fi
  done
  select_node 1
  if ((${#started[@]} > 0)); then
    ensure_scram_user
    log "ready: $LAYOUT_NODES node(s) at $mine in $(elapsed_since "$t0")s"
  fi
  print_export KAFKA_BROKERS "$mine"
  print_sasl_exports
}

cmd_down() {
  lock_piece kafka
  # Every node of both layouts (a single node, a cluster of up to 9), so
  # switching KAFKA_NODES never leaves a node running. All get SIGTERM at once:
  # a node's clean shutdown asks the controller quorum to move its partitions
  # away, which a node stopped last would wait for in vain once the others are
  # gone.
  local n i pid t0 stopping=()
  t0="$(now_s)"
  for n in 1 9; do
    layout "$n"
    for ((i = 1; i <= LAYOUT_NODES; i++)); do
      select_node "$i"
      if pid="$(running_pid)"; then
        log "stopping $NODE_NAME (pid $pid, SIGTERM; up to ${KAFKA_STOP_TIMEOUT}s) ..."
        kill -TERM "$pid" 2>/dev/null || true
        stopping+=("$n:$i:$pid")
      else
        pidfile_remove "$NODE_PIDFILE"
      fi
    done
  done
  if ((${#stopping[@]} == 0)); then
    log "not running (nothing to stop)"
    return 0
  fi
  local entry
  for entry in "${stopping[@]}"; do
    IFS=: read -r n i pid <<<"$entry"
    layout "$n"
    select_node "$i"
    if ! wait_pid_exit "$pid" "$KAFKA_STOP_TIMEOUT"; then
      warn "$NODE_NAME (pid $pid) still running after ${KAFKA_STOP_TIMEOUT}s; sending SIGKILL"
      kill -KILL "$pid" 2>/dev/null || true
      wait_pid_exit "$pid" 10 || die "$NODE_NAME (pid $pid) survived SIGKILL" "Check the process with: ps -fp $pid"
    fi
    pidfile_remove "$NODE_PIDFILE"
  done
  log "stopped ${#stopping[@]} node(s) in $(elapsed_since "$t0")s"
}

cmd_status() {
  local pid i running=0
  for ((i = 1; i <= LAYOUT_NODES; i++)); do
    select_node "$i"
    local who="kafka"
    ((LAYOUT_NODES == 1)) || who="kafka node $i"
    if pid="$(running_pid)"; then
      running=$((running + 1))
      if port_open "$KAFKA_HOST" "$NODE_PORT"; then
        echo "$who: running (pid $pid) $KAFKA_HOST:$NODE_PORT data=$NODE_DATA"
      else
        echo "$who: starting (pid $pid) $KAFKA_HOST:$NODE_PORT - port not open yet"
      fi
    elif ((LAYOUT_NODES > 1)); then
      echo "$who: stopped ($KAFKA_HOST:$NODE_PORT)"
    fi
  done
  ((running == 0)) || return 0
  if [[ -n "${KAFKA_BROKERS:-}" && "$KAFKA_BROKERS" != "$(all_brokers)" ]]; then
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

# Failure drills on one node of the cluster: `stop <i>` (SIGTERM, a clean
# shutdown) or `kill <i>` (SIGKILL, a crash). `up` starts it again.
cmd_stop_node() { # cmd_stop_node <signal> <i>
  local sig="$1" i="${2:-}" pid
  [[ "$i" =~ ^[1-9]$ ]] && ((i <= LAYOUT_NODES)) || die "no node '$i' in a $LAYOUT_NODES-node layout" "Give a node number from 1 to $LAYOUT_NODES (KAFKA_NODES as for up)"
  lock_piece kafka
  select_node "$i"
  if [[ "$sig" == TERM ]]; then
    stop_node || log "$NODE_NAME is not running"
    return 0
  fi
  pid="$(running_pid)" || {
    log "$NODE_NAME is not running"
    return 0
  }
  kill -KILL "$pid" 2>/dev/null || true
  wait_pid_exit "$pid" 10 || die "$NODE_NAME (pid $pid) survived SIGKILL" "Check the process with: ps -fp $pid"
  pidfile_remove "$NODE_PIDFILE"
  log "$NODE_NAME killed (pid $pid, SIGKILL)"
}

# Prints the node id of the active KRaft controller (the leader of the
# __cluster_metadata quorum), from the quorum state each node keeps next to its
# metadata log: the newest epoch any node recorded a leader for. Fails while an
# election is under way (the newest epoch has no leader yet, or its leader is down).
cmd_controller() {
  local i file line epoch leader best_epoch=-1 best_leader=-1
  for ((i = 1; i <= LAYOUT_NODES; i++)); do
    select_node "$i"
    file="$NODE_DATA/__cluster_metadata-0/quorum-state"
    [[ -r "$file" ]] || continue
    line="$(cat -- "$file" 2>/dev/null)" || continue
    epoch="$(sed -n 's/.*"leaderEpoch":\(-\{0,1\}[0-9]*\).*/\1/p' <<<"$line")"
    leader="$(sed -n 's/.*"leaderId":\(-\{0,1\}[0-9]*\).*/\1/p' <<<"$line")"
    [[ -n "$epoch" && -n "$leader" ]] || continue
    if ((epoch > best_epoch || (epoch == best_epoch && leader >= 0))); then
      best_epoch="$epoch"
      best_leader="$leader"
    fi
  done
  ((best_epoch >= 0)) || die "no node has a quorum state yet" "Start the nodes with: KAFKA_NODES=$LAYOUT_NODES bash scripts/infra/kafka.sh up"
  ((best_leader >= 0)) || die "no controller elected yet in epoch $best_epoch" "Try again in a moment"
  # A leader that is down has not been replaced yet (the others notice within seconds).
  if ((best_leader <= LAYOUT_NODES)); then
    select_node "$best_leader"
    running_pid >/dev/null || die "the last controller, node $best_leader, is down and no other is elected yet" "Try again in a moment"
  fi
  echo "$best_leader"
}

case "${1:-}" in
  up) cmd_up ;;
  down) cmd_down ;;
  status) cmd_status ;;
  stop) cmd_stop_node TERM "${2:-}" ;;
  kill) cmd_stop_node KILL "${2:-}" ;;
  controller) cmd_controller ;;
  *)
    echo "usage: $0 up|down|status|stop <node>|kill <node>|controller" >&2
    exit 2
    ;;
esac
