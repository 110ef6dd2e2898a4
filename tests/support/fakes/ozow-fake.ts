import { randomUUID } from 'node:crypto';
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  type OzowFakeReply,
  type OzowFakeStore,
  handleByReference,
  handleGetTransaction,
  handlePostPaymentRequest,
  handleRefundSubmit,
  handleToken,
} from './ozow-fake-handlers';
import {
  type FakeOzowPayment,
  type FakeOzowRefund,
  type FakeOzowTransaction,
  autoPostPage,
  paymentPage,
  refundFields,
  responseFields,
  statusMessageFor,
} from './ozow-fake-model';
import { type OzowNotificationAttempt, OzowNotifier } from './ozow-fake-notifier';
import type { FakeSite, FormFields } from './ozow-fake-rules';
import {
  OZOW_FAKE_ENDPOINTS,
  type OzowFakeEndpoint,
  type OzowFakeMode,
  type OzowFakeRequest,
  endpointOf,
} from './ozow-fake-routes';

export type { FakeOzowPayment, FakeOzowRefund, FakeOzowTransaction } from './ozow-fake-model';
export type { OzowNotificationAttempt } from './ozow-fake-notifier';
export type { FakeSite } from './ozow-fake-rules';
export {
  OZOW_FAKE_ENDPOINTS,
  type OzowFakeEndpoint,
  type OzowFakeMode,
  type OzowFakeRequest,
} from './ozow-fake-routes';

export interface OzowFakeOptions {
  sites: FakeSite[];
  notificationRetryMs?: number;
  notificationTimeoutMs?: number;
  maxNotificationAttempts?: number;
  /** Refunds become Complete (and are notified) this long after submission; null: only `settleRefund`. */
  refundSettleMs?: number | null;
}

/** What the customer's browser is sent to after choosing, and the form it posts there. */
export interface BrowserReturn {
  target: string;
  fields: FormFields;
  body: string;
}

/**
 * An Ozow that follows its published API on a real HTTP port (ozow-main.ts starts one alone). A payment request gets
 * a page URL where the customer (or `customerChooses`) picks an outcome; the response variables are then posted to
 * the success, cancel or error URL by an auto-submitting form, and to the notify URL.
 */
export class OzowFake implements OzowFakeStore {
  /** 'off': no server-to-server notifications (to test the return URL or polling alone). */
  notifications: 'on' | 'off' = 'on';
  /** Post Pending first, then the final status. */
  pendingFirst = false;
  /** How many times each final notification is delivered (Ozow may send duplicates). */
  duplicates = 1;
  readonly requests: OzowFakeRequest[] = [];
  readonly sites: readonly FakeSite[];
  readonly tokens = new Map<string, FakeSite>();
  url = '';
  private readonly allPayments: FakeOzowPayment[] = [];
  private readonly allRefunds: FakeOzowRefund[] = [];
  private readonly modes = new Map<OzowFakeEndpoint, OzowFakeMode>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly notifier: OzowNotifier;
  private readonly refundSettleMs: number | null;
  private server: Server | null = null;

  constructor(options: OzowFakeOptions) {
    this.sites = options.sites;
    this.refundSettleMs = options.refundSettleMs ?? null;
    this.notifier = new OzowNotifier({
      maxAttempts: options.maxNotificationAttempts ?? 5,
      retryIntervalMs: options.notificationRetryMs ?? 1000,
      timeoutMs: options.notificationTimeoutMs ?? 5000,
    });
  }

  static async start(options: OzowFakeOptions, port = 0, host = '127.0.0.1'): Promise<OzowFake> {
    const fake = new OzowFake(options);
    const server = createServer((req, res) => void fake.onRequest(req, res));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, resolve);
    });
    fake.server = server;
    fake.url = `http://${host}:${(server.address() as AddressInfo).port}`;
    return fake;
  }

  get payments(): readonly FakeOzowPayment[] {
    return this.allPayments;
  }

  get refunds(): readonly FakeOzowRefund[] {
    return this.allRefunds;
  }

  get notificationAttempts(): readonly OzowNotificationAttempt[] {
    return this.notifier.attempts;
  }

  addPayment(p: FakeOzowPayment): void {
    this.allPayments.push(p);
  }

  addRefund(r: FakeOzowRefund): void {
    this.allRefunds.push(r);
    if (this.refundSettleMs === null) return;
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      if (r.status === 'Pending') this.settleRefund(r.refundId, 'Complete');
    }, this.refundSettleMs);
    this.timers.add(timer);
  }

  setMode(endpoint: OzowFakeEndpoint | 'all', mode: OzowFakeMode): void {
    for (const e of endpoint === 'all' ? OZOW_FAKE_ENDPOINTS : [endpoint]) this.modes.set(e, mode);
  }

  requestsTo(endpoint: OzowFakeEndpoint): OzowFakeRequest[] {
    return this.requests.filter((r) => r.endpoint === endpoint);
  }

  /** The latest payment request with this TransactionReference (our transaction id). */
  payment(reference: string): FakeOzowPayment | undefined {
    return [...this.allPayments].reverse().find((p) => p.request.transactionReference === reference);
  }

  private mustPayment(reference: string): FakeOzowPayment {
    const p = this.payment(reference);
    if (p === undefined) throw new Error(`the fake Ozow has no payment request with reference ${reference}`);
    return p;
  }

  /** The customer opens the payment page: a transaction is started (Pending) unless one is open. */
  open(p: FakeOzowPayment): FakeOzowTransaction {
    const last = p.transactions[p.transactions.length - 1];
    if (last !== undefined && ['Pending', 'PendingInvestigation'].includes(last.status)) return last;
    const t: FakeOzowTransaction = {
      transactionId: randomUUID(),
      status: 'Pending',
      statusMessage: '',
      createdDate: new Date().toISOString(),
      paymentDate: null,
    };
    p.transactions.push(t);
    return t;
  }

  /**
   * The customer picks an outcome on the payment page (Complete, Cancelled or Error; a test may give
   * any status): notifications go to the notify URL (Pending first if `pendingFirst`, the final one
   * `duplicates` times), and what the browser is sent back with is returned.
   */
  customerChooses(reference: string, status: string): BrowserReturn {
    return this.choose(this.mustPayment(reference), status);
  }

  /** Changes the latest transaction's status without the browser (Abandoned, PendingInvestigation…), notifying it. */
  setStatus(reference: string, status: string): FakeOzowTransaction {
    const p = this.mustPayment(reference);
    const t = this.open(p);
    this.apply(p, t, status);
    return t;
  }

  /**
   * The amount the notifications and the status API say for this payment (a mismatch test); null: the requested one.
   */
  overrideAmount(reference: string, amount: string | null): void {
    this.mustPayment(reference).notifiedAmount = amount;
  }

  /**
   * The response variables of the latest transaction with fields replaced. The Hash stays the one
   * signed over the real values (a forgery) unless `overrides.Hash` replaces it.
   */
  responseFor(reference: string, overrides: Record<string, string> = {}): FormFields {
    const p = this.mustPayment(reference);
    return responseFields(p, p.transactions[p.transactions.length - 1] ?? this.open(p)).map(([k, v]) => [
      k,
      overrides[k] ?? v,
    ]);
  }

  /**
   * Posts one notification now (one try): the latest transaction's, with fields replaced (a forgery keeps the old
   * Hash).
   */
  sendNotification(reference: string, overrides: Record<string, string> = {}): Promise<OzowNotificationAttempt> {
    return this.notifier.sendOnce(
      'payment',
      this.mustPayment(reference).request.notifyUrl,
      this.responseFor(reference, overrides),
    );
  }

  /** Moves a refund to a status and posts its notification (signed). */
  settleRefund(refundId: string, status: string): FakeOzowRefund {
    const r = this.allRefunds.find((x) => x.refundId === refundId);
    if (r === undefined) throw new Error(`the fake Ozow has no refund ${refundId}`);
    r.status = status;
    if (['Failed', 'Cancelled', 'Returned'].includes(status)) {
      const p = this.allPayments.find((x) => x.transactions.some((t) => t.transactionId === r.transactionId));
      if (p) p.refundedCents -= Math.round(Number(r.amount) * 100);
    }
    if (r.notifyUrl !== '') this.notifier.deliver('refund', r.notifyUrl, refundFields(r));
    return r;
  }

  idle(): Promise<void> {
    return this.notifier.idle();
  }

  /** Stops listening (connections are refused: a request certainly never arrives) until `online()`. */
  async offline(): Promise<void> {
    const server = this.server;
    if (server === null || !server.listening) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  async online(): Promise<void> {
    const server = this.server;
    if (server === null || server.listening) return;
    const { hostname, port } = new URL(this.url);
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(Number(port), hostname, resolve);
    });
  }

  async stop(): Promise<void> {
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    this.notifier.stop();
    await this.notifier.idle();
    const server = this.server;
    this.server = null;
    if (server === null || !server.listening) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private choose(p: FakeOzowPayment, status: string): BrowserReturn {
    const t = this.open(p);
    const pending = this.pendingFirst && status !== 'Pending' ? this.apply(p, t, 'Pending') : undefined;
    this.apply(p, t, status, pending);
    const r = p.request;
    const target = status === 'Complete' ? r.successUrl : status === 'Cancelled' ? r.cancelUrl : r.errorUrl;
    const fields = responseFields(p, t);
    return { target, fields, body: new URLSearchParams(fields).toString() };
  }

  /** Sets the status and notifies it (after `after`, the Pending notification, when given); resolves when delivered. */
  private apply(
    p: FakeOzowPayment,
    t: FakeOzowTransaction,
    status: string,
    after?: Promise<unknown>,
  ): Promise<unknown> | undefined {
    t.status = status;
    t.statusMessage = statusMessageFor(status);
    if (status === 'Complete') t.paymentDate = new Date().toISOString();
    if (this.notifications === 'off' || p.request.notifyUrl === '') return undefined;
    const times = status === 'Pending' ? 1 : Math.max(1, this.duplicates);
    const fields = responseFields(p, t);
    return Promise.all(
      Array.from({ length: times }, () => this.notifier.deliver('payment', p.request.notifyUrl, fields, after)),
    );
  }

  private async onRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const url = new URL(req.url ?? '/', 'http://fake');
    const route = endpointOf(url.pathname);
    this.requests.push({
      endpoint: route?.endpoint ?? null,
      method: req.method ?? '',
      path: `${url.pathname}${url.search}`,
      headers: req.headers,
      body,
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
          body: '<!DOCTYPE html><html><body>Ozow is down for maintenance</body></html>',
        },
        mode,
      );
    if (mode === 'http-500')
      return this.send(
        res,
        { status: 500, contentType: 'text/html', body: '<html><body>Server Error</body></html>' },
        mode,
      );
    this.send(res, this.route(route.endpoint, route.arg, req, body, url), mode);
  }

  private route(
    endpoint: OzowFakeEndpoint,
    arg: string | null,
    req: IncomingMessage,
    body: string,
    url: URL,
  ): OzowFakeReply {
    const method = req.method ?? '';
    const apiKey = typeof req.headers.apikey === 'string' ? req.headers.apikey : undefined;
    const wants =
      endpoint === 'page' || endpoint === 'GetTransaction' || endpoint === 'GetTransactionByReference' ? 'GET' : 'POST';
    if (method !== wants) return { status: 405, contentType: 'text/plain', body: 'Method Not Allowed' };
    if (endpoint === 'PostPaymentRequest')
      return handlePostPaymentRequest(this, apiKey, body, (req.headers['content-type'] ?? '').includes('json'));
    if (endpoint === 'GetTransactionByReference') return handleByReference(this, apiKey, url);
    if (endpoint === 'GetTransaction') return handleGetTransaction(this, apiKey, url);
    if (endpoint === 'token') return handleToken(this, apiKey, body);
    if (endpoint === 'refunds') return handleRefundSubmit(this, req.headers.authorization, body);
    return this.page(arg as string, url.searchParams.get('choose'));
  }

  private page(paymentRequestId: string, choice: string | null): OzowFakeReply {
    const p = this.allPayments.find((x) => x.paymentRequestId === paymentRequestId);
    const html = (status: number, text: string): OzowFakeReply => ({
      status,
      contentType: 'text/html; charset=utf-8',
      body: text,
    });
    if (p === undefined) return html(404, '<html><body>No such payment request</body></html>');
    const last = p.transactions[p.transactions.length - 1];
    if (last?.status === 'Complete') return html(409, '<html><body>This payment request has been paid</body></html>');
    if (choice === null) {
      this.open(p);
      return html(200, paymentPage(p));
    }
    if (!['Complete', 'Cancelled', 'Error'].includes(choice))
      return html(400, '<html><body>Unknown choice</body></html>');
    const back = this.choose(p, choice);
    return html(
      200,
      back.target === '' ? `<html><body>${choice}</body></html>` : autoPostPage(back.target, back.fields),
    );
  }

  private send(res: ServerResponse, reply: OzowFakeReply, mode: OzowFakeMode): void {
    if (mode === 'drop-reply') return void res.socket?.destroy();
    // No keep-alive: a client never holds a socket that `offline()` could close under it.
    const headers: Record<string, string> = { 'content-type': reply.contentType, connection: 'close' };
    if (reply.location) headers.location = reply.location;
    res.writeHead(reply.status, headers);
    res.end(reply.body);
  }
}
