import { ISO_8601_WITH_ZONE, type AdminRecoverDeliveriesResult } from '@payments/contracts';
import { progressBar, required, UsageError, type Parsed } from '../args';
import type { OpsConfig } from '../ops.config';
import { adminApi } from './admin-api';

export const WEBHOOKS_RECOVER_USAGE = `ops webhooks recover --business ID --since ISO [--mode test|live] [--dry-run]

  Sends again the business's failed deliveries and those skipped while a callback was disabled,
  created since --since (ISO 8601 with a zone, e.g. 2026-01-31T12:00:00Z), for its active
  callbacks. Goes through the gateway's admin API (GATEWAY_URL, ADMIN_API_TOKEN).

  --business ID     the business
  --since ISO       deliveries created at or after this time
  --mode test|live  default test
  --dry-run         list what would be sent; send nothing`;

const OPTIONS = new Set(['business', 'since', 'mode', 'dry-run', 'help']);
const PAGE = 500;

export interface RecoverArgs {
  business: number;
  since: string;
  mode: 'test' | 'live';
  dryRun: boolean;
}

export function parseRecoverArgs(p: Parsed): RecoverArgs {
  const unknown = Object.keys(p.options).filter((o) => !OPTIONS.has(o));
  if (unknown.length > 0) throw new UsageError(`unknown option ${unknown.map((o) => `--${o}`).join(', ')}`);
  if (p.words.length > 2) throw new UsageError(`unexpected argument ${p.words.slice(2).join(' ')}`);
  const raw = required(p, 'business');
  if (!/^[1-9]\d{0,9}$/.test(raw)) throw new UsageError('--business must be a business id');
  const since = required(p, 'since');
  if (!ISO_8601_WITH_ZONE.test(since) || Number.isNaN(Date.parse(since))) throw new UsageError('--since must be an ISO-8601 timestamp with a zone, e.g. 2026-01-31T12:00:00Z');
  const mode = p.options.mode ?? 'test';
  if (mode !== 'test' && mode !== 'live') throw new UsageError('--mode must be test or live');
  const dryRun = p.options['dry-run'];
  if (dryRun !== undefined && dryRun !== true) throw new UsageError('--dry-run takes no value');
  return { business: Number(raw), since, mode, dryRun: dryRun === true };
}

/** `ops webhooks recover`: page by page through the admin API, with a progress bar. */
export async function recoverWebhooksCommand(config: OpsConfig, p: Parsed): Promise<void> {
  const args = parseRecoverArgs(p);
  let after: string | null = null;
  let total = 0;
  let done = 0;
  do {
    const page: AdminRecoverDeliveriesResult = await adminApi(config, 'POST', '/admin/v1/webhooks/recover', {
      business_id: args.business,
      mode: args.mode,
      since: args.since,
      dry_run: args.dryRun,
      after,
      limit: PAGE,
    });
    if (page.total !== null) {
      total = page.total;
      console.log(`${total} failed or skipped deliveries of business ${args.business} (${args.mode}) since ${args.since}${args.dryRun ? ' (dry run: nothing is sent)' : ''}`);
    }
    for (const d of page.deliveries) {
      if (args.dryRun) console.log(`  ${d.delivery_id}  callback ${d.callback_id}  ${d.event.padEnd(22)} ${d.status.padEnd(8)} ${d.event_id}  ${d.date_created}`);
    }
    done += page.deliveries.length;
    if (!args.dryRun) process.stderr.write(`\r${progressBar(done, Math.max(total, done))}`);
    after = page.next;
  } while (after !== null);
  if (!args.dryRun) {
    process.stderr.write('\n');
    console.log(`${done} deliveries queued again`);
  }
}
