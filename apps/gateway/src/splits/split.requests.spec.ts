import { ApiException } from '../http/api-exception';
import { validateRequest } from '../http/request-validation';
import type { RequestObject } from '../http/request-schema';
import { CreateSplitConfigDto, LedgerPageQuery, UpdateSplitConfigDto } from './split.requests';

const body = async (schema: RequestObject, value: unknown) => validateRequest(schema, value);
const query = async (value: unknown) => validateRequest(LedgerPageQuery, value);

async function fieldsOf(promise: Promise<unknown>): Promise<Record<string, string>> {
  try {
    await promise;
  } catch (err) {
    expect(err).toBeInstanceOf(ApiException);
    expect((err as ApiException).code).toBe('validation_error');
    return Object.fromEntries(((err as ApiException).errors ?? []).map((e) => [e.field, e.message]));
  }
  throw new Error('expected a validation error');
}

const valid = {
  partner_business_id: 2,
  split_type: 'percentage',
  split_value: 250,
  split_role: 'fee',
  currency: 'USD',
  description: 'Platform fee',
};

describe('CreateSplitConfigDto', () => {
  it('accepts a valid body', async () => {
    await expect(body(CreateSplitConfigDto, valid)).resolves.toMatchObject(valid);
    await expect(
      body(CreateSplitConfigDto, { ...valid, description: undefined, split_type: 'fixed', split_value: 50_000 }),
    ).resolves.toBeDefined();
  });

  it.each([
    [{ split_value: 10_001 }, 'split_value'],
    [{ split_value: 0 }, 'split_value'],
    [{ split_value: '250' }, 'split_value'],
    [{ split_type: 'percent' }, 'split_type'],
    [{ split_role: 'owner' }, 'split_role'],
    [{ currency: 'XXX' }, 'currency'],
    [{ partner_business_id: 'two' }, 'partner_business_id'],
    [{ description: 'x'.repeat(501) }, 'description'],
    [{ extra: 1 }, 'extra'],
  ])('refuses %p naming %s', async (change, field) => {
    expect(Object.keys(await fieldsOf(body(CreateSplitConfigDto, { ...valid, ...change })))).toEqual([field]);
  });

  it('names every missing field', async () => {
    expect(Object.keys(await fieldsOf(body(CreateSplitConfigDto, {}))).sort()).toEqual([
      'currency',
      'partner_business_id',
      'split_role',
      'split_type',
      'split_value',
    ]);
  });
});

describe('UpdateSplitConfigDto', () => {
  it('accepts any subset of the changeable fields, including none', async () => {
    await expect(body(UpdateSplitConfigDto, {})).resolves.toBeDefined();
    await expect(body(UpdateSplitConfigDto, { split_value: 300, description: 'new' })).resolves.toMatchObject({
      split_value: 300,
    });
  });

  it('refuses partner_business_id and currency by name, also when null', async () => {
    expect(await fieldsOf(body(UpdateSplitConfigDto, { partner_business_id: 3, currency: null }))).toEqual({
      partner_business_id: 'cannot be changed; deactivate this split config and create a new one',
      currency: 'cannot be changed; deactivate this split config and create a new one',
    });
  });

  it('refuses unknown fields and a percentage above 10 000 bps', async () => {
    expect(Object.keys(await fieldsOf(body(UpdateSplitConfigDto, { is_active: true })))).toEqual(['is_active']);
    expect(
      Object.keys(await fieldsOf(body(UpdateSplitConfigDto, { split_type: 'percentage', split_value: 20_000 }))),
    ).toEqual(['split_value']);
  });
});

describe('LedgerPageQuery', () => {
  it('reads skip and limit from the query string', async () => {
    await expect(query({ skip: '10', limit: '500' })).resolves.toMatchObject({ skip: 10, limit: 500 });
    await expect(query({})).resolves.toMatchObject({});
  });

  it.each([
    [{ limit: '501' }, 'limit'],
    [{ limit: '0' }, 'limit'],
    [{ limit: 'ten' }, 'limit'],
    [{ skip: '-1' }, 'skip'],
    [{ skip: '1.5' }, 'skip'],
    [{ page: '2' }, 'page'],
  ])('refuses %p', async (q, field) => {
    expect(Object.keys(await fieldsOf(query(q)))).toEqual([field]);
  });
});
