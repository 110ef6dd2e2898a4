#!/usr/bin/env bash
# npm run down — stops the services (gracefully) and the local infrastructure that `npm run up` started.
# `npm run down -- --keep-infra` stops only the services.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=scripts/lib/common.sh
source "$HERE/lib/common.sh"
source "$HERE/lib/services.sh"
PIECE=down

# Gateway first, so no new requests arrive while the services finish theirs.
for ((i = ${#APPS[@]} - 1; i >= 0; i--)); do stop_app "${APPS[$i]}"; done
# The provider fakes `PAYNOW_FAKE=1` / `DPO_FAKE=1` / `OZOW_FAKE=1 npm run up` started, if any.
for fake in paynow dpo ozow; do
  if pid="$(pidfile_read "$RUN_DIR/$fake-fake.pid" 2>/dev/null)" && pid_cmdline_has "$pid" "$fake-main"; then kill "$pid" 2>/dev/null || true; fi
  rm -f -- "$RUN_DIR/$fake-fake.pid"
done
if [[ "${1:-}" != "--keep-infra" ]]; then
  bash "$HERE/infra/down.sh"
fi
