# Sourced by the postgres image's entrypoint on the first start (empty data directory): each
# app's database with its migration role and serving role (roles.sql), the role names and
# passwords taken from the very DATABASE_URLs the apps are given (env of the StatefulSet).
create_app_database() { # <database> <serving DATABASE_URL> <migration DATABASE_URL>
  local app_user app_pass mig_user mig_pass
  app_user="${2#*://}"; app_pass="${app_user#*:}"; app_user="${app_user%%:*}"; app_pass="${app_pass%%@*}"
  mig_user="${3#*://}"; mig_pass="${mig_user#*:}"; mig_user="${mig_user%%:*}"; mig_pass="${mig_pass%%@*}"
  psql -X -q -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --dbname postgres -f /sql/roles.sql \
    -v db="$1" -v app="$app_user" -v app_password="$app_pass" -v migrator="$mig_user" -v migrator_password="$mig_pass"
}
create_app_database payments_gateway "$GATEWAY_APP_URL" "$GATEWAY_MIGRATOR_URL"
create_app_database payments_transactions "$TRANSACTIONS_APP_URL" "$TRANSACTIONS_MIGRATOR_URL"
create_app_database payments_ledger "$LEDGER_APP_URL" "$LEDGER_MIGRATOR_URL"
create_app_database payments_webhooks "$WEBHOOKS_APP_URL" "$WEBHOOKS_MIGRATOR_URL"
