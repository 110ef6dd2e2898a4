import type { FieldError } from '@payments/contracts';
import { passes, type RequestObjectValue, type Rule } from './request-rules';
import { applies, fieldsOf, isObject, specOf, type RequestObject } from './request-schema';

/**
 * The error list of a refused request, in the API's long-standing order: unknown keys first ("is not a recognised
 * field"), then each field in schema order with its first broken rule by rank, then nested objects' problems as
 * `field.<index>.<key>`.
 */

const join = (parent: string, key: string) => (parent ? `${parent}.${key}` : key);

/**
 * The field's entry: its first broken rule by rank (list order among equals). A missing value
 * breaks every rule of a required field: it is then said to be required, not out of range.
 */
function entry(
  property: string,
  field: string,
  broken: Map<string, { rank: number; message: string }>,
  value: unknown,
): FieldError {
  const first = [...broken.values()].sort((a, b) => a.rank - b.rank)[0];
  const message = value === undefined && first.rank !== 0 ? `${property} is required` : first.message;
  return { field, message: message.startsWith(`${property} `) ? message.slice(property.length + 1) : message };
}

/** Every problem of an object: unknown keys first, then each field in order, then its nested objects. */
export function problems(schema: RequestObject, object: RequestObjectValue, parent: string): FieldError[] {
  const { fields } = specOf(schema);
  const out: FieldError[] = Object.keys(object)
    .filter((key) => !fieldsOf(schema).has(key))
    .map((key) => ({ field: join(parent, key), message: 'is not a recognised field' }));
  for (const [name, spec] of fields) {
    const value = object[name];
    if (!applies(spec, object, value)) continue;
    const field = join(parent, name);
    const broken = new Map<string, { rank: number; message: string; rule?: Rule }>();
    for (const r of spec.rules) {
      if (!passes(r, value, object)) broken.set(r.name, { rank: r.rank, message: r.message(name, value), rule: r });
    }
    const explained = [...broken.values()].find((b) => b.rule?.explain);
    if (explained) {
      out.push(...explained.rule!.explain!(value, field));
      continue;
    }
    const notNestable = spec.nested && value !== undefined && !Array.isArray(value) && !isObject(value);
    if (notNestable) broken.set('nestedValidation', { rank: 1, message: eachNestedMessage(name) });
    if (broken.size > 0) out.push(entry(name, field, broken, value));
    if (spec.nested && value !== undefined) out.push(...nestedProblems(spec.nested, value, field, name));
  }
  return out;
}

const eachNestedMessage = (property: string) =>
  `each value in nested property ${property} must be either object or array`;

function nestedProblems(schema: RequestObject, value: unknown, field: string, property: string): FieldError[] {
  if (isObject(value)) return problems(schema, value, field);
  if (!Array.isArray(value)) return [];
  return value.flatMap((item, i) => {
    const at = `${field}.${i}`;
    if (item === undefined) return [];
    if (Array.isArray(item) || isObject(item)) return nestedProblems(schema, item, at, property);
    return [{ field: at, message: eachNestedMessage(property) }];
  });
}
