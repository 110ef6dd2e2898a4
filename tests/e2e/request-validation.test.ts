import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Stack } from '../support/stack';

type Auth = 'secret' | 'public' | 'live' | 'admin';

interface WiringCase {
  name: string;
  method: string;
  path: string;
  auth: Auth;
  body?: unknown;
  rawBody?: string;
  contentType?: string;
}

/** A case: `route` is the method and the path with its query string. */
const c = (
  name: string,
  route: string,
  auth: Auth,
  sent: Pick<WiringCase, 'body' | 'rawBody' | 'contentType'> = {},
): WiringCase => {
  const [method, path] = route.split(' ');
  return { name, method, path, auth, ...sent };
};

const FILE = join(__dirname, 'request-validation.expected.json');

const transaction = { amount: 1000, email: 'payer@example.com', currency: 'USD' };
const mobile = {
  ...transaction,
  payment_method_type: 'mobile_money',
  payment_method_code: 'ecocash',
  mobile_money_number: '0771234567',
};
const link = { amount: 1000, currency: 'USD', description: 'Invoice 17' };
const split = { partner_business_id: 0, split_type: 'fixed', split_value: 100, split_role: 'fee', currency: 'USD' };

/**
 * The whole answer (status and body, request id aside) to bad input on every validated endpoint:
 * order against the handler's own checks (path ids, public-key limits, providers), the payment
 * rules transaction-service adds, query number coercion, bodies that are not JSON objects.
 * RECORD_REQUEST_WIRING=1 rewrites request-validation.expected.json. TypeBox answers as the
 * class-validator pipe did, except that pipe's one 500 (an object with a "constructor" key where a
 * string belongs) is now the 400 any other object there gets (ADR 0016).
 */
const CASES = (merchant: number, partner: number): WiringCase[] => [
  c('initialize: nothing', 'POST /v1/transactions', 'secret', { body: {} }),
  c('initialize: types and an unknown field', 'POST /v1/transactions', 'secret', {
    body: { ...transaction, amount: '100', Amount: 1, email: 5 },
  }),
  c('initialize: number for a stated mobile type', 'POST /v1/transactions', 'secret', {
    body: { ...mobile, amount: 0, mobile_money_number: undefined },
  }),
  c('initialize: code of another type', 'POST /v1/transactions', 'secret', {
    body: { ...mobile, payment_method_code: 'zimswitch' },
  }),
  c('initialize: type from the code needs a number', 'POST /v1/transactions', 'secret', {
    body: { ...transaction, payment_method_code: 'ecocash' },
  }),
  c('initialize: live requested_response', 'POST /v1/transactions', 'live', {
    body: { ...mobile, requested_response: 'success' },
  }),
  c('initialize: every service rule at once', 'POST /v1/transactions', 'live', {
    body: { ...mobile, payment_method_code: 'zimswitch', requested_response: 'failed' },
  }),
  c('initialize: public key, field error first', 'POST /v1/transactions', 'public', {
    body: { ...transaction, amount: -1, transaction_reference: 'mine' },
  }),
  c('initialize: public key, reference', 'POST /v1/transactions', 'public', {
    body: { ...transaction, transaction_reference: null },
  }),
  c('initialize: public key, origin first', 'POST /v1/transactions', 'public', {
    body: { ...mobile, payment_method_code: 'zimswitch', success_url: 'https://elsewhere.example/ok' },
  }),
  c('initialize: public key, service rules', 'POST /v1/transactions', 'public', {
    body: { ...mobile, payment_method_code: 'zimswitch', success_url: 'https://shop.example/ok' },
  }),
  c('initialize: null optional fields', 'POST /v1/transactions', 'secret', {
    body: {
      ...transaction,
      payment_method_type: null,
      payment_method_code: null,
      metadata: null,
      requested_response: null,
      success_url: null,
      mobile_money_number: null,
    },
  }),
  c('initialize: null code meets the service rules', 'POST /v1/transactions', 'secret', {
    body: { ...transaction, payment_method_code: null },
  }),
  c('initialize: null requested_response in live mode', 'POST /v1/transactions', 'live', {
    body: { ...transaction, requested_response: null },
  }),
  c('initialize: a form', 'POST /v1/transactions', 'secret', {
    rawBody: 'amount=100&email=a%40b.co&currency=USD',
    contentType: 'application/x-www-form-urlencoded',
  }),
  c('initialize: no body', 'POST /v1/transactions', 'secret'),
  c('initialize: an array', 'POST /v1/transactions', 'secret', { rawBody: '[1]' }),
  c('initialize: text', 'POST /v1/transactions', 'secret', { rawBody: 'amount=1', contentType: 'text/plain' }),
  c('initialize: an object with a constructor key', 'POST /v1/transactions', 'secret', {
    body: { ...transaction, email: { constructor: 'x' } },
  }),
  c('initialize: prototype-named keys are ignored', 'POST /v1/transactions', 'secret', {
    rawBody: JSON.stringify({ ...transaction, amount: -1 }).replace(
      '{',
      '{"__proto__":{"a":1},"toString":1,"constructor":2,',
    ),
  }),
  c('list: coerced limit', 'GET /v1/transactions/list?limit=%205%20&status=success', 'secret'),
  c('list: hexadecimal limit', 'GET /v1/transactions/list?limit=0x10', 'secret'),
  c(
    'list: several problems',
    'GET /v1/transactions/list?limit=abc&start_date=2025-02-30&end_date=2025-01-01&foo=1&status=a&status=b',
    'secret',
  ),
  c(
    'list: end before start',
    'GET /v1/transactions/list?start_date=2025-02-01&end_date=2025-01-01&created%5Bgte%5D=soon',
    'secret',
  ),
  c('verify: no reference', 'GET /v1/transactions/verify', 'secret'),
  c('fetch: two ids', 'GET /v1/transactions/fetch?publicId=a&publicId=b', 'secret'),
  c('refund: nothing', 'POST /v1/transactions/refund', 'secret', { body: {} }),
  c('refund: bad fields', 'POST /v1/transactions/refund', 'secret', {
    body: { transaction_reference: '', amount: 1.5, reason: '', metadata: { a: 1 }, description: 7 },
  }),
  c('refunds: no reference', 'GET /v1/transactions/refunds?limit=5&ending_before=x', 'secret'),
  c('refund: unknown id', 'GET /v1/transactions/refunds/nope', 'secret'),
  c('links: bad splits', 'POST /v1/links', 'secret', {
    body: {
      ...link,
      splits: [
        { business_id: 0, type: 'x', value: 0, extra: 1 },
        5,
        { business_id: 2, type: 'percentage', value: 10001 },
      ],
    },
  }),
  c('links: an empty array among the splits', 'POST /v1/links', 'secret', { body: { ...link, splits: [[]] } }),
  c('links: a split inside an array', 'POST /v1/links', 'secret', {
    body: { ...link, splits: [[{ business_id: 99999, type: 'fixed', value: 1 }]] },
  }),
  c('links: splits not an array', 'POST /v1/links', 'secret', { body: { ...link, splits: { business_id: 'x' } } }),
  c('links: missing partner', 'POST /v1/links', 'secret', {
    body: { ...link, splits: [{ business_id: 99999, type: 'fixed', value: 1 }] },
  }),
  c('links: update body before id', 'POST /v1/links/nope', 'secret', { body: { description: null } }),
  c('links: update unknown id', 'POST /v1/links/nope', 'secret', { body: { description: 'x' } }),
  c('links: list cursors', 'GET /v1/links?starting_after=plink_AbCdEf0123&ending_before=x&limit=101', 'secret'),
  c('splits: own business', 'POST /v1/splits/config', 'secret', { body: { ...split, partner_business_id: merchant } }),
  c('splits: create problems', 'POST /v1/splits/config', 'secret', {
    body: { ...split, partner_business_id: partner, split_type: 'percentage', split_value: 10001, description: 5 },
  }),
  c('splits: update body before id', 'PUT /v1/splits/config/nope', 'secret', {
    body: { currency: 'USD', partner_business_id: null, split_value: '1' },
  }),
  c('splits: update unknown id', 'PUT /v1/splits/config/nope', 'secret', { body: {} }),
  c(
    'splits: ledger cursors',
    'GET /v1/splits/ledger?skip=&limit=1e2&starting_after=0B6F8D3E-4C1A-4B8E-9F2A-1D2C3B4A5E6F',
    'secret',
  ),
  c('splits: invoices', 'GET /v1/splits/invoices?skip=-1&ending_before=INV-1', 'secret'),
  c('splits: configs', 'GET /v1/splits/config?limit=0', 'secret'),
  c('callback: create', 'POST /v1/callback', 'secret', {
    body: { events: ['a', 5], description: 'd'.repeat(501), x: 1 },
  }),
  c('callback: update body before id', 'PUT /v1/callback/abc', 'secret', { body: { is_active: 'yes' } }),
  c('callback: update unknown id', 'PUT /v1/callback/abc', 'secret', { body: { is_active: true } }),
  c('callback: list', 'GET /v1/callback/list?skip=-1&limit=0&starting_after=x', 'secret'),
  c('callback: deliveries query before id', 'GET /v1/callback/abc/deliveries?status=x', 'secret'),
  c('callback: recover body before id', 'POST /v1/callback/abc/recover', 'secret', { body: { since: 'yesterday' } }),
  c('events: filters', 'GET /v1/events?created%5Bgt%5D=soon&type=x&order=time&limit=1000', 'secret'),
  c('settings: origins', 'PUT /v1/settings/redirect_origins', 'secret', {
    body: { redirect_origins: ['https://a.example', 'http://b.example/x'] },
  }),
  c('connections: provider before body', 'PUT /v1/connections/nope', 'secret', { body: { x: 1 } }),
  c('connections: paynow', 'PUT /v1/connections/paynow', 'secret', { body: { integration_id: 'x', extra: 1 } }),
  c('connections: not an object', 'PUT /v1/connections/ozow', 'secret', { rawBody: '["x"]' }),
  c('admin: business', 'POST /admin/v1/businesses', 'admin', { body: { name: 5 } }),
  c('admin: roll body before id', 'POST /admin/v1/businesses/abc/keys/roll', 'admin', {
    body: { mode: 'x', grace_seconds: -1 },
  }),
  c('admin: origins', 'PUT /admin/v1/businesses/1/redirect_origins', 'admin', {
    body: { redirect_origins: 'https://a.example' },
  }),
  c('admin: recover', 'POST /admin/v1/webhooks/recover', 'admin', {
    body: { business_id: '1', since: '2025-01-01', limit: 0 },
  }),
  c('admin: reconcile ledger', 'POST /admin/v1/reconcile/ledger', 'admin', { body: { ids: '1' } }),
  c('admin: reconcile transactions', 'GET /admin/v1/reconcile/transactions?limit=0&after=a%20b', 'admin'),
  c('admin: reconcile webhook transactions', 'POST /admin/v1/reconcile/webhook-transactions', 'admin', {
    body: { transaction_ids: ['a b'] },
  }),
  c('admin: refund body before id', 'POST /admin/v1/refunds/nope/complete', 'admin', { body: { note: 5 } }),
  c('admin: refund unknown id', 'POST /admin/v1/refunds/nope/fail', 'admin', { body: {} }),
];

describe('request validation in each handler, as a client sees it', () => {
  let stack: Stack;
  let keys: Record<Auth, string>;
  let merchantId: number;
  let partner: number;
  const answers: Record<string, unknown> = {};

  beforeAll(async () => {
    stack = await Stack.start();
    const merchant = await stack.createBusiness('Wiring Ltd');
    merchantId = merchant.id;
    partner = (await stack.createBusiness('Wiring Partner')).id;
    keys = {
      secret: merchant.test.secret,
      public: merchant.test.public,
      live: merchant.live.secret,
      admin: stack.adminToken,
    };
    const origins = await stack.api('PUT', '/v1/settings/redirect_origins', {
      key: keys.secret,
      body: { redirect_origins: ['https://shop.example'] },
    });
    expect(origins.status).toBe(200);
  }, 120_000);

  afterAll(async () => {
    if (process.env.RECORD_REQUEST_WIRING) writeFileSync(FILE, `${JSON.stringify(answers, null, 1)}\n`);
    await stack?.stop();
  }, 120_000);

  it('answers every case as recorded', async () => {
    const expected = process.env.RECORD_REQUEST_WIRING
      ? {}
      : (JSON.parse(readFileSync(FILE, 'utf8')) as Record<string, unknown>);
    for (const c of CASES(merchantId, partner)) {
      const headers = c.contentType ? { 'content-type': c.contentType } : undefined;
      const res = await stack.api(c.method, c.path, { key: keys[c.auth], body: c.body, rawBody: c.rawBody, headers });
      const body =
        typeof res.body === 'object' && res.body !== null ? { ...res.body, request_id: undefined } : res.body;
      answers[c.name] = JSON.parse(JSON.stringify({ status: res.status, body }));
    }
    if (!process.env.RECORD_REQUEST_WIRING) expect(answers).toEqual(expected);
  }, 120_000);
});
