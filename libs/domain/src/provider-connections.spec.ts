import { CONNECTION_PROVIDERS } from '@payments/contracts';
import { PAYMENT_METHOD_CODES } from './payment-methods';
import {
  CREDENTIAL_FIELD_NAMES,
  PROVIDER_CONNECTIONS,
  credentialProblems,
  maskedAccount,
} from './provider-connections';

const PAYNOW = { integration_id: '1201', integration_key: '3e9fed89-60e1-4ce5-ab6e-6b1eb2d4f977' };
const DPO = { company_token: '9F416C11-127B-4DE2-AC7F-D5710E4C5E0A', service_type: '3854' };
const OZOW = { site_code: 'TSTSTE0001', private_key: 'pk-9a8b7c6d5e4f', api_key: 'ak-1a2b3c4d5e6f' };

describe('provider connections', () => {
  it('describes every provider with the methods it serves, all of them payment method codes', () => {
    expect(Object.keys(PROVIDER_CONNECTIONS)).toEqual([...CONNECTION_PROVIDERS]);
    expect(PROVIDER_CONNECTIONS.paynow.methods).toEqual(['ecocash', 'innbucks', 'zimswitch']);
    expect(PROVIDER_CONNECTIONS.dpo.methods).toEqual(['dpo']);
    expect(PROVIDER_CONNECTIONS.ozow.methods).toEqual(['ozow']);
    for (const p of Object.values(PROVIDER_CONNECTIONS))
      for (const m of p.methods) expect(PAYMENT_METHOD_CODES).toContain(m);
    expect([...CREDENTIAL_FIELD_NAMES].sort()).toEqual([
      'api_key',
      'company_token',
      'integration_id',
      'integration_key',
      'private_key',
      'service_type',
      'site_code',
    ]);
  });

  it.each([
    ['paynow', PAYNOW],
    ['dpo', DPO],
    ['ozow', OZOW],
  ] as const)('accepts the documented %s credentials', (provider, credentials) => {
    expect(credentialProblems(provider, credentials)).toEqual([]);
  });

  it('names each unknown, missing, ill-typed or malformed field, never quoting a value', () => {
    const problems = credentialProblems('paynow', {
      integration_id: '12a4',
      integration_key: 42,
      extra: 'secret-value',
    });
    expect(problems).toEqual([
      { field: 'extra', message: 'is not a recognised field' },
      { field: 'integration_id', message: 'must be 1 to 20 digits' },
      { field: 'integration_key', message: 'must be a string' },
    ]);
    expect(JSON.stringify(problems)).not.toContain('secret-value');
    expect(credentialProblems('dpo', {})).toEqual([
      { field: 'company_token', message: 'is required' },
      { field: 'service_type', message: 'is required' },
    ]);
    expect(credentialProblems('ozow', { ...OZOW, private_key: 'has a space' })).toEqual([
      { field: 'private_key', message: 'must be 1 to 100 printable characters without spaces' },
    ]);
    expect(credentialProblems('ozow', { ...OZOW, api_key: '' })).toEqual([
      { field: 'api_key', message: 'must be 1 to 100 printable characters without spaces' },
    ]);
    expect(credentialProblems('ozow', { ...OZOW, api_key: 'x'.repeat(101) })).toHaveLength(1);
    expect(credentialProblems('ozow', { ...OZOW, api_key: 'ключ' })).toHaveLength(1);
    expect(credentialProblems('paynow', [PAYNOW])).toEqual([
      { field: 'credentials', message: 'must be a JSON object' },
    ]);
    expect(credentialProblems('paynow', null)).toEqual([{ field: 'credentials', message: 'must be a JSON object' }]);
  });

  it('masks the account: the provider prefix and the last 4 characters, at most half of a secret id', () => {
    expect(maskedAccount('paynow', PAYNOW)).toBe('int_…1201');
    expect(maskedAccount('dpo', DPO)).toBe('ct_…5E0A');
    expect(maskedAccount('ozow', OZOW)).toBe('site_…0001');
    expect(maskedAccount('paynow', { ...PAYNOW, integration_id: '7' })).toBe('int_…7');
    // A short company token is itself a credential: never shown whole, nor more than half.
    expect(maskedAccount('dpo', { ...DPO, company_token: 'ABCDEF' })).toBe('ct_…DEF');
    expect(maskedAccount('dpo', { ...DPO, company_token: 'A' })).toBe('ct_…');
  });
});
