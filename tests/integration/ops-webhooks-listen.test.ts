import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { opsCommand, runOps } from '../support/ops';
import { freePort } from '../support/processes';
import { Stack } from '../support/stack';
import { waitFor } from '../support/wait';
import { startPayment } from '../support/payments';

interface Received {
  path: string;
  headers: Record<string, string>;
  body: string;
}
interface EventBody {
  id: string;
  event: string;
  data: { transaction_reference?: string };
}

/** A developer's local plain-HTTP endpoint: /fail answers 500, every other path 200. */
class LocalReceiver {
  readonly received: Received[] = [];
  private server!: Server;
  port = 0;

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        this.received.push({
          path: req.url ?? '',
          headers: req.headers as Record<string, string>,
          body: Buffer.concat(chunks).toString('utf8'),
        });
        res.writeHead(req.url === '/fail' ? 500 : 200).end();
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
  }

  at(path: string): Received[] {
    return this.received.filter((r) => r.path === path);
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/** A running `ops webhooks listen` with everything it printed so far. */
class Listener {
  output = '';
  readonly exited: Promise<number | null>;
  private readonly child: ChildProcess;

  constructor(args: string[], env: Record<string, string>) {
    this.child = spawn(process.execPath, [...opsCommand(), 'webhooks', 'listen', ...args], {
      env: { PATH: process.env.PATH ?? '', ...env },
    });
    this.child.stdout!.on('data', (c: Buffer) => (this.output += c.toString('utf8')));
    this.child.stderr!.on('data', (c: Buffer) => (this.output += c.toString('utf8')));
    this.exited = new Promise((resolve) => this.child.on('exit', (code) => resolve(code)));
  }

  async secret(): Promise<string> {
    return waitFor(
      'the listener to be ready',
      () => /Ready! Your webhook signing secret is (whsec_\S+) \(\^C to quit\)/.exec(this.output)?.[1],
      { timeoutMs: 30_000 },
    );
  }

  /** Ctrl-C: the exit code. */
  interrupt(): Promise<number | null> {
    this.child.kill('SIGINT');
    return this.exited;
  }

  kill(): void {
    this.child.kill('SIGKILL');
  }
}

/**
 * `ops webhooks listen --forward-to` against a real stack: every new event of the business arrives once at a local
 * plain-HTTP endpoint, signed with the printed local secret; an event recorded long after its time still arrives; the
 * type filter; a failing endpoint is reported and the listener carries on; bad flags; a gateway that is down.
 */
describe('ops webhooks listen', () => {
  const receiver = new LocalReceiver();
  let stack: Stack;
  let secretKey: string;
  const listeners: Listener[] = [];

  const listener = (args: string[], env: Record<string, string> = {}) => {
    const l = new Listener(args, { GATEWAY_URL: stack.gatewayUrl, ...env });
    listeners.push(l);
    return l;
  };

  const pay = (reference: string) =>
    startPayment(stack, secretKey, reference, { amount: 1200, email: 'listen@example.com' });

  /** The ids of a payment's events in the events API, once its last one (payment.completed) exists. */
  const eventIdsOf = (reference: string) =>
    waitFor(
      `the events of ${reference}`,
      async () => {
        const list = (
          await stack.api<{ events: EventBody[] }>('GET', '/v1/events?limit=100', { key: secretKey })
        ).body.events.filter((e) => e.data.transaction_reference === reference);
        return list.some((e) => e.event === 'payment.completed') ? list : undefined;
      },
      { timeoutMs: 30_000 },
    );

  const bodies = (path: string) => receiver.at(path).map((r) => JSON.parse(r.body) as EventBody);

  beforeAll(async () => {
    await receiver.start();
    stack = await Stack.start(['transaction-service', 'webhook-dispatcher', 'gateway']);
    secretKey = (await stack.createBusiness('Listening Shop')).test.secret;
  }, 120_000);

  afterAll(async () => {
    for (const l of listeners) l.kill();
    await stack?.stop();
    await receiver.stop();
  }, 120_000);

  it('forwards each new event once, signed with the printed secret, which stays the same between runs', async () => {
    await pay('listen-before');
    const before = await eventIdsOf('listen-before');

    const l = listener([
      '--forward-to',
      `http://127.0.0.1:${receiver.port}/hook`,
      '--api-key',
      secretKey,
      '--poll-interval',
      '200',
    ]);
    const secret = await l.secret();
    expect(l.output).not.toContain(secretKey);

    await pay('listen-a');
    await pay('listen-b');
    const expected = [...(await eventIdsOf('listen-a')), ...(await eventIdsOf('listen-b'))];
    await waitFor(
      'every event at the endpoint',
      () => expected.every((e) => bodies('/hook').some((b) => b.id === e.id)),
      { timeoutMs: 30_000 },
    );

    const hook = receiver.at('/hook');
    const ids = hook.map((r) => r.headers['webhook-id']);
    expect(new Set(ids).size).toBe(ids.length);
    expect(new Set(ids)).toEqual(new Set(expected.map((e) => e.id)));
    expect(ids.filter((id) => before.some((e) => e.id === id))).toEqual([]);
    const verifier = new Webhook(secret);
    for (const r of hook) {
      const payload = verifier.verify(r.body, r.headers) as EventBody;
      expect(payload.id).toBe(r.headers['webhook-id']);
    }
    const success = expected.find((e) => e.event === 'transaction.success')!;
    expect(l.output).toMatch(
      new RegExp(
        `transaction\\.success +${success.id} +→ \\[200\\] ` +
          `POST http://127\\.0\\.0\\.1:${receiver.port}/hook \\(\\d+ ms\\)`,
      ),
    );

    expect(await l.interrupt()).toBe(0);
    const printed = await runOps(stack, ['webhooks', 'listen', '--print-secret', '--api-key', secretKey]);
    expect(printed).toEqual({ code: 0, out: `${secret}\n` });
  }, 120_000);

  it('forwards only the chosen types, and a failing endpoint is reported without stopping the listener', async () => {
    const l = listener(
      [
        '--forward-to',
        `http://127.0.0.1:${receiver.port}/fail`,
        '--events',
        'transaction.success,refund.success',
        '--poll-interval',
        '200',
      ],
      { PAYMENTS_API_KEY: secretKey },
    );
    await l.secret();

    await pay('listen-c');
    const c = (await eventIdsOf('listen-c')).find((e) => e.event === 'transaction.success')!;
    await waitFor('the 500 to be reported', () => l.output.includes(`${c.id}  → [500]`), { timeoutMs: 30_000 });

    await pay('listen-d');
    const d = (await eventIdsOf('listen-d')).find((e) => e.event === 'transaction.success')!;
    await waitFor('the next event to be forwarded too', () => bodies('/fail').some((b) => b.id === d.id), {
      timeoutMs: 30_000,
    });

    expect(bodies('/fail').map((b) => b.event)).toEqual(['transaction.success', 'transaction.success']);
    expect(await l.interrupt()).toBe(0);
  }, 120_000);

  it('forwards an event recorded after the last poll though its time is long past (lagging dispatcher)', async () => {
    const l = listener([
      '--forward-to',
      `http://127.0.0.1:${receiver.port}/late`,
      '--api-key',
      secretKey,
      '--poll-interval',
      '200',
    ]);
    await l.secret();
    await pay('listen-e');
    const recent = await eventIdsOf('listen-e');
    await waitFor(
      'the recent events to be forwarded',
      () => recent.every((e) => bodies('/late').some((b) => b.id === e.id)),
      { timeoutMs: 30_000 },
    );

    // As a dispatcher catching up on a backlog records it: an hour after it happened.
    const late = 'evt_recordedAnHourLate01';
    await stack.db('webhook-dispatcher').query(
      `INSERT INTO webhook_events (id, source_event_id, business_id, mode, event_type, payload, created_at)
       SELECT $1, 'late-source-event', business_id, mode, event_type, payload, now() - interval '1 hour'
         FROM webhook_events WHERE id = $2`,
      [late, recent[0].id],
    );
    await waitFor('the late event to be forwarded', () => bodies('/late').some((b) => b.id === late), {
      timeoutMs: 30_000,
    });
    const forwarded = receiver.at('/late').map((r) => r.headers['webhook-id']);
    expect(new Set(forwarded).size).toBe(forwarded.length);
    expect(new Set(forwarded)).toEqual(new Set([...recent.map((e) => e.id), late]));
    expect(await l.interrupt()).toBe(0);
  }, 120_000);

  it('rejects bad command lines with exit 2 and the usage', async () => {
    const ops = (...args: string[]) => runOps(stack, ['webhooks', 'listen', ...args]);
    const help = await ops('--help');
    expect(help.code).toBe(0);
    expect(help.out).toContain('Usage: ops webhooks listen');

    const cases: [string[], string][] = [
      [['--forward-to', 'http://127.0.0.1:1/x', '--api-key', secretKey, '--bogus'], "unknown option '--bogus'"],
      [['--forward-to', 'ftp://example.com', '--api-key', secretKey], 'expected an http(s) URL'],
      [
        ['--forward-to', 'http://127.0.0.1:1/x', '--api-key', secretKey, '--events', 'transaction.success,nope'],
        'unknown event type nope',
      ],
      [['--api-key', secretKey], "required option '--forward-to <url>'"],
      [['--forward-to', 'http://127.0.0.1:1/x'], 'give --api-key or set PAYMENTS_API_KEY'],
      [['--forward-to', 'http://127.0.0.1:1/x', '--api-key', 'pk_test_' + 'a'.repeat(40)], 'must be a secret key'],
    ];
    for (const [args, message] of cases) {
      const res = await ops(...args);
      expect([args.join(' '), res.code]).toEqual([args.join(' '), 2]);
      expect(res.out).toContain(message);
      expect(res.out).toContain('Usage: ops webhooks listen');
    }
  }, 120_000);

  it('retries while the gateway is down instead of crashing, and ^C still exits 0', async () => {
    const l = listener(['--forward-to', `http://127.0.0.1:${receiver.port}/hook`, '--api-key', secretKey], {
      GATEWAY_URL: `http://127.0.0.1:${await freePort()}`,
    });
    await waitFor('a retry message', () => /is unreachable: ECONNREFUSED; retrying in \d+ s/.test(l.output), {
      timeoutMs: 15_000,
    });
    expect(l.output).not.toContain(secretKey);
    expect(await l.interrupt()).toBe(0);
  }, 60_000);
});
