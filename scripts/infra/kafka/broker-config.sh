# Sourced by scripts/infra/kafka.sh: a node's configuration (properties and log4j), the TLS
# material and SCRAM user of the optional SASL_SSL listener, and formatting the KRaft storage.
# Uses die, log, print_export and show_log_tail from scripts/lib/common.sh, kafka_tool from
# kafka/install.sh, the KAFKA_* settings of the caller and its selected node (NODE_*, LAYOUT_NODES).
# shellcheck shell=bash

write_config() {
  mkdir -p -- "$KAFKA_DIR" "$NODE_DATA"
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

  local listeners="PLAINTEXT://$KAFKA_HOST:$NODE_PORT,CONTROLLER://$KAFKA_HOST:$NODE_CONTROLLER_PORT"
  local advertised="PLAINTEXT://$KAFKA_HOST:$NODE_PORT"
  local protocols="PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT"
  if [[ -n "$NODE_SASL_SSL_PORT" ]]; then
    listeners+=",SASL_SSL://$KAFKA_HOST:$NODE_SASL_SSL_PORT"
    advertised+=",SASL_SSL://$KAFKA_HOST:$NODE_SASL_SSL_PORT"
    protocols+=",SASL_SSL:SASL_SSL"
  fi
  # Replication of the internal topics and of topics created without a factor:
  # 3 copies with at least 2 in sync on three nodes or more (one node may be
  # down and writes with acks=all still succeed), every node on fewer.
  local rf=$((LAYOUT_NODES < 3 ? LAYOUT_NODES : 3)) min_isr=$((LAYOUT_NODES < 3 ? 1 : 2))
  local what="Single-node KRaft: this process is both broker and controller."
  ((LAYOUT_NODES == 1)) || what="Node $NODE_ID of a $LAYOUT_NODES-node KRaft cluster: every node is both broker and controller."
  cat >"$NODE_PROPS" <<EOF
# Rewritten by scripts/infra/kafka.sh at every start. Do not edit.
# $what
process.roles=broker,controller
node.id=$NODE_ID
controller.quorum.voters=$(quorum_voters)
listeners=$listeners
advertised.listeners=$advertised
controller.listener.names=CONTROLLER
listener.security.protocol.map=$protocols
inter.broker.listener.name=PLAINTEXT

log.dirs=$NODE_DATA
num.partitions=6
log.retention.hours=168

# Services create their topics explicitly.
auto.create.topics.enable=false

# Replication factor $rf for the internal topics and for topics created without
# one; min.insync.replicas=$min_isr (the consumer offsets topic has no setting of
# its own: it follows min.insync.replicas). Few partitions for the internal
# topics make the first consumer-group join / first transaction much faster.
default.replication.factor=$rf
min.insync.replicas=$min_isr
offsets.topic.replication.factor=$rf
offsets.topic.num.partitions=6
transaction.state.log.replication.factor=$rf
transaction.state.log.min.isr=$min_isr
transaction.state.log.num.partitions=6

# Fast consumer-group joins in development and tests.
group.initial.rebalance.delay.ms=0
group.min.session.timeout.ms=1000
EOF
  if [[ -n "$NODE_SASL_SSL_PORT" ]]; then
    cat >>"$NODE_PROPS" <<EOF

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
    kafka_tool kafka.admin.ConfigCommand --bootstrap-server "$KAFKA_HOST:$NODE_PORT" --alter \
      --add-config "$mech=[iterations=4096,password=$KAFKA_SASL_PASSWORD]" \
      --entity-type users --entity-name "$KAFKA_SASL_USERNAME" >>"$PIECE_LOG" 2>&1 ||
      die "setting the $mech credentials of $KAFKA_SASL_USERNAME failed" "See $PIECE_LOG"
  done
}

print_sasl_exports() {
  [[ -n "$KAFKA_SASL_SSL_PORT" ]] || return 0
  local i list=()
  for ((i = 1; i <= LAYOUT_NODES; i++)); do list+=("$KAFKA_HOST:$((KAFKA_SASL_SSL_PORT + (i - 1) * KAFKA_NODE_PORT_STEP))"); done
  print_export KAFKA_SASL_SSL_BROKERS "$(IFS=,; printf '%s' "${list[*]}")"
  print_export KAFKA_SASL_SSL_CA_FILE "$KAFKA_TLS/ca.pem"
}

ensure_formatted() {
  [[ -f "$NODE_DATA/meta.properties" ]] && return 0
  local id=""
  if [[ -s "$KAFKA_CLUSTER_ID_FILE" ]]; then
    id="$(tr -d '[:space:]' <"$KAFKA_CLUSTER_ID_FILE")"
  else
    id="$(kafka_tool kafka.tools.StorageTool random-uuid 2>>"$PIECE_LOG" | tail -n 1 | tr -d '[:space:]')"
    [[ "$id" =~ ^[A-Za-z0-9_-]{22}$ ]] ||
      die "could not generate a cluster id with kafka.tools.StorageTool random-uuid (got '$id')" "Look at $PIECE_LOG"
    printf '%s\n' "$id" >"$KAFKA_CLUSTER_ID_FILE"
  fi
  log "formatting storage in $NODE_DATA (cluster id $id) ..."
  echo "---- $(date '+%F %T') kafka.tools.StorageTool format ----" >>"$PIECE_LOG"
  if ! kafka_tool kafka.tools.StorageTool format -t "$id" -c "$NODE_PROPS" >>"$PIECE_LOG" 2>&1; then
    show_log_tail "$PIECE_LOG" 20
    die "formatting the Kafka storage in $NODE_DATA failed (log: $PIECE_LOG)" \
      "See the log lines above; to start from scratch remove $KAFKA_DIR"
  fi
}
