#!/usr/bin/env bash
# Installs the fuzz stage's tooling under .cache/ (git-ignored), once; later runs reuse it:
#   .cache/fuzz-venv/   schemathesis at the version pinned in requirements.txt
# Needs Python 3 with venv and PyPI. Prints the path of the schemathesis executable on stdout.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=scripts/lib/common.sh
source "$HERE/../lib/common.sh"
PIECE=fuzz-tools

VENV="$CACHE_DIR/fuzz-venv"

# The venv is rebuilt when requirements.txt changes (its copy inside the venv differs).
if ! cmp -s "$HERE/requirements.txt" "$VENV/requirements.txt" 2>/dev/null; then
  command -v python3 >/dev/null 2>&1 || die "Python 3 is needed for the fuzz stage" "Install python3 and python3-venv"
  # Debian's python3 ships venv without ensurepip: that is the python3-venv package.
  python3 -c 'import ensurepip' >/dev/null 2>&1 || ensure_apt_package python3-venv "python3 -m venv"
  log "installing schemathesis into ${VENV#"$ROOT"/}"
  rm -rf -- "$VENV"
  python3 -m venv "$VENV" >&2 || die "python3 -m venv failed" "Install the python3-venv package"
  "$VENV/bin/pip" install --quiet --disable-pip-version-check -r "$HERE/requirements.txt" >&2 ||
    die "pip install failed" "Check that PyPI is reachable"
  cp "$HERE/requirements.txt" "$VENV/requirements.txt"
fi
echo "$VENV/bin/schemathesis"
