#!/usr/bin/env bash
# Installs what the API-server check of the k8s overlays (scripts/deploy/apiserver.sh) runs,
# under .cache/ (git-ignored), once; later runs reuse it:
#   .cache/bin/kube-apiserver, .cache/bin/kubectl   Kubernetes (version in scripts/deploy/kube/go.mod),
#                                                   built from its Go modules
#   .cache/bin/etcd                                 etcd (version in scripts/deploy/etcd/go.mod)
#   .cache/keda-crds-<version>/                     KEDA's CRDs, from its Go module's config/crd
# Needs Go (and nothing else: every source comes through the Go module proxy). The first build
# compiles Kubernetes: minutes of CPU (docs/deploy.md has the figures). Prints nothing when
# everything is already there.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=scripts/lib/common.sh
source "$HERE/../lib/common.sh"
PIECE=apiserver-tools

KEDA_VERSION=v2.16.1 # the CRDs of ScaledObject and TriggerAuthentication
BIN="$CACHE_DIR/bin"
KEDA_CRDS="$CACHE_DIR/keda-crds-$KEDA_VERSION"

# required <go.mod> <module>: the version a go.mod requires (one place for every version).
required() {
  awk -v m="$2" '$1 == m && $2 ~ /^v/ { print $2; exit } $1 == "require" && $2 == m { print $3; exit }' "$1"
}
KUBE_VERSION="$(required "$HERE/kube/go.mod" k8s.io/kubernetes)"
ETCD_VERSION="$(required "$HERE/etcd/go.mod" go.etcd.io/etcd/server/v3)"
[[ -n "$KUBE_VERSION" && -n "$ETCD_VERSION" ]] || die "no Kubernetes or etcd version in scripts/deploy/{kube,etcd}/go.mod" "Restore those files"

need_go() {
  command -v go >/dev/null 2>&1 || die "Go is needed to build $1" "Install Go (https://go.dev/dl/) and run this again"
}

# Static binaries without symbol tables; every module is checked against the committed go.sum
# (-mod=readonly: go.mod is never rewritten).
build() { # build <module dir> <ldflags> <output file or directory/> <package...>
  local dir="$1" ldflags="$2" out="$3"
  shift 3
  mkdir -p "$BIN"
  CGO_ENABLED=0 GOFLAGS=-mod=readonly go -C "$dir" build -trimpath -ldflags "-s -w $ldflags" -o "$out" "$@"
}

version_of() { "$@" 2>/dev/null || true; }

if [[ "$(version_of "$BIN/kube-apiserver" --version)" != "Kubernetes $KUBE_VERSION" ||
  "$(version_of "$BIN/kubectl" version --client -o yaml | awk '$1 == "gitVersion:" { print $2 }')" != "$KUBE_VERSION" ]]; then
  need_go "kube-apiserver"
  log "building kube-apiserver and kubectl $KUBE_VERSION into ${BIN#"$ROOT"/} (minutes, once)"
  # Without these the binaries call themselves v0.0.0-master (component-base/version).
  major="${KUBE_VERSION#v}" && major="${major%%.*}"
  minor="${KUBE_VERSION#v*.}" && minor="${minor%%.*}"
  stamp="-X k8s.io/component-base/version.gitVersion=$KUBE_VERSION"
  stamp+=" -X k8s.io/component-base/version.gitMajor=$major -X k8s.io/component-base/version.gitMinor=$minor"
  stamp+=" -X k8s.io/component-base/version.gitTreeState=clean"
  start="$(now_s)"
  build "$HERE/kube" "$stamp" "$BIN/" k8s.io/kubernetes/cmd/kube-apiserver k8s.io/kubernetes/cmd/kubectl ||
    die "go build of kube-apiserver and kubectl failed" "Check that the Go module proxy is reachable"
  log "kube-apiserver and kubectl built in $(elapsed_since "$start")s"
fi

if [[ "$(version_of "$BIN/etcd" --version | awk 'NR == 1 { print "v" $3 }')" != "$ETCD_VERSION" ]]; then
  need_go "etcd"
  log "building etcd $ETCD_VERSION into ${BIN#"$ROOT"/}"
  start="$(now_s)"
  # (etcd's main package is the module's root, go.etcd.io/etcd/server/v3/main.go.)
  build "$HERE/etcd" "" "$BIN/etcd" go.etcd.io/etcd/server/v3 || die "go build of etcd failed" "Check that the Go module proxy is reachable"
  log "etcd built in $(elapsed_since "$start")s"
fi

if [[ ! -f "$KEDA_CRDS/keda.sh_scaledobjects.yaml" ]]; then
  need_go "the KEDA CRDs"
  log "fetching the CRDs of KEDA $KEDA_VERSION into ${KEDA_CRDS#"$ROOT"/}"
  dir="$(GOFLAGS=-mod=mod go mod download -json "github.com/kedacore/keda/v2@$KEDA_VERSION" | awk -F'"' '$2 == "Dir" { print $4 }')" ||
    die "go mod download of KEDA $KEDA_VERSION failed" "Check that the Go module proxy is reachable"
  [[ -d "$dir/config/crd/bases" ]] || die "KEDA $KEDA_VERSION has no config/crd/bases" "Pick a KEDA version that does"
  rm -rf -- "$KEDA_CRDS.tmp"
  mkdir -p "$KEDA_CRDS.tmp"
  cp "$dir"/config/crd/bases/*.yaml "$KEDA_CRDS.tmp/"
  chmod u+w "$KEDA_CRDS.tmp"/*.yaml
  rm -rf -- "$KEDA_CRDS"
  mv "$KEDA_CRDS.tmp" "$KEDA_CRDS"
fi
