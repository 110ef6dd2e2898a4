import { createHash, timingSafeEqual } from 'node:crypto';
import type { PaynowFields } from './paynow-form';

/**
 * Paynow's message hash (docs "Generating Hash"): the values of the message in message order (not
 * the keys; inbound values URL-decoded), then the integration key, UTF-8 encoded, SHA-512,
 * upper-case hexadecimal.
 */
export function paynowHash(values: readonly string[], integrationKey: string): string {
  return createHash('sha512')
    .update(values.join('') + integrationKey, 'utf8')
    .digest('hex')
    .toUpperCase();
}

/** The hash of a message: every field but `hash` itself, in order. */
export function hashOfFields(fields: PaynowFields, integrationKey: string): string {
  return paynowHash(
    fields.filter(([k]) => k !== 'hash').map(([, v]) => v),
    integrationKey,
  );
}

/** Appends `hash` to outbound fields. */
export function withHash(fields: PaynowFields, integrationKey: string): Array<readonly [string, string]> {
  return [...fields, ['hash', hashOfFields(fields, integrationKey)]];
}

export type HashCheck = 'valid' | 'missing' | 'mismatch';

/**
 * Checks an inbound message's `hash` field against the one it should carry: compared without regard
 * to case (the docs' C# example writes lower-case hex) and in constant time.
 */
export function checkHash(fields: PaynowFields, integrationKey: string): HashCheck {
  const received = fields.find(([k]) => k === 'hash')?.[1];
  if (received === undefined || received.trim() === '') return 'missing';
  const expected = Buffer.from(hashOfFields(fields, integrationKey), 'utf8');
  const given = Buffer.from(received.trim().toUpperCase(), 'utf8');
  return given.length === expected.length && timingSafeEqual(given, expected) ? 'valid' : 'mismatch';
}
