/**
 * The fake Paynow run alone (tests/support/fakes/paynow-main.ts): its usage, its refusals, and one
 * payment through it. Also holds the fake's own hashing to the documentation's vectors.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { PaynowConnector } from '../../apps/transaction-service/src/connectors/paynow';
import { wireHash } from '../support/fakes/paynow-fake-wire';
import { waitFor } from '../support/wait';

const KEY = '3e9fed89-60e1-4ce5-ab6e-6b1eb2d4f977';
const ROOT = join(__dirname, '..', '..');

function run(args: string[]): { child: ChildProcess; output: () => string; exited: Promise<number | null> } {
  const child = spawn(process.execPath, ['scripts/ts-run.js', 'tests/support/fakes/paynow-main.ts', ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => out, exited };
}

describe('the fake Paynow', () => {
  it("hashes like the documentation's vectors", () => {
    expect(
      wireHash(
        [
          ['id', '1201'],
          ['reference', 'TEST REF'],
          ['amount', '99.99'],
          ['additionalinfo', 'A test ticket transaction'],
          ['returnurl', 'http://www.google.com/search?q=returnurl'],
          ['resulturl', 'http://www.google.com/search?q=resulturl'],
          ['status', 'Message'],
        ],
        KEY,
      ),
    ).toBe(
      '2A033FC38798D913D42ECB786B9B19645ADEDBDE788862032F1BD82CF3B92DEF' +
        '84F316385D5B40DBB35F1A4FD7D5BFE73835174136463CDD48C9366B0749C689',
    );
    const reply = new URLSearchParams(
      'status=Ok&browserurl=https%3a%2f%2fstaging.paynow.co.zw%2fPayment%2fConfirmPayment%2f9510' +
        '&pollurl=https%3a%2f%2fstaging.paynow.co.zw%2fInterface%2fCheckPayment%2f%3fguid%3d' +
        'c7ed41da-0159-46da-b428-69549f770413&paynowreference=9510',
    );
    expect(wireHash([...reply], KEY)).toBe(
      '750DD0B0DF374678707BB5AF915AF81C228B9058AD57BB7120569EC68BBB9C2E' +
        'FC1B26C6375D2BC562AC909B3CD6B2AF1D42E1A5E479FFAC8F4FB3FDCE71DF4D',
    );
  });

  it('prints its usage with --help', async () => {
    const p = run(['--help']);
    expect(await p.exited).toBe(0);
    expect(p.output()).toMatch(/^Usage: node scripts\/ts-run\.js tests\/support\/fakes\/paynow-main\.ts/);
    expect(p.output()).toMatch(/--integration <id:key>/);
  });

  it.each([
    [[], 'give at least one --integration'],
    [['--integration', '1201'], '--integration must be <digits>:<uuid key>'],
    [['--port', 'x', '--integration', `1201:${KEY}`], '--port x is not a port'],
    [['--bogus'], 'unknown option --bogus'],
    [['--port'], '--port needs a value'],
  ])('refuses %p with exit 2', async (args, message) => {
    const p = run(args);
    expect(await p.exited).toBe(2);
    expect(p.output()).toContain(message);
  });

  it('serves a payment on the port it prints, and stops on SIGTERM', async () => {
    const p = run(['--port', '0', '--integration', `1201:${KEY}`, '--time-scale', '0']);
    try {
      const url = await waitFor('the listening line', () => /listening on (http:\/\/[\d.:]+)/.exec(p.output())?.[1], {
        intervalMs: 50,
        timeoutMs: 15_000,
      });
      const connector = new PaynowConnector(url);
      const C = { integrationId: '1201', integrationKey: KEY };
      const outcome = await connector.initiate(
        C,
        {
          transactionId: 'txn_cli',
          reference: 'CLI-1',
          amountMinor: 100,
          currency: 'USD',
          method: 'ecocash',
          phone: '0771111111',
          email: 'm@example.com',
          description: null,
          resultUrl: 'http://127.0.0.1:1/none',
          returnUrl: 'http://127.0.0.1:1/none',
        },
        { timeoutMs: 5000 },
      );
      expect(outcome).toMatchObject({ kind: 'accepted' });
      const pollUrl = outcome.kind === 'accepted' ? outcome.pollUrl : null;
      await waitFor(
        'Paid at the fake',
        async () => {
          const s = await connector.sync(C, { pollUrl, transactionId: 'txn_cli' }, { timeoutMs: 5000 });
          return s.kind === 'status' && s.update.providerStatus === 'Paid';
        },
        { intervalMs: 20, timeoutMs: 5000 },
      );
    } finally {
      p.child.kill('SIGTERM');
    }
    expect(await p.exited).toBe(0);
  });
});
