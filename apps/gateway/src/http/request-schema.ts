import { Kind, Type, type TSchema } from '@sinclair/typebox';
import { StringEnum } from '@payments/contracts/schemas';
import type { RequestObjectValue, Rule } from './request-rules';

/**
 * Request bodies and query strings as TypeBox schemas built from their fields' rules (ADR 0016): one definition gives
 * the handler's type, the OpenAPI schema, the compiled validator and the error list of a refused request.
 */

/** How a request object is read: a JSON body, or a query string whose values are text. */
export type RequestKind = 'body' | 'query';

/** When a field is checked: always; not when absent or null (`optional`); when a condition on the object holds. */
export type When = 'always' | 'optional' | ((object: RequestObjectValue, value: unknown) => boolean);

export interface FieldSpec {
  /** The rules, in the order that breaks ties between broken rules of one rank. */
  rules: Rule[];
  when: When;
  /** A query number: its text goes through Number() first (item by item when the key is repeated). */
  coerce?: 'number';
  /** Each item of the value (or the value, when it is an object) is a request object of its own. */
  nested?: RequestObject;
}

export interface RequestSpec {
  /** Its name in the OpenAPI document's components. */
  name: string;
  kind: RequestKind;
  fields: [name: string, spec: FieldSpec][];
}

/**
 * Where a request object keeps its spec, and a checked field its rules and nested object (symbols:
 * not part of the JSON). request-validation.ts registers the check of CHECKED fields.
 */
export const REQUEST = Symbol('request object');
export const RULES = Symbol('request field rules');
export const NESTED = Symbol('request field nested object');
export const CHECKED = 'RequestChecked';

/** A TypeBox schema whose values are `T`. */
type Typed<T> = TSchema & { static: T };
export type RequestObject<T = unknown> = Typed<T> & {
  properties: Record<string, TSchema>;
  required?: string[];
  [REQUEST]: RequestSpec;
};

type Mode = 'required' | 'optional' | 'conditional';

export interface Field<T, M extends Mode = Mode> {
  schema: TSchema;
  spec: FieldSpec;
  mode: M;
  /** Type-level only. */
  readonly type?: T;
}

type Accepts<R> = R extends Rule<infer T> ? T : never;
/** The values every rule of a list lets through (rules that say nothing of the type let anything through). */
type FieldType<R extends readonly unknown[]> = R extends readonly [infer H, ...infer T]
  ? Accepts<H> & FieldType<T>
  : unknown;

interface FieldOptions {
  coerce?: 'number';
  nested?: RequestObject;
  description?: string;
}

/**
 * Some rules' keywords as one schema, checked by TypeBox where that check equals the rules'. A field JSON Schema cannot
 * state exactly (lengths, e-mail, URLs, dates, metadata, nesting) is CHECKED: keywords document it, its rules check it.
 */
function build(
  rules: Rule[],
  items: TSchema | undefined,
  description: string | undefined,
  nested?: RequestObject,
): TSchema {
  const merged = Object.assign({}, ...rules.map((r) => r.keywords)) as Record<string, unknown>;
  const { type, items: _ignored, ...keywords } = merged;
  const options = { ...keywords, ...(description ? { description } : {}) };
  if (nested || rules.some((r) => r.checked === 'custom')) {
    const checks = { [RULES]: rules, ...(nested ? { [NESTED]: nested } : {}) };
    return {
      [Kind]: CHECKED,
      ...(type ? { type } : {}),
      ...(items ? { items } : {}),
      ...options,
      ...checks,
    } as unknown as TSchema;
  }
  if (type === 'string' && keywords.enum) return StringEnum(keywords.enum as string[], description);
  if (type === 'string') return Type.String(options);
  if (type === 'integer') return Type.Integer(options);
  if (type === 'boolean') return Type.Boolean(options);
  if (type === 'array') return Type.Array(items ?? Type.Unknown(), options);
  throw new Error(`a request field needs a type or a check of its own: ${rules.map((r) => r.name).join(', ')}`);
}

function makeField<T, M extends Mode>(
  rules: readonly Rule<unknown>[],
  mode: M,
  when: When,
  options: FieldOptions,
): Field<T, M> {
  const checked = rules.filter((r) => r.checked !== 'cross');
  const custom = checked.some((r) => r.checked === 'custom');
  // A checked field's own rules include the `each` ones; a native array states them as its items.
  const eachRules = checked
    .filter((r) => r.each)
    .map((r) => ({ ...r, each: false, keywords: r.keywords.items as Record<string, unknown> }));
  const items = options.nested ?? (eachRules.length > 0 ? build(eachRules, undefined, undefined) : undefined);
  const whole = custom || options.nested !== undefined;
  const schema = build(whole ? checked : checked.filter((r) => !r.each), items, options.description, options.nested);
  const spec: FieldSpec = {
    rules: [...rules],
    when,
    ...(options.coerce ? { coerce: options.coerce } : {}),
    ...(options.nested ? { nested: options.nested } : {}),
  };
  return { schema, spec, mode };
}

/** A field every request must have. */
export const required = <const R extends readonly Rule<unknown>[]>(rules: R, options: FieldOptions = {}) =>
  makeField<FieldType<R>, 'required'>(rules, 'required', 'always', options);

/** A field that may be left out; null counts as left out (and is passed on as null). */
export const optional = <const R extends readonly Rule<unknown>[]>(rules: R, options: FieldOptions = {}) =>
  makeField<FieldType<R>, 'optional'>(rules, 'optional', 'optional', options);

/**
 * An optional list of objects of their own request schema, reported as `field.<index>.<key>`.
 * (Lists nested in the list pass too, as they always have; the handler's type does not say so.)
 */
export const optionalList = <const R extends readonly Rule<unknown>[], N>(rules: R, nested: RequestObject<N>) =>
  makeField<N[], 'optional'>(rules, 'optional', 'optional', { nested });

/** A field checked only when `when` holds (say, required for one payment method): may be left out. */
export const conditional = <const R extends readonly Rule<unknown>[]>(
  rules: R,
  when: Exclude<When, string>,
  options: FieldOptions = {},
) => makeField<FieldType<R>, 'conditional'>(rules, 'conditional', when, options);

type Fields = Record<string, Field<unknown>>;
type TypeOf<F> = F extends Field<infer T> ? T : never;
type Keys<F extends Fields, M extends Mode> = { [K in keyof F]: F[K] extends Field<unknown, M> ? K : never }[keyof F];
type Flat<T> = { [K in keyof T]: T[K] };
/** What a handler receives: a body's optional field may be null (passed on as it came). */
export type RequestType<F extends Fields, K extends RequestKind> = Flat<
  { [P in Keys<F, 'required'>]: TypeOf<F[P]> } & {
    [P in Keys<F, 'optional'>]?: TypeOf<F[P]> | (K extends 'body' ? null : never);
  } & {
    [P in Keys<F, 'conditional'>]?: TypeOf<F[P]>;
  }
>;

function requestObject<F extends Fields, K extends RequestKind>(
  name: string,
  kind: K,
  fields: F,
): RequestObject<RequestType<F, K>> {
  const properties: Record<string, TSchema> = {};
  for (const [key, f] of Object.entries(fields)) {
    // A query has no null: its optional fields are only ever absent.
    const nullable = f.mode === 'optional' && kind === 'body';
    properties[key] =
      f.mode === 'required' ? f.schema : Type.Optional(nullable ? Type.Union([f.schema, Type.Null()]) : f.schema);
  }
  const spec: RequestSpec = { name, kind, fields: Object.entries(fields).map(([key, f]) => [key, f.spec]) };
  const schema = Type.Object(properties, { additionalProperties: false, [REQUEST]: spec });
  return schema as unknown as RequestObject<RequestType<F, K>>;
}

/**
 * A JSON request body, its fields in the order their problems are reported. `name` names it in the
 * OpenAPI document.
 */
export const requestBody = <F extends Fields>(name: string, fields: F) => requestObject(name, 'body', fields);

/** A query string; its values are text (numbers are converted where a field says so). */
export const requestQuery = <F extends Fields>(name: string, fields: F) => requestObject(name, 'query', fields);

export const specOf = (schema: RequestObject): RequestSpec => schema[REQUEST];

export const isObject = (v: unknown): v is RequestObjectValue =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Each request object's fields by name, made on first use and kept. */
const fieldMaps = new WeakMap<RequestObject, ReadonlyMap<string, FieldSpec>>();
export function fieldsOf(schema: RequestObject): ReadonlyMap<string, FieldSpec> {
  let fields = fieldMaps.get(schema);
  if (!fields) fieldMaps.set(schema, (fields = new Map(specOf(schema).fields)));
  return fields;
}

/** Whether a field is checked in this object (an optional one is not when absent or null). */
export const applies = (spec: FieldSpec, object: RequestObjectValue, value: unknown): boolean =>
  spec.when === 'always'
    ? true
    : spec.when === 'optional'
      ? value !== undefined && value !== null
      : spec.when(object, value);
