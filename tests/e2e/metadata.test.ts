import { Stack } from '../support/stack';
import { waitFor } from '../support/wait';
import { WebhookReceiver, selfSignedCertificate } from '../support/webhook-receiver';
import { sandboxPayment, settled as settledPayment } from '../support/payments';

type Keys = Awaited<ReturnType<Stack['createBusiness']>>;
type Body = Record<string, unknown>;
type ErrorBody = {
  result: string;
  code: string;
  message: string;
  errors: { field: string; message: string }[];
  request_id: string;
};
interface Event {
  id: string;
  event: string;
  data: Body;
}

const keysOf = (n: number, value = 'v') => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, value]));
const KEY_40 = 'k'.repeat(40);
const KEY_41 = 'k'.repeat(41);

/**
 * `metadata` and `description` on transactions, payment links and refunds: Stripe's limits, every
 * read, the webhooks a real HTTPS receiver gets, the events API, link updates and idempotency.
 */
describe('metadata and description', () => {
  const tls = selfSignedCertificate();
  const receiver = new WebhookReceiver(tls);
  let stack: Stack;
  let keys: Keys;
  let other: Keys;

  beforeAll(async () => {
    await receiver.start();
    stack = await Stack.start(undefined, { ...receiver.dispatcherEnv(), WEBHOOK_TIMEOUT_MS: '3000' });
    [keys, other] = [await stack.createBusiness('Meta Shop'), await stack.createBusiness('Other Shop')];
    const hook = await stack.api('POST', '/v1/callback', {
      key: keys.test.secret,
      body: { url: receiver.url('/hooks'), events: ['payment.completed', 'refund.success'] },
    });
    expect(hook.status).toBe(200);
  }, 120_000);

  afterAll(async () => {
    await stack?.stop();
    await receiver.stop();
  }, 120_000);

  const initialize = (reference: string, extra: Body = {}, headers: Record<string, string> = {}) =>
    stack.api<Body & ErrorBody>('POST', '/v1/transactions', {
      key: keys.test.secret,
      headers,
      body: sandboxPayment(reference, { amount: 2000, email: 'meta@example.com', ...extra }),
    });
  const verify = (reference: string) =>
    stack.api<Body>('GET', `/v1/transactions/verify?reference=${reference}`, { key: keys.test.secret });
  const settled = (reference: string) => settledPayment(stack, keys.test.secret, reference);
  const webhook = (event: string, match: (data: Body) => boolean) =>
    waitFor(
      `the ${event} webhook`,
      () =>
        receiver
          .at('/hooks')
          .map((r) => JSON.parse(r.body) as Event)
          .find((e) => e.event === event && match(e.data)),
      { timeoutMs: 30_000 },
    );
  const event = async (id: string) =>
    (await stack.api<{ event: Event }>('GET', `/v1/events/${id}`, { key: keys.test.secret })).body.event;

  describe('limits (Stripe’s rules), each broken rule a 400 naming the field', () => {
    it.each([
      ['50 keys', keysOf(50)],
      ['a 40-character key', { [KEY_40]: 'x' }],
      ['a 500-character value', { note: 'é'.repeat(500) }],
      ['no keys', {}],
    ])('accepts %s', async (_what, metadata) => {
      const res = await initialize(`meta-ok-${Object.keys(metadata).length}-${JSON.stringify(metadata).length}`, {
        metadata,
      });
      expect(res.status).toBe(200);
      expect(res.body.metadata).toEqual(metadata);
    });

    it.each([
      ['51 keys', keysOf(51), 'metadata', 'may have at most 50 keys (has 51)'],
      ['a 41-character key', { [KEY_41]: 'x' }, `metadata.${KEY_41}`, 'key must be at most 40 characters'],
      ['a 501-character value', { note: 'x'.repeat(501) }, 'metadata.note', 'must be at most 500 characters'],
      ['a number value', { qty: 2 }, 'metadata.qty', 'must be a string (not number)'],
      ['a boolean value', { gift: true }, 'metadata.gift', 'must be a string (not boolean)'],
      [
        'a nested object',
        { order: { id: '1' } },
        'metadata.order',
        'must be a string (nested objects and arrays are not allowed)',
      ],
      [
        'an array value',
        { ids: ['1'] },
        'metadata.ids',
        'must be a string (nested objects and arrays are not allowed)',
      ],
      ['square brackets in a key', { 'a[b]': 'x' }, 'metadata.a[b]', 'key must not contain square brackets'],
      ['an array', ['x'], 'metadata', 'must be an object of string values (at most 50 keys)'],
      ['a string', 'x', 'metadata', 'must be an object of string values (at most 50 keys)'],
    ])('rejects %s and stores nothing', async (_what, metadata, field, message) => {
      const reference = `meta-bad-${field.length}-${JSON.stringify(metadata).length}`;
      const res = await initialize(reference, { metadata });
      expect({ status: res.status, code: res.body.code, message: res.body.message, first: res.body.errors[0] }).toEqual(
        {
          status: 400,
          code: 'validation_error',
          message: `${field} ${message}`,
          first: { field, message },
        },
      );
      expect(res.body.request_id).toMatch(/^req_/);
      expect((await verify(reference)).status).toBe(404);
    });

    it('names the first broken rule: a type error before a range error', async () => {
      const res = await initialize('meta-order', { metadata: { [KEY_41]: 'x', qty: 3 } });
      expect(res.status).toBe(400);
      expect(res.body.errors.map((e) => e.field)).toEqual(['metadata.qty', `metadata.${KEY_41}`]);
    });

    it('limits description to a string of at most 1000 characters', async () => {
      expect((await initialize('meta-desc-ok', { description: 'd'.repeat(1000) })).body.description).toBe(
        'd'.repeat(1000),
      );
      const long = await initialize('meta-desc-long', { description: 'd'.repeat(1001) });
      expect({ status: long.status, first: long.body.errors[0] }).toEqual({
        status: 400,
        first: { field: 'description', message: 'must be at most 1000 characters' },
      });
      const typed = await initialize('meta-desc-type', { description: 7 });
      expect({ status: typed.status, first: typed.body.errors[0] }).toEqual({
        status: 400,
        first: { field: 'description', message: 'must be a string' },
      });
    });

    it('applies the same rules to payment links and refunds, storing nothing', async () => {
      const link = await stack.api<ErrorBody>('POST', '/v1/links', {
        key: keys.test.secret,
        body: { amount: 100, currency: 'USD', description: 'L', metadata: keysOf(51) },
      });
      expect({ status: link.status, field: link.body.errors[0].field }).toEqual({ status: 400, field: 'metadata' });
      const links = await stack.api<{ links: Body[] }>('GET', '/v1/links?limit=100', { key: keys.test.secret });
      expect(links.body.links).toEqual([]);

      await initialize('meta-refund-bad');
      await settled('meta-refund-bad');
      const refund = await stack.api<ErrorBody>('POST', '/v1/transactions/refund', {
        key: keys.test.secret,
        body: { transaction_reference: 'meta-refund-bad', metadata: { a: { b: 'c' } } },
      });
      expect({ status: refund.status, field: refund.body.errors[0].field }).toEqual({
        status: 400,
        field: 'metadata.a',
      });
      const desc = await stack.api<ErrorBody>('POST', '/v1/transactions/refund', {
        key: keys.test.secret,
        body: { transaction_reference: 'meta-refund-bad', description: 'x'.repeat(1001) },
      });
      expect({ status: desc.status, field: desc.body.errors[0].field }).toEqual({ status: 400, field: 'description' });
      const refunds = await stack.api<{ refunds: Body[] }>(
        'GET',
        '/v1/transactions/refunds?transaction_reference=meta-refund-bad',
        { key: keys.test.secret },
      );
      expect(refunds.body.refunds).toEqual([]);
    });
  });

  describe('round trip', () => {
    const metadata = { order_id: 'A-1001', customer: 'cus_77', note: 'leave at the door' };
    const description = '2 shirts for meta@example.com';

    it('a transaction: create response, verify, fetch, list, webhook and events API', async () => {
      const init = await initialize('meta-rt-1', { metadata: { ...metadata, dropped: '' }, description });
      expect(init.status).toBe(200);
      expect(init.body).toMatchObject({ metadata, description });
      const verified = await settled('meta-rt-1');
      expect(verified).toMatchObject({ metadata, description });
      const fetched = await stack.api('GET', `/v1/transactions/fetch?publicId=${init.body.transaction_id as string}`, {
        key: keys.test.secret,
      });
      expect(fetched.body).toMatchObject({ metadata, description });
      const list = await stack.api<{ transactions: Body[] }>('GET', '/v1/transactions/list?limit=500', {
        key: keys.test.secret,
      });
      expect(list.body.transactions.find((t) => t.transaction_id === init.body.transaction_id)).toMatchObject({
        metadata,
        description,
      });

      const hook = await webhook('payment.completed', (d) => d.transaction_reference === 'meta-rt-1');
      expect(hook.data).toMatchObject({ metadata, description });
      expect(hook.data.metadata).toEqual(metadata);
      expect(await event(hook.id)).toEqual(hook);
      const listed = await stack.api<{ events: Event[] }>('GET', '/v1/events?type=payment.created&limit=100', {
        key: keys.test.secret,
      });
      expect(listed.body.events.find((e) => e.data.transaction_reference === 'meta-rt-1')?.data).toMatchObject({
        metadata,
        description,
      });
    });

    it('shows a transaction’s description, never its metadata, on the hosted checkout page', async () => {
      const init = await stack.api('POST', '/v1/transactions', {
        key: keys.test.secret,
        body: {
          amount: 900,
          email: 'page@example.com',
          currency: 'USD',
          description: 'Blue <mug> x2',
          metadata: { internal_note: 'vip-customer-77' },
        },
      });
      const page = await fetch(init.body.checkout_url as string);
      const html = await page.text();
      expect(page.status).toBe(200);
      expect(html).toContain('Blue &lt;mug&gt; x2');
      expect(html).not.toContain('vip-customer-77');
    });

    it('keeps keys that are special to JavaScript as plain keys', async () => {
      const raw =
        '{"amount":900,"email":"k@example.com","currency":"USD","transaction_reference":"meta-proto",' +
        '"metadata":{"__proto__":"p","constructor":"c"}}';
      const init = await stack.api('POST', '/v1/transactions', { key: keys.test.secret, rawBody: raw });
      expect(init.status).toBe(200);
      expect((await verify('meta-proto')).body.metadata).toEqual(JSON.parse('{"__proto__":"p","constructor":"c"}'));
    });

    it('a public key may set them too', async () => {
      const init = await stack.api('POST', '/v1/transactions', {
        key: keys.test.public,
        body: {
          amount: 900,
          email: 'pk@example.com',
          currency: 'USD',
          metadata: { cart: 'c-1' },
          description: 'From the web page',
        },
      });
      expect(init.status).toBe(200);
      expect((await verify(init.body.transaction_reference as string)).body).toMatchObject({
        metadata: { cart: 'c-1' },
        description: 'From the web page',
      });
    });

    it('a transaction without them reads {} and null everywhere', async () => {
      const init = await initialize('meta-rt-none');
      expect(init.body).toMatchObject({ metadata: {}, description: null });
      expect(await settled('meta-rt-none')).toMatchObject({ metadata: {}, description: null });
      const hook = await webhook('payment.completed', (d) => d.transaction_reference === 'meta-rt-none');
      expect(hook.data).toMatchObject({ metadata: {}, description: null });
    });

    it('a refund: create response, get, list, refund.success webhook (with its reason) and events API', async () => {
      await initialize('meta-rt-refund');
      await settled('meta-rt-refund');
      const body = {
        transaction_reference: 'meta-rt-refund',
        amount: 500,
        reason: 'damaged item',
        metadata: { rma: 'RMA-9' },
        description: 'partial refund',
      };
      const created = await stack.api('POST', '/v1/transactions/refund', { key: keys.test.secret, body });
      expect(created.status).toBe(200);
      expect(created.body).toMatchObject({
        reason: 'damaged item',
        metadata: { rma: 'RMA-9' },
        description: 'partial refund',
      });
      const id = created.body.refund_id as string;
      const expected = {
        refund_id: id,
        reason: 'damaged item',
        metadata: { rma: 'RMA-9' },
        description: 'partial refund',
      };
      expect((await stack.api('GET', `/v1/transactions/refunds/${id}`, { key: keys.test.secret })).body).toMatchObject(
        expected,
      );
      const list = await stack.api<{ refunds: Body[] }>(
        'GET',
        '/v1/transactions/refunds?transaction_reference=meta-rt-refund',
        { key: keys.test.secret },
      );
      expect(list.body.refunds).toEqual([expect.objectContaining(expected)]);
      const hook = await webhook('refund.success', (d) => d.refund_id === id);
      expect(hook.data).toMatchObject(expected);
      expect(await event(hook.id)).toEqual(hook);
    });

    it('a payment link: create response, get and list', async () => {
      const created = await stack.api('POST', '/v1/links', {
        key: keys.test.secret,
        body: { amount: 700, currency: 'USD', description: 'Tee', metadata: { sku: 'TEE-1' } },
      });
      expect(created.status).toBe(200);
      expect(created.body).toMatchObject({ description: 'Tee', metadata: { sku: 'TEE-1' } });
      const id = created.body.payment_link_id as string;
      expect((await stack.api('GET', `/v1/links/${id}`, { key: keys.test.secret })).body).toMatchObject({
        description: 'Tee',
        metadata: { sku: 'TEE-1' },
      });
      const list = await stack.api<{ links: Body[] }>('GET', '/v1/links?limit=100', { key: keys.test.secret });
      expect(list.body.links.find((l) => l.payment_link_id === id)).toMatchObject({ metadata: { sku: 'TEE-1' } });
    });
  });

  describe('POST /v1/links/{id} (update, Stripe semantics)', () => {
    let id: string;
    const update = (body: unknown, key = keys.test.secret, linkId = id) =>
      stack.api<Body & ErrorBody>('POST', `/v1/links/${linkId}`, { key, body });
    const current = async () => (await stack.api<Body>('GET', `/v1/links/${id}`, { key: keys.test.secret })).body;

    beforeAll(async () => {
      const created = await stack.api('POST', '/v1/links', {
        key: keys.test.secret,
        body: { amount: 900, currency: 'USD', description: 'Mug', metadata: { a: '1', b: '2' } },
      });
      id = created.body.payment_link_id as string;
    });

    it('merges keys, removes a key set to "", changes the description, and clears all with null or ""', async () => {
      const merged = await update({ metadata: { b: '20', c: '3', a: '' } });
      expect(merged.status).toBe(200);
      expect(merged.body).toMatchObject({
        result: 'success',
        payment_link_id: id,
        description: 'Mug',
        metadata: { b: '20', c: '3' },
      });
      expect((await current()).metadata).toEqual({ b: '20', c: '3' });
      const described = await update({ description: 'Big mug' });
      expect(described.body).toMatchObject({ description: 'Big mug', metadata: { b: '20', c: '3' } });
      expect((await update({ metadata: null })).body.metadata).toEqual({});
      await update({ metadata: { z: '1' } });
      expect((await update({ metadata: '' })).body.metadata).toEqual({});
      expect(await current()).toMatchObject({ description: 'Big mug', metadata: {} });
    });

    it('refuses an update that would leave more than 50 keys, or breaks a rule, changing nothing', async () => {
      await update({ metadata: keysOf(30) });
      const before = await current();
      const tooMany = await update({
        metadata: Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`n${i}`, 'v'])),
      });
      expect({ status: tooMany.status, first: tooMany.body.errors[0] }).toEqual({
        status: 400,
        first: { field: 'metadata', message: 'may have at most 50 keys (the update would leave 51)' },
      });
      for (const body of [{ description: '' }, { description: null }, { metadata: { k1: 5 } }, { active: false }]) {
        expect({ body, status: (await update(body)).status }).toEqual({ body, status: 400 });
      }
      expect(await current()).toEqual(before);
    });

    it('is 404 for another business’s link or an unknown id', async () => {
      expect((await update({ metadata: { x: '1' } }, other.test.secret)).status).toBe(404);
      expect((await update({ metadata: { x: '1' } }, keys.test.secret, 'plink_doesnotexist00')).status).toBe(404);
    });
  });

  it('an Idempotency-Key replay compares metadata: a change is refused, a reordering is the same request', async () => {
    const headers = { 'Idempotency-Key': 'meta-idem-1' };
    const first = await initialize('meta-idem', { metadata: { a: '1', b: '2' } }, headers);
    expect(first.status).toBe(200);
    const reordered = await initialize('meta-idem', { metadata: { b: '2', a: '1' } }, headers);
    expect({
      status: reordered.status,
      replayed: reordered.headers.get('idempotent-replayed'),
      body: reordered.body,
    }).toEqual({ status: 200, replayed: 'true', body: first.body });
    const changed = await initialize('meta-idem', { metadata: { a: '1', b: '3' } }, headers);
    expect({ status: changed.status, code: changed.body.code }).toEqual({
      status: 422,
      code: 'idempotency_key_reused',
    });
  });
});
