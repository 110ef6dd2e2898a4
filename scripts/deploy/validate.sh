#!/usr/bin/env bash
# CI validation of the deployment files (run by .ci/run; fine to run by hand):
#   1. renders every overlay under k8s/overlays/ with kustomize into .cache/rendered/<overlay>.yaml,
#   2. validates every rendered object strictly (unknown fields are errors) against the
#      Kubernetes schemas of 1.27 through 1.33; KEDA's objects, which those schemas do not know,
#      against the schemas shipped in scripts/deploy/schemas/ (validate.py),
#   3. validates docker-compose.yml against the compose specification.
# With DEPLOY_APISERVER=1 it also builds what tests/deploy/apiserver.spec.ts (the overlays applied
# to a real kube-apiserver) needs, so that the `deploy` Jest project runs that file too: minutes
# of compiling on a fresh machine (docs/deploy.md, "Checks").
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=scripts/lib/common.sh
source "$HERE/../lib/common.sh"
PIECE=deploy-validate

bash "$HERE/tools.sh"
[[ "${DEPLOY_APISERVER:-0}" != 1 ]] || bash "$HERE/apiserver-tools.sh"
OUT="$CACHE_DIR/rendered"
mkdir -p "$OUT"
rendered=()
for dir in "$ROOT"/k8s/overlays/*/; do
  overlay="$(basename "$dir")"
  "$CACHE_DIR/bin/kustomize" build "$dir" >"$OUT/$overlay.yaml" || die "kustomize build of k8s/overlays/$overlay failed" "See the error above"
  rendered+=("$OUT/$overlay.yaml")
done
"$CACHE_DIR/deploy-venv/bin/python" "$HERE/validate.py" --schemas "$HERE/schemas" "${rendered[@]}"
"$CACHE_DIR/deploy-venv/bin/check-jsonschema" --builtin-schema vendor.compose-spec "$ROOT/docker-compose.yml"
log "every overlay and docker-compose.yml are valid"
