import { infra, runId } from '../support/infra';
import { freePort, startApp, type AppName } from '../support/processes';

/**
 * A service that cannot start says which dependency or setting is wrong and exits, rather than
 * hanging or crashing with a stack trace.
 */
describe('startup errors', () => {
  const real = infra();
  const id = runId();

  // Each service owns its database, here too.
  const dbName = (app: AppName) => `${id}_boot_${app.replace(/-/g, '_')}`;

  async function boot(app: AppName, env: Record<string, string>) {
    const port = await freePort();
    const proc = startApp(
      app,
      {
        DATABASE_URL: real.DATABASE_URL,
        REDIS_URL: real.REDIS_URL,
        KAFKA_BROKERS: real.KAFKA_BROKERS,
        DATABASE_NAME: dbName(app),
        KAFKA_TOPIC_PREFIX: `${id}.`,
        HTTP_PORT: String(port),
        RPC_PORT: String(await freePort()),
        GATEWAY_PORT: String(port),
        ADMIN_API_TOKEN: 'a-long-enough-admin-token',
        INTERNAL_RPC_SECRET: `boot-errors-${id}-0123456789abcdefghij`,
        PROVIDER_CREDENTIALS_KEY: Buffer.alloc(32, 3).toString('base64'),
        LOG_LEVEL: 'error',
        ...env,
      },
      port,
    );
    const code = await proc.waitExit(60_000);
    return { code, output: proc.output };
  }

  afterAll(async () => {
    const { Client } = await import('pg');
    const c = new Client({ connectionString: real.DATABASE_URL });
    await c.connect();
    for (const app of ['transaction-service', 'split-ledger-service', 'webhook-dispatcher', 'gateway'] as AppName[]) {
      await c.query(`DROP DATABASE IF EXISTS "${dbName(app)}" WITH (FORCE)`);
    }
    await c.end();
  });

  it('names PostgreSQL and its address when the database server is down', async () => {
    const dead = await freePort();
    const { code, output } = await boot('transaction-service', {
      DATABASE_URL: `postgres://payments:payments@127.0.0.1:${dead}/postgres`,
    });
    expect(code).toBe(1);
    expect(output).toContain(`error: PostgreSQL at 127.0.0.1:${dead} is unreachable`);
    expect(output).not.toContain('payments:payments'); // no credentials in the message
  }, 70_000);

  it('names Kafka when the broker is down', async () => {
    const dead = await freePort();
    const { code, output } = await boot('transaction-service', { KAFKA_BROKERS: `127.0.0.1:${dead}` });
    expect(code).toBe(1);
    expect(output).toContain(`error: Kafka at 127.0.0.1:${dead} is unreachable`);
  }, 70_000);

  it('names Redis when it is down', async () => {
    const dead = await freePort();
    const { code, output } = await boot('webhook-dispatcher', { REDIS_URL: `redis://127.0.0.1:${dead}` });
    expect(code).toBe(1);
    expect(output).toContain(`error: Redis at 127.0.0.1:${dead} is unreachable`);
  }, 70_000);

  it('names the variable of a bad setting and starts nothing', async () => {
    const { code, output } = await boot('split-ledger-service', { RPC_PORT: 'abc', KAFKA_PARTITIONS: '0' });
    expect(code).toBe(2);
    expect(output).toMatch(/- RPC_PORT: RPC_PORT must be an integer between 1 and 65535 \(got "abc"\)/);
    expect(output).toMatch(/- KAFKA_PARTITIONS: /);
  }, 30_000);

  it.each(['gateway', 'transaction-service'] as AppName[])(
    'refuses to start %s in production without INTERNAL_RPC_SECRET',
    async (app) => {
      const { code, output } = await boot(app, { NODE_ENV: 'production', INTERNAL_RPC_SECRET: '' });
      expect(code).toBe(2);
      expect(output).toMatch(
        /- INTERNAL_RPC_SECRET: INTERNAL_RPC_SECRET must be a random secret of at least 32 characters/,
      );
    },
    30_000,
  );

  it('refuses production transaction-service without a 32-byte PROVIDER_CREDENTIALS_KEY; never echoes it', async () => {
    const missing = await boot('transaction-service', { NODE_ENV: 'production', PROVIDER_CREDENTIALS_KEY: '' });
    expect(missing.code).toBe(2);
    expect(missing.output).toMatch(
      /- PROVIDER_CREDENTIALS_KEY: PROVIDER_CREDENTIALS_KEY must be the base64 of 32 random bytes/,
    );
    const short = Buffer.alloc(16, 5).toString('base64');
    const bad = await boot('transaction-service', { NODE_ENV: 'production', PROVIDER_CREDENTIALS_KEY: short });
    expect(bad.code).toBe(2);
    expect(bad.output).toContain('- PROVIDER_CREDENTIALS_KEY:');
    expect(bad.output).not.toContain(short);
  }, 30_000);

  it('refuses to start the gateway without an admin token', async () => {
    const { code, output } = await boot('gateway', { ADMIN_API_TOKEN: '' });
    expect(code).toBe(2);
    expect(output).toContain('ADMIN_API_TOKEN');
  }, 30_000);
});
