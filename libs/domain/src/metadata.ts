import type { FieldError, Metadata, MetadataInput } from '@payments/contracts';

export type { Metadata, MetadataInput };

/**
 * `metadata` and `description` of transactions, payment links and refunds, with Stripe's limits:
 * at most 50 keys, keys of 1 to 40 characters without square brackets, string values of at most
 * 500 characters, nothing nested. Lengths count Unicode code points, as PostgreSQL's char_length does.
 */
export const METADATA_MAX_KEYS = 50;
export const METADATA_KEY_MAX_LENGTH = 40;
export const METADATA_VALUE_MAX_LENGTH = 500;
export const DESCRIPTION_MAX_LENGTH = 1000;

const length = (s: string) => [...s].length;

/** Required, type, format, range: the order a merchant hears about broken rules in (see the gateway's validation). */
const RANK = { type: 1, format: 2, range: 3 } as const;

/**
 * Every broken metadata rule, one per field (`metadata` itself or `metadata.<key>`), the field's
 * first broken rule only, sorted by rule rank so the first entry is what the error message names.
 */
export function metadataProblems(value: unknown, field = 'metadata'): FieldError[] {
  if (value === undefined || value === null || value === '') return [];
  if (typeof value !== 'object' || Array.isArray(value)) {
    return [{ field, message: `must be an object of string values (at most ${METADATA_MAX_KEYS} keys)` }];
  }
  const problems: { rank: number; error: FieldError }[] = [];
  const add = (rank: number, sub: string, message: string) => problems.push({ rank, error: { field: sub, message } });
  const entries = Object.entries(value as Record<string, unknown>);
  for (const [key, v] of entries) {
    const sub = `${field}.${key}`;
    if (typeof v !== 'string') {
      const what =
        v !== null && typeof v === 'object'
          ? 'nested objects and arrays are not allowed'
          : `not ${v === null ? 'null' : typeof v}`;
      add(RANK.type, sub, `must be a string (${what})`);
    } else if (key.length === 0) add(RANK.format, field, 'keys must not be empty');
    else if (/[[\]]/.test(key)) add(RANK.format, sub, 'key must not contain square brackets');
    else if (length(key) > METADATA_KEY_MAX_LENGTH)
      add(RANK.range, sub, `key must be at most ${METADATA_KEY_MAX_LENGTH} characters`);
    else if (length(v) > METADATA_VALUE_MAX_LENGTH)
      add(RANK.range, sub, `must be at most ${METADATA_VALUE_MAX_LENGTH} characters`);
  }
  if (entries.length > METADATA_MAX_KEYS)
    add(RANK.range, field, `may have at most ${METADATA_MAX_KEYS} keys (has ${entries.length})`);
  return problems.sort((a, b) => a.rank - b.rank).map((p) => p.error);
}

/**
 * The broken rule of a description, or null: a string of at most DESCRIPTION_MAX_LENGTH
 * characters. An optional one may be null or "" (none); a required one (a payment link's) must
 * be a string of at least one character.
 */
export function descriptionProblem(
  value: unknown,
  field = 'description',
  { required = false } = {},
): FieldError | null {
  if (value === undefined || value === null) {
    if (!required) return null;
    return { field, message: value === undefined ? 'is required' : 'must be a string' };
  }
  if (typeof value !== 'string') return { field, message: 'must be a string' };
  const n = length(value);
  if (required && (n === 0 || n > DESCRIPTION_MAX_LENGTH))
    return { field, message: `must be 1 to ${DESCRIPTION_MAX_LENGTH} characters` };
  if (n > DESCRIPTION_MAX_LENGTH) return { field, message: `must be at most ${DESCRIPTION_MAX_LENGTH} characters` };
  return null;
}

/** Metadata as it is stored from a valid create request: `null`/`""` → `{}`, keys set to `""` dropped. */
export function metadataToStore(input: MetadataInput | undefined): Metadata {
  if (input === undefined || input === null || input === '') return {};
  return Object.fromEntries(Object.entries(input).filter(([, v]) => v !== '')) as Metadata;
}

/**
 * Stripe's update semantics: absent leaves metadata as it is; `null`/`""` removes it all;
 * otherwise the keys given are set, and a key set to `""` is removed. Returns the new metadata.
 */
export function mergeMetadata(current: Metadata, update: MetadataInput | undefined): Metadata {
  if (update === undefined) return current;
  if (update === null || update === '') return {};
  // A Map, not an object: a merchant's key may be "__proto__".
  const next = new Map(Object.entries(current));
  for (const [k, v] of Object.entries(update)) {
    if (v === '') next.delete(k);
    else next.set(k, v as string);
  }
  return Object.fromEntries(next);
}

/** A description as stored: `""` and `null` mean none. */
export function descriptionToStore(input: string | null | undefined): string | null {
  return input === undefined || input === null || input === '' ? null : input;
}
