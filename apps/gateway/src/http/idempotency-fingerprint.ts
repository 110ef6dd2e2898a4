import { createHash } from 'node:crypto';

/**
 * The request's parameters in one spelling: object keys sorted at every depth, so the same body
 * with its keys in another order is the same request (Stripe compares parameters, not bytes).
 */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.keys(value as object)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** The fingerprint a record is stored with: method, URL as sent and the body's parameters. */
export function requestFingerprint(method: string, url: string, body: unknown): string {
  return sha256(`${method} ${url}\n${canonicalJson(body ?? null)}`);
}

/**
 * The fingerprint as stored before it was canonical (keys in sent order), so old records still replay; it cannot make a
 * reuse pass. Remove it once IDEMPOTENCY_TTL_SECONDS has passed since the canonical release ran on every replica.
 */
export function legacyRequestFingerprint(method: string, url: string, body: unknown): string {
  return sha256(`${method} ${url}\n${JSON.stringify(body ?? null)}`);
}

export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
