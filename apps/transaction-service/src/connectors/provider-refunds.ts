import { Inject, Injectable, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import type { Logger } from 'pino';
import { DataSource } from '@payments/database';
import { OutboxNotifier } from '@payments/messaging';
import { PollingWorker, ROOT_LOGGER } from '@payments/platform';
import { TransactionServiceConfig } from '../config/transaction.config';
import { RefundStore } from '../refunds/refund-store';
import { PROVIDER_NAMES, type ProviderName, type ProviderRefundUpdate, type RefundOutcome } from './connector';
import { ConnectorRegistry } from './connector-registry';
import { ProviderCredentials } from './provider-credentials';
import { ProviderRefundStore, type RefundToSend } from './provider-refund-store';
import type { Mode } from '@payments/contracts';

/** A queued refund nobody sent for this long was left by a process that died: the sweeper sends it. */
const QUEUED_STALE_MS = 30_000;
const SWEEP_EVERY_MS = 5_000;
const SWEEP_BATCH = 50;

/**
 * Refunds of live payments through the provider's refund API. The refund and its 'queued' row commit together, and
 * whoever claims the row calls the provider once. A lost answer is never resent (it could refund twice): the refund
 * stays pending, 'unresolved', for an operator (docs/going-live.md).
 */
@Injectable()
export class ProviderRefunds implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly worker: PollingWorker;

  constructor(
    private readonly ds: DataSource,
    private readonly store: ProviderRefundStore,
    private readonly refunds: RefundStore,
    private readonly connections: ProviderCredentials,
    private readonly registry: ConnectorRegistry,
    private readonly outbox: OutboxNotifier,
    @Inject(TransactionServiceConfig) private readonly config: TransactionServiceConfig,
    @Inject(ROOT_LOGGER) private readonly logger: Logger,
  ) {
    this.worker = new PollingWorker('provider-refunds', () => this.sweep(), SWEEP_EVERY_MS, logger);
  }

  onApplicationBootstrap(): void {
    this.worker.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.worker.stop();
  }

  /** Whether refunds of payments collected by `provider` go through its refund API. */
  hasRefundApi(provider: ProviderName): boolean {
    return this.registry.get(provider)?.refund !== undefined;
  }

  /** Sends a queued refund to its provider and applies the answer. Does nothing when someone else took it. */
  async send(refundId: string, timeoutMs = this.config.PROVIDER_TIMEOUT_MS): Promise<void> {
    const r = await this.ds.transaction((m) => this.store.claim(m, refundId));
    if (!r) return;
    const outcome = await this.call(r, timeoutMs).catch((err: unknown): RefundOutcome => {
      this.logger.error(
        { err, refund_id: r.public_id, provider: r.provider },
        'refund call to the provider failed midway',
      );
      return { kind: 'unknown', reason: 'the call to the provider failed midway' };
    });
    await this.apply(r, outcome);
  }

  private async call(r: RefundToSend, timeoutMs: number): Promise<RefundOutcome> {
    const connector = this.registry.get(r.provider);
    const stored = await this.connections.read(r.business_id, r.mode, r.provider);
    const credentials = stored && connector ? connector.parseCredentials(stored) : undefined;
    // Nothing was sent: the refund cannot be made here; an operator refunds at the provider.
    if (!connector?.refund || !credentials?.ok)
      return { kind: 'unknown', reason: 'the business is not connected to the provider any more; nothing was sent' };
    if (!r.provider_reference)
      return { kind: 'unknown', reason: "the provider's id of the payment is not known; nothing was sent" };
    return connector.refund(
      credentials.value,
      {
        providerReference: r.provider_reference,
        transactionId: r.txn_public_id,
        amountMinor: Number(r.amount),
        currency: r.currency.trim(),
        reason: r.reason,
        refundId: r.public_id,
        notifyUrl:
          `${this.config.PUBLIC_BASE_URL.replace(/\/+$/, '')}` +
          `/v1/provider-notifications/${r.provider}/${r.public_id}`,
      },
      { timeoutMs },
    );
  }

  private async apply(r: RefundToSend, outcome: RefundOutcome): Promise<void> {
    const name = PROVIDER_NAMES[r.provider];
    const changed = await this.ds.transaction(async (m) => {
      const refund = (await this.refunds.byPublicIdForUpdate(m, r.public_id))!;
      if (outcome.kind === 'pending') {
        await this.store.record(m, r.refund_id, { state: 'pending', providerRefundId: outcome.providerRefundId });
        return false;
      }
      if (outcome.kind === 'unknown') {
        await this.store.record(m, r.refund_id, { state: 'unresolved', error: outcome.reason });
        this.logger.error(
          { refund_id: r.public_id, provider: r.provider, reason: outcome.reason },
          'refund outcome at the provider unknown; left pending for an operator',
        );
        return false;
      }
      const [to, message] =
        outcome.kind === 'succeeded'
          ? (['success', `Refunded by ${name}`] as const)
          : (['failed', `${name} refused the refund: ${outcome.reason}`] as const);
      await this.store.record(m, r.refund_id, {
        state: 'final',
        providerRefundId: outcome.kind === 'succeeded' ? outcome.providerRefundId : null,
        error: outcome.kind === 'declined' ? outcome.reason : null,
      });
      if (refund.status !== 'pending') return false;
      await this.refunds.changeStatus(m, refund, to, message, null);
      return true;
    });
    if (changed) this.outbox.notify();
  }

  /**
   * A refund status update the provider posted (verified by the connector with the business's
   * credentials). Accepted when it is this refund's and its amount matches; applied only while
   * the refund is pending. Idempotent.
   */
  async notified(
    refundPublicId: string,
    provider: ProviderName,
    verify: (businessId: number, mode: Mode) => Promise<ProviderRefundUpdate | null>,
  ): Promise<boolean> {
    const found = await this.ds.transaction(async (m) => {
      const refund = await this.refunds.byPublicIdForUpdate(m, refundPublicId);
      const row = refund ? await this.store.lock(m, refund.id) : undefined;
      const paymentReference = refund ? await this.store.paymentReference(m, refund.id) : null;
      return refund && row?.provider === provider ? { refund, row, paymentReference } : undefined;
    });
    if (!found) {
      this.logger.warn(
        { provider, refund_id: refundPublicId.slice(0, 40) },
        'refund notification for no refund sent to this provider; ignored',
      );
      return false;
    }
    const update = await verify(found.refund.business_id, found.refund.mode);
    if (!update) return false;
    const { refund: seen } = found;
    const paymentMatches =
      update.providerPaymentReference === null || update.providerPaymentReference === found.paymentReference;
    const takenElsewhere =
      !found.row.provider_refund_id &&
      (await this.store.refundIdTaken(this.ds, update.providerRefundId, found.row.refund_id));
    if (
      !paymentMatches ||
      takenElsewhere ||
      (found.row.provider_refund_id && update.providerRefundId !== found.row.provider_refund_id) ||
      (update.amountMinor !== null && update.amountMinor !== Number(seen.amount))
    ) {
      this.logger.error(
        { refund_id: seen.public_id, provider, provider_status: update.providerStatus },
        'refund notification does not match the refund (its payment, id or amount); not applied',
      );
      return false;
    }
    const changed = await this.ds.transaction(async (m) => {
      const refund = (await this.refunds.byPublicIdForUpdate(m, refundPublicId))!;
      const final = update.status === 'success' || update.status === 'failed';
      await this.store.record(m, refund.id, {
        state: final ? 'final' : 'pending',
        providerRefundId: update.providerRefundId,
        providerStatus: update.providerStatus,
      });
      if (!final) return false;
      if (refund.status !== 'pending') {
        if (refund.status !== update.status)
          this.logger.error(
            { refund_id: refund.public_id, provider, provider_status: update.providerStatus, status: refund.status },
            'provider contradicts a final refund; left to an operator',
          );
        return false;
      }
      const name = PROVIDER_NAMES[provider];
      await this.refunds.changeStatus(
        m,
        refund,
        update.status,
        update.status === 'success' ? `Refunded by ${name}` : `${name} could not refund it (${update.providerStatus})`,
        null,
      );
      return true;
    });
    if (changed) this.outbox.notify();
    return true;
  }

  /** Sends refunds whose sender died before sending; leaves those that died while sending to an operator. */
  async sweep(): Promise<boolean> {
    const sendingMs = this.config.PROVIDER_TIMEOUT_MS * 2 + QUEUED_STALE_MS;
    const { queued, abandoned } = await this.ds.transaction((m) =>
      this.store.sweep(m, QUEUED_STALE_MS, sendingMs, SWEEP_BATCH),
    );
    for (const id of abandoned)
      this.logger.error(
        { refund_row: id },
        'a refund was being sent when its process stopped; ' +
          'its outcome at the provider is unknown: left pending for an operator',
      );
    for (const id of queued) await this.send(id);
    return queued.length === SWEEP_BATCH;
  }
}
