import { randomUUID } from 'node:crypto';
import { type FakeOzowPayment, type FakeOzowRefund, cents, transactionJson } from './ozow-fake-model';
import { type FakeSite, checkPaymentRequest, expectedRefundHash, readRequestFields, sameHash } from './ozow-fake-rules';

/** An answer: status code, content type and body. */
export interface OzowFakeReply {
  status: number;
  contentType: string;
  body: string;
  location?: string;
}

/** What the handlers need of the fake. */
export interface OzowFakeStore {
  readonly sites: readonly FakeSite[];
  readonly url: string;
  readonly payments: readonly FakeOzowPayment[];
  readonly refunds: readonly FakeOzowRefund[];
  addPayment(p: FakeOzowPayment): void;
  addRefund(r: FakeOzowRefund): void;
  tokens: Map<string, FakeSite>;
}

export const json = (status: number, body: unknown): OzowFakeReply => ({
  status,
  contentType: 'application/json; charset=utf-8',
  body: JSON.stringify(body),
});
const unauthorized = (): OzowFakeReply => json(401, { message: 'Authorization has been denied for this request.' });

function siteByApiKey(store: OzowFakeStore, apiKey: string | undefined): FakeSite | undefined {
  return apiKey === undefined ? undefined : store.sites.find((s) => s.apiKey === apiKey);
}

/** POST /PostPaymentRequest: JSON (or a form), the ApiKey header; `{ paymentRequestId, url, errorMessage }`. */
export function handlePostPaymentRequest(
  store: OzowFakeStore,
  apiKey: string | undefined,
  body: string,
  isJson: boolean,
): OzowFakeReply {
  const site = siteByApiKey(store, apiKey);
  if (site === undefined) return unauthorized();
  let input: unknown;
  try {
    input = isJson ? JSON.parse(body) : Object.fromEntries(new URLSearchParams(body));
  } catch {
    return json(400, { paymentRequestId: null, url: null, errorMessage: 'The request is invalid.' });
  }
  const fields = readRequestFields(input);
  if (fields === null) return json(400, { paymentRequestId: null, url: null, errorMessage: 'The request is invalid.' });
  const checked = checkPaymentRequest(fields, site);
  if (!checked.ok) return json(200, { paymentRequestId: null, url: null, errorMessage: checked.error });
  const paymentRequestId = randomUUID();
  const p: FakeOzowPayment = {
    paymentRequestId,
    request: checked.value,
    url: `${store.url}/${paymentRequestId}/Secure`,
    transactions: [],
    notifiedAmount: null,
    refundedCents: 0,
  };
  store.addPayment(p);
  return json(200, { paymentRequestId, url: p.url, errorMessage: null });
}

function queryOf(url: URL, name: string): string {
  for (const [k, v] of url.searchParams) if (k.toLowerCase() === name.toLowerCase()) return v;
  return '';
}

/** GET /GetTransactionByReference?siteCode=&transactionReference=[&isTest=]: up to 10 transactions, newest last. */
export function handleByReference(store: OzowFakeStore, apiKey: string | undefined, url: URL): OzowFakeReply {
  const site = siteByApiKey(store, apiKey);
  if (site === undefined || queryOf(url, 'siteCode') !== site.siteCode) return unauthorized();
  const isTest = queryOf(url, 'isTest').toLowerCase() === 'true';
  const reference = queryOf(url, 'transactionReference');
  const list = store.payments
    .filter(
      (p) => p.request.site === site && p.request.transactionReference === reference && p.request.isTest === isTest,
    )
    .flatMap((p) => p.transactions.map((t) => transactionJson(p, t)));
  return json(200, list.slice(-10));
}

/** GET /GetTransaction?siteCode=&transactionId=[&isTest=]: one transaction, or null. */
export function handleGetTransaction(store: OzowFakeStore, apiKey: string | undefined, url: URL): OzowFakeReply {
  const site = siteByApiKey(store, apiKey);
  if (site === undefined || queryOf(url, 'siteCode') !== site.siteCode) return unauthorized();
  const id = queryOf(url, 'transactionId');
  for (const p of store.payments) {
    const t = p.request.site === site ? p.transactions.find((x) => x.transactionId === id) : undefined;
    if (t) return json(200, transactionJson(p, t));
  }
  return json(200, null);
}

/** POST /token: form grant_type=password&SiteCode=…, ApiKey header → a bearer token. */
export function handleToken(store: OzowFakeStore, apiKey: string | undefined, body: string): OzowFakeReply {
  const form = new URLSearchParams(body);
  const site = siteByApiKey(store, apiKey);
  if (form.get('grant_type') !== 'password') return json(400, { error: 'unsupported_grant_type' });
  if (site === undefined || form.get('SiteCode') !== site.siteCode) return json(400, { error: 'invalid_client' });
  const token = randomUUID().replace(/-/g, '');
  store.tokens.set(token, site);
  return json(200, { access_token: token, token_type: 'bearer', expires_in: 1199 });
}

/**
 * POST /secure/refunds/submit (Bearer): a JSON array of refunds; each answered with a refundId, or
 * with errors (unknown or unpaid transaction, bad hashCheck, more than what is left to refund).
 */
export function handleRefundSubmit(
  store: OzowFakeStore,
  authorization: string | undefined,
  body: string,
): OzowFakeReply {
  const site = store.tokens.get((authorization ?? '').replace(/^Bearer\s+/i, ''));
  if (site === undefined) return unauthorized();
  let items: unknown;
  try {
    items = JSON.parse(body);
  } catch {
    return json(400, { message: 'The request is invalid.' });
  }
  if (!Array.isArray(items)) return json(400, { message: 'The request is invalid.' });
  const answers = items.map((raw) => {
    const item = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
    const transactionId = String(item.transactionId ?? '');
    const amount = String(item.amount ?? '');
    const fail = (error: string) => ({ refundId: null, transactionId, refundAmount: 0, errors: [error] });
    const p = store.payments.find(
      (x) => x.request.site === site && x.transactions.some((t) => t.transactionId === transactionId),
    );
    const t = p?.transactions.find((x) => x.transactionId === transactionId);
    if (p === undefined || t === undefined) return fail('Transaction not found');
    if (t.status !== 'Complete') return fail('Transaction is not complete');
    if (!sameHash(String(item.hashCheck ?? item.HashCheck ?? ''), expectedRefundHash(item, site.privateKey)))
      return fail('Invalid hash check');
    if (!/^\d+(\.\d{1,2})?$/.test(amount) || cents(amount) <= 0) return fail('Invalid amount');
    if (cents(amount) > cents(p.request.amount) - p.refundedCents)
      return fail('Refund amount exceeds the available amount');
    p.refundedCents += cents(amount);
    const refund: FakeOzowRefund = {
      refundId: randomUUID(),
      transactionId,
      amount: Number(amount).toFixed(2),
      refundReason: String(item.refundReason ?? ''),
      notifyUrl: String(item.notifyUrl ?? ''),
      status: 'Pending',
      site,
    };
    store.addRefund(refund);
    return { refundId: refund.refundId, transactionId, refundAmount: Number(amount), errors: [] };
  });
  return json(200, answers);
}
