/**
 * The fake DPO Pay run alone (tests/support/fakes/dpo-main.ts): its usage, its refusals, and one
 * payment through it, push included.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { DpoConnector } from '../../apps/transaction-service/src/connectors/dpo';
import { ResultReceiver } from '../support/fakes/result-receiver';
import { waitFor } from '../support/wait';

const COMPANY = '9F416C11-127B-4DE2-AC7F-D5710E4C5E0A';
const ROOT = join(__dirname, '..', '..');

function run(args: string[]): { child: ChildProcess; output: () => string; exited: Promise<number | null> } {
  const child = spawn(process.execPath, ['scripts/ts-run.js', 'tests/support/fakes/dpo-main.ts', ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => out, exited };
}

describe('the fake DPO Pay', () => {
  it('prints its usage with --help', async () => {
    const p = run(['--help']);
    expect(await p.exited).toBe(0);
    expect(p.output()).toMatch(/^Usage: node scripts\/ts-run\.js tests\/support\/fakes\/dpo-main\.ts/);
    expect(p.output()).toContain('--company <token>');
    expect(p.output()).toContain('5436886269848367');
  });

  it.each([
    [[], 'give at least one --company'],
    [['--company', COMPANY, '--push-url', 'ftp://x'], '--push-url must be an http(s) URL'],
    [['--port', 'x', '--company', COMPANY], '--port x is not a port'],
    [['--bogus'], 'unknown option --bogus'],
    [['--company'], '--company needs a value'],
  ])('refuses %p with exit 2', async (args, message) => {
    const p = run(args);
    expect(await p.exited).toBe(2);
    expect(p.output()).toContain(message);
  });

  it('serves on its printed port, pushes to --push-url, stops on SIGTERM, never prints the company token', async () => {
    const receiver = await ResultReceiver.start();
    receiver.okBody = 'OK';
    const p = run(['--port', '0', '--company', COMPANY, '--push-url', `${receiver.url}/push`]);
    try {
      const url = await waitFor('the listening line', () => /listening on (http:\/\/[\d.:]+)/.exec(p.output())?.[1], {
        intervalMs: 50,
        timeoutMs: 15_000,
      });
      expect(p.output()).not.toContain(COMPANY);
      const connector = new DpoConnector(url);
      const C = { companyToken: COMPANY, serviceType: '3854' };
      const outcome = await connector.initiate(
        C,
        {
          transactionId: 'txn_cli',
          reference: 'CLI-1',
          amountMinor: 100,
          currency: 'USD',
          method: 'dpo',
          phone: null,
          email: 'm@example.com',
          description: null,
          resultUrl: 'http://127.0.0.1:1/none',
          returnUrl: 'http://127.0.0.1:1/back',
        },
        { timeoutMs: 5000 },
      );
      if (outcome.kind !== 'accepted') throw new Error(`not accepted: ${JSON.stringify(outcome)}`);
      const page = await fetch(outcome.redirectUrl!);
      expect(page.status).toBe(200);
      const paid = await fetch(`${url}/payv2.php`, {
        method: 'POST',
        body: new URLSearchParams({ ID: outcome.providerReference!, action: 'pay', card: '5436886269848367' }),
        redirect: 'manual',
      });
      expect(paid.headers.get('location')).toMatch(/^http:\/\/127\.0\.0\.1:1\/back\?TransID=/);
      expect(
        await connector.sync(
          C,
          { pollUrl: null, providerReference: outcome.providerReference, transactionId: 'txn_cli' },
          { timeoutMs: 5000 },
        ),
      ).toMatchObject({ kind: 'status', update: { status: 'success' } });
      await waitFor('the push', () => receiver.at('/push').length > 0, { intervalMs: 20, timeoutMs: 5000 });
    } finally {
      p.child.kill('SIGTERM');
      await receiver.stop();
    }
    expect(await p.exited).toBe(0);
  });
});
