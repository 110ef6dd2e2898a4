import { splitConfigProblems, type SplitConfigTerms } from './split-config-rules';

const valid: SplitConfigTerms = {
  ownerBusinessId: 1,
  partnerBusinessId: 2,
  type: 'percentage',
  value: 250,
  role: 'fee',
  currency: 'USD',
  description: 'Platform fee',
};

describe('splitConfigProblems', () => {
  it('accepts a valid config, with or without a description', () => {
    expect(splitConfigProblems(valid)).toEqual([]);
    expect(splitConfigProblems({ ...valid, description: null })).toEqual([]);
    expect(splitConfigProblems({ ...valid, type: 'fixed', value: 1_000_000, role: 'principal' })).toEqual([]);
    expect(splitConfigProblems({ ...valid, value: 10_000 })).toEqual([]);
  });

  it.each([
    [{ partnerBusinessId: 1 }, 'partner_business_id', 'must be a business other than your own'],
    [{ partnerBusinessId: 0 }, 'partner_business_id', 'must be an existing business'],
    [{ type: 'percent' }, 'split_type', 'must be one of percentage, fixed'],
    [{ value: 0 }, 'split_value', 'must be a positive integer'],
    [{ value: 2.5 }, 'split_value', 'must be a positive integer'],
    [{ value: '250' }, 'split_value', 'must be a positive integer'],
    [{ value: 10_001 }, 'split_value', 'must be at most 10000 basis points for a percentage split'],
    [{ role: 'owner' }, 'split_role', 'must be one of fee, principal'],
    [{ currency: 'XYZ' }, 'currency', 'must be a supported ISO 4217 currency code'],
    [{ currency: 'usd' }, 'currency', 'must be a supported ISO 4217 currency code'],
    [{ description: 'x'.repeat(501) }, 'description', 'must be a string of at most 500 characters'],
  ])('refuses %p, naming %s', (change, field, message) => {
    expect(splitConfigProblems({ ...valid, ...change })).toEqual([{ field, message }]);
  });

  it('lists every broken field', () => {
    expect(splitConfigProblems({ ...valid, type: 'x', role: 'y', currency: 'Q' }).map((p) => p.field)).toEqual([
      'split_type',
      'split_role',
      'currency',
    ]);
  });
});
