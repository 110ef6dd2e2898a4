import { maskOzowSite, parseOzowCredentials } from './ozow-credentials';

const GOOD = { site_code: 'TSTSTE0001', private_key: '215114531AFF7134A94C88CEEA48E', api_key: 'ak-1a2b3c4d5e6f' };

describe('Ozow credentials', () => {
  it('accepts a site code, private key and API key as given', () => {
    expect(parseOzowCredentials(GOOD)).toEqual({
      ok: true,
      value: { siteCode: 'TSTSTE0001', privateKey: '215114531AFF7134A94C88CEEA48E', apiKey: 'ak-1a2b3c4d5e6f' },
    });
  });

  it.each([
    [null, 'credentials'],
    ['TSTSTE0001', 'credentials'],
    [{}, 'site_code'],
    [{ ...GOOD, site_code: 'has space' }, 'site_code'],
    [{ ...GOOD, private_key: '' }, 'private_key'],
    [{ ...GOOD, api_key: 12 }, 'api_key'],
    [{ ...GOOD, extra: 'x' }, 'extra'],
  ])('refuses %p, naming %s and never quoting a value', (input, field) => {
    const result = parseOzowCredentials(input);
    expect(result).toMatchObject({ ok: false, field });
    expect(JSON.stringify(result)).not.toContain('215114531AFF');
  });

  it('masks the site code, showing its last four characters only', () => {
    const parsed = parseOzowCredentials(GOOD);
    if (!parsed.ok) throw new Error('expected valid');
    expect(maskOzowSite(parsed.value)).toBe('site_…0001');
  });
});
