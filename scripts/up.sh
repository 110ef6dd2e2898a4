#!/usr/bin/env bash
# npm run up — starts the whole system locally, without Docker:
#   dependencies (npm ci) → PostgreSQL, Redis, Kafka (scripts/infra) → build → the four services
#   (each migrates its own database on boot) → waits for every /health/ready → a demo business.
# Running it again reuses whatever is already running. `npm run down` stops everything.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=scripts/lib/common.sh
source "$HERE/lib/common.sh"
source "$HERE/lib/node.sh"
source "$HERE/lib/services.sh"
PIECE=up
READY_TIMEOUT="${READY_TIMEOUT:-120}"
mkdir -p -- "$LOCAL_DIR" "$LOG_DIR" "$RUN_DIR"

ensure_node_deps
bash "$HERE/infra/up.sh"
# shellcheck disable=SC1090
source "$INFRA_ENV_FILE"
build_all

# The admin token: the caller's, else one generated once and kept in .local/admin-token.
if [[ -z "${ADMIN_API_TOKEN:-}" ]]; then
  if [[ ! -s "$LOCAL_DIR/admin-token" ]]; then
    node -e 'process.stdout.write("adm_"+require("crypto").randomBytes(24).toString("base64url"))' >"$LOCAL_DIR/admin-token"
    chmod 600 "$LOCAL_DIR/admin-token"
  fi
  ADMIN_API_TOKEN="$(cat "$LOCAL_DIR/admin-token")"
fi
export ADMIN_API_TOKEN

# The key of the signed gateway -> service RPC envelope, kept like the admin token.
if [[ -z "${INTERNAL_RPC_SECRET:-}" ]]; then
  if [[ ! -s "$LOCAL_DIR/internal-rpc-secret" ]]; then
    node -e 'process.stdout.write(require("crypto").randomBytes(32).toString("base64url"))' >"$LOCAL_DIR/internal-rpc-secret"
    chmod 600 "$LOCAL_DIR/internal-rpc-secret"
  fi
  INTERNAL_RPC_SECRET="$(cat "$LOCAL_DIR/internal-rpc-secret")"
fi
export INTERNAL_RPC_SECRET

# The key transaction-service encrypts the businesses' provider credentials with (base64 of 32
# bytes), kept like the RPC secret: replacing it makes the stored credentials unreadable.
if [[ -z "${PROVIDER_CREDENTIALS_KEY:-}" ]]; then
  if [[ ! -s "$LOCAL_DIR/provider-credentials-key" ]]; then
    node -e 'process.stdout.write(require("crypto").randomBytes(32).toString("base64"))' >"$LOCAL_DIR/provider-credentials-key"
    chmod 600 "$LOCAL_DIR/provider-credentials-key"
  fi
  PROVIDER_CREDENTIALS_KEY="$(cat "$LOCAL_DIR/provider-credentials-key")"
fi
export PROVIDER_CREDENTIALS_KEY
export CHECKOUT_URL="${CHECKOUT_URL:-http://localhost:$GATEWAY_PORT/checkout}"
# Where providers post status updates and customers come back (transaction-service builds the URLs).
export PUBLIC_BASE_URL="${PUBLIC_BASE_URL:-http://localhost:$GATEWAY_PORT}"
# A local stack gives up on a failing webhook endpoint after three quick retries (about 35 s)
# instead of the default's 28 hours, so a failed delivery can be seen and resent while trying the
# dashboard (docs/dashboard.md, "Trying it"). Deployments keep the default.
export WEBHOOK_RETRY_SCHEDULE="${WEBHOOK_RETRY_SCHEDULE:-5,10,20}"

# start_fake NAME PORT: starts tests/support/fakes/NAME-main.ts on PORT (unless something listens
# there already) with the rest of the arguments; only the node process goes to the background (its
# own pid in $RUN_DIR/NAME-fake.pid, for npm run down).
start_fake() {
  local name="$1" port="$2"
  shift 2
  if ! port_open 127.0.0.1 "$port"; then
    mkdir -p -- "$RUN_DIR"
    (
      cd "$ROOT" || exit 1
      nohup node scripts/ts-run.js "tests/support/fakes/$name-main.ts" --port "$port" "$@" >"$LOG_DIR/$name-fake.log" 2>&1 &
      echo $! >"$RUN_DIR/$name-fake.pid"
    )
    for _ in $(seq 1 100); do port_open 127.0.0.1 "$port" && break; sleep 0.1; done
    port_open 127.0.0.1 "$port" || die "the $name fake did not start" "See $LOG_DIR/$name-fake.log"
  fi
}

# PAYNOW_FAKE=1, DPO_FAKE=1, OZOW_FAKE=1: local providers that follow their published protocols
# (tests/support/fakes), so a live payment can be tried without an account (docs/going-live.md,
# "Trying it locally").
if [[ "${PAYNOW_FAKE:-0}" == 1 ]]; then
  PAYNOW_FAKE_PORT="${PAYNOW_FAKE_PORT:-8089}"
  start_fake paynow "$PAYNOW_FAKE_PORT" --integration "1201:3e9fed89-60e1-4ce5-ab6e-6b1eb2d4f977"
  export PAYNOW_API_URL="http://127.0.0.1:$PAYNOW_FAKE_PORT"
  log "Paynow fake on $PAYNOW_API_URL (integration 1201)"
fi
if [[ "${DPO_FAKE:-0}" == 1 ]]; then
  DPO_FAKE_PORT="${DPO_FAKE_PORT:-8090}"
  # DPO pushes every payment of the account to one URL.
  start_fake dpo "$DPO_FAKE_PORT" --company "9F416C11-127B-4DE2-AC7F-D5710E4C5E0A" --push-url "$PUBLIC_BASE_URL/v1/provider-notifications/dpo"
  export DPO_API_URL="http://127.0.0.1:$DPO_FAKE_PORT"
  log "DPO Pay fake on $DPO_API_URL (company token 9F416C11-127B-4DE2-AC7F-D5710E4C5E0A, service type 3854)"
fi
if [[ "${OZOW_FAKE:-0}" == 1 ]]; then
  OZOW_FAKE_PORT="${OZOW_FAKE_PORT:-8091}"
  start_fake ozow "$OZOW_FAKE_PORT" --site "TSTSTE0001:215114531AFF7134A94C88CEEA48E:ozow-fake-api-key"
  export OZOW_API_URL="http://127.0.0.1:$OZOW_FAKE_PORT"
  log "Ozow fake on $OZOW_API_URL (site TSTSTE0001)"
fi

for app in "${APPS[@]}"; do start_app "$app"; done
for app in "${APPS[@]}"; do wait_ready "$app" "$READY_TIMEOUT"; done
PIECE=up

GATEWAY_URL="http://localhost:$GATEWAY_PORT"
DEMO_FILE="$LOCAL_DIR/demo-business.json"
# Reuse the demo business while its test secret key still works; otherwise create a new one.
if [[ -s "$DEMO_FILE" ]]; then
  key="$(node -p 'JSON.parse(require("fs").readFileSync(process.argv[1])).api_keys.test.secret' "$DEMO_FILE")"
  code="$(node -e 'fetch(process.argv[1]+"/v1/transactions/verify?reference=demo-probe",{headers:{authorization:"Bearer "+process.argv[2]}}).then(r=>console.log(r.status),()=>console.log(0))' "$GATEWAY_URL" "$key")"
  [[ "$code" == 404 ]] || rm -f -- "$DEMO_FILE"
fi
if [[ ! -s "$DEMO_FILE" ]]; then
  node -e '
    const [url, token, file] = process.argv.slice(1);
    fetch(url + "/admin/v1/businesses", { method: "POST", headers: { authorization: "Bearer " + token, "content-type": "application/json" }, body: JSON.stringify({ name: "Demo Store" }) })
      .then(async (r) => { const b = await r.text(); if (r.status !== 201) { console.error(b); process.exit(1); } require("fs").writeFileSync(file, b, { mode: 0o600 }); })
      .catch((e) => { console.error(e.message); process.exit(1); });
  ' "$GATEWAY_URL" "$ADMIN_API_TOKEN" "$DEMO_FILE" || die "could not create the demo business through the admin API" "See $LOG_DIR/gateway.log"
fi

# The demo business's dashboard owner: created with the business (kept in .local/demo-dashboard-user.json,
# with the password generated for it); a new demo business gets a new one.
DEMO_USER_FILE="$LOCAL_DIR/demo-dashboard-user.json"
business_id="$(node -p 'JSON.parse(require("fs").readFileSync(process.argv[1])).business.id' "$DEMO_FILE")"
if [[ ! -s "$DEMO_USER_FILE" ]] || [[ "$(node -p 'JSON.parse(require("fs").readFileSync(process.argv[1])).business_id' "$DEMO_USER_FILE")" != "$business_id" ]]; then
  node -e '
    const [url, token, file, id] = process.argv.slice(1);
    const email = `owner-${id}-${require("crypto").randomBytes(3).toString("hex")}@demo.example`;
    const password = require("crypto").randomBytes(12).toString("base64url");
    fetch(`${url}/admin/v1/businesses/${id}/users`, { method: "POST", headers: { authorization: "Bearer " + token, "content-type": "application/json" }, body: JSON.stringify({ email, password, role: "owner" }) })
      .then(async (r) => { const b = await r.text(); if (r.status !== 201) { console.error(b); process.exit(1); } require("fs").writeFileSync(file, JSON.stringify({ business_id: Number(id), email, password }), { mode: 0o600 }); })
      .catch((e) => { console.error(e.message); process.exit(1); });
  ' "$GATEWAY_URL" "$ADMIN_API_TOKEN" "$DEMO_USER_FILE" "$business_id" || die "could not create the demo dashboard user through the admin API" "See $LOG_DIR/gateway.log"
fi

node -e '
  const d = JSON.parse(require("fs").readFileSync(process.argv[1]));
  const [url, token, userFile] = process.argv.slice(2);
  const u = JSON.parse(require("fs").readFileSync(userFile));
  const k = d.api_keys.test;
  console.log(`
Payments platform is up.

  Gateway URL        ${url}
  Demo business      #${d.business.id} ${d.business.name}
  Test secret key    ${k.secret}
  Test public key    ${k.public}
  Admin API token    ${token}
  Dashboard          ${url}/dashboard
    sign in as       ${u.email}
    password         ${u.password}   (owner; starts in test mode)
  Logs               .local/logs/   (stop everything: npm run down)

Try it:
  curl -s -X POST ${url}/v1/transactions -H "Authorization: Bearer ${k.secret}" -H "Content-Type: application/json" \\
    -d "{\\"amount\\":1000,\\"email\\":\\"buyer@example.com\\",\\"currency\\":\\"USD\\",\\"payment_method_type\\":\\"mobile_money\\",\\"payment_method_code\\":\\"ecocash\\",\\"mobile_money_number\\":\\"0771234567\\",\\"requested_response\\":\\"success\\",\\"transaction_reference\\":\\"order-1\\"}"
  curl -s "${url}/v1/transactions/verify?reference=order-1" -H "Authorization: Bearer ${k.secret}"
`);
' "$DEMO_FILE" "$GATEWAY_URL" "$ADMIN_API_TOKEN" "$DEMO_USER_FILE"
