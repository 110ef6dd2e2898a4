import { createHmac, createSecretKey, randomBytes, type KeyObject } from 'node:crypto';

/**
 * Standard Webhooks signing (https://www.standardwebhooks.com), shared by the dispatcher (merchant
 * callbacks) and `ops webhooks listen` (local forwarding), so both sign exactly alike.
 */

/** A new signing secret, Standard Webhooks style: `whsec_` + base64 of 24 random bytes. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}

/**
 * Signing keys imported once per secret. Given a raw Buffer, createHmac imports the key again on every call, which
 * the dispatcher's profile showed costing several times the HMAC itself. Bounded; the oldest entry goes first.
 */
const signingKeys = new Map<string, KeyObject>();
const MAX_SIGNING_KEYS = 10_000;

function signingKey(secret: string): KeyObject {
  let key = signingKeys.get(secret);
  if (key === undefined) {
    if (signingKeys.size >= MAX_SIGNING_KEYS) signingKeys.delete(signingKeys.keys().next().value as string);
    key = createSecretKey(Buffer.from(secret.startsWith('whsec_') ? secret.slice(6) : secret, 'base64'));
    signingKeys.set(secret, key);
  }
  return key;
}

/** `v1,<base64 HMAC-SHA256(key, "<id>.<timestamp>.<body>")>` where key is the secret's base64 part. */
export function signPayload(secret: string, id: string, timestampSeconds: number, body: string): string {
  const mac = createHmac('sha256', signingKey(secret)).update(`${id}.${timestampSeconds}.${body}`).digest('base64');
  return `v1,${mac}`;
}

/** Headers of one attempt; during a secret roll both signatures go out, space-separated. */
export function webhookHeaders(
  secrets: string[],
  id: string,
  timestampSeconds: number,
  body: string,
): Record<string, string> {
  return {
    'content-type': 'application/json',
    'user-agent': 'payments-webhooks/1.0',
    'webhook-id': id,
    'webhook-timestamp': String(timestampSeconds),
    'webhook-signature': secrets.map((s) => signPayload(s, id, timestampSeconds, body)).join(' '),
  };
}
