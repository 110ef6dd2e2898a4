import { Webhook } from 'standardwebhooks';
import { freePort } from '../support/processes';
import { Stack } from '../support/stack';
import { waitFor } from '../support/wait';
import { WebhookReceiver, selfSignedCertificate } from '../support/webhook-receiver';
import { startPayment } from '../support/payments';
import { refusesCursor, walkList } from '../support/pagination';

type Keys = Awaited<ReturnType<Stack['createBusiness']>>;
type Body = Record<string, unknown>;
interface Event {
  id: string;
  event: string;
  created_at: string;
  mode: string;
  data: Body;
}
interface EventPage {
  events: Event[];
  has_more: boolean;
}

/** GET /v1/events and /v1/events/{id}, retention pruning, and POST /v1/callback/{id}/test, against the real stack. */
describe('events API and test webhooks', () => {
  const tls = selfSignedCertificate();
  const receiver = new WebhookReceiver(tls);
  let stack: Stack;
  let keys: Keys;
  let other: Keys;

  beforeAll(async () => {
    await receiver.start();
    stack = await Stack.start(undefined, {
      ...receiver.dispatcherEnv(),
      // A failed delivery stays pending (a retry to come) for the whole file.
      WEBHOOK_RETRY_SCHEDULE: '600',
      WEBHOOK_TIMEOUT_MS: '3000',
      // Shorter than a delivery's: a test ping gives up first.
      WEBHOOK_TEST_TIMEOUT_MS: '2000',
      EVENT_PRUNE_INTERVAL_MS: '1000',
      // walkList reads the list a page of one event at a time.
      RATE_LIMIT_PER_SECOND: '1000',
      RATE_LIMIT_BURST: '1000',
    });
    keys = await stack.createBusiness('Events Shop');
    other = await stack.createBusiness('Other Shop');
  }, 120_000);

  afterAll(async () => {
    await stack?.stop();
    await receiver.stop();
  }, 120_000);

  const register = async (path: string, events: string[], key = keys.test.secret, url = receiver.url(path)) => {
    const res = await stack.api('POST', '/v1/callback', { key, body: { url, events } });
    expect(res.status).toBe(200);
    const list = await stack.api<{ callbacks: (Body & { id: number })[] }>('GET', '/v1/callback/list?limit=100', {
      key,
    });
    return list.body.callbacks.find((c) => c.url === url)!;
  };

  const pay = (reference: string, key = keys.test.secret) =>
    startPayment(stack, key, reference, { amount: 2500, email: 'events@example.com' });

  const events = (query = '', key = keys.test.secret) =>
    stack.api<EventPage & Body>('GET', `/v1/events${query}`, { key });

  const eventsOf = async (reference: string, key = keys.test.secret) =>
    (await events('?limit=100', key)).body.events.filter((e) => e.data.transaction_reference === reference);

  /** Every event of a successful payment, once the last one (payment.completed) is recorded. */
  const allEventsOf = (reference: string, key = keys.test.secret) =>
    waitFor(
      `the events of ${reference}`,
      async () =>
        ((l) => (l.some((e) => e.event === 'payment.completed') ? l : undefined))(await eventsOf(reference, key)),
      { timeoutMs: 30_000 },
    );

  describe('GET /v1/events', () => {
    let webhookBody: Event;

    beforeAll(async () => {
      await register('/completed', ['payment.completed']);
      await pay('evt-ref-1');
      const [hit] = await waitFor(
        'the payment.completed webhook',
        () => (receiver.at('/completed').length > 0 ? receiver.at('/completed') : undefined),
        { timeoutMs: 30_000 },
      );
      webhookBody = JSON.parse(hit.body);
      expect(hit.headers['webhook-id']).toBe(webhookBody.id);
      await allEventsOf('evt-ref-1');
    }, 60_000);

    it('serves the same id and object the webhook carried, listed and by id', async () => {
      const one = await stack.api<{ event: Event } & Body>('GET', `/v1/events/${webhookBody.id}`, {
        key: keys.test.secret,
      });
      expect(one.status).toBe(200);
      expect(one.body).toEqual({ result: 'success', event: webhookBody });
      const listed = await eventsOf('evt-ref-1');
      expect(listed).toContainEqual(webhookBody);
      expect(listed.map((e) => e.event)).toEqual(
        expect.arrayContaining(['payment.completed', 'payment.created', 'payment.updated', 'transaction.success']),
      );
      expect(new Set(listed.map((e) => e.id)).size).toBe(listed.length);
      for (const e of listed)
        expect(e).toEqual({
          id: expect.stringMatching(/^evt_/),
          event: expect.any(String),
          created_at: expect.any(String),
          mode: 'test',
          data: expect.objectContaining({ transaction_reference: 'evt-ref-1' }),
        });
    });

    it('filters by type and by created[...] in ISO timestamps or Unix seconds', async () => {
      const completed = await events('?type=payment.completed&limit=100');
      expect(completed.body.events.length).toBeGreaterThan(0);
      expect(completed.body.events.every((e) => e.event === 'payment.completed')).toBe(true);
      const created = Date.parse(webhookBody.created_at);
      const sec = Math.floor(created / 1000);
      expect((await events(`?created[gt]=${sec + 3600}`)).body).toEqual({
        result: 'success',
        events: [],
        has_more: false,
      });
      expect((await events('?created[lt]=2000-01-01T00:00:00Z')).body.events).toEqual([]);
      const window = await events(
        `?limit=100&created[gte]=${sec}&created[lte]=${new Date(created + 1000).toISOString()}`,
      );
      expect(window.body.events).toContainEqual(webhookBody);
    });

    it('pages with limit, starting_after and ending_before, newest first', async () => {
      await pay('evt-ref-2');
      await allEventsOf('evt-ref-2');
      const all = (await events('?limit=100')).body.events;
      expect(all.length).toBeGreaterThanOrEqual(8);
      const times = all.map((e) => Date.parse(e.created_at));
      expect([...times].sort((a, b) => b - a)).toEqual(times);
      await walkList(
        stack,
        { path: '/v1/events', key: keys.test.secret, field: 'events', idOf: (e) => e.id as string },
        all.map((e) => e.id),
      );
    });

    it('order=recorded lists by when events were recorded, and never past a write still in progress', async () => {
      // On the other business, which has no events of its own here: nothing else moves its list.
      const db = stack.db('webhook-dispatcher');
      const ids = async (query: string) =>
        (await events(`?limit=100${query}`, other.test.secret)).body.events.map((e) => e.id);
      const record = (id: string, age: string) =>
        db.query(
          `INSERT INTO webhook_events (id, source_event_id, business_id, mode, event_type, payload, created_at)
           SELECT $1, $1, $2, 'test', event_type, payload, now() - $3::interval FROM webhook_events WHERE id = $4`,
          [id, other.id, age, webhookBody.id],
        );
      const [first, late] = ['evt_recordedFirst0000001', 'evt_recordedADayLate0001'];
      expect(await ids('&order=recorded')).toEqual([]);
      await record(first, '0 seconds');
      await waitFor(
        'the first event to be listed in recorded order',
        async () => (await ids('&order=recorded')).length === 1,
      );

      // Recorded now with a time a day old, while another transaction is still open.
      const open = await db.connect();
      try {
        await open.query('BEGIN');
        await open.query('SELECT pg_current_xact_id()');
        await record(late, '1 day');
        expect(await ids('')).toEqual([first, late]);
        expect(await ids('&order=recorded')).toEqual([first]);
      } finally {
        await open.query('ROLLBACK');
        open.release();
      }
      // Other transactions of the shared server may still be running: the horizon passes them soon.
      await waitFor('the late event to be listed', async () => (await ids('&order=recorded')).length === 2);
      expect(await ids('&order=recorded')).toEqual([late, first]);
      expect((await events(`?order=recorded&ending_before=${first}`, other.test.secret)).body).toEqual({
        result: 'success',
        events: [expect.objectContaining({ id: late })],
        has_more: false,
      });
      await db.query('DELETE FROM webhook_events WHERE id = ANY ($1::text[])', [[first, late]]);
    });

    it('is scoped to the business and the mode; a public key is refused', async () => {
      for (const key of [other.test.secret, keys.live.secret]) {
        const res = await stack.api('GET', `/v1/events/${webhookBody.id}`, { key });
        expect(res.status).toBe(404);
        expect(res.body.code).toBe('not_found');
        expect((await events('?limit=100', key)).body.events.find((e) => e.id === webhookBody.id)).toBeUndefined();
        await refusesCursor(stack, '/v1/events', key, webhookBody.id);
      }
      for (const path of ['/v1/events', `/v1/events/${webhookBody.id}`]) {
        const res = await stack.api('GET', path, { key: keys.test.public });
        expect(res.status).toBe(403);
        expect(res.body.code).toBe('secret_key_required');
      }
      expect((await stack.api('GET', '/v1/events/evt_doesnotexist', { key: keys.test.secret })).status).toBe(404);
      expect((await stack.api('GET', '/v1/events/not-an-event', { key: keys.test.secret })).status).toBe(404);
    });

    it.each([
      ['?type=ping', 'type'],
      ['?type=transaction.refunded', 'type'],
      ['?limit=0', 'limit'],
      ['?limit=101', 'limit'],
      ['?limit=abc', 'limit'],
      ['?created[gte]=yesterday', 'created[gte]'],
      ['?created[lt]=2025-02-30T00:00:00Z', 'created[lt]'],
      ['?created[gt]=-5', 'created[gt]'],
      ['?starting_after=dlv_123', 'starting_after'],
      ['?starting_after=evt_unknown', 'starting_after'],
      ['?starting_after=evt_a&ending_before=evt_b', 'ending_before'],
      ['?order=inserted', 'order'],
      ['?colour=red', 'colour'],
    ])('400 validation_error for %s', async (query, field) => {
      const res = await stack.api<{ errors: { field: string }[] } & Body>('GET', `/v1/events${query}`, {
        key: keys.test.secret,
      });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('validation_error');
      expect(res.body.errors.map((e) => e.field)).toContain(field);
    });
  });

  describe('POST /v1/callback/{id}/test', () => {
    it('sends a signed ping, answers the status code and duration, and logs the attempt', async () => {
      const cb = await register('/ping-ok', ['transaction.success']);
      const res = await stack.api<Body>('POST', `/v1/callback/${cb.id}/test`, { key: keys.test.secret });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        result: 'success',
        message: 'Test webhook delivered',
        event_id: expect.stringMatching(/^evt_/),
        delivery_id: expect.stringMatching(/^dlv_[0-9a-f]{32}$/),
        status_code: 200,
        duration_ms: expect.any(Number),
        error: null,
      });
      const [hit] = receiver.at('/ping-ok');
      const secret = (await stack.api('GET', `/v1/callback/${cb.id}/secret`, { key: keys.test.secret })).body
        .secret as string;
      const verified = new Webhook(secret).verify(hit.body, hit.headers) as Event;
      expect(verified).toEqual({
        id: res.body.event_id,
        event: 'ping',
        created_at: expect.any(String),
        mode: 'test',
        data: expect.objectContaining({ callback_id: cb.id }),
      });
      const log = await stack.api<{ deliveries: Body[] }>('GET', `/v1/callback/${cb.id}/deliveries`, {
        key: keys.test.secret,
      });
      expect(log.body.deliveries).toContainEqual(
        expect.objectContaining({
          delivery_id: res.body.delivery_id,
          event_id: res.body.event_id,
          event: 'ping',
          status: 'succeeded',
          attempts: [
            expect.objectContaining({ attempt: 1, status_code: 200, duration_ms: res.body.duration_ms, error: null }),
          ],
        }),
      );
      // The ping is readable by id from the log, but never listed among the catalogue events.
      expect(
        (await stack.api('GET', `/v1/events/${res.body.event_id as string}`, { key: keys.test.secret })).status,
      ).toBe(200);
      expect((await events('?limit=100')).body.events.find((e) => e.event === 'ping')).toBeUndefined();
    });

    it('answers the failing status code, and null with the error when nothing answers', async () => {
      receiver.script('/ping-500', [500]);
      const failing = await register('/ping-500', ['transaction.success']);
      const res = await stack.api('POST', `/v1/callback/${failing.id}/test`, { key: keys.test.secret });
      expect(res.body).toMatchObject({
        result: 'success',
        status_code: 500,
        error: 'HTTP 500',
        duration_ms: expect.any(Number),
      });
      const down = await register(
        '/x',
        ['transaction.success'],
        keys.test.secret,
        `https://127.0.0.1:${await freePort()}/hook`,
      );
      const unreachable = await stack.api('POST', `/v1/callback/${down.id}/test`, { key: keys.test.secret });
      expect(unreachable.status).toBe(200);
      expect(unreachable.body).toMatchObject({
        result: 'success',
        status_code: null,
        error: expect.stringMatching(/ECONNREFUSED/),
        duration_ms: expect.any(Number),
      });
      // An endpoint slower than WEBHOOK_TEST_TIMEOUT_MS (though within WEBHOOK_TIMEOUT_MS): the ping
      // answers the timeout once that shorter limit has passed.
      receiver.script('/ping-slow', [200], 2_800);
      const slow = await register('/ping-slow', ['transaction.success']);
      const late = await stack.api<{ duration_ms: number }>('POST', `/v1/callback/${slow.id}/test`, {
        key: keys.test.secret,
      });
      expect(late.body).toMatchObject({ result: 'success', status_code: null, error: 'no response within 2000 ms' });
      expect(late.body.duration_ms).toBeGreaterThanOrEqual(1_990);
      expect(late.body.duration_ms).toBeLessThan(2_800);
      // A ping never counts towards disabling the callback.
      const after = await stack.api<{ callback: Body }>('GET', `/v1/callback/${down.id}`, { key: keys.test.secret });
      expect(after.body.callback).toMatchObject({ is_active: true, failure_count: 0 });
    });

    it('404 for another business’s/mode’s callback, bad ids; 403 for a public key; ping unsubscribable', async () => {
      const cb = await register('/ping-private', ['transaction.success']);
      for (const [key, id] of [
        [other.test.secret, cb.id],
        [keys.live.secret, cb.id],
        [keys.test.secret, 'abc'],
        [keys.test.secret, 2147483647],
      ] as const) {
        const res = await stack.api('POST', `/v1/callback/${id}/test`, { key });
        expect(res.status).toBe(404);
        expect(res.body.code).toBe('not_found');
      }
      expect(receiver.at('/ping-private')).toHaveLength(0);
      const pub = await stack.api('POST', `/v1/callback/${cb.id}/test`, { key: keys.test.public });
      expect(pub.status).toBe(403);
      expect(pub.body.code).toBe('secret_key_required');
      const sub = await stack.api('POST', '/v1/callback', {
        key: keys.test.secret,
        body: { url: receiver.url('/p'), events: ['ping'] },
      });
      expect(sub.status).toBe(400);
    });
  });

  describe('retention', () => {
    it('prunes events past EVENT_RETENTION, but not while one of their deliveries is still pending', async () => {
      receiver.script('/retrying', [500]);
      await register('/retrying', ['payment.completed'], other.test.secret);
      await pay('evt-old', other.test.secret);
      await waitFor('the first failed attempt', () => receiver.at('/retrying').length > 0, { timeoutMs: 30_000 });
      const old = await allEventsOf('evt-old', other.test.secret);
      const db = stack.db('webhook-dispatcher');
      await db.query("UPDATE webhook_events SET created_at = now() - interval '31 days' WHERE id = ANY ($1::text[])", [
        old.map((e) => e.id),
      ]);
      const retrying = old.find((e) => e.event === 'payment.completed')!;
      await waitFor(
        'the settled old events to be pruned',
        async () => (await eventsOf('evt-old', other.test.secret)).length === 1,
        { timeoutMs: 30_000 },
      );
      expect((await eventsOf('evt-old', other.test.secret)).map((e) => e.id)).toEqual([retrying.id]);
      for (const e of old.filter((x) => x.id !== retrying.id)) {
        expect((await stack.api('GET', `/v1/events/${e.id}`, { key: other.test.secret })).status).toBe(404);
      }
      // Once its delivery settles (the callback is deleted: cancelled), it goes too.
      const cb = (
        await stack.api<{ callbacks: { id: number; url: string }[] }>('GET', '/v1/callback/list', {
          key: other.test.secret,
        })
      ).body.callbacks.find((c) => c.url === receiver.url('/retrying'))!;
      await stack.api('DELETE', `/v1/callback/${cb.id}`, { key: other.test.secret });
      await waitFor(
        'the last old event to be pruned',
        async () => (await stack.api('GET', `/v1/events/${retrying.id}`, { key: other.test.secret })).status === 404,
        { timeoutMs: 30_000 },
      );
      // Recent events are untouched.
      expect((await eventsOf('evt-ref-1')).length).toBeGreaterThanOrEqual(4);
    }, 90_000);
  });
});
