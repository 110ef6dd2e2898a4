import pino from 'pino';
import type { DataSource } from '@payments/database';
import type { Connector, RefundOutcome, RefundRequest } from '../../apps/transaction-service/src/connectors/connector';
import type { ConnectorRegistry } from '../../apps/transaction-service/src/connectors/connector-registry';
import type { ProviderCredentials } from '../../apps/transaction-service/src/connectors/provider-credentials';
import { ProviderRefundStore } from '../../apps/transaction-service/src/connectors/provider-refund-store';
import { ProviderRefunds } from '../../apps/transaction-service/src/connectors/provider-refunds';
import type { TransactionServiceConfig } from '../../apps/transaction-service/src/config/transaction.config';
import { RefundStore } from '../../apps/transaction-service/src/refunds/refund-store';
import { migratedDatabase, type MigratedDatabase } from '../support/migrated-database';

/**
 * Refunds through a provider's refund API against a real PostgreSQL, at the points where a crash or a second process
 * could refund twice or lose one: two senders of one refund, a sender that died before sending (sent later), one that
 * died while the provider answered (never sent again: left to an operator), and each provider answer. The provider here
 * is an in-process connector that counts its calls (the real ones are tested against their fakes in the e2e suite).
 */
describe('refunds through a provider refund API', () => {
  let db: MigratedDatabase;
  let ds: DataSource;
  let refunds: RefundStore;
  let store: ProviderRefundStore;
  let seq = 0;
  const calls: RefundRequest[] = [];
  let answer: (req: RefundRequest) => Promise<RefundOutcome> = async () => ({
    kind: 'succeeded',
    providerRefundId: 'R1',
  });

  const connector = {
    provider: 'dpo',
    methods: ['dpo'],
    parseCredentials: (input: unknown) => ({ ok: true, value: input }),
    maskedId: () => 'ct_…',
    initiate: async () => ({ kind: 'unknown', reason: 'n/a', sent: false }),
    sync: async () => ({ kind: 'unknown', reason: 'n/a' }),
    verifyNotification: () => ({ kind: 'invalid', reason: 'n/a' }),
    refund: async (_c: unknown, req: RefundRequest) => {
      calls.push(req);
      return answer(req);
    },
  } as unknown as Connector<unknown>;
  const registry = { get: () => connector } as unknown as ConnectorRegistry;
  const credentials = {
    read: async () => ({ company_token: 'T', service_type: '1' }),
  } as unknown as ProviderCredentials;
  const config = {
    PROVIDER_TIMEOUT_MS: 1_000,
    PUBLIC_BASE_URL: 'https://pay.example.com/',
  } as TransactionServiceConfig;
  const outbox = { notify: () => undefined };
  let service: ProviderRefunds;

  /** A successful live DPO payment of 1000 with its provider record, and a pending refund of `amount` queued for it. */
  const queuedRefund = async (amount: number): Promise<string> => {
    const n = ++seq;
    const [txn] = await ds.query(
      `INSERT INTO transactions (public_id, business_id, mode, reference, amount, charges, total, currency, email,
                                status, message, checkout_id, expires_at)
       VALUES ($1, 9, 'live', $2, 1000, 0, 1000, 'USD', 'a@example.com', 'success', 'Payment successful', $3,
               now() + interval '1 hour')
       RETURNING id`,
      [`txn_pr${n}`, `pr-${n}`, `chk_pr${n}`],
    );
    await ds.query(
      'INSERT INTO provider_payments (transaction_id, provider, state, provider_reference) ' +
        "VALUES ($1, 'dpo', 'final', $2)",
      [txn.id, `TOKEN-${n}`],
    );
    return ds.transaction(async (m) => {
      const row = await refunds.insert(m, {
        transaction_id: String(txn.id),
        business_id: 9,
        mode: 'live',
        amount,
        currency: 'USD',
        reason: null,
        metadata: {},
        description: null,
        settle_in: null,
        message: 'Refund sent to DPO Pay',
        idempotency_key: null,
      });
      await store.queue(m, row.id, 'dpo');
      return row.id;
    });
  };
  const state = async (refundId: string) =>
    (
      await ds.query(
        'SELECT r.status, r.message, pr.state, pr.provider_refund_id, pr.last_error ' +
          'FROM refunds r JOIN provider_refunds pr ON pr.refund_id = r.id WHERE r.id = $1',
        [refundId],
      )
    )[0];
  /** As if `seconds` had passed since its provider row last changed. */
  const age = (refundId: string, seconds: number) =>
    ds.query('UPDATE provider_refunds SET updated_at = updated_at - make_interval(secs => $2) WHERE refund_id = $1', [
      refundId,
      seconds,
    ]);

  beforeAll(async () => {
    db = await migratedDatabase('transaction-service', 'provider_refunds');
    ds = db.ds;
    refunds = new RefundStore();
    store = new ProviderRefundStore();
    service = new ProviderRefunds(
      ds,
      store,
      refunds,
      credentials,
      registry,
      outbox as never,
      config,
      pino({ level: 'silent' }),
    );
  }, 60_000);

  afterAll(async () => {
    await db?.drop();
  });

  beforeEach(() => {
    calls.length = 0;
    answer = async () => ({ kind: 'succeeded', providerRefundId: 'R1' });
  });

  it('sends a refund once when two processes race, with the notification URL and the provider payment id', async () => {
    const id = await queuedRefund(400);
    await Promise.all([service.send(id), service.send(id), service.send(id)]);
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({
      amountMinor: 400,
      currency: 'USD',
      providerReference: expect.stringMatching(/^TOKEN-/),
      transactionId: expect.stringMatching(/^txn_pr/),
    });
    expect(calls[0].notifyUrl).toMatch(/^https:\/\/pay\.example\.com\/v1\/provider-notifications\/dpo\/rfd_/);
    expect(await state(id)).toMatchObject({
      status: 'success',
      message: 'Refunded by DPO Pay',
      state: 'final',
      provider_refund_id: 'R1',
    });
    // Sent again later (a sweep, a retry): nothing more goes to the provider.
    await service.send(id);
    expect(calls).toHaveLength(1);
  });

  it('fails the refund on an explicit refusal, and keeps it pending on a provider that answers later', async () => {
    answer = async () => ({ kind: 'declined', reason: 'Refund failed - amount exceeds' });
    const refused = await queuedRefund(300);
    await service.send(refused);
    expect(await state(refused)).toMatchObject({
      status: 'failed',
      message: 'DPO Pay refused the refund: Refund failed - amount exceeds',
      state: 'final',
    });

    answer = async () => ({ kind: 'pending', providerRefundId: 'OZ-9' });
    const later = await queuedRefund(300);
    await service.send(later);
    expect(await state(later)).toMatchObject({ status: 'pending', state: 'pending', provider_refund_id: 'OZ-9' });
  });

  it('never reports a refund whose answer was lost: stays pending, left to an operator, not sent again', async () => {
    answer = async () => ({ kind: 'unknown', reason: 'timed out after 1000 ms' });
    const id = await queuedRefund(200);
    await service.send(id);
    expect(await state(id)).toMatchObject({
      status: 'pending',
      state: 'unresolved',
      last_error: 'timed out after 1000 ms',
    });
    await age(id, 3600);
    await service.sweep();
    expect(calls).toHaveLength(1);
  });

  it('sender died before sending: the sweeper sends the refund; died while sending: left to an operator', async () => {
    const unsent = await queuedRefund(100);
    const dying = await queuedRefund(100);
    // The second was claimed (committed 'sending') and its process died before the provider answered.
    await ds.transaction((m) => store.claim(m, dying));
    await service.sweep();
    expect(calls).toHaveLength(0); // both are fresh: their owners may still be at work
    await age(unsent, 60);
    await age(dying, 60);
    await service.sweep();
    expect(calls.map((c) => c.refundId)).toEqual([expect.stringMatching(/^rfd_/)]);
    expect(await state(unsent)).toMatchObject({ status: 'success', state: 'final' });
    expect(await state(dying)).toMatchObject({
      status: 'pending',
      state: 'unresolved',
      last_error: expect.stringContaining('stopped before the provider answered'),
    });
  });

  it('a refund notification applies only to its own refund: matching payment, provider refund id, amount', async () => {
    answer = async () => ({ kind: 'pending', providerRefundId: 'OZ-A' });
    const a = await queuedRefund(300);
    await service.send(a);
    answer = async () => ({ kind: 'unknown', reason: 'timed out' });
    const b = await queuedRefund(300);
    await service.send(b);
    const [{ public_id: aId }] = await ds.query('SELECT public_id FROM refunds WHERE id = $1', [a]);
    const [{ public_id: bId }] = await ds.query('SELECT public_id FROM refunds WHERE id = $1', [b]);
    const [{ provider_reference: bPayment }] = await ds.query(
      'SELECT pp.provider_reference FROM refunds r JOIN provider_payments pp ' +
        'ON pp.transaction_id = r.transaction_id WHERE r.id = $1',
      [b],
    );
    const complete = (over: object) => async () => ({
      providerRefundId: 'OZ-B',
      providerPaymentReference: bPayment,
      providerStatus: 'Complete',
      status: 'success' as const,
      amountMinor: 300,
      ...over,
    });
    // Refund A's signed Complete posted to B's URL: another refund id (A's), or another payment.
    expect(await service.notified(bId, 'dpo', complete({ providerRefundId: 'OZ-A' }))).toBe(false);
    expect(await service.notified(bId, 'dpo', complete({ providerPaymentReference: 'TOKEN-other' }))).toBe(false);
    expect(await service.notified(bId, 'dpo', complete({ amountMinor: 299 }))).toBe(false);
    expect(await state(b)).toMatchObject({ status: 'pending', state: 'unresolved' });
    // Its own: applied once, and again changes nothing.
    expect(await service.notified(bId, 'dpo', complete({}))).toBe(true);
    expect(await service.notified(bId, 'dpo', complete({}))).toBe(true);
    expect(await state(b)).toMatchObject({ status: 'success', state: 'final', provider_refund_id: 'OZ-B' });
    // A's notification for A, with A's id learnt from the provider's answer.
    expect(
      await service.notified(
        aId,
        'dpo',
        complete({
          providerRefundId: 'OZ-A',
          providerPaymentReference: null,
          status: 'failed',
          providerStatus: 'Failed',
        }),
      ),
    ).toBe(true);
    expect(await state(a)).toMatchObject({ status: 'failed', state: 'final' });
  });
});
