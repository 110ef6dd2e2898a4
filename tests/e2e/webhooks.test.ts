import { Webhook } from 'standardwebhooks';
import { Stack } from '../support/stack';
import { waitFor } from '../support/wait';
import { WebhookReceiver, selfSignedCertificate } from '../support/webhook-receiver';
import { settled, startPayment } from '../support/payments';

type Keys = Awaited<ReturnType<Stack['createBusiness']>>;
type Body = Record<string, unknown>;

/**
 * Callbacks and deliveries against a real HTTPS receiver (self-signed certificate trusted through
 * WEBHOOK_CA_FILE); every signature is checked with the standardwebhooks package.
 */
describe('callbacks and webhook deliveries', () => {
  const tls = selfSignedCertificate();
  const receiver = new WebhookReceiver(tls);
  let stack: Stack;
  let keys: Keys;
  let other: Keys;

  beforeAll(async () => {
    await receiver.start();
    stack = await Stack.start(undefined, {
      ...receiver.dispatcherEnv(),
      WEBHOOK_RETRY_SCHEDULE: '1,1,1,1,1,1',
      WEBHOOK_DISABLE_AFTER: '2',
      WEBHOOK_DISABLE_MIN_FAILING: '3s',
      WEBHOOK_TIMEOUT_MS: '3000',
    });
    keys = await stack.createBusiness('Hooked Shop');
    other = await stack.createBusiness('Someone Else');
  }, 120_000);

  afterAll(async () => {
    await stack?.stop();
    await receiver.stop();
  }, 120_000);

  const register = async (path: string, events: string[], key = keys.test.secret) => {
    const res = await stack.api('POST', '/v1/callback', { key, body: { url: receiver.url(path), events } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: 'success', message: expect.any(String) });
    const list = await stack.api<{ callbacks: Body[] }>('GET', '/v1/callback/list?limit=100', { key });
    return list.body.callbacks.find((c) => c.url === receiver.url(path)) as Body & { id: number };
  };

  const secretOf = async (id: number, key = keys.test.secret) =>
    (await stack.api('GET', `/v1/callback/${id}/secret`, { key })).body.secret as string;

  const paySuccess = (reference: string, key = keys.test.secret) =>
    startPayment(stack, key, reference, { amount: 1500, email: 'hook@example.com' });

  const fetchCallback = async (id: number) =>
    (await stack.api<{ callback: Body }>('GET', `/v1/callback/${id}`, { key: keys.test.secret })).body.callback;

  describe('callback API', () => {
    it('lists the superset shape with total_count and fetches by both paths', async () => {
      const cb = await register('/api-shape', ['transaction.success', 'payment.completed']);
      expect(cb).toEqual({
        id: expect.any(Number),
        url: receiver.url('/api-shape'),
        description: '',
        events: ['transaction.success', 'payment.completed'],
        is_active: true,
        failure_count: 0,
        last_triggered: null,
        date_created: expect.any(String),
        date_updated: expect.any(String),
        dateCreated: expect.any(String),
      });
      const list = await stack.api('GET', '/v1/callback/list', { key: keys.test.secret });
      expect(list.body).toMatchObject({
        result: 'success',
        total_count: expect.any(Number),
        message: expect.any(String),
      });
      for (const path of [`/v1/callback/${cb.id}`, `/v1/callback/fetch/${cb.id}`]) {
        const one = await stack.api('GET', path, { key: keys.test.secret });
        expect(one.status).toBe(200);
        expect(one.body).toEqual({
          result: 'success',
          callback: {
            id: String(cb.id),
            url: cb.url,
            description: '',
            events: cb.events,
            is_active: true,
            failure_count: 0,
            last_triggered: null,
            date_created: cb.date_created,
            date_updated: cb.date_updated,
          },
        });
      }
      const page = await stack.api<{ callbacks: Body[] }>('GET', '/v1/callback/list?limit=1&skip=0', {
        key: keys.test.secret,
      });
      expect(page.body.callbacks).toHaveLength(1);
    });

    it.each([
      [{ url: 'http://127.0.0.1/hook', events: ['transaction.success'] }, 'url'],
      [{ url: 'not a url', events: ['transaction.success'] }, 'url'],
      [{ url: 'https://127.0.0.1/hook', events: ['transaction.refunded'] }, 'events'],
      [{ url: 'https://127.0.0.1/hook', events: [] }, 'events'],
      [{ url: 'https://127.0.0.1/hook' }, 'events'],
      [{ url: 'https://127.0.0.1/hook', events: ['transaction.success'], colour: 'red' }, 'colour'],
    ])('400 for %j', async (body, field) => {
      const res = await stack.api<{ errors: { field: string }[] } & Body>('POST', '/v1/callback', {
        key: keys.test.secret,
        body,
      });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('validation_error');
      expect(res.body.errors.map((e) => e.field)).toContain(field);
    });

    it('names the valid events when one is unknown', async () => {
      const res = await stack.api('POST', '/v1/callback', {
        key: keys.test.secret,
        body: { url: receiver.url('/x'), events: ['nope'] },
      });
      expect(res.body.message).toContain('payment.created');
    });

    it('403 secret_key_required for a public key; 404 for another business and for bad ids', async () => {
      const res = await stack.api('GET', '/v1/callback/list', { key: keys.test.public });
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('secret_key_required');
      const cb = await register('/private', ['transaction.success']);
      expect((await stack.api('GET', `/v1/callback/${cb.id}`, { key: other.test.secret })).status).toBe(404);
      expect(
        (await stack.api('PUT', `/v1/callback/${cb.id}`, { key: other.test.secret, body: { is_active: false } }))
          .status,
      ).toBe(404);
      expect((await stack.api('DELETE', `/v1/callback/${cb.id}`, { key: keys.live.secret })).status).toBe(404);
      expect((await stack.api('GET', '/v1/callback/abc', { key: keys.test.secret })).status).toBe(404);
    });

    it('updates and deletes', async () => {
      const cb = await register('/to-update', ['transaction.success']);
      const put = await stack.api('PUT', `/v1/callback/${cb.id}`, {
        key: keys.test.secret,
        body: { events: ['transaction.failed'], url: receiver.url('/updated') },
      });
      expect(put.body).toEqual({ result: 'success', message: expect.any(String) });
      expect(await fetchCallback(cb.id)).toMatchObject({
        events: ['transaction.failed'],
        url: receiver.url('/updated'),
      });
      expect(
        (
          await stack.api('PUT', `/v1/callback/${cb.id}`, {
            key: keys.test.secret,
            body: { url: 'http://insecure.example' },
          })
        ).status,
      ).toBe(400);
      expect(
        (await stack.api('PUT', `/v1/callback/${cb.id}`, { key: keys.test.secret, body: { is_active: 'yes' } })).status,
      ).toBe(400);
      const del = await stack.api('DELETE', `/v1/callback/${cb.id}`, { key: keys.test.secret });
      expect(del.body).toEqual({ result: 'success', message: expect.any(String) });
      expect((await stack.api('GET', `/v1/callback/${cb.id}`, { key: keys.test.secret })).status).toBe(404);
    });
  });

  describe('delivery', () => {
    it('delivers a success, signed, to each subscribed active callback of its business and mode only', async () => {
      const subscribed = await register('/sub', ['transaction.success']);
      await register('/other-event', ['transaction.failed']);
      const inactive = await register('/inactive', ['transaction.success']);
      await stack.api('PUT', `/v1/callback/${inactive.id}`, { key: keys.test.secret, body: { is_active: false } });
      await register('/other-business', ['transaction.success'], other.test.secret);
      await register('/live-mode', ['transaction.success'], keys.live.secret);

      const init = await paySuccess('hook-1');
      expect(init.status).toBe(200);
      const [hit] = await waitFor(
        'the success webhook',
        () => (receiver.at('/sub').length > 0 ? receiver.at('/sub') : undefined),
        { timeoutMs: 30_000 },
      );

      const payload = new Webhook(await secretOf(subscribed.id)).verify(hit.body, hit.headers) as Body;
      expect(payload).toEqual({
        id: hit.headers['webhook-id'],
        event: 'transaction.success',
        created_at: expect.any(String),
        mode: 'test',
        data: expect.objectContaining({
          transaction_id: init.body.transaction_id,
          transaction_reference: 'hook-1',
          status: 'success',
          previous_status: 'processing',
          amount: 1500,
        }),
      });
      expect(hit.headers['webhook-id']).toMatch(/^evt_/);

      // Give stray deliveries the time to show up, then check there were none.
      await paySuccess('hook-1b');
      await waitFor('the second success webhook', () => receiver.at('/sub').length >= 2, { timeoutMs: 30_000 });
      for (const path of ['/other-event', '/inactive', '/other-business', '/live-mode'])
        expect(receiver.at(path)).toEqual([]);
      expect(receiver.at('/sub')).toHaveLength(2);
      expect((await fetchCallback(subscribed.id)).last_triggered).toEqual(expect.any(String));
    }, 60_000);

    it('retries a failing receiver with the same webhook-id; failure_count rises and resets on success', async () => {
      receiver.script('/flaky', [500, 500, 200]);
      const cb = await register('/flaky', ['transaction.success']);
      await paySuccess('hook-flaky');
      await waitFor('two failed attempts', () => receiver.at('/flaky').length >= 2, { timeoutMs: 30_000 });
      await waitFor('failure_count to reach 2', async () => (await fetchCallback(cb.id)).failure_count === 2, {
        intervalMs: 50,
      });
      const hits = await waitFor(
        'the third attempt',
        () => (receiver.at('/flaky').length >= 3 ? receiver.at('/flaky') : undefined),
        { timeoutMs: 30_000 },
      );
      expect(new Set(hits.map((h) => h.headers['webhook-id'])).size).toBe(1);
      const secret = await secretOf(cb.id);
      for (const h of hits) expect(() => new Webhook(secret).verify(h.body, h.headers)).not.toThrow();
      await waitFor('failure_count back to 0', async () => (await fetchCallback(cb.id)).failure_count === 0);

      const log = await stack.api<{ deliveries: { status: string; attempts: { status_code: number }[] }[] }>(
        'GET',
        `/v1/callback/${cb.id}/deliveries`,
        { key: keys.test.secret },
      );
      expect(log.body.deliveries).toHaveLength(1);
      expect(log.body.deliveries[0].status).toBe('succeeded');
      expect(log.body.deliveries[0].attempts.map((a) => a.status_code)).toEqual([500, 500, 200]);
      expect(
        (await stack.api('GET', `/v1/callback/${cb.id}/deliveries?skip=5`, { key: keys.test.secret })).body,
      ).toMatchObject({ deliveries: [], total_count: 1 });
    }, 60_000);

    it('disables at WEBHOOK_DISABLE_AFTER/WEBHOOK_DISABLE_MIN_FAILING; recover sends the skipped events', async () => {
      receiver.script('/down', [500]);
      const cb = await register('/down', ['transaction.success']);
      const since = new Date(Date.now() - 1000).toISOString();
      await paySuccess('hook-down');
      const disabled = await waitFor(
        'the callback to be disabled',
        async () => ((c) => (c.is_active === false ? c : undefined))(await fetchCallback(cb.id)),
        { timeoutMs: 40_000 },
      );
      const failed = receiver.at('/down');
      expect(disabled.failure_count).toBeGreaterThan(2); // the count alone (2) stops it ~1 s in
      expect(failed).toHaveLength(disabled.failure_count as number);
      expect(failed[failed.length - 1].at - failed[0].at).toBeGreaterThanOrEqual(2_500);
      // An event raised while the callback is disabled is recorded as skipped, not dropped.
      await paySuccess('hook-down-2');
      type Log = { deliveries: { status: string; event: string; attempts: unknown[] }[] };
      const log = async (status = '') =>
        (
          await stack.api<Log>('GET', `/v1/callback/${cb.id}/deliveries${status ? `?status=${status}` : ''}`, {
            key: keys.test.secret,
          })
        ).body.deliveries;
      const skipped = await waitFor('the skipped delivery in the log', async () =>
        ((l) => (l.length > 0 ? l : undefined))(await log('skipped')),
      );
      expect(skipped).toEqual([
        expect.objectContaining({ event: 'transaction.success', status: 'skipped', attempts: [] }),
      ]);
      expect((await log()).map((d) => d.status).sort()).toEqual(['failed', 'skipped']);
      expect(receiver.at('/down')).toHaveLength(failed.length);
      receiver.script('/down', [200]); // still disabled: recover is refused
      expect(
        (await stack.api('POST', `/v1/callback/${cb.id}/recover`, { key: keys.test.secret, body: { since } })).status,
      ).toBe(400);
      await stack.api('PUT', `/v1/callback/${cb.id}`, { key: keys.test.secret, body: { is_active: true } });
      expect(await fetchCallback(cb.id)).toMatchObject({ is_active: true, failure_count: 0 });
      expect(
        (await stack.api('POST', `/v1/callback/${cb.id}/recover`, { key: keys.test.secret, body: { since } })).body,
      ).toMatchObject({ result: 'success', requeued: 2 });
      const hits = await waitFor(
        'both recovered deliveries',
        () => (receiver.at('/down').length >= failed.length + 2 ? receiver.at('/down') : undefined),
        { timeoutMs: 30_000 },
      );
      const verifier = new Webhook(await secretOf(cb.id));
      const events = hits
        .slice(failed.length)
        .map((h) => verifier.verify(h.body, h.headers) as { id: string; data: { transaction_reference: string } });
      expect(events.map((e) => e.data.transaction_reference).sort()).toEqual(['hook-down', 'hook-down-2']);
      expect(events.find((e) => e.data.transaction_reference === 'hook-down')!.id).toBe(
        failed[0].headers['webhook-id'],
      );
      await waitFor('both deliveries to be recorded as succeeded', async () => (await log('succeeded')).length === 2);
      expect(
        (await stack.api('POST', `/v1/callback/${cb.id}/recover`, { key: keys.test.secret, body: { since } })).body,
      ).toMatchObject({ requeued: 0 });
    }, 90_000);

    it('disables at once on 410 Gone', async () => {
      receiver.script('/gone', [410]);
      const cb = await register('/gone', ['transaction.success']);
      await paySuccess('hook-gone');
      await waitFor('the callback to be disabled', async () => (await fetchCallback(cb.id)).is_active === false, {
        timeoutMs: 30_000,
      });
      expect(receiver.at('/gone')).toHaveLength(1);
    }, 60_000);

    it('signs with both secrets after a roll, and resends a delivery on request', async () => {
      const cb = await register('/rolled', ['transaction.success']);
      const oldSecret = await secretOf(cb.id);
      const rolled = await stack.api('POST', `/v1/callback/${cb.id}/secret/roll`, { key: keys.test.secret });
      expect(rolled.body).toMatchObject({
        result: 'success',
        secret: expect.stringMatching(/^whsec_/),
        previous_secret_expires_at: expect.any(String),
      });
      const newSecret = rolled.body.secret as string;
      expect(newSecret).not.toBe(oldSecret);
      await paySuccess('hook-rolled');
      const [hit] = await waitFor(
        'the webhook',
        () => (receiver.at('/rolled').length > 0 ? receiver.at('/rolled') : undefined),
        { timeoutMs: 30_000 },
      );
      expect(hit.headers['webhook-signature'].split(' ')).toHaveLength(2);
      expect(() => new Webhook(newSecret).verify(hit.body, hit.headers)).not.toThrow();
      expect(() => new Webhook(oldSecret).verify(hit.body, hit.headers)).not.toThrow();
      expect(() =>
        new Webhook('whsec_' + Buffer.from('not the secret at all 123').toString('base64')).verify(
          hit.body,
          hit.headers,
        ),
      ).toThrow();

      const id = await waitFor('the delivery to be recorded as succeeded', async () => {
        const l = await stack.api<{ deliveries: { delivery_id: string }[] }>(
          'GET',
          `/v1/callback/${cb.id}/deliveries?status=succeeded`,
          { key: keys.test.secret },
        );
        return l.body.deliveries[0]?.delivery_id;
      });
      const resent = await stack.api('POST', `/v1/callback/${cb.id}/deliveries/${id}/resend`, {
        key: keys.test.secret,
      });
      expect(resent.status).toBe(200);
      const hits = await waitFor(
        'the resent webhook',
        () => (receiver.at('/rolled').length >= 2 ? receiver.at('/rolled') : undefined),
        { timeoutMs: 30_000 },
      );
      expect(hits[1].headers['webhook-id']).toBe(hits[0].headers['webhook-id']);
    }, 60_000);

    it('sends refund.* events to the merchant and payout.* events to the partner being paid', async () => {
      const partner = await stack.createBusiness('Hooked Partner');
      const refunds = await register('/refunds', ['refund.pending', 'refund.success']);
      const payouts = await register('/payouts', ['payout.created', 'payout.completed'], partner.test.secret);
      const config = await stack.api('POST', '/v1/splits/config', {
        key: keys.test.secret,
        body: {
          partner_business_id: partner.id,
          split_type: 'fixed',
          split_value: 200,
          split_role: 'fee',
          currency: 'USD',
        },
      });
      expect(config.status).toBe(200);
      await paySuccess('hook-refund');
      await settled(stack, keys.test.secret, 'hook-refund');
      const refund = await stack.api('POST', '/v1/transactions/refund', {
        key: keys.test.secret,
        body: { transaction_reference: 'hook-refund', amount: 500 },
      });
      expect(refund.status).toBe(200);
      const refundHooks = await waitFor(
        'refund.pending and refund.success',
        () => (receiver.at('/refunds').length >= 2 ? receiver.at('/refunds') : undefined),
        { timeoutMs: 30_000 },
      );
      const refundSecret = await secretOf(refunds.id);
      const refundEvents = refundHooks.map(
        (h) => new Webhook(refundSecret).verify(h.body, h.headers) as { event: string; data: Record<string, unknown> },
      );
      expect(refundEvents.map((e) => e.event).sort()).toEqual(['refund.pending', 'refund.success']);
      expect(refundEvents[0].data).toMatchObject({
        refund_id: refund.body.refund_id,
        amount: 500,
        transaction_reference: 'hook-refund',
      });

      const admin = { authorization: `Bearer ${stack.adminToken}` };
      await waitFor(
        'the split entry',
        async () =>
          (await stack.api<{ count: number }>('GET', '/v1/splits/ledger', { key: partner.test.secret })).body.count > 0,
      );
      const run = await stack.api<{ invoices: { invoice_reference: string }[] }>('POST', '/admin/v1/settlements/run', {
        headers: admin,
      });
      expect(run.status).toBe(200);
      const reference = run.body.invoices[0].invoice_reference;
      expect((await stack.api('POST', `/admin/v1/invoices/${reference}/paid`, { headers: admin })).status).toBe(200);
      const payoutHooks = await waitFor(
        'payout.created and payout.completed',
        () => (receiver.at('/payouts').length >= 2 ? receiver.at('/payouts') : undefined),
        { timeoutMs: 30_000 },
      );
      const payoutSecret = await secretOf(payouts.id, partner.test.secret);
      const payoutEvents = payoutHooks.map(
        (h) => new Webhook(payoutSecret).verify(h.body, h.headers) as { event: string; data: Record<string, unknown> },
      );
      expect(payoutEvents.map((e) => e.event).sort()).toEqual(['payout.completed', 'payout.created']);
      for (const e of payoutEvents)
        expect(e.data).toMatchObject({
          invoice_reference: reference,
          creditor_business_id: partner.id,
          currency: 'USD',
        });
    }, 90_000);

    it('cancels pending deliveries of a deleted callback', async () => {
      receiver.script('/deleted', [500]);
      const cb = await register('/deleted', ['transaction.success']);
      await paySuccess('hook-deleted');
      await waitFor('a first failed attempt', () => receiver.at('/deleted').length >= 1, { timeoutMs: 30_000 });
      const deleted = await stack.api('DELETE', `/v1/callback/${cb.id}`, { key: keys.test.secret });
      expect(deleted.status).toBe(200);
      // An attempt in flight at that moment records its outcome but schedules nothing more.
      await waitFor(
        'the delivery to end cancelled',
        async () => {
          const { rows } = await stack
            .db('webhook-dispatcher')
            .query('SELECT status, locked_until FROM deliveries WHERE callback_id = $1', [cb.id]);
          return rows.length === 1 && rows[0].status === 'cancelled' && rows[0].locked_until === null
            ? true
            : undefined;
        },
        { timeoutMs: 15_000 },
      );
    }, 60_000);
  });
});
