#!/usr/bin/env bash
# A throw-away Kubernetes API server for checking the k8s overlays against the real thing
# (tests/deploy/apiserver.spec.ts uses it; docs/deploy.md):
#
#   bash scripts/deploy/apiserver.sh up <dir> [<owner pid>]
#       builds the binaries when missing (scripts/deploy/apiserver-tools.sh), then starts etcd
#       and kube-apiserver on free local ports with their state, certificates and logs in <dir>
#       (created, must not exist), installs KEDA's CRDs and waits until they are served.
#       <dir>/kubeconfig is the cluster admin's (client certificate in system:masters).
#       With <owner pid>, both servers are stopped as soon as that process ends, whatever way.
#   bash scripts/deploy/apiserver.sh down <dir>
#       stops both servers and removes <dir>.
#
# No controller runs (no kube-controller-manager, no scheduler, no kubelet): objects are stored
# and admitted (defaulting, validation, the default admission plugins, Pod Security included)
# but nothing reconciles them.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=scripts/lib/common.sh
source "$HERE/../lib/common.sh"
PIECE=apiserver

BIN="$CACHE_DIR/bin"
START_TIMEOUT="${APISERVER_START_TIMEOUT:-180}"

usage() { die "usage: apiserver.sh up <dir> [<owner pid>] | down <dir>"; }

# A TCP port nothing listens on, below the kernel's range of ephemeral ports: a port inside it can
# be the local end of any outgoing connection (the other overlay's apiserver talking to its etcd,
# say), which nothing listens on but which still makes a bind fail ("address already in use").
# Not one of the ports given as arguments. The server binding it a moment later is still not
# guaranteed, but a collision shows as that server failing to start, named in the error.
free_port() {
  local port low=10000 high=32768 taken=" $* "
  if [[ -r /proc/sys/net/ipv4/ip_local_port_range ]]; then
    read -r high _ </proc/sys/net/ipv4/ip_local_port_range
  fi
  ((high > low + 1000)) || high=$((low + 20000))
  while true; do
    port=$((low + RANDOM % (high - low)))
    [[ "$taken" != *" $port "* ]] || continue
    port_open 127.0.0.1 "$port" || { printf '%s\n' "$port"; return; }
  done
}

stop() { # stop <dir>: the servers whose pid files are in <dir>, apiserver first
  local dir="$1" name pid
  for name in kube-apiserver etcd; do
    if pid="$(pidfile_read "$dir/$name.pid")" && pid_cmdline_has "$pid" "$BIN/$name"; then
      kill "$pid" 2>/dev/null || true
      wait_pid_exit "$pid" 30 || kill -9 "$pid" 2>/dev/null || true
    fi
    pidfile_remove "$dir/$name.pid"
  done
}

certificates() { # certificates <dir>: a CA, the server's and the admin's certificates, the SA key
  local dir="$1"
  (
    cd "$dir"
    openssl req -x509 -newkey rsa:2048 -nodes -keyout ca.key -out ca.crt -days 2 -subj /CN=deploy-check-ca
    openssl req -newkey rsa:2048 -nodes -keyout server.key -out server.csr -subj /CN=kube-apiserver
    printf 'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n' >server.ext
    openssl x509 -req -in server.csr -CA ca.crt -CAkey ca.key -CAcreateserial -out server.crt -days 2 -extfile server.ext
    # The admin: any user in the group system:masters is allowed everything by RBAC.
    openssl req -newkey rsa:2048 -nodes -keyout admin.key -out admin.csr -subj "/O=system:masters/CN=deploy-check-admin"
    printf 'extendedKeyUsage=clientAuth\n' >admin.ext
    openssl x509 -req -in admin.csr -CA ca.crt -CAkey ca.key -CAcreateserial -out admin.crt -days 2 -extfile admin.ext
    openssl genrsa -out sa.key 2048
    openssl rsa -in sa.key -pubout -out sa.pub
  ) >"$dir/openssl.log" 2>&1 || { show_log_tail "$dir/openssl.log"; die "openssl failed to make the certificates"; }
}

up() {
  local dir="$1" owner="${2:-}"
  [[ ! -e "$dir" ]] || die "$dir already exists" "Give a directory that does not exist (it is removed by down)"
  bash "$HERE/apiserver-tools.sh"
  command -v openssl >/dev/null 2>&1 || ensure_apt_package openssl openssl
  mkdir -p "$dir"
  dir="$(cd "$dir" && pwd -P)"
  PIECE_LOG="$dir/kube-apiserver.log"
  # Whatever fails from here on leaves nothing running.
  trap 'status=$?; [[ $status -eq 0 ]] || stop "$dir"' EXIT
  certificates "$dir"

  local etcd_port peer_port port
  etcd_port="$(free_port)"
  peer_port="$(free_port "$etcd_port")"
  port="$(free_port "$etcd_port" "$peer_port")"

  # State that is thrown away: no fsync.
  "$BIN/etcd" --name check --data-dir "$dir/etcd" --unsafe-no-fsync \
    --listen-client-urls "http://127.0.0.1:$etcd_port" --advertise-client-urls "http://127.0.0.1:$etcd_port" \
    --listen-peer-urls "http://127.0.0.1:$peer_port" --initial-advertise-peer-urls "http://127.0.0.1:$peer_port" \
    --initial-cluster "check=http://127.0.0.1:$peer_port" --log-level warn \
    </dev/null >"$dir/etcd.log" 2>&1 9>&- &
  pidfile_write "$dir/etcd.pid" "$!"

  # Authorization RBAC (the admin is in system:masters); admission: the default plugins of this
  # release (NamespaceLifecycle, LimitRanger, ServiceAccount, PodSecurity, ...).
  "$BIN/kube-apiserver" \
    --etcd-servers "http://127.0.0.1:$etcd_port" \
    --bind-address 127.0.0.1 --advertise-address 127.0.0.1 --secure-port "$port" \
    --cert-dir "$dir" --tls-cert-file "$dir/server.crt" --tls-private-key-file "$dir/server.key" \
    --client-ca-file "$dir/ca.crt" --anonymous-auth=false \
    --authorization-mode RBAC \
    --service-account-issuer https://kubernetes.default.svc.cluster.local \
    --service-account-key-file "$dir/sa.pub" --service-account-signing-key-file "$dir/sa.key" \
    --service-cluster-ip-range 10.96.0.0/16 \
    --allow-privileged=false --profiling=false \
    </dev/null >"$dir/kube-apiserver.log" 2>&1 9>&- &
  pidfile_write "$dir/kube-apiserver.pid" "$!"

  if [[ -n "$owner" ]]; then
    # Stops both servers when the owner ends (a test run that crashed or was interrupted).
    (
      tail --pid="$owner" -f /dev/null
      stop "$dir"
    ) </dev/null >/dev/null 2>&1 9>&- &
    pidfile_write "$dir/watchdog.pid" "$!"
    disown
  fi

  local kubeconfig="$dir/kubeconfig"
  KUBECONFIG="$kubeconfig" "$BIN/kubectl" config set-cluster check --server "https://127.0.0.1:$port" \
    --certificate-authority "$dir/ca.crt" --embed-certs >/dev/null
  KUBECONFIG="$kubeconfig" "$BIN/kubectl" config set-credentials admin \
    --client-certificate "$dir/admin.crt" --client-key "$dir/admin.key" --embed-certs >/dev/null
  KUBECONFIG="$kubeconfig" "$BIN/kubectl" config set-context check --cluster check --user admin >/dev/null
  KUBECONFIG="$kubeconfig" "$BIN/kubectl" config use-context check >/dev/null

  ready() {
    local name
    for name in etcd kube-apiserver; do
      pidfile_read "$dir/$name.pid" >/dev/null || {
        show_log_tail "$dir/$name.log" 30
        die "$name exited during startup (log: $dir/$name.log)"
      }
    done
    KUBECONFIG="$kubeconfig" "$BIN/kubectl" get --raw /readyz >/dev/null 2>&1
  }
  local start
  start="$(now_s)"
  wait_for "kube-apiserver on port $port to be ready" "$START_TIMEOUT" ready

  # KEDA's CRDs, so that its objects (ScaledObject, TriggerAuthentication) are validated too.
  local crd files=()
  for crd in "$CACHE_DIR"/keda-crds-*/keda.sh_*.yaml; do
    [[ -f "$crd" ]] && files+=(-f "$crd")
  done
  [[ ${#files[@]} -gt 0 ]] || die "no KEDA CRDs under ${CACHE_DIR#"$ROOT"/}" "Run bash scripts/deploy/apiserver-tools.sh"
  KUBECONFIG="$kubeconfig" "$BIN/kubectl" apply --server-side --field-manager deploy-check "${files[@]}" >"$dir/crds.log" 2>&1 ||
    { show_log_tail "$dir/crds.log"; die "installing KEDA's CRDs failed"; }
  KUBECONFIG="$kubeconfig" "$BIN/kubectl" wait --for condition=Established --timeout "${START_TIMEOUT}s" "${files[@]}" >>"$dir/crds.log" 2>&1 ||
    { show_log_tail "$dir/crds.log"; die "KEDA's CRDs were not established"; }
  log "kube-apiserver $("$BIN/kube-apiserver" --version | awk '{ print $2 }') ready on https://127.0.0.1:$port in $(elapsed_since "$start")s (kubeconfig: $kubeconfig)"
}

down() {
  local dir="$1"
  [[ -d "$dir" ]] || return 0
  local watchdog
  if watchdog="$(pidfile_read "$dir/watchdog.pid")"; then
    pkill -P "$watchdog" 2>/dev/null || true # its `tail --pid`
    kill "$watchdog" 2>/dev/null || true
  fi
  stop "$dir"
  rm -rf -- "$dir"
}

case "${1:-}" in
  up) [[ $# -ge 2 && $# -le 3 ]] || usage; up "$2" "${3:-}" ;;
  down) [[ $# -eq 2 ]] || usage; down "$2" ;;
  *) usage ;;
esac
