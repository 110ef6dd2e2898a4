import { Body, Query, type PipeTransform } from '@nestjs/common';
import { TypeRegistry } from '@sinclair/typebox';
import { TypeCompiler, type TypeCheck } from '@sinclair/typebox/compiler';
import { ErrorCodes, type FieldError } from '@payments/contracts';
import { rootLogger } from '@payments/platform';
import { ApiException } from './api-exception';
import { passes, type RequestObjectValue, type Rule } from './request-rules';
import { problems } from './request-problems';
import {
  CHECKED,
  NESTED,
  RULES,
  applies,
  fieldsOf,
  isObject,
  specOf,
  type FieldSpec,
  type RequestKind,
  type RequestObject,
} from './request-schema';

/**
 * Keys a request object never has: the names of Object.prototype's functions, `constructor` and
 * `__proto__`. They are dropped as the API always dropped them (class-transformer skipped them),
 * never reported as unknown fields, and never copied onto an object.
 */
const INHERITED: ReadonlySet<string> = new Set(
  Object.getOwnPropertyNames(Object.prototype).filter(
    (k) =>
      k === '__proto__' ||
      k === 'constructor' ||
      typeof (Object.prototype as Record<string, unknown>)[k] === 'function',
  ),
);

/**
 * Request objects none of whose fields is converted or nested: their input is checked as it is,
 * unless it has an inherited name to drop.
 */
const plain = new WeakMap<RequestObject, boolean>();
const isPlain = (schema: RequestObject): boolean => {
  let known = plain.get(schema);
  if (known === undefined) plain.set(schema, (known = specOf(schema).fields.every(([, f]) => !f.coerce && !f.nested)));
  return known;
};

/** The object as its rules see it: inherited names dropped, query numbers converted, nested objects alike. */
function prepared(schema: RequestObject, input: RequestObjectValue): RequestObjectValue {
  if (isPlain(schema) && !Object.keys(input).some((key) => INHERITED.has(key))) return input;
  const fields = fieldsOf(schema);
  const out: RequestObjectValue = {};
  for (const key of Object.keys(input)) {
    if (INHERITED.has(key)) continue;
    const spec = fields.get(key);
    out[key] = spec ? preparedValue(spec, input[key]) : input[key];
  }
  return out;
}

function preparedValue(spec: FieldSpec, value: unknown): unknown {
  if (spec.coerce === 'number') {
    return Array.isArray(value) ? value.map(Number) : typeof value === 'string' ? Number(value) : value;
  }
  if (spec.nested) return preparedNested(spec.nested, value);
  return value;
}

function preparedNested(schema: RequestObject, value: unknown): unknown {
  if (Array.isArray(value)) return value.map((item) => preparedNested(schema, item));
  return isObject(value) ? prepared(schema, value) : value;
}

/** One compiled check per request object, made on first use and kept. */
const compiled = new WeakMap<RequestObject, TypeCheck<RequestObject>>();
function checkOf(schema: RequestObject): TypeCheck<RequestObject> {
  let check = compiled.get(schema);
  if (!check) compiled.set(schema, (check = TypeCompiler.Compile(schema)));
  return check;
}

/** A nested field's value: each item an object its request object accepts, or an array of such (as ever). */
function nestedValid(schema: RequestObject, value: unknown): boolean {
  if (Array.isArray(value)) return value.every((item) => nestedValid(schema, item));
  return isObject(value) && checkOf(schema).Check(value) && besideTheSchema(schema, value);
}

/** What the rules of a CHECKED field are given as their object: they read none (rules that do run beside). */
const NO_OBJECT: RequestObjectValue = Object.freeze({});

// The check of a field TypeBox cannot check by its keywords: its rules, and its nested objects.
TypeRegistry.Set<{ [RULES]: Rule[]; [NESTED]?: RequestObject }>(
  CHECKED,
  (schema, value) =>
    schema[RULES].every((r) => passes(r, value, NO_OBJECT)) && (!schema[NESTED] || nestedValid(schema[NESTED], value)),
);

/** Each request object's fields with something to check beside the compiled schema, found once. */
const beside = new WeakMap<RequestObject, [string, FieldSpec][]>();
function besideFields(schema: RequestObject): [string, FieldSpec][] {
  let fields = beside.get(schema);
  if (!fields) {
    fields = specOf(schema).fields.filter(
      ([, f]) => typeof f.when === 'function' || f.rules.some((r) => r.checked === 'cross'),
    );
    beside.set(schema, fields);
  }
  return fields;
}

/**
 * What the compiled schema cannot see: rules that read other fields, and fields checked only when
 * a condition on the object holds. Run on objects the compiled check accepted.
 */
function besideTheSchema(schema: RequestObject, object: RequestObjectValue): boolean {
  for (const [name, spec] of besideFields(schema)) {
    const value = object[name];
    if (typeof spec.when === 'function') {
      if (spec.when(object, value) && !spec.rules.every((r) => passes(r, value, object))) return false;
    } else if (applies(spec, object, value)) {
      if (!spec.rules.every((r) => r.checked !== 'cross' || passes(r, value, object))) return false;
    }
  }
  return true;
}

/** The object a handler receives: the fields given, in the schema's order. */
function output(schema: RequestObject, object: RequestObjectValue): RequestObjectValue {
  const out: RequestObjectValue = {};
  for (const [name, spec] of specOf(schema).fields) {
    const value = object[name];
    if (value !== undefined) out[name] = spec.nested ? nestedOutput(spec.nested, value) : value;
  }
  return out;
}

const nestedOutput = (schema: RequestObject, value: unknown): unknown =>
  Array.isArray(value)
    ? value.map((item) => nestedOutput(schema, item))
    : isObject(value)
      ? output(schema, value)
      : value;

/**
 * Validates a body or query against its request schema and returns what the handler receives,
 * or throws 400 validation_error with one entry per field problem. Valid input (nearly every
 * request) takes only the compiled check; the error list is worked out only for refused input.
 */
export function validateRequest<T>(schema: RequestObject<T>, value: unknown): T {
  const kind: RequestKind = specOf(schema).kind;
  if (kind === 'body' && !isObject(value)) {
    throw new ApiException(ErrorCodes.ValidationError, 'request body must be a JSON object');
  }
  const object = prepared(schema, value as RequestObjectValue);
  if (accepted(schema, object)) return output(schema, object) as T;
  const found = problems(schema, object, '');
  if (found.length === 0) {
    // The rules are what the API has always accepted; a compiled check stricter than they are is
    // a bug in the schema's keywords (request-validation.spec.ts pins that they agree): logged, not a 500.
    rootLogger().error({ schema: specOf(schema).name }, 'the compiled request check refused what the rules accept');
    return output(schema, object) as T;
  }
  throw new ApiException(ErrorCodes.ValidationError, `${found[0].field} ${found[0].message}`, found);
}

const accepted = (schema: RequestObject, object: RequestObjectValue) =>
  checkOf(schema).Check(object) && besideTheSchema(schema, object);

/**
 * For tests: whether the compiled check accepts an object, and what the rules find wrong with it
 * (they must agree: accepted exactly when nothing is found).
 */
export function twoVerdicts(
  schema: RequestObject,
  value: RequestObjectValue,
): { accepted: boolean; problems: FieldError[] } {
  const object = prepared(schema, value);
  return { accepted: accepted(schema, object), problems: problems(schema, object, '') };
}

/** A request with its nulls left out of its type (not out of its values): see asRpcBody. */
export type WithoutNull<T> = { [K in keyof T]: Exclude<T[K], null> };

/**
 * A validated body as a service's RPC body type sees it. Those types have no null, but an
 * optional field sent as null passes validation and is passed on as null, as it always was (each
 * service reads it as absent, or refuses it): said here once rather than at every field.
 */
export const asRpcBody = <T>(body: T): WithoutNull<T> => body as WithoutNull<T>;

/** The pipe of a body or query parameter; the OpenAPI document reads its schema. */
export class RequestPipe implements PipeTransform {
  constructor(readonly schema: RequestObject) {}

  transform(value: unknown): unknown {
    return validateRequest(this.schema, value);
  }
}

/**
 * A parameter validated with a request schema. Its TypeScript type is the schema's static type,
 * which shares the schema's name: a compiler that cannot tell them apart (swc) records the schema
 * object as the parameter's design type, which Swagger would then read as a class. It is Object.
 */
function validated(decorator: ParameterDecorator): ParameterDecorator {
  return (target, key, index) => {
    const types =
      key === undefined ? undefined : (Reflect.getMetadata('design:paramtypes', target, key) as unknown[] | undefined);
    if (types && typeof types[index] !== 'function') types[index] = Object;
    decorator(target, key, index);
  };
}

/** A handler's body, validated against `schema`. */
export const ValidBody = (schema: RequestObject) => validated(Body(new RequestPipe(schema)));

/** A handler's query string, validated against `schema`. */
export const ValidQuery = (schema: RequestObject) => validated(Query(new RequestPipe(schema)));
