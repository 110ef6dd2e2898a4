/**
 * The fake Ozow run alone (tests/support/fakes/ozow-main.ts): its usage, its refusals, and one
 * payment and refund through it. Also holds the fake's own hashing to Ozow's documented example.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { OzowConnector } from '../../apps/transaction-service/src/connectors/ozow';
import { expectedHashCheck, readRequestFields } from '../support/fakes/ozow-fake-rules';
import { waitFor } from '../support/wait';

const ROOT = join(__dirname, '..', '..');
const SITE = 'TSTSTE0001:215114531AFF7134A94C88CEEA48E:cli-api-key';

function run(args: string[]): { child: ChildProcess; output: () => string; exited: Promise<number | null> } {
  const child = spawn(process.execPath, ['scripts/ts-run.js', 'tests/support/fakes/ozow-main.ts', ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => out, exited };
}

describe('the fake Ozow', () => {
  it("hashes like Ozow's documented example", () => {
    const fields = readRequestFields({
      SiteCode: 'TSTSTE0001',
      CountryCode: 'ZA',
      CurrencyCode: 'ZAR',
      Amount: '25.00',
      TransactionReference: '123',
      BankReference: 'ABC123',
      CancelUrl: 'http://demo.ozow.com/cancel.aspx',
      ErrorUrl: 'http://demo.ozow.com/error.aspx',
      SuccessUrl: 'http://demo.ozow.com/success.aspx',
      NotifyUrl: 'http://demo.ozow.com/notify.aspx',
      IsTest: false,
      HashCheck: 'not hashed',
      CustomerCellphoneNumber: '0821234567',
    })!;
    expect(expectedHashCheck(fields, '215114531AFF7134A94C88CEEA48E')).toBe(
      'eedcba106cd8fef3ba6cec5ec80de7d7d7fc90343028bf95b908718c671d0fe8' +
        '85ca08b206d788de009d237a93c18e66edf6ede3f5ca7057e23474106465dcc6',
    );
  });

  it('prints its usage with --help', async () => {
    const p = run(['--help']);
    expect(await p.exited).toBe(0);
    expect(p.output()).toMatch(/^Usage: node scripts\/ts-run\.js tests\/support\/fakes\/ozow-main\.ts/);
    expect(p.output()).toMatch(/--site <code:privkey:apikey>/);
  });

  it.each([
    [[], 'give at least one --site'],
    [['--site', 'TSTSTE0001'], '--site must be <site code>:<private key>:<api key>'],
    [['--port', 'x', '--site', SITE], '--port x is not a port'],
    [['--bogus'], 'unknown option --bogus'],
    [['--port'], '--port needs a value'],
  ])('refuses %p with exit 2', async (args, message) => {
    const p = run(args);
    expect(await p.exited).toBe(2);
    expect(p.output()).toContain(message);
  });

  it('serves a payment and a refund on the port it prints, and stops on SIGTERM', async () => {
    const p = run(['--port', '0', '--site', SITE, '--refund-after-ms', '0']);
    try {
      const url = await waitFor('the listening line', () => /listening on (http:\/\/[\d.:]+)/.exec(p.output())?.[1], {
        intervalMs: 50,
        timeoutMs: 15_000,
      });
      const connector = new OzowConnector(url);
      const C = { siteCode: 'TSTSTE0001', privateKey: '215114531AFF7134A94C88CEEA48E', apiKey: 'cli-api-key' };
      const req = {
        transactionId: 'txn_cli',
        reference: 'CLI-1',
        amountMinor: 100,
        currency: 'ZAR',
        method: 'ozow',
        phone: null,
        email: 'm@example.com',
        description: null,
        resultUrl: 'http://127.0.0.1:1/none',
        returnUrl: 'http://127.0.0.1:1/none',
      };
      const outcome = await connector.initiate(C, req, { timeoutMs: 5000 });
      expect(outcome).toMatchObject({ kind: 'accepted', status: 'pending' });
      const page = await fetch(`${outcome.kind === 'accepted' ? outcome.redirectUrl : ''}?choose=Complete`);
      expect(page.status).toBe(200);
      const synced = await connector.sync(C, { pollUrl: null, transactionId: 'txn_cli' }, { timeoutMs: 5000 });
      expect(synced).toMatchObject({ kind: 'status', update: { providerStatus: 'Complete', status: 'success' } });
      const providerReference = synced.kind === 'status' ? synced.update.providerReference! : '';
      const refund = {
        providerReference,
        transactionId: 'txn_cli',
        amountMinor: 100,
        currency: 'ZAR',
        reason: null,
        refundId: 'rfd_cli',
        notifyUrl: 'http://127.0.0.1:1/none',
      };
      expect(await connector.refund(C, refund, { timeoutMs: 5000 })).toMatchObject({ kind: 'pending' });
    } finally {
      p.child.kill('SIGTERM');
    }
    expect(await p.exited).toBe(0);
  });
});
