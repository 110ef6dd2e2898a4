import { QueryFailedError } from '@payments/database';
import { Writable } from 'node:stream';
import { CREDENTIAL_FIELD_NAMES } from '@payments/domain';
import { createRootLogger, redactText, redactValue } from './logger';

const SK_TEST = 'sk_test_' + 'Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z0a7b';
const SK_LIVE = 'sk_live_' + 'Zz9Yy8Xx7Ww6Vv5Uu4Tt3Ss2Rr1Qq0Pp9Oo8';
const PK_LIVE = 'pk_live_' + 'Q1w2E3r4T5y6U7i8O9p0A1s2D3f4G5h6J7k8';
const PK_TEST = 'pk_test_' + 'abcdefghijklmnopqrstuvwxyz0123456789';
const WHSEC = 'whsec_' + 'MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw+/=';
const BEARER_TOKEN = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig-_~+/=';

describe('redactText', () => {
  it.each([
    [SK_TEST, 'sk_test_'],
    [SK_LIVE, 'sk_live_'],
    [PK_LIVE, 'pk_live_'],
    [PK_TEST, 'pk_test_'],
    [WHSEC, 'whsec_'],
  ])('masks %s but keeps its prefix visible', (key, prefix) => {
    const out = redactText(`using key ${key} now`);
    expect(out).toBe(`using key ${prefix}[REDACTED] now`);
    expect(out).not.toContain(key.slice(prefix.length, prefix.length + 6));
  });

  it('masks a Bearer token and keeps the word Bearer', () => {
    const out = redactText(`Authorization: Bearer ${BEARER_TOKEN}`);
    expect(out).toBe('Authorization: Bearer [REDACTED]');
    expect(out).not.toContain('eyJ');
  });

  it('masks an API key sent as a Bearer token', () => {
    const out = redactText(`Bearer ${SK_LIVE}`);
    expect(out).not.toContain(SK_LIVE.slice(8));
    expect(out).toContain('[REDACTED]');
  });

  it('leaves digit runs that are not card numbers (Luhn) alone, e.g. millisecond timestamps', () => {
    expect(redactText('at 1700000000001 ms')).toBe('at 1700000000001 ms');
  });

  it('masks keys regardless of case of the Bearer scheme and of what precedes them', () => {
    expect(redactText('bearer abcdefghij')).toBe('bearer [REDACTED]');
    expect(redactText('my_sk_test_abcdef123')).toBe('my_sk_test_[REDACTED]');
    expect(redactText('whsec_abc-def_ghijkl')).toBe('whsec_[REDACTED]');
  });

  it.each([
    '4242424242424242',
    '5555555555554444',
    '378282246310005',
    '6011000990139424',
    '4242 4242 4242 4242',
    '4242-4242-4242-4242',
  ])('masks the card number %s', (pan) => {
    const out = redactText(`card ${pan} declined`);
    expect(out).toBe('card [REDACTED_PAN] declined');
  });

  it('masks every secret in one line, not just the first', () => {
    const out = redactText(`a=${SK_TEST} b=${PK_LIVE} c=${WHSEC} pan=4242424242424242 again ${SK_TEST}`);
    expect(out).toBe(
      'a=sk_test_[REDACTED] b=pk_live_[REDACTED] c=whsec_[REDACTED] pan=[REDACTED_PAN] again sk_test_[REDACTED]',
    );
  });

  it('masks keys inside JSON text', () => {
    const out = redactText(JSON.stringify({ api_key: SK_TEST, note: 'ok' }));
    expect(out).toBe('{"api_key":"sk_test_[REDACTED]","note":"ok"}');
  });

  it.each([
    'transaction txn_4f9QabcdEFGH1234ijklMNOP initialized for 1015 USD',
    'status changed pending → processing',
    'sk_test_ is the prefix of a test secret key',
    'sk_test_abc is too short to be a key',
    'Bearer abc',
    'amount 123456789012 at 2026-11-23T02:00:00.000Z',
    'see task_test_results2024 for details', // "sk_test_…" only in the middle of a word
    '',
  ])('leaves ordinary text alone: %p', (text) => {
    expect(redactText(text)).toBe(text);
  });
});

describe('redaction of customer data and credentials', () => {
  it.each([
    ['mail buyer@example.com now', 'mail b***@example.com now'],
    ['phone 0771234567 ok', 'phone ***567 ok'],
    ['intl +263771234567.', 'intl ***567.'],
    ['postgres://payments:s3cr3t-pw@db:5432/x', 'postgres://payments:[REDACTED]@db:5432/x'],
    ['https://user:pa55@hooks.example.com/in', 'https://user:[REDACTED]@hooks.example.com/in'],
  ])('reduces %p', (text, expected) => {
    expect(redactText(text)).toBe(expected);
  });

  it('masks a parameter that is only a phone number', () => {
    expect(redactValue(['0771234567', '+263 77 123 4567', 42, '2026-11-23', 'txn_0771234567'])).toEqual([
      '***567',
      '***567',
      42,
      '2026-11-23',
      'txn_0771234567',
    ]);
  });

  it('cleans structured fields at any depth, masking credential fields whole', () => {
    const out = redactValue({
      headers: { authorization: 'Bearer abc', cookie: 'sid=s3ss10n', 'x-request-id': 'req_1' },
      body: {
        customer: { email: 'jane.doe@example.com', mobile_money_number: '0779876543' },
        url: `https://a:b@x.io/?k=${'sk_live_' + 'Zz9Yy8Xx7Ww6Vv5Uu4Tt3'}`,
      },
      password: 'hunter2',
    });
    expect(out).toEqual({
      headers: { authorization: '[REDACTED]', cookie: '[REDACTED]', 'x-request-id': 'req_1' },
      body: {
        customer: { email: 'j***@example.com', mobile_money_number: '***543' },
        url: 'https://a:[REDACTED]@x.io/?k=sk_live_[REDACTED]',
      },
      password: '[REDACTED]',
    });
  });

  it('writes no secret or customer data of a failed query to the log line', () => {
    const secrets = [
      'whsec_' + 'MfKQ9r8GKYqrTwjUPD8ILPZIo2La',
      'sk_test_' + 'Ab3dEf6hIj9kLm2nOp5qRs8t',
      'buyer.one@example.com',
      '0771234567',
      'pw-in-url-42',
    ];
    const driverError = Object.assign(new Error('invalid byte sequence for encoding "UTF8": 0x00'), {
      code: '22021',
      detail: `Key (email)=(${secrets[2]}) already exists.`,
    });
    const err = new QueryFailedError(
      `INSERT INTO callbacks (secret, url, email, phone) VALUES ($1, $2, $3, $4) -- ${secrets[0]}`,
      [secrets[0], `https://u:${secrets[4]}@hooks.example.com/\u0000`, secrets[2], secrets[3], secrets[1]],
      driverError,
    );
    const lines: string[] = [];
    const sink = new Writable({ write: (chunk, _enc, done) => (lines.push(String(chunk)), done()) });
    const logger = createRootLogger('test', 'info', sink);
    logger.error({ err, pattern: 'callbacks.create' }, 'RPC handler failed');
    logger.error(err);
    logger.warn(
      {
        req: {
          headers: { cookie: 'session=abcdef', authorization: `Bearer ${secrets[1]}` },
          body: { email: secrets[2] },
        },
      },
      `for ${secrets[2]}`,
    );
    expect(lines).toHaveLength(3);
    for (const line of lines) for (const s of secrets) expect(line).not.toContain(s);
    expect(lines.join('')).not.toContain('session=abcdef');
    const first = JSON.parse(lines[0]) as {
      err: { type: string; parameters: string[]; driverError: { code: string } };
    };
    expect(first.err.type).toBe('QueryFailedError');
    expect(first.err.driverError.code).toBe('22021');
    expect(first.err.parameters).toEqual([
      'whsec_[REDACTED]',
      'https://u:[REDACTED]@hooks.example.com/\u0000',
      'b***@example.com',
      '***567',
      'sk_test_[REDACTED]',
    ]);
    expect(JSON.parse(lines[1]).message).toBe('invalid byte sequence for encoding "UTF8": 0x00');
  });

  it('drops metadata and descriptions whole: in request bodies and in JSON statement parameters', () => {
    const note = 'deliver to flat 4, gate code 7781';
    const annotations = JSON.stringify({ metadata: { note }, description: note });
    const outbox = JSON.stringify([
      {
        payload: {
          data: { transaction: { email: 'buyer.two@example.com', metadata: { note }, description: note, amount: 10 } },
        },
      },
    ]);
    const driverError = Object.assign(new Error('new row violates check constraint'), {
      code: '23514',
      detail: `Failing row contains (1, ref-1, {"note": "${note}"}, ${note}).`,
    });
    const err = new QueryFailedError(
      'INSERT INTO transactions …',
      ['ref-1', annotations, outbox, '{not json'],
      driverError,
    );
    const lines: string[] = [];
    const sink = new Writable({ write: (chunk, _enc, done) => (lines.push(String(chunk)), done()) });
    const logger = createRootLogger('test', 'info', sink);
    logger.error({ err }, 'RPC handler failed');
    logger.warn({ body: { amount: 10, metadata: { note }, description: note } }, 'rejected');
    for (const line of lines) expect(line).not.toContain(note);
    const params = (JSON.parse(lines[0]) as { err: { parameters: string[] } }).err.parameters;
    expect(params[0]).toBe('ref-1');
    expect(JSON.parse(params[1])).toEqual({ metadata: '[REDACTED]', description: '[REDACTED]' });
    expect(JSON.parse(params[2])).toEqual([
      {
        payload: {
          data: {
            transaction: { email: 'b***@example.com', metadata: '[REDACTED]', description: '[REDACTED]', amount: 10 },
          },
        },
      },
    ]);
    expect(params[3]).toBe('{not json');
    expect((JSON.parse(lines[0]) as { err: { driverError: { detail: string } } }).err.driverError.detail).toBe(
      'Failing row contains ([REDACTED]).',
    );
    expect(JSON.parse(lines[1]).body).toEqual({ amount: 10, metadata: '[REDACTED]', description: '[REDACTED]' });
  });

  it('masks every provider credential field by name: in objects, request bodies and JSON statement parameters', () => {
    const credentials: Record<string, string> = {
      integration_id: '8841201',
      integration_key: '3e9fed89-60e1-4ce5-ab6e-6b1eb2d4f977',
      company_token: '9F416C11-127B-4DE2-AC7F-D5710E4C5E0A',
      service_type: '773854',
      site_code: 'TSTSTE0001',
      private_key: 'ozow-private-7f3k2mq9x',
      api_key: 'ozow-api-93kd7aa1',
    };
    // Every field a provider takes (libs/domain) is covered: a new provider field fails this until it is masked.
    expect(Object.keys(credentials).sort()).toEqual([...CREDENTIAL_FIELD_NAMES].sort());
    const out = redactValue({
      ...credentials,
      body: { provider: 'paynow', credentials },
      nested: { fields: credentials },
    }) as Record<string, unknown>;
    for (const name of CREDENTIAL_FIELD_NAMES)
      expect({ name, value: out[name] }).toEqual({ name, value: '[REDACTED]' });
    expect(out.body).toEqual({ provider: 'paynow', credentials: '[REDACTED]' });

    const err = new QueryFailedError(
      'INSERT INTO provider_connections …',
      [7, 'live', JSON.stringify(credentials)],
      new Error('boom'),
    );
    const lines: string[] = [];
    const sink = new Writable({ write: (chunk, _enc, done) => (lines.push(String(chunk)), done()) });
    const logger = createRootLogger('test', 'info', sink);
    logger.error({ err, request: { body: credentials } }, 'RPC handler failed');
    logger.warn({ credentials }, 'refused');
    expect(lines).toHaveLength(2);
    for (const line of lines)
      for (const value of Object.values(credentials))
        expect({ line, value, leaked: line.includes(value) }).toEqual({ line, value, leaked: false });
  });
});
