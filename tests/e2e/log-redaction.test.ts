import { Stack } from '../support/stack';
import { waitFor } from '../support/wait';

/**
 * Database errors carry their query and parameters; request bodies carry customer data. Make the
 * services' inserts fail (a CHECK that rejects every new row, and a null byte PostgreSQL cannot
 * store) while the parameters hold e-mails, phone numbers, API keys, webhook secrets and URL
 * passwords, and read every line every app logged: none of them may appear.
 */
describe('logs hold no secrets and no customer data', () => {
  let stack: Stack;
  let keys: Awaited<ReturnType<Stack['createBusiness']>>;
  let partner: Awaited<ReturnType<Stack['createBusiness']>>;
  const EMAIL = 'jane.customer@example.com';
  const PHONE = '0779988776';
  const URL_PASSWORD = 'url-pw-93kd7';
  const COOKIE = 'sess-7f3k2mq9x';
  const FAKE_LIVE_KEY = 'sk_live_' + 'Q9w8E7r6T5y4U3i2O1p0';

  const logs = () => [...stack.processes.values()].map((p) => ({ app: p.app, lines: p.output.split('\n') }));

  beforeAll(async () => {
    stack = await Stack.start(undefined, { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', LOG_LEVEL: 'info' });
    [keys, partner] = [await stack.createBusiness('Log Shop'), await stack.createBusiness('Log Partner')];
    // Every new row now fails inside PostgreSQL, after the service has sent its parameters.
    await stack
      .db('transaction-service')
      .query('ALTER TABLE transactions ADD CONSTRAINT reject_new_rows CHECK (false) NOT VALID');
    await stack
      .db('webhook-dispatcher')
      .query('ALTER TABLE callbacks ADD CONSTRAINT reject_new_rows CHECK (false) NOT VALID');
    await stack
      .db('split-ledger-service')
      .query('ALTER TABLE split_configs ADD CONSTRAINT reject_new_rows CHECK (false) NOT VALID');
  }, 180_000);

  afterAll(async () => {
    await stack?.stop();
  }, 120_000);

  it('masks them in database errors, request data and headers of every service', async () => {
    const headers = { cookie: `session=${COOKIE}`, 'x-debug': `${EMAIL} ${PHONE}` };
    const note =
      `call ${PHONE} or mail ${EMAIL}; key ${FAKE_LIVE_KEY}; ` + `db postgres://payments:${URL_PASSWORD}@db:5432/x`;
    const attempts = [
      stack.api('POST', '/v1/transactions', {
        key: keys.test.secret,
        headers,
        body: {
          amount: 1000,
          email: EMAIL,
          currency: 'USD',
          payment_method_code: 'ecocash',
          mobile_money_number: PHONE,
          transaction_reference: 'log-1',
        },
      }),
      stack.api('POST', '/v1/callback', {
        key: keys.test.secret,
        headers,
        body: { url: `https://127.0.0.1:9/in`, events: ['transaction.success'], description: note },
      }),
      stack.api('POST', '/v1/callback', {
        key: keys.test.secret,
        headers,
        body: { url: `https://127.0.0.1:9/in\u0000`, events: ['transaction.success'], description: `${note}\u0000` },
      }),
      stack.api('POST', '/v1/splits/config', {
        key: keys.test.secret,
        headers,
        body: {
          partner_business_id: partner.id,
          split_type: 'percentage',
          split_value: 10,
          split_role: 'fee',
          currency: 'USD',
          description: note,
        },
      }),
    ];
    const answers = await Promise.all(attempts);
    for (const a of answers)
      expect({ status: a.status, body: a.body }).toEqual({
        status: expect.any(Number),
        body: expect.objectContaining({ result: 'error' }),
      });

    // The failures were logged (so there was something to redact) …
    for (const app of ['transaction-service', 'webhook-dispatcher', 'split-ledger-service'] as const) {
      await waitFor(`${app} to log the failed insert`, () => stack.app(app).output.includes('reject_new_rows'));
    }
    // … and no line of any app holds the data.
    const secrets = [
      EMAIL,
      PHONE,
      URL_PASSWORD,
      COOKIE,
      FAKE_LIVE_KEY,
      keys.test.secret,
      keys.test.secret.slice(8),
      stack.rpcSecret,
      stack.adminToken,
    ];
    for (const { app, lines } of logs()) {
      for (const line of lines) {
        for (const s of secrets) expect({ app, leaked: line.includes(s) ? s : null }).toEqual({ app, leaked: null });
        expect({ app, whsec: /whsec_(?!\[REDACTED\])/.test(line) ? line : null }).toEqual({ app, whsec: null });
      }
    }
    // The hints are there for whoever investigates.
    const all = logs()
      .flatMap((l) => l.lines)
      .join('\n');
    expect(all).toContain('j***@example.com');
    expect(all).toContain(`***${PHONE.slice(-3)}`);
    // The webhook secret generated for the failed insert was among the logged parameters, named and masked.
    expect(all).toMatch(/\\+"secret\\+":\\+"\[REDACTED\]/);
  }, 60_000);
});
