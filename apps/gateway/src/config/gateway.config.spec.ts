import { ConfigError, loadConfig } from '@payments/config';
import { GatewayConfig } from './gateway.config';

const ADMIN = { ADMIN_API_TOKEN: 'a-very-long-admin-token-0123456789' };

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
  describe('GatewayConfig', () => {
    it('needs ADMIN_API_TOKEN: an empty environment names it', () => {
      const err = configError(() => loadConfig(GatewayConfig, {}));
      expect(err.problems.map((p) => p.variable)).toEqual(['ADMIN_API_TOKEN']);
      expect(err.message).toContain('ADMIN_API_TOKEN');
    });

    it('applies the defaults once ADMIN_API_TOKEN is set', () => {
      const cfg = loadConfig(GatewayConfig, ADMIN);
      expect(cfg).toBeInstanceOf(GatewayConfig);
      expect(cfg).toMatchObject({
        ...ADMIN,
        GATEWAY_PORT: 3000,
        CHECKOUT_URL: 'http://localhost:3000/checkout',
        DATABASE_NAME: 'payments_gateway',
        MIGRATE_ON_BOOT: true,
        RATE_LIMIT_PER_SECOND: 25,
        TRANSACTION_SERVICE_ADDRS: '127.0.0.1:4001',
        RPC_TIMEOUT_MS: 10_000,
      });
    });

    it.each(['10.0.5.0/24', '10.0.5.17, fd00::/8', 'loopback', 'none'])('accepts TRUSTED_PROXIES=%p', (list) => {
      expect(loadConfig(GatewayConfig, { ...ADMIN, TRUSTED_PROXIES: list }).TRUSTED_PROXIES).toBe(list);
    });

    it.each([
      '10.0.5.0/33',
      'ingress.local',
      '10.0.0.0/8/1',
      'all',
      '10.0.0.1,',
      ' , ',
      'fe80::1%eth0',
      'none, 10.0.0.1',
    ])('refuses TRUSTED_PROXIES=%p, naming it', (list) => {
      expect(
        configError(() => loadConfig(GatewayConfig, { ...ADMIN, TRUSTED_PROXIES: list })).problems.map(
          (p) => p.variable,
        ),
      ).toEqual(['TRUSTED_PROXIES']);
    });

    it.each(['70000', '0', 'http'])('refuses GATEWAY_PORT=%p', (port) => {
      const err = configError(() => loadConfig(GatewayConfig, { ...ADMIN, GATEWAY_PORT: port }));
      expect(err.problems.map((p) => p.variable)).toEqual(['GATEWAY_PORT']);
      expect(err.message).toContain('GATEWAY_PORT');
    });

    it('converts GATEWAY_PORT and MIGRATE_ON_BOOT', () => {
      const cfg = loadConfig(GatewayConfig, { ...ADMIN, GATEWAY_PORT: '8080', MIGRATE_ON_BOOT: 'false' });
      expect(cfg.GATEWAY_PORT).toBe(8080);
      expect(cfg.MIGRATE_ON_BOOT).toBe(false);
    });

    it('does not echo a too-short ADMIN_API_TOKEN', () => {
      const err = configError(() => loadConfig(GatewayConfig, { ADMIN_API_TOKEN: 'tok-xyz-42' }));
      expect(err.problems.map((p) => p.variable)).toEqual(['ADMIN_API_TOKEN']);
      expect(err.message).not.toContain('tok-xyz-42');
    });

    it('does not echo bad URL values (CHECKOUT_URL, REDIS_URL, DATABASE_URL)', () => {
      const env = {
        ...ADMIN,
        CHECKOUT_URL: 'ftp://secret-host-1',
        REDIS_URL: 'memcached://secret-host-2',
        DATABASE_URL: 'mysql://secret-host-3',
      };
      const err = configError(() => loadConfig(GatewayConfig, env));
      expect(err.problems.map((p) => p.variable).sort()).toEqual(['CHECKOUT_URL', 'DATABASE_URL', 'REDIS_URL']);
      expect(err.message).not.toMatch(/secret-host/);
    });

    it('names all bad variables together with a missing token', () => {
      const err = configError(() =>
        loadConfig(GatewayConfig, { GATEWAY_PORT: '70000', TRANSACTION_SERVICE_ADDRS: 'nope' }),
      );
      expect(err.problems.map((p) => p.variable).sort()).toEqual([
        'ADMIN_API_TOKEN',
        'GATEWAY_PORT',
        'TRANSACTION_SERVICE_ADDRS',
      ]);
    });
  });

  describe('trust boundaries', () => {
    it.each(['production', 'test'])(
      'requires INTERNAL_RPC_SECRET of 32+ characters when NODE_ENV=%s, without echoing it',
      (env) => {
        const short = configError(() =>
          loadConfig(GatewayConfig, { ...ADMIN, NODE_ENV: env, INTERNAL_RPC_SECRET: 'short-secret-value' }),
        );
        expect(short.problems.map((p) => p.variable)).toEqual(['INTERNAL_RPC_SECRET']);
        expect(short.message).not.toContain('short-secret-value');
      },
    );

    it('serves gateway metrics on METRICS_PORT (9464, loopback) by default', () => {
      const cfg = loadConfig(GatewayConfig, ADMIN);
      expect({ port: cfg.METRICS_PORT, host: cfg.HTTP_HOST }).toEqual({ port: 9464, host: '127.0.0.1' });
      expect(
        configError(() => loadConfig(GatewayConfig, { ...ADMIN, METRICS_PORT: '0' })).problems.map((p) => p.variable),
      ).toEqual(['METRICS_PORT']);
    });

    it('gives PUBLIC_BASE_URL, without a trailing slash, defaulting to http://127.0.0.1:GATEWAY_PORT', () => {
      expect(loadConfig(GatewayConfig, ADMIN).publicBaseUrl()).toBe('http://127.0.0.1:3000');
      expect(loadConfig(GatewayConfig, { ...ADMIN, GATEWAY_PORT: '8080' }).publicBaseUrl()).toBe(
        'http://127.0.0.1:8080',
      );
      expect(loadConfig(GatewayConfig, { ...ADMIN, PUBLIC_BASE_URL: 'https://pay.example.com/' }).publicBaseUrl()).toBe(
        'https://pay.example.com',
      );
      expect(
        loadConfig(GatewayConfig, { ...ADMIN, PUBLIC_BASE_URL: 'https://example.com/payments' }).publicBaseUrl(),
      ).toBe('https://example.com/payments');
      for (const bad of [
        'pay.example.com',
        'ftp://pay.example.com',
        'https://pay.example.com/?x=1',
        'https://pay.example.com/#top',
        'https://',
      ]) {
        expect(
          configError(() => loadConfig(GatewayConfig, { ...ADMIN, PUBLIC_BASE_URL: bad })).problems.map(
            (p) => p.variable,
          ),
        ).toEqual(['PUBLIC_BASE_URL']);
      }
    });
  });
});
