import { describe, expect, it } from '@jest/globals';
import type { SplitConfig } from './money-api';
import {
  EMPTY_SPLIT_CONFIG,
  configShareText,
  majorText,
  newSplitConfigBody,
  shareText,
  splitConfigChanges,
  splitConfigForm,
} from './splitConfigForm';

const config: SplitConfig = {
  public_id: '0b3c2f3e-8a0e-4c55-9a55-111111111111',
  owner_business_id: 3,
  partner_business_id: 7,
  split_type: 'percentage',
  split_value: 250,
  split_role: 'fee',
  currency: 'USD',
  description: 'Venue share',
  is_active: true,
  date_created: '2025-01-02 03:04:05',
};

describe('the split config form', () => {
  it('sends a new config in basis points or minor units, without an empty description', () => {
    const form = { ...EMPTY_SPLIT_CONFIG, partner_business_id: ' 7 ', split_value: '2.5' };
    expect(newSplitConfigBody(form)).toEqual({
      body: { partner_business_id: 7, currency: 'USD', split_type: 'percentage', split_value: 250, split_role: 'fee' },
    });
    expect(
      newSplitConfigBody({
        ...form,
        split_type: 'fixed',
        split_value: '3',
        currency: 'JPY',
        split_role: 'principal',
        description: ' Rent ',
      }),
    ).toEqual({
      body: {
        partner_business_id: 7,
        currency: 'JPY',
        split_type: 'fixed',
        split_value: 3,
        split_role: 'principal',
        description: 'Rent',
      },
    });
  });

  it('names the first problem a person typed', () => {
    const ok = { ...EMPTY_SPLIT_CONFIG, partner_business_id: '7', split_value: '1' };
    expect(newSplitConfigBody({ ...ok, partner_business_id: 'seven' })).toEqual({
      error: expect.stringMatching(/^Enter the partner/),
    });
    expect(newSplitConfigBody({ ...ok, split_value: '100.5' })).toEqual({
      error: expect.stringMatching(/^Enter a percentage/),
    });
    expect(newSplitConfigBody({ ...ok, split_type: 'fixed', split_value: '1.001' })).toEqual({
      error: 'Enter an amount in USD, such as 3.00.',
    });
    expect(newSplitConfigBody({ ...ok, description: 'x'.repeat(501) })).toEqual({
      error: expect.stringContaining('500'),
    });
  });

  it('edits an existing config: starts from it, sends only what changed, null to remove the description', () => {
    const form = splitConfigForm(config);
    expect(form).toMatchObject({ partner_business_id: '7', split_value: '2.5', description: 'Venue share' });
    expect(splitConfigChanges(config, form)).toEqual({ body: {} });
    expect(splitConfigChanges(config, { ...form, split_value: '3', description: ' ' })).toEqual({
      body: { split_value: 300, description: null },
    });
    // A new type always carries its value (2.5 % and 2.50 USD are different shares).
    expect(splitConfigChanges(config, { ...form, split_type: 'fixed', split_role: 'principal' })).toEqual({
      body: { split_type: 'fixed', split_value: 250, split_role: 'principal' },
    });
    expect(splitConfigForm({ ...config, split_type: 'fixed', split_value: 123456 }).split_value).toBe('1234.56');
  });

  it('shows shares and amounts as people type them', () => {
    expect(majorText(1250, 'USD')).toBe('12.50');
    expect(majorText(7, 'JPY')).toBe('7');
    expect(majorText(1234567, 'BHD')).toBe('1234.567');
    expect(shareText(config)).toBe('2.5 %');
    expect(shareText({ ...config, split_type: 'fixed', split_value: 300 })).toBe('3.00 USD');
    expect(configShareText(config)).toBe('2.5 % of USD payments');
    expect(configShareText({ ...config, split_type: 'fixed', split_value: 300 })).toBe('3.00 USD per payment');
  });
});
