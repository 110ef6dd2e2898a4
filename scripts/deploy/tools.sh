#!/usr/bin/env bash
# Installs the deployment tooling under .cache/ (git-ignored), once; later runs reuse it:
#   .cache/bin/kustomize          kustomize, built with `go install` at the pinned version
#   .cache/deploy-venv/           kubernetes-validate and check-jsonschema (requirements.txt)
# Needs Go and Python 3 with venv; prints nothing when everything is already there.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=scripts/lib/common.sh
source "$HERE/../lib/common.sh"
PIECE=deploy-tools

# One install at a time: CI validates the overlays while the test suite starts, and the deploy
# tests install kustomize themselves when it is missing.
lock_piece deploy-tools 900

KUSTOMIZE_VERSION=v5.8.0 # tests/deploy read the binary's version from `kustomize version`
KUSTOMIZE="$CACHE_DIR/bin/kustomize"
VENV="$CACHE_DIR/deploy-venv"

if [[ ! -x "$KUSTOMIZE" || "$("$KUSTOMIZE" version 2>/dev/null)" != "$KUSTOMIZE_VERSION" ]]; then
  command -v go >/dev/null 2>&1 || die "Go is needed to install kustomize" "Install Go (https://go.dev/dl/) and run this again"
  log "installing kustomize $KUSTOMIZE_VERSION into ${KUSTOMIZE#"$ROOT"/}"
  mkdir -p "$CACHE_DIR/bin"
  GOBIN="$CACHE_DIR/bin" GOFLAGS=-mod=mod go install "sigs.k8s.io/kustomize/kustomize/v5@$KUSTOMIZE_VERSION" ||
    die "go install of kustomize failed" "Check that the Go module proxy is reachable"
fi

# The venv is rebuilt when requirements.txt changes (its copy inside the venv differs).
if ! cmp -s "$HERE/requirements.txt" "$VENV/requirements.txt" 2>/dev/null; then
  command -v python3 >/dev/null 2>&1 || die "Python 3 is needed for the manifest validation" "Install python3 and python3-venv"
  # Debian's python3 ships venv without ensurepip: that is the python3-venv package.
  python3 -c 'import ensurepip' >/dev/null 2>&1 || ensure_apt_package python3-venv "python3 -m venv"
  log "installing kubernetes-validate and check-jsonschema into ${VENV#"$ROOT"/}"
  rm -rf -- "$VENV"
  python3 -m venv "$VENV" || die "python3 -m venv failed" "Install the python3-venv package"
  "$VENV/bin/pip" install --quiet --disable-pip-version-check -r "$HERE/requirements.txt" ||
    die "pip install failed" "Check that PyPI is reachable"
  cp "$HERE/requirements.txt" "$VENV/requirements.txt"
fi
