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
import { drained } from '../cli/output';
import { adminApi } from './admin-api';
import { deliveryDifferences, transactionDifferences } from './reconcile-checks';

/** The admin API's largest page. */
const PAGE = 1_000;

/** Every page of a keyset-paged admin list, the next one already asked for while the caller works on this one. */
async function* pages<P extends { next: string | null }>(config: OpsConfig, path: string): AsyncGenerator<P> {
  const get = (after: string | null) => {
    const page = adminApi<P>(config, 'GET', `${path}?limit=${PAGE}${after ? `&after=${after}` : ''}`);
    // Handled where it is awaited; if the caller stops first, its failure must not crash the process.
    page.catch(() => undefined);
    return page;
  };
  let pending = get(null);
  for (;;) {
    const page = await pending;
    if (page.next !== null) pending = get(page.next);
    yield page;
    if (page.next === null) return;
  }
}

interface ReconcileReport {
  transactions: number;
  events: number;
  differences: number;
}

/**
 * Walks every page of every service, handing each difference to `found` as soon as it is seen,
 * so memory stays that of one page whatever the size; the comparison is in reconcile-checks.
 */
async function reconcile(
  config: OpsConfig,
  found: (difference: string) => void,
  progress: (line: string) => void,
): Promise<ReconcileReport> {
  const report: ReconcileReport = { transactions: 0, events: 0, differences: 0 };
  const differences = (list: string[]) => {
    report.differences += list.length;
    list.forEach(found);
  };
  // The next page is asked for while the current one is compared, and the ledger's and the
  // dispatcher's records of a page are asked for together: the wait is the slowest call, not the sum.
  for await (const page of pages<ReconcileTransactionsResult>(config, '/admin/v1/reconcile/transactions')) {
    if (page.transactions.length > 0) {
      const [ledger, hooks] = await Promise.all([
        adminApi<ReconcileLedgerResult>(config, 'POST', '/admin/v1/reconcile/ledger', {
          ids: page.transactions.map((t) => t.id),
        }),
        adminApi<ReconcileWebhookTransactionsResult>(config, 'POST', '/admin/v1/reconcile/webhook-transactions', {
          transaction_ids: page.transactions.map((t) => t.transaction_id),
        }),
      ]);
      const ledgerById = new Map(ledger.transactions.map((l) => [l.id, l]));
      const statusOf = new Map(hooks.transactions.map((h) => [h.transaction_id, h.status]));
      for (const t of page.transactions)
        differences(
          transactionDifferences(t, ledgerById.get(t.id), statusOf.get(t.transaction_id), hooks.retained_since),
        );
    }
    report.transactions += page.transactions.length;
    progress(`${report.transactions} transactions checked`);
    await drained();
  }

  const callbacks: ReconcileCallback[] = [];
  for await (const page of pages<ReconcileCallbacksResult>(config, '/admin/v1/reconcile/webhook-callbacks'))
    callbacks.push(...page.callbacks);
  for await (const page of pages<ReconcileWebhookEventsResult>(config, '/admin/v1/reconcile/webhook-events')) {
    for (const e of page.events) differences(deliveryDifferences(e, callbacks));
    report.events += page.events.length;
    await drained();
    progress(`${report.transactions} transactions, ${report.events} webhook events checked`);
  }
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
      // Differences are printed as found (stdout); the count so far only on a terminal (stderr).
      const tty = process.stderr.isTTY === true;
      const status = (line: string) => tty && process.stderr.write(`\r${line}   `);
      const report = await reconcile(
        ctx.config(),
        (d) => {
          if (tty) process.stderr.write('\r\x1b[K');
          console.log(d);
        },
        status,
      );
      if (tty) process.stderr.write('\n');
      console.log(
        `${report.differences} differences (${report.transactions} transactions, ${report.events} webhook events)`,
      );
      if (report.differences > 0) throw new OpsError(`${report.differences} differences found`, ExitCode.Failed);
    });
};
