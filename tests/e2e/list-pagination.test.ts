import { Stack } from '../support/stack';
import { splitsApi } from '../support/splits';
import { waitFor } from '../support/wait';
import { refusesCursor, walkList } from '../support/pagination';

type Keys = Awaited<ReturnType<Stack['createBusiness']>>;
type Body = Record<string, unknown>;
type Item = {
  transaction_id: string;
  status: string;
  details: { transaction_reference: string; email: string; payment_link_id: string | null; date_created: string };
};
type Page = { result: string; transactions: Item[]; has_more: boolean };

/**
 * Cursor pagination (`limit`, `starting_after`, `ending_before`, `has_more`) and the transaction
 * list's filters, through the gateway against the whole stack.
 */
describe('cursor pagination and filters', () => {
  let stack: Stack;
  let keys: Keys;
  let other: Keys;
  let all: Item[];
  let linkId: string;

  const list = (query: string, key = keys.test.secret) =>
    stack.api<Page>('GET', `/v1/transactions/list?${query}`, { key });
  const ids = (items: Item[]) => items.map((t) => t.transaction_id);

  const pay = async (reference: string, body: Body) => {
    const res = await stack.api('POST', '/v1/transactions', {
      key: keys.test.secret,
      body: { amount: 1000, currency: 'USD', transaction_reference: reference, ...body },
    });
    expect(res.status).toBe(200);
  };
  const status = async (reference: string) =>
    (await stack.api('GET', `/v1/transactions/verify?reference=${reference}`, { key: keys.test.secret })).body.status;

  beforeAll(async () => {
    // The walks below make many requests in a row: well within a merchant's rate limit is not the point here.
    stack = await Stack.start(undefined, {
      RATE_LIMIT_PER_SECOND: '1000',
      RATE_LIMIT_BURST: '1000',
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    });
    [keys, other] = [await stack.createBusiness('Pager'), await stack.createBusiness('Neighbour')];
    const mobile = { payment_method_code: 'ecocash', mobile_money_number: '0771234567' };
    await pay('pg-pending-1', { email: 'first@example.com' });
    await pay('pg-success-1', { email: 'paid@example.com', ...mobile });
    await pay('pg-failed-1', { email: 'paid@example.com', ...mobile, requested_response: 'failed' });
    await pay('pg-pending-2', { email: 'Mixed.Case@Example.com' });
    // A payment through a link: the transaction carries the link's id.
    const link = await stack.api('POST', '/v1/links', {
      key: keys.test.secret,
      body: { amount: 700, currency: 'USD', description: 'Pager link' },
    });
    linkId = link.body.payment_link_id as string;
    const page = await fetch(`${stack.gatewayUrl}/checkout?checkout_id=${linkId}`);
    const token = /name="attempt_token" value="([^"]+)"/.exec(await page.text())?.[1];
    const form = new URLSearchParams({
      checkout_id: linkId,
      attempt_token: token!,
      email: 'link@example.com',
      action: 'decline',
    });
    expect(
      (await fetch(`${stack.gatewayUrl}/checkout/pay`, { method: 'POST', body: form, redirect: 'manual' })).status,
    ).toBeLessThan(400);
    await pay('pg-pending-3', { email: 'last@example.com' });
    await pay('pg-pending-4', { email: 'last@example.com' });
    await waitFor('the sandbox to settle both mobile payments', async () =>
      (await status('pg-success-1')) === 'success' && (await status('pg-failed-1')) === 'failed' ? true : undefined,
    );
    // The neighbour has transactions too: none may appear in the pager's lists, nor serve as its cursor.
    const res = await stack.api('POST', '/v1/transactions', {
      key: other.test.secret,
      body: { amount: 500, currency: 'USD', email: 'n@example.com', transaction_reference: 'pg-neighbour' },
    });
    expect(res.status).toBe(200);
    all = (await list('limit=100')).body.transactions;
  }, 180_000);

  afterAll(async () => {
    await stack?.stop();
  }, 120_000);

  it('lists everything newest first, with has_more false when it all fits', async () => {
    expect(all.map((t) => t.details.transaction_reference)).toEqual([
      'pg-pending-4',
      'pg-pending-3',
      expect.stringMatching(/^ref_/),
      'pg-pending-2',
      'pg-failed-1',
      'pg-success-1',
      'pg-pending-1',
    ]);
    const res = await list('limit=100');
    expect(res.body.has_more).toBe(false);
    const legacy = await list('');
    expect(legacy.status).toBe(200);
    expect(ids(legacy.body.transactions)).toEqual(ids(all));
  });

  it.each([1, 2, 3])('walks forward with limit=%i and sees every transaction once, in order', async (limit) => {
    const seen: Item[] = [];
    let query = `limit=${limit}`;
    for (let pages = 0; pages < 20; pages++) {
      const res = await list(query);
      expect(res.status).toBe(200);
      expect(res.body.transactions.length).toBeLessThanOrEqual(limit);
      seen.push(...res.body.transactions);
      expect(res.body.has_more).toBe(seen.length < all.length);
      if (!res.body.has_more) break;
      query = `limit=${limit}&starting_after=${seen[seen.length - 1].transaction_id}`;
    }
    expect(ids(seen)).toEqual(ids(all));
  });

  it.each([1, 2, 3])(
    'walks backward from the oldest with limit=%i and sees every newer transaction once, in order',
    async (limit) => {
      const oldest = all[all.length - 1].transaction_id;
      const seen: Item[] = [];
      let query = `limit=${limit}&ending_before=${oldest}`;
      for (let pages = 0; pages < 20; pages++) {
        const res = await list(query);
        expect(res.status).toBe(200);
        seen.unshift(...res.body.transactions);
        expect(res.body.has_more).toBe(seen.length < all.length - 1);
        if (!res.body.has_more) break;
        query = `limit=${limit}&ending_before=${res.body.transactions[0].transaction_id}`;
      }
      expect(ids(seen)).toEqual(ids(all.slice(0, -1)));
    },
  );

  it('answers an empty page past either end', async () => {
    const past = await list(`starting_after=${all[all.length - 1].transaction_id}`);
    expect(past.body).toMatchObject({ transactions: [], has_more: false });
    const before = await list(`ending_before=${all[0].transaction_id}`);
    expect(before.body).toMatchObject({ transactions: [], has_more: false });
  });

  it('filters by status, reference, email and payment_link_id', async () => {
    const byStatus = async (s: string) => ids((await list(`status=${s}`)).body.transactions);
    expect(await byStatus('success')).toEqual(ids(all.filter((t) => t.status === 'success')));
    expect(await byStatus('failed')).toEqual(ids(all.filter((t) => t.status === 'failed')));
    expect(await byStatus('pending')).toEqual(ids(all.filter((t) => t.status === 'pending')));
    expect((await byStatus('success')).length).toBe(1);
    expect((await byStatus('failed')).length).toBe(2); // the failed payment and the declined link payment

    expect(ids((await list('reference=pg-pending-2')).body.transactions)).toEqual(
      ids(all.filter((t) => t.details.transaction_reference === 'pg-pending-2')),
    );
    expect((await list('reference=pg-neighbour')).body.transactions).toEqual([]);

    expect(ids((await list('email=paid@example.com')).body.transactions)).toEqual(
      ids(all.filter((t) => t.details.email === 'paid@example.com')),
    );
    expect(ids((await list('email=mixed.case@example.com')).body.transactions)).toEqual(
      ids(all.filter((t) => t.details.transaction_reference === 'pg-pending-2')),
    );

    const byLink = (await list(`payment_link_id=${linkId}`)).body.transactions;
    expect(byLink.map((t) => t.details.payment_link_id)).toEqual([linkId]);

    const combined = await list('email=last@example.com&status=pending&limit=1');
    expect(combined.body.transactions.map((t) => t.details.transaction_reference)).toEqual(['pg-pending-4']);
    expect(combined.body.has_more).toBe(true);
    const rest = await list(
      `email=last@example.com&status=pending&limit=1&starting_after=${combined.body.transactions[0].transaction_id}`,
    );
    expect(rest.body.transactions.map((t) => t.details.transaction_reference)).toEqual(['pg-pending-3']);
    expect(rest.body.has_more).toBe(false);
  });

  it('filters by created[gte|gt|lte|lt] as ISO timestamps and as Unix seconds', async () => {
    const middle = all[3].details.date_created;
    const at = (t: Item) => Date.parse(t.details.date_created);
    const cases: [string, string, (t: Item) => boolean][] = [
      ['gte', middle, (t) => at(t) >= Date.parse(middle)],
      ['gt', middle, (t) => at(t) > Date.parse(middle)],
      ['lte', middle, (t) => at(t) <= Date.parse(middle)],
      ['lt', middle, (t) => at(t) < Date.parse(middle)],
    ];
    const firstSecond = Math.floor(at(all[all.length - 1]) / 1000);
    const afterLast = Math.floor(at(all[0]) / 1000) + 1;
    for (const op of ['gte', 'gt', 'lte', 'lt']) {
      cases.push([
        op,
        String(firstSecond),
        (t) =>
          ({
            gte: at(t) >= firstSecond * 1000,
            gt: at(t) > firstSecond * 1000,
            lte: at(t) <= firstSecond * 1000,
            lt: at(t) < firstSecond * 1000,
          })[op]!,
      ]);
      cases.push([
        op,
        String(afterLast),
        (t) =>
          ({
            gte: at(t) >= afterLast * 1000,
            gt: at(t) > afterLast * 1000,
            lte: at(t) <= afterLast * 1000,
            lt: at(t) < afterLast * 1000,
          })[op]!,
      ]);
    }
    for (const [op, value, keep] of cases) {
      const res = await list(`limit=100&created[${op}]=${encodeURIComponent(value)}`);
      expect({ op, value, status: res.status, ids: ids(res.body.transactions) }).toEqual({
        op,
        value,
        status: 200,
        ids: ids(all.filter(keep)),
      });
    }
    // gt of an object's own time excludes it; gte includes it.
    expect(
      ids(
        (await list(`created[gt]=${encodeURIComponent(middle)}&created[lte]=${encodeURIComponent(middle)}`)).body
          .transactions,
      ),
    ).toEqual([]);
    expect(
      ids(
        (await list(`created[gte]=${encodeURIComponent(middle)}&created[lte]=${encodeURIComponent(middle)}`)).body
          .transactions,
      ),
    ).toContain(all[3].transaction_id);
  });

  it('keeps cursors to the caller: another business’s id, a live-mode caller or an unknown id is a 400', async () => {
    const neighbour = (await list('', other.test.secret)).body.transactions;
    expect(neighbour.map((t) => t.details.transaction_reference)).toEqual(['pg-neighbour']);
    for (const [query, key] of [
      [`starting_after=${neighbour[0].transaction_id}`, keys.test.secret],
      [`ending_before=${neighbour[0].transaction_id}`, keys.test.secret],
      [`starting_after=${all[0].transaction_id}`, other.test.secret],
      [`starting_after=${all[0].transaction_id}`, keys.live.secret],
      ['starting_after=txn_doesnotexist000000000000', keys.test.secret],
    ]) {
      const res = await list(query, key);
      expect({ query, status: res.status, body: res.body }).toMatchObject({
        query,
        status: 400,
        body: {
          result: 'error',
          code: 'validation_error',
          errors: [{ field: expect.stringMatching(/^(starting_after|ending_before)$/) }],
        },
      });
      expect(JSON.stringify(res.body)).not.toContain('pg-neighbour');
    }
  });

  it.each([
    [
      'starting_after and ending_before together',
      () => `starting_after=${all[0].transaction_id}&ending_before=${all[1].transaction_id}`,
      'ending_before',
    ],
    ['a cursor that is not a transaction id', () => 'starting_after=plink_abc', 'starting_after'],
    ['an unknown status', () => 'status=settled', 'status'],
    ['a created bound that is not a time', () => 'created[gte]=yesterday', 'created[gte]'],
    ['an impossible date', () => 'created[lt]=2026-02-30T00:00:00Z', 'created[lt]'],
    ['a payment_link_id that is not one', () => 'payment_link_id=nope', 'payment_link_id'],
  ])('400 for %s', async (_what, query, field) => {
    const res = await list(query());
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      result: 'error',
      code: 'validation_error',
      errors: expect.arrayContaining([expect.objectContaining({ field })]),
      request_id: expect.any(String),
    });
  });

  const walk = (path: string, key: string, field: string, idOf: (o: Body) => string, expected: string[]) =>
    walkList(stack, { path, key, field, idOf }, expected);
  const refusesForeignCursor = (path: string, key: string, foreign: string) => refusesCursor(stack, path, key, foreign);

  describe('refunds of a transaction', () => {
    it('pages refunds oldest first both ways; all without a limit; refuses another transaction’s refund', async () => {
      const refund = async (reference: string, amount: number) => {
        const res = await stack.api('POST', '/v1/transactions/refund', {
          key: keys.test.secret,
          body: { transaction_reference: reference, amount },
        });
        expect(res.status).toBe(200);
        return res.body.refund_id as string;
      };
      const made: string[] = [];
      for (let n = 0; n < 4; n++) made.push(await refund('pg-success-1', 100 + n));
      const path = '/v1/transactions/refunds?transaction_reference=pg-success-1';
      const whole = await stack.api<{ refunds: { refund_id: string }[]; has_more: boolean }>('GET', path, {
        key: keys.test.secret,
      });
      expect(whole.body).toEqual({ result: 'success', refunds: expect.any(Array), has_more: false });
      expect(whole.body.refunds.map((r) => r.refund_id)).toEqual(made);
      await walk(path, keys.test.secret, 'refunds', (r) => r.refund_id as string, made);

      await pay('pg-refund-other', {
        email: 'other@example.com',
        payment_method_code: 'ecocash',
        mobile_money_number: '0771234567',
      });
      await waitFor('the second payment to settle', async () =>
        (await status('pg-refund-other')) === 'success' ? true : undefined,
      );
      const elsewhere = await refund('pg-refund-other', 50);
      await refusesForeignCursor(path, keys.test.secret, elsewhere);
    }, 60_000);
  });

  describe('callbacks and their delivery log', () => {
    const register = async (key: string, n: number) => {
      const res = await stack.api('POST', '/v1/callback', {
        key,
        body: { url: `https://127.0.0.1:1/hook-${n}`, events: ['transaction.success'] },
      });
      expect(res.status).toBe(200);
    };

    it('pages /v1/callback/list and /v1/callback/{id}/deliveries both ways; foreign ids refused', async () => {
      for (let n = 0; n < 4; n++) await register(keys.test.secret, n);
      await register(other.test.secret, 9);
      const callbacks = (
        await stack.api<{ callbacks: { id: number }[]; total_count: number }>('GET', '/v1/callback/list?limit=100', {
          key: keys.test.secret,
        })
      ).body;
      expect(callbacks.total_count).toBe(4);
      const ids = callbacks.callbacks.map((c) => String(c.id));
      expect(ids).toEqual([...ids].sort((a, b) => Number(b) - Number(a)));
      await walk('/v1/callback/list', keys.test.secret, 'callbacks', (c) => String(c.id), ids);
      const legacy = await stack.api('GET', '/v1/callback/list?limit=2&skip=2', { key: keys.test.secret });
      expect(legacy.body).toMatchObject({ total_count: 4, has_more: false });
      expect((legacy.body.callbacks as { id: number }[]).map((c) => String(c.id))).toEqual(ids.slice(2));

      // Test pings to a closed port: each leaves a failed delivery in the log.
      const target = ids[0];
      for (let n = 0; n < 4; n++)
        expect((await stack.api('POST', `/v1/callback/${target}/test`, { key: keys.test.secret })).status).toBe(200);
      const log = (
        await stack.api<{ deliveries: { delivery_id: string }[]; total_count: number }>(
          'GET',
          `/v1/callback/${target}/deliveries?limit=100`,
          { key: keys.test.secret },
        )
      ).body;
      expect(log.total_count).toBe(4);
      const deliveries = log.deliveries.map((d) => d.delivery_id);
      await walk(
        `/v1/callback/${target}/deliveries`,
        keys.test.secret,
        'deliveries',
        (d) => d.delivery_id as string,
        deliveries,
      );
      await walk(
        `/v1/callback/${target}/deliveries?status=failed`,
        keys.test.secret,
        'deliveries',
        (d) => d.delivery_id as string,
        deliveries,
      );

      const foreign = (
        await stack.api<{ callbacks: { id: number }[] }>('GET', '/v1/callback/list', { key: other.test.secret })
      ).body.callbacks[0].id;
      await refusesForeignCursor('/v1/callback/list', keys.test.secret, String(foreign));
      await refusesForeignCursor('/v1/callback/list', keys.live.secret, ids[0]);
      // A delivery of another callback (even the caller's own) does not page this callback's log.
      await stack.api('POST', `/v1/callback/${ids[1]}/test`, { key: keys.test.secret });
      const elsewhere = (
        await stack.api<{ deliveries: { delivery_id: string }[] }>('GET', `/v1/callback/${ids[1]}/deliveries`, {
          key: keys.test.secret,
        })
      ).body.deliveries[0].delivery_id;
      await refusesForeignCursor(`/v1/callback/${target}/deliveries`, keys.test.secret, elsewhere);
      expect((await stack.api('GET', '/v1/callback/list?starting_after=abc', { key: keys.test.secret })).status).toBe(
        400,
      );
      expect(
        (
          await stack.api(
            'GET',
            `/v1/callback/${target}/deliveries?starting_after=${deliveries[0]}&ending_before=${deliveries[1]}`,
            { key: keys.test.secret },
          )
        ).status,
      ).toBe(400);
    }, 60_000);
  });

  describe('split configs, ledger entries and invoices', () => {
    it('pages /v1/splits/config, /v1/splits/ledger, /v1/splits/invoices both ways; foreign ids refused', async () => {
      const { createConfig, pay, admin } = splitsApi(() => stack);
      const merchant = await stack.createBusiness('Split Merchant');
      const partners = [
        await stack.createBusiness('Partner A'),
        await stack.createBusiness('Partner B'),
        await stack.createBusiness('Partner C'),
      ];
      for (const p of partners)
        await createConfig(merchant, {
          partner_business_id: p.id,
          split_type: 'percentage',
          split_value: 1000,
          split_role: 'fee',
          currency: 'USD',
        });
      const configs = (
        await stack.api<{ split_configs: { public_id: string }[]; count: number; has_more: boolean }>(
          'GET',
          '/v1/splits/config',
          { key: merchant.test.secret },
        )
      ).body;
      expect(configs).toMatchObject({ count: 3, has_more: false });
      // count is every config of the business, whatever the page holds.
      const ids = configs.split_configs.map((c) => c.public_id);
      for (const query of ['?limit=1', '?limit=10', `?starting_after=${ids[0]}`, `?limit=1&ending_before=${ids[2]}`]) {
        const page = (
          await stack.api<{ split_configs: unknown[]; count: number }>('GET', `/v1/splits/config${query}`, {
            key: merchant.test.secret,
          })
        ).body;
        expect({ query, count: page.count }).toEqual({ query, count: 3 });
      }
      await walk(
        '/v1/splits/config',
        merchant.test.secret,
        'split_configs',
        (c) => c.public_id as string,
        configs.split_configs.map((c) => c.public_id),
      );
      await refusesForeignCursor('/v1/splits/config', keys.test.secret, configs.split_configs[0].public_id);
      await pay(merchant, 1000);
      await pay(merchant, 2000);
      await waitFor('six ledger entries', async () =>
        (await stack.api<{ count: number }>('GET', '/v1/splits/ledger', { key: merchant.test.secret })).body.count === 6
          ? true
          : undefined,
      );
      const entries = (
        await stack.api<{ ledger_entries: { public_id: string }[] }>('GET', '/v1/splits/ledger?limit=100', {
          key: merchant.test.secret,
        })
      ).body.ledger_entries.map((e) => e.public_id);
      await walk('/v1/splits/ledger', merchant.test.secret, 'ledger_entries', (e) => e.public_id as string, entries);

      expect((await admin('POST', '/admin/v1/settlements/run')).status).toBe(200);
      const invoices = (
        await stack.api<{ invoices: { invoice_reference: string }[]; count: number }>(
          'GET',
          '/v1/splits/invoices?limit=100',
          { key: merchant.test.secret },
        )
      ).body;
      expect(invoices.count).toBe(3);
      const refs = invoices.invoices.map((i) => i.invoice_reference);
      await walk('/v1/splits/invoices', merchant.test.secret, 'invoices', (i) => i.invoice_reference as string, refs);

      // The partner sees its own entry of each payment; the merchant's other entries are not cursors for it.
      const partnerEntries = (
        await stack.api<{ ledger_entries: { public_id: string }[] }>('GET', '/v1/splits/ledger', {
          key: partners[0].test.secret,
        })
      ).body.ledger_entries.map((e) => e.public_id);
      const notTheirs = entries.find((e) => !partnerEntries.includes(e))!;
      await refusesForeignCursor('/v1/splits/ledger', partners[0].test.secret, notTheirs);
      await refusesForeignCursor('/v1/splits/ledger', keys.test.secret, entries[0]);
      await refusesForeignCursor('/v1/splits/invoices', keys.test.secret, refs[0]);
      expect(
        (await stack.api('GET', '/v1/splits/ledger?limit=2&skip=2', { key: merchant.test.secret })).body,
      ).toMatchObject({ count: 6, has_more: true });
    }, 60_000);
  });
});
