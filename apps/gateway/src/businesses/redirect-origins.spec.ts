import type { GatewayConfig } from '../config/gateway.config';
import type { BusinessStore } from './business-store';
import { RedirectOriginsService, parseRedirectOrigin } from './redirect-origins';
import { isCalendarDate, isTimestamp } from '../http/dates';

describe('redirect origins', () => {
  it('accepts scheme, host and optional port, https or local http, and normalises them', () => {
    expect(parseRedirectOrigin('https://Shop.Example')).toEqual({ origin: 'https://shop.example' });
    expect(parseRedirectOrigin('https://shop.example:443/')).toEqual({ origin: 'https://shop.example' });
    expect(parseRedirectOrigin('https://shop.example:8443')).toEqual({ origin: 'https://shop.example:8443' });
    expect(parseRedirectOrigin('http://localhost:3000')).toEqual({ origin: 'http://localhost:3000' });
    expect(parseRedirectOrigin('http://[::1]:8080')).toEqual({ origin: 'http://[::1]:8080' });
  });

  it('refuses anything else', () => {
    for (const bad of [
      'http://shop.example',
      'https://shop.example/a',
      'https://shop.example?x',
      'https://shop.example#f',
      'https://u:p@shop.example',
      'ftp://shop.example',
      'shop.example',
      '',
      'https://',
      'javascript:alert(1)',
    ]) {
      expect({ bad, result: 'problem' in parseRedirectOrigin(bad) }).toEqual({ bad, result: true });
    }
  });
});

describe('dates', () => {
  it('accepts only real calendar days of years 0001–9999', () => {
    for (const ok of ['2024-02-29', '0001-01-01', '9999-12-31']) expect(isCalendarDate(ok)).toBe(true);
    for (const bad of ['0000-01-01', '2025-02-29', '2025-13-01', '2025-04-31', '10000-01-01', '2025-1-1', 20250101])
      expect(isCalendarDate(bad)).toBe(false);
  });

  it('accepts only ISO-8601 timestamps of real instants', () => {
    for (const ok of ['2025-01-31T12:00:00Z', '2025-01-31T12:00:00.123+02:00']) expect(isTimestamp(ok)).toBe(true);
    for (const bad of [
      '0000-01-01T00:00:00Z',
      '2025-02-30T00:00:00Z',
      '2025-01-01T24:30:00Z',
      '2025-01-01',
      'yesterday',
    ])
      expect(isTimestamp(bad)).toBe(false);
  });
});

describe('RedirectOriginsService cache', () => {
  /** The businesses table of one business, counting its reads; `hold` keeps the next read waiting. */
  function setup(ttlMs = 5_000) {
    let stored = ['https://shop.example'];
    let held: (() => void) | undefined;
    const store = {
      reads: 0,
      hold: false,
      async redirectOrigins(id: number) {
        store.reads++;
        const snapshot = [...stored];
        if (store.hold) await new Promise<void>((resolve) => (held = resolve));
        return id === 1 ? snapshot : null;
      },
      async setRedirectOrigins(id: number, origins: string[]) {
        stored = origins;
        return id === 1 ? origins : null;
      },
    };
    const service = new RedirectOriginsService(
      store as unknown as BusinessStore,
      { REDIRECT_ORIGINS_CACHE_TTL_MS: ttlMs } as GatewayConfig,
    );
    return { store, service, release: () => held?.() };
  }
  const urls = { success_url: 'https://shop.example/ok', failure_url: 'https://other.example/ko' };

  afterEach(() => jest.useRealTimers());

  it('reads a business’s origins once per TTL for public-key initializes', async () => {
    jest.useFakeTimers({ now: 1_000_000 });
    const { store, service } = setup();
    expect(await service.disallowed(1, urls)).toEqual(['failure_url']);
    expect(await service.disallowed(1, urls)).toEqual(['failure_url']);
    expect(store.reads).toBe(1);
    jest.setSystemTime(1_000_000 + 5_000);
    await service.disallowed(1, urls);
    expect(store.reads).toBe(2);
  });

  it('applies a change at once on this replica', async () => {
    const { service } = setup();
    expect(await service.disallowed(1, urls)).toEqual(['failure_url']);
    await service.set(1, ['https://shop.example', 'https://other.example']);
    expect(await service.disallowed(1, urls)).toEqual([]);
  });

  it('does not cache a list read before a change that finished while it was read', async () => {
    const { store, service, release } = setup();
    store.hold = true;
    const stale = service.disallowed(1, urls);
    await new Promise((r) => setImmediate(r));
    await service.set(1, ['https://shop.example', 'https://other.example']);
    release();
    expect(await stale).toEqual(['failure_url']);
    store.hold = false;
    expect(await service.disallowed(1, urls)).toEqual([]);
  });

  it('does not cache when the TTL is 0, and still answers 404 for an unknown business', async () => {
    const { store, service } = setup(0);
    await service.disallowed(1, urls);
    await service.disallowed(1, urls);
    expect(store.reads).toBe(2);
    await expect(service.disallowed(2, urls)).rejects.toMatchObject({ code: 'not_found' });
  });
});
