import 'reflect-metadata';
import { getMetadataStorage, validateSync, type ValidationError } from 'class-validator';

/** Thrown at boot when the environment does not make a valid configuration. Names every bad variable. */
export class ConfigError extends Error {
  constructor(readonly problems: { variable: string; message: string }[]) {
    super(
      `invalid configuration:\n${problems.map((p) => `  - ${p.variable}: ${p.message}`).join('\n')}\n` +
        'Fix the environment variables above (see the README, "Configuration") and start again.',
    );
    this.name = 'ConfigError';
  }
}

type Ctor<T> = new () => T;

function declaredProperties(cls: Ctor<object>): string[] {
  const metas = getMetadataStorage().getTargetValidationMetadatas(cls, '', true, false);
  return [...new Set(metas.map((m) => m.propertyName))];
}

function convert(raw: string, type: unknown): unknown {
  if (type === Number) {
    const trimmed = raw.trim();
    // Plain decimal only: 0x10, 1e3 or 0b11 are not what an operator means by a port or a count.
    return /^-?\d+(\.\d+)?$/.test(trimmed) ? Number(trimmed) : raw;
  }
  if (type === Boolean) {
    const v = raw.trim().toLowerCase();
    if (['true', '1', 'yes', 'on'].includes(v)) return true;
    if (['false', '0', 'no', 'off'].includes(v)) return false;
    return raw;
  }
  return raw;
}

function describe(errors: ValidationError[], values: Record<string, unknown>): { variable: string; message: string }[] {
  return errors.map((e) => {
    const shown = e.property.match(/TOKEN|SECRET|PASSWORD|URL|CREDENTIALS/)
      ? ''
      : ` (got ${JSON.stringify(values[e.property])})`;
    return { variable: e.property, message: [...new Set(Object.values(e.constraints ?? {}))].join('; ') + shown };
  });
}

/**
 * Builds a config object from the environment: each property of `cls` is an environment variable
 * of the same name, with its default as the property initializer and class-validator rules.
 * Nothing else in the code base reads process.env.
 */
export function loadConfig<T extends object>(cls: Ctor<T>, env: NodeJS.ProcessEnv = process.env): T {
  const instance = new cls() as Record<string, unknown>;
  for (const key of declaredProperties(cls)) {
    const raw = env[key];
    // An empty variable counts as unset (orchestrators often pass VAR= for "use the default").
    if (raw === undefined || raw.trim() === '') continue;
    // The default value's type is the variable's type (every setting has a default).
    const current = instance[key];
    instance[key] = convert(
      raw,
      typeof current === 'number' ? Number : typeof current === 'boolean' ? Boolean : String,
    );
  }
  const errors = validateSync(instance, { forbidUnknownValues: false });
  if (errors.length > 0) throw new ConfigError(describe(errors, instance));
  return instance as T;
}
