import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CreateLinkDto, UpdateLinkDto } from '../links/link.requests';
import { InitializeTransactionDto, ListTransactionsQuery } from '../transactions/transaction.requests';
import type { RequestCase } from './__tests__/capture-request-cases';
import { ENDPOINTS } from './__tests__/request-endpoints';
import { SCHEMA_OF, parsedInput } from './__tests__/request-validators';
import { ApiException } from './api-exception';
import { metadataField } from './request-fields';
import { isInt, isString, matches, max, min } from './request-rules';
import { optional, required, requestBody } from './request-schema';
import { twoVerdicts, validateRequest } from './request-validation';

const Body = requestBody('Body', {
  amount: required([
    max(100, 'amount must be at most 100'),
    min(1, 'amount must be at least 1'),
    isInt('amount must be an integer'),
  ]),
  code: optional([isString('code must be a string'), matches(/^[a-z]+$/, 'code must be lower-case letters')]),
});

function refusal(
  schema: Parameters<typeof validateRequest>[0],
  value: unknown,
): { message: string; errors?: unknown } | undefined {
  try {
    validateRequest(schema, value);
  } catch (err) {
    return { message: (err as ApiException).message, errors: (err as ApiException).errors };
  }
  return undefined;
}
const messageFor = (value: unknown) => refusal(Body, value)?.message;

describe('request validation: the first broken rule, in the order required, type, format, range', () => {
  it('a missing field is reported as required, not out of range', () => {
    expect(messageFor({})).toBe('amount is required');
  });

  it('a string where an integer belongs is a type error', () => {
    expect(messageFor({ amount: '1000' })).toBe('amount must be an integer');
  });

  it('a value of the right type out of range names the range', () => {
    expect(messageFor({ amount: 1000 })).toBe('amount must be at most 100');
  });

  it('type before format, whatever order the rules are listed in', () => {
    expect(messageFor({ amount: 1, code: 5 })).toBe('code must be a string');
    expect(messageFor({ amount: 1, code: 'ABC' })).toBe('code must be lower-case letters');
  });

  it('unknown fields first, then each field in order; null leaves an optional field out', () => {
    expect(refusal(Body, { code: 'A', x: 1, amount: 0 })?.errors).toEqual([
      { field: 'x', message: 'is not a recognised field' },
      { field: 'amount', message: 'must be at least 1' },
      { field: 'code', message: 'must be lower-case letters' },
    ]);
    expect(validateRequest(Body, { amount: 1, code: null })).toEqual({ amount: 1, code: null });
  });

  it('a body must be a JSON object', () => {
    for (const value of [undefined, null, [], 'x', 5])
      expect(refusal(Body, value)).toEqual({ message: 'request body must be a JSON object', errors: undefined });
  });

  it('drops the names of Object.prototype (class-transformer did), never reporting them or copying them', () => {
    const value = JSON.parse('{"amount":1,"__proto__":{"polluted":1},"constructor":2,"toString":3,"hasOwnProperty":4}');
    const dto = validateRequest(Body, value);
    expect(dto).toEqual({ amount: 1 });
    expect(Object.getPrototypeOf(dto)).toBe(Object.prototype);
  });
});

describe('request validation: metadata', () => {
  const Annotated = requestBody('Annotated', {
    amount: required([isInt('amount must be an integer')]),
    metadata: metadataField(),
  });

  it('keeps the caller’s keys as they are, "constructor" and "__proto__" included', () => {
    const dto = validateRequest(
      Annotated,
      JSON.parse('{"amount":1,"metadata":{"constructor":"c","__proto__":"p","a":"1"}}'),
    );
    expect(Object.keys(dto.metadata as object)).toEqual(['constructor', '__proto__', 'a']);
    expect(JSON.stringify(dto.metadata)).toBe('{"constructor":"c","__proto__":"p","a":"1"}');
  });

  it('names the key at fault, first by rule order', () => {
    const found = refusal(Annotated, JSON.parse(`{"amount":1,"metadata":{"${'k'.repeat(41)}":"x","n":2}}`));
    expect(found?.message).toBe('metadata.n must be a string (not number)');
    expect((found?.errors as { field: string }[]).map((e) => e.field)).toEqual([
      'metadata.n',
      `metadata.${'k'.repeat(41)}`,
    ]);
  });
});

describe('request validation: a payment link description follows the one description rule', () => {
  const link = { amount: 1000, currency: 'USD' };
  const range = {
    message: 'description must be 1 to 1000 characters',
    errors: [{ field: 'description', message: 'must be 1 to 1000 characters' }],
  };

  it('counts characters (code points) as transactions and refunds do', () => {
    // 600 hearts with a variation selector: 1200 characters, though validator.js's length says 600.
    expect(refusal(CreateLinkDto, { ...link, description: '\u2764\uFE0F'.repeat(600) })).toEqual(range);
    expect(refusal(UpdateLinkDto, { description: '\u2764\uFE0F'.repeat(600) })).toEqual(range);
    expect(refusal(CreateLinkDto, { ...link, description: '😀'.repeat(1000) })).toBeUndefined();
  });

  it('is required on create, may be left out but not removed on update', () => {
    expect(refusal(CreateLinkDto, link)).toEqual({
      message: 'description is required',
      errors: [{ field: 'description', message: 'is required' }],
    });
    expect(refusal(CreateLinkDto, { ...link, description: '' })).toEqual(range);
    expect(refusal(UpdateLinkDto, {})).toBeUndefined();
    expect(refusal(UpdateLinkDto, { description: '' })).toEqual(range);
    expect(refusal(UpdateLinkDto, { description: null })).toEqual({
      message: 'description must be a string',
      errors: [{ field: 'description', message: 'must be a string' }],
    });
  });

  it('takes splits nested in lists, as it always has (the partner check then refuses them)', () => {
    const split = { business_id: 2, type: 'fixed', value: 1 };
    expect(validateRequest(CreateLinkDto, { ...link, description: 'd', splits: [[split], []] }).splits).toEqual([
      [split],
      [],
    ]);
    expect(refusal(CreateLinkDto, { ...link, description: 'd', splits: [[{ ...split, value: 0 }]] })?.errors).toEqual([
      { field: 'splits.0.0.value', message: 'must be a positive integer' },
    ]);
  });
});

describe('request validation: query strings', () => {
  it('converts numbers with Number(), as the API always has', () => {
    expect(validateRequest(ListTransactionsQuery, { limit: ' 5 ' }).limit).toBe(5);
    expect(validateRequest(ListTransactionsQuery, { limit: '0x10' }).limit).toBe(16);
    expect(refusal(ListTransactionsQuery, { limit: '' })?.message).toBe('limit must be an integer from 1 to 500');
  });

  it('reads each bracketed created bound as a field of its own', () => {
    expect(refusal(ListTransactionsQuery, { 'created[gt]': 'soon' })?.errors).toEqual([
      { field: 'created[gt]', message: 'must be an ISO-8601 timestamp such as 2025-01-31T12:00:00Z or Unix seconds' },
    ]);
  });
});

describe('request validation: the compiled check and the rules agree', () => {
  const cases = JSON.parse(
    readFileSync(join(__dirname, '__tests__', 'request-validation.cases.json'), 'utf8'),
  ) as Record<string, RequestCase[]>;

  it.each(Object.keys(ENDPOINTS))('on every recorded case of %s', (endpoint) => {
    const { kind } = ENDPOINTS[endpoint];
    const disagreements = cases[endpoint].flatMap(([change, input]) => {
      const value = kind === 'query' ? parsedInput(kind, input as string, change) : input;
      if (value === null || typeof value !== 'object' || Array.isArray(value)) return [];
      const verdicts = twoVerdicts(SCHEMA_OF[endpoint], value as Record<string, unknown>);
      return verdicts.accepted === (verdicts.problems.length === 0) ? [] : [{ change, input, ...verdicts }];
    });
    expect(disagreements.slice(0, 3)).toEqual([]);
  });

  it('documents each field with the keywords of its rules', () => {
    const props = InitializeTransactionDto.properties as Record<string, unknown>;
    expect(JSON.parse(JSON.stringify(props.amount))).toEqual({
      type: 'integer',
      maximum: 1_000_000_000_000,
      minimum: 1,
    });
    expect(JSON.parse(JSON.stringify(props.transaction_reference))).toEqual({
      anyOf: [{ type: 'string', pattern: '^[A-Za-z0-9._:-]+$', minLength: 1, maxLength: 100 }, { type: 'null' }],
    });
    expect(InitializeTransactionDto.required).toEqual(['amount', 'email', 'currency']);
  });
});
