import type { DataSource } from '@payments/database';
import { ConnectionStore } from '../../apps/transaction-service/src/connections/connection-store';
import { CredentialsCipher, credentialsKeyId } from '../../apps/transaction-service/src/connections/credentials-cipher';
import { expectError } from '../support/errors';
import { Stack, type ApiResponse } from '../support/stack';
import { waitFor } from '../support/wait';

/**
 * Provider connections through the gateway, with the transaction-service keeping the credentials:
 * per provider and mode, isolated between modes and businesses, refused field by field, never in
 * an answer or a log line, encrypted in the database (and readable by the service's
 * `credentialsFor`), and sealed again with a new key when PROVIDER_CREDENTIALS_KEY is rotated.
 */
type Provider = 'paynow' | 'dpo' | 'ozow';
type Business = Awaited<ReturnType<Stack['createBusiness']>>;
const PROVIDERS: Provider[] = ['paynow', 'dpo', 'ozow'];
const BASE_URL = 'https://pay.example.test/api';
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const METHODS = { paynow: ['ecocash', 'innbucks', 'zimswitch'], dpo: ['dpo'], ozow: ['ozow'] };

const CREDENTIALS: Record<'test' | 'live', Record<Provider, Record<string, string>>> = {
  test: {
    paynow: { integration_id: '9188441201', integration_key: '3e9fed89-60e1-4ce5-ab6e-6b1eb2d4f977' },
    dpo: { company_token: '9F416C11-127B-4DE2-AC7F-D5710E4C5E0A', service_type: '7738540001' },
    ozow: { site_code: 'TSTSTE0001', private_key: 'ozow-private-5b3c1d9e', api_key: 'ozow-api-8e7f6a2b' },
  },
  live: {
    paynow: { integration_id: '9177402231', integration_key: 'c0ffee11-2233-4455-6677-8899aabbccdd' },
    dpo: { company_token: 'B7E2D0A4-55C1-4F0E-9A3B-0C1D2E3F4A5B', service_type: '7755120002' },
    ozow: { site_code: 'LIVSTE0042', private_key: 'ozow-live-private-77aa', api_key: 'ozow-live-api-99bb' },
  },
};
const ACCOUNTS: Record<'test' | 'live', Record<Provider, string>> = {
  test: { paynow: 'int_…1201', dpo: 'ct_…5E0A', ozow: 'site_…0001' },
  live: { paynow: 'int_…2231', dpo: 'ct_…4A5B', ozow: 'site_…0042' },
};
/** A business's own credentials, for the isolation checks and the database-error log check. */
const OTHER = { integration_id: '9155119090', integration_key: 'other-business-key-0d9c8b7a' };
const FAILING = {
  site_code: 'FAILSTE777',
  private_key: 'failing-insert-private-31f2',
  api_key: 'failing-insert-api-c4d5',
};
/** Every credential value this file sends: long enough never to appear by chance, and longer than the mask shows. */
const ALL_VALUES = [
  ...Object.values(CREDENTIALS).flatMap((byProvider) => Object.values(byProvider).flatMap(Object.values)),
  ...Object.values(OTHER),
  ...Object.values(FAILING),
];

describe('provider connections', () => {
  let stack: Stack;
  let shop: Business;
  let other: Business;
  const answers: unknown[] = [];

  const api = async (method: string, path: string, key: string, body?: unknown): Promise<ApiResponse> => {
    const res = await stack.api(method, path, { key, body });
    answers.push(res.body);
    return res;
  };
  const keyOf = (b: Business, mode: 'test' | 'live') => b[mode].secret;
  const expected = (provider: Provider, mode: 'test' | 'live', account = ACCOUNTS[mode][provider]) => ({
    provider,
    mode,
    account,
    methods: METHODS[provider],
    notification_url: `${BASE_URL}/v1/provider-notifications/${provider}`,
    date_created: expect.stringMatching(ISO),
    date_updated: expect.stringMatching(ISO),
  });
  const store = (key = stack.credentialsKey) => {
    const pool = stack.db('transaction-service');
    const ds = {
      query: async (sql: string, params?: unknown[]) => (await pool.query(sql, params)).rows,
    } as unknown as DataSource;
    return new ConnectionStore(ds, new CredentialsCipher(Buffer.from(key, 'base64')));
  };
  const rows = async () =>
    (await stack.db('transaction-service').query('SELECT * FROM provider_connections ORDER BY id')).rows as Record<
      string,
      unknown
    >[];

  beforeAll(async () => {
    // A trailing slash on PUBLIC_BASE_URL is not doubled in the notification URL.
    stack = await Stack.start(['transaction-service', 'gateway'], {
      PUBLIC_BASE_URL: `${BASE_URL}/`,
      LOG_LEVEL: 'info',
    });
    shop = await stack.createBusiness('Connections Shop');
    other = await stack.createBusiness('Connections Other');
  }, 180_000);

  afterAll(async () => {
    await stack?.stop();
  }, 120_000);

  it('stores each provider in each mode and answers the connection, never the credentials', async () => {
    for (const mode of ['test', 'live'] as const) {
      for (const provider of PROVIDERS) {
        const res = await api('PUT', `/v1/connections/${provider}`, keyOf(shop, mode), CREDENTIALS[mode][provider]);
        expect({ status: res.status, body: res.body }).toEqual({
          status: 200,
          body: { result: 'success', ...expected(provider, mode) },
        });
        const got = await api('GET', `/v1/connections/${provider}`, keyOf(shop, mode));
        expect({ status: got.status, body: got.body }).toEqual({ status: 200, body: res.body });
      }
      const list = await api('GET', '/v1/connections', keyOf(shop, mode));
      // Newest first.
      expect({ status: list.status, body: list.body }).toEqual({
        status: 200,
        body: { result: 'success', connections: [...PROVIDERS].reverse().map((p) => expected(p, mode)) },
      });
    }
  });

  it('keeps businesses apart: another business sees none of them and its own does not touch them', async () => {
    for (const mode of ['test', 'live'] as const) {
      expect((await api('GET', '/v1/connections', keyOf(other, mode))).body).toEqual({
        result: 'success',
        connections: [],
      });
      for (const provider of PROVIDERS) {
        expectError(await api('GET', `/v1/connections/${provider}`, keyOf(other, mode)), 404, 'not_found');
        expectError(await api('DELETE', `/v1/connections/${provider}`, keyOf(other, mode)), 404, 'not_found');
      }
    }
    const put = await api('PUT', '/v1/connections/paynow', other.live.secret, OTHER);
    expect(put.body).toEqual({ result: 'success', ...expected('paynow', 'live', 'int_…9090') });
    expect((await api('GET', '/v1/connections/paynow', shop.live.secret)).body).toMatchObject({
      account: ACCOUNTS.live.paynow,
    });
    expect((await api('GET', '/v1/connections', other.test.secret)).body).toEqual({
      result: 'success',
      connections: [],
    });
  });

  it('answers a repeated PUT the same (nothing changes) and replaces the credentials on a different one', async () => {
    const first = await api('PUT', '/v1/connections/dpo', shop.test.secret, CREDENTIALS.test.dpo);
    const version = async () =>
      (await rows()).find((r) => r.business_id === shop.id && r.mode === 'test' && r.provider === 'dpo')?.version;
    const before = await version();
    const again = await api('PUT', '/v1/connections/dpo', shop.test.secret, {
      service_type: CREDENTIALS.test.dpo.service_type,
      company_token: CREDENTIALS.test.dpo.company_token,
    });
    expect({ status: again.status, body: again.body }).toEqual({ status: 200, body: first.body });
    expect(await version()).toBe(before);

    const changed = { ...CREDENTIALS.test.dpo, service_type: '7799110003' };
    const replaced = await api('PUT', '/v1/connections/dpo', shop.test.secret, changed);
    expect(replaced.status).toBe(200);
    const { date_created, date_updated } = replaced.body as { date_created: string; date_updated: string };
    expect(date_created).toBe((first.body as { date_created: string }).date_created);
    expect(Date.parse(date_updated)).toBeGreaterThan(Date.parse((first.body as { date_updated: string }).date_updated));
    expect(await version()).toBe((before as number) + 1);
    expect(await store().credentialsFor(shop.id, 'test', 'dpo')).toEqual(changed);
    expect((await api('PUT', '/v1/connections/dpo', shop.test.secret, CREDENTIALS.test.dpo)).status).toBe(200);
  });

  it('stores credentials sealed; only the service opens them, for the right business, mode and provider', async () => {
    const kid = credentialsKeyId(Buffer.from(stack.credentialsKey, 'base64'));
    const stored = await rows();
    expect(stored.length).toBe(7);
    for (const row of stored) {
      expect(String(row.credentials)).toMatch(new RegExp(`^pc1\\.${kid}\\.[\\w-]{16}\\.[\\w-]+\\.[\\w-]{22}$`));
      const text = JSON.stringify(row);
      for (const value of ALL_VALUES)
        expect({ row: row.id, leaked: text.includes(value) ? value : null }).toEqual({ row: row.id, leaked: null });
    }
    for (const mode of ['test', 'live'] as const) {
      for (const provider of PROVIDERS)
        expect(await store().credentialsFor(shop.id, mode, provider)).toEqual(CREDENTIALS[mode][provider]);
    }
    expect(await store().credentialsFor(other.id, 'test', 'paynow')).toBeNull();
    // A sealed value copied onto another business's row does not open there.
    const db = stack.db('transaction-service');
    await db.query(
      'UPDATE provider_connections SET credentials = (SELECT credentials FROM provider_connections ' +
        "WHERE business_id = $1 AND mode = 'live' AND provider = 'paynow') WHERE business_id = $2",
      [shop.id, other.id],
    );
    await expect(store().credentialsFor(other.id, 'live', 'paynow')).rejects.toThrow(/does not authenticate/);
    // The merchant puts its credentials again: the unreadable row is replaced.
    expect((await api('PUT', '/v1/connections/paynow', other.live.secret, OTHER)).status).toBe(200);
    expect(await store().credentialsFor(other.id, 'live', 'paynow')).toEqual(OTHER);
  });

  it('refuses a missing, unknown, ill-typed or malformed field with a 400 naming it, and stores nothing', async () => {
    const cases: [Provider, Record<string, unknown>, string, RegExp][] = [];
    for (const provider of PROVIDERS) {
      const body = CREDENTIALS.test[provider];
      for (const field of Object.keys(body)) {
        const { [field]: _gone, ...rest } = body;
        cases.push([provider, rest, field, /is required/]);
        cases.push([provider, { ...body, [field]: 42 }, field, /must be a string/]);
        cases.push([provider, { ...body, [field]: '' }, field, /must be/]);
      }
      cases.push([provider, { ...body, secret_extra: 'x' }, 'secret_extra', /is not a recognised field/]);
    }
    cases.push([
      'paynow',
      { ...CREDENTIALS.test.paynow, integration_id: '12a4' },
      'integration_id',
      /must be 1 to 20 digits/,
    ]);
    cases.push([
      'dpo',
      { ...CREDENTIALS.test.dpo, service_type: '77385 40001' },
      'service_type',
      /must be 1 to 20 digits/,
    ]);
    cases.push([
      'paynow',
      { ...CREDENTIALS.test.paynow, integration_key: 'has a space' },
      'integration_key',
      /printable characters without spaces/,
    ]);
    cases.push([
      'ozow',
      { ...CREDENTIALS.test.ozow, private_key: 'k'.repeat(101) },
      'private_key',
      /1 to 100 printable/,
    ]);
    cases.push(['dpo', CREDENTIALS.test.paynow, 'integration_id', /is not a recognised field/]);
    for (const [provider, body, field, message] of cases) {
      const res = await api('PUT', `/v1/connections/${provider}`, other.test.secret, body);
      expectError(res, 400, 'validation_error');
      const errors = (res.body as { errors: { field: string; message: string }[] }).errors;
      expect({ provider, field, errors: errors.filter((e) => e.field === field).map((e) => e.message) }).toEqual({
        provider,
        field,
        errors: [expect.stringMatching(message)],
      });
    }
    for (const raw of ['[]', 'null', '"paynow"', '{"integration_id":']) {
      const res = await stack.api('PUT', '/v1/connections/paynow', { key: other.test.secret, rawBody: raw });
      expectError(res, 400, 'validation_error');
    }
    expect((await api('GET', '/v1/connections', other.test.secret)).body).toEqual({
      result: 'success',
      connections: [],
    });
  });

  it('answers 404 for an unknown provider, 403 to a public key and 401 without a key', async () => {
    for (const [method, body] of [
      ['PUT', CREDENTIALS.test.paynow],
      ['GET', undefined],
      ['DELETE', undefined],
    ] as const) {
      for (const name of ['stripe', 'PAYNOW', 'paynow%20', 'toString'])
        expectError(await api(method, `/v1/connections/${name}`, shop.test.secret, body), 404, 'not_found');
      for (const key of [shop.test.public, shop.live.public])
        expectError(await api(method, `/v1/connections/paynow`, key, body), 403, 'secret_key_required');
      expectError(await stack.api(method, '/v1/connections/paynow', { body }), 401, 'invalid_api_key');
    }
    expectError(await api('GET', '/v1/connections', shop.live.public), 403, 'secret_key_required');
    expect((await api('GET', '/v1/connections/paynow', shop.test.secret)).status).toBe(200);
  });

  it('removes one connection of one mode: the other mode keeps its own, and a second delete is a 404', async () => {
    const res = await api('DELETE', '/v1/connections/paynow', shop.test.secret);
    expect({ status: res.status, body: res.body }).toEqual({
      status: 200,
      body: { result: 'success', provider: 'paynow', message: expect.stringContaining('test mode') },
    });
    expectError(await api('GET', '/v1/connections/paynow', shop.test.secret), 404, 'not_found');
    expectError(await api('DELETE', '/v1/connections/paynow', shop.test.secret), 404, 'not_found');
    expect(await store().credentialsFor(shop.id, 'test', 'paynow')).toBeNull();
    expect((await api('GET', '/v1/connections/paynow', shop.live.secret)).body).toMatchObject({
      mode: 'live',
      account: ACCOUNTS.live.paynow,
    });
    expect(
      (
        (await api('GET', '/v1/connections', shop.test.secret)).body as { connections: { provider: string }[] }
      ).connections.map((c) => c.provider),
    ).toEqual(['ozow', 'dpo']);
    expect(
      ((await api('GET', '/v1/connections', shop.live.secret)).body as { connections: unknown[] }).connections,
    ).toHaveLength(3);
  });

  it('puts no credential in any answer, nor in any log line, even when the database refuses the row', async () => {
    const db = stack.db('transaction-service');
    await db.query('ALTER TABLE provider_connections ADD CONSTRAINT reject_new_rows CHECK (false) NOT VALID');
    try {
      expectError(await api('PUT', '/v1/connections/ozow', other.live.secret, FAILING), 500, 'internal_error');
      await waitFor('transaction-service to log the refused insert', () =>
        stack.app('transaction-service').output.includes('reject_new_rows'),
      );
    } finally {
      await db.query('ALTER TABLE provider_connections DROP CONSTRAINT reject_new_rows');
    }
    expect(answers.length).toBeGreaterThan(80);
    for (const body of answers) {
      const text = JSON.stringify(body);
      for (const value of ALL_VALUES) expect({ leaked: text.includes(value) ? value : null }).toEqual({ leaked: null });
    }
    for (const [app, proc] of stack.processes) {
      for (const line of proc.output.split('\n')) {
        for (const value of [...ALL_VALUES, stack.credentialsKey])
          expect({ app, leaked: line.includes(value) ? value : null }).toEqual({ app, leaked: null });
      }
    }
  });

  it('reseals all connections: new PROVIDER_CREDENTIALS_KEY, old one in PROVIDER_CREDENTIALS_OLD_KEYS', async () => {
    const oldKey = stack.credentialsKey;
    const newKey = Buffer.alloc(32, 0x5a).toString('base64');
    const newKid = credentialsKeyId(Buffer.from(newKey, 'base64'));
    await stack.app('transaction-service').stop();
    await stack.startApp('transaction-service', {
      PROVIDER_CREDENTIALS_KEY: newKey,
      PROVIDER_CREDENTIALS_OLD_KEYS: oldKey,
      LOG_LEVEL: 'info',
    });
    await waitFor(
      'every connection sealed with the new key',
      async () => (await rows()).every((r) => String(r.credentials).startsWith(`pc1.${newKid}.`)),
      { timeoutMs: 30_000 },
    );
    await waitFor('the rotation to say none is left', () =>
      stack.app('transaction-service').output.includes('none left under PROVIDER_CREDENTIALS_OLD_KEYS'),
    );
    // Readable with the new key alone: the old one can go.
    for (const provider of PROVIDERS)
      expect(await store(newKey).credentialsFor(shop.id, 'live', provider)).toEqual(CREDENTIALS.live[provider]);
    await expect(store(oldKey).credentialsFor(shop.id, 'live', 'dpo')).rejects.toThrow(/sealed with key/);
    expect((await api('GET', '/v1/connections/dpo', shop.live.secret)).body).toMatchObject({
      account: ACCOUNTS.live.dpo,
    });
    expect((await api('PUT', '/v1/connections/dpo', shop.live.secret, CREDENTIALS.live.dpo)).status).toBe(200);
    for (const line of stack.app('transaction-service').output.split('\n'))
      for (const value of [...ALL_VALUES, oldKey, newKey]) expect(line.includes(value) ? value : null).toBeNull();
  }, 90_000);
});
