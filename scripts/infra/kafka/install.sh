# Sourced by scripts/infra/kafka.sh: Java, the Kafka jars from Maven Central (scripts/infra/kafka/pom.xml)
# and running a Kafka tool class with them.
# Uses die and ensure_apt_package from scripts/lib/common.sh and the KAFKA_* settings of the caller.
# shellcheck shell=bash

ensure_java() {
  local how="java 17 + maven needed: apt-get install -y openjdk-17-jre-headless maven"
  command -v java >/dev/null 2>&1 || die "java not found" "$how"
  local major
  major="$(java -XshowSettings:properties -version 2>&1 | awk -F' = ' '/java.specification.version/ { print $2 }')"
  major="${major#1.}"
  [[ "$major" =~ ^[0-9]+$ ]] || die "cannot determine the java version (java -version failed?)" "$how"
  ((major >= 11)) || die "java $major is too old for Kafka $KAFKA_VERSION" "$how"
}

# Fetches the jars only when the cache has no kafka_2.13-3.9.1.jar yet. The
# download goes to a temporary folder renamed at the end, so an interrupted
# fetch never leaves a half-filled libs folder that would look complete.
ensure_jars() {
  [[ -f "$KAFKA_MAIN_JAR" ]] && return 0
  command -v mvn >/dev/null 2>&1 ||
    die "mvn not found (needed once to download the Kafka jars)" \
      "java 17 + maven needed: apt-get install -y openjdk-17-jre-headless maven"
  local tmp="$KAFKA_LIBS.tmp.$$" t0
  t0="$(now_s)"
  mkdir -p -- "$(dirname -- "$KAFKA_LIBS")" "$LOG_DIR"
  rm -rf -- "$KAFKA_LIBS".tmp.* # leftovers of an interrupted fetch (runs are serialised by the lock)
  log "downloading Kafka $KAFKA_VERSION jars from Maven Central into $KAFKA_LIBS (once; log: $FETCH_LOG) ..."
  if ! mvn -q -B -f "$KAFKA_POM" dependency:copy-dependencies -DoutputDirectory="$tmp" \
    </dev/null >"$FETCH_LOG" 2>&1; then
    rm -rf -- "$tmp"
    show_log_tail "$FETCH_LOG" 20
    die "downloading the Kafka jars from Maven Central failed (log: $FETCH_LOG)" \
      "Check network access to https://repo.maven.apache.org (or your ~/.m2/settings.xml mirror) and re-run"
  fi
  [[ -f "$tmp/kafka_2.13-$KAFKA_VERSION.jar" ]] || {
    rm -rf -- "$tmp"
    die "maven finished but kafka_2.13-$KAFKA_VERSION.jar is missing (log: $FETCH_LOG)" "Check $KAFKA_POM"
  }
  rm -rf -- "$KAFKA_LIBS"
  mv -- "$tmp" "$KAFKA_LIBS"
  log "jars ready ($(find "$KAFKA_LIBS" -name '*.jar' | wc -l) files) in $(elapsed_since "$t0")s"
}

# Runs a short-lived Kafka tool class (C1-only JIT: faster start-up).
kafka_tool() {
  java -Xmx256m -XX:TieredStopAtLevel=1 -Djava.awt.headless=true \
    -Dlog4j.configuration="file:$KAFKA_LOG4J" -cp "$KAFKA_LIBS/*" "$@" 9>&- </dev/null
}
