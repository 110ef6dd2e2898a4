import { randomUUID } from 'node:crypto';
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  type FakePayment,
  type FakeReply,
  type FakeStore,
  errorReply,
  handleConfirm,
  handleInitiate,
  handlePoll,
  handleTrace,
  statusUpdateFields,
} from './paynow-fake-handlers';
import { type NotificationAttempt, Notifier } from './paynow-fake-notifier';
import type { FakeIntegration, InitiateFields } from './paynow-fake-rules';
import { type WireFields, parseWire, signWire } from './paynow-fake-wire';

export type { FakePayment } from './paynow-fake-handlers';
export type { NotificationAttempt } from './paynow-fake-notifier';

export type FakeEndpoint = 'initiatetransaction' | 'remotetransaction' | 'trace' | 'checkpayment' | 'confirmpayment';
export const FAKE_ENDPOINTS: readonly FakeEndpoint[] = [
  'initiatetransaction',
  'remotetransaction',
  'trace',
  'checkpayment',
  'confirmpayment',
];

/**
 * How an endpoint behaves: `normal`; `down` closes the socket without handling the request; `drop-reply` handles it
 * (the payment exists) and then closes the socket instead of answering; `garbage` answers an HTML page with 200;
 * `bad-hash` answers normally with a corrupted hash; `hang` never answers; `http-500` answers 500; `error` answers
 * Paynow's Error message without handling (trace: "Trace failed", as documented).
 */
export type FakeMode = 'normal' | 'down' | 'drop-reply' | 'garbage' | 'bad-hash' | 'hang' | 'http-500' | 'error';

export interface FakeRequest {
  endpoint: FakeEndpoint | null;
  method: string;
  path: string;
  contentType: string | undefined;
  body: string;
  /** Form fields as received: original key case, original order. */
  fields: WireFields;
  at: number;
}

export interface PaynowFakeOptions {
  integrations: Array<{ id: string; key: string }>;
  /** Multiplies the test-mode delays (5 s, 30 s); 1, the default, is Paynow's. */
  timeScale?: number;
  /** Between two tries of a status update (default 1000 ms: the docs give none). */
  notificationRetryMs?: number;
  notificationTimeoutMs?: number;
  /** Tries per status update in all (default 10, as documented). */
  maxNotificationAttempts?: number;
}

function endpointOf(path: string): { endpoint: FakeEndpoint; arg: string | null } | null {
  const p = path.toLowerCase();
  const m = /^\/interface\/(initiatetransaction|remotetransaction|trace|checkpayment)\/?$/.exec(p);
  if (m) return { endpoint: m[1] as FakeEndpoint, arg: null };
  const page = /^\/payment\/confirmpayment\/(\d+)\/?$/.exec(p);
  return page ? { endpoint: 'confirmpayment', arg: page[1] } : null;
}

/**
 * A Paynow that follows the published protocol, on a real HTTP port, for tests and local runs
 * (tests/support/fakes/paynow-main.ts starts one alone).
 */
export class PaynowFake implements FakeStore {
  /** 'off': status updates are not posted (to test polling alone). */
  notifications: 'on' | 'off' = 'on';
  readonly requests: FakeRequest[] = [];
  readonly integrations: ReadonlyMap<string, FakeIntegration>;
  url = '';
  private readonly all: FakePayment[] = [];
  private readonly modes = new Map<FakeEndpoint, FakeMode>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly notifier: Notifier;
  private readonly timeScale: number;
  private server: Server | null = null;
  private nextReference = 9510;

  constructor(options: PaynowFakeOptions) {
    this.integrations = new Map(options.integrations.map((i) => [i.id, { id: i.id, key: i.key }]));
    this.timeScale = options.timeScale ?? 1;
    this.notifier = new Notifier({
      maxAttempts: options.maxNotificationAttempts ?? 10,
      retryIntervalMs: options.notificationRetryMs ?? 1000,
      timeoutMs: options.notificationTimeoutMs ?? 5000,
    });
  }

  static async start(options: PaynowFakeOptions, port = 0, host = '127.0.0.1'): Promise<PaynowFake> {
    const fake = new PaynowFake(options);
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
    const address = server.address() as AddressInfo;
    this.url = `http://${host}:${address.port}`;
  }

  get payments(): readonly FakePayment[] {
    return this.all;
  }

  get notificationAttempts(): readonly NotificationAttempt[] {
    return this.notifier.attempts;
  }

  setMode(endpoint: FakeEndpoint | 'all', mode: FakeMode): void {
    for (const e of endpoint === 'all' ? FAKE_ENDPOINTS : [endpoint]) this.modes.set(e, mode);
  }

  requestsTo(endpoint: FakeEndpoint): FakeRequest[] {
    return this.requests.filter((r) => r.endpoint === endpoint);
  }

  /** The latest payment with this merchant reference. */
  payment(reference: string): FakePayment | undefined {
    return [...this.all].reverse().find((p) => p.request.reference === reference);
  }

  /**
   * Moves a payment to a status ('Paid', 'Cancelled', 'Failed', 'Refunded', 'Disputed'…); a change is posted to its
   * result URL.
   */
  settle(target: string | FakePayment, status: string): FakePayment {
    const p = typeof target === 'string' ? this.payment(target) : target;
    if (p === undefined) throw new Error(`the fake Paynow has no payment with reference ${String(target)}`);
    if (p.status === status) return p;
    p.status = status;
    if (this.notifications === 'on')
      this.notifier.deliver(p.request.resultUrl, this.signedFields(p, statusUpdateFields(p)));
    return p;
  }

  /**
   * Posts one status update for a payment now (one try, whatever `notifications` says): its current one, with fields
   * replaced, added (new keys go last) or removed (null). The hash is recomputed unless `overrides.hash` gives one.
   */
  sendNotification(reference: string, overrides: Record<string, string | null> = {}): Promise<NotificationAttempt> {
    const p = this.payment(reference);
    if (p === undefined) throw new Error(`the fake Paynow has no payment with reference ${reference}`);
    let fields: WireFields = statusUpdateFields(p);
    for (const [k, v] of Object.entries(overrides)) {
      if (k === 'hash') continue;
      const at = fields.findIndex(([key]) => key === k);
      if (v === null) fields = fields.filter(([key]) => key !== k);
      else if (at >= 0) fields[at] = [k, v];
      else fields.push([k, v]);
    }
    const signed = this.signedFields(p, fields);
    if ('hash' in overrides) {
      signed.pop();
      if (overrides.hash !== null) signed.push(['hash', overrides.hash]);
    }
    return this.notifier.sendOnce(p.request.resultUrl, signed);
  }

  /** Resolves once no status update is being delivered (retries included). */
  idle(): Promise<void> {
    return this.notifier.idle();
  }

  async stop(): Promise<void> {
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    this.notifier.stop();
    await this.notifier.idle();
    const server = this.server;
    this.server = null;
    if (server === null) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  // FakeStore, for the handlers.

  traceTaken(integrationId: string, trace: string): boolean {
    return this.byTrace(integrationId, trace) !== undefined;
  }

  byTrace(integrationId: string, trace: string): FakePayment | undefined {
    return this.all.find((p) => p.integration.id === integrationId && p.request.merchantTrace === trace);
  }

  byGuid(guid: string): FakePayment | undefined {
    return this.all.find((p) => p.guid === guid);
  }

  byPaynowReference(ref: string): FakePayment | undefined {
    return this.all.find((p) => p.paynowReference === ref);
  }

  create(integration: FakeIntegration, request: InitiateFields, flow: 'web' | 'express'): FakePayment {
    const paynowReference = String(this.nextReference++);
    const guid = randomUUID();
    const p: FakePayment = {
      integration,
      paynowReference,
      guid,
      flow,
      request,
      status: flow === 'web' ? 'Created' : 'Sent',
      pollUrl: `${this.url}/Interface/CheckPayment/?guid=${guid}`,
      browserUrl: flow === 'web' ? `${this.url}/Payment/ConfirmPayment/${paynowReference}` : null,
    };
    this.all.push(p);
    const scenario = request.scenario;
    if (scenario?.kind === 'settle') {
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        if (p.status === 'Sent') this.settle(p, scenario.status);
      }, scenario.afterMs * this.timeScale);
      this.timers.add(timer);
    }
    return p;
  }

  private signedFields(p: FakePayment, fields: WireFields): WireFields {
    return parseWire(signWire(fields, p.integration.key));
  }

  private async onRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const url = new URL(req.url ?? '/', 'http://fake');
    const route = endpointOf(url.pathname);
    const isForm = (req.headers['content-type'] ?? '').toLowerCase().startsWith('application/x-www-form-urlencoded');
    const fields = req.method === 'POST' && isForm ? parseWire(body) : [];
    this.requests.push({
      endpoint: route?.endpoint ?? null,
      method: req.method ?? '',
      path: `${url.pathname}${url.search}`,
      contentType: req.headers['content-type'],
      body,
      fields,
      at: Date.now(),
    });
    if (route === null) return this.send(res, { status: 404, contentType: 'text/plain', body: 'Not Found' }, 'normal');
    const mode = this.modes.get(route.endpoint) ?? 'normal';
    if (mode === 'down') return void req.socket.destroy();
    if (mode === 'hang') return; // closed by stop()
    if (mode === 'garbage')
      return this.send(
        res,
        {
          status: 200,
          contentType: 'text/html',
          body: '<!DOCTYPE html><html><head><title>Paynow</title></head><body>Down for maintenance</body></html>',
        },
        mode,
      );
    if (mode === 'http-500')
      return this.send(
        res,
        { status: 500, contentType: 'text/html', body: '<html><body>Server Error</body></html>' },
        mode,
      );
    if (mode === 'error')
      return this.send(res, errorReply(route.endpoint === 'trace' ? 'Trace failed' : 'An error occurred'), mode);
    this.send(res, this.route(route.endpoint, route.arg, req.method ?? '', fields, url), mode);
  }

  private route(endpoint: FakeEndpoint, arg: string | null, method: string, fields: WireFields, url: URL): FakeReply {
    const allowed = endpoint === 'checkpayment' ? ['GET', 'POST'] : endpoint === 'confirmpayment' ? ['GET'] : ['POST'];
    if (!allowed.includes(method)) return { status: 405, contentType: 'text/plain', body: 'Method Not Allowed' };
    if (endpoint === 'initiatetransaction' || endpoint === 'remotetransaction')
      return handleInitiate(this, fields, endpoint === 'remotetransaction');
    if (endpoint === 'trace') return handleTrace(this, fields);
    if (endpoint === 'checkpayment') return handlePoll(this, url.searchParams.get('guid') ?? '');
    return handleConfirm(this, arg as string, url.searchParams.get('outcome'));
  }

  private send(res: ServerResponse, reply: FakeReply, mode: FakeMode): void {
    if (mode === 'drop-reply') return void res.socket?.destroy();
    let body = reply.body;
    if (mode === 'bad-hash')
      body = body.replace(
        /(hash=[0-9A-F]*)([0-9A-F])$/i,
        (_m, head: string, last: string) => head + (last === '0' ? '1' : '0'),
      );
    const headers: Record<string, string> = { 'content-type': reply.contentType };
    if (reply.location) headers.location = reply.location;
    res.writeHead(reply.status, headers);
    res.end(body);
  }
}
