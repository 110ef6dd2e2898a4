import type { CredentialsResult } from '../connector';

/** A Paynow integration: its id and key ("Receive Payment Links" → integration keys). */
export interface PaynowCredentials {
  integrationId: string;
  /** Lower-cased: the official Node.js, PHP and Python SDKs lower-case the key before hashing. */
  integrationKey: string;
}

const ID = /^\d{1,12}$/;
const KEY = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Validates `{ integration_id, integration_key }` (as stored or submitted); names the first bad field. */
export function parsePaynowCredentials(input: unknown): CredentialsResult<PaynowCredentials> {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    return { ok: false, field: 'credentials', message: 'must be an object with integration_id and integration_key' };
  }
  const { integration_id: id, integration_key: key } = input as Record<string, unknown>;
  if (typeof id !== 'string' || !ID.test(id.trim())) {
    return { ok: false, field: 'integration_id', message: 'must be the integration id: 1 to 12 digits' };
  }
  if (typeof key !== 'string' || !KEY.test(key.trim().toLowerCase())) {
    return {
      ok: false,
      field: 'integration_key',
      message: 'must be the integration key: a UUID (8-4-4-4-12 hexadecimal digits)',
    };
  }
  return { ok: true, value: { integrationId: id.trim(), integrationKey: key.trim().toLowerCase() } };
}

/** 'int_…1201': the last four digits of the id, never the key. */
export function maskPaynowIntegration(c: PaynowCredentials): string {
  return `int_…${c.integrationId.slice(-4)}`;
}
