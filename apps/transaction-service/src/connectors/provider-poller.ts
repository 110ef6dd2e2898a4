import { Inject, Injectable, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import type { Logger } from 'pino';
import { DataSource } from '@payments/database';
import { OutboxNotifier } from '@payments/messaging';
import { PollingWorker, ROOT_LOGGER } from '@payments/platform';
import { TransactionServiceConfig, durationMs } from '../config/transaction.config';
import { TransactionQueries } from '../transactions/transaction-queries';
import { TransactionStore } from '../transactions/transaction-store';
import { ConnectorRegistry } from './connector-registry';
import { ProviderCredentials } from './provider-credentials';
import { ProviderPaymentStore, type DueProviderPayment } from './provider-payment-store';
import { ProviderStatements } from './provider-statements';

const BATCH = 20;
/** An initiate whose answer was lost and which the provider says it lacks this many times in a row never reached it. */
const NOT_FOUND_CHECKS = 3;

/**
 * Asks providers about live payments without a final answer. Due checks live in the database, each taken with a lease,
 * so a replica that dies mid-check loses nothing. Checks back off until a final answer or PROVIDER_POLL_MAX_AGE, then
 * the payment is left 'unresolved' for an operator (docs/going-live.md).
 */
@Injectable()
export class ProviderPoller implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly worker: PollingWorker;

  constructor(
    private readonly ds: DataSource,
    private readonly attempts: ProviderPaymentStore,
    private readonly statements: ProviderStatements,
    private readonly connections: ProviderCredentials,
    private readonly registry: ConnectorRegistry,
    private readonly queries: TransactionQueries,
    private readonly store: TransactionStore,
    private readonly outbox: OutboxNotifier,
    @Inject(TransactionServiceConfig) private readonly config: TransactionServiceConfig,
    @Inject(ROOT_LOGGER) private readonly logger: Logger,
  ) {
    // Due rows are looked for every second at most: a check is due PROVIDER_POLL_INTERVAL_MS after the last.
    this.worker = new PollingWorker(
      'provider-poller',
      () => this.tick(),
      Math.min(1_000, config.PROVIDER_POLL_INTERVAL_MS),
      logger,
    );
  }

  onApplicationBootstrap(): void {
    this.worker.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.worker.stop();
  }

  async tick(): Promise<boolean> {
    const lease = this.config.PROVIDER_TIMEOUT_MS * 2 + this.config.PROVIDER_POLL_INTERVAL_MS;
    const due = await this.ds.transaction((m) => this.attempts.claimDue(m, BATCH, lease));
    await Promise.all(
      due.map((d) =>
        this.check(d).catch((err) =>
          this.logger.error(
            { err, transaction_id: d.public_id },
            'provider status check failed; retried after its lease',
          ),
        ),
      ),
    );
    return due.length === BATCH;
  }

  private async check(d: DueProviderPayment): Promise<void> {
    if (Date.now() - new Date(d.created_at).getTime() > durationMs(this.config.PROVIDER_POLL_MAX_AGE)) {
      await this.attempts.giveUp(
        this.ds,
        d.transaction_id,
        `no final answer from the provider after ${this.config.PROVIDER_POLL_MAX_AGE}`,
      );
      this.logger.error(
        { transaction_id: d.public_id, provider: d.provider, provider_status: d.provider_status },
        'provider gave no final answer in time; payment left to an operator',
      );
      return;
    }
    const connector = this.registry.get(d.provider);
    const stored = await this.connections.read(d.business_id, d.mode, d.provider);
    const credentials = stored && connector ? connector.parseCredentials(stored) : undefined;
    if (!connector || !credentials?.ok) {
      await this.attempts.retryLater(
        this.ds,
        d.transaction_id,
        'the business is not connected to the provider any more',
        this.nextCheck(d),
      );
      return;
    }
    const sync = await connector.sync(
      credentials.value,
      {
        pollUrl: d.poll_url,
        providerReference: d.provider_reference,
        transactionId: d.public_id,
        test: d.mode === 'test',
      },
      { timeoutMs: this.config.PROVIDER_TIMEOUT_MS },
    );
    if (sync.kind === 'status') {
      await this.statements.applyAndRecord(d.transaction_id, sync.update, 'poll', this.nextCheck(d));
      return;
    }
    if (sync.kind === 'not_found' && d.state === 'initiating' && d.not_found_checks + 1 >= NOT_FOUND_CHECKS) {
      // The provider said, this many checks in a row, that it has no such payment: our request
      // never got there. Decided on the row as it is now (a status update may have come meanwhile).
      const failed = await this.ds.transaction(async (m) => {
        const attempt = await this.attempts.lock(m, d.transaction_id);
        if (attempt?.state !== 'initiating' || attempt.not_found_checks + 1 < NOT_FOUND_CHECKS) return false;
        const row = (await this.queries.byId(m, d.transaction_id, true))!;
        if (row.status === 'pending' || row.status === 'processing') {
          await this.store.changeStatus(
            m,
            row,
            'failed',
            'The provider has no record of this payment; nothing was charged',
            null,
          );
        }
        await this.attempts.finish(m, d.transaction_id, 'not found at the provider');
        return true;
      });
      if (failed) {
        this.outbox.notify();
        return;
      }
    }
    const notFound = sync.kind === 'not_found';
    await this.attempts.retryLater(
      this.ds,
      d.transaction_id,
      notFound ? 'not found at the provider yet' : sync.reason,
      this.nextCheck(d),
      notFound,
    );
  }

  /** The next check: PROVIDER_POLL_INTERVAL_MS doubled per check already made, at most 16 times. */
  private nextCheck(d: DueProviderPayment): Date {
    return new Date(Date.now() + this.config.PROVIDER_POLL_INTERVAL_MS * 2 ** Math.min(Math.max(d.checks - 1, 0), 4));
  }
}
