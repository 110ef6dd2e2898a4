import type { Static, TSchema } from '@sinclair/typebox';
import { TypeCompiler, ValueErrorType, type ValueError } from '@sinclair/typebox/compiler';
import { ErrorCodes, type FieldError } from '@payments/contracts';
import { ApiException } from '../../http/api-exception';

/** A schema option: what the error says when the value breaks any rule of that schema. */
export interface Says {
  message?: string;
}

function messageOf(e: ValueError): string {
  if (e.type === ValueErrorType.ObjectRequiredProperty) return 'is required';
  if (e.type === ValueErrorType.ObjectAdditionalProperties) return 'is not a recognised field';
  return (e.schema as Says).message ?? e.message.toLowerCase();
}

/**
 * A request body checker compiled once from a TypeBox schema (at module load, never per
 * request). It answers the body, typed, or throws 400 validation_error with one entry per field
 * (its first problem, `required` before type), in the gateway's error body.
 */
export function bodyChecker<T extends TSchema>(schema: T): (value: unknown) => Static<T> {
  const compiled = TypeCompiler.Compile(schema);
  return (value: unknown) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      throw new ApiException(ErrorCodes.ValidationError, 'request body must be a JSON object');
    }
    if (compiled.Check(value)) return value;
    const fields = new Map<string, string>();
    for (const e of compiled.Errors(value)) {
      const field = e.path.slice(1).replace(/\//g, '.') || 'body';
      if (!fields.has(field)) fields.set(field, messageOf(e));
    }
    const errors: FieldError[] = [...fields].map(([field, message]) => ({ field, message }));
    throw new ApiException(ErrorCodes.ValidationError, `${errors[0].field} ${errors[0].message}`, errors);
  };
}
