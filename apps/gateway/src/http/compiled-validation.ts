import { TransformationType } from 'class-transformer';
import { defaultMetadataStorage } from 'class-transformer/cjs/storage';
import { ValidationTypes, getMetadataStorage, type ValidationArguments } from 'class-validator';

type ValidationMetadata = ReturnType<ReturnType<typeof getMetadataStorage>['getTargetValidationMetadatas']>[number];

/** The options the validation pipe gives class-validator; the compiled check assumes exactly these. */
export const VALIDATOR_OPTIONS = { whitelist: true, forbidNonWhitelisted: true, forbidUnknownValues: true } as const;

interface Check {
  property: string;
  /** ValidateIf / IsOptional conditions: when one is false the property is not validated. */
  conditions: ((object: object, value: unknown) => boolean)[];
  /** IsDefined first, then the other rules, as class-validator runs them. */
  rules: { validate: (value: unknown, args: ValidationArguments) => unknown; metadata: ValidationMetadata }[];
}

interface Compiled {
  properties: Map<string, Check>;
  /** The same checks as an array: walked on every call without an iterator or entry arrays. */
  checks: Check[];
  /** No class-transformer decorator (@Type, @Transform, @Expose, @Exclude) applies to the class. */
  plainCopy: boolean;
}

/** Metadata kinds the compiled check covers; a DTO with any other (nested, promise) always takes the full path. */
const COVERED: ReadonlySet<string> = new Set([ValidationTypes.CUSTOM_VALIDATION, ValidationTypes.CONDITIONAL_VALIDATION, ValidationTypes.IS_DEFINED, ValidationTypes.WHITELIST]);

const compiled = new Map<Function, Compiled | null>();

function compile(type: Function): Compiled | null {
  const storage = getMetadataStorage();
  // The same query class-validator makes for `validate(instance, VALIDATOR_OPTIONS)` (no groups, not `always`).
  const metadatas = storage.getTargetValidationMetadatas(type, undefined as unknown as string, false, false, undefined);
  // No metadata: forbidUnknownValues refuses the object; let class-validator say so.
  if (metadatas.length === 0) return null;
  const properties = new Map<string, Check>();
  for (const [property, list] of Object.entries(storage.groupByPropertyName(metadatas))) {
    const check: Check = { property, conditions: [], rules: [] };
    const defined: Check['rules'] = [];
    for (const m of list) {
      if (!COVERED.has(m.type)) return null;
      if (m.type === ValidationTypes.CONDITIONAL_VALIDATION) {
        check.conditions.push(m.constraints[0] as Check['conditions'][number]);
        continue;
      }
      if (m.type === ValidationTypes.WHITELIST) continue;
      for (const constraint of storage.getTargetValidatorConstraints(m.constraintCls)) {
        if (constraint.async) return null;
        const rule = { validate: constraint.instance.validate.bind(constraint.instance), metadata: m };
        (m.type === ValidationTypes.IS_DEFINED ? defined : check.rules).push(rule);
      }
    }
    check.rules = [...defined, ...check.rules];
    properties.set(property, check);
  }
  const transformer = defaultMetadataStorage;
  const plainCopy =
    transformer.getExposedMetadatas(type).length === 0 &&
    transformer.getExcludedMetadatas(type).length === 0 &&
    [...properties.keys()].every((p) => !transformer.findTypeMetadata(type, p) && transformer.findTransformMetadatas(type, p, TransformationType.PLAIN_TO_CLASS).length === 0);
  return { properties, checks: [...properties.values()], plainCopy };
}

function planOf(type: Function): Compiled | null {
  let plan = compiled.get(type);
  if (plan === undefined) {
    plan = compile(type);
    compiled.set(type, plan);
  }
  return plan;
}

/**
 * The instance plainToInstance would make of `value`, made directly when that is a plain copy:
 * a class without class-transformer decorators, every key a validated property, every value a
 * string, number, boolean or null (or caller key-value data in a `freeForm` property, which the
 * pipe copies as it is either way, after the rest). Undefined otherwise: the caller transforms.
 */
export function plainInstance(type: new () => object, value: Record<string, unknown>, freeForm: ReadonlySet<string | symbol> | undefined): object | undefined {
  const plan = planOf(type);
  if (!plan?.plainCopy) return undefined;
  const keys = Object.keys(value);
  for (const key of keys) {
    if (!plan.properties.has(key)) return undefined;
    const v = value[key];
    const primitive = v === null || typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';
    if (!primitive && !(typeof v === 'object' && freeForm?.has(key))) return undefined;
  }
  const instance = new type() as Record<string, unknown>;
  for (const key of keys) if (!freeForm?.has(key)) instance[key] = value[key];
  for (const key of keys) if (freeForm?.has(key)) instance[key] = value[key];
  return instance;
}

/** A rule's answer that class-validator counts as passed: truthy, and not a promise (an async rule not declared so). */
function passed(ok: unknown): boolean {
  return !!ok && !(typeof ok === 'object' && typeof (ok as { then?: unknown }).then === 'function');
}

/**
 * True when class-validator, given `instance` and VALIDATOR_OPTIONS, would report no error: the
 * same metadata and the same constraint functions, collected once per class instead of on every
 * request, and without building error objects. False means "not certainly valid": the caller
 * runs class-validator itself, which gives the error list (so errors are always its own).
 */
export function certainlyValid(instance: object): boolean {
  const type = instance.constructor;
  const plan = planOf(type);
  if (plan === null) return false;
  // whitelist + forbidNonWhitelisted: every own key must be a validated property.
  const keys = Object.keys(instance);
  for (let k = 0; k < keys.length; k++) if (!plan.properties.has(keys[k])) return false;
  const checks = plan.checks;
  for (let c = 0; c < checks.length; c++) {
    const check = checks[c];
    const value = (instance as Record<string, unknown>)[check.property];
    // class-validator evaluates every condition (no short cut), so this does too.
    let applies = true;
    for (let i = 0; i < check.conditions.length; i++) applies = check.conditions[i](instance, value) && applies;
    if (!applies) continue;
    // One arguments object per property; each (synchronous) rule sees its own constraints.
    let args: ValidationArguments | undefined;
    for (let r = 0; r < check.rules.length; r++) {
      const { validate, metadata } = check.rules[r];
      if (args === undefined) args = { targetName: type.name, property: metadata.propertyName, object: instance, value, constraints: metadata.constraints };
      else args.constraints = metadata.constraints;
      if (metadata.each && (Array.isArray(value) || value instanceof Set || value instanceof Map)) {
        // `each` rules apply to every item (Sets and Maps, which JSON never gives, are left to class-validator).
        if (!Array.isArray(value)) return false;
        for (let i = 0; i < value.length; i++) if (!passed(validate(value[i], args))) return false;
      } else if (!passed(validate(value, args))) {
        return false;
      }
    }
  }
  return true;
}
