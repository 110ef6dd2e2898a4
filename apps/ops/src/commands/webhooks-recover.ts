import { Option } from 'commander';
import { MODES, type AdminRecoverDeliveriesResult, type Mode } from '@payments/contracts';
import type { CommandRegistration } from '../cli/program';
import { drained } from '../cli/output';
import { Progress } from '../cli/progress';
import { isoTimestamp, positiveInt } from '../cli/values';
import type { OpsConfig } from '../ops.config';
import { adminApi } from './admin-api';

const PAGE = 500;

interface RecoverArgs {
  business: number;
  since: string;
  mode: Mode;
  dryRun: boolean;
}

/** `ops webhooks recover`: page by page through the admin API, with a progress bar. */
async function recoverWebhooks(config: OpsConfig, args: RecoverArgs): Promise<void> {
  let after: string | null = null;
  let total = 0;
  let done = 0;
  let progress: Progress | undefined;
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
      console.log(
        `${total} failed or skipped deliveries of business ${args.business} (${args.mode}) since ${args.since}` +
          (args.dryRun ? ' (dry run: nothing is sent)' : ''),
      );
    }
    for (const d of page.deliveries) {
      if (args.dryRun)
        console.log(
          `  ${d.delivery_id}  callback ${d.callback_id}  ${d.event.padEnd(22)} ${d.status.padEnd(8)} ` +
            `${d.event_id}  ${d.date_created}`,
        );
    }
    await drained();
    done += page.deliveries.length;
    if (!args.dryRun) {
      progress ??= new Progress('queueing', total);
      progress.update(done, '', Math.max(total, done));
    }
    after = page.next;
  } while (after !== null);
  if (!args.dryRun) {
    progress?.stop();
    console.log(`${done} deliveries queued again`);
  }
}

/**
 * `ops webhooks recover`: sends again the business's failed deliveries and those skipped while a
 * callback was disabled, through the gateway's admin API; `--dry-run` lists them and sends nothing.
 */
export const registerWebhooks: CommandRegistration = (program, ctx) => {
  program
    .command('webhooks')
    .description('webhook deliveries (through the admin API) and local forwarding of events')
    .command('recover')
    .description(
      "send again the failed deliveries of a business's active callbacks, " +
        'and those skipped while a callback was disabled',
    )
    .requiredOption('--business <id>', 'the business', positiveInt)
    .requiredOption(
      '--since <iso>',
      'deliveries created at or after this time (ISO 8601 with a zone, e.g. 2026-01-31T12:00:00Z)',
      isoTimestamp,
    )
    .addOption(new Option('--mode <mode>', 'test or live').choices(MODES).default('test'))
    .option('--dry-run', 'list what would be sent; send nothing')
    .action((opts: { business: number; since: Date; mode: Mode; dryRun?: boolean }) =>
      recoverWebhooks(ctx.config(), {
        business: opts.business,
        since: opts.since.toISOString(),
        mode: opts.mode,
        dryRun: opts.dryRun === true,
      }),
    );
};
