import { randomUUID } from 'node:crypto';
import { LedgerRpcPatterns, RpcPatterns, WebhookRpcPatterns } from '@payments/contracts';
import { RpcSigner, type RpcScope } from '@payments/platform';
import { databaseSnapshot, rawRpc, rawRpcSession, type RawFrame, type RawReply } from '../support/raw-rpc';
import { Stack } from '../support/stack';
import { waitFor } from '../support/wait';
import type { AppName } from '../support/processes';
import { payAndSettle } from '../support/payments';

type Service = Exclude<AppName, 'gateway'>;
const SERVICES: Service[] = ['transaction-service', 'split-ledger-service', 'webhook-dispatcher'];

/**
 * The internal RPC ports seen from an attacker on the network: a raw TCP client writing the framed
 * wire format, with no credentials, a wrong secret, an old message, a captured message replayed, a
 * merchant-scoped call of an admin pattern and an oversize frame. Every one is refused before any
 * handler runs.
 */
describe('internal RPC trust boundary', () => {
  let stack: Stack;
  let keys: Awaited<ReturnType<Stack['createBusiness']>>;
  let victimRef: string;

  const frame = (pattern: string, data: unknown, auth?: unknown): RawFrame => ({
    header: { pattern, id: randomUUID(), ...(auth ? { auth } : {}) },
    body: JSON.stringify(data),
  });
  const event = (pattern: string, data: unknown): RawFrame => ({ header: { pattern }, body: JSON.stringify(data) });
  const signed = (pattern: string, data: unknown, opts: { secret?: string; scope?: RpcScope; at?: number } = {}) =>
    frame(
      pattern,
      data,
      new RpcSigner(opts.secret ?? stack.rpcSecret, opts.scope ?? 'merchant').sign(
        pattern,
        JSON.stringify(data),
        undefined,
        opts.at,
      ),
    );
  const ctx = () => ({
    request_id: `req_attack_${randomUUID().slice(0, 8)}`,
    business_id: keys.id,
    mode: 'test',
    key_type: 'secret',
  });

  /** What an attacker would run on each service: reads of secrets and writes of money. */
  const attacks = (): { app: Service; pattern: string; data: unknown }[] => [
    {
      app: 'transaction-service',
      pattern: RpcPatterns.TransactionsVerify,
      data: { ctx: ctx(), body: { reference: victimRef } },
    },
    {
      app: 'transaction-service',
      pattern: RpcPatterns.RefundsCreate,
      data: { ctx: ctx(), body: { transaction_reference: victimRef, amount: 100 } },
    },
    {
      app: 'transaction-service',
      pattern: RpcPatterns.TransactionsInitialize,
      data: {
        ctx: ctx(),
        body: {
          amount: 500,
          email: 'x@example.com',
          currency: 'USD',
          payment_method_code: 'ecocash',
          mobile_money_number: '0771234567',
        },
      },
    },
    {
      app: 'split-ledger-service',
      pattern: LedgerRpcPatterns.SettlementRun,
      data: { ctx: { request_id: 'req_attack' }, body: {} },
    },
    {
      app: 'split-ledger-service',
      pattern: LedgerRpcPatterns.SplitConfigsCreate,
      data: {
        ctx: ctx(),
        body: {
          partner_business_id: keys.id + 1,
          split_type: 'percentage',
          split_value: 10,
          split_role: 'fee',
          currency: 'USD',
        },
      },
    },
    {
      app: 'webhook-dispatcher',
      pattern: WebhookRpcPatterns.CallbacksList,
      data: { ctx: ctx(), body: { limit: 10, skip: 0 } },
    },
    {
      app: 'webhook-dispatcher',
      pattern: WebhookRpcPatterns.CallbacksSecret,
      data: { ctx: ctx(), body: { callback_id: 'cb_x' } },
    },
    {
      app: 'webhook-dispatcher',
      pattern: WebhookRpcPatterns.CallbacksCreate,
      data: { ctx: ctx(), body: { url: 'http://127.0.0.1:9/hook', events: ['transaction.success'] } },
    },
  ];

  const snapshots = async () =>
    Object.fromEntries(await Promise.all(SERVICES.map(async (a) => [a, await databaseSnapshot(stack.db(a))] as const)));
  /**
   * Waits until no background work (sandbox settlement, relays, consumers) changes any database, and the ledger's
   * daily-totals changes are folded (its compactor looks every 2 s, longer than the comparison's window).
   */
  const quiet = () =>
    waitFor(
      'databases to stop changing',
      async () => {
        const first = await snapshots();
        if (!first['split-ledger-service'].ledger_daily_totals_changes.startsWith('0:')) return undefined;
        const a = JSON.stringify(first);
        await new Promise((r) => setTimeout(r, 500));
        return a === JSON.stringify(await snapshots()) ? a : undefined;
      },
      { timeoutMs: 30_000 },
    );

  const expectRefused = (replies: RawReply[], reason: string) => {
    for (const r of replies)
      expect({ code: r.err?.code, message: r.err?.message, response: r.response }).toEqual({
        code: 'rpc_refused',
        message: `request refused: ${reason}`,
        response: undefined,
      });
  };

  beforeAll(async () => {
    stack = await Stack.start();
    keys = await stack.createBusiness('Victim Shop');
    victimRef = `victim-${randomUUID().slice(0, 8)}`;
    await payAndSettle(stack, keys.test.secret, victimRef, { amount: 5000 });
  }, 180_000);

  afterAll(async () => {
    await stack?.stop();
  }, 120_000);

  it('refuses calls without credentials, with a wrong secret, or signed too long ago; nothing changes', async () => {
    const before = await quiet();
    for (const { app, pattern, data } of attacks()) {
      const port = stack.rpcPort(app);
      expectRefused(await rawRpc(port, [frame(pattern, data)]), 'missing');
      expectRefused(
        await rawRpc(port, [
          signed(pattern, data, { secret: 'not-the-secret-0123456789abcdefghijkl', scope: 'admin' }),
        ]),
        'bad_signature',
      );
      expectRefused(
        await rawRpc(port, [
          signed(pattern, data, {
            scope: pattern === LedgerRpcPatterns.SettlementRun ? 'admin' : 'merchant',
            at: Date.now() - 5 * 60_000,
          }),
        ]),
        'expired',
      );
      // An event (no id) gets no answer either way; the next request on the connection proves it was read.
      const [afterEvent] = await rawRpc(port, [event(pattern, data), frame(pattern, data)]);
      expectRefused([afterEvent], 'missing');
    }
    // An unknown pattern is refused like any other, not answered with "no handler".
    expectRefused(await rawRpc(stack.rpcPort('transaction-service'), [frame('debug.eval', {})]), 'missing');
    expect(JSON.stringify(await snapshots())).toBe(before);
  });

  it('refuses admin patterns signed with the merchant scope', async () => {
    const before = await quiet();
    const port = stack.rpcPort('split-ledger-service');
    expectRefused(
      await rawRpc(port, [signed(LedgerRpcPatterns.SettlementRun, { ctx: { request_id: 'req_x' }, body: {} })]),
      'scope',
    );
    expectRefused(
      await rawRpc(port, [
        signed(LedgerRpcPatterns.InvoiceMarkPaid, {
          ctx: { request_id: 'req_x' },
          body: { invoice_reference: 'INV-1' },
        }),
      ]),
      'scope',
    );
    expect(JSON.stringify(await snapshots())).toBe(before);
  });

  it('runs a valid message once and refuses the same message replayed inside the window', async () => {
    const message = signed(RpcPatterns.RefundsCreate, {
      ctx: ctx(),
      body: { transaction_reference: victimRef, amount: 700 },
    });
    const [first] = await rawRpc(stack.rpcPort('transaction-service'), [message]);
    expect(first.err).toBeUndefined();
    expect(first.response).toMatchObject({ ok: true, data: { refund_id: expect.any(String) } });
    const [again] = await rawRpc(stack.rpcPort('transaction-service'), [message]);
    expectRefused([again], 'replayed');
    const { rows } = await stack.db('transaction-service').query(`SELECT count(*)::int AS n FROM refunds`);
    expect(rows[0].n).toBe(1);
  });

  it('drops a connection announcing an oversize frame without reading it, and keeps serving', async () => {
    for (const app of SERVICES) {
      // Claims 2 GiB: refused on its 4-byte length, so the service never buffers the rest.
      const prefix = Buffer.alloc(4);
      prefix.writeUInt32BE(0x7fffffff);
      const session = await rawRpcSession(stack.rpcPort(app), [Buffer.concat([prefix, Buffer.alloc(64 * 1024, 0x61)])]);
      expect(session).toEqual({ replies: [], closedByPeer: true });
      const metrics = await (await fetch(stack.metricsUrl(app))).text();
      expect(metrics).toMatch(/rpc_requests_refused_total\{[^}]*reason="oversize"[^}]*\} [1-9]/);
    }
    const verify = await stack.api('GET', `/v1/transactions/verify?reference=${victimRef}`, { key: keys.test.secret });
    expect(verify.status).toBe(200);
  });

  it('logs each refusal with the peer address and counts it by reason', async () => {
    for (const app of SERVICES) {
      const line = stack
        .app(app)
        .output.split('\n')
        .find((l) => l.includes('RPC request refused'));
      expect(line).toBeDefined();
      expect(JSON.parse(line!)).toMatchObject({
        level: 'warn',
        peer: expect.stringMatching(/^127\.0\.0\.1:\d+$/),
        reason: expect.any(String),
      });
      const metrics = await (await fetch(stack.metricsUrl(app))).text();
      for (const reason of ['missing', 'bad_signature', 'expired']) {
        expect(metrics).toMatch(new RegExp(`rpc_requests_refused_total\\{[^}]*reason="${reason}"[^}]*\\} [1-9]`));
      }
    }
  });

  it('still serves the gateway: merchant calls and the admin API work', async () => {
    const verify = await stack.api('GET', `/v1/transactions/verify?reference=${victimRef}`, { key: keys.test.secret });
    expect(verify.status).toBe(200);
    const run = await stack.api('POST', '/admin/v1/settlements/run', {
      headers: { authorization: `Bearer ${stack.adminToken}` },
    });
    expect(run.status).toBe(200);
  });
});
