import { maskPaynowIntegration, parsePaynowCredentials } from './paynow-credentials';

const KEY = '3e9fed89-60e1-4ce5-ab6e-6b1eb2d4f977';

describe('Paynow credentials', () => {
  it('accepts an id of digits and a UUID key, lower-casing the key', () => {
    expect(parsePaynowCredentials({ integration_id: '1201', integration_key: KEY })).toEqual({
      ok: true,
      value: { integrationId: '1201', integrationKey: KEY },
    });
    expect(parsePaynowCredentials({ integration_id: ' 1201 ', integration_key: ` ${KEY.toUpperCase()}\n` })).toEqual({
      ok: true,
      value: { integrationId: '1201', integrationKey: KEY },
    });
  });

  it.each([
    [null, 'credentials'],
    ['1201', 'credentials'],
    [[], 'credentials'],
    [{}, 'integration_id'],
    [{ integration_id: 1201, integration_key: KEY }, 'integration_id'],
    [{ integration_id: '12a1', integration_key: KEY }, 'integration_id'],
    [{ integration_id: '', integration_key: KEY }, 'integration_id'],
    [{ integration_id: '1234567890123', integration_key: KEY }, 'integration_id'],
    [{ integration_id: '1201' }, 'integration_key'],
    [{ integration_id: '1201', integration_key: 'secret' }, 'integration_key'],
    [{ integration_id: '1201', integration_key: KEY.replace(/-/g, '') }, 'integration_key'],
    [{ integration_id: '1201', integration_key: `${KEY}0` }, 'integration_key'],
  ])('refuses %p, naming %s', (input, field) => {
    const result = parsePaynowCredentials(input);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.field).toBe(field);
      expect(result.message).not.toContain(KEY);
    }
  });

  it('masks the integration to the last four digits of its id', () => {
    expect(maskPaynowIntegration({ integrationId: '1201', integrationKey: KEY })).toBe('int_…1201');
    expect(maskPaynowIntegration({ integrationId: '9876543', integrationKey: KEY })).toBe('int_…6543');
  });
});
