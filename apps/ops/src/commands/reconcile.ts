import type {
  ReconcileCallback,
  ReconcileCallbacksResult,
  ReconcileLedgerResult,
  ReconcileTransactionsResult,
  ReconcileWebhookEventsResult,
  ReconcileWebhookTransactionsResult,
} from '@payments/contracts';
import { ExitCode, OpsError } from '../cli/errors';
import type { CommandRegistration } from '../cli/program';
import type { OpsConfig } from '../ops.config';
import { adminApi } from './admin-api';
import { deliveryDifferences, transactionDifferences } from './reconcile-checks';

const PAGE = 500;

export interface ReconcileReport {
  transactions: number;
  events: number;
  differences: string[];
}

/** Walks every page of every service; the comparison itself is in reconcile-checks. */
export async function reconcile(config: OpsConfig, progress: (line: string) => void = () => undefined): Promise<ReconcileReport> {
  const report: ReconcileReport = { transactions: 0, events: 0, differences: [] };
  let after: string | null = null;
  do {
    const page: ReconcileTransactionsResult = await adminApi(config, 'GET', `/admin/v1/reconcile/transactions?limit=${PAGE}${after ? `&after=${after}` : ''}`);
    if (page.transactions.length > 0) {
      const ledger: ReconcileLedgerResult = await adminApi(config, 'POST', '/admin/v1/reconcile/ledger', { ids: page.transactions.map((t) => t.id) });
      const hooks: ReconcileWebhookTransactionsResult = await adminApi(config, 'POST', '/admin/v1/reconcile/webhook-transactions', {
        transaction_ids: page.transactions.map((t) => t.transaction_id),
      });
      const ledgerById = new Map(ledger.transactions.map((l) => [l.id, l]));
      const statusOf = new Map(hooks.transactions.map((h) => [h.transaction_id, h.status]));
      for (const t of page.transactions) report.differences.push(...transactionDifferences(t, ledgerById.get(t.id), statusOf.get(t.transaction_id), hooks.retained_since));
    }
    report.transactions += page.transactions.length;
    progress(`${report.transactions} transactions checked`);
    after = page.next;
  } while (after !== null);

  const callbacks: ReconcileCallback[] = [];
  after = null;
  do {
    const page: ReconcileCallbacksResult = await adminApi(config, 'GET', `/admin/v1/reconcile/webhook-callbacks?limit=${PAGE}${after ? `&after=${after}` : ''}`);
    callbacks.push(...page.callbacks);
    after = page.next;
  } while (after !== null);
  after = null;
  do {
    const page: ReconcileWebhookEventsResult = await adminApi(config, 'GET', `/admin/v1/reconcile/webhook-events?limit=${PAGE}${after ? `&after=${after}` : ''}`);
    for (const e of page.events) report.differences.push(...deliveryDifferences(e, callbacks));
    report.events += page.events.length;
    progress(`${report.transactions} transactions, ${report.events} webhook events checked`);
    after = page.next;
  } while (after !== null);
  return report;
}

/** `ops reconcile`: prints the differences; exit 1 when there are any. */
export const registerReconcile: CommandRegistration = (program, ctx) => {
  program
    .command('reconcile')
    .description('check, read-only, that the services agree, and print every difference; exits 1 if there is any')
    .addHelpText(
      'after',
      `
Through the gateway's admin API (GATEWAY_URL, ADMIN_API_TOKEN), a page at a time:
  - every transaction's status in transaction-service is what split-ledger-service recorded and
    the status of its latest transaction.* event in webhook-dispatcher;
  - a successful transaction has exactly one ledger entry per split that applies to it, its
    successful refunds are the ledger's, and each entry's reversals total its refunded share;
  - every catalogue event has exactly one delivery per active callback subscribed to it.
Run it when the system is quiet: an event still on its way shows as a difference.`,
    )
    .action(async () => {
      const report = await reconcile(ctx.config(), (line) => process.stderr.write(`\r${line}   `));
      process.stderr.write('\n');
      for (const d of report.differences) console.log(d);
      console.log(`${report.differences.length} differences (${report.transactions} transactions, ${report.events} webhook events)`);
      if (report.differences.length > 0) throw new OpsError(`${report.differences.length} differences found`, ExitCode.Failed);
    });
};
