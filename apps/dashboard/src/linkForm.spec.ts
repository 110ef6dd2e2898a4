import { describe, expect, it } from '@jest/globals';
import { money } from './format';
import { linkBody, linkEditBody, linkEditForm, percentToBasisPoints, splitText } from './linkForm';

describe('the create-link form', () => {
  it('turns percentages into basis points, refusing 0, more than 100 % and a third decimal', () => {
    expect(percentToBasisPoints('12.5')).toBe(1250);
    expect(percentToBasisPoints(' 0.01 ')).toBe(1);
    expect(percentToBasisPoints('100')).toBe(10_000);
    for (const bad of ['0', '100.01', '1.234', '-5', '5%', '', 'abc']) expect(percentToBasisPoints(bad)).toBeNull();
  });

  it('sends amounts in minor units of the link’s currency, splits in basis points or minor units', () => {
    const form = {
      description: ' Concert ticket ',
      amount: '50',
      currency: 'USD',
      splits: [
        { business_id: '7', type: 'fixed' as const, value: '7.5' },
        { business_id: '9', type: 'percentage' as const, value: '12.5' },
      ],
    };
    expect(linkBody(form)).toEqual({
      body: {
        description: 'Concert ticket',
        amount: 5000,
        currency: 'USD',
        splits: [
          { business_id: 7, type: 'fixed', value: 750 },
          { business_id: 9, type: 'percentage', value: 1250 },
        ],
      },
    });
    expect(
      linkBody({ ...form, currency: 'JPY', amount: '500', splits: [{ business_id: '7', type: 'fixed', value: '20' }] }),
    ).toEqual({
      body: {
        description: 'Concert ticket',
        amount: 500,
        currency: 'JPY',
        splits: [{ business_id: 7, type: 'fixed', value: 20 }],
      },
    });
  });

  it('names the first problem a person typed', () => {
    const ok = { description: 'x', amount: '1.00', currency: 'USD', splits: [] };
    expect(linkBody({ ...ok, description: '  ' })).toEqual({ error: expect.stringContaining('description') });
    expect(linkBody({ ...ok, amount: '1.001' })).toEqual({ error: 'Enter an amount in USD, such as 25.00.' });
    expect(linkBody({ ...ok, amount: '0' })).toEqual({ error: 'Enter an amount in USD, such as 25.00.' });
    expect(linkBody({ ...ok, currency: 'JPY', amount: '1.5' })).toEqual({
      error: 'Enter an amount in JPY, such as 25.00.',
    });
    expect(linkBody({ ...ok, splits: [{ business_id: 'seven', type: 'fixed', value: '1' }] })).toEqual({
      error: expect.stringMatching(/^Split 1: enter the partner/),
    });
    expect(
      linkBody({
        ...ok,
        splits: [
          { business_id: '7', type: 'percentage', value: '1' },
          { business_id: '8', type: 'percentage', value: '101' },
        ],
      }),
    ).toEqual({
      error: expect.stringMatching(/^Split 2: enter a percentage/),
    });
  });

  it('describes a split in words', () => {
    expect(splitText({ business_id: 7, type: 'percentage', value: 1250 }, 'USD', money)).toBe('12.5 % to Business 7');
    expect(splitText({ business_id: 9, type: 'fixed', value: 300 }, 'USD', money)).toBe('3.00 USD to Business 9');
  });
});

describe('the edit-link form', () => {
  const link = { description: 'Concert ticket', metadata: { order: '17', venue: 'Hall' } };

  it('starts from the link and sends nothing when nothing changed', () => {
    expect(linkEditForm(link)).toEqual({
      description: 'Concert ticket',
      metadata: [
        { key: 'order', value: '17' },
        { key: 'venue', value: 'Hall' },
      ],
    });
    expect(linkEditBody(link, linkEditForm(link))).toEqual({ body: {} });
  });

  it('sends a new description, changed and new keys, and removes keys taken out ("")', () => {
    const form = {
      description: ' Concert ticket (VIP) ',
      metadata: [
        { key: 'order', value: '18' },
        { key: 'row', value: 'A' },
      ],
    };
    expect(linkEditBody(link, form)).toEqual({
      body: { description: 'Concert ticket (VIP)', metadata: { venue: '', order: '18', row: 'A' } },
    });
    expect(linkEditBody(link, { ...form, description: 'Concert ticket', metadata: [] })).toEqual({
      body: { metadata: '' },
    });
    expect(
      linkEditBody(
        { description: 'x', metadata: {} },
        { description: 'x', metadata: [{ key: '__proto__', value: 'p' }] },
      ),
    ).toEqual({ body: { metadata: JSON.parse('{"__proto__":"p"}') } });
  });

  it('names the first problem a person typed', () => {
    expect(linkEditBody(link, { description: ' ', metadata: [] })).toEqual({
      error: expect.stringMatching(/^Enter a description/),
    });
    expect(linkEditBody(link, { description: 'x', metadata: [{ key: ' ', value: '1' }] })).toEqual({
      error: 'Metadata row 1: enter a key, or remove the row.',
    });
    expect(linkEditBody(link, { description: 'x', metadata: [{ key: 'a[0]', value: '1' }] })).toEqual({
      error: expect.stringContaining('square brackets'),
    });
    expect(
      linkEditBody(link, {
        description: 'x',
        metadata: [
          { key: 'a', value: '1' },
          { key: 'a ', value: '2' },
        ],
      }),
    ).toEqual({ error: expect.stringMatching(/^Metadata row 2: the key “a” is already used/) });
    expect(linkEditBody(link, { description: 'x', metadata: [{ key: 'a', value: '' }] })).toEqual({
      error: 'Metadata row 1: enter a value, or remove the row.',
    });
  });
});
