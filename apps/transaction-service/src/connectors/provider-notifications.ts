import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import { DataSource } from '@payments/database';
import { ROOT_LOGGER } from '@payments/platform';
import { TransactionServiceConfig } from '../config/transaction.config';
import { TransactionQueries } from '../transactions/transaction-queries';
import type { TransactionRow } from '../transactions/transaction-row';
import type { Connector, ProviderName } from './connector';
import { ConnectorRegistry } from './connector-registry';
import { ProviderCredentials } from './provider-credentials';
import { ProviderPaymentStore, type ProviderPaymentRow } from './provider-payment-store';
import { ProviderRefunds } from './provider-refunds';
import { ProviderStatements } from './provider-statements';
import type { Mode } from '@payments/contracts';

/** `retryLater`: it could not be applied now (the provider could not be asked); the provider should send it again. */
export interface NotifyResult {
  accepted: boolean;
  retryLater?: boolean;
}

/**
 * Returns and unsigned pushes make us ask the provider; anyone can send them, so a payment is
 * asked about once at a time, and a process asks at most this many at once (more are skipped: the
 * poller asks later).
 */
const RECHECKS_IN_FLIGHT = 20;
/** A return waits this long at most for the provider before the customer is sent on. */
const RETURN_SYNC_MS = 5_000;

/**
 * What providers post to the gateway's public URLs (no API key): status updates verified with the
 * business's own credentials, DPO's unsigned push (which only makes us ask DPO), refund updates,
 * and the customer's return from a payment page, which asks the provider at once.
 */
@Injectable()
export class ProviderNotifications {
  private readonly rechecking = new Set<string>();

  constructor(
    private readonly ds: DataSource,
    private readonly queries: TransactionQueries,
    private readonly attempts: ProviderPaymentStore,
    private readonly connections: ProviderCredentials,
    private readonly registry: ConnectorRegistry,
    private readonly statements: ProviderStatements,
    private readonly refunds: ProviderRefunds,
    @Inject(TransactionServiceConfig) private readonly config: TransactionServiceConfig,
    @Inject(ROOT_LOGGER) private readonly logger: Logger,
  ) {}

  /**
   * A status update as posted (the raw body). `id`: the transaction or refund id of its URL, or
   * null when the provider posts every update to one URL (DPO's push names the payment inside).
   * Idempotent; a forged or mismatched one changes nothing and is logged (without the body).
   */
  async notify(
    provider: ProviderName,
    id: string | null,
    body: string,
    contentType: string | undefined,
  ): Promise<NotifyResult> {
    const connector = this.registry.get(provider);
    if (!connector) return { accepted: false };
    if (id?.startsWith('rfd_')) {
      const accepted = await this.refunds.notified(id, provider, async (businessId, mode) => {
        const credentials = await this.credentials(connector, businessId, mode);
        const verified =
          credentials === undefined ? undefined : connector.verifyNotification(credentials, body, contentType);
        if (verified?.kind === 'refund') return verified.update;
        this.logger.warn(
          {
            provider,
            refund_id: id,
            reason: verified?.kind === 'invalid' ? verified.reason : (verified?.kind ?? 'not connected'),
          },
          'provider refund notification refused',
        );
        return null;
      });
      return { accepted };
    }
    const transactionId = id ?? connector.identifyNotification?.(body, contentType) ?? null;
    const found = transactionId ? await this.payment(provider, transactionId) : undefined;
    if (!found) {
      this.logger.warn(
        { provider, transaction_id: transactionId?.slice(0, 40) ?? null },
        'provider notification for no payment sent to it; ignored',
      );
      return { accepted: false };
    }
    const credentials = await this.credentials(connector, found.row.business_id, found.row.mode);
    if (credentials === undefined) {
      this.logger.error(
        { provider, transaction_id: found.row.public_id },
        'provider notification for a business no longer connected to it; not applied',
      );
      return { accepted: false };
    }
    const verified = connector.verifyNotification(credentials, body, contentType);
    if (verified.kind === 'recheck') {
      // Unsigned: it is only a reason to ask the provider, whose answer is applied instead.
      if (verified.transactionId !== null && verified.transactionId !== found.row.public_id) return { accepted: false };
      const asked = await this.recheck(connector, credentials, found, this.config.PROVIDER_TIMEOUT_MS);
      return asked === 'unknown' ? { accepted: false, retryLater: true } : { accepted: true };
    }
    if (verified.kind !== 'valid') {
      this.logger.warn(
        {
          provider,
          transaction_id: found.row.public_id,
          reason: verified.kind === 'invalid' ? verified.reason : verified.kind,
        },
        'provider notification refused',
      );
      return { accepted: false };
    }
    const result = await this.statements.applyAndRecord(found.row.id, verified.update, 'notification');
    return { accepted: result === 'applied' || result === 'unchanged' };
  }

  /**
   * The customer's browser came back from the provider's page: the provider is asked now (within
   * RETURN_SYNC_MS), so the checkout page it goes on to shows the outcome. Null when no such
   * payment went to this provider.
   */
  async returned(provider: ProviderName, transactionId: string): Promise<{ checkout_id: string } | null> {
    const found = await this.payment(provider, transactionId);
    if (!found) return null;
    const connector = this.registry.get(provider);
    const open = found.attempt.state === 'initiating' || found.attempt.state === 'sent';
    const credentials =
      connector && open ? await this.credentials(connector, found.row.business_id, found.row.mode) : undefined;
    if (connector && credentials !== undefined) {
      await this.recheck(
        connector,
        credentials,
        found,
        Math.min(RETURN_SYNC_MS, this.config.PROVIDER_TIMEOUT_MS),
      ).catch((err: unknown) => {
        this.logger.error(
          { err, provider, transaction_id: found.row.public_id },
          "asking the provider on the customer's return failed; the poller asks again",
        );
      });
    }
    return { checkout_id: found.row.checkout_id };
  }

  /** Asks the provider about the payment and applies its answer; 'skipped' if already being asked, or too many are. */
  private async recheck(
    connector: Connector<unknown>,
    credentials: unknown,
    found: { row: TransactionRow; attempt: ProviderPaymentRow },
    timeoutMs: number,
  ): Promise<'applied' | 'skipped' | 'unknown'> {
    const { attempt, row } = found;
    if (this.rechecking.has(row.public_id) || this.rechecking.size >= RECHECKS_IN_FLIGHT) return 'skipped';
    this.rechecking.add(row.public_id);
    try {
      const sync = await connector.sync(
        credentials,
        {
          pollUrl: attempt.poll_url,
          providerReference: attempt.provider_reference,
          transactionId: row.public_id,
          test: row.mode === 'test',
        },
        { timeoutMs },
      );
      if (sync.kind !== 'status') return 'unknown';
      await this.statements.applyAndRecord(row.id, sync.update, 'poll');
      return 'applied';
    } finally {
      this.rechecking.delete(row.public_id);
    }
  }

  private async payment(
    provider: ProviderName,
    transactionId: string,
  ): Promise<{ row: TransactionRow; attempt: ProviderPaymentRow } | undefined> {
    const row = await this.queries.byPublicIdAnyBusiness(this.ds, transactionId);
    const attempt = row ? await this.attempts.get(this.ds, row.id) : undefined;
    return row && attempt?.provider === provider ? { row, attempt } : undefined;
  }

  /** The business's parsed credentials for the connector; undefined when it is not (validly) connected. */
  private async credentials(connector: Connector<unknown>, businessId: number, mode: Mode): Promise<unknown> {
    const stored = await this.connections.read(businessId, mode, connector.provider);
    const parsed = stored ? connector.parseCredentials(stored) : undefined;
    return parsed?.ok ? parsed.value : undefined;
  }
}
