import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { RpcPatterns, type InitializeTransactionResult, type RpcReply } from '@payments/contracts';
import type { FramedRpcClient } from '@payments/platform';
import { ROOT } from '../support/infra';
import { freePort, startApp } from '../support/processes';
import { Stack } from '../support/stack';
import { waitFor } from '../support/wait';

const run = promisify(execFile);

/**
 * Managed Kafka speaks SASL_SSL. A second, private broker (its own directory and ports; the shared
 * one is left alone) gets a SASL_SSL listener with a self-signed CA and a SCRAM user, and the
 * services produce and consume through it with KAFKA_SSL / KAFKA_SASL_* set.
 */
describe('Kafka over SASL_SSL (SCRAM)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kafka-sasl-'));
  const USER = 'payments-svc';
  const PASSWORD = `scram-${Date.now().toString(36)}-pw`;
  let brokerEnv: Record<string, string>;
  let saslEnv: Record<string, string>;
  let stack: Stack;
  let client: FramedRpcClient | undefined;

  const broker = async (command: 'up' | 'down') => {
    const env: Record<string, string | undefined> = { ...process.env, ...brokerEnv };
    delete env.KAFKA_BROKERS; // never reuse the shared broker
    return run('bash', [join(ROOT, 'scripts/infra/kafka.sh'), command], { env, timeout: 240_000 });
  };

  beforeAll(async () => {
    brokerEnv = {
      LOCAL_DIR: dir,
      KAFKA_PORT: String(await freePort()),
      KAFKA_CONTROLLER_PORT: String(await freePort()),
      KAFKA_SASL_SSL_PORT: String(await freePort()),
      KAFKA_SASL_USERNAME: USER,
      KAFKA_SASL_PASSWORD: PASSWORD,
      KAFKA_HEAP_OPTS: '-Xms128m -Xmx384m',
    };
    const { stdout } = await broker('up');
    const exported = Object.fromEntries([...stdout.matchAll(/^export (\w+)=(.*)$/gm)].map((m) => [m[1], m[2]]));
    saslEnv = {
      KAFKA_BROKERS: exported.KAFKA_SASL_SSL_BROKERS,
      KAFKA_SSL: 'true',
      KAFKA_SSL_CA_FILE: exported.KAFKA_SASL_SSL_CA_FILE,
      KAFKA_SASL_MECHANISM: 'scram-sha-256',
      KAFKA_SASL_USERNAME: USER,
      KAFKA_SASL_PASSWORD: PASSWORD,
    };
    stack = await Stack.start(['transaction-service', 'split-ledger-service'], saslEnv);
  }, 300_000);

  afterAll(async () => {
    client?.close();
    await stack?.stop().catch(() => undefined);
    await broker('down').catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  }, 120_000);

  it('produces and consumes through the SASL_SSL listener', async () => {
    client = stack.rpcClient('transaction-service');
    const reply = await client.request<RpcReply<InitializeTransactionResult>>(RpcPatterns.TransactionsInitialize, {
      ctx: { request_id: 'req_sasl', business_id: 3, mode: 'test', key_type: 'secret' },
      body: {
        amount: 1500,
        email: 'sasl@example.com',
        currency: 'USD',
        payment_method_type: 'mobile_money',
        payment_method_code: 'ecocash',
        mobile_money_number: '0771000001',
        requested_response: 'success',
      },
    });
    if (!reply.ok) throw new Error(JSON.stringify(reply.error));
    // The ledger only learns of the transaction from Kafka: its inbox proves the round trip.
    await waitFor(
      'split-ledger-service to consume the events',
      async () => {
        const { rows } = await stack
          .db('split-ledger-service')
          .query<{ n: number }>('SELECT count(*)::int AS n FROM processed_events');
        return rows[0].n >= 1;
      },
      { timeoutMs: 30_000 },
    );
  }, 60_000);

  const boot = async (extra: Record<string, string>) => {
    const http = await freePort();
    const proc = startApp(
      'transaction-service',
      {
        ...stack.envFor('transaction-service'),
        RPC_PORT: String(await freePort()),
        HTTP_PORT: String(http),
        LOG_LEVEL: 'error',
        ...extra,
      },
      http,
    );
    return { code: await proc.waitExit(60_000), output: proc.output };
  };

  it('stops startup on a wrong password, naming the variable', async () => {
    const { code, output } = await boot({ KAFKA_SASL_PASSWORD: 'not-the-password' });
    expect(code).toBe(1);
    expect(output).toMatch(/error: Kafka at 127\.0\.0\.1:\d+ is unreachable: .*KAFKA_SASL_PASSWORD/);
    expect(output).not.toContain('not-the-password');
  }, 70_000);

  it('with KAFKA_CREATE_TOPICS=false, stops startup naming the missing topics', async () => {
    const { code, output } = await boot({ KAFKA_CREATE_TOPICS: 'false', KAFKA_TOPIC_PREFIX: 'absent.' });
    expect(code).toBe(1);
    expect(output).toMatch(/topics missing and KAFKA_CREATE_TOPICS=false: .*absent\.transaction\.status_changed/);
  }, 70_000);

  it('names KAFKA_SSL_CA_FILE when the CA cannot be read', async () => {
    const { code, output } = await boot({ KAFKA_SSL_CA_FILE: join(dir, 'no-such-ca.pem') });
    expect(code).toBe(2);
    expect(output).toContain('KAFKA_SSL_CA_FILE');
  }, 70_000);
});
