import type { FieldError } from '@payments/contracts';
import validEmail from 'validator/lib/isEmail';
import validLength from 'validator/lib/isLength';
import validUrl from 'validator/lib/isURL';

/**
 * The rules of request fields: a check, the words a merchant reads when it breaks, and its JSON Schema keywords
 * (request-schema.ts builds the schema). Some checks are written out to keep the API's behaviour: lengths count as
 * validator.js does (a surrogate pair is one character), and e-mail and URL checks are validator.js's.
 */

/** Which broken rule a merchant hears about first: required (0), then type, then format, then range (3). */
export type Rank = 0 | 1 | 2 | 3;

export type RequestObjectValue = Record<string, unknown>;

export interface Rule<T = unknown> {
  /** A field lists each broken rule once by name; a later rule of the same name replaces the message. */
  name: string;
  rank: Rank;
  test: (value: unknown, object: RequestObjectValue) => boolean;
  message: (property: string, value: unknown) => string;
  /** Applies to each item of an array (to the value itself when it is not one). */
  each?: boolean;
  /** JSON Schema keywords of the rule. */
  keywords: Record<string, unknown>;
  /**
   * `native`: TypeBox checks the keywords exactly as `test` does. `custom`: the keywords only
   * document; `test` is the check. `cross`: `test` reads other fields, so it runs beside the schema.
   */
  checked: 'native' | 'custom' | 'cross';
  /** Every problem of the field when this rule breaks, instead of one entry (metadata names each key). */
  explain?: (value: unknown, field: string) => FieldError[];
  /** Type-level only: the values the rule lets through. */
  readonly accepts?: T;
}

type Message = string | ((property: string, value: unknown) => string);
const say = (message: Message) => (typeof message === 'string' ? () => message : message);

function rule<T>(
  name: string,
  rank: Rank,
  test: Rule['test'],
  message: Message,
  keywords: Record<string, unknown>,
  checked: Rule['checked'] = 'native',
): Rule<T> {
  return { name, rank, test, message: say(message), keywords, checked };
}

export const isDefined = (message: string) =>
  rule<unknown>('isDefined', 0, (v) => v !== undefined && v !== null, message, {});
export const isInt = (message: string) =>
  rule<number>('isInt', 1, (v) => typeof v === 'number' && Number.isInteger(v), message, { type: 'integer' });
export const isString = (message: Message = (p) => `${p} must be a string`) =>
  rule<string>('isString', 1, (v) => typeof v === 'string', message, { type: 'string' });
export const isBoolean = (message: string) =>
  rule<boolean>('isBoolean', 1, (v) => typeof v === 'boolean', message, { type: 'boolean' });
export const isArray = (message: string) =>
  rule<unknown[]>('isArray', 1, (v) => Array.isArray(v), message, { type: 'array' });

export const min = (bound: number, message: Message = (p) => `${p} must not be less than ${bound}`) =>
  rule<number>('min', 3, (v) => typeof v === 'number' && v >= bound, message, { minimum: bound });
export const max = (bound: number, message: string) =>
  rule<number>('max', 3, (v) => typeof v === 'number' && v <= bound, message, { maximum: bound });
export const arrayMaxSize = (bound: number, message: string) =>
  rule<unknown[]>('arrayMaxSize', 3, (v) => Array.isArray(v) && v.length <= bound, message, {
    type: 'array',
    maxItems: bound,
  });

/** 1 to `most` characters (`least` may be 0). Ranked with formats, as it always was. */
export const isLength = (least: number, most: number, message: string) =>
  rule<string>(
    'isLength',
    2,
    (v) => typeof v === 'string' && validLength(v, { min: least, max: most }),
    message,
    {
      type: 'string',
      ...(least > 0 ? { minLength: least } : {}),
      maxLength: most,
    },
    'custom',
  );
export const maxLength = (most: number, message: string) =>
  rule<string>(
    'maxLength',
    3,
    (v) => typeof v === 'string' && validLength(v, { min: 0, max: most }),
    message,
    { type: 'string', maxLength: most },
    'custom',
  );

/** A pattern (JSON Schema patterns have no flags: spell a case-insensitive one with both cases). */
export function matches(pattern: RegExp, message: Message, name = 'matches'): Rule<string> {
  if (pattern.flags !== '') throw new Error(`request patterns take no flags: ${pattern}`);
  return rule<string>(name, 2, (v) => typeof v === 'string' && pattern.test(v), message, {
    type: 'string',
    pattern: pattern.source,
  });
}

export const isIn = <const V extends readonly string[]>(values: V, message: string) =>
  rule<V[number]>('isIn', 2, (v) => values.some((x) => x === v), message, { type: 'string', enum: [...values] });

export const isEmail = (message: string) =>
  rule<string>(
    'isEmail',
    2,
    (v) => typeof v === 'string' && validEmail(v, {}),
    message,
    { type: 'string', format: 'email' },
    'custom',
  );

const HTTP_URL = { protocols: ['http', 'https'], require_protocol: true, require_tld: false };
export const isHttpUrl = (message: string) =>
  rule<string>(
    'isUrl',
    2,
    (v) => typeof v === 'string' && validUrl(v, HTTP_URL),
    message,
    { type: 'string', format: 'uri' },
    'custom',
  );

/** A check of its own (a format no JSON Schema keyword states); ranked with formats. */
export const custom = <T>(name: string, test: Rule['test'], message: Message, keywords: Record<string, unknown>) =>
  rule<T>(name, 2, test, message, keywords, 'custom');

/** A check that reads other fields of the object (ranked with formats). */
export const crossField = (name: string, test: Rule['test'], message: Message) =>
  rule<unknown>(name, 2, test, message, {}, 'cross');

/** The rule applied to each item of an array value. */
export const each = <T>(r: Rule<T>): Rule<T[]> =>
  ({ ...r, each: true, keywords: { type: 'array', items: r.keywords } }) as Rule<T[]>;

/** Whether `value` passes `r` (an `each` rule: every item of an array does). */
export function passes(r: Rule, value: unknown, object: RequestObjectValue): boolean {
  if (r.each && Array.isArray(value)) return value.every((item) => r.test(item, object));
  return r.test(value, object);
}
