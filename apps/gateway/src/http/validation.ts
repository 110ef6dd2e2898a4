import { Injectable, applyDecorators, type ArgumentMetadata, type PipeTransform } from '@nestjs/common';
import { Type, plainToInstance } from 'class-transformer';
import {
  IsInt,
  IsOptional,
  IsUrl,
  Max,
  Min,
  Validate,
  ValidateIf,
  ValidatorConstraint,
  validate,
  type ValidationArguments,
  type ValidationError,
  type ValidatorConstraintInterface,
} from 'class-validator';
import { ErrorCodes, type FieldError } from '@payments/contracts';
import { BPS_WHOLE } from '@payments/money';
import { JSONSchema } from 'class-validator-jsonschema';
import { DESCRIPTION_MAX_LENGTH, METADATA_KEY_MAX_LENGTH, METADATA_MAX_KEYS, METADATA_VALUE_MAX_LENGTH, descriptionProblem, metadataProblems } from '@payments/domain';
import { ApiException } from './api-exception';
import { VALIDATOR_OPTIONS, certainlyValid, plainInstance } from './compiled-validation';

/**
 * An integer in [min, max] with one message for every broken rule, e.g. "limit must be an integer
 * from 1 to 500". `fromQuery` converts the query string's text first (bodies are never converted).
 */
export function IntegerInRange(field: string, min: number, max: number, { fromQuery = false } = {}): PropertyDecorator {
  const message = { message: `${field} must be an integer from ${min} to ${max}` };
  // Applied in the order stacked decorators would be (bottom first), so the document says "integer".
  const rules = [Max(max, message), Min(min, message), IsInt(message)];
  return applyDecorators(...(fromQuery ? [...rules, Type(() => Number)] : rules));
}

/** Which rule a merchant hears about first: required, then type, then format, then range. */
const RULE_RANK: Record<string, number> = {
  isDefined: 0,
  isNotEmpty: 0,
  isInt: 1,
  isNumber: 1,
  isString: 1,
  isBoolean: 1,
  isArray: 1,
  isObject: 1,
  nestedValidation: 1,
  min: 3,
  max: 3,
  length: 3,
  minLength: 3,
  maxLength: 3,
  arrayMinSize: 3,
  arrayMaxSize: 3,
  arrayNotEmpty: 3,
};
/** Format rules (patterns, enums, URLs, custom rules) rank between type and range. */
const FORMAT_RANK = 2;

function firstBrokenRule(e: ValidationError): string | undefined {
  const broken = Object.entries(e.constraints ?? {});
  if (broken.length === 0) return undefined;
  broken.sort(([a], [b]) => (RULE_RANK[a] ?? FORMAT_RANK) - (RULE_RANK[b] ?? FORMAT_RANK));
  // A missing value breaks every rule of a required field: say it is missing, not out of range.
  if (e.value === undefined && RULE_RANK[broken[0][0]] !== 0) return `${e.property} is required`;
  return broken[0][1];
}

function flatten(errors: ValidationError[], parent = ''): FieldError[] {
  return errors.flatMap((e) => {
    const field = parent ? `${parent}.${e.property}` : e.property;
    // Metadata names the key at fault (`metadata.<key>`): its rules report per sub-field themselves.
    if (e.constraints?.[METADATA_CONSTRAINT]) return metadataProblems(e.value, field);
    // One entry per field: the first rule it breaks (the rest usually follow from it).
    const first = firstBrokenRule(e);
    // The property name is caller input (an unknown field): never turn it into a pattern.
    const message = first?.startsWith(`${e.property} `) ? first.slice(e.property.length + 1) : first;
    const own = message ? [{ field, message }] : [];
    return [...own, ...flatten(e.children ?? [], field)];
  });
}

/**
 * DTO properties whose value is the caller's own key-value data (metadata), per DTO prototype.
 * class-transformer must not walk them: it treats a nested plain object's `constructor` key as
 * its class (a key named "constructor" crashed it) and drops a key named "__proto__".
 */
const FREE_FORM = new WeakMap<object, Set<string | symbol>>();

/** The DTO instance the pipe validates: a plain copy where that is what class-transformer would make. */
export function toInstance(type: new () => object, value: Record<string, unknown>): object {
  return plainInstance(type, value, FREE_FORM.get(type.prototype as object)) ?? transformed(type, value);
}

/** class-transformer's instance of `value`, with the free-form properties copied as they are. */
export function transformed(type: new () => object, value: Record<string, unknown>): object {
  const freeForm = [...(FREE_FORM.get(type.prototype as object) ?? [])].filter((k): k is string => typeof k === 'string' && Object.hasOwn(value, k));
  if (freeForm.length === 0) return plainToInstance(type, value);
  const rest = Object.fromEntries(Object.entries(value).filter(([k]) => !freeForm.includes(k)));
  const instance = plainToInstance(type, rest) as Record<string, unknown>;
  for (const k of freeForm) instance[k] = value[k];
  return instance;
}

/**
 * Validates bodies and queries against their DTO class: wrong types, missing or unknown fields
 * give 400 validation_error with one entry per field problem. No implicit type conversion:
 * "100" is not an integer.
 */
@Injectable()
export class StrictValidationPipe implements PipeTransform {
  async transform(value: unknown, meta: ArgumentMetadata): Promise<unknown> {
    const type = meta.metatype;
    if (!type || meta.type === 'custom' || [String, Number, Boolean, Array, Object].includes(type as never)) return value;
    if (meta.type === 'body' && (typeof value !== 'object' || value === null || Array.isArray(value))) {
      throw new ApiException(ErrorCodes.ValidationError, 'request body must be a JSON object');
    }
    const instance = toInstance(type as new () => object, (value ?? {}) as Record<string, unknown>);
    // Valid input (nearly every request) skips class-validator's per-call work; anything else gets its errors.
    if (certainlyValid(instance)) return instance;
    const errors = await validate(instance, VALIDATOR_OPTIONS);
    if (errors.length > 0) {
      const fields = flatten(errors).map((f) => (/should not exist/.test(f.message) ? { field: f.field, message: 'is not a recognised field' } : f));
      throw new ApiException(ErrorCodes.ValidationError, `${fields[0].field} ${fields[0].message}`, fields);
    }
    return instance;
  }
}

/** An optional redirect URL field (success_url, failure_url): http or https, host without a TLD allowed. */
export function OptionalRedirectUrl(field: string): PropertyDecorator {
  return applyDecorators(
    IsOptional(),
    IsUrl({ protocols: ['http', 'https'], require_protocol: true, require_tld: false }, { message: `${field} must be a valid http(s) URL` }),
  );
}

/**
 * A percentage split's value is in basis points, at most 100 %. Use as
 * `@Validate(PercentageInBasisPoints, ['split_type'])`: the constraint names the sibling field that
 * says whether the split is a percentage (`type` on a link's split, `split_type` on a split config).
 */
@ValidatorConstraint({ name: 'percentageInBasisPoints' })
export class PercentageInBasisPoints implements ValidatorConstraintInterface {
  validate(value: unknown, args: ValidationArguments): boolean {
    const typeField = args.constraints[0] as string;
    return (args.object as Record<string, unknown>)[typeField] !== 'percentage' || typeof value !== 'number' || value <= BPS_WHOLE;
  }
  defaultMessage(args: ValidationArguments): string {
    return `${args.property} must be at most ${BPS_WHOLE} basis points for a percentage split`;
  }
}

const METADATA_CONSTRAINT = 'metadata';

@ValidatorConstraint({ name: METADATA_CONSTRAINT })
class MetadataRules implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    return metadataProblems(value).length === 0;
  }
  defaultMessage(args: ValidationArguments): string {
    const [first] = metadataProblems(args.value, args.property);
    return `${first.field} ${first.message}`;
  }
}

/**
 * An optional `metadata` field: the shared rules of @payments/domain (Stripe's limits), each
 * broken rule reported against `metadata` or `metadata.<key>`.
 */
export function OptionalMetadata(): PropertyDecorator {
  return applyDecorators(
    IsOptional(),
    Validate(MetadataRules),
    (target: object, key: string | symbol) => {
      FREE_FORM.set(target, new Set([...(FREE_FORM.get(target) ?? []), key]));
    },
    JSONSchema({
      type: 'object',
      nullable: true,
      maxProperties: METADATA_MAX_KEYS,
      additionalProperties: { type: 'string', maxLength: METADATA_VALUE_MAX_LENGTH },
      description:
        `Your key-value pairs (Stripe's rules): at most ${METADATA_MAX_KEYS} keys of 1 to ${METADATA_KEY_MAX_LENGTH} characters without [ or ], ` +
        `string values of at most ${METADATA_VALUE_MAX_LENGTH} characters, nothing nested. A key set to "" is not kept (on an update: removed); ` +
        'null or "" means none (on an update: remove all). Returned as {} when none.',
    }),
  );
}

@ValidatorConstraint({ name: 'description' })
class DescriptionRules implements ValidatorConstraintInterface {
  validate(value: unknown, args: ValidationArguments): boolean {
    return descriptionProblem(value, args.property, args.constraints[0] as { required: boolean }) === null;
  }
  defaultMessage(args: ValidationArguments): string {
    return `${args.property} ${descriptionProblem(args.value, args.property, args.constraints[0] as { required: boolean })?.message ?? 'is invalid'}`;
  }
}

/** An optional `description`: a string of at most DESCRIPTION_MAX_LENGTH characters, or null. */
export function OptionalDescription(): PropertyDecorator {
  return applyDecorators(
    IsOptional(),
    Validate(DescriptionRules, [{ required: false }]),
    JSONSchema({ type: 'string', nullable: true, maxLength: DESCRIPTION_MAX_LENGTH, description: 'Free text, shown to the customer on the hosted checkout page; "" or null means none (returned as null)' }),
  );
}

/**
 * A required `description` (a payment link's): 1 to DESCRIPTION_MAX_LENGTH characters, counted
 * as OptionalDescription counts them. `omittable` is for updates: absent leaves it as it is, but it
 * can never be removed (null or "").
 */
export function RequiredDescription({ omittable = false } = {}): PropertyDecorator {
  return applyDecorators(
    ...(omittable ? [ValidateIf((_o: object, value: unknown) => value !== undefined)] : []),
    Validate(DescriptionRules, [{ required: true }]),
    JSONSchema({ type: 'string', minLength: 1, maxLength: DESCRIPTION_MAX_LENGTH }),
  );
}
