#!/usr/bin/env bash
# Creates or updates the project's private Python virtualenv with a pinned schemathesis
# (the API fuzzer). Idempotent: does nothing when the pinned version is already installed.
# Prints the path of the schemathesis executable on its last line.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
VENV="$ROOT/.venv-fuzz"
SCHEMATHESIS_VERSION=4.32.5

python=""
for candidate in python3.13 python3.12 python3.11 python3.10 python3; do
  # A version manager's shim may exist without a working interpreter behind it: try it.
  if "$candidate" -c 'import sys, venv; sys.exit(sys.version_info < (3, 10))' >/dev/null 2>&1; then python="$candidate"; break; fi
done
[ -n "$python" ] || { echo "python3 (3.10 or newer) is required for the fuzz stage" >&2; exit 1; }

if [ ! -x "$VENV/bin/python" ]; then
  "$python" -m venv "$VENV" >&2
fi
if ! "$VENV/bin/python" -m pip show schemathesis 2>/dev/null | grep -qx "Version: $SCHEMATHESIS_VERSION"; then
  "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check "schemathesis==$SCHEMATHESIS_VERSION" >&2
fi
echo "$VENV/bin/schemathesis"
