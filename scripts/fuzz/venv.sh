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

# CPython before 3.11.8 / 3.12.1 can raise a spurious "SystemError: AST constructor recursion
# depth mismatch" (CPython gh-106905), which hypothesis runs into now and then and which crashes a
# fuzz run without any failed check. Prefer an interpreter with the fix: the newest python3.x on
# PATH, then pyenv's installed versions, then plain python3 (the run is then retried once on a crash).
fixed_python() {
  local c
  local candidates=(python3.14 python3.13 python3.12 python3 python3.11)
  if command -v pyenv >/dev/null 2>&1; then
    mapfile -t -O "${#candidates[@]}" candidates < <(ls -d "$(pyenv root)"/versions/3.*/bin/python3 2>/dev/null | sort -V -r)
  fi
  for c in "${candidates[@]}"; do
    "$c" -c 'import sys, ensurepip; v = sys.version_info[:3]
sys.exit(0 if v >= (3, 12, 1) or (3, 11, 8) <= v < (3, 12) else 1)' >/dev/null 2>&1 && { echo "$c"; return; }
  done
  return 1
}
PYTHON="$(fixed_python || echo python3)"

# The venv is rebuilt when requirements.txt or the interpreter's version changes.
want="$("$PYTHON" -c 'import sys; print(sys.version)' 2>/dev/null || true)"
have="$("$VENV/bin/python" -c 'import sys; print(sys.version)' 2>/dev/null || true)"
if ! cmp -s "$HERE/requirements.txt" "$VENV/requirements.txt" 2>/dev/null || [[ "$want" != "$have" ]]; then
  command -v "$PYTHON" >/dev/null 2>&1 || die "Python 3 is needed for the fuzz stage" "Install python3 and python3-venv"
  # Debian's python3 ships venv without ensurepip: that is the python3-venv package.
  "$PYTHON" -c 'import ensurepip' >/dev/null 2>&1 || ensure_apt_package python3-venv "python3 -m venv"
  log "installing schemathesis into ${VENV#"$ROOT"/} ($("$PYTHON" --version 2>&1))"
  rm -rf -- "$VENV"
  "$PYTHON" -m venv "$VENV" >&2 || die "python3 -m venv failed" "Install the python3-venv package"
  "$VENV/bin/pip" install --quiet --disable-pip-version-check -r "$HERE/requirements.txt" >&2 ||
    die "pip install failed" "Check that PyPI is reachable"
  cp "$HERE/requirements.txt" "$VENV/requirements.txt"
fi
echo "$VENV/bin/schemathesis"
