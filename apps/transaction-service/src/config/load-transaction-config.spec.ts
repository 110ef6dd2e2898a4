import { ConfigError, loadConfig } from '@payments/config';
import { TransactionServiceConfig } from './transaction.config';

/** Runs `fn`, expects a ConfigError and returns it. */
function configError(fn: () => unknown): ConfigError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return err as ConfigError;
  }
  throw new Error('expected a ConfigError, nothing was thrown');
}

describe('loadConfig', () => {
  it('reads only the env object it is given and leaves it untouched', () => {
    const env = Object.freeze({ RPC_PORT: '5001', MIGRATE_ON_BOOT: 'false' });
    const cfg = loadConfig(TransactionServiceConfig, env);
    expect(cfg.RPC_PORT).toBe(5001);
    expect(env).toEqual({ RPC_PORT: '5001', MIGRATE_ON_BOOT: 'false' });
  });

  describe('TransactionServiceConfig', () => {
    it('applies every default with an empty environment', () => {
      const cfg = loadConfig(TransactionServiceConfig, {});
      expect(cfg).toBeInstanceOf(TransactionServiceConfig);
      expect(cfg).toMatchObject({
        NODE_ENV: 'development',
        LOG_LEVEL: 'info',
        DATABASE_NAME: 'payments_transactions',
        RPC_PORT: 4001,
        HTTP_PORT: 4101,
        MIGRATE_ON_BOOT: true,
        OUTBOX_RELAY_ENABLED: true,
        KAFKA_BROKERS: '127.0.0.1:59092',
        SANDBOX_SETTLE_MS: 3_000,
        TRANSACTION_EXPIRY: '30m',
      });
    });

    it('converts numbers and booleans from their string form', () => {
      const cfg = loadConfig(TransactionServiceConfig, {
        RPC_PORT: '5001',
        MIGRATE_ON_BOOT: 'false',
        OUTBOX_RELAY_ENABLED: 'true',
        SANDBOX_SETTLE_MS: ' 250 ',
      });
      expect(cfg.RPC_PORT).toBe(5001);
      expect(cfg.MIGRATE_ON_BOOT).toBe(false);
      expect(cfg.OUTBOX_RELAY_ENABLED).toBe(true);
      expect(cfg.SANDBOX_SETTLE_MS).toBe(250);
    });

    it.each([
      ['1', true],
      ['yes', true],
      ['ON', true],
      ['0', false],
      ['no', false],
      ['off', false],
      ['FALSE', false],
    ])('reads MIGRATE_ON_BOOT=%p as %p', (raw, value) => {
      expect(loadConfig(TransactionServiceConfig, { MIGRATE_ON_BOOT: raw }).MIGRATE_ON_BOOT).toBe(value);
    });

    it('keeps strings as given', () => {
      const cfg = loadConfig(TransactionServiceConfig, {
        KAFKA_BROKERS: 'kafka-0:9092,kafka-1:9092',
        TRANSACTION_EXPIRY: '2h',
        DATABASE_NAME: 'tx_db',
      });
      expect(cfg.KAFKA_BROKERS).toBe('kafka-0:9092,kafka-1:9092');
      expect(cfg.TRANSACTION_EXPIRY).toBe('2h');
      expect(cfg.DATABASE_NAME).toBe('tx_db');
    });

    it('reads the group-commit bounds of initialize and refuses values outside their range', () => {
      expect(loadConfig(TransactionServiceConfig, {})).toMatchObject({
        INITIALIZE_INSERTS_IN_FLIGHT: 2,
        INITIALIZE_BATCH_MAX: 100,
      });
      expect(
        loadConfig(TransactionServiceConfig, { INITIALIZE_INSERTS_IN_FLIGHT: '4' }).INITIALIZE_INSERTS_IN_FLIGHT,
      ).toBe(4);
      for (const env of [
        { INITIALIZE_INSERTS_IN_FLIGHT: '0' },
        { INITIALIZE_INSERTS_IN_FLIGHT: '65' },
        { INITIALIZE_BATCH_MAX: '0' },
        { INITIALIZE_BATCH_MAX: '2.5' },
      ]) {
        expect(configError(() => loadConfig(TransactionServiceConfig, env)).message).toContain(Object.keys(env)[0]);
      }
    });

    it('ignores environment variables the class does not declare', () => {
      const cfg = loadConfig(TransactionServiceConfig, { SOMETHING_ELSE: 'x', PATH: '/bin' }) as unknown as Record<
        string,
        unknown
      >;
      expect(cfg.SOMETHING_ELSE).toBeUndefined();
      expect(cfg.PATH).toBeUndefined();
    });

    it('treats an empty variable as unset and uses the default', () => {
      const cfg = loadConfig(TransactionServiceConfig, { RPC_PORT: '', MIGRATE_ON_BOOT: ' ' });
      expect(cfg.RPC_PORT).toBe(4001);
      expect(cfg.MIGRATE_ON_BOOT).toBe(true);
    });

    it.each([
      ['RPC_PORT', 'abc'],
      ['RPC_PORT', '0'],
      ['RPC_PORT', '65536'],
      ['RPC_PORT', '40.5'],
      ['RPC_PORT', '0x10'],
      ['KAFKA_BROKERS', 'nope'],
      ['KAFKA_BROKERS', 'a:1,,b:2'],
      ['DATABASE_URL', 'mysql://x'],
      ['MIGRATE_ON_BOOT', 'maybe'],
      ['TRANSACTION_EXPIRY', '30min'],
      ['LOG_LEVEL', 'loud'],
      ['DATABASE_NAME', 'Bad-Name'],
    ])('throws a ConfigError naming %s for %p', (variable, value) => {
      const err = configError(() => loadConfig(TransactionServiceConfig, { [variable]: value }));
      expect(err.name).toBe('ConfigError');
      expect(err.problems.map((p) => p.variable)).toEqual([variable]);
      expect(err.message).toContain(`${variable}:`);
    });

    it('shows the offending value of ordinary variables', () => {
      const err = configError(() => loadConfig(TransactionServiceConfig, { RPC_PORT: 'abc' }));
      expect(err.message).toContain('"abc"');
      expect(err.message).toMatch(/RPC_PORT must be an integer between 1 and 65535/);
    });

    it('names every bad variable, not just the first', () => {
      const err = configError(() =>
        loadConfig(TransactionServiceConfig, {
          RPC_PORT: 'abc',
          KAFKA_BROKERS: 'nope',
          DATABASE_URL: 'mysql://x',
          MIGRATE_ON_BOOT: 'maybe',
          HTTP_PORT: '4101',
        }),
      );
      expect(err.problems.map((p) => p.variable).sort()).toEqual([
        'DATABASE_URL',
        'KAFKA_BROKERS',
        'MIGRATE_ON_BOOT',
        'RPC_PORT',
      ]);
      for (const v of ['RPC_PORT', 'KAFKA_BROKERS', 'DATABASE_URL', 'MIGRATE_ON_BOOT'])
        expect(err.message).toContain(v);
      expect(err.message).not.toContain('HTTP_PORT');
    });

    it('does not echo the value of a URL variable (it may hold a password)', () => {
      const secretUrl = 'mysql://admin:hunter2-s3cret@db.internal/payments';
      const err = configError(() => loadConfig(TransactionServiceConfig, { DATABASE_URL: secretUrl }));
      expect(err.message).toContain('DATABASE_URL');
      expect(err.message).not.toContain(secretUrl);
      expect(err.message).not.toContain('hunter2-s3cret');
      expect(JSON.stringify(err.problems)).not.toContain('hunter2-s3cret');
    });
  });

  describe('trust boundaries', () => {
    const SECRET = {
      INTERNAL_RPC_SECRET: 'x'.repeat(32),
      PROVIDER_CREDENTIALS_KEY: Buffer.alloc(32, 7).toString('base64'),
    };

    it('binds RPC and service HTTP to loopback unless told otherwise', () => {
      const cfg = loadConfig(TransactionServiceConfig, {});
      expect({ rpc: cfg.RPC_HOST, http: cfg.HTTP_HOST }).toEqual({ rpc: '127.0.0.1', http: '127.0.0.1' });
      const open = loadConfig(TransactionServiceConfig, { RPC_HOST: '0.0.0.0', HTTP_HOST: '0.0.0.0' });
      expect({ rpc: open.RPC_HOST, http: open.HTTP_HOST }).toEqual({ rpc: '0.0.0.0', http: '0.0.0.0' });
    });

    it.each(['production', 'test'])(
      'requires INTERNAL_RPC_SECRET and PROVIDER_CREDENTIALS_KEY when NODE_ENV=%s',
      (env) => {
        expect(
          configError(() => loadConfig(TransactionServiceConfig, { NODE_ENV: env }))
            .problems.map((p) => p.variable)
            .sort(),
        ).toEqual(['INTERNAL_RPC_SECRET', 'PROVIDER_CREDENTIALS_KEY']);
        const cfg = loadConfig(TransactionServiceConfig, { NODE_ENV: env, ...SECRET });
        expect({
          rpc: cfg.INTERNAL_RPC_SECRET,
          key: cfg.PROVIDER_CREDENTIALS_KEY,
          old: cfg.PROVIDER_CREDENTIALS_OLD_KEYS,
        }).toEqual({ rpc: SECRET.INTERNAL_RPC_SECRET, key: SECRET.PROVIDER_CREDENTIALS_KEY, old: '' });
      },
    );

    it('leaves PROVIDER_CREDENTIALS_KEY optional in development (a development key stands in)', () => {
      expect(loadConfig(TransactionServiceConfig, {}).PROVIDER_CREDENTIALS_KEY).toBe('');
    });

    const key = (bytes: number) => Buffer.alloc(bytes, 9).toString('base64');
    it.each([
      ['REPLACE_ME'],
      [key(31)],
      [key(33)],
      [key(32).slice(0, -2)],
      [`${key(32).slice(0, -3)}!!=`],
      ['x'.repeat(64)],
    ])('refuses PROVIDER_CREDENTIALS_KEY=%p without echoing it: it must be the base64 of 32 bytes', (value) => {
      const err = configError(() =>
        loadConfig(TransactionServiceConfig, { NODE_ENV: 'production', ...SECRET, PROVIDER_CREDENTIALS_KEY: value }),
      );
      expect(err.problems.map((p) => p.variable)).toEqual(['PROVIDER_CREDENTIALS_KEY']);
      expect(err.message).toContain('PROVIDER_CREDENTIALS_KEY must be the base64 of 32 random bytes');
      expect(err.message).not.toContain(value);
    });

    it('accepts the base64 of 32 bytes with or without padding, standard or URL-safe, and a list of old keys', () => {
      const raw = Buffer.from(Array.from({ length: 32 }, (_, i) => 250 - i));
      for (const value of [
        raw.toString('base64'),
        raw.toString('base64url'),
        raw.toString('base64').replace(/=$/, ''),
      ]) {
        expect(
          loadConfig(TransactionServiceConfig, { ...SECRET, PROVIDER_CREDENTIALS_KEY: value }).PROVIDER_CREDENTIALS_KEY,
        ).toBe(value);
      }
      expect(
        loadConfig(TransactionServiceConfig, {
          ...SECRET,
          PROVIDER_CREDENTIALS_OLD_KEYS: `${key(32)},${raw.toString('base64')}`,
        }).PROVIDER_CREDENTIALS_OLD_KEYS,
      ).toContain(',');
      const err = configError(() =>
        loadConfig(TransactionServiceConfig, {
          ...SECRET,
          PROVIDER_CREDENTIALS_OLD_KEYS: `${key(32)},old-key-not-base64`,
        }),
      );
      expect(err.problems.map((p) => p.variable)).toEqual(['PROVIDER_CREDENTIALS_OLD_KEYS']);
      expect(err.message).not.toContain('old-key-not-base64');
    });

    it('validates the Kafka security settings', () => {
      const cfg = loadConfig(TransactionServiceConfig, {
        KAFKA_SSL: 'true',
        KAFKA_SASL_MECHANISM: 'scram-sha-512',
        KAFKA_SASL_USERNAME: 'svc',
        KAFKA_SASL_PASSWORD: 'pw',
        KAFKA_CREATE_TOPICS: 'false',
      });
      expect(cfg).toMatchObject({ KAFKA_SSL: true, KAFKA_SASL_MECHANISM: 'scram-sha-512', KAFKA_CREATE_TOPICS: false });
      const err = configError(() => loadConfig(TransactionServiceConfig, { KAFKA_SASL_MECHANISM: 'scram-sha-256' }));
      expect(err.problems.map((p) => p.variable).sort()).toEqual(['KAFKA_SASL_PASSWORD', 'KAFKA_SASL_USERNAME']);
      expect(
        configError(() => loadConfig(TransactionServiceConfig, { KAFKA_SASL_MECHANISM: 'gssapi' })).problems.map(
          (p) => p.variable,
        ),
      ).toContain('KAFKA_SASL_MECHANISM');
    });
  });
});
