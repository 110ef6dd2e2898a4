import { maskDpoCompanyToken, parseDpoCredentials } from './dpo-credentials';

const TOKEN = '9F416C11-127B-4DE2-AC7F-D5710E4C5E0A';

describe('DPO credentials', () => {
  it('takes a company token and a service type, trimmed', () => {
    expect(parseDpoCredentials({ company_token: ` ${TOKEN} `, service_type: ' 3854 ' })).toEqual({
      ok: true,
      value: { companyToken: TOKEN, serviceType: '3854' },
    });
    expect(parseDpoCredentials({ company_token: TOKEN, service_type: 3854 })).toEqual({
      ok: true,
      value: { companyToken: TOKEN, serviceType: '3854' },
    });
  });

  it.each<[unknown, string]>([
    [null, 'credentials'],
    [[], 'credentials'],
    ['x', 'credentials'],
    [{ service_type: '3854' }, 'company_token'],
    [{ company_token: '', service_type: '3854' }, 'company_token'],
    [{ company_token: 'has space', service_type: '3854' }, 'company_token'],
    [{ company_token: 'x'.repeat(101), service_type: '3854' }, 'company_token'],
    [{ company_token: TOKEN }, 'service_type'],
    [{ company_token: TOKEN, service_type: '38a4' }, 'service_type'],
    [{ company_token: TOKEN, service_type: -1 }, 'service_type'],
    [{ company_token: TOKEN, service_type: '1'.repeat(21) }, 'service_type'],
  ])('refuses %j, naming %s', (input, field) => {
    const result = parseDpoCredentials(input);
    expect(result).toMatchObject({ ok: false, field });
    if (!result.ok) expect(result.message).not.toContain(TOKEN);
  });

  it('masks all but the last four characters of the company token', () => {
    expect(maskDpoCompanyToken({ companyToken: TOKEN, serviceType: '3854' })).toBe('ct_…5E0A');
  });
});
