import { randomUUID } from 'node:crypto';
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  type FakePayment,
  type FakeReply,
  type FakeStore,
  checkCompany,
  handleCancelToken,
  handleCreateToken,
  handlePage,
  handleRefundToken,
  handleSubmit,
  handleVerifyToken,
  result,
  verifyFields,
} from './dpo-fake-handlers';
import { type PushAttempt, Pusher } from './dpo-fake-pusher';
import type { CreateFields } from './dpo-fake-rules';
import { childText, flatten, readXml } from './dpo-fake-wire';

export type { FakePayment } from './dpo-fake-handlers';
export type { PushAttempt } from './dpo-fake-pusher';
export { DECLINING_CARD, PAYING_CARD } from './dpo-fake-rules';

export type FakeVerb = 'createToken' | 'verifyToken' | 'refundToken' | 'cancelToken';
export const FAKE_VERBS: readonly FakeVerb[] = ['createToken', 'verifyToken', 'refundToken', 'cancelToken'];

/**
 * How a verb behaves: `normal`; `down` closes the socket without handling the request; `drop-reply` handles it (a token
 * is created, a refund made) and then closes the socket instead of answering; `garbage` answers an HTML page with 200;
 * `hang` never answers; `http-500` answers 500 without handling. (`goOffline()` refuses connections altogether.)
 */
export type FakeMode = 'normal' | 'down' | 'drop-reply' | 'garbage' | 'hang' | 'http-500';

export interface FakeRequest {
  /** The `<Request>` verb, null for the payment page and anything unreadable. */
  verb: string | null;
  method: string;
  path: string;
  contentType: string | undefined;
  body: string;
  /** Every leaf element of an API3G request, flattened; the form fields of a page submission. */
  fields: Record<string, string>;
  at: number;
}

export interface DpoFakeOptions {
  /** The company tokens the fake knows (802 for any other). */
  companies: string[];
  /** Where pushes go after each successful payment (DPO: a URL set up on the account). None: no push. */
  pushUrl?: string | null;
  pushRetryMs?: number;
  pushTimeoutMs?: number;
  /** Tries per push in all (default 3: DPO does not document its retries). */
  maxPushAttempts?: number;
}

/**
 * A DPO Pay (3G Direct Pay API v6) that follows the published protocol, on a real HTTP port, for
 * tests and local runs (tests/support/fakes/dpo-main.ts starts one alone): `POST /API/v6/`
 * dispatching on `<Request>`, and the payment page `payv2.php?ID=`.
 */
export class DpoFake implements FakeStore {
  pushUrl: string | null;
  readonly requests: FakeRequest[] = [];
  readonly companies: ReadonlySet<string>;
  url = '';
  private readonly all: FakePayment[] = [];
  private readonly modes = new Map<FakeVerb, FakeMode>();
  private readonly pusher: Pusher;
  private server: Server | null = null;
  private host = '127.0.0.1';
  private port = 0;
  private nextRef = 1_000_001;

  constructor(options: DpoFakeOptions) {
    this.companies = new Set(options.companies);
    this.pushUrl = options.pushUrl ?? null;
    this.pusher = new Pusher({
      maxAttempts: options.maxPushAttempts ?? 3,
      retryIntervalMs: options.pushRetryMs ?? 1000,
      timeoutMs: options.pushTimeoutMs ?? 5000,
    });
  }

  static async start(options: DpoFakeOptions, port = 0, host = '127.0.0.1'): Promise<DpoFake> {
    const fake = new DpoFake(options);
    await fake.listen(port, host);
    return fake;
  }

  async listen(port = 0, host = '127.0.0.1'): Promise<void> {
    const server = createServer((req, res) => void this.onRequest(req, res));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, resolve);
    });
    this.server = server;
    this.host = host;
    this.port = (server.address() as AddressInfo).port;
    this.url = `http://${host}:${this.port}`;
  }

  get payments(): readonly FakePayment[] {
    return this.all;
  }

  get pushes(): readonly PushAttempt[] {
    return this.pusher.attempts;
  }

  setMode(verb: FakeVerb | 'all', mode: FakeMode): void {
    for (const v of verb === 'all' ? FAKE_VERBS : [verb]) this.modes.set(v, mode);
  }

  requestsTo(verb: FakeVerb): FakeRequest[] {
    return this.requests.filter((r) => r.verb === verb);
  }

  /** The latest payment with this CompanyRef (our transaction id). */
  payment(companyRef: string): FakePayment | undefined {
    return [...this.all].reverse().find((p) => p.request.companyRef === companyRef);
  }

  /** Stops listening: connections are refused (a connector's request is certainly never sent) until `goOnline`. */
  async goOffline(): Promise<void> {
    await this.close();
  }

  async goOnline(): Promise<void> {
    if (this.server === null) await this.listen(this.port, this.host);
  }

  /**
   * The customer pays (or tries to) on the page: what the browser's form post does. Returns where the browser is sent.
   */
  pay(token: string, card: string = '5436886269848367'): FakeReply {
    return this.submit(token, 'pay', card);
  }

  cancel(token: string): FakeReply {
    return this.submit(token, 'cancel', '');
  }

  /**
   * From now on verifyToken and pushes say this TransactionAmount for the payment (an amount mismatch); null: the real
   * one.
   */
  setVerifyAmount(token: string, amount: string | null): void {
    const p = this.byToken(null, token);
    if (p === undefined) throw new Error(`the fake DPO has no token ${token}`);
    p.verifyAmount = amount;
  }

  /**
   * From now on verifyToken says this TransactionCurrency for the payment (a currency mismatch); null: the real one.
   */
  setVerifyCurrency(token: string, currency: string | null): void {
    const p = this.byToken(null, token);
    if (p === undefined) throw new Error(`the fake DPO has no token ${token}`);
    p.verifyCurrency = currency;
  }

  /** Moves the payment's creation back past its payment time limit (verifyToken then answers 903 while unpaid). */
  expire(token: string): void {
    const p = this.byToken(null, token);
    if (p === undefined) throw new Error(`the fake DPO has no token ${token}`);
    p.createdAt = Date.now() - p.request.ptlMs - 1;
  }

  /** Posts one push for a payment now (one try, whatever its status), with fields replaced, added or removed (null). */
  sendPush(
    token: string,
    overrides: Record<string, string | null> = {},
    url: string | null = this.pushUrl,
  ): Promise<PushAttempt> {
    const p = this.byToken(null, token);
    if (p === undefined) throw new Error(`the fake DPO has no token ${token}`);
    if (url === null) throw new Error('the fake DPO has no push URL');
    let fields = this.pushFields(p);
    for (const [k, v] of Object.entries(overrides)) {
      const at = fields.findIndex(([key]) => key === k);
      if (v === null) fields = fields.filter(([key]) => key !== k);
      else if (at >= 0) fields[at] = [k, v];
      else fields.push([k, v]);
    }
    return this.pusher.sendOnce(url, fields);
  }

  /** Resolves once no push is being delivered (retries included). */
  idle(): Promise<void> {
    return this.pusher.idle();
  }

  async stop(): Promise<void> {
    this.pusher.stop();
    await this.pusher.idle();
    await this.close();
  }

  // FakeStore, for the handlers.

  create(company: string, request: CreateFields): FakePayment {
    const p: FakePayment = {
      company,
      token: randomUUID().toUpperCase(),
      transRef: `R${this.nextRef++}`,
      request,
      createdAt: Date.now(),
      status: 'unpaid',
      approval: null,
      cardEnding: null,
      refundedCents: 0,
      refunds: [],
      verifyAmount: null,
      verifyCurrency: null,
    };
    this.all.push(p);
    return p;
  }

  byToken(company: string | null, token: string): FakePayment | undefined {
    return this.all.find(
      (p) => p.token.toLowerCase() === token.toLowerCase() && (company === null || p.company === company),
    );
  }

  /** A paid one first, else the latest. */
  byCompanyRef(company: string, ref: string): FakePayment | undefined {
    const mine = this.all.filter((p) => p.company === company && p.request.companyRef === ref);
    return mine.find((p) => p.status === 'paid') ?? mine.at(-1);
  }

  paid(p: FakePayment): void {
    if (this.pushUrl !== null) this.pusher.deliver(this.pushUrl, this.pushFields(p));
  }

  private pushFields(p: FakePayment): Array<[string, string]> {
    const [code, explanation, ...rest] = verifyFields(p);
    return [
      code,
      explanation,
      ['TransactionToken', p.token],
      ['TransactionRef', p.transRef],
      ['CompanyRef', p.request.companyRef],
      ...rest,
    ];
  }

  private submit(token: string, action: string, card: string): FakeReply {
    const reply = handleSubmit(this, token, action, card);
    this.requests.push({
      verb: null,
      method: 'POST',
      path: '/payv2.php',
      contentType: 'application/x-www-form-urlencoded',
      body: '',
      fields: { ID: token, action, card },
      at: Date.now(),
    });
    return reply;
  }

  private async close(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (server === null) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private async onRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const url = new URL(req.url ?? '/', 'http://fake');
    const record: FakeRequest = {
      verb: null,
      method: req.method ?? '',
      path: `${url.pathname}${url.search}`,
      contentType: req.headers['content-type'],
      body,
      fields: {},
      at: Date.now(),
    };
    this.requests.push(record);
    if (url.pathname === '/payv2.php') {
      if (req.method === 'GET') return this.send(res, handlePage(this, url.searchParams.get('ID') ?? ''), 'normal');
      if (req.method !== 'POST')
        return this.send(res, { status: 405, contentType: 'text/plain', body: 'Method Not Allowed' }, 'normal');
      const form = new URLSearchParams(body);
      record.fields = Object.fromEntries(form);
      return this.send(
        res,
        handleSubmit(this, form.get('ID') ?? '', form.get('action') ?? '', form.get('card') ?? ''),
        'normal',
      );
    }
    if (url.pathname !== '/API/v6/' && url.pathname !== '/API/v6')
      return this.send(res, { status: 404, contentType: 'text/plain', body: 'Not Found' }, 'normal');
    if (req.method !== 'POST')
      return this.send(res, { status: 405, contentType: 'text/plain', body: 'Method Not Allowed' }, 'normal');
    const root = readXml(body);
    if (root === null || root.name !== 'API3G') return this.send(res, result('804', 'Error in XML'), 'normal');
    record.fields = flatten(root);
    const verb = childText(root, 'Request') ?? '';
    record.verb = verb;
    const mode = (FAKE_VERBS as readonly string[]).includes(verb)
      ? (this.modes.get(verb as FakeVerb) ?? 'normal')
      : 'normal';
    if (mode === 'down') return void req.socket.destroy();
    if (mode === 'hang') return; // closed by stop()
    if (mode === 'garbage')
      return this.send(
        res,
        {
          status: 200,
          contentType: 'text/html',
          body: '<!DOCTYPE html><html><head><title>DPO</title></head><body>Scheduled maintenance</body></html>',
        },
        mode,
      );
    if (mode === 'http-500')
      return this.send(
        res,
        { status: 500, contentType: 'text/html', body: '<html><body>Internal Server Error</body></html>' },
        mode,
      );
    const company = checkCompany(this, root);
    if (!company.ok) return this.send(res, company.reply, mode);
    if (verb === 'createToken') return this.send(res, handleCreateToken(this, company.company, root), mode);
    if (verb === 'verifyToken') return this.send(res, handleVerifyToken(this, company.company, root), mode);
    if (verb === 'refundToken') return this.send(res, handleRefundToken(this, company.company, root), mode);
    if (verb === 'cancelToken') return this.send(res, handleCancelToken(this, company.company, root), mode);
    this.send(res, result('803', 'No request or error in Request type name'), mode);
  }

  private send(res: ServerResponse, reply: FakeReply, mode: FakeMode): void {
    if (mode === 'drop-reply') return void res.socket?.destroy();
    // No keep-alive: a client holds no pooled connection, so `goOffline` is refused at once (never a stale socket).
    const headers: Record<string, string> = { 'content-type': reply.contentType, connection: 'close' };
    if (reply.location) headers.location = reply.location;
    res.writeHead(reply.status, headers);
    res.end(reply.body);
  }
}
