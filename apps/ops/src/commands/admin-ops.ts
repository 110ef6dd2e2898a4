import { Client } from 'pg';
import { required, UsageError, type Parsed } from '../args';
import type { OpsConfig } from '../ops.config';

/** `ops business create --name "Acme"`: the admin API, printing the four keys (shown once). */
export async function createBusinessCommand(config: OpsConfig, p: Parsed): Promise<void> {
  if (!config.ADMIN_API_TOKEN) throw new UsageError('ADMIN_API_TOKEN must be set');
  const res = await fetch(`${config.GATEWAY_URL}/admin/v1/businesses`, {
    method: 'POST',
    headers: { authorization: `Bearer ${config.ADMIN_API_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: required(p, 'name') }),
  });
  const body = (await res.json()) as Record<string, unknown>;
  if (res.status !== 201) throw new Error(`admin API answered ${res.status}: ${JSON.stringify(body)}`);
  console.log(JSON.stringify(body, null, 2));
}

/**
 * `ops webhooks recover --business ID --since ISO [--mode test|live]`: queues again every failed
 * delivery of the business's active callbacks created since then (webhook-dispatcher's database).
 */
export async function recoverWebhooksCommand(config: OpsConfig, p: Parsed): Promise<void> {
  const business = Number(required(p, 'business'));
  if (!Number.isInteger(business) || business < 1) throw new UsageError('--business must be a business id');
  const since = required(p, 'since');
  if (Number.isNaN(Date.parse(since))) throw new UsageError('--since must be an ISO-8601 timestamp');
  const mode = typeof p.options.mode === 'string' ? p.options.mode : 'test';
  if (mode !== 'test' && mode !== 'live') throw new UsageError('--mode must be test or live');
  const url = new URL(config.DATABASE_URL);
  url.pathname = `/${config.WEBHOOKS_DATABASE_NAME}`;
  const db = new Client({ connectionString: url.toString() });
  await db.connect();
  try {
    const { rowCount } = await db.query(
      `UPDATE deliveries SET status = 'pending', cycle_start = attempts, next_attempt_at = now(), enqueued_at = NULL, last_error = NULL, updated_at = now()
        WHERE status = 'failed' AND created_at >= $3
          AND callback_id IN (SELECT id FROM callbacks WHERE business_id = $1 AND mode = $2 AND is_active AND deleted_at IS NULL)`,
      [business, mode, since],
    );
    console.log(`${rowCount} failed deliveries of business ${business} (${mode}) queued again`);
  } finally {
    await db.end();
  }
}
