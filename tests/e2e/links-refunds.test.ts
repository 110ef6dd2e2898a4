import { Stack } from '../support/stack';
import { waitFor } from '../support/wait';
import { payAndSettle, startPayment } from '../support/payments';
import { refusesCursor, walkList } from '../support/pagination';

type Keys = Awaited<ReturnType<Stack['createBusiness']>>;
type Body = Record<string, unknown>;
type LinkPage = { result: string; links: Body[]; has_more: boolean };

/** Managing payment links, refunds with a default amount and a reason, and amount_refunded on reads. */
describe('payment links management and refunds', () => {
  let stack: Stack;
  let keys: Keys;
  let other: Keys;
  const links: string[] = [];

  const createLink = async (key: string, description: string, amount = 1000) => {
    const res = await stack.api('POST', '/v1/links', { key, body: { amount, currency: 'USD', description } });
    expect(res.status).toBe(200);
    return res.body.payment_link_id as string;
  };

  const verify = (reference: string) =>
    stack.api('GET', `/v1/transactions/verify?reference=${reference}`, { key: keys.test.secret });

  beforeAll(async () => {
    stack = await Stack.start();
    [keys, other] = [await stack.createBusiness('Shop'), await stack.createBusiness('Other')];
    // Oldest first: links[4] is the newest.
    for (let i = 0; i < 5; i++) links.push(await createLink(keys.test.secret, `Link ${i}`, 1000 + i));
  }, 120_000);

  afterAll(async () => {
    await stack?.stop();
  }, 120_000);

  describe('GET /v1/links', () => {
    it('lists the business’s links newest first with the create response’s names', async () => {
      const res = await stack.api<LinkPage>('GET', '/v1/links', { key: keys.test.secret });
      expect(res.status).toBe(200);
      expect(res.body.has_more).toBe(false);
      expect(res.body.links.map((l) => l.payment_link_id)).toEqual([...links].reverse());
      expect(res.body.links[0]).toEqual({
        payment_link_id: links[4],
        hosted_payment_link: `${stack.gatewayUrl}/checkout?checkout_id=${links[4]}`,
        amount: 1004,
        charges: expect.any(Number),
        total: expect.any(Number),
        currency: 'USD',
        description: 'Link 4',
        metadata: {},
        splits: [],
        success_url: null,
        failure_url: null,
        active: true,
        is_active: true,
        date_created: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        date_updated: expect.any(String),
        date_deactivated: null,
      });
    });

    it('pages with limit, starting_after and ending_before', async () => {
      await walkList(
        stack,
        { path: '/v1/links', key: keys.test.secret, field: 'links', idOf: (l) => l.payment_link_id as string },
        [...links].reverse(),
      );
    });

    it('shows nothing of another business or of live mode, and refuses their ids as cursors', async () => {
      expect((await stack.api<LinkPage>('GET', '/v1/links', { key: other.test.secret })).body.links).toEqual([]);
      expect((await stack.api<LinkPage>('GET', '/v1/links', { key: keys.live.secret })).body.links).toEqual([]);
      await refusesCursor(stack, '/v1/links', other.test.secret, links[2]);
    });

    it.each([
      ['limit=0'],
      ['limit=101'],
      ['limit=x'],
      ['starting_after=txn_123'],
      ['starting_after=plink_aaaaaaaaaa&ending_before=plink_bbbbbbbbbb'],
      ['colour=blue'],
    ])('400 for %s', async (query) => {
      const res = await stack.api('GET', `/v1/links?${query}`, { key: keys.test.secret });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({
        result: 'error',
        code: 'validation_error',
        errors: [expect.objectContaining({ field: expect.any(String) })],
      });
    });

    it('403 for a public key on every link endpoint', async () => {
      for (const [method, path] of [
        ['GET', '/v1/links'],
        ['GET', `/v1/links/${links[0]}`],
        ['POST', `/v1/links/${links[0]}/deactivate`],
      ]) {
        const res = await stack.api(method, path, { key: keys.test.public });
        expect({ path, status: res.status, code: res.body.code }).toEqual({
          path,
          status: 403,
          code: 'secret_key_required',
        });
      }
    });
  });

  describe('GET /v1/links/{id} and POST /v1/links/{id}/deactivate', () => {
    it('fetches one link; 404 for another business, live mode, unknown or malformed ids', async () => {
      const res = await stack.api('GET', `/v1/links/${links[1]}`, { key: keys.test.secret });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        result: 'success',
        payment_link_id: links[1],
        amount: 1001,
        description: 'Link 1',
        active: true,
      });
      for (const [key, id] of [
        [other.test.secret, links[1]],
        [keys.live.secret, links[1]],
        [keys.test.secret, 'plink_doesnotexist0000'],
        [keys.test.secret, 'nope'],
      ]) {
        expect((await stack.api('GET', `/v1/links/${id}`, { key })).status).toBe(404);
        expect((await stack.api('POST', `/v1/links/${id}/deactivate`, { key })).status).toBe(404);
      }
      // Nothing was deactivated by the refused attempts.
      expect((await stack.api('GET', `/v1/links/${links[1]}`, { key: keys.test.secret })).body.active).toBe(true);
    });

    it('deactivates a link (idempotently); its page says it is no longer active and paying it is refused', async () => {
      const id = await createLink(keys.test.secret, 'Retired');
      const before = await fetch(`${stack.gatewayUrl}/checkout?checkout_id=${id}`);
      expect(before.status).toBe(200);
      const token = /name="attempt_token" value="([^"]+)"/.exec(await before.text())?.[1];

      const off = await stack.api('POST', `/v1/links/${id}/deactivate`, { key: keys.test.secret });
      expect(off.status).toBe(200);
      expect(off.body).toMatchObject({
        result: 'success',
        payment_link_id: id,
        active: false,
        is_active: false,
        date_deactivated: expect.any(String),
      });
      const again = await stack.api('POST', `/v1/links/${id}/deactivate`, { key: keys.test.secret });
      expect(again.body).toMatchObject({ active: false, date_deactivated: off.body.date_deactivated });
      expect((await stack.api('GET', `/v1/links/${id}`, { key: keys.test.secret })).body.active).toBe(false);

      const page = await fetch(`${stack.gatewayUrl}/checkout?checkout_id=${id}`);
      expect(page.status).toBe(410);
      const html = await page.text();
      expect(html).toContain('This payment link is no longer active');
      expect(html).not.toContain('<form');

      const form = new URLSearchParams({
        checkout_id: id,
        attempt_token: token!,
        email: 'late@example.com',
        payment_method_code: 'zimswitch',
        action: 'pay',
      });
      const paid = await fetch(`${stack.gatewayUrl}/checkout/pay`, { method: 'POST', body: form, redirect: 'manual' });
      expect(paid.status).toBe(410);
      const { rows } = await stack
        .db('transaction-service')
        .query('SELECT count(*)::int AS n FROM transactions WHERE payment_link_id = $1', [id]);
      expect(rows[0].n).toBe(0);
    });
  });

  describe('refunds', () => {
    it('defaults the amount to what is left, stores the reason, lists refunds and shows amount_refunded', async () => {
      await payAndSettle(stack, keys.test.secret, 'rf-1', { amount: 5000 });
      const part = await stack.api('POST', '/v1/transactions/refund', {
        key: keys.test.secret,
        body: { transaction_reference: 'rf-1', amount: 1500, reason: 'damaged item' },
      });
      expect(part.status).toBe(200);
      expect(part.body).toMatchObject({
        refund_id: expect.stringMatching(/^rfd_/),
        status: 'pending',
        amount: 1500,
        reason: 'damaged item',
      });
      const rest = await stack.api('POST', '/v1/transactions/refund', {
        key: keys.test.secret,
        body: { transaction_reference: 'rf-1' },
      });
      expect(rest.status).toBe(200);
      expect(rest.body).toMatchObject({ amount: 3500, reason: null });
      const none = await stack.api('POST', '/v1/transactions/refund', {
        key: keys.test.secret,
        body: { transaction_reference: 'rf-1' },
      });
      expect(none.status).toBe(422);
      expect(none.body).toMatchObject({ code: 'refund_exceeds_amount' });

      const listed = await waitFor('both refunds to settle', async () => {
        const res = await stack.api<{ result: string; refunds: Body[] }>(
          'GET',
          '/v1/transactions/refunds?transaction_reference=rf-1',
          { key: keys.test.secret },
        );
        return res.body.refunds?.every((r) => r.status === 'success') ? res : undefined;
      });
      expect(listed.status).toBe(200);
      expect(listed.body.refunds).toEqual([
        expect.objectContaining({
          refund_id: part.body.refund_id,
          amount: 1500,
          status: 'success',
          reason: 'damaged item',
          date_created: expect.any(String),
        }),
        expect.objectContaining({ refund_id: rest.body.refund_id, amount: 3500, status: 'success', reason: null }),
      ]);
      const one = await stack.api('GET', `/v1/transactions/refunds/${part.body.refund_id}`, { key: keys.test.secret });
      expect(one.body).toMatchObject({ reason: 'damaged item' });

      const verified = await verify('rf-1');
      expect(verified.body.amount_refunded).toBe(5000);
      const fetched = await stack.api('GET', `/v1/transactions/fetch?publicId=${verified.body.transaction_id}`, {
        key: keys.test.secret,
      });
      expect(fetched.body.amount_refunded).toBe(5000);
      const list = await stack.api<{ transactions: { details: Body }[] }>('GET', '/v1/transactions/list', {
        key: keys.test.secret,
      });
      expect(
        list.body.transactions.find((t) => t.details.transaction_reference === 'rf-1')?.details.amount_refunded,
      ).toBe(5000);
    });

    it('counts only successful refunds in amount_refunded', async () => {
      await payAndSettle(stack, keys.test.secret, 'rf-2', { amount: 2000 });
      expect((await verify('rf-2')).body.amount_refunded).toBe(0);
      const res = await stack.api('POST', '/v1/transactions/refund', {
        key: keys.test.secret,
        body: { transaction_reference: 'rf-2', amount: 700 },
      });
      expect(res.status).toBe(200);
      await waitFor('the refund to settle', async () =>
        (await verify('rf-2')).body.amount_refunded === 700 ? true : undefined,
      );
    });

    it('empty page for a transaction without refunds; 404 for another business’s/mode’s reference; 400s', async () => {
      const unknown = await stack.api('GET', '/v1/transactions/refunds?transaction_reference=rf-2-none', {
        key: keys.test.secret,
      });
      expect(unknown.status).toBe(404);
      await startPayment(stack, keys.test.secret, 'rf-3', { amount: 100 });
      const noRefunds = await stack.api('GET', '/v1/transactions/refunds?transaction_reference=rf-3', {
        key: keys.test.secret,
      });
      expect(noRefunds.body).toEqual({ result: 'success', refunds: [], has_more: false });
      for (const key of [other.test.secret, keys.live.secret]) {
        expect((await stack.api('GET', '/v1/transactions/refunds?transaction_reference=rf-1', { key })).status).toBe(
          404,
        );
      }
      expect((await stack.api('GET', '/v1/transactions/refunds', { key: keys.test.secret })).status).toBe(400);
      expect(
        (await stack.api('GET', '/v1/transactions/refunds?transaction_reference=rf-1', { key: keys.test.public }))
          .status,
      ).toBe(403);
      for (const reason of ['', 'x'.repeat(501), 42]) {
        const bad = await stack.api('POST', '/v1/transactions/refund', {
          key: keys.test.secret,
          body: { transaction_reference: 'rf-2', reason },
        });
        expect(bad.status).toBe(400);
        expect(bad.body).toMatchObject({ code: 'validation_error', errors: [{ field: 'reason' }] });
      }
    });
  });
});
