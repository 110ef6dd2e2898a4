import { parseRedirectOrigin } from './redirect-origins';
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
    for (const bad of ['http://shop.example', 'https://shop.example/a', 'https://shop.example?x', 'https://shop.example#f', 'https://u:p@shop.example', 'ftp://shop.example', 'shop.example', '', 'https://', 'javascript:alert(1)']) {
      expect({ bad, result: 'problem' in parseRedirectOrigin(bad) }).toEqual({ bad, result: true });
    }
  });
});

describe('dates', () => {
  it('accepts only real calendar days of years 0001–9999', () => {
    for (const ok of ['2024-02-29', '0001-01-01', '9999-12-31']) expect(isCalendarDate(ok)).toBe(true);
    for (const bad of ['0000-01-01', '2025-02-29', '2025-13-01', '2025-04-31', '10000-01-01', '2025-1-1', 20250101]) expect(isCalendarDate(bad)).toBe(false);
  });

  it('accepts only ISO-8601 timestamps of real instants', () => {
    for (const ok of ['2025-01-31T12:00:00Z', '2025-01-31T12:00:00.123+02:00']) expect(isTimestamp(ok)).toBe(true);
    for (const bad of ['0000-01-01T00:00:00Z', '2025-02-30T00:00:00Z', '2025-01-01T24:30:00Z', '2025-01-01', 'yesterday']) expect(isTimestamp(bad)).toBe(false);
  });
});
